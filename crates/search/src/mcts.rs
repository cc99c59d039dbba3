//! Monte-Carlo tree search: PUCT selection with the game's priors, static evaluation at new
//! leaves (no random playouts), a solver for proven results, tree reuse between moves and
//! root parallelism (one tree per thread, visits merged at the root).

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use ply_core::{Evaluate, Evaluator, Game, Outcome, Player};

use crate::ordering::order_more;
use crate::{Limits, Rng, Score, SearchResult, Searcher, Stop};

/// A result known for sure, from the point of view of the player to move at the node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Proven {
    Unknown,
    Win,
    Draw,
    Loss,
}

impl Proven {
    fn value(self) -> f32 {
        match self {
            Proven::Win => 1.0,
            Proven::Loss => -1.0,
            Proven::Draw | Proven::Unknown => 0.0,
        }
    }
    fn flipped(self) -> Proven {
        match self {
            Proven::Win => Proven::Loss,
            Proven::Loss => Proven::Win,
            p => p,
        }
    }
}

struct Node<M> {
    to_move: Player,
    hash: u64,
    visits: u32,
    /// Sum of values from `to_move`'s point of view.
    value_sum: f32,
    proven: Proven,
    expanded: bool,
    /// Legal moves with their prior probabilities: `moves[..sorted]` most likely first, the
    /// rest in the order the game listed them (see [`order_more`]).
    moves: Vec<(M, f32)>,
    sorted: u32,
    /// Nodes of `moves[..children.len()]`; children are created in prior order.
    children: Vec<u32>,
}

impl<M> Node<M> {
    fn q(&self) -> f32 {
        if self.proven != Proven::Unknown {
            self.proven.value()
        } else if self.visits == 0 {
            0.0
        } else {
            self.value_sum / self.visits as f32
        }
    }
}

struct Tree<G: Game, E> {
    eval: E,
    nodes: Vec<Node<G::Move>>,
    root_game: Option<G>,
    bytes: usize,
    rng: Rng,
    /// The moves, raw priors and moves that may win of the node being expanded, kept
    /// between expansions so that thousands of moves are not gathered into a new, growing
    /// vector each time.
    scratch: (Vec<G::Move>, Vec<i32>, Vec<u32>),
}

/// MCTS; see the module documentation. `E` scores the leaves and gives the priors: the
/// game's own evaluator unless [`with_evaluator`](Mcts::with_evaluator) says otherwise.
pub struct Mcts<G: Evaluate, E: Evaluator<G> = <G as Evaluate>::Evaluator> {
    eval: E,
    trees: Vec<Tree<G, E>>,
    exploration: f32,
    memory: usize,
    seed: u64,
    reuse: bool,
}

/// The settings of one tree's share of a search.
#[derive(Clone, Copy)]
struct Run {
    exploration: f32,
    budget: Option<u64>,
    deadline: Option<Instant>,
    memory: usize,
    noise: bool,
}

/// Root statistics of one tree: per move, visits and value for the root player, proven.
type RootStats<M> = Vec<(M, u32, f32, Proven)>;

/// What one tree's share of a search gives: its root statistics, playouts and why it stopped.
type TreeResult<M> = (RootStats<M>, (u64, Stop));

impl<G: Evaluate> Mcts<G> {
    /// A searcher with the game's own evaluator, using at most `memory_mb` MiB for its
    /// trees, with `threads` trees.
    #[must_use]
    pub fn new(memory_mb: usize, threads: usize) -> Mcts<G> {
        Mcts::with_evaluator(G::evaluator(), memory_mb, threads)
    }
}

impl<G: Evaluate, E: Evaluator<G>> Mcts<G, E> {
    /// The memory the trees hold now, in bytes (as counted by the search, which keeps it
    /// within the configured size plus one node's expansion).
    #[must_use]
    pub fn tree_bytes(&self) -> usize {
        self.trees.iter().map(|t| t.bytes).sum()
    }

