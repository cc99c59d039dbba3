//! Position strings: a one-line text form of any position of any game (like chess's FEN or the
//! Universal Hive Protocol's game string), written and read by every game
//! ([`PositionString`]), with one typed error ([`PositionError`]).
//!
//! Every position string has the same frame, fields separated by `;` and no whitespace:
//!
//! ```text
//! <game>;<variant>;<game fields…>;<to move>;<result>
//! ```
//!
//! `<to move>` is `P1` or `P2`; `<result>` is `*` while the game goes on, else `P1wins`,
//! `P2wins` or `draw`. The game fields in between are each game's own (`docs/position-strings.md`).
//! A string holds a position, not a history: the repetition rules of boop., ZÈRTZ and PÜNCT
//! count from the position it gives, as a FEN does for chess.

use thiserror::Error;

use crate::{Game, Outcome, Player, VariantError};

/// A position written as a position string, or read from one.
///
/// Invariants every implementation upholds (and the generic tests check on random games):
/// * `from_position_string(&g.position_string())` gives a position with the same
///   [`hash`](Game::hash), the same string, the same legal turns and the same outcome;
/// * play continued from it goes on exactly as from `g` (up to the repetition rule, which
///   counts from the parsed position);
/// * no text makes `from_position_string` panic.
pub trait PositionString: Game {
    /// The position in one line, without whitespace.
    fn position_string(&self) -> String;

    /// Reads a position string. The position has no history: [`turns_played`](Game::turns_played)
    /// is 0 and it cannot be undone.
    ///
    /// # Errors
    /// [`PositionError`] naming what is wrong.
    fn from_position_string(text: &str) -> Result<Self, PositionError>;
}

/// Why a text is not a position string of a game. The message names the field and what is
/// wrong with it.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PositionError {
    /// Nothing was given.
    #[error("the position string is empty")]
    Empty,
    /// A position string is one token: it has no spaces or line breaks.
    #[error("a position string has no whitespace (fields are separated by ';')")]
    Whitespace,
    /// Too few or too many `;`-separated fields.
    #[error("a {game} position string has {expected} fields separated by ';', found {found}")]
    FieldCount { game: &'static str, expected: usize, found: usize },
    /// The first field names no game, or another game than the one asked for.
    #[error("'{found}' is not {expected}")]
    WrongGame { expected: String, found: String },
    /// The second field is not a variant of the game.
    #[error(transparent)]
    UnknownVariant(#[from] VariantError),
    /// A cell, point or ring name that the board does not have.
    #[error("{field}: '{text}' is not a {what} of this board")]
    BadCell { field: &'static str, text: String, what: &'static str },
    /// A piece, marble or symbol that cannot be read.
    #[error("{field}: cannot read '{text}' ({expected})")]
    BadPiece { field: &'static str, text: String, expected: &'static str },
    /// A number that cannot be read or is out of range.
    #[error("{field}: '{text}' is not a count from 0 to {max}")]
    BadCount { field: &'static str, text: String, max: u32 },
    /// Any other malformed field.
    #[error("{field}: {reason}")]
    BadField { field: &'static str, reason: String },
    /// The player-to-move field.
    #[error("'{0}' is not the player to move (P1 or P2)")]
    BadPlayer(String),
    /// The result field.
    #[error("'{0}' is not a result (*, P1wins, P2wins or draw)")]
    BadResult(String),
    /// Well written, but not a position of the game: too many pieces, a piece floating, a
    /// finished game marked as going on, and so on (the game's own set-up check says what).
    #[error("not a position of the game: {0}")]
    Inconsistent(String),
}

/// The frame of a position string, split: what [`split`] reads and [`join`] writes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame<'a> {
    /// The variant id (checked against the game's variants).
    pub variant: &'static str,
    /// The game's own fields, in order.
    pub fields: Vec<&'a str>,
    pub to_move: Player,
    /// `None` while the game goes on.
    pub result: Option<Outcome>,
}

/// The result field: `*`, `P1wins`, `P2wins` or `draw`.
#[must_use]
pub fn result_token(result: Option<Outcome>) -> &'static str {
    match result {
        None => "*",
        Some(Outcome::Win(Player::P1)) => "P1wins",
        Some(Outcome::Win(Player::P2)) => "P2wins",
        Some(Outcome::Draw) => "draw",
    }
}

/// Reads a result field.
///
/// # Errors
/// [`PositionError::BadResult`].
pub fn parse_result(text: &str) -> Result<Option<Outcome>, PositionError> {
    match text {
        "*" => Ok(None),
        "P1wins" => Ok(Some(Outcome::Win(Player::P1))),
        "P2wins" => Ok(Some(Outcome::Win(Player::P2))),
        "draw" => Ok(Some(Outcome::Draw)),
        _ => Err(PositionError::BadResult(text.to_string())),
    }
}

/// Writes the frame around a game's fields.
#[must_use]
pub fn join<G: Game>(game: &G, fields: &[String]) -> String {
    let mut out = format!("{};{}", G::NAME, game.variant());
    for f in fields {
        out.push(';');
        out.push_str(f);
    }
    out.push(';');
    out.push_str(game.to_move().as_str());
    out.push(';');
    out.push_str(result_token(game.outcome()));
    out
}

/// The game id a position string names in its first field, if the text looks like one (it
/// has a `;`).
#[must_use]
pub fn game_of(text: &str) -> Option<&str> {
    text.trim().split_once(';').map(|(g, _)| g)
}

/// Splits a position string of game `G` with `count` game fields and checks the frame: the
/// game, a known variant, the player to move and the result.
///
/// # Errors
/// [`PositionError`] for the first field that is wrong.
pub fn split<G: Game>(text: &str, count: usize) -> Result<Frame<'_>, PositionError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(PositionError::Empty);
    }
    if text.chars().any(char::is_whitespace) {
        return Err(PositionError::Whitespace);
    }
    let parts: Vec<&str> = text.split(';').collect();
    if parts[0] != G::NAME {
        return Err(PositionError::WrongGame {
            expected: format!(
                "{} (a {} position string starts '{};')",
                G::NAME,
                G::DISPLAY_NAME,
                G::NAME
            ),
            found: parts[0].to_string(),
        });
    }
    if parts.len() != count + 4 {
        return Err(PositionError::FieldCount {
            game: G::NAME,
            expected: count + 4,
            found: parts.len(),
        });
    }
    let variant = G::variants()
        .iter()
        .copied()
        .find(|v| *v == parts[1])
        .ok_or_else(|| VariantError::of::<G>(parts[1]))?;
    let to_move = Player::parse(parts[count + 2])
        .ok_or_else(|| PositionError::BadPlayer(parts[count + 2].to_string()))?;
    let result = parse_result(parts[count + 3])?;
    Ok(Frame { variant, fields: parts[2..count + 2].to_vec(), to_move, result })
}

