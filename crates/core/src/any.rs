use std::fmt;

use serde_json::{Value, json};
use thiserror::Error;

use crate::{
    Game, Motion, MoveError, Outcome, Player, PositionError, PositionString, VariantError, View,
    perft,
};

/// Any game behind one object-safe interface, with moves as canonical notation strings.
///
/// This is what the command line, records, the engine protocol and the server use; they never
/// name a game. It keeps the list of turns played, in canonical notation.
pub trait AnyGame: Send + Sync {
    /// The game id (`"boop"`).
    fn name(&self) -> &'static str;
    /// The name people read (`"boop."`).
    fn display_name(&self) -> &'static str;
    /// The variant id of this game.
    fn variant(&self) -> &'static str;
    /// Whether the game can be drawn (see [`Game::HAS_DRAWS`](crate::Game::HAS_DRAWS)).
    fn has_draws(&self) -> bool;
    fn to_move(&self) -> Player;
    fn outcome(&self) -> Option<Outcome>;
    /// The legal turns in canonical notation, sorted by byte order; empty when the game is over.
    fn legal_moves(&self) -> Vec<String>;
    /// How many legal turns there are (cheaper than [`legal_moves`](AnyGame::legal_moves)).
    fn legal_move_count(&self) -> usize;
    /// Reads `text` (abbreviations allowed), plays it, and returns its canonical form.
    ///
    /// # Errors
    /// [`MoveError`] when the text does not name a legal turn; the game is then unchanged.
    fn play(&mut self, text: &str) -> Result<String, MoveError>;
    /// The canonical form of `text` in this position, without playing it.
    ///
    /// # Errors
    /// As [`play`](AnyGame::play).
    fn canonical(&self, text: &str) -> Result<String, MoveError>;
    /// Takes back the last turn; `false` if none was played.
    fn undo(&mut self) -> bool;
    /// The turns played so far, canonical.
    fn history(&self) -> &[String];
    fn hash(&self) -> u64;
    /// The current position as a position string (see [`PositionString`]).
    fn position_string(&self) -> String;
    /// Perft from this position.
    fn perft(&mut self, depth: u32) -> u64;
    /// Perft split by first move.
    fn divide(&mut self, depth: u32) -> Vec<(String, u64)>;
    /// The text diagram of the board and pools, without a status line.
    fn diagram(&self) -> String;
    /// `to move: P1`, `result: P2 wins` or `result: draw`.
    fn status_line(&self) -> String {
        match self.outcome() {
            None => format!("to move: {}", self.to_move()),
            Some(outcome) => format!("result: {outcome}"),
        }
    }
    /// The board as an SVG document with stable ids.
    fn svg(&self) -> String;
    /// The click path of a legal turn given in notation.
    ///
    /// # Errors
    /// As [`play`](AnyGame::play).
    fn click_path(&self, text: &str) -> Result<Vec<String>, MoveError>;
    /// Every legal turn with its click path, sorted by notation.
    fn click_paths(&self) -> Vec<(String, Vec<String>)>;
    /// The pieces that travel when the legal turn `text` is played (see [`View::motions`]).
    ///
    /// # Errors
    /// As [`play`](AnyGame::play).
    fn motions(&self, text: &str) -> Result<Vec<Motion>, MoveError>;
    /// Reads `text` once, plays it, and tells how the turn is shown: its canonical notation,
    /// its click path and the pieces it moved (all of the position before it).
    ///
    /// # Errors
    /// As [`play`](AnyGame::play); the game is then unchanged.
    fn play_shown(&mut self, text: &str) -> Result<ShownTurn, MoveError>;
    /// Every legal turn with its click path and what each click does (see
    /// [`View::click_steps`]), sorted by notation.
    fn click_steps(&self) -> Vec<(String, Vec<String>, Vec<&'static str>)>;
    /// The picture of the turn being built after the clicks `prefix` (see [`View::preview`]);
    /// empty when no legal turn starts with them or there is nothing to show.
    fn preview(&self, prefix: &[String]) -> String;
    /// Why the game ended by its rules (see [`View::end_reason`]).
    fn end_reason(&self) -> Option<&'static str>;
    /// The typed game behind this object, for code that knows its type (an engine of the same
    /// game takes its position from it without replaying the turns).
    fn as_any(&self) -> &dyn std::any::Any;
    /// The whole state as JSON: game, variant, board, pools, to_move, outcome, legal move count.
    fn state_json(&self) -> Value;
    fn box_clone(&self) -> Box<dyn AnyGame>;
}

/// The [`position_key`](crate::position_key) of the position before each turn played in
/// `game`, in order (the archive and the opening explorer key turns by them).
#[must_use]
pub fn position_keys(game: &dyn AnyGame) -> Vec<i64> {
    let mut earlier = game.box_clone();
    let mut keys = Vec::with_capacity(game.history().len());
    while earlier.undo() {
        keys.push(crate::position_key(&earlier.position_string()));
    }
    keys.reverse();
    keys
}

impl Clone for Box<dyn AnyGame> {
    fn clone(&self) -> Self {
        self.box_clone()
    }
}

impl fmt::Debug for dyn AnyGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AnyGame")
            .field("name", &self.name())
            .field("variant", &self.variant())
            .field("history", &self.history())
            .finish()
    }
}

