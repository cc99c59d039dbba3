//! The analysis board of a finished game: the page `/game/{id}/analysis` and its WebSocket
//! `/ws/analysis/{id}` (`docs/http-api.md`). The server analyses, the page draws: the page
//! asks for any position of the game or of a side line (the moves from the start), and gets
//! its picture, its legal moves as a choices trie, and the engine's best line streamed as the
//! search deepens (a new position cancels the search under way); it asks for the review of the
//! whole game and gets every turn's evaluation and mark as it is done (kept in memory for the
//! next reader). Games still being played are not analysed: that would be help from outside.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use ply_core::{AnyGame, Player};
use ply_search::analysis::{self as review, Analysis, Eval, TurnAnalysis};
use ply_search::{Limits, Think};
use serde::{Deserialize, Serialize};
use tokio::sync::mpsc;

use crate::choices::ChoiceIndex;
use crate::protocol::{self, Choices, MotionView};
use crate::{AppState, error, guard};

/// How long the engine looks at a position of the review (the whole game takes this times
/// the number of turns).
const REVIEW_TIME: Duration = Duration::from_millis(250);
/// The longest the engine streams its best line for one position.
const LINE_TIME: Duration = Duration::from_secs(8);
/// The longest side line a page may ask for, in turns past the start.
const MAX_LINE: usize = 2000;
/// Reviews kept in memory (the most recent).
const REVIEWS_KEPT: usize = 64;

/// What the page asks.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(tag = "type", rename_all = "kebab-case", deny_unknown_fields)]
pub enum AnalysisClientMsg {
    /// The position after `line` (turns from the start: the game's own, then a side line's).
    Show { line: Vec<String> },
    /// The position after `line` and the turn made of the clicks `path` there.
    Play { line: Vec<String>, path: Vec<String> },
    /// The continuations of the clicks `prefix` in the position after `line`.
    Choices { line: Vec<String>, prefix: Vec<String> },
    /// The review of the whole game.
    Review,
}

/// What the server sends.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum AnalysisServerMsg {
    /// A position: `serial` counts the positions shown on this connection (the lines that
    /// follow carry it).
    Position {
        serial: u64,
        line: Vec<String>,
        svg: String,
        to_move: Player,
        over: bool,
        last_path: Vec<String>,
        motions: Vec<MotionView>,
        choices: Option<Box<Choices>>,
        /// The position string (the page asks the opening explorer about it).
        position: String,
    },
    /// The continuations asked for.
    Choices {
        line: Vec<String>,
        choices: Box<Choices>,
    },
    /// The engine's view of position `serial` so far: its best line and how it scores for
    /// the player to move there (`expected`: 0 a loss, 100 a win; `white` the same for P1).
    Line {
        serial: u64,
        depth: u32,
        nodes: u64,
        score: String,
        expected: f64,
        p1: f64,
        pv: Vec<String>,
        done: bool,
    },
    /// One turn of the review, as it is done.
    Turn {
        turn: Box<TurnAnalysis>,
        done: usize,
        total: usize,
    },
    /// The whole review.
    Review {
        review: Analysis,
    },
    Error {
        message: String,
    },
}

impl AnalysisServerMsg {
    fn to_json(&self) -> String {
        serde_json::to_string(self).expect("analysis messages serialize")
    }
}

/// Finished reviews as sent (the `review` message), by game id, with a use stamp.
type Reviews = Mutex<(u64, HashMap<String, (u64, Arc<str>)>)>;

fn reviews() -> &'static Reviews {
    static REVIEWS: OnceLock<Reviews> = OnceLock::new();
    REVIEWS.get_or_init(Mutex::default)
}

fn cached_review(id: &str) -> Option<Arc<str>> {
    let map = reviews().lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    map.1.get(id).map(|(_, r)| r.clone())
}

