//! Negamax alpha-beta with iterative deepening, principal-variation search, a shared
//! transposition table, move ordering and quiescence; several threads share the table
//! ("lazy SMP"), and where the root has thousands of moves they share out its moves
//! (design note 31).

use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use ply_core::{Evaluate, Evaluator, Game, LateMoveReductions, Outcome, Player};

use crate::ordering::{order_more, ordered_bits};
use crate::{Limits, Rng, Score, SearchResult, Searcher, Stop};

const MAX_PLY: usize = 128;
const QUIESCENCE_DEPTH: u32 = 6;
const INFINITY: i32 = Score::WIN + 1;
const HISTORY_SIZE: usize = 1 << 12;
const SHARDS: usize = 64;
/// From this many root moves up, the threads share out the root moves of each iteration
/// ([`RootSplit`]) instead of each searching them all. Below it an iteration completes in
/// time and the threads do best searching the same moves in nearly the same order: each is
/// then ahead of the other somewhere, and the table carries it. Above it (PÜNCT, ZÈRTZ's
/// first turns) an iteration rarely completes, and what a move is decided by is how many of
/// the best-ordered root moves were searched at the new depth.
const SPLIT_ROOT_MOVES: usize = 1000;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Clone, Copy, Debug)]
struct Entry<M> {
    key: u64,
    best: Option<M>,
    score: i32,
    depth: i16,
    bound: Bound,
    generation: u8,
}

/// One iteration's root moves, shared out between the threads where the root has
/// [`SPLIT_ROOT_MOVES`] or more (design note 31). The first thread to reach an iteration
/// opens it with its move order, the last iteration's choice first. Every thread that arrives
/// before that first move has been searched searches it too (lazy SMP on it, as the others
/// are searched against its score); then each thread takes the next unclaimed move, searches
/// it with a null window at the best score so far and again with an open one where it fails
/// high. An iteration is complete when every move has been taken and none is still being
/// searched; threads wait for that, so all of them go on to the next depth with the same
/// choice.
struct RootSplit<M> {
    depth: u32,
    moves: Vec<M>,
    /// The next move to be taken.
    next: usize,
    /// Moves taken and still being searched.
    in_flight: usize,
    /// The best fully searched move of this iteration and its exact score; none until the
    /// first move has been searched.
    best: Option<(M, i32)>,
    /// Each completed iteration's choice and score, by depth.
    results: Vec<Option<(M, i32)>>,
}

impl<M> RootSplit<M> {
    fn new() -> Self {
        RootSplit {
            depth: 0,
            moves: Vec::new(),
            next: 0,
            in_flight: 0,
            best: None,
            results: Vec::new(),
        }
    }

    fn result(&self, depth: u32) -> Option<&(M, i32)> {
        self.results.get(depth as usize).and_then(Option::as_ref)
    }
}

/// A root move taken from a [`RootSplit`] and being searched. Its thread settles it when done
/// (in the same holding of the lock as it records the score); if the thread panics instead,
/// dropping it gives the move up, so the other threads do not wait for it for ever.
struct Taken<'s, M> {
    split: &'s Mutex<RootSplit<M>>,
    settled: bool,
}

impl<M> Drop for Taken<'_, M> {
    fn drop(&mut self) {
        if !self.settled {
            lock(self.split).in_flight -= 1;
        }
    }
}

/// Locks `mutex`, also when a thread panicked while holding it (the data stay consistent:
/// every holding leaves them whole).
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The transposition table: a fixed number of entries in lock-striped shards, so threads can
/// share it; its size never grows past what was configured.
struct Table<M> {
    shards: Vec<Mutex<Vec<Option<Entry<M>>>>>,
    per_shard: usize,
}

impl<M: Copy> Table<M> {
    fn with_bytes(bytes: usize) -> Table<M> {
        let entry = std::mem::size_of::<Option<Entry<M>>>().max(1);
        let total = (bytes / entry).max(SHARDS);
        let per_shard = total / SHARDS;
        Table {
            shards: (0..SHARDS).map(|_| Mutex::new(vec![None; per_shard])).collect(),
            per_shard,
        }
    }

    fn bytes(&self) -> usize {
        SHARDS * self.per_shard * std::mem::size_of::<Option<Entry<M>>>()
    }

    fn slot(&self, key: u64) -> (usize, usize) {
        ((key as usize) % SHARDS, ((key >> 16) as usize) % self.per_shard)
    }

    fn probe(&self, key: u64) -> Option<Entry<M>> {
        let (shard, i) = self.slot(key);
        let shard = lock(&self.shards[shard]);
        shard[i].filter(|e| e.key == key)
    }

    fn store(&self, entry: Entry<M>) {
        let (shard, i) = self.slot(entry.key);
        let mut shard = lock(&self.shards[shard]);
        let replace = match &shard[i] {
            None => true,
            Some(old) => {
                old.key == entry.key
                    || old.generation != entry.generation
                    || entry.depth >= old.depth
            }
        };
        if replace {
            // Keep a known best move when a shallower result for the same position has none.
            let best =
                entry.best.or_else(|| shard[i].filter(|o| o.key == entry.key).and_then(|o| o.best));
            shard[i] = Some(Entry { best, ..entry });
        }
    }

    fn clear(&self) {
        for shard in &self.shards {
            let mut s = lock(shard);
            s.iter_mut().for_each(|e| *e = None);
        }
    }
}

/// Alpha-beta search; see the crate documentation. `E` scores the positions and orders the
/// moves: the game's own evaluator unless [`with_evaluator`](AlphaBeta::with_evaluator) says
/// otherwise.
pub struct AlphaBeta<G: Evaluate, E: Evaluator<G> = <G as Evaluate>::Evaluator> {
    eval: E,
    table: Arc<Table<G::Move>>,
    threads: usize,
    generation: u8,
    seed: u64,
    contempt: i32,
    no_progress: bool,
}

