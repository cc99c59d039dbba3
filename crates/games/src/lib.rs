//! Every game ply plays, by name. Adding a game is one dependency and one line here; nothing
//! above this crate names a game.

use ply_core::{GameEntry, Registry};
use ply_search::{Algorithm, BenchSpec, EngineEntry, Speed};

/// The registry of all games, in the order they are offered to people.
#[must_use]
pub fn registry() -> Registry {
    Registry::new(vec![
        GameEntry::of::<ply_gipf::Position>(),
        GameEntry::of::<ply_zertz::Position>(),
        GameEntry::of::<ply_boop::Boop>(),
        GameEntry::of::<ply_punct::Position>(),
    ])
}

/// The games that have a computer player, with the algorithm that plays each best (measured:
/// `docs/strength.md`) and the fixed work of `ply bench`.
#[must_use]
pub fn engines() -> Vec<EngineEntry> {
    vec![
        EngineEntry::of::<ply_gipf::Position>(
            Algorithm::AlphaBeta,
            Speed { alphabeta_nps: 270_000, mcts_nps: 70_000 },
            BenchSpec { perft_depth: 4, search_depth: 5, mcts_nodes: 60_000, baseline_depth: 4 },
        ),
        EngineEntry::of::<ply_zertz::Position>(
            Algorithm::AlphaBeta,
            Speed { alphabeta_nps: 280_000, mcts_nps: 50_000 },
            BenchSpec { perft_depth: 2, search_depth: 2, mcts_nodes: 50_000, baseline_depth: 3 },
        ),
        EngineEntry::of::<ply_boop::Boop>(
            Algorithm::AlphaBeta,
            Speed { alphabeta_nps: 500_000, mcts_nps: 60_000 },
            BenchSpec { perft_depth: 5, search_depth: 6, mcts_nodes: 20_000, baseline_depth: 3 },
        ),
        EngineEntry::of::<ply_punct::Position>(
            Algorithm::AlphaBeta,
            Speed { alphabeta_nps: 20_000, mcts_nps: 600 },
            BenchSpec { perft_depth: 2, search_depth: 1, mcts_nodes: 300, baseline_depth: 2 },
        ),
    ]
}

/// The engine entry of the game called `name`.
///
/// # Errors
/// A message saying whether the game is unknown or only has no computer player yet.
pub fn engine(name: &str) -> Result<EngineEntry, String> {
    let all = engines();
    if let Some(e) = all.iter().find(|e| e.name == name) {
        return Ok(*e);
    }
    let with: Vec<&str> = all.iter().map(|e| e.name).collect();
    match registry().get(name) {
        Err(e) => Err(e.to_string()),
        Ok(_) => {
            Err(format!("{name} has no computer player yet (games with one: {})", with.join(", ")))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_starts_in_every_variant() {
        for entry in registry().entries() {
            for variant in entry.variants {
                let game = entry.new_game(Some(variant)).expect("known variant");
                assert_eq!(game.name(), entry.name);
                assert_eq!(game.variant(), *variant);
                assert!(game.outcome().is_none());
                assert!(game.legal_move_count() > 0);
            }
            assert!(entry.new_game(Some("no-such-variant")).is_err());
        }
        assert!(registry().get("chess").is_err());
    }
}
