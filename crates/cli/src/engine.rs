//! `ply engine`: the line protocol on standard input and output (`docs/engine-protocol.md`).
//!
//! UHP framing: every reply ends with a line `ok`; a failure is a line `err <message>`
//! before it, and the engine goes on. Every change of the position is echoed as its position
//! string. A search (`go`) runs on its own thread while input keeps being read, so `stop`
//! acts at once; other commands sent meanwhile wait, in order, until the search has answered.
//! Nothing but replies goes to standard output; logs go to standard error.

use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use clap::Args;
use ply_search::{AnyEngine, EngineEntry, Limits, Score, Think, Thought};

#[derive(Args, Debug)]
pub struct EngineArgs {}

/// The protocol version `info` reports.
pub const PROTOCOL: u32 = 1;

const COMMANDS: &str = "info, newgame, position, play, undo, validmoves, go, stop, setoption, \
                        options, perft, show, bench, quit";

type Out = Arc<Mutex<dyn Write + Send>>;

fn say(out: &Out, lines: &[String]) {
    let mut w = out.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    for line in lines {
        // A closed output ends the session at the next read; nothing to do here.
        let _ = writeln!(w, "{line}");
    }
    let _ = w.flush();
}

/// The settings `setoption` changes.
#[derive(Clone, Copy, Debug)]
struct Options {
    level: u8,
    threads: usize,
    hash: usize,
    seed: u64,
    contempt: i32,
    no_progress: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options { level: 10, threads: 1, hash: 64, seed: 0, contempt: 0, no_progress: true }
    }
}

/// The game being played and its engine.
struct Current {
    entry: EngineEntry,
    engine: Box<dyn AnyEngine>,
}

struct Search {
    stop: Arc<AtomicBool>,
    infinite: bool,
    handle: JoinHandle<Current>,
}

/// What the loop waits for.
enum Event {
    Line(String),
    Eof,
    SearchDone,
}

struct Session {
    out: Out,
    events: mpsc::Sender<Event>,
    options: Options,
    /// The weight set each game evaluates with, by game name, where `setoption weights`
    /// chose one other than the built-in `default`. Weights are of one game, so they are kept
    /// per game and survive `newgame` and `position`.
    weights: std::collections::BTreeMap<String, String>,
    current: Option<Current>,
    search: Option<Search>,
}

/// What a command asks of the loop.
enum Flow {
    Go,
    Quit,
}

type Reply = Result<Vec<String>, String>;

fn number<T: std::str::FromStr>(what: &str, text: Option<&str>) -> Result<T, String> {
    let text = text.ok_or_else(|| format!("{what} needs a number"))?;
    text.parse().map_err(|_| format!("'{text}' is not a number for {what}"))
}

fn no_more(words: &[&str], command: &str) -> Result<(), String> {
    match words.first() {
        None => Ok(()),
        Some(w) => Err(format!("unexpected '{w}' after {command}")),
    }
}

fn score_words(score: Score) -> String {
    if let Some(n) = score.wins_in() {
        format!("win {n}")
    } else if let Some(n) = score.loses_in() {
        format!("loss {n}")
    } else {
        score.0.to_string()
    }
}

fn info_line(t: &Thought) -> String {
    let ms = t.elapsed.as_millis();
    let nps = if t.elapsed.as_secs_f64() > 0.0 {
        (t.nodes as f64 / t.elapsed.as_secs_f64()) as u64
    } else {
        0
    };
    format!(
        "info depth {} score {} nodes {} nps {nps} time {ms} pv {}",
        t.depth,
        score_words(t.score),
        t.nodes,
        t.pv.join(" ")
    )
}

impl Session {
    fn info(&self) -> Vec<String> {
        let mut lines =
            vec![format!("id ply {}", env!("CARGO_PKG_VERSION")), format!("protocol {PROTOCOL}")];
        let registry = ply_games::registry();
        for e in ply_games::engines() {
            if let Ok(g) = registry.get(e.name) {
                lines.push(format!("game {} {}", g.name, g.variants.join(",")));
            }
        }
        lines.extend(self.options_lines());
        lines
    }

