//! Persistence of ply games: each game with its two seats (secret tokens), its moves and its
//! versioned event log, in SQLite through sqlx.
//!
//! Every statement uses `$N` placeholders so the same SQL runs on PostgreSQL; migrations run
//! when the store opens. A move lands only if its `(game_id, ply)` is free and the game is at
//! the version the writer saw, so two racing moves can never both be stored.
//!
//! A write either commits or leaves nothing behind: when any statement of a change, or its
//! commit, fails, the connection it ran on is closed rather than handed back to the pool
//! (SQLite may already have rolled the transaction back on its own, and a connection that
//! believes it is still inside a transaction would turn every later write into a savepoint
//! that never commits). The next write opens a fresh connection, so the store recovers by
//! itself as soon as the disk can take writes again; until then every write fails with an
//! error the caller can report. [`Store::write_health`] tells whether the store can write.

use std::borrow::Cow;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use ply_core::{Outcome, Player};
use ply_protocol::{ClockControl, ClockWire, ModeView, ReasonView};
use sqlx::any::{AnyPoolOptions, AnyRow};
use sqlx::migrate::{Migration, MigrationType, Migrator};
use sqlx::pool::PoolConnection;
use sqlx::{Any, AnyPool, Connection, Executor, Row, SqlSafeStr};
use thiserror::Error;
use tokio::sync::{mpsc, oneshot};

mod archive;
#[cfg(feature = "test-support")]
pub mod faults;
pub use archive::{
    ArchivePage, ArchiveQuery, ArchiveRow, ArchivedGame, ExplorerMove, Imported, ResultFilter,
};
mod players;
pub use players::{LeaderRow, PROVISIONAL_DEVIATION, PlayerRow, Rating, RatingPoint};
mod seeks;
pub use seeks::{NewSeek, SeekRow};
#[cfg(feature = "test-support")]
pub mod testing;

/// What can go wrong in the store.
#[derive(Debug, Error)]
pub enum StoreError {
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
    #[error("database migration: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    #[error("cannot create the database folder {path}: {source}")]
    Folder { path: PathBuf, source: std::io::Error },
    #[error("cannot create the database file {path}: {source}")]
    File { path: PathBuf, source: std::io::Error },
    /// Another write got there first (the game moved on, or the ply is taken).
    #[error("the game changed meanwhile; reload it")]
    Conflict,
    #[error("no game {0}")]
    NotFound(String),
    #[error(
        "unsupported database URL '{0}' (give sqlite://FILE, a file path, sqlite::memory: or postgres://…)"
    )]
    Unsupported(String),
    #[error(
        "the database URL '{0}' names no file (give sqlite://PATH, a plain file path or sqlite::memory:)"
    )]
    NoFile(String),
    /// The database opened but refuses writes (a read-only file or folder, a full disk).
    #[error("cannot write to the database {path}: {source}")]
    NotWritable { path: String, source: sqlx::Error },
    /// A write failed with other changes in its transaction (each is told, none is stored).
    #[error("database: {0}")]
    WriteFailed(String),
    /// A stored value that no version of ply writes.
    #[error("game {game} is damaged in the database: {detail}")]
    Corrupt { game: String, detail: String },
    /// A request the store refuses as it stands (says what is wrong with it).
    #[error("{0}")]
    Invalid(String),
}

impl StoreError {
    /// Whether the error is the database failing (a full disk, an I/O error, a lost
    /// connection) rather than something about the request: the caller should say the server
    /// cannot save games right now, and try again later.
    #[must_use]
    pub fn is_unavailable(&self) -> bool {
        matches!(
            self,
            StoreError::Database(_) | StoreError::Migrate(_) | StoreError::WriteFailed(_)
        )
    }
}

pub type Result<T, E = StoreError> = std::result::Result<T, E>;

/// How a game is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    /// One person against the computer.
    Computer,
    /// Two people at one screen.
    HotSeat,
    /// Two people, the second joining by an invite link.
    Invite,
    /// A finished game read from a record (`ply import --into`): it lives in the archive, and
    /// opens in the replay and analysis views like any other.
    Imported,
}

impl Mode {
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Computer => "computer",
            Mode::HotSeat => "hotseat",
            Mode::Invite => "invite",
            Mode::Imported => "imported",
        }
    }

    #[must_use]
    pub fn parse(text: &str) -> Option<Mode> {
        match text {
            "computer" => Some(Mode::Computer),
            "hotseat" => Some(Mode::HotSeat),
            "invite" => Some(Mode::Invite),
            "imported" => Some(Mode::Imported),
            _ => None,
        }
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// The rules decided it.
    Rules,
    /// A player resigned.
    Resigned,
    /// The players agreed to a draw.
    Agreed,
    /// The player to move ran out of time.
    Time,
    /// A game read from a record that gives its result but not why (the board does not show
    /// it ended).
    Record,
}

impl EndReason {
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            EndReason::Rules => "rules",
            EndReason::Resigned => "resigned",
            EndReason::Agreed => "agreed",
            EndReason::Time => "time",
            EndReason::Record => "record",
        }
    }

    #[must_use]
    pub fn parse(text: &str) -> Option<EndReason> {
        match text {
            "rules" => Some(EndReason::Rules),
            "resigned" => Some(EndReason::Resigned),
            "agreed" => Some(EndReason::Agreed),
            "time" => Some(EndReason::Time),
            "record" => Some(EndReason::Record),
            _ => None,
        }
    }
}

/// A game's time control.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Clock {
    /// Each seat starts with `initial_ms`, and gains `increment_ms` after each of its turns.
    Fischer { initial_ms: i64, increment_ms: i64 },
    /// Each turn must be made within `days` days.
    Correspondence { days: i64 },
}

impl Clock {
    /// The stored text: `fischer:<initial ms>:<increment ms>` or `days:<days>`.
    #[must_use]
    pub fn to_text(self) -> String {
        match self {
            Clock::Fischer { initial_ms, increment_ms } => {
                format!("fischer:{initial_ms}:{increment_ms}")
            }
            Clock::Correspondence { days } => format!("days:{days}"),
        }
    }

