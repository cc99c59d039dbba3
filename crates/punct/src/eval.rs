//! What the computer knows about PÜNCT.
//!
//! * **Connection distance.** For each player, the fewest points he still has to show to join
//!   two opposite sides: a shortest path over the points where his visible points cost
//!   nothing, empty points cost one, and the opponent's visible points cost more (they can
//!   only be won back by covering them with a shifted piece), minimum over the three side
//!   pairs. The difference of the two, with extra weight when a player is close, is the main
//!   term.
//! * **Central hexagon.** In `standard` the visible central points decide the game when the
//!   pieces run out, and no placement may go there, so every central point shown counts, the
//!   more so the fewer pieces are left. In `basic` the centre only helps connections.
//! * **Next-turn wins.** The mover three empty points from a connection almost surely
//!   connects with one piece (any three points in a row form some piece's shape); in
//!   `standard` the mover with one piece left and more central points ends the game by
//!   placing it. At the leaves of a one-ply search this is what two plies would see.
//! * **Free pieces.** A covered piece cannot move; pieces on top keep their options.
//!
//! The weights were checked in engine-against-engine games at a fixed node budget: an
//! opponent's point costing 4 beat costs of 2 (77–23 % over 40 games) and 8 (71–29 %);
//! other changes (3 or 5, free-piece weight 25, distance weight 10 or 40) were within noise.
//!
//! The move prior looks at the same shortest paths: a turn that puts the mover's dots on his
//! own shortest path or on the opponent's, covers the opponent's points or takes central
//! points is tried first. Its per-point tables are computed once per position (cached per
//! thread by hash), so each move costs three look-ups.

use std::cell::RefCell;
use std::thread::LocalKey;

use ply_core::Evaluator;

use crate::geometry::N_POINTS;
use crate::geometry::{CENTRAL, NEIGHBOURS, NONE, SHAPES, SIDES};
use crate::rules::{NO_OWNER, Position, State};
use crate::types::{Move, PIECES_PER_PLAYER, Variant};

/// "No path": larger than any real distance.
const FAR: u16 = 4000;
/// Cost of passing an opponent's visible point (it must be covered first).
const OPPONENT_COST: u8 = 4;
/// Cost of an empty central point in `standard` (only a shift can reach it).
const CENTRAL_EMPTY_COST: u8 = 2;
/// The mover three empty points from a connection: he very likely connects next turn.
const CONNECT_NEXT: i32 = 2400;
/// The mover can end a `standard` game by placing his last piece while ahead in the centre.
const EXHAUSTION_WIN: i32 = 2000;
/// Distances beyond this count as this.
const DIST_CAP: i32 = 40;

/// The side bits of the three pairs: (`A`, `Q`), (`R1`, `R17`), (`D-`, `D+`).
const PAIRS: [(u8, u8); 3] = [(1, 2), (4, 8), (16, 32)];

/// The cost of entering each point for `colour`.
fn costs(vis: &[u8; N_POINTS], colour: u8, standard: bool) -> [u8; N_POINTS] {
    let mut c = [0u8; N_POINTS];
    for p in 0..N_POINTS {
        c[p] = if vis[p] == colour {
            0
        } else if vis[p] == NO_OWNER {
            if standard && CENTRAL[p] { CENTRAL_EMPTY_COST } else { 1 }
        } else {
            OPPONENT_COST
        };
    }
    c
}

/// Ring of buckets for Dial's shortest paths (node costs below `RING`). A bucket only ever
/// holds entries of one distance, and a point enters it at most once for that distance.
const RING: usize = 8;
const BUCKET: usize = 256;