    /// A searcher with evaluator `eval`, using at most `memory_mb` MiB for its trees, with
    /// `threads` trees.
    #[must_use]
    pub fn with_evaluator(eval: E, memory_mb: usize, threads: usize) -> Mcts<G, E> {
        let threads = threads.max(1);
        Mcts {
            trees: (0..threads).map(|i| Tree::new(i as u64, eval.clone())).collect(),
            eval,
            exploration: 1.5,
            memory: memory_mb.max(1) << 20,
            seed: 0,
            reuse: true,
        }
    }

    /// The seed of the small prior noise that decorrelates the trees of several threads (the
    /// first tree has none, so one thread is fully determined by the node limit).
    #[must_use]
    pub fn with_seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        for (i, t) in self.trees.iter_mut().enumerate() {
            t.rng = Rng::new(seed ^ (i as u64).wrapping_mul(0xA24B_AED4_963E_E407));
        }
        self
    }

    /// Replaces the evaluator (a kept tree holds values of the old one).
    pub fn set_evaluator(&mut self, eval: E) {
        for t in &mut self.trees {
            t.eval = eval.clone();
        }
        self.eval = eval;
    }

    /// The evaluator.
    #[must_use]
    pub fn evaluator(&self) -> &E {
        &self.eval
    }

    /// Whether to keep the relevant part of the tree between searches (default: yes).
    #[must_use]
    pub fn with_reuse(mut self, reuse: bool) -> Self {
        self.reuse = reuse;
        self
    }

    /// The exploration constant of PUCT (default 1.5).
    #[must_use]
    pub fn with_exploration(mut self, c: f32) -> Self {
        self.exploration = c;
        self
    }
}

fn node_bytes<M>(moves: usize, children: usize) -> usize {
    std::mem::size_of::<Node<M>>() + moves * std::mem::size_of::<(M, f32)>() + children * 4
}

impl<G: Game, E: Evaluator<G>> Tree<G, E> {
    fn new(seed: u64, eval: E) -> Self {
        Tree {
            eval,
            nodes: Vec::new(),
            root_game: None,
            bytes: 0,
            rng: Rng::new(seed),
            scratch: (Vec::new(), Vec::new(), Vec::new()),
        }
    }

    fn new_node(game: &G) -> Node<G::Move> {
        let proven = match game.outcome() {
            None => Proven::Unknown,
            Some(Outcome::Draw) => Proven::Draw,
            Some(Outcome::Win(p)) if p == game.to_move() => Proven::Win,
            Some(Outcome::Win(_)) => Proven::Loss,
        };
        Node {
            to_move: game.to_move(),
            hash: game.hash(),
            visits: 0,
            value_sum: 0.0,
            proven,
            expanded: false,
            moves: Vec::new(),
            sorted: 0,
            children: Vec::new(),
        }
    }

    /// Makes `game` the root, keeping the subtree of an earlier search when `game` is the
    /// old root or a position one or two turns below it.
    fn set_root(&mut self, game: &G, reuse: bool) {
        let found = if reuse && !self.nodes.is_empty() {
            let matches = |n: &Node<G::Move>| n.hash == game.hash() && n.to_move == game.to_move();
            let root = &self.nodes[0];
            if matches(root)
                && self.root_game.as_ref().is_some_and(|g| g.turns_played() == game.turns_played())
            {
                Some(0)
            } else {
                root.children
                    .iter()
                    .map(|&c| c as usize)
                    .find(|&c| matches(&self.nodes[c]))
                    .or_else(|| {
                        root.children
                            .iter()
                            .flat_map(|&c| self.nodes[c as usize].children.iter())
                            .map(|&g| g as usize)
                            .find(|&g| matches(&self.nodes[g]))
                    })
            }
        } else {
            None
        };
        match found {
            Some(0) => {}
            Some(index) => self.compact(index, 0),
            None => {
                self.nodes.clear();
                self.nodes.push(Self::new_node(game));
                self.bytes = node_bytes::<G::Move>(0, 0);
            }
        }
        self.root_game = Some(game.clone());
    }

