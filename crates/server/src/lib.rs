//! The ply browser app: server-rendered pages, a JSON API and a WebSocket per open game
//! page, over the game-agnostic [`AnyGame`](ply_core::AnyGame) contract. The client script and
//! style are embedded in the binary. See `docs/http-api.md`.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use ply_core::Player;
use ply_store::{Mode, NewGame, Store};
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::sync::Semaphore;

pub mod analysis;
pub mod archive;
pub mod engines;
pub mod guard;
pub mod i18n;
pub mod loadtest;
pub mod lobby;
pub mod messages;
pub mod net;
pub mod nodes;
mod pages;
pub mod players;
pub mod room;

// The typed messages live in their own crate (docs/architecture.md); the server names them
// as its own modules.
pub use ply_protocol as protocol;
pub use ply_protocol::{CreateRequest, choices, patch, reason};
mod socket;

use protocol::DrawAction;
pub use reason::{Reason, Rejection};
pub use room::{Action, MoveSpec, Rooms};

/// The server's shared state.
#[derive(Clone, Debug)]
pub struct AppState {
    pub rooms: Rooms,
    pub limits: guard::RateLimits,
    /// One permit per open connection (HTTP, and WebSocket for its whole life).
    pub connections: Arc<Semaphore>,
    max_connections: usize,
    /// Client addresses come from `X-Forwarded-For` (see [`Peer`]).
    behind_proxy: bool,
    /// Turns true when the server begins to stop.
    stopping: tokio::sync::watch::Receiver<bool>,
    stop: Arc<tokio::sync::watch::Sender<bool>>,
}

/// How the rooms of a server behave.
#[derive(Clone, Copy, Debug)]
pub struct RoomSettings {
    /// Computer searches at once (one per core by default).
    pub searches: usize,
    /// A room nobody follows leaves memory after this long without a request.
    pub idle: Duration,
    /// Search memory kept for computer players between their turns, in bytes.
    pub engine_memory: usize,
    /// Requests one client address may make.
    pub limits: guard::Limits,
    /// Connections open at once.
    pub max_connections: usize,
    /// Clients are behind a reverse proxy: their address is the last of `X-Forwarded-For`.
    pub behind_proxy: bool,
}

impl Default for RoomSettings {
    fn default() -> RoomSettings {
        RoomSettings {
            searches: std::thread::available_parallelism().map_or(2, usize::from),
            idle: Duration::from_secs(300),
            engine_memory: 512 << 20,
            limits: guard::Limits::default(),
            max_connections: net::NetSettings::default().max_connections,
            behind_proxy: false,
        }
    }
}

impl AppState {
    /// The state over `store`, with at most `searches` computer searches at once and the
    /// default room settings otherwise.
    #[must_use]
    pub fn new(store: Store, searches: usize) -> AppState {
        AppState::with(store, RoomSettings { searches, ..RoomSettings::default() })
    }

    /// The state over `store` with `settings`.
    #[must_use]
    pub fn with(store: Store, settings: RoomSettings) -> AppState {
        let shared = room::Shared {
            store,
            think: Arc::new(room::Searches::new(settings.searches)),
            engines: Arc::new(room::EngineCache::new(settings.engine_memory)),
            idle: settings.idle,
            node: Arc::from(ply_store::random_hex(6)),
            archive_wake: Arc::new(tokio::sync::Notify::new()),
        };
        let (stop, stopping) = tokio::sync::watch::channel(false);
        AppState {
            rooms: Rooms::new(shared),
            limits: guard::RateLimits::new(settings.limits),
            connections: net::connection_permits(settings.max_connections),
            max_connections: settings.max_connections.max(1),
            behind_proxy: settings.behind_proxy,
            stopping,
            stop: Arc::new(stop),
        }
    }

