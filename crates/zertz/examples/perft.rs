//! `cargo run --release -p ply-zertz --example perft -- VARIANT DEPTH [MOVE...]`: perft with
//! timing from the start of a variant after the given moves.

use std::time::Instant;

use ply_core::{Game, perft};
use ply_zertz::Position;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let variant = args.first().map_or("37", String::as_str);
    let depth: u32 = args.get(1).and_then(|d| d.parse().ok()).unwrap_or(2);
    let mut pos = Position::new(variant).expect("variant");
    for text in &args[2.min(args.len())..] {
        let mv = pos.parse_move(text).expect("legal move");
        pos.play(mv);
    }
    let t = Instant::now();
    let n = perft(&mut pos, depth);
    let secs = t.elapsed().as_secs_f64();
    println!(
        "{variant} perft({depth}) = {n} in {secs:.2} s ({:.1} M leaves/s)",
        n as f64 / secs / 1e6
    );
}
