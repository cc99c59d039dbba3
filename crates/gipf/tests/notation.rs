//! Notation: canonical form, the abbreviations of gipf.md 5.4, and error messages.

use crate::common;

use common::{after, legal, pos};
use ply_core::{Game, MoveError, View};
use ply_gipf::{EntryPhase, Position, Setup, Variant};

fn canonical(p: &Position, text: &str) -> Result<String, MoveError> {
    p.parse_move(text).map(|m| p.format_move(m))
}

fn err(p: &Position, text: &str) -> String {
    match p.parse_move(text) {
        Ok(m) => panic!("'{text}' was accepted as {}", p.format_move(m)),
        Err(e) => e.to_string(),
    }
}

fn g2() -> Position {
    pos(Variant::Basic, "b5 e2 e3 e4 h5", "b2 e5 e8 h2", [10, 11], [0, 0])
}

fn g6() -> Position {
    pos(Variant::Standard, "b5(G) e2 e3(G) e4", "b2(G) e6(G) h2", [12, 12], [1, 0])
}

#[test]
fn end_points_in_either_order_and_kept_points_in_any_order() {
    assert_eq!(canonical(&g2(), "e1-e2,xe6-e2").unwrap(), "e1-e2,xe2-e6");
    assert_eq!(canonical(&g6(), "e1-e2,xe2-e6+e6+e4").unwrap(), "e1-e2,xe2-e6+e4+e6");
    assert_eq!(canonical(&g6(), "e1-e2,xe6-e2+e6").unwrap(), "e1-e2,xe2-e6+e6");
    assert_eq!(canonical(&g2(), "  e1-e2,xe2-e6 \n").unwrap(), "e1-e2,xe2-e6");
}

#[test]
fn malformed_text_is_rejected() {
    let p = g6();
    assert!(err(&p, "e1-e2,xe2-e6+e4+e4").contains("twice"));
    for bad in [
        "e1-e2, xe2-e6",
        "E1-e2",
        "e1-E2",
        "e1-e2,,xe2-e6",
        "e1e2",
        "xe2e6,e1-e2",
        "e1-e2;xe2-e6",
        "",
        "e1-e2,xe2-e6,",
        "e1-e2 xe2-e6",
        "X e2-e6",
        "g e1-e2",
    ] {
        assert!(matches!(p.parse_move(bad), Err(MoveError::Syntax(_))), "{bad:?}");
    }
    assert!(err(&p, "a6-b5").contains("a6 is not a point"));
    assert!(err(&p, "j1-b2").contains("not a point"));
    assert!(err(&p, "a1-b2,c1-c2").contains("2 pushes"));
}

#[test]
fn illegal_pushes_say_why() {
    let p = Position::new("basic").unwrap();
    assert!(err(&p, "e5-e6").contains("e5 is not a dot"));
    assert!(err(&p, "a1-c3").contains("enters on b2 only"));
    assert!(err(&p, "a2-c3").contains("b2 or b3"));
    assert!(err(&p, "Ga1-b2").contains("tournament"));
    let t = Position::new("tournament").unwrap();
    assert!(err(&t, "a1-b2").contains("T1"));
    let g3 = pos(Variant::Basic, "b3 b5 e2 h5", "b2 b4 e8 h2", [11, 11], [0, 0]);
    assert!(err(&g3, "b1-b2").contains("4.3.3"));
}

#[test]
fn removals_must_be_complete_and_in_order() {
    // G11: the post-push removal may not be left out once a removal is written.
    let p = pos(Variant::Basic, "b5 f2 g2 h2", "c2 c3 c4 e2 e3 e4 e6", [11, 8], [0, 0]);
    let q = after(&p, "e1-e2,xe2-h2");
    assert!(err(&q, "xe3-e6,c1-c2").contains("incomplete"));
    assert!(err(&q, "c1-c2,xc2-c5").contains("must be removed before"));
    assert!(err(&q, "xe3-e6").contains("incomplete"));
    assert!(err(&q, "xe3-e6,c1-c2,xc2-c5,xb5-b5").contains("complete"));
    // G7: keeping the shared GIPF piece leaves the other row, which must go too.
    let g7 =
        pos(Variant::Standard, "b5(G) e2 e3 e4(G) f5 g5 h5", "b2(G) e8(G) h2(G)", [7, 12], [0, 2]);
    assert!(err(&g7, "e1-e2,xe2-e5+e5").contains("incomplete"));
    assert!(err(&g7, "e1-e2,xe2-e5+e4").contains("e4 is not a GIPF piece"));
    let ambiguous = err(&g7, "e1-e2");
    assert!(ambiguous.contains("6 turns"), "{ambiguous}");
    assert!(err(&g7, "e1-e2,xe2-e6").contains("not the run"));
}

#[test]
fn separate_rows_in_ascending_order() {
    let p = pos(Variant::Basic, "b2 b3 b4 b5 h2 h3 h4 h5", "e8", [7, 14], [0, 0]);
    let turns = legal(&p);
    assert_eq!(turns.len(), 42);
    assert!(turns.iter().all(|t| t.starts_with("xb2-b5,xh2-h5,")));
    assert_eq!(canonical(&p, "xb2-b5,xh2-h5,e1-e2").unwrap(), "xb2-b5,xh2-h5,e1-e2");
    assert_eq!(canonical(&p, "e1-e2").unwrap(), "xb2-b5,xh2-h5,e1-e2");
    assert!(err(&p, "xh2-h5,xb2-b5,e1-e2").contains("ascending order"));
}

