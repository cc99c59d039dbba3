//! The game library from the command line: `ply import --into` (records into the archive of a
//! database) and `ply explore` (the opening explorer: the turns played from a position in the
//! archive, with their counts and results).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Instant;

use anyhow::Context;
use clap::Args;
use ply_core::{Outcome, Player, Registry, position_key};
use ply_records::Record;
use ply_store::{ArchivedGame, EndReason, Imported, Store};

use crate::import::{Verdict, describe_all, import_one};
use crate::position::{PositionArgs, build};

/// How many games go to the database in one transaction.
const BATCH: usize = 5000;

/// The database a command names, else `PLY_DATABASE_URL`, else the default file (`None`).
pub fn database_url(given: Option<&str>) -> Option<String> {
    given
        .filter(|d| !d.is_empty())
        .map(str::to_string)
        .or_else(|| std::env::var("PLY_DATABASE_URL").ok().filter(|v| !v.is_empty()))
}

/// Whether `text`, given after `--into`, names a database rather than a record: a URL, or a
/// path that is not a record or a folder of records.
pub fn looks_like_database(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    if lower.starts_with("sqlite:")
        || lower.starts_with("postgres:")
        || lower.starts_with("postgresql:")
    {
        return true;
    }
    let path = Path::new(text);
    !(lower.ends_with(".sgf") || lower.ends_with(".ply") || path.is_dir())
}

/// The record files among `paths`, folders searched (recursively) for `.sgf` files, in order.
///
/// # Errors
/// A folder that cannot be read.
pub fn record_files(paths: &[PathBuf]) -> anyhow::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut found = Vec::new();
            walk(path, &mut found)?;
            found.sort();
            files.extend(found);
        } else {
            files.push(path.clone());
        }
    }
    Ok(files)
}

fn walk(dir: &Path, found: &mut Vec<PathBuf>) -> anyhow::Result<()> {
    for entry in std::fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))? {
        let path = entry.with_context(|| format!("cannot read {}", dir.display()))?.path();
        if path.is_dir() {
            walk(&path, found)?;
        } else if path.extension().is_some_and(|e| e.eq_ignore_ascii_case("sgf")) {
            found.push(path);
        }
    }
    Ok(())
}

/// Unix milliseconds of midnight UTC on a date `YYYY.MM.DD` or `YYYY-MM-DD`.
fn date_ms(text: &str) -> Option<i64> {
    let parts: Vec<&str> = text.split(['.', '-']).collect();
    let [y, m, d] = parts.as_slice() else { return None };
    let date = jiff::civil::Date::new(y.parse().ok()?, m.parse().ok()?, d.parse().ok()?).ok()?;
    let time = date.to_zoned(jiff::tz::TimeZone::UTC).ok()?;
    Some(time.timestamp().as_millisecond())
}

/// When a boardspace record was played: its `Date` header, else the date and time in its file
/// name (`…-2004-10-16-1851.sgf`), else unknown (0).
fn played_ms(record: &Record, path: &Path) -> i64 {
    if let Some(ms) = record.header("Date").and_then(date_ms) {
        return ms;
    }
    let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let parts: Vec<&str> = stem.rsplitn(5, '-').collect();
    if let [hhmm, d, m, y, _] = parts.as_slice()
        && let Some(day) = date_ms(&format!("{y}-{m}-{d}"))
    {
        let minutes = hhmm
            .parse::<i64>()
            .ok()
            .filter(|t| t / 100 < 24 && t % 100 < 60)
            .map_or(0, |t| t / 100 * 60 + t % 100);
        return day + minutes * 60_000;
    }
    0
}

/// Why a record's game ended, from its `Termination` header (none: on the board).
fn end_reason(record: &Record) -> EndReason {
    match record.header("Termination") {
        None => EndReason::Rules,
        Some(t) if t.contains("resigned") => EndReason::Resigned,
        Some(t) if t.contains("on time") => EndReason::Time,
        Some(t) if t.contains("draw agreed") => EndReason::Agreed,
        Some(_) => EndReason::Record,
    }
}

