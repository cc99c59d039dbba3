//! Every game ply plays, by name. Adding a game is one dependency and one line here; nothing
//! above this crate names a game.

use ply_core::{GameEntry, Registry};
use ply_search::{Algorithm, BenchSpec, EngineEntry, LevelTable, Speed};

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
            // Measured again on 4 Dec 2026 (quiet machine): a second from the start searches
            // 1.72 million nodes (1.36 million a second in play), not the 270,000 of the first
            // measurement under load and before the cheaper evaluation. The level table below
            // is in shares of 1,350,000 (five times the old figure), so levels 1–7 keep their
            // node budgets to the node. MCTS: 188,000 playouts a second from the start (4 Dec
            // 2026, quiet; was 70,000).
            Speed { alphabeta_nps: 1_350_000, mcts_nps: 190_000 },
            BenchSpec { perft_depth: 4, search_depth: 5, mcts_nodes: 60_000, baseline_depth: 4 },
        )
        // Engine against engine, GIPF's strength grows steeply: a doubling of nodes is +380 Elo
        // at 1,000 nodes, and leaf noise of 0.3 value scales costs 300. Levels 1–5 differ
        // mostly by noise, levels 6–9 by nodes on the way up to level 10's second (about 1.7
        // million nodes a move). Since the search reduces late moves (design note 43) a
        // completed iteration costs a fourth to a fourteenth of what it did, and the steps,
        // 40 games each, are +168, +215, +269, +215, +215, +241, +215, +241 and +241
        // (docs/strength.md, "GIPF's ladder with late moves reduced"); level 7 was raised from
        // 0.03 to 0.045 for them, the rest is the table measured before.
        .with_levels(LevelTable {
            share: [0.005, 0.006, 0.007, 0.009, 0.012, 0.02, 0.045, 0.1, 0.333],
            noise: [0.38, 0.31, 0.24, 0.15, 0.05, 0.0, 0.0, 0.0, 0.0],
        }),
        EngineEntry::of::<ply_zertz::Position>(
            Algorithm::AlphaBeta,
            // A second searches 1.34 million nodes from the start and 1.9–2.3 million in middle
            // games (4 Dec 2026, quiet), but the level table below was measured in shares of
            // this older figure, so it stays. MCTS: 152,000 playouts a second (was 50,000).
            Speed { alphabeta_nps: 280_000, mcts_nps: 150_000 },
            BenchSpec { perft_depth: 2, search_depth: 2, mcts_nodes: 50_000, baseline_depth: 3 },
        )
        // Noise of 2.0 value scales or more is all but random here: level 2 gets less, so
        // that it is a step above level 1. Since compulsory jumps are searched as forced
        // turns (which cost nodes), levels 4–9 need ×2.5–4 the nodes of the level below to be
        // a step above it; and once a level's budget reaches a second turn (level 6 on), leaf
        // noise of 0.15 value scales or more made it weaker than level 5 (likely because a
        // reply's value is the least of about a thousand noisy leaves, so noise favours moves
        // that leave the opponent few replies, such as a jump given away; not proven). The
        // round robins are in docs/strength.md ("ZÈRTZ's ladder after forced turns").
        .with_levels(LevelTable {
            share: [0.000_1, 0.000_3, 0.000_8, 0.003, 0.008, 0.025, 0.06, 0.2, 0.8],
            noise: [3.0, 1.4, 1.0, 0.7, 0.3, 0.1, 0.03, 0.0, 0.0],
        }),
        EngineEntry::of::<ply_boop::Boop>(
            Algorithm::AlphaBeta,
            // A second searches about 890,000 nodes from the start and 540,000–970,000 in middle
            // games (4 Dec 2026, quiet); the level table below is in shares of this older
            // figure, so it stays. MCTS: 119,000 playouts a second (was 60,000).
            Speed { alphabeta_nps: 500_000, mcts_nps: 120_000 },
            BenchSpec { perft_depth: 5, search_depth: 6, mcts_nodes: 20_000, baseline_depth: 3 },
        )
        // Since the search reduces late moves (design note 43) a node budget buys two turns
        // more, and the standard table's steps grew to +240–440 between levels 3 and 8
        // (level 1 to 9: +2,200). Nine steps of at most 250 up to level 10's second cannot
        // start from the standard level 1 (noise 3 value scales, all but random): level 1 is
        // about the standard level 3's strength (750 nodes, noise 0.95), and the levels above
        // it are placed on the measured curve of Elo against nodes and noise, each step
        // measured (docs/strength.md, "boop.'s ladder with late moves reduced").
        .with_levels(LevelTable {
            share: [0.001_5, 0.002_6, 0.004_4, 0.008, 0.014, 0.026, 0.06, 0.12, 0.3],
            noise: [0.95, 0.75, 0.58, 0.45, 0.35, 0.23, 0.12, 0.05, 0.0],
        }),
        EngineEntry::of::<ply_punct::Position>(
            Algorithm::AlphaBeta,
            // Measured again on 4 Dec 2026 (quiet machine): a second searches about 224,000
            // nodes from the start and 112,000 in a middle game (about 130,000 a second in
            // play), and MCTS makes 24,500 playouts from the start; the first figures (20,000
            // and 600) came before the search got ten to forty times faster. Since quiet moves
            // are skipped unsearched (design note 46) one thread searches about 420,000 nodes
            // a second from the start and 340,000–490,000 in middle games (7 Dec 2026, quiet,
            // 100 ms moves, docs/strength.md); the level table below is in shares of 200,000,
            // so it stays.
            Speed { alphabeta_nps: 200_000, mcts_nps: 24_000 },
            BenchSpec { perft_depth: 2, search_depth: 1, mcts_nodes: 300, baseline_depth: 2 },
        )
        // Noise of 0.8 value scales or more is all but random here: a third of the standard
        // noise spaces the low levels. Nodes buy most where they complete a turn: the first
        // turn's 5,000 moves (6,000 nodes), and depth 2 in the first turns after the opening
        // (about 20,000–40,000 nodes since quiet moves are skipped unsearched). Level 10's
        // second beat 40,000 nodes by +301 and 60,000 by +81, so levels 6–9 are 6,000, 14,000,
        // 32,000 and 50,000 nodes (docs/strength.md, "PÜNCT's ladder after the futility").
        .with_levels(LevelTable {
            share: [0.000_2, 0.000_4, 0.000_8, 0.001_5, 0.006_5, 0.03, 0.07, 0.16, 0.25],
            noise: [0.5, 0.36, 0.26, 0.18, 0.07, 0.0, 0.0, 0.0, 0.0],
        }),
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

    #[test]
    fn every_level_searches_more_and_guesses_no_more_than_the_one_below() {
        for entry in engines() {
            let think = |level| entry.level(level, None);
            for level in 1..=9 {
                let (below, above) = (think(level), think(level + 1));
                assert!(above.noise_scale <= below.noise_scale, "{} level {level}", entry.name);
                // Level 10 is a second, whatever the nodes.
                if level < 9 {
                    assert!(above.limits.nodes > below.limits.nodes, "{} {level}", entry.name);
                }
            }
            assert_eq!(think(9).noise_scale, 0.0, "{}: level 9 plays its best", entry.name);
            assert!(think(10).limits.nodes.is_none() && think(10).limits.time.is_some());
        }
        // A game's own table is what its levels use.
        let zertz = engine("zertz").unwrap();
        assert_eq!(zertz.level(2, None).noise_scale, zertz.levels.noise[1] as f32);
    }
}
