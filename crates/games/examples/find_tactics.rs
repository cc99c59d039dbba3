//! Finds solved positions for a tactics suite (`tests/data/tactics-<game>.txt`) in game
//! records: the last turns of every decisive game are searched by alpha-beta to MAX_PLIES (1,
//! 3, 5 or 7), and each position where the player to move forces a win within that is
//! confirmed by the exhaustive oracle (`ply_search::tactics`), which also gives the exact
//! distance.
//!
//! ```text
//! cargo run --release -p ply-games --example find_tactics -- GAME MAX_PLIES PER_DISTANCE RECORDS...
//! ```
//!
//! RECORDS are ply records (`.ply`) or folders of them, e.g. the `--out` folder of
//! `ply match --round-robin` (self-play) or of `ply import -o` (boardspace's ZÈRTZ archive).
//! Prints up to PER_DISTANCE lines for each distance (1, 3, … MAX_PLIES plies), in the order
//! found (records sorted by path), one position per record and distance, no position twice.
//! Progress goes to standard error, one line a record.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use ply_core::{Evaluate, PositionString};
use ply_records::Record;
use ply_search::tactics::{Tactic, shortest_win};
use ply_search::{AlphaBeta, Limits, Searcher};

/// How many turns before the end of a game are searched.
const LAST_TURNS: usize = 8;

/// The most positions alpha-beta may visit on one position. A position it cannot search to
/// MAX_PLIES within this is passed over (a win it found before the limit still counts, once
/// the oracle confirms it), which keeps every suite quick to check on every test run.
const NODES: u64 = 3_000_000;

fn files(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_dir() {
        let mut entries: Vec<PathBuf> =
            std::fs::read_dir(path).into_iter().flatten().flatten().map(|e| e.path()).collect();
        entries.sort();
        for e in entries {
            files(&e, out);
        }
    } else if path.extension().is_some_and(|e| e == "ply") {
        out.push(path.to_path_buf());
    }
}

fn find<G: Evaluate + PositionString>(paths: &[PathBuf], max_plies: u32, per_distance: usize) {
    let mut seen = HashSet::new();
    let distances = max_plies.div_ceil(2) as usize;
    let mut found = vec![0usize; distances];
    let stop = Arc::new(AtomicBool::new(false));
    let mut search = AlphaBeta::<G>::new(16, 1);
    for path in paths {
        if found.iter().all(|&n| n >= per_distance) {
            break;
        }
        let Ok(text) = std::fs::read_to_string(path) else { continue };
        let Ok(record) = Record::parse(&text) else { continue };
        if record.header("Game") != Some(G::NAME) || record.result().outcome().is_none() {
            continue;
        }
        let variant = record.header("Variant").unwrap_or_else(|| G::default_variant());
        let Ok(mut game) = G::new(variant) else { continue };
        let mut positions = Vec::new();
        for mv in &record.moves {
            let Ok(m) = game.parse_move(&mv.text) else { break };
            positions.push(game.clone());
            game.play(m);
        }
        let from = positions.len().saturating_sub(LAST_TURNS);
        let mut taken = vec![false; distances];
        for (turn, position) in positions.iter().enumerate().skip(from) {
            let limits = Limits { nodes: Some(NODES), ..Limits::depth(max_plies) };
            let r = search.search(position, &limits, &stop);
            let Some(plies) = r.score.wins_in() else { continue };
            let slot = (plies / 2) as usize;
            if slot >= distances || taken[slot] || found[slot] >= per_distance {
                continue;
            }
            let text = position.position_string();
            let mut check = G::from_position_string(&text).expect("a position string reads");
            if shortest_win(&mut check, max_plies) != Some(plies) || !seen.insert(text.clone()) {
                continue;
            }
            let name = path.file_name().map_or_else(String::new, |n| n.to_string_lossy().into());
            let tactic =
                Tactic { position: text, plies, source: format!("{name} turn {}", turn + 1) };
            println!("{}", tactic.line());
            taken[slot] = true;
            found[slot] += 1;
        }
        eprintln!("{}: found so far {}", path.display(), summary(&found));
    }
    eprintln!("found {}", summary(&found));
}

/// "2 in 1 ply, 5 in 3 plies, …".
fn summary(found: &[usize]) -> String {
    let parts: Vec<String> = found
        .iter()
        .enumerate()
        .map(|(slot, n)| match slot {
            0 => format!("{n} in 1 ply"),
            _ => format!("{n} in {} plies", 2 * slot + 1),
        })
        .collect();
    parts.join(", ")
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |i: usize| args.get(i).and_then(|n| n.parse::<usize>().ok());
    let (Some(game), Some(max), Some(per)) = (args.first(), number(1), number(2)) else {
        eprintln!("usage: find_tactics GAME MAX_PLIES PER_DISTANCE RECORDS...");
        std::process::exit(2);
    };
    let max = u32::try_from(max).unwrap_or(0);
    if max % 2 == 0 || max > 7 {
        eprintln!("MAX_PLIES is 1, 3, 5 or 7 (a win by the player to move takes an odd number)");
        std::process::exit(2);
    }
    let mut paths = Vec::new();
    for a in &args[3..] {
        files(Path::new(a), &mut paths);
    }
    match game.as_str() {
        "boop" => find::<ply_boop::Boop>(&paths, max, per),
        "gipf" => find::<ply_gipf::Position>(&paths, max, per),
        "zertz" => find::<ply_zertz::Position>(&paths, max, per),
        "punct" => find::<ply_punct::Position>(&paths, max, per),
        other => {
            eprintln!("unknown game '{other}' (boop, gipf, zertz, punct)");
            std::process::exit(2);
        }
    }
}