/// A record read by the importer as a game for the archive, or why it cannot be one.
fn archived(record: &Record, path: &Path, registry: &Registry) -> Result<ArchivedGame, String> {
    // One replay gives the turns in canonical form and the position before each.
    let name = record.header("Game").ok_or("the record names no game")?;
    let entry = registry.get(name).map_err(|e| e.to_string())?;
    let mut game = entry.new_game(record.header("Variant")).map_err(|e| e.to_string())?;
    let mut positions = Vec::with_capacity(record.moves.len());
    for (i, m) in record.moves.iter().enumerate() {
        positions.push(position_key(&game.position_string()));
        game.play(&m.text).map_err(|e| format!("turn {} '{}': {e}", i + 1, m.text))?;
    }
    let outcome = match game.outcome() {
        Some(o) => Some(o),
        None => record.result().outcome(),
    };
    if outcome.is_none() {
        return Err("the record gives no result: the archive keeps finished games".into());
    }
    let name = |h: &str, seat: Player| {
        record.header(h).filter(|n| !n.is_empty()).map_or_else(|| seat.to_string(), str::to_string)
    };
    // The file's name, not the record's game name (`GN`), which boardspace repeats (often
    // empty, or just the two players' names): its archive names each file by the players, the
    // date and the time, once.
    let source_key = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    Ok(ArchivedGame {
        game: game.name().to_string(),
        variant: game.variant().to_string(),
        names: [name("P1", Player::P1), name("P2", Player::P2)],
        outcome,
        reason: Some(end_reason(record)),
        played_ms: played_ms(record, path),
        source: record.header("Site").unwrap_or("record").to_string(),
        source_key,
        moves: game.history().to_vec(),
        positions,
    })
}

/// What became of one file.
enum Read {
    /// A game, with how its reading departed from the file (see `ply import --check`).
    Game(Box<ArchivedGame>, String),
    Skipped(String),
    Failed(String),
}

