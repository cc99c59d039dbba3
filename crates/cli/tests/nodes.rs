//! Two `ply serve` processes on one PostgreSQL database, as behind a load balancer: players
//! on different nodes see each other's moves as events; racing moves land once; the computer
//! moves once; a node stopped with SIGTERM tells its players to reconnect and a node killed
//! with SIGKILL loses no committed move, its players going on on the other node.
//!
//! Runs when `PLY_TEST_POSTGRES_URL` names a PostgreSQL server (`scripts/postgres`;
//! `scripts/test-all` starts one, so CI runs it); otherwise it says so and does nothing.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use sqlx::Connection as _;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;

type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

struct Node {
    child: Child,
    addr: String,
}

impl Node {
    fn start(database: &str) -> Node {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ply"))
            .args(["serve", "--addr", "127.0.0.1:0", "--database", database])
            .args(["--create-limit", "0", "--act-limit", "0", "--strong-limit", "0"])
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("ply serve starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        let addr = line.trim().strip_prefix("listening on http://").expect(&line).to_string();
        Node { child, addr }
    }

    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    fn terminate(&mut self) {
        let _ = Command::new("kill").args(["-TERM", &self.child.id().to_string()]).status();
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        self.kill();
    }
}

async fn http(
    addr: &str,
    method: &str,
    path: &str,
    token: Option<(&str, &str)>,
    body: Option<Value>,
) -> (u16, Value) {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let mut req = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    if let Some((id, t)) = token {
        req.push_str(&format!("Cookie: ply_seat_{id}={t}\r\n"));
    }
    if !body.is_empty() {
        req.push_str(&format!(
            "Content-Type: application/json\r\nContent-Length: {}\r\n",
            body.len()
        ));
    }
    req.push_str("\r\n");
    req.push_str(&body);
    stream.write_all(req.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).await.unwrap();
    let text = String::from_utf8_lossy(&raw).to_string();
    let (head, rest) = text.split_once("\r\n\r\n").unwrap();
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    // Bodies here are small and not chunked in practice; read JSON where it starts.
    let json = rest.find('{').map_or(Value::Null, |i| {
        let end = rest.rfind('}').unwrap_or(rest.len() - 1);
        serde_json::from_str(&rest[i..=end]).unwrap_or(Value::Null)
    });
    (status, json)
}

async fn ws(addr: &str, id: &str, token: Option<&str>, version: Option<i64>) -> Ws {
    let url = match token {
        Some(t) => format!("ws://{addr}/ws/{id}?token={t}"),
        None => format!("ws://{addr}/ws/{id}"),
    };
    let (mut c, _) = tokio_tungstenite::connect_async(url).await.expect("websocket");
    send(&mut c, json!({"type": "hello", "version": version})).await;
    c
}

async fn send(c: &mut Ws, msg: Value) {
    c.send(Message::Text(msg.to_string().into())).await.unwrap();
}

/// The next message of one of `types`; `None` when the connection closes.
async fn next_of(c: &mut Ws, types: &[&str]) -> Option<Value> {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(20), c.next())
            .await
            .expect("a message in 20 s");
        match msg {
            Some(Ok(Message::Text(t))) => {
                let v: Value = serde_json::from_str(&t).unwrap();
                if types.contains(&v["type"].as_str().unwrap_or("")) {
                    return Some(v);
                }
            }
            Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return None,
            Some(Ok(_)) => {}
        }
    }
}

/// Waits for the event of `version` on `c` and returns it.
async fn event(c: &mut Ws, version: i64) -> Value {
    loop {
        let e = next_of(c, &["event", "state"]).await.expect("open");
        let v = e["version"].as_i64().or(e["view"]["version"].as_i64()).unwrap();
        if v >= version {
            return e;
        }
    }
}

