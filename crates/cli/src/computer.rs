//! The computer player on the command line: `bestmove`, `match` and `bench`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use ply_core::Player;
use ply_records::{GameResult, Record, RecordMove};
use ply_search::{Algorithm, AnyEngine, EngineEntry, Limits, Rng, Think};

use crate::book::Book;
use crate::external::ExternalPlayer;
use crate::position::{PositionArgs, UsageError};

/// How hard to think, shared by `bestmove`.
#[derive(Args, Debug, Clone)]
pub struct BudgetArgs {
    /// Strength level, 1 (beginner) to 10 (strongest, about a second a move). The default
    /// when no other budget is given.
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=10), conflicts_with_all = ["time", "nodes", "depth"])]
    pub level: Option<u8>,
    /// Think for this many milliseconds.
    #[arg(long, value_name = "MS")]
    pub time: Option<u64>,
    /// Search this many nodes (alpha-beta positions, MCTS playouts); reproducible.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Alpha-beta only: search to this depth.
    #[arg(long)]
    pub depth: Option<u32>,
    /// alphabeta or mcts (default: the one that plays this game best).
    #[arg(long, value_parser = parse_algorithm)]
    pub algorithm: Option<Algorithm>,
    /// Seed of the noise that weakens low levels (the same seed and budget give the same move).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Search threads.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Transposition table or tree size, MiB.
    #[arg(long, default_value_t = 64)]
    pub hash: usize,
    /// Alpha-beta: how much worse than an even position a draw (repetition included) counts
    /// for the engine, in evaluation units; negative values make it seek draws.
    #[arg(long, default_value_t = 0, allow_negative_numbers = true,
          value_parser = clap::value_parser!(i32).range(-1000..=1000))]
    pub contempt: i32,
    /// Alpha-beta, where the rules draw no repeated position (GIPF): score a position
    /// the game has already seen as a draw all the same ("no progress", worth --contempt),
    /// so the engine leaves a cycle it stands better in. `false` scores it by the evaluation.
    #[arg(long, value_name = "true|false", default_value_t = true, action = clap::ArgAction::Set)]
    pub no_progress: bool,
    /// Evaluate with this weight set: a built-in one (`default`, or `hand` where fitted
    /// weights replaced hand-set ones) or a weights file, e.g. one `ply tune` wrote.
    #[arg(long, value_name = "SET|FILE")]
    pub weights: Option<String>,
}

fn parse_algorithm(s: &str) -> Result<Algorithm, String> {
    Algorithm::parse(s).ok_or_else(|| format!("'{s}' is not an algorithm: alphabeta or mcts"))
}

#[derive(Args, Debug)]
pub struct BestmoveArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    #[command(flatten)]
    pub budget: BudgetArgs,
}

fn engine_for(args: &PositionArgs) -> anyhow::Result<(EngineEntry, Box<dyn AnyEngine>)> {
    let entry = ply_games::engine(&args.game).map_err(UsageError)?;
    let registry = ply_games::registry();
    let variant = args.variant.clone().unwrap_or_else(|| {
        registry.get(&args.game).map(|e| e.default_variant().to_string()).unwrap_or_default()
    });
    let mut engine = entry.new_engine(&variant).map_err(|e| UsageError(e.to_string()))?;
    if let Some(text) = &args.position {
        let start = crate::position::from_position(&args.game, args.variant.as_deref(), text)?;
        let mut fresh = entry.new_engine(start.variant()).map_err(|e| UsageError(e.to_string()))?;
        fresh.set_position(start.as_ref());
        engine = fresh;
    }
    if let Some(moves) = &args.moves {
        for text in moves.split_whitespace() {
            let number = engine.game().history().len() + 1;
            engine.play(text).map_err(|e| UsageError(format!("move {number} '{text}': {e}")))?;
        }
    }
    Ok((entry, engine))
}

fn think_of(budget: &BudgetArgs, entry: &EngineEntry) -> Think {
    let algorithm = budget.algorithm.unwrap_or(entry.preferred);
    let mut think = match budget.level {
        Some(level) => entry.level(level, Some(algorithm)),
        None if budget.time.is_none() && budget.nodes.is_none() && budget.depth.is_none() => {
            entry.level(10, Some(algorithm))
        }
        None => Think {
            algorithm,
            limits: Limits {
                depth: budget.depth,
                nodes: budget.nodes,
                time: budget.time.map(Duration::from_millis),
            },
            noise: 0,
            noise_scale: 0.0,
            seed: 0,
            threads: 1,
            hash_mb: 64,
            material_only: false,
            contempt: 0,
            no_progress: false,
        },
    };
    think.seed = budget.seed;
    think.threads = budget.threads.max(1);
    think.hash_mb = budget.hash.max(1);
    think.contempt = budget.contempt;
    think.no_progress = budget.no_progress;
    think
}

