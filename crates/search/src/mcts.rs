//! Monte-Carlo tree search: PUCT selection with the game's priors, static evaluation at new
//! leaves (no random playouts), a solver for proven results, tree reuse between moves and
//! tree parallelism: every thread plays out in one shared tree.
//!
//! The threads share the tree behind one lock, held only to walk down it and to back a value
//! up; a leaf's evaluation and a node's expansion (its moves and their priors, most of a
//! playout's cost) are computed outside it. A thread marks its path with a virtual loss while
//! it is out, so that the others look elsewhere, and a node being expanded by one thread is
//! evaluated, not expanded again, by another that reaches it meanwhile.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

use ply_core::{Evaluate, Evaluator, Game, Outcome, Player};

use crate::ordering::order_more;
use crate::{Limits, Score, SearchResult, Searcher, Stop};

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

/// How far a node has come. The stages exclude each other (and so fit in one byte beside the
/// node's other small fields).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// Created by a thread that has yet to play the move to it (outside the lock): its player
    /// to move, hash and result are not known yet, and no other thread enters it.
    Pending,
    /// Known, its moves not listed (yet, or again after pruning).
    Unexpanded,
    /// A thread is listing its moves outside the lock; others evaluate it meanwhile.
    Expanding,
    /// Its moves are listed.
    Expanded,
}

struct Node<M> {
    to_move: Player,
    hash: u64,
    visits: u32,
    /// Sum of values from `to_move`'s point of view.
    value_sum: f32,
    proven: Proven,
    stage: Stage,
    /// Legal moves with their prior probabilities: `moves[..sorted]` most likely first, the
    /// rest in the order the game listed them (see [`order_more`]).
    moves: Vec<(M, f32)>,
    sorted: u32,
    /// Nodes of `moves[..children.len()]`; children are created in prior order.
    children: Vec<u32>,
}

impl<M> Node<M> {
    /// A node that knows nothing yet.
    fn blank() -> Node<M> {
        Node {
            to_move: Player::P1,
            hash: 0,
            visits: 0,
            value_sum: 0.0,
            proven: Proven::Unknown,
            stage: Stage::Unexpanded,
            moves: Vec::new(),
            sorted: 0,
            children: Vec::new(),
        }
    }

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

struct Tree<G: Game> {
    nodes: Vec<Node<G::Move>>,
    root_game: Option<G>,
    bytes: usize,
    /// Playouts begun in this search, by all threads.
    begun: u64,
    /// Playouts begun and not yet backed up: their paths hold node indices, so the tree is
    /// pruned (renumbered) only when none is out.
    out: usize,
}

/// The moves and priors that expanding a node found, computed outside the lock.
struct Expansion<M> {
    moves: Vec<(M, f32)>,
    /// How many of `moves` are in prior order (a winning move first, or none).
    sorted: u32,
    /// The child of a move that wins on the spot, created at once.
    winning: Option<Node<M>>,
}

/// How a playout's walk down the tree ends.
enum Leaf {
    /// A proven result: its value for `Player`.
    Known(f32, Player),
    /// Another thread is listing the moves of the node at the end of the path, or creating its
    /// chosen child: the playout is given up and tried again.
    Busy,
    /// The node at the end of the path, visited before, must list its moves before the walk
    /// goes on.
    Expand,
    /// The node at the end of the path is new and pending: the move to it must be played to
    /// know what it is.
    New,
}

/// One thread's own tools: its evaluator, its copy of the game, its path down the tree and
/// the lists it fills when expanding (kept between expansions so that thousands of moves are
/// not gathered into a new, growing vector each time).
struct Worker<G: Game, E> {
    eval: E,
    game: G,
    walk: Walk<G::Move>,
    scratch: (Vec<G::Move>, Vec<i32>, Vec<u32>),
}

/// A playout's way down the tree: the nodes (with the virtual value each was marked with),
/// the moves between them, and how many of those the thread's game has played. The moves are
/// chosen under the lock and played outside it.
struct Walk<M> {
    path: Vec<(usize, f32)>,
    moves: Vec<M>,
    played: usize,
    /// `path[..marked]` carries this playout's virtual loss.
    marked: usize,
}

impl<M> Walk<M> {
    fn new() -> Walk<M> {
        Walk { path: Vec::new(), moves: Vec::new(), played: 0, marked: 0 }
    }

    /// Back at the root, with nothing played or marked.
    fn start(&mut self) {
        self.path.clear();
        self.path.push((0, 0.0));
        self.moves.clear();
        (self.played, self.marked) = (0, 0);
    }

