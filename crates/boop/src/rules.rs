//! The rules of boop.: the position with its history ([`Boop`]), the turn procedure
//! (placement, boops, ghost step, win check, graduation, repetition), move generation and
//! the Zobrist hash.

use ply_core::{ByPlayer, History, Outcome, Player, zobrist};

use crate::geometry::{Cell, Line, NEIGHBOUR, OFF, Segment, Travel};
use crate::types::{GhostOnBed, Graduation, Kind, Move, Piece, Pool, Tracker, Variant};

/// The position without history: everything [E3] compares, plus piece identities for
/// pictures (which the comparison ignores).
#[derive(Clone, Copy, Debug)]
pub(crate) struct State {
    /// `pieces[player][kind]`: cells holding that player's pieces of that kind.
    pub pieces: [[u64; 2]; 2],
    pub pools: ByPlayer<Pool>,
    pub ghosts: ByPlayer<Option<GhostOnBed>>,
    pub to_move: Player,
    pub hash: u64,
    /// Identity of the piece on each cell (see `labels.rs`); 0 when empty.
    pub labels: [u8; 36],
    /// Per player, bit i set while kitten number i is still in the game.
    pub kittens_alive: [u8; 2],
}

impl State {
    /// Equality of positions for [E3]: cells, pools, ghosts, player to move.
    fn same_position(&self, other: &State) -> bool {
        self.pieces == other.pieces
            && self.pools == other.pools
            && self.ghosts == other.ghosts
            && self.to_move == other.to_move
    }

    #[inline]
    pub fn occupied(&self) -> u64 {
        self.pieces[0][0] | self.pieces[0][1] | self.pieces[1][0] | self.pieces[1][1]
    }

    pub fn piece_at(&self, cell: Cell) -> Option<Piece> {
        let b = cell.bit();
        for player in Player::BOTH {
            for kind in [Kind::Kitten, Kind::Cat] {
                if self.pieces[player.index()][kind.index()] & b != 0 {
                    return Some(Piece { player, kind });
                }
            }
        }
        None
    }
}

// ---------------------------------------------------------------------------------------------
// Zobrist keys

const SEED: u64 = 0xB00B_0000_0000_0001;
/// 4 piece types × 36 cells, pool counts (2 players × 2 kinds × 9 counts), ghosts (2 players
/// × 60 segments × 2 travels), and the player to move.
const KEYS: [u64; 144 + 36 + 240 + 1] = zobrist::keys(SEED);

#[inline]
fn piece_key(player: Player, kind: Kind, cell: Cell) -> u64 {
    KEYS[(player.index() * 2 + kind.index()) * 36 + cell.index()]
}

#[inline]
fn pool_key(player: Player, kind: Kind, count: u8) -> u64 {
    KEYS[144 + (player.index() * 2 + kind.index()) * 9 + count as usize]
}

#[inline]
fn ghost_key(player: Player, ghost: GhostOnBed) -> u64 {
    let t = matches!(ghost.travel, Travel::Backward) as usize;
    KEYS[180 + (player.index() * 60 + ghost.segment.index()) * 2 + t]
}

const P2_TO_MOVE_KEY: u64 = KEYS[420];

// ---------------------------------------------------------------------------------------------
// The position

/// A boop. position with its history (for undo and the repetition rule [E3]).
#[derive(Clone, Debug)]
pub struct Boop {
    pub(crate) variant: Variant,
    pub(crate) state: State,
    pub(crate) outcome: Option<Outcome>,
    /// The states before each turn played, and the outcome then, for `undo`.
    pub(crate) history: History<(State, Option<Outcome>)>,
    /// Every position of the game so far, the current one included, for [E3]. Starts with the
    /// initial position (or the set-up position).
    pub(crate) seen: Vec<State>,
}

impl PartialEq for Boop {
    /// Same position, same outcome and the same history of positions.
    fn eq(&self, other: &Boop) -> bool {
        self.variant == other.variant
            && self.state.same_position(&other.state)
            && self.state.labels == other.state.labels
            && self.outcome == other.outcome
            && self.seen.len() == other.seen.len()
            && self.seen.iter().zip(&other.seen).all(|(a, b)| a.same_position(b))
    }
}

/// Where a placement leaves things before the win check: the pieces and pools after the
/// placement, its boops and the ghost step.
#[derive(Clone, Copy)]
struct AfterStep3 {
    pieces: [[u64; 2]; 2],
    pools: ByPlayer<Pool>,
}

impl Boop {
    /// A position with no history from a checked state.
    pub(crate) fn from_state(variant: Variant, state: State) -> Boop {
        Boop { variant, state, outcome: None, history: History::new(), seen: vec![state] }
    }

