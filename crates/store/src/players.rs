//! Players, accounts and Glicko-2 ratings (migration 0008).
//!
//! A player is a row of `players`: a guest with a display name, or an account (a login name
//! in lower case and an argon2 hash that the server makes). Ratings are kept per player and
//! game; [`Store::rate_game`] applies a finished rated game's result once, in one
//! transaction that also records the game in `rated_games`, so a result counts once however
//! many nodes (or times) apply it.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock, Weak};

use ply_core::{Outcome, Player};
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2_rating_period};
use sqlx::Row;
use sqlx::any::AnyRow;

use crate::{
    Backend, GAME_COLUMNS, GameRow, Result, Store, StoreError, WriteHealth, game_from_row, now_ms,
    random_hex,
};

/// A player: a guest or an account.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerRow {
    /// 16 hex digits.
    pub id: String,
    /// The display name (1–24 characters, checked by the server).
    pub name: String,
    /// The login name of an account (lower case), `None` for a guest.
    pub account: Option<String>,
    pub created_ms: i64,
}

/// A Glicko-2 rating in one game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    /// Rated games played.
    pub games: i64,
}

impl Default for Rating {
    /// A new player's: 1500, deviation 350, volatility 0.06, no games.
    fn default() -> Rating {
        let g = Glicko2Rating::new();
        Rating { rating: g.rating, deviation: g.deviation, volatility: g.volatility, games: 0 }
    }
}

/// A rating whose deviation is above this is provisional (as on lichess).
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

impl Rating {
    /// Whether the rating is still uncertain (deviation above [`PROVISIONAL_DEVIATION`]).
    #[must_use]
    pub fn provisional(&self) -> bool {
        self.deviation > PROVISIONAL_DEVIATION
    }

    fn glicko(self) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }

    /// The rating after one Glicko-2 rating period with these `results` (each an opponent's
    /// rating and this player's score: 1 a win, 0.5 a draw, 0 a loss), computed by the
    /// `skillratings` crate with the paper's constants (τ = 0.5). Every rated game is a
    /// rating period of its own, so a rating moves as soon as a game ends.
    #[must_use]
    pub fn after(self, results: &[(Rating, f64)]) -> Rating {
        let results: Vec<(Glicko2Rating, Outcomes)> = results
            .iter()
            .map(|(opponent, score)| {
                let outcome = if *score > 0.75 {
                    Outcomes::WIN
                } else if *score < 0.25 {
                    Outcomes::LOSS
                } else {
                    Outcomes::DRAW
                };
                (opponent.glicko(), outcome)
            })
            .collect();
        let new = glicko2_rating_period(&self.glicko(), &results, &Glicko2Config::new());
        Rating {
            rating: new.rating,
            deviation: new.deviation,
            volatility: new.volatility,
            games: self.games + i64::try_from(results.len()).unwrap_or(0),
        }
    }
}

/// A point of a player's rating history: the rating after game `game_id`.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingPoint {
    pub game_id: String,
    pub at_ms: i64,
    pub rating: f64,
    pub deviation: f64,
}

/// A line of a leaderboard.
#[derive(Clone, Debug, PartialEq)]
pub struct LeaderRow {
    pub player: String,
    pub name: String,
    pub rating: Rating,
}

fn player_from_row(row: &AnyRow) -> Result<PlayerRow> {
    Ok(PlayerRow {
        id: row.try_get("id")?,
        name: row.try_get("name")?,
        account: row.try_get("account")?,
        created_ms: row.try_get("created_ms")?,
    })
}

fn rating_from_row(row: &AnyRow) -> Result<Rating> {
    Ok(Rating {
        rating: row.try_get("rating")?,
        deviation: row.try_get("deviation")?,
        volatility: row.try_get("volatility")?,
        games: row.try_get("games")?,
    })
}

/// `$start, $start+1, …` for `n` values.
fn marks(start: usize, n: usize) -> String {
    (start..start + n).map(|i| format!("${i}")).collect::<Vec<_>>().join(", ")
}

/// Settings already read, per open store (a `Weak` keeps the address of a closed store from
/// being taken by a new one, so a store never reads another's values).
type SettingsCache = Mutex<Vec<(Weak<WriteHealth>, String, String)>>;

fn settings_cache() -> &'static SettingsCache {
    static CACHE: OnceLock<SettingsCache> = OnceLock::new();
    CACHE.get_or_init(Mutex::default)
}

