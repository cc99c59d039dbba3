//! `ply`: play GIPF, ZÈRTZ, PÜNCT and boop. exactly by their rules.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// jemalloc, with its background threads on (see `main`), hands freed memory back to the
/// system some seconds after it is freed; glibc's malloc keeps most of it, so a server whose
/// idle games left memory would stay at its peak size. See `docs/benchmarks.md`.
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

mod analyse;
mod book;
mod commands;
mod computer;
mod engine;
mod external;
mod import;
mod ladder;
mod library;
mod loadtest;
mod position;
mod serve;
mod spsa;
mod tune;

/// Play GIPF, ZÈRTZ, PÜNCT and boop. exactly by their rules.
///
/// Every command names a game (`ply moves boop`); `--variant` picks a variant, `--position`
/// starts from a position string instead of the start, `--moves` plays turns from there in
/// the game's notation, separated by spaces.
#[derive(Parser, Debug)]
#[command(name = "ply", version, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// List the legal turns of a position, one per line, in canonical notation, sorted.
    Moves(commands::MovesArgs),
    /// Count the leaf turns 1, 2, … N turns deep (perft), to check and time the rules.
    Perft(commands::PerftArgs),
    /// Show a position: a text diagram with both pools and whose turn it is, the board as
    /// SVG, or the state as JSON.
    Show(commands::ShowArgs),
    /// List the games and their variants.
    Games,
    /// Let the computer choose a turn: prints the move, its evaluation and the expected line.
    Bestmove(computer::BestmoveArgs),
    /// Play engines against each other: a results table with the Elo difference, and every
    /// game saved as a record.
    Match(computer::MatchArgs),
    /// Write an opening book for `ply match --book`: random openings that a search judges
    /// balanced (its expected score for the side to move near 50 %), one a line.
    Book(book::BookArgs),
    /// Fit a game's evaluation weights to games (Texel tuning): self-play games and records
    /// give positions labelled with their results, the weights are fitted to them and
    /// written as a weights file, and `--check N` plays the fitted weights against the
    /// starting ones (docs/tuning.md).
    Tune(tune::TuneArgs),
    /// A fixed benchmark per game: perft and search speed; the node counts are a
    /// signature of the engine's behaviour.
    Bench(computer::BenchArgs),
    /// Speak the engine protocol on standard input and output (docs/engine-protocol.md):
    /// newgame, position, play, undo, validmoves, go … bestmove, stop, setoption, perft,
    /// show, bench, quit; every reply ends with `ok`.
    Engine(engine::EngineArgs),
    /// Analyse a recorded game: each turn's evaluation before and after, the engine's
    /// preferred turn and line, inaccuracies, mistakes and blunders, and a summary per player
    /// (docs/analysis.md). Progress goes to standard error.
    #[command(alias = "analyze")]
    Analyse(analyse::AnalyseArgs),
    /// Convert boardspace.net ZÈRTZ records (.sgf) into ply records, or with `--check` replay
    /// them through the rules and report every failure.
    Import(import::ImportArgs),
    /// The opening explorer: the turns played from a position in the archive of a database
    /// (records stored with `ply import --into`, games finished in `ply serve`), with how
    /// often each was played and how those games ended. Transpositions count together.
    Explore(library::ExploreArgs),
    /// Start the browser app: play every game against people or the computer. Prints the
    /// address it listens on; open it in a browser.
    Serve(serve::ServeArgs),
    /// Measure the browser app under load: many live games on loopback, each played by two
    /// WebSocket players; prints the move-to-opponent latency (median, p90, p99).
    Loadtest(loadtest::LoadtestArgs),
}

fn main() -> ExitCode {
    // Purge freed pages in the background (see ALLOCATOR); the commands work without it.
    let _ = tikv_jemalloc_ctl::background_thread::write(true);
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Moves(args) => commands::moves(args),
        Command::Perft(args) => commands::perft(args),
        Command::Show(args) => commands::show(args),
        Command::Games => commands::games(),
        Command::Bestmove(args) => computer::bestmove(args),
        Command::Match(args) => computer::run_match(args),
        Command::Book(args) => book::run(args),
        Command::Bench(args) => computer::bench(args),
        Command::Tune(args) => tune::run(args),
        Command::Engine(args) => engine::run(args),
        Command::Analyse(args) => analyse::run(args),
        Command::Import(args) => import::run(args),
        Command::Explore(args) => library::explore(args),
        Command::Serve(args) => serve::run(args),
        Command::Loadtest(args) => loadtest::run(args),
    };
    match result {
        Ok(code) => code,
        // A reader that stops early (`ply moves gipf | head`) is not an error.
        Err(e)
            if e.downcast_ref::<std::io::Error>()
                .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe) =>
        {
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("ply: {e:#}");
            ExitCode::from(2)
        }
    }
}
