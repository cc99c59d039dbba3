//! Persistence of ply games: each game with its two seats (secret tokens), its moves and its
//! versioned event log, in SQLite through sqlx.
//!
//! Every statement uses `$N` placeholders so the same SQL runs on PostgreSQL; migrations run
//! when the store opens. A move lands only if its `(game_id, ply)` is free and the game is at
//! the version the writer saw, so two racing moves can never both be stored.

use std::borrow::Cow;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use sqlx::migrate::{Migration, MigrationType, Migrator};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::{Row, SqlSafeStr, SqlitePool};
use thiserror::Error;

/// What can go wrong in the store.
#[derive(Debug, Error)]
pub enum StoreError {
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
    #[error("database migration: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    #[error("cannot create the database folder {path}: {source}")]
    Folder { path: PathBuf, source: std::io::Error },
    /// Another write got there first (the game moved on, or the ply is taken).
    #[error("the game changed meanwhile; reload it")]
    Conflict,
    #[error("no game {0}")]
    NotFound(String),
    #[error(
        "unsupported database URL '{0}' (this build speaks SQLite: sqlite://FILE or sqlite::memory:)"
    )]
    Unsupported(String),
}

pub type Result<T, E = StoreError> = std::result::Result<T, E>;

/// How a game is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// One person against the computer.
    Computer,
    /// Two people at one screen.
    HotSeat,
    /// Two people, the second joining by an invite link.
    Invite,
}

impl Mode {
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Computer => "computer",
            Mode::HotSeat => "hotseat",
            Mode::Invite => "invite",
        }
    }

    #[must_use]
    pub fn parse(text: &str) -> Option<Mode> {
        match text {
            "computer" => Some(Mode::Computer),
            "hotseat" => Some(Mode::HotSeat),
            "invite" => Some(Mode::Invite),
            _ => None,
        }
    }
}

/// A stored game without its moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    pub id: String,
    pub game: String,
    pub variant: String,
    pub mode: Mode,
    /// Computer level 1–10 (computer games only).
    pub level: Option<u8>,
    /// The seat the computer plays, 0 for P1 and 1 for P2 (computer games only).
    pub computer_seat: Option<u8>,
    /// The seat of the person who created the game (0 or 1), when known.
    pub creator_seat: Option<u8>,
    /// The secret tokens of the seats P1 and P2 (equal in hot-seat games).
    pub tokens: [String; 2],
    /// `false` once the game has a result.
    pub live: bool,
    /// `"P1"`, `"P2"` or `"draw"` once finished.
    pub winner: Option<String>,
    /// `"rules"` or `"resigned"` once finished.
    pub reason: Option<String>,
    /// `"P1"` or `"P2"`: the seat with a pending offer of a draw.
    pub draw_offer: Option<String>,
    pub version: i64,
    pub created_ms: i64,
    pub updated_ms: i64,
    /// Turns played (in lists only; 0 from [`Store::game`]).
    pub plies: i64,
}

/// What a new game needs.
#[derive(Clone, Debug)]
pub struct NewGame {
    pub game: String,
    pub variant: String,
    pub mode: Mode,
    pub level: Option<u8>,
    pub computer_seat: Option<u8>,
    pub creator_seat: Option<u8>,
}

/// The final state a write leaves the game in.
#[derive(Clone, Debug, Default)]
pub struct Finish {
    pub winner: Option<String>,
    pub reason: Option<String>,
}

/// One change of a game, written atomically by [`Store::record`].
#[derive(Clone, Debug, Default)]
pub struct Change<'a> {
    /// The game's version after the change: it must be at `version - 1` before.
    pub version: i64,
    /// Deletes the moves from this ply on (undo).
    pub remove_from: Option<i64>,
    /// A move stored at its ply.
    pub add: Option<(i64, &'a str)>,
    /// The event, stored under `version`.
    pub body: &'a str,
    /// Ends the game.
    pub finish: Option<&'a Finish>,
    /// The seat with a pending draw offer after the change (`None`: no offer).
    pub draw_offer: Option<&'a str>,
}

