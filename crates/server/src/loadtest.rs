//! `ply loadtest`: a bounded load generator on loopback. It starts a server of its own on a
//! temporary SQLite file, opens many invite games with two WebSocket players each, plays
//! them, and measures the time from a move sent by one player to the event arriving at the
//! other player's socket.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;

use crate::{AppState, CreateRequest, app};

/// What to run.
#[derive(Clone, Debug)]
pub struct LoadConfig {
    /// Games played at once.
    pub games: usize,
    /// Turns per game (fewer if a game ends).
    pub moves: usize,
    /// The pause of each player before moving, in milliseconds (a person's thinking time).
    pub pause_ms: u64,
    /// The game to play (the default variant).
    pub game: String,
    /// The database URL; `None`: a SQLite file in a temporary folder.
    pub database: Option<String>,
}

/// What was measured.
#[derive(Clone, Debug)]
pub struct LoadReport {
    pub games: usize,
    /// Move-to-opponent latencies, sorted.
    pub latencies: Vec<Duration>,
    pub errors: usize,
    pub elapsed: Duration,
}

impl LoadReport {
    /// The `q` quantile (0–1) of the latencies.
    #[must_use]
    pub fn quantile(&self, q: f64) -> Duration {
        if self.latencies.is_empty() {
            return Duration::ZERO;
        }
        let i = ((self.latencies.len() - 1) as f64 * q).round() as usize;
        self.latencies[i.min(self.latencies.len() - 1)]
    }
}

type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

async fn next_json(ws: &mut Ws) -> Result<Value, String> {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(30), ws.next())
            .await
            .map_err(|_| "no message within 30 s".to_string())?
            .ok_or("closed")?
            .map_err(|e| e.to_string())?;
        if let Message::Text(t) = msg {
            return serde_json::from_str(&t).map_err(|e| e.to_string());
        }
    }
}

/// Reads until the event of `version` (or a state at it); returns its view.
async fn until_version(ws: &mut Ws, version: i64) -> Result<Value, String> {
    loop {
        let m = next_json(ws).await?;
        match m["type"].as_str() {
            Some("event") if m["version"].as_i64() == Some(version) => return Ok(m["view"].clone()),
            Some("state") if m["view"]["version"].as_i64() >= Some(version) => {
                return Ok(m["view"].clone());
            }
            Some("error") => return Err(m["message"].as_str().unwrap_or("error").to_string()),
            _ => {}
        }
    }
}

async fn connect(addr: std::net::SocketAddr, id: &str, token: &str) -> Result<(Ws, Value), String> {
    let (mut ws, _) =
        tokio_tungstenite::connect_async(format!("ws://{addr}/ws/{id}?token={token}"))
            .await
            .map_err(|e| e.to_string())?;
    ws.send(Message::Text(json!({"type": "hello", "version": null}).to_string().into()))
        .await
        .map_err(|e| e.to_string())?;
    let view = until_version(&mut ws, 0).await?;
    Ok((ws, view))
}

async fn play_one(
    addr: std::net::SocketAddr,
    state: AppState,
    config: Arc<LoadConfig>,
    index: usize,
    setup: Arc<tokio::sync::Semaphore>,
    latencies: Arc<Mutex<Vec<Duration>>>,
) -> Result<(), String> {
    let (mut players, mut view) = {
        let _permit = setup.acquire().await.map_err(|e| e.to_string())?;
        let created = state
            .create(CreateRequest {
                game: config.game.clone(),
                variant: None,
                opponent: "invite".into(),
                level: None,
                seat: Some("P1".into()),
            })
            .await?;
        let id = created["id"].as_str().unwrap_or_default().to_string();
        let t1 = created["token"].as_str().unwrap_or_default().to_string();
        let invite = created["invite_url"].as_str().unwrap_or_default();
        let t2 = invite.rsplit('/').next().unwrap_or_default().to_string();
        let (a, view) = connect(addr, &id, &t1).await?;
        let (b, _) = connect(addr, &id, &t2).await?;
        ([a, b], view)
    };
    let mut rng = 0x9e37_79b9_7f4a_7c15_u64 ^ (index as u64).wrapping_mul(0x2545_f491_4f6c_dd1d);
    // Start at different moments so the games do not move in lock-step.
    tokio::time::sleep(Duration::from_millis(rng % config.pause_ms.max(1))).await;
    for _ in 0..config.moves {
        let moves = view["moves"].as_array().cloned().unwrap_or_default();
        if moves.is_empty() || view["live"] == false {
            break;
        }
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let pick =
            moves[(rng % moves.len() as u64) as usize]["m"].as_str().unwrap_or("").to_string();
        let mover = usize::from(view["to_move"] == "P2");
        let version = view["version"].as_i64().unwrap_or(0);
        let msg = json!({"type": "move", "move": pick, "version": version}).to_string();
        let sent = Instant::now();
        players[mover].send(Message::Text(msg.into())).await.map_err(|e| e.to_string())?;
        let seen = until_version(&mut players[1 - mover], version + 1).await?;
        let latency = sent.elapsed();
        latencies.lock().expect("latencies").push(latency);
        until_version(&mut players[mover], version + 1).await?;
        view = seen;
        let jitter = rng % (config.pause_ms / 2 + 1);
        tokio::time::sleep(Duration::from_millis(config.pause_ms / 2 + jitter)).await;
    }
    for p in &mut players {
        let _ = p.close(None).await;
    }
    Ok(())
}

/// Runs the load test and returns the measurements.
///
/// # Errors
/// When the temporary database or the loopback listener cannot be set up.
pub async fn run(config: LoadConfig) -> Result<LoadReport, String> {
    let dir = std::env::temp_dir().join(format!("ply-loadtest-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let url = config
        .database
        .clone()
        .unwrap_or_else(|| format!("sqlite://{}", dir.join("load.sqlite").display()));
    let store = ply_store::Store::open(Some(&url)).await.map_err(|e| e.to_string())?;
    let cores = std::thread::available_parallelism().map_or(2, usize::from);
    let state = AppState::new(store, cores);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.map_err(|e| e.to_string())?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    let server_state = state.clone();
    let server = tokio::spawn(async move {
        let _ = axum::serve(listener, app(server_state)).await;
    });
    let config = Arc::new(config);
    let latencies = Arc::new(Mutex::new(Vec::new()));
    // Bounds how many games are being set up at once.
    let setup = Arc::new(tokio::sync::Semaphore::new(64));
    let start = Instant::now();
    let mut tasks = Vec::new();
    for i in 0..config.games {
        tasks.push(tokio::spawn(play_one(
            addr,
            state.clone(),
            config.clone(),
            i,
            setup.clone(),
            latencies.clone(),
        )));
    }
    let mut errors = 0;
    for t in tasks {
        match t.await {
            Ok(Ok(())) => {}
            Ok(Err(e)) => {
                errors += 1;
                if errors <= 5 {
                    eprintln!("loadtest: a game failed: {e}");
                }
            }
            Err(e) => {
                errors += 1;
                eprintln!("loadtest: a game panicked: {e}");
            }
        }
    }
    let elapsed = start.elapsed();
    server.abort();
    let _ = std::fs::remove_dir_all(&dir);
    let mut latencies = std::mem::take(&mut *latencies.lock().expect("latencies"));
    latencies.sort_unstable();
    Ok(LoadReport { games: config.games, latencies, errors, elapsed })
}
