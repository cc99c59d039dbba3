//! One task per live game: it owns the position, serialises every change, writes it to the
//! store and only then broadcasts it as a versioned event.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use ply_core::{AnyGame, Outcome, Player};
use ply_search::Think;
use ply_store::{Change, EndReason, Ended, GameRow, Mode, Store, StoreError};

use crate::i18n::Lang;
use serde_json::{Value, json};
use tokio::sync::{Semaphore, broadcast, mpsc, oneshot};

/// Why a request was refused: a message for people and an HTTP-like status.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rejection {
    pub status: u16,
    pub reason: Reason,
}

impl Rejection {
    fn new(status: u16, reason: Reason) -> Rejection {
        Rejection { status, reason }
    }

    /// The message for a person who reads `lang`.
    #[must_use]
    pub fn message(&self, lang: Lang) -> String {
        self.reason.message(lang)
    }
}

/// Why the server refused an action, translated when it is shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The game's task has stopped.
    Gone,
    /// The caller holds no seat of this game.
    Spectator,
    /// The caller acted on an old version.
    Stale {
        sent: i64,
        now: i64,
    },
    Over,
    NotYourTurn {
        mover: Player,
        computer: bool,
    },
    ComputerRefusesDraws,
    /// The game (by its display name) cannot be drawn.
    NoDraws(String),
    NoOfferToAccept,
    NoOfferToDecline,
    /// The move and the rules crate's explanation (in English: the game crates speak it).
    Illegal {
        text: String,
        detail: String,
    },
    UndoNotHere,
    NothingToUndo,
    /// Another action changed the game between reading and saving.
    Race,
    /// The store cannot write (a full disk, an I/O error): nothing was saved.
    CannotSave,
    SaveFailed(String),
    /// The stored game cannot be played back (a damaged database).
    Damaged(String),
    /// The engine failed to find a hint.
    HintFailed,
    HintNotYourTurn,
    HintOver,
    NoComputer,
    BadDrawAction,
}

