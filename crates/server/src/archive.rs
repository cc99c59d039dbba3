//! The game library in the app: finished games land in the archive, the archive page searches
//! it (`/archive`, `/api/archive`), and the opening explorer answers what was played from any
//! position (`/api/explore`, and beside the analysis board).
//!
//! Games played here are archived when they end: a room that ends a game wakes the archiver,
//! which also sweeps at start-up and every minute for games a stopped node left (their end
//! was stored, their archiving not). Archiving replays the stored turns to key each position.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::time::Duration;

use axum::Json;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use ply_core::{Outcome, Player, position_key, position_keys};
use ply_store::{
    ArchiveQuery, ArchiveRow, ArchivedGame, EndReason, ExplorerMove, GameRow, Mode, ResultFilter,
};
use serde::{Deserialize, Serialize};

use crate::messages::{Arg, Messages};
use crate::pages::{esc, layout};
use crate::{AppState, error};

/// Games archived per sweep step.
const SWEEP_BATCH: i64 = 50;
/// The most games `/api/archive` lists in one page.
const MAX_PER_PAGE: u32 = 200;
/// Games listed by the explorer beside its turns.
const EXPLORER_GAMES: i64 = 8;

/// The name a seat is archived under: its player's name, the computer with its level, or
/// the seat.
fn seat_name(row: &GameRow, seat: Player, names: &HashMap<String, String>) -> String {
    if let Some(name) = row.players[seat.index()].as_ref().and_then(|id| names.get(id)) {
        return name.clone();
    }
    if row.mode == Mode::Computer && row.computer_seat == Some(seat) {
        return format!("ply level {}", row.level.unwrap_or(0));
    }
    seat.as_str().to_string()
}

/// Archives finished games that are not yet, `SWEEP_BATCH` at a time, until none is left.
/// A game whose turns do not replay is left out (and said in the log): the room refuses it too.
pub async fn sweep(state: &AppState) {
    let store = state.store();
    let registry = ply_games::registry();
    loop {
        let ids = match store.unarchived_games(SWEEP_BATCH).await {
            Ok(ids) => ids,
            Err(e) => {
                tracing::warn!("archive sweep: {e}");
                return;
            }
        };
        let mut archived = 0;
        for id in &ids {
            let (row, moves) = match store.load(id).await {
                Ok(loaded) => loaded,
                Err(e) => {
                    tracing::warn!("archiving {id}: {e}");
                    continue;
                }
            };
            let Some(ended) = row.ended else { continue };
            let replayed = registry.get(&row.game).ok().and_then(|entry| {
                let mut game = entry.new_game(Some(&row.variant)).ok()?;
                for m in &moves {
                    game.play(m).ok()?;
                }
                Some(game)
            });
            let Some(game) = replayed else {
                tracing::warn!("archiving {id}: its stored turns do not replay");
                continue;
            };
            let ids: Vec<String> = row.players.iter().flatten().cloned().collect();
            let names = store.player_names(&ids).await.unwrap_or_default();
            let entry = ArchivedGame {
                game: row.game.clone(),
                variant: row.variant.clone(),
                names: [seat_name(&row, Player::P1, &names), seat_name(&row, Player::P2, &names)],
                outcome: Some(ended.outcome),
                reason: Some(ended.reason),
                played_ms: row.updated_ms,
                source: "ply".into(),
                source_key: row.id.clone(),
                moves: game.history().to_vec(),
                positions: position_keys(game.as_ref()),
            };
            match store.archive_played(id, &entry).await {
                Ok(_) => archived += 1,
                // Another node archived it meanwhile, or the store cannot write: the next
                // sweep sees.
                Err(e) => tracing::warn!("archiving {id}: {e}"),
            }
        }
        if archived == 0 || ids.len() < usize::try_from(SWEEP_BATCH).unwrap_or(usize::MAX) {
            return;
        }
    }
}

