//! What the computer knows about ZÈRTZ: a player's standing is his captures, worth more the
//! scarcer the colour and far more as the nearest win condition comes within reach (one
//! marble short of a win is nearly a win, two short of two conditions a double threat).
//! Captures are compulsory, so a position with a jump is valued with the best chain its mover
//! must make; in a placement turn the mover may cash in any group he can isolate at once, and
//! he is in trouble when every placement hands the opponent a jump. The move prior prefers
//! chains that take the most, placements that isolate marbles, and avoids placements that
//! give the opponent a jump (the search still looks at them: sacrifices are the game).

use std::cell::RefCell;

use ply_core::{Evaluator, Player};

use crate::geometry::{Bits, Layout, NONE};
use crate::rules::{Position, State};
use crate::types::Move;

ply_core::weights! {
    /// ZÈRTZ's evaluation weights (`weights.txt`, read at build time; `ply tune zertz` fits
    /// them).
    pub struct Weights {
        /// A captured marble, by colour (W, G, B): white is the scarcest.
        tuned VALUE: 3,
        /// Bonus by the marbles still missing for a player's nearest win condition (0 to 9 or
        /// more; 0 never counts, it is a win); half of it for his second-nearest condition.
        tuned CLOSE: 10,
        /// A win: a player's captures meet a win condition, or the mover can win this very
        /// turn (by a chain or an isolation), short of the proof. Also the evaluation's bound.
        fixed NEAR_WIN: 1,
        /// The side to move acts first (in a placement turn).
        tuned TEMPO: 1,
        /// Penalty by how many vacant rings the mover can place on without handing the
        /// opponent a jump (0, 1, 2, 3; more cost nothing): with none, he must give a
        /// capture away, and with few the opponent may soon take the last of them.
        tuned UNSAFE: 4,
        /// The best isolation the opponent could make were it his turn, in hundredths,
        /// counted against the mover (in a placement turn): a threat he may have to spend
        /// his turn on.
        tuned THREAT: 1,
        /// Against the mover when that isolation would win the opponent the game.
        tuned THREAT_WIN: 1,
    }
}

/// The length of the CLOSE group: more marbles missing count as its last entry.
const CLOSE_LEN: usize = 10;
/// The length of the UNSAFE group: more safe placements count nothing.
const UNSAFE_LEN: u32 = 4;
const _: () =
    assert!(Weights::NEAR_WIN - Weights::CLOSE == CLOSE_LEN, "CLOSE is followed by NEAR_WIN");

/// The value of a captured marble (W, G, B) for [`material`](Evaluator::material), the fixed
/// naive baseline, and the move prior; the evaluation reads its own (`Weights::VALUE`).
const MARBLE: [i32; 3] = [150, 120, 100];

/// Marbles missing to each win condition (one colour W/G/B, or some of each).
fn needs(caps: [u8; 3], single: [u8; 3], each: u8) -> [i32; 4] {
    let mut n = [0; 4];
    let mut e = 0;
    for k in 0..3 {
        n[k] = (i32::from(single[k]) - i32::from(caps[k])).max(0);
        e += (i32::from(each) - i32::from(caps[k])).max(0);
    }
    n[3] = e;
    n
}

impl Position {
    /// Whether the pool holds two marbles or more: a placement then comes from it and
    /// leaves the opponent one to place.
    fn pool_lasts(&self) -> bool {
        self.state.pool.iter().sum::<u8>() >= 2
    }

    /// [`free_rings`](Position::free_rings), from the cached topology of the rings.
    fn free_rings_cached(&self) -> u64 {
        with_topology(self.layout, self.state.rings, |t| t.edge) & self.state.vacant()
    }

    /// A player's standing from his captures `caps`.
    fn standing_of(&self, w: &Weights, caps: [u8; 3]) -> i32 {
        let (single, each) = self.variant.win_thresholds();
        let mut n = needs(caps, single, each);
        if n.contains(&0) {
            return w[Weights::NEAR_WIN];
        }
        n.sort_unstable();
        let mut s = 0;
        for k in 0..3 {
            s += w[Weights::VALUE + k] * i32::from(caps[k]);
        }
        let close = |x: i32| w[Weights::CLOSE + (x as usize).min(CLOSE_LEN - 1)];
        s + close(n[0]) + close(n[1]) / 2
    }

    /// The mover's standing less the opponent's, from their captures: where the evaluation
    /// starts, and what a quiet placement leaves as it is.
    fn standing(&self, w: &Weights) -> i32 {
        let caps = self.state.captures;
        let me = self.state.to_move;
        self.standing_of(w, caps[me.index()]) - self.standing_of(w, caps[me.other().index()])
    }

