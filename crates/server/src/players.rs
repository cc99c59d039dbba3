//! Players: a name without an account, optional accounts, Glicko-2 ratings per game, the
//! leaderboard and the player pages.
//!
//! **Who is playing.** A browser is a player once it has the `ply_player` cookie: the
//! player's id, a dot and an HMAC-SHA256 of the id (hex) under a key the store makes once and
//! every node shares (the `settings` row `player_cookie_key`), so nobody can claim another
//! player's id. [`current`] reads it and makes a new guest with a random friendly name
//! ("Teal Otter 37") when there is none, handing back the `Set-Cookie` to send; [`peek`] only
//! reads. A guest can pick another name and turn into an account (a login name and an argon2
//! password hash), which signs in on any browser.
//!
//! **Names and ratings beside names.** [`name_of`], [`names_of`] and [`labels_of`] (name
//! and rating in a game, for lists and the board) are what other pages call.
//!
//! Routes (see `docs/http-api.md`): `GET /api/me`, `POST /api/me/name`,
//! `POST /api/account/{register,login,logout}`, `GET /api/players/{id}`,
//! `GET /api/leaderboard/{game}`; pages `GET /me` (with its forms `POST /me/{name,register,
//! login,logout}`), `GET /players?game=…` and `GET /player/{id}`.

use std::collections::HashMap;
use std::fmt::Write as _;

use argon2::Argon2;
use argon2::password_hash::phc::PasswordHash;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use hmac::{Hmac, Mac};
use ply_core::{Outcome, Player};
use ply_store::{GameRow, Mode, PlayerRow, Rating, RatingPoint, Store, StoreError};
use serde::Deserialize;
use serde_json::{Map, Value, json};
use sha2::Sha256;

use crate::i18n::Lang;
use crate::messages::{Arg, Messages};
use crate::pages::{esc, layout};
use crate::{AppState, Peer, cookie, guard};

/// The cookie that says which player a browser is.
pub const COOKIE: &str = "ply_player";

/// The `settings` key of the cookie-signing key.
const KEY_SETTING: &str = "player_cookie_key";

type HmacSha256 = Hmac<Sha256>;

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) {
        return None;
    }
    (0..text.len()).step_by(2).map(|i| u8::from_str_radix(text.get(i..i + 2)?, 16).ok()).collect()
}

async fn signing_key(store: &Store) -> Result<Vec<u8>, StoreError> {
    Ok(store.setting_or_insert(KEY_SETTING, || ply_store::random_hex(32)).await?.into_bytes())
}

fn mac(key: &[u8], id: &str) -> HmacSha256 {
    let mut mac = HmacSha256::new_from_slice(key).expect("HMAC takes keys of any length");
    mac.update(id.as_bytes());
    mac
}

