//! `ply serve` against careless and hostile clients: half-sent requests, too many
//! connections, malformed requests, other sites, floods of requests, and a stop in the middle
//! of a game.

use crate::common;

use std::time::{Duration, Instant};

use common::{Server, create, http, next_of, send, try_create, ws};
use futures_util::StreamExt;
use ply_server::guard::{Limit, Limits};
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn half_sent_requests_time_out_and_do_not_take_the_server_down() {
    // The test server: a 2 s header timeout and at most 900 connections.
    let server = Server::fresh().await;
    let addr = server.addr;
    let mut slow = Vec::new();
    for _ in 0..300 {
        let mut s = TcpStream::connect(addr).await.unwrap();
        s.write_all(b"GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: ").await.unwrap();
        slow.push(s);
    }
    // The server still answers others at once.
    let start = Instant::now();
    assert_eq!(http(addr, "GET", "/health", None, None).await.status, 200);
    assert!(start.elapsed() < Duration::from_secs(1), "{:?}", start.elapsed());
    // And the half-sent requests are dropped after the timeout.
    tokio::time::sleep(Duration::from_millis(2500)).await;
    let mut closed = 0;
    for s in &mut slow {
        let mut buf = [0u8; 256];
        // Answered (408) or closed, either way within the wait.
        if tokio::time::timeout(Duration::from_secs(2), s.read(&mut buf)).await.is_ok() {
            closed += 1;
        }
    }
    assert_eq!(closed, slow.len(), "every half-sent request was ended");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_requests_get_json_errors_and_every_answer_has_security_headers() {
    let server = Server::fresh().await;
    let addr = server.addr;
    let (id, t, _) = create(addr, json!({"game": "boop", "opponent": "hotseat"})).await;
    let cookie = format!("ply_seat_{id}={t}");
    for (method, path, body, status) in [
        ("POST", "/api/games".to_string(), Some("{not json"), 400),
        ("POST", "/api/games".to_string(), Some("{\"game\": 7}"), 422),
        ("PUT", "/api/games".to_string(), None, 405),
        ("GET", format!("/api/games/{id}/position/minus-one"), None, 400),
        ("GET", "/api/games?limit=many".to_string(), None, 400),
        ("POST", format!("/api/games/{id}/moves"), Some("[1, 2"), 400),
        ("POST", format!("/api/games/{id}/moves"), Some("{\"move\": 3}"), 400),
        ("DELETE", format!("/api/games/{id}"), None, 405),
        ("GET", "/api/nothing-here".to_string(), None, 404),
    ] {
        let mut req = format!(
            "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nCookie: {cookie}\r\n"
        );
        if let Some(b) = body {
            req.push_str(&format!(
                "Content-Type: application/json\r\nContent-Length: {}\r\n",
                b.len()
            ));
        }
        req.push_str("\r\n");
        req.push_str(body.unwrap_or(""));
        let mut s = TcpStream::connect(addr).await.unwrap();
        s.write_all(req.as_bytes()).await.unwrap();
        let mut raw = Vec::new();
        s.read_to_end(&mut raw).await.unwrap();
        let text = String::from_utf8_lossy(&raw);
        let (head, rest) = text.split_once("\r\n\r\n").unwrap();
        assert!(head.starts_with(&format!("HTTP/1.1 {status}")), "{method} {path}: {head}");
        let lower = head.to_ascii_lowercase();
        assert!(lower.contains("content-type: application/json"), "{method} {path}: {head}");
        assert!(rest.contains("\"error\""), "{method} {path}: {rest}");
    }
    // Security headers on pages, the API and assets.
    for path in ["/", format!("/game/{id}").as_str(), "/api/meta", "/assets/app.js", "/nowhere"] {
        let r = http(addr, "GET", path, None, None).await;
        let csp = r.header("content-security-policy").unwrap_or_default();
        assert!(
            csp.contains("script-src 'self'") && !csp.contains("unsafe-inline"),
            "{path}: {csp}"
        );
        assert!(csp.contains("frame-ancestors 'none'"), "{path}");
        assert_eq!(r.header("x-content-type-options"), Some("nosniff"), "{path}");
        assert_eq!(r.header("referrer-policy"), Some("no-referrer"), "{path}");
    }
    // The language switch sends browsers to local paths only.
    for (back, to) in [
        ("/%5Cevil.example/", "/"),
        ("//evil.example/", "/"),
        ("/%09/evil.example", "/"),
        ("/games", "/games"),
    ] {
        let r = http(addr, "GET", &format!("/lang/ru?back={back}"), None, None).await;
        assert_eq!(r.status, 303, "{back}");
        assert_eq!(r.header("location"), Some(to), "{back}");
    }
    let r = http(addr, "GET", "/lang/ru?back=/a%0D%0ASet-Cookie:%20x=1", None, None).await;
    assert_eq!((r.status, r.header("location")), (303, Some("/")));
    // A move posted as text/plain (what a form of another site can send) is refused.
    let mut s = TcpStream::connect(addr).await.unwrap();
    let body = "{\"move\": \"Kc3\"}";
    let req = format!(
        "POST /api/games/{id}/moves HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nCookie: {cookie}\r\nContent-Type: text/plain\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).await.unwrap();
    assert!(String::from_utf8_lossy(&raw).starts_with("HTTP/1.1 415"));
    let view = http(addr, "GET", &format!("/api/games/{id}"), None, None).await.json();
    assert_eq!(view["version"], 0, "nothing was played");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn websockets_from_other_sites_are_refused() {
    let server = Server::fresh().await;
    let addr = server.addr;
    let (id, _, _) = create(addr, json!({"game": "boop", "opponent": "hotseat"})).await;
    let mut request = format!("ws://{addr}/ws/{id}").into_client_request().unwrap();
    request.headers_mut().insert("origin", "https://evil.example".parse().unwrap());
    let refused = tokio_tungstenite::connect_async(request).await;
    assert!(refused.is_err(), "a cross-site handshake is refused");
    let mut request = format!("ws://{addr}/ws/{id}").into_client_request().unwrap();
    request.headers_mut().insert("origin", format!("http://{addr}").parse().unwrap());
    let (mut c, _) = tokio_tungstenite::connect_async(request).await.expect("same site");
    send(&mut c, json!({"type": "hello"})).await;
    next_of(&mut c, &["welcome"]).await;
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_address_cannot_flood_the_server() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("ply.sqlite").display());
    let limits = Limits {
        create: Some(Limit { burst: 3, per_minute: 1 }),
        act: Some(Limit { burst: 5, per_minute: 1 }),
        strong: Some(Limit { burst: 1, per_minute: 1 }),
    };
    let server = Server::start_with(&url, limits).await;
    let addr = server.addr;
    let (id, t, _) =
        create(addr, json!({"game": "boop", "opponent": "computer", "level": 10})).await;
    // A second level-10 game is over its own limit at once.
    let r = http(
        addr,
        "POST",
        "/api/games",
        None,
        Some(json!({"game": "boop", "opponent": "computer", "level": 10})),
    )
    .await;
    assert_eq!(r.status, 429, "{}", r.body);
    assert!(r.header("retry-after").is_some());
    let (hot, ht, _) = create(addr, json!({"game": "boop", "opponent": "hotseat"})).await;
    // The third game of the burst was the refused one: the next is refused too.
    let r = try_create(addr, json!({"game": "boop", "opponent": "hotseat"})).await;
    assert_eq!(r.status, 429, "{}", r.body);
    assert!(r.json()["error"].as_str().unwrap().contains("too many"));
    // Actions: five, then 429, over HTTP and over the WebSocket.
    let mut ok = 0;
    for m in ["Ka1", "Kf6", "Ka6", "Kf1", "Kc3", "Kd4"] {
        let r = common::post(addr, &hot, &ht, "moves", json!({"move": m})).await;
        if r.status == 200 {
            ok += 1;
        } else {
            assert_eq!(r.status, 429, "{}", r.body);
        }
    }
    assert_eq!(ok, 5);
    let mut c = ws(addr, &id, Some(&t)).await;
    send(&mut c, json!({"type": "hello"})).await;
    next_of(&mut c, &["welcome"]).await;
    send(&mut c, json!({"type": "move", "move": "Kc3"})).await;
    let e = next_of(&mut c, &["error", "event"]).await;
    assert_eq!(e["code"], "too-many", "{e}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stopping_server_tells_its_clients_to_reconnect_and_keeps_every_confirmed_move() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("ply.sqlite").display());
    let server = Server::start(&url).await;
    let addr = server.addr;
    let (id, t, _) = create(addr, json!({"game": "boop", "opponent": "hotseat"})).await;
    let mut c = ws(addr, &id, Some(&t)).await;
    send(&mut c, json!({"type": "hello"})).await;
    next_of(&mut c, &["state"]).await;
    send(&mut c, json!({"type": "move", "move": "Kc3"})).await;
    assert_eq!(next_of(&mut c, &["event"]).await["version"], 1);
    let started = Instant::now();
    server.stop().await;
    assert!(started.elapsed() < Duration::from_secs(5), "{:?}", started.elapsed());
    // The client was told: close code 1012, "service restart".
    let mut code = None;
    while let Ok(Some(msg)) = tokio::time::timeout(Duration::from_secs(5), c.next()).await {
        if let Ok(Message::Close(Some(frame))) = msg {
            code = Some(u16::from(frame.code));
            break;
        }
    }
    assert_eq!(code, Some(1012));
    let server = Server::start(&url).await;
    let view = http(server.addr, "GET", &format!("/api/games/{id}"), None, None).await.json();
    assert_eq!(view["history"], json!(["Kc3"]));
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn behind_a_proxy_limits_count_the_forwarded_address() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("ply.sqlite").display());
    let settings = ply_server::RoomSettings {
        limits: Limits { create: Some(Limit { burst: 1, per_minute: 1 }), ..Limits::none() },
        behind_proxy: true,
        ..ply_server::RoomSettings::default()
    };
    let server = Server::start_settings(&url, settings).await;
    let addr = server.addr;
    let body = "{\"game\": \"boop\", \"opponent\": \"hotseat\"}";
    let create_from = |forwarded: &'static str| async move {
        let mut s = TcpStream::connect(addr).await.unwrap();
        let req = format!(
            "POST /api/games HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nX-Forwarded-For: {forwarded}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        );
        s.write_all(req.as_bytes()).await.unwrap();
        let mut raw = Vec::new();
        s.read_to_end(&mut raw).await.unwrap();
        String::from_utf8_lossy(&raw)[9..12].to_string()
    };
    // The proxy appends the client's address; what a client wrote before it does not count.
    assert_eq!(create_from("10.0.0.1").await, "201");
    assert_eq!(create_from("10.0.0.1").await, "429");
    assert_eq!(create_from("10.0.0.2").await, "201");
    assert_eq!(create_from("1.2.3.4, 10.0.0.2").await, "429");
    server.stop().await;
}
