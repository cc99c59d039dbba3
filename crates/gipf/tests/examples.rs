//! Every worked example of gipf.md section 7 (G1–G11) and the claims made about GT1–GT3.

use crate::common;

use std::collections::HashSet;

use common::{after, board, chips_conserved, gt1, gt2, gt3, legal, play, pos};
use ply_core::{Game, MoveError, Outcome, Player};
use ply_gipf::{Position, Variant};

fn count(p: &Position) -> usize {
    legal(p).len()
}

fn basic_start() -> Position {
    Position::new("basic").unwrap()
}

#[test]
fn g1_opening_pushes() {
    let p = basic_start();
    assert_eq!(count(&p), 42);
    for (turn, want) in [
        ("i3-h4", "W b5 e2 h4 h5 / B b2 e8 h2"),
        ("a1-b2", "W b2 b5 e2 h5 / B c3 e8 h2"),
        ("e1-e2", "W b5 e2 e3 h5 / B b2 e8 h2"),
        ("a5-b5", "W b5 c5 e2 h5 / B b2 e8 h2"),
        ("a4-b5", "W b5 c6 e2 h5 / B b2 e8 h2"),
        ("b6-b5", "W b4 b5 e2 h5 / B b2 e8 h2"),
    ] {
        let q = after(&p, turn);
        assert_eq!(board(&q), want, "{turn}");
        assert_eq!((q.reserve(Player::P1), q.reserve(Player::P2)), (11, 12));
        assert_eq!(q.to_move(), Player::P2);
    }
    // b6-b5 and a3-b4 give the same position but are different moves.
    assert_eq!(after(&p, "b6-b5").state(), after(&p, "a3-b4").state());
    assert_ne!(p.parse_move("b6-b5").unwrap(), p.parse_move("a3-b4").unwrap());

    let s = Position::new("standard").unwrap();
    assert_eq!(board(&after(&s, "b6-b5")), "W b4(G) b5 e2(G) h5(G) / B b2(G) e8(G) h2(G)");
    assert_eq!(board(&after(&s, "a3-b4")), "W b4 b5(G) e2(G) h5(G) / B b2(G) e8(G) h2(G)");
}

#[test]
fn distinct_opening_positions() {
    // gipf.md 8, "Why 42": 24, 30 and 18 distinct positions after the first turn.
    for (variant, want) in [("basic", 24), ("standard", 30), ("tournament", 18)] {
        let p = Position::new(variant).unwrap();
        let mut moves = Vec::new();
        p.legal_moves(&mut moves);
        assert_eq!(moves.len(), 42);
        let distinct: HashSet<u64> = moves
            .iter()
            .map(|&m| {
                let mut q = p.clone();
                q.play(m);
                q.hash()
            })
            .collect();
        assert_eq!(distinct.len(), want, "{variant}");
    }
}

#[test]
fn g2_row_with_a_captured_piece() {
    let p = pos(Variant::Basic, "b5 e2 e3 e4 h5", "b2 e5 e8 h2", [10, 11], [0, 0]);
    assert_eq!(count(&p), 42);
    let q = after(&p, "e1-e2,xe2-e6");
    assert_eq!(board(&q), "W b5 h5 / B b2 e8 h2");
    assert_eq!((q.reserve(Player::P1), q.reserve(Player::P2)), (13, 11));
    assert_eq!(q.captured(Player::P1), 1);
    assert_eq!(q.to_move(), Player::P2);
    // The bare push is accepted: only one legal turn starts with it.
    assert_eq!(p.format_move(p.parse_move("e1-e2").unwrap()), "e1-e2,xe2-e6");
}

#[test]
fn g3_line_full_to_the_edge() {
    let p = pos(Variant::Basic, "b3 b5 e2 h5", "b2 b4 e8 h2", [11, 11], [0, 0]);
    assert_eq!(count(&p), 40);
    for bad in ["b1-b2", "b6-b5"] {
        match p.parse_move(bad) {
            Err(MoveError::Illegal(msg)) => assert!(msg.contains("full"), "{msg}"),
            other => panic!("{bad}: {other:?}"),
        }
    }
    assert_eq!(board(&after(&p, "a1-b2")), "W b2 b3 b5 e2 h5 / B b4 c3 e8 h2");
}