impl Reason {
    /// The message in `lang`.
    #[must_use]
    pub fn message(&self, lang: Lang) -> String {
        let [en, ko, ru] = match self {
            Reason::Gone => [
                "The game's task stopped; reload the page.".to_string(),
                "게임 작업이 멈췄습니다. 페이지를 새로 고치세요.".to_string(),
                "Процесс игры остановился; перезагрузите страницу.".to_string(),
            ],
            Reason::Spectator => [
                "You are watching this game: only its players can move. (Open your invite link to take your seat.)".to_string(),
                "이 게임을 관전하고 있습니다. 수는 대국자만 둘 수 있습니다. (자리에 앉으려면 초대 링크를 여세요.)".to_string(),
                "Вы наблюдаете за этой партией: ходить могут только её игроки. (Чтобы занять своё место, откройте ссылку-приглашение.)".to_string(),
            ],
            Reason::Stale { sent, now } => [
                format!("The game has moved on (you sent version {sent}, it is at {now}); the board was refreshed."),
                format!("게임이 이미 진행되었습니다(보낸 버전 {sent}, 현재 {now}). 판을 새로 고쳤습니다."),
                format!("Партия ушла вперёд (вы отправили версию {sent}, сейчас {now}); доска обновлена."),
            ],
            Reason::Over => [
                "The game is over.".to_string(),
                "게임이 끝났습니다.".to_string(),
                "Партия окончена.".to_string(),
            ],
            Reason::NotYourTurn { mover, computer } => {
                let [en, ko, ru] = if *computer {
                    ["the computer", "컴퓨터", "компьютер"]
                } else {
                    ["your opponent", "상대", "соперник"]
                };
                [
                    format!("It is not your turn: {mover} ({en}) moves now."),
                    format!("당신의 차례가 아닙니다. 지금은 {mover}({ko})의 차례입니다."),
                    format!("Сейчас не ваш ход: ходит {mover} ({ru})."),
                ]
            }
            Reason::ComputerRefusesDraws => [
                "The computer does not agree to draws.".to_string(),
                "컴퓨터는 무승부에 동의하지 않습니다.".to_string(),
                "Компьютер не соглашается на ничью.".to_string(),
            ],
            Reason::NoDraws(game) => [
                format!("{game} has no draws: every game ends with a winner."),
                format!("{game}에는 무승부가 없습니다. 모든 게임에 승자가 있습니다."),
                format!("В {game} не бывает ничьих: в каждой партии есть победитель."),
            ],
            Reason::NoOfferToAccept => [
                "There is no draw offer to accept.".to_string(),
                "받아들일 무승부 제안이 없습니다.".to_string(),
                "Нет предложения ничьей, которое можно принять.".to_string(),
            ],
            Reason::NoOfferToDecline => [
                "There is no draw offer to decline.".to_string(),
                "거절할 무승부 제안이 없습니다.".to_string(),
                "Нет предложения ничьей, которое можно отклонить.".to_string(),
            ],
            Reason::Illegal { text, detail } => [
                format!("{text} is not a legal move here: {detail}"),
                format!("{text}: 지금 둘 수 없는 수입니다 ({detail})"),
                format!("{text} — здесь недопустимый ход: {detail}"),
            ],
            Reason::UndoNotHere => [
                "Undo is for games against the computer or at one screen.".to_string(),
                "무르기는 컴퓨터와 두는 게임이나 한 화면에서 두는 게임에서만 할 수 있습니다.".to_string(),
                "Ход можно вернуть только в партии с компьютером или за одним экраном.".to_string(),
            ],
            Reason::NothingToUndo => [
                "There is no move of yours to take back.".to_string(),
                "무를 수 있는 당신의 수가 없습니다.".to_string(),
                "Нет вашего хода, который можно вернуть.".to_string(),
            ],
            Reason::Race => [
                "Another move got there first; try again.".to_string(),
                "다른 수가 먼저 들어왔습니다. 다시 해 보세요.".to_string(),
                "Другой ход успел раньше; попробуйте ещё раз.".to_string(),
            ],
            Reason::CannotSave => [
                "The server cannot save games right now, so nothing was changed; try again in a moment.".to_string(),
                "지금은 서버가 게임을 저장할 수 없어 아무것도 바뀌지 않았습니다. 잠시 후 다시 해 보세요.".to_string(),
                "Сервер сейчас не может сохранять партии, поэтому ничего не изменилось; попробуйте чуть позже.".to_string(),
            ],
            Reason::Damaged(e) => [
                format!("This game is damaged in the database and cannot be played on: {e}"),
                format!("이 게임은 데이터베이스에서 손상되어 계속 둘 수 없습니다: {e}"),
                format!("Эта партия повреждена в базе данных, продолжить её нельзя: {e}"),
            ],
            Reason::HintFailed => [
                "The computer could not find a hint; try again.".to_string(),
                "컴퓨터가 힌트를 찾지 못했습니다. 다시 해 보세요.".to_string(),
                "Компьютер не смог найти подсказку; попробуйте ещё раз.".to_string(),
            ],
            Reason::SaveFailed(e) => [
                format!("The move could not be saved: {e}"),
                format!("수를 저장하지 못했습니다: {e}"),
                format!("Не удалось сохранить ход: {e}"),
            ],
            Reason::HintNotYourTurn => [
                "Hints are given on your own turn.".to_string(),
                "힌트는 당신의 차례에만 받을 수 있습니다.".to_string(),
                "Подсказка доступна только в ваш ход.".to_string(),
            ],
            Reason::HintOver => [
                "No hint: the game is over.".to_string(),
                "힌트 없음: 게임이 끝났습니다.".to_string(),
                "Подсказки нет: партия окончена.".to_string(),
            ],
            Reason::NoComputer => [
                "This game has no computer player.".to_string(),
                "이 게임에는 컴퓨터 상대가 없습니다.".to_string(),
                "В этой игре нет компьютерного соперника.".to_string(),
            ],
            Reason::BadDrawAction => [
                "A draw action is offer, accept or decline.".to_string(),
                "무승부 동작은 offer, accept, decline 중 하나입니다.".to_string(),
                "Действие с ничьей: offer, accept или decline.".to_string(),
            ],
        };
        match lang {
            Lang::En => en,
            Lang::Ko => ko,
            Lang::Ru => ru,
        }
    }
}