impl AppState {
    /// Starts the archiver: a sweep now, then whenever a game ends here, and every minute
    /// (games another node ended and could not archive).
    pub fn archive_games(&self) {
        let state = self.clone();
        let wake = self.rooms.shared().archive_wake.clone();
        let mut stopping = self.stopping.clone();
        tokio::spawn(async move {
            loop {
                sweep(&state).await;
                tokio::select! {
                    () = wake.notified() => {}
                    () = tokio::time::sleep(Duration::from_secs(60)) => {}
                    _ = stopping.changed() => return,
                }
            }
        });
    }
}

/// The search of the archive page and of `GET /api/archive` (every field optional).
#[derive(Clone, Debug, Default, Deserialize)]
pub struct ArchiveParams {
    pub player: Option<String>,
    pub game: Option<String>,
    pub variant: Option<String>,
    /// `P1`, `P2`, `draw`, or with a player `won` / `lost`.
    pub result: Option<String>,
    /// `YYYY-MM-DD`: played on or after.
    pub from: Option<String>,
    /// `YYYY-MM-DD`: played on or before.
    pub to: Option<String>,
    pub min_turns: Option<String>,
    pub max_turns: Option<String>,
    /// From 1.
    pub page: Option<u32>,
    pub per_page: Option<u32>,
}

/// Unix milliseconds of midnight UTC starting `YYYY-MM-DD`.
fn day_ms(text: &str) -> Option<i64> {
    let date: jiff::civil::Date = text.trim().parse().ok()?;
    Some(date.to_zoned(jiff::tz::TimeZone::UTC).ok()?.timestamp().as_millisecond())
}

const DAY_MS: i64 = 86_400_000;

impl ArchiveParams {
    /// The store's query, or what is wrong with the parameters.
    fn query(&self) -> Result<ArchiveQuery, String> {
        fn text(v: &Option<String>) -> Option<&str> {
            v.as_deref().map(str::trim).filter(|s| !s.is_empty())
        }
        let number = |name: &str, v: &Option<String>| -> Result<Option<i64>, String> {
            text(v)
                .map(|s| s.parse::<i64>().map_err(|_| format!("{name} must be a whole number")))
                .transpose()
        };
        let date = |name: &str, v: &Option<String>| -> Result<Option<i64>, String> {
            text(v)
                .map(|s| day_ms(s).ok_or_else(|| format!("{name} must be a date YYYY-MM-DD")))
                .transpose()
        };
        let player = text(&self.player).map(str::to_string);
        let result = match text(&self.result) {
            None => None,
            Some("P1") => Some(ResultFilter::Won(Player::P1)),
            Some("P2") => Some(ResultFilter::Won(Player::P2)),
            Some("draw") => Some(ResultFilter::Draw),
            Some("won") if player.is_some() => Some(ResultFilter::PlayerWon),
            Some("lost") if player.is_some() => Some(ResultFilter::PlayerLost),
            Some("won" | "lost") => return Err("result won or lost needs a player".into()),
            Some(other) => {
                return Err(format!("result must be P1, P2, draw, won or lost, not '{other}'"));
            }
        };
        let game = text(&self.game).map(str::to_string);
        if let Some(g) = &game
            && ply_games::registry().get(g).is_err()
        {
            return Err(format!("no game '{g}'"));
        }
        Ok(ArchiveQuery {
            player,
            game,
            variant: text(&self.variant).map(str::to_string),
            result,
            from_ms: date("from", &self.from)?,
            to_ms: date("to", &self.to)?.map(|d| d + DAY_MS),
            min_plies: number("min_turns", &self.min_turns)?,
            max_plies: number("max_turns", &self.max_turns)?,
            page: self.page.unwrap_or(1).max(1) - 1,
            per_page: self.per_page.unwrap_or(50).clamp(1, MAX_PER_PAGE),
        })
    }
}

/// An archived game on the wire.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ArchivedView {
    pub id: String,
    pub game: String,
    pub variant: String,
    pub players: [String; 2],
    /// `P1`, `P2`, `draw` or `unknown`.
    pub result: &'static str,
    pub reason: Option<&'static str>,
    pub turns: i64,
    pub played_ms: i64,
    pub source: String,
}

fn result_word(outcome: Option<Outcome>) -> &'static str {
    match outcome {
        Some(Outcome::Win(p)) => p.as_str(),
        Some(Outcome::Draw) => "draw",
        None => "unknown",
    }
}

