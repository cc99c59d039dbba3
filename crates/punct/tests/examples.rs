//! Every worked example of `shared/rules/punct.md` §8 and the per-position counts of §9.

use ply_core::{Game, Outcome, Player};
use ply_punct::{Kind, Move, Point, Position, Setup, Variant};

fn pos(text: &str, to_move: Player, variant: Variant) -> Position {
    let setup = Setup::parse(text, to_move).expect("setup parses");
    Position::from_setup(&setup, variant).expect("setup is a position")
}

fn std_pos(text: &str, to_move: Player) -> Position {
    pos(text, to_move, Variant::Standard)
}

fn legal(p: &Position, text: &str) -> bool {
    p.parse_move(text).is_ok()
}

fn err(p: &Position, text: &str) -> String {
    p.parse_move(text).expect_err(text).to_string()
}

fn play(p: &mut Position, text: &str) {
    let mv = p.parse_move(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    let mut all = Vec::new();
    p.legal_moves(&mut all);
    assert!(all.contains(&mv), "{text} parses but is not generated");
    p.play(mv);
}

fn pt(s: &str) -> Point {
    Point::parse(s).unwrap()
}

#[test]
fn empty_board_counts() {
    for variant in ["standard", "basic"] {
        let p = Position::new(variant).unwrap();
        assert_eq!(p.action_counts(), (4986, 0));
        let mut moves = Vec::new();
        p.legal_moves(&mut moves);
        let mut by_kind = [0usize; 6];
        for m in &moves {
            let Move::Place { orient, .. } = m else { panic!("only placements") };
            by_kind[orient.kind().index()] += 1;
        }
        assert_eq!(by_kind, [954, 444, 888, 900, 900, 900]);
    }
}

#[test]
fn unrestricted_empty_board_has_5931_shapes() {
    let mut by_kind = [0usize; 6];
    for p in Point::all() {
        for kind in Kind::ALL {
            for o in kind.orients() {
                let o = ply_punct::Orient::new(kind, o - kind.orients().start).unwrap();
                if ply_punct::shape_points(p, o).is_some() {
                    by_kind[kind.index()] += 1;
                }
            }
        }
    }
    assert_eq!(by_kind, [1116, 531, 1062, 1074, 1074, 1074]);
}

#[test]
fn example_1_opening_and_centre() {
    for variant in ["standard", "basic"] {
        let p = Position::new(variant).unwrap();
        assert!(err(&p, "Th7:h8,i8").contains("central"));
        assert!(err(&p, "Tf6:f7,g7").contains("g7"));
        assert!(legal(&p, "Eg4:g5,g6"));
    }
    let mut basic = Position::new("basic").unwrap();
    play(&mut basic, "Eg4:g5,g6");
    assert_eq!(basic.to_move(), Player::P2);
    play(&mut basic, "Th9:i9,i10");
    assert!(legal(&basic, "Ej7:j8,j9"));
    let mut standard = Position::new("standard").unwrap();
    play(&mut standard, "Eg4:g5,g6");
    assert!(err(&standard, "Th9:i9,i10").contains("central"));
}

const EX2: &str = "W E i3:i4,i5 L1; B T i8:i9,j9 L1; B E h11:i11,j11 L1";

#[test]
fn example_2_long_jump() {
    let p = std_pos(EX2, Player::P1);
    for ok in ["i3-i13:j13,k13", "i3-i16:j16,k16", "i3-i14:i15,i16", "i3-i2:i3,i4", "i3-i3:j3,k3"] {
        assert!(legal(&p, ok), "{ok}");
    }
    assert!(err(&p, "i3-i3:i4,i5").contains("[M5]"));
    assert!(err(&p, "i3-i9:i10,i11").contains("opponent"));
    assert_eq!(p.action_counts(), (4692, 153));
}

const EX3: &str = "W E e7:e8,e9 L1; B E f7:f8,f9 L1; W T c8:c9,d9 L1";

#[test]
fn example_3_climbing() {
    let mut p = std_pos(EX3, Player::P1);
    assert_eq!(p.action_counts(), (4515, 365));
    play(&mut p, "c8-e8:e7,f8");
    let tri = p.pieces().into_iter().find(|x| x.kind == Kind::T).unwrap();
    assert_eq!(tri.level, 2);
    for s in ["e7", "e8", "f8"] {
        assert_eq!(p.visible(pt(s)), Some(Player::P1), "{s}");
    }
    assert!(p.pieces().iter().filter(|x| x.kind == Kind::E).all(|x| x.covered));
    assert_eq!(p.action_counts(), (4707, 0));
}

#[test]
fn example_4_illegal_climbs() {
    let p = std_pos(EX3, Player::P1);
    assert!(err(&p, "c8-f8:e7,e8").contains("opponent"));
    assert!(legal(&p, "c8-e8:e9,f9"));
    assert!(err(&p, "c8-e8:d7,e7").contains("[L1]"));
    assert!(err(&p, "c8-d8:e8,e9").contains("[L1]"));
}

const EX5: &str = "W E c3:c4,c5 L1; B E c7:c8,c9 L1; W E f5:g5,h5 L1";

#[test]
fn example_5_bridge() {
    let p = std_pos(EX5, Player::P1);
    assert_eq!(p.action_counts(), (4278, 354));
    assert!(legal(&p, "f5-c5:c6,c7"));
    assert!(err(&p, "f5-c5:d6,e7").contains("unequal"));
    assert!(err(&p, "f5-c5:c4,c6").contains("not a shape"));
    assert!(legal(&p, "f5-c5:c3,c4"));
    let mut q = p.clone();
    play(&mut q, "f5-c5:c3,c4");
    assert_eq!(q.height(pt("c4")), 2);
}

#[test]
fn example_6_blocked_and_under_bridge() {
    let mut p = std_pos(EX5, Player::P1);
    play(&mut p, "f5-c5:c6,c7");
    let bridge = p.pieces().into_iter().find(|x| x.punct == pt("c5") && x.level == 2).unwrap();
    assert!(!bridge.covered);
    assert_eq!(p.pieces().iter().filter(|x| x.covered).count(), 2);
    assert_eq!(p.height(pt("c6")), 2);
    assert_eq!(p.action_counts(), (4443, 0));
    assert!(err(&p, "Tc6:c7,d7").contains("not empty"));
    assert!(err(&p, "Tc6:b5,b6").contains("bridge"));
    assert!(err(&p, "c7-c7:d8,d9").contains("covered"));
}

const EX7: &str = "W E e4:e5,e6 L1; W E d3:d4,d5 L1; B E f6:f7,f8 L1; W T e4:d3,d4 L2; \
                   W T e6:f6,f7 L2; W C j5:j4,j6 L1";

#[test]
fn example_7_middle_dot_bridge() {
    let mut p = std_pos(EX7, Player::P1);
    assert_eq!(p.action_counts(), (4290, 418));
    play(&mut p, "j5-e5:e4,e6");
    let c = p.pieces().into_iter().find(|x| x.kind == Kind::C).unwrap();
    assert_eq!((c.punct, c.level), (pt("e5"), 3));
    let q = std_pos("W E c3:c4,c5 L1; B E c7:c8,c9 L1; W C f6:f5,f7 L1", Player::P1);
    assert!(err(&q, "f6-c6:c5,c7").contains("hang"));
}

const EX8: &str = "W E a8:b8,c8; W E d8:e8,f8; W E g8:h8,i8; W E j8:k8,l8; W C n8:m8,o8; \
                   W L p8:p9,q10; B E c9:d9,e9; B T e9:d8,e8 L2";

#[test]
fn example_8_uncovering_the_opponent() {
    let p = std_pos(EX8, Player::P2);
    assert!(!p.is_connected(Player::P1));
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    let shifts: Vec<Move> =
        moves.iter().copied().filter(|m| matches!(m, Move::Shift { .. })).collect();
    assert_eq!(shifts.len(), 144);
    assert_eq!(moves.len() - shifts.len(), 4137);
    let mut safe = Vec::new();
    for &m in &shifts {
        let mut q = p.clone();
        q.play(m);
        match q.outcome() {
            Some(Outcome::Win(Player::P1)) => {}
            None => safe.push(q.format_move(m)),
            other => panic!("{other:?}"),
        }
    }
    safe.sort();
    let mut want = vec![
        "e9-e9:d8,d9",
        "e9-d9:c8,c9",
        "e9-d9:c8,d8",
        "e9-d9:d8,e9",
        "e9-c9:b8,c8",
        "e9-c9:c8,d9",
    ];
    want.sort();
    assert_eq!(safe, want);
    let mut q = p.clone();
    play(&mut q, "e9-e11:e12,f12");
    assert_eq!(q.outcome(), Some(Outcome::Win(Player::P1)));
    assert_eq!(q.visible(pt("d8")), Some(Player::P1));
}

/// Example 9's centre plus filler pieces outside it so that each side has placed 17 and
/// Black keeps one triangle.
fn example_9(variant: Variant) -> Position {
    let centre = "W E g7:g8,g9 L1; W T i7:i8,j8 L1; W C j10:j9,j11 L1; B T h9:h10,i10 L1; \
                  B E k9:k10,k11 L1; B T h9:g8,g9 L2";
    let mut setup = Setup::parse(centre, Player::P2).unwrap();
    // White still needs 14 more (keeping one piece back), Black 14 more (keeping one T).
    // White's fillers go into columns l–q and Black's into a–g: neither region touches two
    // opposite sides, so nobody can be connected.
    let white: [(Kind, usize); 6] =
        [(Kind::T, 5), (Kind::C, 1), (Kind::E, 3), (Kind::L, 2), (Kind::M, 2), (Kind::R, 1)];
    let black: [(Kind, usize); 6] =
        [(Kind::T, 3), (Kind::C, 2), (Kind::E, 3), (Kind::L, 2), (Kind::M, 2), (Kind::R, 2)];
    let reserved = ["b3", "b4", "c4"].map(pt);
    let mut used: Vec<Point> = reserved.to_vec();
    let mut fill = |owner: Player, kinds: &[(Kind, usize)], setup: &mut Setup, cols: &[u8]| {
        for &(kind, count) in kinds {
            for _ in 0..count {
                let mut done = false;
                'search: for p in Point::all().filter(|p| cols.contains(&p.column())) {
                    for o in kind.orients() {
                        let o = ply_punct::Orient::new(kind, o - kind.orients().start).unwrap();
                        let Some(pts) = ply_punct::shape_points(p, o) else { continue };
                        if pts.iter().any(|x| used.contains(x) || x.is_central()) {
                            continue;
                        }
                        used.extend(pts);
                        setup.pieces.push(ply_punct::SetupPiece {
                            owner,
                            kind,
                            punct: pts[0],
                            plain: [pts[1], pts[2]],
                            level: 1,
                        });
                        done = true;
                        break 'search;
                    }
                }
                assert!(done, "no room for filler");
            }
        }
    };
    fill(Player::P1, &white, &mut setup, &[12, 13, 14, 15, 16, 17]);
    fill(Player::P2, &black, &mut setup, &[1, 2, 3, 4, 5, 6, 7]);
    Position::from_setup(&setup, variant).expect("example 9 setup")
}

