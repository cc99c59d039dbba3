//! The worked examples Z1–Z8 and the board facts of `../shared/rules/zertz.md`.

use crate::common;

use common::{marbles, moves, play, removed, setup};
use ply_core::{Game, Motion, MoveError, Outcome, Player, View};
use ply_zertz::geometry::Bits;
use ply_zertz::{Position, Variant};

const ZERO: [[u8; 3]; 2] = [[0; 3]; 2];

fn free_names(pos: &Position) -> String {
    let l = pos.layout();
    Bits(pos.free_rings()).map(|i| l.name(i)).collect::<Vec<_>>().join(" ")
}

#[test]
fn ring_counts_and_free_rings_at_start() {
    let table = [
        (Variant::V37, 37, "a1 a2 a3 a4 b1 b5 c1 c6 d1 d7 e1 e6 f1 f5 g1 g2 g3 g4"),
        (Variant::V40, 40, "a1 a2 a3 a4 a5 b1 b6 c1 c7 d1 d7 e1 e6 f1 f5 g1 g2 g3 g4"),
        (Variant::V43, 43, "a1 a2 a3 a4 a5 b1 b6 c1 c7 d1 e1 e7 f1 f6 g1 g2 g3 g4 g5"),
        (Variant::V44, 44, "a1 a2 a3 a4 a5 b1 b6 c1 c7 d1 d7 e1 e6 f1 f5 g1 h1 h2 h3 h4"),
        (Variant::V48, 48, "a1 a2 a3 a4 a5 b1 b6 c1 c7 d1 d8 e1 e7 f1 f6 g1 g5 h1 h2 h3 h4"),
        (
            Variant::V61,
            61,
            "a1 a2 a3 a4 a5 b1 b6 c1 c7 d1 d8 e1 e9 f1 f8 g1 g7 h1 h6 i1 i2 i3 i4 i5",
        ),
        (Variant::Blitz, 37, "a1 a2 a3 a4 b1 b5 c1 c6 d1 d7 e1 e6 f1 f5 g1 g2 g3 g4"),
    ];
    for (v, n, free) in table {
        let p = Position::start(v);
        assert_eq!(p.layout().n, n, "{}", v.id());
        assert_eq!(p.state().rings.count_ones(), n as u32);
        assert_eq!(free_names(&p), free, "{}", v.id());
    }
}

#[test]
fn layouts_by_column() {
    let cols = |v: Variant| {
        let l = Position::start(v).layout();
        let mut counts = vec![0; 9];
        for i in 0..l.n {
            counts[l.col[i] as usize] += 1;
        }
        counts.retain(|&c| c > 0);
        counts
    };
    assert_eq!(cols(Variant::V37), [4, 5, 6, 7, 6, 5, 4]);
    assert_eq!(cols(Variant::V40), [5, 6, 7, 7, 6, 5, 4]);
    assert_eq!(cols(Variant::V43), [5, 6, 7, 7, 7, 6, 5]);
    assert_eq!(cols(Variant::V44), [5, 6, 7, 7, 6, 5, 4, 4]);
    assert_eq!(cols(Variant::V48), [5, 6, 7, 8, 7, 6, 5, 4]);
    assert_eq!(cols(Variant::V61), [5, 6, 7, 8, 9, 8, 7, 6, 5]);
    // Direction table of 2.1 at a few rings (37 board): d4's neighbours N, NE, SE, S, SW, NW.
    let p = Position::start(Variant::V37);
    let l = p.layout();
    let d4 = l.parse_name("d4").unwrap();
    let nb: Vec<String> = l.nb[d4 as usize].iter().map(|&j| l.name(j)).collect();
    assert_eq!(nb, ["d5", "e4", "e3", "d3", "c3", "c4"]);
    let b2 = l.parse_name("b2").unwrap();
    let nb: Vec<String> = l.nb[b2 as usize].iter().map(|&j| l.name(j)).collect();
    assert_eq!(nb, ["b3", "c3", "c2", "b1", "a1", "a2"]);
    let f2 = l.parse_name("f2").unwrap();
    let nb: Vec<String> = l.nb[f2 as usize].iter().map(|&j| l.name(j)).collect();
    assert_eq!(nb, ["f3", "g2", "g1", "f1", "e2", "e3"]);
}

