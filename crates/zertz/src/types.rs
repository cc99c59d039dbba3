//! The marbles, the variants (boards, marbles, win thresholds) and the turns of ZÈRTZ:
//! [`Colour`], [`Variant`] and [`Move`] (a placement with its ring removal, or a whole
//! capture chain).

use crate::geometry::Board;

/// The variant ids, the default first.
pub const VARIANTS: &[&str] = &["37", "40", "43", "44", "48", "61", "blitz"];

/// A marble colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Colour {
    White = 0,
    Grey = 1,
    Black = 2,
}

impl Colour {
    pub const ALL: [Colour; 3] = [Colour::White, Colour::Grey, Colour::Black];

    /// `W`, `G` or `B`.
    #[must_use]
    pub const fn letter(self) -> char {
        match self {
            Colour::White => 'W',
            Colour::Grey => 'G',
            Colour::Black => 'B',
        }
    }

    /// The colour of a letter `W`, `G` or `B` (upper case only).
    #[must_use]
    pub const fn from_letter(c: char) -> Option<Colour> {
        match c {
            'W' => Some(Colour::White),
            'G' => Some(Colour::Grey),
            'B' => Some(Colour::Black),
            _ => None,
        }
    }

    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// `white`, `grey` or `black`.
    #[must_use]
    pub const fn word(self) -> &'static str {
        match self {
            Colour::White => "white",
            Colour::Grey => "grey",
            Colour::Black => "black",
        }
    }
}

/// One of the seven variants.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    V37,
    V40,
    V43,
    V44,
    V48,
    V61,
    Blitz,
}

impl Variant {
    pub const ALL: [Variant; 7] = [
        Variant::V37,
        Variant::V40,
        Variant::V43,
        Variant::V44,
        Variant::V48,
        Variant::V61,
        Variant::Blitz,
    ];

    /// The id: `37` … `61`, `blitz`.
    #[must_use]
    pub const fn id(self) -> &'static str {
        match self {
            Variant::V37 => "37",
            Variant::V40 => "40",
            Variant::V43 => "43",
            Variant::V44 => "44",
            Variant::V48 => "48",
            Variant::V61 => "61",
            Variant::Blitz => "blitz",
        }
    }

    /// The variant with this id.
    #[must_use]
    pub fn from_id(id: &str) -> Option<Variant> {
        Variant::ALL.into_iter().find(|v| v.id() == id)
    }

    /// The board it is played on.
    #[must_use]
    pub const fn board(self) -> Board {
        match self {
            Variant::V37 | Variant::Blitz => Board::B37,
            Variant::V40 => Board::B40,
            Variant::V43 => Board::B43,
            Variant::V44 => Board::B44,
            Variant::V48 => Board::B48,
            Variant::V61 => Board::B61,
        }
    }

    /// The number of rings of its board (`"37"` for blitz).
    #[must_use]
    pub const fn board_rings(self) -> &'static str {
        match self {
            Variant::Blitz => "37",
            v => v.id(),
        }
    }

    /// The marbles of each colour in the game (W, G, B).
    #[must_use]
    pub const fn marbles(self) -> [u8; 3] {
        match self {
            Variant::Blitz => [5, 7, 9],
            _ => [6, 8, 10],
        }
    }

    /// Captures that win: (W, G, B) of one colour, or `each` of every colour.
    #[must_use]
    pub const fn win_thresholds(self) -> ([u8; 3], u8) {
        match self {
            Variant::Blitz => ([3, 4, 5], 2),
            _ => ([4, 5, 6], 3),
        }
    }

    /// Whether captures `caps` (W, G, B) win.
    #[must_use]
    pub const fn is_win(self, caps: [u8; 3]) -> bool {
        let (single, each) = self.win_thresholds();
        caps[0] >= single[0]
            || caps[1] >= single[1]
            || caps[2] >= single[2]
            || (caps[0] >= each && caps[1] >= each && caps[2] >= each)
    }
}

/// One whole turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// A marble of `colour` on ring `ring`, then ring `remove` taken away ([`board::NONE`] when
    /// no ring was free after the placement).
    Place { colour: Colour, ring: u8, remove: u8 },
    /// A capture chain: the marble on `start` makes `len` jumps; jump k goes in direction
    /// `(dirs / 6^k) % 6` (N, NE, SE, S, SW, NW).
    Capture { start: u8, len: u8, dirs: u64 },
}

impl Move {
    /// The direction of jump `k` of a capture.
    #[must_use]
    pub const fn jump_direction(dirs: u64, k: u8) -> usize {
        ((dirs / POW6[k as usize]) % 6) as usize
    }
}

/// 6^k for k ≤ 24 (a chain has at most 23 jumps: every jump takes one of at most 24 marbles).
pub(crate) const POW6: [u64; 25] = {
    let mut t = [1u64; 25];
    let mut i = 1;
    while i < 25 {
        t[i] = t[i - 1] * 6;
        i += 1;
    }
    t
};
