//! The variants, the turns and the pieces as seen from outside of PÜNCT: [`Variant`],
//! [`Move`] (a placement, a shift or a pass, naming the resulting position exactly) and
//! [`PieceInfo`].

use ply_core::Player;

use crate::geometry::{Kind, Orient, Point, shape_points};

/// Pieces per player.
pub const PIECES_PER_PLAYER: usize = 18;

/// The two variants (§1.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// No placement may ever touch the central hexagon; exhaustion is decided by the centre.
    Standard,
    /// Only White's first placement is kept out of the centre; exhaustion is a draw.
    Basic,
}

impl Variant {
    #[must_use]
    pub const fn id(self) -> &'static str {
        match self {
            Variant::Standard => "standard",
            Variant::Basic => "basic",
        }
    }

    #[must_use]
    pub fn from_id(id: &str) -> Option<Variant> {
        match id {
            "standard" => Some(Variant::Standard),
            "basic" => Some(Variant::Basic),
            _ => None,
        }
    }
}

/// One whole turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// A piece of `orient.kind()` from the supply, PÜNCT dot on `at` ([P1]–[P5]).
    Place { at: Point, orient: Orient },
    /// The free piece whose PÜNCT dot is on `from` moves its PÜNCT dot to `to` and takes
    /// `orient` (of its own kind) there ([M1]–[M8]).
    Shift { from: Point, to: Point, orient: Orient },
    /// Only when the mover has no placement and no shift ([A3]).
    Pass,
}

impl Move {
    /// The three points `[PÜNCT, plain, plain]` the piece ends on (plain dots ascending).
    #[must_use]
    pub fn points(self) -> Option<[Point; 3]> {
        let (at, orient) = match self {
            Move::Place { at, orient } => (at, orient),
            Move::Shift { to, orient, .. } => (to, orient),
            Move::Pass => return None,
        };
        let [q, a, b] = shape_points(at, orient)?;
        Some(if a < b { [q, a, b] } else { [q, b, a] })
    }
}
/// A piece on the board as seen from outside.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PieceInfo {
    pub owner: Player,
    pub kind: Kind,
    pub orient: Orient,
    /// The PÜNCT point.
    pub punct: Point,
    /// The plain-dot points, ascending.
    pub plain: [Point; 2],
    /// 1 on the board, one more for every level below.
    pub level: u8,
    /// Whether another piece has a dot over one of its points (§4).
    pub covered: bool,
}