    /// What capturing `gain` (W, G, B) is worth to player `p` now.
    fn gain_for(&self, w: &Weights, p: Player, gain: [u8; 3]) -> i32 {
        let caps = self.state.captures[p.index()];
        let after = [caps[0] + gain[0], caps[1] + gain[1], caps[2] + gain[2]];
        if self.variant.is_win(after) {
            return w[Weights::NEAR_WIN];
        }
        self.standing_of(w, after) - self.standing_of(w, caps)
    }

    /// The marbles (W, G, B) a capture chain takes.
    fn chain_gain(&self, mv: Move) -> [u8; 3] {
        let mut gain = [0u8; 3];
        if let Move::Capture { start, len, dirs } = mv {
            let nb = &self.layout.nb;
            let mut at = start;
            for k in 0..len {
                let d = Move::jump_direction(dirs, k);
                let b = nb[at as usize][d];
                if let Some(c) = self.state.colour_at(b) {
                    gain[c.index()] += 1;
                }
                at = nb[b as usize][d];
            }
        }
        gain
    }

    /// The rings a jump could land on if a marble were placed on vacant ring `v` (none when
    /// the placement creates no jump; there is none before it in a placement turn).
    fn landings(&self, v: u8) -> u64 {
        let s = &self.state;
        let occ = s.occupied() | (1u64 << v);
        let vacant = s.rings & !occ;
        let nb = &self.layout.nb[v as usize];
        let mut out = 0;
        for d in 0..6 {
            let b = nb[d];
            if b == NONE || occ & (1u64 << b) == 0 {
                continue;
            }
            // v jumps over b.
            let c = self.layout.nb[b as usize][d];
            if c != NONE && vacant & (1u64 << c) != 0 {
                out |= 1u64 << c;
            }
            // b jumps over v.
            let c = nb[(d + 3) % 6];
            if c != NONE && vacant & (1u64 << c) != 0 {
                out |= 1u64 << c;
            }
        }
        out
    }
}

/// The groups of a set of rings, with their vacancies and marbles.
#[derive(Clone)]
struct Groups {
    n: usize,
    mask: [u64; 64],
    vacant: [u8; 64],
    marbles: [[u8; 3]; 64],
    /// The rings whose removal may split their group (see [`Topology::splitting`]).
    splitting: u64,
}

/// The connected groups of `rings`, each handed to `each` as a mask.
fn components(layout: &Layout, rings: u64, mut each: impl FnMut(u64)) {
    let mut rest = rings;
    while rest != 0 {
        let seed = rest & rest.wrapping_neg();
        let mut comp = seed;
        let mut frontier = seed;
        while frontier != 0 {
            let mut grow = 0;
            for i in Bits(frontier) {
                grow |= layout.nb_mask[i as usize];
            }
            grow &= rings & !comp;
            comp |= grow;
            frontier = grow;
        }
        rest &= !comp;
        each(comp);
    }
}

/// Whether removing ring `r` from `rings` may split its group: its remaining neighbours do not
/// form one arc around it.
fn may_split(layout: &Layout, rings: u64, r: u8) -> bool {
    let rest = rings & !(1u64 << r);
    let mut present = 0u32;
    for (d, &j) in layout.nb[r as usize].iter().enumerate() {
        if j != NONE && rest & (1u64 << j) != 0 {
            present |= 1 << d;
        }
    }
    let rot = ((present >> 1) | (present << 5)) & 63;
    (present & !rot).count_ones() > 1
}

/// The most groups a cached [`Topology`] holds; a set of rings with more is worked out again
/// each time (a board rarely has more than a handful).
const TOPOLOGY_GROUPS: usize = 14;
/// Cached ring sets per thread (a power of two; about 150 KiB).
const TOPOLOGY_SLOTS: usize = 1024;
const _: () = assert!(TOPOLOGY_SLOTS.is_power_of_two());

/// What a set of rings alone decides, whatever the marbles on it: its groups, which rings
/// may split their group when removed, and which are free when vacant. The evaluation asks
/// for the groups of the board and of the board less each free ring at every leaf, and a
/// leaf's siblings mostly differ only in their marbles or in the ring their turn removed, so
/// these are kept per thread (`Groups::of` was an eighth of ZÈRTZ's search time).
#[derive(Clone, Copy)]
struct Topology {
    /// The board (its address) and ring set this holds; `layout == 0` marks an empty slot.
    layout: usize,
    rings: u64,
    /// Groups (masks), or `n == u8::MAX` when there are more than [`TOPOLOGY_GROUPS`].
    n: u8,
    masks: [u64; TOPOLOGY_GROUPS],
    /// Rings whose removal may split their group ([`may_split`]).
    splitting: u64,
    /// Rings at the edge ([`Layout::at_edge`]): free when vacant.
    edge: u64,
}

