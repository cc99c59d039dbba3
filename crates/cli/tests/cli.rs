//! The `ply` command line, run as a program: outputs, exit statuses and error messages.

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

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ply-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn moves_lists_sorted_canonical_turns() {
    let o = ply(&["moves", "boop"]);
    assert!(o.status.success());
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 36);
    assert_eq!(lines[0], "Ka1");
    assert_eq!(lines[35], "Kf6");
    let mut sorted = lines.clone();
    sorted.sort();
    assert_eq!(sorted, lines);
}

#[test]
fn moves_after_abbreviated_turns_and_variant() {
    let o = ply(&["moves", "boop", "--variant", "boooop", "--moves", "c3@b1a1 Kd4"]);
    assert!(o.status.success(), "{}", stderr(&o));
    // P1's ghost is on the bed now: it moves by itself, so 34 cells and no ghost choice.
    assert_eq!(stdout(&o).lines().count(), 34);
}

/// Example 18 of boop.md reached from the start: the position after `Ka1 Kf5` comes back
/// twice more, so the game is drawn after six turns.
const DRAW: &str = "Ka1 Kf5 Ke6 Kf5 Ke6 Kf5";

#[test]
fn moves_of_a_finished_game_is_empty() {
    let o = ply(&["moves", "boop", "--moves", DRAW]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "");
    let o = ply(&["moves", "boop", "--moves", &format!("{DRAW} Ke6")]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("move 7 'Ke6': the game is over (draw)"), "{}", stderr(&o));
}

#[test]
fn bad_moves_exit_2_naming_number_move_and_reason() {
    let o = ply(&["moves", "boop", "--moves", "Kc3 Kc3"]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(e.contains("move 2 'Kc3'") && e.contains("c3 is occupied"), "{e}");

    let o = ply(&["moves", "boop", "--moves", "Kc3 K-9"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("move 2 'K-9'"), "{}", stderr(&o));

    let o = ply(&["perft", "boop", "--moves", "Cc3", "1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("move 1 'Cc3'") && stderr(&o).contains("no cats"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn unknown_game_and_variant_exit_2() {
    let o = ply(&["moves", "chess"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("unknown game 'chess'") && stderr(&o).contains("boop"));
    let o = ply(&["moves", "boop", "--variant", "booop"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no variant 'booop'") && stderr(&o).contains("boooop"));
}

#[test]
fn perft_prints_one_line_per_depth_and_timing_on_stderr() {
    let o = ply(&["perft", "boop", "3"]);
    assert!(o.status.success());
    assert_eq!(stdout(&o), "1 36\n2 1260\n3 42900\n");
    assert!(stderr(&o).contains("nodes/s"));
    let o = ply(&["perft", "boop", "--variant", "boooop", "2"]);
    assert_eq!(stdout(&o), "1 756\n2 530460\n");
    let o = ply(&["perft", "boop", "--divide", "2"]);
    let text = stdout(&o);
    assert!(text.starts_with("Ka1 35\n"), "{text}");
    assert!(text.ends_with("total 1260\n"));
}

#[test]
fn show_diagram_status_json_and_svg() {
    let o = ply(&["show", "boop", "--moves", "Kc3 Kd4"]);
    assert!(o.status.success());
    let text = stdout(&o);
    assert!(text.contains("4  . . . o . ."), "{text}");
    assert!(text.contains("2  . x . . . ."), "{text}");
    assert!(text.contains("P1 (x/X) pool: 7 kittens, 0 cats"));
    assert!(text.trim_end().ends_with("to move: P1"));

    let o = ply(&["show", "boop", "--json", "--moves", "Kc3"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["to_move"], "P2");
    assert_eq!(v["legal_move_count"], 35);
    assert_eq!(v["pools"]["P1"]["kittens"], 7);
    assert_eq!(v["board"][3], "..x...");
    assert!(v["outcome"].is_null());

    let path = temp("board.svg");
    let o = ply(&[
        "show",
        "boop",
        "--variant",
        "boooop",
        "--moves",
        "Kc3@a1b1",
        "--svg",
        path.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    let svg = std::fs::read_to_string(&path).unwrap();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    for id in
        ["id=\"c3\"", "id=\"a1b1\"", "id=\"p1-ghost\"", "id=\"p1-k0\"", "id=\"pool-p2-kitten\""]
    {
        assert!(svg.contains(id), "{id}");
    }
}

#[test]
fn show_result_lines() {
    let o = ply(&["show", "boop", "--moves", DRAW]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).trim_end().ends_with("result: draw"), "{}", stdout(&o));
    let o = ply(&["show", "boop", "--json", "--moves", DRAW]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["outcome"], "draw");
    assert_eq!(v["legal_move_count"], 0);
}

#[test]
fn show_reads_a_record_and_reports_bad_ones() {
    let path = temp("game.ply");
    std::fs::write(&path, "[Game \"boop\"]\n[Variant \"boop\"]\n[Result \"*\"]\n\n1. Kc3 Kd4 *\n")
        .unwrap();
    let o = ply(&["show", "boop", "--record", path.to_str().unwrap(), "--moves", "Ka1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("to move: P2"));

    std::fs::write(&path, "[Game \"boop\"]\n\n1. Kc3 Kc3\n").unwrap();
    let o = ply(&["show", "boop", "--record", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(e.contains("turn 2 'Kc3' (line 3, column 8)") && e.contains("occupied"), "{e}");

    std::fs::write(&path, "[Game \"boop\"\n").unwrap();
    let o = ply(&["show", "boop", "--record", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("line 1, column"), "{}", stderr(&o));

    let o = ply(&["show", "boop", "--record", "/nonexistent/record.ply"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("cannot read"));
}

#[test]
fn help_explains_every_command() {
    for cmd in ["moves", "perft", "show", "games"] {
        let o = ply(&[cmd, "--help"]);
        assert!(o.status.success(), "{cmd}");
        assert!(stdout(&o).contains("Usage: ply"), "{cmd}");
    }
    let o = ply(&["--help"]);
    assert!(stdout(&o).contains("perft"));
    let o = ply(&["games"]);
    assert!(stdout(&o).contains("boop (boop.): variants boop, boooop"));
}