/// The value of an on/off option: `true` or `false`.
pub(crate) fn parse_switch(name: &str, value: &str) -> Result<bool, String> {
    match value.to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(format!("{name} is true or false, not '{value}'")),
    }
}

/// The value of the contempt option: evaluation units, −1000 to 1000 (the engine protocol's
/// `setoption contempt` and a match side's `--a-option contempt=N` alike).
pub(crate) fn parse_contempt(value: &str) -> Result<i32, String> {
    let contempt: i32 =
        value.parse().map_err(|_| format!("'{value}' is not a number for contempt"))?;
    if (-1000..=1000).contains(&contempt) {
        Ok(contempt)
    } else {
        Err("contempt must be -1000 to 1000 (evaluation units)".into())
    }
}

/// A match side's `--a-option NAME=VALUE` settings applied to its own search: the engine
/// protocol's `contempt` and `noprogress`. The player's name in the results and records
/// gets them too, so the two sides of an A/B match can be told apart.
/// With `external`, the options go to another program (`--a-engine`) and only the name
/// takes them.
pub(crate) fn with_options(
    player: Contestant,
    options: &[String],
    external: bool,
) -> Result<Contestant, String> {
    if options.is_empty() {
        return Ok(player);
    }
    let Contestant::Engine(mut think, mut name) = player else {
        return Err("the random player takes no options".into());
    };
    for option in options {
        let (key, value) = split_option(option)?;
        if external {
            name.push(' ');
            name.push_str(option);
            continue;
        }
        match key.to_ascii_lowercase().as_str() {
            "contempt" => think.contempt = parse_contempt(value)?,
            "noprogress" => think.no_progress = parse_switch("noprogress", value)?,
            _ => {
                return Err(format!(
                    "'{key}': ply's own players take the options contempt and noprogress (other \
                     options go to an external engine, --a-engine or --b-engine)"
                ));
            }
        }
        name.push(' ');
        name.push_str(option);
    }
    Ok(Contestant::Engine(think, name))
}

/// What the results table adds to a side played by another program.
fn external_mark(engine: &Option<String>) -> &'static str {
    if engine.is_some() { " (external)" } else { "" }
}

/// `NAME=VALUE`, both parts non-empty.
pub(crate) fn split_option(option: &str) -> Result<(&str, &str), String> {
    match option.split_once('=') {
        Some((key, value)) if !key.is_empty() && !value.is_empty() => Ok((key, value)),
        _ => Err(format!("'{option}' is not an option: NAME=VALUE, e.g. noprogress=false")),
    }
}

pub fn bestmove(args: &BestmoveArgs) -> anyhow::Result<ExitCode> {
    let (entry, mut engine) = engine_for(&args.position)?;
    if let Some(weights) = &args.budget.weights {
        engine.set_weights(weights).map_err(UsageError)?;
    }
    let think = think_of(&args.budget, &entry);
    let stop = Arc::new(AtomicBool::new(false));
    let Some(t) = engine.think(&think, &stop) else {
        let status = engine.game().status_line();
        return Err(UsageError(format!("no move: the game is over ({status})")).into());
    };
    let mut out = std::io::stdout().lock();
    writeln!(out, "bestmove {}", t.best)?;
    writeln!(out, "score {}", t.score)?;
    writeln!(out, "pv {}", t.pv.join(" "))?;
    writeln!(out, "depth {}", t.depth)?;
    writeln!(out, "nodes {}", t.nodes)?;
    writeln!(out, "algorithm {}", think.algorithm.name())?;
    let ms = t.elapsed.as_secs_f64() * 1000.0;
    writeln!(out, "time {ms:.0} ms")?;
    if let Some(stopped) = t.stopped {
        writeln!(out, "stopped {}", stopped.name())?;
    }
    Ok(ExitCode::SUCCESS)
}

/// One side of a match.
#[derive(Clone, Debug)]
pub(crate) enum Contestant {
    Random,
    /// The search and the side's name: its spec and options.
    Engine(Think, String),
}

impl Contestant {
    /// The side's name in the results and the records.
    pub(crate) fn name(&self) -> &str {
        match self {
            Contestant::Random => "random",
            Contestant::Engine(_, name) => name,
        }
    }
}