#[test]
fn g4_overlapping_rows() {
    let p = pos(Variant::Basic, "e2 e3 e4 f5 g5 h5", "b2 e6 h2", [9, 12], [0, 0]);
    assert_eq!(count(&p), 44);
    let q = after(&p, "e1-e2,xe2-e6");
    assert_eq!(board(&q), "W f5 g5 h5 / B b2 h2");
    assert_eq!((q.reserve(Player::P1), q.captured(Player::P1)), (12, 1));
    let q = after(&p, "e1-e2,xe5-h5");
    assert_eq!(board(&q), "W e2 e3 e4 / B b2 e6 h2");
    assert_eq!((q.reserve(Player::P1), q.captured(Player::P1)), (12, 0));
    assert!(matches!(p.parse_move("e1-e2"), Err(MoveError::Ambiguous(_))));
    let with_push = |push: &str| legal(&p).iter().filter(|m| m.starts_with(push)).count();
    assert_eq!(with_push("e1-e2,"), 2);
    assert_eq!(with_push("i5-h5,"), 2);
    assert_eq!(legal(&p).iter().filter(|m| !m.contains(',')).count(), 40);
}

#[test]
fn g5_rows_for_both_players() {
    let p = pos(Variant::Basic, "b5 f2 g2 h2", "b2 e2 e3 e4 e6", [11, 10], [0, 0]);
    assert_eq!(count(&p), 40);
    assert!(p.parse_move("d1-e2").is_err());
    assert!(p.parse_move("i2-h2").is_err());
    let mut q = after(&p, "e1-e2,xe2-h2");
    assert_eq!(board(&q), "W b5 / B b2 e3 e4 e5 e6");
    assert_eq!((q.reserve(Player::P1), q.reserve(Player::P2)), (14, 10));
    assert_eq!(q.to_move(), Player::P2);
    let turns = legal(&q);
    assert_eq!(turns.len(), 42);
    assert!(turns.iter().all(|t| t.starts_with("xe3-e6,")));
    assert_eq!(q.format_move(q.parse_move("i3-h4").unwrap()), "xe3-e6,i3-h4");
    play(&mut q, "xe3-e6,i3-h4");
    assert_eq!(board(&q), "W b5 / B b2 h4");
    assert_eq!(q.reserve(Player::P2), 13);
}

#[test]
fn g6_keep_or_take_gipf_pieces() {
    let p = pos(Variant::Standard, "b5(G) e2 e3(G) e4", "b2(G) e6(G) h2", [12, 12], [1, 0]);
    assert_eq!(count(&p), 45);
    for (turn, white, black, reserve, cap) in [
        ("e1-e2,xe2-e6", "b5(G)", "b2(G) h2", 16, 3),
        ("e1-e2,xe2-e6+e4", "b5(G) e4(G)", "b2(G) h2", 14, 3),
        ("e1-e2,xe2-e6+e6", "b5(G)", "b2(G) e6(G) h2", 16, 1),
        ("e1-e2,xe2-e6+e4+e6", "b5(G) e4(G)", "b2(G) e6(G) h2", 14, 1),
    ] {
        let q = after(&p, turn);
        assert_eq!(board(&q), format!("W {white} / B {black}"), "{turn}");
        assert_eq!((q.reserve(Player::P1), q.captured(Player::P1)), (reserve, cap), "{turn}");
        assert_eq!(q.outcome(), None);
        chips_conserved(&q);
    }
    let starts: Vec<String> = legal(&p).into_iter().filter(|t| t.starts_with("e1-e2")).collect();
    assert_eq!(starts.len(), 4);
    assert!(matches!(p.parse_move("e1-e2"), Err(MoveError::Ambiguous(_))));
}

