//! The archive of finished games and the opening explorer (migration 0009).
//!
//! Every finished game is archived: a game played here once it ends ([`Store::archive_played`],
//! called by the server when a game finishes and by its sweep at start-up), a game read from a
//! record by `ply import --into` ([`Store::import_games`], which also makes it a finished row of
//! `games`, mode [`Mode::Imported`], so it opens in the replay and analysis views). An archived
//! game is searchable by player, variant, result, date and length ([`Store::search_archive`]),
//! and each of its positions, keyed by [`ply_core::position_key`], feeds the explorer
//! ([`Store::explore`]).

use std::collections::HashSet;

use ply_core::{Outcome, Player};
use sqlx::{Any, Row};

use crate::{EndReason, Mode, Result, Store, StoreError, random_hex};

/// A finished game for the archive.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArchivedGame {
    pub game: String,
    pub variant: String,
    /// The players' names, P1 then P2.
    pub names: [String; 2],
    /// The result; `None` when the record does not say.
    pub outcome: Option<Outcome>,
    /// Why it ended, when known.
    pub reason: Option<EndReason>,
    /// When it was played (Unix milliseconds).
    pub played_ms: i64,
    /// Where it comes from: `ply` for games played here, else the record's site.
    pub source: String,
    /// Its name there: the same source and key are never archived twice.
    pub source_key: String,
    /// The turns, as notation.
    pub moves: Vec<String>,
    /// The [`ply_core::position_key`] of the position before each turn (as many as `moves`).
    pub positions: Vec<i64>,
}

/// What an import did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Imported {
    /// Games added to the archive.
    pub added: usize,
    /// Games already there (the same source and key), left as they were.
    pub already: usize,
}

/// Which results a search keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResultFilter {
    /// This seat won.
    Won(Player),
    Draw,
    /// The searched player won (needs a player).
    PlayerWon,
    /// The searched player lost (needs a player).
    PlayerLost,
}

/// A search of the archive. Empty fields do not filter.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ArchiveQuery {
    /// A player's name (either seat; case does not matter).
    pub player: Option<String>,
    pub game: Option<String>,
    pub variant: Option<String>,
    pub result: Option<ResultFilter>,
    /// Played at or after (Unix milliseconds).
    pub from_ms: Option<i64>,
    /// Played before (Unix milliseconds).
    pub to_ms: Option<i64>,
    /// At least this many turns.
    pub min_plies: Option<i64>,
    /// At most this many turns.
    pub max_plies: Option<i64>,
    /// The page, from 0.
    pub page: u32,
    /// Games per page (1 to 200).
    pub per_page: u32,
}

/// An archived game, as a search lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArchiveRow {
    pub game_id: String,
    pub game: String,
    pub variant: String,
    pub names: [String; 2],
    pub outcome: Option<Outcome>,
    pub reason: Option<EndReason>,
    pub plies: i64,
    pub played_ms: i64,
    pub source: String,
}

/// One page of a search, newest first.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ArchivePage {
    pub rows: Vec<ArchiveRow>,
    /// Whether another page follows.
    pub more: bool,
}

/// A turn played from a position, with how often and how those games ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExplorerMove {
    /// The turn, as notation.
    pub notation: String,
    /// How many times it was played from this position.
    pub games: i64,
    pub p1_wins: i64,
    pub p2_wins: i64,
    pub draws: i64,
}

/// The stored text of a result.
fn result_text(outcome: Option<Outcome>) -> &'static str {
    match outcome {
        Some(Outcome::Win(Player::P1)) => "P1",
        Some(Outcome::Win(Player::P2)) => "P2",
        Some(Outcome::Draw) => "draw",
        None => "unknown",
    }
}

fn parse_result(text: &str) -> Option<Option<Outcome>> {
    match text {
        "P1" => Some(Some(Outcome::Win(Player::P1))),
        "P2" => Some(Some(Outcome::Win(Player::P2))),
        "draw" => Some(Some(Outcome::Draw)),
        "unknown" => Some(None),
        _ => None,
    }
}

/// Games few enough to sort after finding them by an index (see [`Store::search_archive`]).
const FEW_TO_SORT: i64 = 5_000;

/// The page cache of an import's connection, in KiB (SQLite).
const IMPORT_CACHE_KIB: u32 = 512 * 1024;

