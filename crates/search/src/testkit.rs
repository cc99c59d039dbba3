//! Helpers for the engine tests of every game (`tests/engine.rs`): each game checks, in its
//! own hand-made positions, that both searches take an immediate win and avoid an immediate
//! loss, that its evaluation and prior see what the position holds, that levels 1 and 10 play
//! legal turns and that a seed with a node limit fixes the search. The checks live here; each
//! game's test names only its positions and numbers.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

pub use ply_core::testkit::after_moves;
use ply_core::{Evaluate, Evaluator, Game, Outcome};

use crate::{AlphaBeta, Limits, Mcts, Searcher};

/// A stop flag that is never raised.
#[must_use]
pub fn stop_flag() -> Arc<AtomicBool> {
    Arc::new(AtomicBool::new(false))
}

/// Both searches, named, with small tables and one thread, and MCTS with two threads sharing
/// its tree (whose playouts interleave differently every run).
#[must_use]
pub fn both_searchers<G: Game + Evaluate>() -> Vec<(&'static str, Box<dyn Searcher<G>>)> {
    vec![
        ("alphabeta", Box::new(AlphaBeta::<G>::new(16, 1))),
        ("mcts", Box::new(Mcts::<G>::new(16, 1))),
        ("mcts/t2", Box::new(Mcts::<G>::new(16, 2))),
    ]
}

/// The mover's turns that win on the spot, in notation (generation order).
#[must_use]
pub fn winning_moves<G: Game>(game: &G) -> Vec<String> {
    let mover = game.to_move();
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    moves
        .into_iter()
        .filter(|&m| {
            let mut after = game.clone();
            after.play(m);
            after.outcome() == Some(Outcome::Win(mover))
        })
        .map(|m| game.format_move(m))
        .collect()
}

/// The mover's turns split into those after which the opponent has no immediate win and
/// those after which he has one (each in generation order).
#[must_use]
pub fn safe_and_losing_moves<G: Game>(game: &G) -> (Vec<G::Move>, Vec<G::Move>) {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    moves.into_iter().partition(|&m| {
        let mut after = game.clone();
        after.play(m);
        winning_moves(&after).is_empty()
    })
}

/// The turn the game's evaluator puts first by its prior ([`Evaluator::move_prior`]; the last
/// of equals in generation order).
///
/// # Panics
/// When the mover has no turn.
#[must_use]
pub fn prior_favourite<G: Evaluate>(game: &G) -> G::Move {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let eval = G::evaluator();
    moves.into_iter().max_by_key(|&m| eval.move_prior(game, m)).expect("a legal turn")
}

/// Asserts that the game's evaluation of `game` is above `bound`.
///
/// # Panics
/// When it is not, with the evaluation.
pub fn assert_evaluation_above<G: Evaluate>(game: &G, bound: i32) {
    let value = G::evaluator().evaluate(game);
    assert!(value > bound, "evaluation {value}, not above {bound}");
}

/// Asserts that the game's evaluation of `game` is below `bound`.
///
/// # Panics
/// When it is not, with the evaluation.
pub fn assert_evaluation_below<G: Evaluate>(game: &G, bound: i32) {
    let value = G::evaluator().evaluate(game);
    assert!(value < bound, "evaluation {value}, not below {bound}");
}

/// Plays `opening` in `variant`, then asks level 1 (both algorithms) and level 10
/// (alpha-beta) for a move, sized for `nodes_per_second`; each must be legal there.
///
/// # Panics
/// On an illegal opening move or an illegal answer, naming the level.
pub fn assert_levels_play_legal_moves<
    G: Game + Evaluate + ply_core::View + ply_core::PositionString,
>(
    variant: &str,
    opening: &[&str],
    nodes_per_second: u64,
) where
    G::Evaluator: ply_core::Tunable<G>,
{
    use crate::{Algorithm, AnyEngine, Engine, Think};
    let mut engine = Engine::new(G::new(variant).expect("a known variant"), Algorithm::AlphaBeta);
    for m in opening {
        engine.play(m).unwrap_or_else(|e| panic!("opening move {m}: {e}"));
    }
    for (level, algorithm) in
        [(1, Algorithm::AlphaBeta), (1, Algorithm::Mcts), (10, Algorithm::AlphaBeta)]
    {
        let think = Think::level(level, algorithm, nodes_per_second);
        let thought = engine.think(&think, &stop_flag()).expect("the game is not over");
        assert!(engine.game().canonical(&thought.best).is_ok(), "level {level}: {}", thought.best);
    }
}

