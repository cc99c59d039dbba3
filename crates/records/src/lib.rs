//! The ply game record: PGN-like headers and the turns in each game's canonical notation.
//!
//! ```text
//! [Game "boop"]
//! [Variant "boooop"]
//! [P1 "Ada"]
//! [P2 "Brian"]
//! [Date "2026.11.30"]
//! [Result "1-0"]
//!
//! 1. Kc3@a1b1 Kd4 2. Ke5 {the ghost scares b4 away} Kf6 1-0
//! ```
//!
//! The format is documented for people in `docs/records.md`. Reading reports every problem
//! with its line and column; [`Record::replay`] plays the turns through the rules and names
//! the first turn that is not legal.

pub mod boardspace;

use std::fmt::{self, Write};

use ply_core::{AnyGame, Outcome, Player, Registry};
use thiserror::Error;

/// How a game ended according to its record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// `1-0`
    P1Wins,
    /// `0-1`
    P2Wins,
    /// `1/2-1/2`
    Draw,
    /// `*`: unfinished, or not known.
    Unknown,
}

impl GameResult {
    #[must_use]
    pub const fn token(self) -> &'static str {
        match self {
            GameResult::P1Wins => "1-0",
            GameResult::P2Wins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unknown => "*",
        }
    }

    #[must_use]
    pub fn from_token(token: &str) -> Option<GameResult> {
        match token {
            "1-0" => Some(GameResult::P1Wins),
            "0-1" => Some(GameResult::P2Wins),
            "1/2-1/2" => Some(GameResult::Draw),
            "*" => Some(GameResult::Unknown),
            _ => None,
        }
    }

    #[must_use]
    pub fn from_outcome(outcome: Option<Outcome>) -> GameResult {
        match outcome {
            Some(Outcome::Win(Player::P1)) => GameResult::P1Wins,
            Some(Outcome::Win(Player::P2)) => GameResult::P2Wins,
            Some(Outcome::Draw) => GameResult::Draw,
            None => GameResult::Unknown,
        }
    }

    /// The outcome this result claims, if it claims one.
    #[must_use]
    pub fn outcome(self) -> Option<Outcome> {
        match self {
            GameResult::P1Wins => Some(Outcome::Win(Player::P1)),
            GameResult::P2Wins => Some(Outcome::Win(Player::P2)),
            GameResult::Draw => Some(Outcome::Draw),
            GameResult::Unknown => None,
        }
    }
}

/// One turn of a record, as written, with its optional comment and where it stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordMove {
    pub text: String,
    pub comment: Option<String>,
    /// 1-based line and column of the turn in the source text (0 for records built in code).
    pub line: usize,
    pub column: usize,
}

impl RecordMove {
    #[must_use]
    pub fn new(text: impl Into<String>) -> RecordMove {
        RecordMove { text: text.into(), comment: None, line: 0, column: 0 }
    }
}

/// A game record.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Record {
    /// Headers in the order they appear.
    pub headers: Vec<(String, String)>,
    /// A comment before the first turn.
    pub comment: Option<String>,
    pub moves: Vec<RecordMove>,
}

/// A record that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("line {line}, column {column}: {message}")]
pub struct ParseError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

/// A record that reads but does not replay.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ReplayError {
    #[error("the record has no [Game \"...\"] header")]
    MissingGame,
    #[error("{0}")]
    UnknownGame(String),
    #[error("{0}")]
    UnknownVariant(String),
    #[error("turn {number} '{text}' (line {line}, column {column}): {reason}")]
    IllegalMove { number: usize, text: String, line: usize, column: usize, reason: String },
    #[error("the record says {claimed} but the game ended {actual}")]
    WrongResult { claimed: String, actual: String },
}

impl Record {
    /// A record of `game` in `variant` with no turns.
    #[must_use]
    pub fn new(game: &str, variant: &str) -> Record {
        let mut r = Record::default();
        r.set_header("Game", game);
        r.set_header("Variant", variant);
        r
    }

