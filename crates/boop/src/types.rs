//! The pieces, the variants and the turns of boop. (types the rules, the notation and the
//! pictures share), and piece identities for pictures: the rules treat pieces of a kind as
//! interchangeable, but a browser that animates a boop needs to know which piece went where,
//! so each piece carries a label `1 + player * 16 + kind * 8 + number` (0 marks an empty
//! cell). Kitten numbers 0–7 are fixed at the start; a graduated kitten's number is retired.
//! A player who owns `n` cats owns cat numbers `0..n`, since cats never leave their owner.
//! Labels are not part of the position for the repetition rule or the hash.

use ply_core::Player;

use crate::geometry::{Cell, Line, Segment, Travel};

/// Kitten or cat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    Kitten,
    Cat,
}

impl Kind {
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// The variant being played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// The base game.
    Boop,
    /// The Halloween edition with one ghost cat per player.
    Boooop,
}

impl Variant {
    #[must_use]
    pub const fn id(self) -> &'static str {
        match self {
            Variant::Boop => "boop",
            Variant::Boooop => "boooop",
        }
    }

    #[must_use]
    pub fn from_id(id: &str) -> Option<Variant> {
        match id {
            "boop" => Some(Variant::Boop),
            "boooop" => Some(Variant::Boooop),
            _ => None,
        }
    }
}

/// A player's pieces off the bed that he can place.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Pool {
    pub kittens: u8,
    pub cats: u8,
}

impl Pool {
    #[must_use]
    pub const fn count(self, kind: Kind) -> u8 {
        match kind {
            Kind::Kitten => self.kittens,
            Kind::Cat => self.cats,
        }
    }

    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.kittens == 0 && self.cats == 0
    }
}

/// A ghost on the bed: where it sits and which way it travels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GhostOnBed {
    pub segment: Segment,
    pub travel: Travel,
}

/// How the mover graduates at the end of his turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Graduation {
    /// A line of three of his pieces, at least one a kitten ([R1]).
    Line(Line),
    /// All eight on the bed: the single piece on this cell ([R2]); `kind` is what it is.
    Single(Cell, Kind),
}

/// One whole turn of boop.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub kind: Kind,
    pub cell: Cell,
    /// The entry segment the mover places his ghost on this turn, if he does.
    pub ghost: Option<Segment>,
    pub graduation: Option<Graduation>,
}

/// What a cell holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub player: Player,
    pub kind: Kind,
}

// ---------------------------------------------------------------------------------------------
// Piece identities

/// Updates labels and the Zobrist hash alongside the bitboards during `play`.
pub(crate) struct Tracker<'a> {
    pub labels: &'a mut [u8; 36],
    pub hash: &'a mut u64,
}

#[must_use]
pub(crate) const fn label(player: Player, kind: Kind, number: u8) -> u8 {
    1 + player.index() as u8 * 16 + kind.index() as u8 * 8 + number
}

/// (player, kind, number) of a non-zero label.
#[must_use]
pub(crate) fn decode(label: u8) -> (Player, Kind, u8) {
    let v = label - 1;
    let player = Player::from_index((v / 16) as usize);
    let kind = if (v / 8).is_multiple_of(2) { Kind::Kitten } else { Kind::Cat };
    (player, kind, v % 8)
}

/// The numbers of `player`'s pieces of `kind` that are in his pool, ascending.
pub(crate) fn pool_numbers(
    labels: &[u8; 36],
    kittens_alive: u8,
    player: Player,
    kind: Kind,
) -> Vec<u8> {
    let owned: u8 = match kind {
        Kind::Kitten => kittens_alive,
        Kind::Cat => {
            let cats = 8 - kittens_alive.count_ones();
            ((1u16 << cats) - 1) as u8
        }
    };
    let mut on_bed = 0u8;
    for &l in labels.iter().filter(|&&l| l != 0) {
        let (p, k, n) = decode(l);
        if p == player && k == kind {
            on_bed |= 1 << n;
        }
    }
    (0..8).filter(|n| owned & !on_bed & (1 << n) != 0).collect()
}

impl Tracker<'_> {
    pub fn place(&mut self, player: Player, kind: Kind, cell: Cell, kittens_alive: u8) {
        let number =
            pool_numbers(self.labels, kittens_alive, player, kind).first().copied().unwrap_or(0);
        self.labels[cell.index()] = label(player, kind, number);
    }

    pub fn relocate(&mut self, from: u8, to: Option<u8>, hash_delta: u64) {
        *self.hash ^= hash_delta;
        let l = std::mem::take(&mut self.labels[from as usize]);
        if let Some(t) = to {
            self.labels[t as usize] = l;
        }
    }

    /// Takes the pieces of `removed` off; the kittens among them retire.
    pub fn graduate(&mut self, removed: u64, kittens: u64, alive: &mut u8) {
        for cell in Cell::in_mask(removed) {
            let l = std::mem::take(&mut self.labels[cell.index()]);
            if kittens & cell.bit() != 0 && l != 0 {
                let (_, _, n) = decode(l);
                *alive &= !(1 << n);
            }
        }
    }
}