/// The games database.
#[derive(Clone, Debug)]
pub struct Store {
    /// Readers.
    pool: SqlitePool,
    /// The one writer: SQLite takes one write at a time, and a single connection queues
    /// writes in order instead of letting them collide and back off (busy waits).
    writer: SqlitePool,
}

/// Milliseconds since the Unix epoch.
#[must_use]
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// A random URL-safe secret of `bytes` random bytes, hex encoded.
///
/// # Panics
/// If the operating system has no randomness to give.
#[must_use]
pub fn random_hex(bytes: usize) -> String {
    let mut buf = vec![0u8; bytes];
    getrandom::fill(&mut buf).expect("the operating system's random source");
    buf.iter().map(|b| format!("{b:02x}")).collect()
}

/// The default database file: `$XDG_DATA_HOME/ply/ply.sqlite`, else
/// `~/.local/share/ply/ply.sqlite`, else `./ply.sqlite`.
#[must_use]
pub fn default_database_path() -> PathBuf {
    let base = std::env::var_os("XDG_DATA_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME")
                .filter(|v| !v.is_empty())
                .map(|h| PathBuf::from(h).join(".local").join("share"))
        });
    match base {
        Some(dir) => dir.join("ply").join("ply.sqlite"),
        None => PathBuf::from("ply.sqlite"),
    }
}

fn migrator() -> Migrator {
    Migrator::with_migrations(vec![
        Migration::new(
            1,
            Cow::Borrowed("games"),
            MigrationType::Simple,
            include_str!("../migrations/sqlite/0001_games.sql").into_sql_str(),
            false,
        ),
        Migration::new(
            2,
            Cow::Borrowed("creator seat"),
            MigrationType::Simple,
            include_str!("../migrations/sqlite/0002_creator_seat.sql").into_sql_str(),
            false,
        ),
        Migration::new(
            3,
            Cow::Borrowed("draw offer"),
            MigrationType::Simple,
            include_str!("../migrations/sqlite/0003_draw_offer.sql").into_sql_str(),
            false,
        ),
    ])
}

fn game_from_row(row: &sqlx::sqlite::SqliteRow) -> Result<GameRow> {
    let mode: String = row.try_get("mode")?;
    let level: Option<i64> = row.try_get("level")?;
    let seat: Option<i64> = row.try_get("computer_seat")?;
    let creator: Option<i64> = row.try_get("creator_seat")?;
    let status: String = row.try_get("status")?;
    Ok(GameRow {
        id: row.try_get("id")?,
        game: row.try_get("game")?,
        variant: row.try_get("variant")?,
        mode: Mode::parse(&mode).unwrap_or(Mode::HotSeat),
        level: level.and_then(|l| u8::try_from(l).ok()),
        computer_seat: seat.and_then(|s| u8::try_from(s).ok()),
        creator_seat: creator.and_then(|s| u8::try_from(s).ok()),
        tokens: [row.try_get("token_p1")?, row.try_get("token_p2")?],
        live: status == "live",
        winner: row.try_get("winner")?,
        reason: row.try_get("reason")?,
        draw_offer: row.try_get("draw_offer")?,
        version: row.try_get("version")?,
        created_ms: row.try_get("created_ms")?,
        updated_ms: row.try_get("updated_ms")?,
        plies: row.try_get::<Option<i64>, _>("plies").ok().flatten().unwrap_or(0),
    })
}

const GAME_COLUMNS: &str = "id, game, variant, mode, level, computer_seat, creator_seat, \
                            token_p1, token_p2, \
                            status, winner, reason, draw_offer, version, created_ms, updated_ms";