impl Store {
    /// The setting `key`: its stored value, or `make()` stored now when it has none (the
    /// first node to store one wins, and every node then reads that one). Values never
    /// change once stored, so they are kept in memory after the first read.
    ///
    /// # Errors
    /// Database errors.
    pub async fn setting_or_insert(
        &self,
        key: &str,
        make: impl FnOnce() -> String,
    ) -> Result<String> {
        let me = Arc::downgrade(&self.health);
        {
            let mut cache =
                settings_cache().lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            cache.retain(|(store, _, _)| store.strong_count() > 0);
            if let Some((_, _, v)) = cache.iter().find(|(s, k, _)| s.ptr_eq(&me) && k == key) {
                return Ok(v.clone());
            }
        }
        let read = |row: Option<AnyRow>| -> Result<Option<String>> {
            row.map(|r| r.try_get::<String, _>("value")).transpose().map_err(StoreError::from)
        };
        let mut value = read(
            sqlx::query("SELECT value FROM settings WHERE key = $1")
                .bind(key)
                .fetch_optional(&self.pool)
                .await?,
        )?;
        if value.is_none() {
            let mut conn = self.writer().await?;
            let result = async {
                sqlx::query(
                    "INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING",
                )
                .bind(key)
                .bind(make())
                .execute(&mut *conn)
                .await?;
                let row = sqlx::query("SELECT value FROM settings WHERE key = $1")
                    .bind(key)
                    .fetch_optional(&mut *conn)
                    .await?;
                read(row)
            }
            .await;
            value = self.release(conn, result).await?;
        }
        let value = value
            .ok_or_else(|| StoreError::WriteFailed(format!("setting {key} was not stored")))?;
        settings_cache().lock().unwrap_or_else(std::sync::PoisonError::into_inner).push((
            me,
            key.to_string(),
            value.clone(),
        ));
        Ok(value)
    }

    /// Stores a new guest player named `name`.
    ///
    /// # Errors
    /// Database errors.
    pub async fn create_player(&self, name: &str) -> Result<PlayerRow> {
        let player = PlayerRow {
            id: random_hex(8),
            name: name.to_string(),
            account: None,
            created_ms: now_ms(),
        };
        let mut conn = self.writer().await?;
        let result = sqlx::query("INSERT INTO players (id, name, created_ms) VALUES ($1, $2, $3)")
            .bind(&player.id)
            .bind(&player.name)
            .bind(player.created_ms)
            .execute(&mut *conn)
            .await
            .map(|_| ())
            .map_err(StoreError::from);
        self.release(conn, result).await?;
        Ok(player)
    }