/// `ply import --into [DATABASE] FILES...`: reads the records (two or more at a time), writes
/// them to the archive in batches, reports what it did.
pub fn import_into(database: Option<&str>, paths: &[PathBuf]) -> anyhow::Result<ExitCode> {
    let files = record_files(paths)?;
    let started = Instant::now();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    let url = database_url(database);
    let store = runtime.block_on(Store::open(url.as_deref())).with_context(|| {
        format!("cannot open the database {}", url.as_deref().unwrap_or("(default)"))
    })?;
    let progress = indicatif::ProgressBar::new(files.len() as u64);
    progress.set_style(
        indicatif::ProgressStyle::with_template(
            "{elapsed_precise} [{bar:40}] {pos}/{len} records ({per_sec}, {eta} left)",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get()).clamp(1, 8);
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::sync_channel::<(usize, Read)>(4 * BATCH);
    let mut totals = Imported::default();
    let (mut skipped, mut failed, mut normalised) = (0usize, 0usize, 0usize);
    let mut err = std::io::stderr().lock();
    let written: anyhow::Result<()> = std::thread::scope(|scope| {
        for _ in 0..workers {
            let tx = tx.clone();
            let (files, next) = (&files, &next);
            scope.spawn(move || {
                let registry = ply_games::registry();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(path) = files.get(i) else { break };
                    let read = match import_one(path, &registry) {
                        Verdict::Passed { record, notes } => {
                            match archived(&record, path, &registry) {
                                Ok(game) => Read::Game(Box::new(game), describe_all(&notes)),
                                Err(reason) => Read::Skipped(reason),
                            }
                        }
                        Verdict::Skipped(reason) => Read::Skipped(reason),
                        Verdict::Failed(reason) => Read::Failed(reason),
                    };
                    if tx.send((i, read)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut batch = Vec::with_capacity(BATCH);
        let mut flush = |batch: &mut Vec<ArchivedGame>| -> anyhow::Result<()> {
            if batch.is_empty() {
                return Ok(());
            }
            let done = runtime
                .block_on(store.import_games(batch))
                .context("cannot write to the archive")?;
            totals.added += done.added;
            totals.already += done.already;
            batch.clear();
            Ok(())
        };
        for (i, read) in rx {
            progress.inc(1);
            let name = files[i].display();
            match read {
                Read::Game(game, notes) => {
                    if !notes.is_empty() {
                        normalised += 1;
                        progress.suspend(|| writeln!(err, "{name}: normalised: {notes}"))?;
                    }
                    batch.push(*game);
                    if batch.len() == BATCH {
                        flush(&mut batch)?;
                    }
                }
                Read::Skipped(reason) => {
                    skipped += 1;
                    progress.suspend(|| writeln!(err, "{name}: skipped: {reason}"))?;
                }
                Read::Failed(reason) => {
                    failed += 1;
                    progress.suspend(|| writeln!(err, "{name}: {reason}"))?;
                }
            }
        }
        flush(&mut batch)
    });
    progress.finish_and_clear();
    written?;
    if totals.added > 0 {
        runtime
            .block_on(store.analyse_archive())
            .context("cannot update the archive's statistics")?;
    }
    runtime.block_on(store.flush());
    println!(
        "{} records read in {:.1} s ({normalised} normalised): {} added to the archive, {} there already, {skipped} skipped, {failed} failed",
        files.len(),
        started.elapsed().as_secs_f64(),
        totals.added,
        totals.already,
    );
    Ok(if failed > 0 { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

#[derive(Args, Debug)]
pub struct ExploreArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// The database whose archive is explored: `sqlite://FILE`, a file path or
    /// `postgres://…` (default: `PLY_DATABASE_URL`, else the file `ply serve` uses).
    #[arg(long)]
    pub database: Option<String>,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Also list up to this many archived games that reached the position.
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub games: u32,
}

/// A share as a whole percentage of `total`.
fn percent(part: i64, total: i64) -> i64 {
    if total == 0 { 0 } else { (part * 100 + total / 2) / total }
}

/// `ply explore`: the turns played from a position in the archive.
pub fn explore(args: &ExploreArgs) -> anyhow::Result<ExitCode> {
    let game = build(&args.position, None)?;
    let position = game.position_string();
    let key = position_key(&position);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    let url = database_url(args.database.as_deref());
    let (moves, games) = runtime.block_on(async {
        let store = Store::open(url.as_deref()).await?;
        let moves = store.explore(key).await?;
        let games = if args.games > 0 {
            store.games_at(key, i64::from(args.games)).await?
        } else {
            Vec::new()
        };
        Ok::<_, ply_store::StoreError>((moves, games))
    })?;
    let mut out = std::io::stdout().lock();
    if args.json {
        let value = serde_json::json!({
            "position": position,
            "moves": moves.iter().map(|m| serde_json::json!({
                "move": m.notation, "games": m.games, "p1_wins": m.p1_wins,
                "p2_wins": m.p2_wins, "draws": m.draws,
            })).collect::<Vec<_>>(),
            "games": games.iter().map(|g| serde_json::json!({
                "id": g.game_id, "p1": g.names[0], "p2": g.names[1],
                "result": g.outcome.map(|o| o.to_string()), "plies": g.plies,
                "played_ms": g.played_ms, "source": g.source,
            })).collect::<Vec<_>>(),
        });
        writeln!(out, "{value}")?;
        return Ok(ExitCode::SUCCESS);
    }
    writeln!(out, "{position}")?;
    if moves.is_empty() {
        writeln!(out, "no archived game reached this position")?;
    } else {
        let total: i64 = moves.iter().map(|m| m.games).sum();
        writeln!(out, "{:<24} {:>7} {:>6} {:>6} {:>6}", "turn", "games", "P1", "draw", "P2")?;
        for m in &moves {
            writeln!(
                out,
                "{:<24} {:>7} {:>5}% {:>5}% {:>5}%",
                m.notation,
                m.games,
                percent(m.p1_wins, m.games),
                percent(m.draws, m.games),
                percent(m.p2_wins, m.games),
            )?;
        }
        writeln!(out, "{} turns from here in {} archived games", moves.len(), total)?;
    }
    for g in &games {
        let result = match g.outcome {
            Some(Outcome::Win(p)) => format!("{p} won"),
            Some(Outcome::Draw) => "draw".to_string(),
            None => "?".to_string(),
        };
        writeln!(
            out,
            "{}  {} – {}  {result}, {} turns",
            g.game_id, g.names[0], g.names[1], g.plies
        )?;
    }
    Ok(ExitCode::SUCCESS)
}