impl Topology {
    const EMPTY: Topology =
        Topology { layout: 0, rings: 0, n: 0, masks: [0; TOPOLOGY_GROUPS], splitting: 0, edge: 0 };

    fn of(layout: &'static Layout, rings: u64) -> Topology {
        let mut t = Topology { layout: std::ptr::from_ref(layout) as usize, rings, ..Self::EMPTY };
        components(layout, rings, |m| {
            if usize::from(t.n) < TOPOLOGY_GROUPS {
                t.masks[usize::from(t.n)] = m;
                t.n += 1;
            } else {
                t.n = u8::MAX;
            }
        });
        for r in Bits(rings) {
            if may_split(layout, rings, r) {
                t.splitting |= 1u64 << r;
            }
            if layout.at_edge(r, rings) {
                t.edge |= 1u64 << r;
            }
        }
        t
    }

    fn groups(&self) -> Option<&[u64]> {
        (self.n != u8::MAX).then(|| &self.masks[..usize::from(self.n)])
    }
}

thread_local! {
    static TOPOLOGIES: RefCell<Vec<Topology>> =
        RefCell::new(vec![Topology::EMPTY; TOPOLOGY_SLOTS]);
}

/// `f` of the topology of `rings` on `layout`, from this thread's cache (filled on a miss).
fn with_topology<R>(layout: &'static Layout, rings: u64, f: impl FnOnce(&Topology) -> R) -> R {
    let at = std::ptr::from_ref(layout) as usize;
    // Fibonacci hashing of the ring set: its top bits pick the slot.
    let slot =
        (rings.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - TOPOLOGY_SLOTS.ilog2())) as usize;
    TOPOLOGIES.with(|cell| {
        let mut cache = cell.borrow_mut();
        let t = &mut cache[slot];
        if t.rings != rings || t.layout != at {
            *t = Topology::of(layout, rings);
        }
        f(t)
    })
}

impl Groups {
    const EMPTY: Groups =
        Groups { n: 0, mask: [0; 64], vacant: [0; 64], marbles: [[0; 3]; 64], splitting: 0 };

    fn of(layout: &'static Layout, s: &State, rings: u64) -> Groups {
        // (From a constant: the compiler zeroes a fresh `[[u8; 3]; 64]` one byte pair at a time.)
        let mut g = Groups::EMPTY;
        with_topology(layout, rings, |t| {
            g.splitting = t.splitting;
            match t.groups() {
                Some(masks) => masks.iter().for_each(|&m| g.push(m, s)),
                None => components(layout, rings, |m| g.push(m, s)),
            }
        });
        g
    }

    fn push(&mut self, comp: u64, s: &State) {
        let i = self.n;
        self.n += 1;
        self.mask[i] = comp;
        self.vacant[i] = (comp & s.rings & !s.occupied()).count_ones() as u8;
        for k in 0..3 {
            self.marbles[i][k] = (comp & s.marbles[k]).count_ones() as u8;
        }
    }

    fn index_of(&self, ring: u8) -> usize {
        (0..self.n).find(|&i| self.mask[i] & (1u64 << ring) != 0).unwrap_or(0)
    }

    /// The groups once free ring `r` is removed.
    fn without(&self, layout: &'static Layout, s: &State, r: u8) -> Groups {
        match self.shrunk_by(r) {
            Some(i) => {
                let mut g = self.clone();
                g.mask[i] &= !(1u64 << r);
                g.vacant[i] = g.vacant[i].saturating_sub(1);
                // Which rings split these groups is not known: every removal is worked out.
                g.splitting = u64::MAX;
                g
            }
            None => Groups::of(layout, s, s.rings & !(1u64 << r)),
        }
    }

    /// When removing free ring `r` splits no group: the group that only loses `r` (one
    /// vacancy fewer). `None` when it may split one, and the groups must be found again.
    fn shrunk_by(&self, r: u8) -> Option<usize> {
        (self.splitting & (1u64 << r) == 0).then(|| self.index_of(r))
    }

    /// The vacancies of group `i`, with group `shrunk` (if any) one fewer.
    fn vacant_of(&self, i: usize, shrunk: Option<usize>) -> u8 {
        if shrunk == Some(i) { self.vacant[i].saturating_sub(1) } else { self.vacant[i] }
    }

