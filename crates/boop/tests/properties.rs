//! Property tests over random games of both variants (proptest chooses the seeds).

use std::collections::HashSet;

use ply_boop::{Boop, Cell};
use ply_core::testkit::{check_views, random_game};
use ply_core::{Game, Player, View};
use proptest::prelude::*;

/// [K1]: 8 pieces per player across bed and pool; the ghosts sit on distinct segments.
fn conserved(g: &Boop) {
    for player in Player::BOTH {
        let on_bed =
            Cell::all().filter(|&c| g.piece_at(c).is_some_and(|p| p.player == player)).count();
        let pool = g.pool(player);
        assert_eq!(
            on_bed + pool.kittens as usize + pool.cats as usize,
            8,
            "{player}: {}",
            g.diagram()
        );
    }
    if let (Some(a), Some(b)) = (g.ghost(Player::P1), g.ghost(Player::P2)) {
        assert_ne!(a.segment, b.segment);
    }
}

/// Every legal turn has a click path of ids in the SVG; no path repeats or prefixes another.
fn click_paths_are_unambiguous(g: &Boop) {
    let svg = g.svg();
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    let paths: Vec<Vec<String>> = moves.iter().map(|&m| g.click_path(m)).collect();
    let ids: HashSet<&String> = paths.iter().flatten().collect();
    for id in ids {
        assert!(svg.contains(&format!("id=\"{id}\"")), "{id} is not in the SVG");
    }
    let set: HashSet<&Vec<String>> = paths.iter().collect();
    assert_eq!(set.len(), paths.len(), "two moves share a click path");
    for p in &paths {
        for len in 1..p.len() {
            assert!(
                !set.contains(&p[..len].to_vec()),
                "{:?} is a prefix of another path",
                &p[..len]
            );
        }
    }
}

fn games(variant: &'static str, seed: u64) {
    let start = Boop::new(variant).unwrap();
    let played = random_game(&start, seed, 400, conserved);
    let last = played.positions.last().unwrap();
    // The game ends, or keeps having legal moves ([T3]): random_game checked that moves exist
    // exactly while it is on; a finished game has an outcome.
    if played.moves.len() < 400 {
        assert!(last.outcome().is_some());
    }
    // Pictures and paths along the way.
    check_views(&played);
    for g in played.positions.iter().step_by(7) {
        click_paths_are_unambiguous(g);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn random_boop_games(seed in any::<u64>()) {
        games("boop", seed);
    }

    #[test]
    fn random_boooop_games(seed in any::<u64>()) {
        games("boooop", seed);
    }
}

#[test]
fn random_games_reach_every_kind_of_turn() {
    // Over a fixed set of seeds the random games must exercise wins, draws, line and
    // single graduations, cats placed and ghosts placed; otherwise the properties above
    // would be checked on too narrow a sample.
    let mut seen = HashSet::new();
    for seed in 0..200u64 {
        let variant = if seed % 2 == 0 { "boop" } else { "boooop" };
        let played = random_game(&Boop::new(variant).unwrap(), seed, 400, conserved);
        for (g, &mv) in played.positions.iter().zip(&played.moves) {
            let text = g.format_move(mv);
            if text.starts_with('C') {
                seen.insert("cat placed");
            }
            if text.contains('@') {
                seen.insert("ghost placed");
            }
            if let Some((_, graduation)) = text.split_once('/') {
                seen.insert(if graduation.len() == 6 {
                    "line graduation"
                } else {
                    "single graduation"
                });
            }
        }
        match played.positions.last().unwrap().outcome() {
            Some(ply_core::Outcome::Draw) => seen.insert("draw"),
            Some(_) => seen.insert("win"),
            None => false,
        };
    }
    for kind in ["cat placed", "ghost placed", "line graduation", "single graduation", "win"] {
        assert!(seen.contains(kind), "no random game had a {kind}: {seen:?}");
    }
}
