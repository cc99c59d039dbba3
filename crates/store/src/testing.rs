//! Test support (feature `test-support`): fresh databases to run a test on, a SQLite file and,
//! when `PLY_TEST_POSTGRES_URL` names a PostgreSQL server (`scripts/postgres` starts one;
//! `scripts/test-all` does, so CI runs every such test on both), a new PostgreSQL database.

use sqlx::Connection as _;

/// A database a test may use and throw away.
#[derive(Debug)]
pub struct TestDb {
    /// `"sqlite"` or `"postgres"`, for messages.
    pub label: &'static str,
    /// The URL to open it with.
    pub url: String,
    /// The folder of a SQLite file, removed with this value.
    _dir: Option<tempfile::TempDir>,
}

/// A new SQLite file in a new temporary folder.
///
/// # Panics
/// When no temporary folder can be made.
#[must_use]
pub fn sqlite() -> TestDb {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let url = format!("sqlite://{}", dir.path().join("ply.sqlite").display());
    TestDb { label: "sqlite", url, _dir: Some(dir) }
}

/// A new, empty PostgreSQL database on the server `PLY_TEST_POSTGRES_URL` names, or `None`
/// when it names none.
///
/// # Panics
/// When the variable is set but the server cannot be reached or refuses.
pub async fn postgres() -> Option<TestDb> {
    let base = std::env::var("PLY_TEST_POSTGRES_URL").ok().filter(|u| !u.is_empty())?;
    let mut admin = sqlx::PgConnection::connect(&base)
        .await
        .unwrap_or_else(|e| panic!("PLY_TEST_POSTGRES_URL={base}: {e}"));
    let name = format!("ply_test_{}", crate::random_hex(8));
    sqlx::raw_sql(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
        .execute(&mut admin)
        .await
        .unwrap_or_else(|e| panic!("creating database {name}: {e}"));
    let (head, query) = base.split_once('?').map_or((base.as_str(), None), |(h, q)| (h, Some(q)));
    let prefix = head.rsplit_once('/').map_or(head, |(p, _)| p);
    let url = match query {
        Some(q) => format!("{prefix}/{name}?{q}"),
        None => format!("{prefix}/{name}"),
    };
    Some(TestDb { label: "postgres", url, _dir: None })
}

/// Every database kind a store test runs on: SQLite, and PostgreSQL when configured (say so
/// when it is not, so a run that skipped it is visible).
pub async fn databases() -> Vec<TestDb> {
    let mut out = vec![sqlite()];
    match postgres().await {
        Some(db) => out.push(db),
        None => eprintln!("PLY_TEST_POSTGRES_URL is not set: this test ran on SQLite only"),
    }
    out
}

/// A new hot-seat boop. game with nobody named in its seats, as tests create them.
#[must_use]
pub fn hot_seat_boop() -> crate::NewGame {
    crate::NewGame {
        game: "boop".into(),
        variant: "boop".into(),
        mode: crate::Mode::HotSeat,
        level: None,
        computer_seat: None,
        creator_seat: Some(ply_core::Player::P1),
        players: [None, None],
        rated: false,
        clock: None,
    }
}

/// The change that ends a game at `version` with `winner` winning by resignation.
#[must_use]
pub fn resignation(version: i64, winner: ply_core::Player) -> crate::Change<'static> {
    crate::Change {
        version,
        body: "{}",
        finish: Some(crate::Ended {
            outcome: ply_core::Outcome::Win(winner),
            reason: crate::EndReason::Resigned,
        }),
        ..crate::Change::default()
    }
}