    /// Marbles of groups left without a vacancy, with group `shrunk` (if any) one vacancy
    /// fewer.
    fn full(&self, shrunk: Option<usize>) -> [u8; 3] {
        let mut t = [0u8; 3];
        for i in 0..self.n {
            if self.vacant_of(i, shrunk) == 0 {
                t = add(t, self.marbles[i]);
            }
        }
        t
    }
}

fn add(a: [u8; 3], b: [u8; 3]) -> [u8; 3] {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

/// Per-position tables for the move prior (computed once per position, for all its moves).
struct PriorTable {
    hash: u64,
    rings: u64,
    /// Jump landings created by a placement on each ring.
    landings: [u64; 64],
    /// Slot of each removable ring (the last slot: no removal).
    slot: [u8; 64],
    /// Per slot: marbles taken by the removal alone, and for each ring whose group is left
    /// with that ring as its only vacancy, the marbles of that group (`[3]` = 1 marks it).
    base: Vec<[u8; 3]>,
    single: Vec<[[u8; 4]; 64]>,
}

impl PriorTable {
    /// The slot of removal `r` (`NONE`: none), where `r` may be removed.
    fn slot_of(&self, r: u8) -> Option<usize> {
        let slot = usize::from(self.slot[if r == NONE { 63 } else { r as usize }]);
        (slot < self.base.len()).then_some(slot)
    }

    /// The marbles (W, G, B) isolated by a marble of `colour` placed on `v` with the removal
    /// of `slot`.
    fn isolated(&self, slot: usize, colour: usize, v: u8) -> [u8; 3] {
        let mut gain = self.base[slot];
        let one = self.single[slot][v as usize];
        if one[3] == 1 {
            gain = add(gain, [one[0], one[1], one[2]]);
            gain[colour] += 1;
        }
        gain
    }

    /// Whether a marble placed on `v` gives the opponent a jump once `r` (`NONE`: none) is
    /// removed.
    fn gives_jump(&self, v: u8, r: u8) -> bool {
        let closed = if r == NONE { 0 } else { 1u64 << r };
        self.landings[v as usize] & !closed != 0
    }
}

thread_local! {
    static PRIOR: RefCell<Option<Box<PriorTable>>> = const { RefCell::new(None) };
}

impl Position {
    fn prior_table(&self) -> PriorTable {
        let s = &self.state;
        let layout = self.layout;
        let mut t = PriorTable {
            hash: s.hash,
            rings: s.rings,
            landings: [0; 64],
            slot: [u8::MAX; 64],
            base: Vec::new(),
            single: Vec::new(),
        };
        for v in Bits(s.vacant()) {
            t.landings[v as usize] = self.landings(v);
        }
        let groups = Groups::of(layout, s, s.rings);
        let free = self.free_rings_cached();
        let fill = |g: &Groups, t: &mut PriorTable| {
            t.base.push(g.full(None));
            let mut single = [[0u8; 4]; 64];
            for i in 0..g.n {
                if g.vacant[i] == 1 {
                    let v = (g.mask[i] & s.vacant()).trailing_zeros() as usize;
                    let m = g.marbles[i];
                    single[v] = [m[0], m[1], m[2], 1];
                }
            }
            t.single.push(single);
        };
        for r in Bits(free) {
            t.slot[r as usize] = t.base.len() as u8;
            let g = groups.without(layout, s, r);
            fill(&g, &mut t);
        }
        t.slot[63] = t.base.len() as u8;
        fill(&groups, &mut t);
        t
    }

    /// `f` of this position's prior table (one per thread, made when the cell holds
    /// another position's).
    fn with_prior_table<R>(&self, f: impl FnOnce(&PriorTable) -> R) -> R {
        PRIOR.with(|cell| {
            let mut cell = cell.borrow_mut();
            let stale = cell
                .as_ref()
                .is_none_or(|t| t.hash != self.state.hash || t.rings != self.state.rings);
            if stale {
                *cell = Some(Box::new(self.prior_table()));
            }
            f(cell.as_ref().expect("filled"))
        })
    }

    fn capture_prior(&self, w: &Weights, mv: Move) -> i32 {
        let g = self.chain_gain(mv);
        200 + 2 * self.gain_for(w, self.state.to_move, g).min(2_000)
    }

    fn placement_prior(&self, w: &Weights, t: &PriorTable, colour: usize, v: u8, r: u8) -> i32 {
        let me = self.state.to_move;
        let mut p = 0;
        if let Some(slot) = t.slot_of(r) {
            let gain = t.isolated(slot, colour, v);
            if gain != [0; 3] {
                p += 300 + 2 * self.gain_for(w, me, gain).min(2_000);
            }
        }
        if t.gives_jump(v, r) {
            p -= 120 + MARBLE[colour] / 2;
        }
        p + (MARBLE[0] - MARBLE[colour]) / 5
    }

    /// The best isolation the mover can make this placement turn, as a gain to him, and with
    /// `opponent` also the best the opponent could make were it his turn (else 0); `free`
    /// is [`free_rings`](Position::free_rings).
    fn best_isolations(&self, w: &Weights, free: u64, opponent: bool) -> [i32; 2] {
        let s = &self.state;
        let layout = self.layout;
        let me = s.to_move;
        let players: &[Player] = if opponent { &[me, me.other()] } else { &[me] };
        // The colour each would place: the first of the pool's, or of his own captures once
        // the pool is empty.
        let colour_of = |p: Player| {
            let src = if self.pool_empty() { s.captures[p.index()] } else { s.pool };
            (0..3).find(|&k| src[k] > 0)
        };
        let colours = [colour_of(me), colour_of(me.other())];
        let groups = Groups::of(layout, s, s.rings);
        let mut best = [0; 2];
        // The groups `g` leave, with group `shrunk` one vacancy fewer (a removal that splits
        // nothing changes only that): what the groups left full give, and the best of also
        // filling the last vacancy of one group.
        let mut consider = |g: &Groups, shrunk: Option<usize>| {
            let base = g.full(shrunk);
            for (n, &p) in players.iter().enumerate() {
                let mut top = if base == [0; 3] { 0 } else { self.gain_for(w, p, base) };
                if let Some(c) = colours[n] {
                    for i in 0..g.n {
                        if g.vacant_of(i, shrunk) == 1 {
                            let mut gain = add(base, g.marbles[i]);
                            gain[c] += 1;
                            top = top.max(self.gain_for(w, p, gain));
                        }
                    }
                }
                best[n] = best[n].max(top);
            }
        };
        if free == 0 {
            consider(&groups, None);
        } else {
            // Only removals next to a small group or splitting one can isolate. A removal that
            // splits nothing leaves a group full, or with one vacancy to fill, only if some
            // group has at most one vacancy or the one it shrinks has two: else it isolates
            // nothing, and most removals are of that kind.
            let low = (0..groups.n).any(|i| groups.vacant[i] <= 1);
            for r in Bits(free) {
                match groups.shrunk_by(r) {
                    Some(i) if low || groups.vacant[i] <= 2 => consider(&groups, Some(i)),
                    Some(_) => {}
                    None => consider(&Groups::of(layout, s, s.rings & !(1u64 << r)), None),
                }
            }
        }
        best
    }

    /// How many vacant rings the mover can place on without handing the opponent a jump,
    /// counted up to `limit`; `free` is [`free_rings`](Position::free_rings).
    fn safe_placements(&self, free: u64, limit: u32) -> u32 {
        let mut n = 0;
        for v in Bits(self.state.vacant()) {
            if n >= limit {
                break;
            }
            let l = self.landings(v);
            // Removing the only landing ring closes the jump.
            if l == 0 || (l.count_ones() == 1 && free & l != 0 && l != 1u64 << v) {
                n += 1;
            }
        }
        n
    }
}

ply_core::evaluator!(Eval for Position, Weights, [("default", include_str!("weights.txt"))]);

impl Evaluator<Position> for Eval {
    fn evaluate(&self, position: &Position) -> i32 {
        let w = &self.w;
        let near_win = w[Weights::NEAR_WIN];
        let s = &position.state;
        let me = s.to_move;
        let mut score = position.standing(w);
        if position.has_jump() {
            // Capturing is compulsory: the mover takes his best chain.
            let mut moves = Vec::new();
            position.gen_captures(&mut moves);
            let best = moves
                .iter()
                .map(|&m| position.gain_for(w, me, position.chain_gain(m)))
                .max()
                .unwrap_or(0);
            if best >= near_win {
                return near_win;
            }
            score += best * 9 / 10;
        } else {
            let free = position.free_rings_cached();
            let threat = w[Weights::THREAT] != 0 || w[Weights::THREAT_WIN] != 0;
            let [iso, theirs] = position.best_isolations(w, free, threat);
            if iso >= near_win {
                return near_win;
            }
            score += iso * 9 / 10 + w[Weights::TEMPO];
            score -= if theirs >= near_win {
                w[Weights::THREAT_WIN]
            } else {
                theirs * w[Weights::THREAT] / 100
            };
            // Only as many safe placements are counted as the penalties distinguish.
            let unsafe_at = |n: u32| w[Weights::UNSAFE + n as usize];
            let limit = (0..UNSAFE_LEN).rev().find(|&n| unsafe_at(n) != 0).map_or(0, |n| n + 1);
            if limit > 0 {
                let safe = position.safe_placements(free, limit);
                if safe < UNSAFE_LEN {
                    score -= unsafe_at(safe);
                }
            }
        }
        // (Not `clamp`, which would panic on a negative NEAR_WIN read from a file.)
        score.max(-near_win).min(near_win)
    }

    fn material(&self, position: &Position) -> i32 {
        let s = &position.state;
        let me = s.to_move.index();
        (0..3)
            .map(|k| MARBLE[k] * (i32::from(s.captures[me][k]) - i32::from(s.captures[1 - me][k])))
            .sum()
    }

    /// Fitted: `ply tune zertz --games 1500 --seed 4 --passes 0 --records RECORDS` gave 2/K = 640 on
    /// 45,199 positions of level-6 self-play and real games (`docs/tuning.md`, "The value scale").
    fn value_scale(&self) -> f32 {
        640.0
    }

    fn move_prior(&self, position: &Position, mv: Move) -> i32 {
        match mv {
            Move::Capture { .. } => position.capture_prior(&self.w, mv),
            Move::Place { colour, ring, remove } => position.with_prior_table(|t| {
                position.placement_prior(&self.w, t, colour.index(), ring, remove)
            }),
        }
    }

    /// The same priors, with the table of placements looked up once for all the moves
    /// (captures being compulsory, a turn's moves are all captures or all placements).
    fn move_priors(&self, position: &Position, moves: &[Move], out: &mut Vec<i32>) {
        out.clear();
        if !moves.iter().any(|m| matches!(m, Move::Place { .. })) {
            out.extend(moves.iter().map(|&mv| position.capture_prior(&self.w, mv)));
            return;
        }
        position.with_prior_table(|t| {
            out.extend(moves.iter().map(|&mv| match mv {
                Move::Capture { .. } => position.capture_prior(&self.w, mv),
                Move::Place { colour, ring, remove } => {
                    position.placement_prior(&self.w, t, colour.index(), ring, remove)
                }
            }));
        });
    }

    fn is_forcing(&self, _: &Position, mv: Move) -> bool {
        matches!(mv, Move::Capture { .. })
    }

    /// Only captures are forcing, and there are captures exactly when a marble can jump.
    fn may_force(&self, position: &Position) -> bool {
        position.has_jump()
    }

    /// A jump, when there is one, is compulsory.
    fn must_force(&self, position: &Position) -> bool {
        position.has_jump()
    }

    /// A quiet placement (from the pool, taking nothing, giving no jump) leaves both players'
    /// captures as they are and the opponent a placement turn, which he evaluates as the
    /// standing from his side, his tempo, his best isolation (never below 0) less at most the
    /// largest penalty for few safe placements and the threat terms. So the mover's value
    /// after it is at most his standing less the tempo plus those penalties. Not once the
    /// pool is nearly empty: a placement then spends the mover's own captures, or may leave
    /// the opponent without a move (a win).
    fn quiet_bound(&self, position: &Position) -> Option<i32> {
        if !position.pool_lasts() || position.has_jump() {
            return None;
        }
        let w = &self.w;
        let near_win = w[Weights::NEAR_WIN];
        let standing = position.standing(w);
        let unsafe_most =
            (0..UNSAFE_LEN as usize).map(|n| w[Weights::UNSAFE + n]).fold(0, i32::max);
        let threat_most =
            w[Weights::THREAT_WIN].max(w[Weights::THREAT].max(0) * near_win / 100).max(0);
        Some((standing - w[Weights::TEMPO] + unsafe_most + threat_most).max(-near_win))
    }

    /// A placement from a pool of two marbles or more whose removal and marble isolate
    /// nothing and whose marble gives the opponent no jump, read from the prior's table of the
    /// position.
    fn is_quiet(&self, position: &Position, mv: Move) -> bool {
        let Move::Place { colour, ring, remove } = mv else { return false };
        if !position.pool_lasts() {
            return false;
        }
        position.with_prior_table(|t| {
            t.slot_of(remove).is_some_and(|slot| t.isolated(slot, colour.index(), ring) == [0; 3])
                && !t.gives_jump(ring, remove)
        })
    }
}

#[cfg(test)]
mod tests {
    use ply_core::{Evaluator, Game};

    use super::{Eval, Groups, components, may_split, with_topology};
    use crate::geometry::Bits;
    use crate::rules::Position;
    use crate::types::Move;

    /// Positions of placement turns along pseudo-random games on every board size.
    fn placement_turns() -> Vec<Position> {
        let mut out = Vec::new();
        let mut moves = Vec::new();
        for (seed, variant) in ["37", "48", "61"].into_iter().enumerate() {
            for game in 0..6usize {
                let mut position = Position::new(variant).unwrap();
                for turn in 0..60usize {
                    if position.outcome().is_some() {
                        break;
                    }
                    if !position.has_jump() {
                        out.push(position.clone());
                    }
                    position.legal_moves(&mut moves);
                    position.play(moves[(turn * 7919 + seed * 31 + game * 104_729) % moves.len()]);
                }
            }
        }
        out
    }

    /// Positions of placement turns of `games` pseudo-random games a board size, played to
    /// their end (where small groups with few vacancies are common).
    fn placement_turns_to_the_end(games: usize) -> Vec<Position> {
        let mut out = Vec::new();
        let mut moves = Vec::new();
        for (seed, variant) in ["37", "48", "61"].into_iter().enumerate() {
            for game in 0..games {
                let mut position = Position::new(variant).unwrap();
                let mut turn = 0usize;
                while position.outcome().is_none() {
                    if !position.has_jump() {
                        out.push(position.clone());
                    }
                    position.legal_moves(&mut moves);
                    let pick = (turn * 7919 + seed * 31 + game * 104_729) % moves.len();
                    position.play(moves[pick]);
                    turn += 1;
                }
            }
        }
        out
    }

    /// The safe placements counted are the vacant rings on which some legal placement leaves
    /// the opponent no jump, up to the limit asked for.
    #[test]
    fn safe_placements_are_the_placements_that_give_no_jump() {
        let mut moves = Vec::new();
        let (mut few, mut checked) = (0, 0);
        for position in placement_turns() {
            position.legal_moves(&mut moves);
            let mut safe = 0u64;
            for &mv in &moves {
                if let Move::Place { ring, .. } = mv {
                    let mut after = position.clone();
                    after.play(mv);
                    if !after.has_jump() {
                        safe |= 1u64 << ring;
                    }
                }
            }
            let free = position.free_rings();
            for limit in [1, 4, 64] {
                assert_eq!(
                    position.safe_placements(free, limit),
                    safe.count_ones().min(limit),
                    "limit {limit} in {position:?}"
                );
            }
            checked += 1;
            few += usize::from(safe.count_ones() < 4);
        }
        assert!(checked > 300 && few > 10, "{checked} positions, {few} with few safe placements");
    }

    /// The cached topology of a ring set is the one worked out afresh: the groups, the rings
    /// whose removal may split one, the free rings; for the board and the board less each
    /// free ring, on every board size (whose ring sets share the cache's slots).
    #[test]
    fn cached_groups_and_free_rings_are_those_worked_out_afresh() {
        let mut sets = 0;
        for position in placement_turns() {
            let (layout, s) = (position.layout, &position.state);
            assert_eq!(position.free_rings_cached(), position.free_rings(), "{position:?}");
            for rings in std::iter::once(s.rings)
                .chain(Bits(position.free_rings()).map(|r| s.rings & !(1u64 << r)))
            {
                let mut fresh = Vec::new();
                components(layout, rings, |m| fresh.push(m));
                let g = Groups::of(layout, s, rings);
                assert_eq!(&g.mask[..g.n], &fresh[..], "{position:?}");
                for i in 0..g.n {
                    let vacant = g.mask[i] & s.vacant();
                    assert_eq!(u32::from(g.vacant[i]), vacant.count_ones());
                }
                for r in 0..64u8 {
                    let splits = rings & (1u64 << r) != 0 && may_split(layout, rings, r);
                    assert_eq!(g.splitting & (1u64 << r) != 0, splits, "ring {r} of {rings:#x}");
                }
                sets += 1;
            }
        }
        // One ring set on two boards: the board is part of the key.
        let (small, large) = (Position::new("37").unwrap(), Position::new("48").unwrap());
        let rings = small.state.rings;
        let edge = |p: &Position| with_topology(p.layout, rings, |t| (t.edge, t.n));
        let (on_small, on_large) = (edge(&small), edge(&large));
        assert_ne!(on_small, on_large);
        assert_eq!(on_small, edge(&small));
        assert!(sets > 3_000, "{sets} ring sets");
    }

    /// A placement turn's best isolation is what the best legal placement of the colour the
    /// mover would place (the pool's first, or his own captures' first once the pool is
    /// empty) captures, played out by the rules.
    #[test]
    fn the_best_isolation_is_the_best_placement_played_out() {
        let w = Eval::default().w;
        let mut moves = Vec::new();
        let mut isolating = 0;
        for position in placement_turns_to_the_end(300) {
            let s = &position.state;
            let me = s.to_move;
            let source = if position.pool_empty() { s.captures[me.index()] } else { s.pool };
            let Some(colour) = (0..3).find(|&k| source[k] > 0) else { continue };
            position.legal_moves(&mut moves);
            let mut best = 0;
            for &mv in &moves {
                let Move::Place { colour: c, .. } = mv else { continue };
                if c.index() != colour {
                    continue;
                }
                let mut after = position.clone();
                after.play(mv);
                // The marbles the placement captured; once the pool is empty the placed marble
                // came from the mover's captures (the evaluation does not count that cost).
                let (before, now) = (s.captures[me.index()], after.state.captures[me.index()]);
                let spent = |k: usize| u8::from(position.pool_empty() && k == colour);
                let gain: [u8; 3] = std::array::from_fn(|k| now[k] + spent(k) - before[k]);
                if gain != [0; 3] {
                    best = best.max(position.gain_for(&w, me, gain));
                }
            }
            let free = position.free_rings();
            assert_eq!(position.best_isolations(&w, free, false)[0], best, "{position:?}");
            isolating += usize::from(best > 0);
        }
        assert!(isolating > 20, "positions with an isolation: {isolating}");
    }

    /// The opponent's best isolation is the one he would find were it his turn.
    #[test]
    fn the_opponents_threat_is_his_own_best_isolation() {
        let w = Eval::default().w;
        let mut threats = 0;
        for position in placement_turns() {
            let free = position.free_rings();
            let [mine, theirs] = position.best_isolations(&w, free, true);
            assert_eq!(position.best_isolations(&w, free, false), [mine, 0]);
            let mut turned = position.clone();
            turned.state.to_move = position.state.to_move.other();
            assert_eq!(turned.best_isolations(&w, free, false)[0], theirs, "{position:?}");
            threats += usize::from(theirs > 0);
        }
        assert!(threats > 10, "positions with a threat: {threats}");
    }

    /// The quiet placements are those that, played by the rules, take nothing and leave the
    /// opponent no jump, from a pool of two marbles or more; each leaves a game not over and a
    /// position worth at most the quiet bound to the mover, and the bound is near the best of
    /// them in most positions.
    #[test]
    fn quiet_placements_are_worth_at_most_the_quiet_bound() {
        let eval = Eval::default();
        let mut moves = Vec::new();
        let (mut quiet, mut bounded, mut near) = (0, 0, 0);
        for position in placement_turns_to_the_end(40) {
            let bound = eval.quiet_bound(&position);
            assert_eq!(bound.is_some(), position.pool_lasts(), "{position:?}");
            position.legal_moves(&mut moves);
            let mut best = None;
            for &mv in &moves {
                let mut after = position.clone();
                after.play(mv);
                let took = after.state.captures != position.state.captures;
                let by_rules = position.pool_lasts() && !took && !after.has_jump();
                assert_eq!(eval.is_quiet(&position, mv), by_rules, "{mv:?} in {position:?}");
                if !by_rules {
                    continue;
                }
                assert_eq!(after.state.outcome, None, "{mv:?} in {position:?}");
                let value = -eval.evaluate(&after);
                let bound = bound.expect("a bound where the pool lasts");
                assert!(value <= bound, "{mv:?} worth {value}, bound {bound}, in {position:?}");
                best = best.max(Some(value));
                quiet += 1;
            }
            if let (Some(bound), Some(best)) = (bound, best) {
                bounded += 1;
                near += usize::from(bound - best <= 110);
            }
        }
        assert!(quiet > 20_000 && bounded > 500, "{quiet} quiet placements, {bounded} positions");
        assert!(near * 4 > bounded * 3, "the bound within 110 of the best in {near} of {bounded}");
    }

    /// The priors of all moves at once are those of each move alone, in placement turns and
    /// capture turns, on every board size.
    #[test]
    fn priors_at_once_are_the_priors_of_each_move() {
        let eval = Eval::default();
        let (mut moves, mut at_once) = (Vec::new(), Vec::new());
        let mut captures = 0;
        for (seed, variant) in ["37", "48", "61"].into_iter().enumerate() {
            let mut position = Position::new(variant).unwrap();
            for turn in 0..40usize {
                if position.outcome().is_some() {
                    break;
                }
                position.legal_moves(&mut moves);
                eval.move_priors(&position, &moves, &mut at_once);
                let alone: Vec<i32> =
                    moves.iter().map(|&m| eval.move_prior(&position, m)).collect();
                assert_eq!(at_once, alone, "{variant}, turn {turn}");
                captures += usize::from(matches!(moves[0], Move::Capture { .. }));
                position.play(moves[(turn * 7919 + seed * 31) % moves.len()]);
            }
        }
        assert!(captures > 3, "capture turns were compared: {captures}");
    }
}
