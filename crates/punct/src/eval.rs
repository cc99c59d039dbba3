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
//! The weights (`weights.txt`) were checked in engine-against-engine games at a fixed node
//! budget: an opponent's point costing 4 (`OPPONENT_COST`) beat costs of 2 (77–23 % over 40
//! games) and 8 (71–29 %); other changes (3 or 5, `FREE_PIECE` 25, `DISTANCE` 10 or 40) were
//! within noise.
//!
//! The move prior looks at the same shortest paths: a turn that puts the mover's dots on his
//! own shortest path or on the opponent's, covers the opponent's points or takes central
//! points is tried first. Its per-point tables are computed once per position (cached per
//! thread by hash, mover and weights), so each move costs three look-ups.
//!
//! The same tables tell the search which placements and shifts are quiet: off the centre and
//! off every shortest connection of either player, a placement, or a shift of a piece lying
//! on the board off the centre, changes the evaluation by a bounded amount, and one turn from
//! the horizon the search skips those that cannot raise alpha (`Evaluator::quiet_bound`,
//! design note 46; a shift, which may repeat a position, only once it is found to repeat
//! none where a draw would count).

use std::cell::RefCell;
use std::thread::LocalKey;

use ply_core::Evaluator;

use crate::bits::{BOARD, Bits};
use crate::geometry::N_POINTS;
use crate::geometry::{CENTRAL, NEIGHBOURS, NONE, SHAPES, SIDES};
use crate::rules::{NO_OWNER, Position, State, spans_opposite_sides};
use crate::types::{Move, PIECES_PER_PLAYER, Variant};

ply_core::weights! {
    /// PÜNCT's evaluation weights (`weights.txt`, read at build time; `ply tune punct` fits
    /// them).
    pub struct Weights {
        /// Connection distances beyond this count as this (the shortest-path search stops
        /// there).
        fixed DIST_CAP: 1,
        /// The connection-distance cost of passing an opponent's visible point (it must be
        /// covered first); an empty point costs 1. At most 7.
        tuned OPPONENT_COST: 1,
        /// The cost of an empty central point in `standard` (only a shift can reach it). At
        /// most 7.
        tuned CENTRAL_EMPTY_COST: 1,
        /// Steady progress: each point of connection distance below DIST_CAP.
        tuned DISTANCE: 1,
        /// Closeness, worth much more near the end: this divided by (distance + 3).
        tuned NEAR_END: 1,
        /// The mover three empty points or fewer from a connection: he very likely connects
        /// next turn.
        tuned CONNECT_NEXT: 1,
        /// Taken from CONNECT_NEXT for each empty point the mover still needs.
        tuned CONNECT_STEP: 1,
        /// A visible central point in `standard`: its weight at the start, and what that gains
        /// by the time all the pieces are placed.
        tuned CENTRE: 2,
        /// A visible central point in `basic`.
        tuned CENTRE_BASIC: 1,
        /// The mover can end a `standard` game by placing his last piece while ahead in the
        /// centre (a third of it against him when the opponent can next turn).
        tuned EXHAUSTION_WIN: 1,
        /// A free (uncovered) piece.
        tuned FREE_PIECE: 1,
        /// The side to move acts first.
        tuned TEMPO: 1,
        /// The evaluation's bound.
        fixed LIMIT: 1,
    }
}

/// "No path": larger than any real distance.
const FAR: u16 = 4000;

/// `DIST_CAP`, kept within what the shortest-path search can count to.
fn dist_cap(w: &Weights) -> i32 {
    w[Weights::DIST_CAP].clamp(0, i32::from(FAR))
}

/// What entering a point costs the shortest paths beyond the usual 1: an opponent's visible
/// point, and an empty central point in `standard` (`OPPONENT_COST`, `CENTRAL_EMPTY_COST`,
/// kept below [`RING`] for the search).
#[derive(Clone, Copy, PartialEq, Eq)]
struct PointCosts {
    opponent: u8,
    central_empty: u8,
}

impl PointCosts {
    fn of(w: &Weights) -> PointCosts {
        let cost = |group: usize| w[group].clamp(0, RING as i32 - 1) as u8;
        PointCosts {
            opponent: cost(Weights::OPPONENT_COST),
            central_empty: cost(Weights::CENTRAL_EMPTY_COST),
        }
    }
}

/// The weight of a visible central point (`CENTRE`, `CENTRE_BASIC`).
#[derive(Clone, Copy, PartialEq, Eq)]
struct CentreWeight {
    start: i32,
    growth: i32,
    basic: i32,
}

impl CentreWeight {
    fn of(w: &Weights) -> CentreWeight {
        CentreWeight {
            start: w[Weights::CENTRE],
            growth: w[Weights::CENTRE + 1],
            basic: w[Weights::CENTRE_BASIC],
        }
    }

    /// The weight of one visible central point once `placed` pieces have been placed.
    fn at(self, variant: Variant, placed: i32) -> i32 {
        match variant {
            // 36 pieces in all: from `start` at the start to `start + growth` when they run out.
            Variant::Standard => self.start + self.growth * placed / (2 * PIECES_PER_PLAYER as i32),
            Variant::Basic => self.basic,
        }
    }
}

/// The weights the move prior's per-position table is made from, and so part of its cache
/// key (comparing every weight there would slow each move's prior down).
#[derive(Clone, Copy, PartialEq, Eq)]
struct PriorWeights {
    costs: PointCosts,
    centre: CentreWeight,
    /// [`quiet_bounded`].
    quiet: bool,
}

