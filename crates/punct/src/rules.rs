//! The rules of PÜNCT: the position ([`Position`] with its `Copy` state and history), landing
//! and lifting pieces ([L1]–[L5]), placements and shifts, connections, the end of the game,
//! repetition and the Zobrist hash.

use ply_core::zobrist::{keys, splitmix64};
use ply_core::{History, Outcome, Player};

use crate::bits::{Bits, CENTRAL_BITS, DOT_SHIFTS};
use crate::geometry::{
    self, CENTRAL, Kind, N_ORIENTS, N_POINTS, NEIGHBOURS, NONE, Orient, Point, SHAPES, SIDES,
};
use crate::types::{Move, PIECES_PER_PLAYER, PieceInfo, Variant};

pub(crate) const MAX_PIECES: usize = 2 * PIECES_PER_PLAYER;

/// One piece on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct Piece {
    pub(crate) owner: u8,
    pub(crate) orient: u8,
    pub(crate) at: u8,
    pub(crate) level: u8,
}

impl Piece {
    #[inline]
    pub(crate) fn points(self) -> [u8; 3] {
        let [a, b] = SHAPES[self.at as usize][self.orient as usize];
        [self.at, a, b]
    }

    pub(crate) fn key(self) -> u64 {
        let i = (self.owner as usize * geometry::N_ORIENTS + self.orient as usize) * N_POINTS
            + self.at as usize;
        splitmix64(PIECE_KEYS[i] ^ LEVEL_KEYS[self.level as usize]).1
    }

    pub(crate) fn sort_key(self) -> u32 {
        u32::from_be_bytes([self.owner, self.orient, self.at, self.level])
    }
}

pub(crate) static PIECE_KEYS: [u64; 2 * geometry::N_ORIENTS * N_POINTS] = keys(0x5055_4E43_5401);
pub(crate) const LEVEL_KEYS: [u64; MAX_PIECES + 2] = keys(0x5055_4E43_5402);
pub(crate) const SUPPLY_KEYS: [u64; 2 * 6 * 8] = keys(0x5055_4E43_5403);
pub(crate) const SIDE_KEY: u64 = keys::<1>(0x5055_4E43_5404)[0];

#[inline]
pub(crate) fn supply_key(player: usize, kind: usize, count: u8) -> u64 {
    SUPPLY_KEYS[(player * 6 + kind) * 8 + count as usize]
}

pub(crate) const NO_OWNER: u8 = 2;

/// The sides the group of `start` touches: the points reached from it through points
/// `in_group` accepts, marked in `seen` (`stack` is scratch room).
fn flood_sides(
    start: u8,
    in_group: impl Fn(u8) -> bool,
    seen: &mut [bool; N_POINTS],
    stack: &mut [u8; N_POINTS],
) -> u8 {
    let mut sides = 0u8;
    let mut len = 1;
    stack[0] = start;
    seen[start as usize] = true;
    while len > 0 {
        len -= 1;
        let p = stack[len] as usize;
        sides |= SIDES[p];
        for &q in &NEIGHBOURS[p] {
            if q != NONE && !seen[q as usize] && in_group(q) {
                seen[q as usize] = true;
                stack[len] = q;
                len += 1;
            }
        }
    }
    sides
}

/// Whether a set of [`SIDES`] bits holds both sides of a pair (A and Q, R1 and R17, D- and
/// D+): what a connection touches ([C2]).
#[inline]
pub(crate) fn spans_opposite_sides(sides: u8) -> bool {
    sides & 3 == 3 || sides & 12 == 12 || sides & 48 == 48
}

/// Why an action is illegal (the words of §6.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Illegal {
    NotEmpty(u8),
    UnderBridge(u8),
    Central(u8),
    NoSupply,
    TriangleUneven,
    EndsUneven,
    MiddleHigher,
    Hanging,
    OnOpponent,
}

