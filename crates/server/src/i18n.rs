//! The interface in English, Korean and Russian, and the project's own short rules pages.

use axum::http::HeaderMap;

/// A language of the interface.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Lang {
    En,
    Ko,
    Ru,
}

impl Lang {
    pub const ALL: [Lang; 3] = [Lang::En, Lang::Ko, Lang::Ru];

    #[must_use]
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Ko => "ko",
            Lang::Ru => "ru",
        }
    }

    /// The language's own name.
    #[must_use]
    pub fn native(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::Ko => "한국어",
            Lang::Ru => "Русский",
        }
    }

    #[must_use]
    pub fn parse(code: &str) -> Option<Lang> {
        let code = code.trim().to_ascii_lowercase();
        let primary = code.split(['-', '_']).next().unwrap_or("");
        match primary {
            "en" => Some(Lang::En),
            "ko" => Some(Lang::Ko),
            "ru" => Some(Lang::Ru),
            _ => None,
        }
    }

    /// The language of a request: the `ply_lang` cookie, else the best match of
    /// `Accept-Language`, else English.
    #[must_use]
    pub fn of_request(headers: &HeaderMap) -> Lang {
        if let Some(lang) = crate::cookie(headers, "ply_lang").and_then(|c| Lang::parse(&c)) {
            return lang;
        }
        let Some(accept) = headers.get("accept-language").and_then(|v| v.to_str().ok()) else {
            return Lang::En;
        };
        let mut best: Option<(f32, Lang)> = None;
        for part in accept.split(',') {
            let mut pieces = part.split(';');
            let tag = pieces.next().unwrap_or("");
            let q = pieces
                .find_map(|p| p.trim().strip_prefix("q=").and_then(|q| q.parse::<f32>().ok()))
                .unwrap_or(1.0);
            if let Some(lang) = Lang::parse(tag)
                && best.is_none_or(|(bq, _)| q > bq)
            {
                best = Some((q, lang));
            }
        }
        best.map_or(Lang::En, |(_, l)| l)
    }

    fn pick(self, texts: [&'static str; 3]) -> &'static str {
        texts[self as usize]
    }
}

/// The interface text `key` in `lang` (the key itself if unknown).
#[must_use]
#[allow(clippy::too_many_lines)]
pub fn t(lang: Lang, key: &'static str) -> &'static str {
    let texts: [&'static str; 3] = match key {
        "tagline" => [
            "Abstract strategy games, played exactly by their rules.",
            "규칙 그대로 즐기는 추상 전략 게임.",
            "Абстрактные стратегические игры — строго по правилам.",
        ],
        "games" => ["Games", "게임 목록", "Партии"],
        "home" => ["Home", "처음", "Главная"],
        "rules" => ["Rules", "규칙", "Правила"],
        "new_game" => ["New game", "새 게임", "Новая партия"],
        "variant" => ["Variant", "변형", "Вариант"],
        "opponent" => ["Opponent", "상대", "Соперник"],
        "computer_level" => ["Computer, level", "컴퓨터, 레벨", "Компьютер, уровень"],
        "hotseat" => ["Two players at this screen", "한 화면에서 두 사람", "Двое за одним экраном"],
        "invite" => ["A friend, by invite link", "친구 (초대 링크)", "Друг по ссылке-приглашению"],
        "first" => ["You play", "내 차례", "Вы играете"],
        "first_p1" => ["first (P1)", "먼저 (P1)", "первым (P1)"],
        "first_p2" => ["second (P2)", "나중에 (P2)", "вторым (P2)"],
        "first_random" => ["random", "무작위", "случайно"],
        "start" => ["Start", "시작", "Начать"],
        "your_games" => ["Your games", "내 게임", "Ваши партии"],
        "live_games" => ["Live games", "진행 중인 게임", "Идущие партии"],
        "finished_games" => ["Finished games", "끝난 게임", "Законченные партии"],
        "no_games" => ["No games yet.", "아직 게임이 없습니다.", "Партий пока нет."],
        "turns" => ["turns", "수", "ходов"],
        "rings" => ["rings", "고리", "колец"],
        "open" => ["Open", "열기", "Открыть"],
        "mode_computer" => ["against the computer", "컴퓨터와", "против компьютера"],
        "mode_hotseat" => ["hot-seat", "한 화면", "за одним экраном"],
        "mode_invite" => ["by invitation", "초대", "по приглашению"],
        "to_move" => ["to move", "차례", "ходит"],
        "your_turn" => ["Your turn", "당신 차례입니다", "Ваш ход"],
        "their_turn" => ["Waiting for the opponent", "상대를 기다리는 중", "Ждём соперника"],
        "thinking" => ["The computer is thinking…", "컴퓨터가 생각 중…", "Компьютер думает…"],
        "spectating" => [
            "You are watching this game.",
            "이 게임을 관전하고 있습니다.",
            "Вы наблюдаете за партией.",
        ],
        "moves" => ["Moves", "기보", "Ходы"],
        "undo" => ["Undo", "무르기", "Отменить ход"],
        "resign" => ["Resign", "기권", "Сдаться"],
        "resign_confirm" => ["Resign this game?", "이 게임을 기권할까요?", "Сдать партию?"],
        "hint" => ["Hint", "힌트", "Подсказка"],
        "offer_draw" => ["Offer a draw", "무승부 제안", "Предложить ничью"],
        "accept_draw" => ["Accept the draw", "무승부 수락", "Принять ничью"],
        "decline_draw" => ["Decline", "거절", "Отклонить"],
        "draw_offered_you" => [
            "Your opponent offers a draw.",
            "상대가 무승부를 제안했습니다.",
            "Соперник предлагает ничью.",
        ],
        "draw_you_offered" => {
            ["You offered a draw.", "무승부를 제안했습니다.", "Вы предложили ничью."]
        }
        "draw_confirm" => ["Agree to a draw?", "무승부로 끝낼까요?", "Согласиться на ничью?"],
        "agreed" => ["agreed", "합의", "по соглашению"],
        "export" => ["Export record", "기보 내보내기", "Скачать запись"],
        "invite_link" => [
            "Send this link to your friend; it gives them the other seat:",
            "이 링크를 친구에게 보내세요. 다른 자리를 맡게 됩니다:",
            "Отправьте эту ссылку другу — она даёт ему второе место:",
        ],
        "copy" => ["Copy", "복사", "Копировать"],
        "wins" => ["wins", "승리", "побеждает"],
        "draw" => ["Draw", "무승부", "Ничья"],
        "resigned" => ["resigned", "기권", "сдался"],
        "game_over" => ["Game over", "게임 끝", "Партия окончена"],
        "you" => ["you", "나", "вы"],
        "computer" => ["computer", "컴퓨터", "компьютер"],
        "friend" => ["friend", "친구", "друг"],
        "connected" => ["live", "연결됨", "на связи"],
        "disconnected" => [
            "connection lost, reconnecting…",
            "연결이 끊겼습니다. 다시 연결하는 중…",
            "связь потеряна, переподключаемся…",
        ],
        "clear" => ["Clear selection", "선택 취소", "Сбросить выбор"],
        "choices" => ["Matching moves", "가능한 수", "Подходящие ходы"],
        "viewing" => ["Viewing turn", "보는 중: 수", "Просмотр хода"],
        "back_to_live" => ["Back to the game", "현재 국면으로", "К текущей позиции"],
        "start_position" => ["start", "시작", "начало"],
        "not_found" => ["No such page.", "페이지가 없습니다.", "Такой страницы нет."],
        "language" => ["Language", "언어", "Язык"],
        "board_of" => ["Start position of", "시작 국면:", "Начальная позиция:"],
        "read_rules" => ["Read the rules", "규칙 읽기", "Читать правила"],
        "play_keys" => [
            "Click or tap the highlighted items (Tab and Enter work too) to build your move.",
            "강조된 곳을 클릭하거나 눌러 수를 만드세요 (Tab과 Enter도 됩니다).",
            "Нажимайте на подсвеченные места (работают и Tab с Enter), чтобы составить ход.",
        ],
        _ => return key,
    };
    lang.pick(texts)
}

/// The strings the browser script needs, as a JSON object.
#[must_use]
pub fn client_strings(lang: Lang) -> serde_json::Value {
    let keys = [
        "your_turn",
        "their_turn",
        "thinking",
        "spectating",
        "wins",
        "draw",
        "resigned",
        "game_over",
        "connected",
        "disconnected",
        "resign_confirm",
        "choices",
        "viewing",
        "back_to_live",
        "start_position",
        "to_move",
        "draw_offered_you",
        "draw_you_offered",
        "draw_confirm",
        "agreed",
        "play_keys",
    ];
    let mut map = serde_json::Map::new();
    for k in keys {
        map.insert(k.to_string(), serde_json::Value::from(t(lang, k)));
    }
    serde_json::Value::Object(map)
}

/// One game's rules in one language: a one-line summary and sections of bullet points.
pub struct Rules {
    pub summary: &'static str,
    pub sections: &'static [(&'static str, &'static [&'static str])],
}

