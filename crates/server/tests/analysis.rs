//! The analysis board's WebSocket: only finished games; any position of the game or of a
//! side line with its picture, choices and the engine's deepening lines; a turn clicked on the
//! board starts a side line and leaves the game as it was; the review streams every turn and
//! is kept for the next reader; bad messages get an error and change nothing.

use crate::common;

use common::{Server, create, http, next_of, post, send};
use serde_json::json;

async fn analysis_ws(addr: std::net::SocketAddr, id: &str) -> common::Ws {
    tokio_tungstenite::connect_async(format!("ws://{addr}/ws/analysis/{id}"))
        .await
        .expect("websocket")
        .0
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_game_is_analysed_position_by_position_and_as_a_whole() {
    let server = Server::fresh().await;
    let addr = server.addr;
    let (id, token, _) = create(addr, json!({"game": "boop", "opponent": "hotseat"})).await;
    // While the game is played, no analysis: neither the page nor the socket.
    assert_eq!(http(addr, "GET", &format!("/game/{id}/analysis"), None, None).await.status, 403);
    assert!(
        tokio_tungstenite::connect_async(format!("ws://{addr}/ws/analysis/{id}")).await.is_err()
    );
    let turns = ["Kc3", "Kd4", "Ka1", "Kf6"];
    for m in turns {
        assert_eq!(post(addr, &id, &token, "moves", json!({"move": m})).await.status, 200);
    }
    assert_eq!(post(addr, &id, &token, "resign", json!({})).await.status, 200);
    assert_eq!(http(addr, "GET", &format!("/game/{id}/analysis"), None, None).await.status, 200);

    let mut a = analysis_ws(addr, &id).await;
    // The position after two turns: its picture and choices, then deepening lines for it.
    send(&mut a, json!({"type": "show", "line": ["Kc3", "Kd4"]})).await;
    let p = next_of(&mut a, &["position"]).await;
    assert_eq!(p["line"], json!(["Kc3", "Kd4"]));
    assert_eq!(p["to_move"], "P1");
    assert!(p["svg"].as_str().unwrap().starts_with("<svg"));
    assert!(p["choices"]["tree"].as_str().unwrap().len() > 5);
    let serial = p["serial"].clone();
    let line = next_of(&mut a, &["line"]).await;
    assert_eq!(line["serial"], serial);
    assert!(line["depth"].as_u64().unwrap() >= 1);
    assert!(!line["pv"].as_array().unwrap().is_empty());
    let e = line["expected"].as_f64().unwrap();
    assert!((0.0..=100.0).contains(&e));
    assert!((line["p1"].as_f64().unwrap() - e).abs() < 0.01, "P1 is to move: {line}");
    // A turn clicked on the board: the side line goes on, the game does not change.
    let path = json!(["pool-p1-kitten", "e5"]);
    send(&mut a, json!({"type": "play", "line": ["Kc3", "Kd4"], "path": path})).await;
    let side = next_of(&mut a, &["position", "error"]).await;
    assert_eq!(side["type"], "position", "{side}");
    assert_eq!(side["line"], json!(["Kc3", "Kd4", "Ke5"]));
    assert_eq!(side["last_path"], path);
    assert!(side["serial"].as_u64() > serial.as_u64());
    let view = http(addr, "GET", &format!("/api/games/{id}"), None, None).await.json();
    assert_eq!(view["history"], json!(turns));
    // Bad requests: an error each, and the connection goes on.
    for bad in [
        json!({"type": "show", "line": ["Kc3", "Kc3"]}),
        json!({"type": "play", "line": [], "path": ["nowhere"]}),
        json!({"type": "choices", "line": [], "prefix": ["nowhere"]}),
        json!({"type": "dance"}),
    ] {
        send(&mut a, bad.clone()).await;
        assert_eq!(next_of(&mut a, &["error", "position"]).await["type"], "error", "{bad}");
    }
    // The review: a message per turn, then the whole, with a summary per player.
    send(&mut a, json!({"type": "review"})).await;
    let mut seen = 0;
    let review = loop {
        let m = next_of(&mut a, &["turn", "review"]).await;
        if m["type"] == "review" {
            break m;
        }
        seen += 1;
        assert_eq!(m["total"], 5);
    };
    assert_eq!(seen, turns.len());
    let r = &review["review"];
    assert_eq!(r["complete"], true);
    assert_eq!(r["turns"].as_array().unwrap().len(), turns.len());
    assert_eq!(r["summary"].as_array().unwrap().len(), 2);
    for t in r["turns"].as_array().unwrap() {
        assert!(t["best"].as_str().is_some_and(|b| !b.is_empty()), "{t}");
    }
    // Another reader gets the same review at once, without a search.
    let mut b = analysis_ws(addr, &id).await;
    send(&mut b, json!({"type": "review"})).await;
    let again = next_of(&mut b, &["review", "turn"]).await;
    assert_eq!(again["type"], "review");
    assert_eq!(again["review"], review["review"]);
    server.stop().await;
}