impl Illegal {
    pub(crate) fn message(self) -> String {
        let p = |i: u8| Point(i).to_string();
        match self {
            Illegal::NotEmpty(x) => format!("{} is not empty ([P3])", p(x)),
            Illegal::UnderBridge(x) => {
                format!("point under a bridge is not empty: {} ([B2])", p(x))
            }
            Illegal::Central(x) => format!(
                "{} is in the central hexagon, where this placement may not go ([P4])",
                p(x)
            ),
            Illegal::NoSupply => "no piece of that kind is left in the supply ([P1])".into(),
            Illegal::TriangleUneven => {
                "a triangle must rest on three points of equal height ([L1])".into()
            }
            Illegal::EndsUneven => "the end dots would rest at unequal heights ([L2])".into(),
            Illegal::MiddleHigher => {
                "the middle dot's point is higher than the end dots ([L2])".into()
            }
            Illegal::Hanging => "PÜNCT dot would hang over an empty point ([L3])".into(),
            Illegal::OnOpponent => "PÜNCT dot would rest on the opponent's piece ([L3])".into(),
        }
    }
}

/// Heights and top pieces under a lifted piece: H′ of [L2] at its own points.
#[derive(Clone, Copy)]
pub(crate) struct Lift {
    pub(crate) pts: [u8; 3],
    pub(crate) under_h: [u8; 3],
    pub(crate) under_top: [u8; 3],
}

/// The board as a lifted piece sees it, in sets: the points by the height of what lies on
/// them, and the points whose top piece is the mover's. The landing rule [L1]–[L6] then
/// holds for every point of an orientation at once ([`Heights::landings`]), where
/// [`State::land`] checks one landing; the test `shift_landings_are_the_landing_rules` holds
/// the two together.
struct Heights {
    /// `at[k]`: the points of height `k`.
    at: [Bits; MAX_PIECES + 1],
    /// The greatest height on the board: no set above it holds a point.
    highest: usize,
    /// The points whose top piece is the mover's.
    mine: Bits,
    me: u8,
}

impl Heights {
    fn of(state: &State, me: u8) -> Heights {
        let mut heights =
            Heights { at: [Bits::EMPTY; MAX_PIECES + 1], highest: 0, mine: Bits::EMPTY, me };
        for p in 0..N_POINTS {
            heights.change(p as u8, (0, NO_OWNER), (state.height[p], state.owner_at(p as u8)));
        }
        heights
    }

    /// Point `p` goes from height and top owner `from` to `to`.
    fn change(&mut self, p: u8, from: (u8, u8), to: (u8, u8)) {
        let p = p as usize;
        self.at[from.0 as usize].remove(p);
        self.at[to.0 as usize].insert(p);
        self.highest = self.highest.max(to.0 as usize);
        if to.1 == self.me {
            self.mine.insert(p);
        } else {
            self.mine.remove(p);
        }
    }

