//! Every message of the game WebSocket (`/ws/{id}`), both ways, as serde types, and the
//! views of a game the HTTP API and the page share. `docs/http-api.md` describes them with an
//! example of each.
//!
//! The shape follows lichess: the full state of a game goes out only when a client says
//! `hello` (or has fallen too far behind); after that each change is a small versioned
//! [`Event`] carrying the move and what changed on the board (an [`SvgPatch`]), never the
//! whole view; the legal moves go only to the connections holding the seat to move, as a
//! compact trie of click paths ([`Choices`]).

use ply_core::{Motion, Player};
use serde::{Deserialize, Serialize};

/// The version of this protocol, sent in `welcome`; a `hello` that names none gets it.
pub const PROTOCOL: u32 = 2;

/// The largest WebSocket message a client may send, in bytes.
pub const MAX_CLIENT_MESSAGE: usize = 64 * 1024;

/// A message from a client.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(tag = "type", rename_all = "kebab-case", deny_unknown_fields)]
pub enum ClientMsg {
    /// Start (or resume) following the game. `version` is the last version the client holds
    /// (`null`: none); `protocol` the protocol it speaks (`null`: the current one).
    Hello {
        #[serde(default)]
        protocol: Option<u32>,
        #[serde(default)]
        version: Option<i64>,
    },
    /// Play a move, named by its notation (`move`) or by its click path (`path`).
    Move {
        #[serde(default, rename = "move", skip_serializing_if = "Option::is_none")]
        notation: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        path: Option<Vec<String>>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        version: Option<i64>,
    },
    Undo {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        version: Option<i64>,
    },
    Resign {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        version: Option<i64>,
    },
    Draw {
        action: DrawAction,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        version: Option<i64>,
    },
    /// The continuations of a clicked prefix: the part of the choices trie cut off there,
    /// and the notation of the moves under it when they are few.
    Choices {
        version: i64,
        #[serde(default)]
        prefix: Vec<String>,
    },
    /// What the clicks `prefix` decide: the help of the next click and a picture of the turn
    /// being built (answered by [`ServerMsg::Preview`]).
    Preview {
        version: i64,
        #[serde(default)]
        prefix: Vec<String>,
    },
    /// A rematch with colours swapped, between the people of a finished game.
    Rematch {
        action: DrawAction,
    },
    Hint,
    Ping,
}

/// What to do about a draw by agreement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum DrawAction {
    Offer,
    Accept,
    Decline,
}

/// A message to a client.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum ServerMsg {
    /// The answer to `hello`: what this connection may do, and where the game is.
    Welcome {
        protocol: u32,
        seats: Vec<Player>,
        version: i64,
        thinking: bool,
    },
    /// The whole state of the game (after `hello`, when the client cannot catch up by events).
    State {
        view: Box<LiveView>,
    },
    /// One committed change.
    Event(Box<Event>),
    /// The legal moves, to the connections holding the seat to move.
    Choices(Box<Choices>),
    /// The computer started or stopped searching.
    Thinking {
        on: bool,
    },
    /// The computer's suggestion, on the caller's turn.
    /// The answer to [`ClientMsg::Preview`]: `step` is the message id (in the page's
    /// messages) of what the next click does, `overlay` an SVG fragment to draw over the board.
    Preview {
        version: i64,
        prefix: Vec<String>,
        step: String,
        overlay: String,
    },
    Hint {
        #[serde(rename = "move")]
        notation: String,
        path: Vec<String>,
    },
    /// A refused request: nothing changed.
    Error {
        status: u16,
        code: String,
        message: String,
    },
    Pong,
}

impl ServerMsg {
    /// The message as JSON text.
    #[must_use]
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("protocol messages serialize")
    }
}

