//! Why the server refused a request: an HTTP-like status and a [`Reason`] that is translated
//! where it is shown (the caller's language over HTTP or the WebSocket).

use ply_core::Player;

use crate::Lang;

/// The longest explanation of an unreadable message, in bytes.
pub const MESSAGE_DETAIL: usize = 200;

/// Why a request was refused: a message for people and an HTTP-like status.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rejection {
    pub status: u16,
    pub reason: Reason,
}

impl Rejection {
    #[must_use]
    pub fn new(status: u16, reason: Reason) -> Rejection {
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
    /// The game's room stopped unexpectedly.
    Gone,
    /// The room was closing for idleness when the request came: ask a new one (never shown).
    Evicted,
    /// No game has this id.
    NoGame(String),
    /// The database cannot be read right now.
    Unavailable,
    /// A WebSocket message that is not one of the protocol's (`docs/http-api.md`).
    BadMessage(String),
    /// A clicked path that is no legal move's click path here.
    NoSuchPath,
    /// A request for the choices of an old position.
    ChoicesStale,
    /// A turn the game has not reached.
    NoSuchTurn(usize),
    /// Too many requests from this address: try again in this many seconds.
    TooMany(u64),
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
    /// The game used all its takebacks.
    UndoLimit(i64),
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
    /// Hints are not given in a game between two people at two screens.
    HintBetweenPeople,
    NoComputer,
    BadDrawAction,
    /// No rematch here: the game goes on, is not between two people at two screens, or no
    /// such offer is pending.
    NoRematch,
}

impl Reason {
    /// [`Reason::BadMessage`] for a message the protocol cannot read: the reader's
    /// explanation cut to 200 bytes at a character boundary, so a long message is never echoed
    /// back whole (and a cut never falls inside a character, which would panic).
    #[must_use]
    pub fn unreadable(error: &serde_json::Error) -> Reason {
        let mut detail = error.to_string();
        detail.truncate(detail.floor_char_boundary(MESSAGE_DETAIL));
        Reason::BadMessage(detail)
    }

    /// A short stable name for programs (the `code` of a WebSocket `error`).
    #[must_use]
    pub fn code(&self) -> &'static str {
        match self {
            Reason::Gone | Reason::Evicted => "gone",
            Reason::NoGame(_) => "no-game",
            Reason::Unavailable => "unavailable",
            Reason::BadMessage(_) => "bad-message",
            Reason::NoSuchPath => "no-such-path",
            Reason::NoSuchTurn(_) => "no-such-turn",
            Reason::TooMany(_) => "too-many",
            Reason::ChoicesStale | Reason::Stale { .. } => "stale",
            Reason::Spectator => "spectator",
            Reason::Over => "over",
            Reason::NotYourTurn { .. } => "not-your-turn",
            Reason::ComputerRefusesDraws | Reason::NoDraws(_) => "no-draws",
            Reason::NoOfferToAccept | Reason::NoOfferToDecline => "no-offer",
            Reason::Illegal { .. } => "illegal",
            Reason::UndoNotHere | Reason::NothingToUndo | Reason::UndoLimit(_) => "no-undo",
            Reason::Race => "race",
            Reason::CannotSave => "cannot-save",
            Reason::SaveFailed(_) => "save-failed",
            Reason::Damaged(_) => "damaged",
            Reason::HintNotYourTurn
            | Reason::HintOver
            | Reason::HintBetweenPeople
            | Reason::NoComputer
            | Reason::HintFailed => "no-hint",
            Reason::BadDrawAction => "bad-message",
            Reason::NoRematch => "no-rematch",
        }
    }

    /// The message in `lang`.
    #[must_use]
    pub fn message(&self, lang: Lang) -> String {
        let [en, ko, ru] = match self {
            Reason::Evicted | Reason::Gone => [
                "The game's task stopped; reload the page.".to_string(),
                "게임 작업이 멈췄습니다. 페이지를 새로 고치세요.".to_string(),
                "Процесс игры остановился; перезагрузите страницу.".to_string(),
            ],
            Reason::NoGame(id) => [
                format!("There is no game {id}."),
                format!("{id} 게임이 없습니다."),
                format!("Партии {id} нет."),
            ],
            Reason::Unavailable => [
                "The server cannot reach its database right now; try again in a moment.".to_string(),
                "지금은 서버가 데이터베이스에 접근할 수 없습니다. 잠시 후 다시 해 보세요.".to_string(),
                "Сервер сейчас не может обратиться к базе данных; попробуйте чуть позже.".to_string(),
            ],
            Reason::BadMessage(detail) => [
                format!("Unreadable message: {detail}"),
                format!("읽을 수 없는 메시지입니다: {detail}"),
                format!("Непонятное сообщение: {detail}"),
            ],
            Reason::NoSuchPath => [
                "Those clicks make no legal move here.".to_string(),
                "그렇게 누르면 둘 수 있는 수가 되지 않습니다.".to_string(),
                "Такие нажатия не составляют допустимого хода.".to_string(),
            ],
            Reason::TooMany(seconds) => [
                format!("Too many requests from your address; try again in {seconds} s."),
                format!("요청이 너무 많습니다. {seconds}초 후에 다시 해 보세요."),
                format!("Слишком много запросов с вашего адреса; попробуйте через {seconds} с."),
            ],
            Reason::NoSuchTurn(ply) => [
                format!("The game has no turn {ply}."),
                format!("이 게임에는 {ply}번째 수가 없습니다."),
                format!("В партии нет хода {ply}."),
            ],
            Reason::ChoicesStale => [
                "The game has moved on; the board was refreshed.".to_string(),
                "게임이 이미 진행되어 판을 새로 고쳤습니다.".to_string(),
                "Партия ушла вперёд; доска обновлена.".to_string(),
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
            Reason::UndoLimit(n) => [
                format!("This game has used all its {n} takebacks."),
                format!("이 게임은 무르기 {n}번을 모두 썼습니다."),
                format!("В этой партии использованы все {n} возвратов хода."),
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
            Reason::NoRematch => [
                "No rematch here: rematches are agreed between two people once their game is over.".to_string(),
                "여기서는 재대국할 수 없습니다. 재대국은 게임이 끝난 뒤 두 사람이 합의해서 합니다.".to_string(),
                "Реванш здесь невозможен: его договариваются двое, когда их партия окончена.".to_string(),
            ],
            Reason::HintBetweenPeople => [
                "Hints are given only against the computer, at one screen, or in analysis.".to_string(),
                "힌트는 컴퓨터와 둘 때, 한 화면에서 둘 때, 분석할 때만 받을 수 있습니다.".to_string(),
                "Подсказки даются только в игре с компьютером, за одним экраном или при анализе.".to_string(),
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