impl Store {
    /// Opens (creating if missing) the database at `url`, or the default file when `None`,
    /// and runs the migrations. `url` is `sqlite://PATH`, `sqlite:PATH`, `sqlite::memory:`
    /// or a plain file path.
    ///
    /// # Errors
    /// When the folder or file cannot be created, the URL is not SQLite, or a migration fails.
    pub async fn open(url: Option<&str>) -> Result<Store> {
        let (options, memory) = match url {
            None => (SqliteConnectOptions::new().filename(Self::prepare_path(None)?), false),
            Some(u) if u.starts_with("sqlite::memory:") || u == "sqlite://:memory:" => {
                (SqliteConnectOptions::from_str("sqlite::memory:")?, true)
            }
            Some(u) if u.starts_with("sqlite:") => {
                let options = SqliteConnectOptions::from_str(u)?;
                let path = options.get_filename().to_path_buf();
                Self::prepare_path(Some(&path))?;
                (options, false)
            }
            Some(u) if u.contains("://") => return Err(StoreError::Unsupported(u.to_string())),
            Some(path) => (
                SqliteConnectOptions::new().filename(Self::prepare_path(Some(Path::new(path)))?),
                false,
            ),
        };
        let options = options
            .create_if_missing(true)
            .foreign_keys(true)
            .busy_timeout(Duration::from_secs(10));
        let options = if memory {
            options
        } else {
            // WAL with NORMAL sync: a commit survives the process dying; only a power cut
            // may lose the last moments (the usual setting for WAL).
            options.journal_mode(SqliteJournalMode::Wal).synchronous(SqliteSynchronous::Normal)
        };
        let writer = SqlitePoolOptions::new()
            .max_connections(1)
            .min_connections(1)
            .idle_timeout(None)
            .max_lifetime(None)
            .connect_with(options.clone())
            .await?;
        migrator().run(&writer).await?;
        // Every connection to `:memory:` would be a database of its own: share the writer.
        let pool = if memory {
            writer.clone()
        } else {
            SqlitePoolOptions::new()
                .max_connections(4)
                .idle_timeout(Some(Duration::from_secs(600)))
                .connect_with(options)
                .await?
        };
        Ok(Store { pool, writer })
    }