    fn options_lines(&self) -> Vec<String> {
        let o = self.options;
        vec![
            format!("option level int {} default 10 min 1 max 10", o.level),
            format!("option threads int {} default 1 min 1 max 64", o.threads),
            format!("option hash int {} default 64 min 1 max 4096", o.hash),
            format!("option seed int {} default 0 min 0 max 18446744073709551615", o.seed),
            format!("option contempt int {} default 0 min -1000 max 1000", o.contempt),
            format!("option noprogress bool {} default true", o.no_progress),
            format!("option weights string {} default default", self.current_weights()),
        ]
    }

    /// The weight set of the current game ("default" when none is chosen or no game is set).
    fn current_weights(&self) -> &str {
        self.current
            .as_ref()
            .and_then(|c| self.weights.get(c.entry.name))
            .map_or("default", String::as_str)
    }

    fn current(&self) -> Result<&Current, String> {
        self.current.as_ref().ok_or_else(|| "no game: send newgame or position first".into())
    }

    fn current_mut(&mut self) -> Result<&mut Current, String> {
        self.current.as_mut().ok_or_else(|| "no game: send newgame or position first".into())
    }

    fn echo(&self) -> Vec<String> {
        self.current.as_ref().map(|c| c.engine.game().position_string()).into_iter().collect()
    }

    fn start(
        &self,
        game: &str,
        variant: Option<&str>,
        at: Option<&str>,
    ) -> Result<Current, String> {
        let entry = ply_games::engine(game)?;
        let registry = ply_games::registry();
        let start = match at {
            Some(text) => registry
                .get(game)
                .map_err(|e| e.to_string())?
                .from_position(text)
                .map_err(|e| format!("bad position string: {e}"))?,
            None => registry
                .get(game)
                .map_err(|e| e.to_string())?
                .new_game(variant)
                .map_err(|e| e.to_string())?,
        };
        if let Some(v) = variant
            && v != start.variant()
        {
            return Err(format!("the position string is of variant {}, not {v}", start.variant()));
        }
        let mut engine = entry.new_engine(start.variant()).map_err(|e| e.to_string())?;
        if !engine.set_position(start.as_ref()) {
            return Err("internal error: the engine cannot take this position".into());
        }
        if let Some(weights) = self.weights.get(entry.name) {
            engine.set_weights(weights).map_err(|e| {
                format!(
                    "the weights chosen for {} cannot be read any more ({e}); \
                     setoption weights default to go back",
                    entry.name
                )
            })?;
        }
        Ok(Current { entry, engine })
    }

    fn newgame(&mut self, words: &[&str]) -> Reply {
        let (game, variant) = match words {
            [] => return Err("newgame needs a game (newgame <game> [variant])".into()),
            [g] => (*g, None),
            [g, v] => (*g, Some(*v)),
            [_, _, extra, ..] => return Err(format!("unexpected '{extra}' after newgame")),
        };
        self.current = Some(self.start(game, variant, None)?);
        Ok(self.echo())
    }

    /// `position <string> [moves m…]` or `position <game> [variant] [string] [moves m…]`.
    fn position(&mut self, words: &[&str]) -> Reply {
        let (head, moves) = match words.iter().position(|w| *w == "moves") {
            Some(i) => (&words[..i], &words[i + 1..]),
            None => (words, &[][..]),
        };
        let is_string = |w: &str| w.contains(';');
        let (game, variant, at) = match head {
            [] => {
                return Err("position needs a position string or a game \
                            (position <game> [variant] [string] [moves ...])"
                    .into());
            }
            [s] if is_string(s) => {
                let game = ply_core::position::game_of(s).unwrap_or_default();
                (game, None, Some(*s))
            }
            [g] => (*g, None, None),
            [g, s] if is_string(s) => (*g, None, Some(*s)),
            [g, v] => (*g, Some(*v), None),
            [g, v, s] if is_string(s) => (*g, Some(*v), Some(*s)),
            [_, _, extra, ..] => return Err(format!("unexpected '{extra}' in position")),
        };
        if let Some(s) = at
            && ply_core::position::game_of(s) != Some(game)
        {
            return Err(format!(
                "bad position string: it is not of {game} (its first field names the game)"
            ));
        }
        let mut current = self.start(game, variant, at)?;
        for (i, m) in moves.iter().enumerate() {
            current.engine.play(m).map_err(|e| format!("move {} '{m}': {e}", i + 1))?;
        }
        self.current = Some(current);
        Ok(self.echo())
    }

