//! `ply tune --spsa`: tuning by play ([`ply_search::spsa`]). Plays the game pairs between two
//! perturbations of the weights, steps the weights by each pair's result, writes the trace and
//! the tuned weights, and with `--check` plays them against the starting ones.

use std::fmt::Write as _;
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::Instant;

use anyhow::{Context, bail};
use indicatif::ProgressBar;
use ply_search::spsa::{Perturbation, Spsa};
use ply_search::{AnyEngine, EngineEntry};

use crate::computer::{
    Contestant, MatchArgs, counting_bar, locked, parse_spec, play_games, play_one_with,
};
use crate::position::UsageError;
use crate::tune::{Books, TuneArgs, check};

/// Pairs played from one set of values before the steps are taken. Fixed, not a multiple of
/// the threads, so that a run is the same on any number of threads.
const BATCH: usize = 16;

/// Tunes by `pairs` game pairs (module docs); `entry`, `variant` and `books` as `ply tune`
/// found and read them.
pub(crate) fn run(
    args: &TuneArgs,
    entry: &EngineEntry,
    variant: &str,
    pairs: usize,
    books: &Books,
) -> anyhow::Result<ExitCode> {
    if pairs == 0 {
        bail!(UsageError("--spsa needs at least one pair of games".into()));
    }
    if !(args.spsa_rate > 0.0 && args.spsa_rate.is_finite()) {
        bail!(UsageError(format!("--spsa-rate {} is not a positive number", args.spsa_rate)));
    }
    let player = parse_spec(&args.player, entry).map_err(UsageError)?;
    if matches!(player, Contestant::Random) {
        bail!(UsageError("--player random plays without weights: nothing to tune".into()));
    }
    let mut probe = entry.new_engine(variant)?;
    probe.set_weights(&args.start).map_err(UsageError)?;
    let start = probe.weight_values();
    let tuned: Vec<(usize, String)> = start
        .iter()
        .enumerate()
        .filter(|(_, w)| w.tuned)
        .map(|(i, w)| (i, w.name.clone()))
        .collect();
    let tuned =
        ply_search::tune::unheld(&tuned, &args.hold).map_err(|e| UsageError(e.to_string()))?;
    if tuned.is_empty() {
        bail!(UsageError("every tuned value is held: nothing to tune".into()));
    }
    let start_values: Vec<i32> = start.iter().map(|w| w.value).collect();
    let mut spsa = Spsa::new(
        &start_values,
        tuned.clone(),
        f64::from(probe.value_scale()),
        pairs,
        args.spsa_rate,
        args.seed,
    );
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("cannot create {}", args.out.display()))?;

    // The games: A is the `plus` side, B the `minus` side; the pair of iteration k is games
    // 2k and 2k + 1 of one match, so the two share their random opening.
    let games = MatchArgs {
        game: args.game.clone(),
        variant: Some(variant.to_string()),
        a: Some(args.player.clone()),
        b: Some(args.player.clone()),
        round_robin: None,
        games: 2 * pairs,
        threads: args.threads,
        seed: args.seed,
        opening: args.opening,
        book: args.book.clone(),
        openings: books.games.clone(),
        max_turns: 600,
        out: None,
        a_weights: Some("plus".into()),
        b_weights: Some("minus".into()),
        a_engine: None,
        b_engine: None,
        a_options: Vec::new(),
        b_options: Vec::new(),
    };
    let trace_path = args.out.join("spsa.tsv");
    let mut trace = String::from("pairs\tplus score");
    for &i in &tuned {
        let _ = write!(trace, "\t{}", start[i].name);
    }
    trace.push('\n');
    let trace_row = |trace: &mut String, done: usize, score: f64, values: &[i32]| {
        let _ = write!(trace, "{done}\t{score:.3}");
        for &i in &tuned {
            let _ = write!(trace, "\t{}", values[i]);
        }
        trace.push('\n');
    };
    trace_row(&mut trace, 0, 0.0, &start_values);

    let bar = counting_bar(pairs, "pairs");
    bar.set_message("spsa");
    let began = Instant::now();
    let mut plus_points = 0.0;
    let mut done = 0;
    while done < pairs {
        let batch: Vec<Perturbation> =
            (done..(done + BATCH).min(pairs)).map(|k| spsa.perturb(k)).collect();
        let scores = play_batch(entry, variant, &games, &player, &batch, args.threads)?;
        for (p, score) in batch.iter().zip(&scores) {
            // A's points over the pair, 0 to 2: the result is plus's lead, from −1 to +1.
            spsa.update(p, score - 1.0);
            plus_points += score;
        }
        done += batch.len();
        bar.set_position(done as u64);
        trace_row(&mut trace, done, plus_points / (2 * done) as f64, &spsa.values());
        std::fs::write(&trace_path, &trace)
            .with_context(|| format!("cannot write {}", trace_path.display()))?;
    }
    bar.finish_and_clear();

    let tuned_values = spsa.values();
    probe.set_weight_values(&tuned_values).map_err(UsageError)?;
    let mut text = String::new();
    let _ = writeln!(
        text,
        "SPSA: {pairs} pairs of games, {} a move, {}, seed {}, rate {}, {:.0} s",
        args.player,
        match &args.book {
            Some(book) => format!("openings from {}", book.display()),
            None => format!("opening {} turns", args.opening),
        },
        args.seed,
        args.spsa_rate,
        began.elapsed().as_secs_f64()
    );
    let _ = writeln!(
        text,
        "the perturbed sides scored {:.1} % as A (the plus side); they should be near 50 %",
        100.0 * plus_points / (2 * pairs) as f64
    );
    if !args.hold.is_empty() {
        let _ = writeln!(text, "held at their '{}' values: {}", args.start, args.hold.join(", "));
    }
    let _ = writeln!(text, "{:<20} {:>8} {:>8} {:>8}", "weight", args.start, "c_end", "tuned");
    for &i in &tuned {
        let _ = writeln!(
            text,
            "{:<20} {:>8} {:>8.1} {:>8}",
            start[i].name,
            start_values[i],
            spsa.c_end()[i],
            tuned_values[i]
        );
    }
    let header = format!(
        "{}'s evaluation weights, tuned by `ply tune {} --spsa {pairs}` (docs/tuning.md):\n\
         {pairs} game pairs at {} a move, started from '{}'.",
        args.game, args.game, args.player, args.start
    );
    let mut file = String::new();
    for line in header.lines() {
        let _ = writeln!(file, "# {line}");
    }
    file.push_str(&probe.weights_text());
    let weights_path = args.out.join("weights.txt");
    std::fs::write(&weights_path, file)
        .with_context(|| format!("cannot write {}", weights_path.display()))?;
    print!("{text}");
    let code = check(args, variant, &weights_path, books, &mut text)?;
    let report_path = args.out.join("tune.txt");
    std::fs::write(&report_path, &text)
        .with_context(|| format!("cannot write {}", report_path.display()))?;
    println!(
        "wrote {}, {} and {}",
        weights_path.display(),
        trace_path.display(),
        report_path.display()
    );
    Ok(code)
}