pub(crate) fn parse_spec(spec: &str, entry: &EngineEntry) -> Result<Contestant, String> {
    // `/tN`: N search threads.
    let (spec_body, threads) = match spec.rsplit_once("/t") {
        Some((body, n)) => {
            let n: usize =
                n.parse().map_err(|_| format!("'{n}' in '{spec}' is not a number of threads"))?;
            if !(1..=64).contains(&n) {
                return Err(format!("{n} threads in '{spec}': 1 to 64"));
            }
            (body, n)
        }
        None => (spec, 1),
    };
    let (body, algorithm) = match spec_body.split_once('@') {
        Some((b, a)) => (b, Some(parse_algorithm(a)?)),
        None => (spec_body, None),
    };
    let algorithm = algorithm.unwrap_or(entry.preferred);
    if body == "random" {
        return Ok(Contestant::Random);
    }
    // `~NOISE`: the leaf noise of the weak levels, in value scales (to try level tables).
    let (body, noise) = match body.split_once('~') {
        Some((b, x)) => {
            let x: f32 =
                x.parse().map_err(|_| format!("'{x}' in '{spec}' is not an amount of noise"))?;
            if !(0.0..=10.0).contains(&x) {
                return Err(format!("noise {x} in '{spec}': 0 to 10 value scales"));
            }
            (b, Some(x))
        }
        None => (body, None),
    };
    let (kind, value) = body.split_once(':').ok_or_else(|| {
        format!(
            "'{spec}' is not a player: level:N, time:MS, nodes:N, depth:N, baseline:D, material:MS or random"
        )
    })?;
    let n: u64 = value.parse().map_err(|_| format!("'{value}' in '{spec}' is not a number"))?;
    let base = entry.level(10, Some(algorithm));
    let think = match kind {
        "level" if (1..=10).contains(&n) => entry.level(n as u8, Some(algorithm)),
        "level" => return Err(format!("level {n} does not exist: levels are 1 to 10")),
        "time" => Think { limits: Limits::time(Duration::from_millis(n)), ..base },
        "nodes" => Think { limits: Limits::nodes(n), ..base },
        "depth" => Think { limits: Limits::depth(n as u32), ..base },
        "baseline" => Think::baseline(n as u32),
        "material" => {
            Think { limits: Limits::time(Duration::from_millis(n)), ..Think::baseline(0) }
        }
        _ => {
            return Err(format!(
                "'{kind}' is not a kind of player: level, time, nodes, depth, baseline or random"
            ));
        }
    };
    let think = match noise {
        Some(noise_scale) if matches!(kind, "level" | "time" | "nodes" | "depth") => {
            Think { noise: 0, noise_scale, ..think }
        }
        Some(_) => return Err(format!("'{spec}': only level, time, nodes and depth take ~NOISE")),
        None => think,
    };
    Ok(Contestant::Engine(Think { threads, ..think }, spec.to_string()))
}