/// How a game ended, for people and programs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResultView {
    /// `null` for a draw.
    pub winner: Option<Player>,
    pub draw: bool,
    pub reason: ReasonView,
    /// For a game over by its rules, why, as a message id of the game's texts (e.g.
    /// `end-three-in-row`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end: Option<String>,
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ReasonView {
    Rules,
    Resigned,
    Agreed,
    Time,
    /// A game read from a record that names its result but not why.
    Record,
}

/// How a game is played, on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ModeView {
    Computer,
    Hotseat,
    Invite,
    /// A finished game read from a record (the archive).
    Imported,
}

/// A piece that travelled in a turn (see [`ply_core::View::motions`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MotionView {
    pub piece: String,
    pub from: String,
}

impl From<&Motion> for MotionView {
    fn from(m: &Motion) -> MotionView {
        MotionView { piece: m.piece.clone(), from: m.from.clone() }
    }
}

/// The state of a game as people see it: everything but the legal moves.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LiveView {
    pub id: String,
    /// The number of events so far; every change adds one.
    pub version: i64,
    pub game: String,
    pub variant: String,
    pub display_name: String,
    pub mode: ModeView,
    pub level: Option<u8>,
    pub computer_seat: Option<Player>,
    pub to_move: Player,
    pub status_line: String,
    /// The board as SVG, with stable ids on every clickable item and piece.
    pub svg: String,
    /// The turns played, canonical notation.
    pub history: Vec<String>,
    /// The click path of the last turn.
    pub last_path: Vec<String>,
    /// The pieces the last turn moved.
    pub motions: Vec<MotionView>,
    pub result: Option<ResultView>,
    pub live: bool,
    pub thinking: bool,
    pub can_hint: bool,
    pub can_undo: bool,
    pub can_draw: bool,
    pub draw_offer: Option<Player>,
    /// The clocks, in games with a time control.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<ClockView>,
    /// The names of the people in the seats, when known.
    #[serde(default)]
    pub players: PlayersView,
    /// Whether the result changes the players' ratings.
    #[serde(default)]
    pub rated: bool,
    /// After the game: the seat offering a rematch, and the game of an agreed rematch.
    #[serde(default)]
    pub rematch_offer: Option<Player>,
    #[serde(default)]
    pub rematch: Option<String>,
}

/// The names of the people in the seats.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[allow(non_snake_case)]
pub struct PlayersView {
    pub P1: Option<String>,
    pub P2: Option<String>,
}

/// A legal move and its click path.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LegalMove {
    /// Notation.
    pub m: String,
    /// Click path.
    pub p: Vec<String>,
}

/// The view of `GET /api/games/{id}` and of the answers of the write endpoints: the live view,
/// every legal move with its click path, and the caller's seats.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HttpView {
    #[serde(flatten)]
    pub view: LiveView,
    pub moves: Vec<LegalMove>,
    pub seats: Vec<Player>,
}

/// What a change did, as stored in the database and sent in [`Event`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum EventKind {
    /// `player` played `move` as turn number `ply` (from 0).
    Move {
        #[serde(rename = "move")]
        notation: String,
        player: Player,
        ply: usize,
    },
    /// The turns from `ply` on were taken back.
    Undo {
        ply: usize,
    },
    Resign {
        player: Player,
    },
    DrawOffer {
        player: Player,
    },
    DrawDecline {
        player: Player,
    },
    /// A draw was agreed; `player` accepted it.
    Draw {
        player: Player,
    },
    /// `player` ran out of time.
    Timeout {
        player: Player,
    },
    /// After the game: `player` offers a rematch with colours swapped.
    RematchOffer {
        player: Player,
    },
    RematchDecline {
        player: Player,
    },
    /// The rematch was agreed: the players went on to `game`.
    Rematch {
        game: String,
    },
}

/// An event as the database keeps it: its version and what happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredEvent {
    pub version: i64,
    #[serde(flatten)]
    pub kind: EventKind,
    /// Where the clocks stand after it (games with a clock), so every node knows.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<ClockWire>,
}

