//! The game library in the app, over a real socket: games that end here land in the archive
//! (also those that ended while no server ran), the archive page and `/api/archive` search it,
//! `/api/explore` counts transpositions together, and a game read from a record opens in the
//! replay and analysis views with its players' names.

use crate::common;

use std::time::Duration;

use common::{Server, create, http, post};
use ply_core::{Outcome, Player};
use ply_store::{ArchivedGame, EndReason, Mode, NewGame, Store};
use serde_json::{Value, json};

/// Plays `moves` in a new hot-seat boop. game, then P2 resigns (or whoever is to move).
async fn play_and_resign(addr: std::net::SocketAddr, moves: &[&str]) -> String {
    let (id, token, _) = create(addr, json!({"game": "boop", "opponent": "hotseat"})).await;
    for m in moves {
        let r = post(addr, &id, &token, "moves", json!({ "move": m })).await;
        assert_eq!(r.status, 200, "{m}: {}", r.body);
    }
    let r = post(addr, &id, &token, "resign", json!({})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    id
}

/// `/api/archive?query` once it lists `n` games (the archiver works in the background).
async fn archive_listing(addr: std::net::SocketAddr, query: &str, n: usize) -> Value {
    for _ in 0..100 {
        let v = http(addr, "GET", &format!("/api/archive?{query}"), None, None).await.json();
        if v["games"].as_array().is_some_and(|g| g.len() == n) {
            return v;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the archive never listed {n} games for '{query}'");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_that_end_here_are_archived_and_explored_transpositions_together() {
    let server = Server::fresh().await;
    let addr = server.addr;
    // The same position by two move orders, then the same turn from it.
    let a = play_and_resign(addr, &["Ka1", "Kf6", "Kc1", "Kd6"]).await;
    let b = play_and_resign(addr, &["Kc1", "Kf6", "Ka1", "Kd6"]).await;
    let listed = archive_listing(addr, "game=boop", 2).await;
    let ids: Vec<&str> =
        listed["games"].as_array().unwrap().iter().map(|g| g["id"].as_str().unwrap()).collect();
    assert!(ids.contains(&a.as_str()) && ids.contains(&b.as_str()), "{listed}");
    let game = &listed["games"][0];
    assert_eq!(game["source"], "ply");
    assert_eq!(game["turns"], 4);
    assert_eq!(game["reason"], "resigned");
    // P1 is to move after four turns and resigns: P2 won.
    assert_eq!(game["result"], "P2");

    let explored =
        http(addr, "GET", "/api/explore?game=boop&moves=Ka1%20Kf6%20Kc1", None, None).await;
    assert_eq!(explored.status, 200, "{}", explored.body);
    let v = explored.json();
    assert_eq!(
        v["moves"],
        json!([{"move": "Kd6", "games": 2, "p1_wins": 0, "p2_wins": 2, "draws": 0}])
    );
    assert_eq!(
        v["games"].as_array().unwrap().len(),
        1,
        "the latest game of the one turn from here"
    );
    // The same question as a position string, and from the start: two first turns.
    let position = v["position"].as_str().unwrap().to_string();
    let by_string =
        http(addr, "GET", &format!("/api/explore?position={}", urlencode(&position)), None, None)
            .await
            .json();
    assert_eq!(by_string["moves"], v["moves"]);
    let start = http(addr, "GET", "/api/explore?game=boop", None, None).await.json();
    let first: Vec<(&str, i64)> = start["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (m["move"].as_str().unwrap(), m["games"].as_i64().unwrap()))
        .collect();
    assert_eq!(first, [("Ka1", 1), ("Kc1", 1)]);
    // Refusals say what is wrong.
    let r = http(addr, "GET", "/api/explore?position=boop;nonsense", None, None).await;
    assert_eq!(r.status, 400);
    assert!(r.json()["error"].as_str().unwrap().contains("bad position string"), "{}", r.body);
    let r = http(addr, "GET", "/api/explore?game=boop&moves=Zz9", None, None).await;
    assert_eq!(r.status, 400);
    assert!(r.json()["error"].as_str().unwrap().contains("turn 1 'Zz9'"), "{}", r.body);
    let r = http(addr, "GET", "/api/explore", None, None).await;
    assert_eq!(r.status, 400);
    // The explorer's own page: the turn from here links to the position after it, the line
    // back to each earlier one.
    let page = http(addr, "GET", "/explore/boop?moves=Ka1%20Kf6%20Kc1", None, None).await;
    assert_eq!(page.status, 200);
    assert!(page.body.contains("href=\"/explore/boop?variant=boop&amp;moves=Ka1%20Kf6%20Kc1%20Kd6\">Kd6</a></td><td>2</td><td>0%</td><td>0%</td><td>100%</td>"), "{}", page.body);
    assert!(
        page.body.contains("href=\"/explore/boop?variant=boop&amp;moves=Ka1%20Kf6\">Kf6</a>"),
        "{}",
        page.body
    );
    assert!(page.body.contains("<svg"), "the board");
    let bad = http(addr, "GET", "/explore/boop?moves=Zz9", None, None).await;
    assert_eq!(bad.status, 400);
    assert!(bad.body.contains("turn 1 &#39;Zz9&#39;"), "{}", bad.body);
    assert_eq!(http(addr, "GET", "/explore/chess", None, None).await.status, 404);
    server.stop().await;
}

fn urlencode(text: &str) -> String {
    text.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() { char::from(b).to_string() } else { format!("%{b:02X}") }
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_that_ended_while_no_server_ran_is_archived_at_start() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("ply.sqlite").display());
    {
        let store = Store::open(Some(&url)).await.unwrap();
        let new = NewGame {
            game: "zertz".into(),
            variant: "37".into(),
            mode: Mode::Computer,
            level: Some(4),
            computer_seat: Some(Player::P2),
            creator_seat: Some(Player::P1),
            players: [None, None],
            rated: false,
            clock: None,
        };
        let g = store.create_game(&new).await.unwrap();
        store.record(&g.id, &ply_store::testing::resignation(1, Player::P2)).await.unwrap();
        store.flush().await;
    }
    let server = Server::start(&url).await;
    let listed = archive_listing(server.addr, "player=ply%20level%204", 1).await;
    assert_eq!(listed["games"][0]["players"], json!(["P1", "ply level 4"]));
    assert_eq!(listed["games"][0]["result"], "P2");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_read_from_a_record_opens_with_its_names_and_the_archive_page_finds_it() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("ply.sqlite").display());
    {
        let store = Store::open(Some(&url)).await.unwrap();
        let registry = ply_games::registry();
        let mut game = registry.get("boop").unwrap().new_game(None).unwrap();
        for m in ["Ka1", "Kf6", "Kc1"] {
            game.play(m).unwrap();
        }
        let record = ArchivedGame {
            game: "boop".into(),
            variant: "boop".into(),
            names: ["Ada Lovelace".into(), "Grace <Hopper>".into()],
            outcome: Some(Outcome::Win(Player::P1)),
            reason: Some(EndReason::Resigned),
            played_ms: 1_500_000_000_000,
            source: "boardgamearena".into(),
            source_key: "table-42".into(),
            moves: game.history().to_vec(),
            positions: ply_core::position_keys(game.as_ref()),
        };
        store.import_games(&[record]).await.unwrap();
    }
    let server = Server::start(&url).await;
    let addr = server.addr;
    let listed = archive_listing(addr, "player=ada%20lovelace&result=won", 1).await;
    let id = listed["games"][0]["id"].as_str().unwrap().to_string();
    // The game and its analysis board open; the names come from the record.
    let view = http(addr, "GET", &format!("/api/games/{id}"), None, None).await.json();
    assert_eq!(view["mode"], "imported");
    assert_eq!(view["history"].as_array().unwrap().len(), 3);
    assert_eq!(view["players"], json!({"P1": "Ada Lovelace", "P2": "Grace <Hopper>"}));
    assert_eq!(view["result"]["reason"], "resigned");
    for path in [format!("/game/{id}"), format!("/game/{id}/analysis")] {
        let page = http(addr, "GET", &path, None, None).await;
        assert_eq!(page.status, 200, "{path}");
    }
    // The archive page: the search form, the game (names escaped), and links to it.
    let page = http(addr, "GET", "/archive?player=Grace%20%3CHopper%3E", None, None).await;
    assert_eq!(page.status, 200);
    assert!(page.body.contains("id=\"archive-search\""), "{}", page.body);
    assert!(page.body.contains(&format!("href=\"/game/{id}/analysis\"")), "{}", page.body);
    assert!(page.body.contains("Grace &lt;Hopper&gt;"));
    assert!(!page.body.contains("Grace <Hopper>"));
    assert!(page.body.contains("2017-07-14"), "the date it was played");
    let none = http(addr, "GET", "/archive?player=nobody", None, None).await;
    assert!(none.body.contains("id=\"archive-empty\""));
    // A bad search is a clear 400, on the page and in the API.
    let bad = http(addr, "GET", "/archive?from=yesterday", None, None).await;
    assert_eq!(bad.status, 400);
    assert!(bad.body.contains("from must be a date YYYY-MM-DD"));
    let bad = http(addr, "GET", "/api/archive?result=won", None, None).await;
    assert_eq!(bad.status, 400);
    assert!(bad.json()["error"].as_str().unwrap().contains("needs a player"));
    // Lists of games played here leave records out.
    let games = http(addr, "GET", "/api/games", None, None).await.json();
    assert_eq!(games["games"], json!([]));
    server.stop().await;
}