fn optional_row_position(reserve_white: u8) -> Position {
    // Four white GIPF pieces b2 c3 d4 e5 on line a1-i5: a row of GIPF pieces only, optional
    // (D6). The run extends over Black's GIPF piece on f5.
    let mut s =
        Setup::from_lists(Variant::Tournament, "b2(G) c3(G) d4(G) e5(G)", "f5(G) h2(G)").unwrap();
    s.reserve = [reserve_white, 14];
    s.captured = [0, 10 - reserve_white];
    s.entry = [EntryPhase::Singles, EntryPhase::GipfPieces];
    Position::from_setup(&s).unwrap()
}

#[test]
fn optional_rows_may_stay() {
    let p = optional_row_position(10);
    let turns = legal(&p);
    // The bare push is itself a legal turn, and means exactly that (5.4.1).
    assert!(turns.contains(&"i3-h4".to_string()));
    assert!(turns.contains(&"i3-h4,xb2-f5+c3".to_string()));
    assert!(turns.contains(&"xb2-f5+c3,i3-h4".to_string()));
    assert_eq!(canonical(&p, "i3-h4").unwrap(), "i3-h4");
    // The click path of the bare push ends with `end`, since other turns continue it.
    let mv = p.parse_move("i3-h4").unwrap();
    assert_eq!(p.click_path(mv), ["i3", "h4", "end"]);
    let mv = p.parse_move("i3-h4,xb2-f5+c3").unwrap();
    assert_eq!(p.click_path(mv), ["i3", "h4", "b2", "f5", "c3", "done"]);
    // Keeping everything takes nothing: not a step (4.4.3).
    assert!(err(&p, "xb2-f5+b2+c3+d4+e5+f5,i3-h4").contains("at least one"));
    common::check_click_paths(&p);
}

#[test]
fn empty_reserve_with_only_an_optional_row() {
    let p = optional_row_position(0);
    let turns = legal(&p);
    assert!(!turns.is_empty());
    assert!(turns.iter().all(|t| t.starts_with("xb2-f5")), "at least one removal step (6.2)");
    // Removal-only turns: taking all four white GIPF pieces loses at once (4.8), keeping all
    // four and taking only Black's f5 leaves White's reserve at 0 (6.2).
    let mut removal_only: Vec<String> =
        turns.iter().filter(|t| t.split(',').all(|tok| tok.starts_with('x'))).cloned().collect();
    removal_only.sort();
    common::check_click_paths(&p);
    assert_eq!(removal_only, ["xb2-f5", "xb2-f5+b2+c3+d4+e5", "xb2-f5+f5"]);
    for t in removal_only {
        let q = after(&p, &t);
        assert_eq!(q.outcome(), Some(ply_core::Outcome::Win(ply_core::Player::P2)), "{t}");
    }
}

/// A tournament position with 10,915 legal turns (rows of both players through GIPF pieces,
/// each GIPF piece kept or taken, before and after the push), found by the `rules_gipf` fuzz
/// target. Every turn must read back; the parser used to replay all 10,915 turns for each one
/// it read, so this took 40 s in release, and now replays only turns of the same shape.
#[test]
fn every_turn_of_a_position_with_ten_thousand_reads_back() {
    let mut p = Position::new("tournament").unwrap();
    let turns = "Gh6-h5 Gg1-f2 Ga2-b3 Ga2-b3 Ga2-b3 Ga2-b3 Ga2-b3 Ga2-b3 Gb1-b2 Gb1-b2 Gb1-b2 \
                 Gd1-d2 Gd1-d2 Gd1-d2 Gd1-d2 Gd1-d2 Ga3-b3,xb3-g6+d5+e6 Ga5-b5 Ga5-b5";
    for turn in turns.split(' ') {
        common::play(&mut p, turn);
    }
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    assert_eq!(moves.len(), 10_915);
    for &mv in &moves {
        let text = p.format_move(mv);
        assert_eq!(p.parse_move(&text), Ok(mv), "{text}");
    }
    // The abbreviations still read the same: a bare push that several turns make (with
    // different removals) is ambiguous; one no turn makes is illegal.
    let whole = "xd2-d7+d3+d4+d5+d6+d7,Ga1-b2,xd3-d7+d4+d7";
    assert_eq!(canonical(&p, whole).as_deref(), Ok(whole));
    let message = |text: &str| match p.parse_move(text) {
        Ok(m) => panic!("{text} read as {}", p.format_move(m)),
        Err(e) => e,
    };
    assert!(
        matches!(message("Ga1-b2"), MoveError::Ambiguous(m) if m.starts_with("Ga1-b2 fits 232 turns"))
    );
    assert!(
        matches!(message("Gh6-h5"), MoveError::Ambiguous(m) if m.starts_with("Gh6-h5 fits 108"))
    );
    assert!(matches!(
        message("Ga1-b2,xd3-d7+d4+d7"),
        MoveError::Illegal(m) if m.starts_with("rows of yours must be removed before you push")
    ));
    assert!(matches!(
        message("xd2-d7+d3"),
        MoveError::Illegal(m) if m.starts_with("incomplete turn: after xd2-d7+d3, the rules")
    ));
}