    /// Watches the clocks of every live game with a time control: every half second, the
    /// games past their stored deadline are ended on time, whether anybody follows them, their
    /// room left memory or the server restarted. With several nodes each watches; the store's
    /// version check lets exactly one flag a game.
    pub fn watch_clocks(&self) {
        let rooms = self.rooms.clone();
        let mut stopping = self.stopping.clone();
        tokio::spawn(async move {
            loop {
                tokio::select! {
                    () = tokio::time::sleep(Duration::from_millis(500)) => {}
                    _ = stopping.changed() => return,
                }
                let now = ply_store::now_ms();
                let Ok(late) = rooms.shared().store.games_past_deadline(now, 100).await else {
                    continue;
                };
                for id in late {
                    let _ = rooms.check_time(&id).await;
                }
            }
        });
    }

    /// Tells every WebSocket connection to close (the server is stopping).
    pub fn begin_stopping(&self) {
        let _ = self.stop.send(true);
    }

    /// Creates a game as `POST /api/games` does; the answer is its JSON.
    ///
    /// # Errors
    /// The message `POST /api/games` would give.
    pub async fn create(&self, req: CreateRequest) -> Result<Value, String> {
        create(self, req).await.map_err(|(_, m)| m)
    }

    #[must_use]
    pub fn store(&self) -> &Store {
        &self.rooms.shared().store
    }
}

/// The options of `ply serve`.
#[derive(Clone, Debug)]
pub struct Config {
    pub addr: SocketAddr,
    /// `None`: the default SQLite file in the user's data folder.
    pub database: Option<String>,
    /// Requests one client address may make.
    pub limits: guard::Limits,
    /// Connections open at once (`None`: 90 % of the raised open-file limit).
    pub max_connections: Option<usize>,
    /// Clients come through a reverse proxy that appends their address to X-Forwarded-For.
    pub behind_proxy: bool,
}

/// Opens the store, binds `config.addr`, prints `listening on http://ADDR` on stdout and
/// serves until SIGTERM or Ctrl-C, then stops gracefully (see [`net::run`]).
///
/// # Errors
/// When the database cannot be opened (or cannot be written) or the address cannot be bound.
pub async fn serve(config: Config) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let store = Store::open(config.database.as_deref()).await?;
    let net = net::NetSettings::for_this_process();
    let settings = RoomSettings {
        max_connections: config.max_connections.unwrap_or(net.max_connections),
        limits: config.limits,
        behind_proxy: config.behind_proxy,
        ..RoomSettings::default()
    };
    let state = AppState::with(store, settings);
    let listener = tokio::net::TcpListener::bind(config.addr).await?;
    let addr = listener.local_addr()?;
    println!("listening on http://{addr}");
    use std::io::Write as _;
    let _ = std::io::stdout().flush();
    let net = net::NetSettings { max_connections: settings.max_connections, ..net };
    // Several nodes on one PostgreSQL: hear the others' changes.
    if state.store().backend() == ply_store::Backend::Postgres
        && let Some(url) = config.database.clone()
    {
        tokio::spawn(nodes::follow(state.rooms.clone(), url));
    }
    // Forget quiet addresses now and then, so the rate limiters stay small.
    let limits = state.limits.clone();
    tokio::spawn(async move {
        loop {
            tokio::time::sleep(Duration::from_secs(60)).await;
            limits.forget_quiet();
        }
    });
    net::run(listener, state.clone(), app(state), net, net::stop_signal()).await?;
    Ok(())
}

