//! The text diagram, the SVG picture, the JSON view and the `AnyGame` layer.

use crate::common;

use ply_core::{AnyGame, DynGame, Game, Motion, View};
use ply_gipf::{Point, Position};

#[test]
fn svg_has_every_point_piece_and_button() {
    let p = Position::new("standard").unwrap();
    let svg = p.svg();
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert!(svg.ends_with("</svg>"));
    for pt in Point::all() {
        assert!(svg.contains(&format!("<circle id=\"{pt}\" class=\"target ")), "{pt}");
    }
    for pt in ["b5", "e2", "h5", "b2", "e8", "h2"] {
        assert!(svg.contains(&format!("id=\"piece-{pt}\"")), "{pt}");
    }
    assert_eq!(svg.matches("id=\"piece-").count(), 6);
    for id in ["done", "end", "info-white", "info-black", "reserve-white", "captured-black"] {
        assert!(svg.contains(&format!("id=\"{id}\"")), "{id}");
    }
    assert!(!svg.contains("pool-gipf"));
    let t = Position::new("tournament").unwrap();
    assert!(t.svg().contains("id=\"pool-gipf\""));
    assert!(t.svg().contains("id=\"pool-single\""));
}

#[test]
fn diagram_and_json() {
    let p = common::gt2();
    let d = p.diagram();
    assert!(d.contains("White (P1): reserve 0, captured 0"));
    assert!(d.contains("Black (P2): reserve 0, captured 0"));
    assert_eq!(d.lines().count(), 17 + 3);
    let j = p.state_json();
    assert_eq!(j["board"]["c5"], "WW");
    assert_eq!(j["board"]["b3"], "B");
    assert_eq!(j["reserve"]["P1"], 0);
    assert_eq!(j["chips_on_board"]["P1"], 18);
}

/// Position G6 of the reference: White pushes into a row of four with GIPF pieces.
fn g6() -> Position {
    common::pos(
        ply_gipf::Variant::Standard,
        "b5(G) e2 e3(G) e4",
        "b2(G) e6(G) h2",
        [12, 12],
        [1, 0],
    )
}

#[test]
fn click_paths_of_the_examples() {
    let start = Position::new("basic").unwrap();
    let mv = start.parse_move("a1-b2").unwrap();
    assert_eq!(start.click_path(mv), ["a1", "b2"]);
    let g6 = g6();
    let mv = g6.parse_move("e1-e2,xe2-e6+e4").unwrap();
    assert_eq!(g6.click_path(mv), ["e1", "e2", "e2", "e6", "e4", "done"]);
    let mv = g6.parse_move("e1-e2,xe2-e6").unwrap();
    assert_eq!(g6.click_path(mv), ["e1", "e2", "e2", "e6", "done"]);
    let t = Position::new("tournament").unwrap();
    let mv = t.parse_move("Ga1-b2").unwrap();
    assert_eq!(t.click_path(mv), ["pool-gipf", "a1", "b2"]);
    let g11 = common::after(
        &common::pos(
            ply_gipf::Variant::Basic,
            "b5 f2 g2 h2",
            "c2 c3 c4 e2 e3 e4 e6",
            [11, 8],
            [0, 0],
        ),
        "e1-e2,xe2-h2",
    );
    let mv = g11.parse_move("c1-c2").unwrap();
    assert_eq!(g11.click_path(mv), ["e3", "e6", "c1", "c2", "c2", "c5"]);
}

#[test]
fn pushed_pieces_travel_one_point_and_the_new_one_enters_from_its_dot() {
    // G6's push e1-e2 shifts e2, e3, e4 one point north; the row e2…e6 is then taken with
    // the GIPF piece (now on e4) kept: it is the only piece left of the push, from e3.
    let g6 = g6();
    let push = g6.parse_move("e1-e2,xe2-e6+e4").unwrap();
    assert_eq!(g6.motions(push), [Motion::new("piece-e4", "piece-e3")]);
    let start = Position::new("basic").unwrap();
    let mv = start.parse_move("a1-b2").unwrap();
    assert_eq!(
        start.motions(mv),
        [Motion::new("piece-b2", "a1"), Motion::new("piece-c3", "piece-b2")]
    );
    let mv = start.parse_move("a5-b5").unwrap();
    assert_eq!(
        start.motions(mv),
        [Motion::new("piece-b5", "a5"), Motion::new("piece-c5", "piece-b5")]
    );
    let mv = start.parse_move("e9-e8").unwrap();
    assert_eq!(
        start.motions(mv),
        [Motion::new("piece-e7", "piece-e8"), Motion::new("piece-e8", "e9")]
    );
}

#[test]
fn any_game_layer() {
    let mut g = DynGame::new(Position::new("standard").unwrap());
    assert_eq!(g.name(), "gipf");
    assert_eq!(g.display_name(), "GIPF");
    assert_eq!(Position::variants(), ["standard", "basic", "tournament"]);
    assert_eq!(g.legal_moves().len(), 42);
    assert_eq!(g.play("a1-b2").unwrap(), "a1-b2");
    assert_eq!(g.click_paths().len(), 42);
    assert_eq!(g.state_json()["game"], "gipf");
    assert!(g.undo());
    assert_eq!(g.perft(2), 1_764);
    assert!(Position::new("advanced").is_err());
}