#[test]
fn z1_opening() {
    let mut p = Position::start(Variant::V37);
    assert_eq!(moves(&p).len(), 1944);
    play(&mut p, "Wd4,a1");
    assert_eq!(marbles(&p), "Wd4");
    assert_eq!(removed(&p), "a1");
    assert_eq!(p.state().pool, [5, 8, 10]);
    assert_eq!(p.to_move(), Player::P2);
    let p = Position::start(Variant::V37);
    assert!(p.parse_move("Wa1,a2").is_ok());
    let e = p.parse_move("Ba1,a1").unwrap_err();
    assert!(matches!(e, MoveError::Illegal(_)), "{e}");
    assert!(e.to_string().contains("not free"), "{e}");
}

fn z2() -> Position {
    setup(Variant::V37, "Wa1 Gb2 Bc4 Bd4 We5", "f1 g1 g2 g3 g4", [4, 7, 8], ZERO, Player::P2)
}

#[test]
fn z2_chain_with_a_choice() {
    let p = z2();
    assert_eq!(moves(&p), ["a1xc3xc5", "a1xc3xe4xe6", "c4xe3", "d4xb4"]);
    let cases = [
        ("a1xc3xc5", "Wc5 Bd4 We5", [0, 1, 1]),
        ("a1xc3xe4xe6", "Bc4 We6", [1, 1, 1]),
        ("c4xe3", "Wa1 Gb2 Be3 We5", [0, 0, 1]),
        ("d4xb4", "Wa1 Gb2 Bb4 We5", [0, 0, 1]),
    ];
    for (mv, after, caps) in cases {
        let mut q = p.clone();
        play(&mut q, mv);
        assert_eq!(marbles(&q), after, "{mv}");
        assert_eq!(q.state().captures[1], caps, "{mv}");
        assert_eq!(q.state().captures[0], [0, 0, 0]);
        assert_eq!(q.to_move(), Player::P1);
    }
    // The jumping marble travels from its start to the end of its chain.
    let chain = p.parse_move("a1xc3xe4xe6").unwrap();
    assert_eq!(p.motions(chain), [Motion::new("marble-e6", "marble-a1")]);
    for bad in ["a1xc3", "a1xc3xe4"] {
        let e = p.parse_move(bad).unwrap_err();
        assert!(e.to_string().contains("must go on"), "{bad}: {e}");
    }
    let e = p.parse_move("Wd5,a2").unwrap_err();
    assert!(e.to_string().contains("compulsory"), "{e}");
}

#[test]
fn z3_isolation_of_a_full_group() {
    let p = setup(Variant::V37, "Wa1 Gb1", "b2 c1 c2", [5, 7, 10], ZERO, Player::P1);
    assert_eq!(moves(&p).len(), 1581);
    let mut q = p.clone();
    let placement = q.parse_move("Bd4,a2").unwrap();
    assert_eq!(q.motions(placement), [Motion::new("marble-d4", "pool-B")]);
    play(&mut q, "Bd4,a2");
    assert_eq!(marbles(&q), "Bd4");
    assert_eq!(removed(&q), "a1 a2 b1 b2 c1 c2");
    assert_eq!(q.state().pool, [5, 7, 9]);
    assert_eq!(q.state().captures, [[1, 1, 0], [0, 0, 0]]);
    assert_eq!(q.to_move(), Player::P2);
    let mut q = p.clone();
    play(&mut q, "Bd4,a3");
    assert_eq!(marbles(&q), "Wa1 Gb1 Bd4");
    assert_eq!(removed(&q), "a3 b2 c1 c2");
}