/// Whether `id` looks like a player id (16 lower-case hex digits).
fn is_player_id(id: &str) -> bool {
    id.len() == 16 && id.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// The player id a cookie value names, if its signature holds (checked in constant time).
fn verified(key: &[u8], value: &str) -> Option<String> {
    let (id, signature) = value.split_once('.')?;
    if !is_player_id(id) {
        return None;
    }
    mac(key, id).verify_slice(&unhex(signature)?).ok()?;
    Some(id.to_string())
}

/// The `Set-Cookie` header that makes a browser player `id` (HttpOnly, SameSite=Lax, a
/// year).
///
/// # Errors
/// Database errors (reading the signing key).
pub async fn cookie_for(store: &Store, id: &str) -> Result<HeaderValue, StoreError> {
    let key = signing_key(store).await?;
    let signature = hex(&mac(&key, id).finalize().into_bytes());
    Ok(HeaderValue::from_str(&format!(
        "{COOKIE}={id}.{signature}; Path=/; Max-Age=31536000; HttpOnly; SameSite=Lax"
    ))
    .expect("hex text"))
}

/// The player the request's `ply_player` cookie names, if it is signed and the player
/// exists. Makes nobody.
///
/// # Errors
/// Database errors.
pub async fn peek(state: &AppState, headers: &HeaderMap) -> Result<Option<PlayerRow>, StoreError> {
    let Some(value) = cookie(headers, COOKIE) else { return Ok(None) };
    let store = state.store();
    let key = signing_key(store).await?;
    match verified(&key, &value) {
        Some(id) => store.player(&id).await,
        None => Ok(None),
    }
}

/// The player making the request: the one its cookie names, else a new guest with a random
/// name, stored now. The second value is the `Set-Cookie` header to add to the answer when a
/// player was made (`None`: the browser already holds the cookie).
///
/// Call it where a person acts (a game created, a seek made or accepted); for pages that
/// only show things, [`peek`] does not fill the store with one-visit guests.
///
/// # Errors
/// Database errors.
pub async fn current(
    state: &AppState,
    headers: &HeaderMap,
) -> Result<(PlayerRow, Option<HeaderValue>), StoreError> {
    if let Some(player) = peek(state, headers).await? {
        return Ok((player, None));
    }
    let player = state.store().create_player(&random_name()).await?;
    let set_cookie = cookie_for(state.store(), &player.id).await?;
    Ok((player, Some(set_cookie)))
}

/// The display name of player `id` (`None`: no such player, or the store failed).
pub async fn name_of(store: &Store, id: &str) -> Option<String> {
    store.player(id).await.ok().flatten().map(|p| p.name)
}

/// The display names of these players, by id (unknown ids, and all on a store failure, are
/// left out).
pub async fn names_of(store: &Store, ids: &[String]) -> HashMap<String, String> {
    store.player_names(ids).await.unwrap_or_default()
}

/// What to show for a player beside a board or in a list.
#[derive(Clone, Debug, PartialEq)]
pub struct Label {
    pub name: String,
    /// The rating in the game at hand; `None` before a first rated game of it.
    pub rating: Option<Rating>,
}

impl Label {
    /// `Teal Otter 37 (1523)`, `Teal Otter 37 (1500?)` while provisional, or the name alone
    /// before any rated game.
    #[must_use]
    pub fn text(&self) -> String {
        match &self.rating {
            Some(r) => format!("{} ({})", self.name, rating_text(r)),
            None => self.name.clone(),
        }
    }
}

/// A rating as shown: rounded, with `?` while provisional (deviation above 110).
#[must_use]
pub fn rating_text(r: &Rating) -> String {
    format!("{:.0}{}", r.rating, if r.provisional() { "?" } else { "" })
}

/// Names and ratings in `game` of these players, by id (unknown ids are left out).
pub async fn labels_of(store: &Store, game: &str, ids: &[String]) -> HashMap<String, Label> {
    let names = names_of(store, ids).await;
    let mut ratings = store.ratings_in(game, ids).await.unwrap_or_default();
    names
        .into_iter()
        .map(|(id, name)| {
            let rating = ratings.remove(&id);
            (id, Label { name, rating })
        })
        .collect()
}

/// Friendly colours and moods, and animals, for a guest's name.
const ADJECTIVES: [&str; 32] = [
    "Amber", "Azure", "Brave", "Bright", "Calm", "Clever", "Coral", "Crimson", "Dapper", "Eager",
    "Gentle", "Golden", "Happy", "Indigo", "Jolly", "Keen", "Lively", "Lucky", "Mellow", "Misty",
    "Nimble", "Olive", "Plucky", "Quiet", "Rosy", "Scarlet", "Silver", "Sunny", "Swift", "Teal",
    "Witty", "Zesty",
];
const ANIMALS: [&str; 32] = [
    "Badger", "Beaver", "Bison", "Crane", "Dolphin", "Falcon", "Ferret", "Finch", "Fox", "Gecko",
    "Heron", "Ibis", "Koala", "Lemur", "Lynx", "Marten", "Moose", "Newt", "Ocelot", "Otter", "Owl",
    "Panda", "Puffin", "Quokka", "Raven", "Robin", "Seal", "Stoat", "Swan", "Tapir", "Walrus",
    "Yak",
];

/// A random friendly name: a colour or mood, an animal and a number from 10 to 99
/// ("Teal Otter 37").
#[must_use]
pub fn random_name() -> String {
    let bytes = ply_store::random_hex(3);
    let n = u32::from_str_radix(&bytes, 16).unwrap_or(0) as usize;
    format!(
        "{} {} {}",
        ADJECTIVES[n % ADJECTIVES.len()],
        ANIMALS[(n / ADJECTIVES.len()) % ANIMALS.len()],
        10 + (n / (ADJECTIVES.len() * ANIMALS.len())) % 90
    )
}

/// Characters a name may not hold: control characters, and the invisible ones that reorder
/// or hide text (bidirectional overrides, zero-width characters).
fn hidden(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{206F}' | '\u{FEFF}')
}

/// A display name as stored: trimmed, 1 to 24 characters, none of them control characters.
/// `None` when `raw` is not one.
#[must_use]
pub fn clean_name(raw: &str) -> Option<String> {
    let name = raw.trim();
    let count = name.chars().count();
    ((1..=24).contains(&count) && !name.chars().any(hidden)).then(|| name.to_string())
}

/// A login name as stored: trimmed, in lower case, 3 to 24 of `a-z 0-9 _ -`.
fn clean_login(raw: &str) -> Option<String> {
    let login = raw.trim().to_ascii_lowercase();
    ((3..=24).contains(&login.len())
        && login
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'-'))
    .then_some(login)
}

/// Why a request about players was refused: a status and a message of the server's texts.
#[derive(Debug)]
struct Refusal {
    status: StatusCode,
    id: &'static str,
    /// Seconds to wait (429).
    wait: Option<u64>,
}

impl Refusal {
    fn new(status: StatusCode, id: &'static str) -> Refusal {
        Refusal { status, id, wait: None }
    }

    fn store(e: &StoreError) -> Refusal {
        tracing::error!("players: {e}");
        Refusal::new(StatusCode::SERVICE_UNAVAILABLE, "players-error-store")
    }

    fn too_many(wait: std::time::Duration) -> Refusal {
        Refusal {
            wait: Some(wait.as_secs() + 1),
            ..Refusal::new(StatusCode::TOO_MANY_REQUESTS, "players-error-too-many")
        }
    }

    fn message(&self, lang: Lang) -> String {
        let wait = i64::try_from(self.wait.unwrap_or(0)).unwrap_or(i64::MAX);
        Messages::of(lang, None)
            .get(self.id, &[("s", Arg::Number(wait))])
            .unwrap_or_else(|| self.id.to_string())
    }

    /// The JSON error in `lang`, with `Retry-After` when over a limit.
    fn json(&self, lang: Lang) -> Response {
        let mut response = crate::error(self.status, self.message(lang));
        if let Some(s) = self.wait
            && let Ok(v) = HeaderValue::from_str(&s.to_string())
        {
            response.headers_mut().insert(header::RETRY_AFTER, v);
        }
        response
    }
}

/// The fields of the name form and of `POST /api/me/name`.
#[derive(Debug, Default, Deserialize)]
pub struct NameBody {
    #[serde(default)]
    name: String,
}

/// The fields of the account forms and of `POST /api/account/{register,login}`.
#[derive(Debug, Default, Deserialize)]
pub struct AccountBody {
    #[serde(default)]
    account: String,
    #[serde(default)]
    password: String,
}

