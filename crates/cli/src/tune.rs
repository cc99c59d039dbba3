//! `ply tune`: the evaluation-tuning pipeline in one command (docs/tuning.md). It plays
//! self-play games, takes every position of them (and of any records given) labelled with the
//! game's result, fits the evaluation weights to them ([`ply_search::tune`]), writes the
//! weights file, and with `--check` plays the fitted weights against the starting ones.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use anyhow::{Context, bail};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use ply_records::{GameResult, Record};
use ply_search::analysis::expected_score;
use ply_search::tune::{Sample, TuneError, TuneProgress, TuneReport, TuneSettings};
use ply_search::{EngineEntry, Think};

use crate::book::Book;
use crate::computer::{
    Contestant, MatchArgs, counting_bar, engine_and_variant, games_bar, parse_spec, play_games,
    play_match, play_one,
};
use crate::position::UsageError;

#[derive(Args, Debug)]
pub struct TuneArgs {
    /// The game.
    pub game: String,
    /// The variant of the self-play games (default: the game's default). Records of any
    /// variant are used.
    #[arg(long, short = 'v')]
    pub variant: Option<String>,
    /// The directory to write to: games/ (the self-play records), positions.txt,
    /// weights.txt (the fitted weights) and tune.txt (the report).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Self-play games to play for data (0: none, then give --records or --positions).
    #[arg(long, default_value_t = 400)]
    pub games: usize,
    /// The player of the self-play games, as `ply match --a` (a level's noise varies them).
    #[arg(long, default_value = "level:6")]
    pub player: String,
    /// Random turns at the start of each self-play game pair (and --spsa pair).
    #[arg(long, default_value_t = 4)]
    pub opening: usize,
    /// Start each self-play (or --spsa) game pair from the next opening of this book
    /// instead of random turns (as `ply match --book`; `ply book` writes one).
    #[arg(long, value_name = "FILE", conflicts_with = "opening")]
    pub book: Option<PathBuf>,
    /// Turns at the start of every game whose positions are not used.
    #[arg(long, default_value_t = 4)]
    pub skip: usize,
    /// Also use the positions of these ply records (files, or directories of `.ply` files),
    /// e.g. real games converted by `ply import`. Records without a result are left out.
    #[arg(long, value_name = "PATH")]
    pub records: Vec<PathBuf>,
    /// Fit to the positions of this file (a positions.txt an earlier run wrote) instead of
    /// playing games.
    #[arg(long, value_name = "FILE", conflicts_with = "records")]
    pub positions: Option<PathBuf>,
    /// Label every position with what a search of it expects (`½ + ½·tanh(score / value
    /// scale)`, the expected score analysis shows) rather than only with its game's result:
    /// the search, as `ply match --a` takes a player (e.g. `nodes:200000`), with the
    /// starting weights and no noise, one thread and a cleared table for each position, so
    /// the labels do not depend on --threads. The labelled positions go to labelled.txt
    /// (for --positions).
    #[arg(long, value_name = "PLAYER")]
    pub label: Option<String>,
    /// With --label, the share of a label that is the search's expected score; the rest is
    /// the game's result (1: the search alone; 0.5: half each).
    #[arg(long, default_value_t = 1.0, value_name = "SHARE", requires = "label")]
    pub label_weight: f64,
    /// The weights to start from and play the self-play games with: a built-in set
    /// (`default`) or a weights file.
    #[arg(long, default_value = "default", value_name = "SET|FILE")]
    pub start: String,
    /// Values to leave at their starting value, comma-separated: a group's name (`TEMPO`;
    /// `UNSAFE` for all of it) or one value of a group (`UNSAFE[3]`), as the report names
    /// them; e.g. terms whose cost in search time the fit cannot see.
    #[arg(long, value_delimiter = ',', value_name = "NAMES")]
    pub hold: Vec<String>,
    /// Tune by play instead (SPSA, docs/tuning.md): this many pairs of games between two
    /// perturbations of the weights, --player a move each (a node budget such as
    /// `nodes:30000` keeps the run reproducible), stepping the weights towards the winner.
    /// Writes weights.txt, spsa.tsv (the values after every 16 pairs) and tune.txt. No
    /// positions are fitted: --games, --records, --positions and --label do not apply.
    #[arg(long, value_name = "PAIRS", conflicts_with_all = ["positions", "records", "label"])]
    pub spsa: Option<usize>,
    /// With --spsa, the last step's size (fishtest's R_end): a value moves by about this
    /// times its perturbation per game pair won.
    #[arg(long, default_value_t = ply_search::spsa::Spsa::DEFAULT_RATE, value_name = "R", requires = "spsa")]
    pub spsa_rate: f64,
    /// Passes over the weights, at most.
    #[arg(long, default_value_t = 40)]
    pub passes: usize,
    /// Threads for the games and the fit.
    #[arg(long, default_value_t = default_threads())]
    pub threads: usize,
    /// Seed of the self-play games.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Then play this many games, the fitted weights against the starting ones at
    /// --check-time a move each (0: no check).
    #[arg(long, default_value_t = 0)]
    pub check: usize,
    /// Thinking time a move in the check games, milliseconds.
    #[arg(long, default_value_t = 100)]
    pub check_time: u64,
    /// Random turns at the start of each check game pair (as `ply match --opening`; ZÈRTZ
    /// needs about 6, or the colour decides most games).
    #[arg(long, default_value_t = 2)]
    pub check_opening: usize,
    /// Start each check game pair from the next opening of this book instead (as `ply match
    /// --book`).
    #[arg(long, value_name = "FILE", conflicts_with = "check_opening")]
    pub check_book: Option<PathBuf>,
}

fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// The positions of a finished game of `record`, from turn `skip` on, each labelled with the
/// result for its side to move; none when the record has no result.
fn samples_of(
    record: &Record,
    registry: &ply_core::Registry,
    game: usize,
    skip: usize,
) -> Result<Vec<Sample>, String> {
    let outcome = match record.result() {
        GameResult::Unknown => return Ok(Vec::new()),
        r => r.outcome(),
    };
    let end = record.replay(registry).map_err(|e| e.to_string())?;
    let entry = registry.get(end.name()).map_err(|e| e.to_string())?;
    let mut g = entry.new_game(Some(end.variant())).map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    for (turn, mv) in end.history().iter().enumerate() {
        if turn >= skip {
            let result = match outcome {
                Some(o) => o.score_for(g.to_move()),
                None => 0.5,
            };
            out.push(Sample { position: g.position_string(), game, result });
        }
        g.play(mv).map_err(|e| e.to_string())?;
    }
    Ok(out)
}

/// The `.ply` files of `paths` (files as given, directories' files sorted by name).
fn record_files(paths: &[PathBuf]) -> anyhow::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut files: Vec<PathBuf> = std::fs::read_dir(p)
                .with_context(|| format!("cannot read {}", p.display()))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|f| f.extension().is_some_and(|x| x == "ply"))
                .collect();
            files.sort();
            out.extend(files);
        } else {
            out.push(p.clone());
        }
    }
    Ok(out)
}

/// The settings of the search that labels positions (`--label`).
fn label_think(args: &TuneArgs, entry: &EngineEntry) -> anyhow::Result<Option<Think>> {
    let Some(spec) = &args.label else { return Ok(None) };
    if !(0.0..=1.0).contains(&args.label_weight) {
        bail!(UsageError(format!("--label-weight {}: a share from 0 to 1", args.label_weight)));
    }
    match parse_spec(spec, entry).map_err(UsageError)? {
        Contestant::Random => bail!(UsageError(format!("--label {spec}: a search, not random"))),
        Contestant::Engine(think, _) => {
            if think.limits.time.is_some() {
                bail!(UsageError(format!(
                    "--label {spec}: a time limit would make the labels depend on the machine; \
                     give nodes:N or depth:N"
                )));
            }
            // No noise, one thread (the positions are shared out), a table small enough to
            // clear for every position.
            Ok(Some(Think { noise: 0, noise_scale: 0.0, threads: 1, hash_mb: 16, ..think }))
        }
    }
}