#[test]
fn g7_overlap_through_a_gipf_piece() {
    let p =
        pos(Variant::Standard, "b5(G) e2 e3 e4(G) f5 g5 h5", "b2(G) e8(G) h2(G)", [7, 12], [0, 2]);
    assert_eq!(count(&p), 49);
    let table = [
        ("e1-e2,xe2-e5", "b5(G) f5 g5 h5", 11),
        ("e1-e2,xe5-h5", "b5(G) e2 e3 e4", 11),
        ("e1-e2,xe2-e5+e5,xe5-h5", "b5(G)", 14),
        ("e1-e2,xe2-e5+e5,xe5-h5+e5", "b5(G) e5(G)", 12),
        ("e1-e2,xe5-h5+e5,xe2-e5", "b5(G)", 14),
        ("e1-e2,xe5-h5+e5,xe2-e5+e5", "b5(G) e5(G)", 12),
    ];
    let mut e1: Vec<String> = legal(&p).into_iter().filter(|t| t.starts_with("e1-e2")).collect();
    let mut want: Vec<String> = table.iter().map(|t| t.0.to_string()).collect();
    e1.sort();
    want.sort();
    assert_eq!(e1, want);
    for (turn, white, reserve) in table {
        let q = after(&p, turn);
        assert_eq!(board(&q), format!("W {white} / B b2(G) e8(G) h2(G)"), "{turn}");
        assert_eq!(q.reserve(Player::P1), reserve, "{turn}");
    }
    // Same positions, different moves (4.6.3).
    assert_eq!(
        after(&p, "e1-e2,xe2-e5+e5,xe5-h5").state(),
        after(&p, "e1-e2,xe5-h5+e5,xe2-e5").state()
    );
    let mut i5: Vec<String> = legal(&p).into_iter().filter(|t| t.starts_with("i5-h5")).collect();
    i5.sort();
    assert_eq!(i5, ["i5-h5,xe2-e5", "i5-h5,xe2-e5+e4", "i5-h5,xe5-h5"]);
}

#[test]
fn g8_tournament_entry() {
    let mut p = Position::new("tournament").unwrap();
    let turns = legal(&p);
    assert_eq!(turns.len(), 42);
    assert!(turns.iter().all(|t| t.starts_with('G')));
    assert!(p.parse_move("a1-b2").is_err());
    play(&mut p, "Ga1-b2");
    assert_eq!(board(&p), "W b2(G) / B ");
    assert_eq!(p.reserve(Player::P1), 16);
    assert_eq!(count(&p), 42);
    play(&mut p, "Gi1-h2");
    assert_eq!(board(&p), "W b2(G) / B h2(G)");
    assert_eq!(p.reserve(Player::P2), 16);
    assert_eq!(count(&p), 84);
    play(&mut p, "e1-e2");
    assert_eq!(board(&p), "W b2(G) e2 / B h2(G)");
    assert_eq!(p.reserve(Player::P1), 15);
    assert_eq!(count(&p), 84);
    play(&mut p, "Ge9-e8");
    assert_eq!(board(&p), "W b2(G) e2 / B e8(G) h2(G)");
    assert_eq!(p.reserve(Player::P2), 14);
    assert_eq!(count(&p), 42);
    match p.parse_move("Gi5-h5") {
        Err(MoveError::Illegal(msg)) => assert!(msg.contains("T3"), "{msg}"),
        other => panic!("{other:?}"),
    }
    play(&mut p, "i5-h5");
    assert_eq!(board(&p), "W b2(G) e2 h5 / B e8(G) h2(G)");
    assert_eq!(p.reserve(Player::P1), 14);
}

#[test]
fn g9_empty_reserve() {
    let p = pos(Variant::Basic, "b5 c3 e2 h5", "b2 d5 e8 h2", [0, 3], [8, 11]);
    assert_eq!(count(&p), 0);
    assert_eq!(p.outcome(), Some(Outcome::Win(Player::P2)));
    assert!(matches!(p.parse_move("a1-b2"), Err(MoveError::GameOver(_))));

    let p = pos(Variant::Basic, "b5 f2 g2 h2", "b2 e2 e3 e4 e6", [11, 0], [10, 0]);
    let mut q = after(&p, "e1-e2,xe2-h2");
    assert_eq!(q.outcome(), None);
    assert_eq!(q.reserve(Player::P2), 0);
    assert_eq!(count(&q), 42);
    play(&mut q, "xe3-e6,i3-h4");
    assert_eq!(board(&q), "W b5 / B b2 h4");
    assert_eq!(q.reserve(Player::P2), 3);
}