#[test]
fn z4_a_cut_off_group_with_a_vacancy_stays() {
    let mut p = setup(Variant::V37, "Wa1", "b1 b2 b3", [5, 8, 10], ZERO, Player::P1);
    assert_eq!(moves(&p).len(), 1728);
    play(&mut p, "Bd4,a3");
    assert_eq!(marbles(&p), "Wa1 Bd4");
    assert_eq!(removed(&p), "a3 b1 b2 b3");
    assert_eq!(p.state().pool, [5, 8, 9]);
    assert_eq!(p.to_move(), Player::P2);
    assert_eq!(moves(&p).len(), 1620);
    let mut q = p.clone();
    play(&mut q, "Ga2,g1");
    assert_eq!(marbles(&q), "Bd4");
    assert_eq!(removed(&q), "a1 a2 a3 b1 b2 b3 g1");
    assert_eq!(q.state().captures[1], [1, 1, 0]);
    let mut q = p.clone();
    play(&mut q, "Gd5,a2");
    assert_eq!(marbles(&q), "Bd4 Gd5");
    assert_eq!(removed(&q), "a1 a2 a3 b1 b2 b3");
    assert_eq!(q.state().captures[1], [1, 0, 0]);
    let mut q = p.clone();
    play(&mut q, "Gd5,g1");
    assert_eq!(marbles(&q), "Wa1 Bd4 Gd5");
    assert_eq!(removed(&q), "a3 b1 b2 b3 g1");
    assert_eq!(q.state().captures, [[0; 3]; 2]);
}

#[test]
fn z5_no_free_ring() {
    let p = setup(
        Variant::V37,
        "Wa1 Wa2 Wa3 Wa4 Gb1 Gb5 Gc1 Gc6 Gd1 Gd7 Be1 Be6 Bf1 Bf5 Bg1 Bg2 Bg3 Bg4",
        "",
        [2, 2, 2],
        ZERO,
        Player::P1,
    );
    let m = moves(&p);
    assert_eq!(m.len(), 57);
    assert!(m.iter().all(|t| !t.contains(',')));
    let mut q = p.clone();
    play(&mut q, "Bd4");
    assert_eq!(q.state().pool, [2, 2, 1]);
    assert_eq!(removed(&q), "");
    let e = p.parse_move("Bd4,a1").unwrap_err();
    assert!(e.to_string().contains("no ring is free"), "{e}");
}

#[test]
fn z6_placing_from_own_captures() {
    let p = setup(
        Variant::V37,
        "Wd4 Ba1 Bc5 Bf3",
        "d7 e6 f1 f5 g1 g2 g3 g4",
        [0, 0, 0],
        [[3, 4, 2], [2, 4, 5]],
        Player::P1,
    );
    assert_eq!(moves(&p).len(), 936);
    for (mv, caps) in [("Gc3,a2", [3, 3, 2]), ("Wc3,a2", [2, 4, 2]), ("Bc3,a2", [3, 4, 1])] {
        let mut q = p.clone();
        play(&mut q, mv);
        assert_eq!(q.state().captures[0], caps, "{mv}");
        assert_eq!(q.state().captures[1], [2, 4, 5]);
        assert_eq!(q.state().pool, [0, 0, 0]);
    }
    let stuck = setup(
        Variant::V37,
        "Wa1 Wa4 Wb3 Wc2 Gc5 Gd1 Gd4 Gd7 Be2 Be5 Bf3 Bg1 Bg4",
        "",
        [0, 0, 0],
        [[0, 0, 0], [2, 4, 5]],
        Player::P1,
    );
    assert!(moves(&stuck).is_empty());
    assert_eq!(stuck.outcome(), Some(Outcome::Win(Player::P2)));
}

