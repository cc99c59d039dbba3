//! The notation of the shared reference, section 5: `Wd4,a1`, `Wd4`, `d4xf4xf6`.

use ply_core::{Game, MoveError};

use crate::geometry::{Bits, Layout, NONE};
use crate::rules::Position;
use crate::types::{Colour, Move, POW6};

/// The canonical text of a move.
pub(crate) fn format(layout: &Layout, mv: Move) -> String {
    let mut s = String::with_capacity(8);
    match mv {
        Move::Place { colour, ring, remove } => {
            s.push(colour.letter());
            layout.write_name(ring, &mut s);
            if remove != NONE {
                s.push(',');
                layout.write_name(remove, &mut s);
            }
        }
        Move::Capture { start, len, dirs } => {
            layout.write_name(start, &mut s);
            let mut at = start;
            for k in 0..len {
                let d = Move::jump_direction(dirs, k);
                at = layout.nb[layout.nb[at as usize][d] as usize][d];
                s.push('x');
                layout.write_name(at, &mut s);
            }
        }
    }
    s
}

fn syntax(text: &str, why: &str) -> MoveError {
    MoveError::Syntax(format!("'{text}' is not a ZÈRTZ move: {why}"))
}

/// Reads a ring name and checks that the ring is on the board now.
fn ring(pos: &Position, name: &str, text: &str) -> Result<u8, MoveError> {
    let b = name.as_bytes();
    if b.len() != 2 {
        return Err(syntax(
            text,
            &format!("'{name}' is not a ring (a column letter a-i and a row digit)"),
        ));
    }
    if !b[0].is_ascii_lowercase() || !(b'a'..=b'i').contains(&b[0]) {
        return Err(syntax(text, &format!("'{name}': the column must be a lower-case letter a-i")));
    }
    if !(b'1'..=b'9').contains(&b[1]) {
        return Err(syntax(text, &format!("'{name}': the row must be a digit 1-9")));
    }
    let layout = pos.layout();
    let Some(i) = layout.parse_name(name) else {
        return Err(MoveError::Illegal(format!(
            "there is no ring {name} on the {} board",
            pos.variant_kind().board_rings()
        )));
    };
    if pos.state().rings & (1u64 << i) == 0 {
        return Err(MoveError::Illegal(format!("ring {name} has been removed")));
    }
    Ok(i)
}

fn names(layout: &Layout, set: u64) -> String {
    Bits(set).map(|i| layout.name(i)).collect::<Vec<_>>().join(" ")
}

pub(crate) fn parse(pos: &Position, text: &str) -> Result<Move, MoveError> {
    let t = text.trim();
    if let Some(outcome) = pos.outcome() {
        return Err(MoveError::GameOver(outcome.to_string()));
    }
    if t.is_empty() {
        return Err(syntax(text, "empty"));
    }
    let first = t.chars().next().unwrap_or(' ');
    if first.is_ascii_uppercase() {
        parse_placement(pos, t)
    } else if first.is_ascii_lowercase() && t.contains('x') {
        parse_capture(pos, t)
    } else if first.is_ascii_lowercase() {
        Err(syntax(
            t,
            "a placement starts with the colour W, G or B (upper case); a capture is rings joined by 'x'",
        ))
    } else {
        Err(syntax(t, "expected a placement like Wd4,a1 or a capture like d4xf4"))
    }
}

fn parse_placement(pos: &Position, t: &str) -> Result<Move, MoveError> {
    let mut chars = t.chars();
    let letter = chars.next().unwrap_or(' ');
    let Some(colour) = Colour::from_letter(letter) else {
        return Err(syntax(t, &format!("'{letter}' is not a colour (W, G or B)")));
    };
    let rest = chars.as_str();
    let (place, removal) = match rest.split_once(',') {
        Some((a, b)) => (a, Some(b)),
        None => (rest, None),
    };
    let layout = pos.layout();
    let state = pos.state();
    let ring_i = ring(pos, place, t)?;
    let remove_i = match removal {
        Some(r) => Some(ring(pos, r, t)?),
        None => None,
    };
    if pos.has_jump() {
        return Err(MoveError::Illegal(
            "a capture is possible, and capturing is compulsory: no placement now".into(),
        ));
    }
    if !pos.placeable()[colour.index()] {
        return Err(MoveError::Illegal(if pos.pool_empty() {
            format!(
                "the pool is empty and {} holds no captured {} marble to place",
                state.to_move,
                colour.word()
            )
        } else {
            format!("the pool has no {} marble left", colour.word())
        }));
    }
    if state.occupied() & (1u64 << ring_i) != 0 {
        return Err(MoveError::Illegal(format!("{place} is occupied")));
    }
    let free = pos.free_rings() & !(1u64 << ring_i);
    let remove = match remove_i {
        None if free != 0 => {
            return Err(MoveError::Illegal(format!(
                "a free ring must be removed after the placement ({})",
                names(layout, free)
            )));
        }
        None => NONE,
        Some(r) if free == 0 => {
            return Err(MoveError::Illegal(format!(
                "no ring is free after the placement, so {} cannot be removed; write {}{place}",
                layout.name(r),
                colour.letter()
            )));
        }
        Some(r) if free & (1u64 << r) == 0 => {
            let why = if r == ring_i {
                "it has just been filled".to_string()
            } else if state.occupied() & (1u64 << r) != 0 {
                "it holds a marble".to_string()
            } else {
                "it does not have two consecutive missing neighbours".to_string()
            };
            return Err(MoveError::Illegal(format!(
                "ring {} is not free after the placement: {why}",
                layout.name(r)
            )));
        }
        Some(r) => r,
    };
    Ok(Move::Place { colour, ring: ring_i, remove })
}

fn parse_capture(pos: &Position, t: &str) -> Result<Move, MoveError> {
    let layout = pos.layout();
    let state = pos.state();
    let parts: Vec<&str> = t.split('x').collect();
    let mut rings = Vec::with_capacity(parts.len());
    for p in &parts {
        rings.push(ring(pos, p, t)?);
    }
    let start = rings[0];
    let mut occ = state.occupied();
    if occ & (1u64 << start) == 0 {
        return Err(MoveError::Illegal(format!("there is no marble on {}", parts[0])));
    }
    if rings.len() - 1 > 23 {
        return Err(MoveError::Illegal("a chain has at most 23 jumps".into()));
    }
    let mut dirs = 0u64;
    let mut at = start;
    for (k, &to) in rings[1..].iter().enumerate() {
        let Some(d) = layout.two_step_direction(at, to) else {
            return Err(MoveError::Illegal(format!(
                "{} is not two steps in a straight line from {}",
                layout.name(to),
                layout.name(at)
            )));
        };
        let over = layout.nb[at as usize][d];
        if over == NONE || state.rings & (1u64 << over) == 0 || occ & (1u64 << over) == 0 {
            return Err(MoveError::Illegal(format!(
                "no marble between {} and {} to jump over",
                layout.name(at),
                layout.name(to)
            )));
        }
        if occ & (1u64 << to) != 0 {
            return Err(MoveError::Illegal(format!("{} is not vacant", layout.name(to))));
        }
        occ = (occ & !(1u64 << at) & !(1u64 << over)) | (1u64 << to);
        dirs += d as u64 * POW6[k];
        at = to;
    }
    let mv = Move::Capture { start, len: (rings.len() - 1) as u8, dirs };
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    if moves.contains(&mv) {
        Ok(mv)
    } else {
        Err(MoveError::Illegal(format!(
            "the chain may not stop at {}: the marble can jump again and must go on",
            layout.name(at)
        )))
    }
}