    /// The points where the lifted piece may land in `orient` with its PÜNCT dot ([L1]–[L6]):
    /// its three dots on the board, the two ends at one height, the middle no higher (all
    /// three at one height for a `T`), and above the board only on the mover's piece under
    /// the PÜNCT dot.
    fn landings(&self, orient: u8) -> Bits {
        let [a, b] = DOT_SHIFTS[orient as usize];
        let ground = self.at[0];
        let on_ground = ground & ground.shifted(-a) & ground.shifted(-b);
        let mut raised = Bits::EMPTY;
        // The points of height 1 up to `k`: a middle dot may be lower than the ends, though a
        // PÜNCT dot may not hang over the board.
        let mut up_to = Bits::EMPTY;
        for level in &self.at[1..=self.highest] {
            let level = *level;
            up_to |= level;
            raised |= match Orient(orient).middle() {
                None => level & level.shifted(-a) & level.shifted(-b),
                // The PÜNCT dot is the middle one.
                Some(0) => up_to & level.shifted(-a) & level.shifted(-b),
                // The first plain dot is the middle one (it may lie on the board).
                Some(_) => level & level.shifted(-b) & (up_to | ground).shifted(-a),
            };
        }
        on_ground | (raised & self.mine)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct State {
    pub(crate) pieces: [Piece; MAX_PIECES],
    pub(crate) n: u8,
    pub(crate) height: [u8; N_POINTS],
    pub(crate) top: [u8; N_POINTS],
    pub(crate) supply: [[u8; 6]; 2],
    pub(crate) to_move: Player,
    pub(crate) last_pass: bool,
    pub(crate) outcome: Option<Outcome>,
    pub(crate) hash: u64,
}

impl State {
    pub(crate) fn empty() -> State {
        let mut s = State {
            pieces: [Piece { owner: 0, orient: 0, at: 0, level: 0 }; MAX_PIECES],
            n: 0,
            height: [0; N_POINTS],
            top: [NONE; N_POINTS],
            supply: [Kind::COUNT; 2],
            to_move: Player::P1,
            last_pass: false,
            outcome: None,
            hash: 0,
        };
        s.hash = s.compute_hash();
        s
    }

    pub(crate) fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for piece in &self.pieces[..self.n as usize] {
            h ^= piece.key();
        }
        for pl in 0..2 {
            for k in 0..6 {
                h ^= supply_key(pl, k, self.supply[pl][k]);
            }
        }
        if self.to_move == Player::P2 {
            h ^= SIDE_KEY;
        }
        h
    }

    /// The owner of the top piece of `p`, or `NO_OWNER`.
    #[inline]
    pub(crate) fn owner_at(&self, p: u8) -> u8 {
        let t = self.top[p as usize];
        if t == NONE { NO_OWNER } else { self.pieces[t as usize].owner }
    }

    #[inline]
    pub(crate) fn is_free(&self, i: u8) -> bool {
        self.pieces[i as usize].points().iter().all(|&p| self.top[p as usize] == i)
    }

    /// The highest dot over `p` of any piece but `skip`: (level, piece) or (0, NONE).
    pub(crate) fn highest_except(&self, p: u8, skip: u8) -> (u8, u8) {
        let mut best = (0, NONE);
        for (j, piece) in self.pieces[..self.n as usize].iter().enumerate() {
            if j as u8 != skip && piece.level > best.0 && piece.points().contains(&p) {
                best = (piece.level, j as u8);
            }
        }
        best
    }

    pub(crate) fn lift(&self, i: u8) -> Lift {
        let pts = self.pieces[i as usize].points();
        let mut lift = Lift { pts, under_h: [0; 3], under_top: [NONE; 3] };
        for (k, &p) in pts.iter().enumerate() {
            let (h, t) = self.highest_except(p, i);
            lift.under_h[k] = h;
            lift.under_top[k] = t;
        }
        lift
    }

    /// H′ and the owner of the top piece, ignoring the lifted piece.
    #[inline]
    pub(crate) fn under(&self, lift: &Lift, p: u8) -> (u8, u8) {
        for k in 0..3 {
            if lift.pts[k] == p {
                let t = lift.under_top[k];
                let owner = if t == NONE { NO_OWNER } else { self.pieces[t as usize].owner };
                return (lift.under_h[k], owner);
            }
        }
        (self.height[p as usize], self.owner_at(p))
    }

    /// The landing rule [L1]–[L6] for the lifted piece at `to` in `orient` (its plain dots
    /// `a`, `b` on the board). Returns the new level.
    #[inline]
    pub(crate) fn land(
        &self,
        lift: &Lift,
        to: u8,
        orient: u8,
        a: u8,
        b: u8,
    ) -> Result<u8, Illegal> {
        // H′ and the owner of the top piece of each dot's point, ignoring the lifted piece.
        let (hq, oq) = self.under(lift, to);
        let (ha, _) = self.under(lift, a);
        let (hb, _) = self.under(lift, b);
        let h = match Orient(orient).middle() {
            None => {
                if hq != ha || ha != hb {
                    return Err(Illegal::TriangleUneven);
                }
                hq
            }
            Some(0) => {
                if ha != hb {
                    return Err(Illegal::EndsUneven);
                }
                if hq > ha {
                    return Err(Illegal::MiddleHigher);
                }
                ha
            }
            Some(_) => {
                if hq != hb {
                    return Err(Illegal::EndsUneven);
                }
                if ha > hq {
                    return Err(Illegal::MiddleHigher);
                }
                hq
            }
        };
        if h >= 1 {
            if hq == 0 {
                return Err(Illegal::Hanging);
            }
            if oq != self.to_move.index() as u8 {
                return Err(Illegal::OnOpponent);
            }
        }
        Ok(h + 1)
    }

    /// [P3] and [P4] for a new piece on `pts`.
    pub(crate) fn placement_check(&self, restricted: bool, pts: [u8; 3]) -> Result<(), Illegal> {
        for &p in &pts {
            if self.height[p as usize] != 0 {
                let t = self.top[p as usize];
                let lies_on_board = self.highest_level_one(p);
                return Err(if t != NONE && !lies_on_board {
                    Illegal::UnderBridge(p)
                } else {
                    Illegal::NotEmpty(p)
                });
            }
        }
        if restricted {
            for &p in &pts {
                if CENTRAL[p as usize] {
                    return Err(Illegal::Central(p));
                }
            }
        }
        Ok(())
    }

    /// Whether some piece lies directly on the board (level 1) over `p`.
    pub(crate) fn highest_level_one(&self, p: u8) -> bool {
        self.pieces[..self.n as usize].iter().any(|pc| pc.level == 1 && pc.points().contains(&p))
    }

    pub(crate) fn gen_placements(&self, restricted: bool, out: &mut Vec<Move>) {
        let me = self.to_move.index();
        // The points a new piece may cover, as a set: an orientation's PÜNCT dots are the
        // open points whose two plain dots are open too, each dot one shift of the set.
        let mut open = Bits::EMPTY;
        for p in 0..N_POINTS {
            if self.height[p] == 0 {
                open.insert(p);
            }
        }
        if restricted {
            open = open.without(CENTRAL_BITS);
        }
        for kind in Kind::ALL {
            if self.supply[me][kind.index()] == 0 {
                continue;
            }
            for o in kind.orients() {
                let [a, b] = DOT_SHIFTS[o as usize];
                let at = open & open.shifted(-a) & open.shifted(-b);
                let orient = Orient(o);
                out.extend(at.points().map(|p| Move::Place { at: Point(p), orient }));
            }
        }
    }

    pub(crate) fn gen_shifts(&self, out: &mut Vec<Move>) {
        let me = self.to_move.index() as u8;
        let mut heights = Heights::of(self, me);
        for i in 0..self.n {
            let piece = self.pieces[i as usize];
            if piece.owner != me || !self.is_free(i) {
                continue;
            }
            // With the piece lifted, its three points show what lies under it (H′).
            let lift = self.lift(i);
            for p in lift.pts {
                heights.change(
                    p,
                    (self.height[p as usize], self.owner_at(p)),
                    self.under(&lift, p),
                );
            }
            let kind = Orient(piece.orient).kind();
            let mut landings = [Bits::EMPTY; N_ORIENTS];
            for o in kind.orients() {
                landings[o as usize] = heights.landings(o);
            }
            // The targets in the order moves are listed: where the piece stands, then along
            // each direction.
            let mut try_to = |to: u8| {
                for o in kind.orients() {
                    if to == piece.at && o == piece.orient {
                        continue; // [M5]
                    }
                    if landings[o as usize].contains(to) {
                        out.push(Move::Shift {
                            from: Point(piece.at),
                            to: Point(to),
                            orient: Orient(o),
                        });
                    }
                }
            };
            try_to(piece.at);
            for (d, &first) in NEIGHBOURS[piece.at as usize].iter().enumerate() {
                let mut q = first;
                while q != NONE {
                    try_to(q);
                    q = NEIGHBOURS[q as usize][d];
                }
            }
            for p in lift.pts {
                heights.change(
                    p,
                    self.under(&lift, p),
                    (self.height[p as usize], self.owner_at(p)),
                );
            }
        }
    }

    /// The free piece of the mover whose PÜNCT dot is on `p` ([M8]).
    pub(crate) fn movable_at(&self, p: u8) -> Option<u8> {
        let me = self.to_move.index() as u8;
        (0..self.n).find(|&i| {
            let pc = self.pieces[i as usize];
            pc.at == p && pc.owner == me && self.is_free(i)
        })
    }

    pub(crate) fn set_supply(&mut self, pl: usize, kind: usize, count: u8) {
        self.hash ^= supply_key(pl, kind, self.supply[pl][kind]) ^ supply_key(pl, kind, count);
        self.supply[pl][kind] = count;
    }

    pub(crate) fn put(&mut self, i: u8) {
        let piece = self.pieces[i as usize];
        for p in piece.points() {
            self.height[p as usize] = piece.level;
            self.top[p as usize] = i;
        }
        self.hash ^= piece.key();
    }

    pub(crate) fn place(&mut self, at: u8, orient: u8) {
        let me = self.to_move.index();
        let kind = Orient(orient).kind().index();
        self.set_supply(me, kind, self.supply[me][kind] - 1);
        let i = self.n;
        self.pieces[i as usize] = Piece { owner: me as u8, orient, at, level: 1 };
        self.n += 1;
        self.put(i);
    }

    /// Shifts the mover's free piece at `from`; returns the points it left and its index.
    pub(crate) fn shift(&mut self, from: u8, to: u8, orient: u8) -> ([u8; 3], u8) {
        let i = self.movable_at(from).expect("a legal shift names a free piece of the mover");
        let lift = self.lift(i);
        let [a, b] = SHAPES[to as usize][orient as usize];
        let level = self.land(&lift, to, orient, a, b).expect("a legal shift lands");
        let old = self.pieces[i as usize];
        self.hash ^= old.key();
        for k in 0..3 {
            let p = lift.pts[k] as usize;
            self.height[p] = lift.under_h[k];
            self.top[p] = lift.under_top[k];
        }
        self.pieces[i as usize] = Piece { owner: old.owner, orient, at: to, level };
        self.put(i);
        (lift.pts, i)
    }

    /// Visible colour of every point.
    pub(crate) fn visible(&self) -> [u8; N_POINTS] {
        let mut v = [NO_OWNER; N_POINTS];
        for (p, slot) in v.iter_mut().enumerate() {
            *slot = self.owner_at(p as u8);
        }
        v
    }

    /// The groups of `colour`'s visible points: each point's group (`NONE` where `colour` does
    /// not show) and the sides each group touches. [`connected`](State::connected) asks one
    /// question and stops at its answer; this labels every group, for many questions about
    /// one position (which turns can connect).
    pub(crate) fn groups(vis: &[u8; N_POINTS], colour: u8) -> ([u8; N_POINTS], [u8; N_POINTS]) {
        let mut group = [NONE; N_POINTS];
        let mut sides = [0u8; N_POINTS];
        let mut stack = [0u8; N_POINTS];
        let mut n = 0u8;
        for start in 0..N_POINTS {
            if vis[start] != colour || group[start] != NONE {
                continue;
            }
            group[start] = n;
            stack[0] = start as u8;
            let mut len = 1;
            while len > 0 {
                len -= 1;
                let p = stack[len] as usize;
                sides[n as usize] |= SIDES[p];
                for &q in &NEIGHBOURS[p] {
                    if q != NONE && vis[q as usize] == colour && group[q as usize] == NONE {
                        group[q as usize] = n;
                        stack[len] = q;
                        len += 1;
                    }
                }
            }
            n += 1;
        }
        (group, sides)
    }

    /// [C1]–[C3].
    pub(crate) fn connected(vis: &[u8; N_POINTS], colour: u8) -> bool {
        // Most positions have no colour on both sides of a pair: one pass rules them out.
        let mut touched = 0u8;
        for (&v, &sides) in vis.iter().zip(SIDES.iter()) {
            if v == colour {
                touched |= sides;
            }
        }
        if !spans_opposite_sides(touched) {
            return false;
        }
        let mut seen = [false; N_POINTS];
        let mut stack = [0u8; N_POINTS];
        for start in 0..N_POINTS {
            // Every connecting group contains a point of side A, R1 or D-.
            if SIDES[start] & 0b01_0101 == 0 || seen[start] || vis[start] != colour {
                continue;
            }
            let sides =
                flood_sides(start as u8, |q| vis[q as usize] == colour, &mut seen, &mut stack);
            if spans_opposite_sides(sides) {
                return true;
            }
        }
        false
    }

    /// For each colour, whether a group of its visible points that holds one of `points`
    /// (`NONE` skipped) joins two opposite sides. [`connected`](State::connected) looks at
    /// every group; after a turn, only the groups of the points it changed can have begun to
    /// connect.
    pub(crate) fn connected_through(&self, points: &[u8]) -> [bool; 2] {
        let mut out = [false; 2];
        let mut seen = [false; N_POINTS];
        let mut stack = [0u8; N_POINTS];
        for &start in points {
            if start == NONE || seen[start as usize] {
                continue;
            }
            let colour = self.owner_at(start);
            if colour == NO_OWNER || out[colour as usize] {
                continue;
            }
            let sides = flood_sides(start, |q| self.owner_at(q) == colour, &mut seen, &mut stack);
            out[colour as usize] = spans_opposite_sides(sides);
        }
        out
    }

    pub(crate) fn same_position(&self, other: &State) -> bool {
        if self.hash != other.hash
            || self.to_move != other.to_move
            || self.supply != other.supply
            || self.n != other.n
        {
            return false;
        }
        let n = self.n as usize;
        let mut a = [0u32; MAX_PIECES];
        let mut b = [0u32; MAX_PIECES];
        for i in 0..n {
            a[i] = self.pieces[i].sort_key();
            b[i] = other.pieces[i].sort_key();
        }
        a[..n].sort_unstable();
        b[..n].sort_unstable();
        a[..n] == b[..n]
    }
}

/// A PÜNCT position with its history.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    pub(crate) state: State,
    pub(crate) variant: Variant,
    pub(crate) history: History<State>,
}