    /// The bytes the tree would hold after [`compact`](Tree::compact)`(0, threshold)`.
    fn bytes_kept(&self, threshold: u32) -> usize {
        let mut bytes = 0;
        let mut stack = vec![0usize];
        while let Some(n) = stack.pop() {
            let node = &self.nodes[n];
            if n == 0 || node.visits >= threshold {
                bytes += node_bytes::<G::Move>(node.moves.len(), node.children.len());
                stack.extend(node.children.iter().map(|&c| c as usize));
            } else {
                bytes += node_bytes::<G::Move>(0, 0);
            }
        }
        bytes
    }

    /// Keeps only the subtree under `index`, renumbered with it as the root, and forgets the
    /// moves and children of every node below it visited fewer than `threshold` times. Such a
    /// node keeps its visits, value and proven result, and is expanded again if a playout
    /// comes back to it: what is lost is the statistics of its rarely visited subtree.
    fn compact(&mut self, index: usize, threshold: u32) {
        let mut old = std::mem::take(&mut self.nodes);
        let mut map: HashMap<u32, u32> = HashMap::new();
        let mut order = vec![index as u32];
        let mut i = 0;
        while i < order.len() {
            let n = order[i];
            map.insert(n, i as u32);
            let node = &old[n as usize];
            if i == 0 || node.visits >= threshold {
                order.extend(node.children.iter().copied());
            }
            i += 1;
        }
        self.bytes = 0;
        self.nodes.reserve_exact(order.len());
        for (i, &n) in order.iter().enumerate() {
            let mut node = std::mem::replace(
                &mut old[n as usize],
                Node {
                    to_move: Player::P1,
                    hash: 0,
                    visits: 0,
                    value_sum: 0.0,
                    proven: Proven::Unknown,
                    expanded: false,
                    moves: Vec::new(),
                    sorted: 0,
                    children: Vec::new(),
                },
            );
            if i == 0 || node.visits >= threshold {
                for c in &mut node.children {
                    *c = map[c];
                }
            } else {
                node.moves = Vec::new();
                node.sorted = 0;
                node.children = Vec::new();
                node.expanded = false;
            }
            self.bytes += node_bytes::<G::Move>(node.moves.len(), node.children.len());
            self.nodes.push(node);
        }
    }

    /// Frees memory for the search to go on: forgets the subtrees of the least visited nodes
    /// (the smallest power-of-two visit threshold that brings the tree to `target` bytes).
    /// `false` when even a tree of the root's children alone would not fit.
    fn prune(&mut self, target: usize) -> bool {
        let mut threshold = 2u32;
        loop {
            if self.bytes_kept(threshold) <= target {
                self.compact(0, threshold);
                return true;
            }
            if threshold > self.nodes[0].visits {
                return false;
            }
            threshold = threshold.saturating_mul(2);
        }
    }

