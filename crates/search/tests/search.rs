//! The searches against an oracle, on tactics, and on their promises (determinism, limits,
//! memory).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use ply_boop::{Boop, Pool, Setup, Variant};
use ply_core::{
    Evaluate, Evaluator, Game, LateMoveReductions, MoveError, Outcome, Player, VariantError,
    zobrist::splitmix64,
};
use ply_search::{AlphaBeta, Limits, Mcts, Score, SearchResult, Searcher, Stop};

/// A synthetic game tree: each position is its path; it has 2–4 moves (the root as many as
/// `root_moves` says, where that is not 0), and after some moves the same player moves
/// again, so sign handling is exercised. Some positions are won or lost outright; the rest
/// have a hash-derived evaluation, better for the first player under the root move
/// `favourite`. `TELLS` says what it tells of a move's legality without listing the moves
/// ([`Game::legal_without_listing`]): 0 nothing, as most games; 1 it sets the flag that it can
/// but tells nothing (so the search orders moves as for a telling game, all from the list);
/// 2 every legal move.
#[derive(Clone, Debug, PartialEq)]
struct Tree<const TELLS: u8 = 0> {
    path: Vec<u16>,
    to_move: Vec<Player>,
    max_len: usize,
    root_moves: u16,
    favourite: Option<u16>,
}

fn mix(path: &[u16]) -> u64 {
    path.iter().fold(0x1234_5678u64, |h, &m| splitmix64(h ^ u64::from(m)).1)
}

impl<const TELLS: u8> Tree<TELLS> {
    fn new(seed: u8, max_len: usize) -> Self {
        let path = vec![seed.into()];
        Tree { path, to_move: vec![Player::P1], max_len, root_moves: 0, favourite: None }
    }

    /// A tree whose root has `root_moves` moves, the last one searched (the highest one
    /// that [`TreeEval`] gives the lowest prior) better than the rest for the first player.
    fn wide(seed: u8, max_len: usize, root_moves: u16) -> Self {
        let favourite = Some((0..root_moves).rev().find(|mv| mv % 5 == 0).unwrap_or(0));
        Tree { root_moves, favourite, ..Tree::new(seed, max_len) }
    }
}

impl<const TELLS: u8> Game for Tree<TELLS> {
    type Move = u16;
    const NAME: &'static str = "tree";
    const DISPLAY_NAME: &'static str = "tree";
    const LEGALITY_WITHOUT_LISTING: bool = TELLS > 0;
    fn variants() -> &'static [&'static str] {
        &["tree"]
    }
    fn new(_: &str) -> Result<Self, VariantError> {
        Ok(Tree::new(0, 6))
    }
    fn variant(&self) -> &'static str {
        "tree"
    }
    fn to_move(&self) -> Player {
        *self.to_move.last().unwrap()
    }
    fn legal_moves(&self, out: &mut Vec<u16>) {
        out.clear();
        if self.outcome().is_none() {
            if self.path.len() == 1 && self.root_moves > 0 {
                out.extend(0..self.root_moves);
            } else {
                out.extend(0..(2 + (mix(&self.path) % 3) as u16));
            }
        }
    }
    fn play(&mut self, mv: u16) {
        self.path.push(mv);
        let h = mix(&self.path);
        let p = self.to_move();
        self.to_move.push(if h.is_multiple_of(4) { p } else { p.other() });
    }
    fn undo(&mut self) {
        self.path.pop();
        self.to_move.pop();
    }
    fn turns_played(&self) -> usize {
        self.path.len() - 1
    }
    fn outcome(&self) -> Option<Outcome> {
        let h = mix(&self.path) >> 8;
        if self.path.len() > 2 && h.is_multiple_of(11) {
            Some(Outcome::Win(if h.is_multiple_of(2) { Player::P1 } else { Player::P2 }))
        } else if self.path.len() > self.max_len {
            Some(Outcome::Draw)
        } else {
            None
        }
    }
    fn hash(&self) -> u64 {
        mix(&self.path) ^ (self.to_move() as u64)
    }
    fn compute_hash(&self) -> u64 {
        self.hash()
    }
    fn format_move(&self, mv: u16) -> String {
        mv.to_string()
    }
    fn parse_move(&self, s: &str) -> Result<u16, MoveError> {
        s.parse().map_err(|_| MoveError::Syntax(s.into()))
    }
    fn legal_without_listing(&self, mv: u16) -> bool {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        let legal = TELLS == 2 && moves.contains(&mv);
        TOLD.fetch_add(usize::from(legal), Ordering::Relaxed);
        legal
    }
}

