//! `--position`, `show --format position` and `ply analyse`, run as a program.

use std::path::PathBuf;
use std::process::{Command, Output};

fn ply(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ply")).args(args).output().expect("ply runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

fn data(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/analyse")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

#[test]
fn show_format_position_prints_the_string_alone() {
    let o = ply(&["show", "boop", "--moves", "Kc3 Kd4", "--format", "position"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "boop;boop;6/6/3o2/6/1x4/6;7,0;7,0;-;-;P1;*\n");
    for (game, variant) in [("gipf", "tournament"), ("zertz", "blitz"), ("punct", "basic")] {
        let o = ply(&["show", game, "--variant", variant, "--format", "position"]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(stdout(&o).starts_with(&format!("{game};{variant};")), "{}", stdout(&o));
        assert_eq!(stdout(&o).lines().count(), 1);
    }
}

#[test]
fn commands_start_from_a_position_string() {
    let at = "boop;boop;6/6/3o2/6/1x4/6;7,0;7,0;-;-;P1;*";
    // The same position as the moves that led to it.
    let from_moves = ply(&["moves", "boop", "--moves", "Kc3 Kd4"]);
    let from_string = ply(&["moves", "boop", "--position", at]);
    assert!(from_string.status.success(), "{}", stderr(&from_string));
    assert_eq!(stdout(&from_string), stdout(&from_moves));
    // Moves go on from the string.
    let o = ply(&["show", "boop", "--position", at, "--moves", "Ka1", "--format", "position"]);
    assert_eq!(stdout(&o), "boop;boop;6/6/3o2/2x3/6/x5;6,0;7,0;-;-;P2;*\n");
    let o = ply(&["perft", "boop", "--position", at, "2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().next(), Some("1 34"));
    let o = ply(&["bestmove", "boop", "--position", at, "--depth", "2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("bestmove K"), "{}", stdout(&o));
    let o = ply(&["show", "boop", "--position", at]);
    assert!(stdout(&o).contains("to move: P1"), "{}", stdout(&o));
}

#[test]
fn bad_position_strings_exit_2_with_the_reason() {
    for (args, reason) in [
        (vec!["show", "boop", "--position", "boop;boop;6/6/6/6/6/6;9,0;8,0;-;-;P1;*"], "P1 pool"),
        (vec!["moves", "boop", "--position", "garbage"], "is not boop"),
        (vec!["moves", "boop", "--position", ""], "empty"),
        (
            vec!["perft", "gipf", "--position", "boop;boop;6/6/6/6/6/6;8,0;8,0;-;-;P1;*", "1"],
            "gipf",
        ),
        (vec!["bestmove", "zertz", "--position", "zertz;37;-;-;6,8,10;0,0,0;0,0,0;P3;*"], "P3"),
        (
            vec![
                "show",
                "boop",
                "--variant",
                "boooop",
                "--position",
                "boop;boop;6/6/6/6/6/6;8,0;8,0;-;-;P1;*",
            ],
            "variant boop, not boooop",
        ),
        (
            vec![
                "moves",
                "boop",
                "--position",
                "boop;boop;6/6/6/6/6/6;8,0;8,0;-;-;P1;*",
                "--moves",
                "Kz9",
            ],
            "move 1 'Kz9'",
        ),
    ] {
        let o = ply(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stdout(&o));
        assert!(stderr(&o).contains(reason), "{args:?}: {}", stderr(&o));
        assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
    }
}

/// Turn 26 (P2's Cd3) lets P1 win at once with Cc4: a blunder whatever the evaluation said
/// before it.
#[test]
fn analyse_marks_the_blunder() {
    let o = ply(&["analyse", &data("blunder.ply"), "--nodes", "4000"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    let line = text.lines().find(|l| l.trim_start().starts_with("26 ")).expect("turn 26");
    assert!(line.contains("Cd3??") && line.contains("(blunder)"), "{line}");
    assert!(text.contains("P2: 13 turns"), "{text}");
    // The progress bar is hidden when standard error is not a terminal.
    assert_eq!(stderr(&o), "");

    let o = ply(&["analyze", &data("blunder.ply"), "--nodes", "4000", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let json: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let turns = json["turns"].as_array().unwrap();
    assert_eq!(turns.len(), 27);
    let t = &turns[25];
    assert_eq!(t["played"], "Cd3");
    assert_eq!(t["player"], "P2");
    assert_eq!(t["mark"], "blunder");
    assert_eq!(t["after"]["expected"], 0.0);
    assert_eq!(turns[26]["best"], "Cc4");
    assert_eq!(json["summary"][1]["player"], "P2");
    assert!(json["summary"][1]["blunders"].as_u64().unwrap() >= 1);
    assert_eq!(json["complete"], true);
}

#[test]
fn analyse_reports_bad_records() {
    let dir = std::env::temp_dir().join(format!("ply-analyse-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.ply");
    std::fs::write(&bad, "[Game \"boop\"]\n\n1. Kc3 Kc3 *\n").unwrap();
    let o = ply(&["analyse", bad.to_str().unwrap(), "--nodes", "100"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("turn 2 'Kc3'"), "{}", stderr(&o));
    let o = ply(&["analyse", dir.join("missing.ply").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("cannot read"), "{}", stderr(&o));
}
