//! PÜNCT (variants `standard` and `basic`): rules, notation and pictures, exactly as
//! `shared/rules/punct.md` states them. Rule ids in comments (`[L3]`) cite that document.
//!
//! # Representation
//!
//! The 211 points are numbered in column-major order (see [`board`]). A [`Position`] holds a
//! small `Copy` state and the states before every turn (snapshot undo, repetition):
//!
//! * `pieces`: the pieces on the board in the order they were placed, each as owner,
//!   orientation (one of the 33 of §3.2, which fixes the kind), PÜNCT point and level;
//! * `height[p]`: H(p) of §4, and `top[p]`: the index of the top piece of `p`;
//! * the supplies, the mover, whether the last action was a pass, the outcome and the hash.
//!
//! Pieces of one kind and colour are interchangeable: the hash is a sum over pieces and
//! repetition compares the pieces as multisets. A [`Move`] names the resulting position
//! exactly (§9: one token = one position).

pub mod board;
mod eval;
pub use eval::Eval;
mod position_string;
mod text;
mod view;

use std::fmt;

use ply_core::zobrist::{keys, splitmix64};
use ply_core::{PositionError, Game, MoveError, Outcome, Player, VariantError};

use board::{CENTRAL, NEIGHBOURS, NONE, SHAPES, SIDES};
pub use board::{Kind, N_POINTS, Orient, Point, shape_points};

/// Pieces per player.
pub const PIECES_PER_PLAYER: usize = 18;
const MAX_PIECES: usize = 2 * PIECES_PER_PLAYER;

/// The two variants (§1.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// No placement may ever touch the central hexagon; exhaustion is decided by the centre.
    Standard,
    /// Only White's first placement is kept out of the centre; exhaustion is a draw.
    Basic,
}

impl Variant {
    #[must_use]
    pub const fn id(self) -> &'static str {
        match self {
            Variant::Standard => "standard",
            Variant::Basic => "basic",
        }
    }

    #[must_use]
    pub fn from_id(id: &str) -> Option<Variant> {
        match id {
            "standard" => Some(Variant::Standard),
            "basic" => Some(Variant::Basic),
            _ => None,
        }
    }
}

/// One whole turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// A piece of `orient.kind()` from the supply, PÜNCT dot on `at` ([P1]–[P5]).
    Place { at: Point, orient: Orient },
    /// The free piece whose PÜNCT dot is on `from` moves its PÜNCT dot to `to` and takes
    /// `orient` (of its own kind) there ([M1]–[M8]).
    Shift { from: Point, to: Point, orient: Orient },
    /// Only when the mover has no placement and no shift ([A3]).
    Pass,
}

impl Move {
    /// The three points `[PÜNCT, plain, plain]` the piece ends on (plain dots ascending).
    #[must_use]
    pub fn points(self) -> Option<[Point; 3]> {
        let (at, orient) = match self {
            Move::Place { at, orient } => (at, orient),
            Move::Shift { to, orient, .. } => (to, orient),
            Move::Pass => return None,
        };
        let [q, a, b] = shape_points(at, orient)?;
        Some(if a < b { [q, a, b] } else { [q, b, a] })
    }
}

impl fmt::Display for Move {
    /// The canonical notation (§6.3).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Some([q, a, b]) = self.points() else {
            return f.write_str("pass");
        };
        match *self {
            Move::Place { orient, .. } => write!(f, "{}{q}:{a},{b}", orient.kind().letter()),
            Move::Shift { from, .. } => write!(f, "{from}-{q}:{a},{b}"),
            Move::Pass => f.write_str("pass"),
        }
    }
}

/// One piece on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Piece {
    owner: u8,
    orient: u8,
    at: u8,
    level: u8,
}

impl Piece {
    #[inline]
    fn points(self) -> [u8; 3] {
        let [a, b] = SHAPES[self.at as usize][self.orient as usize];
        [self.at, a, b]
    }

    fn key(self) -> u64 {
        let i = (self.owner as usize * board::N_ORIENTS + self.orient as usize) * N_POINTS
            + self.at as usize;
        splitmix64(PIECE_KEYS[i] ^ LEVEL_KEYS[self.level as usize]).1
    }