/// How many moves trees have told legal without listing.
static TOLD: AtomicUsize = AtomicUsize::new(0);

#[derive(Clone, Copy, Debug, Default)]
struct TreeEval;

impl<const TELLS: u8> Evaluate for Tree<TELLS> {
    type Evaluator = TreeEval;
}

impl<const TELLS: u8> Evaluator<Tree<TELLS>> for TreeEval {
    fn evaluate(&self, tree: &Tree<TELLS>) -> i32 {
        let mut v = (mix(&tree.path) >> 20) as i32 % 1000 - 500;
        if tree.favourite.is_some() && tree.path.get(1).copied() == tree.favourite {
            v += 400;
        }
        // From P1's point of view, turned to the player to move.
        if tree.to_move() == Player::P1 { v } else { -v }
    }
    fn material(&self, _: &Tree<TELLS>) -> i32 {
        0
    }
    fn move_prior(&self, _: &Tree<TELLS>, mv: u16) -> i32 {
        // Multiples of 5 lowest.
        i32::from(mv) * 7 % 5
    }
}

/// Plain negamax without pruning: the oracle.
fn negamax(g: &mut Tree, depth: u32, ply: i32) -> i32 {
    negamax_with(g, depth, ply, &TreeEval)
}

/// Plain negamax without pruning, with evaluator `eval`.
fn negamax_with(g: &mut Tree, depth: u32, ply: i32, eval: &impl Evaluator<Tree>) -> i32 {
    if let Some(o) = g.outcome() {
        return match o {
            Outcome::Draw => 0,
            Outcome::Win(p) if p == g.to_move() => Score::WIN - ply,
            Outcome::Win(_) => -(Score::WIN - ply),
        };
    }
    if depth == 0 {
        return eval.evaluate(g);
    }
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    let mut best = i32::MIN;
    for mv in moves {
        let me = g.to_move();
        g.play(mv);
        let s = if g.to_move() == me {
            negamax_with(g, depth - 1, ply + 1, eval)
        } else {
            -negamax_with(g, depth - 1, ply + 1, eval)
        };
        g.undo();
        best = best.max(s);
    }
    best
}

/// The plain negamax value of `mv` in `g` for the player making it, searched `depth` deep
/// from `g`.
fn value_of_move(g: &Tree, mv: u16, depth: u32) -> i32 {
    value_of_move_with(g, mv, depth, &TreeEval)
}

/// [`value_of_move`] with evaluator `eval`.
fn value_of_move_with(g: &Tree, mv: u16, depth: u32, eval: &impl Evaluator<Tree>) -> i32 {
    let mut h = g.clone();
    let me = h.to_move();
    h.play(mv);
    let v = negamax_with(&mut h, depth - 1, 1, eval);
    if h.to_move() == me { v } else { -v }
}

fn stop() -> Arc<AtomicBool> {
    Arc::new(AtomicBool::new(false))
}

#[test]
fn alphabeta_agrees_with_plain_negamax() {
    for seed in 0..60u8 {
        for depth in 1..=5 {
            let mut g = Tree::new(seed, 8);
            let expected = negamax(&mut g, depth, 0);
            let mut ab: AlphaBeta<Tree> = AlphaBeta::new(1, 1);
            let r = ab.search(&g, &Limits::depth(depth), &stop());
            assert_eq!(r.score.0, expected, "seed {seed} depth {depth}");
            // The move it chose is worth the value it reported.
            let v = value_of_move(&g, r.best.unwrap(), depth);
            assert_eq!(v, expected, "seed {seed} depth {depth}: best move is not best");
        }
    }
}