/// Asserts that both searches, given `nodes` nodes, play one of `wins` from `game` and score
/// it as a proven win.
///
/// # Panics
/// When a search plays another move or does not see the win, naming the search.
pub fn assert_searches_take_a_win<G: Game + Evaluate>(game: &G, wins: &[String], nodes: u64) {
    for (name, mut s) in both_searchers::<G>() {
        let r = s.search(game, &Limits::nodes(nodes), &stop_flag());
        let best = game.format_move(r.best.expect("a move"));
        assert!(wins.contains(&best), "{name} played {best}");
        assert!(r.score.wins_in().is_some(), "{name}: {}", r.score);
    }
}

/// Asserts that both searches, given `nodes` nodes, play a turn after which the opponent has
/// no immediate win.
///
/// # Panics
/// When a search plays another turn, naming the search and the turn.
pub fn assert_searches_avoid_a_loss<G: Game + Evaluate>(game: &G, nodes: u64) {
    for (name, mut s) in both_searchers::<G>() {
        let r = s.search(game, &Limits::nodes(nodes), &stop_flag());
        let best = r.best.expect("a move");
        let mut after = game.clone();
        after.play(best);
        assert!(
            winning_moves(&after).is_empty(),
            "{name} played {} and the opponent wins next",
            game.format_move(best)
        );
    }
}

/// Asserts that each search, run twice from `game` with the same seed and node limit
/// (`alphabeta_nodes`, `mcts_nodes`), returns the same move, score, principal variation and
/// node count.
///
/// # Panics
/// When two runs differ, naming the search.
pub fn assert_searches_are_deterministic<G: Game + Evaluate>(
    game: &G,
    alphabeta_nodes: u64,
    mcts_nodes: u64,
) {
    for (algorithm, nodes) in [("alphabeta", alphabeta_nodes), ("mcts", mcts_nodes)] {
        let run = || {
            let mut s: Box<dyn Searcher<G>> = if algorithm == "alphabeta" {
                Box::new(AlphaBeta::<G>::new(8, 1).with_seed(7))
            } else {
                Box::new(Mcts::<G>::new(8, 1))
            };
            let r = s.search(game, &Limits::nodes(nodes), &stop_flag());
            (r.best, r.score, r.pv, r.nodes)
        };
        assert_eq!(run(), run(), "{algorithm}");
    }
}

/// The two engine tests every game runs from an opening (`tests/engine.rs`), from one line of
/// values each:
///
/// * `levels_1_and_10_play_legal_turns`: [`assert_levels_play_legal_moves`] with `levels:
///   (variant, opening, nodes per second)`;
/// * `same_seed_and_node_limit_give_the_same_move`: [`assert_searches_are_deterministic`]
///   after `same_seed: (variant, opening, alpha-beta nodes, MCTS nodes)`.
///
/// ```ignore
/// ply_search::engine_tests!(Position,
///     levels: ("37", &OPENING, 100_000),
///     same_seed: ("37", &OPENING, 3_000, 3_000),
/// );
/// ```
#[macro_export]
macro_rules! engine_tests {
    ($game:ty,
     levels: ($variant:expr, $opening:expr, $nodes_per_second:expr),
     same_seed: ($seed_variant:expr, $seed_opening:expr, $alphabeta:expr, $mcts:expr) $(,)?) => {
        #[test]
        fn levels_1_and_10_play_legal_turns() {
            $crate::testkit::assert_levels_play_legal_moves::<$game>(
                $variant,
                $opening,
                $nodes_per_second,
            );
        }

        #[test]
        fn same_seed_and_node_limit_give_the_same_move() {
            let game: $game = $crate::testkit::after_moves($seed_variant, $seed_opening);
            $crate::testkit::assert_searches_are_deterministic(&game, $alphabeta, $mcts);
        }
    };
}