    /// Reads [`to_text`](Clock::to_text)'s form.
    #[must_use]
    pub fn parse(text: &str) -> Option<Clock> {
        let mut parts = text.split(':');
        let clock = match (parts.next()?, parts.next(), parts.next()) {
            ("fischer", Some(i), Some(inc)) => Clock::Fischer {
                initial_ms: i.parse().ok().filter(|&v: &i64| v > 0)?,
                increment_ms: inc.parse().ok().filter(|&v: &i64| v >= 0)?,
            },
            ("days", Some(d), None) => {
                Clock::Correspondence { days: d.parse().ok().filter(|&v: &i64| v > 0)? }
            }
            _ => return None,
        };
        parts.next().is_none().then_some(clock)
    }

    /// The time each seat has at the start (a correspondence turn's whole allowance).
    #[must_use]
    pub fn start_ms(self) -> i64 {
        match self {
            Clock::Fischer { initial_ms, .. } => initial_ms,
            Clock::Correspondence { days } => days * 86_400_000,
        }
    }
}

/// Where a game's clocks stand: the time each seat has left at the start of the current
/// turn, when that turn began, and when the player to move runs out (`None` once the game
/// is over).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ClockState {
    pub left_ms: [i64; 2],
    pub turn_started_ms: i64,
    pub deadline_ms: Option<i64>,
}

/// How a finished game ended: who won (or a draw) and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ended {
    pub outcome: Outcome,
    pub reason: EndReason,
}

impl fmt::Display for Ended {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.outcome, self.reason.as_str())
    }
}

fn outcome_text(outcome: Outcome) -> &'static str {
    outcome.winner().map_or("draw", Player::as_str)
}

fn parse_outcome(text: &str) -> Option<Outcome> {
    match text {
        "draw" => Some(Outcome::Draw),
        seat => Player::parse(seat).map(Outcome::Win),
    }
}

fn seat_number(seat: Player) -> i64 {
    i64::try_from(seat.index()).unwrap_or(0)
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
    /// The seat the computer plays (computer games only).
    pub computer_seat: Option<Player>,
    /// The seat of the person who created the game, when known.
    pub creator_seat: Option<Player>,
    /// The secret tokens of the seats P1 and P2 (equal in hot-seat games).
    pub tokens: [String; 2],
    /// How the game ended; `None` while it is live.
    pub ended: Option<Ended>,
    /// The seat with a pending offer of a draw.
    pub draw_offer: Option<Player>,
    /// How many times turns were taken back.
    pub undos: i64,
    pub version: i64,
    pub created_ms: i64,
    pub updated_ms: i64,
    /// Turns played (in lists only; 0 from [`Store::game`]).
    pub plies: i64,
    /// The players (ids of the players table) holding the seats P1 and P2, when known.
    pub players: [Option<String>; 2],
    /// Whether the result changes the players' ratings.
    pub rated: bool,
    /// The time control, if the game has one, and where its clocks stand.
    pub clock: Option<Clock>,
    pub clock_state: Option<ClockState>,
    /// The game its players went on to, when they agreed to a rematch.
    pub rematch_id: Option<String>,
}

impl GameRow {
    /// Whether the game goes on.
    #[must_use]
    pub fn live(&self) -> bool {
        self.ended.is_none()
    }
}

/// What a new game needs.
#[derive(Clone, Debug)]
pub struct NewGame {
    pub game: String,
    pub variant: String,
    pub mode: Mode,
    pub level: Option<u8>,
    pub computer_seat: Option<Player>,
    pub creator_seat: Option<Player>,
    /// The players holding the seats, when known.
    pub players: [Option<String>; 2],
    pub rated: bool,
    pub clock: Option<Clock>,
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
    pub finish: Option<Ended>,
    /// The seat with a pending draw offer after the change (`None`: no offer).
    pub draw_offer: Option<Player>,
    /// The clocks after the change (`None`: as they were).
    pub clock: Option<ClockState>,
}

/// Whether the last write succeeded, for `/health`.
#[derive(Debug, Default)]
struct WriteHealth {
    /// The error of the last write, when it failed.
    failure: Mutex<Option<String>>,
}

impl WriteHealth {
    fn failed(&self, error: &impl fmt::Display) {
        *self.failure.lock().unwrap_or_else(std::sync::PoisonError::into_inner) =
            Some(error.to_string());
    }

    fn succeeded(&self) {
        self.failure.lock().unwrap_or_else(std::sync::PoisonError::into_inner).take();
    }

    fn failure(&self) -> Option<String> {
        self.failure.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clone()
    }
}

/// Which database a store is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// One file (or memory), one node.
    Sqlite,
    /// A server several nodes share.
    Postgres,
}

/// The games database.
#[derive(Clone, Debug)]
pub struct Store {
    backend: Backend,
    /// Readers.
    pool: AnyPool,
    /// The writer: SQLite takes one write at a time, and a single connection queues writes in
    /// order instead of letting them collide and back off (busy waits).
    writer: AnyPool,
    health: Arc<WriteHealth>,
    /// The changes waiting for the writer task (see [`Store::record`]).
    jobs: mpsc::Sender<Work>,
}

/// What the writer task is asked to do.
enum Work {
    Change(Job),
    /// Answer once every change sent before is written (or failed).
    Flush(oneshot::Sender<()>),
}

/// The PostgreSQL channel every committed change is announced on, as `"<game id> <version>"`.
pub const NOTIFY_CHANNEL: &str = "ply_games";

