//! `ply loadtest`: a bounded load generator on loopback, and the memory of idle rooms.
//!
//! [`run`] starts a server of its own on a temporary SQLite file, opens many invite games
//! with two WebSocket players and spectators each, plays them the way the page does (a move
//! is a click path picked from the choices trie, continuations asked for where it was cut),
//! and measures the time from a move sent by one player to the event arriving at the other
//! player's socket. [`memory`] creates many games, plays a few moves in each, and reports the
//! resident memory before, at the peak and after the idle rooms have left.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use ply_core::Player;
use serde_json::json;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;

use crate::choices::{Decoded, decode};
use crate::protocol::{Choices, ClientMsg, ServerMsg};
use crate::{Action, AppState, CreateRequest, MoveSpec, RoomSettings, app};

/// What to run.
#[derive(Clone, Debug)]
pub struct LoadConfig {
    /// Games played at once.
    pub games: usize,
    /// Turns per game (fewer if a game ends).
    pub moves: usize,
    /// The pause of each player before moving, in milliseconds (a person's thinking time).
    pub pause_ms: u64,
    /// Spectators following each game.
    pub spectators: usize,
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
    /// From the first move to the last.
    pub elapsed: Duration,
    /// Events the spectators received, and their bytes.
    pub spectator_events: usize,
    pub spectator_bytes: usize,
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

/// The few fields the load generator reads of most messages (parsing whole events with their
/// patches would load the machine with the generator's own work).
#[derive(serde::Deserialize)]
struct Peek {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    version: Option<i64>,
    #[serde(default)]
    to_move: Option<Player>,
    #[serde(default)]
    live: Option<bool>,
    #[serde(default)]
    message: Option<String>,
}

/// The next text message, within a minute.
async fn next_text(ws: &mut Ws) -> Result<String, String> {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(60), ws.next())
            .await
            .map_err(|_| "no message within 60 s".to_string())?
            .ok_or("closed")?
            .map_err(|e| e.to_string())?;
        if let Message::Text(t) = msg {
            return Ok(t.to_string());
        }
    }
}

/// The next message, peeked at; choices and states are read whole.
async fn next_peek(ws: &mut Ws) -> Result<(Peek, String), String> {
    let text = next_text(ws).await?;
    let peek = serde_json::from_str(&text).map_err(|e| format!("{e}: {text}"))?;
    Ok((peek, text))
}

async fn next_msg(ws: &mut Ws) -> Result<(ServerMsg, usize), String> {
    let text = next_text(ws).await?;
    let parsed = serde_json::from_str(&text).map_err(|e| format!("{e}: {text}"))?;
    Ok((parsed, text.len()))
}

async fn send(ws: &mut Ws, msg: &ClientMsg) -> Result<(), String> {
    let text = serde_json::to_string(msg).map_err(|e| e.to_string())?;
    ws.send(Message::Text(text.into())).await.map_err(|e| e.to_string())
}

/// A player's connection and what it knows.
struct Seat {
    ws: Ws,
    /// The choices of the current version, when this seat is to move.
    choices: Option<Choices>,
    version: i64,
    to_move: Player,
    live: bool,
}

impl Seat {
    async fn connect(
        addr: std::net::SocketAddr,
        id: &str,
        token: Option<&str>,
    ) -> Result<Ws, String> {
        let url = match token {
            Some(t) => format!("ws://{addr}/ws/{id}?token={t}"),
            None => format!("ws://{addr}/ws/{id}"),
        };
        let config = tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default()
            .read_buffer_size(16 * 1024);
        let (mut ws, _) = tokio_tungstenite::connect_async_with_config(url, Some(config), false)
            .await
            .map_err(|e| e.to_string())?;
        send(
            &mut ws,
            &ClientMsg::Hello { protocol: Some(crate::protocol::PROTOCOL), version: None },
        )
        .await?;
        Ok(ws)
    }

    /// Takes one message in: the state, an event, the choices, or an error.
    fn take(&mut self, peek: &Peek, text: &str) -> Result<(), String> {
        match peek.kind.as_str() {
            "state" => {
                let Ok(ServerMsg::State { view }) = serde_json::from_str(text) else {
                    return Err(format!("not a state: {text}"));
                };
                self.version = view.version;
                self.to_move = view.to_move;
                self.live = view.live;
            }
            "event" => {
                self.version = peek.version.unwrap_or(self.version);
                self.to_move = peek.to_move.unwrap_or(self.to_move);
                self.live = peek.live.unwrap_or(self.live);
                self.choices = None;
            }
            "choices" => {
                if let Ok(ServerMsg::Choices(c)) = serde_json::from_str(text)
                    && c.prefix.is_empty()
                {
                    self.choices = Some(*c);
                }
            }
            "error" => return Err(peek.message.clone().unwrap_or_default()),
            _ => {}
        }
        Ok(())
    }

