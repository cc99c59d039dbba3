//! Live rooms: one task per game that is being played or watched. A room owns the game's
//! position, its followers (WebSocket connections) and the use of one engine; it serialises
//! every request, writes each change to the store and only then tells anyone of it.
//!
//! Rooms are made on demand, loading the game from the store, and leave memory when nobody
//! follows the game and nothing happened for [`Shared::idle`]: the next request loads it
//! again, exactly. A room's computer player keeps its search memory (transposition table or
//! tree) from one turn to the next in the shared [`EngineCache`], which is bounded in bytes:
//! under pressure the least recently used engine is dropped and made anew when needed.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

use ply_core::{AnyGame, Outcome, Player};
use ply_search::{AnyEngine, Think};
use ply_store::{Change, Clock, ClockState, EndReason, Ended, GameRow, Mode, Store, StoreError};
use tokio::sync::{mpsc, oneshot};

use crate::choices::ChoiceIndex;
pub use crate::engines::{EngineCache, Searches};
use crate::patch;
use crate::protocol::{
    BoardChange, Choices, ClockView, ClockWire, DrawAction, Event, EventKind, HttpView, LiveView,
    MotionView, PlayersView, ResultView, ServerMsg, StoredEvent,
};
use crate::reason::{Reason, Rejection};

/// How long a node holds the lease on a computer move: time to search (level 10 takes a
/// second) and store it; another node takes over after that if the move never came.
const LEASE: Duration = Duration::from_secs(15);

/// Takebacks allowed in one game: enough for any game people play, and a bound on what a
/// move/undo loop can cost.
pub const MAX_UNDOS: i64 = 100;

/// How many recent events a room keeps for followers that reconnect.
const RECENT_EVENTS: usize = 32;
/// Messages that may wait for a slow follower before it is dropped (it reconnects and
/// catches up from its version).
pub const FOLLOWER_QUEUE: usize = 64;

type Reply<T> = oneshot::Sender<Result<T, Rejection>>;

/// What a seat holder (or anyone) asks of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    Move(MoveSpec),
    Undo,
    Resign,
    Draw(DrawAction),
    /// A rematch with colours swapped, after a game between people (offer, accept, decline).
    Rematch(DrawAction),
}

/// A move as a client names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveSpec {
    /// Its notation (abbreviations allowed).
    Notation(String),
    /// Its click path.
    Path(Vec<String>),
}

/// What the game page needs.
#[derive(Clone, Debug)]
pub struct Page {
    pub view: LiveView,
    pub seats: Vec<Player>,
    /// The invite link, for the creator of an invite game only (it holds the other seat).
    pub invite: Option<String>,
}

/// An earlier position of a game.
#[derive(Clone, Debug, serde::Serialize)]
pub struct PositionView {
    pub ply: usize,
    pub svg: String,
    pub status_line: String,
    pub last_path: Vec<String>,
    pub motions: Vec<MotionView>,
}

/// A follower's place in a room.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Subscribed {
    pub id: u64,
}

enum Cmd {
    /// An action; the answer holds the new view when `view` asks for it (HTTP), else nothing
    /// (the WebSocket: its followers get the event).
    Act {
        token: Option<String>,
        action: Action,
        version: Option<i64>,
        view: bool,
        reply: Reply<Option<HttpView>>,
    },
    View {
        token: Option<String>,
        reply: Reply<HttpView>,
    },
    Page {
        token: Option<String>,
        reply: Reply<Page>,
    },
    /// Ends the game on time if its player to move ran out.
    CheckTime {
        reply: Reply<()>,
    },
    RematchLink {
        token: Option<String>,
        reply: Reply<String>,
    },
    Seats {
        token: Option<String>,
        reply: Reply<(Vec<Player>, String)>,
    },
    Position {
        ply: usize,
        reply: Reply<PositionView>,
    },
    Record {
        reply: Reply<(String, String)>,
    },
    Hint {
        token: Option<String>,
        reply: Reply<ServerMsg>,
    },
    Subscribe {
        token: Option<String>,
        since: Option<i64>,
        queue: mpsc::Sender<Arc<str>>,
        reply: Reply<Subscribed>,
    },
    Leave {
        id: u64,
    },
    Choices {
        token: Option<String>,
        version: i64,
        prefix: Vec<String>,
        /// Answer with a `preview` (the next click's help and the turn drawn so far) instead
        /// of the continuations.
        preview: bool,
        reply: Reply<Arc<str>>,
    },
    /// The computer's search ended (or its move is to be stored again).
    Thought {
        /// The stop flag of the search that answers: its answer counts only while the room
        /// still holds that flag (a reload stops a search and may start another at the same
        /// version, and the stopped one's empty answer must not end the new one).
        search: Arc<AtomicBool>,
        version: i64,
        engine: Option<Box<dyn AnyEngine>>,
        best: Option<String>,
        attempt: u32,
    },
    /// A hint's search ended.
    HintFound {
        version: i64,
        best: Option<String>,
        reply: Reply<ServerMsg>,
    },
    /// Another node changed the game (its version now), or might have (`None`: ask the store).
    Changed {
        version: Option<i64>,
    },
    /// Another node held the lease on the computer's move: see again whether it moved.
    LeaseBusy {
        version: i64,
        until_ms: i64,
        engine: Box<dyn AnyEngine>,
    },
}

impl Cmd {
    /// Answers the request with `r` without doing it.
    fn refuse(self, r: Rejection) {
        match self {
            Cmd::Act { reply, .. } => {
                let _ = reply.send(Err(r));
            }
            Cmd::View { reply, .. } => {
                let _ = reply.send(Err(r));
            }
            Cmd::Page { reply, .. } => {
                let _ = reply.send(Err(r));
            }
            Cmd::CheckTime { reply } => {
                let _ = reply.send(Err(r));
            }
            Cmd::RematchLink { reply, .. } => {
                let _ = reply.send(Err(r));
            }
            Cmd::Seats { reply, .. } => {
                let _ = reply.send(Err(r));
            }
            Cmd::Position { reply, .. } => {
                let _ = reply.send(Err(r));
            }
            Cmd::Record { reply } => {
                let _ = reply.send(Err(r));
            }
            Cmd::Hint { reply, .. } | Cmd::HintFound { reply, .. } => {
                let _ = reply.send(Err(r));
            }
            Cmd::Subscribe { reply, .. } => {
                let _ = reply.send(Err(r));
            }
            Cmd::Choices { reply, .. } => {
                let _ = reply.send(Err(r));
            }
            Cmd::Leave { .. }
            | Cmd::Thought { .. }
            | Cmd::Changed { .. }
            | Cmd::LeaseBusy { .. } => {}
        }
    }
}

/// What every room shares.
#[derive(Clone, Debug)]
pub struct Shared {
    pub store: Store,
    /// Bounds the searches running at once on the blocking pool, fairly.
    pub think: Arc<Searches>,
    pub engines: Arc<EngineCache>,
    /// A room nobody follows leaves memory after this long without a request.
    pub idle: Duration,
    /// This server process, among the nodes sharing a database (for computer leases).
    pub node: Arc<str>,
    /// Woken when a game ends here: the archiver takes it (see `archive.rs`).
    pub archive_wake: Arc<tokio::sync::Notify>,
}

#[derive(Clone)]
struct RoomHandle {
    tx: mpsc::Sender<Cmd>,
    serial: u64,
}

struct RoomsInner {
    map: Mutex<HashMap<String, RoomHandle>>,
    shared: Shared,
    serial: AtomicU64,
}

/// Every live room, by game id.
#[derive(Clone)]
pub struct Rooms(Arc<RoomsInner>);

impl std::fmt::Debug for Rooms {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Rooms").field("open", &self.open()).finish()
    }
}

fn gone() -> Rejection {
    Rejection::new(503, Reason::Gone)
}

impl Rooms {
    #[must_use]
    pub fn new(shared: Shared) -> Rooms {
        Rooms(Arc::new(RoomsInner { map: Mutex::default(), shared, serial: AtomicU64::new(1) }))
    }

    #[must_use]
    pub fn shared(&self) -> &Shared {
        &self.0.shared
    }

    fn map(&self) -> std::sync::MutexGuard<'_, HashMap<String, RoomHandle>> {
        self.0.map.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// How many rooms are in memory.
    #[must_use]
    pub fn open(&self) -> usize {
        self.map().len()
    }