    /// The value of a header.
    #[must_use]
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }

    /// Sets a header, replacing an earlier value and keeping its place.
    pub fn set_header(&mut self, name: &str, value: &str) {
        match self.headers.iter_mut().find(|(k, _)| k == name) {
            Some(entry) => entry.1 = value.to_string(),
            None => self.headers.push((name.to_string(), value.to_string())),
        }
    }

    /// The `Result` header, `*` when it is missing or unreadable.
    #[must_use]
    pub fn result(&self) -> GameResult {
        self.header("Result").and_then(GameResult::from_token).unwrap_or(GameResult::Unknown)
    }

    /// The record of a game played so far, with its result set from the position.
    #[must_use]
    pub fn of_game(game: &dyn AnyGame) -> Record {
        let mut r = Record::new(game.name(), game.variant());
        r.moves = game.history().iter().map(RecordMove::new).collect();
        r.set_header("Result", GameResult::from_outcome(game.outcome()).token());
        r
    }

    /// Reads a record.
    ///
    /// # Errors
    /// [`ParseError`] with the line and column of the first problem.
    pub fn parse(text: &str) -> Result<Record, ParseError> {
        Parser::new(text).record()
    }

    /// Plays every turn through the rules of the game the headers name.
    ///
    /// # Errors
    /// [`ReplayError`]: an unknown game or variant, the first turn that is not legal (its
    /// number, text, place and the reason), or a `Result` header that contradicts a game
    /// that ended on the board.
    pub fn replay(&self, registry: &Registry) -> Result<Box<dyn AnyGame>, ReplayError> {
        let name = self.header("Game").ok_or(ReplayError::MissingGame)?;
        let entry = registry.get(name).map_err(|e| ReplayError::UnknownGame(e.to_string()))?;
        let mut game = entry
            .new_game(self.header("Variant"))
            .map_err(|e| ReplayError::UnknownVariant(e.to_string()))?;
        for (i, mv) in self.moves.iter().enumerate() {
            game.play(&mv.text).map_err(|e| ReplayError::IllegalMove {
                number: i + 1,
                text: mv.text.clone(),
                line: mv.line,
                column: mv.column,
                reason: e.to_string(),
            })?;
        }
        let claimed = self.result();
        if let Some(actual) = game.outcome()
            && claimed != GameResult::Unknown
            && claimed.outcome() != Some(actual)
        {
            return Err(ReplayError::WrongResult {
                claimed: claimed.token().to_string(),
                actual: format!("{} ({actual})", GameResult::from_outcome(Some(actual)).token()),
            });
        }
        Ok(game)
    }
}

fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

impl fmt::Display for Record {
    /// Headers, a blank line, then numbered turns wrapped at 80 columns and the result.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (k, v) in &self.headers {
            writeln!(f, "[{k} \"{}\"]", escape(v))?;
        }
        writeln!(f)?;
        let mut words: Vec<String> = Vec::new();
        if let Some(c) = &self.comment {
            words.push(format!("{{{c}}}"));
        }
        for (i, mv) in self.moves.iter().enumerate() {
            if i % 2 == 0 {
                words.push(format!("{}.", i / 2 + 1));
            }
            words.push(mv.text.clone());
            if let Some(c) = &mv.comment {
                words.push(format!("{{{c}}}"));
            }
        }
        words.push(self.result().token().to_string());
        let mut line = String::new();
        for w in words {
            if !line.is_empty() && line.len() + 1 + w.len() > 80 {
                writeln!(f, "{line}")?;
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            let _ = write!(line, "{w}");
        }
        writeln!(f, "{line}")
    }
}

struct Parser<'a> {
    chars: Vec<char>,
    at: usize,
    line: usize,
    column: usize,
    _text: &'a str,
}

impl<'a> Parser<'a> {
    fn new(text: &'a str) -> Self {
        Parser { chars: text.chars().collect(), at: 0, line: 1, column: 1, _text: text }
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.at += 1;
        if c == '\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        Some(c)
    }

    fn error(&self, message: impl Into<String>) -> ParseError {
        ParseError { line: self.line, column: self.column, message: message.into() }
    }

    fn error_at(line: usize, column: usize, message: impl Into<String>) -> ParseError {
        ParseError { line, column, message: message.into() }
    }

    fn skip_space(&mut self) {
        while let Some(c) = self.peek() {
            if c.is_whitespace() {
                self.bump();
            } else if c == ';' {
                while let Some(c) = self.bump() {
                    if c == '\n' {
                        break;
                    }
                }
            } else {
                break;
            }
        }
    }