/// Every route of the app.
pub fn app(state: AppState) -> Router {
    let policy = Arc::new(
        HeaderValue::from_str(&guard::content_security_policy()).expect("an ASCII policy"),
    );
    Router::new()
        .route("/", get(pages::home))
        .route("/games", get(pages::games_page).post(create_form))
        .route("/game/{id}", get(pages::game_page))
        .route("/game/{id}/record", get(record))
        .route("/join/{id}/{token}", get(join))
        .route("/rules/{game}", get(pages::rules_page))
        .route("/board/{file}", get(board_svg))
        .route("/lang/{code}", get(set_lang))
        .route("/assets/{file}", get(asset))
        .route("/favicon.ico", get(|| async { asset(Path("favicon.svg".to_string())).await }))
        .route("/ws/{id}", get(socket::ws))
        .route("/ws/analysis/{id}", get(analysis::ws))
        // The lobby
        .route("/ws/lobby", get(lobby::ws))
        .route("/api/seeks", get(lobby::list).post(lobby::create))
        .route("/api/seeks/{id}", axum::routing::delete(lobby::cancel))
        .route("/api/seeks/{id}/accept", post(lobby::accept))
        .route("/api/tv", get(lobby::tv))
        .route("/game/{id}/analysis", get(pages::analysis_page))
        // The game library
        .route("/archive", get(archive::archive_page))
        .route("/api/archive", get(archive::api_archive))
        .route("/api/explore", get(archive::api_explore))
        .route("/explore/{game}", get(archive::explore_page))
        .route("/api/meta", get(api_meta))
        .route("/api/games", get(api_list).post(api_create))
        .route("/api/games/{id}", get(api_game))
        .route("/api/games/{id}/moves", post(api_act::<MOVE>))
        .route("/api/games/{id}/undo", post(api_act::<UNDO>))
        .route("/api/games/{id}/resign", post(api_act::<RESIGN>))
        .route("/api/games/{id}/draw", post(api_act::<DRAW>))
        .route("/api/games/{id}/hint", post(api_hint))
        .route("/api/games/{id}/position/{ply}", get(api_position))
        .route("/api/games/{id}/rematch", get(api_rematch))
        .route("/health", get(health))
        // Players and ratings
        .route("/api/me", get(players::api_me))
        .route("/api/me/name", post(players::api_name))
        .route("/api/account/register", post(players::api_register))
        .route("/api/account/login", post(players::api_login))
        .route("/api/account/logout", post(players::api_logout))
        .route("/api/players/{id}", get(players::api_player))
        .route("/api/leaderboard/{game}", get(players::api_leaderboard))
        .route("/me", get(players::me_page))
        .route("/me/name", post(players::form_name))
        .route("/me/register", post(players::form_register))
        .route("/me/login", post(players::form_login))
        .route("/me/logout", post(players::form_logout))
        .route("/players", get(players::leaderboard_page))
        .route("/player/{id}", get(players::player_page))
        .fallback(pages::not_found)
        .with_state(state)
        .layer(axum::middleware::from_fn(move |request, next| {
            guard::headers(policy.clone(), request, next)
        }))
}

/// `GET /health`: 200 `{"status": "ok"}` while the store can write, else 503 with the
/// store's error (a full disk, a read-only file), so a load balancer or a person can tell.
async fn health(State(state): State<AppState>) -> Response {
    match state.store().write_health().await {
        Ok(()) => axum::Json(json!({ "status": "ok", "store": "ok" })).into_response(),
        Err(e) => (
            StatusCode::SERVICE_UNAVAILABLE,
            axum::Json(json!({ "status": "failing", "store": format!("cannot write: {e}") })),
        )
            .into_response(),
    }
}

/// The value of cookie `name` in a request.
#[must_use]
pub fn cookie(headers: &HeaderMap, name: &str) -> Option<String> {
    headers.get_all(header::COOKIE).iter().filter_map(|v| v.to_str().ok()).find_map(|line| {
        line.split(';').find_map(|pair| {
            let (k, v) = pair.trim().split_once('=')?;
            (k == name).then(|| v.to_string())
        })
    })
}

/// The name of the cookie holding a player's seat token for game `id`.
#[must_use]
pub fn seat_cookie(id: &str) -> String {
    format!("ply_seat_{id}")
}

pub(crate) fn set_seat_cookie(id: &str, token: &str) -> HeaderValue {
    HeaderValue::from_str(&format!(
        "{}={token}; Path=/; Max-Age=31536000; HttpOnly; SameSite=Lax",
        seat_cookie(id)
    ))
    .expect("hex token")
}

fn token_of(headers: &HeaderMap, id: &str, given: Option<String>) -> Option<String> {
    given.filter(|t| !t.is_empty()).or_else(|| cookie(headers, &seat_cookie(id)))
}

