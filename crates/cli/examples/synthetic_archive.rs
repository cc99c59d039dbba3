//! A synthetic collection of boardspace.net ZÈRTZ records, for measuring `ply import --into`
//! and the archive at the size of boardspace's real archive (about 82,500 records) without
//! shipping it: random legal games (uniform over the legal turns, seeded), written as the site
//! writes its records (`P0[n RtoB …]`, `R-`, `BtoB`, `Done`), between 2,000 made-up players
//! over 2003–2025, 90 % on the 37-ring board and 5 % on each larger one.
//!
//! ```sh
//! cargo run --release -p ply --example synthetic_archive -- 82500 /work/synthetic [SEED]
//! ```

use std::fmt::Write as _;
use std::path::PathBuf;

use ply_core::zobrist::splitmix64;
use ply_core::{Game, Player, PositionString};
use ply_zertz::Position;

struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        let (state, value) = splitmix64(self.0);
        self.0 = state;
        (value % n as u64) as usize
    }
}

/// `d4` → `D 4`, as boardspace writes a cell.
fn cell(name: &str) -> String {
    let (col, row) = name.split_at(1);
    format!("{} {row}", col.to_ascii_uppercase())
}

/// The boardspace actions of one turn given in ply's notation (`Bd2,e1`, `Wd2`, `c4xe3xc2`).
fn actions(notation: &str, pool: [u32; 3], seat: usize) -> Vec<String> {
    if notation.contains('x') {
        let cells: Vec<&str> = notation.split('x').collect();
        return cells.windows(2).map(|w| format!("BtoB {} {}", cell(w[0]), cell(w[1]))).collect();
    }
    let colour = match &notation[..1] {
        "W" => 0,
        "G" => 1,
        _ => 2,
    };
    // From the pool while it has marbles, else from the player's own captures.
    let rack = if pool.iter().sum::<u32>() > 0 { 2 } else { seat };
    let rest = &notation[1..];
    let (to, removed) = rest.split_once(',').map_or((rest, None), |(a, b)| (a, Some(b)));
    let mut out = vec![format!("RtoB {rack} {colour} {}", cell(to))];
    if let Some(r) = removed {
        out.push(format!("R- {}", cell(r)));
    }
    out
}

/// The pool (white, grey, black) of a position, from its position string.
fn pool(position: &Position) -> [u32; 3] {
    let text = position.position_string();
    let field = text.split(';').nth(4).unwrap_or("0,0,0");
    let mut out = [0; 3];
    for (slot, n) in out.iter_mut().zip(field.split(',')) {
        *slot = n.parse().unwrap_or(0);
    }
    out
}

fn record(rng: &mut Rng, index: usize) -> (String, String) {
    let (variant, setup) = match rng.below(20) {
        0 => ("48", "Zertz+11"),
        1 => ("61", "Zertz+24"),
        _ => ("37", "Zertz"),
    };
    let mut game = Position::new(variant).expect("a ZÈRTZ variant");
    let names = [format!("player{:04}", rng.below(2000)), format!("player{:04}", rng.below(2000))];
    let (year, month, day) = (2003 + rng.below(23), 1 + rng.below(12), 1 + rng.below(28));
    let (hour, minute) = (rng.below(24), rng.below(60));
    let mut text = format!(
        "(;\nGM[22] VV[2]\nDT[{year}-{month:02}-{day:02}]\nGN[{a}-{b}]\nSU[{setup}]\nP0[id \"{a}\"]\nP1[id \"{b}\"]\n; P0[0 Start P0]\n",
        a = names[0],
        b = names[1],
    );
    let mut step = 1;
    let mut moves = Vec::new();
    while game.outcome().is_none() {
        moves.clear();
        game.legal_moves(&mut moves);
        let mv = moves[rng.below(moves.len())];
        let seat = usize::from(game.to_move() == Player::P2);
        for action in actions(&game.format_move(mv), pool(&game), seat)
            .into_iter()
            .chain(["Done".to_string()])
        {
            let _ = writeln!(text, "; P{seat}[{step} {action}]");
            step += 1;
        }
        game.play(mv);
    }
    text.push_str(";\n)\n");
    let name = format!(
        "U!Z-{}-{}-{year}-{month:02}-{day:02}-{hour:02}{minute:02}-{index}.sgf",
        names[0], names[1]
    );
    (name, text)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let (Some(count), Some(dir)) = (args.next(), args.next()) else {
        eprintln!("usage: synthetic_archive COUNT DIR [SEED]");
        std::process::exit(2);
    };
    let count: usize = count.parse().expect("COUNT is a number");
    let seed: u64 = args.next().map_or(2026, |s| s.parse().expect("SEED is a number"));
    let dir = PathBuf::from(dir);
    std::fs::create_dir_all(&dir).expect("the folder can be made");
    let mut rng = Rng(seed);
    for i in 0..count {
        let (name, text) = record(&mut rng, i);
        std::fs::write(dir.join(name), text).expect("the record can be written");
    }
    eprintln!("{count} records in {}", dir.display());
}
