//! Opening books: `ply book` writes openings that a search judges balanced, and `ply match
//! --book` plays its game pairs from them instead of from random turns.
//!
//! Why: in a game as sharp as ZÈRTZ, a few random turns often leave a position one side wins
//! whoever plays it, and a game pair from it splits one win each whatever the engines' strength
//! (docs/strength.md, "Balanced openings"). Engine testers use books of balanced openings for
//! the same reason (cutechess-cli's `-openings`, fishtest's books).

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use anyhow::{Context, bail};
use clap::Args;
use ply_search::{EngineEntry, Rng, analysis::expected_score};

use crate::computer::{Contestant, counting_bar, engine_and_variant, parse_spec};
use crate::position::UsageError;

#[derive(Args, Debug)]
pub struct BookArgs {
    /// The game.
    pub game: String,
    /// The variant (default: the game's default).
    #[arg(long, short = 'v')]
    pub variant: Option<String>,
    /// Openings to write.
    #[arg(long, default_value_t = 100)]
    pub count: usize,
    /// Random turns in each opening.
    #[arg(long, default_value_t = 6)]
    pub turns: usize,
    /// The search that judges each opening, as `ply match --a` (level:N, time:MS, nodes:N or
    /// depth:N); a node budget keeps the book reproducible.
    #[arg(long, default_value = "nodes:300000")]
    pub judge: String,
    /// Keep an opening when the judge expects the side to move to score within this distance
    /// of 50 % (0.1: from 40 % to 60 %; expected score as `ply analyse` reports it).
    #[arg(long, default_value_t = 0.1)]
    pub within: f64,
    /// Seed of the random turns.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Openings judged at the same time (each search uses one thread).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Give up after judging this many random openings (default: 50 a kept opening).
    #[arg(long)]
    pub tries: Option<usize>,
    /// Write the book to this file (default: standard output).
    #[arg(long, short = 'o', value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// A book's openings: each the turns of one opening in canonical notation.
#[derive(Clone, Debug, Default)]
pub(crate) struct Book {
    pub(crate) openings: Vec<Vec<String>>,
}

impl Book {
    /// The openings of the book at `path`: one a line, its turns separated by spaces; `#`
    /// starts a comment, and blank lines are skipped. Every turn is checked against the rules
    /// of `variant`.
    ///
    /// # Errors
    /// A file that cannot be read, holds no opening, or has a turn that is not legal (named
    /// with its line), or an opening that ends the game.
    pub(crate) fn load(path: &Path, entry: &EngineEntry, variant: &str) -> anyhow::Result<Book> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read the book {}", path.display()))?;
        Book::parse(&text, entry, variant)
            .map_err(|e| anyhow::Error::new(UsageError(format!("book {}: {e}", path.display()))))
    }

    /// [`load`](Book::load) where a book was given.
    pub(crate) fn load_optional(
        path: Option<&Path>,
        entry: &EngineEntry,
        variant: &str,
    ) -> anyhow::Result<Option<Arc<Book>>> {
        path.map(|p| Book::load(p, entry, variant).map(Arc::new)).transpose()
    }

    fn parse(text: &str, entry: &EngineEntry, variant: &str) -> Result<Book, String> {
        let mut openings = Vec::new();
        let mut engine = entry.new_engine(variant).map_err(|e| e.to_string())?;
        for (n, line) in text.lines().enumerate() {
            let turns = line.split('#').next().unwrap_or("");
            if turns.trim().is_empty() {
                continue;
            }
            engine.restart();
            let mut opening = Vec::new();
            for (k, turn) in turns.split_whitespace().enumerate() {
                if engine.game().outcome().is_some() {
                    return Err(format!("line {}: the game is over before turn {}", n + 1, k + 1));
                }
                let played = engine
                    .play(turn)
                    .map_err(|e| format!("line {}: turn {} '{turn}': {e}", n + 1, k + 1))?;
                opening.push(played);
            }
            if engine.game().outcome().is_some() {
                return Err(format!("line {}: the opening ends the game", n + 1));
            }
            openings.push(opening);
        }
        if openings.is_empty() {
            return Err("no opening in it".into());
        }
        Ok(Book { openings })
    }

    /// The opening of game pair `pair` (the book repeats when the pairs outnumber it).
    pub(crate) fn opening(&self, pair: usize) -> &[String] {
        &self.openings[pair % self.openings.len()]
    }
}

/// A random opening as the judge found it.
struct Judged {
    /// Its turns, in canonical notation.
    opening: Vec<String>,
    /// The position string after them (a book holds each position once).
    position: String,
    /// The judge's expected score for the side to move after them.
    expected: f64,
}

