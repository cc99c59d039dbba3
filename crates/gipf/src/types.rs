//! The pieces, the variants and the turns of GIPF: [`Variant`], [`Piece`], the tournament
//! [`EntryPhase`], and [`Move`], one whole turn (pre-push removals, the push, post-push
//! removals, with the GIPF pieces kept at each removal).

use ply_core::Player;

use crate::geometry::{self, Point};

/// Capacity of [`Move`]'s removal array: at most 6 steps in one removal phase, two phases
/// per turn.
///
/// Why 6 per phase. Within one phase no piece is added. Two steps of one phase are never on
/// the same line: a line holds at most one row (two would need 4 + 1 + 4 > 7 points), and
/// after a step every point of that row is empty or kept (in K), so a later row on the same
/// line would lie inside K and not be live (4.5). A single piece is taken by the first step
/// whose run holds it, so it lies in at most one processed row; a GIPF piece lies on 3 lines,
/// so it is in at most 3 processed rows. Every processed row holds at least 4 pieces of the
/// remover's colour, so with s singles and g GIPF pieces of his on the board,
/// 4 × steps ≤ s + 3g = (s + 2g) + g ≤ 18 + 9 = 27 (18 chips, so g ≤ 9), hence steps ≤ 6.
/// (`standard`: g ≤ 3 gives 5; `basic`: 15 / 4 gives 3.) `Move::add_step` asserts it.
pub const MAX_STEPS: usize = 12;

/// The three variants, default first.
pub const VARIANTS: &[&str] = &["standard", "basic", "tournament"];

/// A GIPF variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    Standard,
    Basic,
    Tournament,
}

impl Variant {
    /// The variant id.
    #[must_use]
    pub const fn id(self) -> &'static str {
        match self {
            Variant::Standard => "standard",
            Variant::Basic => "basic",
            Variant::Tournament => "tournament",
        }
    }

    /// The variant with this id.
    #[must_use]
    pub fn from_id(id: &str) -> Option<Variant> {
        match id {
            "standard" => Some(Variant::Standard),
            "basic" => Some(Variant::Basic),
            "tournament" => Some(Variant::Tournament),
            _ => None,
        }
    }

    /// Chips per player: 15 in `basic`, 18 otherwise.
    #[must_use]
    pub const fn chips(self) -> u8 {
        match self {
            Variant::Basic => 15,
            _ => 18,
        }
    }
}

/// A piece on a point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub player: Player,
    /// A GIPF piece (two stacked chips) rather than a single piece.
    pub gipf: bool,
}

/// Where a player stands with the tournament entry rules T1–T4 (gipf.md 4.7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum EntryPhase {
    /// Has entered nothing yet: must enter a GIPF piece (T1). Not GIPF-committed.
    #[default]
    NotStarted,
    /// Has entered GIPF pieces only: may enter either kind (T2). GIPF-committed.
    GipfPieces,
    /// Has entered a single piece: singles only from now on (T3). GIPF-committed.
    Singles,
}

impl EntryPhase {
    pub(crate) const fn index(self) -> usize {
        self as usize
    }
}

/// One removal step of a turn: the line of the row, and the GIPF pieces kept, as a mask of
/// positions along the line (bit i = the line's i-th point in ascending order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub(crate) struct Step {
    pub(crate) line: u8,
    pub(crate) keep: u8,
}

/// One whole turn: pre-push removals, an optional push, post-push removals.
///
/// The removal steps are stored in a fixed array of [`MAX_STEPS`]; unused slots are zero so
/// derived equality and hashing are exact. Its meaning depends on the position it was
/// generated in (a step names a line; the run is found on the board when it is played).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// `NO_PUSH`, or the entry index (0–41) with `GIPF_BIT` set for a GIPF piece.
    pub(crate) push: u8,
    /// Number of pre-push removal steps.
    pub(crate) pre: u8,
    /// Total number of removal steps.
    pub(crate) len: u8,
    pub(crate) steps: [Step; MAX_STEPS],
}

pub(crate) const NO_PUSH: u8 = 0xFF;
pub(crate) const GIPF_BIT: u8 = 0x80;

impl Move {
    pub(crate) const EMPTY: Move =
        Move { push: NO_PUSH, pre: 0, len: 0, steps: [Step { line: 0, keep: 0 }; MAX_STEPS] };

    /// The push of the turn, as (dot, first point, GIPF piece?); `None` for a turn that ends
    /// the game during its pre-push removals.
    #[must_use]
    pub fn push(&self) -> Option<(Point, Point, bool)> {
        if self.push == NO_PUSH {
            return None;
        }
        let e = geometry::ENTRIES[(self.push & !GIPF_BIT) as usize];
        Some((
            Point::from_index(e.dot as usize)?,
            Point::from_index(e.first as usize)?,
            self.push & GIPF_BIT != 0,
        ))
    }

    /// Number of removal steps before and after the push.
    #[must_use]
    pub fn removal_counts(&self) -> (usize, usize) {
        (self.pre as usize, (self.len - self.pre) as usize)
    }

    pub(crate) fn add_step(&mut self, step: Step) {
        assert!((self.len as usize) < MAX_STEPS, "more than MAX_STEPS removals in one turn");
        self.steps[self.len as usize] = step;
        self.len += 1;
    }

    pub(crate) fn pop_step(&mut self) {
        self.len -= 1;
        self.steps[self.len as usize] = Step::default();
    }
}
