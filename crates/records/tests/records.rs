//! Reading, writing and replaying records.

use ply_core::{Outcome, Player};
use ply_records::{GameResult, ParseError, Record, RecordMove, ReplayError};
use proptest::prelude::*;

const GAME: &str = r#"[Game "boop"]
[Variant "boooop"]
[P1 "Ada \"the cat\" Lovelace"]
[P2 "Brian"]
[Date "2026.11.30"]
[Result "*"]

{ opening } 1. Kc3@a1b1 Kd4 ; a line comment
2. Ke5 {the ghost
   moves} Kf6 *
"#;

#[test]
fn reads_headers_moves_and_comments() {
    let r = Record::parse(GAME).unwrap();
    assert_eq!(r.header("Game"), Some("boop"));
    assert_eq!(r.header("P1"), Some("Ada \"the cat\" Lovelace"));
    assert_eq!(r.result(), GameResult::Unknown);
    assert_eq!(r.comment.as_deref(), Some("opening"));
    let texts: Vec<&str> = r.moves.iter().map(|m| m.text.as_str()).collect();
    assert_eq!(texts, ["Kc3@a1b1", "Kd4", "Ke5", "Kf6"]);
    assert_eq!(r.moves[2].comment.as_deref(), Some("the ghost moves"));
    assert_eq!((r.moves[0].line, r.moves[0].column), (8, 16));
}

#[test]
fn writes_what_it_reads() {
    let r = Record::parse(GAME).unwrap();
    let text = r.to_string();
    assert!(text.contains("[P1 \"Ada \\\"the cat\\\" Lovelace\"]"));
    assert!(text.contains("1. Kc3@a1b1 Kd4 2. Ke5 {the ghost moves} Kf6 *"), "{text}");
    let again = Record::parse(&text).unwrap();
    assert_eq!(again.headers, r.headers);
    assert_eq!(again.comment, r.comment);
    let strip = |r: &Record| {
        r.moves.iter().map(|m| (m.text.clone(), m.comment.clone())).collect::<Vec<_>>()
    };
    assert_eq!(strip(&again), strip(&r));
}

#[test]
fn replays_through_the_rules() {
    let registry = ply_games::registry();
    let r = Record::parse(GAME).unwrap();
    let game = r.replay(&registry).unwrap();
    assert_eq!(game.history(), ["Kc3@a1b1", "Kd4", "Ke5", "Kf6"]);

    let draw = Record::parse("[Game \"boop\"]\n1. Ka1 Kf5 2. Ke6 Kf5 3. Ke6 Kf5 1/2-1/2").unwrap();
    assert_eq!(draw.replay(&registry).unwrap().outcome(), Some(Outcome::Draw));
    let wrong = Record::parse("[Game \"boop\"]\n1. Ka1 Kf5 2. Ke6 Kf5 3. Ke6 Kf5 1-0").unwrap();
    assert!(matches!(wrong.replay(&registry), Err(ReplayError::WrongResult { .. })));

    let of_game = Record::of_game(&*draw.replay(&registry).unwrap());
    assert_eq!(of_game.result(), GameResult::Draw);
    assert_eq!(of_game.result().outcome(), Some(Outcome::Draw));
    assert_eq!(GameResult::from_outcome(Some(Outcome::Win(Player::P2))).token(), "0-1");
}

#[test]
fn replay_names_the_bad_turn() {
    let registry = ply_games::registry();
    let r = Record::parse("[Game \"boop\"]\n\n1. Kc3 Kd4\n2. Kd4 Ke5 *\n").unwrap();
    match r.replay(&registry) {
        Err(ReplayError::IllegalMove { number, text, line, column, reason }) => {
            assert_eq!((number, text.as_str(), line, column), (3, "Kd4", 4, 4));
            assert!(reason.contains("occupied"), "{reason}");
        }
        other => panic!("{other:?}"),
    }
    let err = |t: &str| Record::parse(t).unwrap().replay(&registry).unwrap_err().to_string();
    assert!(err("1. Kc3").contains("no [Game"));
    assert!(err("[Game \"go\"]").contains("unknown game 'go'"));
    assert!(err("[Game \"boop\"][Variant \"x\"]").contains("no variant 'x'"));
}