/// Shortest distances from the points of side `side` (point costs paid on entry, the first
/// point included). With `target` set, stops at the first point of that side and returns
/// its distance (or `limit` if none is nearer than `limit`).
fn distances(
    cost: &[u8; N_POINTS],
    side: u8,
    target: u8,
    limit: u16,
    dist: &mut [u16; N_POINTS],
) -> u16 {
    let mut ring = [[0u8; BUCKET]; RING];
    let mut lens = [0usize; RING];
    let mut pending = 0usize;
    dist.fill(FAR);
    for p in 0..N_POINTS {
        if SIDES[p] & side != 0 {
            let d = u16::from(cost[p]);
            dist[p] = d;
            let b = d as usize % RING;
            ring[b][lens[b]] = p as u8;
            lens[b] += 1;
            pending += 1;
        }
    }
    let mut d: u16 = 0;
    while pending > 0 && d < limit {
        let b = d as usize % RING;
        while lens[b] > 0 {
            lens[b] -= 1;
            pending -= 1;
            let p = ring[b][lens[b]] as usize;
            if dist[p] != d {
                continue;
            }
            if SIDES[p] & target != 0 {
                return d;
            }
            for &q in &NEIGHBOURS[p] {
                if q == NONE {
                    continue;
                }
                let nd = d + u16::from(cost[q as usize]);
                if nd < dist[q as usize] {
                    dist[q as usize] = nd;
                    let nb = nd as usize % RING;
                    ring[nb][lens[nb]] = q;
                    lens[nb] += 1;
                    pending += 1;
                }
            }
        }
        d += 1;
    }
    limit
}

/// The connection distance of `colour`: the cheapest of the three side pairs.
fn connection_distance(vis: &[u8; N_POINTS], colour: u8, standard: bool) -> i32 {
    let cost = costs(vis, colour, standard);
    let mut dist = [0u16; N_POINTS];
    let mut best = DIST_CAP as u16;
    for (from, to) in PAIRS {
        best = best.min(distances(&cost, from, to, best, &mut dist));
    }
    i32::from(best)
}

/// For each point, how much longer than `colour`'s best connection the cheapest connection
/// through that point is (0: on a shortest path), capped at 15.
fn slack(vis: &[u8; N_POINTS], colour: u8, standard: bool) -> [u8; N_POINTS] {
    let cost = costs(vis, colour, standard);
    let mut through = [FAR; N_POINTS];
    let mut a = [0u16; N_POINTS];
    let mut b = [0u16; N_POINTS];
    for (from, to) in PAIRS {
        distances(&cost, from, 0, FAR, &mut a);
        distances(&cost, to, 0, FAR, &mut b);
        for p in 0..N_POINTS {
            let t = a[p] + b[p] - u16::from(cost[p]);
            through[p] = through[p].min(t);
        }
    }
    let best = *through.iter().min().expect("points");
    let mut out = [0u8; N_POINTS];
    for p in 0..N_POINTS {
        out[p] = (through[p] - best).min(15) as u8;
    }
    out
}

/// How much a connection distance is worth: steady progress, and much more near the end.
fn distance_value(d: i32) -> i32 {
    20 * (DIST_CAP - d) + 3000 / (d + 3)
}

impl State {
    fn pieces_left(&self, colour: usize) -> i32 {
        self.supply[colour].iter().map(|&c| i32::from(c)).sum()
    }

    /// Free (uncovered) pieces of each colour.
    fn free_pieces(&self) -> [i32; 2] {
        let mut out = [0; 2];
        for i in 0..self.n {
            if self.is_free(i) {
                out[self.pieces[i as usize].owner as usize] += 1;
            }
        }
        out
    }
}

/// Weight of one visible central point.
fn centre_weight(variant: Variant, placed: i32) -> i32 {
    match variant {
        // 36 pieces in all: from 12 at the start to 72 when the pieces run out.
        Variant::Standard => 12 + 60 * placed / (2 * PIECES_PER_PLAYER as i32),
        Variant::Basic => 8,
    }
}

/// The per-position tables of the move prior.
struct PriorTable {
    hash: u64,
    to_move: u8,
    /// Value of the mover showing each point (from his connection and the opponent's).
    gain: [i16; N_POINTS],
    /// Value of the mover's point becoming empty or the opponent's (what uncovering costs).
    loss: [i16; N_POINTS],
}

thread_local! {
    static PRIOR: RefCell<Option<Box<PriorTable>>> = const { RefCell::new(None) };
    static WIN_POINTS: RefCell<Option<Box<WinPoints>>> = const { RefCell::new(None) };
}

/// Where a piece of the mover must land to win at once by a connection. One turn makes at
/// most three more points show his colour: those his placed or shifted piece lands on (a
/// shift uncovers only points its own piece covered, which showed his colour already). So a
/// connection after the turn follows a path between opposite sides on which, before it, at
/// most three points were not his, and the piece lands on each of those. A point not his on
/// such a path is a win point; a piece that lands on none cannot connect.
struct WinPoints {
    hash: u64,
    to_move: u8,
    /// Every turn may win: the mover places his last piece ([E3] decides on the centre).
    all: bool,
    /// Some turn may win.
    any: bool,
    points: [bool; N_POINTS],
    /// The visible colour of each point, for the exact check of a placement.
    visible: [u8; N_POINTS],
}