    #[must_use]
    pub fn variant_kind(&self) -> Variant {
        self.variant
    }

    /// Marks a position read from a position string as finished (or not).
    pub(crate) fn set_outcome(&mut self, outcome: Option<Outcome>) {
        self.outcome = outcome;
    }

    /// What is on `cell`.
    #[must_use]
    pub fn piece_at(&self, cell: Cell) -> Option<Piece> {
        self.state.piece_at(cell)
    }

    #[must_use]
    pub fn pool(&self, player: Player) -> Pool {
        self.state.pools[player]
    }

    /// The player's ghost if it is on the bed. In `boooop` a ghost not on the bed is in the pool.
    #[must_use]
    pub fn ghost(&self, player: Player) -> Option<GhostOnBed> {
        self.state.ghosts[player]
    }

    /// Cells holding `player`'s pieces of `kind`.
    pub fn cells_of(&self, player: Player, kind: Kind) -> impl Iterator<Item = Cell> {
        Cell::in_mask(self.state.pieces[player.index()][kind.index()])
    }

    pub(crate) fn state(&self) -> &State {
        &self.state
    }

    /// The identity label of the piece on each cell (for pictures).
    pub(crate) fn labels(&self) -> &[u8; 36] {
        &self.state.labels
    }

    /// Steps 1–3 of a turn: placement, boops, ghost step.
    #[inline]
    fn through_step3(&self, kind: Kind, cell: Cell) -> AfterStep3 {
        let s = &self.state;
        let me = s.to_move;
        let mut pieces = s.pieces;
        let mut pools = s.pools;
        match kind {
            Kind::Kitten => pools[me].kittens -= 1,
            Kind::Cat => pools[me].cats -= 1,
        }
        pieces[me.index()][kind.index()] |= cell.bit();
        boop_neighbours(&mut pieces, &mut pools, cell, kind, None);
        if let Some(g) = s.ghosts[me] {
            ghost_step(&mut pieces, &mut pools, g, s.ghosts[me.other()], None);
        }
        AfterStep3 { pieces, pools }
    }

    /// Whether the mover wins after step 3 ([W1]).
    #[inline]
    fn wins(after: &AfterStep3, me: Player) -> bool {
        let cats = after.pieces[me.index()][1];
        if after.pools[me].is_empty() && after.pieces[me.index()][0] == 0 {
            return true;
        }
        cats.count_ones() >= 3 && Line::all().any(|l| l.mask() & cats == l.mask())
    }

    /// The mover's graduation options after step 3 ([R1], [R2]), in ascending order: lines
    /// first, then single pieces.
    fn graduations(after: &AfterStep3, me: Player, out: &mut [Graduation; 96]) -> usize {
        let kittens = after.pieces[me.index()][0];
        let mine = kittens | after.pieces[me.index()][1];
        let mut n = 0;
        if mine.count_ones() >= 3 {
            for line in Line::all() {
                let m = line.mask();
                if mine & m == m && kittens & m != 0 {
                    out[n] = Graduation::Line(line);
                    n += 1;
                }
            }
        }
        if after.pools[me].is_empty() {
            for cell in Cell::in_mask(mine) {
                let kind = if kittens & cell.bit() != 0 { Kind::Kitten } else { Kind::Cat };
                out[n] = Graduation::Single(cell, kind);
                n += 1;
            }
        }
        n
    }

    /// The ghost placements open to the mover: `None` (keep it in the pool) first, then each
    /// free entry segment; only `None` when his ghost is not in his pool or in `boop`.
    fn ghost_options(&self, out: &mut [Option<Segment>; 21]) -> usize {
        out[0] = None;
        let me = self.state.to_move;
        if self.variant == Variant::Boop || self.state.ghosts[me].is_some() {
            return 1;
        }
        let taken = self.state.ghosts[me.other()].map(|g| g.segment);
        let mut n = 1;
        for seg in Segment::entries() {
            if Some(seg) != taken {
                out[n] = Some(seg);
                n += 1;
            }
        }
        n
    }

    pub(crate) fn generate(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.outcome.is_some() {
            return;
        }
        let me = self.state.to_move;
        let empty = !self.state.occupied() & ((1u64 << 36) - 1);
        let mut ghosts = [None; 21];
        let n_ghosts = self.ghost_options(&mut ghosts);
        let mut grads = [Graduation::Single(Cell::from_index(0), Kind::Kitten); 96];
        for kind in [Kind::Kitten, Kind::Cat] {
            if self.state.pools[me].count(kind) == 0 {
                continue;
            }
            for cell in Cell::in_mask(empty) {
                let after = self.through_step3(kind, cell);
                let n_grads = if Self::wins(&after, me) {
                    0
                } else {
                    Self::graduations(&after, me, &mut grads)
                };
                for &ghost in &ghosts[..n_ghosts] {
                    if n_grads == 0 {
                        out.push(Move { kind, cell, ghost, graduation: None });
                    } else {
                        for &g in &grads[..n_grads] {
                            out.push(Move { kind, cell, ghost, graduation: Some(g) });
                        }
                    }
                }
            }
        }
    }

