//! `ply bestmove`, `ply match` and `ply bench`, run as a program.

use std::process::{Command, Output};

fn ply(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ply")).args(args).output().expect("ply runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

fn field<'a>(out: &'a str, key: &str) -> &'a str {
    out.lines()
        .find_map(|l| l.strip_prefix(&format!("{key} ")))
        .unwrap_or_else(|| panic!("no {key} in {out}"))
}

#[test]
fn bestmove_prints_move_score_and_line() {
    let o = ply(&["bestmove", "boop", "--nodes", "3000", "--moves", "Kc3 Kd4"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    let best = field(&out, "bestmove");
    let pv = field(&out, "pv");
    assert!(pv.starts_with(best), "{out}");
    // The move is legal where it was asked.
    let legal = text(&ply(&["moves", "boop", "--moves", "Kc3 Kd4"]).stdout);
    assert!(legal.lines().any(|l| l == best), "{best} not legal");
    field(&out, "score");
    field(&out, "nodes");
}

#[test]
fn bestmove_is_reproducible_with_either_algorithm() {
    let args = ["bestmove", "boop", "--level", "5", "--seed", "9", "--moves", "Kc3 Kd4 Ke5"];
    assert_eq!(text(&ply(&args).stdout).lines().next(), text(&ply(&args).stdout).lines().next());
    for algorithm in ["alphabeta", "mcts"] {
        let args = ["bestmove", "boop", "--nodes", "2000", "--algorithm", algorithm];
        let o = ply(&args);
        assert!(o.status.success(), "{algorithm}: {}", text(&o.stderr));
        assert_eq!(field(&text(&o.stdout), "algorithm"), algorithm);
        assert_eq!(
            field(&text(&o.stdout), "bestmove"),
            field(&text(&ply(&args).stdout), "bestmove")
        );
    }
}

#[test]
fn bestmove_errors() {
    let o = ply(&["bestmove", "boop", "--moves", "Ka1 Kf5 Ke6 Kf5 Ke6 Kf5"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("the game is over"), "{}", text(&o.stderr));
    let o = ply(&["bestmove", "boop", "--level", "11"]);
    assert_eq!(o.status.code(), Some(2));
    let o = ply(&["bestmove", "boop", "--algorithm", "minimax"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("alphabeta or mcts"));
    let o = ply(&["bestmove", "chess"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("unknown game 'chess'"));
}

#[test]
fn match_reports_a_table_and_saves_records() {
    let dir = std::env::temp_dir().join(format!("ply-match-test-{}", std::process::id()));
    let o = ply(&[
        "match",
        "boop",
        "--a",
        "level:3",
        "--b",
        "random",
        "--games",
        "4",
        "--seed",
        "5",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    assert!(out.contains("4 games"), "{out}");
    assert!(
        out.contains("A level:3") && out.contains("B random") && out.contains("Elo difference"),
        "{out}"
    );
    let records: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert_eq!(records.len(), 4);
    // Every saved record replays.
    for r in records {
        let path = r.unwrap().path();
        let o = ply(&["show", "boop", "--record", path.to_str().unwrap()]);
        assert!(o.status.success(), "{}: {}", path.display(), text(&o.stderr));
        assert!(text(&o.stdout).contains("result: "), "{}", text(&o.stdout));
    }
    // The same seed gives the same games.
    let again =
        ply(&["match", "boop", "--a", "level:3", "--b", "random", "--games", "4", "--seed", "5"]);
    // The results, without the first line (wall time) and the time/move column (the only
    // figures that depend on the machine).
    let table = |s: &str| {
        s.lines()
            .skip(1)
            .map(|l| match l.starts_with("A ") || l.starts_with("B ") {
                true => l.split_whitespace().take(6).collect::<Vec<_>>().join(" "),
                false => l.to_string(),
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(table(&text(&again.stdout)), table(&out));
}

#[test]
fn match_rejects_bad_players() {
    for (spec, message) in [
        ("level:0", "levels are 1 to 10"),
        ("speed:3", "not a kind of player"),
        ("level", "is not a player"),
        ("nodes:x", "not a number"),
    ] {
        let o = ply(&["match", "boop", "--a", spec, "--b", "random", "--games", "2"]);
        assert_eq!(o.status.code(), Some(2), "{spec}");
        assert!(text(&o.stderr).contains(message), "{spec}: {}", text(&o.stderr));
    }
}

#[test]
fn bench_prints_a_signature() {
    let o = ply(&["bench", "boop"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    assert!(out.contains("perft 5") && out.contains("45923628"), "{out}");
    assert!(out.lines().last().unwrap().starts_with("signature "));
}