#[test]
fn g10_last_gipf_piece() {
    let p = pos(Variant::Standard, "b5(G) e2 e3(G) e4", "b2 e6(G) h2", [12, 12], [2, 0]);
    assert_eq!(count(&p), 45);
    for turn in ["e1-e2,xe2-e6", "e1-e2,xe2-e6+e4"] {
        assert_eq!(after(&p, turn).outcome(), Some(Outcome::Win(Player::P1)), "{turn}");
        assert_eq!(count(&after(&p, turn)), 0);
    }
    for turn in ["e1-e2,xe2-e6+e6", "e1-e2,xe2-e6+e4+e6"] {
        let q = after(&p, turn);
        assert_eq!(q.outcome(), None, "{turn}");
        assert_eq!(q.to_move(), Player::P2);
    }
}

#[test]
fn g11_removals_before_and_after_the_push() {
    let p = pos(Variant::Basic, "b5 f2 g2 h2", "c2 c3 c4 e2 e3 e4 e6", [11, 8], [0, 0]);
    let mut q = after(&p, "e1-e2,xe2-h2");
    assert_eq!(board(&q), "W b5 / B c2 c3 c4 e3 e4 e5 e6");
    assert_eq!((q.reserve(Player::P1), q.reserve(Player::P2)), (14, 8));
    assert_eq!(count(&q), 42);
    assert_eq!(q.format_move(q.parse_move("c1-c2").unwrap()), "xe3-e6,c1-c2,xc2-c5");
    play(&mut q, "xe3-e6,c1-c2,xc2-c5");
    assert_eq!(board(&q), "W b5 / B ");
    assert_eq!((q.reserve(Player::P1), q.reserve(Player::P2)), (14, 15));
    assert_eq!(q.to_move(), Player::P1);
    chips_conserved(&q);
}

#[test]
fn gt1_every_turn_starts_with_the_pending_row() {
    let p = gt1();
    let turns = legal(&p);
    assert_eq!(turns.len(), 40);
    assert!(turns.iter().all(|t| t.starts_with("xb5-g3,")));
}

#[test]
fn gt2_first_tokens() {
    let p = gt2();
    let mut first: Vec<String> =
        legal(&p).iter().map(|t| t.split(',').next().unwrap().to_string()).collect();
    first.sort();
    first.dedup();
    assert_eq!(first, ["xb4-f7", "xb4-f7+c5", "xd7-h4", "xd7-h4+f6"]);
}

#[test]
fn gt3_self_inflicted_gipf_losses() {
    let p = gt3();
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    assert_eq!(moves.len(), 88);
    let mut white_loses = 0;
    let mut black_loses = 0;
    let mut replies = Vec::new();
    for &m in &moves {
        let mut q = p.clone();
        q.play(m);
        if q.outcome() == Some(Outcome::Win(Player::P2)) {
            white_loses += 1;
            continue;
        }
        q.legal_moves(&mut replies);
        for &r in &replies {
            let mut s = q.clone();
            s.play(r);
            if s.outcome() == Some(Outcome::Win(Player::P1)) {
                black_loses += 1;
            }
        }
    }
    assert_eq!(white_loses, 2);
    assert_eq!(black_loses, 104);
    assert!(legal(&p).contains(&"e1-e2,xe2-e5+e5,xd5-h2+f4".to_string()));
    let q = after(&p, "a1-b2");
    assert!(legal(&q).contains(&"c7-d7,xb5-e8".to_string()));
    assert_eq!(after(&q, "c7-d7,xb5-e8").outcome(), Some(Outcome::Win(Player::P1)));
}
