//! `ply import`: the boardspace.net ZÈRTZ corpus must replay, and damaged or foreign records
//! are reported as failed or skipped with the reason.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn ply(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ply")).args(args).output().expect("ply runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn corpus() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/corpus/zertz-boardspace"))
}

fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ply-import-test-{}-{tag}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn the_boardspace_corpus_replays() {
    let dir = corpus();
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .expect("the shared corpus ../shared/corpus/zertz-boardspace")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "sgf"))
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    files.sort();
    assert_eq!(files.len(), 199);
    let mut args = vec!["import", "--check"];
    args.extend(files.iter().map(String::as_str));
    let o = ply(&args);
    let out = stdout(&o);
    assert!(o.status.success(), "{out}");
    // They are written as the turns were played: nothing to normalise.
    assert_eq!(out, "199 passed (0 normalised), 0 failed, 0 skipped\n");
}

#[test]
fn the_corpus_converts_to_records_that_replay() {
    let dir = temp_dir("out");
    let sample = corpus().join("T!Z-zserf-palferso-2005-06-11-1022.sgf");
    let o = ply(&["import", sample.to_str().unwrap(), "-o", dir.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let record = dir.join("T!Z-zserf-palferso-2005-06-11-1022.ply");
    let text = std::fs::read_to_string(&record).unwrap();
    assert!(text.starts_with("[Game \"zertz\"]\n[Variant \"37\"]\n[P1 \"zserf\"]\n[P2 \"palferso\"]\n[Date \"2005.06.11\"]\n"), "{text}");
    // 'BtoB B 2 B 2' (a marble picked up and put back) is no move; R- before RtoB is fine.
    assert!(text.contains("1. Bc2,g1 Wd5,a4 2. Ge3,g4 Bb2,a2 3. b2xd2 Be1,d1"), "{text}");
    assert!(text.contains("10.\nb2xd2 Wc1,c6") || text.contains("b2xd2 Wc1,c6"), "{text}");
    let o = ply(&["show", "zertz", "--record", record.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(stdout(&o).contains("result: P2 wins"), "{}", stdout(&o));
    // To standard output without -o.
    let o = ply(&["import", sample.to_str().unwrap()]);
    assert!(stdout(&o).starts_with("[Game \"zertz\"]"));
}

const HEAD: &str = "(;\nGM[22] VV[2]\nDT[Sat Jun 11 05:22:47 CDT 2005]\nGN[a-b]\nSU[Zertz]\nP0[id \"a\"]\nP1[id \"b\"]\n";

#[test]
fn damaged_foreign_and_early_records() {
    let dir = temp_dir("synthetic");
    let two_placements = write(
        &dir,
        "two.sgf",
        &format!(
            "{HEAD}; P0[0 Start P0]\n; P0[1 RtoB 2 0 D 4]\n; P0[2 RtoB 2 1 D 5]\n; P0[3 R- A 1]\n; P0[4 Done]\n)\n"
        ),
    );
    let empty_jump = write(
        &dir,
        "jump.sgf",
        &format!(
            "{HEAD}; P0[0 Start P0]\n; P0[1 RtoB 2 0 D 4]\n; P0[2 R- A 1]\n; P0[3 Done]\n; P1[4 BtoB D 4 D 6]\n; P1[5 Done]\n)\n"
        ),
    );
    let handicap = write(
        &dir,
        "handicap.sgf",
        &format!(
            "{HEAD}; P0[0 Start P0]\n; P0[1 RtoR 2 0 0]\n; P0[2 RtoB 2 0 D 4]\n; P0[3 R- A 1]\n)\n"
        ),
    );
    let custom =
        write(&dir, "custom.sgf", &format!("{})\n", HEAD.replace("SU[Zertz]", "SU[Zertz+xx]")));
    let resigned = write(
        &dir,
        "resigned.sgf",
        &format!(
            "{HEAD}RE[Game won by a]\n; P0[0 Start P0]\n; P0[1 RtoB 2 0 D 4]\n; P0[2 R- A 1]\n; P0[3 Done]\n; P1[4 Resign]\n; P1[5 Done]\n;\nP0[time 0:00:18 ]\nP1[time 0:01:25 ]\n)\n"
        ),
    );
    let old = write(
        &dir,
        "old.sgf",
        &format!(
            "{}; P0[RtoB 2 0 E 4]\n; P0[R- A 3]\n; P1[RtoB 2 0 E 3]\n; P1[R- A 4]\n; P0[RtoR 2 2 2]\n; P0[BtoB E 4 E 2]\n; P1[RtoB 2 2 D 4]\n; P1[R- A 2]\n)\n",
            HEAD.replace("VV[2]", "VV[1]")
        ),
    );
    let o = ply(&[
        "import",
        "--check",
        &two_placements,
        &empty_jump,
        &handicap,
        &custom,
        &resigned,
        &old,
    ]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 5, "{out}");
    assert!(
        lines[0].contains("two.sgf")
            && lines[0].contains("move 2")
            && lines[0].contains("two placements in one turn"),
        "{out}"
    );
    assert!(
        lines[1].contains("jump.sgf")
            && lines[1].contains("turn 2 (move 4)")
            && lines[1].contains("d4xd6"),
        "{out}"
    );
    assert!(lines[1].contains("no marble between d4 and d6"), "{out}");
    assert!(lines[2].contains("handicap.sgf: skipped: handicap"), "{out}");
    assert!(lines[3].contains("custom.sgf: skipped: custom board"), "{out}");
    assert_eq!(lines[4], "2 passed (0 normalised), 2 failed, 2 skipped");

    let o = ply(&["import", &resigned]);
    let text = stdout(&o);
    assert!(
        text.contains("[Result \"1-0\"]") && text.contains("[Termination \"P2 resigned\"]"),
        "{text}"
    );
    let o = ply(&["import", &old]);
    let text = stdout(&o);
    assert!(text.contains("1. We4,a3 We3,a4 2. e4xe2 Bd4,a2 *"), "{text}");
}

/// Writes ply ZÈRTZ turns as a modern boardspace record (37 board), placing from the pool or,
/// once it is empty, from the mover's captures.
fn to_boardspace(moves: &[&str], re: &str) -> String {
    let registry = ply_games::registry();
    let mut game = registry.get("zertz").unwrap().new_game(Some("37")).unwrap();
    let mut out = format!(
        "(;\nGM[22]VV[2]\nSU[Zertz]\nDT[Mon Nov 30 12:00:00 UTC 2026]\nGN[synthetic]\nRE[{re}]\nP0[id \"ann\"]\nP1[id \"bob\"]\n; P0[0 Start P0]\n"
    );
    let cell = |c: &str| format!("{} {}", c[..1].to_ascii_uppercase(), &c[1..]);
    let mut index = 1;
    for mv in moves {
        let who = if game.to_move() == ply_core::Player::P1 { 0 } else { 1 };
        let mut lines = Vec::new();
        if mv.contains('x') {
            let rings: Vec<&str> = mv.split('x').collect();
            for w in rings.windows(2) {
                lines.push(format!("BtoB {} {}", cell(w[0]), cell(w[1])));
            }
        } else {
            let colour = "WGB".find(&mv[..1]).unwrap();
            let state = game.state_json();
            let pool: u64 =
                ["W", "G", "B"].iter().map(|c| state["pool"][c].as_u64().unwrap()).sum();
            let rack = if pool == 0 { who } else { 2 };
            let (place, remove) = match mv[1..].split_once(',') {
                Some((a, b)) => (a, Some(b)),
                None => (&mv[1..], None),
            };
            lines.push(format!("RtoB {rack} {colour} {}", cell(place)));
            if let Some(r) = remove {
                lines.push(format!("R- {}", cell(r)));
            }
        }
        lines.push("Done".into());
        for l in lines {
            out.push_str(&format!("; P{who}[{index} {l}]\n"));
            index += 1;
        }
        // Turns after the end of the game are written as they are, without the rules.
        if game.outcome().is_none() {
            game.play(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
        }
    }
    out.push_str(")\n");
    out
}

#[test]
fn a_record_that_plays_on_after_a_threefold_repetition_is_skipped() {
    // A game that repeats its position a third time after turn 46 (see ply-zertz's
    // examples test), then goes on as boardspace once allowed.
    let game = "Ge2,d1 Gg4,e1 Wd4,d2 Gb5,g1 Gd5,f5 d4xd6 Wd5,e6 d5xd7 Ba1,c6 Wg2,e5 Gc1,f1 \
        Gd3,a2 e2xc3 Bc4,a3 c4xc2 c1xc3 Bd6,f2 d7xd5 Ge2,b3 Bc5,f4 c5xe4 Wd4,d6 d4xb2 a1xc3 \
        Bc5,d5 Bg3,b4 Wf3,a1 g3xe3 Wd3,d7 d3xf3 Gc2,a4 c3xc1 Bc2,c4 c1xc3 Bc1,b1 Be3,b2 \
        e3xg3 Be3,d4 Bc2 Wf3 f3xd3 c2xe3 Bc2 Wf3 f3xd3 c2xe3";
    let moves: Vec<&str> = game.split_whitespace().collect();
    let dir = temp_dir("repetition");
    // Up to the draw: passes (the record claims nothing).
    let draw = write(&dir, "draw.sgf", &to_boardspace(&moves, "unknown"));
    // And one turn more: skipped with the reason.
    let mut longer = moves.clone();
    longer.push("Bc2");
    let on = write(&dir, "on.sgf", &to_boardspace(&longer, "unknown"));
    let o = ply(&["import", "--check", &draw, &on]);
    let out = stdout(&o);
    assert!(o.status.success(), "{out}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(
        lines[0].contains(
            "on.sgf: skipped: boardspace played on after the same position occurred a third time"
        ),
        "{out}"
    );
    assert!(lines[0].contains("before turn 47"), "{out}");
    assert_eq!(lines[1], "1 passed (0 normalised), 0 failed, 1 skipped");
    let o = ply(&["import", &draw]);
    assert!(stdout(&o).contains("[Result \"1/2-1/2\"]"), "{}", stdout(&o));
}

fn quirks() -> PathBuf {
    corpus().join("quirks")
}

#[test]
fn the_quirks_replay_and_the_check_says_how_each_was_read() {
    let mut files: Vec<String> = std::fs::read_dir(quirks())
        .expect("the shared corpus ../shared/corpus/zertz-boardspace/quirks")
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".sgf"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 9);
    let paths: Vec<String> =
        files.iter().map(|f| quirks().join(f).to_string_lossy().into_owned()).collect();
    let mut args = vec!["import", "--check"];
    args.extend(paths.iter().map(String::as_str));
    let o = ply(&args);
    let out = stdout(&o);
    assert!(o.status.success(), "{out}");
    let dir = quirks().to_string_lossy().into_owned();
    let expected = [
        (
            "T!Z-Russ-ddyer-2018-12-22-2217.sgf",
            "a second game tree (boardspace's copy with the editing history) ignored",
        ),
        (
            "T!Z-bluedog-Puddleglum-2005-07-31-1407.sgf",
            "a placed marble dragged on (turn 28: f3 to f1)",
        ),
        (
            "T!Z-malawiboy-ddyer-2004-10-23-1648.sgf",
            "a jump taken back (turn 11: c2 to a2); a jump taken back (turn 11: e3 to c2)",
        ),
        (
            "T!Z-malawiboy-ddyer-2004-10-23-1708.sgf",
            "'Start P1' overruled: the record's P0 made the first step and moves first",
        ),
        (
            "T!Z11-ddyer-sebastian-2004-10-16-1851.sgf",
            "a jump taken back (turn 19: d6 to f4); a jump taken back (turn 19: e5 to c6); a jump taken back (turn 19: d6 to f4)",
        ),
        (
            "T!Z11-eratos-minismurf-2004-06-04-1623.sgf",
            "1 capture recorded after P1 had won ignored (turn 46: f2xd4)",
        ),
        (
            "U!Z-Dumbot-bluedog-2005-07-01-2235.sgf",
            "an unfinished turn dropped before P2 resigned (turn 8: R- A 4)",
        ),
        (
            "U!Z-guest-Dumbot-2005-12-10-1624.sgf",
            "an unfinished turn dropped before P1 resigned (turn 15: RtoB 2 2 F 2); 12 actions recorded after P1 resigned ignored (from move 42)",
        ),
        (
            "U!Z-guest-guest-2015-12-31-1512.sgf",
            "RE[Game won by guest1486] fits both players' names: no winner is read from it",
        ),
    ];
    let mut want: String =
        expected.iter().map(|(file, how)| format!("{dir}/{file}: normalised: {how}\n")).collect();
    want.push_str("9 passed (9 normalised), 0 failed, 0 skipped\n");
    assert_eq!(out, want);
}

#[test]
fn a_written_record_says_how_it_was_normalised() {
    let dir = temp_dir("quirks-out");
    let file = quirks().join("T!Z11-ddyer-sebastian-2004-10-16-1851.sgf");
    let o = ply(&["import", file.to_str().unwrap(), "-o", dir.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        "1 passed (1 normalised), 0 failed, 0 skipped\n"
    );
    let record = dir.join("T!Z11-ddyer-sebastian-2004-10-16-1851.ply");
    let text = std::fs::read_to_string(&record).unwrap();
    assert!(
        text.contains(
            "{normalised from the boardspace record: a jump taken back (turn 19: d6 to f4); a \
             jump taken back (turn 19: e5 to c6); a jump taken back (turn 19: d6 to f4)}"
        ),
        "{text}"
    );
    assert!(text.contains("10.\ne5xc6 Gb6,d4") || text.contains("10. e5xc6 Gb6,d4"), "{text}");
    // The written record replays by itself, to the result boardspace gave.
    let o = ply(&["show", "zertz", "--record", record.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(stdout(&o).contains("result: P2 wins"), "{}", stdout(&o));
}

#[test]
fn a_jump_back_over_an_earlier_jump_fails_with_the_move_and_the_reason() {
    let text = std::fs::read_to_string(quirks().join("T!Z-malawiboy-ddyer-2004-10-23-1648.sgf"))
        .expect("the quirks record");
    let altered = text.replace("P0[35 BtoB A 2 C 2]", "P0[35 BtoB E 3 C 4]");
    assert_ne!(altered, text);
    let dir = temp_dir("earlier-jump");
    let path = write(&dir, "earlier.sgf", &altered);
    let o = ply(&["import", "--check", &path]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert_eq!(
        out,
        format!(
            "{path}: move 35 'BtoB E 3 C 4' (line 33): goes back over the jump c4 to e3, which \
             is not the last jump of this turn (c2 to a2): no take-back explains it\n\
             0 passed (0 normalised), 1 failed, 0 skipped\n"
        )
    );
}
