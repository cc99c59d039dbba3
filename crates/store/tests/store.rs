//! The store's promises, on every database it speaks: SQLite (a file, where uncommitted rows
//! are not read back as saved) and PostgreSQL when `PLY_TEST_POSTGRES_URL` names a server
//! (`scripts/postgres`; `scripts/test-all` starts one, so CI runs both).

use ply_core::{Outcome, Player};
use ply_store::testing::{TestDb, databases, sqlite};
use ply_store::{Backend, Change, EVENTS_KEPT, EndReason, Ended, Mode, NewGame, Store, StoreError};

fn add(version: i64, ply: i64, notation: &str) -> Change<'_> {
    Change { version, add: Some((ply, notation)), body: "{}", ..Change::default() }
}

fn new_game(mode: Mode) -> NewGame {
    NewGame {
        game: "boop".into(),
        variant: "boop".into(),
        mode,
        level: (mode == Mode::Computer).then_some(3),
        computer_seat: (mode == Mode::Computer).then_some(Player::P2),
        creator_seat: Some(Player::P1),
        players: [None, None],
        rated: false,
        clock: None,
    }
}

async fn open(db: &TestDb) -> Store {
    Store::open(Some(&db.url)).await.unwrap_or_else(|e| panic!("{}: {e}", db.label))
}