impl Position {
    #[must_use]
    pub fn variant_kind(&self) -> Variant {
        self.variant
    }

    /// Pieces of `kind` still in `player`'s supply.
    #[must_use]
    pub fn supply(&self, player: Player, kind: Kind) -> u8 {
        self.state.supply[player.index()][kind.index()]
    }

    /// H(p) of §4.
    #[must_use]
    pub fn height(&self, p: Point) -> u8 {
        self.state.height[p.index()]
    }

    /// The visible colour of `p` (§4).
    #[must_use]
    pub fn visible(&self, p: Point) -> Option<Player> {
        match self.state.owner_at(p.index() as u8) {
            NO_OWNER => None,
            o => Some(Player::from_index(o as usize)),
        }
    }

    /// Whether `player` has a connection now ([C2]).
    #[must_use]
    pub fn is_connected(&self, player: Player) -> bool {
        State::connected(&self.state.visible(), player.index() as u8)
    }

    /// The pieces on the board, lowest level first.
    #[must_use]
    pub fn pieces(&self) -> Vec<PieceInfo> {
        let st = &self.state;
        let mut out: Vec<PieceInfo> = (0..st.n)
            .map(|i| {
                let pc = st.pieces[i as usize];
                let [q, a, b] = pc.points();
                let (a, b) = if a < b { (a, b) } else { (b, a) };
                let orient = Orient(pc.orient);
                PieceInfo {
                    owner: Player::from_index(pc.owner as usize),
                    kind: orient.kind(),
                    orient,
                    punct: Point(q),
                    plain: [Point(a), Point(b)],
                    level: pc.level,
                    covered: !st.is_free(i),
                }
            })
            .collect();
        out.sort_by_key(|p| (p.level, p.punct));
        out
    }

