//! The perft figures of boop.md §11, and deeper regression values of this engine.

use ply_boop::Boop;
use ply_core::{Game, perft};

fn perft_of(variant: &str, depth: u32) -> u64 {
    perft(&mut Boop::new(variant).unwrap(), depth)
}

#[test]
fn boop_start_depths_1_to_4() {
    let expected = [36, 1_260, 42_900, 1_421_952];
    for (d, &n) in expected.iter().enumerate() {
        assert_eq!(perft_of("boop", d as u32 + 1), n, "boop depth {}", d + 1);
    }
}

#[test]
fn boop_start_depth_5() {
    assert_eq!(perft_of("boop", 5), 45_923_628);
}

#[test]
fn boooop_start_depths_1_to_3() {
    assert_eq!(perft_of("boooop", 1), 756);
    assert_eq!(perft_of("boooop", 2), 530_460);
    assert_eq!(perft_of("boooop", 3), 35_220_900);
}