/// How many parameters one multi-row statement carries: few statements for a large import,
/// yet few enough that finding a parameter by its name (which sqlx's SQLite driver does for
/// `$N`, one search of the statement's parameters each: quadratic in their number) stays cheap.
const PARAMS_PER_STATEMENT: usize = 256;

/// How many rows of `width` values one statement carries.
fn rows_per_statement(width: usize) -> usize {
    (PARAMS_PER_STATEMENT / width).max(1)
}

/// `($1, $2, …), ($k, …)…`: `rows` tuples of `width` placeholders.
fn placeholders(rows: usize, width: usize) -> String {
    let mut sql = String::with_capacity(rows * width * 5);
    for r in 0..rows {
        if r > 0 {
            sql.push_str(", ");
        }
        sql.push('(');
        for c in 0..width {
            if c > 0 {
                sql.push_str(", ");
            }
            sql.push('$');
            sql.push_str(&(r * width + c + 1).to_string());
        }
        sql.push(')');
    }
    sql
}

/// A value bound into a multi-row INSERT.
enum Value<'a> {
    Text(&'a str),
    OptText(Option<&'a str>),
    Int(i64),
}

/// Inserts `rows` (each `width` values) into `table (columns)`, a few hundred values a
/// statement.
async fn insert_rows(
    tx: &mut sqlx::Transaction<'_, Any>,
    head: &str,
    width: usize,
    rows: &[Vec<Value<'_>>],
) -> Result<()> {
    for chunk in rows.chunks(rows_per_statement(width)) {
        let sql = format!("{head} VALUES {}", placeholders(chunk.len(), width));
        bind_rows(sqlx::query(sqlx::AssertSqlSafe(sql)), chunk).execute(&mut **tx).await?;
    }
    Ok(())
}

/// `query` with the values of `rows` bound in order.
fn bind_rows<'q>(
    mut query: sqlx::query::Query<'q, Any, sqlx::any::AnyArguments>,
    rows: &[Vec<Value<'q>>],
) -> sqlx::query::Query<'q, Any, sqlx::any::AnyArguments> {
    for row in rows {
        for value in row {
            query = match value {
                Value::Text(t) => query.bind(*t),
                Value::OptText(t) => query.bind(*t),
                Value::Int(i) => query.bind(*i),
            };
        }
    }
    query
}

fn check_positions(game: &ArchivedGame) -> Result<()> {
    if game.positions.len() == game.moves.len() {
        Ok(())
    } else {
        Err(StoreError::Invalid(format!(
            "{}: {} positions for {} turns",
            game.source_key,
            game.positions.len(),
            game.moves.len()
        )))
    }
}

impl Store {
    /// Adds games read from records to the archive, each also as a finished game (mode
    /// [`Mode::Imported`]) with its moves, in one transaction. Games whose source and key are
    /// archived already are left as they are: importing again adds nothing.
    ///
    /// # Errors
    /// [`StoreError::Invalid`] when a game's positions do not match its turns, or a game has no
    /// known result (an archived game is a finished one); database errors (nothing of the
    /// batch is then written).
    pub async fn import_games(&self, games: &[ArchivedGame]) -> Result<Imported> {
        for game in games {
            check_positions(game)?;
            if game.outcome.is_none() {
                return Err(StoreError::Invalid(format!(
                    "{}: a game without a result is not finished",
                    game.source_key
                )));
            }
        }
        // Which are there already (and which repeat within the batch).
        let known = self.archived_keys(games).await?;
        let mut seen = HashSet::new();
        let fresh: Vec<&ArchivedGame> = games
            .iter()
            .filter(|g| {
                !known.contains(&(g.source.clone(), g.source_key.clone()))
                    && seen.insert((g.source.as_str(), g.source_key.as_str()))
            })
            .collect();
        let imported = Imported { added: fresh.len(), already: games.len() - fresh.len() };
        if fresh.is_empty() {
            return Ok(imported);
        }
        let ids: Vec<String> = fresh.iter().map(|_| random_hex(6)).collect();
        let tokens: Vec<String> = fresh.iter().map(|_| random_hex(16)).collect();
        let mut conn = self.writer().await?;
        let sqlite = self.backend() == crate::Backend::Sqlite;
        if sqlite {
            // A batch touches pages all over the position B-tree: a page cache that holds
            // them saves writing them out twice within the transaction.
            sqlx::raw_sql(sqlx::AssertSqlSafe(format!("PRAGMA cache_size = -{IMPORT_CACHE_KIB}")))
                .execute(&mut *conn)
                .await?;
        }
        let result = async {
            let mut tx = crate::begin_write(self.backend, &mut conn).await?;
            let rows: Vec<Vec<Value>> = fresh
                .iter()
                .zip(&ids)
                .zip(&tokens)
                .map(|((g, id), token)| {
                    vec![
                        Value::Text(id),
                        Value::Text(&g.game),
                        Value::Text(&g.variant),
                        Value::Text(Mode::Imported.as_str()),
                        Value::Text(token),
                        Value::Text(token),
                        Value::Text("finished"),
                        Value::Text(result_text(g.outcome)),
                        Value::Text(g.reason.unwrap_or(EndReason::Record).as_str()),
                        Value::Int(count(g.moves.len())),
                        Value::Int(g.played_ms),
                        Value::Int(g.played_ms),
                    ]
                })
                .collect();
            insert_rows(
                &mut tx,
                "INSERT INTO games (id, game, variant, mode, token_p1, token_p2, status, winner, \
                 reason, version, created_ms, updated_ms)",
                12,
                &rows,
            )
            .await?;
            let games: Vec<(&str, &ArchivedGame)> =
                ids.iter().map(String::as_str).zip(fresh.iter().copied()).collect();
            insert_archive(&mut tx, &games, true).await?;
            tx.commit().await?;
            Ok::<(), StoreError>(())
        }
        .await;
        if sqlite && result.is_ok() {
            // Back to SQLite's default for the server's small writes.
            sqlx::raw_sql("PRAGMA cache_size = -2000").execute(&mut *conn).await?;
        }
        self.release(conn, result).await?;
        Ok(imported)
    }

    /// Archives game `id`, played here and finished, with its players' names and the key of
    /// the position before each of its turns. A game archived already is left as it is
    /// (`false`).
    ///
    /// # Errors
    /// [`StoreError::Invalid`] when the positions do not match the turns; database errors.
    pub async fn archive_played(&self, id: &str, game: &ArchivedGame) -> Result<bool> {
        check_positions(game)?;
        let mut conn = self.writer().await?;
        let result = async {
            let mut tx = crate::begin_write(self.backend, &mut conn).await?;
            let there = sqlx::query("SELECT 1 AS one FROM archive WHERE game_id = $1")
                .bind(id)
                .fetch_optional(&mut *tx)
                .await?
                .is_some();
            if there {
                return Ok(false);
            }
            insert_archive(&mut tx, &[(id, game)], false).await?;
            tx.commit().await?;
            Ok::<bool, StoreError>(true)
        }
        .await;
        self.release(conn, result).await
    }

    /// Finished games played here that are not archived yet (a node that stopped between a
    /// game's end and its archiving leaves some), at most `limit`.
    ///
    /// # Errors
    /// Database errors.
    pub async fn unarchived_games(&self, limit: i64) -> Result<Vec<String>> {
        let rows = sqlx::query(
            "SELECT id FROM games g WHERE status = 'finished' AND mode <> 'imported' \
             AND NOT EXISTS (SELECT 1 FROM archive a WHERE a.game_id = g.id) \
             ORDER BY updated_ms LIMIT $1",
        )
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|r| Ok(r.try_get("id")?)).collect()
    }

    /// One page of the archived games that `query` asks for, newest first.
    ///
    /// # Errors
    /// [`StoreError::Invalid`] for a result filter about a player without a player; database
    /// errors.
    pub async fn search_archive(&self, query: &ArchiveQuery) -> Result<ArchivePage> {
        let mut clauses: Vec<String> = Vec::new();
        let mut texts: Vec<String> = Vec::new();
        let mut ints: Vec<i64> = Vec::new();
        // Parameters are numbered in the order they are bound: texts first, then numbers.
        let player = query.player.as_deref().map(str::trim).filter(|p| !p.is_empty());
        let text = |clauses: &mut Vec<String>, texts: &mut Vec<String>, sql: &str, v: &str| {
            texts.push(v.to_string());
            clauses.push(sql.replace('?', &format!("${}", texts.len())));
        };
        if let Some(p) = player {
            let key = p.to_lowercase();
            text(&mut clauses, &mut texts, "(p1_key = ? OR p2_key = ?)", &key);
        }
        if let Some(g) = query.game.as_deref().filter(|g| !g.is_empty()) {
            text(&mut clauses, &mut texts, "game = ?", g);
        }
        if let Some(v) = query.variant.as_deref().filter(|v| !v.is_empty()) {
            text(&mut clauses, &mut texts, "variant = ?", v);
        }
        match (query.result, player) {
            (None, _) => {}
            (Some(ResultFilter::Won(seat)), _) => {
                text(&mut clauses, &mut texts, "result = ?", seat.as_str());
            }
            (Some(ResultFilter::Draw), _) => text(&mut clauses, &mut texts, "result = ?", "draw"),
            (Some(ResultFilter::PlayerWon | ResultFilter::PlayerLost), None) => {
                return Err(StoreError::Invalid(
                    "a result for the player needs a player to search for".into(),
                ));
            }
            (Some(ResultFilter::PlayerWon), Some(p)) => {
                let key = p.to_lowercase();
                text(
                    &mut clauses,
                    &mut texts,
                    "((p1_key = ? AND result = 'P1') OR (p2_key = ? AND result = 'P2'))",
                    &key,
                );
            }
            (Some(ResultFilter::PlayerLost), Some(p)) => {
                let key = p.to_lowercase();
                text(
                    &mut clauses,
                    &mut texts,
                    "((p1_key = ? AND result = 'P2') OR (p2_key = ? AND result = 'P1'))",
                    &key,
                );
            }
        }
        let mut int = |clauses: &mut Vec<String>, sql: &str, v: i64, base: usize| {
            ints.push(v);
            clauses.push(sql.replace('?', &format!("${}", base + ints.len())));
        };
        let base = texts.len();
        if let Some(v) = query.from_ms {
            int(&mut clauses, "played_ms >= ?", v, base);
        }
        if let Some(v) = query.to_ms {
            int(&mut clauses, "played_ms < ?", v, base);
        }
        if let Some(v) = query.min_plies {
            int(&mut clauses, "plies >= ?", v, base);
        }
        if let Some(v) = query.max_plies {
            int(&mut clauses, "plies <= ?", v, base);
        }
        // Newest first is the order of the date index, which a search walks until a page is
        // full: quick unless the matches are rare. A range of lengths is the one filter rare
        // matches come from that no other index serves in that order: when it holds few
        // games, they are found by the length index and sorted instead.
        let mut order = "played_ms DESC, game_id DESC";
        if query.min_plies.is_some() || query.max_plies.is_some() {
            let in_range =
                sqlx::query("SELECT COUNT(*) AS n FROM archive WHERE plies >= $1 AND plies <= $2")
                    .bind(query.min_plies.unwrap_or(0))
                    .bind(query.max_plies.unwrap_or(i64::MAX))
                    .fetch_one(&self.pool)
                    .await?
                    .try_get::<i64, _>("n")?;
            if in_range <= FEW_TO_SORT {
                order = "+played_ms DESC, game_id DESC";
            }
        }
        let per_page = i64::from(query.per_page.clamp(1, 200));
        let offset = i64::from(query.page) * per_page;
        let n = texts.len() + ints.len();
        let filter = if clauses.is_empty() {
            String::new()
        } else {
            format!("WHERE {}", clauses.join(" AND "))
        };
        let sql = format!(
            "SELECT game_id, game, variant, p1_name, p2_name, result, reason, plies, played_ms, \
             source FROM archive {filter} ORDER BY {order} LIMIT ${} OFFSET ${}",
            n + 1,
            n + 2
        );
        let mut q = sqlx::query(sqlx::AssertSqlSafe(sql));
        for t in &texts {
            q = q.bind(t.as_str());
        }
        for i in &ints {
            q = q.bind(*i);
        }
        let rows = q.bind(per_page + 1).bind(offset).fetch_all(&self.pool).await?;
        let mut page = ArchivePage { rows: Vec::with_capacity(rows.len()), more: false };
        for row in &rows {
            if count(page.rows.len()) == per_page {
                page.more = true;
                break;
            }
            page.rows.push(archive_row(row)?);
        }
        Ok(page)
    }

    /// The archive's row of game `id`, if it is archived.
    ///
    /// # Errors
    /// Database errors.
    pub async fn archived(&self, id: &str) -> Result<Option<ArchiveRow>> {
        let row = sqlx::query(
            "SELECT game_id, game, variant, p1_name, p2_name, result, reason, plies, played_ms, \
             source FROM archive WHERE game_id = $1",
        )
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(archive_row).transpose()
    }

    /// The turns played from the position with key `position` in the archived games, most
    /// played first, with how those games ended. A position reached twice in one game counts
    /// twice.
    ///
    /// # Errors
    /// Database errors.
    pub async fn explore(&self, position: i64) -> Result<Vec<ExplorerMove>> {
        let rows = sqlx::query(
            "SELECT move, games, p1_wins, p2_wins, draws FROM explorer WHERE position = $1 \
             ORDER BY games DESC, move",
        )
        .bind(position)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(ExplorerMove {
                    notation: r.try_get("move")?,
                    games: r.try_get("games")?,
                    p1_wins: r.try_get("p1_wins")?,
                    p2_wins: r.try_get("p2_wins")?,
                    draws: r.try_get("draws")?,
                })
            })
            .collect()
    }

    /// Archived games that reached the position with key `position`: for each turn played from
    /// it, the latest game that played it; newest first, at most `limit`.
    ///
    /// # Errors
    /// Database errors.
    pub async fn games_at(&self, position: i64, limit: i64) -> Result<Vec<ArchiveRow>> {
        let rows = sqlx::query(
            "SELECT a.game_id, a.game, a.variant, a.p1_name, a.p2_name, a.result, a.reason, \
             a.plies, a.played_ms, a.source FROM archive a WHERE a.game_id IN \
             (SELECT e.last_game_id FROM explorer e WHERE e.position = $1) \
             ORDER BY a.played_ms DESC, a.game_id DESC LIMIT $2",
        )
        .bind(position)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(archive_row).collect()
    }

    /// The names of the players of archived game `id` (games read from records have no
    /// player rows).
    ///
    /// # Errors
    /// Database errors.
    pub async fn archived_names(&self, id: &str) -> Result<Option<[String; 2]>> {
        Ok(self.archived(id).await?.map(|r| r.names))
    }

    /// Refreshes the database's statistics of the archive, so its planner picks the right
    /// index for each search (after a large import).
    ///
    /// # Errors
    /// Database errors.
    pub async fn analyse_archive(&self) -> Result<()> {
        self.write(sqlx::query("ANALYZE archive")).await?;
        Ok(())
    }

    /// The (source, key) pairs of `games` that are archived already.
    async fn archived_keys(&self, games: &[ArchivedGame]) -> Result<HashSet<(String, String)>> {
        let mut known = HashSet::new();
        for chunk in games.chunks(rows_per_statement(2)) {
            let marks: Vec<String> =
                (0..chunk.len()).map(|i| format!("(${}, ${})", 2 * i + 1, 2 * i + 2)).collect();
            let sql = format!(
                "SELECT source, source_key FROM archive WHERE (source, source_key) IN ({})",
                marks.join(", ")
            );
            let mut query = sqlx::query(sqlx::AssertSqlSafe(sql));
            for g in chunk {
                query = query.bind(g.source.as_str()).bind(g.source_key.as_str());
            }
            for row in query.fetch_all(&self.pool).await? {
                known.insert((row.try_get("source")?, row.try_get("source_key")?));
            }
        }
        Ok(known)
    }
}

