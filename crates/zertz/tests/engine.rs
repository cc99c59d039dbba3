//! The computer player on ZÈRTZ: both searches take an immediate win and avoid an immediate
//! loss in hand-made positions (premises checked by brute force), the evaluation and the
//! prior see captures and isolations, levels 1 and 10 play legal turns, and a seed with a
//! node limit fixes the move.

use crate::common;

use common::setup;
use ply_core::{Evaluate, Evaluator, Game, Player};
use ply_search::testkit::{
    assert_evaluation_above, assert_searches_avoid_a_loss, assert_searches_take_a_win,
    prior_favourite, safe_and_losing_moves, winning_moves,
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
    let (safe, losing) = safe_and_losing_moves(&g);
    assert!(!safe.is_empty() && !losing.is_empty(), "{} safe, {} losing", safe.len(), losing.len());
    assert!(losing.contains(&g.parse_move("Bd5,b2").unwrap()));
    assert_searches_avoid_a_loss(&g, 20_000);
}

#[test]
fn the_evaluation_sees_captures_and_isolations() {
    // The mover must capture and can win: nearly won.
    let g = one_white_short();
    assert_evaluation_above(&g, 5_000);
    let favourite = prior_favourite(&g);
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
    assert_evaluation_above(&g, 100);
}

const OPENING: [&str; 4] = ["Ge4,g1", "Bb5,c6", "Ba1,a2", "Ba3,a4"];

ply_search::engine_tests!(Position,
    levels: ("37", &OPENING, 100_000),
    same_seed: ("37", &OPENING, 3_000, 3_000),
);
