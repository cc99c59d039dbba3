//! The rules of GIPF: the position ([`State`], and [`Position`] with its history), pushes,
//! rows, removal steps and the whole-turn generator (gipf.md 4.2–4.8), the entry phases and
//! the Zobrist hash.

use ply_core::{History, Player, zobrist};

use crate::geometry::{
    self, AXIS_STEP, CELL_LINE, CELL_POS, ENTRIES, Entry, LINES, NUM_ENTRIES, NUM_LINES, Point,
};
use crate::types::{EntryPhase, GIPF_BIT, Move, NO_PUSH, Piece, Step, Variant};

/// Pieces, reserves and captures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Board {
    /// Cells holding a piece of each colour (single or GIPF).
    pub color: [u64; 2],
    /// Cells holding a GIPF piece (of either colour).
    pub gipf: u64,
    pub reserve: [u8; 2],
    pub captured: [u8; 2],
}

/// A row found on the board: its line and its run (gipf.md D1, D2).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Row {
    pub line: u8,
    pub run: u64,
    /// The run holds a single piece (D6).
    pub mandatory: bool,
}

#[inline]
fn starts(x: u64, d: u32) -> u64 {
    x & (x >> d) & (x >> (2 * d)) & (x >> (3 * d))
}

/// The cells where one more piece would complete four in a line with the pieces `x`: on each
/// axis, a cell with three of `x` beyond it, two and one, one and two, or three before it.
/// Padding cells are never set, so no run wraps across the board's edge.
#[inline]
pub(crate) fn completions(x: u64) -> u64 {
    let mut out = 0;
    for d in AXIS_STEP {
        let (up1, up2, up3) = (x >> d, x >> (2 * d), x >> (3 * d));
        let (down1, down2, down3) = (x << d, x << (2 * d), x << (3 * d));
        out |= (up1 & up2 & up3)
            | (down1 & up1 & up2)
            | (down2 & down1 & up1)
            | (down3 & down2 & down1);
    }
    out
}

/// The cells of a line between positions `lo` and `hi` inclusive.
#[inline]
fn line_range(line: usize, lo: usize, hi: usize) -> u64 {
    let l = &LINES[line];
    let low = l.cells[lo] as u32;
    let high = l.cells[hi] as u32;
    let upto = if high >= 63 { u64::MAX } else { (1u64 << (high + 1)) - 1 };
    l.mask & upto & !((1u64 << low) - 1)
}

/// Kept cells from a step's mask of line positions.
pub(crate) fn keep_cells(line: usize, bits: u8) -> u64 {
    let l = &LINES[line];
    let mut out = 0;
    for i in 0..l.len as usize {
        if bits & (1 << i) != 0 {
            out |= 1u64 << l.cells[i];
        }
    }
    out
}

/// A step's mask of line positions from kept cells.
fn keep_bits(line: usize, mut cells: u64) -> u8 {
    let axis = LINES[line].axis as usize;
    let mut out = 0u8;
    while cells != 0 {
        out |= 1 << CELL_POS[cells.trailing_zeros() as usize][axis];
        cells &= cells - 1;
    }
    out
}

impl Board {
    pub const EMPTY: Board = Board { color: [0; 2], gipf: 0, reserve: [0; 2], captured: [0; 2] };

    #[inline]
    pub fn occupied(&self) -> u64 {
        self.color[0] | self.color[1]
    }

    pub fn piece_at(&self, point: Point) -> Option<Piece> {
        let bit = 1u64 << point.cell()?;
        let player = if self.color[0] & bit != 0 {
            Player::P1
        } else if self.color[1] & bit != 0 {
            Player::P2
        } else {
            return None;
        };
        Some(Piece { player, gipf: self.gipf & bit != 0 })
    }

    /// Whether colour `p` has a row anywhere.
    #[inline]
    pub fn has_row(&self, p: usize) -> bool {
        let x = self.color[p];
        starts(x, 1) | starts(x, 8) | starts(x, 7) != 0
    }