#[test]
fn example_9_standard_centre_count() {
    let mut p = example_9(Variant::Standard);
    for kind in Kind::ALL {
        let want = if kind == Kind::T { 1 } else { 0 };
        assert_eq!(p.supply(Player::P2, kind), want);
    }
    play(&mut p, "Tb3:b4,c4");
    assert_eq!(p.outcome(), Some(Outcome::Win(Player::P2)));
    let count = |who| Point::all().filter(|x| x.is_central() && p.visible(*x) == Some(who)).count();
    assert_eq!((count(Player::P1), count(Player::P2)), (7, 8));
}

#[test]
fn example_10_basic_exhaustion_is_a_draw() {
    let mut p = example_9(Variant::Basic);
    play(&mut p, "Tb3:b4,c4");
    assert_eq!(p.outcome(), Some(Outcome::Draw));
}

#[test]
fn example_11_notation() {
    let mut p = Position::new("basic").unwrap();
    play(&mut p, "Ea2:a3,a4");
    let m = p.parse_move("Ci9:j9,h9").unwrap();
    assert_eq!(p.format_move(m), "Ci9:h9,j9");
    let m = p.parse_move("Eg8:g10,g9").unwrap();
    assert_eq!(p.format_move(m), "Eg8:g9,g10");
    let q = std_pos(EX2, Player::P1);
    let e = q.parse_move("i3-i13").unwrap_err();
    assert!(matches!(e, ply_core::MoveError::Ambiguous(_)));
    for want in
        ["i3-i13:g11,h12", "i3-i13:g13,h13", "i3-i13:i14,i15", "i3-i13:j13,k13", "i3-i13:j14,k15"]
    {
        assert!(e.to_string().contains(want), "{want} in {e}");
    }
    assert!(e.to_string().contains("5 legal"));
    assert!(q.parse_move("i3-i13:i11,i12").is_err());
    let s = Position::new("standard").unwrap();
    for bad in [
        "TG3:g4,h4",
        "Tg03:g4,h4",
        "Tg 3:g4,h4",
        "Tg3:g4,h4 ",
        "ta2:a3,b3",
        "Ta1:a2,b2",
        "Tq20:q16,p16",
    ] {
        assert!(s.parse_move(bad).is_err(), "{bad}");
    }
    assert!(s.parse_move("Tg3:g4,h4").is_ok());
    assert!(s.parse_move("Tg3:h4,g4").is_ok());
}

