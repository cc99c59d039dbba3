//! `ply_search::analysis` on boop.: a turn that allows a win on the spot is a blunder, the
//! preferred turn loses nothing, progress is reported per turn, and a raised stop flag ends
//! the analysis early.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use ply_boop::Boop;
use ply_core::{DynGame, Game, Player};
use ply_search::analysis::{Mark, analyse};
use ply_search::{Algorithm, Engine, Limits, Think};

fn think() -> Think {
    Think { limits: Limits::nodes(3000), ..Think::level(10, Algorithm::AlphaBeta, 1) }
}

/// A game of boop. (level 2 against level 2) whose turn 26, Cd3, lets P1 win with Cc4.
const GAME: &str = "Ka5 Ke2 Kc3 Kc4 Kc3 Kc4 Kc3/c1c2c3 Kb6 Cc4 Kb3 Kb4 Kf3 Ca5 Kd3 Ca4 Kb6 Kc5 Ka1 \
                    Ke2 Kb5 Kc1 Kd2 Kc3 Kf6/d4e5f6 Kb4/kd5 Cd3 Cc4";

#[test]
fn a_turn_that_allows_a_win_is_a_blunder() {
    let moves: Vec<String> = GAME.split_whitespace().map(String::from).collect();
    let start = DynGame::new(Boop::new("boop").unwrap());
    let mut engine = Engine::new(Boop::new("boop").unwrap(), Algorithm::AlphaBeta);
    let mut seen = Vec::new();
    let a = analyse(
        &mut engine,
        &start,
        &moves,
        &think(),
        &Arc::new(AtomicBool::new(false)),
        &mut |p| {
            seen.push((p.done, p.total, p.turn.map(|t| t.number)));
        },
    )
    .unwrap();
    assert!(a.complete);
    assert_eq!(a.turns.len(), 27);
    let t = &a.turns[25];
    assert_eq!((t.number, t.player, t.played.as_str()), (26, Player::P2, "Cd3"));
    assert_eq!(t.mark, Some(Mark::Blunder));
    assert_eq!(t.after.expected, 0.0);
    // The last turn wins: the preferred one, no loss, the game over after it.
    let last = &a.turns[26];
    assert_eq!((last.best.as_str(), last.loss, last.mark), ("Cc4", 0.0, None));
    assert_eq!(last.after.score, "won");
    // One report per position searched: the start, then every turn (the final position is
    // over, so it needs no search but is reported with its turn).
    assert_eq!(seen.len(), 28);
    assert_eq!(seen[0], (1, 27, None));
    assert_eq!(seen[27], (28, 27, Some(27)));
    assert!(a.summary[1].blunders >= 1);
    assert_eq!(a.summary[0].turns + a.summary[1].turns, 27);
}

#[test]
fn stop_ends_the_analysis_early_and_bad_turns_are_refused() {
    let moves: Vec<String> = GAME.split_whitespace().map(String::from).collect();
    let start = DynGame::new(Boop::new("boop").unwrap());
    let mut engine = Engine::new(Boop::new("boop").unwrap(), Algorithm::AlphaBeta);
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    let a = analyse(&mut engine, &start, &moves, &think(), &stop, &mut |p| {
        if p.done == 5 {
            flag.store(true, Ordering::Relaxed);
        }
    })
    .unwrap();
    assert!(!a.complete);
    assert_eq!(a.turns.len(), 4);

    let bad = vec!["Kc3".to_string(), "Kc3".to_string()];
    let e = analyse(
        &mut engine,
        &start,
        &bad,
        &think(),
        &Arc::new(AtomicBool::new(false)),
        &mut |_| {},
    )
    .unwrap_err();
    assert!(e.to_string().starts_with("turn 2 'Kc3'"), "{e}");
}