/// What a seat holder (or anyone) asks of a game.
#[derive(Clone, Debug)]
pub enum Action {
    Move(String),
    Undo,
    Resign,
    /// Offer a draw by agreement (games between people); at one screen it is agreed at once.
    OfferDraw,
    /// Accept the other player's offer.
    AcceptDraw,
    /// Decline the other player's offer.
    DeclineDraw,
}

enum Cmd {
    Act {
        token: Option<String>,
        action: Action,
        version: Option<i64>,
        reply: oneshot::Sender<Result<Value, Rejection>>,
    },
    Subscribe {
        since: Option<i64>,
        reply: oneshot::Sender<(Vec<String>, broadcast::Receiver<Arc<str>>)>,
    },
    View {
        reply: oneshot::Sender<Value>,
    },
    Position {
        ply: usize,
        reply: oneshot::Sender<Option<Value>>,
    },
    Hint {
        token: Option<String>,
        reply: oneshot::Sender<Result<oneshot::Receiver<Option<String>>, Rejection>>,
    },
    HintPath {
        notation: String,
        reply: oneshot::Sender<Option<Vec<String>>>,
    },
    Computer {
        version: i64,
        notation: Option<String>,
        /// How many times storing this move has failed already.
        attempt: u32,
    },
    Record {
        reply: oneshot::Sender<String>,
    },
}

/// A handle on a live game's task.
#[derive(Clone, Debug)]
pub struct GameHandle {
    tx: mpsc::Sender<Cmd>,
    pub row: Arc<GameRow>,
}

fn gone() -> Rejection {
    Rejection::new(503, Reason::Gone)
}

impl GameHandle {
    /// Whether the game's task still runs.
    #[must_use]
    pub fn running(&self) -> bool {
        !self.tx.is_closed()
    }

    /// Plays, undoes or resigns for the holder of `token`; `version` (when given) must be the
    /// game's current version. Returns the new view.
    ///
    /// # Errors
    /// A [`Rejection`] saying why.
    pub async fn act(
        &self,
        token: Option<String>,
        action: Action,
        version: Option<i64>,
    ) -> Result<Value, Rejection> {
        let (reply, rx) = oneshot::channel();
        self.tx.send(Cmd::Act { token, action, version, reply }).await.map_err(|_| gone())?;
        rx.await.map_err(|_| gone())?
    }

    /// The events after `since` (all stored ones when `None` is not given: none) followed by
    /// the current state, and a receiver of every later event, with no gap between them.
    pub async fn subscribe(
        &self,
        since: Option<i64>,
    ) -> Option<(Vec<String>, broadcast::Receiver<Arc<str>>)> {
        let (reply, rx) = oneshot::channel();
        self.tx.send(Cmd::Subscribe { since, reply }).await.ok()?;
        rx.await.ok()
    }

    /// The current view.
    pub async fn view(&self) -> Option<Value> {
        let (reply, rx) = oneshot::channel();
        self.tx.send(Cmd::View { reply }).await.ok()?;
        rx.await.ok()
    }

    /// The board after `ply` turns.
    pub async fn position(&self, ply: usize) -> Option<Value> {
        let (reply, rx) = oneshot::channel();
        self.tx.send(Cmd::Position { ply, reply }).await.ok()?;
        rx.await.ok().flatten()
    }

    /// The record of the game as text.
    pub async fn record(&self) -> Option<String> {
        let (reply, rx) = oneshot::channel();
        self.tx.send(Cmd::Record { reply }).await.ok()?;
        rx.await.ok()
    }