impl<G: Evaluate> AlphaBeta<G> {
    /// A searcher with the game's own evaluator, a transposition table of at most `hash_mb`
    /// MiB and `threads` threads.
    #[must_use]
    pub fn new(hash_mb: usize, threads: usize) -> AlphaBeta<G> {
        AlphaBeta::with_evaluator(G::evaluator(), hash_mb, threads)
    }
}

impl<G: Evaluate, E: Evaluator<G>> AlphaBeta<G, E> {
    /// A searcher with evaluator `eval`, a transposition table of at most `hash_mb` MiB and
    /// `threads` threads.
    #[must_use]
    pub fn with_evaluator(eval: E, hash_mb: usize, threads: usize) -> AlphaBeta<G, E> {
        AlphaBeta {
            eval,
            table: Arc::new(Table::with_bytes(hash_mb.max(1) << 20)),
            threads: threads.max(1),
            generation: 0,
            seed: 0,
            contempt: 0,
            no_progress: false,
        }
    }

    /// How much worse than an even position a draw counts for the player to move at the
    /// root, in evaluation units (default 0; negative values make it seek draws). With 0 a
    /// draw is worth exactly an even position; a positive value keeps the engine from
    /// settling for a repetition or a drawn ending in a position it can still win.
    #[must_use]
    pub fn with_contempt(mut self, contempt: i32) -> Self {
        self.contempt = contempt;
        self
    }

    /// Changes the contempt ([`with_contempt`](AlphaBeta::with_contempt)). The table keeps
    /// values scored with the old one: clear it when they differ.
    pub fn set_contempt(&mut self, contempt: i32) {
        self.contempt = contempt;
    }

    /// Where the rules draw no repeated position (`Game::REPETITION_DRAWS` false: GIPF),
    /// score a position the game has already seen, before the root or in the line
    /// searched, as a draw all the same: "no progress", worth the contempt. The side that
    /// stands better then leaves a cycle the rules would let go on for ever; the side that
    /// stands worse still welcomes it. Off unless asked for, as it is not a rule of these
    /// games; every level asks for it (`Think::level`).
    #[must_use]
    pub fn with_no_progress(mut self, no_progress: bool) -> Self {
        self.no_progress = no_progress;
        self
    }

    /// Changes [`with_no_progress`](AlphaBeta::with_no_progress). The table keeps values
    /// scored the other way: clear it when the setting changes.
    pub fn set_no_progress(&mut self, no_progress: bool) {
        self.no_progress = no_progress;
    }

    /// The seed that perturbs the move order of helper threads (the main thread is not).
    #[must_use]
    pub fn with_seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// Replaces the evaluator. The table keeps the old one's values: clear it
    /// ([`Searcher::clear`]) when the two score differently.
    pub fn set_evaluator(&mut self, eval: E) {
        self.eval = eval;
    }

    /// The evaluator.
    #[must_use]
    pub fn evaluator(&self) -> &E {
        &self.eval
    }

    /// The memory the transposition table holds, in bytes.
    #[must_use]
    pub fn table_bytes(&self) -> usize {
        self.table.bytes()
    }
}

/// Where a search reports its progress (see [`Searcher::search_reporting`]).
type Reporter<'r, M> = &'r mut dyn FnMut(&SearchResult<M>);

/// What every thread of one search reads or counts.
struct Shared<'a> {
    stop: &'a AtomicBool,
    /// Raised by the main thread when it is done, so helpers stop too.
    done: AtomicBool,
    nodes: AtomicU64,
    deadline: Option<Instant>,
    node_limit: Option<u64>,
    /// The search's table generation: an older search's entries give way to its entries.
    generation: u8,
    contempt: i32,
    /// Whether a position repeating one of the line searched is a draw: by the rules, or as
    /// "no progress" ([`AlphaBeta::with_no_progress`]).
    repeats_draw: bool,
    /// The hashes of the positions the game went through before the root, sorted; kept
    /// only for "no progress" (the rules of the games that draw repetitions see those).
    earlier: Vec<u64>,
    /// The positions some thread is searching now, by hash, one slot per `BUSY_SLOTS`-th of
    /// the hashes (Kerrigan's "simplified ABDADA"): a thread passes over a move into one of
    /// them and comes back to it after its other moves, by when the other thread's result
    /// is in the table. Empty with one thread, and where the threads share out the root.
    busy: Vec<AtomicU64>,
}

/// The slots of [`Shared::busy`]: a few times the positions at `DEFER_DEPTH` or more that
/// threads search at once, so that a collision (a move passed over for an unrelated
/// position) is rare. 256 KiB a search with more than one thread.
const BUSY_SLOTS: usize = 1 << 15;

/// The least depth of a node whose moves a thread may pass over while another thread
/// searches their position: below it a subtree costs less than coming back to it.
const DEFER_DEPTH: i32 = 3;

impl Shared<'_> {
    /// Whether the game went through the position of hash `key` before the root.
    fn seen_before_root(&self, key: u64) -> bool {
        !self.earlier.is_empty() && self.earlier.binary_search(&key).is_ok()
    }

    /// The slot of [`Shared::busy`] that records whether position `key` is being searched.
    fn busy_slot(&self, key: u64) -> &AtomicU64 {
        &self.busy[(key as usize) & (BUSY_SLOTS - 1)]
    }
}

struct Worker<'a, G: Game, E> {
    game: G,
    eval: &'a E,
    table: &'a Table<G::Move>,
    shared: &'a Shared<'a>,
    nodes: u64,
    unreported: u64,
    aborted: bool,
    /// The last two moves that cut off at each ply, the later first.
    killers: Vec<[Option<G::Move>; 2]>,
    /// How often each move (by [`move_slot`]) caused a cut-off, weighted by depth: this
    /// thread's own, or all threads' where they share out the root moves (each then sees only
    /// some of the root moves, and would learn from only those).
    history: &'a [AtomicI32],
    buffers: Vec<Vec<G::Move>>,
    scratch: Vec<Vec<(i32, G::Move)>>,
    /// The move priors of the position being ordered.
    priors: Vec<i32>,
    rng: Option<Rng>,
    /// The best root move of the running iteration among those searched fully, and its score.
    root_best: Option<(G::Move, i32)>,
    /// The root moves shared out between the threads, where the search has more than one
    /// thread ([`RootSplit`]).
    split: Option<&'a Mutex<RootSplit<G::Move>>>,
    /// The last completed iteration: best move, score, depth.
    completed: Option<(G::Move, i32, u32)>,
    /// The best fully searched root move of the iteration that was cut short, its exact
    /// score and that iteration's depth.
    partial: Option<(G::Move, i32, u32)>,
    /// The hash of each position of the line being searched, by ply (for repetitions).
    line: Vec<u64>,
    root_mover: Player,
    /// The evaluator's [`LateMoveReductions`], asked once.
    reductions: Option<LateMoveReductions>,
}

