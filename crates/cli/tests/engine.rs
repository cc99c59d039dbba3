//! `ply engine` through real pipes: golden transcripts of whole sessions (seeds and node or
//! depth limits fixed, so searches are reproducible), `stop` during a long `go`, and
//! malformed input for every command.
//!
//! A transcript (`tests/data/engine/*.txt`) holds the commands, each on a line starting with
//! `> `, and after each the engine's whole reply up to its `ok`; the first reply is the one
//! the engine prints unprompted. `nps` and `time` values are written as `*`. Set
//! `PLY_BLESS=1` to rewrite the files from a run (then review the diff).

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

struct Engine {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ply"))
            .arg("engine")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("ply engine starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Engine { child, stdin, stdout }
    }

    fn line(&mut self) -> String {
        let mut line = String::new();
        let n = self.stdout.read_line(&mut line).expect("engine output");
        assert!(n > 0, "the engine closed its output");
        line.trim_end_matches('\n').to_string()
    }

    /// Lines up to and including the next `ok`.
    fn reply(&mut self) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let line = self.line();
            let done = line == "ok";
            lines.push(line);
            if done {
                return lines;
            }
        }
    }

    fn send(&mut self, command: &str) {
        writeln!(self.stdin, "{command}").unwrap();
        self.stdin.flush().unwrap();
    }

    fn ask(&mut self, command: &str) -> Vec<String> {
        self.send(command);
        self.reply()
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
    }
}

/// `nps 123` and `time 45` become `nps *` and `time *`.
fn mask(line: &str) -> String {
    let words: Vec<&str> = line.split(' ').collect();
    let mut out = Vec::with_capacity(words.len());
    for (i, w) in words.iter().enumerate() {
        let after_key = i > 0 && matches!(words[i - 1], "nps" | "time");
        if line.starts_with("info ") || line.starts_with("bench ") {
            out.push(if after_key { "*" } else { w });
        } else {
            out.push(w);
        }
    }
    out.join(" ")
}

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/engine").join(name)
}

/// Replays the commands of a transcript and compares (or, with PLY_BLESS, rewrites) it.
fn transcript(name: &str) {
    let path = data(name);
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    let commands: Vec<&str> = expected.lines().filter_map(|l| l.strip_prefix("> ")).collect();
    assert!(!commands.is_empty() || std::env::var_os("PLY_BLESS").is_some(), "{name}: no commands");
    let mut engine = Engine::start();
    let mut actual: Vec<String> = engine.reply().iter().map(|l| mask(l)).collect();
    for command in &commands {
        actual.push(format!("> {command}"));
        if *command == "quit" {
            engine.send(command);
            continue;
        }
        actual.extend(engine.ask(command).iter().map(|l| mask(l)));
    }
    let actual = actual.join("\n") + "\n";
    if std::env::var_os("PLY_BLESS").is_some() {
        std::fs::write(&path, &actual).unwrap();
        return;
    }
    if actual != expected {
        for (i, (a, e)) in actual.lines().zip(expected.lines()).enumerate() {
            assert_eq!(a, e, "{name}, line {}", i + 1);
        }
        assert_eq!(actual.lines().count(), expected.lines().count(), "{name}: length");
    }
}

#[test]
fn golden_boop_session() {
    transcript("boop.txt");
}

#[test]
fn golden_gipf_session() {
    transcript("gipf.txt");
}

#[test]
fn golden_zertz_session() {
    transcript("zertz.txt");
}

#[test]
fn golden_punct_session() {
    transcript("punct.txt");
}

#[test]
fn golden_malformed_input() {
    transcript("errors.txt");
}

