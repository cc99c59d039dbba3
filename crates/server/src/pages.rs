//! Server-rendered HTML pages.

use std::collections::HashMap;
use std::fmt::Write as _;

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, Uri};
use axum::response::{Html, IntoResponse, Response};
use ply_core::{Outcome, Player};
use ply_store::{EndReason, GameRow, Mode};
use serde_json::json;

use crate::i18n::{Lang, client_strings, rules, t};
use crate::messages::{Arg, Messages, client_messages};
use crate::protocol::ModeView;
use crate::{AppState, cookie, seat_cookie};

/// Escapes text for HTML content and attribute values.
pub fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

pub(crate) fn layout(lang: Lang, title: &str, path: &str, body: &str) -> Html<String> {
    let mut langs = String::new();
    for l in Lang::ALL {
        let current = if l == lang { " aria-current=\"true\"" } else { "" };
        let _ = write!(
            langs,
            "<a class=\"lang\" hreflang=\"{code}\" lang=\"{code}\" href=\"/lang/{code}?back={back}\"{current}>{name}</a>",
            code = l.code(),
            back = esc(&urlencode(path)),
            name = l.native(),
        );
    }
    Html(format!(
        "<!doctype html>\n<html lang=\"{code}\"><head><meta charset=\"utf-8\">\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
<meta name=\"color-scheme\" content=\"light dark\">\
<title>{title} · ply</title><link rel=\"icon\" href=\"/assets/favicon.svg\" type=\"image/svg+xml\"><link rel=\"stylesheet\" href=\"/assets/style.css\"></head>\
<body><header class=\"top\"><a class=\"brand\" href=\"/\">ply</a>\
<nav><a href=\"/\">{home}</a><a href=\"/games\">{games}</a><a href=\"/archive\">{archive}</a><a href=\"/players\">{players}</a><a href=\"/me\">{me}</a></nav>\
<nav class=\"langs\" aria-label=\"{language}\">{langs}</nav></header>\
<main>{body}</main></body></html>",
        code = lang.code(),
        title = esc(title),
        home = t(lang, "new_game"),
        games = t(lang, "games"),
        language = t(lang, "language"),
        players = esc(&Messages::of(lang, None).text("players-nav", "Players")),
        archive = esc(&Messages::of(lang, None).text("archive-title", "Archive")),
        me = esc(&Messages::of(lang, None).text("players-me", "You")),
    ))
}

/// `text` encoded for a URL's path or query.
pub(crate) fn query_encode(text: &str) -> String {
    urlencode(text)
}

