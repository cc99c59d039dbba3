//! Set-ups: positions described in the reference's words ([`Setup`]), for tests, analysis
//! and position strings, checked against the rules when they become a [`Position`] (with
//! the typed [`PositionError`] of the contract), and the start positions.

use ply_core::{History, Outcome, Player, PositionError};

use crate::rules::{Position, State, hash_of};
use crate::types::{Colour, Variant};

/// A position for tests and analysis, described in the shared reference's words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// Marbles such as `"Wa1 Gb2 Bc4"`.
    pub marbles: String,
    /// Removed rings such as `"f1 g1"`.
    pub removed: String,
    /// The pool (W, G, B).
    pub pool: [u8; 3],
    /// Captures of Player 1 and Player 2 (W, G, B).
    pub captures: [[u8; 3]; 2],
    pub to_move: Player,
}

impl Position {
    /// The start position of a variant.
    #[must_use]
    pub fn start(variant: Variant) -> Position {
        let layout = variant.board().layout();
        let mut state = State {
            rings: layout.all,
            marbles: [0; 3],
            pool: variant.marbles(),
            captures: [[0; 3]; 2],
            to_move: Player::P1,
            outcome: None,
            hash: 0,
        };
        state.hash = hash_of(&state);
        Position { variant, layout, state, history: History::new() }
    }

    /// A position built from a [`Setup`].
    ///
    /// # Errors
    /// When a ring does not exist or is named twice, the marble counts do not add up to the
    /// variant's marbles, no ring is vacant, or a player already holds a winning set.
    pub fn from_setup(setup: &Setup, variant: Variant) -> Result<Position, PositionError> {
        Position::build(setup, variant, None)
    }

    /// [`from_setup`](Position::from_setup), or with `over` a finished game with that
    /// outcome: a winning set and a full board are then allowed (position strings).
    pub(crate) fn build(
        setup: &Setup,
        variant: Variant,
        over: Option<Outcome>,
    ) -> Result<Position, PositionError> {
        let layout = variant.board().layout();
        let ring = |t: &str| {
            layout.parse_name(t).ok_or_else(|| PositionError::BadCell {
                field: "setup",
                text: t.to_string(),
                what: "ring",
            })
        };
        let mut rings = layout.all;
        for t in setup.removed.split_whitespace() {
            let i = ring(t)?;
            if rings & (1 << i) == 0 {
                return Err(PositionError::Inconsistent(format!("ring {t} removed twice")));
            }
            rings &= !(1u64 << i);
        }
        let mut marbles = [0u64; 3];
        for t in setup.marbles.split_whitespace() {
            let mut chars = t.chars();
            let colour = chars.next().and_then(Colour::from_letter).ok_or_else(|| {
                PositionError::BadPiece {
                    field: "setup",
                    text: t.to_string(),
                    expected: "a marble W, G or B and its ring",
                }
            })?;
            let i = ring(chars.as_str())?;
            let b = 1u64 << i;
            if rings & b == 0 {
                return Err(PositionError::Inconsistent(format!(
                    "marble {t} is on a removed ring"
                )));
            }
            if (marbles[0] | marbles[1] | marbles[2]) & b != 0 {
                return Err(PositionError::Inconsistent(format!(
                    "two marbles on {}",
                    layout.name(i)
                )));
            }
            marbles[colour.index()] |= b;
        }
        let total = variant.marbles();
        for c in Colour::ALL {
            let k = c.index();
            let sum = marbles[k].count_ones()
                + u32::from(setup.pool[k])
                + u32::from(setup.captures[0][k])
                + u32::from(setup.captures[1][k]);
            if sum != u32::from(total[k]) {
                return Err(PositionError::Inconsistent(format!(
                    "{} marbles add up to {sum}, not {}",
                    c.word(),
                    total[k]
                )));
            }
        }
        for p in Player::BOTH {
            if over.is_none() && variant.is_win(setup.captures[p.index()]) {
                return Err(PositionError::Inconsistent(format!(
                    "{p} already holds a winning set"
                )));
            }
        }
        let mut state = State {
            rings,
            marbles,
            pool: setup.pool,
            captures: setup.captures,
            to_move: setup.to_move,
            outcome: None,
            hash: 0,
        };
        if over.is_none() && state.vacant() == 0 {
            return Err(PositionError::Inconsistent(
                "no vacant ring: the game would be over".into(),
            ));
        }
        state.hash = hash_of(&state);
        let mut pos = Position { variant, layout, state, history: History::new() };
        if over.is_some() {
            pos.state.outcome = over;
        } else if !pos.has_move() {
            pos.state.outcome = Some(Outcome::Win(setup.to_move.other()));
        }
        Ok(pos)
    }
}