    /// The player `id`, if there is one.
    ///
    /// # Errors
    /// Database errors.
    pub async fn player(&self, id: &str) -> Result<Option<PlayerRow>> {
        let row = sqlx::query("SELECT id, name, account, created_ms FROM players WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref().map(player_from_row).transpose()
    }

    /// The names of these players, by id (unknown ids are left out).
    ///
    /// # Errors
    /// Database errors.
    pub async fn player_names(&self, ids: &[String]) -> Result<HashMap<String, String>> {
        let mut out = HashMap::new();
        for chunk in ids.chunks(200) {
            let sql =
                format!("SELECT id, name FROM players WHERE id IN ({})", marks(1, chunk.len()));
            let mut query = sqlx::query(sqlx::AssertSqlSafe(sql));
            for id in chunk {
                query = query.bind(id.as_str());
            }
            for row in query.fetch_all(&self.pool).await? {
                out.insert(row.try_get("id")?, row.try_get("name")?);
            }
        }
        Ok(out)
    }

    /// Renames player `id`; `false` when there is no such player.
    ///
    /// # Errors
    /// Database errors.
    pub async fn rename_player(&self, id: &str, name: &str) -> Result<bool> {
        let mut conn = self.writer().await?;
        let result = sqlx::query("UPDATE players SET name = $1 WHERE id = $2")
            .bind(name)
            .bind(id)
            .execute(&mut *conn)
            .await
            .map(|r| r.rows_affected() == 1)
            .map_err(StoreError::from);
        self.release(conn, result).await
    }

    /// Makes guest `id` an account with login name `account` (lower case) and the password
    /// hash `password_hash`: `false` when the login name is taken or the player already is an
    /// account (or does not exist).
    ///
    /// # Errors
    /// Database errors.
    pub async fn register_account(
        &self,
        id: &str,
        account: &str,
        password_hash: &str,
    ) -> Result<bool> {
        let mut conn = self.writer().await?;
        let result = sqlx::query(
            "UPDATE players SET account = $1, password = $2 WHERE id = $3 AND account IS NULL \
             AND NOT EXISTS (SELECT 1 FROM players p WHERE p.account = $1)",
        )
        .bind(account)
        .bind(password_hash)
        .bind(id)
        .execute(&mut *conn)
        .await;
        let result = match result {
            Ok(r) => Ok(r.rows_affected() == 1),
            // Two registrations of one name at once: the unique index refuses the second.
            Err(sqlx::Error::Database(e)) if e.is_unique_violation() => Ok(false),
            Err(e) => Err(StoreError::from(e)),
        };
        self.release(conn, result).await
    }

    /// The account with login name `account` (lower case) and its password hash.
    ///
    /// # Errors
    /// Database errors.
    pub async fn account(&self, account: &str) -> Result<Option<(PlayerRow, String)>> {
        let row = sqlx::query(
            "SELECT id, name, account, created_ms, password FROM players WHERE account = $1",
        )
        .bind(account)
        .fetch_optional(&self.pool)
        .await?;
        match row {
            None => Ok(None),
            Some(row) => {
                let hash: Option<String> = row.try_get("password")?;
                Ok(hash.map(|h| player_from_row(&row).map(|p| (p, h))).transpose()?)
            }
        }
    }

    /// Player `id`'s ratings, by game (games they never played rated are left out).
    ///
    /// # Errors
    /// Database errors.
    pub async fn ratings_of(&self, id: &str) -> Result<Vec<(String, Rating)>> {
        let rows = sqlx::query(
            "SELECT game, rating, deviation, volatility, games FROM ratings \
             WHERE player = $1 AND games > 0 ORDER BY game",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|r| Ok((r.try_get("game")?, rating_from_row(r)?))).collect()
    }

    /// The ratings in `game` of these players, by id (players without a rated game of it are
    /// left out: they have the default [`Rating`]).
    ///
    /// # Errors
    /// Database errors.
    pub async fn ratings_in(&self, game: &str, ids: &[String]) -> Result<HashMap<String, Rating>> {
        let mut out = HashMap::new();
        for chunk in ids.chunks(200) {
            let sql = format!(
                "SELECT player, rating, deviation, volatility, games FROM ratings \
                 WHERE game = $1 AND games > 0 AND player IN ({})",
                marks(2, chunk.len())
            );
            let mut query = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(game);
            for id in chunk {
                query = query.bind(id.as_str());
            }
            for row in query.fetch_all(&self.pool).await? {
                out.insert(row.try_get("player")?, rating_from_row(&row)?);
            }
        }
        Ok(out)
    }

    /// The best `limit` players of `game` by rating, among those with a rated game.
    ///
    /// # Errors
    /// Database errors.
    pub async fn leaderboard(&self, game: &str, limit: i64) -> Result<Vec<LeaderRow>> {
        let rows = sqlx::query(
            "SELECT r.player, p.name, r.rating, r.deviation, r.volatility, r.games \
             FROM ratings r JOIN players p ON p.id = r.player \
             WHERE r.game = $1 AND r.games > 0 ORDER BY r.rating DESC, r.player LIMIT $2",
        )
        .bind(game)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(LeaderRow {
                    player: r.try_get("player")?,
                    name: r.try_get("name")?,
                    rating: rating_from_row(r)?,
                })
            })
            .collect()
    }

    /// Player `id`'s rating after each of their rated games of `game`, oldest first.
    ///
    /// # Errors
    /// Database errors.
    pub async fn rating_history(&self, id: &str, game: &str) -> Result<Vec<RatingPoint>> {
        let rows = sqlx::query(
            "SELECT game_id, at_ms, rating, deviation FROM rating_history \
             WHERE player = $1 AND game = $2 ORDER BY at_ms, game_id",
        )
        .bind(id)
        .bind(game)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(RatingPoint {
                    game_id: r.try_get("game_id")?,
                    at_ms: r.try_get("at_ms")?,
                    rating: r.try_get("rating")?,
                    deviation: r.try_get("deviation")?,
                })
            })
            .collect()
    }

    /// Player `id`'s most recent games (either seat), newest first, at most `limit`, with
    /// their turn counts.
    ///
    /// # Errors
    /// Database errors.
    pub async fn games_of_player(&self, id: &str, limit: i64) -> Result<Vec<GameRow>> {
        let sql = format!(
            "SELECT {GAME_COLUMNS}, (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id) AS plies \
             FROM games g WHERE p1_player = $1 OR p2_player = $1 ORDER BY updated_ms DESC LIMIT $2"
        );
        let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(id)
            .bind(limit)
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(game_from_row).collect()
    }

    /// Applies the result of game `game_id` to its players' ratings, once: for a finished
    /// game with `rated` set and two different known players, in one transaction that also
    /// records the game in `rated_games`, updates both ratings (each player's rating before
    /// the game against the other's, a draw scoring 0.5) and adds a point to each rating
    /// history. Answers the new ratings of the players of P1 and P2, or `None` when there is
    /// nothing to do: the game is live, unrated, lacks a player, or was applied before (by
    /// this node or another). Safe to call any number of times, from any node.
    ///
    /// # Errors
    /// [`StoreError::NotFound`], [`StoreError::Corrupt`] and database errors (nothing is
    /// written then).
    pub async fn rate_game(&self, game_id: &str) -> Result<Option<(Rating, Rating)>> {
        let game = self.game(game_id).await?;
        let (Some(ended), [Some(p1), Some(p2)]) = (game.ended, &game.players) else {
            return Ok(None);
        };
        if !game.rated || p1 == p2 {
            return Ok(None);
        }
        let score1 = match ended.outcome {
            Outcome::Win(Player::P1) => 1.0,
            Outcome::Win(Player::P2) => 0.0,
            Outcome::Draw => 0.5,
        };
        let mut conn = self.writer().await?;
        let backend = self.backend;
        let result = async {
            let mut tx = crate::begin_write(backend, &mut conn).await?;
            let now = now_ms();
            let claimed = sqlx::query(
                "INSERT INTO rated_games (game_id, at_ms) VALUES ($1, $2) \
                 ON CONFLICT (game_id) DO NOTHING",
            )
            .bind(game_id)
            .bind(now)
            .execute(&mut *tx)
            .await?;
            if claimed.rows_affected() != 1 {
                tx.rollback().await?;
                return Ok(None);
            }
            let start = Rating::default();
            for p in [p1, p2] {
                sqlx::query(
                    "INSERT INTO ratings (player, game, rating, deviation, volatility, games, \
                     updated_ms) VALUES ($1, $2, $3, $4, $5, 0, $6) \
                     ON CONFLICT (player, game) DO NOTHING",
                )
                .bind(p.as_str())
                .bind(&game.game)
                .bind(start.rating)
                .bind(start.deviation)
                .bind(start.volatility)
                .bind(now)
                .execute(&mut *tx)
                .await?;
            }
            // Lock both rows (in one order on every node) so two games of one player that
            // end at once on two nodes cannot both start from the same rating.
            let lock = if backend == Backend::Postgres { " FOR UPDATE" } else { "" };
            let sql = format!(
                "SELECT player, rating, deviation, volatility, games FROM ratings \
                 WHERE game = $1 AND player IN ($2, $3) ORDER BY player{lock}"
            );
            let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
                .bind(&game.game)
                .bind(p1.as_str())
                .bind(p2.as_str())
                .fetch_all(&mut *tx)
                .await?;
            let mut before = [start, start];
            for row in &rows {
                let who: String = row.try_get("player")?;
                let seat = usize::from(who == *p2);
                before[seat] = rating_from_row(row)?;
            }
            let after = [
                before[0].after(&[(before[1], score1)]),
                before[1].after(&[(before[0], 1.0 - score1)]),
            ];
            for (p, r) in [(p1, after[0]), (p2, after[1])] {
                sqlx::query(
                    "UPDATE ratings SET rating = $1, deviation = $2, volatility = $3, games = $4, \
                     updated_ms = $5 WHERE player = $6 AND game = $7",
                )
                .bind(r.rating)
                .bind(r.deviation)
                .bind(r.volatility)
                .bind(r.games)
                .bind(now)
                .bind(p.as_str())
                .bind(&game.game)
                .execute(&mut *tx)
                .await?;
                sqlx::query(
                    "INSERT INTO rating_history (player, game, game_id, at_ms, rating, deviation) \
                     VALUES ($1, $2, $3, $4, $5, $6)",
                )
                .bind(p.as_str())
                .bind(&game.game)
                .bind(game_id)
                .bind(now)
                .bind(r.rating)
                .bind(r.deviation)
                .execute(&mut *tx)
                .await?;
            }
            tx.commit().await?;
            Ok::<_, StoreError>(Some((after[0], after[1])))
        }
        .await;
        self.release(conn, result).await
    }
}