/// Labels `samples` with `think`'s expected score for the side to move, blended with the
/// result by `weight`, on `threads` threads. Finished positions, and those with a compulsory
/// forcing move (which the fit leaves out), keep their result.
fn label_samples(
    samples: &mut [Sample],
    entry: &EngineEntry,
    variant: &str,
    start: &str,
    think: &Think,
    weight: f64,
    threads: usize,
) -> anyhow::Result<()> {
    let registry = ply_games::registry();
    let bar = counting_bar(samples.len(), "positions");
    bar.set_message("labelling");
    // Positions are handed out one at a time, so a thread that meets long searches does not
    // hold up the end; the labels depend on the position only.
    let next = AtomicUsize::new(0);
    let stop = Arc::new(AtomicBool::new(false));
    let positions: &[Sample] = samples;
    let results: Vec<anyhow::Result<Vec<(usize, f64)>>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads.max(1))
            .map(|_| {
                let (registry, bar, stop, next) = (&registry, &bar, &stop, &next);
                scope.spawn(move || -> anyhow::Result<Vec<(usize, f64)>> {
                    let mut engine = entry.new_engine(variant)?;
                    engine.set_weights(start).map_err(UsageError)?;
                    let scale = engine.value_scale();
                    let mut labels = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(s) = positions.get(i) else { break };
                        bar.inc(1);
                        let game = registry
                            .from_position(&s.position)
                            .map_err(|e| anyhow::anyhow!("{}: {e}", s.position))?;
                        engine.restart();
                        if !engine.set_position(&*game) {
                            bail!("{}: not a position of {}", s.position, entry.name);
                        }
                        // The fit leaves out what the search never evaluates: no label.
                        if !engine.quiet() {
                            continue;
                        }
                        if let Some(thought) = engine.think(think, stop) {
                            let expected = expected_score(thought.score, scale);
                            labels.push((i, weight * expected + (1.0 - weight) * s.result));
                        }
                    }
                    Ok(labels)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|_| bail!("a labelling thread panicked")))
            .collect()
    });
    bar.finish_and_clear();
    for labels in results {
        for (i, label) in labels? {
            samples[i].result = label;
        }
    }
    Ok(())
}

fn write_positions(path: &Path, samples: &[Sample]) -> anyhow::Result<()> {
    let mut text = String::from("# result for the side to move, game number, position\n");
    for s in samples {
        let _ = writeln!(text, "{}\t{}\t{}", s.result, s.game, s.position);
    }
    std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))
}

fn read_positions(path: &Path) -> anyhow::Result<Vec<Sample>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let bad = || {
            UsageError(format!("{}:{}: not 'result<TAB>game<TAB>position'", path.display(), i + 1))
        };
        let mut fields = line.splitn(3, '\t');
        let (Some(r), Some(g), Some(p)) = (fields.next(), fields.next(), fields.next()) else {
            bail!(bad());
        };
        // A result (0, ½, 1) or a label of --label: an expected score from 0 to 1.
        let result: f64 = r.parse().map_err(|_| bad())?;
        if !(0.0..=1.0).contains(&result) {
            bail!(bad());
        }
        let game: usize = g.parse().map_err(|_| bad())?;
        out.push(Sample { position: p.to_string(), game, result });
    }
    Ok(out)
}

/// Whether the evaluator's value scale should change to fit these positions.
fn scale_advice(report: &TuneReport) -> &'static str {
    let ratio = 2.0 / report.k / f64::from(report.value_scale);
    if (0.8..=1.25).contains(&ratio) {
        ""
    } else {
        " (more than 25 % apart: analysis misstates winning chances until value_scale is set to 2/K)"
    }
}

