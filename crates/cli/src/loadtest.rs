//! `ply loadtest`: many live games on loopback, and the move-to-opponent latency.

use std::process::ExitCode;

use anyhow::Context as _;
use clap::Args;

#[derive(Args, Debug)]
pub struct LoadtestArgs {
    /// Games played at once, each by two WebSocket players.
    #[arg(long, default_value_t = 1000)]
    pub games: usize,
    /// Turns per game.
    #[arg(long, default_value_t = 20)]
    pub moves: usize,
    /// Each player's pause before a move, in milliseconds (half of it fixed, half random).
    #[arg(long, default_value_t = 1000)]
    pub pause_ms: u64,
    /// The game to play.
    #[arg(long, default_value = "boop")]
    pub game: String,
    /// The database (default: a SQLite file in a temporary folder, removed afterwards).
    #[arg(long)]
    pub database: Option<String>,
}

pub fn run(args: &LoadtestArgs) -> anyhow::Result<ExitCode> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    eprintln!(
        "loadtest: {} live {} games on loopback, {} turns each, {} ms pauses …",
        args.games, args.game, args.moves, args.pause_ms
    );
    let report = runtime
        .block_on(ply_server::loadtest::run(ply_server::loadtest::LoadConfig {
            games: args.games,
            moves: args.moves,
            pause_ms: args.pause_ms,
            game: args.game.clone(),
            database: args.database.clone(),
        }))
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let ms = |d: std::time::Duration| d.as_secs_f64() * 1000.0;
    let n = report.latencies.len();
    println!("games      {}", report.games);
    println!(
        "moves      {n} in {:.1} s ({:.0} moves/s)",
        report.elapsed.as_secs_f64(),
        n as f64 / report.elapsed.as_secs_f64()
    );
    println!("failed     {} games", report.errors);
    println!(
        "latency    median {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        ms(report.quantile(0.5)),
        ms(report.quantile(0.9)),
        ms(report.quantile(0.99)),
        ms(report.quantile(1.0))
    );
    Ok(if report.errors == 0 && n > 0 { ExitCode::SUCCESS } else { ExitCode::from(1) })
}