fn parse_err(text: &str) -> ParseError {
    Record::parse(text).unwrap_err()
}

#[test]
fn errors_carry_line_and_column() {
    let e = parse_err("[Game \"boop\"]\n[Variant boop]\n");
    assert_eq!((e.line, e.column), (2, 10));
    assert!(e.message.contains("double quotes"));
    let e = parse_err("[Game \"boop]\n");
    assert!(e.message.contains("closing quote"), "{e}");
    let e = parse_err("[Game \"boop\"]\n1. Kc3 {never closed\n");
    assert_eq!((e.line, e.column), (2, 8));
    let e = parse_err("[Game \"boop\"]\n1. Kc3 2. Kd4\n");
    assert!(e.message.contains("turn number 2 is out of place"), "{e}");
    let e = parse_err("[Game \"boop\"]\n1. Kc3 Kd4 1-0 Ke5\n");
    assert!(e.message.contains("nothing may follow the result"), "{e}");
    let e = parse_err("[Game \"boop\"]\n[Result \"1-0\"]\n1. Kc3 0-1\n");
    assert!(e.message.contains("contradicts"), "{e}");
    let e = parse_err("[Game \"boop\"]\n[Game \"gipf\"]\n");
    assert!(e.message.contains("twice"));
    let e = parse_err("[Game \"boop\"]\n[Result \"win\"]\n");
    assert!(e.message.contains("is not one of"));
    let e = parse_err("1. Kc3 [Game \"boop\"]");
    assert!(e.message.contains("headers must come before"));
    // Black's turn may carry an ellipsis number.
    assert_eq!(Record::parse("1. Kc3 1... Kd4 2. Ke5").unwrap().moves.len(), 3);
}

proptest! {
    #[test]
    fn written_records_read_back(
        moves in proptest::collection::vec("[A-Za-z][a-z0-9@/,+:-]{0,12}", 0..40),
        comments in proptest::collection::vec(proptest::option::of("[a-z ]{1,20}"), 40),
        name in "[ -~]{0,20}",
        result in 0usize..4,
    ) {
        let mut r = Record::new("boop", "boop");
        r.set_header("P1", &name);
        r.set_header("Result", ["1-0", "0-1", "1/2-1/2", "*"][result]);
        r.moves = moves.iter().zip(&comments).map(|(m, c)| {
            let mut mv = RecordMove::new(m.clone());
            mv.comment = c.as_ref().map(|c| c.split_whitespace().collect::<Vec<_>>().join(" ")).filter(|c| !c.is_empty());
            mv
        }).collect();
        let back = Record::parse(&r.to_string()).unwrap();
        prop_assert_eq!(&back.headers, &r.headers);
        let texts = |r: &Record| r.moves.iter().map(|m| (m.text.clone(), m.comment.clone())).collect::<Vec<_>>();
        prop_assert_eq!(texts(&back), texts(&r));
    }
}

/// Found by the `record` fuzz target: an empty comment followed by another made a comment
/// with a leading space, which read back without it; and of two comments before the first
/// turn only the last was kept.
#[test]
fn comments_in_a_row_join_into_one_that_reads_back() {
    let r = Record::parse("{} {first}  {second one} Kc3 {} {c} {} {d  e} *").unwrap();
    assert_eq!(r.comment.as_deref(), Some("first second one"));
    assert_eq!(r.moves[0].comment.as_deref(), Some("c d e"));
    let again = Record::parse(&r.to_string()).unwrap();
    assert_eq!(again.comment, r.comment);
    assert_eq!(again.moves[0].comment, r.moves[0].comment);
    let empty = Record::parse("Kc3 {} {} *").unwrap();
    assert_eq!(empty.moves[0].comment.as_deref(), Some(""));
    assert_eq!(Record::parse(&empty.to_string()).unwrap().moves[0].comment.as_deref(), Some(""));
}
