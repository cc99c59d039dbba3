//! The board help of the browser: click steps, previews of the turn being built, end
//! reasons, the texts in three languages, coordinates and labels in the picture.

use crate::view_kit;

use ply_boop::Boop;
use ply_core::{Game, View};

/// The random games the tests walk.
const WALK: view_kit::Walk = view_kit::Walk {
    seeds: 4,
    seed_mul: 13,
    seed_add: 3,
    turns: 400,
    picture_every: 1,
    preview_every: 3,
    preview_bytes: 3072,
};

#[test]
fn steps_texts_previews_and_pictures_of_random_games() {
    view_kit::check_random_games::<Boop>(&WALK);
}

fn after(variant: &str, moves: &str) -> Boop {
    let mut pos = Boop::new(variant).unwrap();
    for m in moves.split_whitespace() {
        let mv = pos.parse_move(m).unwrap();
        pos.play(mv);
    }
    pos
}

#[test]
fn placements_are_told_and_previewed_with_their_boops() {
    let start = Boop::new("boop").unwrap();
    let mv = start.parse_move("Kc3").unwrap();
    assert_eq!(start.click_steps(mv), ["step-choose-piece", "step-place-piece"]);
    let (prefix, moves) = view_kit::matching(&start, &["pool-p1-kitten"]);
    let svg = start.preview(&prefix, &moves);
    assert!(svg.contains("class=\"chosen\""), "{svg}");
    // d4 boops c3 away to b2.
    let pos = after("boop", "Kc3");
    let (prefix, moves) = view_kit::matching(&pos, &["pool-p2-kitten", "d4"]);
    assert_eq!(moves.len(), 1);
    let (prefix, _) = (prefix[..1].to_vec(), ());
    let svg = pos.preview(&prefix, &moves);
    assert!(svg.contains("class=\"chosen\""), "{svg}");
    let full = pos.preview(&["pool-p2-kitten".to_string(), "d4".to_string()], &moves);
    // A complete path gets no preview from the client, but the picture is still sound.
    view_kit::check_xml(&full);
    assert!(full.contains("class=\"ghost p2 kitten\""), "{full}");
    assert!(full.contains("class=\"boop\""), "{full}");
    // Ghost placement in boooop: ghost, edge, kitten, cell.
    let b = Boop::new("boooop").unwrap();
    let mut moves = Vec::new();
    b.legal_moves(&mut moves);
    let ghostly = moves.iter().copied().find(|m| m.ghost.is_some()).unwrap();
    let path = b.click_path(ghostly);
    assert_eq!(
        b.click_steps(ghostly),
        ["step-piece-or-ghost", "step-choose-edge", "step-choose-piece", "step-place-piece"]
    );
    let (prefix, moves) = view_kit::matching(&b, &[path[0].as_str(), path[1].as_str()]);
    assert!(b.preview(&prefix, &moves).contains("class=\"ghost\""));
}

#[test]
fn pieces_on_the_bed_only_are_pieces() {
    let pos = after("boooop", "Kc3");
    let svg = pos.svg();
    assert!(view_kit::is_piece(&svg, "p1-k0"), "on the bed");
    assert!(!view_kit::is_piece(&svg, "p1-k1"), "in the pool");
    assert!(!view_kit::is_piece(&svg, "p1-ghost"), "the ghost");
    let labels = view_kit::labels(&svg);
    let texts: Vec<&str> = labels.iter().map(|l| l.text.as_str()).collect();
    assert!(texts.contains(&"7 kittens") && texts.contains(&"Player 2 to move"), "{texts:?}");
}

#[test]
fn finished_games_say_why() {
    let reasons = view_kit::end_reasons::<Boop>(&WALK, |last| {
        assert!(!last.svg().contains("to move"));
    });
    assert!(reasons.contains("end-three-cats"), "{reasons:?}");
}
