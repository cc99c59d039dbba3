//! `ply bestmove`, `ply match` and `ply bench`, run as a program.

use std::process::{Command, Output};

fn ply(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ply")).args(args).output().expect("ply runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

/// `ply ARGS` is refused as a usage error (exit status 2) with a message saying `says`.
fn assert_refused(args: &[&str], says: &str) {
    let o = ply(args);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains(says), "{}", text(&o.stderr));
}

/// `ply tune boop --out OUT` with `first` and `bad` is refused, saying `says`, before any
/// game: `OUT/played` (a file a game would have written) does not exist.
fn assert_tune_refused(
    out: &std::path::Path,
    first: &[&str],
    bad: &[&str],
    says: &str,
    played: &str,
) {
    let mut args = vec!["tune", "boop", "--out", out.to_str().unwrap()];
    args.extend(first);
    args.extend(bad);
    assert_refused(&args, says);
    assert!(!out.join(played).exists(), "no game was played");
}

/// A weights file's values: its lines without the comments.
fn weight_lines(path: &std::path::Path) -> String {
    let t = std::fs::read_to_string(path).unwrap();
    t.lines().filter(|l| !l.starts_with('#')).collect::<Vec<_>>().join("\n")
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

/// A GIPF game caught in a cycle (`tests/data/gipf-cycle.txt`): its next turn goes on round
/// it. Scored by the evaluation, that turn is worth what the cycle's positions are; with no
/// progress (the default) it is worth a draw, the contempt, already at depth 1, where only
/// the positions before the root can say so.
#[test]
fn no_progress_scores_a_cycle_of_the_game_as_a_draw() {
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/gipf-cycle.txt");
    let moves: String = std::fs::read_to_string(data)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .collect::<Vec<_>>()
        .join(" ");
    let best = |depth: &str, extra: &[&str]| {
        let mut args = vec!["bestmove", "gipf", "--depth", depth, "--moves", moves.trim()];
        args.extend(extra);
        let o = ply(&args);
        assert!(o.status.success(), "{}", text(&o.stderr));
        let out = text(&o.stdout);
        (field(&out, "bestmove").to_string(), field(&out, "score").to_string())
    };
    let cycle = "e1-e2,xe2-e5+e5".to_string();
    for depth in ["1", "6"] {
        assert_eq!(best(depth, &[]), (cycle.clone(), "+0".to_string()), "depth {depth}");
        assert_eq!(best(depth, &["--contempt", "30"]), (cycle.clone(), "-30".to_string()));
        let (mv, score) = best(depth, &["--no-progress", "false"]);
        assert_eq!(mv, cycle);
        assert!(score.parse::<i32>().unwrap() > 30, "depth {depth}: {score}");
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
    let o =
        ply(&["match", "boop", "--a", "nodes:2000@alphabeta/t2", "--b", "random", "--games", "2"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(text(&o.stdout).contains("A nodes:2000@alphabeta/t2"), "{}", text(&o.stdout));
    for (spec, message) in [
        ("level:0", "levels are 1 to 10"),
        ("speed:3", "not a kind of player"),
        ("level", "is not a player"),
        ("nodes:x", "not a number"),
        ("time:300/tx", "not a number of threads"),
        ("time:300@alphabeta/t0", "1 to 64"),
    ] {
        let o = ply(&["match", "boop", "--a", spec, "--b", "random", "--games", "2"]);
        assert_eq!(o.status.code(), Some(2), "{spec}");
        assert!(text(&o.stderr).contains(message), "{spec}: {}", text(&o.stderr));
    }
}

#[test]
fn a_round_robin_fits_one_elo_scale_and_saves_its_table() {
    let dir = std::env::temp_dir().join(format!("ply-round-robin-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let args = ["match", "boop", "--round-robin", "random,level:1,level:4", "--games", "2"];
    let o = ply(&[&args[..], &["--out", dir.to_str().unwrap()]].concat());
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    assert!(out.starts_with("boop boop: round robin of 3 players, 6 games"), "{out}");
    // The crosstable's rows: each pairing played twice, points out of games played.
    let row = |name: &str| {
        out.lines()
            .find(|l| l.split_whitespace().nth(1) == Some(name))
            .unwrap_or_else(|| panic!("no {name} row in {out}"))
            .to_string()
    };
    assert!(
        row("random").split_whitespace().skip(2).take(3).all(|c| c == "-" || c.ends_with("/2"))
    );
    // One Elo table: the first player at 0, the others with an interval and a step.
    assert!(out.contains("random = 0"), "{out}");
    let ratings: Vec<&str> = out.lines().rev().take(3).collect();
    assert!(ratings.iter().all(|l| l.contains(" ms") || l.contains(" random ")), "{out}");
    let saved = std::fs::read_to_string(dir.join("round-robin.txt")).unwrap();
    assert_eq!(saved.lines().skip(1).collect::<Vec<_>>(), out.lines().skip(1).collect::<Vec<_>>());
    let records = std::fs::read_dir(&dir).unwrap().count() - 1;
    assert_eq!(records, 6);
    let record = std::fs::read_to_string(dir.join("boop-1-3-0002.ply")).unwrap();
    assert!(record.contains("level:4") && record.contains("random"), "{record}");
    // The same seed gives the same crosstable.
    let again = text(&ply(&args).stdout);
    let crosstable = |s: &str| s.lines().skip(1).take(6).collect::<Vec<_>>().join("\n");
    assert_eq!(crosstable(&again), crosstable(&out));
    let _ = std::fs::remove_dir_all(&dir);
    for (list, message) in
        [("level:1", "at least two players"), ("level:1,level:11", "levels are 1 to 10")]
    {
        let o = ply(&["match", "boop", "--round-robin", list, "--games", "2"]);
        assert_eq!(o.status.code(), Some(2), "{list}");
        assert!(text(&o.stderr).contains(message), "{list}: {}", text(&o.stderr));
    }
    let o = ply(&["match", "boop", "--a", "level:1", "--round-robin", "random,level:1"]);
    assert_eq!(o.status.code(), Some(2));
}

/// The node counts of `ply bench`, per game and work, as `docs/benchmarks.md` lists them. They
/// do not depend on the machine or the build profile (single thread, fixed depths and playout
/// counts, seeded search), so any change means the rules or the engine behave differently.
const BENCH: [(&str, &str, u64); 12] = [
    ("gipf", "perft 4", 3_066_768),
    ("gipf", "alphabeta depth 5", 7_464),
    ("gipf", "mcts 60000 playouts", 60_000),
    ("zertz", "perft 2", 3_277_260),
    ("zertz", "alphabeta depth 2", 7_607),
    ("zertz", "mcts 50000 playouts", 50_000),
    ("boop", "perft 5", 45_923_628),
    ("boop", "alphabeta depth 6", 65_969),
    ("boop", "mcts 20000 playouts", 20_000),
    ("punct", "perft 2", 23_841_810),
    ("punct", "alphabeta depth 1", 4_988),
    ("punct", "mcts 300 playouts", 300),
];

/// The signature `docs/benchmarks.md` gives: the sum of [`BENCH`].
const SIGNATURE: u64 = 76_325_794;

#[test]
fn bench_signature_is_the_documented_one() {
    assert_eq!(BENCH.iter().map(|b| b.2).sum::<u64>(), SIGNATURE);
    let o = ply(&["bench"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    // Each row: game, work (several words), nodes, seconds, nodes/s.
    let rows: Vec<(String, String, u64)> = out
        .lines()
        .skip(1)
        .filter(|l| !l.starts_with("signature "))
        .map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            let n = words.len();
            assert!(n >= 5, "short row {l:?} in {out}");
            let nodes = words[n - 3].parse().unwrap_or_else(|_| panic!("nodes in {l:?}"));
            (words[0].to_string(), words[1..n - 3].join(" "), nodes)
        })
        .collect();
    let want: Vec<(String, String, u64)> =
        BENCH.iter().map(|&(g, w, n)| (g.to_string(), w.to_string(), n)).collect();
    assert_eq!(rows, want, "{out}");
    assert_eq!(out.lines().last(), Some(format!("signature {SIGNATURE}").as_str()), "{out}");
}

#[test]
fn bench_of_one_game_signs_its_own_nodes() {
    let o = ply(&["bench", "zertz"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    let zertz: u64 = BENCH.iter().filter(|b| b.0 == "zertz").map(|b| b.2).sum();
    assert_eq!(out.lines().last(), Some(format!("signature {zertz}").as_str()), "{out}");
}

#[test]
fn tune_writes_positions_weights_and_a_report_that_match_can_use() {
    let dir = std::env::temp_dir().join(format!("ply-tune-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().unwrap();
    let args = ["tune", "boop", "--out", d, "--games", "4", "--player", "level:2", "--passes", "3"];
    let o = ply(&args);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    assert!(out.contains(" positions from 4 games ("), "{out}");
    assert!(out.contains("mean squared error, held-out positions: "), "{out}");
    assert_eq!(std::fs::read_dir(dir.join("games")).unwrap().count(), 4);
    let positions = std::fs::read_to_string(dir.join("positions.txt")).unwrap();
    assert!(positions.lines().nth(1).unwrap().contains("\tboop;"), "{positions}");
    let report = std::fs::read_to_string(dir.join("tune.txt")).unwrap();
    assert_eq!(
        report,
        out.lines().take(report.lines().count()).collect::<Vec<_>>().join("\n") + "\n"
    );
    let weights = dir.join("weights.txt");
    let w = weights.to_str().unwrap();
    assert!(std::fs::read_to_string(&weights).unwrap().contains("\nCAT_LINE 20000\n"));
    // Fitting the same positions again gives the same weights.
    let again = dir.join("again");
    let p = dir.join("positions.txt");
    let o = ply(&[
        "tune",
        "boop",
        "--out",
        again.to_str().unwrap(),
        "--positions",
        p.to_str().unwrap(),
        "--passes",
        "3",
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(weight_lines(&again.join("weights.txt")), weight_lines(&weights));
    // ply match plays the fitted weights, and names them in the records.
    let games = dir.join("match");
    let o = ply(&[
        "match",
        "boop",
        "--a",
        "nodes:200",
        "--a-weights",
        w,
        "--b",
        "nodes:200",
        "--b-weights",
        "default",
        "--games",
        "2",
        "--out",
        games.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let record = std::fs::read_to_string(games.join("boop-0001.ply")).unwrap();
    assert!(record.contains(&format!("nodes:200 weights:{w}")), "{record}");
    // A broken weights file is refused before any game, naming its line.
    std::fs::write(&weights, "CAT 150\nPLACE 12\n").unwrap();
    let o = ply(&["match", "boop", "--a", "nodes:200", "--a-weights", w, "--b", "nodes:200"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("line 2: PLACE needs 2 numbers, found 1"),
        "{}",
        text(&o.stderr)
    );
    let o = ply(&["match", "boop", "--a", "nodes:200", "--a-weights", "hnad", "--b", "nodes:200"]);
    assert!(
        text(&o.stderr).contains(
            "'hnad' is neither a built-in weight set (default, hand) nor a readable file"
        ),
        "{}",
        text(&o.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn tune_labels_by_a_search_holds_values_and_refuses_bad_settings_before_any_game() {
    let dir = std::env::temp_dir().join(format!("ply-tune-label-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().unwrap();
    let args = [
        "tune",
        "boop",
        "--out",
        d,
        "--games",
        "2",
        "--player",
        "level:2",
        "--passes",
        "2",
        "--label",
        "nodes:500",
        "--label-weight",
        "0.5",
        "--hold",
        "TEMPO",
    ];
    let o = ply(&args);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    assert!(out.contains("held at their 'default' values: TEMPO"), "{out}");
    assert!(!out.lines().any(|l| l.starts_with("TEMPO ")), "a held value is not reported: {out}");
    // Half the result and half the search: labels strictly between 0 and 1, alongside the
    // results of positions.txt, line for line.
    let lines = |f: &str| -> Vec<String> {
        let t = std::fs::read_to_string(dir.join(f)).unwrap();
        t.lines().skip(1).map(str::to_string).collect()
    };
    let (results, labels) = (lines("positions.txt"), lines("labelled.txt"));
    assert_eq!(results.len(), labels.len());
    let mut searched = 0;
    for (r, l) in results.iter().zip(&labels) {
        let (r, rest_r) = r.split_once('\t').unwrap();
        let (l, rest_l) = l.split_once('\t').unwrap();
        assert_eq!(rest_r, rest_l, "the same game and position");
        let (r, l): (f64, f64) = (r.parse().unwrap(), l.parse().unwrap());
        // Half the result plus half an expected score from 0 to 1.
        assert!(l >= r / 2.0 - 1e-12 && l <= r / 2.0 + 0.5 + 1e-12, "{l} from {r}");
        searched += usize::from(l != r);
    }
    assert!(searched * 2 > labels.len(), "{searched} of {} labelled by the search", labels.len());
    // A typo in --hold or a time-limited label is refused at once, before any game.
    for (bad, says) in [
        (["--hold", "TEMP"], "--hold TEMP: no tuned value of that name ("),
        (["--label", "time:50"], "a time limit would make the labels depend on the machine"),
    ] {
        assert_tune_refused(&dir.join("refused"), &["--games", "400"], &bad, says, "games");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn tune_by_play_steps_the_weights_reproducibly_and_refuses_bad_settings() {
    let dir = std::env::temp_dir().join(format!("ply-tune-spsa-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let run = |out: &std::path::Path, threads: &str| {
        let o = ply(&[
            "tune",
            "boop",
            "--spsa",
            "20",
            "--player",
            "nodes:300",
            "--opening",
            "2",
            "--seed",
            "3",
            "--hold",
            "TEMPO,THREE",
            "--threads",
            threads,
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", text(&o.stderr));
        text(&o.stdout)
    };
    let (one, two) = (dir.join("one"), dir.join("two"));
    let out = run(&two, "2");
    assert!(out.contains("SPSA: 20 pairs of games, nodes:300 a move"), "{out}");
    assert!(out.contains("held at their 'default' values: TEMPO, THREE"), "{out}");
    assert!(!out.lines().any(|l| l.starts_with("TEMPO ")), "a held value is not reported: {out}");
    // The trace: the start, then a row after each 16 pairs and one at the end.
    let trace = std::fs::read_to_string(two.join("spsa.tsv")).unwrap();
    let rows: Vec<&str> = trace.lines().collect();
    assert_eq!(rows.len(), 4, "{trace}");
    assert!(rows[0].starts_with("pairs\tplus score\tCAT\tPLACE[0]"), "{trace}");
    assert!(rows[1].starts_with("0\t0.000\t337\t134\t134\t"), "the default values: {trace}");
    assert!(rows[2].starts_with("16\t") && rows[3].starts_with("20\t"), "{trace}");
    assert_ne!(rows[1].split_once("\t0.000").unwrap().1, rows[3].split_once('\t').unwrap().1);
    // The weights file keeps the held values and is one ply match reads.
    let weights = std::fs::read_to_string(two.join("weights.txt")).unwrap();
    assert!(weights.contains("\nTEMPO 157\n") && weights.contains("\nTHREE 153\n"));
    let w = two.join("weights.txt");
    let o = ply(&[
        "match",
        "boop",
        "--a",
        "nodes:200",
        "--a-weights",
        w.to_str().unwrap(),
        "--b",
        "nodes:200",
        "--games",
        "2",
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    // Node budgets and fixed batches: one thread tunes to the same values.
    run(&one, "1");
    assert_eq!(weight_lines(&one.join("weights.txt")), weight_lines(&two.join("weights.txt")));
    assert_eq!(
        std::fs::read_to_string(one.join("spsa.tsv")).unwrap(),
        std::fs::read_to_string(two.join("spsa.tsv")).unwrap()
    );
    // Bad settings are refused before any game.
    for (bad, says) in [
        (vec!["--spsa", "0"], "--spsa needs at least one pair of games"),
        (vec!["--spsa", "4", "--player", "random"], "--player random plays without weights"),
        (vec!["--spsa", "4", "--hold", "TEMP"], "--hold TEMP: no tuned value of that name ("),
        (vec!["--spsa", "4", "--spsa-rate", "0"], "--spsa-rate 0 is not a positive number"),
        (vec!["--spsa", "4", "--positions", "p.txt"], "cannot be used with"),
    ] {
        assert_tune_refused(&dir.join("refused"), &[], &bad, says, "spsa.tsv");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_external_engine_plays_through_the_protocol_the_games_it_plays_in_process() {
    let dir = std::env::temp_dir().join(format!("ply-external-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let me = format!("{} engine", env!("CARGO_BIN_EXE_ply"));
    let play = |out: &str, extra: &[&str]| {
        let d = dir.join(out);
        let mut args = vec!["match", "gipf", "--games", "4", "--seed", "5", "--threads", "2"];
        args.extend(["--out", d.to_str().unwrap()]);
        args.extend(extra);
        let o = ply(&args);
        assert!(o.status.success(), "{}", text(&o.stderr));
        (d, text(&o.stdout))
    };
    // Node budgets on one thread are deterministic: this build as an external engine plays
    // the very games it plays in process, with a level, weights and options sent as options.
    let sides = [
        "--a",
        "nodes:400",
        "--a-option",
        "noprogress=false",
        "--a-option",
        "contempt=15",
        "--b",
        "level:3",
        "--b-weights",
        "hand",
    ];
    let (inside, _) = play("inside", &sides);
    let mut outside_args = sides.to_vec();
    outside_args.extend(["--a-engine", &me, "--b-engine", &me]);
    let (outside, out) = play("outside", &outside_args);
    assert!(
        out.contains("A nodes:400 noprogress=false contempt=15 (external)")
            && out.contains("B level:3 (external)"),
        "{out}"
    );
    for k in 1..=4 {
        let read = |d: &std::path::Path| {
            let t = std::fs::read_to_string(d.join(format!("gipf-{k:04}.ply"))).unwrap();
            t.lines()
                .filter(|l| !l.starts_with("[P1") && !l.starts_with("[P2"))
                .collect::<Vec<_>>()
                .join("\n")
        };
        assert_eq!(read(&inside), read(&outside), "game {k}");
    }
    let record = std::fs::read_to_string(outside.join("gipf-0001.ply")).unwrap();
    assert!(record.contains(&format!("[P2 \"level:3 weights:hand engine:{me}\"]")), "{record}");
    // A program that cannot play is refused before any game; so is a side it cannot play.
    for (extra, says) in [
        (["--b-engine", "/no/such/engine"], "cannot start '/no/such/engine'"),
        (["--b-engine", "true"], "'true' ended (at start)"),
    ] {
        let mut args = vec!["match", "boop", "--a", "nodes:100", "--b", "nodes:100"];
        args.extend(extra);
        assert_refused(&args, says);
    }
    assert_refused(
        &["match", "boop", "--a", "random", "--a-engine", &me, "--b", "nodes:100"],
        "'random' cannot be played by an external engine",
    );
    // ply's own side takes the search's options only; a bad one is refused before any game.
    for (option, says) in [("hash=8", "contempt and noprogress"), ("noprogress", "NAME=VALUE")] {
        assert_refused(
            &["match", "boop", "--a", "nodes:100", "--b", "nodes:100", "--b-option", option],
            says,
        );
    }
    // An external engine gets any option, and one it refuses fails its games.
    let o = ply(&[
        "match",
        "boop",
        "--games",
        "1",
        "--a",
        "nodes:100",
        "--b",
        "nodes:100",
        "--b-engine",
        &me,
        "--b-option",
        "colour=blue",
    ]);
    assert!(!o.status.success(), "{}", text(&o.stdout));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bestmove_and_analyse_evaluate_with_the_weights_asked_for() {
    let at = |weights: Option<&str>| {
        let mut args = vec!["bestmove", "boop", "--depth", "3", "--moves", "Kc3 Kd4"];
        args.extend(weights.iter().flat_map(|w| ["--weights", w]));
        let o = ply(&args);
        assert!(o.status.success(), "{}", text(&o.stderr));
        field(&text(&o.stdout), "score").to_string()
    };
    // The fitted and the hand-set weights score the same position differently, and
    // `default` is what no option gives.
    assert_ne!(at(None), at(Some("hand")));
    assert_eq!(at(None), at(Some("default")));
    // A file of the same numbers as `hand` scores as `hand` does.
    let dir = std::env::temp_dir().join(format!("ply-weights-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let hand = dir.join("hand weights.txt");
    std::fs::write(&hand, include_str!("../../boop/src/weights-hand.txt")).unwrap();
    assert_eq!(at(Some(hand.to_str().unwrap())), at(Some("hand")));
    // Bad sets are usage errors, for bestmove and analyse alike.
    let o = ply(&["bestmove", "boop", "--depth", "2", "--weights", "hnad"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("'hnad' is neither a built-in weight set (default, hand)"));
    let record = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/analyse/blunder.ply");
    let o = ply(&["analyse", record, "--depth", "2", "--weights", "hnad"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("'hnad' is neither"), "{}", text(&o.stderr));
    let analysed = |weights: &str| {
        let o = ply(&["analyse", record, "--depth", "2", "--json", "--weights", weights]);
        assert!(o.status.success(), "{}", text(&o.stderr));
        text(&o.stdout)
    };
    assert_ne!(analysed("hand"), analysed("default"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_book_holds_balanced_openings_and_match_plays_its_pairs_from_them() {
    let dir = std::env::temp_dir().join(format!("ply-book-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let book = dir.join("book.txt");
    let write = |threads: &str, out: Option<&std::path::Path>| {
        let mut args = vec![
            "book",
            "boop",
            "--count",
            "3",
            "--turns",
            "4",
            "--judge",
            "nodes:2000",
            "--within",
            "0.2",
            "--seed",
            "7",
            "--threads",
            threads,
        ];
        if let Some(path) = out {
            args.extend(["--out", path.to_str().unwrap()]);
        }
        let o = ply(&args);
        assert!(o.status.success(), "{}", text(&o.stderr));
        assert!(text(&o.stderr).contains("3 openings kept of"), "{}", text(&o.stderr));
        text(&o.stdout)
    };
    write("2", Some(&book));
    let written = std::fs::read_to_string(&book).unwrap();
    // Node budgets, judged in the order of their seeds: one thread writes the same book.
    assert_eq!(write("1", None), written);
    let openings: Vec<&str> = written.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(openings.len(), 3, "{written}");
    for line in &openings {
        let (turns, expected) = line.split_once("  # ").unwrap();
        assert_eq!(turns.split(' ').count(), 4, "{line}");
        let percent: f64 = expected.trim_end_matches(" %").parse().unwrap();
        assert!((30.0..=70.0).contains(&percent), "within 0.2 of 50 %: {line}");
    }
    // A record's first four turns, and opening `i` of the book.
    let first_turns = |record: &std::path::Path| -> String {
        let record = std::fs::read_to_string(record).unwrap();
        let turns: Vec<&str> = record
            .lines()
            .filter(|l| !l.starts_with('['))
            .flat_map(str::split_whitespace)
            .filter(|t| !t.ends_with('.'))
            .take(4)
            .collect();
        turns.join(" ")
    };
    let opening = |i: usize| openings[i].split("  #").next().unwrap().to_string();
    // Each game pair starts from the book's next opening, and the book repeats: 8 games are
    // four pairs from openings 1, 2, 3, 1.
    let (games, b) = (dir.join("games"), book.to_str().unwrap());
    let args = ["match", "boop", "--a", "nodes:300", "--b", "random", "--games", "8"];
    let mut args = args.to_vec();
    args.extend(["--book", b, "--out", games.to_str().unwrap()]);
    let o = ply(&args);
    assert!(o.status.success(), "{}", text(&o.stderr));
    for game in 1..=8 {
        let record = games.join(format!("boop-{game:04}.ply"));
        assert_eq!(first_turns(&record), opening((game - 1) / 2 % 3), "game {game}");
    }
    // `ply tune` plays its self-play, SPSA and check games from books too.
    let tuned = dir.join("tuned");
    let args = ["tune", "boop", "--games", "2", "--player", "nodes:300", "--passes", "1"];
    let mut args = args.to_vec();
    args.extend(["--book", b, "--check", "2", "--check-time", "5", "--check-book", b]);
    args.extend(["--out", tuned.to_str().unwrap()]);
    let o = ply(&args);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(first_turns(&tuned.join("games/boop-0001.ply")), opening(0));
    assert_eq!(first_turns(&tuned.join("check/boop-0002.ply")), opening(0));
    let spsa = dir.join("spsa");
    let args = ["tune", "boop", "--spsa", "2", "--player", "nodes:300", "--book", b];
    let mut args = args.to_vec();
    args.extend(["--out", spsa.to_str().unwrap()]);
    let o = ply(&args);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(text(&o.stdout).contains(&format!("openings from {b}, seed 1")), "{}", text(&o.stdout));
    // A bad book is refused before any game, naming its line; --book and --opening conflict.
    let bad = dir.join("bad.txt");
    let refused = |content: &str, says: &str| {
        std::fs::write(&bad, content).unwrap();
        let args = ["match", "boop", "--a", "nodes:300", "--b", "random", "--games", "2"];
        let mut args = args.to_vec();
        args.extend(["--book", bad.to_str().unwrap()]);
        assert_refused(&args, says);
    };
    refused("# only a comment\n\n", "no opening in it");
    refused("Ka1 Kb2\nKa1 Ka1\n", "line 2: turn 2 'Ka1'");
    let (spsa_bad, bad_path) = (dir.join("spsa-bad"), bad.to_str().unwrap());
    let args = ["tune", "boop", "--spsa", "2", "--player", "nodes:300", "--book", bad_path];
    let mut args = args.to_vec();
    args.extend(["--out", spsa_bad.to_str().unwrap()]);
    assert_refused(&args, "line 2: turn 2 'Ka1'");
    assert!(!spsa_bad.join("spsa.tsv").exists(), "no game was played");
    let args = ["tune", "boop", "--games", "2", "--check", "2", "--check-book", bad_path];
    let mut args = args.to_vec();
    args.extend(["--out", spsa_bad.to_str().unwrap()]);
    assert_refused(&args, "line 2: turn 2 'Ka1'");
    assert!(!spsa_bad.join("games").exists(), "no game was played");
    let mut args = vec!["match", "boop", "--a", "nodes:300", "--b", "random", "--opening", "3"];
    args.extend(["--book", book.to_str().unwrap()]);
    assert_refused(&args, "cannot be used with");
    assert_refused(&["book", "boop", "--within", "0.7"], "--within 0.7 is not within 0 to 0.5");
    assert_refused(&["book", "boop", "--judge", "random"], "--judge must be a search");
    // Too narrow a window: fewer openings than asked, said, and a failure.
    let o = ply(&["book", "boop", "--count", "5", "--judge", "nodes:300", "--tries", "3"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("openings found in 3 tries"), "{}", text(&o.stderr));
    let _ = std::fs::remove_dir_all(&dir);
}