    /// Whether placements must stay out of the central hexagon now ([P4]).
    pub(crate) fn restricted(&self) -> bool {
        match self.variant {
            Variant::Standard => true,
            Variant::Basic => self.state.n == 0,
        }
    }

    /// The mover's legal placements and shifts, counted separately.
    #[must_use]
    pub fn action_counts(&self) -> (usize, usize) {
        let mut places = Vec::new();
        let mut shifts = Vec::new();
        if self.state.outcome.is_none() {
            self.state.gen_placements(self.restricted(), &mut places);
            self.state.gen_shifts(&mut shifts);
        }
        (places.len(), shifts.len())
    }

    /// Every legal placement and shift, without the pass rule (used by the pass check).
    pub(crate) fn actions(&self, out: &mut Vec<Move>) {
        out.clear();
        self.state.gen_placements(self.restricted(), out);
        self.state.gen_shifts(out);
    }

    pub(crate) fn has_action(&self) -> bool {
        let mut v = Vec::new();
        self.actions(&mut v);
        !v.is_empty()
    }

    pub(crate) fn placement_legal(&self, at: Point, orient: Orient) -> Result<(), Illegal> {
        let st = &self.state;
        if st.supply[st.to_move.index()][orient.kind().index()] == 0 {
            return Err(Illegal::NoSupply);
        }
        let [a, b] = SHAPES[at.index()][orient.index()];
        st.placement_check(self.restricted(), [at.index() as u8, a, b])
    }