    /// Lists a node's moves with their priors. A move that wins on the spot is put first
    /// and its child created at once, so the solver proves the node won without waiting for
    /// the priors to lead there (the priors cannot see wins).
    fn expand(&mut self, index: usize, game: &mut G, noise: bool) {
        let (mut moves, mut raw, mut candidates) = std::mem::take(&mut self.scratch);
        game.legal_moves(&mut moves);
        let mover = game.to_move();
        self.eval.moves_that_may_win(game, &moves, &mut candidates);
        let winning = candidates.iter().map(|&i| i as usize).find(|&i| {
            game.play(moves[i]);
            let won = game.outcome() == Some(Outcome::Win(mover));
            game.undo();
            won
        });
        self.eval.move_priors(game, &moves, &mut raw);
        let logit = |p: i32| p as f32 / 100.0;
        let max = raw.iter().map(|&p| logit(p)).fold(f32::NEG_INFINITY, f32::max);
        // Priors take few distinct values (thousands of moves, a few dozen values): each
        // one's exponential is remembered, the same number computed once.
        let mut known: [Option<(i32, f32)>; 64] = [None; 64];
        let mut priors: Vec<(G::Move, f32)> = moves
            .iter()
            .zip(&raw)
            .map(|(&m, &p)| {
                let slot = &mut known[(p & 63) as usize];
                let e = match *slot {
                    Some((q, e)) if q == p => e,
                    _ => {
                        let e = (logit(p) - max).exp();
                        *slot = Some((p, e));
                        e
                    }
                };
                let jitter = if noise { 1.0 + 0.1 * self.rng.unit() as f32 } else { 1.0 };
                (m, e * jitter)
            })
            .collect();
        let total: f32 = priors.iter().map(|p| p.1).sum();
        for p in &mut priors {
            p.1 /= total;
        }
        // The moves stay in the game's order (a winning one first): selection orders them a
        // chunk at a time, as visits reach them.
        let mut sorted = 0;
        if let Some(w) = winning {
            let entry = priors.remove(w);
            priors.insert(0, (entry.0, 1.0));
            sorted = 1;
        }
        self.bytes += priors.len() * std::mem::size_of::<(G::Move, f32)>();
        let node = &mut self.nodes[index];
        node.moves = priors;
        node.sorted = sorted;
        node.expanded = true;
        if let Some(w) = winning {
            game.play(moves[w]);
            let child = Self::new_node(game);
            game.undo();
            self.nodes.push(child);
            self.bytes += node_bytes::<G::Move>(0, 1);
            let id = (self.nodes.len() - 1) as u32;
            self.nodes[index].children.push(id);
            self.nodes[index].proven = Proven::Win;
        }
        self.scratch = (moves, raw, candidates);
    }

    /// Puts more of node `index`'s moves in prior order ([`order_more`]).
    fn sort_more(&mut self, index: usize) {
        let node = &mut self.nodes[index];
        // A non-negative float orders as its bits.
        node.sorted =
            order_more(&mut node.moves, node.sorted as usize, |&(_, p)| p.to_bits()) as u32;
    }

    /// The index into `moves` to follow from node `index`.
    fn select(&self, index: usize, c: f32) -> usize {
        let node = &self.nodes[index];
        let sqrt_n = (node.visits.max(1) as f32).sqrt();
        let parent_q = node.q();
        let mut best = (f32::NEG_INFINITY, 0);
        for (i, &child) in node.children.iter().enumerate() {
            let ch = &self.nodes[child as usize];
            let same = ch.to_move == node.to_move;
            let q = if same { ch.q() } else { -ch.q() };
            let proven = if same { ch.proven } else { ch.proven.flipped() };
            let score = match proven {
                Proven::Win => f32::INFINITY,
                // Proven losses are avoided while anything else is left.
                Proven::Loss => -1e9 + i as f32 * 1e-3,
                _ => q + c * node.moves[i].1 * sqrt_n / (1.0 + ch.visits as f32),
            };
            if score > best.0 {
                best = (score, i);
            }
        }
        let next = node.children.len();
        if next < node.moves.len() {
            // First-play urgency: an untried move is assumed a little worse than the parent.
            let score = (parent_q - 0.3) + c * node.moves[next].1 * sqrt_n;
            if score > best.0 {
                best = (score, next);
            }
        }
        best.1
    }

    /// Re-derives a node's proven result from its children.
    fn update_proven(&mut self, index: usize) {
        let node = &self.nodes[index];
        if node.proven != Proven::Unknown || !node.expanded {
            return;
        }
        let mut all = node.children.len() == node.moves.len();
        let mut best = Proven::Loss;
        for &c in &node.children {
            let ch = &self.nodes[c as usize];
            let p = if ch.to_move == node.to_move { ch.proven } else { ch.proven.flipped() };
            match p {
                Proven::Win => {
                    self.nodes[index].proven = Proven::Win;
                    return;
                }
                Proven::Unknown => all = false,
                Proven::Draw => best = Proven::Draw,
                Proven::Loss => {}
            }
        }
        if all {
            self.nodes[index].proven = best;
        }
    }

