//! The commands that inspect positions: `moves`, `perft`, `show`, `games`.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;
use clap::Args;

use crate::position::{PositionArgs, build};

#[derive(Args, Debug)]
pub struct MovesArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// Also print each turn's click path (the ids a person clicks in the SVG), tab-separated.
    #[arg(long)]
    pub paths: bool,
}

#[derive(Args, Debug)]
pub struct PerftArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// How many turns deep to count.
    pub depth: u32,
    /// Instead of the per-depth table, list each legal turn with its count at depth-1 below.
    #[arg(long)]
    pub divide: bool,
}

#[derive(Args, Debug)]
pub struct ShowArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// Start from the position at the end of this game record (docs/records.md).
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
    /// Write the board as an SVG picture to FILE (`-` for standard output).
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// Print the state as JSON instead of the diagram (the same as `--format json`).
    #[arg(long)]
    pub json: bool,
    /// What to print: `diagram` (the board, pools and whose turn it is), `json` (the state),
    /// or `position` (the position string alone, docs/position-strings.md).
    #[arg(long, value_parser = ["diagram", "json", "position"], default_value = "diagram")]
    pub format: String,
}

pub fn moves(args: &MovesArgs) -> anyhow::Result<ExitCode> {
    let game = build(&args.position, None)?;
    let mut out = std::io::stdout().lock();
    if args.paths {
        for (mv, path) in game.click_paths() {
            writeln!(out, "{mv}\t{}", path.join(" "))?;
        }
    } else {
        for mv in game.legal_moves() {
            writeln!(out, "{mv}")?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

pub fn perft(args: &PerftArgs) -> anyhow::Result<ExitCode> {
    let mut game = build(&args.position, None)?;
    let mut out = std::io::stdout().lock();
    if args.divide {
        let start = Instant::now();
        let mut total = 0;
        for (mv, n) in game.divide(args.depth) {
            writeln!(out, "{mv} {n}")?;
            total += n;
        }
        writeln!(out, "total {total}")?;
        report(args.depth, total, start);
        return Ok(ExitCode::SUCCESS);
    }
    for depth in 1..=args.depth {
        let start = Instant::now();
        let nodes = game.perft(depth);
        writeln!(out, "{depth} {nodes}")?;
        out.flush()?;
        report(depth, nodes, start);
    }
    Ok(ExitCode::SUCCESS)
}

fn report(depth: u32, nodes: u64, start: Instant) {
    let secs = start.elapsed().as_secs_f64();
    let nps = if secs > 0.0 { nodes as f64 / secs } else { 0.0 };
    eprintln!("depth {depth}: {nodes} nodes in {secs:.3} s, {:.2} M nodes/s", nps / 1e6);
}

pub fn show(args: &ShowArgs) -> anyhow::Result<ExitCode> {
    let game = build(&args.position, args.record.as_ref())?;
    let mut out = std::io::stdout().lock();
    if let Some(path) = &args.svg {
        let svg = game.svg();
        if path.as_os_str() == "-" {
            writeln!(out, "{svg}")?;
        } else {
            std::fs::write(path, svg + "\n")
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
    }
    if args.format == "position" {
        writeln!(out, "{}", game.position_string())?;
    } else if args.json || args.format == "json" {
        writeln!(out, "{}", serde_json::to_string_pretty(&game.state_json())?)?;
    } else if args.svg.as_ref().is_none_or(|p| p.as_os_str() != "-") {
        write!(out, "{}", game.diagram())?;
        writeln!(out, "{}", game.status_line())?;
    }
    Ok(ExitCode::SUCCESS)
}

pub fn games() -> anyhow::Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    for entry in ply_games::registry().entries() {
        writeln!(
            out,
            "{} ({}): variants {}",
            entry.name,
            entry.display_name,
            entry.variants.join(", ")
        )?;
    }
    Ok(ExitCode::SUCCESS)
}