fn report_text(args: &TuneArgs, report: &TuneReport, games: usize) -> String {
    let mut t = String::new();
    let _ = writeln!(
        t,
        "{} positions from {games} games ({} fitted, {} held out; left out: {} finished, {} with a \
         compulsory forcing move)",
        report.training + report.held_out + report.skipped + report.forced,
        report.training,
        report.held_out,
        report.skipped,
        report.forced
    );
    let _ = writeln!(t, "K = {:.6} (1/K = {:.0} evaluation units)", report.k, 1.0 / report.k);
    let _ = writeln!(
        t,
        "value scale these positions fit: 2/K = {:.0}; the evaluator's: {:.0}{}",
        2.0 / report.k,
        report.value_scale,
        scale_advice(report)
    );
    let _ = writeln!(
        t,
        "mean squared error, fitted positions: {:.6} -> {:.6}",
        report.training_before, report.training_after
    );
    let _ = writeln!(
        t,
        "mean squared error, held-out positions: {:.6} -> {:.6}",
        report.held_out_before, report.held_out_after
    );
    let _ = writeln!(
        t,
        "{} passes, {}",
        report.passes,
        if report.converged { "converged (no step of 1 helps)" } else { "stopped at --passes" }
    );
    if !args.hold.is_empty() {
        let _ = writeln!(t, "held at their '{}' values: {}", args.start, args.hold.join(", "));
    }
    let _ = writeln!(t, "{:<20} {:>8} {:>8}", "weight", args.start, "fitted");
    for (name, before, after) in &report.changes {
        let _ = writeln!(t, "{name:<20} {before:>8} {after:>8}");
    }
    t
}

/// The books of `--book` and `--check-book`, read before any game.
pub(crate) struct Books {
    pub(crate) games: Option<Arc<Book>>,
    pub(crate) check: Option<Arc<Book>>,
}

