//! Helpers for the engine tests of every game: each game checks, in its own hand-made
//! positions, that both searches take an immediate win and avoid an immediate loss.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use ply_core::{Evaluate, Game, Outcome};

use crate::{AlphaBeta, Limits, Mcts, Searcher};

/// A stop flag that is never raised.
#[must_use]
pub fn stop_flag() -> Arc<AtomicBool> {
    Arc::new(AtomicBool::new(false))
}

/// Both searches, named, with small tables and one thread.
#[must_use]
pub fn both_searchers<G: Game + Evaluate>() -> Vec<(&'static str, Box<dyn Searcher<G>>)> {
    vec![
        ("alphabeta", Box::new(AlphaBeta::<G>::new(16, 1))),
        ("mcts", Box::new(Mcts::<G>::new(16, 1))),
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
) {
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
                Box::new(Mcts::<G>::new(8, 1).with_seed(7))
            };
            let r = s.search(game, &Limits::nodes(nodes), &stop_flag());
            (r.best, r.score, r.pv, r.nodes)
        };
        assert_eq!(run(), run(), "{algorithm}");
    }
}