    /// The graduation options a placement would offer, or `None` if it wins (for the parser).
    pub(crate) fn graduation_options(&self, kind: Kind, cell: Cell) -> Option<Vec<Graduation>> {
        let after = self.through_step3(kind, cell);
        if Self::wins(&after, self.state.to_move) {
            return None;
        }
        let mut grads = [Graduation::Single(cell, Kind::Kitten); 96];
        let n = Self::graduations(&after, self.state.to_move, &mut grads);
        Some(grads[..n].to_vec())
    }

    /// The ghost placements the mover may make this turn ([G5]).
    pub(crate) fn free_entries(&self) -> Vec<Segment> {
        let mut out = [None; 21];
        let n = self.ghost_options(&mut out);
        out[1..n].iter().flatten().copied().collect()
    }

    pub(crate) fn play_move(&mut self, mv: Move) {
        self.history.push((self.state, self.outcome));
        let me = self.state.to_move;
        let s = &mut self.state;
        let mut tracker = Tracker { labels: &mut s.labels, hash: &mut s.hash };
        // 1. Placement.
        let pool = &mut s.pools[me];
        let count = match mv.kind {
            Kind::Kitten => &mut pool.kittens,
            Kind::Cat => &mut pool.cats,
        };
        *tracker.hash ^= pool_key(me, mv.kind, *count) ^ pool_key(me, mv.kind, *count - 1);
        *count -= 1;
        *tracker.hash ^= piece_key(me, mv.kind, mv.cell);
        s.pieces[me.index()][mv.kind.index()] |= mv.cell.bit();
        tracker.place(me, mv.kind, mv.cell, s.kittens_alive[me.index()]);
        // 2. Boops.
        boop_neighbours(&mut s.pieces, &mut s.pools, mv.cell, mv.kind, Some(&mut tracker));
        // 3. Ghost step, or the ghost placed.
        let old_ghost = s.ghosts[me];
        if let Some(g) = old_ghost {
            s.ghosts[me] = ghost_step(
                &mut s.pieces,
                &mut s.pools,
                g,
                s.ghosts[me.other()],
                Some(&mut tracker),
            );
        } else if let Some(segment) = mv.ghost {
            let travel = segment.entry_direction().expect("an entry segment");
            s.ghosts[me] = Some(GhostOnBed { segment, travel });
        }
        if let Some(g) = old_ghost {
            *tracker.hash ^= ghost_key(me, g);
        }
        if let Some(g) = s.ghosts[me] {
            *tracker.hash ^= ghost_key(me, g);
        }
        // 4. Win check.
        let after = AfterStep3 { pieces: s.pieces, pools: s.pools };
        if Self::wins(&after, me) {
            self.outcome = Some(Outcome::Win(me));
        } else if let Some(g) = mv.graduation {
            // 5. Graduation: kittens leave the game, cats come from the box or go back to the
            // pool; either way the pool gains one cat per piece removed ([R4], [R5]).
            let removed = match g {
                Graduation::Line(line) => line.mask(),
                Graduation::Single(cell, _) => cell.bit(),
            };
            for kind in [Kind::Kitten, Kind::Cat] {
                for cell in Cell::in_mask(s.pieces[me.index()][kind.index()] & removed) {
                    *tracker.hash ^= piece_key(me, kind, cell);
                }
            }
            tracker.graduate(
                removed,
                s.pieces[me.index()][0] & removed,
                &mut s.kittens_alive[me.index()],
            );
            s.pieces[me.index()][0] &= !removed;
            s.pieces[me.index()][1] &= !removed;
            let cats = &mut s.pools[me].cats;
            let new = *cats + removed.count_ones() as u8;
            *tracker.hash ^= pool_key(me, Kind::Cat, *cats) ^ pool_key(me, Kind::Cat, new);
            *cats = new;
        }
        // 6. End of turn.
        s.to_move = me.other();
        s.hash ^= P2_TO_MOVE_KEY;
        let now = *s;
        if self.outcome.is_none() {
            // [E3]: the third occurrence of this position, the first included, is a draw.
            let repeats =
                self.seen.iter().filter(|p| p.hash == now.hash && p.same_position(&now)).count();
            if repeats >= 2 {
                self.outcome = Some(Outcome::Draw);
            }
        }
        self.seen.push(now);
    }
}