    /// The node the walk has reached.
    fn end(&self) -> usize {
        self.path.last().expect("the root").0
    }
}

/// MCTS; see the module documentation. `E` scores the leaves and gives the priors: the
/// game's own evaluator unless [`with_evaluator`](Mcts::with_evaluator) says otherwise.
pub struct Mcts<G: Evaluate, E: Evaluator<G> = <G as Evaluate>::Evaluator> {
    eval: E,
    tree: Tree<G>,
    threads: usize,
    exploration: f32,
    memory: usize,
    reuse: bool,
}

/// The settings of a search, the same for every thread.
#[derive(Clone, Copy)]
struct Run {
    exploration: f32,
    budget: Option<u64>,
    deadline: Option<Instant>,
    memory: usize,
    /// Whether playouts mark their paths with a virtual loss (with more than one thread).
    virtual_loss: bool,
}

/// Root statistics: per move, visits and value for the root player, proven.
type RootStats<M> = Vec<(M, u32, f32, Proven)>;

/// The tree's lock. A thread that panicked under it has already failed the search (its join
/// panics), so a poisoned lock is simply taken.
fn lock<T>(tree: &Mutex<T>) -> MutexGuard<'_, T> {
    tree.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl<G: Evaluate> Mcts<G> {
    /// A searcher with the game's own evaluator, using at most `memory_mb` MiB for its
    /// tree, with `threads` threads.
    #[must_use]
    pub fn new(memory_mb: usize, threads: usize) -> Mcts<G> {
        Mcts::with_evaluator(G::evaluator(), memory_mb, threads)
    }
}

impl<G: Evaluate, E: Evaluator<G>> Mcts<G, E> {
    /// The memory the tree holds now, in bytes (as counted by the search, which keeps it
    /// within the configured size plus the expansions of the playouts under way).
    #[must_use]
    pub fn tree_bytes(&self) -> usize {
        self.tree.bytes
    }

    /// A searcher with evaluator `eval`, using at most `memory_mb` MiB for its tree, with
    /// `threads` threads playing out in it.
    #[must_use]
    pub fn with_evaluator(eval: E, memory_mb: usize, threads: usize) -> Mcts<G, E> {
        Mcts {
            tree: Tree::new(),
            threads: threads.max(1),
            eval,
            exploration: 1.5,
            memory: memory_mb.max(1) << 20,
            reuse: true,
        }
    }