fn error(status: StatusCode, message: impl Into<String>) -> Response {
    (status, axum::Json(json!({ "error": message.into() }))).into_response()
}

/// A refused request as a JSON error, in the caller's language.
fn rejection(r: &Rejection, headers: &HeaderMap) -> Response {
    rejection_in(r, i18n::lang_of_request(headers))
}

pub(crate) fn rejection_in(r: &Rejection, lang: i18n::Lang) -> Response {
    error(StatusCode::from_u16(r.status).unwrap_or(StatusCode::BAD_REQUEST), r.message(lang))
}

/// What a request that needs the store gets while the store cannot write.
const CANNOT_SAVE: &str = "the server cannot save games right now; try again in a moment";

/// The clock of a new game from the request's `clock` or `time`.
pub(crate) fn clock_of(
    req: &CreateRequest,
) -> Result<Option<ply_store::Clock>, (StatusCode, String)> {
    let bad = |what: &str| {
        (
            StatusCode::BAD_REQUEST,
            format!(
                "{what}: a clock is {{\"initial_s\": 15 to 10800, \"increment_s\": 0 to 60}} or {{\"days\": 1 to 14}} (a form's time: 5+3, 2d or none)"
            ),
        )
    };
    let control = match (&req.clock, req.time.as_deref().map(str::trim)) {
        (Some(c), _) => Some(*c),
        (None, None | Some("" | "none")) => None,
        (None, Some(t)) => Some(if let Some(days) = t.strip_suffix('d') {
            protocol::ClockControl::Correspondence { days: days.parse().map_err(|_| bad(t))? }
        } else {
            let (min, inc) = t.split_once('+').ok_or_else(|| bad(t))?;
            let min: u32 = min.parse().map_err(|_| bad(t))?;
            protocol::ClockControl::Fischer {
                initial_s: min.saturating_mul(60),
                increment_s: inc.parse().map_err(|_| bad(t))?,
            }
        }),
    };
    match control {
        None => Ok(None),
        Some(c) => ply_store::Clock::from_control(c).map(Some).ok_or_else(|| bad("this clock")),
    }
}

/// A created game: its id, the creator's seat and token, and the invite link.
/// The game and variant a request names, checked.
pub(crate) fn game_and_variant(
    req: &CreateRequest,
) -> Result<(String, String), (StatusCode, String)> {
    let registry = ply_games::registry();
    let entry = registry.get(&req.game).map_err(|e| (StatusCode::BAD_REQUEST, e.to_string()))?;
    let variant = match req.variant.as_deref().filter(|v| !v.is_empty()) {
        None => entry.default_variant().to_string(),
        Some(v) => entry
            .variants
            .iter()
            .find(|known| **known == v)
            .ok_or_else(|| {
                (
                    StatusCode::BAD_REQUEST,
                    format!(
                        "{} has no variant '{v}' (variants: {})",
                        entry.name,
                        entry.variants.join(", ")
                    ),
                )
            })?
            .to_string(),
    };
    Ok((entry.name.to_string(), variant))
}