    fn record(mut self) -> Result<Record, ParseError> {
        let mut record = Record::default();
        self.skip_space();
        while self.peek() == Some('[') {
            let (k, v) = self.header()?;
            if record.header(&k).is_some() {
                return Err(self.error(format!("header {k} appears twice")));
            }
            record.headers.push((k, v));
            self.skip_space();
        }
        let mut result: Option<(GameResult, usize, usize)> = None;
        let mut expected_number = 1;
        loop {
            self.skip_space();
            let Some(c) = self.peek() else { break };
            let (line, column) = (self.line, self.column);
            if let Some((_, l, col)) = result {
                return Err(Self::error_at(
                    line,
                    column,
                    format!("nothing may follow the result token (line {l}, column {col})"),
                ));
            }
            if c == '{' {
                let comment = self.comment()?;
                // Comments in a row make one, their words joined by single spaces as in each.
                let slot = match record.moves.last_mut() {
                    Some(m) => &mut m.comment,
                    None => &mut record.comment,
                };
                match slot {
                    Some(existing) => {
                        if !existing.is_empty() && !comment.is_empty() {
                            existing.push(' ');
                        }
                        existing.push_str(&comment);
                    }
                    None => *slot = Some(comment),
                }
                continue;
            }
            if c == '[' {
                return Err(self.error("headers must come before the turns"));
            }
            if c == '}' {
                return Err(self.error("'}' without an opening '{'"));
            }
            let mut word = String::new();
            while let Some(c) = self.peek() {
                if c.is_whitespace() || c == '{' || c == ';' {
                    break;
                }
                word.push(c);
                self.bump();
            }
            if let Some(r) = GameResult::from_token(&word) {
                result = Some((r, line, column));
                continue;
            }
            if let Some(number) = word.strip_suffix('.').map(|w| w.trim_end_matches('.')) {
                if number.chars().all(|c| c.is_ascii_digit()) && !number.is_empty() {
                    let n: usize = number.parse().map_err(|_| {
                        Self::error_at(line, column, format!("'{word}' is not a turn number"))
                    })?;
                    let turn = record.moves.len();
                    if n != expected_number || turn % 2 != 0 && !word.ends_with("...") {
                        return Err(Self::error_at(
                            line,
                            column,
                            format!(
                                "turn number {n} is out of place: turn {} comes next (number {})",
                                turn + 1,
                                turn / 2 + 1
                            ),
                        ));
                    }
                    continue;
                }
                return Err(Self::error_at(line, column, format!("'{word}' is not a turn number")));
            }
            record.moves.push(RecordMove { text: word, comment: None, line, column });
            expected_number = record.moves.len() / 2 + 1;
        }
        if let Some((r, line, column)) = result {
            match record.header("Result").map(|h| (h, GameResult::from_token(h))) {
                None => record.headers.push(("Result".into(), r.token().into())),
                Some((_, Some(h))) if h == r => {}
                Some((h, _)) => {
                    return Err(Self::error_at(
                        line,
                        column,
                        format!("the result token {} contradicts [Result \"{h}\"]", r.token()),
                    ));
                }
            }
        }
        if let Some(h) = record.header("Result")
            && GameResult::from_token(h).is_none()
        {
            return Err(ParseError {
                line: 1,
                column: 1,
                message: format!("[Result \"{h}\"] is not one of 1-0, 0-1, 1/2-1/2, *"),
            });
        }
        Ok(record)
    }

    fn header(&mut self) -> Result<(String, String), ParseError> {
        self.bump(); // [
        let mut name = String::new();
        while let Some(c) = self.peek() {
            if c.is_ascii_alphanumeric() || c == '_' {
                name.push(c);
                self.bump();
            } else {
                break;
            }
        }
        if name.is_empty() {
            return Err(self.error("a header starts with its name, like [Game \"boop\"]"));
        }
        while self.peek() == Some(' ') || self.peek() == Some('\t') {
            self.bump();
        }
        if self.peek() != Some('"') {
            return Err(self.error(format!("header {name}: the value must be in double quotes")));
        }
        self.bump();
        let mut value = String::new();
        loop {
            match self.bump() {
                None | Some('\n') => {
                    return Err(
                        self.error(format!("header {name}: the value's closing quote is missing"))
                    );
                }
                Some('\\') => match self.bump() {
                    Some(c @ ('"' | '\\')) => value.push(c),
                    _ => {
                        return Err(
                            self.error(format!("header {name}: only \\\" and \\\\ are escapes"))
                        );
                    }
                },
                Some('"') => break,
                Some(c) => value.push(c),
            }
        }
        while self.peek() == Some(' ') || self.peek() == Some('\t') {
            self.bump();
        }
        if self.peek() != Some(']') {
            return Err(self.error(format!("header {name}: ']' expected after the value")));
        }
        self.bump();
        Ok((name, value))
    }

    fn comment(&mut self) -> Result<String, ParseError> {
        let (line, column) = (self.line, self.column);
        self.bump(); // {
        let mut text = String::new();
        loop {
            match self.bump() {
                None => {
                    return Err(Self::error_at(
                        line,
                        column,
                        "this comment is never closed with '}'",
                    ));
                }
                Some('}') => break,
                Some('{') => return Err(self.error("comments cannot be nested")),
                Some(c) => text.push(c),
            }
        }
        Ok(text.split_whitespace().collect::<Vec<_>>().join(" "))
    }
}