#[test]
fn z7_blitz_win_and_the_same_in_37() {
    let p = setup(
        Variant::Blitz,
        "Wd4 Gd5",
        "f1 g1 g2 g3 g4",
        [3, 4, 7],
        [[1, 2, 2], [0, 0, 0]],
        Player::P1,
    );
    assert_eq!(moves(&p), ["d4xd6", "d5xd3"]);
    let mut q = p.clone();
    play(&mut q, "d5xd3");
    assert_eq!(q.state().captures[0], [2, 2, 2]);
    assert_eq!(q.outcome(), Some(Outcome::Win(Player::P1)));
    assert!(moves(&q).is_empty());
    let mut q = p.clone();
    play(&mut q, "d4xd6");
    assert_eq!(q.state().captures[0], [1, 3, 2]);
    assert_eq!(q.outcome(), None);
    assert_eq!(q.to_move(), Player::P2);

    let p = setup(
        Variant::V37,
        "Wd4 Gd5",
        "f1 g1 g2 g3 g4",
        [4, 5, 8],
        [[1, 2, 2], [0, 0, 0]],
        Player::P1,
    );
    let mut q = p.clone();
    play(&mut q, "d5xd3");
    assert_eq!(q.state().captures[0], [2, 2, 2]);
    assert_eq!(q.outcome(), None);
}

#[test]
fn z8_full_board() {
    let l = Position::start(Variant::V37).layout();
    let keep = ["c3", "c4", "d4", "d5"];
    let removed_rings: Vec<String> =
        (0..l.n as u8).map(|i| l.name(i)).filter(|n| !keep.contains(&n.as_str())).collect();
    assert_eq!(removed_rings.len(), 33);
    let p = setup(
        Variant::V37,
        "Wc3 Gc4 Bd4",
        &removed_rings.join(" "),
        [3, 5, 6],
        [[0, 0, 1], [2, 2, 2]],
        Player::P1,
    );
    assert_eq!(moves(&p), ["Bd5", "Gd5", "Wd5"]);
    let mut q = p.clone();
    play(&mut q, "Wd5");
    assert_eq!(q.state().captures[0], [2, 1, 2]);
    assert_eq!(q.state().rings, 0);
    assert_eq!(marbles(&q), "");
    assert_eq!(q.outcome(), Some(Outcome::Win(Player::P1)));
}

/// A game found by random play that ends in a draw by threefold repetition (4.8): from
/// turn 38 the four turns `Bc2 Wf3 f3xd3 c2xe3` repeat, with no ring free and the marbles
/// placed from the captures. The position after turn 38 occurs again after turns 42 and 46.
#[test]
fn threefold_repetition_in_play() {
    let game = "Ge2,d1 Gg4,e1 Wd4,d2 Gb5,g1 Gd5,f5 d4xd6 Wd5,e6 d5xd7 Ba1,c6 Wg2,e5 Gc1,f1 \
        Gd3,a2 e2xc3 Bc4,a3 c4xc2 c1xc3 Bd6,f2 d7xd5 Ge2,b3 Bc5,f4 c5xe4 Wd4,d6 d4xb2 a1xc3 \
        Bc5,d5 Bg3,b4 Wf3,a1 g3xe3 Wd3,d7 d3xf3 Gc2,a4 c3xc1 Bc2,c4 c1xc3 Bc1,b1 Be3,b2 \
        e3xg3 Be3,d4 Bc2 Wf3 f3xd3 c2xe3 Bc2 Wf3 f3xd3 c2xe3";
    let turns: Vec<&str> = game.split_whitespace().collect();
    assert_eq!(turns.len(), 46);
    let mut p = Position::start(Variant::V37);
    let mut states = vec![*p.state()];
    for (k, m) in turns.iter().enumerate() {
        assert_eq!(p.outcome(), None, "over before turn {}", k + 1);
        play(&mut p, m);
        states.push(*p.state());
    }
    assert_eq!(p.outcome(), Some(Outcome::Draw));
    assert!(moves(&p).is_empty());
    let same = |a: &ply_zertz::State, b: &ply_zertz::State| {
        a.rings == b.rings
            && a.marbles == b.marbles
            && a.pool == b.pool
            && a.captures == b.captures
            && a.to_move == b.to_move
    };
    assert!(same(&states[46], &states[42]) && same(&states[46], &states[38]));
    assert!(!same(&states[46], &states[34]));
    // The second occurrence (after turn 42) was not a draw.
    p.undo();
    p.undo();
    p.undo();
    p.undo();
    assert_eq!(p.turns_played(), 42);
    assert_eq!(p.outcome(), None);
    assert!(p.pool_empty());
}