/// Where a game tells moves legal without listing them, the search tries the table move and
/// the killers before it lists a node's moves: the same value as the plain negamax and a
/// move worth it, with one thread and two, and with one thread the very tree (the same node
/// count) of a search that finds the same moves first in the list.
#[test]
fn moves_tried_before_the_list_change_no_value_and_no_node() {
    let told = TOLD.load(Ordering::Relaxed);
    for seed in 0..60u8 {
        for depth in 1..=5 {
            let expected = negamax(&mut Tree::new(seed, 8), depth, 0);
            let listing: Tree<1> = Tree::new(seed, 8);
            let telling: Tree<2> = Tree::new(seed, 8);
            let r = AlphaBeta::new(1, 1).search(&listing, &Limits::depth(depth), &stop());
            assert_eq!(r.score.0, expected, "seed {seed} depth {depth}, listing");
            for threads in [1, 2] {
                let mut ab: AlphaBeta<Tree<2>> = AlphaBeta::new(1, threads);
                let t = ab.search(&telling, &Limits::depth(depth), &stop());
                let context = format!("seed {seed} depth {depth} threads {threads}");
                assert_eq!(t.score.0, expected, "{context}");
                let v = value_of_move(&Tree::new(seed, 8), t.best.unwrap(), depth);
                assert_eq!(v, expected, "{context}: best move is not best");
                if threads == 1 {
                    assert_eq!((t.nodes, t.best), (r.nodes, r.best), "{context}");
                }
            }
        }
    }
    assert!(TOLD.load(Ordering::Relaxed) > told + 1_000, "the trees told few moves legal");
}

/// Searches `g` to `depth` with `threads` threads and a table of `hash_mb` MiB, asserts the
/// plain negamax value `expected` and a best move worth it, and returns the result.
fn threads_find_the_value(
    g: &Tree,
    depth: u32,
    hash_mb: usize,
    threads: usize,
    expected: i32,
    context: &str,
) -> SearchResult<u16> {
    let mut ab: AlphaBeta<Tree> = AlphaBeta::new(hash_mb, threads);
    let r = ab.search(g, &Limits::depth(depth), &stop());
    assert_eq!(r.score.0, expected, "{context}");
    let v = value_of_move(g, r.best.unwrap(), depth);
    assert_eq!(v, expected, "{context}: best move is not best");
    r
}

/// Where the root has enough moves for the threads to share them out (PÜNCT's, ZÈRTZ's
/// first turns'), every iteration is one all threads complete together: two and three
/// threads report the exact value at every depth and choose a move worth it, as one does.
/// The root's 1,200 moves are more than the 1,000 from which the threads share them out, and
/// its best move is the last one searched, so a thread that closed the iteration without
/// waiting for the others' last moves would miss it.
#[test]
fn threads_sharing_out_a_wide_root_find_its_value() {
    for seed in 0..8u8 {
        let g = Tree::wide(seed, 7, 1_200);
        for depth in 1..=3 {
            let expected = negamax(&mut g.clone(), depth, 0);
            for threads in [2, 3] {
                let context = format!("seed {seed} depth {depth} threads {threads}");
                let r = threads_find_the_value(&g, depth, 4, threads, expected, &context);
                // Some of these trees hold a forced win or loss, which ends the search.
                let done = (r.depth, r.stopped) == (depth, Some(Stop::Depth));
                assert!(done || r.stopped == Some(Stop::Proven), "{context}: {r:?}");
            }
        }
    }
}

/// Threads that search the same moves (lazy SMP) pass over a move whose position another
/// thread is searching and come back to it after their other moves (simplified ABDADA, from
/// depth 3): two and three threads still find the plain negamax value at every depth and
/// choose a move worth it.
#[test]
fn threads_passing_over_each_others_positions_find_the_value() {
    for seed in 0..40u8 {
        let g = Tree::new(seed, 9);
        for depth in 3..=7 {
            let expected = negamax(&mut g.clone(), depth, 0);
            for threads in [2, 3] {
                let context = format!("seed {seed} depth {depth} threads {threads}");
                threads_find_the_value(&g, depth, 1, threads, expected, &context);
            }
        }
    }
}

/// Threads sharing out a wide root stop when the budget runs out in the middle of an
/// iteration, the ones waiting for the others' last moves included, with a root move.
#[test]
fn threads_sharing_out_a_wide_root_stop_within_an_iteration() {
    let mut stopped_by_nodes = 0;
    for seed in 0..8 {
        for nodes in [500, 5_000, 20_000] {
            let g = Tree::wide(seed, 9, 1_500);
            let mut ab: AlphaBeta<Tree> = AlphaBeta::new(4, 2);
            let r = ab.search(&g, &Limits::nodes(nodes), &stop());
            assert!(r.best.is_some_and(|mv| mv < 1_500), "seed {seed}, {nodes} nodes: {r:?}");
            // A tree with a forced result may be solved first.
            assert!(
                matches!(r.stopped, Some(Stop::Nodes | Stop::Proven)),
                "seed {seed}, {nodes} nodes: {r:?}"
            );
            stopped_by_nodes += usize::from(r.stopped == Some(Stop::Nodes));
        }
    }
    assert!(stopped_by_nodes >= 12, "only {stopped_by_nodes} of 24 searches ran out of nodes");
}

