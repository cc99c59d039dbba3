//! Writes seed inputs for the fuzz targets into `fuzz/corpus/<target>/`: positions a few
//! dozen turns into random games with a legal move's text (and damaged copies of it), random
//! walks, and records of random games of every game. Deterministic (fixed seeds).
//!
//! `cargo +nightly run --release --example seeds` (in `fuzz/`), then minimise with
//! `cargo fuzz cmin` as `docs/fuzzing.md` says. The boardspace target's seeds are records of
//! `../shared/corpus/zertz-boardspace`, copied by hand and minimised the same way.

use std::fs;
use std::path::{Path, PathBuf};

use ply_core::Game;
use ply_core::zobrist::splitmix64;
use ply_fuzz::Input;
use ply_records::{Record, RecordMove};

struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        let (next, r) = splitmix64(self.0);
        self.0 = next;
        (r % n as u64) as usize
    }
}

fn dir(target: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus").join(target);
    fs::create_dir_all(&d).expect("corpus folder");
    d
}

/// The bytes that make [`Input::pick`] choose `index` of `count`.
fn pick_bytes(index: usize, count: usize) -> Vec<u8> {
    if count <= 256 { vec![index as u8] } else { (index as u16).to_le_bytes().to_vec() }
}

/// Seeds for `parse_move_<game>` and `rules_<game>`.
fn game_seeds<G: Game>(rng: &mut Rng) {
    let parse = dir(&format!("parse_move_{}", G::NAME));
    let rules = dir(&format!("rules_{}", G::NAME));
    let bases: Vec<G> = ply_fuzz::bases();
    let mut moves = Vec::new();
    for b in (0..bases.len()).step_by(5) {
        let turns = b % 3;
        let mut bytes = vec![b as u8, turns as u8];
        let mut game = bases[b].clone();
        for _ in 0..turns {
            game.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let i = rng.below(moves.len());
            bytes.extend(pick_bytes(i, moves.len()));
            game.play(moves[i]);
        }
        let walked: G = ply_fuzz::position(&bases, &mut Input::new(&bytes));
        assert_eq!(walked.hash(), game.hash(), "the seed walks where the target walks");
        game.legal_moves(&mut moves);
        let texts: Vec<String> = match moves.is_empty() {
            true => vec!["pass".into()],
            false => {
                let text = game.format_move(moves[rng.below(moves.len())]);
                let cut = text.char_indices().nth(text.chars().count() / 2).map_or(0, |c| c.0);
                vec![text.to_uppercase(), text[..cut].to_string(), text]
            }
        };
        for (t, text) in texts.into_iter().enumerate() {
            let mut seed = bytes.clone();
            seed.extend(text.as_bytes());
            fs::write(parse.join(format!("seed-{b}-{t}")), seed).expect("write");
        }
    }
    for (v, _) in G::variants().iter().enumerate() {
        for turns in [8usize, 40, 160] {
            let mut walk = vec![v as u8];
            walk.extend((0..turns * 2).map(|_| rng.below(256) as u8));
            fs::write(rules.join(format!("seed-{v}-{turns}")), walk).expect("write");
        }
    }
}

/// Seeds for `record`: records of random games of every game and variant, with comments and
/// the forms the reader accepts (no turn numbers, `;` comments, a result token).
fn record_seeds(rng: &mut Rng) {
    let out = dir("record");
    let registry = ply_games::registry();
    let mut n = 0;
    for entry in registry.entries() {
        for variant in entry.variants {
            let mut game = entry.new_game(Some(variant)).expect("variant");
            let turns = 10 + rng.below(60);
            for _ in 0..turns {
                let moves = game.legal_moves();
                if moves.is_empty() {
                    break;
                }
                game.play(&moves[rng.below(moves.len())]).expect("legal");
            }
            let mut record = Record::of_game(&*game);
            record.set_header("P1", "Ada \"the\" \\ first");
            record.set_header("Date", "2026.11.30");
            record.comment = Some("a game".into());
            if let Some(m) = record.moves.get_mut(1) {
                m.comment = Some("a comment".into());
            }
            fs::write(out.join(format!("seed-{n}")), record.to_string()).expect("write");
            n += 1;
            let bare: Vec<String> =
                record.moves.iter().map(|m: &RecordMove| m.text.clone()).collect();
            let text = format!(
                "; no numbers\n[Game \"{}\"]\n[Variant \"{variant}\"]\n{} *\n",
                entry.name,
                bare.join(" ")
            );
            fs::write(out.join(format!("seed-{n}")), text).expect("write");
            n += 1;
        }
    }
}

fn main() {
    let mut rng = Rng(0x5eed);
    game_seeds::<ply_boop::Boop>(&mut rng);
    game_seeds::<ply_gipf::Position>(&mut rng);
    game_seeds::<ply_punct::Position>(&mut rng);
    game_seeds::<ply_zertz::Position>(&mut rng);
    record_seeds(&mut rng);
}