/// What a change of the player leaves: the player, and the cookie to set, if any.
type Changed = (PlayerRow, Option<HeaderValue>);

async fn rename(
    state: &AppState,
    headers: &HeaderMap,
    addr: Option<std::net::IpAddr>,
    body: &NameBody,
) -> Result<Changed, Refusal> {
    state.limits.check(guard::Kind::Act, addr).map_err(Refusal::too_many)?;
    let name = clean_name(&body.name)
        .ok_or(Refusal::new(StatusCode::BAD_REQUEST, "players-error-name"))?;
    let (mut player, set) = current(state, headers).await.map_err(|e| Refusal::store(&e))?;
    state.store().rename_player(&player.id, &name).await.map_err(|e| Refusal::store(&e))?;
    player.name = name;
    Ok((player, set))
}

fn password_ok(password: &str) -> bool {
    (8..=128).contains(&password.chars().count())
}

async fn register(
    state: &AppState,
    headers: &HeaderMap,
    addr: Option<std::net::IpAddr>,
    body: AccountBody,
) -> Result<Changed, Refusal> {
    state.limits.check(guard::Kind::Login, addr).map_err(Refusal::too_many)?;
    let login = clean_login(&body.account)
        .ok_or(Refusal::new(StatusCode::BAD_REQUEST, "players-error-login-name"))?;
    if !password_ok(&body.password) {
        return Err(Refusal::new(StatusCode::BAD_REQUEST, "players-error-password"));
    }
    let (mut player, set) = current(state, headers).await.map_err(|e| Refusal::store(&e))?;
    if player.account.is_some() {
        return Err(Refusal::new(StatusCode::CONFLICT, "players-error-has-account"));
    }
    let password = body.password;
    let hash = tokio::task::spawn_blocking(move || {
        Argon2::default().hash_password(password.as_bytes()).map(|h: PasswordHash| h.to_string())
    })
    .await
    .ok()
    .and_then(Result::ok)
    .ok_or_else(|| Refusal::new(StatusCode::INTERNAL_SERVER_ERROR, "players-error-store"))?;
    let store = state.store();
    if !store.register_account(&player.id, &login, &hash).await.map_err(|e| Refusal::store(&e))? {
        return Err(Refusal::new(StatusCode::CONFLICT, "players-error-taken"));
    }
    player.account = Some(login);
    Ok((player, set))
}

async fn login(
    state: &AppState,
    addr: Option<std::net::IpAddr>,
    body: AccountBody,
) -> Result<Changed, Refusal> {
    // Every attempt counts against the address's limit, so failures do.
    state.limits.check(guard::Kind::Login, addr).map_err(Refusal::too_many)?;
    let wrong = || Refusal::new(StatusCode::FORBIDDEN, "players-error-login");
    let login = clean_login(&body.account).ok_or_else(wrong)?;
    let store = state.store();
    let (player, hash) =
        store.account(&login).await.map_err(|e| Refusal::store(&e))?.ok_or_else(wrong)?;
    let password = body.password;
    let good = tokio::task::spawn_blocking(move || {
        PasswordHash::new(&hash).is_ok_and(|parsed| {
            Argon2::default().verify_password(password.as_bytes(), &parsed).is_ok()
        })
    })
    .await
    .unwrap_or(false);
    if !good {
        return Err(wrong());
    }
    let set = cookie_for(store, &player.id).await.map_err(|e| Refusal::store(&e))?;
    Ok((player, Some(set)))
}

async fn logout(state: &AppState) -> Result<Changed, Refusal> {
    let store = state.store();
    let player = store.create_player(&random_name()).await.map_err(|e| Refusal::store(&e))?;
    let set = cookie_for(store, &player.id).await.map_err(|e| Refusal::store(&e))?;
    Ok((player, Some(set)))
}

fn rating_json(r: &Rating) -> Value {
    json!({
        "rating": r.rating,
        "deviation": r.deviation,
        "volatility": r.volatility,
        "games": r.games,
        "provisional": r.provisional(),
    })
}

async fn ratings_json(store: &Store, id: &str) -> Value {
    let ratings = store.ratings_of(id).await.unwrap_or_default();
    Value::Object(
        ratings.iter().map(|(game, r)| (game.clone(), rating_json(r))).collect::<Map<_, _>>(),
    )
}

/// The player as `GET /api/me` answers: id, name, login name (or null), ratings per game.
async fn me_json(store: &Store, player: &PlayerRow) -> Value {
    json!({
        "id": player.id,
        "name": player.name,
        "account": player.account,
        "ratings": ratings_json(store, &player.id).await,
    })
}

async fn answer(state: &AppState, result: Result<Changed, Refusal>, lang: Lang) -> Response {
    match result {
        Err(r) => r.json(lang),
        Ok((player, set)) => {
            let mut response = axum::Json(me_json(state.store(), &player).await).into_response();
            if let Some(set) = set {
                response.headers_mut().insert(header::SET_COOKIE, set);
            }
            response
        }
    }
}

/// A JSON request body (`Content-Type: application/json`; an empty body is `T::default()`),
/// or the JSON answer that says what is wrong with it (415 or 400).
pub struct JsonBody<T>(pub T);

impl<T, S> axum::extract::FromRequest<S> for JsonBody<T>
where
    T: serde::de::DeserializeOwned + Default,
    S: Send + Sync,
{
    type Rejection = Response;

    async fn from_request(req: axum::extract::Request, state: &S) -> Result<Self, Response> {
        let headers = req.headers().clone();
        let body = axum::body::Bytes::from_request(req, state)
            .await
            .map_err(IntoResponse::into_response)?;
        if !guard::json_body(&headers, &body) {
            return Err(crate::error(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "the body must be JSON (Content-Type: application/json)",
            ));
        }
        if body.iter().all(u8::is_ascii_whitespace) {
            return Ok(JsonBody(T::default()));
        }
        serde_json::from_slice(&body).map(JsonBody).map_err(|e| {
            crate::error(StatusCode::BAD_REQUEST, format!("the body is not valid JSON: {e}"))
        })
    }
}