/// SQL run beside the store, to damage a game as a bug or a hand would.
async fn raw(db: &TestDb, sql: &str, id: &str) {
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(&db.url).await.unwrap();
    sqlx::query(sqlx::AssertSqlSafe(sql.to_string())).bind(id).execute(&pool).await.unwrap();
    pool.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_moves_and_events_round_trip() {
    for db in databases().await {
        let store = open(&db).await;
        let g = store.create_game(&new_game(Mode::Invite)).await.unwrap();
        assert_eq!(g.version, 0);
        assert!(g.live());
        assert_ne!(g.tokens[0], g.tokens[1]);
        assert_eq!(g.creator_seat, Some(Player::P1));
        store.record(&g.id, &add(1, 0, "Kc3")).await.unwrap();
        store.record(&g.id, &add(2, 1, "Kd4")).await.unwrap();
        assert_eq!(store.moves(&g.id).await.unwrap(), ["Kc3", "Kd4"]);
        // A stale writer and a taken ply are both refused, and change nothing.
        let stale = store.record(&g.id, &add(2, 2, "Ke5")).await;
        assert!(matches!(stale, Err(StoreError::Conflict)), "{}", db.label);
        let taken = store.record(&g.id, &add(3, 1, "Ke5")).await;
        assert!(matches!(taken, Err(StoreError::Conflict)), "{}", db.label);
        assert_eq!(store.game(&g.id).await.unwrap().version, 2);
        assert_eq!(store.moves(&g.id).await.unwrap(), ["Kc3", "Kd4"]);
        let undo = Change { version: 3, remove_from: Some(1), body: "{}", ..Change::default() };
        store.record(&g.id, &undo).await.unwrap();
        assert_eq!(store.moves(&g.id).await.unwrap(), ["Kc3"]);
        assert_eq!(store.game(&g.id).await.unwrap().draw_offer, None);
        // An offer is kept with the change that makes it, and cleared by the next one.
        let offer =
            Change { version: 4, body: "{}", draw_offer: Some(Player::P1), ..Change::default() };
        store.record(&g.id, &offer).await.unwrap();
        assert_eq!(store.game(&g.id).await.unwrap().draw_offer, Some(Player::P1));
        let finish = Ended { outcome: Outcome::Win(Player::P2), reason: EndReason::Resigned };
        store
            .record(&g.id, &Change { version: 5, finish: Some(finish), ..Change::default() })
            .await
            .unwrap();
        let g = store.game(&g.id).await.unwrap();
        assert!(!g.live());
        assert_eq!(g.ended, Some(finish));
        assert_eq!(g.draw_offer, None);
        assert_eq!(g.undos, 1);
        let events = store.events_since(&g.id, 2, 100).await.unwrap();
        assert_eq!(events.iter().map(|e| e.0).collect::<Vec<_>>(), [3, 4, 5]);
        assert_eq!(store.events_since(&g.id, 0, 2).await.unwrap().len(), 2);
        let list = store.list_games(10).await.unwrap();
        assert_eq!(list.len(), 1);
        assert_eq!(list[0].plies, 1);
        assert!(matches!(store.game("nope").await, Err(StoreError::NotFound(_))));
        assert_eq!(store.write_health().await, Ok(()));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn changes_written_together_are_checked_one_by_one() {
    for db in databases().await {
        let store = open(&db).await;
        let mut games = Vec::new();
        for _ in 0..40 {
            games.push(store.create_game(&new_game(Mode::HotSeat)).await.unwrap().id);
        }
        // Many games at once (they land in shared transactions), with two bad changes among
        // them: a stale version whose ply is free, and a ply that is taken.
        store.record(&games[1], &add(1, 0, "Kc3")).await.unwrap();
        let mut tasks = Vec::new();
        for (i, id) in games.iter().enumerate() {
            let (store, id) = (store.clone(), id.clone());
            tasks.push(tokio::spawn(async move {
                let result = match i {
                    0 => store.record(&id, &add(5, 0, "Ka1")).await,
                    1 => store.record(&id, &add(2, 0, "Kd4")).await,
                    _ => store.record(&id, &add(1, 0, "Kf6")).await,
                };
                (i, result)
            }));
        }
        for t in tasks {
            let (i, result) = t.await.unwrap();
            match i {
                0 | 1 => assert!(matches!(result, Err(StoreError::Conflict)), "{i}: {result:?}"),
                _ => result.unwrap(),
            }
        }
        // The stale change left no move behind; the others are all there.
        let (row, moves) = store.load(&games[0]).await.unwrap();
        assert_eq!((row.version, moves.len()), (0, 0), "{}", db.label);
        let (row, moves) = store.load(&games[1]).await.unwrap();
        assert_eq!((row.version, moves), (1, vec!["Kc3".to_string()]));
        for id in &games[2..] {
            let (row, moves) = store.load(id).await.unwrap();
            assert_eq!((row.version, moves), (1, vec!["Kf6".to_string()]));
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_stores_on_one_database_race_and_exactly_one_wins() {
    // Two server nodes are two stores on one database; on SQLite, two processes on one file.
    for db in databases().await {
        let a = open(&db).await;
        let b = open(&db).await;
        let g = a.create_game(&new_game(Mode::HotSeat)).await.unwrap();
        for round in 0..20 {
            let v = round + 1;
            let (ca, cb) = (add(v, round, "Kc3"), add(v, round, "Kd4"));
            let (ra, rb) = tokio::join!(a.record(&g.id, &ca), b.record(&g.id, &cb));
            let won = [ra.is_ok(), rb.is_ok()];
            assert_eq!(
                won.iter().filter(|w| **w).count(),
                1,
                "{} round {round}: {ra:?} {rb:?}",
                db.label
            );
            for r in [ra, rb] {
                assert!(matches!(r, Ok(()) | Err(StoreError::Conflict)), "{r:?}");
            }
        }
        let (row, moves) = b.load(&g.id).await.unwrap();
        assert_eq!((row.version, moves.len()), (20, 20));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_event_log_of_a_game_stays_short_and_undos_are_counted() {
    for db in databases().await {
        let store = open(&db).await;
        let g = store.create_game(&new_game(Mode::HotSeat)).await.unwrap();
        // A move/undo loop of 500 changes.
        for v in 1..=500 {
            let change = if v % 2 == 1 {
                add(v, 0, "Kc3")
            } else {
                Change { version: v, remove_from: Some(0), body: "{}", ..Change::default() }
            };
            store.record(&g.id, &change).await.unwrap();
        }
        let events = store.events_since(&g.id, 0, 10_000).await.unwrap();
        assert!(events.len() as i64 >= EVENTS_KEPT && (events.len() as i64) < 2 * EVENTS_KEPT);
        assert_eq!(events.last().unwrap().0, 500);
        let (row, moves) = store.load(&g.id).await.unwrap();
        assert_eq!((row.version, row.undos, moves.len()), (500, 250, 0), "{}", db.label);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hot_seat_shares_one_token_and_computer_games_keep_their_seat() {
    for db in databases().await {
        let store = open(&db).await;
        let g = store.create_game(&new_game(Mode::HotSeat)).await.unwrap();
        assert_eq!(g.tokens[0], g.tokens[1]);
        let c = store.create_game(&new_game(Mode::Computer)).await.unwrap();
        assert_eq!((c.mode, c.level, c.computer_seat), (Mode::Computer, Some(3), Some(Player::P2)));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unknown_stored_values_are_reported_not_replaced() {
    for db in databases().await {
        let store = open(&db).await;
        let g = store.create_game(&new_game(Mode::Invite)).await.unwrap();
        for (column, value, says, good) in [
            ("mode", "'tournament'", "unknown mode 'tournament'", "'invite'"),
            ("winner", "'P3'", "status 'live' with winner", "NULL"),
            ("draw_offer", "'P7'", "draw offer by 'P7'", "NULL"),
            ("computer_seat", "5", "computer_seat is 5", "NULL"),
        ] {
            raw(&db, &format!("UPDATE games SET {column} = {value} WHERE id = $1"), &g.id).await;
            match store.game(&g.id).await {
                Err(StoreError::Corrupt { game, detail }) => {
                    assert_eq!(game, g.id);
                    assert!(detail.contains(says), "{}: {column}: {detail}", db.label);
                }
                other => panic!("{}: {column}: {other:?}", db.label),
            }
            raw(&db, &format!("UPDATE games SET {column} = {good} WHERE id = $1"), &g.id).await;
        }
        // A gap in the stored turns is damage too, not a shorter game.
        store.record(&g.id, &add(1, 0, "Kc3")).await.unwrap();
        raw(&db, "UPDATE moves SET ply = 4 WHERE game_id = $1", &g.id).await;
        assert!(matches!(store.load(&g.id).await, Err(StoreError::Corrupt { .. })), "{}", db.label);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_survives_reopening() {
    for db in databases().await {
        let store = open(&db).await;
        let expected = if db.label == "postgres" { Backend::Postgres } else { Backend::Sqlite };
        assert_eq!(store.backend(), expected);
        let g = store.create_game(&new_game(Mode::Computer)).await.unwrap();
        store.record(&g.id, &add(1, 0, "Kc3")).await.unwrap();
        drop(store);
        let store = open(&db).await;
        assert_eq!(store.moves(&g.id).await.unwrap(), ["Kc3"]);
        assert_eq!(store.live_game_ids().await.unwrap(), [g.id]);
    }
}

#[tokio::test]
async fn a_sqlite_file_is_private_and_a_plain_path_works() {
    let db = sqlite();
    let store = open(&db).await;
    drop(store);
    let path = db.url.strip_prefix("sqlite://").unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(path).unwrap().permissions();
        assert_eq!(mode.mode() & 0o077, 0, "the seat tokens are readable by others");
    }
    let plain = std::path::Path::new(path).with_file_name("plain.sqlite");
    Store::open(Some(plain.to_str().unwrap())).await.unwrap();
    assert!(plain.exists());
    // Names with characters that mean something in a URL.
    let odd = std::path::Path::new(path).with_file_name("a b?c#d%e.sqlite");
    Store::open(Some(odd.to_str().unwrap())).await.unwrap();
    assert!(odd.exists());
}

#[tokio::test]
async fn urls_that_cannot_work_are_refused_at_open() {
    assert!(matches!(Store::open(Some("mysql://x/y")).await, Err(StoreError::Unsupported(_))));
    assert!(matches!(Store::open(Some("sqlite://")).await, Err(StoreError::NoFile(_))));
    assert!(matches!(Store::open(Some("")).await, Err(StoreError::NoFile(_))));
}

#[tokio::test]
async fn a_read_only_database_refuses_to_open() {
    let db = sqlite();
    drop(open(&db).await);
    // Opened read-only, the file cannot take a move: the server must not start on it.
    match Store::open(Some(&format!("{}?mode=ro", db.url))).await {
        Err(StoreError::NotWritable { path, .. }) => {
            assert!(path.ends_with("ply.sqlite"), "{path}")
        }
        other => panic!("{other:?}"),
    }
    // The same for a file the user may not write (root may write anything: not there).
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let path = db.url.strip_prefix("sqlite://").unwrap();
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o400)).unwrap();
        if std::fs::OpenOptions::new().write(true).open(path).is_err() {
            assert!(matches!(
                Store::open(Some(&db.url)).await,
                Err(StoreError::NotWritable { .. } | StoreError::Database(_))
            ));
        }
    }
}