/// Moves one booped or scared piece from `from` to `to` (or off the bed when `to` is `None`).
#[inline]
fn relocate(
    pieces: &mut [[u64; 2]; 2],
    pools: &mut ByPlayer<Pool>,
    from: u8,
    to: Option<u8>,
    labels: &mut Option<&mut Tracker<'_>>,
) {
    let b = 1u64 << from;
    let (p, k) = if pieces[0][0] & b != 0 {
        (0, 0)
    } else if pieces[0][1] & b != 0 {
        (0, 1)
    } else if pieces[1][0] & b != 0 {
        (1, 0)
    } else {
        (1, 1)
    };
    pieces[p][k] &= !b;
    let player = Player::from_index(p);
    let kind = if k == 0 { Kind::Kitten } else { Kind::Cat };
    let mut delta = piece_key(player, kind, Cell::from_index(from as usize));
    match to {
        Some(t) => {
            pieces[p][k] |= 1 << t;
            delta ^= piece_key(player, kind, Cell::from_index(t as usize));
        }
        None => {
            let pool = &mut pools.0[p];
            let count = if k == 0 { &mut pool.kittens } else { &mut pool.cats };
            delta ^= pool_key(player, kind, *count) ^ pool_key(player, kind, *count + 1);
            *count += 1;
        }
    }
    if let Some(t) = labels {
        t.relocate(from, to, delta);
    }
}

/// [T4]–[T8]: the placed piece on `cell` boops each neighbour one step away.
#[inline]
fn boop_neighbours(
    pieces: &mut [[u64; 2]; 2],
    pools: &mut ByPlayer<Pool>,
    cell: Cell,
    kind: Kind,
    mut labels: Option<&mut Tracker<'_>>,
) {
    let occupied = pieces[0][0] | pieces[0][1] | pieces[1][0] | pieces[1][1];
    let immune = if kind == Kind::Kitten { pieces[0][1] | pieces[1][1] } else { 0 };
    let around = &NEIGHBOUR[cell.index()];
    for (d, &n) in around.iter().enumerate() {
        if n == OFF || occupied & (1 << n) == 0 || immune & (1 << n) != 0 {
            continue;
        }
        let target = NEIGHBOUR[n as usize][d];
        if target == OFF {
            relocate(pieces, pools, n, None, &mut labels);
        } else if occupied & (1 << target) == 0 {
            // Targets are two steps from the placed piece, so no earlier boop of this
            // placement can have filled or emptied one ([T7]).
            relocate(pieces, pools, n, Some(target), &mut labels);
        }
    }
}

/// [G6]–[G11]: the mover's ghost advances, skipping the other ghost, and scares the two
/// pieces beside its new segment. Returns where it ends (`None`: back in the pool).
fn ghost_step(
    pieces: &mut [[u64; 2]; 2],
    pools: &mut ByPlayer<Pool>,
    ghost: GhostOnBed,
    other: Option<GhostOnBed>,
    mut labels: Option<&mut Tracker<'_>>,
) -> Option<GhostOnBed> {
    let step: i8 = if ghost.travel == Travel::Forward { 1 } else { -1 };
    let line = ghost.segment.line();
    let mut pos = ghost.segment.position() as i8 + step;
    if let Some(o) = other
        && o.segment.line() == line
        && o.segment.position() as i8 == pos
    {
        pos += step;
    }
    if !(0..6).contains(&pos) {
        return None;
    }
    let segment = Segment::new(line, pos as u8);
    for (cell, dir) in segment.sides() {
        let occupied = pieces[0][0] | pieces[0][1] | pieces[1][0] | pieces[1][1];
        if occupied & cell.bit() == 0 {
            continue;
        }
        // [G10]: jump the unbroken run of occupied cells to the first empty one, if any.
        let mut at = cell;
        let landing = loop {
            match at.step(dir) {
                None => break None,
                Some(next) if occupied & next.bit() != 0 => at = next,
                Some(next) => break Some(next.index() as u8),
            }
        };
        relocate(pieces, pools, cell.index() as u8, landing, &mut labels);
    }
    Some(GhostOnBed { segment, travel: ghost.travel })
}

pub(crate) fn compute_hash(s: &State) -> u64 {
    let mut h = 0;
    for player in Player::BOTH {
        for kind in [Kind::Kitten, Kind::Cat] {
            for cell in Cell::in_mask(s.pieces[player.index()][kind.index()]) {
                h ^= piece_key(player, kind, cell);
            }
            h ^= pool_key(player, kind, s.pools[player].count(kind));
        }
        if let Some(g) = s.ghosts[player] {
            h ^= ghost_key(player, g);
        }
    }
    if s.to_move == Player::P2 {
        h ^= P2_TO_MOVE_KEY;
    }
    h
}