/// A count as the database stores it.
fn count(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// Writes the archive rows and the positions of `games` (each with its game id), with their
/// turns when `with_moves` (games read from records, which have no rows in `moves`).
async fn insert_archive(
    tx: &mut sqlx::Transaction<'_, Any>,
    games: &[(&str, &ArchivedGame)],
    with_moves: bool,
) -> Result<()> {
    let moves: Vec<Option<String>> =
        games.iter().map(|(_, g)| with_moves.then(|| g.moves.join(" "))).collect();
    let keys: Vec<[String; 2]> =
        games.iter().map(|(_, g)| [g.names[0].to_lowercase(), g.names[1].to_lowercase()]).collect();
    let rows: Vec<Vec<Value>> = games
        .iter()
        .zip(&keys)
        .zip(&moves)
        .map(|(((id, g), key), moves)| {
            vec![
                Value::Text(id),
                Value::Text(&g.game),
                Value::Text(&g.variant),
                Value::Text(&g.names[0]),
                Value::Text(&g.names[1]),
                Value::Text(&key[0]),
                Value::Text(&key[1]),
                Value::Text(result_text(g.outcome)),
                Value::OptText(g.reason.map(EndReason::as_str)),
                Value::Int(count(g.moves.len())),
                Value::Int(g.played_ms),
                Value::Text(&g.source),
                Value::Text(&g.source_key),
                Value::OptText(moves.as_deref()),
            ]
        })
        .collect();
    insert_rows(
        tx,
        "INSERT INTO archive (game_id, game, variant, p1_name, p2_name, p1_key, p2_key, result, \
         reason, plies, played_ms, source, source_key, moves)",
        14,
        &rows,
    )
    .await?;
    // The explorer's counts: the batch's own first (an opening is played in many of its
    // games), then added to the stored ones, in key order (neighbouring entries of the B-tree
    // are written together).
    let mut counts: std::collections::BTreeMap<(i64, &str), Tally<'_>> =
        std::collections::BTreeMap::new();
    for (id, g) in games {
        for (position, m) in g.positions.iter().zip(&g.moves) {
            let tally = counts.entry((*position, m.as_str())).or_insert(Tally {
                games: 0,
                wins: [0, 0],
                draws: 0,
                last: (i64::MIN, ""),
            });
            tally.games += 1;
            match g.outcome {
                Some(Outcome::Win(p)) => tally.wins[p.index()] += 1,
                Some(Outcome::Draw) => tally.draws += 1,
                None => {}
            }
            tally.last = tally.last.max((g.played_ms, id));
        }
    }
    let rows: Vec<Vec<Value>> = counts
        .iter()
        .map(|((position, m), t)| {
            vec![
                Value::Int(*position),
                Value::Text(m),
                Value::Int(t.games),
                Value::Int(t.wins[0]),
                Value::Int(t.wins[1]),
                Value::Int(t.draws),
                Value::Text(t.last.1),
                Value::Int(t.last.0),
            ]
        })
        .collect();
    for chunk in rows.chunks(rows_per_statement(8)) {
        let sql = format!(
            "INSERT INTO explorer (position, move, games, p1_wins, p2_wins, draws, last_game_id, \
             last_played_ms) VALUES {} \
             ON CONFLICT (position, move) DO UPDATE SET games = explorer.games + excluded.games, \
             p1_wins = explorer.p1_wins + excluded.p1_wins, \
             p2_wins = explorer.p2_wins + excluded.p2_wins, \
             draws = explorer.draws + excluded.draws, \
             last_game_id = CASE WHEN excluded.last_played_ms >= explorer.last_played_ms \
             THEN excluded.last_game_id ELSE explorer.last_game_id END, \
             last_played_ms = CASE WHEN excluded.last_played_ms >= explorer.last_played_ms \
             THEN excluded.last_played_ms ELSE explorer.last_played_ms END",
            placeholders(chunk.len(), 8)
        );
        bind_rows(sqlx::query(sqlx::AssertSqlSafe(sql)), chunk).execute(&mut **tx).await?;
    }
    Ok(())
}

/// What the games of a batch played from one position: how often, how they ended, and the
/// latest of them (played at, id).
struct Tally<'a> {
    games: i64,
    wins: [i64; 2],
    draws: i64,
    last: (i64, &'a str),
}

fn archive_row(row: &sqlx::any::AnyRow) -> Result<ArchiveRow> {
    let id: String = row.try_get("game_id")?;
    let result: String = row.try_get("result")?;
    let outcome = parse_result(&result)
        .ok_or_else(|| crate::corrupt(&id, format!("archived result '{result}'")))?;
    let reason = match row.try_get::<Option<String>, _>("reason")? {
        None => None,
        Some(r) => Some(
            EndReason::parse(&r)
                .ok_or_else(|| crate::corrupt(&id, format!("archived end reason '{r}'")))?,
        ),
    };
    Ok(ArchiveRow {
        game: row.try_get("game")?,
        variant: row.try_get("variant")?,
        names: [row.try_get("p1_name")?, row.try_get("p2_name")?],
        outcome,
        reason,
        plies: row.try_get("plies")?,
        played_ms: row.try_get("played_ms")?,
        source: row.try_get("source")?,
        game_id: id,
    })
}

/// The turns of game `id`, read from a record, as its archive row keeps them.
pub(crate) async fn imported_moves(
    tx: &mut sqlx::Transaction<'_, Any>,
    id: &str,
) -> Result<Vec<String>> {
    let row = sqlx::query("SELECT moves FROM archive WHERE game_id = $1")
        .bind(id)
        .fetch_optional(&mut **tx)
        .await?
        .ok_or_else(|| {
            crate::corrupt(id, "a game read from a record without its archive row".into())
        })?;
    let moves: Option<String> = row.try_get("moves")?;
    let moves = moves
        .ok_or_else(|| crate::corrupt(id, "a game read from a record without its turns".into()))?;
    Ok(moves.split_whitespace().map(str::to_string).collect())
}
