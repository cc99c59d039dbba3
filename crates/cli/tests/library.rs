//! The game library from the command line: `ply import --into` stores the shared boardspace
//! records once however often it runs, and `ply explore` gives, for positions of those games,
//! the counts an independent computation gives (every record replayed here, its positions
//! written as position strings and counted in memory).

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::process::{Command, Output};

use ply_core::Outcome;
use ply_records::Record;

fn ply(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ply"))
        .args(args)
        .env_remove("PLY_DATABASE_URL")
        .output()
        .expect("ply runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn corpus() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/corpus/zertz-boardspace"))
}

/// Every record of the corpus (quirks included) as ply records, by `ply import` (one file a
/// record, the name kept).
fn records(dir: &std::path::Path) -> Vec<Record> {
    let out = dir.join("records");
    let o = ply(&["import", "-o", out.to_str().unwrap(), corpus().to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let mut records = Vec::new();
    for entry in std::fs::read_dir(&out).unwrap() {
        let path = entry.unwrap().path();
        records.push(Record::parse(&std::fs::read_to_string(&path).unwrap()).unwrap());
    }
    records
}

/// Per position string, per turn: games, P1 wins, P2 wins, draws.
type Counts = HashMap<String, BTreeMap<String, [i64; 4]>>;

/// The explorer's counts computed here: each record replayed, the position string before each
/// turn counted with the game's result.
fn count(records: &[Record]) -> Counts {
    let registry = ply_games::registry();
    let mut counts = Counts::new();
    for record in records {
        let game = record.replay(&registry).expect("an imported record replays");
        let outcome = game.outcome().or_else(|| record.result().outcome());
        let Some(outcome) = outcome else { continue };
        let entry = registry.get(game.name()).unwrap();
        let mut replay = entry.new_game(Some(game.variant())).unwrap();
        for turn in game.history() {
            let tally = counts
                .entry(replay.position_string())
                .or_default()
                .entry(turn.clone())
                .or_insert([0; 4]);
            tally[0] += 1;
            match outcome {
                Outcome::Win(p) if p.as_str() == "P1" => tally[1] += 1,
                Outcome::Win(_) => tally[2] += 1,
                Outcome::Draw => tally[3] += 1,
            }
            replay.play(turn).unwrap();
        }
    }
    counts
}

fn explore(database: &str, position: &str) -> BTreeMap<String, [i64; 4]> {
    let game = position.split(';').next().unwrap();
    let o = ply(&["explore", game, "--position", position, "--database", database, "--json"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["position"], position);
    v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let n = |k: &str| m[k].as_i64().unwrap();
            (
                m["move"].as_str().unwrap().to_string(),
                [n("games"), n("p1_wins"), n("p2_wins"), n("draws")],
            )
        })
        .collect()
}

#[test]
fn records_are_imported_once_and_the_explorer_counts_what_an_independent_count_gives() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("library.sqlite");
    let database = db.to_str().unwrap();
    let corpus = corpus();
    let files = corpus.to_str().unwrap();
    // The folder is searched for records (the quirks folder with it).
    let first = ply(&["import", "--into", database, files]);
    let said = text(&first.stdout);
    assert!(first.status.success(), "{said}{}", text(&first.stderr));
    let total = records(dir.path()).len();
    assert!(total >= 208, "{total} records");
    assert!(
        said.contains(&format!("{total} records read"))
            && said.contains(&format!("{total} added to the archive, 0 there already")),
        "{said}"
    );
    assert!(said.contains("(9 normalised)"), "{said}");
    // Again: nothing is added, from the same files given one by one this time.
    let mut args = vec!["import", "--into", database];
    let listed: Vec<String> = std::fs::read_dir(&corpus)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "sgf"))
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    args.extend(listed.iter().map(String::as_str));
    let again = ply(&args);
    let said = text(&again.stdout);
    assert!(
        said.contains(&format!("0 added to the archive, {} there already", listed.len())),
        "{said}"
    );

    // The explorer against the count made here, at every position some game of the corpus
    // reached on its first three turns, and at every position two or more games reached
    // (transpositions among them).
    let records = records(dir.path());
    let counts = count(&records);
    let mut checked = 0;
    let mut shared = 0;
    let registry = ply_games::registry();
    let mut early = std::collections::BTreeSet::new();
    for record in &records {
        let game = record.replay(&registry).unwrap();
        let mut replay = registry.get(game.name()).unwrap().new_game(Some(game.variant())).unwrap();
        for turn in game.history().iter().take(3) {
            early.insert(replay.position_string());
            replay.play(turn).unwrap();
        }
    }
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let store = runtime.block_on(ply_store::Store::open(Some(database))).unwrap();
    for (position, expected) in &counts {
        let reached: i64 = expected.values().map(|t| t[0]).sum();
        if !early.contains(position) && reached < 2 {
            continue;
        }
        let stored = runtime.block_on(store.explore(ply_core::position_key(position))).unwrap();
        let stored: BTreeMap<String, [i64; 4]> = stored
            .into_iter()
            .map(|m| (m.notation, [m.games, m.p1_wins, m.p2_wins, m.draws]))
            .collect();
        assert_eq!(&stored, expected, "{position}");
        // And as `ply explore` prints it, now and then.
        if checked % 100 == 0 {
            assert_eq!(&explore(database, position), expected, "{position}");
        }
        checked += 1;
        shared += usize::from(reached >= 2 && !early.contains(position));
    }
    assert!(checked > 150, "{checked} positions checked");
    assert!(shared > 0, "positions reached again later in the game (transpositions) were checked");
    // A position nobody reached: no turns, said plainly.
    let o = ply(&["explore", "zertz", "--moves", "Wa1,a2", "--database", database]);
    assert!(
        text(&o.stdout).contains("no archived game reached this position"),
        "{}",
        text(&o.stdout)
    );
}

#[test]
fn a_bad_database_or_position_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let o = ply(&[
        "explore",
        "zertz",
        "--position",
        "zertz;37;nonsense",
        "--database",
        dir.path().join("x.sqlite").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("bad position string"), "{}", text(&o.stderr));
    let o = ply(&["import", "--into", "/dev/null/archive.sqlite", corpus().to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(text(&o.stderr).contains("cannot open the database"), "{}", text(&o.stderr));
}
