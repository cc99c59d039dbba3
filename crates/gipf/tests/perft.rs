//! Perft figures of gipf.md section 8, and deeper regression values from this engine.

mod common;

use common::{gt1, gt2, gt3};
use ply_core::{Game, perft};
use ply_gipf::Position;

fn start(variant: &str) -> Position {
    Position::new(variant).expect("variant")
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