    /// The run of the row starting at position `start` of `line`.
    #[inline]
    fn run_from(&self, line: usize, start: usize) -> u64 {
        let l = &LINES[line];
        let occ = self.occupied();
        let mut lo = start;
        while lo > 0 && occ & (1u64 << l.cells[lo - 1]) != 0 {
            lo -= 1;
        }
        let mut hi = start + 3;
        while hi + 1 < l.len as usize && occ & (1u64 << l.cells[hi + 1]) != 0 {
            hi += 1;
        }
        line_range(line, lo, hi)
    }

    /// Every row of colour `p`, at most one per line, written to `out`; returns the count.
    pub fn rows(&self, p: usize, out: &mut [Row; NUM_LINES]) -> usize {
        let x = self.color[p];
        let mut n = 0;
        for (axis, &d) in AXIS_STEP.iter().enumerate() {
            let mut s = starts(x, d);
            while s != 0 {
                let cell = s.trailing_zeros() as usize;
                let line = CELL_LINE[cell][axis] as usize;
                s &= !LINES[line].mask;
                let run = self.run_from(line, CELL_POS[cell][axis] as usize);
                out[n] = Row { line: line as u8, run, mandatory: run & !self.gipf != 0 };
                n += 1;
            }
        }
        n
    }

    /// The run of colour `p`'s row on `line`.
    ///
    /// # Panics
    /// When there is no such row (the move was not generated in this position).
    pub fn run_on_line(&self, p: usize, line: usize) -> u64 {
        let axis = LINES[line].axis as usize;
        let s = starts(self.color[p], AXIS_STEP[axis]) & LINES[line].mask;
        assert!(s != 0, "no row on this line: the move does not belong to this position");
        let cell = s.trailing_zeros() as usize;
        self.run_from(line, CELL_POS[cell][axis] as usize)
    }

    /// The board after `p` pushes a piece in at `entry`, or `None` when the line is full to
    /// the far edge (4.3.3).
    #[inline]
    pub fn push(&self, p: usize, entry: &Entry, gipf: bool) -> Option<Board> {
        let occ = self.occupied();
        let empty = entry.ray_mask & !occ;
        if empty == 0 {
            return None;
        }
        let first = 1u64 << entry.ray[0];
        let mut b = *self;
        let cost = 1 + u8::from(gipf);
        if b.reserve[p] < cost {
            return None;
        }
        b.reserve[p] -= cost;
        // Segment from the first point up to (not including) the first empty point.
        let (seg, shift_up, amount) = match entry.dir {
            // N, NE, SE: the ray ascends, the first empty point is the lowest empty bit.
            0..=2 => {
                let e = empty & empty.wrapping_neg();
                (entry.ray_mask & (e - 1), true, AXIS_STEP[entry.dir as usize])
            }
            // S, SW, NW: the ray descends.
            _ => {
                let top = 63 - empty.leading_zeros();
                let e = 1u64 << top;
                (entry.ray_mask & !(e | (e - 1)), false, AXIS_STEP[entry.dir as usize - 3])
            }
        };
        if seg != 0 {
            let shift = |x: u64| if shift_up { x << amount } else { x >> amount };
            let [white, black] = &mut b.color;
            for bb in [white, black, &mut b.gipf] {
                let moved = *bb & seg;
                *bb = (*bb & !seg) | shift(moved);
            }
        }
        b.color[p] |= first;
        if gipf {
            b.gipf |= first;
        }
        Some(b)
    }
}

impl State {
    /// One removal step by player `p` on `run`, keeping the GIPF pieces in `keep` (4.4), then
    /// the GIPF check (4.8). Returns `true` when the game ended; the winner is then set.
    #[inline]
    pub(crate) fn remove(&mut self, p: usize, run: u64, keep: u64) -> bool {
        let b = &mut self.board;
        let taken = run & !keep;
        let own = b.color[p] & taken;
        let opp = b.color[1 - p] & taken;
        b.reserve[p] += (own.count_ones() + (own & b.gipf).count_ones()) as u8;
        b.captured[p] += (opp.count_ones() + (opp & b.gipf).count_ones()) as u8;
        b.color[0] &= !taken;
        b.color[1] &= !taken;
        if b.gipf & taken == 0 || self.variant == Variant::Basic {
            return false;
        }
        b.gipf &= !taken;
        let me = Player::from_index(p);
        if self.committed(me) && self.board.color[p] & self.board.gipf == 0 {
            self.winner = Some(me.other());
            return true;
        }
        if self.committed(me.other()) && self.board.color[1 - p] & self.board.gipf == 0 {
            self.winner = Some(me);
            return true;
        }
        false
    }
}