/// The hashes of the positions `game` went through before its current one, sorted.
fn earlier_positions<G: Game>(game: &G) -> Vec<u64> {
    let mut back = game.clone();
    let mut hashes = Vec::with_capacity(back.turns_played());
    while back.turns_played() > 0 {
        back.undo();
        hashes.push(back.hash());
    }
    hashes.sort_unstable();
    hashes
}

/// The history table's slot of a move. Asked for every move of every node ordered, so the
/// hash is a cheap one: std's SipHash of a 27-byte GIPF move was a sixth of GIPF's search.
/// Fixed keys keep the search deterministic.
fn move_slot<M: std::hash::Hash>(mv: &M) -> usize {
    use std::hash::Hasher;
    let mut h = SlotHasher(0);
    mv.hash(&mut h);
    (h.finish() as usize) % HISTORY_SIZE
}

/// Multiply-rotate mixing of each word written (as in rustc's `FxHasher`), then a
/// multiply-xorshift finish so that the low bits the slot keeps depend on every input bit.
struct SlotHasher(u64);

impl SlotHasher {
    const K: u64 = 0x51_7c_c1_b7_27_22_0a_95;

    fn mix(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(Self::K);
    }
}

impl std::hash::Hasher for SlotHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            self.mix(u64::from_le_bytes(chunk.try_into().expect("eight bytes")));
        }
        let mut last = [0u8; 8];
        let rest = chunks.remainder();
        last[..rest.len()].copy_from_slice(rest);
        // The length keeps a short tail of zeros apart from none.
        self.mix(u64::from_le_bytes(last) ^ ((rest.len() as u64) << 59));
    }

    fn write_u8(&mut self, n: u8) {
        self.mix(u64::from(n));
    }

    fn write_u16(&mut self, n: u16) {
        self.mix(u64::from(n));
    }

    fn write_u32(&mut self, n: u32) {
        self.mix(u64::from(n));
    }

    fn write_u64(&mut self, n: u64) {
        self.mix(n);
    }

    fn write_usize(&mut self, n: usize) {
        self.mix(n as u64);
    }

    fn finish(&self) -> u64 {
        let mut z = self.0;
        z ^= z >> 33;
        z = z.wrapping_mul(0xff51_afd7_ed55_8ccd);
        z ^ (z >> 33)
    }
}

fn to_table(score: i32, ply: usize) -> i32 {
    if score > Score::PROVEN {
        score + ply as i32
    } else if score < -Score::PROVEN {
        score - ply as i32
    } else {
        score
    }
}

fn from_table(score: i32, ply: usize) -> i32 {
    if score > Score::PROVEN {
        score - ply as i32
    } else if score < -Score::PROVEN {
        score + ply as i32
    } else {
        score
    }
}

impl<'a, G: Game, E: Evaluator<G>> Worker<'a, G, E> {
    fn new(
        game: G,
        eval: &'a E,
        table: &'a Table<G::Move>,
        shared: &'a Shared<'a>,
        history: &'a [AtomicI32],
        rng: Option<Rng>,
    ) -> Self {
        Worker {
            reductions: eval.late_move_reductions(),
            root_mover: game.to_move(),
            line: vec![0; MAX_PLY + 1],
            game,
            eval,
            table,
            shared,
            nodes: 0,
            unreported: 0,
            aborted: false,
            killers: vec![[None, None]; MAX_PLY + 1],
            history,
            buffers: (0..=MAX_PLY).map(|_| Vec::new()).collect(),
            scratch: (0..=MAX_PLY).map(|_| Vec::new()).collect(),
            priors: Vec::new(),
            rng,
            root_best: None,
            split: None,
            completed: None,
            partial: None,
        }
    }

    fn count_node(&mut self) {
        self.nodes += 1;
        self.unreported += 1;
        // Small node budgets (low levels) are checked often, so they are kept closely.
        let every = if self.shared.node_limit.is_some_and(|n| n < 50_000) { 8 } else { 256 };
        if self.unreported >= every {
            self.check_limits();
        }
    }

    fn check_limits(&mut self) {
        let total =
            self.shared.nodes.fetch_add(self.unreported, Ordering::Relaxed) + self.unreported;
        self.unreported = 0;
        if self.shared.stop.load(Ordering::Relaxed)
            || self.shared.done.load(Ordering::Relaxed)
            || self.shared.node_limit.is_some_and(|n| total >= n)
            || self.shared.deadline.is_some_and(|d| Instant::now() >= d)
        {
            self.aborted = true;
        }
    }

    /// Whether position `key` at `ply` is scored as a draw for coming back: a position of
    /// this very line again (the rules draw it on its third time, and the side that chose the
    /// cycle once can choose it again, so it is that draw now), or under "no progress" a
    /// position of the game before the root.
    fn repeats(&self, key: u64, ply: usize) -> bool {
        self.shared.repeats_draw
            && (self.line[..ply].contains(&key) || self.shared.seen_before_root(key))
    }

    /// Whether `mv`, played at `ply`, ends the game (a quiet move ends it only by the rules'
    /// repetition) or leads to a position the search scores as a repetition.
    fn repeats_after(&mut self, mv: G::Move, ply: usize) -> bool {
        self.game.play(mv);
        let repeats = self.game.outcome().is_some() || self.repeats(self.game.hash(), ply + 1);
        self.game.undo();
        repeats
    }

