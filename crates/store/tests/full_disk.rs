//! The store on a disk that fills up (a small tmpfs, or the file size limit when this process
//! may not mount one): no write that failed is reported as stored, no write reported as
//! stored is lost, and the store recovers by itself once the disk has room again.
//!
//! This is the regression test of a real data loss: after a COMMIT failed on a full disk,
//! the writer connection stayed "inside" a transaction that SQLite had already rolled back,
//! and every later write became a savepoint that never committed while `record` said `Ok`.

use ply_store::faults::SmallDisk;
use ply_store::{Change, NewGame, Store, StoreError};

fn new_game() -> NewGame {
    ply_store::testing::hot_seat_boop()
}

/// A move at `version` (ply 0) or its undo, alternating, with a body big enough to fill the
/// disk quickly.
fn change(version: i64, body: &str) -> Change<'_> {
    if version % 2 == 1 {
        Change { version, add: Some((0, "Kc3")), body, ..Change::default() }
    } else {
        Change { version, remove_from: Some(0), body, ..Change::default() }
    }
}

#[tokio::test]
async fn a_full_disk_loses_nothing_that_was_confirmed_and_recovers() {
    // Room for the empty database (every migration's tables) and its WAL; `fill` then takes the
    // rest, whatever the size.
    let disk = SmallDisk::new(4096);
    eprintln!("full disk made by: {}", disk.mechanism());
    let url = format!("sqlite://{}", disk.path().join("ply.sqlite").display());
    let store = Store::open(Some(&url)).await.expect("open on the small disk");
    let game = store.create_game(&new_game()).await.unwrap();
    let body = "x".repeat(3000);

    // Fill the disk, then keep writing: every write either lands or fails.
    disk.fill();
    let mut stored = 0_i64;
    let mut failures = 0;
    let mut after_failure_ok = 0;
    for _ in 0..400 {
        match store.record(&game.id, &change(stored + 1, &body)).await {
            Ok(()) => {
                stored += 1;
                if failures > 0 {
                    after_failure_ok += 1;
                }
            }
            Err(e) => {
                assert!(e.is_unavailable(), "a full disk is the store failing: {e}");
                failures += 1;
            }
        }
        // The game in the database is exactly what was confirmed.
        let row = store.game(&game.id).await.unwrap();
        assert_eq!(row.version, stored, "confirmed {stored}, stored {}", row.version);
        if failures >= 20 {
            break;
        }
    }
    assert!(failures >= 20, "the disk never filled ({stored} writes landed)");
    assert!(store.write_health().await.is_err(), "health reports the failure");
    // Creating a game fails cleanly too.
    let created = store.create_game(&new_game()).await;
    assert!(created.as_ref().is_err_and(StoreError::is_unavailable), "{created:?}");

    // Room again: the store writes without being restarted.
    disk.free();
    assert_eq!(store.write_health().await, Ok(()));
    for _ in 0..10 {
        store.record(&game.id, &change(stored + 1, &body)).await.expect("writes again");
        stored += 1;
    }
    let other = store.create_game(&new_game()).await.expect("games can be created again");

    // A fresh process sees exactly what was confirmed.
    drop(store);
    let store = Store::open(Some(&url)).await.unwrap();
    let (row, moves) = store.load(&game.id).await.unwrap();
    assert_eq!(row.version, stored);
    assert_eq!(moves.len(), usize::from(stored % 2 == 1));
    assert_eq!(store.events_since(&game.id, 0, 10_000).await.unwrap().len() as i64, stored);
    assert!(store.game(&other.id).await.is_ok());
    eprintln!(
        "{stored} writes stored, {failures} refused, {after_failure_ok} stored between refusals"
    );
}