    /// One playout: select down to a new leaf, evaluate it, back the value up.
    fn playout(&mut self, game: &mut G, c: f32, noise: bool, path: &mut Vec<usize>) {
        path.clear();
        path.push(0);
        let mut played = 0;
        let (value, leaf_player) = loop {
            let index = *path.last().expect("root");
            let node = &self.nodes[index];
            if node.proven != Proven::Unknown {
                break (node.proven.value(), node.to_move);
            }
            if node.visits == 0 && index != 0 {
                let v = (self.eval.evaluate(game) as f32 / self.eval.value_scale()).tanh();
                break (v, node.to_move);
            }
            if !node.expanded {
                self.expand(index, game, noise);
                if self.nodes[index].proven != Proven::Unknown {
                    break (self.nodes[index].proven.value(), self.nodes[index].to_move);
                }
            }
            let node = &self.nodes[index];
            if node.children.len() >= node.sorted as usize {
                self.sort_more(index);
            }
            let i = self.select(index, c);
            let mv = self.nodes[index].moves[i].0;
            game.play(mv);
            played += 1;
            let child = if i == self.nodes[index].children.len() {
                let n = Self::new_node(game);
                self.nodes.push(n);
                self.bytes += node_bytes::<G::Move>(0, 1);
                let id = (self.nodes.len() - 1) as u32;
                self.nodes[index].children.push(id);
                id as usize
            } else {
                self.nodes[index].children[i] as usize
            };
            path.push(child);
        };
        for _ in 0..played {
            game.undo();
        }
        for &index in path.iter().rev() {
            let node = &mut self.nodes[index];
            node.visits += 1;
            node.value_sum += if node.to_move == leaf_player { value } else { -value };
        }
        for &index in path.iter().rev().skip(1) {
            self.update_proven(index);
        }
    }

    /// Playouts until a limit is reached; their number and the limit. A full tree is pruned
    /// to half its memory and the search goes on.
    /// A tree that proves the root raises `solved`, and the others stop with it.
    fn run(&mut self, game: &G, run: &Run, stop: &AtomicBool, solved: &AtomicBool) -> (u64, Stop) {
        let Run { exploration: c, budget, deadline, memory, noise } = *run;
        let mut game = game.clone();
        let mut path = Vec::new();
        let mut done = 0u64;
        let stopped = loop {
            if self.nodes[0].proven != Proven::Unknown {
                solved.store(true, Ordering::Relaxed);
                break Stop::Proven;
            }
            if solved.load(Ordering::Relaxed) {
                break Stop::Proven;
            }
            if budget.is_some_and(|b| done >= b) {
                break Stop::Nodes;
            }
            if stop.load(Ordering::Relaxed) {
                break Stop::Stopped;
            }
            if deadline.is_some_and(|d| Instant::now() >= d) {
                break Stop::Time;
            }
            if self.bytes >= memory && !self.prune(memory / 2) {
                break Stop::Memory;
            }
            self.playout(&mut game, c, noise, &mut path);
            done += 1;
        };
        (done, stopped)
    }

    fn root_stats(&self) -> RootStats<G::Move> {
        let root = &self.nodes[0];
        root.children
            .iter()
            .enumerate()
            .map(|(i, &c)| {
                let ch = &self.nodes[c as usize];
                let same = ch.to_move == root.to_move;
                let q = if same { ch.q() } else { -ch.q() };
                let p = if same { ch.proven } else { ch.proven.flipped() };
                (root.moves[i].0, ch.visits, q, p)
            })
            .collect()
    }

    fn principal_variation(&self, max: usize) -> Vec<G::Move> {
        let mut pv = Vec::new();
        let mut index = 0;
        while pv.len() < max {
            let node = &self.nodes[index];
            let best = node.children.iter().enumerate().max_by_key(|&(_, &c)| {
                let ch = &self.nodes[c as usize];
                let p = if ch.to_move == node.to_move { ch.proven } else { ch.proven.flipped() };
                (p == Proven::Win, ch.visits)
            });
            match best {
                Some((i, &c)) if self.nodes[c as usize].visits > 0 => {
                    pv.push(node.moves[i].0);
                    index = c as usize;
                }
                _ => break,
            }
        }
        pv
    }
}

