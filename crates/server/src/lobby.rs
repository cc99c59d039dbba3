//! The lobby: open challenges (seeks) that anyone can accept, live on the home page.
//!
//! A seek is made with `POST /api/seeks` and stays open while its creator's page holds it
//! through the lobby WebSocket (`/ws/lobby?seek=ID&token=T`); when that page goes, the seek is
//! gone a few seconds later. `POST /api/seeks/{id}/accept` claims it (exactly once, whatever
//! node is asked), makes the game with both seats and sends the accepting player into it; the
//! creator's page learns on its next beat (within a second) and follows. The list reaches every
//! lobby page within a second of a change; each node reads it from the database, so several
//! nodes share one lobby without a broker.

use std::time::Duration;

use axum::Json;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use ply_core::Player;
use ply_store::{Mode, NewGame, NewSeek, SeekRow};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::protocol::ClockControl;
use crate::{AppState, CreateRequest, error, guard};

/// A seek not held for this long is gone (its creator left).
const HELD_FOR_MS: i64 = 6_000;
/// How often a creator's page holds its seek, and how often lobby pages hear the list.
const BEAT: Duration = Duration::from_millis(800);

/// A seek as everyone sees it (its token is the creator's only).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SeekView {
    pub id: String,
    pub game: String,
    pub variant: String,
    pub display_name: String,
    pub clock: Option<ClockControl>,
    pub rated: bool,
    pub colour: String,
    /// The creator's name, when known.
    pub player: Option<String>,
}

async fn view_of(state: &AppState, s: &SeekRow) -> SeekView {
    let registry = ply_games::registry();
    let display = registry.get(&s.game).map_or(s.game.as_str(), |e| e.display_name).to_string();
    let player = match &s.player {
        Some(id) => crate::players::name_of(state.store(), id).await,
        None => None,
    };
    SeekView {
        id: s.id.clone(),
        game: s.game.clone(),
        variant: s.variant.clone(),
        display_name: display,
        clock: s.clock.map(ClockControl::from),
        rated: s.rated,
        colour: s.colour.clone(),
        player,
    }
}

/// The open seeks, as the lobby shows them.
pub async fn open_seeks(state: &AppState) -> Vec<SeekView> {
    let since = ply_store::now_ms() - HELD_FOR_MS;
    let rows = state.store().open_seeks(since).await.unwrap_or_default();
    let mut out = Vec::with_capacity(rows.len());
    for s in &rows {
        out.push(view_of(state, s).await);
    }
    out
}

/// The player making a lobby request (made now if new, with its cookie), within the limit of
/// new games per address.
async fn person(
    state: &AppState,
    headers: &HeaderMap,
    peer: &crate::Peer,
) -> Result<(ply_store::PlayerRow, Option<axum::http::HeaderValue>), Box<Response>> {
    if let Err(wait) = state.limits.check(guard::Kind::Create, peer.0) {
        return Err(Box::new(guard::too_many(wait)));
    }
    crate::players::current(state, headers)
        .await
        .map_err(|e| Box::new(error(StatusCode::SERVICE_UNAVAILABLE, e.to_string())))
}

/// `GET /api/seeks`.
pub(crate) async fn list(State(state): State<AppState>) -> Response {
    Json(json!({ "seeks": open_seeks(&state).await })).into_response()
}

/// What `POST /api/seeks` takes.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeekRequest {
    pub game: String,
    #[serde(default)]
    pub variant: Option<String>,
    #[serde(default)]
    pub clock: Option<ClockControl>,
    #[serde(default)]
    pub time: Option<String>,
    #[serde(default)]
    pub rated: bool,
    /// `P1`, `P2` or `random` (the default).
    #[serde(default)]
    pub colour: Option<String>,
}

