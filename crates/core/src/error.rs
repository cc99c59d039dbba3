use thiserror::Error;

/// A move that cannot be played. The message says, in words a player understands, what is
/// wrong with it ("c3 is occupied", "graduation choice required: b3c3d3 or d1d2d3").
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MoveError {
    /// The text is not written in the game's notation at all.
    #[error("{0}")]
    Syntax(String),
    /// Well written, but not a legal turn in this position.
    #[error("{0}")]
    Illegal(String),
    /// An abbreviation that fits more than one legal turn; the player must say which.
    #[error("{0}")]
    Ambiguous(String),
    /// The game has ended; no turn can be played.
    #[error("the game is over ({0})")]
    GameOver(String),
}

impl MoveError {
    /// The human-readable reason, without the category.
    #[must_use]
    pub fn reason(&self) -> String {
        self.to_string()
    }
}

/// A variant name the game does not know.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{game} has no variant '{given}' (variants: {})", known.join(", "))]
pub struct VariantError {
    pub game: &'static str,
    pub given: String,
    pub known: &'static [&'static str],
}

impl VariantError {
    /// `given` is not a variant of game `G`: the error names the game and its variants.
    #[must_use]
    pub fn of<G: crate::Game>(given: &str) -> Self {
        VariantError { game: G::NAME, given: given.to_string(), known: G::variants() }
    }
}
