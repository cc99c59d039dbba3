//! The board help of the browser: click steps, previews of the turn being built, end
//! reasons, the texts in three languages, coordinates and labels in the picture.

use crate::common;
use crate::view_kit;

use ply_core::{Game, View};
use ply_gipf::Position;

/// The random games the tests walk.
const WALK: view_kit::Walk = view_kit::Walk {
    seeds: 4,
    seed_mul: 7,
    seed_add: 1,
    turns: 300,
    picture_every: 1,
    preview_every: 3,
    preview_bytes: 4096,
};

#[test]
fn steps_texts_previews_and_pictures_of_random_games() {
    let ends = view_kit::check_random_games::<Position>(&WALK);
    assert!(ends > 0);
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
fn steps_say_what_each_click_does() {
    let start = Position::new("basic").unwrap();
    let mv = start.parse_move("a1-b2").unwrap();
    assert_eq!(start.click_steps(mv), ["step-choose-dot", "step-choose-push"]);
    let t = Position::new("tournament").unwrap();
    let mv = t.parse_move("Ga1-b2").unwrap();
    assert_eq!(t.click_steps(mv), ["step-choose-kind", "step-choose-dot", "step-choose-push"]);
    let g6 = g6();
    // The row e2-e6 holds two GIPF pieces after the push (e4 and Black's e6): each may be
    // kept, and once both are, only `done` is left.
    let mv = g6.parse_move("e1-e2,xe2-e6+e4+e6").unwrap();
    assert_eq!(
        g6.click_steps(mv),
        [
            "step-choose-dot",
            "step-choose-push",
            "step-choose-row",
            "step-choose-row-end",
            "step-keep-gipf",
            "step-keep-gipf",
            "step-done"
        ]
    );
    let mv = g6.parse_move("e1-e2,xe2-e6+e4").unwrap();
    assert_eq!(g6.click_steps(mv)[4..], ["step-keep-gipf", "step-keep-gipf"]);
}

#[test]
fn the_preview_shows_the_push_and_the_row_it_makes() {
    let g6 = g6();
    let (prefix, moves) = view_kit::matching(&g6, &["e1"]);
    let svg = g6.preview(&prefix, &moves);
    assert!(svg.contains("class=\"ghost white\""), "{svg}");
    let (prefix, moves) = view_kit::matching(&g6, &["e1", "e2"]);
    let svg = g6.preview(&prefix, &moves);
    view_kit::check_xml(&svg);
    // e2, e3, e4 move to e3, e4, e5 and a new piece enters on e2: four ghosts, one row.
    assert_eq!(svg.matches("class=\"ghost ").count(), 4, "{svg}");
    assert_eq!(svg.matches("<rect class=\"capture\"").count(), 1, "{svg}");
    assert!(svg.contains("class=\"push\""));
    let (prefix, moves) = view_kit::matching(&g6, &["e1", "e2", "e2", "e6", "e4"]);
    let svg = g6.preview(&prefix, &moves);
    assert!(svg.contains("class=\"keep\""), "{svg}");
    let start = Position::new("standard").unwrap();
    assert_eq!(start.preview(&[], &view_kit::matching(&start, &[]).1), "");
}

#[test]
fn pictures_name_their_pieces_and_labels() {
    let svg = Position::new("tournament").unwrap().svg();
    let labels = view_kit::labels(&svg);
    let ids = view_kit::label_ids(&svg);
    for id in [
        "label-white-info",
        "label-black-info",
        "label-to-move",
        "label-entry-start",
        "label-gipf-piece",
        "label-single",
        "label-done",
        "label-end-turn",
    ] {
        assert!(ids.iter().any(|i| i == id), "{id} in {ids:?}");
    }
    let info = labels.iter().find(|l| l.id == "label-white-info").unwrap();
    assert_eq!(info.text, "White: reserve 18 · captured 0");
    let g6 = g6();
    let svg = g6.svg();
    for pt in ["b5", "e2", "e3", "h2"] {
        assert!(view_kit::is_piece(&svg, &format!("piece-{pt}")), "{pt}");
    }
    for id in ["reserve-white", "captured-black", "done", "a1"] {
        assert!(!view_kit::is_piece(&svg, id), "{id}");
    }
}

#[test]
fn finished_games_say_why_and_nobody_is_to_move() {
    let reasons = view_kit::end_reasons::<Position>(&WALK, |last| {
        let svg = last.svg();
        assert!(!svg.contains("to move"));
        assert!(svg.contains("data-label=\"label-winner\""));
    });
    assert!(reasons.contains("end-no-reserve"), "{reasons:?}");
    for r in &reasons {
        assert!(["end-no-reserve", "end-no-gipf"].contains(r));
    }
}