#[derive(Args, Debug, Clone)]
pub struct MatchArgs {
    /// The game.
    pub game: String,
    /// The variant (default: the game's default).
    #[arg(long, short = 'v')]
    pub variant: Option<String>,
    /// Player A: level:N, time:MS, nodes:N, depth:N, baseline:D (fixed-depth alpha-beta on
    /// material alone), material:MS (alpha-beta on material alone for MS milliseconds) or
    /// random; add ~X to level, time, nodes or depth for leaf noise of X value scales (as the
    /// weak levels have; e.g. nodes:2000~0.5), @alphabeta or @mcts to choose the algorithm of
    /// level, time, nodes, depth, and /tN to search with N threads (e.g. time:300@alphabeta/t2).
    #[arg(long, required_unless_present = "round_robin")]
    pub a: Option<String>,
    /// Player B, as --a.
    #[arg(long, required_unless_present = "round_robin")]
    pub b: Option<String>,
    /// Instead of --a and --b: every pair of these players (comma-separated, as --a; or
    /// `levels` for level:1 to level:10) plays --games games. Prints the crosstable and one
    /// Elo scale fitted to all the games (the first player at 0) with 95 % intervals, and
    /// with --out also saves it as round-robin.txt beside the records.
    #[arg(long, value_name = "PLAYERS", conflicts_with_all = ["a", "b"])]
    pub round_robin: Option<String>,
    /// Number of games (a pairing's, with --round-robin); colours alternate, and each random
    /// opening is played twice, once with each colour.
    #[arg(long, default_value_t = 20)]
    pub games: usize,
    /// Games played at the same time.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Seed of the openings and of the engines' noise.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Random turns at the start of each game pair, so games differ.
    #[arg(long, default_value_t = 2)]
    pub opening: usize,
    /// Start each game pair from the next opening of this book instead of random turns
    /// (`ply book` writes one; one opening a line, its turns separated by spaces, `#` starts a
    /// comment). The book repeats when the pairs outnumber its openings.
    #[arg(long, value_name = "FILE", conflicts_with = "opening")]
    pub book: Option<PathBuf>,
    /// The openings of `book`, read by `play_match` before the first game.
    #[arg(skip)]
    pub openings: Option<Arc<Book>>,
    /// A game still going after this many turns is adjudicated a draw.
    #[arg(long, default_value_t = 600)]
    pub max_turns: usize,
    /// Save every game as a record in this directory.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Player A evaluates with this weight set: a built-in one (`default`) or a weights
    /// file, e.g. one `ply tune` wrote.
    #[arg(long, value_name = "SET|FILE", conflicts_with = "round_robin")]
    pub a_weights: Option<String>,
    /// Player B's weight set, as --a-weights.
    #[arg(long, value_name = "SET|FILE", conflicts_with = "round_robin")]
    pub b_weights: Option<String>,
    /// Player A's turns come from this program (and its arguments, separated by spaces),
    /// which speaks ply's engine protocol (docs/engine-protocol.md): e.g. another build,
    /// `ply-old engine`. One process a game; --a is then time:MS, nodes:N, depth:N or
    /// level:N (with /tN), sent as `go` limits or options, and --a-weights as its `weights`
    /// option.
    #[arg(long, value_name = "COMMAND", conflicts_with = "round_robin")]
    pub a_engine: Option<String>,
    /// Player B's program, as --a-engine.
    #[arg(long, value_name = "COMMAND", conflicts_with = "round_robin")]
    pub b_engine: Option<String>,
    /// An option of player A, NAME=VALUE; repeat it for several. ply's own players take the
    /// engine protocol's contempt=N and noprogress=true|false; an external engine
    /// (--a-engine) is sent each as `setoption NAME VALUE` at every game's start.
    #[arg(long = "a-option", value_name = "NAME=VALUE", conflicts_with = "round_robin")]
    pub a_options: Vec<String>,
    /// An option of player B, as --a-option.
    #[arg(long = "b-option", value_name = "NAME=VALUE", conflicts_with = "round_robin")]
    pub b_options: Vec<String>,
}

#[derive(Default)]
struct Tally {
    a_wins: usize,
    draws: usize,
    b_wins: usize,
    think: [(Duration, usize); 2],
}

pub(crate) struct Finished {
    pub(crate) record: Record,
    /// A's points: 1, ½ or 0.
    pub(crate) a_score: f64,
    /// Thinking time and moves chosen by each side (A, B), openings excluded.
    pub(crate) think: [(Duration, usize); 2],
}

/// Game `index` of A against B: A takes P1 in even games; each pair of games shares its
/// random opening.
pub(crate) fn play_one(
    entry: &EngineEntry,
    variant: &str,
    args: &MatchArgs,
    a: &Contestant,
    b: &Contestant,
    external: &[Option<ExternalPlayer>; 2],
    index: usize,
) -> anyhow::Result<Finished> {
    let mut engines: [Box<dyn AnyEngine>; 2] =
        [entry.new_engine(variant)?, entry.new_engine(variant)?];
    for ((engine, weights), program) in
        engines.iter_mut().zip([&args.a_weights, &args.b_weights]).zip(external)
    {
        if let (Some(w), None) = (weights, program) {
            engine.set_weights(w).map_err(UsageError)?;
        }
    }
    play_one_with(entry, variant, args, [a, b], external, index, engines)
}

/// The external programs of A and B (`--a-engine`, `--b-engine`), each started once on the
/// game to fail the match before any game if it cannot play.
fn externals(
    args: &MatchArgs,
    game: &str,
    variant: &str,
) -> anyhow::Result<[Option<ExternalPlayer>; 2]> {
    let mut out = [None, None];
    let sides = [
        (&args.a_engine, &args.a, &args.a_weights, &args.a_options),
        (&args.b_engine, &args.b, &args.b_weights, &args.b_options),
    ];
    for (slot, (command, spec, weights, options)) in out.iter_mut().zip(sides) {
        let (Some(command), Some(spec)) = (command, spec) else { continue };
        let mut player =
            ExternalPlayer::new(command, spec, weights.as_deref()).map_err(UsageError)?;
        for option in options {
            let (key, value) = split_option(option).map_err(UsageError)?;
            player.options.push(format!("setoption {key} {value}"));
        }
        player.start(game, variant).map_err(UsageError)?;
        *slot = Some(player);
    }
    Ok(out)
}