impl<G: Evaluate, E: Evaluator<G>> Searcher<G> for Mcts<G, E> {
    fn search(
        &mut self,
        game: &G,
        limits: &Limits,
        stop: &Arc<AtomicBool>,
    ) -> SearchResult<G::Move> {
        let start = Instant::now();
        let deadline = limits.time.map(|t| start + t);
        let threads = self.trees.len();
        let budget = limits.nodes.map(|n| n.div_ceil(threads as u64));
        let memory = self.memory / threads;
        let (c, reuse, scale) = (self.exploration, self.reuse, self.eval.value_scale());
        let mut legal = Vec::new();
        game.legal_moves(&mut legal);
        if legal.is_empty() {
            return SearchResult {
                best: None,
                score: Score(0),
                pv: Vec::new(),
                nodes: 0,
                depth: 0,
                elapsed: start.elapsed(),
                stopped: Some(Stop::Over),
            };
        }
        let solved = AtomicBool::new(false);
        let results: Vec<TreeResult<G::Move>> = std::thread::scope(|scope| {
            let handles: Vec<_> = self
                .trees
                .iter_mut()
                .enumerate()
                .map(|(i, tree)| {
                    let stop = &**stop;
                    let solved = &solved;
                    scope.spawn(move || {
                        tree.set_root(game, reuse);
                        let run = Run { exploration: c, budget, deadline, memory, noise: i > 0 };
                        let n = tree.run(game, &run, stop, solved);
                        (tree.root_stats(), n)
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().expect("search thread")).collect()
        });
        // Merge the trees' root statistics move by move.
        let mut merged: Vec<(G::Move, u32, f32, Proven)> = Vec::new();
        let mut nodes = 0;
        for (stats, (n, _)) in &results {
            nodes += n;
            for &(mv, visits, q, p) in stats {
                match merged.iter_mut().find(|m| m.0 == mv) {
                    Some(m) => {
                        let total = m.1 + visits;
                        if total > 0 {
                            m.2 = (m.2 * m.1 as f32 + q * visits as f32) / total as f32;
                        }
                        m.1 = total;
                        if p != Proven::Unknown {
                            m.3 = p;
                        }
                    }
                    None => merged.push((mv, visits, q, p)),
                }
            }
        }
        let best = merged
            .iter()
            .max_by(|a, b| {
                let key = |m: &(G::Move, u32, f32, Proven)| {
                    (m.3 == Proven::Win, m.3 != Proven::Loss, m.1)
                };
                key(a).cmp(&key(b)).then(a.2.partial_cmp(&b.2).unwrap_or(std::cmp::Ordering::Equal))
            })
            .copied();
        let tree = &self.trees[0];
        let root_proven = tree.nodes[0].proven;
        let (best_move, score) = match best {
            None => (legal[0], Score(0)),
            Some((mv, _, q, p)) => {
                let pv_len = tree.principal_variation(64).len() as u32;
                let score = match (root_proven, p) {
                    (Proven::Win, _) | (_, Proven::Win) => Score::win_in(pv_len.max(1)),
                    (Proven::Loss, _) => Score::loss_in(pv_len.max(1)),
                    _ => {
                        let q = q.clamp(-0.999, 0.999);
                        Score((q.atanh() * scale).round() as i32)
                    }
                };
                (mv, score)
            }
        };
        let mut pv = tree.principal_variation(32);
        if pv.first() != Some(&best_move) {
            pv = vec![best_move];
        }
        SearchResult {
            best: Some(best_move),
            score,
            depth: pv.len() as u32,
            pv,
            nodes,
            elapsed: start.elapsed(),
            // The first tree's reason: the others stop for the same limits, or when it does.
            stopped: Some(results[0].1.1),
        }
    }

    fn clear(&mut self) {
        for t in &mut self.trees {
            t.nodes.clear();
            t.root_game = None;
            t.bytes = 0;
        }
    }
}