/// A SQLite URL for a file path (characters that mean something in a URL escaped), asking to
/// create the file, plus the caller's own query parameters.
fn sqlite_url(path: &Path, query: &str) -> String {
    let mut escaped = String::new();
    for c in path.to_string_lossy().chars() {
        match c {
            '%' | '?' | '#' | ' ' => escaped.push_str(&format!("%{:02X}", c as u32)),
            c => escaped.push(c),
        }
    }
    let mode = if query.split('&').any(|kv| kv.starts_with("mode=")) { "" } else { "mode=rwc" };
    let query =
        [mode, query].iter().filter(|q| !q.is_empty()).copied().collect::<Vec<_>>().join("&");
    format!("sqlite://{escaped}?{query}")
}

/// The most changes written in one transaction.
const MAX_BATCH: usize = 64;

/// A game's event log keeps at least this many of its last events, and fewer than twice as
/// many (a reconnecting client older than that gets the whole state instead).
pub const EVENTS_KEPT: i64 = 64;

/// A change waiting for the writer task, with the way back to its caller.
struct Job {
    id: String,
    version: i64,
    remove_from: Option<i64>,
    add: Option<(i64, String)>,
    body: String,
    finish: Option<Ended>,
    draw_offer: Option<Player>,
    clock: Option<ClockState>,
    reply: oneshot::Sender<Result<()>>,
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

/// The migrations of a database: one folder each, the same steps (the DDL differs).
fn migrator(backend: Backend) -> Migrator {
    macro_rules! steps {
        ($dir:literal) => {
            [
                (1, "games", include_str!(concat!("../migrations/", $dir, "/0001_games.sql"))),
                (
                    2,
                    "creator seat",
                    include_str!(concat!("../migrations/", $dir, "/0002_creator_seat.sql")),
                ),
                (
                    3,
                    "draw offer",
                    include_str!(concat!("../migrations/", $dir, "/0003_draw_offer.sql")),
                ),
                (
                    4,
                    "write probe",
                    include_str!(concat!("../migrations/", $dir, "/0004_write_probe.sql")),
                ),
                (5, "undos", include_str!(concat!("../migrations/", $dir, "/0005_undos.sql"))),
                (6, "leases", include_str!(concat!("../migrations/", $dir, "/0006_leases.sql"))),
                (7, "people", include_str!(concat!("../migrations/", $dir, "/0007_people.sql"))),
                (8, "players", include_str!(concat!("../migrations/", $dir, "/0008_players.sql"))),
                (9, "archive", include_str!(concat!("../migrations/", $dir, "/0009_archive.sql"))),
            ]
        };
    }
    let steps: [(i64, &'static str, &'static str); 9] = match backend {
        Backend::Sqlite => steps!("sqlite"),
        Backend::Postgres => steps!("postgres"),
    };
    Migrator::with_migrations(
        steps
            .into_iter()
            .map(|(version, name, sql)| {
                Migration::new(
                    version,
                    Cow::Borrowed(name),
                    MigrationType::Simple,
                    sql.into_sql_str(),
                    false,
                )
            })
            .collect(),
    )
}

fn corrupt(id: &str, detail: String) -> StoreError {
    StoreError::Corrupt { game: id.to_string(), detail }
}

fn game_from_row(row: &AnyRow) -> Result<GameRow> {
    let id: String = row.try_get("id")?;
    let mode: String = row.try_get("mode")?;
    let mode = Mode::parse(&mode).ok_or_else(|| corrupt(&id, format!("unknown mode '{mode}'")))?;
    let seat = |column: &str| -> Result<Option<Player>> {
        match row.try_get::<Option<i64>, _>(column)? {
            None => Ok(None),
            Some(0) => Ok(Some(Player::P1)),
            Some(1) => Ok(Some(Player::P2)),
            Some(other) => Err(corrupt(&id, format!("{column} is {other}, not 0 or 1"))),
        }
    };
    let computer_seat = seat("computer_seat")?;
    let creator_seat = seat("creator_seat")?;
    let level = match row.try_get::<Option<i64>, _>("level")? {
        None => None,
        Some(l) if (1..=10).contains(&l) => u8::try_from(l).ok(),
        Some(l) => return Err(corrupt(&id, format!("level {l} is not 1 to 10"))),
    };
    if mode == Mode::Computer && (level.is_none() || computer_seat.is_none()) {
        return Err(corrupt(&id, "a computer game without a level or a computer seat".into()));
    }
    let status: String = row.try_get("status")?;
    let winner: Option<String> = row.try_get("winner")?;
    let reason: Option<String> = row.try_get("reason")?;
    let ended = match (status.as_str(), winner, reason) {
        ("live", None, None) => None,
        ("finished", Some(w), Some(r)) => Some(Ended {
            outcome: parse_outcome(&w)
                .ok_or_else(|| corrupt(&id, format!("unknown winner '{w}'")))?,
            reason: EndReason::parse(&r)
                .ok_or_else(|| corrupt(&id, format!("unknown end reason '{r}'")))?,
        }),
        (s, w, r) => {
            return Err(corrupt(&id, format!("status '{s}' with winner {w:?} and reason {r:?}")));
        }
    };
    let draw_offer = match row.try_get::<Option<String>, _>("draw_offer")? {
        None => None,
        Some(s) => {
            Some(Player::parse(&s).ok_or_else(|| corrupt(&id, format!("draw offer by '{s}'")))?)
        }
    };
    let clock = match row.try_get::<Option<String>, _>("clock")? {
        None => None,
        Some(text) => {
            Some(Clock::parse(&text).ok_or_else(|| corrupt(&id, format!("clock '{text}'")))?)
        }
    };
    let clock_state = match (
        row.try_get::<Option<i64>, _>("p1_ms")?,
        row.try_get::<Option<i64>, _>("p2_ms")?,
        row.try_get::<Option<i64>, _>("turn_started_ms")?,
    ) {
        (Some(a), Some(b), Some(t)) => Some(ClockState {
            left_ms: [a, b],
            turn_started_ms: t,
            deadline_ms: row.try_get("deadline_ms")?,
        }),
        (None, None, None) => None,
        _ => return Err(corrupt(&id, "a clock with some of its times missing".into())),
    };
    if clock.is_some() != clock_state.is_some() {
        return Err(corrupt(&id, "a clock without its times, or times without a clock".into()));
    }
    Ok(GameRow {
        game: row.try_get("game")?,
        variant: row.try_get("variant")?,
        mode,
        level,
        computer_seat,
        creator_seat,
        tokens: [row.try_get("token_p1")?, row.try_get("token_p2")?],
        ended,
        draw_offer,
        undos: row.try_get("undos")?,
        version: row.try_get("version")?,
        created_ms: row.try_get("created_ms")?,
        updated_ms: row.try_get("updated_ms")?,
        plies: row.try_get::<Option<i64>, _>("plies").ok().flatten().unwrap_or(0),
        players: [row.try_get("p1_player")?, row.try_get("p2_player")?],
        rated: row.try_get::<i64, _>("rated")? != 0,
        clock,
        clock_state,
        rematch_id: row.try_get("rematch_id")?,
        id,
    })
}

const GAME_COLUMNS: &str = "id, game, variant, mode, level, computer_seat, creator_seat, \
                            token_p1, token_p2, \
                            status, winner, reason, draw_offer, undos, version, created_ms, \
                            updated_ms, p1_player, p2_player, rated, clock, p1_ms, p2_ms, \
                            turn_started_ms, deadline_ms, rematch_id";

/// Creates a missing database file readable by its owner only: it holds the seats' secret
/// tokens. (SQLite gives its `-wal` and `-shm` files the same permissions.)
fn create_private_file(path: &Path) -> Result<()> {
    if path.exists() {
        return Ok(());
    }
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    match options.open(path) {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(source) => Err(StoreError::File { path: path.to_path_buf(), source }),
    }
}

impl Store {
    /// Opens (creating if missing) the database at `url`, or the default file when `None`,
    /// runs the migrations and checks that it can write. `url` is `sqlite://PATH`,
    /// `sqlite:PATH`, `sqlite::memory:`, a plain file path, or `postgres://…` (PostgreSQL,
    /// which several server nodes can share).
    ///
    /// # Errors
    /// When the folder or file cannot be created, the URL is not one of those or names no
    /// file, a migration fails, or the database cannot be written
    /// ([`StoreError::NotWritable`]: a server that cannot save games must not start).
    pub async fn open(url: Option<&str>) -> Result<Store> {
        sqlx::any::install_default_drivers();
        let (backend, url, memory) = match url {
            None => (Backend::Sqlite, sqlite_url(&Self::prepare_path(None)?, ""), false),
            Some(u) if u.starts_with("sqlite::memory:") || u == "sqlite://:memory:" => {
                (Backend::Sqlite, "sqlite::memory:".to_string(), true)
            }
            Some(u) if u.starts_with("sqlite:") => {
                let rest = u.strip_prefix("sqlite://").or_else(|| u.strip_prefix("sqlite:"));
                let (path, query) =
                    rest.unwrap_or("").split_once('?').unwrap_or((rest.unwrap_or(""), ""));
                if path.is_empty() {
                    return Err(StoreError::NoFile(u.to_string()));
                }
                let path = Self::prepare_path(Some(Path::new(path)))?;
                (Backend::Sqlite, sqlite_url(&path, query), false)
            }
            Some(u) if u.starts_with("postgres://") || u.starts_with("postgresql://") => {
                (Backend::Postgres, u.to_string(), false)
            }
            Some(u) if u.contains("://") => return Err(StoreError::Unsupported(u.to_string())),
            Some("") => return Err(StoreError::NoFile(String::new())),
            Some(path) => (
                Backend::Sqlite,
                sqlite_url(&Self::prepare_path(Some(Path::new(path)))?, ""),
                false,
            ),
        };
        let shown = match backend {
            Backend::Sqlite => {
                url.split('?').next().unwrap_or("").trim_start_matches("sqlite://").to_string()
            }
            // Never show a password.
            Backend::Postgres => url.split('@').next_back().unwrap_or("").to_string(),
        };
        let not_writable =
            |source: sqlx::Error| StoreError::NotWritable { path: shown.clone(), source };
        // SQLite's settings are per connection: foreign keys, a wait for locks, and (for a
        // file) WAL with NORMAL sync: a commit survives the process dying; only a power cut
        // may lose the last moments (the usual setting for WAL).
        let pragmas: &'static str = match (backend, memory) {
            (Backend::Postgres, _) => "",
            (Backend::Sqlite, true) => "PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 10000;",
            (Backend::Sqlite, false) => {
                "PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 10000; \
                 PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;"
            }
        };
        let options = || {
            AnyPoolOptions::new().after_connect(move |conn, _| {
                Box::pin(async move {
                    if !pragmas.is_empty() {
                        conn.execute(sqlx::raw_sql(pragmas)).await?;
                    }
                    Ok(())
                })
            })
        };
        let writers = match backend {
            Backend::Sqlite => 1,
            Backend::Postgres => 4,
        };
        let writer = options()
            .max_connections(writers)
            .min_connections(1)
            .idle_timeout(None)
            .max_lifetime(None)
            .connect(&url)
            .await
            .map_err(|e| match e {
                e @ sqlx::Error::Database(_) => not_writable(e),
                e => StoreError::Database(e),
            })?;
        migrator(backend).run(&writer).await?;
        // Every connection to `:memory:` would be a database of its own: share the writer.
        let pool = if memory {
            writer.clone()
        } else {
            options()
                .max_connections(match backend {
                    Backend::Sqlite => 4,
                    Backend::Postgres => 8,
                })
                .idle_timeout(Some(Duration::from_secs(600)))
                .connect(&url)
                .await?
        };
        let health: Arc<WriteHealth> = Arc::default();
        let (jobs, rx) = mpsc::channel(4 * MAX_BATCH);
        tokio::spawn(write_jobs(backend, writer.clone(), health.clone(), rx));
        let store = Store { backend, pool, writer, health, jobs };
        store.probe_write().await.map_err(|e| match e {
            StoreError::Database(source) => not_writable(source),
            other => other,
        })?;
        Ok(store)
    }