/// `GET /api/me`: the current player (made now, with its cookie, on a first visit).
pub async fn api_me(State(state): State<AppState>, headers: HeaderMap) -> Response {
    let lang = crate::i18n::lang_of_request(&headers);
    let result = current(&state, &headers).await.map_err(|e| Refusal::store(&e));
    answer(&state, result, lang).await
}

/// `POST /api/me/name {"name": …}`.
pub async fn api_name(
    State(state): State<AppState>,
    headers: HeaderMap,
    Peer(addr): Peer,
    JsonBody(body): JsonBody<NameBody>,
) -> Response {
    let result = rename(&state, &headers, addr, &body).await;
    answer(&state, result, crate::i18n::lang_of_request(&headers)).await
}

/// `POST /api/account/register {"account": …, "password": …}`.
pub async fn api_register(
    State(state): State<AppState>,
    headers: HeaderMap,
    Peer(addr): Peer,
    JsonBody(body): JsonBody<AccountBody>,
) -> Response {
    let result = register(&state, &headers, addr, body).await;
    answer(&state, result, crate::i18n::lang_of_request(&headers)).await
}

/// `POST /api/account/login {"account": …, "password": …}`.
pub async fn api_login(
    State(state): State<AppState>,
    headers: HeaderMap,
    Peer(addr): Peer,
    JsonBody(body): JsonBody<AccountBody>,
) -> Response {
    let result = login(&state, addr, body).await;
    answer(&state, result, crate::i18n::lang_of_request(&headers)).await
}

/// `POST /api/account/logout`: the browser becomes a new guest.
pub async fn api_logout(
    State(state): State<AppState>,
    headers: HeaderMap,
    // Checked like every JSON body (a cross-site form cannot send one), and not used.
    JsonBody(_): JsonBody<Value>,
) -> Response {
    let result = logout(&state).await;
    answer(&state, result, crate::i18n::lang_of_request(&headers)).await
}

/// A game of a player's list, from their side.
struct Seen<'a> {
    row: &'a GameRow,
    seat: Player,
    opponent: Option<&'a str>,
}

impl Seen<'_> {
    /// `win`, `loss`, `draw`, or `None` while the game goes on.
    fn result(&self) -> Option<&'static str> {
        self.row.ended.map(|e| match e.outcome {
            Outcome::Draw => "draw",
            Outcome::Win(w) if w == self.seat => "win",
            Outcome::Win(_) => "loss",
        })
    }
}

fn seen<'a>(id: &str, rows: &'a [GameRow]) -> Vec<Seen<'a>> {
    rows.iter()
        .map(|row| {
            let seat = if row.players[0].as_deref() == Some(id) { Player::P1 } else { Player::P2 };
            Seen { row, seat, opponent: row.players[seat.other().index()].as_deref() }
        })
        .collect()
}

struct Profile {
    player: PlayerRow,
    ratings: Vec<(String, Rating)>,
    games: Vec<GameRow>,
    names: HashMap<String, String>,
    history: Vec<(String, Vec<RatingPoint>)>,
}

async fn profile(store: &Store, id: &str) -> Result<Option<Profile>, StoreError> {
    if !is_player_id(id) {
        return Ok(None);
    }
    let Some(player) = store.player(id).await? else { return Ok(None) };
    let ratings = store.ratings_of(id).await?;
    let games = store.games_of_player(id, 50).await?;
    let mut others: Vec<String> =
        games.iter().flat_map(|g| g.players.iter().flatten().cloned()).collect();
    others.sort();
    others.dedup();
    let names = store.player_names(&others).await?;
    let mut history = Vec::new();
    for (game, _) in &ratings {
        history.push((game.clone(), store.rating_history(id, game).await?));
    }
    Ok(Some(Profile { player, ratings, games, names, history }))
}

/// `GET /api/players/{id}`: name, whether it is an account, ratings, the last 50 games and
/// the rating history per game.
pub async fn api_player(State(state): State<AppState>, Path(id): Path<String>) -> Response {
    let p = match profile(state.store(), &id).await {
        Err(e) => return Refusal::store(&e).json(Lang::En),
        Ok(None) => return crate::error(StatusCode::NOT_FOUND, format!("no player {id}")),
        Ok(Some(p)) => p,
    };
    let games: Vec<Value> = seen(&p.player.id, &p.games)
        .iter()
        .map(|s| {
            json!({
                "id": s.row.id,
                "game": s.row.game,
                "variant": s.row.variant,
                "seat": s.seat.as_str(),
                "opponent": s.opponent.map(|o| json!({"id": o, "name": p.names.get(o)})),
                "computer": s.row.mode == Mode::Computer,
                "rated": s.row.rated,
                "live": s.row.live(),
                "result": s.result(),
                "reason": s.row.ended.map(|e| e.reason.as_str()),
                "turns": s.row.plies,
                "updated_ms": s.row.updated_ms,
            })
        })
        .collect();
    let history: Map<String, Value> = p
        .history
        .iter()
        .map(|(game, points)| {
            let points: Vec<Value> = points
                .iter()
                .map(|pt| json!({"game_id": pt.game_id, "at_ms": pt.at_ms, "rating": pt.rating, "deviation": pt.deviation}))
                .collect();
            (game.clone(), Value::Array(points))
        })
        .collect();
    axum::Json(json!({
        "id": p.player.id,
        "name": p.player.name,
        "account": p.player.account.is_some(),
        "ratings": Value::Object(p.ratings.iter().map(|(g, r)| (g.clone(), rating_json(r))).collect()),
        "games": games,
        "history": history,
    }))
    .into_response()
}

