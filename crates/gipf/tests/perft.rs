//! Perft figures of gipf.md section 8, and deeper regression values from this engine.

use ply_core::{Game, Player, perft};
use ply_gipf::{EntryPhase, Position, Setup, Variant};

fn start(variant: &str) -> Position {
    Position::new(variant).expect("variant")
}

/// GT1 (`basic`) of gipf.md section 8.
pub fn gt1() -> Position {
    let mut s = Setup::from_lists(
        Variant::Basic,
        "b2 b4 c2 c5 c6 d2 d5 e3 e5 f3 f4 f7 g2 g6 h5",
        "b5 c3 c4 d7 e7 e8 g3 g4 g5 h3 h4",
    )
    .unwrap();
    s.reserve = [0, 4];
    Position::from_setup(&s).unwrap()
}

/// GT2 (`standard`).
pub fn gt2() -> Position {
    let s = Setup::from_lists(
        Variant::Standard,
        "b2 b5 c3 c5(G) d6 e2 e3(G) e7 f5 f6(G) f7 g5 h3 h4 h5",
        "b3 b4 c2 c4(G) c6 d2 d3 d4 d7 e6(G) e8 g2(G) g3 g6 h2",
    )
    .unwrap();
    Position::from_setup(&s).unwrap()
}

/// GT3 (`tournament`).
pub fn gt3() -> Position {
    let mut s = Setup::from_lists(
        Variant::Tournament,
        "d3 d5(G) d6 d7 e2 e3(G) e4(G) f4(G) f7 g3",
        "b4 b5 c2 c6 d2 d4 e8(G) g2 g6 h2",
    )
    .unwrap();
    s.reserve = [4, 7];
    s.entry = [EntryPhase::Singles; 2];
    assert_eq!(s.to_move, Player::P1);
    Position::from_setup(&s).unwrap()
}

fn check(pos: &mut Position, want: &[u64]) {
    for (i, &n) in want.iter().enumerate() {
        assert_eq!(perft(pos, i as u32 + 1), n, "perft({})", i + 1);
    }
}

#[test]
fn basic_start() {
    check(&mut start("basic"), &[42, 1_764, 73_800, 3_066_768]);
}

#[test]
fn standard_start() {
    check(&mut start("standard"), &[42, 1_764, 73_800, 3_066_768]);
}

#[test]
fn tournament_start() {
    check(&mut start("tournament"), &[42, 1_764, 148_176, 12_446_784]);
}

#[test]
fn gt1_basic() {
    check(&mut gt1(), &[40, 1_572, 60_260]);
}

#[test]
fn gt2_standard() {
    check(&mut gt2(), &[143, 1_728, 64_862]);
}

#[test]
fn gt3_tournament() {
    check(&mut gt3(), &[88, 3_396, 220_255]);
}