#[test]
fn stop_during_a_long_go_is_answered_at_once() {
    let mut engine = Engine::start();
    engine.reply();
    engine.ask("newgame gipf");
    for go in ["go infinite", "go movetime 600000", "go depth 60"] {
        engine.send(go);
        // Let it get going, then stop it.
        std::thread::sleep(Duration::from_millis(300));
        let asked = Instant::now();
        engine.send("stop");
        let mut lines = engine.reply(); // go's reply: info lines, bestmove, ok
        let took = asked.elapsed();
        assert!(took < Duration::from_secs(1), "{go}: stop took {took:?}");
        assert!(lines.iter().any(|l| l.starts_with("bestmove ")), "{go}: {lines:?}");
        lines = engine.reply(); // stop's own reply
        assert_eq!(lines, ["ok"], "{go}");
    }
    // Commands sent during a search wait for its answer, in order.
    engine.send("go infinite");
    engine.send("validmoves");
    engine.send("play a1-b2");
    std::thread::sleep(Duration::from_millis(200));
    engine.send("stop");
    let go = engine.reply();
    assert!(go.iter().any(|l| l.starts_with("bestmove ")), "{go:?}");
    assert_eq!(engine.reply(), ["ok"]);
    let moves = engine.reply();
    assert!(moves[0].contains("a1-b2;"), "{moves:?}");
    let played = engine.reply();
    assert!(played[0].starts_with("gipf;standard;"), "{played:?}");
    // The session goes on.
    assert_eq!(engine.ask("undo"), ["gipf;standard;B5,E2,H5;B2,E8,H2;12,12;0,0;-;P1;*", "ok"]);
}

#[test]
fn the_end_of_input_lets_a_bounded_search_answer() {
    let out = Command::new(env!("CARGO_BIN_EXE_ply"))
        .arg("engine")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            child.stdin.take().unwrap().write_all(b"newgame boop\ngo depth 3\nplay Kc3\n")?;
            child.wait_with_output()
        })
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let best = lines.iter().position(|l| l.starts_with("bestmove ")).expect("a bestmove");
    assert_eq!(lines[best + 1], "ok");
    assert_eq!(lines[best + 2], "boop;boop;6/6/6/2x3/6/6;7,0;8,0;-;-;P2;*");
    assert!(text.lines().all(|l| !l.is_empty()), "{text}");
}

/// Every command with missing, extra and garbage arguments gets `err` (and then `ok`), and
/// the engine goes on with the same position.
#[test]
fn malformed_input_for_every_command() {
    let mut engine = Engine::start();
    engine.reply();
    // Without a game.
    for bad in ["play Kc3", "undo", "validmoves", "go", "perft 1", "show"] {
        let reply = engine.ask(bad);
        assert!(reply[0].starts_with("err no game"), "{bad}: {reply:?}");
    }
    let start = engine.ask("newgame boop")[0].clone();
    let cases = [
        "info extra",
        "options extra",
        "newgame",
        "newgame chess",
        "newgame boop boop extra",
        "newgame boop nosuch",
        "position",
        "position chess",
        "position boop;boop;6/6/6/6/6/6;8,0;8,0;-;-;P1",
        "position boop boop boop;boop;6/6/6/6/6/6;8,0;8,0;-;-;P1;* extra",
        "position boop gipf;standard;B5,E2,H5;B2,E8,H2;12,12;0,0;-;P1;*",
        "position boop boooop boop;boop;6/6/6/6/6/6;8,0;8,0;-;-;P1;*",
        "position boop moves Kc3 Kc3",
        "position boop moves zz",
        "play",
        "play Kc3 Kd4",
        "play Kz9",
        "play \u{fffd}\u{fffd}",
        "undo 1",
        "undo 0",
        "undo -1",
        "undo x",
        "undo 1 2",
        "validmoves now",
        "go depth",
        "go depth x",
        "go depth 0",
        "go nodes -5",
        "go movetime",
        "go p1time soon",
        "go sideways 3",
        "stop now",
        "setoption",
        "setoption level",
        "setoption level 11",
        "setoption level x",
        "setoption threads 0",
        "setoption hash 0",
        "setoption seed -1",
        "setoption colour blue",
        "setoption level 5 6",
        "setoption name level value",
        "setoption noprogress maybe",
        "setoption noprogress",
        "perft",
        "perft 0",
        "perft 9",
        "perft x",
        "perft 1 2",
        "show board",
        "bench now",
        "frobnicate",
        "\u{1b}[A",
        "GO",
    ];
    for bad in cases {
        let reply = engine.ask(bad);
        assert_eq!(reply.len(), 2, "{bad}: {reply:?}");
        assert!(reply[0].starts_with("err "), "{bad}: {reply:?}");
        assert_eq!(reply[1], "ok");
    }
    // An on/off option takes true or false, and `options` shows it.
    assert_eq!(engine.ask("setoption name noprogress value false"), ["ok"]);
    assert!(engine.ask("options").contains(&"option noprogress bool false default true".into()));
    assert_eq!(engine.ask("setoption noprogress TRUE"), ["ok"]);
    // Still the same game, and still working.
    assert_eq!(engine.ask("show").iter().rev().nth(1).cloned(), Some(start));
    assert_eq!(engine.ask("play Kc3")[0], "boop;boop;6/6/6/2x3/6/6;7,0;8,0;-;-;P2;*");
    // Bytes that are not UTF-8 and a very long line.
    engine.stdin.write_all(b"\xff\xfe play\n").unwrap();
    let reply = engine.reply();
    assert!(reply[0].starts_with("err "), "{reply:?}");
    let long = format!("play {}", "K".repeat(100_000));
    let reply = engine.ask(&long);
    assert!(reply[0].starts_with("err "));
    // The finished game: no search, no move.
    engine.ask("position boop moves Ka1 Kf5 Ke6 Kf5 Ke6 Kf5");
    assert!(engine.ask("go depth 2")[0].starts_with("err the game is over"));
    assert!(engine.ask("play Ke6")[0].starts_with("err invalid move"));
    assert_eq!(engine.ask("validmoves"), ["", "ok"]);
}