/// Checks that a parsed position's own outcome agrees with the string's result field, when
/// the rules can see it from the position alone.
///
/// # Errors
/// [`PositionError::Inconsistent`] when the position is over by the rules but the string says
/// the game goes on, or the string names another result than the rules give.
pub fn check_result(derived: Option<Outcome>, given: Option<Outcome>) -> Result<(), PositionError> {
    match (derived, given) {
        (Some(d), None) => Err(PositionError::Inconsistent(format!(
            "the game is over ({d}) but the result field says it goes on (*)"
        ))),
        (Some(d), Some(g)) if d != g => Err(PositionError::Inconsistent(format!(
            "the position gives the result '{}', the result field says '{}'",
            result_token(Some(d)),
            result_token(Some(g))
        ))),
        _ => Ok(()),
    }
}

/// Reads a small count field.
///
/// # Errors
/// [`PositionError::BadCount`] when `text` is not a number from 0 to `max`.
pub fn parse_count(field: &'static str, text: &str, max: u32) -> Result<u8, PositionError> {
    let bad = || PositionError::BadCount { field, text: text.to_string(), max };
    if text.is_empty() || text.len() > 3 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    let n: u32 = text.parse().map_err(|_| bad())?;
    if n > max {
        return Err(bad());
    }
    u8::try_from(n).map_err(|_| bad())
}

/// The key of a position for the opening explorer and the archive: a 64-bit FNV-1a hash of its
/// position string. Positions reached by different move orders have the same string, so they
/// share a key (transpositions count together). The function is fixed here (not the
/// Zobrist hash, whose tables may change with a game's code) because keys are stored in
/// databases and must mean the same thing to every later version.
#[must_use]
pub fn position_key(position_string: &str) -> i64 {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0100_0000_01b3;
    let hash = position_string.bytes().fold(OFFSET, |h, b| (h ^ u64::from(b)).wrapping_mul(PRIME));
    // Databases store signed 64-bit integers: the same 64 bits, read as signed.
    i64::from_ne_bytes(hash.to_ne_bytes())
}

#[cfg(test)]
mod key_tests {
    use super::position_key;

    /// FNV-1a's published test vectors (the empty string and "a"), so the stored keys keep
    /// their meaning.
    #[test]
    fn the_key_is_fnv1a_64() {
        assert_eq!(position_key("") as u64, 0xcbf2_9ce4_8422_2325);
        assert_eq!(position_key("a") as u64, 0xaf63_dc4c_8601_ec8c);
        assert_ne!(position_key("zertz;standard;x;P1;*"), position_key("zertz;standard;x;P2;*"));
    }
}
