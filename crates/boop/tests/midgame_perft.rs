//! Perft from middle-game positions with graduations, all-eight choices and ghost moves.
//! Depth 1 of each is a count given by boop.md §9; the deeper figures are regression values
//! of this engine (checked at depth 1 against the reference, at every depth against the
//! invariants of the property tests).

use ply_boop::{Boop, Pool, Setup, Travel, Variant};
use ply_core::{Game, Player, perft};

fn pool(kittens: u8, cats: u8) -> Option<Pool> {
    Some(Pool { kittens, cats })
}

/// Example 8: all eight of P1's pieces go on the bed; every placement offers 8 choices.
fn all_eight() -> Boop {
    let d = "6  . o . . . .
             5  . . X . . x
             4  x . . . . .
             3  . . . o . .
             2  . . . . x X
             1  x . x . . .";
    Boop::from_setup(
        &Setup::start(Variant::Boop).with_diagram(d).unwrap().with_pools(pool(1, 0), pool(6, 0)),
    )
    .unwrap()
}

/// Example 6: two lines to choose from.
fn two_lines() -> Boop {
    let s = Setup::start(Variant::Boop)
        .with_pieces("x b3 c3 d1 d2 o e3 b5 f6")
        .unwrap()
        .with_pools(pool(4, 0), pool(5, 0));
    Boop::from_setup(&s).unwrap()
}

/// Example 17 after P1's `Kf1`: P2 must graduate a line his opponent's ghost made, with
/// ghost placements on top; P1's ghost is on the bed and moves every turn.
fn ghost_line() -> Boop {
    let s = Setup::start(Variant::Boooop)
        .with_pieces("o b5 b6 c4 x e5")
        .unwrap()
        .with_pools(pool(7, 0), pool(5, 0))
        .with_ghost(Player::P1, "c3d3", Travel::Forward)
        .unwrap();
    let mut g = Boop::from_setup(&s).unwrap();
    let mv = g.parse_move("Kf1").unwrap();
    g.play(mv);
    g
}

/// Example 13: both ghosts on the bed, one about to skip the other.
fn two_ghosts() -> Boop {
    let s = Setup::start(Variant::Boooop)
        .with_pieces("x d3 d5 o d2 d4")
        .unwrap()
        .with_pools(pool(6, 0), pool(6, 0))
        .with_ghost(Player::P1, "b2b3", Travel::Forward)
        .unwrap()
        .with_ghost(Player::P2, "c2c3", Travel::Backward)
        .unwrap();
    Boop::from_setup(&s).unwrap()
}

fn check(mut g: Boop, expected: &[u64]) {
    for (d, &n) in expected.iter().enumerate() {
        assert_eq!(perft(&mut g, d as u32 + 1), n, "depth {}", d + 1);
    }
}

#[test]
fn all_eight_on_the_bed() {
    check(all_eight(), &[139, 3_766, 374_450, 9_912_939]);
}

#[test]
fn two_lines_to_choose_from() {
    check(two_lines(), &[30, 863, 30_547, 865_488]);
}

#[test]
fn ghost_made_line_for_the_opponent() {
    check(ghost_line(), &[672, 21_777, 2_399_121, 74_945_399]);
}

#[test]
fn two_ghosts_on_the_bed() {
    check(two_ghosts(), &[32, 1_000, 32_714, 983_644]);
}