pub fn run(args: &TuneArgs) -> anyhow::Result<ExitCode> {
    let (entry, variant) = engine_and_variant(&args.game, args.variant.as_deref())?;
    // The books are read now, not after an hour of games.
    let books = Books {
        games: Book::load_optional(args.book.as_deref(), &entry, &variant)?,
        check: Book::load_optional(args.check_book.as_deref(), &entry, &variant)?,
    };
    if let Some(pairs) = args.spsa {
        return crate::spsa::run(args, &entry, &variant, pairs, &books);
    }
    let registry = ply_games::registry();
    let player = parse_spec(&args.player, &entry).map_err(UsageError)?;
    let label = label_think(args, &entry)?;
    // The fit's settings (the --start weights, --hold) are checked now, not after an hour of
    // games and labels: with no samples a sound fit has only "no positions" to say.
    let settings = TuneSettings {
        start: args.start.clone(),
        passes: args.passes,
        threads: args.threads,
        hold: args.hold.clone(),
    };
    match (entry.tune)(&[], &settings, &mut |_| {}, &AtomicBool::new(false)) {
        Ok(_) | Err(TuneError::NoPositions) => {}
        Err(e) => bail!(UsageError(e.to_string())),
    }
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("cannot create {}", args.out.display()))?;

    // 1. The data.
    let (samples, games) = if let Some(file) = &args.positions {
        let samples = read_positions(file)?;
        let games = samples.iter().map(|s| s.game).collect::<std::collections::BTreeSet<_>>().len();
        (samples, games)
    } else {
        let mut samples = Vec::new();
        let mut games = 0;
        if args.games > 0 {
            let dir = args.out.join("games");
            std::fs::create_dir_all(&dir)
                .with_context(|| format!("cannot create {}", dir.display()))?;
            let self_play = MatchArgs {
                game: args.game.clone(),
                variant: Some(variant.clone()),
                a: Some(args.player.clone()),
                b: Some(args.player.clone()),
                round_robin: None,
                games: args.games,
                threads: args.threads,
                seed: args.seed,
                opening: args.opening,
                book: args.book.clone(),
                openings: books.games.clone(),
                max_turns: 600,
                out: Some(dir.clone()),
                a_weights: Some(args.start.clone()),
                b_weights: Some(args.start.clone()),
                a_engine: None,
                b_engine: None,
                a_options: Vec::new(),
                b_options: Vec::new(),
            };
            let bar = games_bar(args.games);
            bar.set_message("self-play");
            let records = std::sync::Mutex::new(vec![None; args.games]);
            let failures = play_games(
                args.games,
                args.threads,
                Some(&dir),
                &bar,
                |k| {
                    play_one(&entry, &variant, &self_play, &player, &player, &[None, None], k)
                        .map(|done| (format!("{}-{:04}.ply", entry.name, k + 1), done))
                        .map_err(|e| format!("game {}: {e:#}", k + 1))
                },
                |k, done| {
                    crate::computer::locked(&records)[k] = Some(done.record.clone());
                },
            );
            if !failures.is_empty() {
                bail!("{} self-play games failed", failures.len());
            }
            for record in records.into_inner().unwrap_or_default().into_iter().flatten() {
                samples.extend(
                    samples_of(&record, &registry, games, args.skip)
                        .map_err(|e| anyhow::anyhow!("self-play game {}: {e}", games + 1))?,
                );
                games += 1;
            }
        }
        for file in record_files(&args.records)? {
            let text = std::fs::read_to_string(&file)
                .with_context(|| format!("cannot read {}", file.display()))?;
            let record =
                Record::parse(&text).map_err(|e| UsageError(format!("{}: {e}", file.display())))?;
            if record.header("Game") != Some(entry.name) {
                continue;
            }
            let more = samples_of(&record, &registry, games, args.skip)
                .map_err(|e| UsageError(format!("{}: {e}", file.display())))?;
            if !more.is_empty() {
                samples.extend(more);
                games += 1;
            }
        }
        write_positions(&args.out.join("positions.txt"), &samples)?;
        (samples, games)
    };
    if samples.is_empty() {
        bail!(UsageError("no positions: play --games, or give --records or --positions".into()));
    }
    let mut samples = samples;
    if let Some(think) = &label {
        label_samples(
            &mut samples,
            &entry,
            &variant,
            &args.start,
            think,
            args.label_weight,
            args.threads,
        )?;
        write_positions(&args.out.join("labelled.txt"), &samples)?;
    }

    // 2. The fit.
    let bar = ProgressBar::new_spinner();
    bar.set_style(ProgressStyle::with_template("{spinner} {msg} ({elapsed})").expect("valid"));
    bar.enable_steady_tick(std::time::Duration::from_millis(200));
    let mut progress = |p: TuneProgress| match p {
        TuneProgress::Scale => bar.set_message(format!("fitting K to {} positions", samples.len())),
        TuneProgress::Pass { pass, step, steps, error } => bar.set_message(format!(
            "pass {pass}/{}, weight {}/{steps}, error {error:.6}",
            args.passes,
            step + 1
        )),
    };
    let report = (entry.tune)(&samples, &settings, &mut progress, &AtomicBool::new(false))
        .map_err(|e| UsageError(e.to_string()))?;
    bar.finish_and_clear();
    let mut text = report_text(args, &report, games);
    let header = format!(
        "{}'s evaluation weights, fitted by `ply tune {}` to {} positions of {games} games\n\
         (docs/tuning.md); started from '{}'. Held-out error {:.6} -> {:.6}.",
        args.game,
        args.game,
        report.training + report.held_out,
        args.start,
        report.held_out_before,
        report.held_out_after
    );
    let weights_path = args.out.join("weights.txt");
    let mut file = String::new();
    for line in header.lines() {
        let _ = writeln!(file, "# {line}");
    }
    file.push_str(&report.weights);
    std::fs::write(&weights_path, file)
        .with_context(|| format!("cannot write {}", weights_path.display()))?;
    print!("{text}");

    // 3. The check.
    let code = check(args, &variant, &weights_path, &books, &mut text)?;
    let report_path = args.out.join("tune.txt");
    std::fs::write(&report_path, &text)
        .with_context(|| format!("cannot write {}", report_path.display()))?;
    println!("wrote {} and {}", weights_path.display(), report_path.display());
    Ok(code)
}

