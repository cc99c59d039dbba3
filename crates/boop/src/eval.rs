//! What the computer knows about boop.: cats are worth far more than kittens, two of one's
//! cats in a line with the third cell open threaten to win, pieces in the middle cannot be
//! booped off the bed, and a cat line the opponent already holds wins for him next turn.

use ply_core::{Evaluator, Game, LateMoveReductions, Player};

use crate::geometry::{Cell, Line};
use crate::rules::Boop;
use crate::types::{Graduation, Kind, Move};

ply_core::weights! {
    /// boop.'s evaluation weights (`weights.txt`, read at build time; `ply tune boop` fits them).
    pub struct Weights {
        /// A cat owned, on the bed or in the pool.
        tuned CAT: 1,
        /// A piece on a centre cell (c3–d4), and one on the ring around them.
        tuned PLACE: 2,
        /// A cat on a centre cell, beyond PLACE.
        tuned CAT_CENTRE: 1,
        /// Three own cats in a line: the game is won.
        fixed CAT_LINE: 1,
        /// Three own pieces in a line (they graduate).
        tuned THREE: 1,
        /// Two own cats in a line with its third cell empty.
        tuned TWO_CATS_OPEN: 1,
        /// Two own pieces in a line with its third cell empty.
        tuned TWO_OPEN: 1,
        /// The side to move acts on his threats first.
        tuned TEMPO: 1,
    }
}

/// Cells two steps or more from every edge (c3–d4) and one step (the ring around them).
const CENTRE: u64 = bits(&[14, 15, 20, 21]);
const RING: u64 = bits(&[7, 8, 9, 10, 13, 16, 19, 22, 25, 26, 27, 28]);

const fn bits(cells: &[u8]) -> u64 {
    let mut m = 0;
    let mut i = 0;
    while i < cells.len() {
        m |= 1 << cells[i];
        i += 1;
    }
    m
}

impl Boop {
    /// A side's standing, without regard to whose turn it is.
    fn standing(&self, w: &Weights, p: Player) -> i32 {
        let kittens = self.cells_mask(p, Kind::Kitten);
        let cats = self.cells_mask(p, Kind::Cat);
        let pool = self.pool(p);
        let mine = kittens | cats;
        let empty = !self.occupied_mask() & ((1 << 36) - 1);
        let cats_owned = (cats.count_ones() + u32::from(pool.cats)) as i32;
        let mut s = w[Weights::CAT] * cats_owned;
        s += w[Weights::PLACE] * (mine & CENTRE).count_ones() as i32
            + w[Weights::PLACE + 1] * (mine & RING).count_ones() as i32;
        s += w[Weights::CAT_CENTRE] * (cats & CENTRE).count_ones() as i32;
        for line in Line::all() {
            let m = line.mask();
            let own = (mine & m).count_ones();
            let own_cats = (cats & m).count_ones();
            let open = (empty & m).count_ones();
            if own_cats == 3 {
                s += w[Weights::CAT_LINE];
            } else if own == 3 {
                s += w[Weights::THREE];
            } else if own_cats == 2 && open == 1 {
                s += w[Weights::TWO_CATS_OPEN];
            } else if own == 2 && open == 1 {
                s += w[Weights::TWO_OPEN];
            }
        }
        s
    }

    fn cells_mask(&self, p: Player, kind: Kind) -> u64 {
        self.cells_of(p, kind).fold(0, |m, c: Cell| m | c.bit())
    }

    fn occupied_mask(&self) -> u64 {
        self.state().occupied()
    }
}

ply_core::evaluator!(Eval for Boop, Weights, [
    ("default", include_str!("weights.txt")),
    ("hand", include_str!("weights-hand.txt")),
]);

impl Evaluator<Boop> for Eval {
    fn evaluate(&self, position: &Boop) -> i32 {
        let me = position.to_move();
        // The side to move gets a tempo: he acts on his threats first.
        position.standing(&self.w, me) - position.standing(&self.w, me.other())
            + self.w[Weights::TEMPO]
    }

    fn material(&self, position: &Boop) -> i32 {
        let me = position.to_move();
        let cats = |p: Player| {
            (position.cells_mask(p, Kind::Cat).count_ones() + u32::from(position.pool(p).cats))
                as i32
        };
        150 * (cats(me) - cats(me.other()))
    }

    /// Fitted: `ply tune boop --games 1000 --seed 4 --passes 0` gave 2/K = 818 on
    /// 37,101 positions of level-6 self-play games (`docs/tuning.md`, "The value scale").
    fn value_scale(&self) -> f32 {
        820.0
    }

    fn move_prior(&self, _: &Boop, mv: Move) -> i32 {
        let mut p = 0;
        match mv.graduation {
            Some(Graduation::Line(_)) => p += 150,
            Some(Graduation::Single(_, Kind::Kitten)) => p += 60,
            Some(Graduation::Single(_, Kind::Cat)) => p -= 40,
            None => {}
        }
        if mv.kind == Kind::Cat {
            p += 60;
        }
        if CENTRE & mv.cell.bit() != 0 {
            p += 30;
        } else if RING & mv.cell.bit() != 0 {
            p += 15;
        }
        p
    }

    fn is_forcing(&self, _: &Boop, mv: Move) -> bool {
        matches!(mv.graduation, Some(Graduation::Line(_)))
    }

    /// Measured: 56.7 % over 300 games against the full-width search at 100 ms a move
    /// (docs/strength.md, "boop.'s late moves searched shallower").
    fn late_move_reductions(&self) -> Option<LateMoveReductions> {
        Some(LateMoveReductions { after: 4, min_depth: 2 })
    }
}
