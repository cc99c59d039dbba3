//! Server-rendered HTML pages.

use std::fmt::Write as _;

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, Uri};
use axum::response::{Html, IntoResponse, Response};
use ply_core::Outcome;
use ply_store::{EndReason, Mode};
use serde_json::json;

use crate::i18n::{Lang, client_strings, rules, t};
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

fn layout(lang: Lang, title: &str, path: &str, body: &str) -> Html<String> {
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
<title>{title} · ply</title><link rel=\"stylesheet\" href=\"/assets/style.css\"></head>\
<body><header class=\"top\"><a class=\"brand\" href=\"/\">ply</a>\
<nav><a href=\"/\">{home}</a><a href=\"/games\">{games}</a></nav>\
<nav class=\"langs\" aria-label=\"{language}\">{langs}</nav></header>\
<main>{body}</main></body></html>",
        code = lang.code(),
        title = esc(title),
        home = t(lang, "new_game"),
        games = t(lang, "games"),
        language = t(lang, "language"),
    ))
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

fn variant_label(lang: Lang, game: &str, variant: &str) -> String {
    match (game, variant) {
        ("zertz", v) if v.chars().all(|c| c.is_ascii_digit()) => {
            format!("{v} {}", t(lang, "rings"))
        }
        _ => variant.to_string(),
    }
}

pub async fn home(headers: HeaderMap, State(state): State<AppState>) -> Response {
    let lang = Lang::of_request(&headers);
    let registry = ply_games::registry();
    let mut body =
        format!("<p class=\"tagline\">{}</p><section class=\"cards\">", t(lang, "tagline"));
    for entry in registry.entries() {
        let has_engine = ply_games::engine(entry.name).is_ok();
        let summary = rules(entry.name, lang).map_or("", |r| r.summary);
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
            summary = esc(summary),
            read = t(lang, "read_rules"),
            variant = t(lang, "variant"),
        );
        for v in entry.variants {
            let _ = write!(
                body,
                "<option value=\"{v}\">{}</option>",
                esc(&variant_label(lang, entry.name, v))
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
<button type=\"submit\">{}</button></form></article>",
            t(lang, "hotseat"),
            t(lang, "invite"),
            t(lang, "first"),
            t(lang, "first_p1"),
            t(lang, "first_p2"),
            t(lang, "first_random"),
            t(lang, "start"),
        );
    }
    body.push_str("</section>");
    body.push_str(&game_lists(&state, lang, 12).await);
    layout(lang, "ply", "/", &body).into_response()
}

async fn game_lists(state: &AppState, lang: Lang, limit: i64) -> String {
    let rows = state.store().list_games(limit).await.unwrap_or_default();
    let registry = ply_games::registry();
    let mut out = String::new();
    for (live, title) in [(true, "live_games"), (false, "finished_games")] {
        let _ = write!(out, "<section class=\"list\"><h2>{}</h2>", t(lang, title));
        let these: Vec<_> = rows.iter().filter(|r| r.live() == live).collect();
        if these.is_empty() {
            let _ = write!(out, "<p>{}</p>", t(lang, "no_games"));
        } else {
            out.push_str("<ul class=\"games\">");
            for r in these {
                let display = registry.get(&r.game).map_or(r.game.as_str(), |e| e.display_name);
                let mode = match r.mode {
                    Mode::Computer => {
                        format!("{} ({})", t(lang, "mode_computer"), r.level.unwrap_or(0))
                    }
                    Mode::HotSeat => t(lang, "mode_hotseat").to_string(),
                    Mode::Invite => t(lang, "mode_invite").to_string(),
                };
                let result = match r.ended.map(|e| (e.outcome, e.reason)) {
                    Some((Outcome::Draw, EndReason::Agreed)) => {
                        format!("{} ({})", t(lang, "draw"), t(lang, "agreed"))
                    }
                    Some((Outcome::Draw, _)) => t(lang, "draw").to_string(),
                    Some((Outcome::Win(w), EndReason::Resigned)) => {
                        format!("{w} {} ({})", t(lang, "wins"), t(lang, "resigned"))
                    }
                    Some((Outcome::Win(w), _)) => format!("{w} {}", t(lang, "wins")),
                    None => String::new(),
                };
                let _ = write!(
                    out,
                    "<li><a href=\"/game/{id}\">{display} · {variant}</a> <span class=\"meta\">{mode} · {turns} {turns_word}{sep}{result}</span></li>",
                    id = r.id,
                    display = esc(display),
                    variant = esc(&variant_label(lang, &r.game, &r.variant)),
                    turns = r.plies,
                    turns_word = t(lang, "turns"),
                    sep = if result.is_empty() { "" } else { " · " },
                    result = esc(&result),
                );
            }
            out.push_str("</ul>");
        }
        out.push_str("</section>");
    }
    out
}

