//! The board help of the browser: click steps, previews of the turn being built, end
//! reasons, the texts in three languages, coordinates and labels in the picture.

#[path = "../../gipf/tests/view_kit/mod.rs"]
mod view_kit;

use std::collections::BTreeSet;

use ply_core::testkit::random_game;
use ply_core::{Game, View};
use ply_punct::{Move, Position};

fn games() -> Vec<Vec<Position>> {
    let mut out = Vec::new();
    for variant in Position::variants() {
        for seed in 0..3u64 {
            let start = Position::new(variant).unwrap();
            out.push(random_game(&start, seed * 17 + 2, 150, |_| {}).positions);
        }
    }
    out
}

#[test]
fn steps_texts_previews_and_pictures_of_random_games() {
    let mut labels = Vec::new();
    let mut ids: BTreeSet<&str> = BTreeSet::new();
    let mut shown = 0;
    for game in games() {
        for (turn, pos) in game.iter().enumerate() {
            if turn % 2 == 0 || pos.outcome().is_some() {
                labels.extend(view_kit::check_picture(pos));
                ids.extend(view_kit::check_steps(pos));
            }
            if let Some(reason) = pos.end_reason() {
                ids.insert(reason);
            }
            if turn % 10 == 0 {
                shown += view_kit::check_previews(pos, 3072).len();
            }
        }
    }
    assert!(shown > 0);
    labels.sort();
    labels.dedup();
    let ids: Vec<&str> = ids.into_iter().collect();
    view_kit::check_texts::<Position>(&labels, &ids);
}

fn matching(pos: &Position, prefix: &[&str]) -> (Vec<String>, Vec<Move>) {
    let prefix: Vec<String> = prefix.iter().map(|s| s.to_string()).collect();
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    moves.retain(|&m| pos.click_path(m).starts_with(&prefix));
    assert!(!moves.is_empty(), "{prefix:?}");
    (prefix, moves)
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
    let (prefix, some) = matching(&start, &[path[0].as_str()]);
    assert!(start.preview(&prefix, &some).contains("class=\"chosen\""));
    // Kind and point chosen: the open orientations, faint.
    let (prefix, some) = matching(&start, &[path[0].as_str(), path[1].as_str()]);
    let svg = start.preview(&prefix, &some);
    view_kit::check_xml(&svg);
    assert!(svg.contains("class=\"ghost p1\""), "{svg}");
    assert!(svg.contains("punct-mark"));
    // One orientation left: the piece drawn in it.
    let (prefix, some) =
        matching(&start, &path[..3].iter().map(String::as_str).collect::<Vec<_>>());
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
    let (prefix, some) = matching(&pos, &[path[0].as_str()]);
    assert!(pos.preview(&prefix, &some).contains("class=\"chosen\""));
}

#[test]
fn labels_pieces_and_finished_games() {
    let start = Position::new("basic").unwrap();
    let svg = start.svg();
    let labels = view_kit::labels(&svg);
    let ids: Vec<&str> = labels.iter().map(|l| l.id.as_str()).collect();
    assert_eq!(ids, ["label-black", "label-white-to-move", "label-pass"]);
    let mut reasons = BTreeSet::new();
    for game in games() {
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