/// Whether quiet placements are bounded ([`Eval::quiet_bound`]) with these weights: an
/// opponent's point costs no less than an empty one, a connection distance two shorter is
/// worth no less, and distances of 3 are not capped.
fn quiet_bounded(w: &Weights) -> bool {
    PointCosts::of(w).opponent >= 1
        && dist_cap(w) >= 3
        && w[Weights::DISTANCE] >= 0
        && w[Weights::NEAR_END] >= 0
}

/// The side bits of the three pairs: (`A`, `Q`), (`R1`, `R17`), (`D-`, `D+`).
const PAIRS: [(u8, u8); 3] = [(1, 2), (4, 8), (16, 32)];

/// The cost of entering each point for `colour`.
fn costs(pc: PointCosts, vis: &[u8; N_POINTS], colour: u8, standard: bool) -> [u8; N_POINTS] {
    let mut c = [0u8; N_POINTS];
    for p in 0..N_POINTS {
        c[p] = if vis[p] == colour {
            0
        } else if vis[p] == NO_OWNER {
            if standard && CENTRAL[p] { pc.central_empty } else { 1 }
        } else {
            pc.opponent
        };
    }
    c
}

/// The points of each side, by bit of [`SIDES`] (seven each).
const SIDE_POINTS: [[u8; 7]; 6] = {
    let mut out = [[0u8; 7]; 6];
    let mut count = [0usize; 6];
    let mut p = 0;
    while p < N_POINTS {
        let mut bit = 0;
        while bit < 6 {
            if SIDES[p] & (1 << bit) != 0 {
                out[bit][count[bit]] = p as u8;
                count[bit] += 1;
            }
            bit += 1;
        }
        p += 1;
    }
    let mut bit = 0;
    while bit < 6 {
        assert!(count[bit] == 7);
        bit += 1;
    }
    out
};

/// Entry costs are below this (the shortest paths keep this many distances' sets).
const RING: usize = 8;

/// The points of each entry cost, for one colour's shortest paths.
struct CostSets {
    /// The points entered for nothing (the colour's own).
    free: Bits,
    /// The other points, by cost (1 ≤ cost < [`RING`]), costs with no point left out.
    paid: [(u16, Bits); RING - 1],
    n_paid: usize,
}

impl CostSets {
    /// From the cost of each point (each below [`RING`]).
    fn of(cost: &[u8; N_POINTS]) -> CostSets {
        let mut by_cost = [Bits::EMPTY; RING];
        for (p, &c) in cost.iter().enumerate() {
            by_cost[c as usize].insert(p);
        }
        let mut sets = CostSets { free: by_cost[0], paid: [(0, Bits::EMPTY); RING - 1], n_paid: 0 };
        for (c, &set) in by_cost.iter().enumerate().skip(1) {
            if !set.is_empty() {
                sets.paid[sets.n_paid] = (c as u16, set);
                sets.n_paid += 1;
            }
        }
        sets
    }
}

/// The shortest paths from the points of side `side` (point costs paid on entry, the first
/// point included), one distance at a time: `each(d, reached, new)` sees the points at
/// distance `d` or less and those at exactly `d`, for `d` = 0, 1, … below `limit`, until every
/// point is reached or `each` returns true.
///
/// A set of points per distance instead of a queue of points: a point of cost `c` is within
/// `d` when it is a side point with `c` ≤ `d` or a neighbour of a point within `d - c`; the
/// points of cost 0 then join whatever they touch (a flood through them). Each step is a few
/// shifts of the whole board's bits.
fn levels(costs: &CostSets, side: u8, limit: u16, mut each: impl FnMut(u16, Bits, Bits) -> bool) {
    let start = Bits::sides(side);
    let free_start = costs.free & start;
    let mut reached = Bits::EMPTY;
    // The points within each of the last RING distances, with their neighbours.
    let mut grown = [Bits::EMPTY; RING];
    let mut d = 0u16;
    while d < limit {
        let mut within = reached | free_start;
        for &(c, set) in &costs.paid[..costs.n_paid] {
            if c <= d {
                within |= set & (grown[usize::from(d - c) % RING] | start);
            }
        }
        grown[usize::from(d) % RING] = loop {
            let around = within.grown();
            let joined = within | (around & costs.free);
            if joined == within {
                break around;
            }
            within = joined;
        };
        let new = within.without(reached);
        reached = within;
        if each(d, reached, new) || reached == BOARD {
            return;
        }
        d += 1;
    }
}

/// The distance from side `side` to the nearest point of side(s) `target`, or `limit` if
/// none is nearer than `limit`.
fn distance_between(costs: &CostSets, side: u8, target: u8, limit: u16) -> u16 {
    let target = Bits::sides(target);
    let mut found = limit;
    levels(costs, side, limit, |d, reached, _| {
        let arrived = !(reached & target).is_empty();
        if arrived {
            found = d;
        }
        arrived
    });
    found
}

/// The distance from side `side` of every point nearer than `limit`; [`FAR`] for the others.
fn distances(costs: &CostSets, side: u8, limit: u16, dist: &mut [u16; N_POINTS]) {
    dist.fill(FAR);
    levels(costs, side, limit, |d, _, new| {
        for p in new.points() {
            dist[p as usize] = d;
        }
        false
    });
}

/// The connection distance of `colour`: the cheapest of the three side pairs.
fn connection_distance(w: &Weights, vis: &[u8; N_POINTS], colour: u8, standard: bool) -> i32 {
    let cost = CostSets::of(&costs(PointCosts::of(w), vis, colour, standard));
    let mut best = dist_cap(w) as u16;
    for (from, to) in PAIRS {
        best = best.min(distance_between(&cost, from, to, best));
    }
    i32::from(best)
}