/// The values of [`TreeEval`] (evaluation, material, priors) in a test evaluator that
/// changes only how the search treats the moves.
macro_rules! tree_eval_values {
    () => {
        fn evaluate(&self, tree: &Tree) -> i32 {
            TreeEval.evaluate(tree)
        }
        fn material(&self, _: &Tree) -> i32 {
            0
        }
        fn move_prior(&self, tree: &Tree, mv: u16) -> i32 {
            TreeEval.move_prior(tree, mv)
        }
    };
}

/// [`TreeEval`] with forcing moves (move 0 of some positions, every move of others) and
/// positions where a forcing move is compulsory, for quiescence.
#[derive(Clone, Copy, Debug, Default)]
struct ForcingEval;

impl Evaluator<Tree> for ForcingEval {
    tree_eval_values!();
    fn is_forcing(&self, tree: &Tree, mv: u16) -> bool {
        mv == 0 || self.must_force(tree) || (mix(&tree.path) >> 40).is_multiple_of(3)
    }
    fn must_force(&self, tree: &Tree) -> bool {
        (mix(&tree.path) >> 32).is_multiple_of(4)
    }
}

/// The alpha-beta search's quiescence depth (`QUIESCENCE_DEPTH`).
const QUIESCENCE_DEPTH: u32 = 6;

/// Plain negamax with the extension and quiescence the search promises, without pruning: a
/// turn where a forcing move is compulsory costs no depth; at depth 0 the player to move takes
/// the better of the static value and his forcing moves, or, where a forcing move is
/// compulsory, the best of all his moves, until the quiescence depth ends.
fn negamax_quiescent(g: &mut Tree, depth: u32, qdepth: u32, ply: i32) -> i32 {
    if let Some(o) = g.outcome() {
        return match o {
            Outcome::Draw => 0,
            Outcome::Win(p) if p == g.to_move() => Score::WIN - ply,
            Outcome::Win(_) => -(Score::WIN - ply),
        };
    }
    let eval = ForcingEval;
    let forced = depth == 0 && qdepth > 0 && eval.must_force(g);
    if depth == 0 && qdepth == 0 {
        return eval.evaluate(g);
    }
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    let mut best = if depth == 0 && !forced { eval.evaluate(g) } else { i32::MIN };
    if depth == 0 && !forced {
        moves.retain(|&m| eval.is_forcing(g, m));
    }
    let (next_depth, next_q) = match depth {
        0 => (0, qdepth - 1),
        _ if eval.must_force(g) => (depth, qdepth),
        _ => (depth - 1, qdepth),
    };
    for mv in moves {
        let me = g.to_move();
        g.play(mv);
        let s = negamax_quiescent(g, next_depth, next_q, ply + 1);
        let s = if g.to_move() == me { s } else { -s };
        g.undo();
        best = best.max(s);
    }
    best
}

/// A compulsory forcing turn costs no depth, quiescence follows forcing moves, and where one
/// is compulsory the player cannot stand on the static value: the search's score is that of
/// the plain negamax with the same rules.
#[test]
fn forced_turns_extend_and_quiescence_stands_pat_only_where_it_may() {
    let (mut forced, mut differs) = (0, 0);
    for seed in 0..40u8 {
        for depth in 1..=4 {
            let mut g = Tree::new(seed, 12);
            let expected = negamax_quiescent(&mut g, depth, QUIESCENCE_DEPTH, 0);
            let mut ab = AlphaBeta::<Tree, ForcingEval>::with_evaluator(ForcingEval, 1, 1);
            let r = ab.search(&g, &Limits::depth(depth), &stop());
            assert_eq!(r.score.0, expected, "seed {seed} depth {depth}");
            differs += usize::from(expected != negamax(&mut g, depth, 0));
        }
        let mut g = Tree::new(seed, 12);
        forced += usize::from(ForcingEval.must_force(&g));
        g.play(0);
        forced += usize::from(ForcingEval.must_force(&g));
    }
    // The extension and quiescence changed many results, so the test compares more than the
    // plain search.
    assert!(differs > 40, "they changed {differs} of 160 results");
    assert!(forced > 5, "{forced} compulsory positions near the roots");
}