async fn create(state: &AppState, req: CreateRequest) -> Result<Value, (StatusCode, String)> {
    let (game, variant) = game_and_variant(&req)?;
    let registry = ply_games::registry();
    let entry = registry.get(&game).map_err(|e| (StatusCode::BAD_REQUEST, e.to_string()))?;
    let (mode, level) = match req.opponent.as_str() {
        "hotseat" => (Mode::HotSeat, None),
        "invite" => (Mode::Invite, None),
        o if o == "computer" || o.starts_with("computer-") => {
            let level = o
                .strip_prefix("computer-")
                .and_then(|l| l.parse::<u8>().ok())
                .or(req.level)
                .unwrap_or(3);
            if !(1..=10).contains(&level) {
                return Err((StatusCode::BAD_REQUEST, "levels are 1 to 10".into()));
            }
            if let Err(e) = ply_games::engine(entry.name) {
                return Err((StatusCode::BAD_REQUEST, e));
            }
            (Mode::Computer, Some(level))
        }
        other => {
            return Err((
                StatusCode::BAD_REQUEST,
                format!("unknown opponent '{other}' (computer, hotseat or invite)"),
            ));
        }
    };
    let seat: usize = match req.seat.as_deref().unwrap_or("P1") {
        "P1" | "p1" | "first" => 0,
        "P2" | "p2" | "second" => 1,
        "random" => usize::from(ply_store::random_hex(1).as_bytes()[1].is_multiple_of(2)),
        other => {
            return Err((
                StatusCode::BAD_REQUEST,
                format!("unknown seat '{other}' (P1, P2 or random)"),
            ));
        }
    };
    let new = NewGame {
        game: entry.name.to_string(),
        variant,
        mode,
        level,
        computer_seat: (mode == Mode::Computer).then(|| Player::from_index(1 - seat)),
        creator_seat: Some(Player::from_index(seat)),
        players: [None, None],
        rated: false,
        clock: clock_of(&req)?,
    };
    let row = state.store().create_game(&new).await.map_err(|e| {
        if e.is_unavailable() {
            tracing::error!("creating a game: {e}");
            (StatusCode::SERVICE_UNAVAILABLE, CANNOT_SAVE.to_string())
        } else {
            (StatusCode::INTERNAL_SERVER_ERROR, e.to_string())
        }
    })?;
    // Open its room now, so the computer can open the game when it plays first.
    state.rooms.seats(&row.id, None).await.map_err(|r| {
        (
            StatusCode::from_u16(r.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR),
            r.message(i18n::Lang::En),
        )
    })?;
    let token = row.tokens[seat].clone();
    let invite =
        (mode == Mode::Invite).then(|| format!("/join/{}/{}", row.id, row.tokens[1 - seat]));
    Ok(json!({
        "id": row.id,
        "seat": if seat == 0 { "P1" } else { "P2" },
        "token": token,
        "url": format!("/game/{}", row.id),
        "invite_url": invite,
    }))
}

/// The client's address, when the server knows it (it always does behind [`net::run`]).
pub struct Peer(pub Option<std::net::IpAddr>);

impl axum::extract::FromRequestParts<AppState> for Peer {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        state: &AppState,
    ) -> Result<Peer, Self::Rejection> {
        // Behind a reverse proxy every connection comes from the proxy: the client is the
        // last address the proxy added to X-Forwarded-For (any before it, the client wrote).
        if state.behind_proxy
            && let Some(ip) = parts
                .headers
                .get_all("x-forwarded-for")
                .iter()
                .next_back()
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.rsplit(',').next())
                .and_then(|ip| ip.trim().parse().ok())
        {
            return Ok(Peer(Some(ip)));
        }
        Ok(Peer(guard::client(parts.extensions.get::<axum::extract::ConnectInfo<SocketAddr>>())))
    }
}

/// Whether `addr` may create this game now (new games, and games against the strongest
/// computer, have limits of their own).
fn may_create(
    state: &AppState,
    addr: Option<std::net::IpAddr>,
    req: &CreateRequest,
) -> Result<(), Box<Response>> {
    state.limits.check(guard::Kind::Create, addr).map_err(|w| Box::new(guard::too_many(w)))?;
    let level =
        req.opponent.strip_prefix("computer-").and_then(|l| l.parse::<u8>().ok()).or(req.level);
    if req.opponent.starts_with("computer") && level == Some(10) {
        state.limits.check(guard::Kind::Strong, addr).map_err(|w| Box::new(guard::too_many(w)))?;
    }
    Ok(())
}

async fn api_create(
    State(state): State<AppState>,
    Peer(addr): Peer,
    headers: HeaderMap,
    axum::Json(req): axum::Json<CreateRequest>,
) -> Response {
    if let Err(r) = may_create(&state, addr, &req) {
        return *r;
    }
    match create(&state, req).await {
        Err((status, message)) => error(status, message),
        Ok(created) => {
            let id = created["id"].as_str().unwrap_or_default().to_string();
            let token = created["token"].as_str().unwrap_or_default().to_string();
            let mut resp = (StatusCode::CREATED, axum::Json(created)).into_response();
            resp.headers_mut().insert(header::SET_COOKIE, set_seat_cookie(&id, &token));
            if let Some(c) = seat_person(&state, &headers, &id, &token).await {
                resp.headers_mut().append(header::SET_COOKIE, c);
            }
            resp
        }
    }
}

