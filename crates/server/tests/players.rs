//! Players over HTTP: names without an account in a signed cookie, accounts, the login limit,
//! and a rated game's result on the player page, the leaderboard and their JSON.

use crate::common;

use std::net::SocketAddr;

use common::{Reply, Server, http};
use ply_core::{Outcome, Player};
use ply_server::guard::{Limit, Limits};
use ply_store::{Change, EndReason, Ended, Mode, NewGame, Store};
use serde_json::json;

/// The `ply_player=…` pair a reply sets, if it sets one.
fn player_cookie(r: &Reply) -> Option<String> {
    r.headers.iter().filter(|(k, _)| k.eq_ignore_ascii_case("set-cookie")).find_map(|(_, v)| {
        v.starts_with("ply_player=").then(|| v.split(';').next().unwrap().to_string())
    })
}

/// A form post (`application/x-www-form-urlencoded`), optionally with an `Origin`.
async fn form(
    addr: SocketAddr,
    path: &str,
    cookie: Option<&str>,
    body: &str,
    origin: Option<&str>,
) -> Reply {
    let stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let mut req = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
         Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n",
        body.len()
    );
    if let Some(c) = cookie {
        req.push_str(&format!("Cookie: {c}\r\n"));
    }
    if let Some(o) = origin {
        req.push_str(&format!("Origin: {o}\r\n"));
    }
    req.push_str("\r\n");
    req.push_str(body);
    common::exchange(stream, &req).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_guest_gets_a_name_changes_it_and_keeps_it() {
    let server = Server::fresh().await;
    let addr = server.addr;
    let first = http(addr, "GET", "/api/me", None, None).await;
    assert_eq!(first.status, 200, "{}", first.body);
    let cookie = player_cookie(&first).expect("a new player gets the cookie");
    let set = first.header("set-cookie").unwrap();
    assert!(
        set.contains("HttpOnly")
            && set.contains("SameSite=Lax")
            && set.contains("Max-Age=31536000"),
        "{set}"
    );
    let me = first.json();
    let id = me["id"].as_str().unwrap().to_string();
    assert_eq!(me["name"].as_str().unwrap().split(' ').count(), 3, "{me}");
    assert_eq!(me["account"], json!(null));
    assert_eq!(me["ratings"], json!({}));

    // The cookie names the same player again, and sets nothing.
    let again = http(addr, "GET", "/api/me", Some(&cookie), None).await;
    assert_eq!(again.json()["id"], id.as_str());
    assert_eq!(player_cookie(&again), None);
    // A cookie naming another id under this signature is a stranger: a new guest.
    let forged = cookie.replacen(&id[..4], "ffff", 1);
    let stranger = http(addr, "GET", "/api/me", Some(&forged), None).await;
    assert_ne!(stranger.json()["id"], id.as_str());
    assert!(player_cookie(&stranger).is_some());

    // Renaming: trimmed; empty, long and control-character names refused in the reader's
    // language; JSON only.
    let r =
        http(addr, "POST", "/api/me/name", Some(&cookie), Some(json!({"name": "  Ада Л. "}))).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["name"], "Ада Л.");
    assert_eq!(http(addr, "GET", "/api/me", Some(&cookie), None).await.json()["name"], "Ада Л.");
    for bad in ["", "   ", "a\u{7}b", "abcdefghijklmnopqrstuvwxy"] {
        let r =
            http(addr, "POST", "/api/me/name", Some(&cookie), Some(json!({ "name": bad }))).await;
        assert_eq!(r.status, 400, "{bad:?}: {}", r.body);
        assert!(r.json()["error"].as_str().unwrap().contains("1 to 24"), "{}", r.body);
    }
    let r = http(
        addr,
        "POST",
        "/api/me/name",
        Some(&format!("{cookie}; ply_lang=ru")),
        Some(json!({"name": ""})),
    )
    .await;
    assert!(r.json()["error"].as_str().unwrap().contains("от 1 до 24"), "{}", r.body);
    let r = form(addr, "/api/me/name", Some(&cookie), "name=x", None).await;
    assert_eq!(r.status, 415);

    // The name form of /me: back to /me, and another site's form is refused.
    let r =
        form(addr, "/me/name", Some(&cookie), "name=Teal+Otter+7", Some(&format!("http://{addr}")))
            .await;
    assert_eq!(r.status, 303, "{}", r.body);
    assert_eq!(r.header("location"), Some("/me"));
    let page = http(addr, "GET", "/me", Some(&format!("{cookie}; ply_lang=ko")), None).await;
    assert_eq!(page.status, 200);
    assert!(
        page.body.contains("Teal Otter 7") && page.body.contains("계정 만들기"),
        "{}",
        page.body
    );
    let r = form(addr, "/me/name", Some(&cookie), "name=Evil", Some("http://evil.example")).await;
    assert_eq!(r.status, 403);
    assert!(r.body.contains("another site"), "{}", r.body);
    assert_eq!(
        http(addr, "GET", "/api/me", Some(&cookie), None).await.json()["name"],
        "Teal Otter 7"
    );
    let r = form(addr, "/me/name", Some(&cookie), "name=", None).await;
    assert_eq!(r.status, 400);
    assert!(r.body.contains("role=\"alert\""), "the page again, with the refusal");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn accounts_register_sign_in_and_out() {
    let server = Server::fresh().await;
    let addr = server.addr;
    let guest = http(addr, "GET", "/api/me", None, None).await;
    let cookie = player_cookie(&guest).unwrap();
    let id = guest.json()["id"].as_str().unwrap().to_string();

    let register = |cookie: Option<String>, account: &str, password: &str| {
        let body = json!({"account": account, "password": password});
        async move { http(addr, "POST", "/api/account/register", cookie.as_deref(), Some(body)).await }
    };
    assert_eq!(register(Some(cookie.clone()), "a b", "long enough").await.status, 400);
    assert_eq!(register(Some(cookie.clone()), "ab", "long enough").await.status, 400);
    assert_eq!(register(Some(cookie.clone()), "ada", "short").await.status, 400);
    let r = register(Some(cookie.clone()), "Ada_L", "correct horse").await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["account"], "ada_l");
    assert_eq!(r.json()["id"], id.as_str(), "the guest becomes the account");
    let r = register(Some(cookie.clone()), "ada2", "correct horse").await;
    assert_eq!(r.status, 409);
    assert!(r.json()["error"].as_str().unwrap().contains("already have an account"));
    // Another browser cannot take the name, whatever its case.
    let r = register(None, "ADA_L", "another one").await;
    assert_eq!(r.status, 409);
    assert!(r.json()["error"].as_str().unwrap().contains("taken"), "{}", r.body);

    // Signing in elsewhere: a wrong password is refused, the right one gives the player.
    let login = |account: &str, password: &str| {
        let body = json!({"account": account, "password": password});
        async move { http(addr, "POST", "/api/account/login", None, Some(body)).await }
    };
    let r = login("ada_l", "wrong horse").await;
    assert_eq!(r.status, 403);
    assert_eq!(player_cookie(&r), None);
    assert_eq!(login("nobody", "correct horse").await.status, 403);
    let r = login("Ada_L", "correct horse").await;
    assert_eq!(r.status, 200, "{}", r.body);
    let elsewhere = player_cookie(&r).expect("signing in sets the cookie");
    let me = http(addr, "GET", "/api/me", Some(&elsewhere), None).await.json();
    assert_eq!((me["id"].as_str(), me["account"].as_str()), (Some(id.as_str()), Some("ada_l")));
    let page = http(addr, "GET", "/me", Some(&elsewhere), None).await;
    assert!(page.body.contains("Signed in as ada_l"), "{}", page.body);

    // Signing out makes the browser a new guest.
    let r = http(addr, "POST", "/api/account/logout", Some(&elsewhere), None).await;
    assert_eq!(r.status, 200);
    let fresh = player_cookie(&r).unwrap();
    let me = http(addr, "GET", "/api/me", Some(&fresh), None).await.json();
    assert_ne!(me["id"], id.as_str());
    assert_eq!(me["account"], json!(null));

    // The forms do the same and come back to /me.
    let r =
        form(addr, "/me/login", Some(&fresh), "account=ada_l&password=correct+horse", None).await;
    assert_eq!(r.status, 303, "{}", r.body);
    let back = player_cookie(&r).unwrap();
    assert_eq!(http(addr, "GET", "/api/me", Some(&back), None).await.json()["id"], id.as_str());
    let r = form(addr, "/me/login", None, "account=ada_l&password=nope", None).await;
    assert_eq!(r.status, 403);
    assert!(r.body.contains("Wrong login name or password"), "{}", r.body);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn password_attempts_are_limited_per_address() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("ply.sqlite").display());
    let limits = Limits { create: Some(Limit { burst: 20, per_minute: 20 }), ..Limits::none() };
    let server = Server::start_with(&url, limits).await;
    let addr = server.addr;
    let body = json!({"account": "nobody", "password": "guess guess"});
    for _ in 0..5 {
        let r = http(addr, "POST", "/api/account/login", None, Some(body.clone())).await;
        assert_eq!(r.status, 403);
    }
    let r = http(addr, "POST", "/api/account/login", None, Some(body.clone())).await;
    assert_eq!(r.status, 429, "{}", r.body);
    assert!(r.header("retry-after").is_some());
    // Registering counts too.
    let r = http(
        addr,
        "POST",
        "/api/account/register",
        None,
        Some(json!({"account": "someone", "password": "long enough"})),
    )
    .await;
    assert_eq!(r.status, 429);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_game_shows_on_the_player_page_and_the_leaderboard() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("ply.sqlite").display());
    let server = Server::start(&url).await;
    let addr = server.addr;
    let a = http(addr, "GET", "/api/me", None, None).await.json();
    let b = http(addr, "GET", "/api/me", None, None).await.json();
    let (a, b) = (a["id"].as_str().unwrap().to_string(), b["id"].as_str().unwrap().to_string());

    // A rated game between them, won by b (P2), as the room would finish and rate it.
    let store = Store::open(Some(&url)).await.unwrap();
    let game = store
        .create_game(&NewGame {
            game: "boop".into(),
            variant: "boop".into(),
            mode: Mode::Invite,
            level: None,
            computer_seat: None,
            creator_seat: Some(Player::P1),
            players: [Some(a.clone()), Some(b.clone())],
            rated: true,
            clock: None,
        })
        .await
        .unwrap();
    let finish = Ended { outcome: Outcome::Win(Player::P2), reason: EndReason::Resigned };
    store
        .record(
            &game.id,
            &Change { version: 1, body: "{}", finish: Some(finish), ..Change::default() },
        )
        .await
        .unwrap();
    let (ra, rb) = store.rate_game(&game.id).await.unwrap().expect("rated once");
    assert_eq!(store.rate_game(&game.id).await.unwrap(), None, "and only once");

    let page = http(addr, "GET", &format!("/api/players/{b}"), None, None).await;
    assert_eq!(page.status, 200, "{}", page.body);
    let p = page.json();
    assert_eq!(p["ratings"]["boop"]["rating"].as_f64().unwrap(), rb.rating);
    assert_eq!(p["ratings"]["boop"]["games"], 1);
    assert_eq!(p["ratings"]["boop"]["provisional"], true);
    assert_eq!(p["account"], false);
    assert_eq!(p["games"][0]["id"], game.id.as_str());
    assert_eq!(p["games"][0]["result"], "win");
    assert_eq!(p["games"][0]["seat"], "P2");
    assert_eq!(p["games"][0]["opponent"]["id"], a.as_str());
    assert_eq!(p["history"]["boop"].as_array().unwrap().len(), 1);
    let pa = http(addr, "GET", &format!("/api/players/{a}"), None, None).await.json();
    assert_eq!(pa["games"][0]["result"], "loss");
    assert_eq!(pa["ratings"]["boop"]["rating"].as_f64().unwrap(), ra.rating);

    let board = http(addr, "GET", "/api/leaderboard/boop", None, None).await.json();
    let ids: Vec<&str> =
        board["players"].as_array().unwrap().iter().map(|p| p["id"].as_str().unwrap()).collect();
    assert_eq!(ids, [b.as_str(), a.as_str()]);
    assert_eq!(board["players"][0]["rank"], 1);
    assert_eq!(http(addr, "GET", "/api/leaderboard/chess", None, None).await.status, 404);
    assert_eq!(http(addr, "GET", "/api/players/0123456789abcdef", None, None).await.status, 404);

    let html = http(addr, "GET", "/players?game=boop", None, None).await;
    assert_eq!(html.status, 200);
    assert!(html.body.contains(&format!("/player/{b}")), "{}", html.body);
    assert!(html.body.contains(&format!("{:.0}?", rb.rating)), "provisional marked: {}", html.body);
    let html = http(addr, "GET", &format!("/player/{a}"), Some("ply_lang=ru"), None).await;
    assert_eq!(html.status, 200);
    assert!(html.body.contains("<polyline") && html.body.contains("поражение"), "{}", html.body);
    assert!(html.body.contains(&format!("/game/{}", game.id)));
    assert_eq!(http(addr, "GET", "/player/nobody", None, None).await.status, 404);
    server.stop().await;
}