    /// A draw for the player to move: the contempt, seen from his side.
    fn draw_score(&self) -> i32 {
        let contempt = self.shared.contempt;
        if self.game.to_move() == self.root_mover { -contempt } else { contempt }
    }

    fn terminal(&self, outcome: Outcome, ply: usize) -> i32 {
        match outcome {
            Outcome::Draw => self.draw_score(),
            Outcome::Win(p) if p == self.game.to_move() => Score::WIN - ply as i32,
            Outcome::Win(_) => -(Score::WIN - ply as i32),
        }
    }

    /// Scores the moves of `ply` for ordering, in the game's order: the search puts them
    /// in order of score as far as it goes ([`order_more`]).
    fn order(&mut self, ply: usize, table_move: Option<G::Move>) {
        let moves = std::mem::take(&mut self.buffers[ply]);
        let mut scored = std::mem::take(&mut self.scratch[ply]);
        scored.clear();
        self.eval.move_priors(&self.game, &moves, &mut self.priors);
        for (&mv, &prior) in moves.iter().zip(&self.priors) {
            let s = if Some(mv) == table_move {
                i32::MAX
            } else if self.killers[ply].contains(&Some(mv)) {
                // The later killer first where they are tried before the list, as they are
                // tried there; else in the game's order, which searched 3-4 % fewer nodes
                // than the later first in GIPF and boop. (depths 6 and 8 from the start).
                (1 << 28)
                    + i32::from(G::LEGALITY_WITHOUT_LISTING && self.killers[ply][0] == Some(mv))
            } else {
                let mut s = prior.clamp(-(1 << 20), 1 << 20) * 64
                    + self.history[move_slot(&mv)].load(Ordering::Relaxed).min(1 << 24);
                if let Some(rng) = &mut self.rng {
                    s += (rng.below(64)) as i32;
                }
                s
            };
            scored.push((s, mv));
        }
        self.buffers[ply] = moves;
        self.scratch[ply] = scored;
    }

    /// The moves of `ply`, listed and scored for ordering ([`Worker::order`]), to be put in
    /// order as the search reaches them; to be handed back to `scratch[ply]`.
    fn list(&mut self, ply: usize, table_move: Option<G::Move>) -> Vec<(i32, G::Move)> {
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        self.game.legal_moves(&mut moves);
        self.buffers[ply] = moves;
        self.order(ply, table_move);
        std::mem::take(&mut self.scratch[ply])
    }