/// `GET /api/leaderboard/{game}`: the best 50 players of a game with a rated game.
pub async fn api_leaderboard(State(state): State<AppState>, Path(game): Path<String>) -> Response {
    if ply_games::registry().get(&game).is_err() {
        return crate::error(StatusCode::NOT_FOUND, format!("no game {game}"));
    }
    match state.store().leaderboard(&game, 50).await {
        Err(e) => Refusal::store(&e).json(Lang::En),
        Ok(rows) => axum::Json(json!({
            "game": game,
            "players": rows.iter().enumerate().map(|(i, l)| json!({
                "rank": i + 1,
                "id": l.player,
                "name": l.name,
                "rating": l.rating.rating,
                "deviation": l.rating.deviation,
                "games": l.rating.games,
                "provisional": l.rating.provisional(),
            })).collect::<Vec<_>>(),
        }))
        .into_response(),
    }
}

fn display_name(game: &str) -> String {
    ply_games::registry()
        .get(game)
        .map_or_else(|_| game.to_string(), |e| e.display_name.to_string())
}

fn date(ms: i64) -> String {
    jiff::Timestamp::from_millisecond(ms)
        .map_or_else(|_| String::new(), |t| t.strftime("%Y-%m-%d").to_string())
}

/// A rating as a table cell: the number, marked when provisional.
fn rating_cell(m: &Messages, r: &Rating) -> String {
    if r.provisional() {
        format!(
            "<abbr title=\"{}\">{}</abbr>",
            esc(&m.text("players-provisional", "provisional")),
            esc(&rating_text(r))
        )
    } else {
        esc(&rating_text(r))
    }
}

fn player_link(id: &str, name: &str) -> String {
    format!("<a href=\"/player/{id}\">{}</a>", esc(name))
}

/// `GET /players?game=…`: the leaderboard of a game (the first game by default), with links
/// to the other games' boards.
pub async fn leaderboard_page(
    State(state): State<AppState>,
    headers: HeaderMap,
    Query(q): Query<HashMap<String, String>>,
) -> Response {
    let lang = crate::i18n::lang_of_request(&headers);
    let m = Messages::of(lang, None);
    let registry = ply_games::registry();
    let entries = registry.entries();
    let game = match q.get("game") {
        Some(g) => match registry.get(g) {
            Ok(e) => e.name,
            Err(_) => {
                return crate::pages::not_found(headers, axum::http::Uri::from_static("/players"))
                    .await;
            }
        },
        None => entries.first().map_or("boop", |e| e.name),
    };
    let rows = match state.store().leaderboard(game, 50).await {
        Ok(rows) => rows,
        Err(e) => return Refusal::store(&e).json(lang),
    };
    let mut body = format!(
        "<h1>{}</h1><nav class=\"buttons\" aria-label=\"{}\">",
        esc(&m.text("players-leaderboard", "Leaderboard")),
        esc(&m.text("players-leaderboard", "Leaderboard"))
    );
    for e in entries {
        let current = if e.name == game { " aria-current=\"page\"" } else { "" };
        let _ = write!(
            body,
            "<a class=\"button\" href=\"/players?game={}\"{current}>{}</a>",
            e.name,
            esc(e.display_name)
        );
    }
    body.push_str("</nav>");
    let title = m
        .get("players-leaderboard-of", &[("game", Arg::Text(&display_name(game)))])
        .unwrap_or_default();
    let _ = write!(body, "<section class=\"list\" id=\"leaderboard\"><h2>{}</h2>", esc(&title));
    if rows.is_empty() {
        let _ = write!(body, "<p>{}</p>", esc(&m.text("players-leaderboard-empty", "")));
    } else {
        let _ = write!(
            body,
            "<table class=\"summary leaderboard\"><thead><tr><th scope=\"col\">{}</th><th scope=\"col\">{}</th><th scope=\"col\">{}</th><th scope=\"col\">{}</th></tr></thead><tbody>",
            esc(&m.text("players-rank", "Rank")),
            esc(&m.text("players-player", "Player")),
            esc(&m.text("players-rating", "Rating")),
            esc(&m.text("players-games-column", "Rated games")),
        );
        for (i, l) in rows.iter().enumerate() {
            let _ = write!(
                body,
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                i + 1,
                player_link(&l.player, &l.name),
                rating_cell(&m, &l.rating),
                l.rating.games
            );
        }
        body.push_str("</tbody></table>");
    }
    body.push_str("</section>");
    layout(lang, &title, &format!("/players?game={game}"), &body).into_response()
}