#[test]
fn pass_only_when_nothing_else() {
    let p = Position::new("standard").unwrap();
    assert!(p.parse_move("pass").is_err());
}

/// Stacks and bridges are legible in the SVG: levels are written, spanning dots are marked,
/// higher pieces are drawn later, and every point, piece and hand item has its id.
#[test]
fn svg_shows_levels_and_bridges() {
    use ply_core::View;
    let mut p = std_pos(EX7, Player::P1);
    play(&mut p, "j5-e5:e4,e6");
    let svg = p.svg();
    if let Ok(path) = std::env::var("PUNCT_SVG_OUT") {
        std::fs::write(path, &svg).unwrap();
    }
    for id in [
        "g3",
        "q16",
        "a2",
        "p1-hand-T",
        "p2-hand-R",
        "pass",
        "piece-e5-3",
        "piece-e4-2",
        "piece-e4-1",
    ] {
        assert!(svg.contains(&format!("id=\"{id}\"")), "{id}");
    }
    assert!(svg.find("piece-e4-1").unwrap() < svg.find("piece-e4-2").unwrap());
    assert!(svg.find("piece-e4-2").unwrap() < svg.find("piece-e5-3").unwrap());
    assert!(svg.contains(r#"<text class="level""#));
    assert!(svg.contains("dot span"), "the C's middle dot spans the lower e5");
    assert_eq!(svg.matches("class=\"target point").count(), 211);
}

#[test]
fn placement_completing_a_chain_wins() {
    // Example 8's White chain without the C and without Black's cover.
    let mut p = std_pos(
        "W E a8:b8,c8; W E d8:e8,f8; W E g8:h8,i8; W E j8:k8,l8; W L p8:p9,q10; B E c10:d10,e10",
        Player::P1,
    );
    assert!(!p.is_connected(Player::P1));
    let mut q = p.clone();
    play(&mut q, "Cn8:m8,o8");
    assert!(q.is_connected(Player::P1));
    assert_eq!(q.outcome(), Some(Outcome::Win(Player::P1)));
    let mut none = Vec::new();
    q.legal_moves(&mut none);
    assert!(none.is_empty());
    // A placement elsewhere leaves the game running.
    play(&mut p, "Ca3:a2,a4");
    assert_eq!(p.outcome(), None);
}