pub async fn games_page(headers: HeaderMap, State(state): State<AppState>) -> Response {
    let lang = Lang::of_request(&headers);
    let body = game_lists(&state, lang, 200).await;
    layout(lang, t(lang, "games"), "/games", &body).into_response()
}

pub async fn rules_page(headers: HeaderMap, Path(game): Path<String>) -> Response {
    let lang = Lang::of_request(&headers);
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
        esc(r.summary),
    );
    for (title, points) in r.sections {
        let _ = write!(body, "<h2>{}</h2><ul>", esc(title));
        for p in *points {
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
            .map(|v| esc(&variant_label(lang, entry.name, v)))
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

pub async fn game_page(
    headers: HeaderMap,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Response {
    let lang = Lang::of_request(&headers);
    let token = cookie(&headers, &seat_cookie(&id));
    let page = match state.rooms.page(&id, token).await {
        Ok(page) => page,
        Err(r) if r.status == 404 => return not_found_page(lang),
        Err(r) => return crate::rejection_in(&r, lang),
    };
    let view = &page.view;
    let display = view.display_name.clone();
    let boot = json!({
        "view": view,
        "seats": page.seats,
        "lang": lang.code(),
        "strings": client_strings(lang),
    });
    let boot = boot.to_string().replace("</", "<\\/");
    // Only the creator is shown the link: it carries the other seat's token.
    let invite = match &page.invite {
        Some(link) => format!(
            "<div class=\"invite\"><p>{}</p><input id=\"ply-invite\" readonly value=\"{}\" aria-label=\"invite link\"> <button type=\"button\" id=\"ply-copy\">{}</button></div>",
            t(lang, "invite_link"),
            esc(link),
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
    };
    let body = format!(
        "<div class=\"game-page\" data-game=\"{game}\">\
<section class=\"board-wrap\"><div id=\"ply-board\" class=\"board-box\" aria-label=\"board\">{svg}</div>\
<div id=\"ply-viewing\" class=\"viewing\" hidden></div>\
<div id=\"ply-choices\" class=\"choices\" aria-live=\"polite\"></div></section>\
<aside class=\"side\"><h1>{display} <small>{variant} · {mode}</small></h1>\
<p id=\"ply-status\" class=\"status\" role=\"status\" aria-live=\"polite\"></p>\
<p id=\"ply-result\" class=\"result\" hidden></p>\
<p class=\"help\" id=\"ply-help\">{help}</p>\
<div class=\"buttons\"><button type=\"button\" id=\"ply-clear\" hidden>{clear}</button>\
<button type=\"button\" id=\"ply-hint\" hidden>{hint}</button>\
<button type=\"button\" id=\"ply-undo\" hidden>{undo}</button>\
<button type=\"button\" id=\"ply-resign\" hidden>{resign}</button>\
<button type=\"button\" id=\"ply-draw\" hidden>{offer_draw}</button>\
<button type=\"button\" id=\"ply-accept\" hidden>{accept_draw}</button>\
<button type=\"button\" id=\"ply-decline\" hidden>{decline_draw}</button>\
<a class=\"button\" id=\"ply-export\" href=\"/game/{id}/record\" download>{export}</a></div>\
{invite}\
<h2>{moves}</h2><nav class=\"stepper\" aria-label=\"{moves}\"><button type=\"button\" id=\"ply-first\" aria-label=\"first\">«</button><button type=\"button\" id=\"ply-prev\" aria-label=\"previous\">‹</button><button type=\"button\" id=\"ply-next\" aria-label=\"next\">›</button><button type=\"button\" id=\"ply-last\" aria-label=\"last\">»</button></nav>\
<ol id=\"ply-moves\" class=\"moves\"></ol>\
<p class=\"conn\" id=\"ply-conn\"></p><p class=\"rules-link\"><a href=\"/rules/{game}\">{rules}</a></p></aside></div>\
<script type=\"application/json\" id=\"ply-boot\">{boot}</script>\
<script type=\"module\" src=\"/assets/app.js\"></script>",
        game = esc(&view.game),
        svg = view.svg,
        display = esc(&display),
        variant = esc(&variant_label(lang, &view.game, &view.variant)),
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

fn not_found_page(lang: Lang) -> Response {
    (StatusCode::NOT_FOUND, layout(lang, "404", "/", &format!("<p>{}</p>", t(lang, "not_found"))))
        .into_response()
}

pub async fn not_found(headers: HeaderMap, uri: Uri) -> Response {
    if uri.path().starts_with("/api/") {
        return crate::error(StatusCode::NOT_FOUND, format!("no endpoint {}", uri.path()));
    }
    not_found_page(Lang::of_request(&headers))
}
