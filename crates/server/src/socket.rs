//! One WebSocket per open game page (`GET /ws/{id}`): the handshake's checks, then a task
//! that forwards what the game's room sends and answers what the client sends
//! (`docs/http-api.md`, protocol 2).

use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use tokio::sync::{mpsc, oneshot};

use crate::protocol::{self, ClientMsg, ServerMsg};
use crate::{
    Action, AppState, MoveSpec, Peer, Reason, Rejection, Rooms, TokenQuery, error, guard, i18n,
    room, token_of,
};

/// `GET /ws/{id}`: upgrades to a WebSocket for a page of this site, within the connection cap.
pub(crate) async fn ws(
    ws: WebSocketUpgrade,
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Peer(addr): Peer,
    Query(q): Query<TokenQuery>,
) -> Response {
    // A page of another site must not act with this site's seat cookie.
    if !guard::same_origin(&headers) {
        return error(StatusCode::FORBIDDEN, "this WebSocket is for pages of this site only");
    }
    // A WebSocket holds a connection permit for its whole life.
    let Ok(permit) = state.connections.clone().try_acquire_owned() else {
        return error(StatusCode::SERVICE_UNAVAILABLE, "too many connections; try again soon");
    };
    let token = token_of(&headers, &id, q.token);
    let lang = i18n::lang_of_request(&headers);
    let (rooms, limits, stopping) =
        (state.rooms.clone(), state.limits.clone(), state.stopping.clone());
    // Clients send small messages: a small read buffer (the default is 128 KiB, zeroed per
    // connection) saves memory and time with thousands of connections.
    ws.max_message_size(protocol::MAX_CLIENT_MESSAGE)
        .max_frame_size(protocol::MAX_CLIENT_MESSAGE)
        .read_buffer_size(4096)
        .on_upgrade(move |socket| async move {
            let c = Connection {
                socket,
                rooms,
                id,
                token,
                lang,
                queue: None,
                subscribed: None,
                addr,
                limits,
            };
            client(c, stopping).await;
            drop(permit);
        })
}

/// How long a message to a client may take to go out before the connection is dropped.
const SEND_TIMEOUT: Duration = Duration::from_secs(10);

/// One WebSocket connection: reads the client's messages, and forwards what its room sends.
struct Connection {
    socket: WebSocket,
    rooms: Rooms,
    id: String,
    token: Option<String>,
    lang: i18n::Lang,
    /// The room's messages for this connection, once it said `hello`.
    queue: Option<mpsc::Receiver<Arc<str>>>,
    subscribed: Option<room::Subscribed>,
    /// The client's address, for its rate limits.
    addr: Option<std::net::IpAddr>,
    limits: guard::RateLimits,
}

impl Connection {
    async fn send_text(&mut self, text: &str) -> bool {
        let msg = Message::Text(text.into());
        matches!(tokio::time::timeout(SEND_TIMEOUT, self.socket.send(msg)).await, Ok(Ok(())))
    }

    async fn send(&mut self, msg: &ServerMsg) -> bool {
        self.send_text(&msg.to_json()).await
    }

    async fn refuse(&mut self, r: &Rejection) -> bool {
        let msg = ServerMsg::Error {
            status: r.status,
            code: r.reason.code().to_string(),
            message: r.message(self.lang),
        };
        self.send(&msg).await
    }

    fn leave(&mut self) {
        if let Some(sub) = self.subscribed.take() {
            self.rooms.leave(&self.id, sub);
        }
        self.queue = None;
    }

    /// Handles one message; `false` when the connection must end.
    async fn handle(
        &mut self,
        msg: ClientMsg,
        hint: &mut Option<oneshot::Receiver<Result<ServerMsg, Rejection>>>,
    ) -> bool {
        let token = self.token.clone();
        let id = self.id.clone();
        if !matches!(msg, ClientMsg::Hello { .. } | ClientMsg::Ping)
            && let Err(wait) = self.limits.check(guard::Kind::Act, self.addr)
        {
            let r = Rejection::new(429, Reason::TooMany(wait.as_secs() + 1));
            return self.refuse(&r).await;
        }
        let acted = match msg {
            ClientMsg::Hello { protocol, version } => {
                if protocol.is_some_and(|p| p != protocol::PROTOCOL) {
                    let r = Rejection::new(
                        400,
                        Reason::BadMessage(format!(
                            "this server speaks protocol {}, not {}",
                            protocol::PROTOCOL,
                            protocol.unwrap_or_default()
                        )),
                    );
                    return self.refuse(&r).await;
                }
                self.leave();
                let (tx, rx) = mpsc::channel(room::FOLLOWER_QUEUE);
                match self.rooms.subscribe(&id, token, version, &tx).await {
                    Ok(sub) => {
                        self.subscribed = Some(sub);
                        self.queue = Some(rx);
                        return true;
                    }
                    Err(r) => Err(r),
                }
            }
            ClientMsg::Move { notation, path, version } => {
                let spec = match (notation, path) {
                    (Some(m), None) => MoveSpec::Notation(m),
                    (None, Some(p)) => MoveSpec::Path(p),
                    _ => {
                        let r = Rejection::new(
                            400,
                            Reason::BadMessage("a move has either \"move\" or \"path\"".into()),
                        );
                        return self.refuse(&r).await;
                    }
                };
                self.rooms.perform(&id, token, Action::Move(spec), version).await
            }
            ClientMsg::Undo { version } => {
                self.rooms.perform(&id, token, Action::Undo, version).await
            }
            ClientMsg::Resign { version } => {
                self.rooms.perform(&id, token, Action::Resign, version).await
            }
            ClientMsg::Draw { action, version } => {
                self.rooms.perform(&id, token, Action::Draw(action), version).await
            }
            ClientMsg::Choices { version, prefix } => {
                match self.rooms.choices(&id, token, version, prefix).await {
                    Ok(text) => return self.send_text(&text).await,
                    Err(r) => Err(r),
                }
            }
            ClientMsg::Rematch { action } => {
                self.rooms.perform(&id, token, Action::Rematch(action), None).await
            }
            ClientMsg::Preview { version, prefix } => {
                match self.rooms.preview(&id, token, version, prefix).await {
                    Ok(text) => return self.send_text(&text).await,
                    Err(r) => Err(r),
                }
            }
            ClientMsg::Hint => {
                // The search takes a while: the answer comes when it comes.
                let (tx, rx) = oneshot::channel();
                let rooms = self.rooms.clone();
                tokio::spawn(async move {
                    let _ = tx.send(rooms.hint(&id, token).await);
                });
                *hint = Some(rx);
                Ok(())
            }
            ClientMsg::Ping => return self.send(&ServerMsg::Pong).await,
        };
        match acted {
            Ok(()) => true,
            Err(r) => self.refuse(&r).await,
        }
    }
}

