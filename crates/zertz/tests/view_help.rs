//! The board help of the browser: click steps, previews of the turn being built, end
//! reasons, the texts in three languages, coordinates and labels in the picture.

use crate::common;
use crate::view_kit;

use ply_core::{Game, View};
use ply_zertz::{Move, Position};

/// The random games the tests walk.
const WALK: view_kit::Walk = view_kit::Walk {
    seeds: 3,
    seed_mul: 11,
    seed_add: 5,
    turns: 400,
    picture_every: 1,
    preview_every: 4,
    preview_bytes: 3072,
};

#[test]
fn steps_texts_previews_and_pictures_of_random_games() {
    view_kit::check_random_games::<Position>(&WALK);
}

#[test]
fn placements_and_captures_are_told_and_previewed() {
    let start = Position::new("37").unwrap();
    let mv = start.parse_move("Wd4,a1").unwrap();
    assert_eq!(
        start.click_steps(mv),
        ["step-choose-colour", "step-place-marble", "step-remove-ring"]
    );
    let (prefix, moves) = view_kit::matching(&start, &["pool-W"]);
    assert_eq!(start.preview(&prefix, &moves), "");
    let (prefix, moves) = view_kit::matching(&start, &["pool-W", "d4"]);
    let svg = start.preview(&prefix, &moves);
    view_kit::check_xml(&svg);
    assert!(svg.contains("class=\"ghost W\""), "{svg}");
    // The free rings of the start are the edge rings (18 of them): one is taken by nothing.
    assert_eq!(svg.matches("class=\"removable\"").count(), 18, "{svg}");
    // A capture: White on d4 and e4 next to each other, the jump from d4 over e4.
    let mut pos = start.clone();
    for m in ["Wd4,a1", "Be4,a2"] {
        common::play(&mut pos, m);
    }
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let capture = moves.iter().copied().find(|m| matches!(m, Move::Capture { .. })).unwrap();
    let path = pos.click_path(capture);
    let steps = pos.click_steps(capture);
    assert_eq!(steps[0], "step-choose-jumper");
    assert!(steps[1..].iter().all(|s| *s == "step-jump"));
    let (prefix, moves) = view_kit::matching(&pos, &[path[0].as_str()]);
    assert!(pos.preview(&prefix, &moves).contains("class=\"chosen\""));
    if path.len() > 2 {
        let (prefix, moves) = view_kit::matching(&pos, &[path[0].as_str(), path[1].as_str()]);
        let svg = pos.preview(&prefix, &moves);
        assert!(svg.contains("class=\"capture\"") && svg.contains("class=\"ghost "), "{svg}");
    }
}

#[test]
fn rings_and_marbles_are_pieces_and_racks_are_not() {
    let mut pos = Position::new("37").unwrap();
    common::play(&mut pos, "Wd4,a1");
    let svg = pos.svg();
    for id in ["d4", "marble-d4", "g1"] {
        assert!(view_kit::is_piece(&svg, id), "{id}");
    }
    for id in ["pool-W", "p1-cap-B"] {
        assert!(!view_kit::is_piece(&svg, id), "{id}");
    }
    // Player 2 is to move.
    assert_eq!(
        view_kit::label_ids(&svg),
        ["label-pool", "label-captures", "label-captures", "label-to-move"]
    );
}

#[test]
fn finished_games_say_why() {
    let reasons = view_kit::end_reasons::<Position>(&WALK, |last| {
        assert!(!last.svg().contains("label-to-move"));
    });
    assert!(!reasons.is_empty());
}