    /// Reads until the state (after hello) or the event of `version`; keeps the choices.
    async fn until(&mut self, version: i64) -> Result<(), String> {
        while self.version < version {
            let (peek, text) = next_peek(&mut self.ws).await?;
            self.take(&peek, &text)?;
        }
        Ok(())
    }

    /// Waits for this version's choices.
    async fn choices(&mut self) -> Result<Choices, String> {
        loop {
            if let Some(c) = self.choices.take().filter(|c| c.version == self.version) {
                return Ok(c);
            }
            let (peek, text) = next_peek(&mut self.ws).await?;
            self.take(&peek, &text)?;
        }
    }

    /// Picks a move as a person clicks: item after item, asking for cut continuations.
    async fn pick(&mut self, root: &Choices, rng: &mut u64) -> Result<Vec<String>, String> {
        let mut nodes: Vec<Decoded> = decode(root)?;
        let mut prefix: Vec<String> = Vec::new();
        loop {
            let here_complete = nodes.iter().any(|n| n.path == prefix && n.complete);
            let next: Vec<&Decoded> = nodes
                .iter()
                .filter(|n| n.path.len() == prefix.len() + 1 && n.path.starts_with(&prefix))
                .collect();
            if here_complete && (next.is_empty() || xorshift(rng).is_multiple_of(3)) {
                return Ok(prefix);
            }
            let chosen =
                next.get((xorshift(rng) % next.len().max(1) as u64) as usize).ok_or("no move")?;
            let (path, cut, complete) = (chosen.path.clone(), chosen.cut, chosen.complete);
            prefix = path;
            let children =
                nodes.iter().any(|n| n.path.len() > prefix.len() && n.path.starts_with(&prefix));
            if cut {
                send(
                    &mut self.ws,
                    &ClientMsg::Choices { version: root.version, prefix: prefix.clone() },
                )
                .await?;
                let sub = loop {
                    match next_msg(&mut self.ws).await?.0 {
                        ServerMsg::Choices(c) if c.prefix == prefix => break c,
                        ServerMsg::Error { message, .. } => return Err(message),
                        _ => {}
                    }
                };
                nodes.retain(|n| n.path != prefix);
                nodes.extend(decode(&sub)?);
            } else if complete && !children {
                return Ok(prefix);
            }
        }
    }
}

fn xorshift(s: &mut u64) -> u64 {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    *s
}

#[derive(Default)]
struct Tally {
    latencies: Vec<Duration>,
    spectator_events: usize,
    spectator_bytes: usize,
    first_move: Option<Instant>,
    last_move: Option<Instant>,
}

/// Opens one game: creates it, connects its two players and its spectators (who read all
/// they get, counting it).
async fn set_up(
    addr: std::net::SocketAddr,
    state: &AppState,
    config: &LoadConfig,
    setup: &tokio::sync::Semaphore,
    tally: &Arc<Mutex<Tally>>,
) -> Result<(Vec<Seat>, Vec<tokio::task::JoinHandle<Result<(), String>>>), String> {
    let _permit = setup.acquire().await.map_err(|e| e.to_string())?;
    let created = state
        .create(CreateRequest {
            game: config.game.clone(),
            variant: None,
            opponent: "invite".into(),
            level: None,
            seat: Some("P1".into()),
            clock: None,
            time: None,
        })
        .await?;
    let id = created["id"].as_str().unwrap_or_default().to_string();
    let t1 = created["token"].as_str().unwrap_or_default().to_string();
    let invite = created["invite_url"].as_str().unwrap_or_default();
    let t2 = invite.rsplit('/').next().unwrap_or_default().to_string();
    let mut seats = Vec::new();
    for token in [&t1, &t2] {
        let ws = Seat::connect(addr, &id, Some(token)).await?;
        let mut seat = Seat { ws, choices: None, version: -1, to_move: Player::P1, live: true };
        seat.until(0).await?;
        seats.push(seat);
    }
    let mut spectators = Vec::new();
    for _ in 0..config.spectators {
        let mut ws = Seat::connect(addr, &id, None).await?;
        next_msg(&mut ws).await?; // welcome
        next_msg(&mut ws).await?; // state
        let tally = tally.clone();
        // A spectator reads everything as it comes, as a page does.
        spectators.push(tokio::spawn(async move {
            let mut version = 0;
            while let Ok((peek, text)) = next_peek(&mut ws).await {
                if peek.kind == "event" {
                    let v = peek.version.unwrap_or(-1);
                    if v != version + 1 {
                        return Err(format!("a spectator got event {v} after {version}"));
                    }
                    version = v;
                    let mut t = tally.lock().expect("tally");
                    t.spectator_events += 1;
                    t.spectator_bytes += text.len();
                }
            }
            Ok(())
        }));
    }
    Ok((seats, spectators))
}

