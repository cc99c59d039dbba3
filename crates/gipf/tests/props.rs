//! Property tests over random games of all three variants, and click-path checks.

use crate::common;

use common::{check_click_paths, chips_conserved, gt2, gt3};
use ply_core::Game;
use ply_core::testkit::{check_views, random_game};
use ply_core::zobrist::splitmix64;
use ply_gipf::Position;
use proptest::prelude::*;

fn play_random(start: &Position, seed: u64, max_turns: usize) {
    let game = random_game(start, seed, max_turns, chips_conserved);
    check_views(&game);
    assert_eq!(game.positions.len(), game.moves.len() + 1);
    // Random games end well within the limit (the longest seen is about 100 turns).
    let last = game.positions.last().expect("positions");
    assert!(last.outcome().is_some(), "no result after {} turns", game.moves.len());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn random_basic_games(seed in any::<u64>()) {
        play_random(&Position::new("basic").unwrap(), seed, 400);
    }

    #[test]
    fn random_standard_games(seed in any::<u64>()) {
        play_random(&Position::new("standard").unwrap(), seed, 400);
    }

    #[test]
    fn random_tournament_games(seed in any::<u64>()) {
        play_random(&Position::new("tournament").unwrap(), seed, 400);
    }

    #[test]
    fn random_games_from_gt2_and_gt3(seed in any::<u64>()) {
        play_random(&gt2(), seed, 400);
        play_random(&gt3(), seed, 400);
    }

    #[test]
    fn click_paths_unique_and_prefix_free(seed in any::<u64>()) {
        for variant in ["basic", "standard", "tournament"] {
            let game = random_game(&Position::new(variant).unwrap(), seed, 200, |_| {});
            for pos in game.positions.iter().step_by(3) {
                check_click_paths(pos);
            }
        }
    }
}

#[test]
fn click_paths_in_mid_game_positions() {
    for pos in [common::gt1(), gt2(), gt3()] {
        check_click_paths(&pos);
    }
}

/// Every random game ends (no draws, no repetition rule): play 300 seeds per variant to the
/// end, checking chip conservation at every position.
#[test]
fn random_games_end() {
    let mut moves = Vec::new();
    for variant in ["basic", "standard", "tournament"] {
        for seed in 0..300u64 {
            let mut p = Position::new(variant).unwrap();
            let mut state = seed;
            let mut turns = 0;
            loop {
                chips_conserved(&p);
                p.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                assert!(turns < 2000, "{variant} seed {seed}: no end after {turns} turns");
                let (next, r) = splitmix64(state);
                state = next;
                p.play(moves[(r % moves.len() as u64) as usize]);
                turns += 1;
            }
            assert!(p.outcome().is_some(), "{variant} seed {seed}: no moves but no result");
        }
    }
}