    /// Replaces the evaluator (a kept tree holds values of the old one).
    pub fn set_evaluator(&mut self, eval: E) {
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

impl<G: Game> Tree<G> {
    fn new() -> Self {
        Tree { nodes: Vec::new(), root_game: None, bytes: 0, begun: 0, out: 0 }
    }

    fn new_node(game: &G) -> Node<G::Move> {
        let proven = match game.outcome() {
            None => Proven::Unknown,
            Some(Outcome::Draw) => Proven::Draw,
            Some(Outcome::Win(p)) if p == game.to_move() => Proven::Win,
            Some(Outcome::Win(_)) => Proven::Loss,
        };
        Node { to_move: game.to_move(), hash: game.hash(), proven, ..Node::blank() }
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
            let mut node = std::mem::replace(&mut old[n as usize], Node::blank());
            if i == 0 || node.visits >= threshold {
                for c in &mut node.children {
                    *c = map[c];
                }
            } else {
                node.moves = Vec::new();
                node.sorted = 0;
                node.children = Vec::new();
                node.stage = Stage::Unexpanded;
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

    /// Gives node `index` the moves and priors a thread listed for it (the node is at stage
    /// `Expanding` meanwhile, so no other thread lists them too, and the tree is not pruned
    /// while a playout is out, so `index` still names it).
    fn install(&mut self, index: usize, expansion: Expansion<G::Move>) {
        let Expansion { moves, sorted, winning } = expansion;
        self.bytes += moves.len() * std::mem::size_of::<(G::Move, f32)>();
        let node = &mut self.nodes[index];
        node.moves = moves;
        node.sorted = sorted;
        node.stage = Stage::Expanded;
        if let Some(child) = winning {
            self.add_child(index, child);
            self.nodes[index].proven = Proven::Win;
        }
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
            if ch.stage == Stage::Pending {
                continue;
            }
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
        if node.proven != Proven::Unknown || node.stage != Stage::Expanded {
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

    /// The virtual value a playout under way marks node `index` with, from the point of view
    /// of its player to move: a loss for the player who chose it (nothing at the root, or at a
    /// pending node, whose player is not known yet).
    fn virtual_value(&self, parent: Option<usize>, index: usize) -> f32 {
        let node = &self.nodes[index];
        match parent {
            Some(parent) if node.stage != Stage::Pending => {
                if self.nodes[parent].to_move == node.to_move { -1.0 } else { 1.0 }
            }
            _ => 0.0,
        }
    }

    /// Walks down from the end of `walk` to where the playout's value comes from, or to a
    /// node whose moves must be listed first (then put at stage `Expanding`), choosing moves
    /// but not playing them; a move tried for the first time gets a `Pending` node. With
    /// `virtual_loss`, the nodes walked are marked as visited by a lost playout before the
    /// walk hands the lock back.
    fn descend(&mut self, c: f32, walk: &mut Walk<G::Move>, virtual_loss: bool) -> Leaf {
        let leaf = loop {
            let index = walk.end();
            let node = &self.nodes[index];
            if node.proven != Proven::Unknown {
                break Leaf::Known(node.proven.value(), node.to_move);
            }
            if node.stage != Stage::Expanded {
                if node.stage == Stage::Expanding {
                    break Leaf::Busy;
                }
                self.nodes[index].stage = Stage::Expanding;
                break Leaf::Expand;
            }
            if node.children.len() >= node.sorted as usize {
                self.sort_more(index);
            }
            let i = self.select(index, c);
            let mv = self.nodes[index].moves[i].0;
            if i == self.nodes[index].children.len() {
                let id = self.add_child(index, Node { stage: Stage::Pending, ..Node::blank() });
                walk.path.push((id, 0.0));
                walk.moves.push(mv);
                break Leaf::New;
            }
            let child = self.nodes[index].children[i] as usize;
            if self.nodes[child].stage == Stage::Pending {
                break Leaf::Busy;
            }
            walk.path.push((child, 0.0));
            walk.moves.push(mv);
        };
        if virtual_loss {
            for i in walk.marked..walk.path.len() {
                let parent = i.checked_sub(1).map(|p| walk.path[p].0);
                let index = walk.path[i].0;
                let v = self.virtual_value(parent, index);
                walk.path[i].1 = v;
                let node = &mut self.nodes[index];
                node.visits += 1;
                node.value_sum += v;
            }
            walk.marked = walk.path.len();
        }
        leaf
    }

    /// Adds `child` as the next child of node `parent`, counting its memory; its index.
    fn add_child(&mut self, parent: usize, child: Node<G::Move>) -> usize {
        self.nodes.push(child);
        self.bytes += node_bytes::<G::Move>(0, 1);
        let id = self.nodes.len() - 1;
        self.nodes[parent].children.push(id as u32);
        id
    }

    /// Gives the pending node `index` what playing the move to it found (`node`, made by
    /// [`new_node`](Tree::new_node)), keeping the visits and virtual value marked on it.
    fn settle(&mut self, index: usize, node: Node<G::Move>) {
        let pending = &mut self.nodes[index];
        pending.to_move = node.to_move;
        pending.hash = node.hash;
        pending.proven = node.proven;
        pending.stage = Stage::Unexpanded;
    }

    /// Backs a playout's value (for `leaf_player`) up its path, in place of the virtual loss
    /// it marked if any, and re-derives the proven results above a newly proven node (a node
    /// whose children are unchanged keeps its result, so the walk up stops there).
    fn back_up(
        &mut self,
        walk: &Walk<G::Move>,
        value: f32,
        leaf_player: Player,
        virtual_loss: bool,
    ) {
        for &(index, virtual_value) in walk.path.iter().rev() {
            let node = &mut self.nodes[index];
            if virtual_loss {
                node.value_sum -= virtual_value;
            } else {
                node.visits += 1;
            }
            node.value_sum += if node.to_move == leaf_player { value } else { -value };
        }
        for pair in walk.path.windows(2).rev() {
            if self.nodes[pair[1].0].proven == Proven::Unknown {
                break;
            }
            self.update_proven(pair[0].0);
        }
    }

    /// Takes back the marks of a walk given up ([`Leaf::Busy`]).
    fn back_out(&mut self, walk: &Walk<G::Move>) {
        for &(index, virtual_value) in &walk.path[..walk.marked] {
            let node = &mut self.nodes[index];
            node.visits -= 1;
            node.value_sum -= virtual_value;
        }
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

impl<G: Game, E: Evaluator<G>> Worker<G, E> {
    /// Plays the moves of the walk the thread's game has not played yet.
    fn catch_up(&mut self) {
        let walk = &mut self.walk;
        for &mv in &walk.moves[walk.played..] {
            self.game.play(mv);
        }
        walk.played = walk.moves.len();
    }

    /// The value of the position the walk leads to, for its player to move.
    fn evaluate(&mut self) -> f32 {
        self.catch_up();
        (self.eval.evaluate(&self.game) as f32 / self.eval.value_scale()).tanh()
    }

    /// Lists the moves of the position `self.game` with their priors. A move that wins on
    /// the spot is put first and its child created at once, so the solver proves the node
    /// won without waiting for the priors to lead there (the priors cannot see wins).
    fn expansion(&mut self) -> Expansion<G::Move> {
        let game = &mut self.game;
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
                (m, e)
            })
            .collect();
        let total: f32 = priors.iter().map(|p| p.1).sum();
        for p in &mut priors {
            p.1 /= total;
        }
        // The moves stay in the game's order (a winning one first): selection orders them a
        // chunk at a time, as visits reach them.
        let mut sorted = 0;
        let mut winning_child = None;
        if let Some(w) = winning {
            let entry = priors.remove(w);
            priors.insert(0, (entry.0, 1.0));
            sorted = 1;
            game.play(moves[w]);
            winning_child = Some(Tree::<G>::new_node(game));
            game.undo();
        }
        self.scratch = (moves, raw, candidates);
        Expansion { moves: priors, sorted, winning: winning_child }
    }

    /// Playouts in the shared tree until a limit is reached; how many this thread made and
    /// the limit. The lock is held to walk down and to back up (one holding does one
    /// playout's backing up and the next one's walk), not to expand or evaluate. A full tree
    /// is pruned to half its memory, once no other playout is out, and the search goes on.
    fn run(&mut self, shared: &Mutex<&mut Tree<G>>, run: &Run, stop: &AtomicBool) -> (u64, Stop) {
        let Run { exploration: c, budget, deadline, memory, virtual_loss } = *run;
        let mut done = 0u64;
        let mut tree = lock(shared);
        let stopped = loop {
            if tree.nodes[0].proven != Proven::Unknown {
                break Stop::Proven;
            }
            if budget.is_some_and(|b| tree.begun >= b) {
                break Stop::Nodes;
            }
            if stop.load(Ordering::Relaxed) {
                break Stop::Stopped;
            }
            if deadline.is_some_and(|d| Instant::now() >= d) {
                break Stop::Time;
            }
            if tree.bytes >= memory {
                if tree.out > 0 {
                    // Another thread's path still names nodes by index: let it come back.
                    drop(tree);
                    std::thread::yield_now();
                    tree = lock(shared);
                    continue;
                }
                if !tree.prune(memory / 2) {
                    break Stop::Memory;
                }
            }
            tree.begun += 1;
            tree.out += 1;
            self.walk.start();
            // The lock is handed back for the work outside it; the walk's result comes back
            // with it dropped, and one holding settles a new node and backs the value up.
            let result = loop {
                match tree.descend(c, &mut self.walk, virtual_loss) {
                    Leaf::Known(value, player) => {
                        drop(tree);
                        break Some((value, player, None));
                    }
                    // Backing up a static value of this node instead would let a thread that
                    // is held up while it lists the node's moves (a loaded machine) leave
                    // the other to pile thousands of such values onto it, unproven: a move
                    // that loses at once then looked best (GIPF's engine test, once in CI).
                    Leaf::Busy => {
                        tree.back_out(&self.walk);
                        tree.begun -= 1;
                        tree.out -= 1;
                        drop(tree);
                        break None;
                    }
                    Leaf::Expand => {
                        drop(tree);
                        self.catch_up();
                        let expansion = self.expansion();
                        tree = lock(shared);
                        tree.install(self.walk.end(), expansion);
                    }
                    Leaf::New => {
                        drop(tree);
                        self.catch_up();
                        let node = Tree::<G>::new_node(&self.game);
                        let value = match node.proven {
                            Proven::Unknown => self.evaluate(),
                            proven => proven.value(),
                        };
                        break Some((value, node.to_move, Some(node)));
                    }
                }
            };
            for _ in 0..self.walk.played {
                self.game.undo();
            }
            let Some((value, leaf_player, new)) = result else {
                std::thread::yield_now();
                tree = lock(shared);
                continue;
            };
            tree = lock(shared);
            if let Some(node) = new {
                tree.settle(self.walk.end(), node);
            }
            tree.back_up(&self.walk, value, leaf_player, virtual_loss);
            tree.out -= 1;
            done += 1;
        };
        (done, stopped)
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
        let (threads, budget, memory) = (self.threads, limits.nodes, self.memory);
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
        self.tree.set_root(game, reuse);
        self.tree.begun = 0;
        let run = Run { exploration: c, budget, deadline, memory, virtual_loss: threads > 1 };
        let mut workers: Vec<Worker<G, E>> = (0..threads)
            .map(|_| Worker {
                eval: self.eval.clone(),
                game: game.clone(),
                walk: Walk::new(),
                scratch: (Vec::new(), Vec::new(), Vec::new()),
            })
            .collect();
        let shared = Mutex::new(&mut self.tree);
        let results: Vec<(u64, Stop)> = std::thread::scope(|scope| {
            let handles: Vec<_> = workers
                .iter_mut()
                .map(|worker| {
                    let (shared, stop) = (&shared, &**stop);
                    scope.spawn(move || worker.run(shared, &run, stop))
                })
                .collect();
            handles.into_iter().map(|h| h.join().expect("search thread")).collect()
        });
        let nodes = results.iter().map(|r| r.0).sum();
        let stats = self.tree.root_stats();
        let best = stats
            .iter()
            .max_by(|a, b| {
                let key = |m: &(G::Move, u32, f32, Proven)| {
                    (m.3 == Proven::Win, m.3 != Proven::Loss, m.1)
                };
                key(a).cmp(&key(b)).then(a.2.partial_cmp(&b.2).unwrap_or(std::cmp::Ordering::Equal))
            })
            .copied();
        let tree = &self.tree;
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
            // The first thread's reason: the others stop for the same limits, or when it does.
            stopped: Some(results[0].1),
        }
    }

    fn clear(&mut self) {
        self.tree = Tree::new();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply_boop::Boop;

    /// Checks the subtree of `index` (the position `game`) after a search: no node is left
    /// being expanded or pending, none has fewer visits than its children together, and a node
    /// visited once and never expanded holds exactly its own evaluation (a virtual loss left
    /// behind would add ±1 to it). Counts those nodes in `leaves`.
    fn check_subtree(
        tree: &Tree<Boop>,
        index: usize,
        game: &mut Boop,
        eval: &impl Evaluator<Boop>,
        leaves: &mut usize,
    ) {
        let node = &tree.nodes[index];
        assert!(
            !matches!(node.stage, Stage::Expanding | Stage::Pending),
            "node {index} is left {:?}",
            node.stage
        );
        let below: u32 = node.children.iter().map(|&c| tree.nodes[c as usize].visits).sum();
        assert!(node.visits >= below, "node {index}: {} visits, {below} below", node.visits);
        if node.visits == 1 && node.stage == Stage::Unexpanded && node.proven == Proven::Unknown {
            let value = (eval.evaluate(game) as f32 / eval.value_scale()).tanh();
            assert_eq!(node.value_sum, value, "node {index}");
            *leaves += 1;
        }
        for (i, &child) in node.children.iter().enumerate() {
            game.play(node.moves[i].0);
            check_subtree(tree, child as usize, game, eval, leaves);
            game.undo();
        }
    }

    #[test]
    fn threads_play_out_in_one_tree_and_leave_no_virtual_loss_behind() {
        let mut game = Boop::new("boooop").unwrap();
        for threads in [1, 2] {
            for turn in ["Kc3@a1b1", "Kd4", "Ke5"] {
                let mut mcts = Mcts::<Boop>::new(16, threads).with_reuse(false);
                let r =
                    mcts.search(&game, &Limits::nodes(20_000), &Arc::new(AtomicBool::new(false)));
                assert_eq!((r.nodes, r.stopped), (20_000, Some(Stop::Nodes)), "{threads} threads");
                let mut legal = Vec::new();
                game.legal_moves(&mut legal);
                assert!(legal.contains(&r.best.expect("a move")), "{threads} threads");
                // One tree holds every playout, whichever thread made it.
                assert_eq!(mcts.tree.nodes[0].visits, 20_000, "{threads} threads");
                assert_eq!(mcts.tree.out, 0);
                let mut leaves = 0;
                check_subtree(&mcts.tree, 0, &mut game.clone(), mcts.evaluator(), &mut leaves);
                assert!(leaves > 200, "{threads} threads: {leaves} leaves visited once");
                let mv = game.parse_move(turn).unwrap();
                game.play(mv);
            }
            game = Boop::new("boooop").unwrap();
        }
    }
}