async fn create_form(
    State(state): State<AppState>,
    Peer(addr): Peer,
    headers: HeaderMap,
    axum::Form(req): axum::Form<CreateRequest>,
) -> Response {
    if let Err(r) = may_create(&state, addr, &req) {
        return *r;
    }
    match create(&state, req).await {
        Err((status, message)) => error(status, message),
        Ok(created) => {
            let id = created["id"].as_str().unwrap_or_default();
            let token = created["token"].as_str().unwrap_or_default();
            let mut resp = Redirect::to(&format!("/game/{id}")).into_response();
            resp.headers_mut().insert(header::SET_COOKIE, set_seat_cookie(id, token));
            if let Some(c) = seat_person(&state, &headers, id, token).await {
                resp.headers_mut().append(header::SET_COOKIE, c);
            }
            resp
        }
    }
}

/// Puts the person making the request (their player, made now if new) in these seats of game
/// `id` that nobody holds yet, so their name shows; the `Set-Cookie` of a new player.
async fn seat_person(
    state: &AppState,
    headers: &HeaderMap,
    id: &str,
    token: &str,
) -> Option<HeaderValue> {
    let (seats, _) = state.rooms.seats(id, Some(token.to_string())).await.ok()?;
    let (player, cookie) = players::current(state, headers).await.ok()?;
    let mut changed = false;
    for seat in seats {
        changed |= state.store().claim_seat_player(id, seat, &player.id).await.unwrap_or(false);
    }
    if changed {
        state.rooms.reload(id).await;
    }
    cookie
}

async fn join(
    State(state): State<AppState>,
    Path((id, token)): Path<(String, String)>,
    headers: HeaderMap,
) -> Response {
    if !token.bytes().all(|b| b.is_ascii_hexdigit()) {
        return error(StatusCode::FORBIDDEN, "this invite link does not hold a seat of this game");
    }
    match state.rooms.seats(&id, Some(token.clone())).await {
        Err(r) => rejection(&r, &headers),
        Ok((seats, _)) if seats.is_empty() => {
            error(StatusCode::FORBIDDEN, "this invite link does not hold a seat of this game")
        }
        Ok(_) => {
            let mut resp = Redirect::to(&format!("/game/{id}")).into_response();
            resp.headers_mut().insert(header::SET_COOKIE, set_seat_cookie(&id, &token));
            // The friend who takes a seat by the link plays under their name.
            if let Some(c) = seat_person(&state, &headers, &id, &token).await {
                resp.headers_mut().append(header::SET_COOKIE, c);
            }
            resp
        }
    }
}

async fn api_meta() -> Response {
    let registry = ply_games::registry();
    axum::Json(json!({
        "games": registry.entries().iter().map(|e| json!({
            "name": e.name,
            "display_name": e.display_name,
            "variants": e.variants,
            "computer": ply_games::engine(e.name).is_ok(),
        })).collect::<Vec<_>>(),
        "languages": i18n::Lang::ALL.iter().map(|l| l.code()).collect::<Vec<_>>(),
    }))
    .into_response()
}

#[derive(Deserialize)]
struct ListQuery {
    limit: Option<i64>,
}

async fn api_list(State(state): State<AppState>, Query(q): Query<ListQuery>) -> Response {
    match state.store().list_games(q.limit.unwrap_or(100).clamp(1, 1000)).await {
        Err(e) => {
            tracing::error!("listing games: {e}");
            error(StatusCode::SERVICE_UNAVAILABLE, "the server cannot read its games right now")
        }
        Ok(rows) => axum::Json(json!({
            "games": rows.iter().map(|r| json!({
                "id": r.id, "game": r.game, "variant": r.variant, "mode": r.mode.as_str(),
                "level": r.level, "live": r.live(),
                "winner": r.ended.map(|e| e.outcome.winner().map_or("draw", Player::as_str)),
                "reason": r.ended.map(|e| e.reason.as_str()),
                "turns": r.plies, "version": r.version, "updated_ms": r.updated_ms,
            })).collect::<Vec<_>>()
        }))
        .into_response(),
    }
}