    fn prepare_path(path: Option<&Path>) -> Result<PathBuf> {
        let path = path.map_or_else(default_database_path, Path::to_path_buf);
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .map_err(|source| StoreError::Folder { path: dir.to_path_buf(), source })?;
        }
        Ok(path)
    }

    /// Stores a new game at version 0 with fresh seat tokens (one shared token in hot-seat
    /// games, where one person holds both seats).
    ///
    /// # Errors
    /// Database errors.
    pub async fn create_game(&self, new: &NewGame) -> Result<GameRow> {
        let id = random_hex(6);
        let t1 = random_hex(16);
        let t2 = if new.mode == Mode::HotSeat { t1.clone() } else { random_hex(16) };
        let now = now_ms();
        sqlx::query(
            "INSERT INTO games (id, game, variant, mode, level, computer_seat, token_p1, \
             token_p2, status, winner, reason, version, created_ms, updated_ms, creator_seat) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'live', NULL, NULL, 0, $9, $9, $10)",
        )
        .bind(&id)
        .bind(&new.game)
        .bind(&new.variant)
        .bind(new.mode.as_str())
        .bind(new.level.map(i64::from))
        .bind(new.computer_seat.map(i64::from))
        .bind(&t1)
        .bind(&t2)
        .bind(now)
        .bind(new.creator_seat.map(i64::from))
        .execute(&self.writer)
        .await?;
        self.game(&id).await
    }

    /// The game `id`.
    ///
    /// # Errors
    /// [`StoreError::NotFound`] or database errors.
    pub async fn game(&self, id: &str) -> Result<GameRow> {
        let sql = format!("SELECT {GAME_COLUMNS} FROM games WHERE id = $1");
        let row = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(id)
            .fetch_optional(&self.pool)
            .await?
            .ok_or_else(|| StoreError::NotFound(id.to_string()))?;
        game_from_row(&row)
    }

    /// The moves of game `id` in order, as stored notation.
    ///
    /// # Errors
    /// Database errors.
    pub async fn moves(&self, id: &str) -> Result<Vec<String>> {
        let rows = sqlx::query("SELECT notation FROM moves WHERE game_id = $1 ORDER BY ply")
            .bind(id)
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(|r| r.try_get("notation").map_err(StoreError::from)).collect()
    }

    /// The most recently updated games, live ones first, at most `limit`.
    ///
    /// # Errors
    /// Database errors.
    pub async fn list_games(&self, limit: i64) -> Result<Vec<GameRow>> {
        let sql = format!(
            "SELECT {GAME_COLUMNS}, (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id) AS plies \
             FROM games g ORDER BY CASE status WHEN 'live' THEN 0 ELSE 1 END, updated_ms DESC \
             LIMIT $1"
        );
        let rows = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(limit).fetch_all(&self.pool).await?;
        rows.iter().map(game_from_row).collect()
    }

    /// The ids of every live game.
    ///
    /// # Errors
    /// Database errors.
    pub async fn live_game_ids(&self) -> Result<Vec<String>> {
        let rows =
            sqlx::query("SELECT id FROM games WHERE status = 'live'").fetch_all(&self.pool).await?;
        rows.iter().map(|r| r.try_get("id").map_err(StoreError::from)).collect()
    }

    /// The events of game `id` after `version`, in order, as `(version, JSON text)`.
    ///
    /// # Errors
    /// Database errors.
    pub async fn events_since(&self, id: &str, version: i64) -> Result<Vec<(i64, String)>> {
        let rows = sqlx::query(
            "SELECT version, body FROM events WHERE game_id = $1 AND version > $2 ORDER BY version",
        )
        .bind(id)
        .bind(version)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|r| Ok((r.try_get("version")?, r.try_get("body")?))).collect()
    }

    /// Records one change of game `id` atomically (see [`Change`]).
    ///
    /// # Errors
    /// [`StoreError::Conflict`] when the game is not at `change.version - 1` or the ply is
    /// taken; database errors.
    pub async fn record(&self, id: &str, change: &Change<'_>) -> Result<()> {
        let Change { version, remove_from, add, body, finish, draw_offer } = *change;
        let now = now_ms();
        let mut tx = self.writer.begin().await?;
        let updated = sqlx::query(
            "UPDATE games SET version = $1, updated_ms = $2, draw_offer = $3 \
             WHERE id = $4 AND version = $5",
        )
        .bind(version)
        .bind(now)
        .bind(draw_offer)
        .bind(id)
        .bind(version - 1)
        .execute(&mut *tx)
        .await?;
        if updated.rows_affected() != 1 {
            return Err(StoreError::Conflict);
        }
        if let Some(from) = remove_from {
            sqlx::query("DELETE FROM moves WHERE game_id = $1 AND ply >= $2")
                .bind(id)
                .bind(from)
                .execute(&mut *tx)
                .await?;
        }
        if let Some((ply, notation)) = add {
            let inserted = sqlx::query(
                "INSERT INTO moves (game_id, ply, notation, created_ms) VALUES ($1, $2, $3, $4)",
            )
            .bind(id)
            .bind(ply)
            .bind(notation)
            .bind(now)
            .execute(&mut *tx)
            .await;
            match inserted {
                Err(sqlx::Error::Database(e)) if e.is_unique_violation() => {
                    return Err(StoreError::Conflict);
                }
                other => {
                    other?;
                }
            }
        }
        sqlx::query("INSERT INTO events (game_id, version, body) VALUES ($1, $2, $3)")
            .bind(id)
            .bind(version)
            .bind(body)
            .execute(&mut *tx)
            .await?;
        if let Some(finish) = finish {
            sqlx::query(
                "UPDATE games SET status = 'finished', winner = $1, reason = $2 WHERE id = $3",
            )
            .bind(finish.winner.as_deref())
            .bind(finish.reason.as_deref())
            .bind(id)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn add(version: i64, ply: i64, notation: &str) -> Change<'_> {
        Change { version, add: Some((ply, notation)), body: "{}", ..Change::default() }
    }

    fn new_game(mode: Mode) -> NewGame {
        NewGame {
            game: "boop".into(),
            variant: "boop".into(),
            mode,
            level: None,
            computer_seat: None,
            creator_seat: Some(0),
        }
    }

    #[tokio::test]
    async fn games_moves_and_events_round_trip() {
        let store = Store::open(Some("sqlite::memory:")).await.unwrap();
        let g = store.create_game(&new_game(Mode::Invite)).await.unwrap();
        assert_eq!(g.version, 0);
        assert!(g.live);
        assert_ne!(g.tokens[0], g.tokens[1]);
        store.record(&g.id, &add(1, 0, "Kc3")).await.unwrap();
        store.record(&g.id, &add(2, 1, "Kd4")).await.unwrap();
        assert_eq!(store.moves(&g.id).await.unwrap(), ["Kc3", "Kd4"]);
        // A stale writer and a taken ply are both refused.
        let stale = store.record(&g.id, &add(2, 2, "Ke5")).await;
        assert!(matches!(stale, Err(StoreError::Conflict)));
        let taken = store.record(&g.id, &add(3, 1, "Ke5")).await;
        assert!(matches!(taken, Err(StoreError::Conflict)));
        store
            .record(
                &g.id,
                &Change { version: 3, remove_from: Some(1), body: "{}", ..Change::default() },
            )
            .await
            .unwrap();
        assert_eq!(store.moves(&g.id).await.unwrap(), ["Kc3"]);
        assert_eq!(store.game(&g.id).await.unwrap().draw_offer, None);
        // An offer is kept with the change that makes it, and cleared by the next one.
        store
            .record(
                &g.id,
                &Change { version: 4, body: "{}", draw_offer: Some("P1"), ..Change::default() },
            )
            .await
            .unwrap();
        assert_eq!(store.game(&g.id).await.unwrap().draw_offer.as_deref(), Some("P1"));
        let finish = Finish { winner: Some("P2".into()), reason: Some("resigned".into()) };
        store
            .record(&g.id, &Change { version: 5, finish: Some(&finish), ..Change::default() })
            .await
            .unwrap();
        let g = store.game(&g.id).await.unwrap();
        assert!(!g.live);
        assert_eq!(g.winner.as_deref(), Some("P2"));
        assert_eq!(g.draw_offer, None);
        let events = store.events_since(&g.id, 2).await.unwrap();
        assert_eq!(events.iter().map(|e| e.0).collect::<Vec<_>>(), [3, 4, 5]);
        let list = store.list_games(10).await.unwrap();
        assert_eq!(list.len(), 1);
        assert_eq!(list[0].plies, 1);
        assert!(matches!(store.game("nope").await, Err(StoreError::NotFound(_))));
    }

    #[tokio::test]
    async fn hot_seat_shares_one_token() {
        let store = Store::open(Some("sqlite::memory:")).await.unwrap();
        let g = store.create_game(&new_game(Mode::HotSeat)).await.unwrap();
        assert_eq!(g.tokens[0], g.tokens[1]);
    }

    #[tokio::test]
    async fn a_file_database_survives_reopening() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub").join("ply.sqlite");
        let url = format!("sqlite://{}", path.display());
        let id = {
            let store = Store::open(Some(&url)).await.unwrap();
            let g = store.create_game(&new_game(Mode::Computer)).await.unwrap();
            store.record(&g.id, &add(1, 0, "Kc3")).await.unwrap();
            g.id
        };
        let store = Store::open(Some(&url)).await.unwrap();
        assert_eq!(store.moves(&id).await.unwrap(), ["Kc3"]);
        assert_eq!(store.live_game_ids().await.unwrap(), [id]);
        // A plain path works too.
        let plain = dir.path().join("plain.sqlite");
        Store::open(Some(plain.to_str().unwrap())).await.unwrap();
        assert!(plain.exists());
        assert!(matches!(
            Store::open(Some("postgres://x/y")).await,
            Err(StoreError::Unsupported(_))
        ));
    }
}