/// `setoption weights`: a weight set belongs to one game, is kept for that game across
/// `newgame` and `position`, and changes what the search scores.
#[test]
fn weights_are_chosen_per_game() {
    let mut engine = Engine::start();
    let first = engine.reply();
    assert!(first.contains(&"option weights string default default default".to_string()));
    assert!(engine.ask("setoption weights hand")[0].starts_with("err no game"));
    let score = |engine: &mut Engine| {
        let reply = engine.ask("go depth 3");
        let info = reply.iter().rev().find(|l| l.starts_with("info depth 3 ")).unwrap().clone();
        info.split(" nodes ").next().unwrap().to_string()
    };
    engine.ask("newgame boop");
    engine.ask("play Kc3");
    let fitted = score(&mut engine);
    assert_eq!(engine.ask("setoption weights hand"), ["ok"]);
    let hand = score(&mut engine);
    assert_ne!(fitted, hand, "the hand-set weights score as the fitted ones");
    let weights_line = |engine: &mut Engine| {
        engine.ask("options").into_iter().find(|l| l.starts_with("option weights ")).unwrap()
    };
    assert_eq!(weights_line(&mut engine), "option weights string hand default default");
    // Kept for boop.; GIPF has its own, and a boop. file is not one of them.
    engine.ask("newgame gipf");
    assert_eq!(weights_line(&mut engine), "option weights string default default default");
    let dir = std::env::temp_dir().join(format!("ply-engine-weights-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("boop hand.txt");
    std::fs::write(&file, include_str!("../../boop/src/weights-hand.txt")).unwrap();
    let reply = engine.ask(&format!("setoption name weights value {}", file.display()));
    assert!(reply[0].starts_with("err ") && reply[0].contains("line "), "{reply:?}");
    assert!(engine.ask("setoption weights hnad")[0].starts_with("err 'hnad' is neither"));
    assert!(engine.ask("setoption weights")[0].starts_with("err setoption weights needs"));
    engine.ask("position boop moves Kc3");
    assert_eq!(weights_line(&mut engine), "option weights string hand default default");
    assert_eq!(score(&mut engine), hand);
    // A file with spaces in its path, then back to the built-in default.
    assert_eq!(engine.ask(&format!("setoption weights {}", file.display())), ["ok"]);
    engine.ask("position boop moves Kc3");
    assert_eq!(score(&mut engine), hand);
    // The file goes away: a new boop. game says so and how to go back.
    std::fs::remove_file(&file).unwrap();
    let reply = engine.ask("newgame boop");
    assert!(reply[0].contains("cannot be read any more"), "{reply:?}");
    assert!(reply[0].contains("setoption weights default"), "{reply:?}");
    assert_eq!(engine.ask("setoption weights default"), ["ok"]);
    assert_eq!(weights_line(&mut engine), "option weights string default default default");
    assert_eq!(score(&mut engine), fitted);
    let _ = std::fs::remove_dir_all(&dir);
}
