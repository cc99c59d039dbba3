//! The computer player on PÜNCT: both searches take an immediate win and avoid an immediate
//! loss in hand-made positions (premises checked by brute force), levels 1 and 10 play legal
//! turns, and a seed with a node limit fixes the move.

use ply_core::{Game, Player};
use ply_punct::{Position, Setup, Variant};
use ply_search::testkit::{
    assert_evaluation_above, assert_evaluation_below, assert_searches_avoid_a_loss,
    assert_searches_take_a_win, prior_favourite, winning_moves,
};

/// White's chain along row 8 from side `A` (a8) to side `Q` (q10), with a gap at d8–f8 that
/// one straight piece fills (White still has an `E` and a `C`). Black has three pieces
/// elsewhere.
const GAP: &str = "W E a8:b8,c8; W E g8:h8,i8; W E j8:k8,l8; W C n8:m8,o8; W L p8:p9,q10; \
                   B T c3:c4,d4; B T m14:m15,n15; B E f12:f13,f14";

fn pos(text: &str, to_move: Player) -> Position {
    Position::from_setup(&Setup::parse(text, to_move).unwrap(), Variant::Standard).unwrap()
}

#[test]
fn every_search_takes_an_immediate_win() {
    let g = pos(GAP, Player::P1);
    let mut wins = winning_moves(&g);
    wins.sort();
    assert_eq!(wins, ["Ce8:d8,f8", "Ed8:e8,f8", "Ef8:d8,e8"]);
    assert_searches_take_a_win(&g, &wins, 2_000);
}

#[test]
fn every_search_avoids_an_immediate_loss() {
    let g = pos(GAP, Player::P2);
    // The premise: a Black turn elsewhere lets White connect at once ...
    let mut far = g.clone();
    far.play(far.parse_move("Tb1:b2,c2").unwrap());
    assert!(!winning_moves(&far).is_empty());
    // ... and blocking the gap does not.
    let mut block = g.clone();
    block.play(block.parse_move("Te8:e9,f9").unwrap());
    assert!(winning_moves(&block).is_empty());
    assert_searches_avoid_a_loss(&g, 3_000);
}

#[test]
fn the_evaluation_sees_the_threat() {
    // White one piece from connecting, to move: clearly better for White than for Black.
    let white = pos(GAP, Player::P1);
    let black = pos(GAP, Player::P2);
    assert_evaluation_above(&white, 300);
    assert_evaluation_below(&black, -300);
    // The turn the prior likes best blocks the gap.
    let favourite = prior_favourite(&black);
    let mut h = black.clone();
    h.play(favourite);
    assert!(winning_moves(&h).is_empty(), "{}", black.format_move(favourite));
}

const OPENING: [&str; 4] = ["Tb3:b4,c4", "Tn13:n14,o14", "Ed5:e6,f7", "Ml12:l13,m12"];

// Levels from the first three turns; the seed after all four, where MCTS expands thousands of
// children a node: a small budget is enough.
ply_search::engine_tests!(Position,
    levels: ("standard", &OPENING[..3], 20_000),
    same_seed: ("standard", &OPENING, 3_000, 40),
);
