//! The archive and the opening explorer's store, on every database the store speaks (SQLite in
//! a file, and PostgreSQL when `PLY_TEST_POSTGRES_URL` names a server): idempotent imports,
//! searches, explorer counts, and games played here archived once.

use ply_core::{Outcome, Player};
use ply_store::testing::{TestDb, databases};
use ply_store::{ArchiveQuery, ArchivedGame, EndReason, ExplorerMove, Mode, ResultFilter, Store};

async fn open(db: &TestDb) -> Store {
    Store::open(Some(&db.url)).await.unwrap_or_else(|e| panic!("{}: {e}", db.label))
}

const DAY: i64 = 86_400_000;

/// A game of a made-up record: turns `moves`, the positions before them keyed by the numbers
/// in `positions`.
fn record(
    key: &str,
    names: [&str; 2],
    outcome: Outcome,
    day: i64,
    moves: &[&str],
    positions: &[i64],
) -> ArchivedGame {
    ArchivedGame {
        game: "zertz".into(),
        variant: "37".into(),
        names: names.map(str::to_string),
        outcome: Some(outcome),
        reason: Some(EndReason::Rules),
        played_ms: day * DAY,
        source: "boardspace.net".into(),
        source_key: key.into(),
        moves: moves.iter().map(|m| (*m).to_string()).collect(),
        positions: positions.to_vec(),
    }
}

fn collection() -> Vec<ArchivedGame> {
    let p1 = Outcome::Win(Player::P1);
    let p2 = Outcome::Win(Player::P2);
    vec![
        // Two games open with A from position 1; a third transposes into position 3.
        record("g1", ["Alice", "Bob"], p1, 10, &["A", "B", "C"], &[1, 2, 3]),
        record("g2", ["bob", "Carol"], p2, 20, &["A", "X", "Y", "Z"], &[1, 2, 4, 5]),
        record("g3", ["Carol", "Alice"], Outcome::Draw, 30, &["D", "E", "C"], &[1, 6, 3]),
        record("g4", ["Dave", "ALICE"], p2, 40, &["D"], &[1]),
    ]
}