/// A turn as [`AnyGame::play_shown`] played it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShownTurn {
    /// Canonical notation.
    pub notation: String,
    /// The ids a person clicks to make it, in the picture before it.
    pub path: Vec<String>,
    /// The pieces it moved (see [`View::motions`]).
    pub motions: Vec<Motion>,
}

/// The [`AnyGame`] wrapper of a typed [`Game`].
#[derive(Clone, Debug)]
pub struct DynGame<G: Game> {
    game: G,
    history: Vec<String>,
}

impl<G: Game + View + PositionString> DynGame<G> {
    #[must_use]
    pub fn new(game: G) -> Self {
        DynGame { game, history: Vec::new() }
    }

    /// The typed position.
    #[must_use]
    pub fn game(&self) -> &G {
        &self.game
    }

    fn moves(&self) -> Vec<G::Move> {
        let mut moves = Vec::new();
        self.game.legal_moves(&mut moves);
        moves
    }
}

fn outcome_json(outcome: Option<Outcome>) -> Value {
    match outcome {
        None => Value::Null,
        Some(Outcome::Win(p)) => json!({ "winner": p.as_str() }),
        Some(Outcome::Draw) => json!("draw"),
    }
}

impl<G: Game + View + PositionString> AnyGame for DynGame<G> {
    fn name(&self) -> &'static str {
        G::NAME
    }
    fn display_name(&self) -> &'static str {
        G::DISPLAY_NAME
    }
    fn variant(&self) -> &'static str {
        self.game.variant()
    }
    fn has_draws(&self) -> bool {
        G::HAS_DRAWS
    }
    fn to_move(&self) -> Player {
        self.game.to_move()
    }
    fn outcome(&self) -> Option<Outcome> {
        self.game.outcome()
    }
    fn legal_moves(&self) -> Vec<String> {
        let mut out: Vec<String> =
            self.moves().into_iter().map(|m| self.game.format_move(m)).collect();
        out.sort();
        out
    }
    fn legal_move_count(&self) -> usize {
        self.moves().len()
    }
    fn play(&mut self, text: &str) -> Result<String, MoveError> {
        let mv = self.game.parse_move(text)?;
        let canonical = self.game.format_move(mv);
        self.game.play(mv);
        self.history.push(canonical.clone());
        Ok(canonical)
    }
    fn canonical(&self, text: &str) -> Result<String, MoveError> {
        let mv = self.game.parse_move(text)?;
        Ok(self.game.format_move(mv))
    }
    fn undo(&mut self) -> bool {
        if self.history.pop().is_some() {
            self.game.undo();
            true
        } else {
            false
        }
    }
    fn history(&self) -> &[String] {
        &self.history
    }
    fn hash(&self) -> u64 {
        self.game.hash()
    }
    fn position_string(&self) -> String {
        self.game.position_string()
    }
    fn perft(&mut self, depth: u32) -> u64 {
        perft(&mut self.game, depth)
    }
    fn divide(&mut self, depth: u32) -> Vec<(String, u64)> {
        crate::divide(&mut self.game, depth)
    }
    fn diagram(&self) -> String {
        self.game.diagram()
    }
    fn svg(&self) -> String {
        self.game.svg()
    }
    fn click_path(&self, text: &str) -> Result<Vec<String>, MoveError> {
        let mv = self.game.parse_move(text)?;
        Ok(self.game.click_path(mv))
    }
    fn motions(&self, text: &str) -> Result<Vec<Motion>, MoveError> {
        let mv = self.game.parse_move(text)?;
        Ok(self.game.motions(mv))
    }
    fn play_shown(&mut self, text: &str) -> Result<ShownTurn, MoveError> {
        let mv = self.game.parse_move(text)?;
        let turn = ShownTurn {
            notation: self.game.format_move(mv),
            path: self.game.click_path(mv),
            motions: self.game.motions(mv),
        };
        self.game.play(mv);
        self.history.push(turn.notation.clone());
        Ok(turn)
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
    fn click_paths(&self) -> Vec<(String, Vec<String>)> {
        let mut out: Vec<(String, Vec<String>)> = self
            .moves()
            .into_iter()
            .map(|m| (self.game.format_move(m), self.game.click_path(m)))
            .collect();
        out.sort();
        out
    }
    fn click_steps(&self) -> Vec<(String, Vec<String>, Vec<&'static str>)> {
        let mut out: Vec<_> = self
            .moves()
            .into_iter()
            .map(|m| (self.game.format_move(m), self.game.click_path(m), self.game.click_steps(m)))
            .collect();
        out.sort();
        out
    }
    fn preview(&self, prefix: &[String]) -> String {
        let moves: Vec<G::Move> = self
            .moves()
            .into_iter()
            .filter(|&m| {
                let path = self.game.click_path(m);
                path.len() > prefix.len() && path.starts_with(prefix)
            })
            .collect();
        if moves.is_empty() { String::new() } else { self.game.preview(prefix, &moves) }
    }
    fn end_reason(&self) -> Option<&'static str> {
        self.game.end_reason()
    }
    fn state_json(&self) -> Value {
        let mut value = json!({
            "game": G::NAME,
            "variant": self.game.variant(),
            "to_move": self.game.to_move().as_str(),
            "outcome": outcome_json(self.game.outcome()),
            "legal_move_count": self.legal_move_count(),
            "turns_played": self.history.len(),
        });
        if let (Value::Object(target), Value::Object(extra)) = (&mut value, self.game.state_json())
        {
            for (k, v) in extra {
                target.entry(k).or_insert(v);
            }
        }
        value
    }
    fn box_clone(&self) -> Box<dyn AnyGame> {
        Box::new(self.clone())
    }
}