fn keep_review(id: &str, review: Arc<str>) {
    let mut map = reviews().lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    map.0 += 1;
    let stamp = map.0;
    map.1.insert(id.to_string(), (stamp, review));
    while map.1.len() > REVIEWS_KEPT {
        let Some(oldest) = map.1.iter().min_by_key(|(_, (s, _))| *s).map(|(k, _)| k.clone()) else {
            break;
        };
        map.1.remove(&oldest);
    }
}

/// `GET /ws/analysis/{id}`.
pub(crate) async fn ws(
    ws: WebSocketUpgrade,
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Response {
    if !guard::same_origin(&headers) {
        return error(StatusCode::FORBIDDEN, "this WebSocket is for pages of this site only");
    }
    let Ok(permit) = state.connections.clone().try_acquire_owned() else {
        return error(StatusCode::SERVICE_UNAVAILABLE, "too many connections; try again soon");
    };
    let game = match finished_game(&state, &id).await {
        Ok(game) => game,
        Err((status, message)) => return error(status, message),
    };
    ws.max_message_size(protocol::MAX_CLIENT_MESSAGE)
        .max_frame_size(protocol::MAX_CLIENT_MESSAGE)
        .on_upgrade(move |socket| async move {
            session(socket, state, id, game).await;
            drop(permit);
        })
}

/// The game `id` from its start with the turns played, if it is over.
pub(crate) async fn finished_game(
    state: &AppState,
    id: &str,
) -> Result<(Box<dyn AnyGame>, Vec<String>), (StatusCode, String)> {
    let (row, moves) = state
        .store()
        .load(id)
        .await
        .map_err(|_| (StatusCode::NOT_FOUND, format!("no game {id}")))?;
    if row.live() {
        return Err((StatusCode::FORBIDDEN, "a game opens for analysis once it is over".into()));
    }
    let registry = ply_games::registry();
    let entry =
        registry.get(&row.game).map_err(|e| (StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
    let start = entry
        .new_game(Some(&row.variant))
        .map_err(|e| (StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
    Ok((start, moves))
}

/// What the search and review tasks hand back to the connection.
enum Out {
    Text(String),
}

struct Session {
    state: AppState,
    id: String,
    start: Box<dyn AnyGame>,
    moves: Vec<String>,
    serial: u64,
    /// Stops the best-line search under way.
    search: Option<Arc<AtomicBool>>,
    /// Stops the review under way.
    reviewing: Option<Arc<AtomicBool>>,
    out: mpsc::Sender<Out>,
}

async fn session(
    mut socket: WebSocket,
    state: AppState,
    id: String,
    (start, moves): (Box<dyn AnyGame>, Vec<String>),
) {
    let (out, mut rx) = mpsc::channel(64);
    let mut s = Session { state, id, start, moves, serial: 0, search: None, reviewing: None, out };
    loop {
        tokio::select! {
            msg = socket.recv() => {
                let Some(Ok(msg)) = msg else { break };
                let text = match msg {
                    Message::Text(t) => t.to_string(),
                    Message::Close(_) => break,
                    _ => continue,
                };
                let reply = match serde_json::from_str::<AnalysisClientMsg>(&text) {
                    Ok(m) => s.handle(m).await,
                    Err(_) => Some(AnalysisServerMsg::Error { message: "not a message of the analysis board".into() }),
                };
                if let Some(reply) = reply
                    && socket.send(Message::Text(reply.to_json().into())).await.is_err()
                {
                    break;
                }
            }
            Some(Out::Text(text)) = rx.recv() => {
                if socket.send(Message::Text(text.into())).await.is_err() {
                    break;
                }
            }
        }
    }
    s.stop_all();
}

impl Session {
    fn stop_all(&mut self) {
        for flag in [self.search.take(), self.reviewing.take()].into_iter().flatten() {
            flag.store(true, Ordering::Relaxed);
        }
    }

    /// The position after `line`, or why not.
    fn position(&self, line: &[String]) -> Result<(Box<dyn AnyGame>, Vec<String>), String> {
        if line.len() > MAX_LINE {
            return Err(format!("a line of at most {MAX_LINE} turns"));
        }
        let mut game = self.start.box_clone();
        let mut shown = Vec::new();
        for (i, text) in line.iter().enumerate() {
            shown = game.click_path(text).unwrap_or_default();
            game.play(text).map_err(|e| format!("turn {} of the line: {e}", i + 1))?;
        }
        Ok((game, shown))
    }

    async fn handle(&mut self, msg: AnalysisClientMsg) -> Option<AnalysisServerMsg> {
        match msg {
            AnalysisClientMsg::Show { line } => Some(self.show(line)),
            AnalysisClientMsg::Play { mut line, path } => {
                let (game, _) = match self.position(&line) {
                    Ok(p) => p,
                    Err(message) => return Some(AnalysisServerMsg::Error { message }),
                };
                let index = ChoiceIndex::new(game.click_paths());
                let Some(notation) = index.resolve(&path) else {
                    return Some(AnalysisServerMsg::Error { message: "no such turn here".into() });
                };
                line.push(notation.to_string());
                Some(self.show(line))
            }
            AnalysisClientMsg::Choices { line, prefix } => {
                let (game, _) = match self.position(&line) {
                    Ok(p) => p,
                    Err(message) => return Some(AnalysisServerMsg::Error { message }),
                };
                let index = ChoiceIndex::new(game.click_paths());
                match index.encode(self.serial as i64, &prefix) {
                    Some(c) => Some(AnalysisServerMsg::Choices { line, choices: Box::new(c) }),
                    None => Some(AnalysisServerMsg::Error { message: "no turn starts so".into() }),
                }
            }
            AnalysisClientMsg::Review => {
                if let Some(review) = cached_review(&self.id) {
                    let _ = self.out.try_send(Out::Text(review.to_string()));
                    return None;
                }
                if self.reviewing.is_none() {
                    self.review();
                }
                None
            }
        }
    }

    /// Answers with the position after `line` and starts streaming the engine's line there.
    fn show(&mut self, line: Vec<String>) -> AnalysisServerMsg {
        if let Some(flag) = self.search.take() {
            flag.store(true, Ordering::Relaxed);
        }
        let (game, last_path) = match self.position(&line) {
            Ok(p) => p,
            Err(message) => return AnalysisServerMsg::Error { message },
        };
        self.serial += 1;
        let serial = self.serial;
        let canonical = game.history().to_vec();
        let motions = match canonical.split_last() {
            Some((last, before)) => {
                let mut prev = self.start.box_clone();
                for m in before {
                    let _ = prev.play(m);
                }
                prev.motions(last).unwrap_or_default().iter().map(MotionView::from).collect()
            }
            None => Vec::new(),
        };
        let over = game.outcome().is_some();
        let choices = if over {
            None
        } else {
            ChoiceIndex::new(game.click_paths()).encode(serial as i64, &[]).map(Box::new)
        };
        if !over {
            self.stream_line(serial, &*game);
        }
        AnalysisServerMsg::Position {
            serial,
            line: canonical,
            svg: game.svg(),
            to_move: game.to_move(),
            over,
            last_path,
            motions,
            choices,
            position: game.position_string(),
        }
    }

    /// Searches the position with growing budgets, sending the best line after each.
    fn stream_line(&mut self, serial: u64, game: &dyn AnyGame) {
        let Ok(entry) = ply_games::engine(game.name()) else { return };
        let Ok(mut engine) = entry.new_engine(game.variant()) else { return };
        if !engine.set_position(game) {
            return;
        }
        let stop = Arc::new(AtomicBool::new(false));
        self.search = Some(stop.clone());
        let out = self.out.clone();
        let searches = self.state.rooms.shared().think.clone();
        let base = entry.level(10, None);
        let p1_to_move = game.to_move() == Player::P1;
        tokio::spawn(async move {
            let mut budget = Duration::from_millis(200);
            let mut spent = Duration::ZERO;
            while spent < LINE_TIME && !stop.load(Ordering::Relaxed) {
                let think = Think { limits: Limits::time(budget), ..base };
                let Ok(permit) = searches.queue(&think).acquire_owned().await else { return };
                let stop2 = stop.clone();
                let tx = out.clone();
                let last = budget * 2 > LINE_TIME - spent.min(LINE_TIME);
                let result = tokio::task::spawn_blocking(move || {
                    let scale = engine.value_scale();
                    let mut sent = |t: &ply_search::Thought| {
                        if !stop2.load(Ordering::Relaxed) {
                            let text = line_text(serial, scale, t, p1_to_move, false);
                            let _ = tx.try_send(Out::Text(text));
                        }
                    };
                    let thought = engine.think_reporting(&think, &stop2, &mut sent);
                    (engine, thought)
                })
                .await;
                drop(permit);
                let Ok((back, thought)) = result else { return };
                engine = back;
                spent += budget;
                if stop.load(Ordering::Relaxed) {
                    return;
                }
                if let Some(t) = thought {
                    let done = last || t.score.wins_in().is_some() || t.score.loses_in().is_some();
                    let _ = out
                        .send(Out::Text(line_text(
                            serial,
                            engine.value_scale(),
                            &t,
                            p1_to_move,
                            done,
                        )))
                        .await;
                    if done {
                        return;
                    }
                }
                budget *= 2;
            }
        });
    }

    /// Reviews the whole game on the blocking pool, sending each turn as it is done.
    fn review(&mut self) {
        let Ok(entry) = ply_games::engine(self.start.name()) else { return };
        let Ok(mut engine) = entry.new_engine(self.start.variant()) else { return };
        let stop = Arc::new(AtomicBool::new(false));
        self.reviewing = Some(stop.clone());
        let out = self.out.clone();
        let searches = self.state.rooms.shared().think.clone();
        let think = Think { limits: Limits::time(REVIEW_TIME), ..entry.level(10, None) };
        let start = self.start.box_clone();
        let moves = self.moves.clone();
        let id = self.id.clone();
        tokio::spawn(async move {
            let Ok(permit) = searches.queue(&think).acquire_owned().await else { return };
            let tx = out.clone();
            let result = tokio::task::spawn_blocking(move || {
                review::analyse(engine.as_mut(), &*start, &moves, &think, &stop, &mut |p| {
                    if let Some(turn) = p.turn {
                        let msg = AnalysisServerMsg::Turn {
                            turn: Box::new(turn.clone()),
                            done: p.done,
                            total: p.total,
                        };
                        let _ = tx.blocking_send(Out::Text(msg.to_json()));
                    }
                })
            })
            .await;
            drop(permit);
            let msg = match result {
                Ok(Ok(analysis)) => {
                    let complete = analysis.complete;
                    let text: Arc<str> =
                        Arc::from(AnalysisServerMsg::Review { review: analysis }.to_json());
                    if complete {
                        keep_review(&id, text.clone());
                    }
                    let _ = out.send(Out::Text(text.to_string())).await;
                    return;
                }
                Ok(Err(e)) => AnalysisServerMsg::Error { message: e.to_string() },
                Err(_) => AnalysisServerMsg::Error { message: "the review failed".into() },
            };
            let _ = out.send(Out::Text(msg.to_json())).await;
        });
    }
}

/// A `line` message: the thought's score as the expected score of the player to move there,
/// and of P1.
fn line_text(
    serial: u64,
    scale: f32,
    t: &ply_search::Thought,
    p1_to_move: bool,
    done: bool,
) -> String {
    let eval = Eval::of_score(t.score, scale);
    let p1 = if p1_to_move { eval.expected } else { eval.flipped().expected };
    AnalysisServerMsg::Line {
        serial,
        depth: t.depth,
        nodes: t.nodes,
        score: eval.score,
        expected: eval.expected,
        p1,
        pv: t.pv.clone(),
        done,
    }
    .to_json()
}