impl From<&ArchiveRow> for ArchivedView {
    fn from(r: &ArchiveRow) -> ArchivedView {
        ArchivedView {
            id: r.game_id.clone(),
            game: r.game.clone(),
            variant: r.variant.clone(),
            players: r.names.clone(),
            result: result_word(r.outcome),
            reason: r.reason.map(EndReason::as_str),
            turns: r.plies,
            played_ms: r.played_ms,
            source: r.source.clone(),
        }
    }
}

/// `GET /api/archive`: one page of archived games, newest first (`docs/http-api.md`).
pub async fn api_archive(
    State(state): State<AppState>,
    Query(p): Query<ArchiveParams>,
) -> Response {
    let query = match p.query() {
        Ok(q) => q,
        Err(message) => return error(StatusCode::BAD_REQUEST, message),
    };
    match state.store().search_archive(&query).await {
        Ok(page) => Json(serde_json::json!({
            "page": query.page + 1,
            "per_page": query.per_page,
            "more": page.more,
            "games": page.rows.iter().map(ArchivedView::from).collect::<Vec<_>>(),
        }))
        .into_response(),
        Err(e) => {
            tracing::error!("searching the archive: {e}");
            error(StatusCode::SERVICE_UNAVAILABLE, "the server cannot read its archive right now")
        }
    }
}

/// The position the explorer is asked about.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct ExploreParams {
    /// A position string (docs/position-strings.md).
    pub position: Option<String>,
    /// Or a game, its variant and turns from the start, separated by spaces.
    pub game: Option<String>,
    pub variant: Option<String>,
    pub moves: Option<String>,
}

/// A turn of the explorer on the wire.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ExplorerMoveView {
    #[serde(rename = "move")]
    pub notation: String,
    pub games: i64,
    pub p1_wins: i64,
    pub p2_wins: i64,
    pub draws: i64,
}

impl From<&ExplorerMove> for ExplorerMoveView {
    fn from(m: &ExplorerMove) -> ExplorerMoveView {
        ExplorerMoveView {
            notation: m.notation.clone(),
            games: m.games,
            p1_wins: m.p1_wins,
            p2_wins: m.p2_wins,
            draws: m.draws,
        }
    }
}

/// The explorer's answer.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ExplorerView {
    /// The position, as its string.
    pub position: String,
    pub moves: Vec<ExplorerMoveView>,
    /// Some archived games that reached it, newest first.
    pub games: Vec<ArchivedView>,
}

/// The position string `p` asks about, in its canonical form, or what is wrong.
fn explored_position(p: &ExploreParams) -> Result<String, String> {
    let registry = ply_games::registry();
    if let Some(text) = p.position.as_deref().map(str::trim).filter(|t| !t.is_empty()) {
        let name = text.split(';').next().unwrap_or("");
        let entry = registry.get(name).map_err(|e| e.to_string())?;
        let game = entry.from_position(text).map_err(|e| format!("bad position string: {e}"))?;
        return Ok(game.position_string());
    }
    let name = p.game.as_deref().ok_or("give a position, or a game (and moves)")?;
    let entry = registry.get(name).map_err(|e| e.to_string())?;
    let mut game = entry.new_game(p.variant.as_deref()).map_err(|e| e.to_string())?;
    for (i, m) in p.moves.as_deref().unwrap_or("").split_whitespace().enumerate() {
        game.play(m).map_err(|e| format!("turn {} '{m}': {e}", i + 1))?;
    }
    Ok(game.position_string())
}

/// The explorer's answer for `position`.
async fn explore(
    state: &AppState,
    position: String,
) -> Result<ExplorerView, ply_store::StoreError> {
    let key = position_key(&position);
    let store = state.store();
    let moves = store.explore(key).await?;
    let games = store.games_at(key, EXPLORER_GAMES).await?;
    Ok(ExplorerView {
        position,
        moves: moves.iter().map(ExplorerMoveView::from).collect(),
        games: games.iter().map(ArchivedView::from).collect(),
    })
}

