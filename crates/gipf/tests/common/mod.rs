//! Shared helpers of the integration tests.
#![allow(dead_code)]

use std::collections::HashSet;

use ply_core::{Game, Player, View};
use ply_gipf::{EntryPhase, Point, Position, Setup, Variant};

/// A position from the worked-example style: point lists, reserves, captures, White to move.
pub fn pos(variant: Variant, white: &str, black: &str, reserve: [u8; 2], cap: [u8; 2]) -> Position {
    let mut s = Setup::from_lists(variant, white, black).unwrap();
    s.reserve = reserve;
    s.captured = cap;
    Position::from_setup(&s).unwrap()
}

/// GT1 (`basic`) of gipf.md section 8.
pub fn gt1() -> Position {
    pos(
        Variant::Basic,
        "b2 b4 c2 c5 c6 d2 d5 e3 e5 f3 f4 f7 g2 g6 h5",
        "b5 c3 c4 d7 e7 e8 g3 g4 g5 h3 h4",
        [0, 4],
        [0, 0],
    )
}

/// GT2 (`standard`).
pub fn gt2() -> Position {
    pos(
        Variant::Standard,
        "b2 b5 c3 c5(G) d6 e2 e3(G) e7 f5 f6(G) f7 g5 h3 h4 h5",
        "b3 b4 c2 c4(G) c6 d2 d3 d4 d7 e6(G) e8 g2(G) g3 g6 h2",
        [0, 0],
        [0, 0],
    )
}

/// GT3 (`tournament`), both players in the singles phase.
pub fn gt3() -> Position {
    let mut s = Setup::from_lists(
        Variant::Tournament,
        "d3 d5(G) d6 d7 e2 e3(G) e4(G) f4(G) f7 g3",
        "b4 b5 c2 c6 d2 d4 e8(G) g2 g6 h2",
    )
    .unwrap();
    s.reserve = [4, 7];
    s.entry = [EntryPhase::Singles; 2];
    Position::from_setup(&s).unwrap()
}

/// The pieces of one player, ascending, GIPF pieces marked `(G)`.
pub fn pieces(p: &Position, player: Player) -> String {
    Point::all()
        .filter_map(|pt| {
            let piece = p.piece_at(pt)?;
            (piece.player == player)
                .then(|| if piece.gipf { format!("{pt}(G)") } else { pt.to_string() })
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// `"W <white> / B <black>"`.
pub fn board(p: &Position) -> String {
    format!("W {} / B {}", pieces(p, Player::P1), pieces(p, Player::P2))
}

/// Plays `text` (abbreviations allowed) and returns the canonical form.
pub fn play(p: &mut Position, text: &str) -> String {
    let mv = p.parse_move(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    let canonical = p.format_move(mv);
    p.play(mv);
    canonical
}

/// The position after `text`, from a copy.
pub fn after(p: &Position, text: &str) -> Position {
    let mut q = p.clone();
    play(&mut q, text);
    q
}

/// The legal turns in canonical notation, sorted.
pub fn legal(p: &Position) -> Vec<String> {
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    let mut out: Vec<String> = moves.iter().map(|&m| p.format_move(m)).collect();
    out.sort();
    out
}

/// Chip conservation: reserve + chips on the board + chips the opponent captured.
pub fn chips_conserved(p: &Position) {
    let total = if p.variant_kind() == Variant::Basic { 15 } else { 18 };
    for player in Player::BOTH {
        let sum = u32::from(p.reserve(player))
            + u32::from(p.chips_on_board(player))
            + u32::from(p.captured(player.other()));
        assert_eq!(sum, total, "chips of {player} in {}", board(p));
    }
}

/// Click paths of every legal turn: distinct, none a prefix of another, every id in the SVG.
pub fn check_click_paths(p: &Position) {
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    let svg = p.svg();
    let paths: Vec<Vec<String>> = moves.iter().map(|&m| p.click_path(m)).collect();
    let mut seen = HashSet::new();
    for (path, &m) in paths.iter().zip(&moves) {
        assert!(!path.is_empty());
        assert!(seen.insert(path.clone()), "two turns share the path {path:?}");
        for id in path {
            assert!(svg.contains(&format!("id=\"{id}\"")), "{id} is not in the SVG");
        }
        for other in &paths {
            if other.len() > path.len() {
                assert_ne!(
                    &other[..path.len()],
                    &path[..],
                    "path of {} is a prefix of another",
                    p.format_move(m)
                );
            }
        }
    }
}