/// Plays the pairs of `batch` on `threads` threads: for each, the `plus` side's points over
/// its two games (0 to 2).
fn play_batch(
    entry: &EngineEntry,
    variant: &str,
    games: &MatchArgs,
    player: &Contestant,
    batch: &[Perturbation],
    threads: usize,
) -> anyhow::Result<Vec<f64>> {
    let points = Mutex::new(vec![0.0; batch.len()]);
    let engine = |values: &[i32]| -> anyhow::Result<Box<dyn AnyEngine>> {
        let mut e = entry.new_engine(variant)?;
        e.set_weight_values(values).map_err(UsageError)?;
        Ok(e)
    };
    let failures = play_games(
        2 * batch.len(),
        threads,
        None,
        &ProgressBar::hidden(),
        |g| {
            let p = &batch[g / 2];
            let game = 2 * p.iteration + g % 2;
            engine(&p.plus)
                .and_then(|a| {
                    let b = engine(&p.minus)?;
                    play_one_with(
                        entry,
                        variant,
                        games,
                        [player, player],
                        &[None, None],
                        game,
                        [a, b],
                    )
                })
                .map(|done| (String::new(), done))
                .map_err(|e| format!("game {}: {e:#}", game + 1))
        },
        |g, done| locked(&points)[g / 2] += done.a_score,
    );
    if !failures.is_empty() {
        bail!("{} of the SPSA games failed", failures.len());
    }
    Ok(points.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner))
}
