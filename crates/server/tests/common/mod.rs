//! Shared by the server's tests: an in-process `ply serve` on a free port, a minimal HTTP
//! client, and WebSocket helpers.
#![allow(dead_code)] // each test module uses its own part

use std::net::SocketAddr;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use ply_server::guard::Limits;
use ply_server::net::NetSettings;
use ply_server::{AppState, RoomSettings, app};
use ply_store::Store;
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;

/// The server's log goes to the test's output, shown when a test fails (`RUST_LOG` chooses
/// what; errors only by default). Every test that starts a server calls it; the first call
/// sets the log up for the whole test binary.
pub fn show_the_server_log() {
    let _ = tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::from_default_env())
        .with_test_writer()
        .try_init();
}

pub struct Server {
    pub addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    task: tokio::task::JoinHandle<()>,
    /// The folder of the database file of [`Server::fresh`].
    _dir: Option<tempfile::TempDir>,
}

impl Server {
    /// A server on a new database file in a temporary folder (a file database: unlike
    /// `sqlite::memory:`, a row that was never committed is not read back as saved).
    pub async fn fresh() -> Server {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let url = format!("sqlite://{}", dir.path().join("ply.sqlite").display());
        let mut server = Server::start(&url).await;
        server._dir = Some(dir);
        server
    }

    /// A server on the database at `database`, without rate limits.
    pub async fn start(database: &str) -> Server {
        Server::start_with(database, Limits::none()).await
    }

    /// A server as `ply serve` runs it (its accept loop, header timeout and connection cap),
    /// with these rate limits.
    pub async fn start_with(database: &str, limits: Limits) -> Server {
        let settings = RoomSettings { searches: 2, limits, ..RoomSettings::default() };
        Server::start_settings(database, settings).await
    }

    /// A server with these settings.
    pub async fn start_settings(database: &str, settings: RoomSettings) -> Server {
        show_the_server_log();
        let store = Store::open(Some(database)).await.expect("store");
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().unwrap();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let state = AppState::with(store, settings);
        let net = NetSettings { header_timeout: Duration::from_secs(2), ..NetSettings::default() };
        let task = tokio::spawn(async move {
            let stopped = async {
                let _ = stopped.await;
            };
            ply_server::net::run(listener, state.clone(), app(state), net, stopped).await.unwrap();
        });
        Server { addr, stop: Some(stop), task, _dir: None }
    }

    pub async fn stop(mut self) {
        let _ = self.stop.take().unwrap().send(());
        let _ = tokio::time::timeout(Duration::from_secs(5), self.task).await;
    }
}

pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Reply {
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("{e}: {}", self.body))
    }
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
}

/// A minimal HTTP/1.1 client: one request per connection.
pub async fn http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    cookie: Option<&str>,
    body: Option<Value>,
) -> Reply {
    let stream = TcpStream::connect(addr).await.unwrap();
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let mut req = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    if let Some(c) = cookie {
        req.push_str(&format!("Cookie: {c}\r\n"));
    }
    if !body.is_empty() {
        req.push_str(&format!(
            "Content-Type: application/json\r\nContent-Length: {}\r\n",
            body.len()
        ));
    }
    req.push_str("\r\n");
    req.push_str(&body);
    exchange(stream, &req).await
}

/// Sends the whole request `req` on `stream` (a connection closed after one answer) and reads
/// the answer: status, headers, and the body (de-chunked).
pub async fn exchange(mut stream: TcpStream, req: &str) -> Reply {
    stream.write_all(req.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).await.unwrap();
    let text = String::from_utf8_lossy(&raw).to_string();
    let (head, rest) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let mut lines = head.lines();
    let status = lines.next().unwrap().split(' ').nth(1).unwrap().parse().unwrap();
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| {
            l.split_once(':').map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        })
        .collect();
    let body = if headers
        .iter()
        .any(|(k, v)| k.eq_ignore_ascii_case("transfer-encoding") && v == "chunked")
    {
        dechunk(rest)
    } else {
        rest.to_string()
    };
    Reply { status, headers, body }
}

pub fn dechunk(mut s: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = s.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 {
            break;
        }
        out.push_str(&rest[..n]);
        s = &rest[n + 2..];
    }
    out
}

pub async fn create(addr: SocketAddr, body: Value) -> (String, String, Value) {
    let r = http(addr, "POST", "/api/games", None, Some(body)).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let v = r.json();
    let id = v["id"].as_str().unwrap().to_string();
    let token = v["token"].as_str().unwrap().to_string();
    assert!(r.header("set-cookie").unwrap().starts_with(&format!("ply_seat_{id}={token}")));
    (id, token, v)
}

/// `POST /api/games` with `body`, whatever the answer.
pub async fn try_create(addr: SocketAddr, body: Value) -> Reply {
    http(addr, "POST", "/api/games", None, Some(body)).await
}

pub fn seat(id: &str, token: &str) -> String {
    format!("ply_seat_{id}={token}")
}

/// `POST /api/games/{id}/{what}` as the holder of `token`.
pub async fn post(addr: SocketAddr, id: &str, token: &str, what: &str, body: Value) -> Reply {
    http(addr, "POST", &format!("/api/games/{id}/{what}"), Some(&seat(id, token)), Some(body)).await
}

pub type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

pub async fn ws(addr: SocketAddr, id: &str, token: Option<&str>) -> Ws {
    let url = match token {
        Some(t) => format!("ws://{addr}/ws/{id}?token={t}"),
        None => format!("ws://{addr}/ws/{id}"),
    };
    tokio_tungstenite::connect_async(url).await.expect("websocket").0
}

pub async fn send(ws: &mut Ws, msg: Value) {
    ws.send(Message::Text(msg.to_string().into())).await.unwrap();
}

/// The next message of one of the given types.
pub async fn next_of(ws: &mut Ws, types: &[&str]) -> Value {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(20), ws.next())
            .await
            .expect("a message within 20 s")
            .expect("open")
            .expect("readable");
        if let Message::Text(t) = msg {
            let v: Value = serde_json::from_str(&t).unwrap();
            if types.contains(&v["type"].as_str().unwrap_or("")) {
                return v;
            }
        }
    }
}