async fn play_one(
    addr: std::net::SocketAddr,
    state: AppState,
    config: Arc<LoadConfig>,
    index: usize,
    setup: Arc<tokio::sync::Semaphore>,
    all_set: Arc<tokio::sync::Barrier>,
    tally: Arc<Mutex<Tally>>,
) -> Result<(), String> {
    let ready = set_up(addr, &state, &config, &setup, &tally).await;
    // Every game is set up (its players and spectators connected) before any is played, so
    // the latencies are those of a steady load, not of 3,000 connections being opened.
    all_set.wait().await;
    let (mut seats, spectators) = ready?;

    let mut rng =
        0x9e37_79b9_7f4a_7c15_u64 ^ (index as u64 + 1).wrapping_mul(0x2545_f491_4f6c_dd1d);
    // Start at different moments so the games do not move in lock-step.
    tokio::time::sleep(Duration::from_millis(xorshift(&mut rng) % config.pause_ms.max(1))).await;
    for _ in 0..config.moves {
        if !seats[0].live {
            break;
        }
        let mover = seats[0].to_move.index();
        let choices = seats[mover].choices().await?;
        let path = seats[mover].pick(&choices, &mut rng).await?;
        let version = seats[mover].version;
        let msg = ClientMsg::Move { notation: None, path: Some(path), version: Some(version) };
        let sent = Instant::now();
        send(&mut seats[mover].ws, &msg).await?;
        seats[1 - mover].until(version + 1).await?;
        let latency = sent.elapsed();
        {
            let mut t = tally.lock().expect("tally");
            t.latencies.push(latency);
            t.first_move.get_or_insert(sent);
            t.last_move = Some(Instant::now());
        }
        seats[mover].until(version + 1).await?;
        let pause = config.pause_ms / 2 + xorshift(&mut rng) % (config.pause_ms / 2 + 1);
        tokio::time::sleep(Duration::from_millis(pause)).await;
    }
    for seat in &mut seats {
        let _ = seat.ws.close(None).await;
    }
    // The spectators have seen every event: they end when the room closes their sockets or
    // after a short wait.
    for s in spectators {
        if let Ok(Ok(Err(e))) = tokio::time::timeout(Duration::from_millis(200), s).await {
            return Err(e);
        }
    }
    Ok(())
}

