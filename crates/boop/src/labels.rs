//! Piece identities for pictures. The rules treat pieces of a kind as interchangeable, but a
//! browser that animates a boop needs to know which piece went where, so each piece carries a
//! label `1 + player * 16 + kind * 8 + number` (0 marks an empty cell). Kitten numbers 0–7
//! are fixed at the start; a graduated kitten's number is retired. A player who owns `n` cats
//! owns cat numbers `0..n`, since cats never leave their owner. Labels are not part of the
//! position for the repetition rule or the hash.

use ply_core::Player;

use crate::geometry::Cell;
use crate::position::{Kind, State};

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

/// Gives every piece of a set-up position a label: kittens on the bed take the lowest
/// numbers in ascending cell order, then those in the pool; the same for cats.
pub(crate) fn assign(state: &mut State) {
    for player in Player::BOTH {
        let kittens_on_bed = state.pieces[player.index()][0];
        let kittens = kittens_on_bed.count_ones() + state.pools[player].kittens as u32;
        state.kittens_alive[player.index()] = ((1u16 << kittens) - 1) as u8;
        for kind in [Kind::Kitten, Kind::Cat] {
            for (number, cell) in
                Cell::in_mask(state.pieces[player.index()][kind.index()]).enumerate()
            {
                state.labels[cell.index()] = label(player, kind, number as u8);
            }
        }
    }
}
