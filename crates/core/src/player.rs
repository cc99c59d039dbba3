use std::fmt;
use std::ops::{Index, IndexMut};

/// One of the two players. `P1` moves first in every game. On the wire and in stores it is
/// `"P1"` or `"P2"`.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum Player {
    P1,
    P2,
}

impl Player {
    pub const BOTH: [Player; 2] = [Player::P1, Player::P2];

    /// 0 for `P1`, 1 for `P2`.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    #[inline]
    #[must_use]
    pub const fn from_index(i: usize) -> Player {
        if i == 0 { Player::P1 } else { Player::P2 }
    }

    /// The opponent.
    #[inline]
    #[must_use]
    pub const fn other(self) -> Player {
        match self {
            Player::P1 => Player::P2,
            Player::P2 => Player::P1,
        }
    }

    /// `"P1"` or `"P2"`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Player::P1 => "P1",
            Player::P2 => "P2",
        }
    }

    /// Reads `"P1"` or `"P2"`.
    #[must_use]
    pub fn parse(text: &str) -> Option<Player> {
        match text {
            "P1" => Some(Player::P1),
            "P2" => Some(Player::P2),
            _ => None,
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    Win(Player),
    Draw,
}

impl Outcome {
    /// The winner, if there is one.
    #[must_use]
    pub const fn winner(self) -> Option<Player> {
        match self {
            Outcome::Win(p) => Some(p),
            Outcome::Draw => None,
        }
    }

    /// The result from `player`'s point of view: 1 for a win, 0 for a loss, ½ for a draw.
    #[must_use]
    pub fn score_for(self, player: Player) -> f64 {
        match self {
            Outcome::Win(p) if p == player => 1.0,
            Outcome::Win(_) => 0.0,
            Outcome::Draw => 0.5,
        }
    }
}

impl fmt::Display for Outcome {
    /// `P1 wins`, `P2 wins` or `draw`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Win(p) => write!(f, "{p} wins"),
            Outcome::Draw => f.write_str("draw"),
        }
    }
}

/// A value for each player, indexed by [`Player`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ByPlayer<T>(pub [T; 2]);

impl<T> ByPlayer<T> {
    pub const fn new(p1: T, p2: T) -> Self {
        ByPlayer([p1, p2])
    }
}

impl<T> Index<Player> for ByPlayer<T> {
    type Output = T;
    #[inline]
    fn index(&self, p: Player) -> &T {
        &self.0[p.index()]
    }
}

impl<T> IndexMut<Player> for ByPlayer<T> {
    #[inline]
    fn index_mut(&mut self, p: Player) -> &mut T {
        &mut self.0[p.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn players_alternate() {
        assert_eq!(Player::P1.other(), Player::P2);
        assert_eq!(Player::P2.other().other(), Player::P2);
        assert_eq!(Player::from_index(Player::P2.index()), Player::P2);
    }

    #[test]
    fn outcome_text_and_scores() {
        assert_eq!(Outcome::Win(Player::P2).to_string(), "P2 wins");
        assert_eq!(Outcome::Draw.to_string(), "draw");
        assert_eq!(Outcome::Win(Player::P1).score_for(Player::P2), 0.0);
        assert_eq!(Outcome::Draw.score_for(Player::P2), 0.5);
    }
}
