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
    assert_eq!(out.trim_end().lines().last(), Some("199 passed, 0 failed, 0 skipped"), "{out}");
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
    assert_eq!(lines[4], "2 passed, 2 failed, 2 skipped");

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