    fn negamax(&mut self, depth: i32, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.count_node();
        if self.aborted {
            return 0;
        }
        if let Some(outcome) = self.game.outcome() {
            return self.terminal(outcome, ply);
        }
        if ply >= MAX_PLY {
            return self.eval.evaluate(&self.game);
        }
        let key = self.game.hash();
        self.line[ply] = key;
        if ply > 0 && self.repeats(key, ply) {
            return self.draw_score();
        }
        if depth <= 0 {
            return self.quiesce(alpha, beta, ply, QUIESCENCE_DEPTH);
        }
        let entry = self.table.probe(key);
        if let Some(e) = entry
            && i32::from(e.depth) >= depth
            && ply > 0
        {
            let s = from_table(e.score, ply);
            match e.bound {
                Bound::Exact => return s,
                Bound::Lower if s >= beta => return s,
                Bound::Upper if s <= alpha => return s,
                _ => {}
            }
        }
        let table_move = entry.and_then(|e| e.best);
        // A forced turn costs no depth (the check extension of chess programs): the moves
        // are few, and a horizon inside a forced sequence would hide where it leads.
        let next = if self.eval.must_force(&self.game) { depth } else { depth - 1 };
        // Futility, one turn from the horizon, where every move leads to a static value:
        // once the evaluator's bound proves that no quiet move can raise alpha, the quiet
        // moves are skipped and count as that bound (ZÈRTZ: after a sacrifice is taken,
        // most of the hundreds of replies that could not win the marbles back). Alpha is
        // read at each move: a move that raised it to the bound makes the quiet moves after
        // it futile too. A quiet move that may come back to a position (PÜNCT's shifts) is
        // skipped only where a draw cannot raise alpha either, or is found to repeat nothing.
        let quiet_bound =
            if next == 0 && ply > 0 { self.eval.quiet_bound(&self.game) } else { None };
        // Where the game can tell a move legal without listing them all, the table move and
        // the killers are tried first, in the order the list would give them, and a node
        // they cut off is never listed (PÜNCT lists thousands of moves a node). The root is
        // always listed: its moves are ordered at once and shared out between threads.
        let mut early = [None; 3];
        if G::LEGALITY_WITHOUT_LISTING && ply > 0 {
            let [first, second] = self.killers[ply];
            let mut tried = 0;
            for mv in [table_move, first, second].into_iter().flatten() {
                if early[..tried].contains(&Some(mv)) || !self.game.legal_without_listing(mv) {
                    continue;
                }
                early[tried] = Some(mv);
                tried += 1;
            }
        }
        let mut scored = Vec::new();
        let mut listed = false;
        let mut sorted = 0;
        let by_score = |&(s, _): &(i32, G::Move)| ordered_bits(s);
        if ply == 0 {
            scored = self.list(ply, table_move);
            listed = true;
            scored.sort_by_key(|s| std::cmp::Reverse(s.0));
            sorted = scored.len();
            if let Some(split) = self.split {
                let result = self.split_root(split, &scored, depth, next, key);
                if let Some(score) = result {
                    self.scratch[ply] = scored;
                    return score;
                }
            }
        }
        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        let mut searched = 0;
        let mut next_early = 0;
        let mut next_listed = 0;
        // Moves passed over while another thread searched their position, searched last.
        let may_defer = depth >= DEFER_DEPTH && !self.shared.busy.is_empty();
        let mut deferred = Vec::new();
        let mut next_deferred = 0;
        loop {
            let mut coming_back = false;
            let mv = if let Some(Some(mv)) = early.get(next_early) {
                next_early += 1;
                *mv
            } else {
                if !listed {
                    scored = self.list(ply, table_move);
                    listed = true;
                }
                if next_listed == scored.len() {
                    let Some(&mv) = deferred.get(next_deferred) else { break };
                    next_deferred += 1;
                    coming_back = true;
                    mv
                } else {
                    // Moves are put in order as the loop reaches them: most nodes are cut off
                    // after a few.
                    if next_listed == sorted {
                        sorted = order_more(&mut scored, sorted, by_score);
                    }
                    let mv = scored[next_listed].1;
                    next_listed += 1;
                    if early.contains(&Some(mv)) {
                        continue;
                    }
                    mv
                }
            };
            if let Some(bound) = quiet_bound
                && bound <= alpha
                && self.eval.is_quiet(&self.game, mv)
                && !(self.draw_score() > alpha
                    && self.eval.quiet_may_repeat(&self.game, mv)
                    && self.repeats_after(mv, ply))
            {
                best = best.max(bound);
                continue;
            }
            // A late quiet move is searched a turn shallower first ([`LateMoveReductions`]);
            // never in a forced turn, which costs no depth.
            let reduce = self.reductions.is_some_and(|r| {
                searched >= r.after
                    && depth >= r.min_depth
                    && next == depth - 1
                    && Some(mv) != table_move
                    && !self.killers[ply].contains(&Some(mv))
                    && !self.eval.is_forcing(&self.game, mv)
            });
            let mover = self.game.to_move();
            self.game.play(mv);
            let same = self.game.to_move() == mover;
            // The first move is searched whatever the other thread does: it sets the bound
            // the rest are searched against.
            // The child's hash is read only where threads may pass over it.
            let busy = may_defer.then(|| {
                let key = self.game.hash();
                (key, self.shared.busy_slot(key))
            });
            if let Some((child_key, slot)) = busy {
                if searched > 0 && !coming_back && slot.load(Ordering::Relaxed) == child_key {
                    self.game.undo();
                    deferred.push(mv);
                    continue;
                }
                slot.store(child_key, Ordering::Relaxed);
            }
            let score = if searched == 0 {
                self.child(same, next, alpha, beta, ply + 1)
            } else {
                let s = if reduce {
                    let shallow = self.child(same, next - 1, alpha, alpha + 1, ply + 1);
                    if shallow > alpha && !self.aborted {
                        self.child(same, next, alpha, alpha + 1, ply + 1)
                    } else {
                        shallow
                    }
                } else {
                    self.child(same, next, alpha, alpha + 1, ply + 1)
                };
                if s > alpha && s < beta && !self.aborted {
                    self.child(same, next, alpha, beta, ply + 1)
                } else {
                    s
                }
            };
            if let Some((child_key, slot)) = busy {
                // Cleared only if still ours: another thread may have taken the slot since.
                let _ = slot.compare_exchange(child_key, 0, Ordering::Relaxed, Ordering::Relaxed);
            }
            self.game.undo();
            searched += 1;
            if self.aborted {
                break;
            }
            if score > best {
                best = score;
                best_move = Some(mv);
                if ply == 0 {
                    self.root_best = Some((mv, score));
                }
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        let k = &mut self.killers[ply];
                        if k[0] != Some(mv) {
                            k[1] = k[0];
                            k[0] = Some(mv);
                        }
                        // Not an atomic addition: a rare lost update between threads costs
                        // nothing, a locked instruction at every cut-off would.
                        let slot = &self.history[move_slot(&mv)];
                        slot.store(slot.load(Ordering::Relaxed) + depth * depth, Ordering::Relaxed);
                        break;
                    }
                }
            }
        }
        if listed {
            self.scratch[ply] = scored;
        }
        if !self.aborted {
            let bound = if best >= beta {
                Bound::Lower
            } else if best > original_alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.table.store(Entry {
                key,
                best: best_move,
                score: to_table(best, ply),
                depth: depth as i16,
                bound,
                generation: self.shared.generation,
            });
        }
        best
    }

    /// The value of the position after a move, for the player who made it: negated only
    /// when the turn passed to the other player.
    fn child(&mut self, same_player: bool, depth: i32, alpha: i32, beta: i32, ply: usize) -> i32 {
        if same_player {
            self.negamax(depth, alpha, beta, ply)
        } else {
            -self.negamax(depth, -beta, -alpha, ply)
        }
    }

    /// Searches a root move: with an open window where `alpha` is minus infinity, else with a
    /// null window at `alpha` and again with an open one above it where that fails high. The
    /// value is exact where it is above `alpha`.
    fn search_root_move(&mut self, mv: G::Move, depth: i32, alpha: i32) -> i32 {
        let mover = self.game.to_move();
        self.game.play(mv);
        let same = self.game.to_move() == mover;
        let score = if alpha == -INFINITY {
            self.child(same, depth, alpha, INFINITY, 1)
        } else {
            let s = self.child(same, depth, alpha, alpha + 1, 1);
            if s > alpha && !self.aborted { self.child(same, depth, alpha, INFINITY, 1) } else { s }
        };
        self.game.undo();
        score
    }

    /// This thread's part of the iteration of `depth` at a root whose moves are shared out
    /// ([`RootSplit`]); `scored` is the root moves in this thread's order, `next` the depth
    /// left after a root move. Returns the iteration's value once every thread is done with
    /// it (or 0 when the search is cut short, with [`Worker::root_best`] set as for an
    /// iteration of one thread), or `None` when this thread cannot take part: another has
    /// already opened a deeper iteration without this one's result (not expected, as all
    /// threads start at depth 1 here), and this thread searches alone.
    fn split_root(
        &mut self,
        split: &Mutex<RootSplit<G::Move>>,
        scored: &[(i32, G::Move)],
        depth: i32,
        next: i32,
        key: u64,
    ) -> Option<i32> {
        let d = depth as u32;
        let first = {
            let mut s = lock(split);
            if let Some(&(mv, score)) = s.result(d) {
                self.root_best = Some((mv, score));
                return Some(score);
            }
            if s.depth > d {
                return None;
            }
            if s.depth < d {
                let mut moves: Vec<G::Move> = scored.iter().map(|&(_, mv)| mv).collect();
                if let Some(&(last, _)) = s.result(d - 1)
                    && let Some(i) = moves.iter().position(|&mv| mv == last)
                {
                    moves[..=i].rotate_right(1);
                }
                s.depth = d;
                s.moves = moves;
                s.next = 1;
                s.in_flight = 0;
                s.best = None;
            }
            s.best.is_none().then(|| s.moves[0])
        };
        if let Some(mv) = first {
            let score = self.search_root_move(mv, next, -INFINITY);
            if self.aborted {
                return Some(self.leave_split(split, d));
            }
            let mut s = lock(split);
            if s.best.is_none() {
                s.best = Some((mv, score));
            }
        }
        loop {
            let claim = {
                let mut s = lock(split);
                match s.best {
                    Some((_, alpha)) if s.next < s.moves.len() => {
                        let i = s.next;
                        s.next += 1;
                        s.in_flight += 1;
                        Some((s.moves[i], alpha))
                    }
                    _ => None,
                }
            };
            let Some((mv, alpha)) = claim else { break };
            let mut taken = Taken { split, settled: false };
            let score = self.search_root_move(mv, next, alpha);
            if self.aborted {
                return Some(self.leave_split(split, d));
            }
            let mut s = lock(split);
            taken.settled = true;
            s.in_flight -= 1;
            if s.best.is_none_or(|(_, best)| score > best) {
                s.best = Some((mv, score));
            }
        }
        // The last moves taken by the other threads: the next iteration starts from the
        // choice of this one, so it waits for them.
        loop {
            {
                let mut s = lock(split);
                if s.result(d).is_none()
                    && s.depth == d
                    && s.in_flight == 0
                    && let Some(best) = s.best
                {
                    let at = d as usize;
                    if s.results.len() <= at {
                        s.results.resize(at + 1, None);
                    }
                    s.results[at] = Some(best);
                }
                if let Some(&(mv, score)) = s.result(d) {
                    drop(s);
                    self.root_best = Some((mv, score));
                    self.table.store(Entry {
                        key,
                        best: Some(mv),
                        score: to_table(score, 0),
                        depth: depth as i16,
                        bound: Bound::Exact,
                        generation: self.shared.generation,
                    });
                    return Some(score);
                }
            }
            self.check_limits();
            if self.aborted {
                return Some(self.leave_split(split, d));
            }
            std::thread::yield_now();
        }
    }

    /// The search was cut short during a shared iteration: this thread's best root move is
    /// the iteration's best so far, as one thread would have had it.
    fn leave_split(&mut self, split: &Mutex<RootSplit<G::Move>>, depth: u32) -> i32 {
        let s = lock(split);
        if s.depth == depth {
            self.root_best = s.best;
        }
        0
    }

    fn quiesce(&mut self, mut alpha: i32, beta: i32, ply: usize, qdepth: u32) -> i32 {
        if let Some(outcome) = self.game.outcome() {
            return self.terminal(outcome, ply);
        }
        // A player who must play a forcing move cannot stand on the static value: his moves
        // are searched for the value, while the depth lasts, and the static value is not
        // needed.
        let forced = qdepth > 0 && ply < MAX_PLY && self.eval.must_force(&self.game);
        let stand = if forced { -INFINITY } else { self.eval.evaluate(&self.game) };
        if !forced
            && (qdepth == 0 || ply >= MAX_PLY || stand >= beta || !self.eval.may_force(&self.game))
        {
            return stand;
        }
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        self.game.legal_moves(&mut moves);
        let (eval, game) = (self.eval, &self.game);
        if !forced {
            moves.retain(|&m| eval.is_forcing(game, m));
        }
        let mut best = if forced && moves.is_empty() { eval.evaluate(game) } else { stand };
        alpha = alpha.max(best);
        for &mv in &moves {
            self.count_node();
            if self.aborted {
                break;
            }
            let mover = self.game.to_move();
            self.game.play(mv);
            let score = if self.game.to_move() == mover {
                self.quiesce(alpha, beta, ply + 1, qdepth - 1)
            } else {
                -self.quiesce(-beta, -alpha, ply + 1, qdepth - 1)
            };
            self.game.undo();
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.buffers[ply] = moves;
        best
    }

    /// The principal variation from the table, checked move by move for legality.
    fn principal_variation(&mut self, first: G::Move, max: usize) -> Vec<G::Move> {
        let mut pv = vec![first];
        let mut game = self.game.clone();
        game.play(first);
        let mut moves = Vec::new();
        let mut seen = vec![game.hash()];
        while pv.len() < max && game.outcome().is_none() {
            let Some(mv) = self.table.probe(game.hash()).and_then(|e| e.best) else { break };
            game.legal_moves(&mut moves);
            if !moves.contains(&mv) {
                break;
            }
            game.play(mv);
            if seen.contains(&game.hash()) {
                pv.push(mv);
                break;
            }
            seen.push(game.hash());
            pv.push(mv);
        }
        pv
    }

    /// Iterative deepening; returns the best move, score and depth of the last completed
    /// iteration (or of the first one if none completed).
    fn iterate(&mut self, max_depth: u32, first_depth: u32) -> (Option<G::Move>, i32, u32) {
        self.iterate_reporting(max_depth, first_depth, None)
    }

    /// [`iterate`](Worker::iterate), calling `report` after every completed iteration.
    fn iterate_reporting(
        &mut self,
        max_depth: u32,
        first_depth: u32,
        mut report: Option<(Instant, Reporter<'_, G::Move>)>,
    ) -> (Option<G::Move>, i32, u32) {
        let mut moves = Vec::new();
        self.game.legal_moves(&mut moves);
        if moves.is_empty() {
            return (None, 0, 0);
        }
        // Threads that share out the root moves go through the iterations together, and
        // search them in the main thread's order: a helper's noise in its move order is
        // there to make it search the same moves differently, which sharing makes needless.
        let first_depth = if self.split.is_some() {
            self.rng = None;
            1
        } else {
            first_depth
        };
        let mut result = (Some(moves[0]), self.eval.evaluate(&self.game), 0);
        for depth in first_depth.max(1)..=max_depth {
            self.root_best = None;
            let score = self.negamax(depth as i32, -INFINITY, INFINITY, 0);
            let best = self.table.probe(self.game.hash()).and_then(|e| e.best);
            if self.aborted {
                // A partial iteration still improves on the last one: its first move (the
                // last iteration's choice) was searched fully, and a later move replaced it
                // only after a full search proved it better. So the best move searched so
                // far is kept, with the depth of the last completed iteration. This matters
                // in games with thousands of moves, where an iteration rarely completes.
                if let Some((mv, s)) = self.root_best {
                    result = (Some(mv), s, result.2);
                    self.partial = Some((mv, s, depth));
                }
                break;
            }
            // This thread's own choice: the table's root entry may be another thread's.
            result = (self.root_best.map(|(mv, _)| mv).or(best).or(result.0), score, depth);
            if let Some(mv) = result.0 {
                self.completed = Some((mv, score, depth));
            }
            if let (Some((start, report)), Some(mv)) = (report.as_mut(), result.0) {
                let pv = self.principal_variation(mv, depth as usize);
                let nodes = self.shared.nodes.load(Ordering::Relaxed) + self.unreported;
                report(&SearchResult {
                    best: Some(mv),
                    score: Score(score),
                    pv,
                    nodes,
                    depth,
                    elapsed: start.elapsed(),
                    stopped: None,
                });
            }
            if score.abs() > Score::PROVEN {
                break;
            }
        }
        result
    }
}

/// A thread's last completed iteration and its cut-short one (see [`Worker`]).
type Iterations<M> = (Option<(M, i32, u32)>, Option<(M, i32, u32)>);

/// The move of a search with helper threads, from the main thread's result and what every
/// helper found.
///
/// The deepest completed iteration of any thread stands, the main thread's when it reached
/// that depth too. A cut-short iteration one deeper improves on it only when the main thread
/// searched it: the main thread starts each iteration with the last one's choice, so its best
/// fully searched move is at least as good as that choice at the new depth. The helpers'
/// best moves of that same iteration then compete with it by score, exact values of the same
/// depth; a helper's cut-short iteration alone is not enough, for it may not have reached
/// the last choice.
///
/// A proof outranks depth: a won or lost score is exact however shallow the iteration that
/// found it (with the table's help a thread may prove a win at depth 2 that a helper's
/// depth-3 iteration, searched before that entry was there, scored as merely good). So the
/// main thread's proof stands, and failing that a helper's proven win, the shortest.
fn combine<M: Copy>(
    main_result: (Option<M>, i32, u32),
    (completed, partial): Iterations<M>,
    helpers: &[Iterations<M>],
) -> (Option<M>, i32, u32) {
    if completed.is_some_and(|c| c.1.abs() > Score::PROVEN) {
        return main_result;
    }
    if let Some((mv, score, depth)) =
        helpers.iter().filter_map(|h| h.0).filter(|c| c.1 > Score::PROVEN).max_by_key(|c| c.1)
    {
        return (Some(mv), score, depth);
    }
    let deepest_helper = helpers.iter().filter_map(|h| h.0).max_by_key(|c| c.2);
    let main_depth = completed.map_or(0, |c| c.2);
    if let Some((mv, score, depth)) = deepest_helper
        && depth > main_depth
    {
        return (Some(mv), score, depth);
    }
    let Some((mv, score, depth)) = partial else { return main_result };
    let better = helpers
        .iter()
        .filter_map(|h| h.1)
        .filter(|p| p.2 == depth)
        .fold((mv, score), |best, p| if p.1 > best.1 { (p.0, p.1) } else { best });
    (Some(better.0), better.1, main_result.2)
}

impl<G: Evaluate, E: Evaluator<G>> Searcher<G> for AlphaBeta<G, E> {
    fn search(
        &mut self,
        game: &G,
        limits: &Limits,
        stop: &Arc<AtomicBool>,
    ) -> SearchResult<G::Move> {
        self.search_reporting(game, limits, stop, &mut |_| {})
    }

    /// Reports after every completed iteration of the main thread.
    fn search_reporting(
        &mut self,
        game: &G,
        limits: &Limits,
        stop: &Arc<AtomicBool>,
        report: &mut dyn FnMut(&SearchResult<G::Move>),
    ) -> SearchResult<G::Move> {
        let start = Instant::now();
        self.generation = self.generation.wrapping_add(1);
        let threads = self.threads;
        let mut root_moves = Vec::new();
        game.legal_moves(&mut root_moves);
        let shares_root = threads > 1 && root_moves.len() >= SPLIT_ROOT_MOVES;
        let shared = Shared {
            stop,
            done: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            deadline: limits.time.map(|t| start + t),
            node_limit: limits.nodes,
            generation: self.generation,
            contempt: self.contempt,
            repeats_draw: G::REPETITION_DRAWS || self.no_progress,
            busy: if threads > 1 && !shares_root {
                (0..BUSY_SLOTS).map(|_| AtomicU64::new(0)).collect()
            } else {
                Vec::new()
            },
            earlier: if self.no_progress && !G::REPETITION_DRAWS {
                earlier_positions(game)
            } else {
                Vec::new()
            },
        };
        let max_depth = limits.depth.unwrap_or(MAX_PLY as u32 - 1).min(MAX_PLY as u32 - 1);
        let table = &*self.table;
        let eval = &self.eval;
        let split = Mutex::new(RootSplit::new());
        let split = shares_root.then_some(&split);
        let histories: Vec<Vec<AtomicI32>> = (0..if shares_root { 1 } else { threads })
            .map(|_| (0..HISTORY_SIZE).map(|_| AtomicI32::new(0)).collect())
            .collect();
        let history = |id: usize| &histories[if shares_root { 0 } else { id }][..];
        let (best, score, depth, pv, nodes, aborted) = std::thread::scope(|scope| {
            let helpers: Vec<_> = (1..threads)
                .map(|id| {
                    let shared = &shared;
                    let game = game.clone();
                    let seed = self.seed ^ (id as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
                    scope.spawn(move || {
                        let rng = Some(Rng::new(seed));
                        let mut helper = Worker::new(game, eval, table, shared, history(id), rng);
                        helper.split = split;
                        helper.iterate(max_depth, 1 + (id as u32 % 2));
                        shared.nodes.fetch_add(helper.unreported, Ordering::Relaxed);
                        (helper.completed, helper.partial)
                    })
                })
                .collect();
            let mut main = Worker::new(game.clone(), eval, table, &shared, history(0), None);
            main.split = split;
            let (best, score, depth) = main.iterate_reporting(max_depth, 1, Some((start, report)));
            shared.done.store(true, Ordering::Relaxed);
            shared.nodes.fetch_add(main.unreported, Ordering::Relaxed);
            main.unreported = 0;
            // A helper that panicked contributes nothing; the main thread's result stands.
            let others: Vec<_> = helpers.into_iter().filter_map(|h| h.join().ok()).collect();
            let (best, score, depth) =
                combine((best, score, depth), (main.completed, main.partial), &others);
            let pv = best
                .map(|b| main.principal_variation(b, depth.max(1) as usize))
                .unwrap_or_default();
            (best, score, depth, pv, main.nodes, main.aborted)
        });
        let total = shared.nodes.load(Ordering::Relaxed).max(nodes);
        let stopped = if best.is_none() {
            Stop::Over
        } else if !aborted {
            if score.abs() > Score::PROVEN { Stop::Proven } else { Stop::Depth }
        } else if stop.load(Ordering::Relaxed) {
            Stop::Stopped
        } else if shared.deadline.is_some_and(|d| Instant::now() >= d) {
            Stop::Time
        } else {
            Stop::Nodes
        };
        SearchResult {
            best,
            score: Score(score),
            pv,
            nodes: total,
            depth,
            elapsed: start.elapsed(),
            stopped: Some(stopped),
        }
    }

    fn clear(&mut self) {
        self.table.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::{HISTORY_SIZE, combine, move_slot};
    use crate::Score;

    /// Moves that differ in one small field, and moves written as bytes (a GIPF move's
    /// rows), spread over the history table as a random function would: no slot crowded,
    /// few shared.
    #[test]
    fn move_slots_spread() {
        let small: Vec<(u8, u8, u16)> =
            (0..40u8).flat_map(|a| (0..50u8).map(move |b| (a, b, 7))).collect();
        let bytes: Vec<[u8; 27]> = (0..2000u32)
            .map(|i| {
                let mut m = [0u8; 27];
                m[26] = (i % 7) as u8;
                m[13] = (i / 7 % 17) as u8;
                m[0] = (i / 119) as u8;
                m
            })
            .collect();
        for slots in [
            small.iter().map(move_slot).collect::<Vec<_>>(),
            bytes.iter().map(move_slot).collect::<Vec<_>>(),
        ] {
            let mut count = vec![0u32; HISTORY_SIZE];
            for &s in &slots {
                count[s] += 1;
            }
            let used = count.iter().filter(|&&c| c > 0).count();
            // 2,000 moves in 4,096 slots: a random function uses about 1,597.
            assert!(used > 1_500, "{used} slots used by 2,000 moves");
            assert!(*count.iter().max().unwrap() <= 6, "a crowded slot");
        }
    }

    // Moves are numbers here; an iteration is (move, score, depth).
    const MAIN: (Option<u8>, i32, u32) = (Some(1), 10, 6);

    #[test]
    fn the_deepest_completed_iteration_stands() {
        let helper = (Some((2, 30, 7)), None);
        assert_eq!(combine(MAIN, (Some((1, 10, 6)), None), &[helper]), (Some(2), 30, 7));
        // Not deeper: the main thread's result stands, whatever the score.
        let helper = (Some((2, 90, 6)), None);
        assert_eq!(combine(MAIN, (Some((1, 10, 6)), None), &[helper]), MAIN);
    }

    #[test]
    fn a_proof_stands_over_a_deeper_iteration_that_did_not_find_it() {
        // The main thread proved a win in 5 at depth 2 (a helper's table entries helped);
        // the helper's depth-3 iteration, done before, saw only a good position.
        let win_in_5 = Score::WIN - 5;
        let main = (Some(1), win_in_5, 2);
        let helper = (Some((2, 562, 3)), None);
        assert_eq!(combine(main, (Some((1, win_in_5, 2)), None), &[helper]), main);
        // A proven loss of the main thread stands as well.
        let lost = (Some(1), -win_in_5, 2);
        assert_eq!(combine(lost, (Some((1, -win_in_5, 2)), None), &[helper]), lost);
        // A helper's proven win stands over the main thread's unproven deeper iteration,
        // the shortest of two.
        let helpers = [(Some((2, win_in_5, 3)), None), (Some((3, Score::WIN - 3, 2)), None)];
        let main_result = (Some(1), 10, 6);
        assert_eq!(
            combine(main_result, (Some((1, 10, 6)), None), &helpers),
            (Some(3), Score::WIN - 3, 2)
        );
    }

    #[test]
    fn a_helper_improves_a_cut_short_iteration_only_beside_the_main_thread() {
        let main = (Some((1, 10, 6)), Some((3, 12, 7)));
        let main_result = (Some(3), 12, 6);
        // A better move of the same iteration wins by score, at the completed depth.
        let helper = (Some((1, 10, 6)), Some((4, 15, 7)));
        assert_eq!(combine(main_result, main, &[helper]), (Some(4), 15, 6));
        // A worse one, or one of another iteration, does not.
        let worse = (None, Some((4, 11, 7)));
        let other = (None, Some((5, 99, 8)));
        assert_eq!(combine(main_result, main, &[worse, other]), main_result);
        // Without the main thread's cut-short iteration, a helper's is not enough.
        let helper = (None, Some((4, 99, 7)));
        assert_eq!(combine(MAIN, (Some((1, 10, 6)), None), &[helper]), MAIN);
    }
}