fn urlencode(text: &str) -> String {
    let mut out = String::new();
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"/-_.~".contains(&b) {
            out.push(char::from(b));
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

/// A variant's name in `lang`: the game's own message `variant-<id>`, else a generic label.
fn variant_name(lang: Lang, game: &str, variant: &str) -> String {
    Messages::of(lang, Some(game))
        .get(&format!("variant-{variant}"), &[])
        .unwrap_or_else(|| variant.to_string())
}

pub async fn home(headers: HeaderMap, State(state): State<AppState>) -> Response {
    let lang = crate::i18n::lang_of_request(&headers);
    let registry = ply_games::registry();
    let mut body =
        format!("<p class=\"tagline\">{}</p><section class=\"cards\">", t(lang, "tagline"));
    for entry in registry.entries() {
        let has_engine = ply_games::engine(entry.name).is_ok();
        let summary = rules(entry.name, lang).map(|r| r.summary).unwrap_or_default();
        let _ = write!(
            body,
            "<article class=\"card\" id=\"card-{name}\"><h2>{display}</h2>\
<a href=\"/rules/{name}\" class=\"thumb\"><img src=\"/board/{name}.svg\" alt=\"{board_of} {display}\" width=\"220\" loading=\"lazy\"></a>\
<p>{summary} <a href=\"/rules/{name}\">{read}</a></p>\
<form method=\"post\" action=\"/games\" class=\"new-game\"><input type=\"hidden\" name=\"game\" value=\"{name}\">\
<label>{variant} <select name=\"variant\">",
            name = entry.name,
            display = esc(entry.display_name),
            board_of = t(lang, "board_of"),
            summary = esc(&summary),
            read = t(lang, "read_rules"),
            variant = t(lang, "variant"),
        );
        for v in entry.variants {
            let _ = write!(
                body,
                "<option value=\"{v}\">{}</option>",
                esc(&variant_name(lang, entry.name, v))
            );
        }
        let _ = write!(
            body,
            "</select></label><label>{} <select name=\"opponent\">",
            t(lang, "opponent")
        );
        if has_engine {
            for level in 1..=10 {
                let selected = if level == 3 { " selected" } else { "" };
                let _ = write!(
                    body,
                    "<option value=\"computer-{level}\"{selected}>{} {level}</option>",
                    t(lang, "computer_level")
                );
            }
        }
        let _ = write!(
            body,
            "<option value=\"hotseat\">{}</option><option value=\"invite\">{}</option></select></label>\
<label>{} <select name=\"seat\"><option value=\"P1\">{}</option><option value=\"P2\">{}</option><option value=\"random\">{}</option></select></label>\
<label>{} <select name=\"time\">{}</select></label>\
<button type=\"submit\">{}</button></form></article>",
            t(lang, "hotseat"),
            t(lang, "invite"),
            t(lang, "first"),
            t(lang, "first_p1"),
            t(lang, "first_p2"),
            t(lang, "first_random"),
            esc(&Messages::of(lang, None).text("seek-time", "Time")),
            time_options(lang),
            t(lang, "start"),
        );
    }
    body.push_str("</section>");
    body.push_str(&lobby_section(lang));
    body.push_str(&game_lists(&state, &headers, lang, 12).await);
    layout(lang, "ply", "/", &body).into_response()
}

/// The time controls the forms offer (no clock first).
fn time_options(lang: Lang) -> String {
    let m = Messages::of(lang, None);
    let mut out = String::new();
    for value in ["none", "3+2", "5+3", "15+10", "1d", "3d"] {
        let shown = match value.strip_suffix('d') {
            Some(d) => m
                .get("clock-per-turn-days", &[("d", Arg::Number(d.parse().unwrap_or(1)))])
                .unwrap_or_else(|| value.to_string()),
            None if value == "none" => m.text("no-clock", "no clock"),
            None => value.to_string(),
        };
        let _ = write!(out, "<option value=\"{value}\">{}</option>", esc(&shown));
    }
    out
}

/// The lobby: open seeks (filled and kept live by `/assets/lobby.js`) and a form to make one.
fn lobby_section(lang: Lang) -> String {
    let m = Messages::of(lang, None);
    let registry = ply_games::registry();
    let mut games = String::new();
    for entry in registry.entries() {
        for v in entry.variants {
            let _ = write!(
                games,
                "<option value=\"{name}:{v}\">{display} · {variant}</option>",
                name = entry.name,
                display = esc(entry.display_name),
                variant = esc(&variant_name(lang, entry.name, v)),
            );
        }
    }
    let time_options = time_options(lang);
    let boot = json!({ "lang": lang.code(), "messages": client_messages(lang, None) })
        .to_string()
        .replace("</", "<\\/");
    format!(
        "<section class=\"tv\" id=\"tv\" hidden><h2>{tv}</h2><a id=\"ply-tv-link\" href=\"/\"><div id=\"ply-tv\" class=\"board-box tv-board\"></div></a><p class=\"meta\" id=\"ply-tv-meta\"></p></section>\
<section class=\"list lobby\" id=\"lobby\"><h2>{title}</h2>\
<ul class=\"seeks\" id=\"ply-seeks\" aria-live=\"polite\"></ul>\
<form id=\"ply-seek-form\" class=\"seek-form\"><label>{game_l} <select name=\"game_variant\">{games}</select></label>\
<label>{time_l} <select name=\"time\">{time_options}</select></label>\
<label>{colour_l} <select name=\"colour\"><option value=\"random\">{random}</option><option value=\"P1\">{p1}</option><option value=\"P2\">{p2}</option></select></label>\
<label><input type=\"checkbox\" name=\"rated\"> {rated}</label>\
<button type=\"submit\">{make}</button> <button type=\"button\" id=\"ply-seek-cancel\" hidden>{cancel}</button>\
<span id=\"ply-seek-status\" role=\"status\"></span></form>\
<script type=\"application/json\" id=\"ply-lobby-boot\">{boot}</script>\
<script type=\"module\" src=\"/assets/lobby.js\"></script></section>",
        title = esc(&m.text("lobby", "Lobby")),
        tv = esc(&m.text("tv", "Being played now")),
        game_l = esc(&m.text("seek-game", "Game")),
        time_l = esc(&m.text("seek-time", "Time")),
        colour_l = esc(&m.text("seek-colour", "You play")),
        random = t(lang, "first_random"),
        p1 = t(lang, "first_p1"),
        p2 = t(lang, "first_p2"),
        rated = esc(&m.text("rated", "rated")),
        make = esc(&m.text("seek-make", "Seek an opponent")),
        cancel = esc(&m.text("seek-cancel", "Cancel")),
    )
}

/// How long a live game may sit untouched before the public lists leave it out (its players
/// still see it under their own games).
const STALE_MS: i64 = 60 * 60 * 1000;

fn now_ms() -> i64 {
    jiff::Timestamp::now().as_millisecond()
}

/// The seats the request's cookies hold, by game id (`ply_seat_<id>` cookies).
fn my_seats(headers: &HeaderMap) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for line in headers.get_all(axum::http::header::COOKIE).iter().filter_map(|v| v.to_str().ok()) {
        for pair in line.split(';') {
            if let Some((k, v)) = pair.trim().split_once('=')
                && let Some(id) = k.strip_prefix("ply_seat_")
            {
                out.push((id.to_string(), v.to_string()));
            }
        }
    }
    out.truncate(100);
    out
}

/// The seats a token holds in a game.
fn seats_of(row: &GameRow, token: &str) -> Vec<Player> {
    [Player::P1, Player::P2].into_iter().filter(|p| row.tokens[p.index()] == token).collect()
}

/// The player to move in a live game of `plies` turns (the games alternate, P1 first).
fn to_move(plies: i64) -> Player {
    if plies % 2 == 0 { Player::P1 } else { Player::P2 }
}

fn date(ms: i64) -> String {
    jiff::Timestamp::from_millisecond(ms)
        .map_or_else(|_| String::new(), |t| t.strftime("%Y-%m-%d %H:%M").to_string())
}

/// One line of a list of games: game, variant, opponent, date, turns and result; `mine` are
/// the seats the reader holds.
fn game_line(lang: Lang, r: &GameRow, mine: &[Player], names: &HashMap<String, String>) -> String {
    let registry = ply_games::registry();
    let display = registry.get(&r.game).map_or(r.game.as_str(), |e| e.display_name);
    let m = Messages::of(lang, Some(&r.game));
    let player = |p: Player| m.text(&format!("player-{}", p.as_str()), p.as_str());
    let opponent = match r.mode {
        Mode::Computer => m
            .get("computer-level", &[("level", Arg::Number(i64::from(r.level.unwrap_or(0))))])
            .unwrap_or_default(),
        Mode::HotSeat => m.text("opponent-hotseat", "hot-seat"),
        Mode::Imported => m.text("opponent-record", "from a record"),
        Mode::Invite => {
            // Between people: their names, when known.
            let name = |i: usize| r.players[i].as_ref().and_then(|id| names.get(id)).cloned();
            match (name(0), name(1)) {
                (Some(a), Some(b)) => format!("{a} – {b}"),
                _ => m.text("opponent-friend", "friend"),
            }
        }
    };
    let opponent = match r.clock {
        None => opponent,
        Some(ply_store::Clock::Fischer { initial_ms, increment_ms }) => {
            format!("{opponent} · {}+{}", initial_ms / 60_000, increment_ms / 1000)
        }
        Some(ply_store::Clock::Correspondence { days }) => format!(
            "{opponent} · {}",
            m.get("clock-per-turn-days", &[("d", Arg::Number(days))]).unwrap_or_default()
        ),
    };
    let opponent =
        if r.rated { format!("{opponent} · {}", m.text("rated", "rated")) } else { opponent };
    let result = match r.ended.map(|e| (e.outcome, e.reason)) {
        None => String::new(),
        Some((Outcome::Draw, reason)) => {
            let mut text = m.text("result-draw", "Draw");
            if reason == EndReason::Agreed {
                text = format!("{text} ({})", m.text("reason-agreed", "agreed"));
            }
            text
        }
        Some((Outcome::Win(w), reason)) => {
            let mut text = if mine.len() == 1 {
                if mine[0] == w {
                    m.text("result-you-won", "You won")
                } else {
                    m.text("result-you-lost", "You lost")
                }
            } else {
                let name = player(w);
                m.get("result-wins", &[("player", Arg::Text(&name))]).unwrap_or_default()
            };
            if reason == EndReason::Resigned {
                let name = player(w.other());
                let why =
                    m.get("reason-resigned", &[("player", Arg::Text(&name))]).unwrap_or_default();
                text = format!("{text} ({why})");
            }
            text
        }
    };
    let waiting = if r.live() && !mine.is_empty() {
        let mover = to_move(r.plies);
        let mine_to_move = mine.contains(&mover) && r.computer_seat != Some(mover);
        let key = if mine_to_move {
            ("waiting-for-you", "your turn")
        } else {
            ("waiting-for-them", "their turn")
        };
        format!(
            "<strong class=\"{}\">{}</strong> · ",
            if mine_to_move { "yours" } else { "theirs" },
            esc(&m.text(key.0, key.1))
        )
    } else {
        String::new()
    };
    let turns = m.get("turns", &[("n", Arg::Number(r.plies))]).unwrap_or_default();
    format!(
        "<li><a href=\"/game/{id}\">{display} · {variant}</a> <span class=\"meta\">{waiting}{opponent} · {turns} · <time datetime=\"{iso}\">{date}</time>{sep}{result}</span></li>",
        id = r.id,
        display = esc(display),
        variant = esc(&variant_name(lang, &r.game, &r.variant)),
        opponent = esc(&opponent),
        turns = esc(&turns),
        iso = jiff::Timestamp::from_millisecond(r.updated_ms)
            .map(|t| t.to_string())
            .unwrap_or_default(),
        date = date(r.updated_ms),
        sep = if result.is_empty() { "" } else { " · " },
        result = esc(&result),
    )
}

async fn game_lists(state: &AppState, headers: &HeaderMap, lang: Lang, limit: i64) -> String {
    let store = state.store();
    let mut out = String::new();
    // The reader's own games first: live ones waiting for them on top.
    let seats = my_seats(headers);
    let ids: Vec<String> = seats.iter().map(|(id, _)| id.clone()).collect();
    let mut mine: Vec<(GameRow, Vec<Player>)> = store
        .games_by_ids(&ids)
        .await
        .unwrap_or_default()
        .into_iter()
        .map(|r| {
            let token = seats.iter().find(|(id, _)| *id == r.id).map_or("", |(_, t)| t.as_str());
            let s = seats_of(&r, token);
            (r, s)
        })
        .filter(|(_, s)| !s.is_empty())
        .collect();
    let rank = |(r, s): &(GameRow, Vec<Player>)| {
        let mover = to_move(r.plies);
        match (r.live(), s.contains(&mover) && r.computer_seat != Some(mover)) {
            (true, true) => 0,
            (true, false) => 1,
            (false, _) => 2,
        }
    };
    mine.sort_by(|a, b| rank(a).cmp(&rank(b)).then(b.0.updated_ms.cmp(&a.0.updated_ms)));
    mine.truncate(usize::try_from(limit).unwrap_or(12));
    let my_ids: Vec<&str> = mine.iter().map(|(r, _)| r.id.as_str()).collect();
    let since = now_ms() - STALE_MS;
    let mut lists = Vec::new();
    for live in [true, false] {
        let from = if live { since } else { 0 };
        lists.push(store.recent_games(live, from, limit + 20).await.unwrap_or_default());
    }
    let ids: Vec<String> = mine
        .iter()
        .map(|(r, _)| r)
        .chain(lists.iter().flatten())
        .flat_map(|r| r.players.iter().flatten().cloned())
        .collect();
    let names = store.player_names(&ids).await.unwrap_or_default();
    if !mine.is_empty() {
        let _ = write!(
            out,
            "<section class=\"list mine\" id=\"my-games\"><h2>{}</h2><ul class=\"games\">",
            t(lang, "your_games")
        );
        for (r, s) in &mine {
            out.push_str(&game_line(lang, r, s, &names));
        }
        out.push_str("</ul></section>");
    }
    for ((title, section), rows) in
        [("live_games", "live-games"), ("finished_games", "finished-games")].into_iter().zip(&lists)
    {
        let these: Vec<&GameRow> = rows
            .iter()
            .filter(|r| !my_ids.contains(&r.id.as_str()))
            .take(usize::try_from(limit).unwrap_or(12))
            .collect();
        let _ = write!(out, "<section class=\"list\" id=\"{section}\"><h2>{}</h2>", t(lang, title));
        if these.is_empty() {
            let _ = write!(out, "<p>{}</p>", t(lang, "no_games"));
        } else {
            out.push_str("<ul class=\"games\">");
            for r in these {
                out.push_str(&game_line(lang, r, &[], &names));
            }
            out.push_str("</ul>");
        }
        out.push_str("</section>");
    }
    out
}

pub async fn games_page(headers: HeaderMap, State(state): State<AppState>) -> Response {
    let lang = crate::i18n::lang_of_request(&headers);
    let body = game_lists(&state, &headers, lang, 200).await;
    layout(lang, t(lang, "games"), "/games", &body).into_response()
}

pub async fn rules_page(headers: HeaderMap, Path(game): Path<String>) -> Response {
    let lang = crate::i18n::lang_of_request(&headers);
    let registry = ply_games::registry();
    let (Ok(entry), Some(r)) = (registry.get(&game), rules(&game, lang)) else {
        return not_found_page(lang);
    };
    let mut body = format!(
        "<article class=\"rules\"><h1>{} — {}</h1><img class=\"rules-board\" src=\"/board/{}.svg\" alt=\"{} {}\" width=\"260\"><p class=\"summary\">{}</p>",
        esc(entry.display_name),
        t(lang, "rules"),
        entry.name,
        t(lang, "board_of"),
        esc(entry.display_name),
        esc(&r.summary),
    );
    for (title, points) in &r.sections {
        let _ = write!(body, "<h2>{}</h2><ul>", esc(title));
        for p in points {
            let _ = write!(body, "<li>{}</li>", esc(p));
        }
        body.push_str("</ul>");
    }
    let _ = write!(
        body,
        "<p>{}: {}</p><p><a href=\"/#card-{}\">{}</a></p></article>",
        t(lang, "variant"),
        entry
            .variants
            .iter()
            .map(|v| esc(&variant_name(lang, entry.name, v)))
            .collect::<Vec<_>>()
            .join(", "),
        entry.name,
        t(lang, "new_game"),
    );
    layout(
        lang,
        &format!("{} — {}", entry.display_name, t(lang, "rules")),
        &format!("/rules/{game}"),
        &body,
    )
    .into_response()
}

/// The game a page shows, with the page's boot data (the view, the reader's seats, the
/// language's strings and messages) as JSON safe inside a `<script>`; or the error page.
async fn page_and_boot(
    state: &AppState,
    headers: &HeaderMap,
    id: &str,
    lang: Lang,
) -> Result<(crate::room::Page, String), Response> {
    let token = cookie(headers, &seat_cookie(id));
    let page = match state.rooms.page(id, token).await {
        Ok(page) => page,
        Err(r) if r.status == 404 => return Err(not_found_page(lang)),
        Err(r) => return Err(crate::rejection_in(&r, lang)),
    };
    let boot = json!({
        "view": page.view,
        "seats": page.seats,
        "lang": lang.code(),
        "strings": client_strings(lang),
        "messages": client_messages(lang, Some(&page.view.game)),
    });
    let boot = boot.to_string().replace("</", "<\\/");
    Ok((page, boot))
}

pub async fn game_page(
    headers: HeaderMap,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Response {
    let lang = crate::i18n::lang_of_request(&headers);
    let (page, boot) = match page_and_boot(&state, &headers, &id, lang).await {
        Ok(p) => p,
        Err(response) => return response,
    };
    let view = &page.view;
    let display = view.display_name.clone();
    // Only the creator is shown the link: it carries the other seat's token.
    let invite = match &page.invite {
        Some(link) => format!(
            "<div class=\"invite\"><p>{}</p><input id=\"ply-invite\" readonly value=\"{}\" aria-label=\"{}\"> <button type=\"button\" id=\"ply-copy\">{}</button></div>",
            t(lang, "invite_link"),
            esc(link),
            esc(&Messages::of(lang, None).text("invite-link", "invite link")),
            t(lang, "copy"),
        ),
        None => String::new(),
    };
    let mode = match view.mode {
        ModeView::Computer => {
            format!("{} ({})", t(lang, "mode_computer"), view.level.unwrap_or(0))
        }
        ModeView::Hotseat => t(lang, "mode_hotseat").to_string(),
        ModeView::Invite => t(lang, "mode_invite").to_string(),
        ModeView::Imported => messages_of_mode(lang, &view.game),
    };
    let messages = Messages::of(lang, Some(&view.game));
    let body = format!(
        "<div class=\"game-page\" data-game=\"{game}\">\
<section class=\"board-wrap\">\
<div class=\"turn-bar\" id=\"ply-turn-bar\"><p class=\"help\" id=\"ply-help\" aria-live=\"polite\">{help}</p>\
<div id=\"ply-choices\" class=\"choices\"></div></div>\
<div id=\"ply-board\" class=\"board-box\" role=\"group\" aria-label=\"{board_label}\">{svg}</div>\
<div class=\"board-tools\"><label><input type=\"checkbox\" id=\"ply-coords\" checked> {coordinates}</label>\
<button type=\"button\" id=\"ply-flip\" aria-pressed=\"false\">{flip}</button>\
<label><input type=\"checkbox\" id=\"ply-sound\"> {sound}</label></div>\
<div id=\"ply-viewing\" class=\"viewing\" hidden></div></section>\
<aside class=\"side\"><h1>{display} <small>{variant} · {mode}</small></h1>\
<div class=\"clocks\" id=\"ply-clocks\" hidden><div class=\"clock\" id=\"ply-clock-P2\"><span class=\"who\"></span><span class=\"time\" role=\"timer\"></span></div>\
<div class=\"clock\" id=\"ply-clock-P1\"><span class=\"who\"></span><span class=\"time\" role=\"timer\"></span></div></div>\
<p id=\"ply-status\" class=\"status\" role=\"status\" aria-live=\"polite\"></p>\
<div id=\"ply-end\" class=\"end\" hidden><p id=\"ply-result\" class=\"result\"></p><p id=\"ply-reason\" class=\"reason\"></p>\
<form method=\"post\" action=\"/games\" class=\"again\"><input type=\"hidden\" name=\"game\" value=\"{game}\">\
<input type=\"hidden\" name=\"variant\" value=\"{variant_id}\"><input type=\"hidden\" name=\"opponent\" value=\"{opponent}\">\
<input type=\"hidden\" name=\"seat\" id=\"ply-again-seat\" value=\"P1\">\
<button type=\"submit\" id=\"ply-new-game\">{new_game}</button>{rematch}\
<a class=\"button\" id=\"ply-analyse\" href=\"/game/{id}/analysis\">{analyse}</a></form></div>\
<div class=\"buttons\"><button type=\"button\" id=\"ply-clear\" hidden>{clear}</button>\
<button type=\"button\" id=\"ply-hint\" hidden>{hint}</button>\
<button type=\"button\" id=\"ply-undo\" hidden>{undo}</button>\
<button type=\"button\" id=\"ply-resign\" hidden>{resign}</button>\
<button type=\"button\" id=\"ply-draw\" hidden>{offer_draw}</button>\
<button type=\"button\" id=\"ply-accept\" hidden>{accept_draw}</button>\
<button type=\"button\" id=\"ply-decline\" hidden>{decline_draw}</button>\
<a class=\"button\" id=\"ply-export\" href=\"/game/{id}/record\" download>{export}</a></div>\
{invite}\
<h2 id=\"ply-moves-title\">{moves}</h2><nav class=\"stepper\" aria-label=\"{moves}\"><button type=\"button\" id=\"ply-first\" aria-label=\"{step_first}\">«</button><button type=\"button\" id=\"ply-prev\" aria-label=\"{step_prev}\">‹</button><button type=\"button\" id=\"ply-next\" aria-label=\"{step_next}\">›</button><button type=\"button\" id=\"ply-last\" aria-label=\"{step_last}\">»</button></nav>\
<div class=\"moves-box\" id=\"ply-moves-box\"><table class=\"moves\" aria-labelledby=\"ply-moves-title\"><thead><tr><th></th><th id=\"ply-moves-P1\" scope=\"col\"></th><th id=\"ply-moves-P2\" scope=\"col\"></th></tr></thead><tbody id=\"ply-moves\"></tbody></table></div>\
<p class=\"conn\" id=\"ply-conn\"></p><p class=\"rules-link\"><a href=\"/rules/{game}\">{rules}</a></p></aside></div>\
<script type=\"application/json\" id=\"ply-boot\">{boot}</script>\
<script type=\"module\" src=\"/assets/app.js\"></script>",
        game = esc(&view.game),
        svg = view.svg,
        display = esc(&display),
        variant = esc(&variant_name(lang, &view.game, &view.variant)),
        variant_id = esc(&view.variant),
        opponent = match view.mode {
            ModeView::Computer => format!("computer-{}", view.level.unwrap_or(3)),
            ModeView::Hotseat | ModeView::Imported => "hotseat".to_string(),
            ModeView::Invite => "invite".to_string(),
        },
        board_label = esc(&messages.text("board", "board")),
        coordinates = esc(&messages.text("coordinates", "Coordinates")),
        flip = esc(&messages.text("flip-board", "Flip board")),
        sound = esc(&messages.text("sound", "Sound on your turn")),
        new_game = esc(&messages.text("new-game", "New game")),
        analyse = esc(&messages.text("analyse-game", "Analyse")),
        // Against the computer a rematch swaps the colours; between people it needs the
        // other player's yes (the lobby's work).
        rematch = match view.mode {
            ModeView::Computer => format!(
                "<button type=\"button\" id=\"ply-rematch\">{}</button>",
                esc(&messages.text("rematch", "Rematch"))
            ),
            // Between people a rematch is offered and agreed.
            ModeView::Invite => format!(
                "<button type=\"button\" id=\"ply-rematch-offer\" hidden>{offer}</button>\
<button type=\"button\" id=\"ply-rematch-accept\" hidden>{accept}</button>\
<button type=\"button\" id=\"ply-rematch-decline\" hidden>{decline}</button>\
<span id=\"ply-rematch-status\" role=\"status\"></span>",
                offer = esc(&messages.text("rematch-offer", "Offer a rematch")),
                accept = esc(&messages.text("rematch-accept", "Accept the rematch")),
                decline = esc(&messages.text("rematch-decline", "Decline")),
            ),
            ModeView::Hotseat | ModeView::Imported => String::new(),
        },
        step_first = esc(&messages.text("nav-first", "first")),
        step_prev = esc(&messages.text("nav-previous", "previous")),
        step_next = esc(&messages.text("nav-next", "next")),
        step_last = esc(&messages.text("nav-last", "last")),
        help = t(lang, "play_keys"),
        clear = t(lang, "clear"),
        hint = t(lang, "hint"),
        undo = t(lang, "undo"),
        resign = t(lang, "resign"),
        offer_draw = t(lang, "offer_draw"),
        accept_draw = t(lang, "accept_draw"),
        decline_draw = t(lang, "decline_draw"),
        export = t(lang, "export"),
        moves = t(lang, "moves"),
        rules = t(lang, "rules"),
    );
    layout(lang, &display, &format!("/game/{id}"), &body).into_response()
}

/// How the game page names the mode of a game read from a record.
fn messages_of_mode(lang: Lang, game: &str) -> String {
    Messages::of(lang, Some(game)).text("opponent-record", "from a record")
}

/// `GET /game/{id}/analysis`: the analysis board of a finished game.
pub async fn analysis_page(
    headers: HeaderMap,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Response {
    let lang = crate::i18n::lang_of_request(&headers);
    let (page, boot) = match page_and_boot(&state, &headers, &id, lang).await {
        Ok(p) => p,
        Err(response) => return response,
    };
    let view = &page.view;
    let m = Messages::of(lang, Some(&view.game));
    if view.live {
        let body = format!(
            "<p>{}</p><p><a href=\"/game/{}\">{}</a></p>",
            esc(&m.text("analysis-after-the-game", "A game opens for analysis once it is over.")),
            esc(&view.id),
            esc(&m.text("back-to-game", "Back to the game")),
        );
        return (
            StatusCode::FORBIDDEN,
            layout(lang, &view.display_name, &format!("/game/{id}/analysis"), &body),
        )
            .into_response();
    }
    let body = format!(
        "<div class=\"game-page analysis-page\" data-game=\"{game}\">\
<section class=\"board-wrap\">\
<div class=\"turn-bar\" id=\"ply-turn-bar\"><p class=\"help\" id=\"ply-help\" aria-live=\"polite\"></p></div>\
<div class=\"analysis-board\"><div class=\"eval-bar\" id=\"ply-eval-bar\" role=\"meter\" aria-valuemin=\"0\" aria-valuemax=\"100\" aria-label=\"{eval_label}\"><div class=\"eval-fill\" id=\"ply-eval-fill\"></div></div>\
<div id=\"ply-board\" class=\"board-box\" role=\"group\" aria-label=\"{board_label}\">{svg}</div></div>\
<div class=\"board-tools\"><label><input type=\"checkbox\" id=\"ply-coords\" checked> {coordinates}</label>\
<button type=\"button\" id=\"ply-flip\" aria-pressed=\"false\">{flip}</button></div></section>\
<aside class=\"side\"><h1>{display} <small>{analysis} · {variant}</small></h1>\
<p class=\"engine-line\" id=\"ply-engine\" aria-live=\"polite\"></p>\
<div class=\"side-line\" id=\"ply-side-line\" hidden><span id=\"ply-side-moves\"></span> <button type=\"button\" id=\"ply-back-to-game\">{back_to_game_line}</button></div>\
<h2>{review}</h2><div class=\"review\"><button type=\"button\" id=\"ply-review\">{review_start}</button>\
<progress id=\"ply-review-progress\" max=\"100\" value=\"0\" hidden></progress>\
<svg id=\"ply-graph\" class=\"graph\" viewBox=\"0 0 300 80\" preserveAspectRatio=\"none\" role=\"img\" aria-label=\"{graph_label}\"></svg>\
<table class=\"summary\" id=\"ply-summary\" hidden></table></div>\
<h2 id=\"ply-explorer-title\">{explorer}</h2><div class=\"explorer\" id=\"ply-explorer\" aria-live=\"polite\"></div>\
<h2 id=\"ply-moves-title\">{moves}</h2><nav class=\"stepper\" aria-label=\"{moves}\"><button type=\"button\" id=\"ply-first\" aria-label=\"{step_first}\">«</button><button type=\"button\" id=\"ply-prev\" aria-label=\"{step_prev}\">‹</button><button type=\"button\" id=\"ply-next\" aria-label=\"{step_next}\">›</button><button type=\"button\" id=\"ply-last\" aria-label=\"{step_last}\">»</button></nav>\
<div class=\"moves-box\" id=\"ply-moves-box\"><table class=\"moves\" aria-labelledby=\"ply-moves-title\"><thead><tr><th></th><th id=\"ply-moves-P1\" scope=\"col\"></th><th id=\"ply-moves-P2\" scope=\"col\"></th></tr></thead><tbody id=\"ply-moves\"></tbody></table></div>\
<p><a href=\"/game/{id}\">{back_to_game}</a> · <a href=\"/game/{id}/record\" download>{export}</a></p></aside></div>\
<script type=\"application/json\" id=\"ply-boot\">{boot}</script>\
<script type=\"module\" src=\"/assets/analysis.js\"></script>",
        game = esc(&view.game),
        id = esc(&view.id),
        svg = view.svg,
        display = esc(&view.display_name),
        variant = esc(&variant_name(lang, &view.game, &view.variant)),
        analysis = esc(&m.text("analysis", "analysis")),
        eval_label = esc(&m.text("evaluation", "evaluation")),
        board_label = esc(&m.text("board", "board")),
        coordinates = esc(&m.text("coordinates", "Coordinates")),
        flip = esc(&m.text("flip-board", "Flip board")),
        back_to_game_line = esc(&m.text("back-to-game-line", "Back to the game's turns")),
        review = esc(&m.text("review", "Review")),
        explorer = esc(&m.text("explorer", "Opening explorer")),
        review_start = esc(&m.text("review-start", "Review the whole game")),
        graph_label = esc(&m.text("evaluation-graph", "evaluation over the game")),
        moves = t(lang, "moves"),
        step_first = esc(&m.text("nav-first", "first")),
        step_prev = esc(&m.text("nav-previous", "previous")),
        step_next = esc(&m.text("nav-next", "next")),
        step_last = esc(&m.text("nav-last", "last")),
        back_to_game = esc(&m.text("back-to-game", "Back to the game")),
        export = t(lang, "export"),
    );
    layout(
        lang,
        &format!("{} — {}", view.display_name, m.text("analysis", "analysis")),
        &format!("/game/{id}/analysis"),
        &body,
    )
    .into_response()
}

fn not_found_page(lang: Lang) -> Response {
    (StatusCode::NOT_FOUND, layout(lang, "404", "/", &format!("<p>{}</p>", t(lang, "not_found"))))
        .into_response()
}

pub async fn not_found(headers: HeaderMap, uri: Uri) -> Response {
    if uri.path().starts_with("/api/") {
        return crate::error(StatusCode::NOT_FOUND, format!("no endpoint {}", uri.path()));
    }
    not_found_page(crate::i18n::lang_of_request(&headers))
}