    fn sort_key(self) -> u32 {
        u32::from_be_bytes([self.owner, self.orient, self.at, self.level])
    }
}

/// A piece on the board as seen from outside.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PieceInfo {
    pub owner: Player,
    pub kind: Kind,
    pub orient: Orient,
    /// The PÜNCT point.
    pub punct: Point,
    /// The plain-dot points, ascending.
    pub plain: [Point; 2],
    /// 1 on the board, one more for every level below.
    pub level: u8,
    /// Whether another piece has a dot over one of its points (§4).
    pub covered: bool,
}

static PIECE_KEYS: [u64; 2 * board::N_ORIENTS * N_POINTS] = keys(0x5055_4E43_5401);
const LEVEL_KEYS: [u64; MAX_PIECES + 2] = keys(0x5055_4E43_5402);
const SUPPLY_KEYS: [u64; 2 * 6 * 8] = keys(0x5055_4E43_5403);
const SIDE_KEY: u64 = keys::<1>(0x5055_4E43_5404)[0];

#[inline]
fn supply_key(player: usize, kind: usize, count: u8) -> u64 {
    SUPPLY_KEYS[(player * 6 + kind) * 8 + count as usize]
}

const NO_OWNER: u8 = 2;

/// Why an action is illegal (the words of §6.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Illegal {
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
    fn message(self) -> String {
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
struct Lift {
    pts: [u8; 3],
    under_h: [u8; 3],
    under_top: [u8; 3],
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct State {
    pieces: [Piece; MAX_PIECES],
    n: u8,
    height: [u8; N_POINTS],
    top: [u8; N_POINTS],
    supply: [[u8; 6]; 2],
    to_move: Player,
    last_pass: bool,
    outcome: Option<Outcome>,
    hash: u64,
}

impl State {
    fn empty() -> State {
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

    fn compute_hash(&self) -> u64 {
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
    fn owner_at(&self, p: u8) -> u8 {
        let t = self.top[p as usize];
        if t == NONE { NO_OWNER } else { self.pieces[t as usize].owner }
    }

    #[inline]
    fn is_free(&self, i: u8) -> bool {
        self.pieces[i as usize].points().iter().all(|&p| self.top[p as usize] == i)
    }

    /// The highest dot over `p` of any piece but `skip`: (level, piece) or (0, NONE).
    fn highest_except(&self, p: u8, skip: u8) -> (u8, u8) {
        let mut best = (0, NONE);
        for (j, piece) in self.pieces[..self.n as usize].iter().enumerate() {
            if j as u8 != skip && piece.level > best.0 && piece.points().contains(&p) {
                best = (piece.level, j as u8);
            }
        }
        best
    }

    fn lift(&self, i: u8) -> Lift {
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
    fn under(&self, lift: &Lift, p: u8) -> (u8, u8) {
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
    fn land(&self, lift: &Lift, to: u8, orient: u8, a: u8, b: u8) -> Result<u8, Illegal> {
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
    fn placement_check(&self, restricted: bool, pts: [u8; 3]) -> Result<(), Illegal> {
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
    fn highest_level_one(&self, p: u8) -> bool {
        self.pieces[..self.n as usize].iter().any(|pc| pc.level == 1 && pc.points().contains(&p))
    }

    fn gen_placements(&self, restricted: bool, out: &mut Vec<Move>) {
        let me = self.to_move.index();
        for kind in Kind::ALL {
            if self.supply[me][kind.index()] == 0 {
                continue;
            }
            for o in kind.orients() {
                for p in 0..N_POINTS {
                    if self.height[p] != 0 || (restricted && CENTRAL[p]) {
                        continue;
                    }
                    let [a, b] = SHAPES[p][o as usize];
                    if a == NONE || self.height[a as usize] != 0 || self.height[b as usize] != 0 {
                        continue;
                    }
                    if restricted && (CENTRAL[a as usize] || CENTRAL[b as usize]) {
                        continue;
                    }
                    out.push(Move::Place { at: Point(p as u8), orient: Orient(o) });
                }
            }
        }
    }

    fn gen_shifts(&self, out: &mut Vec<Move>) {
        let me = self.to_move.index() as u8;
        for i in 0..self.n {
            let piece = self.pieces[i as usize];
            if piece.owner != me || !self.is_free(i) {
                continue;
            }
            let lift = self.lift(i);
            let kind = Orient(piece.orient).kind();
            let mut try_to = |to: u8| {
                for o in kind.orients() {
                    if to == piece.at && o == piece.orient {
                        continue; // [M5]
                    }
                    let [a, b] = SHAPES[to as usize][o as usize];
                    if a != NONE && self.land(&lift, to, o, a, b).is_ok() {
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
        }
    }

    /// The free piece of the mover whose PÜNCT dot is on `p` ([M8]).
    fn movable_at(&self, p: u8) -> Option<u8> {
        let me = self.to_move.index() as u8;
        (0..self.n).find(|&i| {
            let pc = self.pieces[i as usize];
            pc.at == p && pc.owner == me && self.is_free(i)
        })
    }

    fn set_supply(&mut self, pl: usize, kind: usize, count: u8) {
        self.hash ^= supply_key(pl, kind, self.supply[pl][kind]) ^ supply_key(pl, kind, count);
        self.supply[pl][kind] = count;
    }

    fn put(&mut self, i: u8) {
        let piece = self.pieces[i as usize];
        for p in piece.points() {
            self.height[p as usize] = piece.level;
            self.top[p as usize] = i;
        }
        self.hash ^= piece.key();
    }

    fn place(&mut self, at: u8, orient: u8) {
        let me = self.to_move.index();
        let kind = Orient(orient).kind().index();
        self.set_supply(me, kind, self.supply[me][kind] - 1);
        let i = self.n;
        self.pieces[i as usize] = Piece { owner: me as u8, orient, at, level: 1 };
        self.n += 1;
        self.put(i);
    }

    fn shift(&mut self, from: u8, to: u8, orient: u8) {
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
    }

    /// Visible colour of every point.
    fn visible(&self) -> [u8; N_POINTS] {
        let mut v = [NO_OWNER; N_POINTS];
        for (p, slot) in v.iter_mut().enumerate() {
            *slot = self.owner_at(p as u8);
        }
        v
    }

    /// [C1]–[C3].
    fn connected(vis: &[u8; N_POINTS], colour: u8) -> bool {
        let mut seen = [false; N_POINTS];
        let mut stack = [0u8; N_POINTS];
        for start in 0..N_POINTS {
            // Every connecting group contains a point of side A, R1 or D-.
            if SIDES[start] & 0b01_0101 == 0 || seen[start] || vis[start] != colour {
                continue;
            }
            let mut sides = 0u8;
            let mut len = 1;
            stack[0] = start as u8;
            seen[start] = true;
            while len > 0 {
                len -= 1;
                let p = stack[len] as usize;
                sides |= SIDES[p];
                for &q in &NEIGHBOURS[p] {
                    if q != NONE && !seen[q as usize] && vis[q as usize] == colour {
                        seen[q as usize] = true;
                        stack[len] = q;
                        len += 1;
                    }
                }
            }
            if sides & 3 == 3 || sides & 12 == 12 || sides & 48 == 48 {
                return true;
            }
        }
        false
    }

    fn same_position(&self, other: &State) -> bool {
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
    state: State,
    variant: Variant,
    history: Vec<State>,
}

/// A position to build for tests and analysis; validated by [`Position::from_setup`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Setup {
    /// The pieces on the board, in any order. Supplies are what is not on the board.
    pub pieces: Vec<SetupPiece>,
    /// The mover; White ([`Player::P1`]) by default.
    pub to_move: Option<Player>,
}

/// One piece of a [`Setup`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SetupPiece {
    pub owner: Player,
    pub kind: Kind,
    pub punct: Point,
    pub plain: [Point; 2],
    pub level: u8,
}

impl Setup {
    /// Reads pieces written as in the worked examples of §8, separated by `;`:
    /// `W E i3:i4,i5 L1; B T i8:i9,j9 L1`. The level may be left out for level 1.
    ///
    /// # Errors
    /// [`PositionError`] naming the piece that cannot be read.
    pub fn parse(text: &str, to_move: Player) -> Result<Setup, PositionError> {
        let mut pieces = Vec::new();
        for item in text.split(';').map(str::trim).filter(|s| !s.is_empty()) {
            let bad = || PositionError::BadPiece {
                field: "setup",
                text: item.to_string(),
                expected: "owner, kind, point and orientation",
            };
            let words: Vec<&str> = item.split_whitespace().collect();
            if words.len() != 3 && words.len() != 4 {
                return Err(bad());
            }
            let owner = match words[0] {
                "W" => Player::P1,
                "B" => Player::P2,
                _ => return Err(bad()),
            };
            let mut letters = words[1].chars();
            let kind = letters.next().and_then(Kind::from_letter).ok_or_else(bad)?;
            if letters.next().is_some() {
                return Err(bad());
            }
            let (punct, plain) = words[2].split_once(':').ok_or_else(bad)?;
            let (a, b) = plain.split_once(',').ok_or_else(bad)?;
            let cell = |s: &str| Point::parse(s).ok_or_else(bad);
            let level = match words.get(3) {
                None => 1,
                Some(w) => w.strip_prefix('L').and_then(|l| l.parse().ok()).ok_or_else(bad)?,
            };
            pieces.push(SetupPiece {
                owner,
                kind,
                punct: cell(punct)?,
                plain: [cell(a)?, cell(b)?],
                level,
            });
        }
        Ok(Setup { pieces, to_move: Some(to_move) })
    }
}

/// The orientation of `kind` with PÜNCT dot on `q` and plain dots `{a, b}`, if any.
fn find_orient(kind: Kind, q: Point, a: Point, b: Point) -> Option<Orient> {
    kind.orients().map(Orient).find(|&o| {
        let [x, y] = SHAPES[q.index()][o.index()];
        x != NONE
            && ((x as usize == a.index() && y as usize == b.index())
                || (x as usize == b.index() && y as usize == a.index()))
    })
}

impl Position {
    /// The empty board of `variant`, White to move.
    #[must_use]
    pub fn new_game(variant: Variant) -> Position {
        Position { state: State::empty(), variant, history: Vec::new() }
    }

    /// Builds a position from pieces. Every piece must be a shape of its kind, rest by the
    /// landing rule on the pieces below it ([L1]–[L5]) at the level given, and the counts must
    /// fit in 18 per player. Nobody may already have a connection.
    ///
    /// # Errors
    /// [`PositionError`] saying which piece is wrong.
    pub fn from_setup(setup: &Setup, variant: Variant) -> Result<Position, PositionError> {
        Position::build(setup, variant, None)
    }

    /// [`from_setup`](Position::from_setup), or with `over` a finished game with that
    /// outcome, where connections are allowed (position strings).
    pub(crate) fn build(
        setup: &Setup,
        variant: Variant,
        over: Option<Outcome>,
    ) -> Result<Position, PositionError> {
        let mut st = State::empty();
        let mut order: Vec<&SetupPiece> = setup.pieces.iter().collect();
        order.sort_by_key(|p| p.level);
        for sp in order {
            let name = format!(
                "{} {} {}:{},{} L{}",
                if sp.owner == Player::P1 { 'W' } else { 'B' },
                sp.kind.letter(),
                sp.punct,
                sp.plain[0],
                sp.plain[1],
                sp.level
            );
            let err = |why: &str| Err(PositionError::Inconsistent(format!("{name}: {why}")));
            let Some(orient) = find_orient(sp.kind, sp.punct, sp.plain[0], sp.plain[1]) else {
                return err("not a shape of this kind");
            };
            let pl = sp.owner.index();
            let k = sp.kind.index();
            if st.supply[pl][k] == 0 {
                return err("more pieces of this kind than a player owns");
            }
            // Land it as if shifted by its owner, with nothing lifted.
            st.to_move = sp.owner;
            let lift = Lift { pts: [NONE; 3], under_h: [0; 3], under_top: [NONE; 3] };
            let [a, b] = SHAPES[sp.punct.index()][orient.index()];
            let level = match st.land(&lift, sp.punct.index() as u8, orient.0, a, b) {
                Ok(l) => l,
                Err(e) => return err(&e.message()),
            };
            if level != sp.level {
                return err(&format!("it would rest at level {level}"));
            }
            st.set_supply(pl, k, st.supply[pl][k] - 1);
            let i = st.n;
            st.pieces[i as usize] =
                Piece { owner: pl as u8, orient: orient.0, at: sp.punct.index() as u8, level };
            st.n += 1;
            st.put(i);
        }
        let to_move = setup.to_move.unwrap_or(Player::P1);
        if st.to_move != to_move {
            st.hash ^= SIDE_KEY;
        }
        st.to_move = to_move;
        // Normalise the side key: the loop above toggled `to_move` without the hash.
        st.hash = st.compute_hash();
        let vis = st.visible();
        if over.is_none() && (State::connected(&vis, 0) || State::connected(&vis, 1)) {
            return Err(PositionError::Inconsistent("a player already has a connection".into()));
        }
        st.outcome = over;
        Ok(Position { state: st, variant, history: Vec::new() })
    }

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
    fn restricted(&self) -> bool {
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
    fn actions(&self, out: &mut Vec<Move>) {
        out.clear();
        self.state.gen_placements(self.restricted(), out);
        self.state.gen_shifts(out);
    }

    fn has_action(&self) -> bool {
        let mut v = Vec::new();
        self.actions(&mut v);
        !v.is_empty()
    }

    fn placement_legal(&self, at: Point, orient: Orient) -> Result<(), Illegal> {
        let st = &self.state;
        if st.supply[st.to_move.index()][orient.kind().index()] == 0 {
            return Err(Illegal::NoSupply);
        }
        let [a, b] = SHAPES[at.index()][orient.index()];
        st.placement_check(self.restricted(), [at.index() as u8, a, b])
    }

    fn decide(&mut self, placed: bool, passed_twice: bool) -> Option<Outcome> {
        let st = &self.state;
        let mover = st.to_move.other(); // to_move has already changed
        let vis = st.visible();
        let white = State::connected(&vis, 0);
        let black = State::connected(&vis, 1);
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
        let seen = 1 + self.history.iter().filter(|h| h.same_position(st)).count();
        if seen >= 3 {
            return Some(Outcome::Draw);
        }
        None
    }

    fn parse_inner(&self, text: &str) -> Result<Move, MoveError> {
        if let Some(outcome) = self.state.outcome {
            return Err(MoveError::GameOver(outcome.to_string()));
        }
        if text == "pass" {
            return if self.has_action() {
                Err(MoveError::Illegal(
                    "pass is only legal with no placement and no shift ([A3])".into(),
                ))
            } else {
                Ok(Move::Pass)
            };
        }
        let syntax = || {
            MoveError::Syntax(format!(
                "'{text}' is not a PÜNCT action (Tg3:g4,h4, g3-g8:g9,h9 or pass)"
            ))
        };
        let cell = |s: &str| -> Result<Point, MoveError> {
            let (c, r) = board::parse_cell_coords(s).ok_or_else(syntax)?;
            Point::from_coords(c, r)
                .ok_or_else(|| MoveError::Syntax(format!("{s} is not a board point")))
        };
        let (head, plain) = match text.split_once(':') {
            Some((h, p)) => {
                let (a, b) = p.split_once(',').ok_or_else(syntax)?;
                (h, Some((cell(a)?, cell(b)?)))
            }
            None => (text, None),
        };
        let first = head.chars().next().ok_or_else(syntax)?;
        if let Some(kind) = Kind::from_letter(first) {
            let q = cell(&head[1..])?;
            self.parse_placement(kind, q, plain)
        } else {
            let (f, t) = head.split_once('-').ok_or_else(syntax)?;
            let (from, to) = (cell(f)?, cell(t)?);
            self.parse_shift(from, to, plain)
        }
    }

    fn unique(&self, what: String, filter: impl Fn(&Move) -> bool) -> Result<Move, MoveError> {
        let mut all = Vec::new();
        self.actions(&mut all);
        let found: Vec<Move> = all.into_iter().filter(|m| filter(m)).collect();
        match found.as_slice() {
            [one] => Ok(*one),
            [] => Err(MoveError::Illegal(format!("no legal action matches {what}"))),
            many => {
                let mut many = many.to_vec();
                many.sort_by_key(|m| match *m {
                    Move::Place { orient, .. } => (0, orient.kind().index(), m.points()),
                    Move::Shift { from, .. } => (1, from.index(), m.points()),
                    Move::Pass => (2, 0, None),
                });
                let names: Vec<String> = many.iter().map(Move::to_string).collect();
                Err(MoveError::Ambiguous(format!(
                    "{what} is ambiguous: {} legal actions match ({})",
                    names.len(),
                    names.join(", ")
                )))
            }
        }
    }

    fn parse_placement(
        &self,
        kind: Kind,
        q: Point,
        plain: Option<(Point, Point)>,
    ) -> Result<Move, MoveError> {
        let Some((a, b)) = plain else {
            return self.unique(
                format!("{}{q}", kind.letter()),
                |m| matches!(*m, Move::Place { at, orient } if at == q && orient.kind() == kind),
            );
        };
        let orient = find_orient(kind, q, a, b).ok_or_else(|| {
            MoveError::Illegal(format!(
                "{a},{b} with the PÜNCT dot on {q} is not a shape of piece {}",
                kind.letter()
            ))
        })?;
        self.placement_legal(q, orient).map_err(|e| MoveError::Illegal(e.message()))?;
        Ok(Move::Place { at: q, orient })
    }

    fn parse_shift(
        &self,
        from: Point,
        to: Point,
        plain: Option<(Point, Point)>,
    ) -> Result<Move, MoveError> {
        let st = &self.state;
        let me = st.to_move.index() as u8;
        let f = from.index() as u8;
        let Some(i) = st.movable_at(f) else {
            let here: Vec<u8> = (0..st.n).filter(|&i| st.pieces[i as usize].at == f).collect();
            let why = if here.is_empty() {
                format!("no piece has its PÜNCT dot on {from}")
            } else if here.iter().any(|&i| st.is_free(i)) {
                format!("the piece on {from} is the opponent's ([M1])")
            } else if here.iter().any(|&i| st.pieces[i as usize].owner == me) {
                format!("piece is covered: the piece on {from} cannot move ([M1])")
            } else {
                format!("the piece on {from} is the opponent's ([M1])")
            };
            return Err(MoveError::Illegal(why));
        };
        let (fc, fr) = (i32::from(from.column()), i32::from(from.row()));
        let (tc, tr) = (i32::from(to.column()), i32::from(to.row()));
        if fc != tc && fr != tr && fc - fr != tc - tr {
            return Err(MoveError::Illegal(format!("{to} is not on a line through {from} ([M2])")));
        }
        let Some((a, b)) = plain else {
            return self.unique(
                format!("{from}-{to}"),
                |m| matches!(*m, Move::Shift { from: x, to: y, .. } if x == from && y == to),
            );
        };
        let piece = st.pieces[i as usize];
        let kind = Orient(piece.orient).kind();
        let orient = find_orient(kind, to, a, b).ok_or_else(|| {
            MoveError::Illegal(format!(
                "{a},{b} with the PÜNCT dot on {to} is not a shape of the piece on {from} ({})",
                kind.letter()
            ))
        })?;
        if from == to && orient.0 == piece.orient {
            return Err(MoveError::Illegal(
                "the piece would end where it is: not a move ([M5])".into(),
            ));
        }
        let lift = st.lift(i);
        let [x, y] = SHAPES[to.index()][orient.index()];
        st.land(&lift, to.index() as u8, orient.0, x, y)
            .map_err(|e| MoveError::Illegal(e.message()))?;
        Ok(Move::Shift { from, to, orient })
    }
}

impl Game for Position {
    type Move = Move;
    const NAME: &'static str = "punct";
    const DISPLAY_NAME: &'static str = "PÜNCT";

    fn variants() -> &'static [&'static str] {
        &["standard", "basic"]
    }

    fn new(variant: &str) -> Result<Self, VariantError> {
        Variant::from_id(variant).map(Position::new_game).ok_or_else(|| VariantError {
            game: Self::NAME,
            given: variant.to_string(),
            known: Self::variants(),
        })
    }

    fn variant(&self) -> &'static str {
        self.variant.id()
    }

    fn to_move(&self) -> Player {
        self.state.to_move
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.state.outcome.is_some() {
            return;
        }
        self.actions(out);
        if out.is_empty() {
            out.push(Move::Pass); // [A3]
        }
    }

    fn play(&mut self, mv: Move) {
        self.history.push(self.state);
        let st = &mut self.state;
        let was_pass = st.last_pass;
        match mv {
            Move::Place { at, orient } => st.place(at.index() as u8, orient.0),
            Move::Shift { from, to, orient } => {
                st.shift(from.index() as u8, to.index() as u8, orient.0);
            }
            Move::Pass => {}
        }
        st.last_pass = mv == Move::Pass;
        st.to_move = st.to_move.other();
        st.hash ^= SIDE_KEY;
        let placed = matches!(mv, Move::Place { .. });
        let passed_twice = was_pass && mv == Move::Pass;
        self.state.outcome = self.decide(placed, passed_twice);
    }

    fn undo(&mut self) {
        self.state = self.history.pop().expect("undo needs a turn to take back");
    }

    fn turns_played(&self) -> usize {
        self.history.len()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.state.outcome
    }

    fn hash(&self) -> u64 {
        self.state.hash
    }

    fn compute_hash(&self) -> u64 {
        self.state.compute_hash()
    }

    fn format_move(&self, mv: Move) -> String {
        mv.to_string()
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        self.parse_inner(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pass_only_without_actions_and_two_passes_draw() {
        // Nothing in either supply and nothing on the board: neither player can act.
        let mut st = State::empty();
        st.supply = [[0; 6]; 2];
        st.hash = st.compute_hash();
        let mut pos = Position { state: st, variant: Variant::Standard, history: Vec::new() };
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        assert_eq!(moves, [Move::Pass]);
        assert_eq!(pos.parse_move("pass"), Ok(Move::Pass));
        pos.play(Move::Pass);
        assert_eq!(pos.outcome(), None);
        assert_eq!(pos.hash(), pos.compute_hash());
        pos.play(Move::Pass);
        assert_eq!(pos.outcome(), Some(Outcome::Draw)); // [E4]
        pos.undo();
        assert_eq!(pos.outcome(), None);
    }

    fn path(start: &str, legs: &[(usize, usize)]) -> Vec<u8> {
        let mut p = Point::parse(start).unwrap();
        let mut out = vec![p.index() as u8];
        for &(dir, steps) in legs {
            for _ in 0..steps {
                p = p.neighbour(dir).expect("path stays on the board");
                out.push(p.index() as u8);
            }
        }
        out
    }

    #[test]
    fn connections_for_each_pair_of_sides() {
        // (N, NE, SE, S, SW, NW) = 0..5
        let chains = [
            path("a5", &[(2, 8), (1, 8)]),  // A to Q
            path("e1", &[(0, 8), (1, 8)]),  // R1 to R17
            path("b10", &[(2, 8), (3, 8)]), // D- to D+
        ];
        for chain in &chains {
            for colour in [0u8, 1] {
                let mut vis = [NO_OWNER; N_POINTS];
                for &p in chain {
                    vis[p as usize] = colour;
                }
                assert!(State::connected(&vis, colour));
                assert!(!State::connected(&vis, 1 - colour));
                // Break the chain in the middle: no connection.
                vis[chain[chain.len() / 2] as usize] = 1 - colour;
                assert!(!State::connected(&vis, colour));
                // Drop the first side point: the chain no longer touches that side.
                let mut vis2 = [NO_OWNER; N_POINTS];
                for &p in &chain[1..] {
                    vis2[p as usize] = colour;
                }
                assert!(!State::connected(&vis2, colour));
            }
        }
        for p in ["b2", "b9", "i2", "i16", "p9", "p16"] {
            assert_eq!(SIDES[Point::parse(p).unwrap().index()], 0, "{p}");
        }
    }

    #[test]
    fn move_is_small() {
        assert!(std::mem::size_of::<Move>() <= 4);
    }
}
