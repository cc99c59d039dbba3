//! Players, accounts and Glicko-2 ratings, on every database the store speaks (SQLite, and
//! PostgreSQL when `PLY_TEST_POSTGRES_URL` names a server).

use ply_core::{Outcome, Player};
use ply_store::testing::{TestDb, databases};
use ply_store::{Change, EndReason, Ended, Mode, NewGame, Rating, Store};

async fn open(db: &TestDb) -> Store {
    Store::open(Some(&db.url)).await.unwrap_or_else(|e| panic!("{}: {e}", db.label))
}

fn close(a: f64, b: f64, within: f64) -> bool {
    (a - b).abs() <= within
}

/// The worked example of Glickman's "Example of the Glicko-2 system": a player rated 1500
/// (deviation 200, volatility 0.06) beats a 1400/30 player and loses to 1550/100 and 1700/300
/// in one rating period; τ = 0.5. The paper's answer: 1464.06, 151.52, 0.05999.
#[test]
fn the_glicko2_papers_worked_example() {
    let player = Rating { rating: 1500.0, deviation: 200.0, volatility: 0.06, games: 0 };
    let opponent = |rating, deviation| Rating { rating, deviation, volatility: 0.06, games: 0 };
    let after = player.after(&[
        (opponent(1400.0, 30.0), 1.0),
        (opponent(1550.0, 100.0), 0.0),
        (opponent(1700.0, 300.0), 0.0),
    ]);
    assert!(close(after.rating, 1464.06, 0.01), "{after:?}");
    assert!(close(after.deviation, 151.52, 0.01), "{after:?}");
    assert!(close(after.volatility, 0.05999, 0.00001), "{after:?}");
    assert_eq!(after.games, 3);
    // A new player starts at 1500/350/0.06, provisional.
    let new = Rating::default();
    assert_eq!((new.rating, new.deviation, new.volatility, new.games), (1500.0, 350.0, 0.06, 0));
    assert!(new.provisional());
}

fn game_between(players: [Option<String>; 2], rated: bool) -> NewGame {
    NewGame {
        game: "boop".into(),
        variant: "boop".into(),
        mode: Mode::Invite,
        level: None,
        computer_seat: None,
        creator_seat: Some(Player::P1),
        players,
        rated,
        clock: None,
    }
}