    fn play(&mut self, words: &[&str]) -> Reply {
        let [mv] = words else {
            return Err(if words.is_empty() {
                "play needs a move".into()
            } else {
                format!("play takes one move; unexpected '{}'", words[1])
            });
        };
        let current = self.current_mut()?;
        current.engine.play(mv).map_err(|e| format!("invalid move '{mv}': {e}"))?;
        Ok(self.echo())
    }

    fn undo(&mut self, words: &[&str]) -> Reply {
        let n: usize = match words {
            [] => 1,
            [n] => number("undo", Some(n))?,
            [_, extra, ..] => return Err(format!("unexpected '{extra}' after undo")),
        };
        if n == 0 {
            return Err("undo takes a count of at least 1".into());
        }
        let current = self.current_mut()?;
        let played = current.engine.game().history().len();
        if n > played {
            return Err(format!(
                "cannot undo {n} turn(s): {played} played since newgame or position"
            ));
        }
        for _ in 0..n {
            current.engine.undo();
        }
        Ok(self.echo())
    }

    fn validmoves(&self, words: &[&str]) -> Reply {
        no_more(words, "validmoves")?;
        Ok(vec![self.current()?.engine.game().legal_moves().join(";")])
    }

    fn show(&self, words: &[&str]) -> Reply {
        no_more(words, "show")?;
        let game = self.current()?.engine.game();
        let mut lines: Vec<String> = game.diagram().lines().map(str::to_string).collect();
        lines.push(game.status_line());
        lines.push(game.position_string());
        Ok(lines)
    }

    fn perft(&mut self, words: &[&str]) -> Reply {
        let depth: u32 = match words {
            [d] => number("perft", Some(d))?,
            [] => return Err("perft needs a depth".into()),
            [_, extra, ..] => return Err(format!("unexpected '{extra}' after perft")),
        };
        if !(1..=8).contains(&depth) {
            return Err("perft depth must be 1 to 8".into());
        }
        let current = self.current()?;
        let mut game = current.engine.game().box_clone();
        let mut lines = Vec::new();
        for d in 1..=depth {
            let t = Instant::now();
            let n = game.perft(d);
            lines.push(format!("perft {d} {n}"));
            eprintln!("perft {d}: {n} in {:.3} s", t.elapsed().as_secs_f64());
        }
        Ok(lines)
    }

    fn bench(&mut self, words: &[&str]) -> Reply {
        no_more(words, "bench")?;
        let mut lines = Vec::new();
        let entries = match &self.current {
            Some(c) => vec![(c.entry, c.engine.game().variant())],
            None => ply_games::engines()
                .into_iter()
                .map(|e| {
                    let v = ply_games::registry()
                        .get(e.name)
                        .map(|g| g.default_variant())
                        .unwrap_or_default();
                    (e, v)
                })
                .collect(),
        };
        let stop = Arc::new(AtomicBool::new(false));
        for (entry, variant) in entries {
            let mut engine = entry.new_engine(variant).map_err(|e| e.to_string())?;
            let think = Think {
                limits: Limits::nodes(20_000),
                threads: 1,
                hash_mb: 16,
                seed: 0,
                ..entry.level(10, None)
            };
            let t = Instant::now();
            let thought =
                engine.think(&think, &stop).ok_or("internal error: the start has no moves")?;
            let secs = t.elapsed().as_secs_f64().max(1e-9);
            lines.push(format!(
                "bench {} {variant} nodes {} nps {:.0} time {:.0}",
                entry.name,
                thought.nodes,
                thought.nodes as f64 / secs,
                secs * 1000.0
            ));
        }
        Ok(lines)
    }