#[derive(Deserialize, Default)]
struct TokenQuery {
    token: Option<String>,
}

async fn api_game(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Query(q): Query<TokenQuery>,
) -> Response {
    let token = token_of(&headers, &id, q.token);
    match state.rooms.view(&id, token).await {
        Ok(view) => axum::Json(view).into_response(),
        Err(r) => rejection(&r, &headers),
    }
}

/// The body of the write endpoints; all fields optional.
#[derive(Deserialize, Default)]
struct ActBody {
    /// `offer`, `accept` or `decline` (`POST /api/games/{id}/draw`).
    #[serde(default)]
    action: Option<String>,
    #[serde(default, rename = "move")]
    mv: Option<String>,
    #[serde(default)]
    version: Option<i64>,
    #[serde(default)]
    token: Option<String>,
}

/// The game actions of the JSON API, one endpoint each (`const` parameters of [`api_act`]).
const MOVE: u8 = 0;
const UNDO: u8 = 1;
const RESIGN: u8 = 2;
const DRAW: u8 = 3;

/// `POST /api/games/{id}/moves|undo|resign|draw`: reads the body, asks the game's room for
/// the action `VERB` names, and answers with the new view or the refusal.
async fn api_act<const VERB: u8>(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Peer(addr): Peer,
    body: axum::body::Bytes,
) -> Response {
    if let Err(r) = may_write(&state, addr, &headers, &body) {
        return *r;
    }
    let body = match body_of(&body) {
        Err(r) => return *r,
        Ok(b) => b,
    };
    let action = match VERB {
        MOVE => match body.mv {
            Some(m) => Action::Move(MoveSpec::Notation(m)),
            None => return error(StatusCode::BAD_REQUEST, "the body needs a \"move\""),
        },
        UNDO => Action::Undo,
        RESIGN => Action::Resign,
        _ => match draw_action(body.action.as_deref()) {
            Some(a) => Action::Draw(a),
            None => {
                return error(StatusCode::BAD_REQUEST, "\"action\" is offer, accept or decline");
            }
        },
    };
    let token = token_of(&headers, &id, body.token);
    match state.rooms.act(&id, token, action, body.version).await {
        Ok(view) => axum::Json(view).into_response(),
        Err(r) => rejection(&r, &headers),
    }
}

/// Whether a write endpoint takes this request: a JSON body (or none), within the
/// address's limit of actions.
fn may_write(
    state: &AppState,
    addr: Option<std::net::IpAddr>,
    headers: &HeaderMap,
    body: &[u8],
) -> Result<(), Box<Response>> {
    if !guard::json_body(headers, body) {
        return Err(Box::new(error(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "the body must be JSON (Content-Type: application/json)",
        )));
    }
    state.limits.check(guard::Kind::Act, addr).map_err(|w| Box::new(guard::too_many(w)))
}

fn body_of(bytes: &[u8]) -> Result<ActBody, Box<Response>> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(ActBody::default());
    }
    serde_json::from_slice(bytes).map_err(|e| {
        Box::new(error(StatusCode::BAD_REQUEST, format!("the body is not valid JSON: {e}")))
    })
}

fn draw_action(text: Option<&str>) -> Option<DrawAction> {
    match text {
        Some("offer") => Some(DrawAction::Offer),
        Some("accept") => Some(DrawAction::Accept),
        Some("decline") => Some(DrawAction::Decline),
        _ => None,
    }
}

async fn api_hint(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Peer(addr): Peer,
    body: axum::body::Bytes,
) -> Response {
    if let Err(r) = may_write(&state, addr, &headers, &body) {
        return *r;
    }
    let body = match body_of(&body) {
        Err(r) => return *r,
        Ok(b) => b,
    };
    match state.rooms.hint(&id, token_of(&headers, &id, body.token)).await {
        Ok(hint) => axum::Json(hint).into_response(),
        Err(r) => rejection(&r, &headers),
    }
}