    /// The database this store is on.
    #[must_use]
    pub fn backend(&self) -> Backend {
        self.backend
    }

    fn prepare_path(path: Option<&Path>) -> Result<PathBuf> {
        let path = path.map_or_else(default_database_path, Path::to_path_buf);
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .map_err(|source| StoreError::Folder { path: dir.to_path_buf(), source })?;
        }
        create_private_file(&path)?;
        Ok(path)
    }

    /// The writer connection, or the error that kept the store from getting one.
    async fn writer(&self) -> Result<PoolConnection<Any>> {
        self.writer.acquire().await.map_err(|e| {
            self.health.failed(&e);
            StoreError::Database(e)
        })
    }

    /// Runs one write statement on the writer connection, released as [`release`] says.
    ///
    /// [`release`]: Store::release
    async fn write(
        &self,
        query: sqlx::query::Query<'_, Any, sqlx::any::AnyArguments>,
    ) -> Result<sqlx::any::AnyQueryResult> {
        let mut conn = self.writer().await?;
        let result = query.execute(&mut *conn).await.map_err(StoreError::from);
        self.release(conn, result).await
    }

    /// Hands the writer back after a write that ended with `result`: a connection whose
    /// write failed is closed, not reused (see the crate documentation).
    async fn release<T>(&self, conn: PoolConnection<Any>, result: Result<T>) -> Result<T> {
        match &result {
            Ok(_) | Err(StoreError::Conflict) => self.health.succeeded(),
            Err(e) => {
                self.health.failed(e);
                let _ = conn.close().await;
            }
        }
        result
    }

    /// Writes one row to find out whether the database takes writes.
    ///
    /// # Errors
    /// The database's error when it does not.
    pub async fn probe_write(&self) -> Result<()> {
        let mut conn = self.writer().await?;
        let result = sqlx::query(
            "INSERT INTO write_probe (id, at_ms) VALUES (1, $1) \
             ON CONFLICT (id) DO UPDATE SET at_ms = excluded.at_ms",
        )
        .bind(now_ms())
        .execute(&mut *conn)
        .await
        .map(|_| ())
        .map_err(StoreError::from);
        self.release(conn, result).await
    }

    /// `Ok` when the store can write; else the error of the last failed write. After a
    /// failure it tries one small write, so it turns `Ok` again by itself once the disk
    /// takes writes.
    ///
    /// # Errors
    /// The message of the write that failed.
    pub async fn write_health(&self) -> Result<(), String> {
        if self.health.failure().is_none() {
            return Ok(());
        }
        match self.probe_write().await {
            Ok(()) => Ok(()),
            Err(e) => Err(self.health.failure().unwrap_or_else(|| e.to_string())),
        }
    }

    /// Takes (or keeps) the lease on searching game `id`'s computer move for `node` until
    /// `until_ms`: `true` when this node holds it now (it was free, ran out, or was its own).
    /// With several nodes on one database, only the holder searches.
    ///
    /// # Errors
    /// Database errors.
    pub async fn take_lease(&self, id: &str, node: &str, until_ms: i64) -> Result<bool> {
        let mut conn = self.writer().await?;
        let result = sqlx::query(
            "INSERT INTO computer_leases (game_id, node, until_ms) VALUES ($1, $2, $3) \
             ON CONFLICT (game_id) DO UPDATE SET node = excluded.node, until_ms = excluded.until_ms \
             WHERE computer_leases.node = excluded.node OR computer_leases.until_ms < $4",
        )
        .bind(id)
        .bind(node)
        .bind(until_ms)
        .bind(now_ms())
        .execute(&mut *conn)
        .await
        .map(|r| r.rows_affected() == 1)
        .map_err(StoreError::from);
        self.release(conn, result).await
    }

    /// The current version of game `id`.
    ///
    /// # Errors
    /// [`StoreError::NotFound`] and database errors.
    pub async fn version(&self, id: &str) -> Result<i64> {
        let row = sqlx::query("SELECT version FROM games WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?
            .ok_or_else(|| StoreError::NotFound(id.to_string()))?;
        Ok(row.try_get("version")?)
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
        let mut conn = self.writer().await?;
        let start = new.clock.map(Clock::start_ms);
        let result = sqlx::query(
            "INSERT INTO games (id, game, variant, mode, level, computer_seat, token_p1, \
             token_p2, status, winner, reason, version, created_ms, updated_ms, creator_seat, \
             p1_player, p2_player, rated, clock, p1_ms, p2_ms, turn_started_ms, deadline_ms) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'live', NULL, NULL, 0, $9, $9, $10, \
             $11, $12, $13, $14, $15, $15, $16, $17)",
        )
        .bind(&id)
        .bind(&new.game)
        .bind(&new.variant)
        .bind(new.mode.as_str())
        .bind(new.level.map(i64::from))
        .bind(new.computer_seat.map(seat_number))
        .bind(&t1)
        .bind(&t2)
        .bind(now)
        .bind(new.creator_seat.map(seat_number))
        .bind(new.players[0].as_deref())
        .bind(new.players[1].as_deref())
        .bind(i64::from(new.rated))
        .bind(new.clock.map(Clock::to_text))
        .bind(start)
        .bind(start.map(|_| now))
        .bind(start.map(|s| now + s))
        .execute(&mut *conn)
        .await
        .map_err(StoreError::from);
        self.release(conn, result).await?;
        self.game(&id).await
    }

    /// The game `id`.
    ///
    /// # Errors
    /// [`StoreError::NotFound`], [`StoreError::Corrupt`] or database errors.
    pub async fn game(&self, id: &str) -> Result<GameRow> {
        let sql = format!("SELECT {GAME_COLUMNS} FROM games WHERE id = $1");
        let row = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(id)
            .fetch_optional(&self.pool)
            .await?
            .ok_or_else(|| StoreError::NotFound(id.to_string()))?;
        game_from_row(&row)
    }

    /// The game `id` and its moves in order, read together (one snapshot of the database).
    ///
    /// # Errors
    /// As [`Store::game`].
    pub async fn load(&self, id: &str) -> Result<(GameRow, Vec<String>)> {
        let mut tx = self.pool.begin().await?;
        let sql = format!("SELECT {GAME_COLUMNS} FROM games WHERE id = $1");
        let row = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(id)
            .fetch_optional(&mut *tx)
            .await?
            .ok_or_else(|| StoreError::NotFound(id.to_string()))?;
        let game = game_from_row(&row)?;
        if game.mode == Mode::Imported {
            // A game read from a record keeps its turns in its archive row.
            let moves = archive::imported_moves(&mut tx, id).await?;
            tx.commit().await?;
            return Ok((game, moves));
        }
        let rows = sqlx::query("SELECT ply, notation FROM moves WHERE game_id = $1 ORDER BY ply")
            .bind(id)
            .fetch_all(&mut *tx)
            .await?;
        tx.commit().await?;
        let mut moves = Vec::with_capacity(rows.len());
        for (i, r) in rows.iter().enumerate() {
            let ply: i64 = r.try_get("ply")?;
            if usize::try_from(ply).ok() != Some(i) {
                return Err(corrupt(id, format!("turn {i} is stored as ply {ply}")));
            }
            moves.push(r.try_get("notation")?);
        }
        Ok((game, moves))
    }

    /// The moves of game `id` in order, as stored notation.
    ///
    /// # Errors
    /// Database errors.
    pub async fn moves(&self, id: &str) -> Result<Vec<String>> {
        Ok(self.load(id).await?.1)
    }

    /// The most recently updated games, live ones first, at most `limit`.
    ///
    /// # Errors
    /// Database errors.
    pub async fn list_games(&self, limit: i64) -> Result<Vec<GameRow>> {
        let sql = format!(
            "SELECT {GAME_COLUMNS}, (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id) AS plies \
             FROM games g WHERE mode <> 'imported' \
             ORDER BY CASE status WHEN 'live' THEN 0 ELSE 1 END, updated_ms DESC LIMIT $1"
        );
        let rows = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(limit).fetch_all(&self.pool).await?;
        rows.iter().map(game_from_row).collect()
    }

    /// Live games (`live`) changed at or after `since_ms`, or finished games, newest first, at
    /// most `limit`.
    ///
    /// # Errors
    /// Database errors.
    pub async fn recent_games(
        &self,
        live: bool,
        since_ms: i64,
        limit: i64,
    ) -> Result<Vec<GameRow>> {
        let status = if live { "= 'live'" } else { "<> 'live'" };
        let sql = format!(
            "SELECT {GAME_COLUMNS}, (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id) AS plies \
             FROM games g WHERE status {status} AND mode <> 'imported' AND updated_ms >= $1 ORDER BY updated_ms DESC LIMIT $2"
        );
        let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(since_ms)
            .bind(limit)
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(game_from_row).collect()
    }

    /// The games with these ids (unknown ids are left out), newest first.
    ///
    /// # Errors
    /// Database errors.
    pub async fn games_by_ids(&self, ids: &[String]) -> Result<Vec<GameRow>> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let marks: Vec<String> = (1..=ids.len()).map(|i| format!("${i}")).collect();
        let sql = format!(
            "SELECT {GAME_COLUMNS}, (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id) AS plies \
             FROM games g WHERE id IN ({}) ORDER BY updated_ms DESC",
            marks.join(", ")
        );
        let mut query = sqlx::query(sqlx::AssertSqlSafe(sql));
        for id in ids {
            query = query.bind(id.as_str());
        }
        let rows = query.fetch_all(&self.pool).await?;
        rows.iter().map(game_from_row).collect()
    }

    /// Puts player `player` in seat `seat` of game `id` if nobody holds it yet: `true` when
    /// it did.
    ///
    /// # Errors
    /// Database errors.
    pub async fn claim_seat_player(&self, id: &str, seat: Player, player: &str) -> Result<bool> {
        let column = if seat == Player::P1 { "p1_player" } else { "p2_player" };
        let sql = format!("UPDATE games SET {column} = $1 WHERE id = $2 AND {column} IS NULL");
        let done = self.write(sqlx::query(sqlx::AssertSqlSafe(sql)).bind(player).bind(id)).await?;
        Ok(done.rows_affected() == 1)
    }

    /// Records the game `id`'s players went on to (a rematch).
    ///
    /// # Errors
    /// Database errors.
    pub async fn set_rematch(&self, id: &str, rematch_id: &str) -> Result<()> {
        self.write(
            sqlx::query("UPDATE games SET rematch_id = $1 WHERE id = $2").bind(rematch_id).bind(id),
        )
        .await?;
        Ok(())
    }

    /// Live games whose player to move ran out of time at `now_ms`, at most `limit`.
    ///
    /// # Errors
    /// Database errors.
    pub async fn games_past_deadline(&self, now_ms: i64, limit: i64) -> Result<Vec<String>> {
        let rows = sqlx::query(
            "SELECT id FROM games WHERE status = 'live' AND deadline_ms IS NOT NULL \
             AND deadline_ms <= $1 ORDER BY deadline_ms LIMIT $2",
        )
        .bind(now_ms)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|r| r.try_get("id").map_err(StoreError::from)).collect()
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

    /// At most `limit` events of game `id` after `version`, in order, as `(version, JSON
    /// text)`.
    ///
    /// # Errors
    /// Database errors.
    pub async fn events_since(
        &self,
        id: &str,
        version: i64,
        limit: i64,
    ) -> Result<Vec<(i64, String)>> {
        let rows = sqlx::query(
            "SELECT version, body FROM events WHERE game_id = $1 AND version > $2 \
             ORDER BY version LIMIT $3",
        )
        .bind(id)
        .bind(version)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|r| Ok((r.try_get("version")?, r.try_get("body")?))).collect()
    }

    /// Records one change of game `id` atomically (see [`Change`]).
    ///
    /// Changes from many games that arrive together are written in one transaction (a group
    /// commit); each is checked on its own, and a failure of the transaction fails them all.
    ///
    /// # Errors
    /// [`StoreError::Conflict`] when the game is not at `change.version - 1` or the ply is
    /// taken (nothing was written); database errors (nothing was written either: the
    /// transaction is rolled back and its connection closed).
    pub async fn record(&self, id: &str, change: &Change<'_>) -> Result<()> {
        let (reply, answer) = oneshot::channel();
        let job = Job {
            id: id.to_string(),
            version: change.version,
            remove_from: change.remove_from,
            add: change.add.map(|(ply, n)| (ply, n.to_string())),
            body: change.body.to_string(),
            finish: change.finish,
            draw_offer: change.draw_offer,
            clock: change.clock,
            reply,
        };
        let stopped = || StoreError::WriteFailed("the store's writer has stopped".into());
        self.jobs.send(Work::Change(job)).await.map_err(|_| stopped())?;
        answer.await.map_err(|_| stopped())?
    }

    /// Waits until every change handed to the store before is written (or has failed), as a
    /// server does before it stops.
    pub async fn flush(&self) {
        let (done, wait) = oneshot::channel();
        if self.jobs.send(Work::Flush(done)).await.is_ok() {
            let _ = wait.await;
        }
    }
}