    fn setoption(&mut self, words: &[&str]) -> Reply {
        // A weights file's path may hold spaces: the value is the rest of the line.
        match words {
            [name, rest @ ..] | ["name", name, "value", rest @ ..]
                if name.eq_ignore_ascii_case("weights") =>
            {
                return self.set_weights(&rest.join(" "));
            }
            _ => {}
        }
        // `setoption level 5` or UCI's `setoption name level value 5`.
        let (name, value) = match words {
            [name, value] => (*name, *value),
            ["name", name, "value", value] => (*name, *value),
            [] | [_] => return Err("setoption needs a name and a value (setoption level 5)".into()),
            _ => return Err("setoption takes a name and a value (setoption level 5)".into()),
        };
        let mut o = self.options;
        match name.to_ascii_lowercase().as_str() {
            "level" => {
                o.level = number("level", Some(value))?;
                if !(1..=10).contains(&o.level) {
                    return Err("level must be 1 to 10".into());
                }
            }
            "threads" => {
                o.threads = number("threads", Some(value))?;
                if !(1..=64).contains(&o.threads) {
                    return Err("threads must be 1 to 64".into());
                }
            }
            "hash" => {
                o.hash = number("hash", Some(value))?;
                if !(1..=4096).contains(&o.hash) {
                    return Err("hash must be 1 to 4096 (MiB)".into());
                }
            }
            "seed" => o.seed = number("seed", Some(value))?,
            "contempt" => o.contempt = crate::computer::parse_contempt(value)?,
            "noprogress" => o.no_progress = crate::computer::parse_switch("noprogress", value)?,
            _ => {
                return Err(format!(
                    "unknown option '{name}' (level, threads, hash, seed, contempt, noprogress, \
                     weights)"
                ));
            }
        }
        self.options = o;
        Ok(Vec::new())
    }

    /// `setoption weights <set|file>`: the current game's engine evaluates with this weight
    /// set from now on, and so does every later game of the same game.
    fn set_weights(&mut self, name: &str) -> Reply {
        if name.is_empty() {
            return Err("setoption weights needs a weight set: default, another built-in set, \
                        or a weights file (setoption weights hand)"
                .into());
        }
        let current = self.current_mut().map_err(|_| {
            "no game: weights belong to one game, so send newgame or position first".to_string()
        })?;
        current.engine.set_weights(name)?;
        let game = current.entry.name.to_string();
        if name == "default" {
            self.weights.remove(&game);
        } else {
            self.weights.insert(game, name.to_string());
        }
        Ok(Vec::new())
    }

