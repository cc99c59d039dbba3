//! `ply analyse RECORD`: the engine's view of every turn of a recorded game
//! (`docs/analysis.md`); the work is `ply_search::analysis`, shared with the server.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use ply_records::Record;
use ply_search::analysis::{self, Analysis, Progress};
use ply_search::{Limits, Think};

use crate::position::UsageError;

#[derive(Args, Debug)]
pub struct AnalyseArgs {
    /// The game record: ply's own format (docs/records.md) or a boardspace.net ZÈRTZ record
    /// (.sgf).
    pub record: PathBuf,
    /// Thinking time per position, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 1000)]
    pub time: u64,
    /// Search this many nodes per position instead of a time (reproducible).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Search to this depth per position instead of a time.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Search threads.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Transposition table size, MiB.
    #[arg(long, default_value_t = 64)]
    pub hash: usize,
    /// Evaluate with this weight set: a built-in one (`default`, or `hand` where fitted
    /// weights replaced hand-set ones) or a weights file, e.g. one `ply tune` wrote.
    #[arg(long, value_name = "SET|FILE")]
    pub weights: Option<String>,
    /// Print the analysis as JSON.
    #[arg(long)]
    pub json: bool,
}

/// The game and turns of a record file.
fn read(path: &PathBuf) -> Result<(String, String, Vec<String>), UsageError> {
    let bytes = std::fs::read(path)
        .map_err(|e| UsageError(format!("cannot read {}: {e}", path.display())))?;
    let text = String::from_utf8_lossy(&bytes);
    let is_sgf = path.extension().is_some_and(|e| e.eq_ignore_ascii_case("sgf"))
        || text.trim_start().starts_with("(;");
    if is_sgf {
        use ply_records::boardspace::{self, Check, Conversion};
        let game = match boardspace::convert(&text) {
            Ok(Conversion::Game(g)) => g,
            Ok(Conversion::Skipped(reason)) => {
                return Err(UsageError(format!("{}: {reason}", path.display())));
            }
            Err(d) => {
                return Err(UsageError(format!(
                    "{}: line {}: {}",
                    path.display(),
                    d.line,
                    d.reason
                )));
            }
        };
        let played = match boardspace::check(&game, &ply_games::registry()) {
            Check::Passed { turns, .. } => turns,
            Check::Skipped(reason) => {
                return Err(UsageError(format!("{}: {reason}", path.display())));
            }
            Check::Failed(f) => return Err(UsageError(format!("{}: {f}", path.display()))),
        };
        let moves = game.turns.iter().take(played).map(|t| t.token.clone()).collect();
        return Ok(("zertz".into(), game.variant.to_string(), moves));
    }
    let record =
        Record::parse(&text).map_err(|e| UsageError(format!("{}: {e}", path.display())))?;
    let game = record
        .header("Game")
        .ok_or_else(|| UsageError(format!("{}: the record has no Game header", path.display())))?
        .to_string();
    let registry = ply_games::registry();
    let entry = registry.get(&game).map_err(|e| UsageError(e.to_string()))?;
    let variant = record.header("Variant").unwrap_or(entry.default_variant()).to_string();
    Ok((game, variant, record.moves.iter().map(|m| m.text.clone()).collect()))
}

fn print_text(out: &mut impl Write, a: &Analysis) -> std::io::Result<()> {
    writeln!(out, "{} {}: {} turns analysed", a.game, a.variant, a.turns.len())?;
    writeln!(
        out,
        "{:>4} {:<3} {:<22} {:>9} {:>9} {:>6} {:<22} line",
        "turn", "by", "played", "before", "after", "loss", "best"
    )?;
    for t in &a.turns {
        let mark = t.mark.map_or("", |m| m.symbol());
        writeln!(
            out,
            "{:>4} {:<3} {:<22} {:>9} {:>9} {:>6.1} {:<22} {}{}",
            t.number,
            t.player.as_str(),
            format!("{}{mark}", t.played),
            format!("{:.0}%", t.before.expected),
            format!("{:.0}%", t.after.expected),
            t.loss,
            t.best,
            t.line.join(" "),
            t.mark.map_or(String::new(), |m| format!("  ({})", m.word()))
        )?;
    }
    for s in &a.summary {
        writeln!(
            out,
            "{}: {}, {}, {}, {}, average loss {:.1}",
            s.player.map_or("?", |p| p.as_str()),
            counted(s.turns, "turn", "turns"),
            counted(s.inaccuracies, "inaccuracy", "inaccuracies"),
            counted(s.mistakes, "mistake", "mistakes"),
            counted(s.blunders, "blunder", "blunders"),
            s.average_loss
        )?;
    }
    if !a.complete {
        writeln!(out, "(stopped before the end)")?;
    }
    Ok(())
}

pub fn run(args: &AnalyseArgs) -> anyhow::Result<ExitCode> {
    let (game, variant, moves) = read(&args.record)?;
    let entry = ply_games::engine(&game).map_err(UsageError)?;
    let registry = ply_games::registry();
    let start = registry
        .get(&game)
        .map_err(|e| UsageError(e.to_string()))?
        .new_game(Some(&variant))
        .map_err(|e| UsageError(e.to_string()))?;
    let mut engine = entry.new_engine(&variant).map_err(|e| UsageError(e.to_string()))?;
    if let Some(weights) = &args.weights {
        engine.set_weights(weights).map_err(UsageError)?;
    }
    let limits = match (args.nodes, args.depth) {
        (None, None) => Limits::time(Duration::from_millis(args.time.max(1))),
        (nodes, depth) => Limits { nodes, depth, time: None },
    };
    let think = Think {
        limits,
        noise: 0,
        noise_scale: 0.0,
        seed: 0,
        threads: args.threads.max(1),
        hash_mb: args.hash.max(1),
        ..entry.level(10, None)
    };
    let bar = if std::io::stderr().is_terminal() {
        ProgressBar::new(moves.len() as u64 + 1)
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template(
            "{bar:40} {pos}/{len} positions, {elapsed} ({eta} left) {msg}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let stop = Arc::new(AtomicBool::new(false));
    let analysis = analysis::analyse(
        engine.as_mut(),
        start.as_ref(),
        &moves,
        &think,
        &stop,
        &mut |p: Progress<'_>| {
            bar.set_length(p.total as u64);
            bar.set_position(p.done as u64);
            if let Some(t) = p.turn {
                bar.set_message(format!("turn {} {}", t.number, t.played));
            }
        },
    )
    .map_err(|e| UsageError(format!("{}: {e}", args.record.display())))?;
    bar.finish_and_clear();
    let mut out = std::io::stdout().lock();
    if args.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&analysis)?)?;
    } else {
        print_text(&mut out, &analysis)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// "1 mistake", "2 mistakes", "0 mistakes".
fn counted(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}