/// The writer task: takes the changes that wait, writes them in one transaction, and answers
/// each.
async fn write_jobs(
    backend: Backend,
    writer: AnyPool,
    health: Arc<WriteHealth>,
    mut rx: mpsc::Receiver<Work>,
) {
    let mut flushes = Vec::new();
    while let Some(first) = rx.recv().await {
        let mut batch = Vec::new();
        let mut next = Some(first);
        while let Some(work) = next.take() {
            match work {
                Work::Change(job) => batch.push(job),
                // Everything before a flush is in this batch: answer it after the write.
                Work::Flush(done) => {
                    flushes.push(done);
                    break;
                }
            }
            if batch.len() < MAX_BATCH {
                next = rx.try_recv().ok();
            }
        }
        if batch.is_empty() {
            for done in flushes.drain(..) {
                let _ = done.send(());
            }
            continue;
        }
        // The same order of rows on every node, so two nodes' batches cannot deadlock.
        batch.sort_by(|a, b| a.id.cmp(&b.id));
        match write_batch(backend, &writer, &batch).await {
            Ok(landed) => {
                health.succeeded();
                for (job, landed) in batch.into_iter().zip(landed) {
                    let _ = job.reply.send(if landed { Ok(()) } else { Err(StoreError::Conflict) });
                }
            }
            Err(e) => {
                health.failed(&e);
                let text = e.to_string();
                for job in batch {
                    let _ = job.reply.send(Err(StoreError::WriteFailed(text.clone())));
                }
            }
        }
        for done in flushes.drain(..) {
            let _ = done.send(());
        }
    }
}

