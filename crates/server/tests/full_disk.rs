//! `ply serve` on a disk that fills up: every action that was confirmed (200) survives a
//! restart, every action that could not be saved is refused with 503 and changes nothing,
//! `/health` says so, and once the disk has room again the server goes on by itself,
//! the computer's unsaved move included. (The regression test of a data loss: after the
//! first failed commit, about a thousand later moves were confirmed and never stored.)

use crate::common;

use std::time::Duration;

use common::{Reply, Server, create, http, post, try_create};
use ply_store::faults::SmallDisk;
use serde_json::{Value, json};

/// The game's view, read as a spectator.
async fn view(server: &Server, id: &str) -> Value {
    http(server.addr, "GET", &format!("/api/games/{id}"), None, None).await.json()
}

fn refused_for_the_store(r: &Reply) -> bool {
    r.status == 503 && r.json()["error"].as_str().is_some_and(|e| e.contains("cannot save"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_disk_never_loses_a_confirmed_action() {
    let disk = SmallDisk::new(2048);
    eprintln!("full disk made by: {}", disk.mechanism());
    let url = format!("sqlite://{}", disk.path().join("ply.sqlite").display());
    let server = Server::start(&url).await;
    let addr = server.addr;

    // Games for each kind of action.
    let (hot, ht, _) = create(addr, json!({"game": "boop", "opponent": "hotseat"})).await;
    let (resign, rt, _) = create(addr, json!({"game": "boop", "opponent": "hotseat"})).await;
    let (invite, it, _) = create(addr, json!({"game": "boop", "opponent": "invite"})).await;
    // Level 10 thinks for a second: time to fill the disk between my move and its reply.
    let (computer, ct, _) =
        create(addr, json!({"game": "boop", "opponent": "computer", "level": 10})).await;
    let health = http(addr, "GET", "/health", None, None).await;
    assert_eq!((health.status, health.json()["status"].as_str()), (200, Some("ok")));

    let r = post(addr, &computer, &ct, "moves", json!({"move": "Kc3"})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    disk.fill();

    // Moves and undos, alternating, until the store has refused several in a row.
    let mut confirmed = 0;
    let mut refused_in_a_row = 0;
    let mut refused = 0;
    for _ in 0..2000 {
        // A move, or the undo of the move that landed last.
        let r = if confirmed % 2 == 0 {
            post(addr, &hot, &ht, "moves", json!({"move": "Kc3"})).await
        } else {
            post(addr, &hot, &ht, "undo", json!({})).await
        };
        if r.status == 200 {
            confirmed += 1;
            refused_in_a_row = 0;
        } else {
            assert!(refused_for_the_store(&r), "{} {}", r.status, r.body);
            refused += 1;
            refused_in_a_row += 1;
            // The refused action changed nothing.
            assert_eq!(view(&server, &hot).await["version"], confirmed);
            if refused_in_a_row == 5 {
                break;
            }
        }
    }
    assert_eq!(refused_in_a_row, 5, "the disk never filled ({confirmed} actions confirmed)");
    let health = http(addr, "GET", "/health", None, None).await;
    assert_eq!(health.status, 503, "{}", health.body);
    assert!(health.json()["store"].as_str().unwrap().contains("cannot write"), "{}", health.body);

    // Every other kind of action is refused the same way and changes nothing.
    let r = try_create(addr, json!({"game": "boop", "opponent": "hotseat"})).await;
    assert!(refused_for_the_store(&r), "create: {} {}", r.status, r.body);
    let r = post(addr, &resign, &rt, "resign", json!({})).await;
    assert!(refused_for_the_store(&r), "resign: {} {}", r.status, r.body);
    assert_eq!(view(&server, &resign).await["live"], true);
    let r = post(addr, &invite, &it, "draw", json!({"action": "offer"})).await;
    assert!(refused_for_the_store(&r), "draw: {} {}", r.status, r.body);
    assert_eq!(view(&server, &invite).await["draw_offer"], Value::Null);
    // The computer found its reply but cannot store it: it keeps it and waits.
    tokio::time::sleep(Duration::from_millis(2500)).await;
    let v = view(&server, &computer).await;
    assert_eq!(v["history"].as_array().unwrap().len(), 1, "{v}");
    assert_eq!(v["thinking"], true);

    // Room again: everything works without a restart, and the computer's move lands.
    disk.free();
    let health = http(addr, "GET", "/health", None, None).await;
    assert_eq!(health.status, 200, "{}", health.body);
    let mut landed = false;
    for _ in 0..100 {
        if view(&server, &computer).await["history"].as_array().unwrap().len() == 2 {
            landed = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(landed, "the computer's move was stored once the disk had room");
    let version = view(&server, &hot).await["version"].as_i64().unwrap();
    let next = if version % 2 == 0 { "moves" } else { "undo" };
    let r = post(addr, &hot, &ht, next, json!({"move": "Kc3"})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    confirmed += 1;
    let r = post(addr, &resign, &rt, "resign", json!({})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let (fresh, _, _) = create(addr, json!({"game": "boop", "opponent": "hotseat"})).await;
    server.stop().await;

    // After a restart, exactly what was confirmed is there.
    let server = Server::start(&url).await;
    let v = view(&server, &hot).await;
    assert_eq!(v["version"], confirmed, "{refused} refused");
    assert_eq!(view(&server, &resign).await["result"]["reason"], "resigned");
    assert_eq!(view(&server, &invite).await["version"], 0);
    assert_eq!(view(&server, &computer).await["history"].as_array().unwrap().len(), 2);
    assert_eq!(view(&server, &fresh).await["version"], 0);
    eprintln!("{confirmed} actions confirmed and kept, {refused} refused");
    server.stop().await;
}
