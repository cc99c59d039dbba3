//! Property tests over random games on every board.

use std::collections::HashSet;

use ply_core::testkit::{check_views, random_game};
use ply_core::{Game, View};
use ply_zertz::{Position, Variant};
use proptest::prelude::*;

fn variant_strategy() -> impl Strategy<Value = Variant> {
    (0..Variant::ALL.len()).prop_map(|i| Variant::ALL[i])
}

/// Every marble is somewhere: pool + board + both players' captures, per colour.
fn conserved(p: &Position) {
    let s = p.state();
    let total = p.variant_kind().marbles();
    for (c, &t) in total.iter().enumerate() {
        let n = s.marbles[c].count_ones() as u8 + s.pool[c] + s.captures[0][c] + s.captures[1][c];
        assert_eq!(n, t, "colour {c} not conserved: {s:?}");
        assert_eq!(s.marbles[c] & !s.rings, 0, "a marble off the rings");
    }
    assert_eq!(s.marbles[0] & s.marbles[1], 0);
    assert_eq!(s.marbles[0] & s.marbles[2], 0);
    assert_eq!(s.marbles[1] & s.marbles[2], 0);
}

fn check_click_paths(p: &Position) {
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    let svg = p.svg();
    let ids: Vec<&str> = svg.split("id=\"").skip(1).map(|t| &t[..t.find('"').unwrap()]).collect();
    let unique: HashSet<&&str> = ids.iter().collect();
    assert_eq!(unique.len(), ids.len(), "an id is used twice in the svg");
    let mut paths: Vec<Vec<String>> = moves.iter().map(|&m| p.click_path(m)).collect();
    for path in &paths {
        assert!(!path.is_empty());
        for id in path {
            assert!(
                svg.contains(&format!("id=\"{id}\" class=\"target")),
                "no target {id} in the svg"
            );
        }
    }
    paths.sort();
    let unique: HashSet<&Vec<String>> = paths.iter().collect();
    assert_eq!(unique.len(), paths.len(), "two moves share a click path");
    for w in paths.windows(2) {
        assert!(!w[1].starts_with(&w[0]), "{:?} is a prefix of {:?}", w[0], w[1]);
    }
}

proptest! {
    // 64 cases by default; PROPTEST_CASES=n for a longer run.
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(64),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn random_games_are_consistent(variant in variant_strategy(), seed in any::<u64>()) {
        let start = Position::start(variant);
        let mut rings = start.state().rings;
        let game = random_game(&start, seed, 400, |p: &Position| {
            conserved(p);
            let now = p.state().rings;
            assert_eq!(now & !rings, 0, "a ring came back");
            rings = now;
        });
        check_views(&game);
        let last = game.positions.last().unwrap();
        prop_assert!(last.outcome().is_some(), "game not over after {} turns", game.moves.len());
        for w in game.positions.windows(2) {
            prop_assert!(w[1].state().rings.count_ones() <= w[0].state().rings.count_ones());
        }
    }

    #[test]
    fn click_paths_are_unique_and_prefix_free(variant in variant_strategy(), seed in any::<u64>()) {
        let start = Position::start(variant);
        let game = random_game(&start, seed, 400, |_p: &Position| {});
        // Every 3rd position keeps the test quick; openings have thousands of moves.
        for p in game.positions.iter().step_by(3) {
            check_click_paths(p);
        }
    }
}

#[test]
fn views_render() {
    for v in Variant::ALL {
        let p = Position::start(v);
        let d = p.diagram();
        assert!(d.contains("pool: W"), "{d}");
        let svg = p.svg();
        assert!(svg.starts_with("<svg"));
        for id in ["pool-W", "pool-G", "pool-B", "p1-cap-W", "p2-cap-B", "a1", "d4"] {
            assert!(svg.contains(&format!("id=\"{id}\"")), "{id}");
        }
        let j = p.state_json();
        assert!(j["board"].is_object());
        assert_eq!(j["pool"]["B"], serde_json::json!(v.marbles()[2]));
    }
    let p = Position::start(Variant::V37);
    let mv = p.parse_move("Wd4,a1").unwrap();
    assert_eq!(p.click_path(mv), ["pool-W", "d4", "a1"]);
    println!("{}", p.diagram());
}