    /// Parses `go`'s limits into a [`Think`], and whether it is `infinite`.
    fn think_for(&self, words: &[&str]) -> Result<(Think, bool), String> {
        let current = self.current()?;
        let game = current.engine.game();
        if let Some(outcome) = game.outcome() {
            return Err(format!("the game is over ({outcome})"));
        }
        let mut limits = Limits::default();
        let mut clock = [None::<u64>; 2];
        let mut inc = [0u64; 2];
        let mut infinite = false;
        let mut i = 0;
        while i < words.len() {
            let key = words[i];
            let value = words.get(i + 1).copied();
            match key {
                "infinite" => {
                    infinite = true;
                    i += 1;
                    continue;
                }
                "depth" => {
                    let d: u32 = number("depth", value)?;
                    if d == 0 {
                        return Err("depth must be at least 1".into());
                    }
                    limits.depth = Some(d);
                }
                "nodes" => {
                    let n: u64 = number("nodes", value)?;
                    if n == 0 {
                        return Err("nodes must be at least 1".into());
                    }
                    limits.nodes = Some(n);
                }
                "movetime" => limits.time = Some(Duration::from_millis(number("movetime", value)?)),
                "p1time" | "wtime" => clock[0] = Some(number(key, value)?),
                "p2time" | "btime" => clock[1] = Some(number(key, value)?),
                "p1inc" | "winc" => inc[0] = number(key, value)?,
                "p2inc" | "binc" => inc[1] = number(key, value)?,
                other => {
                    return Err(format!(
                        "unknown go limit '{other}' (depth, nodes, movetime, p1time, p2time, \
                         p1inc, p2inc, wtime, btime, winc, binc, infinite)"
                    ));
                }
            }
            i += 2;
        }
        let me = game.to_move().index();
        if let Some(left) = clock[me] {
            // A thirtieth of the time left plus most of the increment, never more than half
            // of what is left.
            let budget = (left / 30 + inc[me] * 4 / 5).min(left / 2).max(1);
            let budget = Duration::from_millis(budget);
            limits.time = Some(limits.time.map_or(budget, |t| t.min(budget)));
        }
        let o = self.options;
        let level = current.entry.level(o.level, None);
        let explicit = limits != Limits::default() || infinite;
        let mut think = if explicit {
            Think { limits, noise: 0, noise_scale: 0.0, ..current.entry.level(10, None) }
        } else {
            level
        };
        think.seed = o.seed;
        think.threads = o.threads;
        think.hash_mb = o.hash;
        think.contempt = o.contempt;
        think.no_progress = o.no_progress;
        Ok((think, infinite))
    }

    fn go(&mut self, words: &[&str], done: mpsc::Sender<Event>) -> Result<(), String> {
        let (think, infinite) = self.think_for(words)?;
        let mut current = self.current.take().expect("checked by think_for");
        let stop = Arc::new(AtomicBool::new(false));
        let out = Arc::clone(&self.out);
        let flag = Arc::clone(&stop);
        let handle = std::thread::Builder::new()
            .name("search".into())
            .spawn(move || {
                let mut last = None;
                let mut last_best = None;
                let thought = current.engine.think_reporting(&think, &flag, &mut |t| {
                    // The final report may repeat the last iteration's; print each once.
                    let line = info_line(t);
                    if last.as_ref() != Some(&line) {
                        say(&out, std::slice::from_ref(&line));
                        last = Some(line);
                        last_best = t.pv.first().cloned();
                    }
                });
                let lines = match thought {
                    Some(t) => {
                        // A search cut short may settle on a turn its last full iteration
                        // did not report.
                        let line = info_line(&t);
                        let mut lines = Vec::new();
                        if last.as_ref() != Some(&line) && t.pv.first() != last_best.as_ref() {
                            lines.push(line);
                        }
                        if let Some(stopped) = t.stopped {
                            lines.push(format!("info stopped {}", stopped.name()));
                        }
                        lines.push(format!("bestmove {}", t.best));
                        lines.push("ok".into());
                        lines
                    }
                    None => vec!["err no move: the game is over".into(), "ok".into()],
                };
                say(&out, &lines);
                let _ = done.send(Event::SearchDone);
                current
            })
            .map_err(|e| format!("cannot start the search: {e}"))?;
        self.search = Some(Search { stop, infinite, handle });
        Ok(())
    }

    /// Waits for the search under way (after raising its stop flag if `stop`, or if it is
    /// infinite).
    fn finish_search(&mut self, stop: bool) {
        if let Some(search) = self.search.take() {
            if stop || search.infinite {
                search.stop.store(true, Ordering::Relaxed);
            }
            match search.handle.join() {
                Ok(current) => self.current = Some(current),
                Err(_) => say(&self.out, &["err the search failed".into()]),
            }
        }
    }

