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