/// [`TreeEval`] with futility pruning: every move but the first that does not end the game
/// is quiet, and the bound is the best of their values worked out by playing them, plus a
/// position's slack of 0 to 19 (a bound need not be tight).
#[derive(Clone, Copy, Debug, Default)]
struct FutileEval;

impl FutileEval {
    fn quiet_values(tree: &Tree) -> Vec<i32> {
        let mut moves = Vec::new();
        tree.legal_moves(&mut moves);
        let mut child = tree.clone();
        let me = tree.to_move();
        moves
            .into_iter()
            .filter(|&mv| FutileEval.is_quiet(tree, mv))
            .map(|mv| {
                child.play(mv);
                let v = TreeEval.evaluate(&child);
                let v = if child.to_move() == me { v } else { -v };
                child.undo();
                v
            })
            .collect()
    }
}

impl Evaluator<Tree> for FutileEval {
    tree_eval_values!();
    fn quiet_bound(&self, tree: &Tree) -> Option<i32> {
        let slack = (mix(&tree.path) % 20) as i32;
        Self::quiet_values(tree).into_iter().max().map(|v| v + slack)
    }
    fn is_quiet(&self, tree: &Tree, mv: u16) -> bool {
        let mut child = tree.clone();
        child.play(mv);
        mv > 0 && child.outcome().is_none()
    }
}

/// Quiet moves skipped where the evaluator proves that none can raise alpha change no value:
/// the search with [`FutileEval`] finds the plain negamax value at every depth and chooses a
/// move worth it, with fewer nodes than the search without the pruning.
#[test]
fn futile_quiet_moves_skipped_change_no_value() {
    let (mut plain_nodes, mut futile_nodes) = (0, 0);
    for seed in 0..60u8 {
        for depth in 1..=5 {
            let mut g = Tree::new(seed, 8);
            let expected = negamax(&mut g, depth, 0);
            let plain = AlphaBeta::<Tree>::new(1, 1).search(&g, &Limits::depth(depth), &stop());
            let mut ab = AlphaBeta::<Tree, FutileEval>::with_evaluator(FutileEval, 1, 1);
            let r = ab.search(&g, &Limits::depth(depth), &stop());
            assert_eq!(r.score.0, expected, "seed {seed} depth {depth}");
            let v = value_of_move(&g, r.best.unwrap(), depth);
            assert_eq!(v, expected, "seed {seed} depth {depth}: best move is not best");
            plain_nodes += plain.nodes;
            futile_nodes += r.nodes;
        }
    }
    // (About a tenth fewer: a frontier node here has two to four moves, and the first
    // searched often decides it.)
    assert!(
        futile_nodes * 100 < plain_nodes * 95,
        "{futile_nodes} nodes with the pruning, {plain_nodes} without"
    );
}

/// [`TreeEval`] searched with late-move reductions: every move after the first is first
/// searched a turn shallower.
#[derive(Clone, Copy, Debug, Default)]
struct ReducingEval;

impl Evaluator<Tree> for ReducingEval {
    tree_eval_values!();
    fn late_move_reductions(&self) -> Option<LateMoveReductions> {
        Some(LateMoveReductions { after: 1, min_depth: 2 })
    }
}

/// Late moves searched a turn shallower first cost fewer nodes to a depth, and the search
/// still completes the depth with a legal root move.
#[test]
fn late_moves_searched_shallower_cost_fewer_nodes() {
    let (mut full, mut reduced, mut differs, mut compared) = (0, 0, 0, 0);
    for seed in 0..40u8 {
        let depth = 7;
        let g = Tree::new(seed, 12);
        let plain = AlphaBeta::<Tree>::new(1, 1).search(&g, &Limits::depth(depth), &stop());
        let mut ab = AlphaBeta::<Tree, ReducingEval>::with_evaluator(ReducingEval, 1, 1);
        let r = ab.search(&g, &Limits::depth(depth), &stop());
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        let best = r.best.expect("a root move");
        assert!(moves.contains(&best), "seed {seed}: {best} is not a root move");
        // A forced result found early ends either search: no comparison of work.
        if [plain.stopped, r.stopped].contains(&Some(Stop::Proven)) {
            continue;
        }
        assert_eq!(r.depth, depth, "seed {seed}: {r:?}");
        compared += 1;
        full += plain.nodes;
        reduced += r.nodes;
        differs += usize::from(r.score != plain.score);
    }
    assert!(compared >= 20, "only {compared} trees compared");
    // (About a quarter fewer here: the trees' priors know nothing of their values, so the
    // shallow searches often beat the best so far and are searched again.)
    assert!(reduced * 10 < full * 9, "{reduced} nodes with reductions, {full} without");
    // The reductions changed some values: the comparison above is of two different searches.
    assert!(differs > 0, "no value changed");
}