    /// The computer's suggestion for the holder of `token`, as notation and click path.
    ///
    /// # Errors
    /// A [`Rejection`] when the game has no computer player or it is not their turn.
    pub async fn hint(&self, token: Option<String>) -> Result<Value, Rejection> {
        let (reply, rx) = oneshot::channel();
        self.tx.send(Cmd::Hint { token, reply }).await.map_err(|_| gone())?;
        let waiting = rx.await.map_err(|_| gone())??;
        let notation = waiting
            .await
            .map_err(|_| gone())?
            .ok_or_else(|| Rejection::new(500, Reason::HintFailed))?;
        let (reply, rx) = oneshot::channel();
        self.tx
            .send(Cmd::HintPath { notation: notation.clone(), reply })
            .await
            .map_err(|_| gone())?;
        let path = rx.await.map_err(|_| gone())?;
        Ok(json!({ "type": "hint", "move": notation, "path": path }))
    }
}

/// Shared by every game task.
#[derive(Clone, Debug)]
pub struct Shared {
    pub store: Store,
    /// Bounds the searches running at once on the blocking pool.
    pub think: Arc<Semaphore>,
}

struct Live {
    row: GameRow,
    game: Box<dyn AnyGame>,
    version: i64,
    thinking: Option<Arc<AtomicBool>>,
    /// The event just committed, waiting for its view to be broadcast.
    pending: Option<Value>,
    /// A draw offered by this player and not yet answered (kept in memory only).
    draw_offer: Option<Player>,
    events: broadcast::Sender<Arc<str>>,
    tx: mpsc::Sender<Cmd>,
    shared: Shared,
}

/// Starts the task of a stored game, replaying its moves.
///
/// # Errors
/// Store errors, or a message when the stored game cannot be replayed.
pub async fn start(shared: Shared, id: &str) -> Result<GameHandle, StoreError> {
    let (row, moves) = shared.store.load(id).await?;
    let damaged = |detail: String| StoreError::Corrupt { game: id.to_string(), detail };
    let registry = ply_games::registry();
    let entry = registry.get(&row.game).map_err(|e| damaged(e.to_string()))?;
    let mut game = entry.new_game(Some(&row.variant)).map_err(|e| damaged(e.to_string()))?;
    // A stored move that does not replay is damage to report, never a shorter game.
    for (i, m) in moves.iter().enumerate() {
        game.play(m)
            .map_err(|e| damaged(format!("stored turn {} ({m}) does not replay: {e}", i + 1)))?;
    }
    let (tx, rx) = mpsc::channel(256);
    let (events, _) = broadcast::channel(1024);
    let row = Arc::new(row);
    let mut live = Live {
        row: (*row).clone(),
        game,
        version: row.version,
        thinking: None,
        pending: None,
        draw_offer: row.draw_offer,
        events,
        tx: tx.clone(),
        shared,
    };
    tokio::spawn(async move {
        live.maybe_think();
        live.run(rx).await;
    });
    Ok(GameHandle { tx, row })
}

/// The search settings of computer level `level` for a game's engine.
fn think_at(entry: &ply_search::EngineEntry, level: u8) -> Think {
    entry.level(level, None)
}

