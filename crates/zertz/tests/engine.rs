//! The computer player on ZÈRTZ: both searches take an immediate win and avoid an immediate
//! loss in hand-made positions (premises checked by brute force), the evaluation and the
//! prior see captures and isolations, levels 1 and 10 play legal turns, and a seed with a
//! node limit fixes the move.

mod common;

use common::setup;
use ply_core::{Evaluate, Evaluator, Game, Player};
use ply_search::Limits;
use ply_search::testkit::{
    assert_levels_play_legal_moves, assert_searches_are_deterministic, assert_searches_take_a_win,
    both_searchers as searchers, stop_flag as stop, winning_moves,
};
use ply_zertz::{Position, Variant};

/// The outer ring of the 37 board: without it the board is the 19-ring hexagon b2–f4.
const EDGE: &str = "a1 a2 a3 a4 b1 b5 c1 c6 d1 d7 e1 e6 f1 f5 g1 g2 g3 g4";

/// Player 1 holds three whites; the grey on d5 can jump the white on d4 (a win) and the white
/// can jump the grey (no win).
fn one_white_short() -> Position {
    setup(Variant::V37, "Wd4 Gd5", EDGE, [2, 7, 10], [[3, 0, 0], [0, 0, 0]], Player::P1)
}

#[test]
fn every_search_takes_an_immediate_win() {
    let g = one_white_short();
    let wins = winning_moves(&g);
    assert_eq!(wins, ["d5xd3"]);
    assert_eq!(common::moves(&g).len(), 2);
    assert_searches_take_a_win(&g, &wins, 2_000);
}

#[test]
fn every_search_avoids_an_immediate_loss() {
    // Player 2 places next to the white on d4 and Player 1 jumps it to win, unless the
    // landing ring is removed or the marble goes elsewhere.
    let g = setup(Variant::V37, "Wd4", EDGE, [2, 8, 10], [[3, 0, 0], [0, 0, 0]], Player::P2);
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    let (safe, losing): (Vec<_>, Vec<_>) = moves.iter().partition(|&&m| {
        let mut h = g.clone();
        h.play(m);
        winning_moves(&h).is_empty()
    });
    assert!(!safe.is_empty() && !losing.is_empty(), "{} safe, {} losing", safe.len(), losing.len());
    assert!(losing.contains(&&g.parse_move("Bd5,b2").unwrap()));
    for (name, mut s) in searchers() {
        let r = s.search(&g, &Limits::nodes(20_000), &stop());
        let best = r.best.unwrap();
        assert!(safe.contains(&&best), "{name} played {} and loses", g.format_move(best));
    }
}

#[test]
fn the_evaluation_sees_captures_and_isolations() {
    // The mover must capture and can win: nearly won.
    let g = one_white_short();
    assert!(Position::evaluator().evaluate(&g) > 5_000, "{}", Position::evaluator().evaluate(&g));
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    let favourite =
        *moves.iter().max_by_key(|&&m| Position::evaluator().move_prior(&g, m)).unwrap();
    assert_eq!(g.format_move(favourite), "d5xd3");
    assert!(Position::evaluator().is_forcing(&g, favourite));
    // The corner pair a1 a2 is cut off from the rest with one vacancy: filling it takes the
    // white on a1, and the prior puts such a placement above a quiet one.
    let g =
        setup(Variant::V37, "Wa1", "a3 b1 b2 b3", [5, 8, 10], [[0, 0, 0], [0, 0, 0]], Player::P1);
    let quiet = g.parse_move("Be4,g1").unwrap();
    let isolate = g.parse_move("Ba2,g1").unwrap();
    let mut h = g.clone();
    h.play(isolate);
    assert_eq!(h.state().captures[0], [1, 0, 1], "the premise: the group is taken");
    assert!(
        Position::evaluator().move_prior(&g, isolate)
            > Position::evaluator().move_prior(&g, quiet) + 200
    );
    assert!(Position::evaluator().evaluate(&g) > 100, "{}", Position::evaluator().evaluate(&g));
}

const OPENING: [&str; 4] = ["Ge4,g1", "Bb5,c6", "Ba1,a2", "Ba3,a4"];

#[test]
fn levels_1_and_10_play_legal_turns() {
    assert_levels_play_legal_moves::<Position>("37", &OPENING, 100_000);
}

#[test]
fn same_seed_and_node_limit_give_the_same_move() {
    let mut g = Position::new("37").unwrap();
    for m in OPENING {
        let mv = g.parse_move(m).unwrap();
        g.play(mv);
    }
    assert_searches_are_deterministic(&g, 3_000, 3_000);
}
