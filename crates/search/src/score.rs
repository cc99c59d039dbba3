use std::fmt;

/// A search value from the point of view of the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Score(pub i32);

impl Score {
    /// A win this many plies from now scores `WIN - plies`.
    pub const WIN: i32 = 1_000_000;
    /// Scores above this are proven wins, below its negation proven losses.
    pub const PROVEN: i32 = Score::WIN - 10_000;

    #[must_use]
    pub const fn win_in(plies: u32) -> Score {
        Score(Score::WIN - plies as i32)
    }

    #[must_use]
    pub const fn loss_in(plies: u32) -> Score {
        Score(-Score::WIN + plies as i32)
    }

    /// `Some(plies)` for a proven win.
    #[must_use]
    pub const fn wins_in(self) -> Option<u32> {
        if self.0 > Score::PROVEN { Some((Score::WIN - self.0) as u32) } else { None }
    }

    /// `Some(plies)` for a proven loss.
    #[must_use]
    pub const fn loses_in(self) -> Option<u32> {
        if self.0 < -Score::PROVEN { Some((Score::WIN + self.0) as u32) } else { None }
    }
}

impl fmt::Display for Score {
    /// `+123`, `win in 3`, `loss in 2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(n) = self.wins_in() {
            write!(f, "win in {n}")
        } else if let Some(n) = self.loses_in() {
            write!(f, "loss in {n}")
        } else {
            write!(f, "{:+}", self.0)
        }
    }
}