/// The rating history as an SVG plot: the rating after each rated game as a line, its
/// deviation as a band around it; drawn on the server, no script needed.
#[must_use]
pub fn history_svg(points: &[RatingPoint], label: &str) -> String {
    const W: f64 = 600.0;
    const H: f64 = 180.0;
    const LEFT: f64 = 48.0;
    const PAD: f64 = 10.0;
    if points.is_empty() {
        return String::new();
    }
    let low = points.iter().map(|p| p.rating - p.deviation).fold(f64::INFINITY, f64::min).floor();
    let high =
        points.iter().map(|p| p.rating + p.deviation).fold(f64::NEG_INFINITY, f64::max).ceil();
    let span = (high - low).max(1.0);
    let n = points.len();
    #[allow(clippy::cast_precision_loss)] // a few hundred points at most
    let x = |i: usize| {
        if n == 1 { (LEFT + W) / 2.0 } else { LEFT + (W - LEFT - PAD) * i as f64 / (n - 1) as f64 }
    };
    let y = |v: f64| PAD + (H - 2.0 * PAD) * (high - v) / span;
    let line: Vec<String> =
        points.iter().enumerate().map(|(i, p)| format!("{:.1},{:.1}", x(i), y(p.rating))).collect();
    let mut band: Vec<String> = points
        .iter()
        .enumerate()
        .map(|(i, p)| format!("{:.1},{:.1}", x(i), y(p.rating + p.deviation)))
        .collect();
    band.extend(
        points
            .iter()
            .enumerate()
            .rev()
            .map(|(i, p)| format!("{:.1},{:.1}", x(i), y(p.rating - p.deviation))),
    );
    let mut svg = format!(
        "<svg class=\"rating-history\" viewBox=\"0 0 {W} {H}\" width=\"100%\" role=\"img\" aria-label=\"{label}\" xmlns=\"http://www.w3.org/2000/svg\">\
<title>{label}</title>\
<line x1=\"{LEFT}\" y1=\"{PAD}\" x2=\"{LEFT}\" y2=\"{yb:.1}\" stroke=\"currentColor\" stroke-opacity=\"0.4\"/>\
<line x1=\"{LEFT}\" y1=\"{yb:.1}\" x2=\"{xr:.1}\" y2=\"{yb:.1}\" stroke=\"currentColor\" stroke-opacity=\"0.4\"/>\
<text x=\"{tx:.1}\" y=\"{ty1:.1}\" font-size=\"12\" text-anchor=\"end\" fill=\"currentColor\">{high:.0}</text>\
<text x=\"{tx:.1}\" y=\"{ty2:.1}\" font-size=\"12\" text-anchor=\"end\" fill=\"currentColor\">{low:.0}</text>\
<polygon class=\"band\" points=\"{band}\" fill=\"#c2410c\" fill-opacity=\"0.15\" stroke=\"none\"/>\
<polyline class=\"line\" points=\"{line}\" fill=\"none\" stroke=\"#c2410c\" stroke-width=\"2\" stroke-linejoin=\"round\"/>",
        label = esc(label),
        yb = H - PAD,
        xr = W - PAD,
        tx = LEFT - 4.0,
        ty1 = PAD + 10.0,
        ty2 = H - PAD,
        band = band.join(" "),
        line = line.join(" "),
    );
    for (i, p) in points.iter().enumerate() {
        let _ = write!(
            svg,
            "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"3\" fill=\"#c2410c\"><title>{:.0} ± {:.0} · {}</title></circle>",
            x(i),
            y(p.rating),
            p.rating,
            p.deviation,
            date(p.at_ms)
        );
    }
    svg.push_str("</svg>");
    svg
}