    /// The room of game `id`, made (and loading) if it is not in memory.
    fn handle(&self, id: &str) -> RoomHandle {
        let mut map = self.map();
        if let Some(h) = map.get(id).filter(|h| !h.tx.is_closed()) {
            return h.clone();
        }
        let (tx, rx) = mpsc::channel(256);
        let serial = self.0.serial.fetch_add(1, Ordering::Relaxed);
        let handle = RoomHandle { tx: tx.clone(), serial };
        map.insert(id.to_string(), handle.clone());
        drop(map);
        let rooms = Arc::downgrade(&self.0);
        let id = id.to_string();
        let shared = self.0.shared.clone();
        let weak = tx.downgrade();
        tokio::spawn(async move {
            // Whatever happens to the task (a panic included), its entry goes.
            let _entry = Entry { rooms: rooms.clone(), id: id.clone(), serial };
            run(shared, rooms, id, serial, weak, rx).await;
        });
        handle
    }

    /// Sends a request to the room of `id` and waits for its answer; a room that was closing
    /// for idleness is asked again once it has been made anew.
    async fn call<T>(&self, id: &str, make: impl Fn(Reply<T>) -> Cmd) -> Result<T, Rejection> {
        for _ in 0..4 {
            let handle = self.handle(id);
            let (reply, rx) = oneshot::channel();
            if handle.tx.send(make(reply)).await.is_err() {
                self.forget(id, handle.serial);
                continue;
            }
            match rx.await {
                Err(_) => return Err(gone()),
                Ok(Err(r)) if r.reason == Reason::Evicted => {}
                Ok(result) => return result,
            }
        }
        Err(gone())
    }

    fn forget(&self, id: &str, serial: u64) {
        let mut map = self.map();
        if map.get(id).is_some_and(|h| h.serial == serial) {
            map.remove(id);
        }
    }

    /// Plays, undoes, resigns or acts on a draw for the holder of `token`; `version`, when
    /// given, must be the game's version. Answers the new view.
    ///
    /// # Errors
    /// A [`Rejection`] saying why nothing changed.
    pub async fn act(
        &self,
        id: &str,
        token: Option<String>,
        action: Action,
        version: Option<i64>,
    ) -> Result<HttpView, Rejection> {
        let view = self
            .call(id, |reply| Cmd::Act {
                token: token.clone(),
                action: action.clone(),
                version,
                view: true,
                reply,
            })
            .await?;
        view.ok_or_else(gone)
    }

    /// As [`Rooms::act`], without building the view (the followers get the event).
    ///
    /// # Errors
    /// A [`Rejection`] saying why nothing changed.
    pub async fn perform(
        &self,
        id: &str,
        token: Option<String>,
        action: Action,
        version: Option<i64>,
    ) -> Result<(), Rejection> {
        self.call(id, |reply| Cmd::Act {
            token: token.clone(),
            action: action.clone(),
            version,
            view: false,
            reply,
        })
        .await
        .map(drop)
    }

    /// The view of the game for the holder of `token`.
    ///
    /// # Errors
    /// When the game cannot be loaded.
    pub async fn view(&self, id: &str, token: Option<String>) -> Result<HttpView, Rejection> {
        self.call(id, |reply| Cmd::View { token: token.clone(), reply }).await
    }

    /// What the game page shows to the holder of `token`.
    ///
    /// # Errors
    /// When the game cannot be loaded.
    pub async fn page(&self, id: &str, token: Option<String>) -> Result<Page, Rejection> {
        self.call(id, |reply| Cmd::Page { token: token.clone(), reply }).await
    }

    /// The holder of `token`'s way into the rematch of game `id`.
    ///
    /// # Errors
    /// When there is no rematch, or the token holds no single seat.
    pub async fn rematch_link(&self, id: &str, token: Option<String>) -> Result<String, Rejection> {
        self.call(id, |reply| Cmd::RematchLink { token: token.clone(), reply }).await
    }

    /// Ends game `id` on time if its player to move ran out (the clock watcher calls it for
    /// games past their stored deadline, whether or not anybody follows them).
    ///
    /// # Errors
    /// When the game cannot be loaded.
    pub async fn check_time(&self, id: &str) -> Result<(), Rejection> {
        self.call(id, |reply| Cmd::CheckTime { reply }).await
    }

    /// The seats `token` holds, and the game's name.
    ///
    /// # Errors
    /// When the game cannot be loaded.
    pub async fn seats(
        &self,
        id: &str,
        token: Option<String>,
    ) -> Result<(Vec<Player>, String), Rejection> {
        self.call(id, |reply| Cmd::Seats { token: token.clone(), reply }).await
    }

    /// The board after `ply` turns.
    ///
    /// # Errors
    /// 404 past the end.
    pub async fn position(&self, id: &str, ply: usize) -> Result<PositionView, Rejection> {
        self.call(id, |reply| Cmd::Position { ply, reply }).await
    }

    /// The record of the game as text, and the game's name.
    ///
    /// # Errors
    /// When the game cannot be loaded.
    pub async fn record(&self, id: &str) -> Result<(String, String), Rejection> {
        self.call(id, |reply| Cmd::Record { reply }).await
    }

    /// The computer's suggestion for the holder of `token` (a `hint` message).
    ///
    /// # Errors
    /// When the game has no computer player, it is not their turn, or the search failed.
    pub async fn hint(&self, id: &str, token: Option<String>) -> Result<ServerMsg, Rejection> {
        self.call(id, |reply| Cmd::Hint { token: token.clone(), reply }).await
    }

    /// Follows the game: the room sends `welcome`, what the follower missed since `since` (or
    /// the whole state) and from then on every event, into `queue`, in order.
    ///
    /// # Errors
    /// When the game cannot be loaded.
    pub async fn subscribe(
        &self,
        id: &str,
        token: Option<String>,
        since: Option<i64>,
        queue: &mpsc::Sender<Arc<str>>,
    ) -> Result<Subscribed, Rejection> {
        self.call(id, |reply| Cmd::Subscribe {
            token: token.clone(),
            since,
            queue: queue.clone(),
            reply,
        })
        .await
    }

    /// Another node changed game `id` to `version` (a PostgreSQL notification): its room, if
    /// this node has one, catches up from the store. Rooms are not made for this.
    pub fn changed(&self, id: &str, version: i64) {
        let handle = self.map().get(id).cloned();
        if let Some(h) = handle {
            tokio::spawn(async move {
                let _ = h.tx.send(Cmd::Changed { version: Some(version) }).await;
            });
        }
    }

    /// The room of game `id`, if in memory, takes the game again from the store (and tells
    /// its followers): for changes that are not events, such as a person taking a seat.
    ///
    /// Returns once the room has the command in its queue, so whatever the caller answers
    /// (the response that creates a game, say) reaches a client only after it: a connection
    /// opened on that answer is welcomed after the reload, not given the state twice.
    pub async fn reload(&self, id: &str) {
        let handle = self.map().get(id).cloned();
        if let Some(h) = handle {
            let _ = h.tx.send(Cmd::Changed { version: Some(i64::MAX) }).await;
        }
    }

    /// Every room asks the store whether its game changed (after the notifications may have
    /// been missed: the listener lost its connection).
    pub fn refresh_all(&self) {
        let handles: Vec<RoomHandle> = self.map().values().cloned().collect();
        tokio::spawn(async move {
            for h in handles {
                let _ = h.tx.send(Cmd::Changed { version: None }).await;
            }
        });
    }

    /// Stops following (without waiting).
    pub fn leave(&self, id: &str, sub: Subscribed) {
        if let Some(h) = self.map().get(id) {
            let _ = h.tx.try_send(Cmd::Leave { id: sub.id });
        }
    }

    /// The continuations of `prefix` for the holder of the seat to move, as a `choices`
    /// message.
    ///
    /// # Errors
    /// When the caller is not to move, the version is old, or no move starts so.
    pub async fn choices(
        &self,
        id: &str,
        token: Option<String>,
        version: i64,
        prefix: Vec<String>,
    ) -> Result<Arc<str>, Rejection> {
        self.call(id, |reply| Cmd::Choices {
            token: token.clone(),
            version,
            prefix: prefix.clone(),
            preview: false,
            reply,
        })
        .await
    }

    /// What the clicks `prefix` decide, for the holder of the seat to move: a `preview`
    /// message with the help of the next click and the turn drawn so far.
    ///
    /// # Errors
    /// As [`choices`](Rooms::choices).
    pub async fn preview(
        &self,
        id: &str,
        token: Option<String>,
        version: i64,
        prefix: Vec<String>,
    ) -> Result<Arc<str>, Rejection> {
        self.call(id, |reply| Cmd::Choices {
            token: token.clone(),
            version,
            prefix: prefix.clone(),
            preview: true,
            reply,
        })
        .await
    }
}

/// Removes a room's entry when its task ends, however it ends.
struct Entry {
    rooms: Weak<RoomsInner>,
    id: String,
    serial: u64,
}

impl Drop for Entry {
    fn drop(&mut self) {
        if let Some(rooms) = self.rooms.upgrade() {
            let mut map = rooms.map.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            if map.get(&self.id).is_some_and(|h| h.serial == self.serial) {
                map.remove(&self.id);
            }
        }
    }
}