/// Begins a transaction that writes. On SQLite it takes the write lock at once (`BEGIN
/// IMMEDIATE`), waiting for it as long as `busy_timeout` allows. A transaction begun as a
/// plain read that writes later is refused at once ("database is locked", codes 5 and 517)
/// when another connection to the file holds the lock or committed meanwhile, as a second
/// process on one file does (`tests/archive.rs`,
/// `archiving_beside_another_writer_waits_for_the_lock_and_never_fails`).
pub(crate) async fn begin_write(
    backend: Backend,
    conn: &mut sqlx::AnyConnection,
) -> sqlx::Result<sqlx::Transaction<'_, Any>> {
    match backend {
        Backend::Sqlite => conn.begin_with("BEGIN IMMEDIATE").await,
        Backend::Postgres => conn.begin().await,
    }
}

/// Writes `batch` in one transaction; for each change, whether it landed (`false`: a
/// conflict, nothing of it written). On an error nothing is written and the connection is
/// closed (see the crate documentation).
async fn write_batch(backend: Backend, writer: &AnyPool, batch: &[Job]) -> Result<Vec<bool>> {
    let mut conn = writer.acquire().await?;
    let mut landed = Vec::with_capacity(batch.len());
    let result = async {
        let mut tx = begin_write(backend, &mut conn).await?;
        for job in batch {
            landed.push(write_change(backend, &mut tx, job).await?);
        }
        tx.commit().await?;
        Ok::<(), StoreError>(())
    }
    .await;
    match result {
        Ok(()) => Ok(landed),
        Err(e) => {
            let _ = conn.close().await;
            Err(e)
        }
    }
}