/// The project's own short rules of `game` (None for a game without a page yet).
#[must_use]
#[allow(clippy::too_many_lines)]
pub fn rules(game: &str, lang: Lang) -> Option<Rules> {
    let r = match (game, lang) {
        ("boop", Lang::En) => Rules {
            summary: "Place kittens on a 6×6 bed; each one pushes its neighbours away. Three in a row graduate into cats; three cats in a row win.",
            sections: &[
                (
                    "Turn",
                    &[
                        "Put one kitten or cat from your pool on any empty cell.",
                        "It boops every adjacent piece one cell straight away from it, unless the cell behind is occupied. Pieces booped off the bed go back to their owner's pool.",
                        "A kitten cannot boop a cat. Booped pieces do not boop others.",
                    ],
                ),
                (
                    "Graduation",
                    &[
                        "Three of your pieces in a row (at least one kitten) leave the bed: kittens become cats in your pool, cats return to it.",
                        "If all eight of your pieces are on the bed, you must take one back (a kitten graduates to a cat).",
                    ],
                ),
                (
                    "Winning",
                    &[
                        "You win with three of your cats in a row, or with all eight of your pieces on the bed as cats.",
                        "A position repeated for the third time is a draw.",
                    ],
                ),
                (
                    "Boooop (ghost cats)",
                    &[
                        "Each player also has a ghost. You may put it on a free entry segment at the edge of the bed.",
                        "On each of your later turns it moves one segment along its stitch line and pushes the two pieces beside it apart, jumping them over occupied cells. It leaves the bed at the far end and returns to you.",
                    ],
                ),
            ],
        },
        ("boop", Lang::Ko) => Rules {
            summary: "6×6 침대에 새끼 고양이를 놓으면 이웃한 말을 밀어냅니다. 세 마리가 한 줄이면 고양이로 자라고, 고양이 세 마리가 한 줄이면 승리.",
            sections: &[
                (
                    "차례",
                    &[
                        "내 풀에서 새끼 고양이나 고양이 하나를 빈칸에 놓습니다.",
                        "놓은 말은 이웃한 말을 모두 한 칸 바깥쪽으로 밉니다(뒤 칸이 차 있으면 밀리지 않음). 밖으로 밀려난 말은 주인의 풀로 돌아갑니다.",
                        "새끼 고양이는 고양이를 밀 수 없습니다. 밀려난 말은 다른 말을 밀지 않습니다.",
                    ],
                ),
                (
                    "졸업",
                    &[
                        "내 말 셋이 한 줄(새끼 고양이 하나 이상)이면 침대에서 내립니다. 새끼 고양이는 고양이가 되어 풀로, 고양이는 풀로 돌아갑니다.",
                        "내 말 여덟 개가 모두 침대 위에 있으면 하나를 반드시 거둬야 합니다.",
                    ],
                ),
                (
                    "승리",
                    &[
                        "내 고양이 셋이 한 줄이 되거나, 여덟 개가 모두 고양이로 침대 위에 있으면 이깁니다.",
                        "같은 국면이 세 번째로 나오면 무승부입니다.",
                    ],
                ),
                (
                    "Boooop (유령 고양이)",
                    &[
                        "각자 유령 하나를 더 가집니다. 침대 가장자리의 빈 입구 선분에 놓을 수 있습니다.",
                        "이후 내 차례마다 한 선분씩 나아가며 양옆의 말을 밀어내고, 찬 칸은 뛰어넘습니다. 끝에 닿으면 내 풀로 돌아옵니다.",
                    ],
                ),
            ],
        },
        ("boop", Lang::Ru) => Rules {
            summary: "Котята ставятся на поле 6×6 и отталкивают соседей. Три в ряд становятся кошками; три кошки в ряд — победа.",
            sections: &[
                (
                    "Ход",
                    &[
                        "Поставьте котёнка или кошку из своего запаса на любую пустую клетку.",
                        "Фигура отталкивает каждую соседнюю на одну клетку прочь от себя, если клетка за ней свободна. Вытолкнутые с поля фигуры возвращаются в запас владельца.",
                        "Котёнок не может толкнуть кошку. Оттолкнутые фигуры сами никого не толкают.",
                    ],
                ),
                (
                    "Выпуск",
                    &[
                        "Три ваши фигуры в ряд (хотя бы один котёнок) уходят с поля: котята становятся кошками в запасе, кошки возвращаются в запас.",
                        "Если все восемь ваших фигур на поле, одну нужно забрать.",
                    ],
                ),
                (
                    "Победа",
                    &[
                        "Побеждает тот, у кого три кошки в ряд или все восемь фигур на поле — кошки.",
                        "Третье повторение позиции — ничья.",
                    ],
                ),
                (
                    "Boooop (кошки-призраки)",
                    &[
                        "У каждого есть призрак. Его можно поставить на свободный входной отрезок у края поля.",
                        "В каждый следующий ваш ход он продвигается на один отрезок и расталкивает две соседние фигуры, перепрыгивая занятые клетки. Дойдя до конца, он возвращается к вам.",
                    ],
                ),
            ],
        },
        ("gipf", Lang::En) => Rules {
            summary: "Push your pieces in from the edge of a hexagonal board; four in a row capture. Run the opponent out of pieces (or GIPF pieces) to win.",
            sections: &[
                (
                    "Turn",
                    &[
                        "Enter one piece from your reserve at a dot on the edge and push it one step onto the board along a line. Pieces in the way move along, unless the line is full.",
                        "White begins. Standard: each player starts with three GIPF pieces (double pieces) on the board.",
                    ],
                ),
                (
                    "Rows",
                    &[
                        "Four or more of your pieces in a row on one line are removed together with every piece extending that row: your own return to your reserve, the opponent's are captured.",
                        "You may keep your own GIPF pieces on the board instead of removing them.",
                        "Rows made for the opponent are removed by them at the start of their turn.",
                    ],
                ),
                (
                    "Winning",
                    &[
                        "A player who must push with an empty reserve loses.",
                        "Standard and tournament: a player with no GIPF piece left on the board loses.",
                    ],
                ),
            ],
        },
        ("gipf", Lang::Ko) => Rules {
            summary: "육각 판의 가장자리에서 말을 밀어 넣습니다. 네 개가 한 줄이면 잡습니다. 상대의 말(또는 GIPF 말)이 떨어지면 승리.",
            sections: &[
                (
                    "차례",
                    &[
                        "비축한 말 하나를 가장자리 점에 놓고 선을 따라 판 안으로 한 칸 밉니다. 앞의 말들도 함께 밀리며, 선이 꽉 차 있으면 밀 수 없습니다.",
                        "백이 먼저 둡니다. 표준 규칙에서는 각자 GIPF 말(두 겹 말) 세 개를 놓고 시작합니다.",
                    ],
                ),
                (
                    "줄",
                    &[
                        "한 선에 내 말이 넷 이상 이어지면 그 줄과 이어진 말을 모두 걷어냅니다. 내 말은 비축으로 돌아오고 상대 말은 잡힙니다.",
                        "내 GIPF 말은 걷어내지 않고 남겨 둘 수 있습니다.",
                        "상대에게 생긴 줄은 상대가 자기 차례 시작에 걷어냅니다.",
                    ],
                ),
                (
                    "승리",
                    &[
                        "비축이 비어 밀 수 없는 사람이 집니다.",
                        "표준·토너먼트: 판 위에 GIPF 말이 하나도 없는 사람이 집니다.",
                    ],
                ),
            ],
        },
        ("gipf", Lang::Ru) => Rules {
            summary: "Вталкивайте фишки с края шестиугольной доски; четыре в ряд снимаются. Побеждает тот, у кого соперник останется без фишек (или без фишек GIPF).",
            sections: &[
                (
                    "Ход",
                    &[
                        "Поставьте фишку из запаса на точку у края и втолкните её на доску на один шаг по линии. Стоящие на пути фишки сдвигаются, если линия не заполнена.",
                        "Начинают белые. В стандартной игре у каждого сначала три фишки GIPF (двойные) на доске.",
                    ],
                ),
                (
                    "Ряды",
                    &[
                        "Четыре и более ваших фишек подряд на линии снимаются вместе со всеми фишками, продолжающими ряд: свои возвращаются в запас, чужие взяты в плен.",
                        "Свои фишки GIPF можно оставить на доске.",
                        "Ряды соперника он снимает сам в начале своего хода.",
                    ],
                ),
                (
                    "Победа",
                    &[
                        "Проигрывает тот, кому нужно ходить, а запас пуст.",
                        "Стандарт и турнир: проигрывает тот, у кого на доске не осталось фишек GIPF.",
                    ],
                ),
            ],
        },
        ("zertz", Lang::En) => Rules {
            summary: "Place shared marbles and remove rings; jumps capture. Collect 4 white, 5 grey, 6 black or 3 of each to win.",
            sections: &[
                (
                    "Turn",
                    &[
                        "If any marble can jump, you must capture: jump a marble over an adjacent one onto an empty ring behind it, and keep jumping with the same marble while you can.",
                        "Otherwise place a marble of any colour from the shared pool on an empty ring, then remove one free ring from the edge (one you can slide out without moving others).",
                        "When the pool is empty, you place from your own captures.",
                    ],
                ),
                (
                    "Isolation",
                    &[
                        "A group of rings cut off from the rest with no empty ring is yours: you take its marbles.",
                    ],
                ),
                (
                    "Winning",
                    &[
                        "Win with 4 white, or 5 grey, or 6 black, or 3 of each colour (blitz: 3, 4, 5 or 2 of each).",
                        "A player with no legal turn loses.",
                    ],
                ),
            ],
        },
        ("zertz", Lang::Ko) => Rules {
            summary: "공용 구슬을 놓고 고리를 걷어냅니다. 뛰어넘으면 잡습니다. 흰 4, 회색 5, 검정 6 또는 각 3개를 모으면 승리.",
            sections: &[
                (
                    "차례",
                    &[
                        "뛰어넘을 수 있는 구슬이 있으면 반드시 잡아야 합니다. 이웃 구슬을 넘어 빈 고리로 뛰고, 같은 구슬로 계속 뛸 수 있으면 계속 뜁니다.",
                        "아니면 공용 풀에서 아무 색 구슬을 빈 고리에 놓고, 가장자리의 자유로운 고리 하나를 걷어냅니다.",
                        "풀이 비면 내가 잡은 구슬에서 놓습니다.",
                    ],
                ),
                (
                    "고립",
                    &["나머지와 끊어지고 빈 고리가 없는 무리는 내 것이 되어 그 구슬을 가져옵니다."],
                ),
                (
                    "승리",
                    &[
                        "흰 4개, 회색 5개, 검정 6개 또는 각 색 3개를 모으면 이깁니다 (블리츠: 3, 4, 5 또는 각 2).",
                        "둘 수 있는 수가 없는 사람이 집니다.",
                    ],
                ),
            ],
        },
        ("zertz", Lang::Ru) => Rules {
            summary: "Ставьте общие шарики и убирайте кольца; прыжки берут шарики. Соберите 4 белых, 5 серых, 6 чёрных или по 3 каждого цвета.",
            sections: &[
                (
                    "Ход",
                    &[
                        "Если какой-нибудь шарик может прыгнуть, взятие обязательно: шарик перепрыгивает соседний на пустое кольцо за ним и прыгает дальше, пока может.",
                        "Иначе поставьте шарик любого цвета из общего запаса на пустое кольцо и уберите одно свободное кольцо с края.",
                        "Когда общий запас пуст, ставьте из своих трофеев.",
                    ],
                ),
                (
                    "Изоляция",
                    &["Отрезанная группа колец без пустых колец достаётся вам вместе с шариками."],
                ),
                (
                    "Победа",
                    &[
                        "Побеждает тот, кто собрал 4 белых, 5 серых, 6 чёрных или по 3 каждого цвета (блиц: 3, 4, 5 или по 2).",
                        "Игрок без допустимого хода проигрывает.",
                    ],
                ),
            ],
        },
        ("punct", Lang::En) => Rules {
            summary: "Place and shift three-dot pieces on a hexagonal grid, climbing onto others, to connect two opposite sides of the board.",
            sections: &[
                (
                    "Turn",
                    &[
                        "Either place a piece from your supply flat on empty points, or shift one of your free pieces: its PÜNCT dot (the marked one) jumps any distance along a line, and the piece may turn.",
                        "Standard: new pieces may never touch the central hexagon (basic: only White's first piece may not).",
                    ],
                ),
                (
                    "Climbing",
                    &[
                        "A shifted piece may rest on other pieces if it lies level and its PÜNCT dot rests on one of your own dots. Covered pieces cannot move.",
                    ],
                ),
                (
                    "Winning",
                    &[
                        "Connect two opposite sides with a chain of your visible dots. If a move connects both players, the mover wins.",
                        "If the supply runs out without a connection: basic is a draw; in standard the player showing more central points wins.",
                    ],
                ),
            ],
        },
        ("punct", Lang::Ko) => Rules {
            summary: "점 세 개짜리 말을 육각 격자에 놓고 옮기며 다른 말 위로 올라가, 판의 마주 보는 두 변을 이으세요.",
            sections: &[
                (
                    "차례",
                    &[
                        "내 말 하나를 빈 점들에 평평하게 놓거나, 자유로운 내 말 하나를 옮깁니다. PÜNCT 점(표시된 점)은 선을 따라 얼마든지 뛰고, 말은 돌 수 있습니다.",
                        "표준: 새 말은 가운데 육각형에 닿을 수 없습니다 (기본: 백의 첫 말만).",
                    ],
                ),
                (
                    "오르기",
                    &[
                        "옮긴 말은 수평을 이루고 PÜNCT 점이 내 점 위에 있으면 다른 말 위에 올라갈 수 있습니다. 덮인 말은 움직일 수 없습니다.",
                    ],
                ),
                (
                    "승리",
                    &[
                        "보이는 내 점들로 마주 보는 두 변을 이으면 이깁니다. 한 수로 둘 다 이어지면 둔 사람이 이깁니다.",
                        "말이 다 떨어지도록 연결이 없으면: 기본은 무승부, 표준은 가운데 점을 더 많이 보이는 사람이 이깁니다.",
                    ],
                ),
            ],
        },
        ("punct", Lang::Ru) => Rules {
            summary: "Ставьте и передвигайте трёхточечные фигуры на шестиугольной сетке, забирайтесь на другие и соедините две противоположные стороны доски.",
            sections: &[
                (
                    "Ход",
                    &[
                        "Либо поставьте фигуру из запаса на пустые точки, либо передвиньте свою свободную фигуру: её точка ПЮНКТ (отмеченная) прыгает по линии на любое расстояние, фигура может повернуться.",
                        "Стандарт: новые фигуры не могут касаться центрального шестиугольника (базовый: только первая фигура белых).",
                    ],
                ),
                (
                    "Подъём",
                    &[
                        "Передвинутая фигура может лечь на другие, если лежит ровно и её точка ПЮНКТ стоит на вашей точке. Накрытые фигуры не ходят.",
                    ],
                ),
                (
                    "Победа",
                    &[
                        "Соедините две противоположные стороны цепочкой своих видимых точек. Если ход соединил обоих, побеждает ходивший.",
                        "Если запас кончился без соединения: в базовом — ничья, в стандарте побеждает тот, чьих центральных точек видно больше.",
                    ],
                ),
            ],
        },
        _ => return None,
    };
    Some(r)
}