impl Position {
    fn prior_table(&self) -> PriorTable {
        let st = &self.state;
        let standard = self.variant == Variant::Standard;
        let me = st.to_move.index() as u8;
        let vis = st.visible();
        let mine = slack(&vis, me, standard);
        let theirs = slack(&vis, 1 - me, standard);
        let placed = 2 * PIECES_PER_PLAYER as i32 - st.pieces_left(0) - st.pieces_left(1);
        let centre = centre_weight(self.variant, placed) as i16;
        let mut gain = [0i16; N_POINTS];
        let mut loss = [0i16; N_POINTS];
        for p in 0..N_POINTS {
            let own = 40 * (4 - i16::from(mine[p]).min(4));
            let block = 30 * (4 - i16::from(theirs[p]).min(4));
            let c = if CENTRAL[p] { centre } else { 0 };
            if vis[p] == me {
                loss[p] = own + c;
            } else if vis[p] == NO_OWNER {
                gain[p] = own + block + c;
            } else {
                // Covering an opponent's point cuts his path and opens ours.
                gain[p] = own + 2 * block + 2 * c;
            }
        }
        PriorTable { hash: st.hash, to_move: me, gain, loss }
    }

    fn win_points(&self) -> WinPoints {
        let st = &self.state;
        let me = st.to_move.index() as u8;
        let mut w = WinPoints {
            hash: st.hash,
            to_move: me,
            all: st.pieces_left(me as usize) <= 1,
            any: false,
            points: [false; N_POINTS],
            visible: st.visible(),
        };
        let vis = w.visible;
        let mut cost = [0u8; N_POINTS];
        for (c, &v) in cost.iter_mut().zip(&vis) {
            *c = u8::from(v != me);
        }
        let mut a = [0u16; N_POINTS];
        let mut b = [0u16; N_POINTS];
        for (from, to) in PAIRS {
            // The cheapest path between the two sides costs more than three: none through
            // any point does.
            if distances(&cost, from, to, 4, &mut a) > 3 {
                continue;
            }
            distances(&cost, from, 0, FAR, &mut a);
            distances(&cost, to, 0, FAR, &mut b);
            for p in 0..N_POINTS {
                if cost[p] == 1 && a[p] + b[p] - 1 <= 3 {
                    w.points[p] = true;
                    w.any = true;
                }
            }
        }
        w.any |= w.all;
        w
    }

    fn with_win_points<R>(&self, f: impl FnOnce(&WinPoints) -> R) -> R {
        with_cached(&WIN_POINTS, self, || self.win_points(), f)
    }

    fn with_prior_table<R>(&self, f: impl FnOnce(&PriorTable) -> R) -> R {
        with_cached(&PRIOR, self, || self.prior_table(), f)
    }
}

/// A table computed from one position (its hash and mover say which).
trait OfPosition {
    fn hash_and_mover(&self) -> (u64, u8);
}

impl OfPosition for PriorTable {
    fn hash_and_mover(&self) -> (u64, u8) {
        (self.hash, self.to_move)
    }
}

impl OfPosition for WinPoints {
    fn hash_and_mover(&self) -> (u64, u8) {
        (self.hash, self.to_move)
    }
}

/// `f` of `position`'s table in `cell`, made by `make` when the cell holds another
/// position's. One cell per thread: the priors of every move of a position, or the win check
/// of each, then cost a look-up.
fn with_cached<T: OfPosition, R>(
    cell: &'static LocalKey<RefCell<Option<Box<T>>>>,
    position: &Position,
    make: impl FnOnce() -> T,
    f: impl FnOnce(&T) -> R,
) -> R {
    cell.with(|cell| {
        let mut slot = cell.borrow_mut();
        let key = (position.state.hash, position.state.to_move.index() as u8);
        if slot.as_ref().is_none_or(|t| t.hash_and_mover() != key) {
            *slot = Some(Box::new(make()));
        }
        f(slot.as_ref().expect("just filled"))
    })
}

ply_core::evaluator!(Eval for Position);

