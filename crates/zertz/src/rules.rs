//! The rules of ZÈRTZ: the position ([`State`], and [`Position`] with its history), free
//! rings, capture chains, placements, isolation, the end of the game and the Zobrist hash.

use ply_core::zobrist::keys;
use ply_core::{History, Outcome, Player};

use crate::geometry::{Bits, Layout, NONE};
use crate::types::{Colour, Move, POW6, Variant};

/// The part of a position that changes from turn to turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// Rings still on the board.
    pub rings: u64,
    /// Marbles of each colour (W, G, B) by ring.
    pub marbles: [u64; 3],
    /// The shared pool (W, G, B).
    pub pool: [u8; 3],
    /// Each player's captures (W, G, B).
    pub captures: [[u8; 3]; 2],
    pub to_move: Player,
    pub outcome: Option<Outcome>,
    pub hash: u64,
}

impl State {
    #[inline]
    #[must_use]
    pub const fn occupied(&self) -> u64 {
        self.marbles[0] | self.marbles[1] | self.marbles[2]
    }

    #[inline]
    #[must_use]
    pub const fn vacant(&self) -> u64 {
        self.rings & !self.occupied()
    }

    /// The colour of the marble on ring `i`, if any.
    #[must_use]
    pub fn colour_at(&self, i: u8) -> Option<Colour> {
        let b = 1u64 << i;
        Colour::ALL.into_iter().find(|c| self.marbles[c.index()] & b != 0)
    }

    pub(crate) fn same_position(&self, other: &State) -> bool {
        self.hash == other.hash
            && self.rings == other.rings
            && self.marbles == other.marbles
            && self.pool == other.pool
            && self.captures == other.captures
            && self.to_move == other.to_move
    }
}

// Zobrist keys: rings present, marbles by colour and ring, pool counts, capture counts, side.
pub(crate) const K_RING: usize = 0;
pub(crate) const K_MARBLE: usize = 64;
pub(crate) const K_POOL: usize = 64 + 3 * 64;
pub(crate) const K_CAP: usize = K_POOL + 3 * 32;
pub(crate) const K_SIDE: usize = K_CAP + 6 * 32;
pub(crate) static KEYS: [u64; K_SIDE + 1] = keys::<{ K_SIDE + 1 }>(0x5A45_5254_5A00_0001);

#[inline]
pub(crate) fn key_pool(c: usize, n: u8) -> u64 {
    KEYS[K_POOL + c * 32 + (n as usize & 31)]
}

#[inline]
pub(crate) fn key_cap(p: usize, c: usize, n: u8) -> u64 {
    KEYS[K_CAP + (p * 3 + c) * 32 + (n as usize & 31)]
}

/// A ZÈRTZ position with its history.
#[derive(Clone, Debug)]
pub struct Position {
    pub(crate) variant: Variant,
    pub(crate) layout: &'static Layout,
    pub(crate) state: State,
    pub(crate) history: History<State>,
}

impl PartialEq for Position {
    fn eq(&self, other: &Self) -> bool {
        self.variant == other.variant && self.state == other.state && self.history == other.history
    }
}

impl Position {
    /// The variant.
    #[must_use]
    pub fn variant_kind(&self) -> Variant {
        self.variant
    }

