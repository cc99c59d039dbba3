//! The board help of the browser: click steps, previews of the turn being built, end
//! reasons, the texts in three languages, coordinates and labels in the picture.

use crate::view_kit;

use std::collections::BTreeSet;

use ply_core::{Game, View};
use ply_punct::{Move, Position};

/// The random games the tests walk.
const WALK: view_kit::Walk = view_kit::Walk {
    seeds: 3,
    seed_mul: 17,
    seed_add: 2,
    turns: 150,
    picture_every: 2,
    preview_every: 10,
    preview_bytes: 3072,
};

#[test]
fn steps_texts_previews_and_pictures_of_random_games() {
    view_kit::check_random_games::<Position>(&WALK);
}

#[test]
fn placements_and_shifts_are_told_and_previewed() {
    let start = Position::new("standard").unwrap();
    let mut moves = Vec::new();
    start.legal_moves(&mut moves);
    let mv = moves[0];
    let path = start.click_path(mv);
    assert_eq!(
        start.click_steps(mv),
        ["step-choose-piece", "step-choose-point", "step-choose-orientation", "step-finish-piece"]
    );
    let (prefix, some) = view_kit::matching(&start, &[path[0].as_str()]);
    assert!(start.preview(&prefix, &some).contains("class=\"chosen\""));
    // Kind and point chosen: the open orientations, faint.
    let (prefix, some) = view_kit::matching(&start, &[path[0].as_str(), path[1].as_str()]);
    let svg = start.preview(&prefix, &some);
    view_kit::check_xml(&svg);
    assert!(svg.contains("class=\"ghost p1\""), "{svg}");
    assert!(svg.contains("punct-mark"));
    // One orientation left: the piece drawn in it.
    let (prefix, some) =
        view_kit::matching(&start, &path[..3].iter().map(String::as_str).collect::<Vec<_>>());
    if some.len() == 1 {
        assert!(start.preview(&prefix, &some).contains("<g class=\"ghost p1\""));
    }
    // A shift: the piece that moves is marked.
    let mut pos = start.clone();
    pos.play(mv);
    let reply = {
        let mut m = Vec::new();
        pos.legal_moves(&mut m);
        m[0]
    };
    pos.play(reply);
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let shift = moves.iter().copied().find(|m| matches!(m, Move::Shift { .. })).unwrap();
    let path = pos.click_path(shift);
    assert_eq!(pos.click_steps(shift)[..2], ["step-place-or-move", "step-choose-destination"]);
    let (prefix, some) = view_kit::matching(&pos, &[path[0].as_str()]);
    assert!(pos.preview(&prefix, &some).contains("class=\"chosen\""));
}

#[test]
fn labels_pieces_and_finished_games() {
    let svg = Position::new("basic").unwrap().svg();
    assert_eq!(view_kit::label_ids(&svg), ["label-black", "label-white-to-move", "label-pass"]);
    let mut reasons = BTreeSet::new();
    for game in view_kit::random_games::<Position>(&WALK) {
        let last = game.last().unwrap();
        for pos in &game[1..] {
            let svg = pos.svg();
            let on_board = svg.matches("class=\"piece ").count();
            assert_eq!(on_board, pos.pieces().len());
            assert!(!svg.contains("class=\"target hand piece"));
        }
        if last.outcome().is_some() {
            assert!(!last.svg().contains("to-move"));
            reasons.insert(last.end_reason().unwrap());
        }
    }
    for r in &reasons {
        assert!(r.starts_with("end-"));
    }
}