impl Evaluator<Position> for Eval {
    fn evaluate(&self, position: &Position) -> i32 {
        let st = &position.state;
        let standard = position.variant == Variant::Standard;
        let me = st.to_move.index();
        let them = 1 - me;
        let vis = st.visible();
        let d_me = connection_distance(&vis, me as u8, standard);
        let d_them = connection_distance(&vis, them as u8, standard);
        let mut score = distance_value(d_me) - distance_value(d_them);
        // Three empty points in a row on the path are one piece: the mover connects next.
        if d_me <= 3 && st.pieces_left(me) > 0 {
            score += CONNECT_NEXT - 400 * d_me;
        }

        let mut centre = [0i32; 2];
        for p in 0..N_POINTS {
            if CENTRAL[p] && vis[p] != NO_OWNER {
                centre[vis[p] as usize] += 1;
            }
        }
        let placed = 2 * PIECES_PER_PLAYER as i32 - st.pieces_left(0) - st.pieces_left(1);
        score += centre_weight(position.variant, placed) * (centre[me] - centre[them]);
        // In `standard`, a player placing his last piece ends the game on the centre count:
        // the mover with one piece left and more central points wins on the spot (a
        // placement outside the centre is as good as certain to exist).
        if standard {
            let lead = centre[me] - centre[them];
            if st.pieces_left(me) == 1 && lead > 0 {
                score += EXHAUSTION_WIN;
            } else if st.pieces_left(them) == 1 && lead < 0 {
                // He ends it next turn unless the mover connects or wins the centre back.
                score -= EXHAUSTION_WIN / 3;
            }
        }

        let free = st.free_pieces();
        score += 8 * (free[me] - free[them]);
        // The mover acts first.
        score += 20;
        score.clamp(-30_000, 30_000)
    }

    fn material(&self, position: &Position) -> i32 {
        let st = &position.state;
        let me = st.to_move.index() as u8;
        let mut n = 0;
        for p in 0..N_POINTS {
            match st.owner_at(p as u8) {
                NO_OWNER => {}
                o if o == me => n += 1,
                _ => n -= 1,
            }
        }
        10 * n
    }

    fn value_scale(&self) -> f32 {
        300.0
    }

    /// A turn wins at once only by a connection of the mover ([E2]: the other player's
    /// connection alone makes him the winner) or by the mover's last placement ([E3]). See
    /// [`WinPoints`]: no turn wins when no point can be one of those a winning piece lands on.
    fn may_win_at_once(&self, position: &Position) -> bool {
        position.with_win_points(|w| w.any)
    }

    /// Only a turn whose piece lands on one of the [`WinPoints`] can win. A placement
    /// changes nothing but its three points, which then show the mover's colour, so whether
    /// it connects is checked exactly here, without playing it.
    fn may_win_with(&self, position: &Position, mv: Move) -> bool {
        position.with_win_points(|w| {
            if w.all {
                return true;
            }
            let Some(landing) = mv.points() else { return false };
            if !landing.iter().any(|p| w.points[p.index()]) {
                return false;
            }
            if matches!(mv, Move::Place { .. }) {
                let mut after = w.visible;
                for p in landing {
                    after[p.index()] = w.to_move;
                }
                return State::connected(&after, w.to_move);
            }
            true
        })
    }

    fn move_prior(&self, position: &Position, mv: Move) -> i32 {
        match mv {
            Move::Pass => 0,
            Move::Place { at, orient } => {
                let [a, b] = SHAPES[at.index()][orient.index()];
                position.with_prior_table(|t| {
                    i32::from(t.gain[at.index()])
                        + i32::from(t.gain[a as usize])
                        + i32::from(t.gain[b as usize])
                })
            }
            Move::Shift { from, to, orient } => {
                let st = &position.state;
                let [a, b] = SHAPES[to.index()][orient.index()];
                let landing = [to.index() as u8, a, b];
                let leaving = st
                    .movable_at(from.index() as u8)
                    .map(|i| st.pieces[i as usize].points())
                    .unwrap_or([NONE; 3]);
                position.with_prior_table(|t| {
                    let mut s = -60;
                    for p in landing {
                        if !leaving.contains(&p) {
                            s += i32::from(t.gain[p as usize]);
                        }
                    }
                    for p in leaving {
                        if p != NONE && !landing.contains(&p) {
                            s -= i32::from(t.loss[p as usize]);
                        }
                    }
                    s
                })
            }
        }
    }
}