/// One game in the [`Registry`].
#[derive(Clone, Copy)]
pub struct GameEntry {
    pub name: &'static str,
    pub display_name: &'static str,
    /// Every variant id, the default first.
    pub variants: &'static [&'static str],
    constructor: fn(&str) -> Result<Box<dyn AnyGame>, VariantError>,
    from_position: fn(&str) -> Result<Box<dyn AnyGame>, PositionError>,
    /// The game's texts in a language (see [`View::texts`]).
    pub texts: fn(&str) -> &'static str,
    /// The game's short rules in a language (see [`View::rules`]).
    pub rules: fn(&str) -> &'static str,
}

impl fmt::Debug for GameEntry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GameEntry")
            .field("name", &self.name)
            .field("variants", &self.variants)
            .finish()
    }
}

fn construct<G: Game + View + PositionString>(
    variant: &str,
) -> Result<Box<dyn AnyGame>, VariantError> {
    Ok(Box::new(DynGame::new(G::new(variant)?)))
}

fn construct_at<G: Game + View + PositionString>(
    text: &str,
) -> Result<Box<dyn AnyGame>, PositionError> {
    Ok(Box::new(DynGame::new(G::from_position_string(text)?)))
}

impl GameEntry {
    /// The entry of a typed game.
    #[must_use]
    pub fn of<G: Game + View + PositionString>() -> GameEntry {
        GameEntry {
            name: G::NAME,
            display_name: G::DISPLAY_NAME,
            variants: G::variants(),
            constructor: construct::<G>,
            from_position: construct_at::<G>,
            texts: G::texts,
            rules: G::rules,
        }
    }

    #[must_use]
    pub fn default_variant(&self) -> &'static str {
        self.variants[0]
    }

    /// A new game of `variant`, or of the default variant.
    ///
    /// # Errors
    /// [`VariantError`] for an unknown variant.
    pub fn new_game(&self, variant: Option<&str>) -> Result<Box<dyn AnyGame>, VariantError> {
        (self.constructor)(variant.unwrap_or(self.default_variant()))
    }

    /// The game at the position a position string gives, without history.
    ///
    /// # Errors
    /// [`PositionError`] naming what is wrong with the string (also when it is another
    /// game's).
    pub fn from_position(&self, text: &str) -> Result<Box<dyn AnyGame>, PositionError> {
        (self.from_position)(text)
    }
}

/// A game name no registered game has.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("unknown game '{given}' (games: {})", known.join(", "))]
pub struct UnknownGame {
    pub given: String,
    pub known: Vec<&'static str>,
}

/// The games a program knows, by name.
#[derive(Clone, Debug, Default)]
pub struct Registry {
    entries: Vec<GameEntry>,
}

impl Registry {
    #[must_use]
    pub fn new(entries: Vec<GameEntry>) -> Self {
        Registry { entries }
    }

    #[must_use]
    pub fn entries(&self) -> &[GameEntry] {
        &self.entries
    }

    /// The game called `name`.
    ///
    /// # Errors
    /// [`UnknownGame`] listing the known names.
    pub fn get(&self, name: &str) -> Result<&GameEntry, UnknownGame> {
        self.entries.iter().find(|e| e.name == name).ok_or_else(|| UnknownGame {
            given: name.to_string(),
            known: self.entries.iter().map(|e| e.name).collect(),
        })
    }

    /// The game at the position a position string gives; its first field names the game.
    ///
    /// # Errors
    /// [`PositionError`]: an empty string, an unknown game, or what the game finds wrong.
    pub fn from_position(&self, text: &str) -> Result<Box<dyn AnyGame>, PositionError> {
        let trimmed = text.trim();
        if trimmed.is_empty() {
            return Err(PositionError::Empty);
        }
        let name = crate::position::game_of(trimmed).unwrap_or(trimmed);
        let entry = self.get(name).map_err(|e| PositionError::WrongGame {
            expected: format!("a game ({})", e.known.join(", ")),
            found: name.to_string(),
        })?;
        entry.from_position(trimmed)
    }
}
