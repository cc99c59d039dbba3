//! The interface in English, Korean and Russian, and the project's own short rules pages.

use axum::http::HeaderMap;

pub use ply_protocol::Lang;

/// The language of a request: the `ply_lang` cookie, else the best match of
/// `Accept-Language`, else English.
#[must_use]
pub fn lang_of_request(headers: &HeaderMap) -> Lang {
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

/// The text of `lang` among one text per language, in the order of [`Lang::ALL`].
fn pick(lang: Lang, texts: [&'static str; 3]) -> &'static str {
    texts[lang as usize]
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
    pick(lang, texts)
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
    pub summary: String,
    pub sections: Vec<(String, Vec<String>)>,
}

/// The short rules of `game` in `lang`, read from the game's own rules resource
/// ([`ply_core::View::rules`]); `None` for an unknown game or one without rules.
#[must_use]
pub fn rules(game: &str, lang: Lang) -> Option<Rules> {
    let entry = *ply_games::registry().get(game).ok()?;
    let source = (entry.rules)(lang.code());
    let resource = fluent_bundle::FluentResource::try_new(source.to_string()).ok()?;
    let id: unic_langid::LanguageIdentifier = lang.code().parse().unwrap_or_default();
    let mut bundle = fluent_bundle::FluentBundle::new(vec![id]);
    bundle.set_use_isolating(false);
    bundle.add_resource(resource).ok()?;
    let get = |id: &str| {
        let pattern = bundle.get_message(id)?.value()?;
        Some(bundle.format_pattern(pattern, None, &mut Vec::new()).into_owned())
    };
    let summary = get("rules-summary")?;
    let mut sections = Vec::new();
    for n in 1.. {
        let Some(title) = get(&format!("rules-section-{n}")) else { break };
        let points = (1..).map_while(|m| get(&format!("rules-section-{n}-{m}"))).collect();
        sections.push((title, points));
    }
    Some(Rules { summary, sections })
}

#[cfg(test)]
mod tests {
    use super::{Lang, rules};

    #[test]
    fn every_game_has_its_rules_in_every_language_with_the_same_shape() {
        for entry in ply_games::registry().entries() {
            let en = rules(entry.name, Lang::En).expect("English rules");
            assert!(!en.summary.is_empty() && !en.sections.is_empty(), "{}", entry.name);
            for lang in [Lang::Ko, Lang::Ru] {
                let r = rules(entry.name, lang).expect("translated rules");
                let shape = |r: &super::Rules| r.sections.iter().map(|s| s.1.len()).collect();
                let (a, b): (Vec<usize>, Vec<usize>) = (shape(&en), shape(&r));
                assert_eq!(a, b, "{} in {lang:?}", entry.name);
                assert_ne!(r.summary, en.summary, "{} in {lang:?}", entry.name);
            }
        }
        let boop = rules("boop", Lang::En).unwrap();
        assert_eq!(boop.sections[3].0, "Boooop (ghost cats)");
        assert!(boop.summary.starts_with("Place kittens on a 6×6 bed; each one pushes"));
        assert!(rules("chess", Lang::En).is_none());
    }
}
