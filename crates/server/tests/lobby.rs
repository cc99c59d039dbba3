//! The lobby: a seek is listed while its creator holds it, is accepted exactly once, makes a
//! game with both players, the clock and the rating setting, and sends its creator into the
//! game; one's own seek is not accepted; a cancelled seek is gone.

use crate::common;

use common::{Server, http, next_of};
use serde_json::{Value, json};

/// The `ply_player` cookie a response set, as a request's Cookie header.
fn player_cookie(r: &common::Reply) -> String {
    r.headers
        .iter()
        .filter(|(k, _)| k.eq_ignore_ascii_case("set-cookie"))
        .map(|(_, v)| v.split(';').next().unwrap().to_string())
        .find(|c| c.starts_with("ply_player="))
        .expect("a player cookie")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seek_is_listed_accepted_once_and_both_players_are_sent_into_the_game() {
    let server = Server::fresh().await;
    let addr = server.addr;
    let seek = json!({"game": "boop", "time": "5+3", "rated": true, "colour": "P1"});
    let made = http(addr, "POST", "/api/seeks", None, Some(seek)).await;
    assert_eq!(made.status, 201, "{}", made.body);
    let alice = player_cookie(&made);
    let body = made.json();
    let (id, token) =
        (body["id"].as_str().unwrap().to_string(), body["token"].as_str().unwrap().to_string());
    let list = http(addr, "GET", "/api/seeks", None, None).await.json();
    let listed = &list["seeks"][0];
    assert_eq!(listed["id"], json!(id));
    assert_eq!(listed["clock"], json!({"initial_s": 300, "increment_s": 3}));
    assert_eq!(listed["rated"], true);
    assert!(listed.get("token").is_none(), "the token is the creator's only");
    // The creator holds the seek through the lobby socket.
    let (mut lobby, _) =
        tokio_tungstenite::connect_async(format!("ws://{addr}/ws/lobby?seek={id}&token={token}"))
            .await
            .unwrap();
    assert_eq!(next_of(&mut lobby, &["seeks"]).await["seeks"].as_array().unwrap().len(), 1);
    // One's own seek is not accepted.
    let own =
        http(addr, "POST", &format!("/api/seeks/{id}/accept"), Some(&alice), Some(json!({}))).await;
    assert_eq!(own.status, 409, "{}", own.body);
    // Bob accepts: a game with both seats, the clock, rated; a second accept finds it gone.
    let taken = http(addr, "POST", &format!("/api/seeks/{id}/accept"), None, Some(json!({}))).await;
    assert_eq!(taken.status, 201, "{}", taken.body);
    let t: Value = taken.json();
    assert_eq!(t["seat"], "P2", "the creator asked for P1");
    let game = t["id"].as_str().unwrap().to_string();
    let again = http(addr, "POST", &format!("/api/seeks/{id}/accept"), None, Some(json!({}))).await;
    assert_eq!(again.status, 410, "{}", again.body);
    let view = http(addr, "GET", &format!("/api/games/{game}"), None, None).await.json();
    assert_eq!(view["clock"]["control"], json!({"initial_s": 300, "increment_s": 3}));
    assert_eq!(view["mode"], "invite");
    // The creator's page hears where to go: the join link of seat P1.
    let started = next_of(&mut lobby, &["started"]).await;
    let url = started["url"].as_str().unwrap();
    assert!(url.starts_with(&format!("/join/{game}/")), "{url}");
    let joined = http(addr, "GET", url, Some(&alice), None).await;
    assert_eq!(joined.status, 303, "{}", joined.body);
    // Gone from the list.
    let list = http(addr, "GET", "/api/seeks", None, None).await.json();
    assert_eq!(list["seeks"], json!([]));
    // A cancelled seek is gone; a wrong token cancels nothing.
    let made =
        http(addr, "POST", "/api/seeks", Some(&alice), Some(json!({"game": "zertz"}))).await.json();
    let (id2, token2) = (made["id"].as_str().unwrap(), made["token"].as_str().unwrap());
    let wrong =
        http(addr, "DELETE", &format!("/api/seeks/{id2}"), None, Some(json!({"token": "nope"})))
            .await;
    assert_eq!(wrong.status, 409);
    let ok =
        http(addr, "DELETE", &format!("/api/seeks/{id2}"), None, Some(json!({"token": token2})))
            .await;
    assert_eq!(ok.status, 200, "{}", ok.body);
    assert_eq!(http(addr, "GET", "/api/seeks", None, None).await.json()["seeks"], json!([]));
    // Bad seeks get a clear 400.
    for bad in [
        json!({"game": "chess"}),
        json!({"game": "boop", "time": "5+600"}),
        json!({"game": "boop", "colour": "green"}),
    ] {
        let r = http(addr, "POST", "/api/seeks", Some(&alice), Some(bad.clone())).await;
        assert_eq!(r.status, 400, "{bad}: {}", r.body);
    }
    server.stop().await;
}