    fn command(&mut self, line: &str) -> Option<Flow> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let (&verb, args) = words.split_first()?;
        let reply = match verb {
            "info" => no_more(args, "info").map(|()| self.info()),
            "options" => no_more(args, "options").map(|()| self.options_lines()),
            "newgame" => self.newgame(args),
            "position" => self.position(args),
            "play" => self.play(args),
            "undo" => self.undo(args),
            "validmoves" => self.validmoves(args),
            "show" => self.show(args),
            "perft" => self.perft(args),
            "bench" => self.bench(args),
            "setoption" => self.setoption(args),
            "stop" => no_more(args, "stop").map(|()| Vec::new()),
            "quit" => return Some(Flow::Quit),
            "go" => match self.go(args, self.events.clone()) {
                Ok(()) => return Some(Flow::Go),
                Err(e) => Err(e),
            },
            other => Err(format!("unknown command '{other}' (commands: {COMMANDS})")),
        };
        let mut lines = match reply {
            Ok(lines) => lines,
            Err(e) => vec![format!("err {}", e.replace('\n', " "))],
        };
        lines.push("ok".into());
        say(&self.out, &lines);
        None
    }
}

/// Runs a session: reads commands from `input` until `quit` or its end, replies on `output`.
///
/// # Errors
/// Only when standard input cannot be read at all.
pub fn serve(input: impl BufRead + Send + 'static, output: Out) -> std::io::Result<()> {
    let (tx, rx) = mpsc::channel::<Event>();
    let lines = tx.clone();
    // Input is read on its own thread, so `stop` arrives while a search runs.
    std::thread::Builder::new().name("input".into()).spawn(move || {
        let mut input = input;
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match input.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => {
                    let _ = lines.send(Event::Eof);
                    break;
                }
                // Bytes that are not UTF-8 become U+FFFD and fail as any unknown word does.
                Ok(_) => {
                    let line = String::from_utf8_lossy(&buf).into_owned();
                    if lines.send(Event::Line(line)).is_err() {
                        break;
                    }
                }
            }
        }
    })?;
    let mut session = Session {
        out: output,
        events: tx,
        options: Options::default(),
        weights: std::collections::BTreeMap::new(),
        current: None,
        search: None,
    };
    let mut lines = session.info();
    lines.push("ok".into());
    say(&session.out, &lines);
    // Commands that came during a search, to run once it has answered.
    let mut waiting: std::collections::VecDeque<String> = std::collections::VecDeque::new();
    let mut eof = false;
    'session: loop {
        // Run what waited, unless a search is under way again.
        while session.search.is_none() {
            let Some(line) = waiting.pop_front() else { break };
            if let Some(Flow::Quit) = session.command(line.trim()) {
                break 'session;
            }
        }
        if eof && session.search.is_none() {
            break;
        }
        let Ok(event) = rx.recv() else { break };
        match event {
            Event::SearchDone => session.finish_search(false),
            Event::Eof => {
                eof = true;
                // A bounded search may finish; an infinite one is stopped.
                if let Some(search) = &session.search
                    && search.infinite
                {
                    search.stop.store(true, Ordering::Relaxed);
                }
            }
            Event::Line(line) => {
                let line = line.trim().to_string();
                if session.search.is_some() {
                    if line.split_whitespace().next() == Some("stop") {
                        session.finish_search(true);
                        say(&session.out, &["ok".into()]);
                    } else if !line.is_empty() {
                        waiting.push_back(line);
                    }
                } else if let Some(Flow::Quit) = session.command(&line) {
                    break;
                }
            }
        }
    }
    // `quit` during a search that waited: stop it.
    session.finish_search(true);
    Ok(())
}

pub fn run(_args: &EngineArgs) -> anyhow::Result<std::process::ExitCode> {
    let out: Out = Arc::new(Mutex::new(std::io::stdout()));
    serve(std::io::BufReader::new(std::io::stdin()), out)?;
    Ok(std::process::ExitCode::SUCCESS)
}
