//! `ply loadtest`: many live games on loopback and the move-to-opponent latency, or
//! (`--memory`) the resident memory of many games before, at the peak and after their idle
//! rooms leave.

use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context as _;
use clap::Args;

#[derive(Args, Debug)]
pub struct LoadtestArgs {
    /// Games played at once, each by two WebSocket players and `--spectators` spectators
    /// (with `--memory`: games created one after another).
    #[arg(long, default_value_t = 1000)]
    pub games: usize,
    /// Turns per game.
    #[arg(long, default_value_t = 20)]
    pub moves: usize,
    /// Each player's pause before a move, in milliseconds (half of it fixed, half random).
    #[arg(long, default_value_t = 1000)]
    pub pause_ms: u64,
    /// Spectators following each game.
    #[arg(long, default_value_t = 1)]
    pub spectators: usize,
    /// The game to play.
    #[arg(long, default_value = "boop")]
    pub game: String,
    /// The database (default: a SQLite file in a temporary folder, removed afterwards).
    #[arg(long)]
    pub database: Option<String>,
    /// Measure memory instead: create `--games` games, play `--moves` turns in each, and
    /// report the resident memory before, at the peak and after the idle rooms left.
    #[arg(long)]
    pub memory: bool,
    /// With `--memory`: seconds a room stays in memory without a request.
    #[arg(long, default_value_t = 5)]
    pub idle_secs: u64,
}

pub fn run(args: &LoadtestArgs) -> anyhow::Result<ExitCode> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    if args.memory {
        return memory(args, &runtime);
    }
    eprintln!(
        "loadtest: {} live {} games on loopback, {} turns each, {} ms pauses, {} spectator(s) each …",
        args.games, args.game, args.moves, args.pause_ms, args.spectators
    );
    let report = runtime
        .block_on(ply_server::loadtest::run(ply_server::loadtest::LoadConfig {
            games: args.games,
            moves: args.moves,
            pause_ms: args.pause_ms,
            spectators: args.spectators,
            game: args.game.clone(),
            database: args.database.clone(),
        }))
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let n = report.latencies.len();
    println!("games      {}", report.games);
    println!(
        "moves      {n} in {:.1} s ({:.0} moves/s)",
        report.elapsed.as_secs_f64(),
        n as f64 / report.elapsed.as_secs_f64().max(1e-9)
    );
    println!("failed     {} games", report.errors);
    println!(
        "latency    median {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        ms(report.quantile(0.5)),
        ms(report.quantile(0.9)),
        ms(report.quantile(0.99)),
        ms(report.quantile(1.0))
    );
    if report.spectator_events > 0 {
        println!(
            "spectators {} events, {:.0} bytes each on average",
            report.spectator_events,
            report.spectator_bytes as f64 / report.spectator_events as f64
        );
    }
    Ok(if report.errors == 0 && n > 0 { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

fn memory(args: &LoadtestArgs, runtime: &tokio::runtime::Runtime) -> anyhow::Result<ExitCode> {
    eprintln!(
        "loadtest --memory: {} {} games, {} turns each, rooms idle after {} s …",
        args.games, args.game, args.moves, args.idle_secs
    );
    let r = runtime
        .block_on(ply_server::loadtest::memory(ply_server::loadtest::MemoryConfig {
            games: args.games,
            moves: args.moves,
            game: args.game.clone(),
            idle: Duration::from_secs(args.idle_secs),
            database: args.database.clone(),
        }))
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let mib = |b: u64| b as f64 / f64::from(1 << 20);
    println!("games      {} created and played in {:.1} s", r.games, r.setup.as_secs_f64());
    println!("before     {:.1} MiB resident", mib(r.rss_before));
    println!("peak       {:.1} MiB resident, {} rooms in memory", mib(r.rss_peak), r.rooms_peak);
    println!(
        "after      {:.1} MiB resident, {} rooms in memory ({:.1} s after the last game)",
        mib(r.rss_after),
        r.rooms_after,
        r.evicted_after.as_secs_f64()
    );
    Ok(if r.rooms_after == 0 { ExitCode::SUCCESS } else { ExitCode::from(1) })
}