/// [`play_one`] with A's and B's engines given (their weights set; `args`' weights then only
/// name them in the record).
pub(crate) fn play_one_with(
    entry: &EngineEntry,
    variant: &str,
    args: &MatchArgs,
    [a, b]: [&Contestant; 2],
    external: &[Option<ExternalPlayer>; 2],
    index: usize,
    mut engines: [Box<dyn AnyEngine>; 2],
) -> anyhow::Result<Finished> {
    let mut programs = [None, None];
    for (program, player) in programs.iter_mut().zip(external) {
        if let Some(player) = player {
            *program = Some(player.start(entry.name, variant).map_err(anyhow::Error::msg)?);
        }
    }
    let mut game = entry.new_engine(variant)?;
    let a_is_p1 = index.is_multiple_of(2);
    // The opening is shared by the two games of a pair.
    let mut rng = Rng::new(args.seed ^ ((index / 2) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let stop = Arc::new(AtomicBool::new(false));
    let mut moves: Vec<RecordMove> = Vec::new();
    let mut note = None;
    let mut thinking = [(Duration::ZERO, 0usize); 2];
    for turn in 0..args.max_turns {
        if game.game().outcome().is_some() {
            break;
        }
        let mover = game.game().to_move();
        let side = if (mover == Player::P1) == a_is_p1 { 0 } else { 1 };
        let player = if side == 0 { a } else { b };
        let book_turn = args.openings.as_ref().and_then(|b| b.opening(index / 2).get(turn));
        let mv = if let Some(turn) = book_turn {
            Some(turn.clone())
        } else if args.openings.is_none() && turn < args.opening {
            game.random_move(&mut rng)
        } else {
            match player {
                Contestant::Random => game.random_move(&mut rng),
                Contestant::Engine(think, _) => {
                    let mut think = *think;
                    think.seed = args.seed.wrapping_add(index as u64 * 1000 + turn as u64);
                    let started = Instant::now();
                    let best = match (&mut programs[side], &external[side]) {
                        (Some(program), Some(player)) => {
                            Some(program.choose(player, think.seed).map_err(anyhow::Error::msg)?)
                        }
                        _ => engines[side].think(&think, &stop).map(|t| t.best),
                    };
                    thinking[side].0 += started.elapsed();
                    thinking[side].1 += 1;
                    best
                }
            }
        }
        .context("a game that is not over has a legal move")?;
        let mv = game.play(&mv).with_context(|| format!("turn {}: {mv}", turn + 1))?;
        for e in &mut engines {
            e.play(&mv)?;
        }
        let position = game.game().position_string();
        for program in programs.iter_mut().flatten() {
            program.play(&mv, &position).map_err(anyhow::Error::msg)?;
        }
        moves.push(RecordMove::new(mv));
        if turn + 1 == args.max_turns && game.game().outcome().is_none() {
            note = Some(format!("adjudicated a draw after {} turns", args.max_turns));
        }
    }
    let outcome = game.game().outcome();
    let result = match outcome {
        Some(o) => GameResult::from_outcome(Some(o)),
        None => GameResult::Draw,
    };
    let a_player = if a_is_p1 { Player::P1 } else { Player::P2 };
    let a_score = match outcome {
        Some(o) => o.score_for(a_player),
        None => 0.5,
    };
    let name = |p: &Contestant, weights: &Option<String>| match weights {
        Some(w) => format!("{} weights:{w}", p.name()),
        None => p.name().to_string(),
    };
    let with_program = |name: String, command: &Option<String>| match command {
        Some(c) => format!("{name} engine:{c}"),
        None => name,
    };
    let (a_name, b_name) = (
        with_program(name(a, &args.a_weights), &args.a_engine),
        with_program(name(b, &args.b_weights), &args.b_engine),
    );
    let mut record = Record::new(entry.name, variant);
    let (p1, p2) = if a_is_p1 { (a_name, b_name) } else { (b_name, a_name) };
    record.set_header("P1", &p1);
    record.set_header("P2", &p2);
    record.set_header("Round", &(index + 1).to_string());
    record.set_header("Result", result.token());
    if let Some(n) = note {
        record.set_header("Termination", &n);
    }
    record.moves = moves;
    Ok(Finished { record, a_score, think: thinking })
}

/// The progress bar of a run of `len` games.
pub(crate) fn games_bar(len: usize) -> ProgressBar {
    counting_bar(len, "games")
}

/// A bar of `len` things called `unit`, with the time so far and to go.
pub(crate) fn counting_bar(len: usize, unit: &str) -> ProgressBar {
    let bar = ProgressBar::new(len as u64);
    let template = format!(
        "{{msg}} [{{bar:30}}] {{pos}}/{{len}} {unit}, {{elapsed_precise}} elapsed, eta {{eta}}"
    );
    bar.set_style(
        ProgressStyle::with_template(&template).expect("valid template").progress_chars("=> "),
    );
    bar
}

/// The value behind `m`, even if a thread panicked while holding it (the tallies stay
/// meaningful: each update is one statement).
pub(crate) fn locked<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Plays games `0..count`, `threads` at a time, advancing `bar`: `play(k)` plays game `k`
/// and names its record file; every finished game goes to `done` (with `k`) and, with `out`, is saved
/// there. Returns what failed, one line each, also printed on standard error.
pub(crate) fn play_games(
    count: usize,
    threads: usize,
    out: Option<&Path>,
    bar: &ProgressBar,
    play: impl Fn(usize) -> Result<(String, Finished), String> + Sync,
    done: impl Fn(usize, &Finished) + Sync,
) -> Vec<String> {
    let next = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| {
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    if k >= count {
                        break;
                    }
                    match play(k) {
                        Ok((file, finished)) => {
                            done(k, &finished);
                            if let Some(dir) = out {
                                let path = dir.join(file);
                                if let Err(e) = std::fs::write(&path, finished.record.to_string()) {
                                    locked(&failures)
                                        .push(format!("cannot write {}: {e}", path.display()));
                                }
                            }
                        }
                        Err(e) => locked(&failures).push(e),
                    }
                    bar.inc(1);
                }
            });
        }
    });
    bar.finish_and_clear();
    let failures = failures.into_inner().unwrap_or_else(PoisonError::into_inner);
    for f in &failures {
        eprintln!("ply: {f}");
    }
    failures
}