/// How far off the best connection the move prior looks: a point this much or more off it
/// counts as off it.
const SLACK_CAP: u16 = 4;

/// For each point, how much longer than `colour`'s best connection the cheapest connection
/// through that point is (0: on a shortest path), capped at [`SLACK_CAP`]; and the best
/// connection's length ([`FAR`] or more where there is none).
///
/// Only distances below the best connection plus the cap matter, and only pairs of sides
/// whose own connection is that close: a path through a point is at least as long as its
/// part from either side, so the shortest-path searches stop there, and a pair of sides
/// farther apart is not searched from its second side at all. The values are those of
/// searching every distance (`tests::slack_of_every_distance`), found in less time where
/// one pair of sides leads.
fn slack(
    pc: PointCosts,
    vis: &[u8; N_POINTS],
    colour: u8,
    standard: bool,
) -> ([u8; N_POINTS], u16) {
    let cost = costs(pc, vis, colour, standard);
    let sets = CostSets::of(&cost);
    // From the first side of each pair: exact below `limit`, which only ever falls to the
    // best connection so far plus the cap.
    let mut from_first = [[0u16; N_POINTS]; 3];
    let mut pair_distance = [FAR; 3];
    let mut limit = FAR;
    for (i, &(from, to)) in PAIRS.iter().enumerate() {
        distances(&sets, from, limit, &mut from_first[i]);
        let to_points = &SIDE_POINTS[to.trailing_zeros() as usize];
        pair_distance[i] =
            to_points.iter().map(|&q| from_first[i][q as usize]).min().unwrap_or(FAR);
        limit = limit.min(pair_distance[i].saturating_add(SLACK_CAP));
    }
    let best = *pair_distance.iter().min().expect("three pairs");
    let mut through = [FAR; N_POINTS];
    let mut from_second = [0u16; N_POINTS];
    for (i, &(_, to)) in PAIRS.iter().enumerate() {
        if pair_distance[i] >= limit {
            continue;
        }
        distances(&sets, to, limit, &mut from_second);
        for p in 0..N_POINTS {
            let t = from_first[i][p] + from_second[p] - u16::from(cost[p]);
            through[p] = through[p].min(t);
        }
    }
    let mut out = [0u8; N_POINTS];
    for p in 0..N_POINTS {
        out[p] = (through[p] - best).min(SLACK_CAP) as u8;
    }
    (out, best)
}

/// How much a connection distance is worth: steady progress, and much more near the end.
fn distance_value(w: &Weights, d: i32) -> i32 {
    w[Weights::DISTANCE] * (dist_cap(w) - d) + w[Weights::NEAR_END] / (d + 3)
}

/// What the evaluation reads of a position, each pair `[mover, opponent]`.
#[derive(Clone, Copy, Debug)]
struct Standing {
    /// Connection distances (capped at `DIST_CAP`).
    distance: [i32; 2],
    pieces_left: [i32; 2],
    /// Visible central points.
    centre: [i32; 2],
    /// Free (uncovered) pieces.
    free: [i32; 2],
    /// Pieces placed by both players.
    placed: i32,
}

impl Standing {
    fn of(w: &Weights, position: &Position) -> Standing {
        let st = &position.state;
        let standard = position.variant == Variant::Standard;
        let me = st.to_move.index();
        let them = 1 - me;
        let vis = st.visible();
        let centre = centre_counts(&vis);
        let free = st.free_pieces();
        Standing {
            distance: [
                connection_distance(w, &vis, me as u8, standard),
                connection_distance(w, &vis, them as u8, standard),
            ],
            pieces_left: [st.pieces_left(me), st.pieces_left(them)],
            centre: [centre[me], centre[them]],
            free: [free[me], free[them]],
            placed: st.placed(),
        }
    }

    /// The standing after a shift of the mover that changes no connection distance, covers
    /// and uncovers no piece and no central point: the same, the opponent to move.
    fn after_quiet_shift(self) -> Standing {
        let [me, them] = [0, 1];
        Standing {
            distance: [self.distance[them], self.distance[me]],
            pieces_left: [self.pieces_left[them], self.pieces_left[me]],
            centre: [self.centre[them], self.centre[me]],
            free: [self.free[them], self.free[me]],
            placed: self.placed,
        }
    }

    /// The standing after a placement of the mover that changes no connection distance and
    /// covers no central point: as after a quiet shift, the mover with one piece fewer in his
    /// supply and one more free on the board.
    fn after_quiet_placement(self) -> Standing {
        let mut after = self.after_quiet_shift();
        let mover = 1;
        after.pieces_left[mover] -= 1;
        after.free[mover] += 1;
        after.placed += 1;
        after
    }

    /// The evaluation, for the mover.
    fn value(&self, w: &Weights, variant: Variant) -> i32 {
        let [me, them] = [0, 1];
        let d_me = self.distance[me];
        let mut score = distance_value(w, d_me) - distance_value(w, self.distance[them]);
        // Three empty points in a row on the path are one piece: the mover connects next.
        if d_me <= 3 && self.pieces_left[me] > 0 {
            score += w[Weights::CONNECT_NEXT] - w[Weights::CONNECT_STEP] * d_me;
        }
        let lead = self.centre[me] - self.centre[them];
        score += CentreWeight::of(w).at(variant, self.placed) * lead;
        // In `standard`, a player placing his last piece ends the game on the centre count:
        // the mover with one piece left and more central points wins on the spot (a
        // placement outside the centre is as good as certain to exist).
        if variant == Variant::Standard {
            if self.pieces_left[me] == 1 && lead > 0 {
                score += w[Weights::EXHAUSTION_WIN];
            } else if self.pieces_left[them] == 1 && lead < 0 {
                // He ends it next turn unless the mover connects or wins the centre back.
                score -= w[Weights::EXHAUSTION_WIN] / 3;
            }
        }
        score += w[Weights::FREE_PIECE] * (self.free[me] - self.free[them]);
        // The mover acts first.
        score += w[Weights::TEMPO];
        // (Not `clamp`, which would panic on a negative LIMIT read from a file.)
        let limit = w[Weights::LIMIT];
        score.max(-limit).min(limit)
    }
}

