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

// Regression values from this engine (not in gipf.md). The mid-game positions are those of
// the worked examples: G5 and G11 (a push that makes rows for both players), G7 (overlapping
// rows through a GIPF piece, with keep/take choices).

#[test]
fn gt_depth_4_regression() {
    assert_eq!(perft(&mut gt1(), 4), 2_283_365);
    assert_eq!(perft(&mut gt2(), 4), 2_469_991);
    assert_eq!(perft(&mut gt3(), 4), 8_558_663);
}

#[test]
fn worked_example_positions_regression() {
    use common::pos;
    use ply_gipf::Variant;
    let mut g5 = pos(Variant::Basic, "b5 f2 g2 h2", "b2 e2 e3 e4 e6", [11, 10], [0, 0]);
    check(&mut g5, &[40, 1_604, 64_314, 2_578_206]);
    let mut g7 =
        pos(Variant::Standard, "b5(G) e2 e3 e4(G) f5 g5 h5", "b2(G) e8(G) h2(G)", [7, 12], [0, 2]);
    check(&mut g7, &[49, 2_058, 99_975, 4_164_190]);
    let mut g11 = pos(Variant::Basic, "b5 f2 g2 h2", "c2 c3 c4 e2 e3 e4 e6", [11, 8], [0, 0]);
    check(&mut g11, &[40, 1_604, 64_326, 2_579_096]);
}

// Depth 5: 3–20 s each in release on a busy 2-core machine, too slow for the test profile, so
// ignored by default; `scripts/test-release` runs them
// (`cargo test --release -p ply-gipf --test perft -- --ignored`).

#[test]
#[ignore = "about 4 s in release; scripts/test-release runs it"]
fn basic_start_depth_5_regression() {
    assert_eq!(perft(&mut start("basic"), 5), 126_307_872);
}

#[test]
#[ignore = "about 4 s in release; scripts/test-release runs it"]
fn standard_start_depth_5_regression() {
    assert_eq!(perft(&mut start("standard"), 5), 127_371_327);
}

#[test]
#[ignore = "about 20 s in release; scripts/test-release runs it"]
fn tournament_start_depth_5_regression() {
    assert_eq!(perft(&mut start("tournament"), 5), 784_009_152);
}

#[test]
#[ignore = "about 25 s in release; scripts/test-release runs it"]
fn gt_depth_5_regression() {
    assert_eq!(perft(&mut gt1(), 5), 85_049_802);
    assert_eq!(perft(&mut gt2(), 5), 94_202_083);
    assert_eq!(perft(&mut gt3(), 5), 457_222_043);
}