/// [`TreeEval`] with a trap: under root move [`TRAP`], the positions two turns from the root
/// are a big win for the first player and every other position a big loss. A search that
/// takes a reduced move's shallow value where it beats the best so far would play it.
#[derive(Clone, Copy, Debug, Default)]
struct TrapEval;

/// The trap's root move: one of the lowest priors, so it is searched late.
const TRAP: u16 = 10;

impl Evaluator<Tree> for TrapEval {
    fn evaluate(&self, tree: &Tree) -> i32 {
        if tree.path.get(1) != Some(&TRAP) {
            return TreeEval.evaluate(tree);
        }
        let v = if tree.path.len() == 3 { 5_000 } else { -3_000 };
        if tree.to_move() == Player::P1 { v } else { -v }
    }
    fn material(&self, _: &Tree) -> i32 {
        0
    }
    fn move_prior(&self, tree: &Tree, mv: u16) -> i32 {
        TreeEval.move_prior(tree, mv)
    }
    /// Only the root has more than four moves, so only root moves are reduced.
    fn late_move_reductions(&self) -> Option<LateMoveReductions> {
        Some(LateMoveReductions { after: 4, min_depth: 2 })
    }
}

/// A late root move that a search one turn shallower rates best is searched again to the
/// full depth, where it is found out: with three turns, the trap (the best move two turns
/// deep) is never chosen.
#[test]
fn a_late_move_that_beats_the_best_so_far_shallow_is_searched_again() {
    let mut trapped = 0;
    for seed in 0..20u8 {
        let g = Tree::wide(seed, 6, 12);
        // The first player moves at the root, and two turns deep the trap is his best move.
        let shallow_best = (0..12).max_by_key(|&mv| value_of_move_with(&g, mv, 2, &TrapEval));
        // Trees with a forced result within three turns are left out: their value is no test.
        let forced = negamax_with(&mut g.clone(), 3, 0, &TrapEval).abs() > 5_000;
        if g.to_move() != Player::P1 || shallow_best != Some(TRAP) || forced {
            continue;
        }
        trapped += 1;
        let mut ab = AlphaBeta::<Tree, TrapEval>::with_evaluator(TrapEval, 1, 1);
        let r = ab.search(&g, &Limits::depth(3), &stop());
        assert_ne!(r.best, Some(TRAP), "seed {seed}: {r:?}");
        assert!(r.score.0 < 5_000, "seed {seed}: {r:?}");
    }
    assert!(trapped >= 5, "only {trapped} trees set the trap");
}

fn pool(k: u8, c: u8) -> Option<Pool> {
    Some(Pool { kittens: k, cats: c })
}

/// Example 9 of boop.md: `Cd4` wins at once (and so does `Ca1`).
fn win_in_one() -> Boop {
    let s = Setup::start(Variant::Boop)
        .with_pieces("x a6 X b2 c3 o e5 d6")
        .unwrap()
        .with_pools(pool(4, 1), pool(6, 0));
    Boop::from_setup(&s).unwrap()
}

/// P2's cats on c3 and d3 threaten `Ce3`; b3 is blocked, so only `Ke3` saves P1 (kittens
/// cannot boop cats away).
fn must_block() -> Boop {
    let s = Setup::start(Variant::Boop)
        .with_pieces("x a1 O c3 d3 o b3")
        .unwrap()
        .with_pools(pool(7, 0), pool(3, 2));
    Boop::from_setup(&s).unwrap()
}

fn searchers() -> Vec<(&'static str, Box<dyn Searcher<Boop>>)> {
    vec![
        ("alphabeta", Box::new(AlphaBeta::<Boop>::new(16, 1))),
        ("mcts", Box::new(Mcts::<Boop>::new(16, 1))),
        ("mcts/t2", Box::new(Mcts::<Boop>::new(16, 2))),
    ]
}

