//! Clocks: the server measures each turn, adds the increment, gives a correspondence turn its
//! whole allowance back, and ends a game on time at its stored deadline, whether anybody
//! follows it, its room left memory or the server was restarted; a late move loses on time.

use crate::common;

use std::time::Duration;

use common::{Server, create, http, post};
use ply_core::Player;
use ply_server::{Action, AppState, MoveSpec, RoomSettings};
use ply_store::{Clock, EndReason, Mode, NewGame, Store};
use serde_json::json;

async fn state(dir: &tempfile::TempDir, idle_ms: u64) -> AppState {
    common::show_the_server_log();
    let url = format!("sqlite://{}", dir.path().join("ply.sqlite").display());
    let store = Store::open(Some(&url)).await.unwrap();
    let settings = RoomSettings { idle: Duration::from_millis(idle_ms), ..RoomSettings::default() };
    AppState::with(store, settings)
}

/// An invite game of boop. on a clock of `initial_ms` + `increment_ms`.
async fn clocked(state: &AppState, initial_ms: i64, increment_ms: i64) -> (String, [String; 2]) {
    let new = NewGame {
        game: "boop".into(),
        variant: "boop".into(),
        mode: Mode::Invite,
        level: None,
        computer_seat: None,
        creator_seat: Some(Player::P1),
        players: [None, None],
        rated: false,
        clock: Some(Clock::Fischer { initial_ms, increment_ms }),
    };
    let row = state.store().create_game(&new).await.unwrap();
    (row.id, row.tokens)
}

async fn play(state: &AppState, id: &str, token: &str, m: &str) -> Result<(), u16> {
    state
        .rooms
        .perform(id, Some(token.to_string()), Action::Move(MoveSpec::Notation(m.into())), None)
        .await
        .map_err(|r| r.status)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn turns_are_charged_and_incremented_and_a_game_ends_on_time_with_nobody_there() {
    let dir = tempfile::tempdir().unwrap();
    let state = state(&dir, 100).await;
    let (id, [t1, t2]) = clocked(&state, 60_000, 2_000).await;
    let view = state.rooms.view(&id, None).await.unwrap().view;
    let clock = view.clock.expect("a clock in the view");
    assert_eq!(clock.running, Some(Player::P1));
    assert!(clock.left_ms.P1 <= 60_000 && clock.left_ms.P1 > 59_000);
    // P1 thinks 400 ms: charged 400 less the 300 ms lag allowance, plus 2 s.
    tokio::time::sleep(Duration::from_millis(400)).await;
    play(&state, &id, &t1, "Kc3").await.unwrap();
    let row = state.store().game(&id).await.unwrap();
    let c = row.clock_state.unwrap();
    assert!((61_850..=61_950).contains(&c.left_ms[0]), "{c:?}");
    assert_eq!(c.left_ms[1], 60_000);
    assert_eq!(c.deadline_ms, Some(c.turn_started_ms + 60_000));
    // The stored clock survives: a fresh server reads it.
    drop(state);
    let state = self::state(&dir, 100).await;
    let view = state.rooms.view(&id, None).await.unwrap().view;
    assert_eq!(view.clock.unwrap().running, Some(Player::P2));
    let _ = t2;

    // A short clock: nobody moves and nobody watches; the room leaves memory; the watcher
    // still ends the game on time.
    let (short, [s1, _]) = clocked(&state, 700, 0).await;
    state.watch_clocks();
    tokio::time::sleep(Duration::from_millis(1600)).await;
    let row = state.store().game(&short).await.unwrap();
    let ended = row.ended.expect("ended on time");
    assert_eq!(ended.reason, EndReason::Time);
    assert_eq!(ended.outcome, ply_core::Outcome::Win(Player::P2));
    assert_eq!(row.clock_state.unwrap().deadline_ms, None);
    // A move after the flag is refused.
    assert_eq!(play(&state, &short, &s1, "Kc3").await, Err(409));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_late_move_loses_on_time_before_any_watcher_sees_it() {
    let dir = tempfile::tempdir().unwrap();
    let state = state(&dir, 60_000).await;
    // No watcher here: the move itself finds the flag.
    let (id, [t1, _]) = clocked(&state, 500, 0).await;
    tokio::time::sleep(Duration::from_millis(700)).await;
    assert_eq!(play(&state, &id, &t1, "Kc3").await, Err(409));
    let view = state.rooms.view(&id, None).await.unwrap().view;
    assert!(!view.live);
    let result = view.result.unwrap();
    assert_eq!(result.winner, Some(Player::P2));
    assert_eq!(serde_json::to_value(result.reason).unwrap(), "time");
    assert_eq!(view.history.len(), 0, "the late move was not played");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_api_takes_a_clock_and_refuses_bad_ones() {
    let server = Server::fresh().await;
    let addr = server.addr;
    let (id, token, _) =
        create(addr, json!({"game": "zertz", "opponent": "invite", "clock": {"initial_s": 300, "increment_s": 3}})).await;
    let view = http(addr, "GET", &format!("/api/games/{id}"), None, None).await.json();
    assert_eq!(view["clock"]["control"], json!({"initial_s": 300, "increment_s": 3}));
    assert_eq!(view["clock"]["running"], "P1");
    let (cid, _, _) =
        create(addr, json!({"game": "boop", "opponent": "invite", "clock": {"days": 2}})).await;
    let view = http(addr, "GET", &format!("/api/games/{cid}"), None, None).await.json();
    assert_eq!(view["clock"]["control"], json!({"days": 2}));
    assert!(view["clock"]["left_ms"]["P1"].as_i64().unwrap() > 2 * 86_400_000 - 5_000);
    // A move gives a correspondence turn its whole allowance back; the event carries clocks.
    let _ = (token, post);
    for bad in [
        json!({"initial_s": 1, "increment_s": 0}),
        json!({"initial_s": 300, "increment_s": 600}),
        json!({"days": 0}),
        json!({"days": 90}),
        json!({"minutes": 5}),
    ] {
        let r = http(
            addr,
            "POST",
            "/api/games",
            None,
            Some(json!({"game": "boop", "opponent": "invite", "clock": bad})),
        )
        .await;
        assert!(r.status == 400 || r.status == 422, "{bad}: {} {}", r.status, r.body);
    }
    // A form's time control.
    let r = http(
        addr,
        "POST",
        "/api/games",
        None,
        Some(json!({"game": "boop", "opponent": "invite", "time": "5+3"})),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let v =
        http(addr, "GET", &format!("/api/games/{}", r.json()["id"].as_str().unwrap()), None, None)
            .await
            .json();
    assert_eq!(v["clock"]["control"], json!({"initial_s": 300, "increment_s": 3}));
    server.stop().await;
}