async fn next_queued(queue: &mut Option<mpsc::Receiver<Arc<str>>>) -> Option<Arc<str>> {
    match queue {
        Some(q) => q.recv().await,
        None => std::future::pending().await,
    }
}

async fn hint_ready(
    hint: &mut Option<oneshot::Receiver<Result<ServerMsg, Rejection>>>,
) -> Result<ServerMsg, Rejection> {
    match hint {
        Some(rx) => {
            let answer = rx.await.unwrap_or_else(|_| Err(Rejection::new(503, Reason::Gone)));
            *hint = None;
            answer
        }
        None => std::future::pending().await,
    }
}

/// One WebSocket: waits for `hello`, then forwards the room's messages and answers the
/// client's. A message that is not one of the protocol's gets an `error` and changes nothing.
/// When the server stops, the client is told to reconnect (close code 1012, "service
/// restart"); a ping every 30 s finds connections whose other end has gone.
async fn client(mut c: Connection, mut stopping: tokio::sync::watch::Receiver<bool>) {
    let mut ping = tokio::time::interval(Duration::from_secs(30));
    ping.tick().await;
    let mut hint = None;
    loop {
        tokio::select! {
            incoming = c.socket.recv() => {
                let text = match incoming {
                    Some(Ok(Message::Text(t))) => t,
                    Some(Ok(Message::Binary(_))) => {
                        let r = Rejection::new(400, Reason::BadMessage("messages are JSON text".into()));
                        if !c.refuse(&r).await { break; }
                        continue;
                    }
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                    Some(Err(e)) => {
                        // Too big, or not WebSocket at all: say so (if the socket still takes
                        // it) and end the connection.
                        let r = Rejection::new(400, Reason::BadMessage(e.to_string()));
                        let _ = c.refuse(&r).await;
                        let _ = c.socket.send(Message::Close(Some(CloseFrame {
                            code: 1009,
                            reason: "message too big or malformed".into(),
                        }))).await;
                        break;
                    }
                    Some(Ok(Message::Close(_))) | None => break,
                };
                let msg = match serde_json::from_str::<ClientMsg>(&text) {
                    Ok(m) => m,
                    Err(e) => {
                        // Never echo the message back: say what is wrong in a few words.
                        let r = Rejection::new(400, Reason::unreadable(&e));
                        if !c.refuse(&r).await { break; }
                        continue;
                    }
                };
                if !c.handle(msg, &mut hint).await { break; }
            }
            out = next_queued(&mut c.queue) => {
                match out {
                    Some(text) => if !c.send_text(&text).await { break; },
                    // The room let go of this follower (it fell too far behind): the client
                    // reconnects and catches up from its version.
                    None => {
                        let _ = c.socket.send(Message::Close(Some(CloseFrame {
                            code: 1013,
                            reason: "fell behind; reconnect".into(),
                        }))).await;
                        break;
                    }
                }
            }
            changed = stopping.changed() => {
                let stop = changed.is_err() || *stopping.borrow_and_update();
                if !stop { continue; }
                let _ = c.socket.send(Message::Close(Some(CloseFrame {
                    code: 1012,
                    reason: "the server is restarting; reconnect".into(),
                }))).await;
                break;
            }
            _ = ping.tick() => {
                let sent = tokio::time::timeout(SEND_TIMEOUT, c.socket.send(Message::Ping(Vec::new().into()))).await;
                if !matches!(sent, Ok(Ok(()))) { break; }
            }
            answer = hint_ready(&mut hint) => {
                let ok = match answer {
                    Ok(msg) => c.send(&msg).await,
                    Err(r) => c.refuse(&r).await,
                };
                if !ok { break; }
            }
        }
    }
    c.leave();
}
