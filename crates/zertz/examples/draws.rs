//! Random games until one ends in a draw by repetition; prints its moves.
use ply_core::zobrist::splitmix64;
use ply_core::{Game, Outcome};
use ply_zertz::{Position, Variant};

fn main() {
    let mut state = 12345u64;
    let mut moves = Vec::new();
    let mut draws = 0;
    for g in 0..2_000_000u64 {
        let v = Variant::ALL[(g % 7) as usize];
        let mut p = Position::start(v);
        let mut names = Vec::new();
        while p.outcome().is_none() {
            p.legal_moves(&mut moves);
            let (n, r) = splitmix64(state);
            state = n;
            let m = moves[(r % moves.len() as u64) as usize];
            names.push(p.format_move(m));
            p.play(m);
        }
        if p.outcome() == Some(Outcome::Draw) {
            draws += 1;
            println!("game {g} {} {}: {}", v.id(), names.len(), names.join(" "));
            if draws >= 3 {
                return;
            }
        }
    }
    println!("no draw");
}