/// The central points each colour shows, from the visible colour of every point.
fn centre_counts(vis: &[u8; N_POINTS]) -> [i32; 2] {
    let mut centre = [0i32; 2];
    for (&central, &shown) in CENTRAL.iter().zip(vis) {
        if central && shown != NO_OWNER {
            centre[shown as usize] += 1;
        }
    }
    centre
}

impl State {
    fn pieces_left(&self, colour: usize) -> i32 {
        self.supply[colour].iter().map(|&c| i32::from(c)).sum()
    }

    /// Pieces placed by both players.
    fn placed(&self) -> i32 {
        2 * PIECES_PER_PLAYER as i32 - self.pieces_left(0) - self.pieces_left(1)
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

/// The per-position tables of the move prior.
struct PriorTable {
    hash: u64,
    to_move: u8,
    /// The weights it was made from (two evaluators in one thread may differ).
    weights: PriorWeights,
    /// Value of the mover showing each point (from his connection and the opponent's).
    gain: [i16; N_POINTS],
    /// Value of the mover's point becoming empty or the opponent's (what uncovering costs).
    loss: [i16; N_POINTS],
    /// The empty points off the centre and off both players' shortest connections, where
    /// that is a bound ([`quiet_bounded`]). A placement on three of them is quiet
    /// ([`Eval::quiet_bound`]): every connection of the mover's through them was one longer
    /// than his best at least, and the piece saves him three at most (its three empty points),
    /// so his distance falls by two at most; the opponent's shortest connections keep their
    /// length (his cost of a point only rises when the mover's piece covers it,
    /// `OPPONENT_COST` being at least that of an empty point). None where the mover is two or
    /// fewer from a connection.
    quiet: Bits,
    /// Whether a placement may be quiet: not where the mover has one piece left (his
    /// placement would end the game).
    placements_quiet: bool,
    /// The PÜNCT dots of the mover's free pieces that lie on the board (level 1) off the
    /// centre. A shift of one of them onto three [`quiet`](PriorTable::quiet) points is
    /// quiet: the points it leaves become empty, which only raises the mover's costs there
    /// and lowers the opponent's (so his distance is at most what it was: his shortest
    /// connections avoid the landing points), the mover's distance falls by two at most as
    /// for a placement, and it covers and uncovers no piece and no central point. It may
    /// repeat a position ([`Eval::quiet_may_repeat`]).
    quiet_from: Bits,
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
///
/// The groups of the mover's visible points then decide it. Nobody is connected before the
/// turn, so a connection after it runs through the three points the piece lands on (which
/// touch each other in every shape); what joins them is the groups they touch or lie in. For
/// a placement, which covers nothing and uncovers nothing, those groups are exactly what
/// joins: it connects if and only if they and its points reach two opposite sides. A shift
/// may also take points from the groups where its piece leaves, so for it the same test
/// only rules out: what it does not join, the shift cannot.
struct WinPoints {
    hash: u64,
    to_move: u8,
    /// The mover places his last piece with any placement ([E3] decides on the centre).
    all: bool,
    /// `standard`: [E3] counts the central points.
    standard: bool,
    /// Some turn may win.
    any: bool,
    points: [bool; N_POINTS],
    /// The visible colour of each point.
    visible: [u8; N_POINTS],
    /// The sides a piece landing on each point reaches there: the point's own, and those of
    /// the mover's groups it lies in or touches (filled only where some turn may win).
    reach: [u8; N_POINTS],
    /// The central points each colour shows.
    centre: [i32; 2],
}

impl WinPoints {
    /// Whether the mover's groups that a piece landing on `landing` joins, with those
    /// points, reach two opposite sides (see [`WinPoints`]).
    fn joins_sides(&self, landing: [u8; 3]) -> bool {
        let [a, b, c] = landing.map(|p| self.reach[p as usize]);
        spans_opposite_sides(a | b | c)
    }

    /// [E3] after the mover's last placement on `landing`: whether he shows more central
    /// points than the opponent.
    fn centre_majority_after(&self, landing: [u8; 3]) -> bool {
        if !self.standard {
            return false;
        }
        let me = self.to_move as usize;
        let mut count = self.centre;
        for p in landing {
            let shown = self.visible[p as usize];
            if CENTRAL[p as usize] && shown != self.to_move {
                count[me] += 1;
                if shown != NO_OWNER {
                    count[shown as usize] -= 1;
                }
            }
        }
        count[me] > count[1 - me]
    }

    /// Whether `mv` may win (see [`Eval::may_win_with`]).
    fn may_win_with(&self, mv: Move) -> bool {
        let (at, orient) = match mv {
            Move::Place { at, orient } | Move::Shift { to: at, orient, .. } => (at, orient),
            Move::Pass => return false,
        };
        let [a, b] = SHAPES[at.index()][orient.index()];
        let landing = [at.index() as u8, a, b];
        let placement = matches!(mv, Move::Place { .. });
        if placement && self.all && self.centre_majority_after(landing) {
            return true;
        }
        landing.iter().any(|&p| self.points[p as usize]) && self.joins_sides(landing)
    }
}

impl Position {
    fn prior_table(&self, pw: PriorWeights) -> PriorTable {
        let st = &self.state;
        let standard = self.variant == Variant::Standard;
        let me = st.to_move.index() as u8;
        let vis = st.visible();
        let (mine, best) = slack(pw.costs, &vis, me, standard);
        let (theirs, _) = slack(pw.costs, &vis, 1 - me, standard);
        let centre = pw.centre.at(self.variant, st.placed()) as i16;
        let mut gain = [0i16; N_POINTS];
        let mut loss = [0i16; N_POINTS];
        let mut quiet = Bits::EMPTY;
        let mut quiet_from = Bits::EMPTY;
        // Two shorter is still no connection.
        let bounded = pw.quiet && best >= 3;
        if bounded {
            for i in 0..st.n {
                let piece = st.pieces[i as usize];
                if piece.owner == me
                    && piece.level == 1
                    && st.is_free(i)
                    && piece.points().iter().all(|&p| !CENTRAL[p as usize])
                {
                    quiet_from.insert(piece.at as usize);
                }
            }
        }
        for p in 0..N_POINTS {
            if bounded && vis[p] == NO_OWNER && !CENTRAL[p] && mine[p] >= 1 && theirs[p] >= 1 {
                quiet.insert(p);
            }
            let own = 40 * (SLACK_CAP as i16 - i16::from(mine[p]));
            let block = 30 * (SLACK_CAP as i16 - i16::from(theirs[p]));
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
        PriorTable {
            hash: st.hash,
            to_move: me,
            weights: pw,
            gain,
            loss,
            quiet,
            placements_quiet: st.pieces_left(usize::from(me)) >= 2,
            quiet_from,
        }
    }

    fn win_points(&self) -> WinPoints {
        let st = &self.state;
        let me = st.to_move.index() as u8;
        let visible = st.visible();
        let centre = centre_counts(&visible);
        let mut w = WinPoints {
            hash: st.hash,
            to_move: me,
            all: st.pieces_left(me as usize) <= 1,
            standard: self.variant == Variant::Standard,
            any: false,
            points: [false; N_POINTS],
            visible,
            reach: [0; N_POINTS],
            centre,
        };
        let vis = w.visible;
        let mut cost = [0u8; N_POINTS];
        for (c, &v) in cost.iter_mut().zip(&vis) {
            *c = u8::from(v != me);
        }
        let sets = CostSets::of(&cost);
        let mut a = [0u16; N_POINTS];
        let mut b = [0u16; N_POINTS];
        for (from, to) in PAIRS {
            // The cheapest path between the two sides costs more than three: none through
            // any point does.
            if distance_between(&sets, from, to, 4) > 3 {
                continue;
            }
            // A point costing 1 with a path of at most 3 through it is at most 3 from each
            // side: the distances below 4 are all that is read.
            distances(&sets, from, 4, &mut a);
            distances(&sets, to, 4, &mut b);
            for p in 0..N_POINTS {
                if cost[p] == 1 && a[p] + b[p] - 1 <= 3 {
                    w.points[p] = true;
                    w.any = true;
                }
            }
        }
        w.any |= w.all;
        if w.any {
            let (group, group_sides) = State::groups(&vis, me);
            for (p, reach) in w.reach.iter_mut().enumerate() {
                *reach = SIDES[p];
                for q in std::iter::once(p as u8).chain(NEIGHBOURS[p]) {
                    if q != NONE && group[q as usize] != NONE {
                        *reach |= group_sides[group[q as usize] as usize];
                    }
                }
            }
        }
        w
    }

    fn key(&self) -> (u64, u8) {
        (self.state.hash, self.state.to_move.index() as u8)
    }

    fn with_win_points<R>(&self, f: impl FnOnce(&WinPoints) -> R) -> R {
        with_cached(&WIN_POINTS, self.key(), || self.win_points(), f)
    }

    fn with_prior_table<R>(&self, w: &Weights, f: impl FnOnce(&PriorTable) -> R) -> R {
        let (hash, mover) = self.key();
        let pw = PriorWeights {
            costs: PointCosts::of(w),
            centre: CentreWeight::of(w),
            quiet: quiet_bounded(w),
        };
        with_cached(&PRIOR, (hash, mover, pw), || self.prior_table(pw), f)
    }
}

/// A table computed from one position (its hash and mover say which) and whatever else it
/// depends on.
trait Cached {
    type Key: PartialEq;
    fn key(&self) -> Self::Key;
}

impl Cached for PriorTable {
    type Key = (u64, u8, PriorWeights);
    fn key(&self) -> Self::Key {
        (self.hash, self.to_move, self.weights)
    }
}

impl Cached for WinPoints {
    type Key = (u64, u8);
    fn key(&self) -> Self::Key {
        (self.hash, self.to_move)
    }
}

/// `f` of the table with `key` in `cell`, made by `make` when the cell holds another (another
/// position's, or one made with other weights). One cell per thread: the priors of every move
/// of a position, or the win check of each, then cost a look-up.
fn with_cached<T: Cached, R>(
    cell: &'static LocalKey<RefCell<Option<Box<T>>>>,
    key: T::Key,
    make: impl FnOnce() -> T,
    f: impl FnOnce(&T) -> R,
) -> R {
    cell.with(|cell| {
        let mut slot = cell.borrow_mut();
        if slot.as_ref().is_none_or(|t| t.key() != key) {
            *slot = Some(Box::new(make()));
        }
        f(slot.as_ref().expect("just filled"))
    })
}

ply_core::evaluator!(Eval for Position, Weights, [
    ("default", include_str!("weights.txt")),
    ("hand", include_str!("weights-hand.txt")),
]);

impl Evaluator<Position> for Eval {
    fn evaluate(&self, position: &Position) -> i32 {
        Standing::of(&self.w, position).value(&self.w, position.variant)
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

    /// Fitted: `ply tune punct --games 1000 --seed 4 --passes 0` gave 2/K = 999 on
    /// 26,248 positions of level-6 self-play games (`docs/tuning.md`, "The value scale").
    fn value_scale(&self) -> f32 {
        1000.0
    }

    /// A quiet move ([`is_quiet`](Evaluator::is_quiet)) leaves the centre as it was, the
    /// opponent's connection distance as it was or longer (a placement) or at most as it was
    /// (a shift, whose leaving points may open his way), and takes two at most from the
    /// mover's distance; a placement covers nothing and leaves the mover a piece, a shift
    /// covers and uncovers nothing. The opponent's evaluation after it is at least what it
    /// is with the mover's distance two shorter and his own as it was (exactly that where the
    /// move saves the mover two and opens nothing), and the bound is minus that evaluation,
    /// the larger of a placement's and a shift's. None where the mover is two or fewer from
    /// a connection, or where the weights make no bound ([`quiet_bounded`]).
    fn quiet_bound(&self, position: &Position) -> Option<i32> {
        let st = &position.state;
        let w = &self.w;
        if st.outcome.is_some() || !quiet_bounded(w) {
            return None;
        }
        let standing = Standing::of(w, position);
        if standing.distance[0] < 3 {
            return None;
        }
        let bound = |mut after: Standing| {
            after.distance[1] -= 2;
            -after.value(w, position.variant)
        };
        let shifts = bound(standing.after_quiet_shift());
        if st.pieces_left(st.to_move.index()) < 2 {
            return Some(shifts);
        }
        Some(shifts.max(bound(standing.after_quiet_placement())))
    }

    /// A placement on three points of [`PriorTable::quiet`], or a shift of a piece of
    /// [`PriorTable::quiet_from`] onto three of them, read from the move prior's table of
    /// the position.
    fn is_quiet(&self, position: &Position, mv: Move) -> bool {
        let (at, orient) = match mv {
            Move::Place { at, orient } | Move::Shift { to: at, orient, .. } => (at, orient),
            Move::Pass => return false,
        };
        let [a, b] = SHAPES[at.index()][orient.index()];
        position.with_prior_table(&self.w, |t| {
            let source = match mv {
                Move::Shift { from, .. } => t.quiet_from.contains(from.index() as u8),
                _ => t.placements_quiet,
            };
            source
                && t.quiet.contains(at.index() as u8)
                && t.quiet.contains(a)
                && t.quiet.contains(b)
        })
    }

    /// A quiet shift may come back to a position seen before; a quiet placement never does
    /// (it takes a piece from the supply).
    fn quiet_may_repeat(&self, _: &Position, mv: Move) -> bool {
        matches!(mv, Move::Shift { .. })
    }

    /// No move is forcing (quiescence would follow none): the search need not list them.
    fn may_force(&self, _: &Position) -> bool {
        false
    }

    /// A turn wins at once only by a connection of the mover ([E2]: the other player's
    /// connection alone makes him the winner) or by the mover's last placement ([E3]). See
    /// [`WinPoints`]: no turn wins when no point can be one of those a winning piece lands on.
    fn may_win_at_once(&self, position: &Position) -> bool {
        position.with_win_points(|w| w.any)
    }

    /// Only a turn whose piece lands on one of the [`WinPoints`] can win by a connection, and
    /// only if it joins the mover's groups to two opposite sides: exactly so for a
    /// placement, which changes nothing but its three points. The mover's last placement
    /// may also win by [E3], counted here as the rules count it.
    fn may_win_with(&self, position: &Position, mv: Move) -> bool {
        position.with_win_points(|w| w.may_win_with(mv))
    }

    /// The same test, with the position's table looked up once for all the moves.
    fn moves_that_may_win(&self, position: &Position, moves: &[Move], out: &mut Vec<u32>) {
        out.clear();
        position.with_win_points(|w| {
            if w.any {
                out.extend((0..moves.len() as u32).filter(|&i| w.may_win_with(moves[i as usize])));
            }
        });
    }

    fn move_prior(&self, position: &Position, mv: Move) -> i32 {
        position.with_prior_table(&self.w, |t| prior(t, mv, |from| leaving(&position.state, from)))
    }

    fn move_priors(&self, position: &Position, moves: &[Move], out: &mut Vec<i32>) {
        out.clear();
        position.with_prior_table(&self.w, |t| {
            // A piece's shifts are listed together: its points are looked up once.
            let mut last = (NONE, [NONE; 3]);
            out.extend(moves.iter().map(|&mv| {
                prior(t, mv, |from| {
                    if last.0 != from {
                        last = (from, leaving(&position.state, from));
                    }
                    last.1
                })
            }));
        });
    }
}

/// The points a shift from `from` leaves (those of the mover's free piece there).
fn leaving(st: &State, from: u8) -> [u8; 3] {
    st.movable_at(from).map(|i| st.pieces[i as usize].points()).unwrap_or([NONE; 3])
}

/// The prior of `mv` from the position's table; `leaving` gives the points a shift leaves.
fn prior(t: &PriorTable, mv: Move, leaving: impl FnOnce(u8) -> [u8; 3]) -> i32 {
    match mv {
        Move::Pass => 0,
        Move::Place { at, orient } => {
            let [a, b] = SHAPES[at.index()][orient.index()];
            i32::from(t.gain[at.index()])
                + i32::from(t.gain[a as usize])
                + i32::from(t.gain[b as usize])
        }
        Move::Shift { from, to, orient } => {
            let [a, b] = SHAPES[to.index()][orient.index()];
            let landing = [to.index() as u8, a, b];
            let leaving = leaving(from.index() as u8);
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
        }
    }
}

#[cfg(test)]
mod tests {
    use ply_core::{Evaluator, Game, Outcome, Tunable};

    use super::{Eval, Weights};
    use crate::rules::Position;
    use crate::types::Move;

    /// The slack the move prior reads, against the plain computation: every distance from
    /// every side, capped only where it is read.
    #[test]
    fn slack_of_every_distance() {
        use super::{CostSets, FAR, PAIRS, PointCosts, SLACK_CAP, costs, distances, slack};
        use crate::geometry::N_POINTS;
        fn every_distance(
            pc: PointCosts,
            vis: &[u8; N_POINTS],
            colour: u8,
            standard: bool,
        ) -> Vec<u16> {
            let cost = costs(pc, vis, colour, standard);
            let sets = CostSets::of(&cost);
            let mut through = [FAR; N_POINTS];
            let (mut a, mut b) = ([0u16; N_POINTS], [0u16; N_POINTS]);
            for (from, to) in PAIRS {
                distances(&sets, from, FAR, &mut a);
                distances(&sets, to, FAR, &mut b);
                for p in 0..N_POINTS {
                    through[p] = through[p].min(a[p] + b[p] - u16::from(cost[p]));
                }
            }
            let best = *through.iter().min().unwrap();
            through.iter().map(|&t| (t - best).min(SLACK_CAP)).collect()
        }
        let w = *Eval::default().weights();
        let pc = PointCosts::of(&w);
        let mut checked = 0;
        for (seed, variant) in [(1usize, "standard"), (2, "basic"), (3, "standard")] {
            let mut position = Position::new(variant).unwrap();
            let mut moves = Vec::new();
            let mut turn = 0;
            while position.outcome().is_none() && turn < 80 {
                let vis = position.state.visible();
                let standard = variant == "standard";
                for colour in [0u8, 1] {
                    let fast: Vec<u16> =
                        slack(pc, &vis, colour, standard).0.iter().map(|&s| u16::from(s)).collect();
                    assert_eq!(fast, every_distance(pc, &vis, colour, standard), "turn {turn}");
                    checked += 1;
                }
                position.legal_moves(&mut moves);
                position.play(moves[(turn * 7919 + seed * 104_729) % moves.len()]);
                turn += 1;
            }
        }
        assert!(checked > 200, "{checked} positions");
    }

    /// Dial's algorithm (a queue of points in buckets by distance), which the evaluator used
    /// before it searched a set of points per distance: the oracle of [`super::distances`]
    /// and [`super::distance_between`].
    fn dial(
        cost: &[u8; crate::geometry::N_POINTS],
        side: u8,
        target: u8,
        limit: u16,
        dist: &mut [u16; crate::geometry::N_POINTS],
    ) -> u16 {
        use super::{FAR, RING, SIDE_POINTS};
        use crate::geometry::{NEIGHBOURS, NONE, SIDES};
        let mut ring = vec![Vec::new(); RING];
        dist.fill(FAR);
        for (bit, points) in SIDE_POINTS.iter().enumerate() {
            if side & (1 << bit) != 0 {
                for &p in points {
                    dist[p as usize] = u16::from(cost[p as usize]);
                    ring[usize::from(cost[p as usize]) % RING].push(p);
                }
            }
        }
        let mut d: u16 = 0;
        while ring.iter().any(|b| !b.is_empty()) && d < limit {
            while let Some(p) = ring[usize::from(d) % RING].pop() {
                let p = p as usize;
                if dist[p] != d {
                    continue;
                }
                if SIDES[p] & target != 0 {
                    return d;
                }
                for &q in &NEIGHBOURS[p] {
                    if q != NONE {
                        let nd = d + u16::from(cost[q as usize]);
                        if nd < dist[q as usize] {
                            dist[q as usize] = nd;
                            ring[usize::from(nd) % RING].push(q);
                        }
                    }
                }
            }
            d += 1;
        }
        limit
    }

    /// The distances by sets of points are Dial's, for every side, target and limit, on the
    /// positions of random games and on boards of random costs up to the largest allowed.
    #[test]
    fn distances_are_dials() {
        use super::{CostSets, FAR, RING, distance_between, distances};
        use crate::geometry::N_POINTS;
        let mut boards: Vec<[u8; N_POINTS]> = Vec::new();
        let mut position = Position::new("standard").unwrap();
        let mut moves = Vec::new();
        for turn in 0..70usize {
            if position.outcome().is_some() {
                break;
            }
            let vis = position.state.visible();
            for colour in [0u8, 1] {
                boards.push(super::costs(
                    super::PointCosts::of(Eval::default().weights()),
                    &vis,
                    colour,
                    true,
                ));
            }
            position.legal_moves(&mut moves);
            position.play(moves[(turn * 7919 + 31) % moves.len()]);
        }
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..40 {
            let mut cost = [0u8; N_POINTS];
            for c in &mut cost {
                let (next, r) = ply_core::zobrist::splitmix64(seed);
                seed = next;
                *c = (r % RING as u64) as u8;
            }
            boards.push(cost);
        }
        let (mut fast, mut slow) = ([0u16; N_POINTS], [0u16; N_POINTS]);
        for cost in &boards {
            let sets = CostSets::of(cost);
            for side in 0..6 {
                let from = 1u8 << side;
                for limit in [0, 1, 3, 4, 9, 17, FAR] {
                    distances(&sets, from, limit, &mut fast);
                    dial(cost, from, 0, limit, &mut slow);
                    for p in 0..N_POINTS {
                        if slow[p] < limit || fast[p] < limit {
                            assert_eq!(fast[p], slow[p], "point {p}, side {side}, limit {limit}");
                        }
                    }
                    for target in 1..64u8 {
                        assert_eq!(
                            distance_between(&sets, from, target, limit),
                            dial(cost, from, target, limit, &mut slow),
                            "side {side}, target {target}, limit {limit}"
                        );
                    }
                }
            }
        }
        assert!(boards.len() > 150, "{} boards", boards.len());
    }

    /// Every quiet move, played by the rules, leaves a game not over (a shift may repeat a
    /// position, and the third time draws) and a position worth at most the quiet bound to
    /// the mover, in both variants from the start to the end of pseudo-random games; over a
    /// quarter of the placements of their first 30 turns are quiet and over a tenth of the
    /// shifts, and in most positions with a quiet move one of them is worth the bound.
    #[test]
    fn quiet_moves_are_worth_at_most_the_quiet_bound() {
        let eval = Eval::default();
        let mut moves = Vec::new();
        let (mut quiet, mut placements, mut positions, mut reached) = (0, 0, 0, 0);
        let (mut quiet_shifts, mut shifts, mut with_quiet) = (0, 0, 0);
        for (seed, variant) in [(1usize, "standard"), (2, "basic"), (3, "standard"), (4, "basic")] {
            let mut position = Position::new(variant).unwrap();
            let mut turn = 0;
            while position.outcome().is_none() {
                let bound = eval.quiet_bound(&position);
                let mut best = None;
                position.legal_moves(&mut moves);
                for &mv in &moves {
                    let shift = matches!(mv, Move::Shift { .. });
                    placements += usize::from(matches!(mv, Move::Place { .. }) && turn < 30);
                    shifts += usize::from(shift);
                    if !eval.is_quiet(&position, mv) {
                        continue;
                    }
                    assert_eq!(eval.quiet_may_repeat(&position, mv), shift);
                    let mut after = position.clone();
                    after.play(mv);
                    let at = format!("{mv:?} at turn {turn} of {variant}");
                    let bound = bound.expect("a bound where a move is quiet");
                    if let Some(outcome) = after.outcome() {
                        assert!(shift && outcome == Outcome::Draw, "{at}: {outcome:?}");
                        continue;
                    }
                    let value = -eval.evaluate(&after);
                    assert!(value <= bound, "{at}: worth {value}, bound {bound}");
                    best = best.max(Some(value));
                    quiet += usize::from(!shift && turn < 30);
                    quiet_shifts += usize::from(shift);
                }
                if let Some(best) = best {
                    with_quiet += 1;
                    reached += usize::from(Some(best) == bound);
                }
                positions += 1;
                position.play(moves[(turn * 7919 + seed * 104_729) % moves.len()]);
                turn += 1;
            }
        }
        assert!(positions > 100, "{positions} positions");
        assert!(quiet * 4 > placements, "{quiet} of {placements} early placements quiet");
        assert!(quiet_shifts * 10 > shifts, "{quiet_shifts} of {shifts} shifts quiet");
        assert!(reached * 2 > with_quiet, "the bound reached in {reached} of {with_quiet}");
    }

    /// The priors of all moves at once are those of each move alone, shifts included.
    #[test]
    fn priors_at_once_are_the_priors_of_each_move() {
        let eval = Eval::default();
        let mut position = Position::new("standard").unwrap();
        let (mut moves, mut at_once) = (Vec::new(), Vec::new());
        let mut shifts = 0;
        for turn in 0..60usize {
            if position.outcome().is_some() {
                break;
            }
            position.legal_moves(&mut moves);
            eval.move_priors(&position, &moves, &mut at_once);
            let alone: Vec<i32> = moves.iter().map(|&m| eval.move_prior(&position, m)).collect();
            assert_eq!(at_once, alone, "turn {turn}");
            shifts += moves.iter().filter(|m| matches!(m, Move::Shift { .. })).count();
            position.play(moves[(turn * 7919) % moves.len()]);
        }
        assert!(shifts > 1000, "shifts were compared: {shifts}");
    }

    /// The move prior's per-thread table depends on the weights: two evaluators with
    /// different weights, used in turn in one thread, each get their own priors.
    #[test]
    fn prior_cache_follows_the_weights() {
        let mut position = Position::new("standard").unwrap();
        let mut moves = Vec::new();
        for _ in 0..6 {
            moves.clear();
            position.legal_moves(&mut moves);
            position.play(moves[moves.len() / 2]);
        }
        moves.clear();
        position.legal_moves(&mut moves);
        let a = Eval::default();
        let mut w = *a.weights();
        w.0[Weights::OPPONENT_COST] = 1;
        w.0[Weights::CENTRE] = 40;
        let b = Eval::with_weights(w);
        let priors = |e: &Eval, position: &Position, moves: &[Move]| -> Vec<i32> {
            moves.iter().map(|&m| e.move_prior(position, m)).collect()
        };
        let fresh = |e: Eval| {
            let (position, moves) = (position.clone(), moves.clone());
            std::thread::spawn(move || priors(&e, &position, &moves)).join().unwrap()
        };
        let pa = priors(&a, &position, &moves);
        let pb = priors(&b, &position, &moves);
        assert!(pa != pb, "the weights change the priors");
        assert!(pa == fresh(a), "the default weights' priors, as in a fresh thread");
        assert!(pb == fresh(b), "the other weights' priors, as in a fresh thread");
        assert!(priors(&a, &position, &moves) == pa, "the default weights' priors again");
    }
}
