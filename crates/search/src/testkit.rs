//! Helpers for the engine tests of every game: each game checks, in its own hand-made
//! positions, that both searches take an immediate win and avoid an immediate loss.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use ply_core::{Evaluate, Game, Outcome};

use crate::{AlphaBeta, Mcts, Searcher};

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
pub fn assert_levels_play_legal_moves<G: Game + Evaluate + ply_core::View>(
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