/// The task of one room: loads the game, serves requests, and leaves when idle.
async fn run(
    shared: Shared,
    rooms: Weak<RoomsInner>,
    id: String,
    serial: u64,
    tx: mpsc::WeakSender<Cmd>,
    mut rx: mpsc::Receiver<Cmd>,
) {
    let mut room = match Room::load(shared.clone(), &id, tx).await {
        Ok(room) => room,
        Err(r) => {
            // Nothing to serve: answer whatever waits, and go (the next request tries again).
            close(&rooms, &id, serial, &mut rx, &r);
            return;
        }
    };
    room.maybe_think();
    let mut last = Instant::now();
    loop {
        let idle = room.idle();
        let deadline = tokio::time::Instant::from_std(last + shared.idle);
        tokio::select! {
            cmd = rx.recv() => {
                let Some(cmd) = cmd else { break };
                last = Instant::now();
                room.handle(cmd).await;
            }
            () = tokio::time::sleep_until(deadline), if idle => {
                room.prune();
                if room.idle() {
                    close(&rooms, &id, serial, &mut rx, &Rejection::new(503, Reason::Evicted));
                    break;
                }
                last = Instant::now();
            }
        }
    }
    shared.engines.forget(&id);
}

/// Takes the room out of the map and answers what is still queued with `why`.
fn close(
    rooms: &Weak<RoomsInner>,
    id: &str,
    serial: u64,
    rx: &mut mpsc::Receiver<Cmd>,
    why: &Rejection,
) {
    if let Some(rooms) = rooms.upgrade() {
        let mut map = rooms.map.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if map.get(id).is_some_and(|h| h.serial == serial) {
            map.remove(id);
        }
    }
    rx.close();
    while let Ok(cmd) = rx.try_recv() {
        cmd.refuse(why.clone());
    }
}

/// How one turn of the game is shown: its click path and the pieces it moved.
struct Shown {
    path: Vec<String>,
    motions: Vec<MotionView>,
}

/// What a hint's search needs: an engine at the position, its settings, and the way back.
struct HintSearch {
    engine: Box<dyn AnyEngine>,
    think: Think,
    tx: mpsc::Sender<Cmd>,
}

struct Follower {
    id: u64,
    seats: Vec<Player>,
    queue: mpsc::Sender<Arc<str>>,
}

struct Room {
    shared: Shared,
    row: GameRow,
    game: Box<dyn AnyGame>,
    /// How each turn played is shown, by ply.
    shown: Vec<Shown>,
    version: i64,
    /// The picture of the position now, while someone follows (for patches).
    svg: Option<String>,
    /// The last events as sent, for followers that come back: each applies to the picture
    /// of the version before it.
    recent: VecDeque<(i64, Arc<str>)>,
    followers: Vec<Follower>,
    next_follower: u64,
    /// The legal moves of this version, once someone needed them.
    choices: Option<Arc<ChoiceIndex>>,
    /// The whole-turn choices message of this version.
    choices_msg: Option<Arc<str>>,
    /// Every legal turn of this version with its click path and what each click does, once a
    /// preview needed them.
    steps: Option<Arc<Vec<TurnSteps>>>,
    thinking: Option<Arc<AtomicBool>>,
    /// The computer's move is another node's to search (it holds the lease): `thinking` is
    /// then only shown, nothing searches here.
    awaiting_lease: bool,
    /// The names of the people in the seats, when known.
    names: [Option<String>; 2],
    /// After the game: the seat offering a rematch.
    rematch_offer: Option<Player>,
    hints: usize,
    tx: mpsc::WeakSender<Cmd>,
}

fn result_view(ended: Option<Ended>, game: &dyn AnyGame) -> Option<ResultView> {
    ended.map(|e| ResultView {
        winner: e.outcome.winner(),
        draw: e.outcome == Outcome::Draw,
        reason: e.reason.into(),
        end: (e.reason == EndReason::Rules)
            .then(|| game.end_reason())
            .flatten()
            .map(str::to_string),
    })
}