/// With `--check`, plays the weights at `weights` (A) against the starting ones (B), adding
/// the result to `text` and printing it; failure when a game failed.
pub(crate) fn check(
    args: &TuneArgs,
    variant: &str,
    weights: &Path,
    books: &Books,
    text: &mut String,
) -> anyhow::Result<ExitCode> {
    if args.check == 0 {
        return Ok(ExitCode::SUCCESS);
    }
    let spec = format!("time:{}", args.check_time);
    let check = MatchArgs {
        game: args.game.clone(),
        variant: Some(variant.to_string()),
        a: Some(spec.clone()),
        b: Some(spec),
        round_robin: None,
        games: args.check,
        threads: args.threads,
        seed: args.seed.wrapping_add(1_000_003),
        opening: args.check_opening,
        book: args.check_book.clone(),
        openings: books.check.clone(),
        max_turns: 600,
        out: Some(args.out.join("check")),
        a_weights: Some(weights.display().to_string()),
        b_weights: Some(args.start.clone()),
        a_engine: None,
        b_engine: None,
        a_options: Vec::new(),
        b_options: Vec::new(),
    };
    let summary = play_match(&check)?;
    let head = format!("\ncheck: the tuned weights (A) against '{}' (B)\n", args.start);
    text.push_str(&head);
    text.push_str(&summary.text);
    print!("{head}{}", summary.text);
    Ok(if summary.failures > 0 { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_files_read_back() {
        let dir = std::env::temp_dir().join(format!("ply-tune-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("positions.txt");
        let samples = vec![
            Sample { position: "boop;x".into(), game: 0, result: 1.0 },
            Sample { position: "boop;y\tz".into(), game: 3, result: 0.5 },
        ];
        write_positions(&path, &samples).unwrap();
        assert_eq!(read_positions(&path).unwrap(), samples);
        // Labels of --label are expected scores: any share from 0 to 1, nothing outside.
        std::fs::write(&path, "0.7\t1\tboop;x\n").unwrap();
        assert_eq!(read_positions(&path).unwrap()[0].result, 0.7);
        for bad in ["1.5", "-0.1", "win"] {
            std::fs::write(&path, format!("{bad}\t1\tboop;x\n")).unwrap();
            let e = read_positions(&path).unwrap_err().to_string();
            assert!(e.contains(":1: not 'result"), "{bad}: {e}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    fn tune_args(label: &str, weight: f64) -> TuneArgs {
        use clap::Parser;
        #[derive(Parser)]
        struct Cli {
            #[command(flatten)]
            tune: TuneArgs,
        }
        let weight = weight.to_string();
        let args = ["ply", "boop", "--out", "x", "--label", label, "--label-weight", &weight];
        Cli::parse_from(args).tune
    }

    #[test]
    fn labels_are_searches_blended_with_results_the_same_on_any_number_of_threads() {
        let entry = ply_games::engine("boop").unwrap();
        let think = label_think(&tune_args("nodes:3000", 1.0), &entry).unwrap().unwrap();
        assert_eq!((think.threads, think.noise, think.noise_scale), (1, 0, 0.0));
        // Positions of a short game, labelled with alternating results.
        let registry = ply_games::registry();
        let mut g = registry.get("boop").unwrap().new_game(None).unwrap();
        let mut samples = Vec::new();
        for (i, mv) in ["Kc3", "Kd4", "Ka1", "Kf6", "Kb5", "Ke2"].into_iter().enumerate() {
            let result = if i % 2 == 0 { 1.0 } else { 0.0 };
            samples.push(Sample { position: g.position_string(), game: 0, result });
            g.play(mv).unwrap();
        }
        let label = |weight: f64, threads: usize| {
            let mut s = samples.clone();
            label_samples(&mut s, &entry, "boop", "default", &think, weight, threads).unwrap();
            s.iter().map(|s| s.result).collect::<Vec<f64>>()
        };
        let searched = label(1.0, 1);
        assert!(searched.iter().all(|r| (0.0..=1.0).contains(r)), "{searched:?}");
        assert!(searched.iter().any(|r| ![0.0, 0.5, 1.0].contains(r)), "{searched:?}");
        assert_eq!(label(1.0, 2), searched, "a cleared table per position: threads do not matter");
        let results: Vec<f64> = samples.iter().map(|s| s.result).collect();
        assert_eq!(label(0.0, 2), results, "weight 0 keeps the results");
        let half = label(0.5, 3);
        for ((h, s), r) in half.iter().zip(&searched).zip(&results) {
            assert!((h - (s + r) / 2.0).abs() < 1e-12, "{h} is not half of {s} and {r}");
        }
    }

    #[test]
    fn a_position_with_a_compulsory_jump_keeps_its_result() {
        // The fit leaves such positions out (the search never evaluates them): no search.
        let entry = ply_games::engine("zertz").unwrap();
        let mut engine = entry.new_engine("37").unwrap();
        let mut rng = ply_search::Rng::new(1);
        let mut quiet = Vec::new();
        while engine.quiet() {
            let s = Sample { position: engine.game().position_string(), game: 0, result: 1.0 };
            quiet.push(s);
            let mv = engine.random_move(&mut rng).unwrap();
            engine.play(&mv).unwrap();
        }
        let forced = Sample { position: engine.game().position_string(), game: 0, result: 1.0 };
        let think = label_think(&tune_args("nodes:2000", 1.0), &entry).unwrap().unwrap();
        let mut samples = vec![forced.clone(), quiet.pop().unwrap()];
        label_samples(&mut samples, &entry, "37", "default", &think, 1.0, 1).unwrap();
        assert_eq!(samples[0], forced);
        assert_ne!(samples[1].result, 1.0, "a quiet position is labelled by the search");
    }

    #[test]
    fn a_label_must_be_a_search_of_fixed_size_and_its_weight_a_share() {
        let entry = ply_games::engine("boop").unwrap();
        for (label, weight, says) in [
            ("time:100", 1.0, "time limit"),
            ("random", 1.0, "not random"),
            ("nodes:1000", 1.5, "a share from 0 to 1"),
            ("depth:x", 1.0, "not a number"),
        ] {
            let e = label_think(&tune_args(label, weight), &entry).unwrap_err().to_string();
            assert!(e.contains(says), "{label} {weight}: {e}");
        }
        assert!(label_think(&tune_args("depth:2", 0.5), &entry).unwrap().is_some());
    }

    #[test]
    fn a_record_gives_its_positions_with_the_result_for_the_mover() {
        let registry = ply_games::registry();
        let mut record = Record::new("boop", "boop");
        for mv in ["Kc3", "Kd4", "Ka1"] {
            record.moves.push(ply_records::RecordMove::new(mv));
        }
        assert!(samples_of(&record, &registry, 0, 0).unwrap().is_empty(), "no result: no samples");
        record.set_header("Result", "0-1");
        let s = samples_of(&record, &registry, 7, 1).unwrap();
        assert_eq!(s.len(), 2);
        assert!(s.iter().all(|s| s.game == 7));
        // Turn 1 is P2's: he won.
        assert_eq!((s[0].result, s[1].result), (1.0, 0.0));
    }
}