/// Writes one change inside a transaction; `false` when it conflicts, in which case nothing
/// of it stays written. The conflict checks come before anything else is written (the
/// inserted move of a change whose version check then fails is deleted again), so a batch
/// needs no savepoints.
async fn write_change(
    backend: Backend,
    tx: &mut sqlx::Transaction<'_, Any>,
    job: &Job,
) -> Result<bool> {
    let now = now_ms();
    let id = job.id.as_str();
    if let Some((ply, notation)) = &job.add {
        let inserted = sqlx::query(
            "INSERT INTO moves (game_id, ply, notation, created_ms) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (game_id, ply) DO NOTHING",
        )
        .bind(id)
        .bind(ply)
        .bind(notation)
        .bind(now)
        .execute(&mut **tx)
        .await?;
        if inserted.rows_affected() != 1 {
            return Ok(false);
        }
    }
    let updated = sqlx::query(
        "UPDATE games SET version = $1, updated_ms = $2, draw_offer = $3, \
         status = CASE WHEN $4 IS NULL THEN status ELSE 'finished' END, \
         winner = COALESCE($4, winner), reason = COALESCE($5, reason), undos = undos + $8 \
         WHERE id = $6 AND version = $7",
    )
    .bind(job.version)
    .bind(now)
    .bind(job.draw_offer.map(Player::as_str))
    .bind(job.finish.map(|f| outcome_text(f.outcome)))
    .bind(job.finish.map(|f| f.reason.as_str()))
    .bind(id)
    .bind(job.version - 1)
    .bind(i64::from(job.remove_from.is_some()))
    .execute(&mut **tx)
    .await?;
    if updated.rows_affected() != 1 {
        if let Some((ply, _)) = &job.add {
            sqlx::query("DELETE FROM moves WHERE game_id = $1 AND ply = $2")
                .bind(id)
                .bind(ply)
                .execute(&mut **tx)
                .await?;
        }
        return Ok(false);
    }
    if let Some(c) = job.clock {
        sqlx::query(
            "UPDATE games SET p1_ms = $1, p2_ms = $2, turn_started_ms = $3, deadline_ms = $4 \
             WHERE id = $5",
        )
        .bind(c.left_ms[0])
        .bind(c.left_ms[1])
        .bind(c.turn_started_ms)
        .bind(c.deadline_ms)
        .bind(id)
        .execute(&mut **tx)
        .await?;
    } else if job.finish.is_some() {
        // A finished game has no deadline left.
        sqlx::query("UPDATE games SET deadline_ms = NULL WHERE id = $1")
            .bind(id)
            .execute(&mut **tx)
            .await?;
    }
    if let Some(from) = job.remove_from {
        sqlx::query("DELETE FROM moves WHERE game_id = $1 AND ply >= $2")
            .bind(id)
            .bind(from)
            .execute(&mut **tx)
            .await?;
    }
    sqlx::query("INSERT INTO events (game_id, version, body) VALUES ($1, $2, $3)")
        .bind(id)
        .bind(job.version)
        .bind(&job.body)
        .execute(&mut **tx)
        .await?;
    // Other nodes hear of the change when it commits (PostgreSQL's NOTIFY is transactional).
    if backend == Backend::Postgres {
        sqlx::query("SELECT pg_notify($1, $2)")
            .bind(NOTIFY_CHANNEL)
            .bind(format!("{id} {}", job.version))
            .execute(&mut **tx)
            .await?;
    }
    // The log keeps the last events only (the moves table keeps the game): every
    // EVENTS_KEPT versions, the events older than EVENTS_KEPT go.
    if job.version % EVENTS_KEPT == 0 {
        sqlx::query("DELETE FROM events WHERE game_id = $1 AND version <= $2")
            .bind(id)
            .bind(job.version - EVENTS_KEPT)
            .execute(&mut **tx)
            .await?;
    }
    Ok(true)
}