fn temp_database(
    config_db: Option<&String>,
    tag: &str,
) -> Result<(std::path::PathBuf, String), String> {
    let dir = std::env::temp_dir().join(format!("ply-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let url = config_db
        .cloned()
        .unwrap_or_else(|| format!("sqlite://{}", dir.join("load.sqlite").display()));
    Ok((dir, url))
}

/// Runs the load test and returns the measurements.
///
/// # Errors
/// When the temporary database or the loopback listener cannot be set up.
pub async fn run(config: LoadConfig) -> Result<LoadReport, String> {
    let (dir, url) = temp_database(config.database.as_ref(), "loadtest")?;
    let store = ply_store::Store::open(Some(&url)).await.map_err(|e| e.to_string())?;
    // The server as `ply serve` runs it (header timeouts, connection cap), without rate
    // limits: all the players come from one address.
    let net = crate::net::NetSettings::for_this_process();
    let settings = RoomSettings {
        limits: crate::guard::Limits::none(),
        max_connections: net.max_connections,
        ..RoomSettings::default()
    };
    let state = AppState::with(store, settings);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.map_err(|e| e.to_string())?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    let server_state = state.clone();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(async move {
        let stopped = async {
            let _ = stopped.await;
        };
        let _ =
            crate::net::run(listener, server_state.clone(), app(server_state), net, stopped).await;
    });
    let config = Arc::new(config);
    let tally = Arc::new(Mutex::new(Tally::default()));
    // Bounds how many games are being set up at once.
    let setup = Arc::new(tokio::sync::Semaphore::new(64));
    let all_set = Arc::new(tokio::sync::Barrier::new(config.games));
    let mut tasks = Vec::new();
    for i in 0..config.games {
        tasks.push(tokio::spawn(play_one(
            addr,
            state.clone(),
            config.clone(),
            i,
            setup.clone(),
            all_set.clone(),
            tally.clone(),
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
    let _ = stop.send(());
    let _ = tokio::time::timeout(Duration::from_secs(15), server).await;
    let _ = std::fs::remove_dir_all(&dir);
    let mut t = std::mem::take(&mut *tally.lock().expect("tally"));
    t.latencies.sort_unstable();
    let elapsed = match (t.first_move, t.last_move) {
        (Some(a), Some(b)) => b - a,
        _ => Duration::ZERO,
    };
    Ok(LoadReport {
        games: config.games,
        latencies: t.latencies,
        errors,
        elapsed,
        spectator_events: t.spectator_events,
        spectator_bytes: t.spectator_bytes,
    })
}

/// What [`memory`] runs.
#[derive(Clone, Debug)]
pub struct MemoryConfig {
    /// Games to create.
    pub games: usize,
    /// Turns to play in each.
    pub moves: usize,
    pub game: String,
    /// How long a room stays in memory without a request.
    pub idle: Duration,
    pub database: Option<String>,
}

/// What [`memory`] measured: resident memory in bytes, and rooms in memory.
#[derive(Clone, Debug)]
pub struct MemoryReport {
    pub games: usize,
    pub rss_before: u64,
    pub rss_peak: u64,
    pub rss_after: u64,
    pub rooms_peak: usize,
    pub rooms_after: usize,
    pub setup: Duration,
    pub evicted_after: Duration,
}

/// The resident memory of this process (Linux: `VmRSS` of `/proc/self/status`), in bytes.
#[must_use]
pub fn resident_bytes() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmRSS:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        })
        .map_or(0, |kb| kb * 1024)
}

/// Creates `games` games, plays `moves` turns in each through the rooms (as the HTTP API
/// does), and waits for the idle rooms to leave memory, measuring the resident memory.
///
/// # Errors
/// When the database cannot be set up or a game fails.
pub async fn memory(config: MemoryConfig) -> Result<MemoryReport, String> {
    let (dir, url) = temp_database(config.database.as_ref(), "memory")?;
    let store = ply_store::Store::open(Some(&url)).await.map_err(|e| e.to_string())?;
    let settings = RoomSettings {
        idle: config.idle,
        limits: crate::guard::Limits::none(),
        ..RoomSettings::default()
    };
    let state = AppState::with(store, settings);
    let rss_before = resident_bytes();
    let start = Instant::now();
    let mut rss_peak = rss_before;
    let mut rooms_peak = 0;
    let mut rng = 0x2545_f491_4f6c_dd1d_u64;
    let entry = *ply_games::registry().get(&config.game).map_err(|e| e.to_string())?;
    for i in 0..config.games {
        let created = state
            .create(
                serde_json::from_value(json!({"game": config.game, "opponent": "hotseat"}))
                    .map_err(|e| e.to_string())?,
            )
            .await?;
        let id = created["id"].as_str().unwrap_or_default().to_string();
        let token = created["token"].as_str().map(str::to_string);
        // The moves are picked on a copy of the game, as a client would.
        let mut game = entry.new_game(None).map_err(|e| e.to_string())?;
        for _ in 0..config.moves {
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            let pick = moves[(xorshift(&mut rng) % moves.len() as u64) as usize].clone();
            game.play(&pick).map_err(|e| e.to_string())?;
            state
                .rooms
                .perform(&id, token.clone(), Action::Move(MoveSpec::Notation(pick)), None)
                .await
                .map_err(|r| r.message(crate::i18n::Lang::En))?;
        }
        if i % 1000 == 999 {
            rss_peak = rss_peak.max(resident_bytes());
            rooms_peak = rooms_peak.max(state.rooms.open());
        }
    }
    rss_peak = rss_peak.max(resident_bytes());
    rooms_peak = rooms_peak.max(state.rooms.open());
    let setup = start.elapsed();
    let waiting = Instant::now();
    while state.rooms.open() > 0 && waiting.elapsed() < config.idle * 4 + Duration::from_secs(30) {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let evicted_after = waiting.elapsed();
    // Let freed memory settle.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let report = MemoryReport {
        games: config.games,
        rss_before,
        rss_peak,
        rss_after: resident_bytes(),
        rooms_peak,
        rooms_after: state.rooms.open(),
        setup,
        evicted_after,
    };
    let _ = std::fs::remove_dir_all(&dir);
    Ok(report)
}