async fn api_position(
    State(state): State<AppState>,
    Path((id, ply)): Path<(String, usize)>,
    headers: HeaderMap,
) -> Response {
    match state.rooms.position(&id, ply).await {
        Ok(v) => axum::Json(v).into_response(),
        Err(r) => rejection(&r, &headers),
    }
}

/// `GET /api/games/{id}/rematch`: the caller's way into the rematch (the join link of their
/// seat in the new game).
async fn api_rematch(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Response {
    let token = token_of(&headers, &id, None);
    match state.rooms.rematch_link(&id, token).await {
        Ok(url) => axum::Json(serde_json::json!({ "url": url })).into_response(),
        Err(r) => rejection(&r, &headers),
    }
}

async fn record(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Response {
    let (text, game) = match state.rooms.record(&id).await {
        Ok(r) => r,
        Err(r) => return rejection(&r, &headers),
    };
    (
        [
            (header::CONTENT_TYPE, "text/plain; charset=utf-8".to_string()),
            (header::CONTENT_DISPOSITION, format!("attachment; filename=\"{game}-{id}.ply\"")),
        ],
        text,
    )
        .into_response()
}

async fn board_svg(Path(file): Path<String>) -> Response {
    let name = file.strip_suffix(".svg").unwrap_or(&file);
    let registry = ply_games::registry();
    let Ok(entry) = registry.get(name) else {
        return error(StatusCode::NOT_FOUND, format!("no game {name}"));
    };
    match entry.new_game(None) {
        Ok(game) => (
            [(header::CONTENT_TYPE, "image/svg+xml"), (header::CACHE_CONTROL, "max-age=3600")],
            game.svg(),
        )
            .into_response(),
        Err(e) => error(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
    }
}

#[derive(Deserialize)]
struct BackQuery {
    back: Option<String>,
}

async fn set_lang(Path(code): Path<String>, Query(q): Query<BackQuery>) -> Response {
    let lang = i18n::Lang::parse(&code).unwrap_or(i18n::Lang::En);
    // Only local paths, never another site.
    let back = guard::local_path(q.back.as_deref());
    let mut resp = Redirect::to(&back).into_response();
    resp.headers_mut().insert(
        header::SET_COOKIE,
        HeaderValue::from_str(&format!(
            "ply_lang={}; Path=/; Max-Age=31536000; SameSite=Lax",
            lang.code()
        ))
        .expect("ascii"),
    );
    resp
}

const APP_JS: &str = include_str!("../../../web/app.js");
const BOARD_JS: &str = include_str!("../../../web/board.js");
const ANALYSIS_JS: &str = include_str!("../../../web/analysis.js");
const UI_JS: &str = include_str!("../../../web/ui.js");
const LOBBY_JS: &str = include_str!("../../../web/lobby.js");
const STYLE_CSS: &str = include_str!("../../../web/style.css");
const FAVICON_SVG: &str = include_str!("../../../web/favicon.svg");

async fn asset(Path(file): Path<String>) -> Response {
    let (body, kind) = match file.as_str() {
        "app.js" => (APP_JS, "text/javascript; charset=utf-8"),
        "board.js" => (BOARD_JS, "text/javascript; charset=utf-8"),
        "ui.js" => (UI_JS, "text/javascript; charset=utf-8"),
        "lobby.js" => (LOBBY_JS, "text/javascript; charset=utf-8"),
        "analysis.js" => (ANALYSIS_JS, "text/javascript; charset=utf-8"),
        "style.css" => (STYLE_CSS, "text/css; charset=utf-8"),
        "favicon.svg" => (FAVICON_SVG, "image/svg+xml"),
        _ => return error(StatusCode::NOT_FOUND, format!("no asset {file}")),
    };
    ([(header::CONTENT_TYPE, kind), (header::CACHE_CONTROL, "no-cache")], body).into_response()
}