async fn finish(store: &Store, id: &str, outcome: Outcome) {
    let change = Change {
        version: 1,
        body: "{}",
        finish: Some(Ended { outcome, reason: EndReason::Resigned }),
        ..Change::default()
    };
    store.record(id, &change).await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_games_result_changes_both_ratings_once() {
    for db in databases().await {
        let label = db.label;
        let store = open(&db).await;
        let a = store.create_player("Teal Otter 37").await.unwrap();
        let b = store.create_player("Amber Fox 12").await.unwrap();
        let c = store.create_player("Quiet Heron 90").await.unwrap();
        let pair = [Some(a.id.clone()), Some(b.id.clone())];

        // Live, unrated, one-player and self games change nothing.
        let live = store.create_game(&game_between(pair.clone(), true)).await.unwrap();
        assert_eq!(store.rate_game(&live.id).await.unwrap(), None, "{label}");
        let unrated = store.create_game(&game_between(pair.clone(), false)).await.unwrap();
        finish(&store, &unrated.id, Outcome::Win(Player::P1)).await;
        assert_eq!(store.rate_game(&unrated.id).await.unwrap(), None, "{label}");
        let alone =
            store.create_game(&game_between([Some(a.id.clone()), None], true)).await.unwrap();
        finish(&store, &alone.id, Outcome::Win(Player::P1)).await;
        assert_eq!(store.rate_game(&alone.id).await.unwrap(), None, "{label}");
        let selfish = store
            .create_game(&game_between([Some(a.id.clone()), Some(a.id.clone())], true))
            .await
            .unwrap();
        finish(&store, &selfish.id, Outcome::Win(Player::P1)).await;
        assert_eq!(store.rate_game(&selfish.id).await.unwrap(), None, "{label}");
        assert!(store.ratings_of(&a.id).await.unwrap().is_empty(), "{label}");

        // A rated win of P1: both move as Glicko-2 says, once, however often it is applied.
        let g = store.create_game(&game_between(pair.clone(), true)).await.unwrap();
        finish(&store, &g.id, Outcome::Win(Player::P1)).await;
        let (r1, r2) = store.rate_game(&g.id).await.unwrap().expect("rated");
        let start = Rating::default();
        assert_eq!(r1, start.after(&[(start, 1.0)]), "{label}");
        assert_eq!(r2, start.after(&[(start, 0.0)]), "{label}");
        assert!(r1.rating > 1600.0 && r2.rating < 1400.0, "{label}: {r1:?} {r2:?}");
        assert_eq!((r1.games, r2.games), (1, 1));
        let (again, at_once) = tokio::join!(store.rate_game(&g.id), store.rate_game(&g.id));
        assert_eq!(again.unwrap(), None, "{label}");
        assert_eq!(at_once.unwrap(), None, "{label}");
        assert_eq!(store.ratings_of(&a.id).await.unwrap(), vec![("boop".to_string(), r1)]);
        assert_eq!(store.ratings_of(&b.id).await.unwrap(), vec![("boop".to_string(), r2)]);

        // A draw with a new player starts from the stored rating, and scores a half.
        let d = store
            .create_game(&game_between([Some(c.id.clone()), Some(a.id.clone())], true))
            .await
            .unwrap();
        finish(&store, &d.id, Outcome::Draw).await;
        let (c1, a2) = store.rate_game(&d.id).await.unwrap().expect("rated");
        assert_eq!(c1, start.after(&[(r1, 0.5)]), "{label}");
        assert_eq!(a2, r1.after(&[(start, 0.5)]), "{label}");
        assert!(a2.rating < r1.rating && c1.rating > 1500.0, "{label}");
        assert_eq!(a2.games, 2);

        // The history, the leaderboard and the lists that show ratings beside names.
        let history = store.rating_history(&a.id, "boop").await.unwrap();
        assert_eq!(history.len(), 2, "{label}");
        assert_eq!(history[0].game_id, g.id);
        assert_eq!(history[1].game_id, d.id);
        assert!(close(history[1].rating, a2.rating, 1e-9));
        let board = store.leaderboard("boop", 50).await.unwrap();
        let order: Vec<&str> = board.iter().map(|l| l.player.as_str()).collect();
        assert_eq!(order, [a.id.as_str(), c.id.as_str(), b.id.as_str()], "{label}");
        assert_eq!(board[0].name, "Teal Otter 37");
        assert!(store.leaderboard("gipf", 50).await.unwrap().is_empty());
        let ids = vec![a.id.clone(), b.id.clone(), "nobody".to_string()];
        let ratings = store.ratings_in("boop", &ids).await.unwrap();
        assert_eq!(ratings.len(), 2);
        assert_eq!(ratings[&b.id], r2);
        let names = store.player_names(&ids).await.unwrap();
        assert_eq!(names.len(), 2);
        assert_eq!(names[&b.id], "Amber Fox 12");
        let games = store.games_of_player(&a.id, 10).await.unwrap();
        assert_eq!(games.len(), 6, "{label}: every game with a in a seat");
        assert!(
            games.iter().any(|x| x.id == d.id && x.players[1].as_deref() == Some(a.id.as_str()))
        );
        assert!(store.games_of_player(&b.id, 10).await.unwrap().iter().all(|g| g.id != d.id));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_accounts_and_settings() {
    for db in databases().await {
        let label = db.label;
        let store = open(&db).await;
        let p = store.create_player("Teal Otter 37").await.unwrap();
        assert_eq!(p.id.len(), 16);
        assert_eq!(store.player(&p.id).await.unwrap(), Some(p.clone()), "{label}");
        assert_eq!(store.player("0123456789abcdef").await.unwrap(), None);
        assert!(store.rename_player(&p.id, "Ада").await.unwrap());
        assert!(!store.rename_player("0123456789abcdef", "x").await.unwrap());
        assert_eq!(store.player(&p.id).await.unwrap().unwrap().name, "Ада");

        // An account: a login name is unique, and a player becomes an account once.
        assert!(store.register_account(&p.id, "ada", "$hash1").await.unwrap(), "{label}");
        assert!(!store.register_account(&p.id, "ada2", "$hash2").await.unwrap(), "{label}");
        let q = store.create_player("Other").await.unwrap();
        assert!(!store.register_account(&q.id, "ada", "$hash3").await.unwrap(), "{label}");
        let (found, hash) = store.account("ada").await.unwrap().expect("an account");
        assert_eq!(
            (found.id.as_str(), found.account.as_deref(), hash.as_str()),
            (p.id.as_str(), Some("ada"), "$hash1")
        );
        assert_eq!(store.account("nobody").await.unwrap(), None);

        // A setting is made once; a second store on the same database reads the same.
        let first = store.setting_or_insert("secret", || "one".into()).await.unwrap();
        assert_eq!(first, "one");
        assert_eq!(store.setting_or_insert("secret", || "two".into()).await.unwrap(), "one");
        let other = open(&db).await;
        assert_eq!(other.setting_or_insert("secret", || "three".into()).await.unwrap(), "one");
    }
}
