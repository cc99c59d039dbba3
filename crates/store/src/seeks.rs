//! The lobby's open challenges (seeks): made, held open by their creator's page, cancelled,
//! and accepted exactly once (a claim in one statement decides between two people accepting
//! the same seek on two nodes).

use sqlx::Row;
use sqlx::any::AnyRow;

use crate::{Clock, Result, Store, StoreError, now_ms, random_hex};

/// A seek to make.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewSeek {
    pub player: Option<String>,
    pub game: String,
    pub variant: String,
    pub clock: Option<Clock>,
    pub rated: bool,
    /// `P1`, `P2` or `random`: the seat the creator wants.
    pub colour: String,
}

/// A stored seek.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeekRow {
    pub id: String,
    /// The creator's secret: holds the seek open, cancels it, and is never shown to others.
    pub token: String,
    pub player: Option<String>,
    pub game: String,
    pub variant: String,
    pub clock: Option<Clock>,
    pub rated: bool,
    pub colour: String,
    pub created_ms: i64,
    pub held_ms: i64,
    /// The game it became, once accepted, and the creator's way into it.
    pub game_id: Option<String>,
    pub creator_url: Option<String>,
}

const SEEK_COLUMNS: &str = "id, token, player, game, variant, clock, rated, colour, created_ms, \
                            held_ms, game_id, creator_url";

fn seek_from_row(row: &AnyRow) -> Result<SeekRow> {
    let id: String = row.try_get("id")?;
    let clock = match row.try_get::<Option<String>, _>("clock")? {
        None => None,
        Some(text) => Some(Clock::parse(&text).ok_or_else(|| StoreError::Corrupt {
            game: id.clone(),
            detail: format!("a seek's clock '{text}'"),
        })?),
    };
    Ok(SeekRow {
        token: row.try_get("token")?,
        player: row.try_get("player")?,
        game: row.try_get("game")?,
        variant: row.try_get("variant")?,
        clock,
        rated: row.try_get::<i64, _>("rated")? != 0,
        colour: row.try_get("colour")?,
        created_ms: row.try_get("created_ms")?,
        held_ms: row.try_get("held_ms")?,
        game_id: row.try_get("game_id")?,
        creator_url: row.try_get("creator_url")?,
        id,
    })
}

impl Store {
    /// Makes a seek, held from now.
    ///
    /// # Errors
    /// Database errors.
    pub async fn create_seek(&self, new: &NewSeek) -> Result<SeekRow> {
        let id = random_hex(6);
        let token = random_hex(16);
        let now = now_ms();
        self.write(
            sqlx::query(
                "INSERT INTO seeks (id, token, player, game, variant, clock, rated, colour, \
             created_ms, held_ms, game_id, creator_url) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9, NULL, NULL)",
            )
            .bind(&id)
            .bind(&token)
            .bind(new.player.as_deref())
            .bind(&new.game)
            .bind(&new.variant)
            .bind(new.clock.map(Clock::to_text))
            .bind(i64::from(new.rated))
            .bind(&new.colour)
            .bind(now),
        )
        .await?;
        self.seek(&id).await?.ok_or_else(|| StoreError::NotFound(id))
    }

    /// The seek `id`, open or taken.
    ///
    /// # Errors
    /// Database errors.
    pub async fn seek(&self, id: &str) -> Result<Option<SeekRow>> {
        let sql = format!("SELECT {SEEK_COLUMNS} FROM seeks WHERE id = $1");
        let row = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(id).fetch_optional(&self.pool).await?;
        row.as_ref().map(seek_from_row).transpose()
    }

    /// The open seeks held since `held_since_ms`, oldest first.
    ///
    /// # Errors
    /// Database errors.
    pub async fn open_seeks(&self, held_since_ms: i64) -> Result<Vec<SeekRow>> {
        let sql = format!(
            "SELECT {SEEK_COLUMNS} FROM seeks WHERE game_id IS NULL AND held_ms >= $1 \
             ORDER BY created_ms LIMIT 200"
        );
        let rows =
            sqlx::query(sqlx::AssertSqlSafe(sql)).bind(held_since_ms).fetch_all(&self.pool).await?;
        rows.iter().map(seek_from_row).collect()
    }

    /// Keeps the open seek `id` held (its creator is still there): `false` when the token is
    /// not its own or it is no longer open.
    ///
    /// # Errors
    /// Database errors.
    pub async fn hold_seek(&self, id: &str, token: &str) -> Result<bool> {
        let done = self.write(sqlx::query(
            "UPDATE seeks SET held_ms = $1 WHERE id = $2 AND token = $3 AND game_id IS NULL",
        )
        .bind(now_ms())
        .bind(id)
        .bind(token)).await?;
        Ok(done.rows_affected() == 1)
    }

    /// Cancels the open seek `id`: `false` when the token is not its own or it was taken.
    ///
    /// # Errors
    /// Database errors.
    pub async fn cancel_seek(&self, id: &str, token: &str) -> Result<bool> {
        let done = self
            .write(
                sqlx::query("DELETE FROM seeks WHERE id = $1 AND token = $2 AND game_id IS NULL")
                    .bind(id)
                    .bind(token),
            )
            .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Claims the open seek `id` (held since `held_since_ms`) for an accepting player: exactly
    /// one claim of a seek succeeds. `None` when it is gone or taken.
    ///
    /// # Errors
    /// Database errors.
    pub async fn claim_seek(&self, id: &str, held_since_ms: i64) -> Result<Option<SeekRow>> {
        let claim = format!("claimed:{}", random_hex(8));
        let done = self.write(sqlx::query(
            "UPDATE seeks SET game_id = $1 WHERE id = $2 AND game_id IS NULL AND held_ms >= $3",
        )
        .bind(&claim)
        .bind(id)
        .bind(held_since_ms)).await?;
        if done.rows_affected() != 1 {
            return Ok(None);
        }
        self.seek(id).await
    }

    /// Records the game a claimed seek became, and the creator's way into it.
    ///
    /// # Errors
    /// Database errors.
    pub async fn seek_started(&self, id: &str, game_id: &str, creator_url: &str) -> Result<()> {
        self.write(
            sqlx::query("UPDATE seeks SET game_id = $1, creator_url = $2 WHERE id = $3")
                .bind(game_id)
                .bind(creator_url)
                .bind(id),
        )
        .await?;
        Ok(())
    }

    /// Forgets seeks not held since `before_ms` that nobody took, and taken ones made before
    /// `taken_before_ms` (their creator's page had the time to follow).
    ///
    /// # Errors
    /// Database errors.
    pub async fn purge_seeks(&self, before_ms: i64, taken_before_ms: i64) -> Result<()> {
        self.write(
            sqlx::query(
                "DELETE FROM seeks WHERE (game_id IS NULL AND held_ms < $1) \
             OR (game_id IS NOT NULL AND created_ms < $2)",
            )
            .bind(before_ms)
            .bind(taken_before_ms),
        )
        .await?;
        Ok(())
    }
}