impl Live {
    async fn run(&mut self, mut rx: mpsc::Receiver<Cmd>) {
        while let Some(cmd) = rx.recv().await {
            match cmd {
                Cmd::Act { token, action, version, reply } => {
                    let result = self.act(token.as_deref(), action, version).await;
                    let _ = reply.send(result);
                }
                Cmd::Subscribe { since, reply } => {
                    let mut out = Vec::new();
                    if let Some(since) = since.filter(|&v| v < self.version && v >= 0) {
                        match self.shared.store.events_since(&self.row.id, since, 10_000).await {
                            Ok(events) => out.extend(events.into_iter().map(|(_, body)| body)),
                            Err(e) => tracing::error!("events of {}: {e}", self.row.id),
                        }
                    }
                    out.push(json!({ "type": "state", "view": self.view() }).to_string());
                    let _ = reply.send((out, self.events.subscribe()));
                }
                Cmd::View { reply } => {
                    let _ = reply.send(self.view());
                }
                Cmd::Position { ply, reply } => {
                    let _ = reply.send(self.position(ply));
                }
                Cmd::Record { reply } => {
                    let mut record = ply_records::Record::of_game(&*self.game);
                    if let Some(Ended { outcome: Outcome::Win(w), reason: EndReason::Resigned }) =
                        self.row.ended
                    {
                        record.set_header("Termination", &format!("{} resigned", w.other()));
                        record.set_header(
                            "Result",
                            ply_records::GameResult::from_outcome(Some(Outcome::Win(w))).token(),
                        );
                    }
                    if self.row.ended.is_some_and(|e| e.reason == EndReason::Agreed) {
                        record.set_header("Termination", "draw agreed");
                        record.set_header("Result", ply_records::GameResult::Draw.token());
                    }
                    let _ = reply.send(record.to_string());
                }
                Cmd::Hint { token, reply } => {
                    let _ = reply.send(self.hint(token.as_deref()));
                }
                Cmd::HintPath { notation, reply } => {
                    let _ = reply.send(self.game.click_path(&notation).ok());
                }
                Cmd::Computer { version, notation, attempt } => {
                    self.computer_moved(version, notation, attempt).await;
                }
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

    fn computer_seat(&self) -> Option<Player> {
        (self.row.mode == Mode::Computer).then_some(self.row.computer_seat).flatten()
    }

    fn finished(&self) -> bool {
        !self.row.live() || self.game.outcome().is_some()
    }

    fn result_json(&self) -> Value {
        if let Some(ended) = self.row.ended {
            return json!({ "winner": ended.outcome.winner().map(Player::as_str),
                           "draw": ended.outcome == Outcome::Draw,
                           "reason": ended.reason.as_str() });
        }
        match self.game.outcome() {
            None => Value::Null,
            Some(Outcome::Draw) => json!({ "winner": null, "draw": true, "reason": "rules" }),
            Some(Outcome::Win(p)) => {
                json!({ "winner": p.as_str(), "draw": false, "reason": "rules" })
            }
        }
    }

    /// The click path of the last turn (to mark it) and the pieces it moved (to animate
    /// them), as JSON values `last_path` and `motions`.
    fn last_turn(game: &dyn AnyGame) -> (Value, Value) {
        let Some(last) = game.history().last().cloned() else { return (json!([]), json!([])) };
        let mut before = game.box_clone();
        before.undo();
        let path = before.click_path(&last).unwrap_or_default();
        let motions: Vec<Value> = before
            .motions(&last)
            .unwrap_or_default()
            .into_iter()
            .map(|m| json!({ "piece": m.piece, "from": m.from }))
            .collect();
        (json!(path), Value::Array(motions))
    }

    fn view(&self) -> Value {
        let finished = self.finished();
        let moves: Vec<Value> = if finished {
            Vec::new()
        } else {
            self.game.click_paths().into_iter().map(|(m, p)| json!({ "m": m, "p": p })).collect()
        };
        let has_engine = ply_games::engine(&self.row.game).is_ok();
        let (last_path, motions) = Self::last_turn(&*self.game);
        json!({
            "id": self.row.id,
            "version": self.version,
            "game": self.row.game,
            "variant": self.row.variant,
            "display_name": self.game.display_name(),
            "mode": self.row.mode.as_str(),
            "level": self.row.level,
            "computer_seat": self.computer_seat().map(Player::as_str),
            "to_move": self.game.to_move().as_str(),
            "status_line": self.game.status_line(),
            "svg": self.game.svg(),
            "moves": moves,
            "history": self.game.history(),
            "last_path": last_path,
            "motions": motions,
            "result": self.result_json(),
            "live": !finished,
            "thinking": self.thinking.is_some(),
            "can_hint": has_engine && !finished,
            "can_undo": matches!(self.row.mode, Mode::Computer | Mode::HotSeat) && !finished,
            "can_draw": self.row.mode != Mode::Computer && !finished && self.game.has_draws(),
            "draw_offer": self.draw_offer.filter(|_| !finished).map(Player::as_str),
        })
    }

    fn position(&self, ply: usize) -> Option<Value> {
        let history = self.game.history();
        if ply > history.len() {
            return None;
        }
        let mut game = self.game.box_clone();
        for _ in ply..history.len() {
            game.undo();
        }
        let (last_path, motions) = Self::last_turn(&*game);
        Some(json!({
            "ply": ply,
            "svg": game.svg(),
            "status_line": game.status_line(),
            "last_path": last_path,
            "motions": motions,
        }))
    }

    fn may_act(&self, token: Option<&str>) -> Result<Vec<Player>, Rejection> {
        let seats = self.seats(token);
        if seats.is_empty() {
            return Err(Rejection::new(403, Reason::Spectator));
        }
        Ok(seats)
    }

    async fn act(
        &mut self,
        token: Option<&str>,
        action: Action,
        version: Option<i64>,
    ) -> Result<Value, Rejection> {
        let seats = self.may_act(token)?;
        if let Some(v) = version.filter(|&v| v != self.version) {
            return Err(Rejection::new(409, Reason::Stale { sent: v, now: self.version }));
        }
        match action {
            Action::Move(text) => {
                if self.finished() {
                    return Err(Rejection::new(409, Reason::Over));
                }
                let mover = self.game.to_move();
                if !seats.contains(&mover) {
                    let computer = Some(mover) == self.computer_seat();
                    return Err(Rejection::new(403, Reason::NotYourTurn { mover, computer }));
                }
                self.play(&text, mover).await
            }
            Action::Undo => self.undo().await,
            Action::Resign => {
                if self.finished() {
                    return Err(Rejection::new(409, Reason::Over));
                }
                let loser = if seats.contains(&self.game.to_move()) {
                    self.game.to_move()
                } else {
                    seats[0]
                };
                let winner = loser.other();
                self.stop_thinking();
                let version = self.version + 1;
                let event = json!({ "type": "event", "version": version, "kind": "resign",
                                    "player": loser.as_str() });
                let finish = Ended { outcome: Outcome::Win(winner), reason: EndReason::Resigned };
                self.commit(version, None, None, event, Some(finish), None).await?;
                self.row.ended = Some(finish);
                Ok(self.broadcast_last())
            }
            Action::OfferDraw | Action::AcceptDraw | Action::DeclineDraw => {
                self.draw(&seats, &action).await
            }
        }
    }

    /// Draws by agreement, between people only.
    async fn draw(&mut self, seats: &[Player], action: &Action) -> Result<Value, Rejection> {
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
        let me = if seats.contains(&self.game.to_move()) { self.game.to_move() } else { seats[0] };
        // An offer and a decline are events like moves: stored, versioned and replayed to a
        // client that reconnects, so an offer outlives a restart of the server.
        let (kind, offer) = match action {
            // At one screen both players are here: an offer is an agreement.
            Action::OfferDraw if seats.len() == 2 => ("draw", None),
            Action::OfferDraw if self.draw_offer == Some(me.other()) => ("draw", None),
            Action::OfferDraw if self.draw_offer == Some(me) => return Ok(self.view()),
            Action::OfferDraw => ("draw-offer", Some(me)),
            Action::AcceptDraw if self.draw_offer == Some(me.other()) => ("draw", None),
            Action::AcceptDraw => return Err(Rejection::new(409, Reason::NoOfferToAccept)),
            _ if self.draw_offer == Some(me.other()) => ("draw-decline", None),
            _ => return Err(Rejection::new(409, Reason::NoOfferToDecline)),
        };
        let version = self.version + 1;
        let event = json!({ "type": "event", "version": version, "kind": kind,
                            "player": me.as_str() });
        if kind != "draw" {
            self.commit(version, None, None, event, None, offer).await?;
            return Ok(self.broadcast_last());
        }
        let finish = Ended { outcome: Outcome::Draw, reason: EndReason::Agreed };
        self.commit(version, None, None, event, Some(finish), None).await?;
        self.row.ended = Some(finish);
        Ok(self.broadcast_last())
    }

    /// Plays `text` for `mover`, stores it, broadcasts it and wakes the computer if needed.
    async fn play(&mut self, text: &str, mover: Player) -> Result<Value, Rejection> {
        let mut next = self.game.box_clone();
        let canonical = next.play(text).map_err(|e| {
            Rejection::new(422, Reason::Illegal { text: text.to_string(), detail: e.to_string() })
        })?;
        let ply = self.game.history().len();
        let version = self.version + 1;
        let event = json!({ "type": "event", "version": version, "kind": "move",
                            "move": canonical, "player": mover.as_str(), "ply": ply });
        let finish = next.outcome().map(|outcome| Ended { outcome, reason: EndReason::Rules });
        let ply_i = i64::try_from(ply).unwrap_or(i64::MAX);
        let old = std::mem::replace(&mut self.game, next);
        if let Err(e) =
            self.commit(version, None, Some((ply_i, &canonical)), event, finish, None).await
        {
            self.game = old;
            return Err(e);
        }
        if finish.is_some() {
            self.row.ended = finish;
        }
        let view = self.broadcast_last();
        self.maybe_think();
        Ok(view)
    }

    async fn undo(&mut self) -> Result<Value, Rejection> {
        if !matches!(self.row.mode, Mode::Computer | Mode::HotSeat) {
            return Err(Rejection::new(403, Reason::UndoNotHere));
        }
        if self.finished() {
            return Err(Rejection::new(409, Reason::Over));
        }
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
        self.stop_thinking();
        let ply = game.history().len();
        let version = self.version + 1;
        let event = json!({ "type": "event", "version": version, "kind": "undo", "ply": ply });
        let ply_i = i64::try_from(ply).unwrap_or(i64::MAX);
        self.commit(version, Some(ply_i), None, event, None, None).await?;
        self.game = game;
        let view = self.broadcast_last();
        self.maybe_think();
        Ok(view)
    }

    /// Writes the event, with the draw offer pending after it; on success it becomes the
    /// current version and the pending event, and the offer the current one.
    async fn commit(
        &mut self,
        version: i64,
        remove_from: Option<i64>,
        add: Option<(i64, &str)>,
        mut event: Value,
        finish: Option<Ended>,
        draw_offer: Option<Player>,
    ) -> Result<(), Rejection> {
        let body = event.to_string();
        let change = Change { version, remove_from, add, body: &body, finish, draw_offer };
        match self.shared.store.record(&self.row.id, &change).await {
            Ok(()) => {}
            Err(StoreError::Conflict) => {
                return Err(Rejection::new(409, Reason::Race));
            }
            Err(e) if e.is_unavailable() => {
                tracing::error!("cannot store a change of {}: {e}", self.row.id);
                return Err(Rejection::new(503, Reason::CannotSave));
            }
            Err(e) => {
                tracing::error!("storing a change of {}: {e}", self.row.id);
                return Err(Rejection::new(500, Reason::SaveFailed(e.to_string())));
            }
        }
        self.version = version;
        self.draw_offer = draw_offer;
        if let Value::Object(map) = &mut event {
            map.insert("view".into(), Value::Null);
        }
        self.pending = Some(event);
        Ok(())
    }

    fn stop_thinking(&mut self) {
        if let Some(stop) = self.thinking.take() {
            stop.store(true, Ordering::Relaxed);
        }
    }

    /// Sends the pending event with the current view to every subscriber; returns the view.
    fn broadcast_last(&mut self) -> Value {
        let view = self.view();
        if let Some(mut event) = self.pending.take() {
            if let Value::Object(map) = &mut event {
                map.insert("view".into(), view.clone());
            }
            let _ = self.events.send(Arc::from(event.to_string()));
        }
        view
    }

    fn hint(
        &mut self,
        token: Option<&str>,
    ) -> Result<oneshot::Receiver<Option<String>>, Rejection> {
        let seats = self.may_act(token)?;
        if self.finished() {
            return Err(Rejection::new(409, Reason::Over));
        }
        if !seats.contains(&self.game.to_move()) {
            return Err(Rejection::new(409, Reason::HintNotYourTurn));
        }
        let entry = ply_games::engine(&self.row.game)
            .map_err(|_| Rejection::new(404, Reason::NoComputer))?;
        let think = think_at(&entry, 6);
        let (tx, rx) = oneshot::channel();
        let history = self.game.history().to_vec();
        let variant = self.row.variant.clone();
        let sem = self.shared.think.clone();
        tokio::spawn(async move {
            let Ok(_permit) = sem.acquire_owned().await else { return };
            let found = tokio::task::spawn_blocking(move || {
                let mut engine = entry.new_engine(&variant).ok()?;
                for m in &history {
                    engine.play(m).ok()?;
                }
                engine.think(&think, &Arc::new(AtomicBool::new(false))).map(|t| t.best)
            })
            .await
            .ok()
            .flatten();
            let _ = tx.send(found);
        });
        Ok(rx)
    }

    /// Starts the computer's search when it is its turn.
    fn maybe_think(&mut self) {
        let Some(seat) = self.computer_seat() else { return };
        if self.finished() || self.game.to_move() != seat || self.thinking.is_some() {
            return;
        }
        let Ok(entry) = ply_games::engine(&self.row.game) else { return };
        let level = self.row.level.unwrap_or(3).clamp(1, 10);
        let mut think = think_at(&entry, level);
        think.seed =
            u64::from_str_radix(&self.row.id, 16).unwrap_or(0) ^ (self.game.history().len() as u64);
        let stop = Arc::new(AtomicBool::new(false));
        self.thinking = Some(stop.clone());
        let _ = self.events.send(Arc::from(json!({ "type": "thinking", "on": true }).to_string()));
        let history = self.game.history().to_vec();
        let variant = self.row.variant.clone();
        let version = self.version;
        let sem = self.shared.think.clone();
        let tx = self.tx.clone();
        tokio::spawn(async move {
            let notation = match sem.acquire_owned().await {
                Err(_) => None,
                Ok(_permit) => tokio::task::spawn_blocking(move || {
                    if stop.load(Ordering::Relaxed) {
                        return None;
                    }
                    let mut engine = entry.new_engine(&variant).ok()?;
                    for m in &history {
                        engine.play(m).ok()?;
                    }
                    engine.think(&think, &stop).map(|t| t.best)
                })
                .await
                .ok()
                .flatten(),
            };
            let _ = tx.send(Cmd::Computer { version, notation, attempt: 0 }).await;
        });
    }

    async fn computer_moved(&mut self, version: i64, notation: Option<String>, attempt: u32) {
        if version != self.version || self.thinking.is_none() {
            // The position changed (undo, resign) while it thought: a stale answer.
            return;
        }
        let Some(seat) = self.computer_seat() else { return };
        let Some(notation) = notation else {
            tracing::warn!("the computer found no move in {}", self.row.id);
            self.thinking = None;
            let _ =
                self.events.send(Arc::from(json!({ "type": "thinking", "on": false }).to_string()));
            return;
        };
        let searching = self.thinking.take();
        match self.play(&notation, seat).await {
            Ok(_) => {
                let _ = self
                    .events
                    .send(Arc::from(json!({ "type": "thinking", "on": false }).to_string()));
            }
            Err(e) if e.status == 503 => {
                // Still "thinking" until the move is stored.
                self.thinking = searching;
                // The store cannot write now: keep the move and try again later, so the game
                // is not left waiting for a move that was found but never saved.
                let delay = Duration::from_millis(250 << attempt.min(7));
                tracing::warn!(
                    "the computer's move {notation} in {} is not saved yet; again in {delay:?}",
                    self.row.id
                );
                let tx = self.tx.clone();
                tokio::spawn(async move {
                    tokio::time::sleep(delay).await;
                    let notation = Some(notation);
                    let _ =
                        tx.send(Cmd::Computer { version, notation, attempt: attempt + 1 }).await;
                });
            }
            Err(e) => {
                tracing::error!(
                    "the computer's move {notation} in {}: {}",
                    self.row.id,
                    e.message(Lang::En)
                );
                let _ = self
                    .events
                    .send(Arc::from(json!({ "type": "thinking", "on": false }).to_string()));
            }
        }
    }
}