/// Enumerates every legal whole turn of the player to move (4.2, 4.6), without allocation.
pub(crate) struct Generator<'a> {
    start: State,
    out: &'a mut Vec<Move>,
    mv: Move,
    p: usize,
}

impl<'a> Generator<'a> {
    pub fn new(state: &State, out: &'a mut Vec<Move>) -> Self {
        Generator { start: *state, out, mv: Move::EMPTY, p: state.to_move.index() }
    }

    pub fn run(mut self) {
        let st = self.start;
        if st.board.has_row(self.p) {
            self.phase(&st, 0, false);
        } else {
            self.phase_done(&st, false);
        }
    }

    fn emit(&mut self) {
        let mut m = self.mv;
        if m.push == NO_PUSH {
            m.pre = m.len;
        }
        self.out.push(m);
    }

    /// One iteration of the removal phase procedure of 4.6, with kept points `k`.
    fn phase(&mut self, st: &State, k: u64, post: bool) {
        let mut rows = [Row::default(); NUM_LINES];
        let n = st.board.rows(self.p, &mut rows);
        let mut live = [Row::default(); NUM_LINES];
        let mut m = 0;
        for row in &rows[..n] {
            if row.run & !k != 0 {
                live[m] = *row;
                m += 1;
            }
        }
        if m == 0 {
            return self.phase_done(st, post);
        }
        let live = &live[..m];
        let mut tangled = [false; NUM_LINES];
        let mut tangled_mandatory = false;
        for i in 0..m {
            for j in 0..m {
                if i != j && live[i].run & live[j].run != 0 {
                    tangled[i] = true;
                }
            }
            tangled_mandatory |= tangled[i] && live[i].mandatory;
        }
        for i in 0..m {
            if tangled[i] {
                self.step_on(st, live[i], k, post);
            }
        }
        if tangled_mandatory {
            return;
        }
        // The final batch: the separate rows in ascending order of first end point.
        let mut separate = [Row::default(); NUM_LINES];
        let mut s = 0;
        for i in 0..m {
            if !tangled[i] {
                let mut j = s;
                while j > 0 && separate[j - 1].run.trailing_zeros() > live[i].run.trailing_zeros() {
                    separate[j] = separate[j - 1];
                    j -= 1;
                }
                separate[j] = live[i];
                s += 1;
            }
        }
        self.batch(st, &separate[..s], post);
    }

    /// Every keep choice of one step on `row`, each followed by the rest of the phase.
    fn step_on(&mut self, st: &State, row: Row, k: u64, post: bool) {
        let g = row.run & st.board.gipf;
        let mut keep = g;
        loop {
            // A step takes at least one piece (4.4.3).
            if keep != row.run {
                let mut next = *st;
                let ended = next.remove(self.p, row.run, keep);
                self.mv.add_step(Step { line: row.line, keep: keep_bits(row.line as usize, keep) });
                if ended {
                    self.emit();
                } else {
                    self.phase(&next, k | keep, post);
                }
                self.mv.pop_step();
            }
            if keep == 0 {
                break;
            }
            keep = (keep - 1) & g;
        }
    }

    /// The final batch: every mandatory separate row, and any subset of the optional ones.
    fn batch(&mut self, st: &State, rows: &[Row], post: bool) {
        let Some((&row, rest)) = rows.split_first() else {
            return self.phase_done(st, post);
        };
        if !row.mandatory {
            self.batch(st, rest, post);
        }
        let g = row.run & st.board.gipf;
        let mut keep = g;
        loop {
            if keep != row.run {
                let mut next = *st;
                let ended = next.remove(self.p, row.run, keep);
                self.mv.add_step(Step { line: row.line, keep: keep_bits(row.line as usize, keep) });
                if ended {
                    self.emit();
                } else {
                    self.batch(&next, rest, post);
                }
                self.mv.pop_step();
            }
            if keep == 0 {
                break;
            }
            keep = (keep - 1) & g;
        }
    }