/// A random opening of `turns` turns, judged; `None` when the game ends within it or the
/// judge proves a result.
fn judge_one(
    entry: &EngineEntry,
    variant: &str,
    judge: &ply_search::Think,
    turns: usize,
    seed: u64,
) -> anyhow::Result<Option<Judged>> {
    let mut engine = entry.new_engine(variant)?;
    let mut rng = Rng::new(seed);
    let mut opening = Vec::new();
    for _ in 0..turns {
        let Some(mv) = engine.random_move(&mut rng) else { return Ok(None) };
        opening.push(engine.play(&mv)?);
        if engine.game().outcome().is_some() {
            return Ok(None);
        }
    }
    let position = engine.game().position_string();
    let stop = Arc::new(AtomicBool::new(false));
    let Some(thought) = engine.think(judge, &stop) else { return Ok(None) };
    if thought.score.wins_in().is_some() || thought.score.loses_in().is_some() {
        return Ok(None);
    }
    let expected = expected_score(thought.score, engine.value_scale());
    Ok(Some(Judged { opening, position, expected }))
}

pub fn run(args: &BookArgs) -> anyhow::Result<ExitCode> {
    let (entry, variant) = engine_and_variant(&args.game, args.variant.as_deref())?;
    let judge = match parse_spec(&args.judge, &entry).map_err(UsageError)? {
        Contestant::Engine(think, _) => think,
        Contestant::Random => bail!(UsageError("--judge must be a search, not random".into())),
    };
    if args.count == 0 {
        bail!(UsageError("--count must be at least 1".into()));
    }
    if !(0.0..=0.5).contains(&args.within) {
        bail!(UsageError(format!("--within {} is not within 0 to 0.5", args.within)));
    }
    let tries = args.tries.unwrap_or(args.count.saturating_mul(50));
    let threads = args.threads.max(1);
    let started = Instant::now();
    let bar = counting_bar(args.count, "openings");
    let mut kept: Vec<(Vec<String>, f64)> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    // Openings handed to the judges, and those judged up to the last one needed (the count
    // the book reports, whatever the batches).
    let (mut scheduled, mut tried) = (0, 0);
    // Judged a batch at a time, in the order of their seeds, so that the book does not
    // depend on --threads.
    while kept.len() < args.count && scheduled < tries {
        let batch: Vec<usize> = (scheduled..(scheduled + 4 * threads).min(tries)).collect();
        scheduled += batch.len();
        let judged: Vec<anyhow::Result<Option<Judged>>> = std::thread::scope(|scope| {
            let chunks: Vec<_> = batch
                .chunks(batch.len().div_ceil(threads))
                .map(|chunk| {
                    let (entry, variant, judge) = (&entry, &variant, &judge);
                    scope.spawn(move || {
                        chunk
                            .iter()
                            .map(|&k| {
                                let seed =
                                    args.seed ^ (k as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
                                judge_one(entry, variant, judge, args.turns, seed)
                            })
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            chunks
                .into_iter()
                .flat_map(|h| {
                    h.join().unwrap_or_else(|_| vec![Err(anyhow::anyhow!("a judge panicked"))])
                })
                .collect()
        });
        for (&k, result) in batch.iter().zip(judged) {
            if kept.len() == args.count {
                break;
            }
            tried = k + 1;
            let Some(j) = result? else { continue };
            if (j.expected - 0.5).abs() <= args.within && seen.insert(j.position) {
                kept.push((j.opening, j.expected));
                bar.inc(1);
            }
        }
        bar.set_message(format!("{tried} tried"));
    }
    bar.finish_and_clear();
    let mut text = format!(
        "# ply book {} --variant {variant} --count {} --turns {} --judge {} --within {} --seed {}\n\
         # {} openings kept of {tried} tried (their position after the turns unique, the judge's \
         expected score for the side to move within {:.0} % of 50 %).\n\
         # One opening a line: its turns, then the judge's expected score for the side to move.\n",
        entry.name,
        args.count,
        args.turns,
        args.judge,
        args.within,
        args.seed,
        kept.len(),
        args.within * 100.0,
    );
    for (opening, expected) in &kept {
        text.push_str(&format!("{}  # {:.1} %\n", opening.join(" "), expected * 100.0));
    }
    match &args.out {
        Some(path) => std::fs::write(path, &text)
            .with_context(|| format!("cannot write {}", path.display()))?,
        None => std::io::stdout().write_all(text.as_bytes())?,
    }
    if kept.len() < args.count {
        eprintln!(
            "ply: only {} of {} openings found in {tried} tries (give more --tries or a wider --within)",
            kept.len(),
            args.count
        );
        return Ok(ExitCode::from(1));
    }
    eprintln!(
        "ply: {} openings kept of {tried} tried in {:.0} s",
        kept.len(),
        started.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}
