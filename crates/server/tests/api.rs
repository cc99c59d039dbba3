//! The HTTP API and the WebSocket protocol of `ply serve`, over a real socket.

use crate::common;

use common::{Server, create, http, next_of, post, seat, send, ws};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn create_join_move_and_the_refusals() {
    let server = Server::fresh().await;
    let addr = server.addr;

    let meta = http(addr, "GET", "/api/meta", None, None).await.json();
    let names: Vec<&str> =
        meta["games"].as_array().unwrap().iter().map(|g| g["name"].as_str().unwrap()).collect();
    assert!(names.contains(&"boop"));

    // Refusals at creation.
    let r = http(
        addr,
        "POST",
        "/api/games",
        None,
        Some(json!({"game": "chess", "opponent": "hotseat"})),
    )
    .await;
    assert_eq!(r.status, 400);
    assert!(r.json()["error"].as_str().unwrap().contains("unknown game"));
    let r = http(
        addr,
        "POST",
        "/api/games",
        None,
        Some(json!({"game": "boop", "variant": "x", "opponent": "hotseat"})),
    )
    .await;
    assert_eq!(r.status, 400);
    assert!(r.json()["error"].as_str().unwrap().contains("no variant 'x'"));
    let r = http(
        addr,
        "POST",
        "/api/games",
        None,
        Some(json!({"game": "boop", "opponent": "computer", "level": 11})),
    )
    .await;
    assert_eq!(r.status, 400);
    if let Some(no_engine) =
        meta["games"].as_array().unwrap().iter().find(|g| g["computer"] == false)
    {
        let r = http(
            addr,
            "POST",
            "/api/games",
            None,
            Some(json!({"game": no_engine["name"], "opponent": "computer"})),
        )
        .await;
        assert_eq!(r.status, 400);
        assert!(r.json()["error"].as_str().unwrap().contains("no computer player"));
    }

    // An invite game: P1 creates it, P2 joins through the link.
    let (id, t1, created) =
        create(addr, json!({"game": "boop", "opponent": "invite", "seat": "P1"})).await;
    assert_eq!(created["seat"], "P1");
    let invite = created["invite_url"].as_str().unwrap().to_string();
    let t2 = invite.rsplit('/').next().unwrap().to_string();
    assert_ne!(t1, t2);
    let r = http(addr, "GET", &invite, None, None).await;
    assert_eq!(r.status, 303);
    assert_eq!(r.header("location"), Some(format!("/game/{id}").as_str()));
    assert!(r.header("set-cookie").unwrap().starts_with(&seat(&id, &t2)));
    let r = http(addr, "GET", &format!("/join/{id}/00ff"), None, None).await;
    assert_eq!(r.status, 403);

    let view =
        http(addr, "GET", &format!("/api/games/{id}"), Some(&seat(&id, &t2)), None).await.json();
    // Only the creator's page carries the invite link (the other seat's token).
    let page = http(addr, "GET", &format!("/game/{id}"), Some(&seat(&id, &t2)), None).await;
    assert!(!page.body.contains(&t1));
    let page = http(addr, "GET", &format!("/game/{id}"), Some(&seat(&id, &t1)), None).await;
    assert!(page.body.contains(&t2));
    assert_eq!(view["seats"], json!(["P2"]));
    assert_eq!(view["version"], 0);
    assert_eq!(view["to_move"], "P1");
    assert!(view["moves"].as_array().unwrap().iter().any(|m| m["m"] == "Kc3"));

    // P2 may not move for P1; a spectator may not move at all.
    let r = post(addr, &id, &t2, "moves", json!({"move": "Kc3"})).await;
    assert_eq!(r.status, 403);
    assert!(r.json()["error"].as_str().unwrap().contains("not your turn"), "{}", r.body);
    // The same refusal in the language the caller chose.
    let r = http(
        addr,
        "POST",
        &format!("/api/games/{id}/moves"),
        Some(&format!("{}; ply_lang=ru", seat(&id, &t2))),
        Some(json!({"move": "Kc3"})),
    )
    .await;
    assert_eq!(r.status, 403);
    assert!(r.json()["error"].as_str().unwrap().contains("Сейчас не ваш ход"), "{}", r.body);
    let r =
        http(addr, "POST", &format!("/api/games/{id}/moves"), None, Some(json!({"move": "Kc3"})))
            .await;
    assert_eq!(r.status, 403);
    assert!(r.json()["error"].as_str().unwrap().contains("watching"));

    // P1 moves; an illegal move and a stale version are refused with reasons.
    let r = post(addr, &id, &t1, "moves", json!({"move": "Kc3", "version": 0})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["version"], 1);
    assert_eq!(r.json()["history"], json!(["Kc3"]));
    let r = post(addr, &id, &t2, "moves", json!({"move": "Kc3"})).await;
    assert_eq!(r.status, 422);
    assert!(r.json()["error"].as_str().unwrap().contains("not a legal move"));
    let r = post(addr, &id, &t2, "moves", json!({"move": "Kd4", "version": 0})).await;
    assert_eq!(r.status, 409);
    // The token may also come in the body.
    let r = http(
        addr,
        "POST",
        &format!("/api/games/{id}/moves"),
        None,
        Some(json!({"move": "Kd4", "token": t2})),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    // Undo is not offered between two people at two screens.
    let r = http(addr, "POST", &format!("/api/games/{id}/undo"), Some(&seat(&id, &t1)), None).await;
    assert_eq!(r.status, 403);
    // An earlier position, the record, the lists and the pages.
    let r = http(addr, "GET", &format!("/api/games/{id}/position/1"), None, None).await.json();
    assert!(r["svg"].as_str().unwrap().starts_with("<svg"));
    assert_eq!(r["status_line"], "to move: P2");
    let r = http(addr, "GET", &format!("/game/{id}/record"), None, None).await;
    assert!(r.body.contains("1. Kc3 Kd4"), "{}", r.body);
    let list = http(addr, "GET", "/api/games", None, None).await.json();
    assert_eq!(list["games"][0]["id"], json!(id));
    assert_eq!(list["games"][0]["turns"], 2);
    for page in
        ["/", "/games", &format!("/game/{id}"), "/rules/boop", "/board/boop.svg", "/assets/app.js"]
    {
        let r = http(addr, "GET", page, None, None).await;
        assert_eq!(r.status, 200, "{page}");
    }
    assert_eq!(http(addr, "GET", "/api/games/nope", None, None).await.status, 404);

    // Resigning ends the game for both.
    let r = http(addr, "POST", &format!("/api/games/{id}/resign"), Some(&seat(&id, &t1)), None)
        .await
        .json();
    assert_eq!(r["live"], false);
    assert_eq!(r["result"]["winner"], "P2");
    assert_eq!(r["result"]["reason"], "resigned");
    let r = post(addr, &id, &t1, "moves", json!({"move": "Ke5"})).await;
    assert_eq!(r.status, 409);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn websocket_events_wrong_seat_and_reconnect_with_a_version() {
    let server = Server::fresh().await;
    let addr = server.addr;
    let (id, t1, created) = create(addr, json!({"game": "boop", "opponent": "invite"})).await;
    let t2 = created["invite_url"].as_str().unwrap().rsplit('/').next().unwrap().to_string();

    let mut a = ws(addr, &id, Some(&t1)).await;
    let mut b = ws(addr, &id, Some(&t2)).await;
    let mut spectator = ws(addr, &id, None).await;
    for (s, seats) in
        [(&mut a, json!(["P1"])), (&mut b, json!(["P2"])), (&mut spectator, json!([]))]
    {
        send(s, json!({"type": "hello", "version": null})).await;
        assert_eq!(next_of(s, &["welcome"]).await["seats"], seats);
        let state = next_of(s, &["state"]).await;
        assert_eq!(state["view"]["version"], 0);
    }

    // A move by the wrong seat and by a spectator: clear errors, nothing broadcast.
    send(&mut b, json!({"type": "move", "move": "Kc3"})).await;
    let e = next_of(&mut b, &["error", "event"]).await;
    assert_eq!(e["type"], "error");
    assert!(e["message"].as_str().unwrap().contains("not your turn"));
    send(&mut spectator, json!({"type": "move", "move": "Kc3"})).await;
    let e = next_of(&mut spectator, &["error", "event"]).await;
    assert_eq!(e["type"], "error");
    assert!(e["message"].as_str().unwrap().contains("watching"));
    send(&mut a, json!({"type": "move", "move": "Kz9"})).await;
    let e = next_of(&mut a, &["error", "event"]).await;
    assert!(e["message"].as_str().unwrap().contains("not a legal move"));
    // A page in Korean hears its refusals in Korean.
    let mut request = format!("ws://{addr}/ws/{id}").into_client_request().unwrap();
    request.headers_mut().insert("accept-language", "ko-KR,ko;q=0.9,en;q=0.5".parse().unwrap());
    let mut korean = tokio_tungstenite::connect_async(request).await.expect("websocket").0;
    send(&mut korean, json!({"type": "move", "move": "Kc3"})).await;
    let e = next_of(&mut korean, &["error", "event"]).await;
    assert!(e["message"].as_str().unwrap().contains("관전"), "{e}");

    // A legal move reaches everyone as event 1 with the new view.
    send(&mut a, json!({"type": "move", "move": "Kc3", "version": 0})).await;
    for s in [&mut a, &mut b, &mut spectator] {
        let ev = next_of(s, &["event"]).await;
        assert_eq!(ev["version"], 1);
        assert_eq!(ev["kind"], "move");
        assert_eq!(ev["move"], "Kc3");
        assert_eq!(ev["player"], "P1");
        assert_eq!(ev["to_move"], "P2");
        // A live event carries what changed on the board, never the whole view.
        assert!(ev.get("view").is_none() && ev.get("moves").is_none(), "{ev}");
        assert!(ev["board"]["patch"].is_array(), "{ev}");
        assert_eq!(ev["board"]["last_path"], json!(["pool-p1-kitten", "c3"]));
    }
    // The spectator leaves at version 1; two moves later it comes back and gets exactly
    // events 2 and 3, then the state.
    drop(spectator);
    send(&mut b, json!({"type": "move", "move": "Kd4", "version": 1})).await;
    assert_eq!(next_of(&mut a, &["event"]).await["version"], 2);
    assert_eq!(next_of(&mut b, &["event"]).await["version"], 2);
    send(&mut a, json!({"type": "move", "move": "Ka1", "version": 2})).await;
    assert_eq!(next_of(&mut b, &["event"]).await["version"], 3);
    assert_eq!(next_of(&mut a, &["event"]).await["version"], 3);
    let mut back = ws(addr, &id, None).await;
    send(&mut back, json!({"type": "hello", "version": 1})).await;
    let welcome = next_of(&mut back, &["welcome"]).await;
    assert_eq!((welcome["version"].as_i64(), welcome["protocol"].as_i64()), (Some(3), Some(2)));
    let e2 = next_of(&mut back, &["event", "state"]).await;
    let e3 = next_of(&mut back, &["event", "state"]).await;
    assert_eq!(
        (e2["type"].as_str(), e2["version"].as_i64(), e2["move"].as_str()),
        (Some("event"), Some(2), Some("Kd4"))
    );
    assert_eq!(
        (e3["type"].as_str(), e3["version"].as_i64(), e3["move"].as_str()),
        (Some("event"), Some(3), Some("Ka1"))
    );
    // Up to date: the welcome and nothing else (the next message is the answer to a ping).
    let mut again = ws(addr, &id, None).await;
    send(&mut again, json!({"type": "hello", "version": 3, "protocol": 2})).await;
    next_of(&mut again, &["welcome"]).await;
    send(&mut again, json!({"type": "ping"})).await;
    assert_eq!(next_of(&mut again, &["event", "state", "pong"]).await["type"], "pong");
    // Too far behind, or no version: the whole state.
    let mut fresh = ws(addr, &id, None).await;
    send(&mut fresh, json!({"type": "hello", "version": null})).await;
    let st = next_of(&mut fresh, &["event", "state"]).await;
    assert_eq!((st["type"].as_str(), st["view"]["version"].as_i64()), (Some("state"), Some(3)));
    assert_eq!(st["view"]["history"], json!(["Kc3", "Kd4", "Ka1"]));
    assert!(st["view"].get("moves").is_none(), "the state carries no legal moves");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_computer_replies_and_undo_takes_back_both_moves() {
    let server = Server::fresh().await;
    let addr = server.addr;
    let (id, t1, _) =
        create(addr, json!({"game": "boop", "opponent": "computer", "level": 1, "seat": "P1"}))
            .await;
    let mut a = ws(addr, &id, Some(&t1)).await;
    send(&mut a, json!({"type": "hello"})).await;
    next_of(&mut a, &["state"]).await;
    send(&mut a, json!({"type": "move", "move": "Kc3"})).await;
    assert_eq!(next_of(&mut a, &["event"]).await["version"], 1);
    assert_eq!(next_of(&mut a, &["thinking"]).await["on"], true);
    let reply = next_of(&mut a, &["event"]).await;
    assert_eq!(reply["version"], 2);
    assert_eq!(reply["player"], "P2");
    assert_eq!(reply["thinking"], false);
    assert_eq!(reply["to_move"], "P1");
    // A hint is a legal move with its click path.
    send(&mut a, json!({"type": "hint"})).await;
    let hint = next_of(&mut a, &["hint"]).await;
    let view =
        http(addr, "GET", &format!("/api/games/{id}"), Some(&seat(&id, &t1)), None).await.json();
    let moves = view["moves"].as_array().unwrap();
    assert!(moves.iter().any(|m| m["m"] == hint["move"] && m["p"] == hint["path"]), "{hint}");
    // Undo removes the computer's reply and my move.
    let r = http(addr, "POST", &format!("/api/games/{id}/undo"), Some(&seat(&id, &t1)), None).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["history"], json!([]));
    assert_eq!(r.json()["version"], 3);
    // The computer seat's token moves nothing.
    let view =
        http(addr, "GET", &format!("/api/games/{id}"), Some(&seat(&id, &t1)), None).await.json();
    assert_eq!(view["seats"], json!(["P1"]));
    // Playing second: the computer opens the game by itself.
    let (id2, t2, _) =
        create(addr, json!({"game": "boop", "opponent": "computer", "level": 1, "seat": "P2"}))
            .await;
    let mut b = ws(addr, &id2, Some(&t2)).await;
    send(&mut b, json!({"type": "hello", "version": 0})).await;
    let mut seen = 0;
    for _ in 0..4 {
        let m = next_of(&mut b, &["event", "state"]).await;
        seen = seen.max(m["version"].as_i64().or(m["view"]["version"].as_i64()).unwrap_or(0));
        if seen >= 1 {
            break;
        }
    }
    assert_eq!(seen, 1, "the computer played the first move");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_game_survives_a_restart_on_a_file_database() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("ply.sqlite").display());
    let server = Server::start(&url).await;
    let (id, t1, _) = create(server.addr, json!({"game": "boop", "opponent": "hotseat"})).await;
    for m in ["Kc3", "Kd4"] {
        let r = post(server.addr, &id, &t1, "moves", json!({"move": m})).await;
        assert_eq!(r.status, 200, "{}", r.body);
    }
    // A draw offer pending at the restart is still pending after it.
    let (offered, o1, created) =
        create(server.addr, json!({"game": "boop", "opponent": "invite"})).await;
    let o2 = created["invite_url"].as_str().unwrap().rsplit('/').next().unwrap().to_string();
    let r = post(server.addr, &offered, &o1, "draw", json!({"action": "offer"})).await;
    assert_eq!(r.json()["draw_offer"], "P1", "{}", r.body);
    let (finished, tf, _) =
        create(server.addr, json!({"game": "boop", "opponent": "hotseat"})).await;
    http(
        server.addr,
        "POST",
        &format!("/api/games/{finished}/resign"),
        Some(&seat(&finished, &tf)),
        None,
    )
    .await;
    server.stop().await;

    let server = Server::start(&url).await;
    let view = http(server.addr, "GET", &format!("/api/games/{id}"), Some(&seat(&id, &t1)), None)
        .await
        .json();
    assert_eq!(view["history"], json!(["Kc3", "Kd4"]));
    assert_eq!(view["version"], 2);
    assert_eq!(view["seats"], json!(["P1", "P2"]));
    let r = post(server.addr, &id, &t1, "moves", json!({"move": "Ka1", "version": 2})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["version"], 3);
    let view = http(server.addr, "GET", &format!("/api/games/{offered}"), None, None).await.json();
    assert_eq!(view["draw_offer"], "P1");
    let r = post(server.addr, &offered, &o2, "draw", json!({"action": "accept"})).await;
    assert_eq!(r.json()["result"]["reason"], "agreed", "{}", r.body);
    let view = http(server.addr, "GET", &format!("/api/games/{finished}"), None, None).await.json();
    assert_eq!(view["live"], false);
    assert_eq!(view["result"]["reason"], "resigned");
    // A client that held version 1 before the restart gets the whole state: the new room
    // has no recent events to replay, and the state is exact.
    let mut c = ws(server.addr, &id, None).await;
    send(&mut c, json!({"type": "hello", "version": 1})).await;
    let st = next_of(&mut c, &["event", "state"]).await;
    assert_eq!(st["type"], "state");
    assert_eq!(st["view"]["history"], json!(["Kc3", "Kd4", "Ka1"]));
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn racing_moves_land_once() {
    let server = Server::fresh().await;
    let addr = server.addr;
    let (id, t1, _) = create(addr, json!({"game": "boop", "opponent": "hotseat"})).await;
    let cookie = seat(&id, &t1);
    let path = format!("/api/games/{id}/moves");
    let tries = ["Kc3", "Kd4", "Ka1", "Kf6"].map(|m| {
        let (cookie, path) = (cookie.clone(), path.clone());
        tokio::spawn(async move {
            http(addr, "POST", &path, Some(&cookie), Some(json!({"move": m, "version": 0})))
                .await
                .status
        })
    });
    let mut statuses = Vec::new();
    for t in tries {
        statuses.push(t.await.unwrap());
    }
    statuses.sort_unstable();
    assert_eq!(statuses, [200, 409, 409, 409]);
    let view = http(addr, "GET", &format!("/api/games/{id}"), None, None).await.json();
    assert_eq!(view["history"].as_array().unwrap().len(), 1);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn draws_by_agreement_between_people_only() {
    let server = Server::fresh().await;
    let addr = server.addr;
    let (id, t1, created) = create(addr, json!({"game": "boop", "opponent": "invite"})).await;
    let t2 = created["invite_url"].as_str().unwrap().rsplit('/').next().unwrap().to_string();
    let mut b = ws(addr, &id, Some(&t2)).await;
    send(&mut b, json!({"type": "hello"})).await;
    next_of(&mut b, &["state"]).await;
    let draw = format!("/api/games/{id}/draw");
    // Nothing to accept yet; a spectator cannot offer.
    let r =
        http(addr, "POST", &draw, Some(&seat(&id, &t2)), Some(json!({"action": "accept"}))).await;
    assert_eq!(r.status, 409);
    let r = http(addr, "POST", &draw, None, Some(json!({"action": "offer"}))).await;
    assert_eq!(r.status, 403);
    // P1 offers: P2 sees the offer as the next event.
    let r =
        http(addr, "POST", &draw, Some(&seat(&id, &t1)), Some(json!({"action": "offer"}))).await;
    assert_eq!(r.status, 200, "{}", r.body);
    // (P2's seat being taken reloads the room, which sends the state before the offer again,
    // sometimes after the `hello` answer: that state is skipped, any other is a failure.)
    let ev = loop {
        let m = next_of(&mut b, &["state", "event"]).await;
        if m["type"] == "state" && m["view"]["version"] == 0 {
            continue;
        }
        break m;
    };
    assert_eq!((ev["type"].as_str(), ev["kind"].as_str()), (Some("event"), Some("draw-offer")));
    assert_eq!(ev["draw_offer"], "P1");
    assert_eq!(ev["version"], 1);
    assert!(ev.get("board").is_none(), "an offer does not change the board");
    // P2 declines, P1 offers again, P2 accepts over the WebSocket.
    send(&mut b, json!({"type": "draw", "action": "decline"})).await;
    let ev = next_of(&mut b, &["event"]).await;
    assert_eq!((ev["kind"].as_str(), &ev["draw_offer"]), (Some("draw-decline"), &Value::Null));
    http(addr, "POST", &draw, Some(&seat(&id, &t1)), Some(json!({"action": "offer"}))).await;
    assert_eq!(next_of(&mut b, &["event"]).await["draw_offer"], "P1");
    send(&mut b, json!({"type": "draw", "action": "accept"})).await;
    let ev = next_of(&mut b, &["event"]).await;
    assert_eq!(ev["kind"], "draw");
    assert_eq!(ev["version"], 4);
    assert_eq!(ev["live"], false);
    assert_eq!(ev["result"]["draw"], true);
    assert_eq!(ev["result"]["reason"], "agreed");
    let record = http(addr, "GET", &format!("/game/{id}/record"), None, None).await.body;
    assert!(record.contains("1/2-1/2"), "{record}");
    // Not against the computer.
    let (cid, ct, _) =
        create(addr, json!({"game": "boop", "opponent": "computer", "level": 1})).await;
    let r = post(addr, &cid, &ct, "draw", json!({"action": "offer"})).await;
    assert_eq!(r.status, 403);
    // Nor in a game that has no draws.
    let (gid, gt, _) = create(addr, json!({"game": "gipf", "opponent": "invite"})).await;
    let r = post(addr, &gid, &gt, "draw", json!({"action": "offer"})).await;
    assert_eq!(r.status, 409, "{}", r.body);
    assert!(r.body.contains("no draws"), "{}", r.body);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn views_say_which_pieces_the_last_turn_moved() {
    let server = Server::fresh().await;
    let addr = server.addr;
    let (id, t, _) = create(addr, json!({"game": "gipf", "opponent": "hotseat"})).await;
    let view = http(addr, "GET", &format!("/api/games/{id}"), None, None).await.json();
    assert_eq!(view["motions"], json!([]));
    // A push from the dot a1 onto b2 moves the piece standing there on to c3.
    let r = post(addr, &id, &t, "moves", json!({"move": "a1-b2"})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let pushed =
        json!([{"piece": "piece-b2", "from": "a1"}, {"piece": "piece-c3", "from": "piece-b2"}]);
    assert_eq!(r.json()["motions"], pushed);
    // Stepping through the game shows the same travel, and none at the start.
    let r = http(addr, "GET", &format!("/api/games/{id}/position/1"), None, None).await.json();
    assert_eq!(r["motions"], pushed);
    let r = http(addr, "GET", &format!("/api/games/{id}/position/0"), None, None).await.json();
    assert_eq!(r["motions"], json!([]));
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_home_page_lists_the_readers_games_first_and_finished_games_beside_many_live_ones() {
    let server = Server::fresh().await;
    let addr = server.addr;
    // More live games than a list holds, and one finished game behind them.
    let (done, done_token, _) = create(addr, json!({"game": "boop", "opponent": "hotseat"})).await;
    assert_eq!(post(addr, &done, &done_token, "resign", json!({})).await.status, 200);
    let mut live = Vec::new();
    for _ in 0..15 {
        live.push(create(addr, json!({"game": "gipf", "opponent": "hotseat"})).await);
    }
    let (mine, mine_token, _) = create(addr, json!({"game": "zertz", "opponent": "hotseat"})).await;
    assert_eq!(
        post(addr, &mine, &mine_token, "moves", json!({"move": "Wd4,a1"})).await.status,
        200
    );
    let home = http(addr, "GET", "/", None, None).await.body;
    let finished = &home[home.find("id=\"finished-games\"").expect("a finished list")..];
    assert!(finished.contains(&format!("/game/{done}")), "the finished game is listed");
    assert!(!home.contains("id=\"my-games\""), "no cookies, no games of one's own");
    // With seats in two games, those come first, the live one waiting for the reader on top.
    let cookie =
        format!("{}; {}", common::seat(&done, &done_token), common::seat(&mine, &mine_token));
    let home = http(addr, "GET", "/", Some(&cookie), None).await.body;
    let section = &home[home.find("id=\"my-games\"").expect("my games")..];
    let section = &section[..section.find("</section>").unwrap()];
    let (a, b) = (
        section.find(&format!("/game/{mine}")).unwrap(),
        section.find(&format!("/game/{done}")).unwrap(),
    );
    assert!(a < b, "the live game waiting for me comes first: {section}");
    assert!(section.contains("your turn") && section.contains("1 turn"), "{section}");
    let others = &home[home.find("id=\"live-games\"").unwrap()..];
    assert!(
        !others[..others.find("</section>").unwrap()].contains(&format!("/game/{mine}")),
        "not listed twice"
    );
    server.stop().await;
}