    /// Whether `mv` is a legal placement or shift here, told by the rules the generators
    /// apply to one move ([P1]–[P5], [M1]–[M8], the landing rules) without listing the
    /// others. A pass is never told legal: that needs the list ([A3]).
    pub(crate) fn action_legal(&self, mv: Move) -> bool {
        let st = &self.state;
        if st.outcome.is_some() {
            return false;
        }
        match mv {
            Move::Place { at, orient } => {
                SHAPES[at.index()][orient.index()][0] != NONE
                    && self.placement_legal(at, orient).is_ok()
            }
            Move::Shift { from, to, orient } => {
                let Some(i) = st.movable_at(from.index() as u8) else { return false };
                let piece = st.pieces[i as usize];
                let (to, o) = (to.index() as u8, orient.0);
                let [a, b] = SHAPES[to as usize][o as usize];
                if orient.kind() != Orient(piece.orient).kind()
                    || (to == piece.at && o == piece.orient) // [M5]
                    || a == NONE
                {
                    return false;
                }
                // [M2]: where it stands or along a line from there, as the generator walks.
                let on_a_line = to == piece.at
                    || NEIGHBOURS[piece.at as usize].iter().enumerate().any(|(d, &first)| {
                        let mut q = first;
                        while q != NONE && q != to {
                            q = NEIGHBOURS[q as usize][d];
                        }
                        q == to
                    });
                on_a_line && st.land(&st.lift(i), to, o, a, b).is_ok()
            }
            Move::Pass => false,
        }
    }

