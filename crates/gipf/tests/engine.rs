//! The computer player on GIPF: both searches take an immediate win and avoid an immediate
//! loss in hand-made positions (premises checked by brute force), levels 1 and 10 play legal
//! turns, and a seed with a node limit fixes the move.

use ply_core::{Evaluate, Evaluator, Game, Outcome, Player};
use ply_gipf::{Position, Setup, Variant};
use ply_search::testkit::{
    assert_evaluation_above, assert_evaluation_below, assert_searches_avoid_a_loss,
    assert_searches_take_a_win, prior_favourite, safe_and_losing_moves, winning_moves,
};

/// Standard game. White's singles e2–e4 pushed up from e1 make the row e2–e5 whose run ends
/// with Black's last GIPF piece on e6: taking it wins. White keeps a GIPF piece on b5. Black
/// can save it, for instance by pushing from h6 so that his GIPF piece slides to d5.
fn last_gipf(to_move: Player) -> Position {
    let mut s =
        Setup::from_lists(Variant::Standard, "b5(G) e2 e3 e4 g3", "e6(G) f6 g6 c5 h4").unwrap();
    // White: 6 on the board + 9 in reserve + 3 captured by Black = 18.
    // Black: 6 on the board + 8 in reserve + 4 captured by White = 18.
    s.reserve = [9, 8];
    s.captured = [4, 3];
    s.to_move = to_move;
    Position::from_setup(&s).unwrap()
}

#[test]
fn every_search_takes_an_immediate_win() {
    let g = last_gipf(Player::P1);
    let mut wins = winning_moves(&g);
    wins.sort();
    assert_eq!(wins, ["e1-e2,xe2-e6"]);
    assert_searches_take_a_win(&g, &wins, 3_000);
}

#[test]
fn every_search_avoids_an_immediate_loss() {
    let g = last_gipf(Player::P2);
    // The premise: some Black turns let White win at once, others do not.
    let (safe, losing) = safe_and_losing_moves(&g);
    assert!(!safe.is_empty() && losing.len() > safe.len(), "{} safe", safe.len());
    assert!(safe.contains(&g.parse_move("h6-g6,xd5-g6+d5").unwrap()));
    assert_searches_avoid_a_loss(&g, 5_000);
}

#[test]
fn the_evaluation_sees_the_threat() {
    // White one push from taking Black's last GIPF piece: good for White whoever moves.
    let white = last_gipf(Player::P1);
    let black = last_gipf(Player::P2);
    assert_evaluation_above(&white, 300);
    assert_evaluation_below(&black, -300);
    // The prior puts a winning turn first.
    let favourite = prior_favourite(&white);
    let mut h = white.clone();
    h.play(favourite);
    assert_eq!(h.outcome(), Some(Outcome::Win(Player::P1)), "{}", white.format_move(favourite));
    assert!(Position::evaluator().is_forcing(&white, favourite));
}

ply_search::engine_tests!(Position,
    levels: ("standard", &["i3-h4", "e9-e8", "a3-b4", "b1-b2"], 50_000),
    same_seed: ("tournament", &["Ge1-e2", "Ge9-e8", "Ga1-b2", "i5-h5"], 3_000, 3_000),
);