/// `GET /player/{id}`: a player's name, ratings, rating history plots and recent games.
pub async fn player_page(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Response {
    let lang = crate::i18n::lang_of_request(&headers);
    let m = Messages::of(lang, None);
    let p = match profile(state.store(), &id).await {
        Err(e) => return Refusal::store(&e).json(lang),
        Ok(None) => {
            let body =
                format!("<p>{}</p>", esc(&m.text("players-unknown", "There is no such player.")));
            return (StatusCode::NOT_FOUND, layout(lang, "404", "/players", &body)).into_response();
        }
        Ok(Some(p)) => p,
    };
    let mut body = format!("<h1>{}</h1>", esc(&p.player.name));
    let _ = write!(
        body,
        "<section id=\"ratings\"><h2>{}</h2>",
        esc(&m.text("players-ratings", "Ratings"))
    );
    if p.ratings.is_empty() {
        let _ = write!(body, "<p>{}</p>", esc(&m.text("players-no-ratings", "")));
    } else {
        body.push_str("<ul>");
        for (game, r) in &p.ratings {
            let games = m.get("players-games", &[("n", Arg::Number(r.games))]).unwrap_or_default();
            let _ = write!(
                body,
                "<li><a href=\"/players?game={game}\">{}</a>: <strong>{}</strong> <span class=\"meta\">± {:.0} · {}</span></li>",
                esc(&display_name(game)),
                rating_cell(&m, r),
                r.deviation,
                esc(&games)
            );
        }
        body.push_str("</ul>");
    }
    body.push_str("</section>");
    if !p.history.is_empty() {
        let _ = write!(
            body,
            "<section id=\"history\"><h2>{}</h2>",
            esc(&m.text("players-history", "Rating over time"))
        );
        for (game, points) in &p.history {
            let label = m
                .get("players-history-of", &[("game", Arg::Text(&display_name(game)))])
                .unwrap_or_default();
            let _ = write!(
                body,
                "<figure><figcaption>{}</figcaption>{}</figure>",
                esc(&label),
                history_svg(points, &label)
            );
        }
        body.push_str("</section>");
    }
    let _ = write!(
        body,
        "<section class=\"list\" id=\"recent-games\"><h2>{}</h2>",
        esc(&m.text("players-recent-games", "Recent games"))
    );
    if p.games.is_empty() {
        let _ = write!(body, "<p>{}</p>", esc(&m.text("players-no-games", "")));
    } else {
        body.push_str("<ul class=\"games\">");
        for s in seen(&p.player.id, &p.games) {
            let opponent = match (s.opponent, s.row.mode) {
                (Some(o), _) => player_link(o, p.names.get(o).map_or(o, String::as_str)),
                (None, Mode::Computer) => esc(&m.text("players-computer", "the computer")),
                (None, _) => esc(&m.text("players-nobody", "nobody yet")),
            };
            // The opponent's link is already escaped; the message wraps it.
            let versus =
                esc(&m.get("players-versus", &[("name", Arg::Text("\u{1}"))]).unwrap_or_default())
                    .replace('\u{1}', &opponent);
            let result = match s.result() {
                None => m.text("players-playing", "playing"),
                Some("win") => m.text("players-won", "won"),
                Some("loss") => m.text("players-lost", "lost"),
                Some(_) => m.text("players-drew", "draw"),
            };
            let rated = if s.row.rated {
                format!(" · {}", esc(&m.text("players-rated", "rated")))
            } else {
                String::new()
            };
            let _ = write!(
                body,
                "<li><a href=\"/game/{id}\">{game} · {variant}</a> <span class=\"meta\">{versus} · <strong class=\"result-{class}\">{result}</strong>{rated} · <time datetime=\"{iso}\">{date}</time></span></li>",
                id = s.row.id,
                game = esc(&display_name(&s.row.game)),
                variant = esc(&s.row.variant),
                class = s.result().unwrap_or("live"),
                result = esc(&result),
                iso = jiff::Timestamp::from_millisecond(s.row.updated_ms)
                    .map(|t| t.to_string())
                    .unwrap_or_default(),
                date = date(s.row.updated_ms),
            );
        }
        body.push_str("</ul>");
    }
    body.push_str("</section>");
    layout(lang, &p.player.name, &format!("/player/{}", p.player.id), &body).into_response()
}

/// The `/me` page: the name form, the account forms and the ratings, with `error` (a
/// refused form) above them.
async fn me_page_for(
    state: &AppState,
    lang: Lang,
    player: &PlayerRow,
    error: Option<&Refusal>,
) -> String {
    let m = Messages::of(lang, None);
    let t = |id: &str, fallback: &str| esc(&m.text(id, fallback));
    let mut body = format!("<h1>{}</h1>", t("players-me", "You"));
    if let Some(e) = error {
        let _ = write!(body, "<p class=\"error\" role=\"alert\">{}</p>", esc(&e.message(lang)));
    }
    let intro = m.get("players-me-intro", &[("name", Arg::Text(&player.name))]).unwrap_or_default();
    let _ = write!(
        body,
        "<p>{}</p><p><a href=\"/player/{}\">{}</a></p>",
        esc(&intro),
        player.id,
        t("players-your-page", "Your player page")
    );
    let _ = write!(
        body,
        "<form class=\"new-game\" method=\"post\" action=\"/me/name\"><label>{label}<input name=\"name\" value=\"{value}\" required maxlength=\"24\" autocomplete=\"nickname\"></label><button type=\"submit\">{save}</button></form>",
        label = t("players-name", "Display name"),
        value = esc(&player.name),
        save = t("players-save", "Save"),
    );
    let _ = write!(body, "<section id=\"account\"><h2>{}</h2>", t("players-account", "Account"));
    let account_fields = |action: &str, submit: &str, new_password: bool| {
        format!(
            "<form class=\"new-game\" method=\"post\" action=\"{action}\"><label>{login}<input name=\"account\" required minlength=\"3\" maxlength=\"24\" pattern=\"[A-Za-z0-9_\\-]+\" autocomplete=\"username\"></label><label>{password}<input name=\"password\" type=\"password\" required minlength=\"{min}\" maxlength=\"128\" autocomplete=\"{ac}\"></label><button type=\"submit\">{submit}</button></form>",
            login = t("players-login-name", "Login name"),
            password = t("players-password", "Password"),
            min = if new_password { 8 } else { 1 },
            ac = if new_password { "new-password" } else { "current-password" },
        )
    };
    match &player.account {
        Some(account) => {
            let signed =
                m.get("players-signed-in", &[("account", Arg::Text(account))]).unwrap_or_default();
            let _ = write!(
                body,
                "<p>{}</p><form method=\"post\" action=\"/me/logout\"><button type=\"submit\">{}</button></form>",
                esc(&signed),
                t("players-logout", "Sign out")
            );
        }
        None => {
            let _ = write!(body, "<p>{}</p>", t("players-guest", ""));
            let _ = write!(
                body,
                "<h3>{}</h3>{}",
                t("players-register", "Create an account"),
                account_fields("/me/register", &t("players-register", "Create an account"), true)
            );
            let _ = write!(
                body,
                "<h3>{}</h3>{}",
                t("players-login", "Sign in"),
                account_fields("/me/login", &t("players-login", "Sign in"), false)
            );
        }
    }
    body.push_str("</section>");
    let _ = write!(body, "<section id=\"my-ratings\"><h2>{}</h2>", t("players-ratings", "Ratings"));
    let ratings = state.store().ratings_of(&player.id).await.unwrap_or_default();
    if ratings.is_empty() {
        let _ = write!(body, "<p>{}</p>", t("players-no-ratings", ""));
    } else {
        body.push_str("<ul>");
        for (game, r) in &ratings {
            let games = m.get("players-games", &[("n", Arg::Number(r.games))]).unwrap_or_default();
            let _ = write!(
                body,
                "<li><a href=\"/players?game={game}\">{}</a>: <strong>{}</strong> <span class=\"meta\">{}</span></li>",
                esc(&display_name(game)),
                rating_cell(&m, r),
                esc(&games)
            );
        }
        body.push_str("</ul>");
    }
    body.push_str("</section>");
    layout(lang, &m.text("players-me", "You"), "/me", &body).0
}

fn html_with_cookie(status: StatusCode, html: String, set: Option<HeaderValue>) -> Response {
    let mut response = (status, axum::response::Html(html)).into_response();
    if let Some(set) = set {
        response.headers_mut().insert(header::SET_COOKIE, set);
    }
    response
}

/// `GET /me`: the current player's name, account and ratings (a first visit makes a guest).
pub async fn me_page(State(state): State<AppState>, headers: HeaderMap) -> Response {
    let lang = crate::i18n::lang_of_request(&headers);
    match current(&state, &headers).await {
        Err(e) => Refusal::store(&e).json(lang),
        Ok((player, set)) => {
            html_with_cookie(StatusCode::OK, me_page_for(&state, lang, &player, None).await, set)
        }
    }
}

/// What a form of `/me` leads to: back to `/me` (303) with the cookie to set, or the page
/// again with the refusal.
async fn form_answer(
    state: &AppState,
    headers: &HeaderMap,
    result: Result<Changed, Refusal>,
) -> Response {
    let lang = crate::i18n::lang_of_request(headers);
    match result {
        Ok((_, set)) => {
            let mut response = Redirect::to("/me").into_response();
            if let Some(set) = set {
                response.headers_mut().insert(header::SET_COOKIE, set);
            }
            response
        }
        Err(refusal) => match current(state, headers).await {
            Err(e) => Refusal::store(&e).json(lang),
            Ok((player, set)) => {
                let html = me_page_for(state, lang, &player, Some(&refusal)).await;
                html_with_cookie(refusal.status, html, set)
            }
        },
    }
}

/// Forms of this site only: a form posted from another site (login CSRF) is refused.
fn same_site(headers: &HeaderMap) -> Result<(), Refusal> {
    if guard::same_origin(headers) {
        Ok(())
    } else {
        Err(Refusal::new(StatusCode::FORBIDDEN, "players-error-origin"))
    }
}

/// `POST /me/name` (form).
pub async fn form_name(
    State(state): State<AppState>,
    headers: HeaderMap,
    Peer(addr): Peer,
    axum::Form(body): axum::Form<NameBody>,
) -> Response {
    let result = match same_site(&headers) {
        Ok(()) => rename(&state, &headers, addr, &body).await,
        Err(r) => Err(r),
    };
    form_answer(&state, &headers, result).await
}

/// `POST /me/register` (form).
pub async fn form_register(
    State(state): State<AppState>,
    headers: HeaderMap,
    Peer(addr): Peer,
    axum::Form(body): axum::Form<AccountBody>,
) -> Response {
    let result = match same_site(&headers) {
        Ok(()) => register(&state, &headers, addr, body).await,
        Err(r) => Err(r),
    };
    form_answer(&state, &headers, result).await
}

/// `POST /me/login` (form).
pub async fn form_login(
    State(state): State<AppState>,
    headers: HeaderMap,
    Peer(addr): Peer,
    axum::Form(body): axum::Form<AccountBody>,
) -> Response {
    let result = match same_site(&headers) {
        Ok(()) => login(&state, addr, body).await,
        Err(r) => Err(r),
    };
    form_answer(&state, &headers, result).await
}

/// `POST /me/logout` (form).
pub async fn form_logout(State(state): State<AppState>, headers: HeaderMap) -> Response {
    let result = match same_site(&headers) {
        Ok(()) => logout(&state).await,
        Err(r) => Err(r),
    };
    form_answer(&state, &headers, result).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_trimmed_short_and_visible() {
        assert_eq!(clean_name("  Teal Otter 37 ").as_deref(), Some("Teal Otter 37"));
        assert_eq!(clean_name("가나다").as_deref(), Some("가나다"));
        assert_eq!(clean_name(&"ж".repeat(24)).map(|n| n.chars().count()), Some(24));
        for bad in
            ["", "   ", "a\u{0}b", "tab\there", "line\nbreak", "\u{202E}evil", "zero\u{200B}width"]
        {
            assert_eq!(clean_name(bad), None, "{bad:?}");
        }
        assert_eq!(clean_name(&"x".repeat(25)), None);
        for _ in 0..50 {
            let name = random_name();
            assert_eq!(clean_name(&name).as_deref(), Some(name.as_str()));
            assert_eq!(name.split(' ').count(), 3, "{name}");
        }
    }

    #[test]
    fn login_names_are_lower_case_words() {
        assert_eq!(clean_login(" Ada_L-9 ").as_deref(), Some("ada_l-9"));
        for bad in ["ab", "a b c", "ädа", "x@y.z", &"a".repeat(25)] {
            assert_eq!(clean_login(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn only_signed_ids_are_taken() {
        let key = b"key";
        let id = "0123456789abcdef";
        let value = format!("{id}.{}", hex(&mac(key, id).finalize().into_bytes()));
        assert_eq!(verified(key, &value).as_deref(), Some(id));
        assert_eq!(verified(b"other key", &value), None);
        let forged = format!("fedcba9876543210.{}", value.split_once('.').unwrap().1);
        assert_eq!(verified(key, &forged), None);
        assert_eq!(verified(key, id), None);
        assert_eq!(verified(key, &format!("{id}.zz")), None);
    }

    #[test]
    fn the_plot_draws_a_line_a_band_and_a_point_per_game() {
        let points: Vec<RatingPoint> = (0..3)
            .map(|i| RatingPoint {
                game_id: format!("g{i}"),
                at_ms: 0,
                rating: 1500.0 + f64::from(i) * 50.0,
                deviation: 300.0 - f64::from(i) * 50.0,
            })
            .collect();
        let svg = history_svg(&points, "boop <rating>");
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"));
        assert_eq!(svg.matches("<circle").count(), 3);
        assert!(svg.contains("<polyline") && svg.contains("<polygon"));
        assert!(svg.contains("boop &lt;rating&gt;"));
        assert_eq!(history_svg(&[], "x"), "");
        assert!(history_svg(&points[..1], "one").contains("<circle"));
    }
}