    /// A removal phase has ended without ending the game.
    fn phase_done(&mut self, st: &State, post: bool) {
        if post {
            return self.emit();
        }
        let p = self.p;
        let reserve = st.board.reserve[p];
        if reserve == 0 {
            // Reserve loss (6.2): the turn is these removals only, if there were any.
            if self.mv.len > 0 {
                self.emit();
            }
            return;
        }
        let (single, gipf) = match st.variant {
            Variant::Basic | Variant::Standard => (true, false),
            Variant::Tournament => match st.entry[p] {
                EntryPhase::NotStarted => (false, true),
                EntryPhase::GipfPieces => (true, reserve >= 2),
                EntryPhase::Singles => (true, false),
            },
        };
        self.mv.pre = self.mv.len;
        for (i, entry) in ENTRIES.iter().enumerate().take(NUM_ENTRIES) {
            for (allowed, is_gipf) in [(single, false), (gipf, true)] {
                if !allowed {
                    continue;
                }
                let Some(board) = st.board.push(p, entry, is_gipf) else {
                    continue;
                };
                self.mv.push = i as u8 | if is_gipf { GIPF_BIT } else { 0 };
                if board.has_row(p) {
                    let mut next = *st;
                    next.board = board;
                    next.enter(p, is_gipf);
                    self.phase(&next, 0, true);
                } else {
                    self.emit();
                }
            }
        }
        self.mv.push = NO_PUSH;
        self.mv.pre = 0;
    }
}

/// Everything that describes a position (gipf.md section 9), plus the result and the hash.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct State {
    pub(crate) board: Board,
    pub(crate) variant: Variant,
    pub(crate) to_move: Player,
    /// Tournament entry phases; `GipfPieces` in `standard`, `NotStarted` in `basic` (unused).
    pub(crate) entry: [EntryPhase; 2],
    pub(crate) winner: Option<Player>,
    pub(crate) hash: u64,
}

/// A GIPF position with its history (for `undo`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    pub(crate) state: State,
    pub(crate) history: History<State>,
}

impl Position {
    /// The typed variant.
    #[must_use]
    pub fn variant_kind(&self) -> Variant {
        self.state.variant
    }

    /// The piece on a point, if any.
    #[must_use]
    pub fn piece_at(&self, point: Point) -> Option<Piece> {
        self.state.board.piece_at(point)
    }

    /// Chips in a player's reserve.
    #[must_use]
    pub fn reserve(&self, player: Player) -> u8 {
        self.state.board.reserve[player.index()]
    }

    /// Chips a player has captured from the opponent.
    #[must_use]
    pub fn captured(&self, player: Player) -> u8 {
        self.state.board.captured[player.index()]
    }

    /// Chips of a player's colour on the board (a GIPF piece counts two).
    #[must_use]
    pub fn chips_on_board(&self, player: Player) -> u8 {
        let b = &self.state.board;
        let c = b.color[player.index()];
        (c.count_ones() + (c & b.gipf).count_ones()) as u8
    }

    /// A player's tournament entry phase.
    #[must_use]
    pub fn entry_phase(&self, player: Player) -> EntryPhase {
        self.state.entry[player.index()]
    }

    /// The current state (board, reserves, side to move, result).
    #[must_use]
    pub fn state(&self) -> &State {
        &self.state
    }
}

// Zobrist keys: 4 piece kinds × 64 cells, reserves and captures 0..=18 per player, entry
// phases, side to move, winner.
const PIECE_KEYS: [u64; 256] = zobrist::keys::<256>(0x6769_7066_0001);
const COUNT_KEYS: [u64; 4 * 19] = zobrist::keys::<76>(0x6769_7066_0002);
const MISC_KEYS: [u64; 9] = zobrist::keys::<9>(0x6769_7066_0003);