/// A legal turn: its notation, its click path and what each click does.
type TurnSteps = (String, Vec<String>, Vec<&'static str>);

/// The step of the click after `prefix`: the one most of the legal turns going on from there
/// give (they agree where the game is consistent); `None` when no turn goes on from `prefix`.
fn next_step(
    steps: &[(String, Vec<String>, Vec<&'static str>)],
    prefix: &[String],
) -> Option<&'static str> {
    let mut counts: Vec<(&'static str, usize)> = Vec::new();
    for (_, path, step) in steps {
        if path.len() > prefix.len() && path.starts_with(prefix) {
            let s = step.get(prefix.len()).copied().unwrap_or(ply_core::STEP_CHOOSE);
            match counts.iter_mut().find(|(k, _)| *k == s) {
                Some((_, n)) => *n += 1,
                None => counts.push((s, 1)),
            }
        }
    }
    counts.into_iter().max_by_key(|&(_, n)| n).map(|(s, _)| s)
}

/// Time a move may take to reach the server that is not charged to the player's clock.
const LAG_ALLOWANCE_MS: i64 = 300;

/// `text` cut to at most `chars` characters, with `…` when cut.
fn clip(text: &str, chars: usize) -> String {
    match text.char_indices().nth(chars) {
        None => text.to_string(),
        Some((end, _)) => format!("{}…", &text[..end]),
    }
}

fn seed_of(id: &str) -> u64 {
    u64::from_str_radix(id, 16).unwrap_or_else(|_| {
        id.bytes()
            .fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3))
    })
}

fn store_rejection(e: &StoreError, id: &str) -> Rejection {
    match e {
        StoreError::NotFound(_) => Rejection::new(404, Reason::NoGame(id.to_string())),
        StoreError::Corrupt { detail, .. } => Rejection::new(500, Reason::Damaged(detail.clone())),
        e if e.is_unavailable() => Rejection::new(503, Reason::Unavailable),
        e => Rejection::new(500, Reason::Damaged(e.to_string())),
    }
}

impl Room {
    async fn load(shared: Shared, id: &str, tx: mpsc::WeakSender<Cmd>) -> Result<Room, Rejection> {
        let (row, moves) = shared.store.load(id).await.map_err(|e| {
            if e.is_unavailable() {
                tracing::error!("loading game {id}: {e}");
            }
            store_rejection(&e, id)
        })?;
        let damaged = |detail: String| {
            tracing::error!("game {id} is damaged: {detail}");
            Rejection::new(500, Reason::Damaged(detail))
        };
        let registry = ply_games::registry();
        let entry = registry.get(&row.game).map_err(|e| damaged(e.to_string()))?;
        let mut game = entry.new_game(Some(&row.variant)).map_err(|e| damaged(e.to_string()))?;
        let mut shown = Vec::with_capacity(moves.len());
        // A stored move that does not replay is damage to report, never a shorter game.
        for (i, m) in moves.iter().enumerate() {
            let turn = game.play_shown(m).map_err(|e| {
                damaged(format!("stored turn {} ({m}) does not replay: {e}", i + 1))
            })?;
            shown.push(Shown {
                path: turn.path,
                motions: turn.motions.iter().map(MotionView::from).collect(),
            });
        }
        // The people in the seats, by name (a name changed later shows from the next load).
        let ids: Vec<String> = row.players.iter().flatten().cloned().collect();
        let known = shared.store.player_names(&ids).await.unwrap_or_default();
        let mut names = row.players.clone().map(|p| p.and_then(|id| known.get(&id).cloned()));
        // A game read from a record has its players' names in the archive, not players.
        if row.mode == Mode::Imported
            && let Ok(Some(archived)) = shared.store.archived_names(&row.id).await
        {
            names = archived.map(Some);
        }
        Ok(Room {
            shared,
            version: row.version,
            names,
            rematch_offer: None,
            row,
            game,
            shown,
            svg: None,
            recent: VecDeque::new(),
            followers: Vec::new(),
            next_follower: 1,
            choices: None,
            choices_msg: None,
            steps: None,
            thinking: None,
            awaiting_lease: false,
            hints: 0,
            tx,
        })
    }

    /// Nobody follows and nothing runs: the room may leave memory.
    fn idle(&self) -> bool {
        self.followers.is_empty() && self.thinking.is_none() && self.hints == 0
    }

    /// Forgets followers whose connection has gone.
    fn prune(&mut self) {
        self.followers.retain(|f| !f.queue.is_closed());
        if self.followers.is_empty() {
            self.svg = None;
        }
    }

    async fn handle(&mut self, cmd: Cmd) {
        match cmd {
            Cmd::Act { token, action, version, view, reply } => {
                let result = self.act(token.as_deref(), action, version).await;
                if result.as_ref().is_err_and(|r| r.reason == Reason::Race) {
                    // The store is the truth: take the game again from it.
                    self.reload().await;
                }
                let result = result.map(|()| view.then(|| self.http_view(token.as_deref())));
                let _ = reply.send(result);
            }
            Cmd::View { token, reply } => {
                let _ = reply.send(Ok(self.http_view(token.as_deref())));
            }
            Cmd::CheckTime { reply } => {
                self.flag_if_late().await;
                let _ = reply.send(Ok(()));
            }
            Cmd::RematchLink { token, reply } => {
                let _ = reply.send(self.rematch_link(token.as_deref()).await);
            }
            Cmd::Page { token, reply } => {
                let seats = self.seats(token.as_deref());
                let invite = self.invite_for(&seats);
                let _ = reply.send(Ok(Page { view: self.live_view(), seats, invite }));
            }
            Cmd::Seats { token, reply } => {
                let _ = reply.send(Ok((self.seats(token.as_deref()), self.row.game.clone())));
            }
            Cmd::Position { ply, reply } => {
                let _ = reply.send(self.position(ply));
            }
            Cmd::Record { reply } => {
                let _ = reply.send(Ok((self.record(), self.row.game.clone())));
            }
            Cmd::Hint { token, reply } => self.hint(token.as_deref(), reply),
            Cmd::HintFound { version, best, reply } => {
                self.hints = self.hints.saturating_sub(1);
                let _ = reply.send(self.hint_found(version, best));
            }
            Cmd::Subscribe { token, since, queue, reply } => {
                let _ = reply.send(Ok(self.subscribe(token.as_deref(), since, queue)));
            }
            Cmd::Leave { id } => {
                self.followers.retain(|f| f.id != id);
                if self.followers.is_empty() {
                    self.svg = None;
                }
            }
            Cmd::Choices { token, version, prefix, preview: false, reply } => {
                let _ = reply.send(self.choices_for(token.as_deref(), version, &prefix));
            }
            Cmd::Choices { token, version, prefix, preview: true, reply } => {
                let _ = reply.send(self.preview_for(token.as_deref(), version, &prefix));
            }
            Cmd::Changed { version } => self.changed(version).await,
            Cmd::LeaseBusy { version, until_ms, engine } => {
                self.shared.engines.put(&self.row.id, engine);
                self.lease_busy(version, until_ms);
            }
            Cmd::Thought { search, version, engine, best, attempt } => {
                tracing::debug!(
                    "the computer found {best:?} in {} at version {version}",
                    self.row.id
                );
                if let Some(engine) = engine {
                    self.shared.engines.put(&self.row.id, engine);
                }
                self.computer_moved(&search, version, best, attempt).await;
            }
        }
    }

    fn seats(&self, token: Option<&str>) -> Vec<Player> {
        let Some(token) = token else { return Vec::new() };
        Player::BOTH
            .into_iter()
            .filter(|p| self.row.tokens[p.index()] == token && Some(*p) != self.computer_seat())
            .collect()
    }

    fn invite_for(&self, seats: &[Player]) -> Option<String> {
        let creator = self.row.creator_seat?;
        (self.row.mode == Mode::Invite && seats.contains(&creator))
            .then(|| format!("/join/{}/{}", self.row.id, self.row.tokens[creator.other().index()]))
    }

    fn computer_seat(&self) -> Option<Player> {
        (self.row.mode == Mode::Computer).then_some(self.row.computer_seat).flatten()
    }

    fn finished(&self) -> bool {
        !self.row.live() || self.game.outcome().is_some()
    }

    fn ended(&self) -> Option<Ended> {
        self.row.ended.or_else(|| {
            self.game.outcome().map(|outcome| Ended { outcome, reason: EndReason::Rules })
        })
    }

    fn current_svg(&mut self) -> String {
        match &self.svg {
            Some(svg) => svg.clone(),
            None => {
                let svg = self.game.svg();
                if !self.followers.is_empty() {
                    self.svg = Some(svg.clone());
                }
                svg
            }
        }
    }

    fn last_shown(&self) -> (Vec<String>, Vec<MotionView>) {
        self.shown.last().map_or_else(Default::default, |s| (s.path.clone(), s.motions.clone()))
    }

    fn live_view(&mut self) -> LiveView {
        let finished = self.finished();
        let has_engine = ply_games::engine(&self.row.game).is_ok();
        let (last_path, motions) = self.last_shown();
        LiveView {
            id: self.row.id.clone(),
            version: self.version,
            game: self.row.game.clone(),
            variant: self.row.variant.clone(),
            display_name: self.game.display_name().to_string(),
            mode: self.row.mode.into(),
            level: self.row.level,
            computer_seat: self.computer_seat(),
            to_move: self.game.to_move(),
            status_line: self.game.status_line(),
            svg: self.current_svg(),
            history: self.game.history().to_vec(),
            last_path,
            motions,
            result: result_view(self.ended(), &*self.game),
            live: !finished,
            thinking: self.thinking.is_some(),
            // Between two people at two screens a hint is help from outside: offered only
            // against the computer and at one screen.
            can_hint: has_engine && !finished && self.row.mode != Mode::Invite,
            can_undo: matches!(self.row.mode, Mode::Computer | Mode::HotSeat) && !finished,
            can_draw: self.row.mode != Mode::Computer && !finished && self.game.has_draws(),
            draw_offer: self.row.draw_offer.filter(|_| !finished),
            clock: self.clock_view(),
            players: PlayersView { P1: self.names[0].clone(), P2: self.names[1].clone() },
            rated: self.row.rated,
            rematch_offer: self.rematch_offer,
            rematch: self.row.rematch_id.clone(),
        }
    }

    fn choice_index(&mut self) -> Arc<ChoiceIndex> {
        if let Some(ix) = &self.choices {
            return ix.clone();
        }
        let ix = Arc::new(if self.finished() {
            ChoiceIndex::default()
        } else {
            ChoiceIndex::new(self.game.click_paths())
        });
        self.choices = Some(ix.clone());
        ix
    }

    fn http_view(&mut self, token: Option<&str>) -> HttpView {
        let moves = if self.finished() { Vec::new() } else { self.choice_index().legal_moves() };
        HttpView { view: self.live_view(), moves, seats: self.seats(token) }
    }

    fn position(&self, ply: usize) -> Result<PositionView, Rejection> {
        let played = self.game.history().len();
        if ply > played {
            return Err(Rejection::new(404, Reason::NoSuchTurn(ply)));
        }
        let mut game = self.game.box_clone();
        for _ in ply..played {
            game.undo();
        }
        let (last_path, motions) = ply
            .checked_sub(1)
            .and_then(|i| self.shown.get(i))
            .map_or_else(Default::default, |s| (s.path.clone(), s.motions.clone()));
        Ok(PositionView {
            ply,
            svg: game.svg(),
            status_line: game.status_line(),
            last_path,
            motions,
        })
    }

    fn record(&self) -> String {
        let mut record = ply_records::Record::of_game(&*self.game);
        // The people in the seats, by name; the computer by its level.
        for (seat, header) in [(Player::P1, "P1"), (Player::P2, "P2")] {
            if let Some(name) = &self.names[seat.index()] {
                record.set_header(header, name);
            } else if Some(seat) == self.computer_seat() {
                let level = self.row.level.unwrap_or(0);
                record.set_header(header, &format!("ply level {level}"));
            }
        }
        if let Ok(date) = jiff::Timestamp::from_millisecond(self.row.created_ms) {
            record.set_header("Date", &date.strftime("%Y.%m.%d").to_string());
        }
        match self.row.ended {
            Some(Ended { outcome: Outcome::Win(w), reason: EndReason::Resigned }) => {
                record.set_header("Termination", &format!("{} resigned", w.other()));
                record.set_header(
                    "Result",
                    ply_records::GameResult::from_outcome(Some(Outcome::Win(w))).token(),
                );
            }
            Some(Ended { reason: EndReason::Agreed, .. }) => {
                record.set_header("Termination", "draw agreed");
                record.set_header("Result", ply_records::GameResult::Draw.token());
            }
            _ => {}
        }
        record.to_string()
    }

    fn subscribe(
        &mut self,
        token: Option<&str>,
        since: Option<i64>,
        queue: mpsc::Sender<Arc<str>>,
    ) -> Subscribed {
        let seats = self.seats(token);
        let id = self.next_follower;
        self.next_follower += 1;
        let welcome = ServerMsg::Welcome {
            protocol: crate::protocol::PROTOCOL,
            seats: seats.clone(),
            version: self.version,
            thinking: self.thinking.is_some(),
        };
        let mut out: Vec<Arc<str>> = vec![Arc::from(welcome.to_json())];
        match since {
            Some(v) if v == self.version => {}
            Some(v) if v >= 0 && v < self.version && self.recent_covers(v) => {
                out.extend(self.recent.iter().filter(|(ev, _)| *ev > v).map(|(_, t)| t.clone()));
            }
            _ => {
                let state = ServerMsg::State { view: Box::new(self.live_view()) };
                out.push(Arc::from(state.to_json()));
            }
        }
        if self.may_choose(&seats)
            && let Some(msg) = self.root_choices()
        {
            out.push(msg);
        }
        // A fresh queue holds all of this: the catch-up is at most RECENT_EVENTS + 3.
        for m in out {
            let _ = queue.try_send(m);
        }
        self.followers.push(Follower { id, seats, queue });
        Subscribed { id }
    }

    /// Whether the recent events hold every event after `v`.
    fn recent_covers(&self, v: i64) -> bool {
        self.recent.front().is_some_and(|(first, _)| *first <= v + 1)
            && self.recent.back().is_some_and(|(last, _)| *last == self.version)
    }

    /// Whether a holder of `seats` chooses the next move now.
    fn may_choose(&self, seats: &[Player]) -> bool {
        !self.finished() && self.thinking.is_none() && seats.contains(&self.game.to_move())
    }

    fn root_choices(&mut self) -> Option<Arc<str>> {
        if let Some(m) = &self.choices_msg {
            return Some(m.clone());
        }
        let version = self.version;
        let c = self.choice_index().encode(version, &[])?;
        let msg: Arc<str> = Arc::from(ServerMsg::Choices(Box::new(c)).to_json());
        self.choices_msg = Some(msg.clone());
        Some(msg)
    }

    /// Whether the holder of `token` may build a turn at `version`: holds a seat, is to move,
    /// and speaks of the position now (for choices and previews).
    fn may_build_turn(&self, token: Option<&str>, version: i64) -> Result<(), Rejection> {
        let seats = self.seats(token);
        if seats.is_empty() {
            return Err(Rejection::new(403, Reason::Spectator));
        }
        if version != self.version {
            return Err(Rejection::new(409, Reason::ChoicesStale));
        }
        if !self.may_choose(&seats) {
            return Err(self.not_your_turn());
        }
        Ok(())
    }

    fn choices_for(
        &mut self,
        token: Option<&str>,
        version: i64,
        prefix: &[String],
    ) -> Result<Arc<str>, Rejection> {
        self.may_build_turn(token, version)?;
        if prefix.is_empty() {
            return self.root_choices().ok_or_else(|| Rejection::new(409, Reason::Over));
        }
        let c: Choices = self
            .choice_index()
            .encode(version, prefix)
            .ok_or_else(|| Rejection::new(422, Reason::NoSuchPath))?;
        Ok(Arc::from(ServerMsg::Choices(Box::new(c)).to_json()))
    }

    fn preview_for(
        &mut self,
        token: Option<&str>,
        version: i64,
        prefix: &[String],
    ) -> Result<Arc<str>, Rejection> {
        self.may_build_turn(token, version)?;
        let steps = self.steps.get_or_insert_with(|| Arc::new(self.game.click_steps())).clone();
        let step =
            next_step(&steps, prefix).ok_or_else(|| Rejection::new(422, Reason::NoSuchPath))?;
        let overlay = if prefix.is_empty() { String::new() } else { self.game.preview(prefix) };
        let msg = ServerMsg::Preview {
            version,
            prefix: prefix.to_vec(),
            step: step.to_string(),
            overlay,
        };
        Ok(Arc::from(msg.to_json()))
    }

    /// Where the clocks stand after a change made now (`None`: they do not change). The
    /// player whose clock ran is charged the time since the turn began, less a lag allowance;
    /// a turn made adds the increment (Fischer) or gives the whole allowance back
    /// (correspondence); the next player's clock starts, with its deadline.
    fn clock_after(&self, kind: &EventKind, finishes: bool, now: i64) -> Option<ClockState> {
        let (clock, state) = (self.row.clock?, self.row.clock_state?);
        let (ran, next) = match kind {
            // The move is already on the board: the player to move is the next one.
            EventKind::Move { player, .. } => (*player, self.game.to_move()),
            EventKind::Undo { ply } => (self.game.to_move(), Player::from_index(ply % 2)),
            EventKind::Resign { .. } | EventKind::Draw { .. } | EventKind::Timeout { .. } => {
                (self.game.to_move(), self.game.to_move())
            }
            EventKind::DrawOffer { .. }
            | EventKind::DrawDecline { .. }
            | EventKind::RematchOffer { .. }
            | EventKind::RematchDecline { .. }
            | EventKind::Rematch { .. } => return None,
        };
        let mut left = state.left_ms;
        let r = ran.index();
        let elapsed = (now - state.turn_started_ms).max(0);
        match (clock, kind) {
            (Clock::Fischer { increment_ms, .. }, EventKind::Move { .. }) => {
                left[r] = (left[r] - (elapsed - LAG_ALLOWANCE_MS).max(0)).max(0) + increment_ms;
            }
            (Clock::Correspondence { .. }, EventKind::Move { .. }) => left[r] = clock.start_ms(),
            (_, EventKind::Timeout { .. }) => left[r] = 0,
            _ => left[r] = (left[r] - elapsed).max(0),
        }
        let deadline_ms = (!finishes).then(|| now + left[next.index()]);
        Some(ClockState { left_ms: left, turn_started_ms: now, deadline_ms })
    }

    /// The player to move when they ran out of time at `now`.
    fn out_of_time(&self, now: i64) -> Option<Player> {
        if self.finished() {
            return None;
        }
        let deadline = self.row.clock_state?.deadline_ms?;
        (now >= deadline).then(|| self.game.to_move())
    }

    /// Ends the game on time if its player to move ran out: `true` when it did (or had).
    async fn flag_if_late(&mut self) -> bool {
        let Some(loser) = self.out_of_time(ply_store::now_ms()) else { return self.finished() };
        let finish = Ended { outcome: Outcome::Win(loser.other()), reason: EndReason::Time };
        self.stop_thinking();
        let kind = EventKind::Timeout { player: loser };
        match self.commit(kind.clone(), None, None, Some(finish), None).await {
            Ok(()) => {
                self.row.ended = Some(finish);
                self.row.draw_offer = None;
                self.publish(kind, false);
                true
            }
            // Another node flagged it first, or the store cannot save: take what it holds.
            Err(_) => {
                self.reload().await;
                self.finished()
            }
        }
    }

    /// The clocks as the page shows them: each seat's time left now (the running one counts
    /// down from here), and whose clock runs.
    fn clock_view(&self) -> Option<ClockView> {
        let (clock, state) = (self.row.clock?, self.row.clock_state?);
        let running = (!self.finished()).then(|| self.game.to_move());
        let mut left = state.left_ms;
        if let Some(p) = running {
            let spent = (ply_store::now_ms() - state.turn_started_ms).max(0);
            left[p.index()] = (left[p.index()] - spent).max(0);
        }
        Some(ClockView::new(clock.into(), left, running))
    }

    fn not_your_turn(&self) -> Rejection {
        if self.finished() {
            return Rejection::new(409, Reason::Over);
        }
        let mover = self.game.to_move();
        let computer = Some(mover) == self.computer_seat();
        Rejection::new(403, Reason::NotYourTurn { mover, computer })
    }

    async fn act(
        &mut self,
        token: Option<&str>,
        action: Action,
        version: Option<i64>,
    ) -> Result<(), Rejection> {
        let seats = self.seats(token);
        if seats.is_empty() {
            return Err(Rejection::new(403, Reason::Spectator));
        }
        if let Some(v) = version.filter(|&v| v != self.version) {
            return Err(Rejection::new(409, Reason::Stale { sent: v, now: self.version }));
        }
        // Out of time: whatever the action, the game ends on time first.
        if self.out_of_time(ply_store::now_ms()).is_some() {
            self.flag_if_late().await;
            return Err(Rejection::new(409, Reason::Over));
        }
        match action {
            Action::Move(spec) => {
                if self.finished() {
                    return Err(Rejection::new(409, Reason::Over));
                }
                let mover = self.game.to_move();
                if !seats.contains(&mover) {
                    return Err(self.not_your_turn());
                }
                let text = match spec {
                    MoveSpec::Notation(text) => text,
                    MoveSpec::Path(path) => self
                        .choice_index()
                        .resolve(&path)
                        .map(str::to_string)
                        .ok_or_else(|| Rejection::new(422, Reason::NoSuchPath))?,
                };
                self.play(&text, mover).await
            }
            Action::Undo => self.undo().await,
            Action::Resign => {
                if self.finished() {
                    return Err(Rejection::new(409, Reason::Over));
                }
                let to_move = self.game.to_move();
                let loser = if seats.contains(&to_move) { to_move } else { seats[0] };
                let finish =
                    Ended { outcome: Outcome::Win(loser.other()), reason: EndReason::Resigned };
                self.stop_thinking();
                self.commit(EventKind::Resign { player: loser }, None, None, Some(finish), None)
                    .await?;
                self.row.ended = Some(finish);
                self.publish(EventKind::Resign { player: loser }, false);
                Ok(())
            }
            Action::Draw(action) => self.draw(&seats, action).await,
            Action::Rematch(action) => self.rematch(&seats, action).await,
        }
    }

    /// A rematch with colours swapped, after a game between two people at two screens: one
    /// offers, the other accepts (a new game, the same clock and rating setting) or declines.
    async fn rematch(&mut self, seats: &[Player], action: DrawAction) -> Result<(), Rejection> {
        if !self.finished() || self.row.mode != Mode::Invite || seats.len() != 1 {
            return Err(Rejection::new(409, Reason::NoRematch));
        }
        if self.row.rematch_id.is_some() {
            return Err(Rejection::new(409, Reason::NoRematch));
        }
        let me = seats[0];
        let offered_to_me = self.rematch_offer == Some(me.other());
        match action {
            DrawAction::Offer if !offered_to_me => {
                if self.rematch_offer == Some(me) {
                    return Ok(());
                }
                let kind = EventKind::RematchOffer { player: me };
                self.commit(kind.clone(), None, None, None, None).await?;
                self.rematch_offer = Some(me);
                self.publish(kind, false);
                Ok(())
            }
            DrawAction::Offer | DrawAction::Accept if offered_to_me => {
                let row = &self.row;
                let new = ply_store::NewGame {
                    game: row.game.clone(),
                    variant: row.variant.clone(),
                    mode: Mode::Invite,
                    level: None,
                    computer_seat: None,
                    creator_seat: None,
                    // Colours swapped.
                    players: [row.players[1].clone(), row.players[0].clone()],
                    rated: row.rated,
                    clock: row.clock,
                };
                let store = &self.shared.store;
                let fresh =
                    store.create_game(&new).await.map_err(|e| store_rejection(&e, &row.id))?;
                store
                    .set_rematch(&row.id, &fresh.id)
                    .await
                    .map_err(|e| store_rejection(&e, &row.id))?;
                let kind = EventKind::Rematch { game: fresh.id.clone() };
                self.commit(kind.clone(), None, None, None, None).await?;
                self.rematch_offer = None;
                self.row.rematch_id = Some(fresh.id);
                self.publish(kind, false);
                Ok(())
            }
            DrawAction::Decline if offered_to_me => {
                let kind = EventKind::RematchDecline { player: me };
                self.commit(kind.clone(), None, None, None, None).await?;
                self.rematch_offer = None;
                self.publish(kind, false);
                Ok(())
            }
            _ => Err(Rejection::new(409, Reason::NoRematch)),
        }
    }

    /// The way into the rematch for the holder of `token`: the join link of their seat in the
    /// new game (colours swapped).
    async fn rematch_link(&self, token: Option<&str>) -> Result<String, Rejection> {
        let seats = self.seats(token);
        let (Some(new), [seat]) = (&self.row.rematch_id, seats.as_slice()) else {
            return Err(Rejection::new(404, Reason::NoRematch));
        };
        let row = self.shared.store.game(new).await.map_err(|e| store_rejection(&e, new))?;
        Ok(format!("/join/{new}/{}", row.tokens[seat.other().index()]))
    }

    /// Draws by agreement, between people only.
    async fn draw(&mut self, seats: &[Player], action: DrawAction) -> Result<(), Rejection> {
        if self.finished() {
            return Err(Rejection::new(409, Reason::Over));
        }
        if self.row.mode == Mode::Computer {
            return Err(Rejection::new(403, Reason::ComputerRefusesDraws));
        }
        if !self.game.has_draws() {
            let name = self.game.display_name().to_string();
            return Err(Rejection::new(409, Reason::NoDraws(name)));
        }
        let to_move = self.game.to_move();
        let me = if seats.contains(&to_move) { to_move } else { seats[0] };
        let offer = self.row.draw_offer;
        // An offer and a decline are events like moves: stored, versioned and replayed to a
        // client that reconnects, so an offer outlives a restart of the server.
        let kind = match action {
            // At one screen both players are here: an offer is an agreement.
            DrawAction::Offer if seats.len() == 2 => EventKind::Draw { player: me },
            DrawAction::Offer if offer == Some(me.other()) => EventKind::Draw { player: me },
            DrawAction::Offer if offer == Some(me) => return Ok(()),
            DrawAction::Offer => EventKind::DrawOffer { player: me },
            DrawAction::Accept if offer == Some(me.other()) => EventKind::Draw { player: me },
            DrawAction::Accept => return Err(Rejection::new(409, Reason::NoOfferToAccept)),
            DrawAction::Decline if offer == Some(me.other()) => {
                EventKind::DrawDecline { player: me }
            }
            DrawAction::Decline => return Err(Rejection::new(409, Reason::NoOfferToDecline)),
        };
        match kind {
            EventKind::Draw { .. } => {
                let finish = Ended { outcome: Outcome::Draw, reason: EndReason::Agreed };
                self.commit(kind.clone(), None, None, Some(finish), None).await?;
                self.row.ended = Some(finish);
                self.row.draw_offer = None;
            }
            EventKind::DrawOffer { .. } => {
                self.commit(kind.clone(), None, None, None, Some(me)).await?;
                self.row.draw_offer = Some(me);
            }
            _ => {
                self.commit(kind.clone(), None, None, None, None).await?;
                self.row.draw_offer = None;
            }
        }
        self.publish(kind, false);
        Ok(())
    }

    /// Plays `text` for `mover`, stores it, tells everyone and wakes the computer if needed.
    async fn play(&mut self, text: &str, mover: Player) -> Result<(), Rejection> {
        if self.out_of_time(ply_store::now_ms()).is_some() {
            self.flag_if_late().await;
            return Err(Rejection::new(409, Reason::Over));
        }
        if !self.followers.is_empty() {
            // The patch of this turn needs the picture before it.
            self.current_svg();
        }
        let ply = self.game.history().len();
        let turn = self.game.play_shown(text).map_err(|e| {
            // Never echo a long input back: name it by its start.
            let shown = clip(text, 24);
            let detail = clip(&e.to_string().replace(text, &shown), 200);
            Rejection::new(422, Reason::Illegal { text: shown, detail })
        })?;
        let kind = EventKind::Move { notation: turn.notation.clone(), player: mover, ply };
        let finish = self.game.outcome().map(|outcome| Ended { outcome, reason: EndReason::Rules });
        let ply_i = i64::try_from(ply).unwrap_or(i64::MAX);
        if let Err(e) =
            self.commit(kind.clone(), None, Some((ply_i, &turn.notation)), finish, None).await
        {
            // Not stored: the position goes back to exactly what the store holds.
            self.game.undo();
            return Err(e);
        }
        self.shown.push(Shown {
            path: turn.path,
            motions: turn.motions.iter().map(MotionView::from).collect(),
        });
        self.row.draw_offer = None;
        if finish.is_some() {
            self.row.ended = finish;
        }
        self.publish(kind, true);
        self.maybe_think();
        Ok(())
    }

    async fn undo(&mut self) -> Result<(), Rejection> {
        if !matches!(self.row.mode, Mode::Computer | Mode::HotSeat) {
            return Err(Rejection::new(403, Reason::UndoNotHere));
        }
        if self.finished() {
            return Err(Rejection::new(409, Reason::Over));
        }
        if self.row.undos >= MAX_UNDOS {
            return Err(Rejection::new(409, Reason::UndoLimit(MAX_UNDOS)));
        }
        // Against the computer: back to the person's last turn.
        let history = self.game.history().len();
        let mut game = self.game.box_clone();
        let mut n = 0;
        while game.undo() {
            n += 1;
            if Some(game.to_move()) != self.computer_seat() {
                break;
            }
        }
        if n == 0 || Some(game.to_move()) == self.computer_seat() {
            return Err(Rejection::new(409, Reason::NothingToUndo));
        }
        if !self.followers.is_empty() {
            self.current_svg();
        }
        self.stop_thinking();
        let ply = history - n;
        let ply_i = i64::try_from(ply).unwrap_or(i64::MAX);
        self.commit(EventKind::Undo { ply }, Some(ply_i), None, None, None).await?;
        self.game = game;
        self.shown.truncate(ply);
        self.row.draw_offer = None;
        self.row.undos += 1;
        self.publish(EventKind::Undo { ply }, true);
        self.maybe_think();
        Ok(())
    }

    /// Writes one change with the draw offer pending after it; on success the version moves on.
    async fn commit(
        &mut self,
        kind: EventKind,
        remove_from: Option<i64>,
        add: Option<(i64, &str)>,
        finish: Option<Ended>,
        draw_offer: Option<Player>,
    ) -> Result<(), Rejection> {
        let version = self.version + 1;
        let clock = self.clock_after(&kind, finish.is_some(), ply_store::now_ms());
        let stored = StoredEvent { version, kind, clock: clock.map(ClockWire::from) };
        let body = serde_json::to_string(&stored).expect("events serialize");
        let change = Change { version, remove_from, add, body: &body, finish, draw_offer, clock };
        match self.shared.store.record(&self.row.id, &change).await {
            Ok(()) => {
                self.version = version;
                if clock.is_some() {
                    self.row.clock_state = clock;
                }
                if finish.is_some() {
                    self.shared.archive_wake.notify_one();
                }
                if finish.is_some() && self.row.rated {
                    // The ratings change once, whichever node ends the game (the store keeps
                    // which games were rated).
                    let store = self.shared.store.clone();
                    let id = self.row.id.clone();
                    tokio::spawn(async move {
                        if let Err(e) = store.rate_game(&id).await {
                            tracing::warn!("rating game {id}: {e}");
                        }
                    });
                }
                Ok(())
            }
            // Another writer changed the game (another node, a race): the caller puts back
            // what it changed, and the room takes the game again from the store.
            Err(StoreError::Conflict) => Err(Rejection::new(409, Reason::Race)),
            Err(e) if e.is_unavailable() => {
                tracing::error!("cannot store a change of {}: {e}", self.row.id);
                Err(Rejection::new(503, Reason::CannotSave))
            }
            Err(e) => {
                tracing::error!("storing a change of {}: {e}", self.row.id);
                Err(Rejection::new(500, Reason::SaveFailed(e.to_string())))
            }
        }
    }

    /// Takes the game again from the store after another writer changed it; followers get
    /// the whole state.
    async fn reload(&mut self) {
        let Ok(fresh) = Room::load(self.shared.clone(), &self.row.id, self.tx.clone()).await else {
            return;
        };
        self.stop_thinking();
        self.row = fresh.row;
        self.names = fresh.names;
        self.game = fresh.game;
        self.shown = fresh.shown;
        self.version = fresh.version;
        self.svg = None;
        self.recent.clear();
        self.choices = None;
        self.choices_msg = None;
        self.steps = None;
        let state = ServerMsg::State { view: Box::new(self.live_view()) };
        self.send_all(&Arc::from(state.to_json()));
        self.send_choices();
        self.maybe_think();
    }

    /// Tells every follower of the change just committed: the event with the new state, and
    /// to the seat to move, its choices.
    fn publish(&mut self, kind: EventKind, board_changed: bool) {
        self.choices = None;
        self.choices_msg = None;
        self.steps = None;
        let board = if board_changed {
            match self.svg.take() {
                Some(old) if !self.followers.is_empty() => {
                    let new = self.game.svg();
                    let patch = patch::diff(&old, &new);
                    self.svg = Some(new);
                    let (last_path, motions) = self.last_shown();
                    Some(BoardChange { patch, last_path, motions })
                }
                _ => None,
            }
        } else {
            None
        };
        let exact = !board_changed || board.is_some();
        let finished = self.finished();
        let event = Event {
            version: self.version,
            kind,
            to_move: self.game.to_move(),
            status_line: self.game.status_line(),
            live: !finished,
            result: result_view(self.ended(), &*self.game),
            draw_offer: self.row.draw_offer.filter(|_| !finished),
            thinking: self.thinking.is_some(),
            board,
            clock: self.clock_view(),
            rematch_offer: self.rematch_offer,
            rematch: self.row.rematch_id.clone(),
        };
        let text: Arc<str> = Arc::from(ServerMsg::Event(Box::new(event)).to_json());
        if exact && !self.followers.is_empty() {
            self.recent.push_back((self.version, text.clone()));
            while self.recent.len() > RECENT_EVENTS {
                self.recent.pop_front();
            }
        } else {
            // Nobody could apply it to a picture: whoever comes back gets the whole state.
            self.recent.clear();
        }
        self.send_all(&text);
        self.send_choices();
    }

    /// Sends `text` to every follower; one whose queue is full is dropped (it reconnects and
    /// catches up), so a slow reader never holds anybody up.
    fn send_all(&mut self, text: &Arc<str>) {
        self.followers.retain(|f| f.queue.try_send(text.clone()).is_ok());
        if self.followers.is_empty() {
            self.svg = None;
        }
    }

    fn send_choices(&mut self) {
        let movers: Vec<u64> =
            self.followers.iter().filter(|f| self.may_choose(&f.seats)).map(|f| f.id).collect();
        if movers.is_empty() {
            return;
        }
        let Some(msg) = self.root_choices() else { return };
        self.followers.retain(|f| !movers.contains(&f.id) || f.queue.try_send(msg.clone()).is_ok());
    }

    fn thinking_changed(&mut self) {
        let on = self.thinking.is_some();
        self.send_all(&Arc::from(ServerMsg::Thinking { on }.to_json()));
    }

    fn stop_thinking(&mut self) {
        if let Some(stop) = self.thinking.take() {
            stop.store(true, Ordering::Relaxed);
        }
    }

    fn hint(&mut self, token: Option<&str>, reply: Reply<ServerMsg>) {
        match self.hint_engine(token) {
            Err(r) => {
                let _ = reply.send(Err(r));
            }
            Ok(HintSearch { mut engine, think, tx }) => {
                let version = self.version;
                let sem = self.shared.think.queue(&think);
                self.hints += 1;
                tokio::spawn(async move {
                    let best = match sem.acquire_owned().await {
                        Err(_) => None,
                        Ok(_permit) => tokio::task::spawn_blocking(move || {
                            engine.think(&think, &Arc::new(AtomicBool::new(false))).map(|t| t.best)
                        })
                        .await
                        .ok()
                        .flatten(),
                    };
                    let _ = tx.send(Cmd::HintFound { version, best, reply }).await;
                });
            }
        }
    }

    /// An engine set at this position for a hint to the holder of `token`.
    fn hint_engine(&self, token: Option<&str>) -> Result<HintSearch, Rejection> {
        let seats = self.seats(token);
        if seats.is_empty() {
            return Err(Rejection::new(403, Reason::Spectator));
        }
        if self.finished() {
            return Err(Rejection::new(409, Reason::HintOver));
        }
        if self.row.mode == Mode::Invite {
            return Err(Rejection::new(403, Reason::HintBetweenPeople));
        }
        if !seats.contains(&self.game.to_move()) || self.thinking.is_some() {
            return Err(Rejection::new(409, Reason::HintNotYourTurn));
        }
        let entry = ply_games::engine(&self.row.game)
            .map_err(|_| Rejection::new(404, Reason::NoComputer))?;
        let mut engine = entry
            .new_engine(&self.row.variant)
            .map_err(|_| Rejection::new(500, Reason::HintFailed))?;
        if !engine.set_position(&*self.game) {
            return Err(Rejection::new(500, Reason::HintFailed));
        }
        let tx = self.tx.upgrade().ok_or_else(gone)?;
        Ok(HintSearch { engine, think: entry.level(6, None), tx })
    }

    fn hint_found(&self, version: i64, best: Option<String>) -> Result<ServerMsg, Rejection> {
        if version != self.version {
            return Err(Rejection::new(409, Reason::ChoicesStale));
        }
        let best = best.ok_or_else(|| Rejection::new(500, Reason::HintFailed))?;
        let path =
            self.game.click_path(&best).map_err(|_| Rejection::new(500, Reason::HintFailed))?;
        Ok(ServerMsg::Hint { notation: best, path })
    }

    /// The search settings of the computer of this game.
    fn think(&self, entry: &ply_search::EngineEntry) -> Think {
        let level = self.row.level.unwrap_or(3).clamp(1, 10);
        let mut think = entry.level(level, None);
        // One seed per game, so the engine keeps its memory from turn to turn (a new seed
        // would make a new searcher) and a game is reproducible.
        think.seed = seed_of(&self.row.id);
        // On a clock the computer manages its time: a timed search takes at most a
        // twentieth of what is left plus most of the increment, so it never runs out.
        if let (Some(Clock::Fischer { increment_ms, .. }), Some(view)) =
            (self.row.clock, self.clock_view())
        {
            let seat = self.game.to_move();
            let left = if seat == Player::P1 { view.left_ms.P1 } else { view.left_ms.P2 };
            let budget = (left / 20 + increment_ms * 3 / 4).max(20);
            let budget = std::time::Duration::from_millis(u64::try_from(budget).unwrap_or(20));
            if let Some(t) = think.limits.time {
                think.limits.time = Some(t.min(budget));
            }
        }
        think
    }

    /// Starts the computer's search when it is its turn.
    fn maybe_think(&mut self) {
        let Some(seat) = self.computer_seat() else { return };
        if self.finished() || self.game.to_move() != seat || self.thinking.is_some() {
            return;
        }
        let Ok(entry) = ply_games::engine(&self.row.game) else { return };
        let engine = self
            .shared
            .engines
            .take(&self.row.id)
            .or_else(|| entry.new_engine(&self.row.variant).ok());
        let Some(mut engine) = engine else { return };
        if !engine.set_position(&*self.game) {
            tracing::error!("the engine of {} does not take its position", self.row.id);
            return;
        }
        let think = self.think(&entry);
        let stop = Arc::new(AtomicBool::new(false));
        self.thinking = Some(stop.clone());
        self.thinking_changed();
        let version = self.version;
        tracing::debug!("the computer thinks in {} at version {version}", self.row.id);
        let sem = self.shared.think.queue(&think);
        let Some(tx) = self.tx.upgrade() else { return };
        let search = Arc::clone(&stop);
        // With several nodes on one database, the node holding the lease searches; the others
        // wait for its move (notified) or for the lease to run out (it stopped).
        let lease = (self.shared.store.backend() == ply_store::Backend::Postgres)
            .then(|| (self.shared.store.clone(), self.row.id.clone(), self.shared.node.clone()));
        tokio::spawn(async move {
            if let Some((store, id, node)) = lease {
                let until_ms = ply_store::now_ms() + i64::try_from(LEASE.as_millis()).unwrap_or(0);
                if !store.take_lease(&id, &node, until_ms).await.unwrap_or(false) {
                    let _ = tx.send(Cmd::LeaseBusy { version, until_ms, engine }).await;
                    return;
                }
            }
            let (engine, best) = match sem.acquire_owned().await {
                Err(_) => (None, None),
                Ok(_permit) => tokio::task::spawn_blocking(move || {
                    if stop.load(Ordering::Relaxed) {
                        return (Some(engine), None);
                    }
                    let best = engine.think(&think, &stop).map(|t| t.best);
                    (Some(engine), best)
                })
                .await
                .unwrap_or((None, None)),
            };
            let _ = tx.send(Cmd::Thought { search, version, engine, best, attempt: 0 }).await;
        });
    }

    /// Another node holds the lease on the computer's move until `until_ms`: wait for its
    /// move (a notification) and look again when the lease has run out. Meanwhile the game
    /// shows the computer thinking.
    fn lease_busy(&mut self, version: i64, until_ms: i64) {
        if version != self.version {
            return;
        }
        self.awaiting_lease = true;
        let Some(tx) = self.tx.upgrade() else { return };
        let wait =
            Duration::from_millis(u64::try_from(until_ms - ply_store::now_ms()).unwrap_or(0) + 100);
        tokio::spawn(async move {
            tokio::time::sleep(wait).await;
            let _ = tx.send(Cmd::Changed { version: None }).await;
        });
    }

    /// Catches up with what another node committed: the stored events after this room's
    /// version are applied and sent on as events (so followers here get patches, not the
    /// whole state); when they cannot be (too old, or they do not fit), the room takes the
    /// game again from the store.
    async fn changed(&mut self, version: Option<i64>) {
        if version.is_some_and(|v| v <= self.version) {
            return;
        }
        let events = match self.shared.store.events_since(&self.row.id, self.version, 64).await {
            Ok(events) => events,
            Err(e) => {
                tracing::warn!("catching up {}: {e}", self.row.id);
                return;
            }
        };
        if events.is_empty() {
            if version.is_some() {
                self.reload().await;
            } else if std::mem::take(&mut self.awaiting_lease) {
                // Nothing new, and the lease another node held ran out: the computer's move
                // is this node's to search now. (A search of this node's own goes on.)
                self.stop_thinking();
                self.maybe_think();
            }
            return;
        }
        for (v, body) in events {
            let Ok(stored) = serde_json::from_str::<StoredEvent>(&body) else {
                return self.reload().await;
            };
            if v != self.version + 1 || !self.apply(&stored.kind) {
                return self.reload().await;
            }
            if let Some(c) = stored.clock {
                self.row.clock_state = Some(c.into());
            }
            self.version = v;
            let board = matches!(stored.kind, EventKind::Move { .. } | EventKind::Undo { .. });
            self.publish(stored.kind, board);
        }
        self.maybe_think();
    }

    /// Applies a change another node made; `false` when it does not fit this position.
    fn apply(&mut self, kind: &EventKind) -> bool {
        if !self.followers.is_empty()
            && matches!(kind, EventKind::Move { .. } | EventKind::Undo { .. })
        {
            // The patch needs the picture before the change.
            self.current_svg();
        }
        match kind {
            EventKind::Move { notation, ply, .. } => {
                if *ply != self.game.history().len() {
                    return false;
                }
                let Ok(turn) = self.game.play_shown(notation) else { return false };
                self.shown.push(Shown {
                    path: turn.path,
                    motions: turn.motions.iter().map(MotionView::from).collect(),
                });
                self.row.draw_offer = None;
                if let Some(outcome) = self.game.outcome() {
                    self.row.ended = Some(Ended { outcome, reason: EndReason::Rules });
                }
            }
            EventKind::Undo { ply } => {
                if *ply > self.game.history().len() {
                    return false;
                }
                while self.game.history().len() > *ply {
                    self.game.undo();
                }
                self.shown.truncate(*ply);
                self.row.draw_offer = None;
                self.row.undos += 1;
            }
            EventKind::Resign { player } => {
                let outcome = Outcome::Win(player.other());
                self.row.ended = Some(Ended { outcome, reason: EndReason::Resigned });
            }
            EventKind::DrawOffer { player } => self.row.draw_offer = Some(*player),
            EventKind::DrawDecline { .. } => self.row.draw_offer = None,
            EventKind::Draw { .. } => {
                self.row.ended = Some(Ended { outcome: Outcome::Draw, reason: EndReason::Agreed });
                self.row.draw_offer = None;
            }
            EventKind::Timeout { player } => {
                let outcome = Outcome::Win(player.other());
                self.row.ended = Some(Ended { outcome, reason: EndReason::Time });
                self.row.draw_offer = None;
            }
            EventKind::RematchOffer { player } => self.rematch_offer = Some(*player),
            EventKind::RematchDecline { .. } => self.rematch_offer = None,
            EventKind::Rematch { game } => {
                self.rematch_offer = None;
                self.row.rematch_id = Some(game.clone());
            }
        }
        // Whatever this node was searching (or waiting) for is answered by the other node.
        self.stop_thinking();
        self.awaiting_lease = false;
        true
    }

    async fn computer_moved(
        &mut self,
        search: &Arc<AtomicBool>,
        version: i64,
        best: Option<String>,
        attempt: u32,
    ) {
        let current = self.thinking.as_ref().is_some_and(|t| Arc::ptr_eq(t, search));
        if version != self.version || !current {
            // The position changed (undo, resign, a reload) while it thought, or this search
            // was stopped and another one started: a stale answer.
            tracing::debug!(
                "a stale answer in {}: found at version {version}, now {} (its search current: \
                 {current})",
                self.row.id,
                self.version
            );
            return;
        }
        let Some(seat) = self.computer_seat() else { return };
        let Some(notation) = best else {
            tracing::warn!("the computer found no move in {}", self.row.id);
            self.thinking = None;
            self.thinking_changed();
            return;
        };
        let searching = self.thinking.take();
        match self.play(&notation, seat).await {
            Ok(()) => {}
            Err(e) if e.status == 503 => {
                // The store cannot write now: keep the move and try again later, so the game
                // is not left waiting for a move that was found but never saved. Still
                // "thinking" until it is stored.
                self.thinking = searching;
                let delay = Duration::from_millis(250 << attempt.min(7));
                tracing::warn!(
                    "the computer's move {notation} in {} is not saved yet; again in {delay:?}",
                    self.row.id
                );
                let Some(tx) = self.tx.upgrade() else { return };
                let search = Arc::clone(search);
                tokio::spawn(async move {
                    tokio::time::sleep(delay).await;
                    let cmd = Cmd::Thought {
                        search,
                        version,
                        engine: None,
                        best: Some(notation),
                        attempt: attempt + 1,
                    };
                    let _ = tx.send(cmd).await;
                });
            }
            Err(e) if e.reason == Reason::Race => self.reload().await,
            Err(e) => {
                tracing::error!(
                    "the computer's move {notation} in {}: {}",
                    self.row.id,
                    e.message(crate::i18n::Lang::En)
                );
                self.thinking_changed();
            }
        }
    }
}