async fn legal(addr: &str, id: &str, token: &str) -> (Vec<String>, i64) {
    let (_, view) = http(addr, "GET", &format!("/api/games/{id}"), Some((id, token)), None).await;
    let moves = view["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["m"].as_str().unwrap().to_string())
        .collect();
    (moves, view["version"].as_i64().unwrap())
}

/// Once `addr` has caught up with `version`: the token (of two, P1's then P2's) whose seat
/// moves, and its legal moves.
async fn turn_of<'t>(
    addr: &str,
    id: &str,
    tokens: [&'t String; 2],
    version: i64,
) -> (&'t String, Vec<String>) {
    for _ in 0..500 {
        let (_, view) = http(addr, "GET", &format!("/api/games/{id}"), None, None).await;
        if view["version"].as_i64() == Some(version) {
            let token = if view["to_move"] == "P1" { tokens[0] } else { tokens[1] };
            let moves = view["moves"].as_array().unwrap();
            return (token, moves.iter().map(|m| m["m"].as_str().unwrap().to_string()).collect());
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("{addr} never reached version {version}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_nodes_on_one_postgresql() {
    let Some(db) = ply_store::testing::postgres().await else {
        eprintln!("PLY_TEST_POSTGRES_URL is not set: the two-node test did not run");
        return;
    };
    let mut a = Node::start(&db.url);
    let mut b = Node::start(&db.url);

    // An invite game: P1 on node A, P2 and a spectator on node B.
    let (status, created) = http(
        &a.addr,
        "POST",
        "/api/games",
        None,
        Some(json!({"game": "gipf", "opponent": "invite"})),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let t1 = created["token"].as_str().unwrap().to_string();
    let t2 = created["invite_url"].as_str().unwrap().rsplit('/').next().unwrap().to_string();
    let mut p1 = ws(&a.addr, &id, Some(&t1), None).await;
    let mut p2 = ws(&b.addr, &id, Some(&t2), None).await;
    let mut watcher = ws(&b.addr, &id, None, None).await;
    for c in [&mut p1, &mut p2, &mut watcher] {
        next_of(c, &["state"]).await.unwrap();
    }
    // Moves alternating between the nodes reach the players and the spectator on the other.
    let mut version = 0;
    for turn in 0..8 {
        let (node, token, mover) =
            if turn % 2 == 0 { (&a.addr, &t1, &mut p1) } else { (&b.addr, &t2, &mut p2) };
        let (moves, v) = legal(node, &id, token).await;
        assert_eq!(v, version, "both nodes agree on the version");
        send(
            mover,
            json!({"type": "move", "move": moves[turn * 3 % moves.len()], "version": version}),
        )
        .await;
        version += 1;
        for c in [&mut p1, &mut p2, &mut watcher] {
            let e = event(c, version).await;
            assert_eq!(
                e["type"], "event",
                "a follower on another node gets the event, not a state"
            );
            assert!(e["board"]["patch"].is_array(), "{e}");
        }
    }

    // Racing moves on the two nodes: exactly one lands, the other is refused; both agree.
    let (moves, _) = legal(&a.addr, &id, &t1).await;
    let path = format!("/api/games/{id}/moves");
    let (ra, rb) = tokio::join!(
        http(
            &a.addr,
            "POST",
            &path,
            Some((&id, &t1)),
            Some(json!({"move": moves[0], "version": version}))
        ),
        http(
            &b.addr,
            "POST",
            &path,
            Some((&id, &t1)),
            Some(json!({"move": moves[1], "version": version}))
        ),
    );
    let mut statuses = [ra.0, rb.0];
    statuses.sort_unstable();
    assert_eq!(statuses, [200, 409], "{ra:?} {rb:?}");
    version += 1;
    let (_, va) = http(&a.addr, "GET", &format!("/api/games/{id}"), None, None).await;
    let (_, vb) = http(&b.addr, "GET", &format!("/api/games/{id}"), None, None).await;
    assert_eq!((va["version"].as_i64(), vb["version"].as_i64()), (Some(version), Some(version)));
    assert_eq!(va["history"], vb["history"]);

    // The nodes' listening connections are cut: a move made meanwhile still reaches the
    // followers on the other node, exactly once and in order (read from the store).
    let admin = std::env::var("PLY_TEST_POSTGRES_URL").unwrap();
    let mut pg = sqlx::PgConnection::connect(&admin).await.unwrap();
    let cut: Vec<(bool,)> = sqlx::query_as(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query ILIKE 'LISTEN%'",
    )
    .fetch_all(&mut pg)
    .await
    .unwrap();
    assert!(cut.len() >= 2, "both nodes listen ({} connections cut)", cut.len());
    let (token, moves) = turn_of(&a.addr, &id, [&t1, &t2], version).await;
    let (status, _) = http(
        &a.addr,
        "POST",
        &format!("/api/games/{id}/moves"),
        Some((&id, token)),
        Some(json!({"move": moves[0], "version": version})),
    )
    .await;
    assert_eq!(status, 200);
    version += 1;
    let e = event(&mut watcher, version).await;
    assert_eq!((e["type"].as_str(), e["version"].as_i64()), (Some("event"), Some(version)));

    // The computer moves exactly once, with the game followed on both nodes.
    let (_, c) = http(
        &a.addr,
        "POST",
        "/api/games",
        None,
        Some(json!({"game": "boop", "opponent": "computer", "level": 3})),
    )
    .await;
    let cid = c["id"].as_str().unwrap().to_string();
    let ct = c["token"].as_str().unwrap().to_string();
    let mut human = ws(&a.addr, &cid, Some(&ct), None).await;
    let mut other = ws(&b.addr, &cid, None, None).await;
    next_of(&mut human, &["state"]).await.unwrap();
    next_of(&mut other, &["state"]).await.unwrap();
    for turn in 0..3 {
        // Node A may learn of the computer's last reply from node B a moment later.
        let v = 2 * i64::try_from(turn).unwrap();
        let (_, moves) = turn_of(&a.addr, &cid, [&ct, &ct], v).await;
        send(
            &mut human,
            json!({"type": "move", "move": moves[turn * 7 % moves.len()], "version": v}),
        )
        .await;
        let reply = event(&mut other, v + 2).await;
        assert_eq!(
            (reply["version"].as_i64(), reply["player"].as_str()),
            (Some(v + 2), Some("P2"))
        );
    }
    let (_, view) = http(&b.addr, "GET", &format!("/api/games/{cid}"), None, None).await;
    assert_eq!(view["version"], 6, "three moves and three replies, no reply twice: {view}");
    assert_eq!(view["history"].as_array().unwrap().len(), 6);

    // SIGTERM: node B's clients are told to reconnect; they do, on node A, and go on.
    b.terminate();
    let mut told = false;
    for _ in 0..20 {
        match tokio::time::timeout(Duration::from_secs(10), p2.next()).await {
            Ok(Some(Ok(Message::Close(Some(frame))))) => {
                told = u16::from(frame.code) == 1012;
                break;
            }
            Ok(None | Some(Err(_))) | Err(_) => break,
            Ok(Some(Ok(_))) => {}
        }
    }
    assert!(told, "a draining node tells its players to reconnect (1012)");
    let mut p2 = ws(&a.addr, &id, Some(&t2), Some(version)).await;
    next_of(&mut p2, &["welcome"]).await.unwrap();
    let mut b = Node::start(&db.url);

    // SIGKILL in the middle of the game: moves confirmed through node B stay.
    let mut p2b = ws(&b.addr, &id, Some(&t2), None).await;
    next_of(&mut p2b, &["state"]).await.unwrap();
    let mut confirmed = Vec::new();
    for i in 0..4 {
        let node = if i % 2 == 0 { &a.addr } else { &b.addr };
        let (token, moves) = turn_of(node, &id, [&t1, &t2], version).await;
        let mv = moves[(i * 5 + 1) % moves.len()].clone();
        let (status, view) = http(
            node,
            "POST",
            &format!("/api/games/{id}/moves"),
            Some((&id, token)),
            Some(json!({"move": mv, "version": version})),
        )
        .await;
        assert_eq!(status, 200, "{view}");
        confirmed = view["history"].as_array().unwrap().clone();
        version += 1;
    }
    b.kill();
    drop(p2b);
    // Node A hears of node B's last move (it was committed before it was confirmed).
    let (token, moves) = turn_of(&a.addr, &id, [&t1, &t2], version).await;
    let (_, view) = http(&a.addr, "GET", &format!("/api/games/{id}"), None, None).await;
    assert_eq!(view["history"].as_array().unwrap(), &confirmed, "every confirmed move is there");
    // The player from node B goes on through node A.
    let (status, _) = http(
        &a.addr,
        "POST",
        &format!("/api/games/{id}/moves"),
        Some((&id, token)),
        Some(json!({"move": moves[0], "version": version})),
    )
    .await;
    assert_eq!(status, 200);
    a.kill();
}