fn mv(notation: &str, games: i64, p1_wins: i64, p2_wins: i64, draws: i64) -> ExplorerMove {
    ExplorerMove { notation: notation.into(), games, p1_wins, p2_wins, draws }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn importing_twice_adds_nothing_the_second_time() {
    for db in databases().await {
        let label = db.label;
        let store = open(&db).await;
        let games = collection();
        let first = store.import_games(&games).await.unwrap();
        assert_eq!((first.added, first.already), (4, 0), "{label}");
        let again = store.import_games(&games).await.unwrap();
        assert_eq!((again.added, again.already), (0, 4), "{label}");
        // A batch holding the same record twice stores it once.
        let twice = vec![record("g5", ["E", "F"], Outcome::Draw, 50, &["Q"], &[9]); 2];
        let once = store.import_games(&twice).await.unwrap();
        assert_eq!((once.added, once.already), (1, 1), "{label}");
        let all = store
            .search_archive(&ArchiveQuery { per_page: 50, ..ArchiveQuery::default() })
            .await
            .unwrap();
        assert_eq!(all.rows.len(), 5, "{label}");
        // Each is a finished game with its moves, openable like any other; site lists skip them.
        let g = &all.rows[1];
        let (row, moves) = store.load(&g.game_id).await.unwrap();
        assert_eq!(row.mode, Mode::Imported, "{label}");
        assert_eq!(moves, ["D"], "{label}");
        assert_eq!(row.ended.map(|e| e.outcome), Some(Outcome::Win(Player::P2)), "{label}");
        assert!(
            store.list_games(100).await.unwrap().is_empty(),
            "{label}: imported games are not site games"
        );
        // A game whose positions do not match its turns, or without a result, is refused.
        let mut bad = record("bad", ["A", "B"], Outcome::Draw, 1, &["A", "B"], &[1]);
        assert!(store.import_games(std::slice::from_ref(&bad)).await.is_err(), "{label}");
        bad.positions.push(2);
        bad.outcome = None;
        assert!(store.import_games(&[bad]).await.is_err(), "{label}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn searches_filter_by_player_variant_result_date_and_length() {
    for db in databases().await {
        let label = db.label;
        let store = open(&db).await;
        store.import_games(&collection()).await.unwrap();
        let search = |q: ArchiveQuery| {
            let store = store.clone();
            async move {
                let page = store.search_archive(&ArchiveQuery { per_page: 50, ..q }).await.unwrap();
                page.rows.iter().map(|r| r.names.join("-")).collect::<Vec<_>>()
            }
        };
        let alice = || Some("alice".to_string());
        // Newest first; a name in any case, in either seat.
        assert_eq!(
            search(ArchiveQuery { player: alice(), ..ArchiveQuery::default() }).await,
            ["Dave-ALICE", "Carol-Alice", "Alice-Bob"],
            "{label}"
        );
        assert_eq!(
            search(ArchiveQuery {
                player: alice(),
                result: Some(ResultFilter::PlayerWon),
                ..ArchiveQuery::default()
            })
            .await,
            ["Dave-ALICE", "Alice-Bob"],
            "{label}"
        );
        assert_eq!(
            search(ArchiveQuery {
                player: alice(),
                result: Some(ResultFilter::PlayerLost),
                ..ArchiveQuery::default()
            })
            .await,
            Vec::<String>::new(),
            "{label}"
        );
        assert_eq!(
            search(ArchiveQuery {
                result: Some(ResultFilter::Won(Player::P2)),
                ..ArchiveQuery::default()
            })
            .await,
            ["Dave-ALICE", "bob-Carol"],
            "{label}"
        );
        assert_eq!(
            search(ArchiveQuery { result: Some(ResultFilter::Draw), ..ArchiveQuery::default() })
                .await,
            ["Carol-Alice"],
            "{label}"
        );
        assert_eq!(
            search(ArchiveQuery {
                from_ms: Some(20 * DAY),
                to_ms: Some(31 * DAY),
                ..ArchiveQuery::default()
            })
            .await,
            ["Carol-Alice", "bob-Carol"],
            "{label}"
        );
        assert_eq!(
            search(ArchiveQuery {
                min_plies: Some(3),
                max_plies: Some(3),
                ..ArchiveQuery::default()
            })
            .await,
            ["Carol-Alice", "Alice-Bob"],
            "{label}"
        );
        assert_eq!(
            search(ArchiveQuery {
                game: Some("zertz".into()),
                variant: Some("48".into()),
                ..ArchiveQuery::default()
            })
            .await,
            Vec::<String>::new(),
            "{label}"
        );
        // A player's result needs a player.
        let q = ArchiveQuery { result: Some(ResultFilter::PlayerWon), ..ArchiveQuery::default() };
        assert!(store.search_archive(&q).await.is_err(), "{label}");
        // Pages: two a page, the second is the last.
        let page = |n| ArchiveQuery { page: n, per_page: 2, ..ArchiveQuery::default() };
        let first = store.search_archive(&page(0)).await.unwrap();
        let second = store.search_archive(&page(1)).await.unwrap();
        assert_eq!((first.rows.len(), first.more), (2, true), "{label}");
        assert_eq!((second.rows.len(), second.more), (2, false), "{label}");
        assert_ne!(first.rows[1].game_id, second.rows[0].game_id, "{label}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_explorer_counts_turns_and_results_from_a_position_transpositions_together() {
    for db in databases().await {
        let label = db.label;
        let store = open(&db).await;
        store.import_games(&collection()).await.unwrap();
        // From the start (1): A twice (a P1 win, a P2 win), D twice (a draw, a P2 win).
        assert_eq!(
            store.explore(1).await.unwrap(),
            [mv("A", 2, 1, 1, 0), mv("D", 2, 0, 1, 1)],
            "{label}"
        );
        // Position 3 is reached by A B and by D E: C was played from it in both games.
        assert_eq!(store.explore(3).await.unwrap(), [mv("C", 2, 1, 0, 1)], "{label}");
        assert_eq!(
            store.explore(2).await.unwrap(),
            [mv("B", 1, 1, 0, 0), mv("X", 1, 0, 1, 0)],
            "{label}"
        );
        assert!(store.explore(99).await.unwrap().is_empty(), "{label}");
        // The latest game of each turn from a position, newest first.
        let reached = |position| {
            let store = store.clone();
            async move {
                let rows = store.games_at(position, 10).await.unwrap();
                rows.iter().map(|r| r.names.join("-")).collect::<Vec<_>>()
            }
        };
        assert_eq!(reached(1).await, ["Dave-ALICE", "bob-Carol"], "{label}");
        assert_eq!(reached(3).await, ["Carol-Alice"], "{label}");
        // Counts add up over imports.
        let more = record("g6", ["Eve", "Frank"], Outcome::Win(Player::P1), 60, &["A"], &[1]);
        store.import_games(&[more]).await.unwrap();
        assert_eq!(store.explore(1).await.unwrap()[0], mv("A", 3, 2, 1, 0), "{label}");
        assert_eq!(reached(1).await, ["Eve-Frank", "Dave-ALICE"], "{label}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_played_here_is_archived_once_when_it_ends() {
    for db in databases().await {
        let label = db.label;
        let store = open(&db).await;
        let new = ply_store::testing::hot_seat_boop();
        let live = store.create_game(&new).await.unwrap();
        let ended = store.create_game(&new).await.unwrap();
        assert!(store.unarchived_games(10).await.unwrap().is_empty(), "{label}: live games wait");
        store.record(&ended.id, &ply_store::testing::resignation(1, Player::P2)).await.unwrap();
        assert_eq!(
            store.unarchived_games(10).await.unwrap(),
            std::slice::from_ref(&ended.id),
            "{label}"
        );
        let mut entry = record(&ended.id, ["P1", "P2"], Outcome::Win(Player::P2), 0, &[], &[]);
        entry.source = "ply".into();
        assert!(store.archive_played(&ended.id, &entry).await.unwrap(), "{label}");
        assert!(!store.archive_played(&ended.id, &entry).await.unwrap(), "{label}: once");
        assert!(store.unarchived_games(10).await.unwrap().is_empty(), "{label}");
        assert_eq!(store.archived(&ended.id).await.unwrap().map(|r| r.source), Some("ply".into()));
        assert_eq!(store.archived(&live.id).await.unwrap(), None, "{label}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn archiving_beside_another_writer_waits_for_the_lock_and_never_fails() {
    // Two processes on one SQLite file (a second node, or a command run beside the server).
    // Archiving reads whether the game is archived, then writes. Here another connection holds
    // the write lock while archiving starts and commits a little later. A transaction begun
    // as a plain read takes its snapshot and is then refused its write at once, without the
    // busy timeout: "database is locked" (code 5 here, code 517 when the other connection had
    // committed meanwhile; both were seen before `begin_write`, this test failing 3 runs of
    // 3). Begun as a write it waits for the lock and goes on.
    let db = ply_store::testing::sqlite();
    let store = open(&db).await;
    let g = store.create_game(&ply_store::testing::hot_seat_boop()).await.unwrap();
    store.record(&g.id, &ply_store::testing::resignation(1, Player::P2)).await.unwrap();
    sqlx::any::install_default_drivers();
    let other = sqlx::AnyPool::connect(&db.url).await.unwrap();
    let mut holder = other.acquire().await.unwrap();
    sqlx::raw_sql("BEGIN IMMEDIATE").execute(&mut *holder).await.unwrap();
    sqlx::query("UPDATE games SET updated_ms = updated_ms + 1 WHERE id = $1")
        .bind(&g.id)
        .execute(&mut *holder)
        .await
        .unwrap();
    let archiving = {
        let (store, id) = (store.clone(), g.id.clone());
        tokio::spawn(async move {
            let mut entry = record(&id, ["P1", "P2"], Outcome::Win(Player::P2), 0, &[], &[]);
            entry.source = "ply".into();
            store.archive_played(&id, &entry).await
        })
    };
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    sqlx::raw_sql("COMMIT").execute(&mut *holder).await.unwrap();
    let archived = archiving.await.unwrap();
    assert!(matches!(archived, Ok(true)), "{archived:?}");
    assert!(store.unarchived_games(10).await.unwrap().is_empty());
}
