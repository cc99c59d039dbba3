//! The live layer: typed protocol errors, choices only for the seat to move, moves by click
//! path, rooms that leave memory when idle and come back exactly, slow followers dropped
//! without holding anybody up, and the computer's engine kept between its turns.

use crate::common;

use std::sync::Arc;
use std::time::Duration;

use common::{Server, create, http, next_of, post, send, ws};
use futures_util::SinkExt;
use ply_server::protocol::ServerMsg;
use ply_server::{Action, AppState, MoveSpec, RoomSettings};
use ply_store::Store;
use serde_json::{Value, json};
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::Message;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_messages_get_a_typed_error_and_change_nothing() {
    let server = Server::fresh().await;
    let addr = server.addr;
    let (id, t, _) = create(addr, json!({"game": "boop", "opponent": "hotseat"})).await;
    let mut c = ws(addr, &id, Some(&t)).await;
    send(&mut c, json!({"type": "hello", "protocol": 2, "version": null})).await;
    let welcome = next_of(&mut c, &["welcome"]).await;
    assert_eq!(welcome["protocol"], 2);
    assert_eq!(welcome["seats"], json!(["P1", "P2"]));
    let marker = "x".repeat(300) + "MARKER";
    for (bad, what) in [
        (json!({"type": "dance"}), "an unknown type"),
        (json!({"type": "move", "move": 42}), "a wrong field type"),
        (json!({"type": "move", "move": "Kc3", "colour": "red"}), "an unknown field"),
        (json!({"type": "move"}), "neither move nor path"),
        (json!({"type": "move", "move": "Kc3", "path": ["a1"]}), "both move and path"),
        (json!({"type": "draw", "action": "maybe"}), "an unknown draw action"),
        (json!({"type": "choices"}), "choices without a version"),
        (json!({"type": "hello", "protocol": 99}), "another protocol"),
        (json!({"type": marker.clone()}), "a long unknown type"),
        (json!({"type": "move", "move": marker.clone()}), "an illegal long move"),
        // The explanation is cut at 200 bytes: one of these three cuts would fall inside a
        // three-byte character (a panic, before the cut kept to character boundaries).
        (json!({"type": "홍".repeat(100)}), "a long type of Hangul"),
        (json!({"type": format!("a{}", "홍".repeat(100))}), "the same, one byte on"),
        (json!({"type": format!("ab{}", "홍".repeat(100))}), "the same, two bytes on"),
    ] {
        send(&mut c, bad).await;
        let e = next_of(&mut c, &["error", "event"]).await;
        assert_eq!(e["type"], "error", "{what}: {e}");
        assert!(e["code"].as_str().is_some_and(|c| !c.is_empty()), "{what}: {e}");
        assert!(!e["message"].as_str().unwrap().contains("MARKER"), "{what} echoed: {e}");
    }
    c.send(Message::Binary(vec![1, 2, 3].into())).await.unwrap();
    assert_eq!(next_of(&mut c, &["error"]).await["code"], "bad-message");
    // Nothing changed.
    let view = http(addr, "GET", &format!("/api/games/{id}"), None, None).await.json();
    assert_eq!(view["version"], 0);
    // A frame over 64 KiB ends the connection after an error; the game is untouched.
    let big = json!({"type": "move", "move": "K".repeat(70 * 1024)}).to_string();
    c.send(Message::Text(big.into())).await.unwrap();
    let mut closed = false;
    for _ in 0..5 {
        use futures_util::StreamExt;
        match tokio::time::timeout(Duration::from_secs(5), c.next()).await {
            Ok(Some(Ok(Message::Text(t)))) => {
                // Other messages of the game may arrive meanwhile (under load, late ones);
                // what must not arrive is the frame echoed back.
                assert!(!t.contains(&"K".repeat(256)), "the error does not echo the frame");
            }
            Ok(Some(Ok(Message::Close(_))) | None | Some(Err(_))) => {
                closed = true;
                break;
            }
            Ok(Some(Ok(_))) => {}
            Err(_) => break,
        }
    }
    assert!(closed, "an oversized frame ends the connection");
    let view = http(addr, "GET", &format!("/api/games/{id}"), None, None).await.json();
    assert_eq!(view["version"], 0);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn choices_go_to_the_seat_to_move_only_and_moves_go_by_path() {
    let server = Server::fresh().await;
    let addr = server.addr;
    let (id, t1, created) = create(addr, json!({"game": "gipf", "opponent": "invite"})).await;
    let t2 = created["invite_url"].as_str().unwrap().rsplit('/').next().unwrap().to_string();
    let mut a = ws(addr, &id, Some(&t1)).await;
    let mut b = ws(addr, &id, Some(&t2)).await;
    let mut s = ws(addr, &id, None).await;
    for c in [&mut a, &mut b, &mut s] {
        send(c, json!({"type": "hello"})).await;
        next_of(c, &["state"]).await;
    }
    // P1 moves first: only P1's connection gets the choices.
    let choices = next_of(&mut a, &["choices"]).await;
    assert_eq!(choices["version"], 0);
    assert_eq!(choices["prefix"], json!([]));
    assert!(choices["tree"].as_str().unwrap().len() > 10, "{choices}");
    // A prefix: the dot a1 leads to b2 only, so its one move is listed with its notation.
    send(&mut a, json!({"type": "choices", "version": 0, "prefix": ["a1"]})).await;
    let sub = next_of(&mut a, &["choices"]).await;
    assert_eq!(sub["prefix"], json!(["a1"]));
    assert_eq!(sub["moves"], json!([{"m": "a1-b2", "p": ["a1", "b2"]}]));
    // Not for spectators, nor the other player, nor an old version.
    send(&mut s, json!({"type": "choices", "version": 0, "prefix": []})).await;
    assert_eq!(next_of(&mut s, &["error", "choices"]).await["code"], "spectator");
    send(&mut b, json!({"type": "choices", "version": 0, "prefix": []})).await;
    assert_eq!(next_of(&mut b, &["error", "choices"]).await["code"], "not-your-turn");
    send(&mut a, json!({"type": "choices", "version": 5, "prefix": []})).await;
    assert_eq!(next_of(&mut a, &["error", "choices"]).await["code"], "stale");
    // A path that is no move is refused; a move by its path is played.
    send(&mut a, json!({"type": "move", "path": ["a1", "c3"]})).await;
    assert_eq!(next_of(&mut a, &["error", "event"]).await["code"], "no-such-path");
    send(&mut a, json!({"type": "move", "path": ["a1", "b2"], "version": 0})).await;
    let ev = next_of(&mut s, &["event", "choices"]).await;
    assert_eq!((ev["type"].as_str(), ev["move"].as_str()), (Some("event"), Some("a1-b2")));
    // Now P2 gets the choices of version 1, and P1 and the spectator none.
    assert_eq!(next_of(&mut b, &["choices"]).await["version"], 1);
    send(&mut s, json!({"type": "ping"})).await;
    assert_eq!(next_of(&mut s, &["choices", "pong"]).await["type"], "pong");
    next_of(&mut a, &["event"]).await;
    send(&mut a, json!({"type": "ping"})).await;
    assert_eq!(next_of(&mut a, &["choices", "pong"]).await["type"], "pong");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn previews_tell_the_mover_what_the_next_click_does_and_draw_the_turn_so_far() {
    let server = Server::fresh().await;
    let addr = server.addr;
    let (id, t1, created) = create(addr, json!({"game": "gipf", "opponent": "invite"})).await;
    let t2 = created["invite_url"].as_str().unwrap().rsplit('/').next().unwrap().to_string();
    let mut a = ws(addr, &id, Some(&t1)).await;
    let mut b = ws(addr, &id, Some(&t2)).await;
    let mut s = ws(addr, &id, None).await;
    for c in [&mut a, &mut b, &mut s] {
        send(c, json!({"type": "hello"})).await;
        next_of(c, &["state"]).await;
    }
    // No clicks yet: the step of the first click, nothing drawn.
    send(&mut a, json!({"type": "preview", "version": 0, "prefix": []})).await;
    let p = next_of(&mut a, &["preview"]).await;
    let first = p["step"].as_str().unwrap().to_string();
    assert!(first.starts_with("step-"), "{p}");
    assert_eq!(p["overlay"], "");
    // After a dot with two pushes: another step, and the game's picture of the turn so far.
    send(&mut a, json!({"type": "preview", "version": 0, "prefix": ["a2"]})).await;
    let p = next_of(&mut a, &["preview"]).await;
    assert_eq!(p["prefix"], json!(["a2"]));
    assert_ne!(p["step"].as_str().unwrap(), first, "{p}");
    // The step ids are messages of the page: every one has a text.
    let page = http(addr, "GET", &format!("/game/{id}"), None, None).await;
    for step in [first.as_str(), p["step"].as_str().unwrap()] {
        assert!(page.body.contains(&format!("\"{step}\":")), "{step} has no message on the page");
    }
    // Only for the seat to move, at this version, on a path that goes on.
    send(&mut s, json!({"type": "preview", "version": 0, "prefix": []})).await;
    assert_eq!(next_of(&mut s, &["error", "preview"]).await["code"], "spectator");
    send(&mut b, json!({"type": "preview", "version": 0, "prefix": []})).await;
    assert_eq!(next_of(&mut b, &["error", "preview"]).await["code"], "not-your-turn");
    send(&mut a, json!({"type": "preview", "version": 3, "prefix": []})).await;
    assert_eq!(next_of(&mut a, &["error", "preview"]).await["code"], "stale");
    send(&mut a, json!({"type": "preview", "version": 0, "prefix": ["a2", "zz"]})).await;
    assert_eq!(next_of(&mut a, &["error", "preview"]).await["code"], "no-such-path");
    // Hints are not given between two people at two screens.
    let hint = post(addr, &id, &t1, "hint", json!({})).await;
    assert_eq!(hint.status, 403, "{}", hint.body);
    let view = http(addr, "GET", &format!("/api/games/{id}"), Some(&common::seat(&id, &t1)), None)
        .await
        .json();
    assert_eq!(view["can_hint"], false);
    server.stop().await;
}

/// A server's state with a short idle time, on a file database.
async fn quick_state(idle_ms: u64) -> (tempfile::TempDir, AppState) {
    common::show_the_server_log();
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("ply.sqlite").display());
    let store = Store::open(Some(&url)).await.unwrap();
    let settings = RoomSettings { idle: Duration::from_millis(idle_ms), ..RoomSettings::default() };
    (dir, AppState::with(store, settings))
}

async fn wait_until(what: &str, mut done: impl FnMut() -> bool) {
    for _ in 0..200 {
        if done() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("timed out waiting until {what}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_rooms_leave_memory_and_come_back_exactly() {
    let (_dir, state) = quick_state(150).await;
    let mut ids = Vec::new();
    for (game, opponent) in [("boop", "hotseat"), ("gipf", "invite"), ("zertz", "computer")] {
        let created = state
            .create(
                serde_json::from_value(json!({"game": game, "opponent": opponent, "level": 1}))
                    .unwrap(),
            )
            .await
            .unwrap();
        let id = created["id"].as_str().unwrap().to_string();
        let token = created["token"].as_str().unwrap().to_string();
        for _ in 0..3 {
            let view = state.rooms.view(&id, Some(token.clone())).await.unwrap();
            if !view.seats.contains(&view.view.to_move) || view.view.thinking {
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
            let mv = view.moves[view.moves.len() / 2].m.clone();
            state
                .rooms
                .act(&id, Some(token.clone()), Action::Move(MoveSpec::Notation(mv)), None)
                .await
                .unwrap();
        }
        if opponent == "invite" {
            state
                .rooms
                .act(
                    &id,
                    Some(token.clone()),
                    Action::Draw(ply_server::protocol::DrawAction::Offer),
                    None,
                )
                .await
                .unwrap_err(); // GIPF has no draws: refused, and the game goes on
        }
        ids.push((id, token));
    }
    // Let the computer finish its reply before the rooms go idle.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let mut before = Vec::new();
    for (id, token) in &ids {
        before.push(
            serde_json::to_value(state.rooms.view(id, Some(token.clone())).await.unwrap()).unwrap(),
        );
    }
    assert!(state.rooms.open() >= 3);
    let rooms = state.rooms.clone();
    wait_until("every room left memory", || rooms.open() == 0).await;
    assert_eq!(state.rooms.shared().engines.usage().0, 0, "engines go with their rooms");
    // Back from the store, exactly as they were.
    for ((id, token), was) in ids.iter().zip(before) {
        let now =
            serde_json::to_value(state.rooms.view(id, Some(token.clone())).await.unwrap()).unwrap();
        assert_eq!(now, was, "game {id} after its reload");
    }
    // A follower keeps a room in memory.
    let (tx, mut rx) = mpsc::channel(64);
    let sub = state.rooms.subscribe(&ids[0].0, None, None, &tx).await.unwrap();
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(state.rooms.open() >= 1, "followed rooms stay");
    state.rooms.leave(&ids[0].0, sub);
    while rx.try_recv().is_ok() {}
    let rooms = state.rooms.clone();
    wait_until("the room left after its follower", || rooms.open() == 0).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_follower_is_dropped_and_nobody_waits() {
    let (_dir, state) = quick_state(60_000).await;
    let created = state
        .create(serde_json::from_value(json!({"game": "boop", "opponent": "hotseat"})).unwrap())
        .await
        .unwrap();
    let id = created["id"].as_str().unwrap().to_string();
    let token = created["token"].as_str().unwrap().to_string();
    // A follower that never reads, with room for two messages, and one that reads.
    let (slow_tx, mut slow) = mpsc::channel::<Arc<str>>(2);
    state.rooms.subscribe(&id, None, None, &slow_tx).await.unwrap();
    drop(slow_tx);
    let (tx, mut fast) = mpsc::channel(64);
    state.rooms.subscribe(&id, None, None, &tx).await.unwrap();
    for mv in ["Kc3", "Kd4", "Ka1", "Kf6", "Ka6"] {
        state
            .rooms
            .act(&id, Some(token.clone()), Action::Move(MoveSpec::Notation(mv.into())), None)
            .await
            .unwrap();
    }
    // The reader got every event; the slow one was let go (its queue ends).
    let mut events = 0;
    while let Ok(m) = fast.try_recv() {
        if let Ok(ServerMsg::Event(_)) = serde_json::from_str::<ServerMsg>(&m) {
            events += 1;
        }
    }
    assert_eq!(events, 5);
    let mut got = 0;
    while slow.recv().await.is_some() {
        got += 1;
    }
    assert_eq!(got, 2, "only what fitted its queue");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_computer_keeps_its_engine_between_turns() {
    let (_dir, state) = quick_state(60_000).await;
    let created = state
        .create(
            serde_json::from_value(json!({"game": "boop", "opponent": "computer", "level": 7}))
                .unwrap(),
        )
        .await
        .unwrap();
    let id = created["id"].as_str().unwrap().to_string();
    let token = created["token"].as_str().unwrap().to_string();
    let mut kept = Vec::new();
    for turn in 0..3 {
        let view = state.rooms.view(&id, Some(token.clone())).await.unwrap();
        let mv = view.moves[turn * 5].m.clone();
        state
            .rooms
            .act(&id, Some(token.clone()), Action::Move(MoveSpec::Notation(mv)), None)
            .await
            .unwrap();
        let rooms = state.rooms.clone();
        let (id2, token2) = (id.clone(), token.clone());
        let mut replied = false;
        for _ in 0..200 {
            let v = rooms.view(&id2, Some(token2.clone())).await.unwrap();
            if v.view.history.len() == 2 * (turn + 1) {
                replied = true;
                break;
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        assert!(replied, "the computer replied to turn {turn}");
        kept.push(state.rooms.shared().engines.usage());
    }
    // One engine, kept with its table from turn to turn (the same bytes, not a new one each).
    assert!(kept.iter().all(|&(n, bytes)| n == 1 && bytes > 0), "{kept:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_computer_moves_though_its_room_reloads_while_it_thinks() {
    // Each reload stops the computer's search and starts another at the same version; the
    // stopped searches answer late (often "no move", stopped before their first depth). Only
    // the search the room holds may end its thinking: before, a stale "no move" ended the
    // current search and its real move was then dropped, and the computer never moved. (With
    // the old check, which compared versions only, this failed in 6 runs of 6; level 8's
    // searches take about 100 ms, long enough for the reloads to land while they run.)
    let (_dir, state) = quick_state(60_000).await;
    for round in 0..8 {
        let created = state
            .create(
                serde_json::from_value(
                    json!({"game": "zertz", "opponent": "computer", "level": 8, "seat": "P2"}),
                )
                .unwrap(),
            )
            .await
            .unwrap();
        let id = created["id"].as_str().unwrap().to_string();
        for _ in 0..12 {
            state.rooms.reload(&id).await;
            tokio::task::yield_now().await;
        }
        let mut moved = false;
        for _ in 0..400 {
            let v = state.rooms.view(&id, None).await.unwrap();
            if !v.view.history.is_empty() {
                moved = true;
                break;
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        assert!(moved, "round {round}: the computer moved within 10 s of the reloads");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_http_view_keeps_its_legal_moves() {
    let server = Server::fresh().await;
    let (id, t, _) = create(server.addr, json!({"game": "boop", "opponent": "hotseat"})).await;
    let r = post(server.addr, &id, &t, "moves", json!({"move": "Kc3"})).await;
    let v: Value = r.json();
    assert!(v["moves"].as_array().unwrap().iter().any(|m| m["m"] == "Kd4"));
    assert_eq!(v["seats"], json!(["P1", "P2"]));
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_quick_computer_reply_never_waits_behind_long_searches() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("ply.sqlite").display());
    let store = Store::open(Some(&url)).await.unwrap();
    // One core's worth of searches: without two queues, every search would wait its turn.
    let settings = RoomSettings { searches: 1, ..RoomSettings::default() };
    let state = AppState::with(store, settings);
    let computer_first = |level: u8| {
        serde_json::from_value::<ply_server::CreateRequest>(
            json!({"game": "boop", "opponent": "computer", "level": level, "seat": "P2"}),
        )
        .unwrap()
    };
    // Four level-10 games: the computer opens each with a one-second search.
    for _ in 0..4 {
        state.create(computer_first(10)).await.unwrap();
    }
    tokio::time::sleep(Duration::from_millis(100)).await;
    let started = std::time::Instant::now();
    let created = state.create(computer_first(1)).await.unwrap();
    let id = created["id"].as_str().unwrap().to_string();
    loop {
        let view = state.rooms.view(&id, None).await.unwrap();
        if !view.view.history.is_empty() {
            break;
        }
        assert!(started.elapsed() < Duration::from_millis(900), "the level-1 reply waited");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn takebacks_are_limited_per_game_even_across_reloads() {
    let (_dir, state) = quick_state(100).await;
    let created = state
        .create(serde_json::from_value(json!({"game": "boop", "opponent": "hotseat"})).unwrap())
        .await
        .unwrap();
    let id = created["id"].as_str().unwrap().to_string();
    let token = Some(created["token"].as_str().unwrap().to_string());
    let play = Action::Move(MoveSpec::Notation("Kc3".into()));
    for i in 0..ply_server::room::MAX_UNDOS {
        state.rooms.perform(&id, token.clone(), play.clone(), None).await.unwrap();
        state.rooms.perform(&id, token.clone(), Action::Undo, None).await.unwrap();
        if i == 50 {
            // The count is kept in the store: a room made anew knows it.
            let rooms = state.rooms.clone();
            wait_until("the room left memory", || rooms.open() == 0).await;
        }
    }
    state.rooms.perform(&id, token.clone(), play, None).await.unwrap();
    let refused = state.rooms.perform(&id, token, Action::Undo, None).await.unwrap_err();
    assert_eq!((refused.status, refused.reason.code()), (409, "no-undo"));
}
