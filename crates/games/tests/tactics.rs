//! The tactics suites of `tests/data/tactics-*.txt` (see `ply_search::tactics`): for every
//! solved position, the exhaustive oracle confirms the distance, alpha-beta searched to that
//! depth (up to two deeper where the game reduces late moves) reports a win in exactly that
//! many plies with a turn the oracle confirms, and MCTS
//! proves every win in one ply at once (its expansion tries turns for a win, skipping those
//! the evaluator rules out: this checks that the rule-out never hides a win). Alpha-beta is
//! checked with one thread and with two (lazy SMP, and split roots in PÜNCT), and two threads
//! must play legal turns through whole games under time and node limits.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use std::time::Duration;

use ply_core::{Evaluate, Evaluator, PositionString};
use ply_search::tactics::{Tactic, wins_with, wins_within};
use ply_search::{AlphaBeta, Limits, Mcts, Rng, Searcher};

fn suite(game: &str) -> Vec<Tactic> {
    let path = format!("{}/../../tests/data/tactics-{game}.txt", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let suite: Vec<Tactic> = text
        .lines()
        .enumerate()
        .filter_map(|(i, l)| Tactic::parse(l).unwrap_or_else(|e| panic!("{path}:{}: {e}", i + 1)))
        .collect();
    // Every distance up to the mover's fourth turn in GIPF and ZÈRTZ, third in boop. (whose
    // 7-ply wins took 4 to 35 s each to check), first in PÜNCT (see the suites' headers).
    let longest = match game {
        "punct" => 1,
        "boop" => 5,
        _ => 7,
    };
    for plies in (1..=longest).step_by(2) {
        let count = suite.iter().filter(|t| t.plies == plies).count();
        assert!(count >= 8, "{path}: {count} wins in {plies} plies, want 8 or more");
    }
    suite
}

fn check<G: Evaluate + PositionString>() {
    let stop = Arc::new(AtomicBool::new(false));
    // A game that searches late moves a turn shallower first may see a win an iteration or
    // two later (one GIPF win in 7 needs depth 8); a proof ends the search, and the distance
    // it reports must still be exact.
    let slack = if G::evaluator().late_move_reductions().is_some() { 2 } else { 0 };
    for t in suite(G::NAME) {
        let at = format!("{} ({})", t.position, t.source);
        let start = G::from_position_string(&t.position).unwrap_or_else(|e| panic!("{at}: {e}"));
        let mut game = start.clone();
        // No shorter win: the distance is exact.
        assert!(t.plies < 3 || !wins_within(&mut game, t.plies - 2), "{at}: a shorter win");
        for threads in [1, 2] {
            let mut search = AlphaBeta::<G>::new(16, threads);
            let r = search.search(&start, &Limits::depth(t.plies + slack), &stop);
            let says = r.score;
            assert_eq!(says.wins_in(), Some(t.plies), "{at}, {threads} threads: it says {says}");
            let best = r.best.expect("a move");
            assert!(
                wins_with(&mut game, best, t.plies),
                "{at}, {threads} threads: {} does not win",
                game.format_move(best)
            );
        }
        if t.plies == 1 {
            let mut mcts = Mcts::<G>::new(16, 1);
            let r = mcts.search(&start, &Limits::nodes(2), &stop);
            let best = r.best.expect("a move");
            assert_eq!(r.score.wins_in(), Some(1), "{at}: MCTS says {}", r.score);
            assert!(wins_with(&mut game, best, 1), "{at}: MCTS's {}", game.format_move(best));
        }
    }
}

#[test]
fn boop_tactics() {
    check::<ply_boop::Boop>();
}

#[test]
fn gipf_tactics() {
    check::<ply_gipf::Position>();
}

#[test]
fn zertz_tactics() {
    check::<ply_zertz::Position>();
}

#[test]
fn punct_tactics() {
    check::<ply_punct::Position>();
}

/// The oracle without its move order: the mover's turns in the order `legal_moves` gives.
fn wins_within_in_list_order<G: ply_core::Game>(game: &mut G, plies: u32) -> bool {
    use ply_core::Outcome;
    if plies == 0 || game.outcome().is_some() {
        return false;
    }
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    moves.into_iter().any(|mv| {
        let mover = game.to_move();
        game.play(mv);
        let won = match game.outcome() {
            Some(outcome) => outcome == Outcome::Win(mover),
            None if game.to_move() == mover => wins_within_in_list_order(game, plies - 1),
            None if plies < 3 => false,
            None => {
                let mut replies = Vec::new();
                game.legal_moves(&mut replies);
                replies.into_iter().all(|reply| {
                    game.play(reply);
                    let still = match game.outcome() {
                        Some(outcome) => outcome == Outcome::Win(mover),
                        None => wins_within_in_list_order(game, plies - 2),
                    };
                    game.undo();
                    still
                })
            }
        };
        game.undo();
        won
    })
}

/// The oracle's killer order changes no answer: over the positions of random games (where
/// wins in 1 and 3 plies come up often near the end), it says what the same search in list
/// order says. Returns how many positions were won, so the caller can see wins were tested.
fn the_oracle_agrees_with_list_order<G: Evaluate>(seed: u64, games: usize) -> usize {
    let mut rng = Rng::new(seed);
    let mut won = 0;
    let mut moves = Vec::new();
    for _ in 0..games {
        let mut game = G::new(G::default_variant()).expect("the default variant");
        for ply in 0..300 {
            if game.outcome().is_some() {
                break;
            }
            if ply % 2 == 0 {
                let says = wins_within(&mut game, 3);
                assert_eq!(says, wins_within_in_list_order(&mut game, 3), "ply {ply}");
                won += usize::from(says);
            }
            game.legal_moves(&mut moves);
            game.play(moves[rng.below(moves.len())]);
        }
    }
    won
}

#[test]
fn the_oracles_move_order_changes_no_answer() {
    assert!(the_oracle_agrees_with_list_order::<ply_boop::Boop>(11, 3) > 0);
    assert!(the_oracle_agrees_with_list_order::<ply_gipf::Position>(12, 2) > 0);
    assert!(the_oracle_agrees_with_list_order::<ply_zertz::Position>(13, 3) > 0);
}

/// Plays a game of random turns and asks two threads for a turn every few plies, under a time
/// limit and under a node limit: every answer must be legal where it was asked.
fn two_threads_play_legal_turns<G: Evaluate>(seed: u64, every: usize) {
    let stop = Arc::new(AtomicBool::new(false));
    let mut rng = Rng::new(seed);
    let mut game = G::new(G::default_variant()).expect("the default variant");
    let mut search = AlphaBeta::<G>::new(4, 2).with_seed(seed);
    let mut moves = Vec::new();
    for ply in 0.. {
        if game.outcome().is_some() || ply > 400 {
            break;
        }
        game.legal_moves(&mut moves);
        if ply % every == 0 {
            for limits in [Limits::time(Duration::from_millis(30)), Limits::nodes(3_000)] {
                let r = search.search(&game, &limits, &stop);
                let best = r.best.expect("a turn: the game goes on");
                assert!(
                    moves.contains(&best),
                    "ply {ply}: {} is not legal",
                    game.format_move(best)
                );
                assert!(r.pv.first() == Some(&best), "ply {ply}: the line starts elsewhere");
            }
        }
        game.play(moves[rng.below(moves.len())]);
    }
}

#[test]
fn two_threads_play_legal_turns_in_every_game() {
    two_threads_play_legal_turns::<ply_boop::Boop>(1, 3);
    two_threads_play_legal_turns::<ply_gipf::Position>(2, 5);
    two_threads_play_legal_turns::<ply_zertz::Position>(3, 3);
    // Thousands of turns a position: the threads share out the root moves.
    two_threads_play_legal_turns::<ply_punct::Position>(4, 6);
}