impl State {
    /// Whether `p` is GIPF-committed (gipf.md D7).
    #[inline]
    pub(crate) fn committed(&self, p: Player) -> bool {
        match self.variant {
            Variant::Basic => false,
            Variant::Standard => true,
            Variant::Tournament => self.entry[p.index()] != EntryPhase::NotStarted,
        }
    }

    /// Sets the result when the player to move has an empty reserve and no row (gipf.md 6.2).
    pub(crate) fn settle(&mut self) {
        let p = self.to_move;
        if self.winner.is_none()
            && self.board.reserve[p.index()] == 0
            && !self.board.has_row(p.index())
        {
            self.winner = Some(p.other());
        }
    }

    fn piece_hash(board: &Board) -> [u64; 4] {
        [
            board.color[0] & !board.gipf,
            board.color[0] & board.gipf,
            board.color[1] & !board.gipf,
            board.color[1] & board.gipf,
        ]
    }

    fn misc_hash(&self) -> u64 {
        let b = &self.board;
        let mut h = 0;
        for i in 0..2 {
            h ^= COUNT_KEYS[i * 19 + b.reserve[i] as usize];
            h ^= COUNT_KEYS[38 + i * 19 + b.captured[i] as usize];
            h ^= MISC_KEYS[i * 3 + self.entry[i].index()];
        }
        if self.to_move == Player::P2 {
            h ^= MISC_KEYS[6];
        }
        if let Some(w) = self.winner {
            h ^= MISC_KEYS[7 + w.index()];
        }
        h
    }

    pub(crate) fn compute_hash(&self) -> u64 {
        let mut h = self.misc_hash();
        for (kind, mut bits) in State::piece_hash(&self.board).into_iter().enumerate() {
            while bits != 0 {
                h ^= PIECE_KEYS[kind * 64 + bits.trailing_zeros() as usize];
                bits &= bits - 1;
            }
        }
        h
    }

    /// Plays a turn generated in this state.
    pub(crate) fn apply(&mut self, mv: Move) {
        let before = *self;
        let p = self.to_move;
        let ended = self.apply_turn(mv);
        if !ended && mv.push == NO_PUSH {
            // A turn of removals only that did not end by the GIPF check: reserve loss (6.2).
            self.winner = Some(p.other());
        }
        self.to_move = p.other();
        self.settle();
        // Incremental hash: only the changed cells and counters.
        let mut h = before.hash ^ before.misc_hash() ^ self.misc_hash();
        let old = State::piece_hash(&before.board);
        let new = State::piece_hash(&self.board);
        for kind in 0..4 {
            let mut bits = old[kind] ^ new[kind];
            while bits != 0 {
                h ^= PIECE_KEYS[kind * 64 + bits.trailing_zeros() as usize];
                bits &= bits - 1;
            }
        }
        self.hash = h;
    }

    /// Applies the steps and the push of `mv`; returns `true` when the GIPF check ended the
    /// game (the winner is then set and the rest of the turn is not played).
    pub(crate) fn apply_turn(&mut self, mv: Move) -> bool {
        let p = self.to_move.index();
        for i in 0..mv.len as usize {
            if i == mv.pre as usize {
                self.apply_push(mv.push);
            }
            let step = mv.steps[i];
            let run = self.board.run_on_line(p, step.line as usize);
            let keep = keep_cells(step.line as usize, step.keep);
            if self.remove(p, run, keep) {
                return true;
            }
        }
        if mv.pre == mv.len {
            self.apply_push(mv.push);
        }
        false
    }

    fn apply_push(&mut self, push: u8) {
        if push == NO_PUSH {
            return;
        }
        let p = self.to_move.index();
        let gipf = push & GIPF_BIT != 0;
        let entry = &geometry::ENTRIES[(push & !GIPF_BIT) as usize];
        self.board = self.board.push(p, entry, gipf).expect("legal push");
        self.enter(p, gipf);
    }

    /// Tournament entry phase after entering a piece (T1–T3).
    #[inline]
    pub(crate) fn enter(&mut self, p: usize, gipf: bool) {
        if self.variant == Variant::Tournament {
            self.entry[p] = if gipf { EntryPhase::GipfPieces } else { EntryPhase::Singles };
        }
    }
}
