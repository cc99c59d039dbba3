#![allow(dead_code)]
use ply_core::{Game, Player};
use ply_zertz::{Position, Setup, Variant};

pub fn setup(
    variant: Variant,
    marbles: &str,
    removed: &str,
    pool: [u8; 3],
    captures: [[u8; 3]; 2],
    to_move: Player,
) -> Position {
    let s = Setup { marbles: marbles.into(), removed: removed.into(), pool, captures, to_move };
    Position::from_setup(&s, variant).expect("valid setup")
}

pub fn moves(pos: &Position) -> Vec<String> {
    let mut out = Vec::new();
    pos.legal_moves(&mut out);
    let mut v: Vec<String> = out.into_iter().map(|m| pos.format_move(m)).collect();
    v.sort();
    v
}

pub fn play(pos: &mut Position, text: &str) {
    let mv = pos.parse_move(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    pos.play(mv);
}

/// Marbles as sorted "Wd4" tokens.
pub fn marbles(pos: &Position) -> String {
    let l = pos.layout();
    let s = pos.state();
    let mut v = Vec::new();
    for i in 0..l.n as u8 {
        if let Some(c) = s.colour_at(i) {
            v.push(format!("{}{}", c.letter(), l.name(i)));
        }
    }
    v.join(" ")
}

/// Removed rings, sorted by index (column then row).
pub fn removed(pos: &Position) -> String {
    let l = pos.layout();
    let s = pos.state();
    (0..l.n as u8)
        .filter(|&i| s.rings & (1u64 << i) == 0)
        .map(|i| l.name(i))
        .collect::<Vec<_>>()
        .join(" ")
}