/// `GET /api/explore?position=…` (or `?game=…&variant=…&moves=…`): the turns played from the
/// position in the archive, most played first, with how those games ended; transpositions
/// count together.
pub async fn api_explore(
    State(state): State<AppState>,
    Query(p): Query<ExploreParams>,
) -> Response {
    let position = match explored_position(&p) {
        Ok(position) => position,
        Err(message) => return error(StatusCode::BAD_REQUEST, message),
    };
    match explore(&state, position).await {
        Ok(view) => Json(view).into_response(),
        Err(e) => {
            tracing::error!("exploring: {e}");
            error(StatusCode::SERVICE_UNAVAILABLE, "the server cannot read its archive right now")
        }
    }
}

/// A date as the archive shows it.
fn date_text(ms: i64) -> String {
    if ms <= 0 {
        return "—".into();
    }
    jiff::Timestamp::from_millisecond(ms)
        .map_or_else(|_| "—".into(), |t| t.strftime("%Y-%m-%d").to_string())
}

/// The link of a page of the same search.
fn page_link(p: &ArchiveParams, page: u32) -> String {
    let mut pairs: Vec<(&str, String)> = Vec::new();
    let mut add = |k: &'static str, v: &Option<String>| {
        if let Some(v) = v.as_deref().filter(|v| !v.is_empty()) {
            pairs.push((k, v.to_string()));
        }
    };
    add("player", &p.player);
    add("game", &p.game);
    add("variant", &p.variant);
    add("result", &p.result);
    add("from", &p.from);
    add("to", &p.to);
    add("min_turns", &p.min_turns);
    add("max_turns", &p.max_turns);
    pairs.push(("page", page.to_string()));
    let query: Vec<String> =
        pairs.iter().map(|(k, v)| format!("{k}={}", crate::pages::query_encode(v))).collect();
    format!("/archive?{}", query.join("&"))
}