/// The stored clocks of an event: each seat's time left at the start of the turn, when the
/// turn began and the deadline of the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockWire {
    pub left_ms: [i64; 2],
    pub turn_started_ms: i64,
    pub deadline_ms: Option<i64>,
}

/// A time control as the API takes and shows it: `{"initial_s": 300, "increment_s": 3}`
/// (Fischer) or `{"days": 2}` (correspondence).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged, deny_unknown_fields)]
pub enum ClockControl {
    Fischer { initial_s: u32, increment_s: u32 },
    Correspondence { days: u32 },
}

/// The clocks in a view or event: the time control, each seat's time left when this was sent
/// (the running one counts down from there) and whose clock runs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockView {
    pub control: ClockControl,
    pub left_ms: ClockLeft,
    pub running: Option<Player>,
}

/// Milliseconds left per seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[allow(non_snake_case)]
pub struct ClockLeft {
    pub P1: i64,
    pub P2: i64,
}

impl ClockView {
    #[must_use]
    pub fn new(control: ClockControl, left: [i64; 2], running: Option<Player>) -> ClockView {
        ClockView { control, left_ms: ClockLeft { P1: left[0], P2: left[1] }, running }
    }
}

/// One committed change, as every follower of the game receives it: what happened, the
/// state after it, and (when the board changed) how to turn the old picture into the new.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Event {
    pub version: i64,
    #[serde(flatten)]
    pub kind: EventKind,
    pub to_move: Player,
    pub status_line: String,
    pub live: bool,
    pub result: Option<ResultView>,
    pub draw_offer: Option<Player>,
    pub thinking: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rematch_offer: Option<Player>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rematch: Option<String>,
    /// Present when the board changed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub board: Option<BoardChange>,
    /// The clocks after it, in games with a time control.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<ClockView>,
}

/// How the board changed in an [`Event`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardChange {
    /// Turns the picture the client holds into the new one (see [`crate::patch`]).
    pub patch: SvgPatch,
    /// The click path of the last turn now (after an undo: of the turn before).
    pub last_path: Vec<String>,
    /// The pieces that turn moved.
    pub motions: Vec<MotionView>,
}

/// An edit of an SVG text: the new text is the concatenation of the items, where
/// `[start, count]` copies `count` tokens of the old text from token `start`, and a string is
/// new text. Tokens are tags (`<` to the next `>`) and the text between them.
pub type SvgPatch = Vec<PatchItem>;

/// One item of an [`SvgPatch`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum PatchItem {
    Copy([usize; 2]),
    Text(String),
}

/// The legal moves of a position as a trie of click paths (see [`crate::choices`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Choices {
    /// The version of the position.
    pub version: i64,
    /// The clicks the trie starts after (`[]`: the whole turn).
    pub prefix: Vec<String>,
    /// The item ids the trie names, by code.
    pub ids: Vec<String>,
    /// The trie: see [`crate::choices`] for its grammar.
    pub tree: String,
    /// The moves under the prefix with their notation, when they are few (for buttons).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moves: Option<Vec<LegalMove>>,
}

/// A request for a new game (JSON body of `POST /api/games`, form of `POST /games`).
#[derive(Clone, Debug, Deserialize)]
pub struct CreateRequest {
    pub game: String,
    #[serde(default)]
    pub variant: Option<String>,
    /// `computer`, `hotseat` or `invite`; a form may also send `computer-N`.
    pub opponent: String,
    #[serde(default)]
    pub level: Option<u8>,
    /// `P1`, `P2` or `random`: the seat of the person creating the game.
    #[serde(default)]
    pub seat: Option<String>,
    /// The time control: `{"initial_s": 300, "increment_s": 3}` or `{"days": 2}`.
    #[serde(default)]
    pub clock: Option<ClockControl>,
    /// The time control as a form writes it: `5+3` (minutes + seconds), `2d` (days per
    /// turn), or `none`.
    #[serde(default)]
    pub time: Option<String>,
}