#[test]
fn every_search_takes_an_immediate_win() {
    let g = win_in_one();
    for (name, mut s) in searchers() {
        let r = s.search(&g, &Limits::nodes(3_000), &stop());
        let mut h = g.clone();
        h.play(r.best.unwrap());
        assert_eq!(
            h.outcome(),
            Some(Outcome::Win(Player::P1)),
            "{name}: {}",
            g.format_move(r.best.unwrap())
        );
        assert!(r.score.wins_in().is_some(), "{name}: {}", r.score);
    }
}

#[test]
fn every_search_avoids_an_immediate_loss() {
    let g = must_block();
    // Check the premise: exactly one move does not lose at once.
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    let safe: Vec<String> = moves
        .iter()
        .filter(|&&m| {
            let mut h = g.clone();
            h.play(m);
            let mut replies = Vec::new();
            h.legal_moves(&mut replies);
            !replies.iter().any(|&r| {
                let mut k = h.clone();
                k.play(r);
                k.outcome() == Some(Outcome::Win(Player::P2))
            })
        })
        .map(|&m| g.format_move(m))
        .collect();
    assert_eq!(safe, ["Ke3"]);
    for (name, mut s) in searchers() {
        let r = s.search(&g, &Limits::nodes(20_000), &stop());
        assert_eq!(g.format_move(r.best.unwrap()), "Ke3", "{name}");
    }
}

#[test]
fn same_seed_and_node_limit_give_the_same_move() {
    let mut g = Boop::new("boooop").unwrap();
    for m in ["Kc3@a1b1", "Kd4", "Ke5"] {
        let mv = g.parse_move(m).unwrap();
        g.play(mv);
    }
    for algorithm in ["alphabeta", "mcts"] {
        let run = || {
            let mut s: Box<dyn Searcher<Boop>> = if algorithm == "alphabeta" {
                Box::new(AlphaBeta::<Boop>::new(8, 1).with_seed(7))
            } else {
                Box::new(Mcts::<Boop>::new(8, 1))
            };
            let r = s.search(&g, &Limits::nodes(4_000), &stop());
            (r.best, r.score, r.pv, r.nodes)
        };
        assert_eq!(run(), run(), "{algorithm}");
    }
}

#[test]
fn time_limit_is_kept() {
    // Tolerant: the limit plus 10 % plus 50 ms, with extra room for a busy machine.
    let g = Boop::new("boooop").unwrap();
    for (name, mut s) in searchers() {
        let start = Instant::now();
        let r = s.search(&g, &Limits::time(Duration::from_millis(300)), &stop());
        let took = start.elapsed();
        assert!(took < Duration::from_millis(300 + 30 + 50 + 150), "{name} took {took:?}");
        assert!(r.best.is_some());
    }
}

#[test]
fn memory_stays_within_the_configured_size_and_mcts_uses_its_whole_budget() {
    let ab = AlphaBeta::<Boop>::new(4, 1);
    assert!(ab.table_bytes() <= 4 << 20);
    let g = Boop::new("boooop").unwrap();
    let budget = Limits::nodes(60_000);
    let mut roomy = Mcts::<Boop>::new(64, 1).with_reuse(false);
    roomy.search(&g, &budget, &stop());
    assert!(roomy.tree_bytes() > 2 << 20, "the budget must overfill 1 MiB: {}", roomy.tree_bytes());
    // With 1 MiB the tree is pruned whenever it fills (to half), and the search goes on to
    // its budget; it never holds more than its size plus one expansion.
    let mut m = Mcts::<Boop>::new(1, 1).with_reuse(false);
    let r = m.search(&g, &budget, &stop());
    assert!(m.tree_bytes() <= (1 << 20) + 64 * 1024, "{} bytes", m.tree_bytes());
    assert_eq!((r.nodes, r.stopped), (60_000, Some(Stop::Nodes)));
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    assert!(moves.contains(&r.best.unwrap()));
    // Two threads share the one tree: it is pruned only between their playouts (their paths
    // name nodes by index), and they too stay within the size and play out the whole budget.
    let mut shared = Mcts::<Boop>::new(1, 2).with_reuse(false);
    let r = shared.search(&g, &budget, &stop());
    assert!(shared.tree_bytes() <= (1 << 20) + 64 * 1024, "{} bytes", shared.tree_bytes());
    assert_eq!((r.nodes, r.stopped), (60_000, Some(Stop::Nodes)));
    assert!(moves.contains(&r.best.unwrap()));
}