/// `GET /archive`: the archive page: a search form and one page of games, each opening in the
/// replay and analysis views.
pub async fn archive_page(
    headers: HeaderMap,
    State(state): State<AppState>,
    Query(p): Query<ArchiveParams>,
) -> Response {
    let lang = crate::i18n::lang_of_request(&headers);
    let m = Messages::of(lang, None);
    let registry = ply_games::registry();
    let (query, problem) = match p.query() {
        Ok(q) => (Some(q), None),
        Err(message) => (None, Some(message)),
    };
    let value = |v: &Option<String>| esc(v.as_deref().unwrap_or(""));
    let mut explorers = String::new();
    for e in registry.entries() {
        let _ = write!(explorers, " <a href=\"/explore/{}\">{}</a>", e.name, esc(e.display_name));
    }
    let mut body = format!(
        "<h1>{title}</h1><p class=\"explorers\">{explorer}:{explorers}</p><form method=\"get\" action=\"/archive\" class=\"archive-search\" id=\"archive-search\">\
<label>{player} <input name=\"player\" value=\"{player_v}\" autocomplete=\"off\"></label>\
<label>{game} <select name=\"game\"><option value=\"\">{any}</option>",
        title = esc(&m.text("archive-title", "Archive")),
        explorer = esc(&m.text("explorer", "Opening explorer")),
        player = esc(&m.text("archive-player", "Player")),
        player_v = value(&p.player),
        game = esc(&m.text("archive-game", "Game")),
        any = esc(&m.text("archive-any", "any")),
    );
    for e in registry.entries() {
        let selected = if p.game.as_deref() == Some(e.name) { " selected" } else { "" };
        let _ =
            write!(body, "<option value=\"{}\"{selected}>{}</option>", e.name, esc(e.display_name));
    }
    let _ = write!(
        body,
        "</select></label><label>{variant} <input name=\"variant\" value=\"{variant_v}\" size=\"8\"></label>\
<label>{result} <select name=\"result\"><option value=\"\">{any}</option>",
        variant = esc(&m.text("archive-variant", "Variant")),
        variant_v = value(&p.variant),
        result = esc(&m.text("archive-result", "Result")),
        any = esc(&m.text("archive-any", "any")),
    );
    for (v, id, fallback) in [
        ("P1", "archive-result-p1", "first player won"),
        ("P2", "archive-result-p2", "second player won"),
        ("draw", "archive-result-draw", "draw"),
        ("won", "archive-result-won", "the player won"),
        ("lost", "archive-result-lost", "the player lost"),
    ] {
        let selected = if p.result.as_deref() == Some(v) { " selected" } else { "" };
        let _ =
            write!(body, "<option value=\"{v}\"{selected}>{}</option>", esc(&m.text(id, fallback)));
    }
    let _ = write!(
        body,
        "</select></label><label>{from} <input type=\"date\" name=\"from\" value=\"{from_v}\"></label>\
<label>{to} <input type=\"date\" name=\"to\" value=\"{to_v}\"></label>\
<label>{min} <input type=\"number\" min=\"0\" name=\"min_turns\" value=\"{min_v}\" size=\"4\"></label>\
<label>{max} <input type=\"number\" min=\"0\" name=\"max_turns\" value=\"{max_v}\" size=\"4\"></label>\
<button type=\"submit\">{search}</button></form>",
        from = esc(&m.text("archive-from", "From")),
        from_v = value(&p.from),
        to = esc(&m.text("archive-to", "To")),
        to_v = value(&p.to),
        min = esc(&m.text("archive-min-turns", "At least turns")),
        min_v = value(&p.min_turns),
        max = esc(&m.text("archive-max-turns", "At most turns")),
        max_v = value(&p.max_turns),
        search = esc(&m.text("archive-search", "Search")),
    );
    let Some(query) = query else {
        let _ = write!(
            body,
            "<p class=\"error\" role=\"alert\">{}</p>",
            esc(&problem.unwrap_or_default())
        );
        return (
            StatusCode::BAD_REQUEST,
            layout(lang, &m.text("archive-title", "Archive"), "/archive", &body),
        )
            .into_response();
    };
    let page = match state.store().search_archive(&query).await {
        Ok(page) => page,
        Err(e) => {
            tracing::error!("searching the archive: {e}");
            let _ = write!(
                body,
                "<p class=\"error\" role=\"alert\">{}</p>",
                esc(&m.text("archive-unavailable", "The archive cannot be read right now."))
            );
            return (
                StatusCode::SERVICE_UNAVAILABLE,
                layout(lang, &m.text("archive-title", "Archive"), "/archive", &body),
            )
                .into_response();
        }
    };
    if page.rows.is_empty() {
        let _ = write!(
            body,
            "<p id=\"archive-empty\">{}</p>",
            esc(&m.text("archive-empty", "No game matches."))
        );
    } else {
        let _ = write!(
            body,
            "<table class=\"summary archive\" id=\"archive-games\"><thead><tr><th scope=\"col\">{date}</th><th scope=\"col\">{game}</th><th scope=\"col\">{p1}</th><th scope=\"col\">{p2}</th><th scope=\"col\">{result}</th><th scope=\"col\">{turns}</th><th scope=\"col\">{source}</th></tr></thead><tbody>",
            date = esc(&m.text("archive-date", "Date")),
            game = esc(&m.text("archive-game", "Game")),
            p1 = esc(&m.text("player-P1", "P1")),
            p2 = esc(&m.text("player-P2", "P2")),
            result = esc(&m.text("archive-result", "Result")),
            turns = esc(&m.text("archive-turns", "Turns")),
            source = esc(&m.text("archive-source", "Source")),
        );
        for r in &page.rows {
            let display = registry.get(&r.game).map_or(r.game.as_str(), |e| e.display_name);
            let gm = Messages::of(lang, Some(&r.game));
            let variant =
                gm.get(&format!("variant-{}", r.variant), &[]).unwrap_or_else(|| r.variant.clone());
            let result = match r.outcome {
                Some(Outcome::Win(p)) => gm
                    .get("result-wins", &[("player", Arg::Text(&r.names[p.index()]))])
                    .unwrap_or_else(|| format!("{} won", r.names[p.index()])),
                Some(Outcome::Draw) => gm.text("result-draw", "Draw"),
                None => "?".into(),
            };
            let player = |i: usize| {
                format!(
                    "<a href=\"/archive?player={}\">{}</a>",
                    crate::pages::query_encode(&r.names[i]),
                    esc(&r.names[i])
                )
            };
            let _ = write!(
                body,
                "<tr><td><a href=\"/game/{id}/analysis\">{date}</a></td><td>{display} <small>{variant}</small></td><td>{p1}</td><td>{p2}</td><td>{result}</td><td>{turns}</td><td>{source}</td></tr>",
                id = esc(&r.game_id),
                date = date_text(r.played_ms),
                display = esc(display),
                variant = esc(&variant),
                p1 = player(0),
                p2 = player(1),
                result = esc(&result),
                turns = r.plies,
                source = esc(&r.source),
            );
        }
        body.push_str("</tbody></table>");
    }
    let shown = query.page + 1;
    body.push_str("<nav class=\"pages\" aria-label=\"pages\">");
    if shown > 1 {
        let _ = write!(
            body,
            "<a class=\"button\" rel=\"prev\" href=\"{}\">{}</a>",
            esc(&page_link(&p, shown - 1)),
            esc(&m.text("archive-newer", "Newer"))
        );
    }
    let _ = write!(
        body,
        " <span>{}</span> ",
        esc(&m
            .get("archive-page", &[("page", Arg::Number(i64::from(shown)))])
            .unwrap_or_else(|| shown.to_string()))
    );
    if page.more {
        let _ = write!(
            body,
            "<a class=\"button\" rel=\"next\" href=\"{}\">{}</a>",
            esc(&page_link(&p, shown + 1)),
            esc(&m.text("archive-older", "Older"))
        );
    }
    body.push_str("</nav>");
    layout(lang, &m.text("archive-title", "Archive"), "/archive", &body).into_response()
}