    /// The board layout.
    #[must_use]
    pub fn layout(&self) -> &'static Layout {
        self.layout
    }

    /// The current state.
    #[must_use]
    pub fn state(&self) -> &State {
        &self.state
    }

    /// Rings that are free now (vacant, with two consecutive missing neighbour positions).
    #[must_use]
    pub fn free_rings(&self) -> u64 {
        let rings = self.state.rings;
        let mut free = 0;
        for i in Bits(self.state.vacant()) {
            if self.layout.at_edge(i, rings) {
                free |= 1u64 << i;
            }
        }
        free
    }

    /// Whether any marble can jump.
    #[must_use]
    #[allow(clippy::needless_range_loop)] // d indexes two neighbour tables
    pub fn has_jump(&self) -> bool {
        let occ = self.state.occupied();
        let vacant = self.state.vacant();
        let nb = &self.layout.nb;
        for a in Bits(occ) {
            for d in 0..6 {
                let b = nb[a as usize][d];
                if b == NONE || occ & (1u64 << b) == 0 {
                    continue;
                }
                let c = nb[b as usize][d];
                if c != NONE && vacant & (1u64 << c) != 0 {
                    return true;
                }
            }
        }
        false
    }

    /// The colours the player to move may place: from the pool while it holds any marble,
    /// otherwise from the mover's captures.
    #[must_use]
    pub fn placeable(&self) -> [bool; 3] {
        let s = &self.state;
        let src = if self.pool_empty() { s.captures[s.to_move.index()] } else { s.pool };
        [src[0] > 0, src[1] > 0, src[2] > 0]
    }

    /// Whether the whole pool is empty.
    #[must_use]
    pub fn pool_empty(&self) -> bool {
        self.state.pool == [0, 0, 0]
    }

    pub(crate) fn has_move(&self) -> bool {
        if self.state.vacant() == 0 {
            return false;
        }
        self.placeable().iter().any(|&b| b) || self.has_jump()
    }

    #[allow(clippy::needless_range_loop)] // d indexes two neighbour tables
    pub(crate) fn gen_chains(
        &self,
        start: u8,
        at: u8,
        occ: u64,
        depth: u8,
        dirs: u64,
        out: &mut Vec<Move>,
    ) {
        let nb = &self.layout.nb;
        let vacant = self.state.rings & !occ;
        let mut any = false;
        for d in 0..6 {
            let b = nb[at as usize][d];
            if b == NONE || occ & (1u64 << b) == 0 {
                continue;
            }
            let c = nb[b as usize][d];
            if c == NONE || vacant & (1u64 << c) == 0 {
                continue;
            }
            any = true;
            let occ2 = (occ & !(1u64 << at) & !(1u64 << b)) | (1u64 << c);
            self.gen_chains(start, c, occ2, depth + 1, dirs + d as u64 * POW6[depth as usize], out);
        }
        if !any && depth > 0 {
            out.push(Move::Capture { start, len: depth, dirs });
        }
    }

    pub(crate) fn gen_captures(&self, out: &mut Vec<Move>) {
        let occ = self.state.occupied();
        for a in Bits(occ) {
            self.gen_chains(a, a, occ, 0, 0, out);
        }
    }

    pub(crate) fn set_pool(&mut self, c: usize, n: u8) {
        let s = &mut self.state;
        s.hash ^= key_pool(c, s.pool[c]) ^ key_pool(c, n);
        s.pool[c] = n;
    }

    pub(crate) fn set_cap(&mut self, p: usize, c: usize, n: u8) {
        let s = &mut self.state;
        s.hash ^= key_cap(p, c, s.captures[p][c]) ^ key_cap(p, c, n);
        s.captures[p][c] = n;
    }

    pub(crate) fn toggle_marble(&mut self, c: usize, i: u8) {
        self.state.marbles[c] ^= 1u64 << i;
        self.state.hash ^= KEYS[K_MARBLE + c * 64 + i as usize];
    }

    pub(crate) fn remove_ring(&mut self, i: u8) {
        self.state.rings &= !(1u64 << i);
        self.state.hash ^= KEYS[K_RING + i as usize];
    }

    /// Takes the marbles and rings of `set` for the mover.
    pub(crate) fn take(&mut self, set: u64) {
        let p = self.state.to_move.index();
        for c in 0..3 {
            let taken = self.state.marbles[c] & set;
            if taken != 0 {
                let n = self.state.captures[p][c] + taken.count_ones() as u8;
                self.set_cap(p, c, n);
                for i in Bits(taken) {
                    self.toggle_marble(c, i);
                }
            }
        }
        for i in Bits(set & self.state.rings) {
            self.remove_ring(i);
        }
    }

    /// Isolation, win check, change of side, repetition, and the next player's lack of moves.
    pub(crate) fn end_turn(&mut self) {
        let mover = self.state.to_move;
        let vacant = self.state.vacant();
        let mut outcome = None;
        if vacant == 0 {
            // 4.5.1: the full board goes to the mover, who wins.
            self.take(self.state.rings);
            outcome = Some(Outcome::Win(mover));
        } else {
            // 4.5.2: groups without a vacant ring are taken.
            let rings = self.state.rings;
            let mut reach = vacant;
            loop {
                let mut grow = reach;
                for i in Bits(reach) {
                    grow |= self.layout.nb_mask[i as usize];
                }
                grow &= rings;
                if grow == reach {
                    break;
                }
                reach = grow;
            }
            let isolated = rings & !reach;
            if isolated != 0 {
                self.take(isolated);
            }
            if self.variant.is_win(self.state.captures[mover.index()]) {
                outcome = Some(Outcome::Win(mover));
            }
        }
        self.state.to_move = mover.other();
        self.state.hash ^= KEYS[K_SIDE];
        if outcome.is_none() {
            let seen = self.history.count(|h| h.same_position(&self.state));
            if seen >= 2 {
                outcome = Some(Outcome::Draw);
            } else if !self.has_move() {
                outcome = Some(Outcome::Win(mover));
            }
        }
        self.state.outcome = outcome;
    }
}

pub(crate) fn hash_of(s: &State) -> u64 {
    let mut h = 0;
    for i in Bits(s.rings) {
        h ^= KEYS[K_RING + i as usize];
    }
    for c in 0..3 {
        for i in Bits(s.marbles[c]) {
            h ^= KEYS[K_MARBLE + c * 64 + i as usize];
        }
        h ^= key_pool(c, s.pool[c]);
        for p in 0..2 {
            h ^= key_cap(p, c, s.captures[p][c]);
        }
    }
    if s.to_move == Player::P2 {
        h ^= KEYS[K_SIDE];
    }
    h
}
