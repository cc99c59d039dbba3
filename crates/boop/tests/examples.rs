//! Every worked example of boop.md §9, and the notation rules of §7.

use ply_boop::{Boop, Kind, Pool, Setup, Travel, Variant};
use ply_core::{Game, MoveError, Outcome, Player};

fn pool(kittens: u8, cats: u8) -> Option<Pool> {
    Some(Pool { kittens, cats })
}

fn position(variant: Variant, pieces: &str, p1: Option<Pool>, p2: Option<Pool>) -> Setup {
    Setup::start(variant).with_pieces(pieces).unwrap().with_pools(p1, p2)
}

fn diagram(variant: Variant, diagram: &str, p1: Option<Pool>, p2: Option<Pool>) -> Setup {
    Setup::start(variant).with_diagram(diagram).unwrap().with_pools(p1, p2)
}

fn game(setup: &Setup) -> Boop {
    Boop::from_setup(setup).unwrap()
}

fn count(g: &Boop) -> usize {
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    moves.len()
}

fn moves_starting(g: &Boop, prefix: &str) -> Vec<String> {
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    let mut out: Vec<String> =
        moves.into_iter().map(|m| g.format_move(m)).filter(|s| s.starts_with(prefix)).collect();
    out.sort();
    out
}

fn play(g: &mut Boop, text: &str) -> String {
    let mv = g.parse_move(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    let canonical = g.format_move(mv);
    g.play(mv);
    canonical
}

/// Asserts the bed holds exactly the pieces of `spec` ("x a1 c3 o e5").
fn assert_bed(g: &Boop, spec: &str) {
    let expected = Setup::start(Variant::Boop).with_pieces(spec).unwrap();
    for cell in ply_boop::Cell::all() {
        assert_eq!(g.piece_at(cell), expected.cells[cell.index()], "cell {cell} (expected {spec})");
    }
}

#[test]
fn example_01_simple_boop() {
    let mut g = game(&position(Variant::Boop, "x b2 o d4", pool(7, 0), pool(7, 0)));
    assert_eq!(count(&g), 34);
    play(&mut g, "Kc3");
    assert_bed(&g, "x a1 c3 o e5");
}

#[test]
fn example_02_blocked_boop() {
    let mut g = game(&position(Variant::Boop, "x b5 o d3 e3", pool(7, 0), pool(6, 0)));
    assert_eq!(count(&g), 33);
    play(&mut g, "Kc3");
    assert_bed(&g, "x b5 c3 o d3 e3");
}

#[test]
fn example_03_kitten_against_cat() {
    let setup = position(Variant::Boop, "x a1 o c4 O d4", pool(6, 1), pool(6, 0));
    let mut g = game(&setup);
    assert_eq!(count(&g), 66);
    play(&mut g, "Kc3");
    assert_bed(&g, "x a1 c3 o c5 O d4");
    let mut g = game(&setup);
    play(&mut g, "Cc3");
    assert_bed(&g, "x a1 X c3 o c5 O e5");
}

#[test]
fn example_04_booped_off_the_bed() {
    let mut g = game(&position(Variant::Boop, "x e5 o a2 a4", pool(7, 0), pool(6, 0)));
    assert_eq!(count(&g), 33);
    play(&mut g, "Kb3");
    assert_bed(&g, "x b3 e5");
    assert_eq!(g.pool(Player::P2), Pool { kittens: 8, cats: 0 });
}

#[test]
fn example_05_graduating_a_mixed_line() {
    let d = "6  . . . . . x
             5  o . . . . .
             4  . . . . o .
             3  . . x . . .
             2  . X . . . .
             1  . . . . . .";
    let mut g = game(&diagram(Variant::Boop, d, pool(3, 2), pool(6, 0)));
    assert_eq!(count(&g), 62);
    assert_eq!(play(&mut g, "Kd4"), "Kd4/b2c3d4");
    assert_bed(&g, "x f6 o a5 f4");
    assert_eq!(g.pool(Player::P1), Pool { kittens: 2, cats: 5 });
}

#[test]
fn example_06_choosing_between_two_lines() {
    let g0 = game(&position(Variant::Boop, "x b3 c3 d1 d2 o e3 b5 f6", pool(4, 0), pool(5, 0)));
    assert_eq!(count(&g0), 30);
    assert_eq!(moves_starting(&g0, "Kd3"), ["Kd3/b3c3d3", "Kd3/d1d2d3"]);
    match g0.parse_move("Kd3") {
        Err(MoveError::Ambiguous(m)) => assert!(m.contains("graduation choice required"), "{m}"),
        other => panic!("Kd3 alone must be ambiguous, got {other:?}"),
    }
    let mut g = g0.clone();
    play(&mut g, "Kd3/d1d2d3");
    assert_bed(&g, "x b3 c3 o b5 f3 f6");
    assert_eq!(g.pool(Player::P1), Pool { kittens: 3, cats: 3 });
    // The line's cells may be written in any order.
    assert_eq!(g0.format_move(g0.parse_move("Kd3/d3d1d2").unwrap()), "Kd3/d1d2d3");
}

#[test]
fn example_07_a_line_of_four() {
    let g0 = game(&position(Variant::Boop, "x a1 b1 d1 o e1 c4", pool(5, 0), pool(6, 0)));
    assert_eq!(count(&g0), 32);
    assert_eq!(moves_starting(&g0, "Kc1"), ["Kc1/a1b1c1", "Kc1/b1c1d1"]);
    let mut g = g0.clone();
    play(&mut g, "Kc1/b1c1d1");
    assert_bed(&g, "x a1 o e1 c4");
}

#[test]
fn example_08_all_eight_on_the_bed() {
    let d = "6  . o . . . .
             5  . . X . . x
             4  x . . . . .
             3  . . . o . .
             2  . . . . x X
             1  x . x . . .";
    let g0 = game(&diagram(Variant::Boop, d, pool(1, 0), pool(6, 0)));
    assert_eq!(count(&g0), 139);
    assert_eq!(
        moves_starting(&g0, "Kd6"),
        ["Kd6/cc5", "Kd6/cf2", "Kd6/ka1", "Kd6/ka4", "Kd6/kc1", "Kd6/kd6", "Kd6/ke2", "Kd6/kf5"]
    );
    let mut g = g0.clone();
    play(&mut g, "Kd6/cc5");
    assert_eq!(g.pool(Player::P1), Pool { kittens: 0, cats: 1 });
    assert_eq!(
        ply_boop::Cell::all()
            .filter(|&c| g.piece_at(c).is_some_and(|p| p.player == Player::P1))
            .count(),
        7
    );
    // The k/c letter may be left out, and must match when given.
    assert_eq!(g0.format_move(g0.parse_move("Kd6/c5").unwrap()), "Kd6/cc5");
    assert!(matches!(g0.parse_move("Kd6/kc5"), Err(MoveError::Illegal(_))));
    assert!(matches!(g0.parse_move("Kd6"), Err(MoveError::Ambiguous(_))));
}

#[test]
fn example_09_winning_with_three_cats() {
    let mut g = game(&position(Variant::Boop, "x a6 X b2 c3 o e5 d6", pool(4, 1), pool(6, 0)));
    assert_eq!(count(&g), 62);
    assert_eq!(play(&mut g, "Cd4"), "Cd4");
    assert_eq!(g.outcome(), Some(Outcome::Win(Player::P1)));
    assert_bed(&g, "x a6 X b2 c3 d4 o d6 f6");
    assert_eq!(count(&g), 0);
}

#[test]
fn example_10_the_opponents_cat_line() {
    let d = "6  . . . . . .
             5  O O . . . .
             4  . . O . . .
             3  . . . . . .
             2  . . . . o .
             1  . . . . . x";
    let mut g = game(&diagram(Variant::Boop, d, pool(5, 2), pool(4, 0)));
    play(&mut g, "Cc3");
    assert_eq!(g.outcome(), None, "P2's line does not count on P1's turn [W2]");
    assert_bed(&g, "x f1 X c3 O a5 b5 c5 o e2");
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    assert_eq!(moves.len(), 30);
    for mv in moves {
        let mut h = g.clone();
        h.play(mv);
        assert_eq!(h.outcome(), Some(Outcome::Win(Player::P2)), "{}", g.format_move(mv));
    }
    play(&mut g, "Kf6");
    assert_eq!(g.outcome(), Some(Outcome::Win(Player::P2)));
}

#[test]
fn example_11_placing_a_ghost() {
    let mut g = Boop::new("boooop").unwrap();
    assert_eq!(count(&g), 756);
    assert_eq!(play(&mut g, "Kc3@a1b1"), "Kc3@a1b1");
    let ghost = g.ghost(Player::P1).unwrap();
    assert_eq!(ghost.segment.to_string(), "a1b1");
    assert_eq!(ghost.travel, Travel::Forward);
    assert_bed(&g, "x c3");
    // Segment cells in either order.
    let g0 = Boop::new("boooop").unwrap();
    assert_eq!(g0.format_move(g0.parse_move("Kc3@b1a1").unwrap()), "Kc3@a1b1");
}

#[test]
fn example_12_ghost_move_with_peekaboo() {
    let d = "6  . . . . . .
             5  . . . . . .
             4  x o O x o .
             3  . . . . . .
             2  . . . . . .
             1  . . . . . .";
    let setup = diagram(Variant::Boooop, d, pool(6, 0), pool(5, 0))
        .with_ghost(Player::P1, "b3c3", Travel::Forward)
        .unwrap();
    let mut g = game(&setup);
    assert_eq!(count(&g), 31);
    assert!(matches!(g.parse_move("Kf1@a1a2"), Err(MoveError::Illegal(_))));
    assert_eq!(play(&mut g, "Kf1"), "Kf1");
    assert_bed(&g, "x a4 d4 f1 o e4 O f4");
    assert_eq!(g.pool(Player::P2), Pool { kittens: 6, cats: 0 });
    assert_eq!(g.ghost(Player::P1).unwrap().segment.to_string(), "b4c4");
}

#[test]
fn example_13_skipping_the_other_ghost() {
    let setup = position(Variant::Boooop, "x d3 d5 o d2 d4", pool(6, 0), pool(6, 0))
        .with_ghost(Player::P1, "b2b3", Travel::Forward)
        .unwrap()
        .with_ghost(Player::P2, "c2c3", Travel::Backward)
        .unwrap();
    let mut g = game(&setup);
    assert_eq!(count(&g), 32);
    play(&mut g, "Kf6");
    assert_bed(&g, "x d5 d6 f6 o d1 d4");
    assert_eq!(g.ghost(Player::P1).unwrap().segment.to_string(), "d2d3");
    assert_eq!(g.ghost(Player::P1).unwrap().travel, Travel::Forward);
    assert_eq!(g.ghost(Player::P2).unwrap().segment.to_string(), "c2c3");
}

#[test]
fn example_14_a_ghost_leaves_the_bed() {
    let setup = position(Variant::Boooop, "x c6 o d6", pool(7, 0), pool(7, 0))
        .with_ghost(Player::P1, "c6d6", Travel::Forward)
        .unwrap();
    let mut g = game(&setup);
    assert_eq!(count(&g), 34);
    assert!(matches!(g.parse_move("Kf1@a1a2"), Err(MoveError::Illegal(_))));
    play(&mut g, "Kf1");
    assert_eq!(g.ghost(Player::P1), None);
    assert_bed(&g, "x c6 f1 o d6");
    play(&mut g, "Ka1");
    assert_eq!(count(&g), 672);
}

#[test]
fn example_15_skipping_off_the_bed() {
    let setup = position(Variant::Boooop, "x a1 o f6", None, None)
        .with_ghost(Player::P1, "a5b5", Travel::Forward)
        .unwrap()
        .with_ghost(Player::P2, "a6b6", Travel::Backward)
        .unwrap();
    let mut g = game(&setup);
    assert_eq!(count(&g), 34);
    play(&mut g, "Kd3");
    assert_eq!(g.ghost(Player::P1), None);
    assert_bed(&g, "x a1 d3 o f6");
}

#[test]
fn example_16_a_ghost_completes_the_movers_line() {
    let setup = position(Variant::Boooop, "x b5 b6 c4 o e5", pool(5, 0), pool(7, 0))
        .with_ghost(Player::P1, "c3d3", Travel::Forward)
        .unwrap();
    let mut g = game(&setup);
    assert_eq!(count(&g), 32);
    assert_eq!(play(&mut g, "Kf1"), "Kf1/b4b5b6");
    assert_eq!(g.pool(Player::P1), Pool { kittens: 4, cats: 3 });
    assert_bed(&g, "x f1 o e5");
}

#[test]
fn example_17_a_ghost_completes_the_opponents_line() {
    let setup = position(Variant::Boooop, "o b5 b6 c4 x e5", pool(7, 0), pool(5, 0))
        .with_ghost(Player::P1, "c3d3", Travel::Forward)
        .unwrap();
    let mut g = game(&setup);
    assert_eq!(count(&g), 32);
    play(&mut g, "Kf1");
    assert_bed(&g, "o b4 b5 b6 x e5 f1");
    assert_eq!(g.pool(Player::P2), Pool { kittens: 5, cats: 0 }, "not graduated on P1's turn [R7]");
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    assert_eq!(moves.len(), 672);
    let names: Vec<String> = moves.iter().map(|&m| g.format_move(m)).collect();
    assert_eq!(names.iter().filter(|n| n.ends_with("/b4b5b6")).count(), 483);
    assert_eq!(names.iter().filter(|n| n.ends_with("/b3b4b5")).count(), 21);
    assert_eq!(names.iter().filter(|n| !n.contains('/')).count(), 168);
    assert_eq!(g.format_move(g.parse_move("Ka4").unwrap()), "Ka4");
    assert_eq!(g.format_move(g.parse_move("Ka1").unwrap()), "Ka1/b4b5b6");
    assert_eq!(g.format_move(g.parse_move("Ka1@f2f3").unwrap()), "Ka1@f2f3/b4b5b6");
    assert!(matches!(g.parse_move("Kb3"), Err(MoveError::Ambiguous(_))));
    let mut h = g.clone();
    play(&mut h, "Kb3/b4b5b6");
    assert_eq!(h.pool(Player::P2), Pool { kittens: 4, cats: 3 });
}

#[test]
fn example_18_a_draw_by_repetition() {
    let mut g = game(&position(Variant::Boop, "x a1 o f5", pool(7, 0), pool(7, 0)));
    for (i, m) in ["Ke6", "Kf5", "Ke6", "Kf5"].iter().enumerate() {
        assert_eq!(g.outcome(), None, "before turn {}", i + 1);
        play(&mut g, m);
    }
    assert_eq!(g.outcome(), Some(Outcome::Draw));
    assert_eq!(count(&g), 0);
    g.undo();
    assert_eq!(g.outcome(), None);
}

#[test]
fn notation_rejections() {
    let start = Boop::new("boop").unwrap();
    let ghosts = Boop::new("boooop").unwrap();
    let syntax = |g: &Boop, t: &str| {
        assert!(matches!(g.parse_move(t), Err(MoveError::Syntax(_))), "{t}: {:?}", g.parse_move(t));
    };
    let illegal = |g: &Boop, t: &str| {
        assert!(
            matches!(g.parse_move(t), Err(MoveError::Illegal(_))),
            "{t}: {:?}",
            g.parse_move(t)
        );
    };
    for t in [
        "",
        "Kc3 ",
        " Kc3",
        "K c3",
        "KC3",
        "Kg1",
        "Kc7",
        "Kc",
        "Xc3",
        "kc3",
        "Kc3@",
        "Kc3@a1",
        "Kc3/",
        "Kc3/a1b",
        "Kc3/xa1",
        "Kc3!",
        "Kc3@a1b1x",
        "Kc3/a1a2a3a4",
    ] {
        syntax(&start, t);
    }
    illegal(&start, "Cc3");
    illegal(&start, "Kc3@a1b1");
    illegal(&ghosts, "Kc3@c3c4");
    illegal(&ghosts, "Kc3@a1c1");
    illegal(&start, "Kc3/a1a2a3");
    illegal(&start, "Kc3/a1");
    let mut g = start.clone();
    play(&mut g, "Kc3");
    illegal(&g, "Kc3");
    // A ghost placement is never implied, and a segment taken by the other ghost is not free.
    let mut g = ghosts.clone();
    play(&mut g, "Kc3@a1b1");
    illegal(&g, "Kd4@a1b1");
    assert_eq!(g.format_move(g.parse_move("d4").unwrap()), "Kd4");
    // Upper-case K is needed when both kinds are in the pool.
    let both = game(&position(Variant::Boop, "x a1 o c4 O d4", pool(6, 1), pool(6, 0)));
    assert!(matches!(both.parse_move("c3"), Err(MoveError::Ambiguous(_))));
    assert_eq!(both.format_move(both.parse_move("Cc3").unwrap()), "Cc3");
    let won = {
        let mut w = game(&position(Variant::Boop, "x a6 X b2 c3 o e5 d6", pool(4, 1), pool(6, 0)));
        illegal(&w, "Cd4/b2c3d4");
        play(&mut w, "Cd4");
        w
    };
    assert!(matches!(won.parse_move("Ka1"), Err(MoveError::GameOver(_))));
}

#[test]
fn setup_rejects_inconsistent_positions() {
    let too_many = Setup::start(Variant::Boop).with_pieces("x a1").unwrap();
    assert!(Boop::from_setup(&too_many).is_err());
    let ghost_in_boop =
        Setup::start(Variant::Boop).with_ghost(Player::P1, "a1b1", Travel::Forward).unwrap();
    assert!(Boop::from_setup(&ghost_in_boop).is_err());
    assert_eq!(Kind::Kitten.index(), 0);
}