/// `POST /api/seeks`: makes a seek; the answer holds its id and the creator's token.
pub(crate) async fn create(
    State(state): State<AppState>,
    headers: HeaderMap,
    peer: crate::Peer,
    Json(req): Json<SeekRequest>,
) -> Response {
    let (player, cookie) = match person(&state, &headers, &peer).await {
        Ok(p) => p,
        Err(response) => return *response,
    };
    // The same checks as a new game: game, variant, clock.
    let as_game = CreateRequest {
        game: req.game.clone(),
        variant: req.variant.clone(),
        opponent: "invite".into(),
        level: None,
        seat: req.colour.clone(),
        clock: req.clock,
        time: req.time.clone(),
    };
    let (game, variant) = match crate::game_and_variant(&as_game) {
        Ok(gv) => gv,
        Err((status, message)) => return error(status, message),
    };
    let clock = match crate::clock_of(&as_game) {
        Ok(c) => c,
        Err((status, message)) => return error(status, message),
    };
    let colour = match req.colour.as_deref().unwrap_or("random") {
        c @ ("P1" | "P2" | "random") => c.to_string(),
        other => {
            return error(
                StatusCode::BAD_REQUEST,
                format!("unknown colour '{other}' (P1, P2 or random)"),
            );
        }
    };
    let new =
        NewSeek { player: Some(player.id.clone()), game, variant, clock, rated: req.rated, colour };
    match state.store().create_seek(&new).await {
        Ok(seek) => {
            let body = json!({ "id": seek.id, "token": seek.token });
            let mut response = (StatusCode::CREATED, Json(body)).into_response();
            if let Some(c) = cookie {
                response.headers_mut().append(header::SET_COOKIE, c);
            }
            response
        }
        Err(e) => error(StatusCode::SERVICE_UNAVAILABLE, e.to_string()),
    }
}

#[derive(Clone, Debug, Deserialize)]
pub(crate) struct TokenBody {
    token: String,
}

/// `DELETE /api/seeks/{id}` with `{"token": ...}`: the creator cancels.
pub(crate) async fn cancel(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Json(body): Json<TokenBody>,
) -> Response {
    match state.store().cancel_seek(&id, &body.token).await {
        Ok(true) => Json(json!({ "cancelled": id })).into_response(),
        Ok(false) => error(StatusCode::CONFLICT, format!("seek {id} is not open or not yours")),
        Err(e) => error(StatusCode::SERVICE_UNAVAILABLE, e.to_string()),
    }
}

/// `POST /api/seeks/{id}/accept`: claims the seek, makes the game with both seats, sends the
/// accepting player in (seat cookie and the game's address) and leaves the creator's way in
/// for the creator's page.
pub(crate) async fn accept(
    State(state): State<AppState>,
    headers: HeaderMap,
    peer: crate::Peer,
    Path(id): Path<String>,
) -> Response {
    let (player, cookie) = match person(&state, &headers, &peer).await {
        Ok(p) => p,
        Err(response) => return *response,
    };
    let store = state.store();
    // One's own seek is not accepted (the page offers to cancel it instead).
    if let Ok(Some(s)) = store.seek(&id).await
        && s.player.as_deref() == Some(player.id.as_str())
    {
        return error(StatusCode::CONFLICT, "this is your own seek");
    }
    let since = ply_store::now_ms() - HELD_FOR_MS;
    let seek = match store.claim_seek(&id, since).await {
        Ok(Some(s)) => s,
        Ok(None) => return error(StatusCode::GONE, format!("seek {id} was taken or withdrawn")),
        Err(e) => return error(StatusCode::SERVICE_UNAVAILABLE, e.to_string()),
    };
    let creator_seat = match seek.colour.as_str() {
        "P1" => Player::P1,
        "P2" => Player::P2,
        _ => {
            if ply_store::random_hex(1).as_bytes()[1].is_multiple_of(2) {
                Player::P1
            } else {
                Player::P2
            }
        }
    };
    let mut players = [None, None];
    players[creator_seat.index()] = seek.player.clone();
    players[creator_seat.other().index()] = Some(player.id.clone());
    let new = NewGame {
        game: seek.game.clone(),
        variant: seek.variant.clone(),
        mode: Mode::Invite,
        level: None,
        computer_seat: None,
        // Both seats are taken: no invite link to show anyone.
        creator_seat: None,
        players,
        rated: seek.rated,
        clock: seek.clock,
    };
    let row = match store.create_game(&new).await {
        Ok(row) => row,
        Err(e) => return error(StatusCode::SERVICE_UNAVAILABLE, e.to_string()),
    };
    let creator_url = format!("/join/{}/{}", row.id, row.tokens[creator_seat.index()]);
    if let Err(e) = store.seek_started(&seek.id, &row.id, &creator_url).await {
        return error(StatusCode::SERVICE_UNAVAILABLE, e.to_string());
    }
    let seat = creator_seat.other();
    let token = row.tokens[seat.index()].clone();
    let body: Value = json!({
        "id": row.id,
        "seat": seat.as_str(),
        "token": token,
        "url": format!("/game/{}", row.id),
    });
    let mut response = (StatusCode::CREATED, Json(body)).into_response();
    let headers = response.headers_mut();
    headers.append(header::SET_COOKIE, crate::set_seat_cookie(&row.id, &token));
    if let Some(c) = cookie {
        headers.append(header::SET_COOKIE, c);
    }
    response
}