/// The position the explorer page shows: a game, its variant and turns from the start.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct ExplorePageParams {
    pub variant: Option<String>,
    /// Turns from the start, separated by spaces.
    pub moves: Option<String>,
}

/// `GET /explore/{game}[?variant=V&moves=T1 T2 …]`: the opening explorer on a page of its own,
/// from the start of any variant (the analysis board shows it beside a game). Plain links:
/// each turn leads to the position after it, the line above the board back to any earlier
/// one, so a position can be bookmarked and shared.
pub async fn explore_page(
    headers: HeaderMap,
    State(state): State<AppState>,
    axum::extract::Path(game): axum::extract::Path<String>,
    Query(p): Query<ExplorePageParams>,
) -> Response {
    let lang = crate::i18n::lang_of_request(&headers);
    let m = Messages::of(lang, Some(&game));
    let title = m.text("explorer", "Opening explorer");
    let registry = ply_games::registry();
    let Ok(entry) = registry.get(&game) else {
        return crate::pages::not_found(headers, axum::http::Uri::from_static("/explore")).await;
    };
    let fail = |status: StatusCode, message: String| {
        let body = format!(
            "<h1>{}</h1><p class=\"error\" role=\"alert\">{}</p>",
            esc(&title),
            esc(&message)
        );
        (status, layout(lang, &title, "/archive", &body)).into_response()
    };
    let mut position = match entry.new_game(p.variant.as_deref().filter(|v| !v.is_empty())) {
        Ok(g) => g,
        Err(e) => return fail(StatusCode::BAD_REQUEST, e.to_string()),
    };
    let variant = position.variant();
    let line: Vec<String> =
        p.moves.as_deref().unwrap_or("").split_whitespace().map(str::to_string).collect();
    for (i, turn) in line.iter().enumerate() {
        if let Err(e) = position.play(turn) {
            return fail(StatusCode::BAD_REQUEST, format!("turn {} '{turn}': {e}", i + 1));
        }
    }
    let line: Vec<String> = position.history().to_vec();
    let view = match explore(&state, position.position_string()).await {
        Ok(view) => view,
        Err(e) => {
            tracing::error!("exploring: {e}");
            return fail(
                StatusCode::SERVICE_UNAVAILABLE,
                m.text("archive-unavailable", "The archive cannot be read right now."),
            );
        }
    };
    let link = |turns: &[String]| {
        format!(
            "/explore/{}?variant={}&moves={}",
            entry.name,
            crate::pages::query_encode(variant),
            crate::pages::query_encode(&turns.join(" "))
        )
    };
    let variant_name =
        m.get(&format!("variant-{variant}"), &[]).unwrap_or_else(|| variant.to_string());
    let mut body = format!(
        "<div class=\"game-page explore-page\" data-game=\"{game}\"><section class=\"board-wrap\">\
<div id=\"ply-board\" class=\"board-box\">{svg}</div></section><aside class=\"side\">\
<h1>{title} <small>{display} · {variant_name}</small></h1><nav class=\"buttons\" aria-label=\"{variant_label}\">",
        game = entry.name,
        svg = m.localize_svg(&position.svg()),
        title = esc(&title),
        display = esc(entry.display_name),
        variant_name = esc(&variant_name),
        variant_label = esc(&m.text("archive-variant", "Variant")),
    );
    for v in entry.variants {
        let current = if *v == variant { " aria-current=\"page\"" } else { "" };
        let name = m.get(&format!("variant-{v}"), &[]).unwrap_or_else(|| (*v).to_string());
        let _ = write!(
            body,
            "<a class=\"button\" href=\"/explore/{}?variant={}\"{current}>{}</a>",
            entry.name,
            crate::pages::query_encode(v),
            esc(&name)
        );
    }
    // The line so far: each turn goes back to the position after it.
    let _ = write!(
        body,
        "</nav><p class=\"explore-line\" id=\"explore-line\"><a href=\"{}\">{}</a>",
        esc(&link(&[])),
        esc(&m.text("nav-first", "start"))
    );
    for i in 0..line.len() {
        let _ = write!(body, " <a href=\"{}\">{}</a>", esc(&link(&line[..=i])), esc(&line[i]));
    }
    body.push_str("</p>");
    if view.moves.is_empty() {
        let _ = write!(body, "<p id=\"explore-none\">{}</p>", esc(&m.text("explorer-none", "")));
    } else {
        let _ = write!(
            body,
            "<div class=\"explorer\"><table class=\"summary explorer-moves\" id=\"explore-moves\"><thead><tr><th scope=\"col\">{}</th><th scope=\"col\">{}</th><th scope=\"col\">{}</th><th scope=\"col\">{}</th><th scope=\"col\">{}</th></tr></thead><tbody>",
            esc(&m.text("explorer-turn", "Turn")),
            esc(&m.text("explorer-games", "Games")),
            esc(&m.text("player-P1", "P1")),
            esc(&m.text("result-draw", "Draw")),
            esc(&m.text("player-P2", "P2")),
        );
        let pct = |n: i64, d: i64| if d == 0 { 0 } else { (n * 100 + d / 2) / d };
        let mut total = 0;
        for t in &view.moves {
            total += t.games;
            let mut next = line.clone();
            next.push(t.notation.clone());
            let _ = write!(
                body,
                "<tr><td><a href=\"{}\">{}</a></td><td>{}</td><td>{}%</td><td>{}%</td><td>{}%</td></tr>",
                esc(&link(&next)),
                esc(&t.notation),
                t.games,
                pct(t.p1_wins, t.games),
                pct(t.draws, t.games),
                pct(t.p2_wins, t.games),
            );
        }
        let _ = write!(
            body,
            "</tbody></table></div><p class=\"explorer-total\">{}</p>",
            esc(&m.get("explorer-total", &[("games", Arg::Number(total))]).unwrap_or_default())
        );
    }
    if !view.games.is_empty() {
        let _ = write!(
            body,
            "<h2>{}</h2><ul class=\"explorer-games\">",
            esc(&m.text("explorer-reached", ""))
        );
        for g in &view.games {
            let _ = write!(
                body,
                "<li><a href=\"/game/{}/analysis\">{} – {}</a> ({}, {})</li>",
                esc(&g.id),
                esc(&g.players[0]),
                esc(&g.players[1]),
                date_text(g.played_ms),
                g.turns
            );
        }
        body.push_str("</ul>");
    }
    body.push_str("</aside></div>");
    layout(lang, &title, &format!("/explore/{}", entry.name), &body).into_response()
}