#[test]
fn every_search_says_why_it_stopped() {
    let start = Boop::new("boooop").unwrap();
    let raised = Arc::new(AtomicBool::new(true));
    for (name, mut s) in searchers() {
        let r = s.search(&start, &Limits::nodes(2_000), &stop());
        assert_eq!(r.stopped, Some(Stop::Nodes), "{name}");
        let r = s.search(&start, &Limits::time(Duration::from_millis(100)), &stop());
        assert_eq!(r.stopped, Some(Stop::Time), "{name}");
        let r = s.search(&start, &Limits::default(), &raised);
        assert_eq!(r.stopped, Some(Stop::Stopped), "{name}");
        let r = s.search(&win_in_one(), &Limits::nodes(100_000), &stop());
        assert_eq!(r.stopped, Some(Stop::Proven), "{name}");
        assert!(r.nodes < 100_000, "{name}");
    }
    let mut ab = AlphaBeta::<Boop>::new(4, 1);
    assert_eq!(ab.search(&start, &Limits::depth(2), &stop()).stopped, Some(Stop::Depth));
    let mut over = win_in_one();
    over.play(over.parse_move("Cd4").unwrap());
    for (name, mut s) in searchers() {
        let r = s.search(&over, &Limits::nodes(100), &stop());
        assert_eq!((r.best, r.stopped), (None, Some(Stop::Over)), "{name}");
    }
}

#[test]
fn the_stop_flag_stops() {
    let g = Boop::new("boop").unwrap();
    let flag = Arc::new(AtomicBool::new(true));
    for (name, mut s) in searchers() {
        let r = s.search(&g, &Limits::default(), &flag);
        assert!(r.best.is_some(), "{name} still answers a legal move");
        assert!(r.nodes < 100_000, "{name}: {}", r.nodes);
    }
}

#[test]
fn tree_reuse_keeps_the_subtree() {
    let mut g = Boop::new("boop").unwrap();
    let mut m = Mcts::<Boop>::new(16, 1);
    let r = m.search(&g, &Limits::nodes(3_000), &stop());
    let first = r.pv.clone();
    assert!(first.len() >= 2);
    g.play(first[0]);
    g.play(first[1]);
    let before = m.tree_bytes();
    let r2 = m.search(&g, &Limits::nodes(1), &stop());
    assert!(r2.best.is_some());
    assert!(m.tree_bytes() > 1000 && m.tree_bytes() < before, "{} then {}", before, m.tree_bytes());
}

#[test]
fn an_engine_takes_a_position_without_replaying_and_keeps_what_it_learnt() {
    use ply_core::{AnyGame, DynGame};
    use ply_search::{Algorithm, AnyEngine, Engine, Think};
    let mut game = DynGame::new(Boop::new("boop").unwrap());
    for m in ["Kc3", "Kd4", "Ka1"] {
        game.play(m).unwrap();
    }
    let mut engine = Engine::new(Boop::new("boop").unwrap(), Algorithm::AlphaBeta);
    assert!(engine.set_position(&game));
    assert_eq!(engine.game().history(), game.history());
    assert_eq!(engine.game().hash(), game.hash());
    // A budget that ends inside an iteration (depth 5 of 6 fresh; since boop. reduces late
    // moves, 30,000 nodes completed depth 6 with or without the kept table).
    let think = Think { limits: Limits::nodes(20_000), ..Think::level(9, Algorithm::AlphaBeta, 1) };
    let first = engine.think(&think, &stop()).unwrap();
    assert!(engine.memory_bytes() > 0);
    // A fresh engine given the same position searches it the same way.
    let mut fresh = Engine::new(Boop::new("boop").unwrap(), Algorithm::AlphaBeta);
    fresh.set_position(&game);
    let again = fresh.think(&think, &stop()).unwrap();
    assert_eq!((again.best.as_str(), again.depth), (first.best.as_str(), first.depth));
    // The engine that keeps its table goes deeper on the same position for the same nodes.
    engine.set_position(&game);
    let second = engine.think(&think, &stop()).unwrap();
    assert!(second.depth > first.depth, "depth {} then {}", first.depth, second.depth);
    // Another variant of the same game is the same type: taken, and searched as itself.
    let other = DynGame::new(Boop::new("boooop").unwrap());
    assert!(engine.set_position(&other));
    assert_eq!(engine.game().variant(), "boooop");
}