    /// The outcome after a turn that changed the visible colour of `changed` points at most
    /// (`NONE` fills the rest).
    pub(crate) fn decide(
        &mut self,
        placed: bool,
        passed_twice: bool,
        changed: &[u8; 6],
    ) -> Option<Outcome> {
        let st = &self.state;
        let mover = st.to_move.other(); // to_move has already changed
        // Nobody was connected before the turn (the game would be over, and a set-up
        // position with a connection is refused), so a connection now runs through a point
        // the turn gave its colour: the groups of the changed points decide.
        let [white, black] = st.connected_through(changed);
        match (white, black) {
            (true, true) => return Some(Outcome::Win(mover)),
            (true, false) => return Some(Outcome::Win(Player::P1)),
            (false, true) => return Some(Outcome::Win(Player::P2)),
            (false, false) => {}
        }
        if placed && st.supply[mover.index()].iter().all(|&c| c == 0) {
            return Some(match self.variant {
                Variant::Basic => Outcome::Draw,
                Variant::Standard => {
                    let vis = st.visible();
                    let mut count = [0u32; 2];
                    for p in 0..N_POINTS {
                        if CENTRAL[p] && vis[p] != NO_OWNER {
                            count[vis[p] as usize] += 1;
                        }
                    }
                    match count[0].cmp(&count[1]) {
                        std::cmp::Ordering::Greater => Outcome::Win(Player::P1),
                        std::cmp::Ordering::Less => Outcome::Win(Player::P2),
                        std::cmp::Ordering::Equal => Outcome::Draw,
                    }
                }
            });
        }
        if passed_twice {
            return Some(Outcome::Draw);
        }
        let seen = 1 + self.history.count(|h| h.same_position(st));
        if seen >= 3 {
            return Some(Outcome::Draw);
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply_core::{Game, PositionString};

    /// The mover's shifts found one landing at a time by [`State::land`], in the generator's
    /// order, and how many of them land above the board.
    fn shifts_landing_by_landing(state: &State) -> (Vec<Move>, usize) {
        let me = state.to_move.index() as u8;
        let (mut out, mut raised) = (Vec::new(), 0);
        for i in 0..state.n {
            let piece = state.pieces[i as usize];
            if piece.owner != me || !state.is_free(i) {
                continue;
            }
            let lift = state.lift(i);
            let mut targets = vec![piece.at];
            for (d, &first) in NEIGHBOURS[piece.at as usize].iter().enumerate() {
                let mut q = first;
                while q != NONE {
                    targets.push(q);
                    q = NEIGHBOURS[q as usize][d];
                }
            }
            for to in targets {
                for o in Orient(piece.orient).kind().orients() {
                    let [a, b] = SHAPES[to as usize][o as usize];
                    if (to == piece.at && o == piece.orient) || a == NONE {
                        continue;
                    }
                    if let Ok(level) = state.land(&lift, to, o, a, b) {
                        raised += usize::from(level > 1);
                        let (from, to, orient) = (Point(piece.at), Point(to), Orient(o));
                        out.push(Move::Shift { from, to, orient });
                    }
                }
            }
        }
        (out, raised)
    }

    /// The next move of a game that shifts as often as it can: one of `shifts` where there
    /// are any, but one time in `every` (and where there are none) one of all `moves`.
    fn shift_heavy(moves: &[Move], shifts: &[Move], rng: &mut u64, every: u64) -> Move {
        let (next, x) = splitmix64(*rng);
        *rng = next;
        if shifts.is_empty() || x % every == 0 {
            moves[(x >> 8) as usize % moves.len()]
        } else {
            shifts[(x >> 8) as usize % shifts.len()]
        }
    }

    /// The landings as sets are the landing rules, move for move and in the same order, at
    /// every position of games that shift as often as they can (so that pieces stack).
    #[test]
    fn shift_landings_are_the_landing_rules() {
        let (mut shifts, mut raised) = (0, 0);
        let mut moves = Vec::new();
        let mut rng = 0x5EED;
        for _game in 0..12 {
            let mut position = Position::new("standard").expect("standard");
            for _turn in 0..150 {
                if position.outcome().is_some() {
                    break;
                }
                let mut generated = Vec::new();
                position.state.gen_shifts(&mut generated);
                let (expected, r) = shifts_landing_by_landing(&position.state);
                assert_eq!(generated, expected, "{}", position.position_string());
                shifts += expected.len();
                raised += r;
                position.legal_moves(&mut moves);
                position.play(shift_heavy(&moves, &expected, &mut rng, 4));
            }
        }
        assert!(shifts > 50_000 && raised > 5_000, "{shifts} shifts, {raised} above the board");
    }

    /// Every placement and every shift of every piece on the board, to every point in every
    /// orientation, is legal without listing exactly when the list has it, at the positions
    /// of games that shift as often as they can.
    #[test]
    fn legality_without_listing_is_the_list() {
        let (mut asked, mut legal_shifts) = (0usize, 0usize);
        let mut moves = Vec::new();
        let mut rng = 0xC0FFEE;
        for _game in 0..3 {
            let mut position = Position::new("standard").expect("standard");
            for _turn in 0..120 {
                if position.outcome().is_some() {
                    break;
                }
                position.legal_moves(&mut moves);
                let listed: std::collections::HashSet<Move> = moves.iter().copied().collect();
                let st = &position.state;
                let mut froms: Vec<u8> = (0..st.n).map(|i| st.pieces[i as usize].at).collect();
                froms.dedup();
                for at in 0..N_POINTS as u8 {
                    for o in 0..N_ORIENTS as u8 {
                        let (to, orient) = (Point(at), Orient(o));
                        let candidates = std::iter::once(Move::Place { at: to, orient }).chain(
                            froms.iter().map(|&f| Move::Shift { from: Point(f), to, orient }),
                        );
                        for mv in candidates {
                            let legal = listed.contains(&mv);
                            assert_eq!(
                                position.action_legal(mv),
                                legal,
                                "{mv} at {}",
                                position.position_string()
                            );
                            asked += 1;
                            legal_shifts += usize::from(legal && matches!(mv, Move::Shift { .. }));
                        }
                    }
                }
                let shifts: Vec<Move> =
                    moves.iter().copied().filter(|m| matches!(m, Move::Shift { .. })).collect();
                position.play(shift_heavy(&moves, &shifts, &mut rng, 3));
            }
        }
        assert!(asked > 1_000_000 && legal_shifts > 10_000, "{asked} asked, {legal_shifts} shifts");
    }
}