// The wire forms of the store's values (`ply-protocol`, which knows no store).

impl From<Mode> for ModeView {
    fn from(m: Mode) -> ModeView {
        match m {
            Mode::Computer => ModeView::Computer,
            Mode::HotSeat => ModeView::Hotseat,
            Mode::Invite => ModeView::Invite,
            Mode::Imported => ModeView::Imported,
        }
    }
}

impl From<EndReason> for ReasonView {
    fn from(r: EndReason) -> ReasonView {
        match r {
            EndReason::Rules => ReasonView::Rules,
            EndReason::Resigned => ReasonView::Resigned,
            EndReason::Agreed => ReasonView::Agreed,
            EndReason::Time => ReasonView::Time,
            EndReason::Record => ReasonView::Record,
        }
    }
}

impl From<ClockState> for ClockWire {
    fn from(c: ClockState) -> ClockWire {
        ClockWire {
            left_ms: c.left_ms,
            turn_started_ms: c.turn_started_ms,
            deadline_ms: c.deadline_ms,
        }
    }
}

impl From<ClockWire> for ClockState {
    fn from(c: ClockWire) -> ClockState {
        ClockState {
            left_ms: c.left_ms,
            turn_started_ms: c.turn_started_ms,
            deadline_ms: c.deadline_ms,
        }
    }
}

impl From<Clock> for ClockControl {
    fn from(clock: Clock) -> ClockControl {
        match clock {
            Clock::Fischer { initial_ms, increment_ms } => ClockControl::Fischer {
                initial_s: u32::try_from(initial_ms / 1000).unwrap_or(u32::MAX),
                increment_s: u32::try_from(increment_ms / 1000).unwrap_or(u32::MAX),
            },
            Clock::Correspondence { days } => {
                ClockControl::Correspondence { days: u32::try_from(days).unwrap_or(u32::MAX) }
            }
        }
    }
}

impl Clock {
    /// The clock of a time control from the API, when its numbers make sense (15 s to three
    /// hours, an increment up to a minute, one to fourteen days).
    #[must_use]
    pub fn from_control(control: ClockControl) -> Option<Clock> {
        match control {
            ClockControl::Fischer { initial_s, increment_s }
                if (15..=3 * 3600).contains(&initial_s) && increment_s <= 60 =>
            {
                Some(Clock::Fischer {
                    initial_ms: i64::from(initial_s) * 1000,
                    increment_ms: i64::from(increment_s) * 1000,
                })
            }
            ClockControl::Correspondence { days } if (1..=14).contains(&days) => {
                Some(Clock::Correspondence { days: i64::from(days) })
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_paths_become_sqlite_urls_that_create_the_file() {
        assert_eq!(
            sqlite_url(Path::new("/tmp/a b/p?#%.db"), ""),
            "sqlite:///tmp/a%20b/p%3F%23%25.db?mode=rwc"
        );
        assert_eq!(sqlite_url(Path::new("x.db"), "mode=ro"), "sqlite://x.db?mode=ro");
        assert_eq!(
            sqlite_url(Path::new("x.db"), "cache=shared"),
            "sqlite://x.db?mode=rwc&cache=shared"
        );
    }
}