/// Elo difference for a score fraction (infinite at 0 and 1).
fn elo(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

pub fn run_match(args: &MatchArgs) -> anyhow::Result<ExitCode> {
    let summary = play_match(args)?;
    print!("{}", summary.text);
    Ok(if summary.failures == 0 { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// The outcome of a match between A and B.
pub(crate) struct MatchSummary {
    /// The results table and Elo difference, as `ply match` prints them.
    pub(crate) text: String,
    /// Games that could not be played or saved.
    pub(crate) failures: usize,
}

/// The computer player of `game` and the variant asked for (the game's default if none).
///
/// # Errors
/// A usage error for a game without a computer player or an unknown variant.
pub(crate) fn engine_and_variant(
    game: &str,
    variant: Option<&str>,
) -> anyhow::Result<(EngineEntry, String)> {
    let entry = ply_games::engine(game).map_err(UsageError)?;
    let registry = ply_games::registry();
    let game_entry = registry.get(game).map_err(|e| UsageError(e.to_string()))?;
    let variant = variant.map_or_else(|| game_entry.default_variant().to_string(), str::to_string);
    if !game_entry.variants.contains(&variant.as_str()) {
        bail!(UsageError(format!(
            "{game} has no variant '{variant}' (variants: {})",
            game_entry.variants.join(", ")
        )));
    }
    Ok((entry, variant))
}

/// Plays the match of `args` (A against B; the round robin prints its own report).
pub(crate) fn play_match(args: &MatchArgs) -> anyhow::Result<MatchSummary> {
    use std::fmt::Write as _;
    let (entry, variant) = engine_and_variant(&args.game, args.variant.as_deref())?;
    let with_book;
    let args = match (&args.book, &args.openings) {
        (Some(path), None) => {
            let mut a = args.clone();
            a.openings = Some(Arc::new(Book::load(path, &entry, &variant)?));
            with_book = a;
            &with_book
        }
        _ => args,
    };
    let (a_spec, b_spec) = match (&args.round_robin, &args.a, &args.b) {
        (Some(list), _, _) => {
            let code = crate::ladder::run(args, list, &entry, &variant)?;
            let failures = usize::from(code != ExitCode::SUCCESS);
            return Ok(MatchSummary { text: String::new(), failures });
        }
        (None, Some(a), Some(b)) => (a, b),
        _ => bail!(UsageError("give --a and --b, or --round-robin".into())),
    };
    let external = externals(args, entry.name, &variant)?;
    let a = parse_spec(a_spec, &entry)
        .and_then(|a| with_options(a, &args.a_options, external[0].is_some()))
        .map_err(UsageError)?;
    let b = parse_spec(b_spec, &entry)
        .and_then(|b| with_options(b, &args.b_options, external[1].is_some()))
        .map_err(UsageError)?;
    for (weights, program) in [(&args.a_weights, &external[0]), (&args.b_weights, &external[1])] {
        if let (Some(weights), None) = (weights, program) {
            entry.new_engine(&variant)?.set_weights(weights).map_err(UsageError)?;
        }
    }
    if args.games == 0 {
        bail!(UsageError("--games must be at least 1".into()));
    }
    if let Some(dir) = &args.out {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let bar = games_bar(args.games);
    let tally = Mutex::new(Tally::default());
    let start = Instant::now();
    let failures = play_games(
        args.games,
        args.threads,
        args.out.as_deref(),
        &bar,
        |index| {
            play_one(&entry, &variant, args, &a, &b, &external, index)
                .map(|done| (format!("{}-{:04}.ply", entry.name, index + 1), done))
                .map_err(|e| format!("game {}: {e:#}", index + 1))
        },
        |_, done| {
            let mut t = locked(&tally);
            for side in 0..2 {
                t.think[side].0 += done.think[side].0;
                t.think[side].1 += done.think[side].1;
            }
            if done.a_score == 1.0 {
                t.a_wins += 1;
            } else if done.a_score == 0.0 {
                t.b_wins += 1;
            } else {
                t.draws += 1;
            }
            bar.set_message(format!("A {} = {} B {}", t.a_wins, t.draws, t.b_wins));
        },
    );
    let t = tally.into_inner().unwrap_or_else(PoisonError::into_inner);
    let n = (t.a_wins + t.draws + t.b_wins) as f64;
    if n == 0.0 {
        bail!("no game finished");
    }
    let score = (t.a_wins as f64 + 0.5 * t.draws as f64) / n;
    // 95 % Wilson interval of the score: sound near 0 % and 100 % too.
    let z = 1.96f64;
    let centre = (score + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z * (score * (1.0 - score) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
    // Bounds within rounding of 0 or 1 are the infinite ends of the Elo scale.
    let snap = |x: f64| {
        if x < 1e-9 {
            0.0
        } else if x > 1.0 - 1e-9 {
            1.0
        } else {
            x
        }
    };
    let (lo, hi) = (snap(centre - half), snap(centre + half));
    let mut out = String::new();
    writeln!(
        out,
        "{} {variant}: {} games in {:.1} s",
        entry.name,
        n,
        start.elapsed().as_secs_f64()
    )?;
    let per_move = |side: usize| {
        let (time, moves) = t.think[side];
        if moves == 0 {
            "-".to_string()
        } else {
            format!("{:.0} ms", time.as_secs_f64() * 1000.0 / moves as f64)
        }
    };
    writeln!(
        out,
        "{:<28} {:>5} {:>5} {:>6} {:>7} {:>12}",
        "player", "wins", "draws", "losses", "score", "time/move"
    )?;
    writeln!(
        out,
        "{:<28} {:>5} {:>5} {:>6} {:>6.1}% {:>12}",
        format!("A {}{}", a.name(), external_mark(&args.a_engine)),
        t.a_wins,
        t.draws,
        t.b_wins,
        score * 100.0,
        per_move(0)
    )?;
    writeln!(
        out,
        "{:<28} {:>5} {:>5} {:>6} {:>6.1}% {:>12}",
        format!("B {}{}", b.name(), external_mark(&args.b_engine)),
        t.b_wins,
        t.draws,
        t.a_wins,
        (1.0 - score) * 100.0,
        per_move(1)
    )?;
    let fmt = |x: f64| {
        if x.is_finite() {
            format!("{x:+.0}")
        } else if x > 0.0 {
            "+inf".into()
        } else {
            "-inf".into()
        }
    };
    writeln!(
        out,
        "Elo difference A-B: {} (95% interval {} to {})",
        fmt(elo(score)),
        fmt(elo(lo)),
        fmt(elo(hi))
    )?;
    Ok(MatchSummary { text: out, failures: failures.len() })
}

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// One game (default: every game with a computer player).
    pub game: Option<String>,
}

pub fn bench(args: &BenchArgs) -> anyhow::Result<ExitCode> {
    let entries: Vec<EngineEntry> = match &args.game {
        Some(g) => vec![ply_games::engine(g).map_err(UsageError)?],
        None => ply_games::engines(),
    };
    let registry = ply_games::registry();
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "{:<8} {:<22} {:>14} {:>9} {:>12}",
        "game", "work", "nodes", "seconds", "nodes/s"
    )?;
    let mut total = 0u64;
    for entry in entries {
        let variant = registry.get(entry.name).map(|e| e.default_variant()).unwrap_or("");
        let mut game = registry.get(entry.name)?.new_game(Some(variant))?;
        let mut line = |work: String, nodes: u64, secs: f64| -> std::io::Result<()> {
            writeln!(
                out,
                "{:<8} {:<22} {:>14} {:>9.3} {:>12.0}",
                entry.name,
                work,
                nodes,
                secs,
                nodes as f64 / secs.max(1e-9)
            )
        };
        let t = Instant::now();
        let n = game.perft(entry.bench.perft_depth);
        line(format!("perft {}", entry.bench.perft_depth), n, t.elapsed().as_secs_f64())?;
        total = total.wrapping_add(n);
        let stop = Arc::new(AtomicBool::new(false));
        for (algorithm, limits, label) in [
            (
                Algorithm::AlphaBeta,
                Limits::depth(entry.bench.search_depth),
                format!("alphabeta depth {}", entry.bench.search_depth),
            ),
            (
                Algorithm::Mcts,
                Limits::nodes(entry.bench.mcts_nodes),
                format!("mcts {} playouts", entry.bench.mcts_nodes),
            ),
        ] {
            let mut engine = entry.new_engine(variant)?;
            let think = Think { limits, ..entry.level(10, Some(algorithm)) };
            let t = Instant::now();
            let thought = engine.think(&think, &stop).context("the start has moves")?;
            line(label, thought.nodes, t.elapsed().as_secs_f64())?;
            total = total.wrapping_add(thought.nodes);
        }
    }
    writeln!(out, "signature {total}")?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::{Contestant, parse_spec, with_options};
    use ply_search::{Algorithm, Think};

    fn think(spec: &str) -> Think {
        let entry = ply_games::engine("boop").unwrap();
        match parse_spec(spec, &entry) {
            Ok(Contestant::Engine(think, _)) => think,
            other => panic!("{spec}: {other:?}"),
        }
    }

    #[test]
    fn a_spec_takes_noise_algorithm_and_threads_in_any_combination() {
        assert_eq!(think("nodes:2000").noise_scale, 0.0);
        let t = think("nodes:2000~0.5@mcts/t2");
        assert_eq!((t.noise_scale, t.algorithm, t.threads), (0.5, Algorithm::Mcts, 2));
        // Threads without an algorithm once left "/t2" in the number.
        let t = think("time:300/t2");
        assert_eq!(t.threads, 2);
        // A level's own noise is replaced, not added to.
        assert_eq!(think("level:3~0").noise_scale, 0.0);
        assert_eq!(think("level:9~0.25").noise_scale, 0.25);
    }

    #[test]
    fn a_side_takes_contempt_and_no_progress_as_options() {
        let entry = ply_games::engine("gipf").unwrap();
        let player = || parse_spec("time:50", &entry).unwrap();
        let Ok(Contestant::Engine(t, _)) = with_options(player(), &[], false) else {
            panic!("no options refused")
        };
        assert_eq!((t.no_progress, t.contempt), (true, 0));
        let options = ["noprogress=false".to_string(), "contempt=-20".to_string()];
        let Ok(Contestant::Engine(t, name)) = with_options(player(), &options, false) else {
            panic!("options refused")
        };
        assert_eq!((t.no_progress, t.contempt), (false, -20));
        assert_eq!(name, "time:50 noprogress=false contempt=-20");
        // For another program the options only name the side: it gets them as setoption.
        let Ok(Contestant::Engine(t, name)) =
            with_options(player(), &["hash=128".to_string()], true)
        else {
            panic!("options refused")
        };
        assert_eq!((t.no_progress, name.as_str()), (true, "time:50 hash=128"));
        for (option, says) in [
            ("noprogress", "NAME=VALUE"),
            ("=true", "NAME=VALUE"),
            ("noprogress=yes", "true or false"),
            ("contempt=5000", "-1000 to 1000"),
            ("hash=128", "contempt and noprogress"),
        ] {
            let err = with_options(player(), &[option.to_string()], false).unwrap_err();
            assert!(err.contains(says), "{option}: {err}");
        }
        let random = parse_spec("random", &entry).unwrap();
        assert!(with_options(random, &options, false).is_err());
    }

    #[test]
    fn bad_noise_is_a_clear_error() {
        let entry = ply_games::engine("boop").unwrap();
        for (spec, says) in [
            ("nodes:2000~x", "not an amount of noise"),
            ("nodes:2000~-1", "0 to 10"),
            ("baseline:2~0.5", "only level, time, nodes and depth"),
        ] {
            let err = parse_spec(spec, &entry).unwrap_err();
            assert!(err.contains(says), "{spec}: {err}");
        }
    }
}