#[derive(Clone, Debug, Deserialize)]
pub(crate) struct LobbyQuery {
    #[serde(default)]
    seek: Option<String>,
    #[serde(default)]
    token: Option<String>,
}

/// `GET /ws/lobby[?seek=ID&token=T]`: the open seeks, again whenever they change; with a seek
/// and its token, the connection holds that seek open and hears when it is accepted
/// (`{"type": "started", "url": ...}`).
pub(crate) async fn ws(
    ws: WebSocketUpgrade,
    State(state): State<AppState>,
    headers: HeaderMap,
    Query(q): Query<LobbyQuery>,
) -> Response {
    if !guard::same_origin(&headers) {
        return error(StatusCode::FORBIDDEN, "this WebSocket is for pages of this site only");
    }
    let Ok(permit) = state.connections.clone().try_acquire_owned() else {
        return error(StatusCode::SERVICE_UNAVAILABLE, "too many connections; try again soon");
    };
    ws.max_message_size(1024).on_upgrade(move |socket| async move {
        lobby(socket, state, q).await;
        drop(permit);
    })
}

async fn lobby(mut socket: WebSocket, state: AppState, q: LobbyQuery) {
    let held = q.seek.zip(q.token);
    let mut last = String::new();
    loop {
        let store = state.store();
        if let Some((id, token)) = &held {
            match store.seek(id).await {
                Ok(Some(s)) if s.token == *token => {
                    if let (Some(_), Some(url)) = (&s.game_id, &s.creator_url) {
                        let msg = json!({ "type": "started", "url": url }).to_string();
                        let _ = socket.send(Message::Text(msg.into())).await;
                        return;
                    }
                    if s.game_id.is_none() {
                        let _ = store.hold_seek(id, token).await;
                    }
                }
                _ => {}
            }
        }
        let seeks = open_seeks(&state).await;
        let text = json!({ "type": "seeks", "seeks": seeks }).to_string();
        if text != last {
            if socket.send(Message::Text(text.clone().into())).await.is_err() {
                return;
            }
            last = text;
        }
        tokio::select! {
            () = tokio::time::sleep(BEAT) => {}
            msg = socket.recv() => match msg {
                Some(Ok(Message::Close(_)) | Err(_)) | None => return,
                Some(Ok(_)) => {}
            }
        }
    }
}

/// `GET /api/tv`: one live game being played, for the home page (like lichess TV): the most
/// recently moved live game of the last ten minutes, a game between people first; its picture
/// in the reader's language. `{"game": null}` when nothing is being played.
pub(crate) async fn tv(State(state): State<AppState>, headers: HeaderMap) -> Response {
    let lang = crate::i18n::lang_of_request(&headers);
    let since = ply_store::now_ms() - 10 * 60_000;
    let rows = state.store().recent_games(true, since, 30).await.unwrap_or_default();
    let pick =
        rows.iter().filter(|r| r.plies > 0).max_by_key(|r| (r.mode == Mode::Invite, r.updated_ms));
    let Some(row) = pick else { return Json(json!({ "game": null })).into_response() };
    let Ok(view) = state.rooms.view(&row.id, None).await else {
        return Json(json!({ "game": null })).into_response();
    };
    let view = view.view;
    let svg = crate::messages::Messages::of(lang, Some(&view.game)).localize_svg(&view.svg);
    Json(json!({
        "game": view.id,
        "display_name": view.display_name,
        "players": view.players,
        "turns": view.history.len(),
        "url": format!("/game/{}", view.id),
        "svg": svg,
    }))
    .into_response()
}

/// Forgets old seeks now and then (a node's housekeeping).
pub(crate) fn purge_now_and_then(state: &AppState) {
    let store = state.store().clone();
    tokio::spawn(async move {
        loop {
            tokio::time::sleep(Duration::from_secs(30)).await;
            let now = ply_store::now_ms();
            let _ = store.purge_seeks(now - 60_000, now - 10 * 60_000).await;
        }
    });
}
