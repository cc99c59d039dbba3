//! The notation of boop.md §7: one token per turn, `Kd4`, `Kc3@a1b1`, `Kd3/b3c3d3`, `Kd6/ka1`.

use std::fmt::Write;

use ply_core::{Game, MoveError};

use crate::geometry::{Cell, Line, Segment};
use crate::rules::Boop;
use crate::types::{Graduation, Kind, Move, Variant};

/// The canonical token of a move (boop.md §7.2).
#[must_use]
pub fn format(mv: Move) -> String {
    let mut s = String::with_capacity(16);
    s.push(match mv.kind {
        Kind::Kitten => 'K',
        Kind::Cat => 'C',
    });
    let _ = write!(s, "{}", mv.cell);
    if let Some(seg) = mv.ghost {
        let _ = write!(s, "@{seg}");
    }
    match mv.graduation {
        None => {}
        Some(Graduation::Line(line)) => {
            let _ = write!(s, "/{line}");
        }
        Some(Graduation::Single(cell, kind)) => {
            let letter = if kind == Kind::Kitten { 'k' } else { 'c' };
            let _ = write!(s, "/{letter}{cell}");
        }
    }
    s
}

/// The graduation part as written, before it is checked against the position.
enum GraduationText {
    Line([Cell; 3], String),
    Single(Option<Kind>, Cell),
}

/// A token split into its parts, checked for syntax only.
struct Parts {
    kind: Option<Kind>,
    cell: Cell,
    ghost: Option<(Cell, Cell, String)>,
    graduation: Option<GraduationText>,
}

fn syntax(text: &str, why: &str) -> MoveError {
    MoveError::Syntax(format!("'{text}' is not a boop turn: {why}"))
}

fn cell_at(text: &str, bytes: &[u8], at: usize, what: &str) -> Result<Cell, MoveError> {
    let part =
        bytes.get(at..at + 2).ok_or_else(|| syntax(text, &format!("{what} is incomplete")))?;
    Cell::parse(part).ok_or_else(|| {
        let shown = String::from_utf8_lossy(part);
        syntax(
            text,
            &format!(
                "'{shown}' is not a cell ({what}); cells are a1 to f6, lower-case column first"
            ),
        )
    })
}

fn split(text: &str) -> Result<Parts, MoveError> {
    if text.is_empty() {
        return Err(syntax(text, "it is empty"));
    }
    if text.chars().any(char::is_whitespace) {
        return Err(syntax(text, "a turn is one token without spaces"));
    }
    if let Some(c) = text.chars().find(|c| !c.is_ascii_alphanumeric() && *c != '@' && *c != '/') {
        return Err(syntax(text, &format!("unexpected character '{c}'")));
    }
    let bytes = text.as_bytes();
    let mut at = 0;
    let kind = match bytes[0] {
        b'K' => Some(Kind::Kitten),
        b'C' => Some(Kind::Cat),
        b'a'..=b'f' => None,
        b'k' => {
            return Err(syntax(
                text,
                "the piece letter is upper case: K for a kitten, C for a cat",
            ));
        }
        _ => {
            return Err(syntax(
                text,
                "a turn starts with K (kitten) or C (cat) and the cell, like Kc3",
            ));
        }
    };
    if kind.is_some() {
        at = 1;
    }
    let cell = cell_at(text, bytes, at, "the placement cell")?;
    at += 2;
    let mut ghost = None;
    if bytes.get(at) == Some(&b'@') {
        let a = cell_at(text, bytes, at + 1, "the ghost's segment")?;
        let b = cell_at(text, bytes, at + 3, "the ghost's segment")?;
        ghost = Some((a, b, text[at + 1..at + 5].to_string()));
        at += 5;
    }
    let mut graduation = None;
    if bytes.get(at) == Some(&b'/') {
        let rest = &bytes[at + 1..];
        graduation = Some(match rest.len() {
            6 => {
                let cells = [
                    cell_at(text, bytes, at + 1, "the graduation line")?,
                    cell_at(text, bytes, at + 3, "the graduation line")?,
                    cell_at(text, bytes, at + 5, "the graduation line")?,
                ];
                GraduationText::Line(cells, text[at + 1..].to_string())
            }
            3 => {
                let kind = match rest[0] {
                    b'k' => Kind::Kitten,
                    b'c' => Kind::Cat,
                    _ => {
                        return Err(syntax(
                            text,
                            "a single-piece graduation is k or c and a cell, like /ka1",
                        ));
                    }
                };
                GraduationText::Single(Some(kind), cell_at(text, bytes, at + 2, "the graduation")?)
            }
            2 => GraduationText::Single(None, cell_at(text, bytes, at + 1, "the graduation")?),
            _ => {
                return Err(syntax(
                    text,
                    "a graduation is /, then three cells (a line) or one cell with an optional k/c",
                ));
            }
        });
        at = bytes.len();
    }
    if at != bytes.len() {
        let rest = &text[at..];
        return Err(syntax(text, &format!("unexpected '{rest}' after the placement")));
    }
    Ok(Parts { kind, cell, ghost, graduation })
}

fn kind_name(kind: Kind) -> &'static str {
    match kind {
        Kind::Kitten => "kitten",
        Kind::Cat => "cat",
    }
}

fn describe(g: Graduation) -> String {
    match g {
        Graduation::Line(l) => l.to_string(),
        Graduation::Single(c, k) => format!("{}{c}", if k == Kind::Kitten { 'k' } else { 'c' }),
    }
}

/// Reads a turn in `position`, with the abbreviations of boop.md §7.3.
///
/// # Errors
/// A [`MoveError`] saying what is wrong with the text or why the turn is not legal.
pub fn parse(position: &Boop, text: &str) -> Result<Move, MoveError> {
    let parts = split(text)?;
    if let Some(outcome) = position.outcome() {
        return Err(MoveError::GameOver(outcome.to_string()));
    }
    let me = position.to_move();
    let pool = position.pool(me);
    let kind = match parts.kind {
        Some(kind) => {
            if pool.count(kind) == 0 {
                return Err(MoveError::Illegal(format!(
                    "{me}'s pool holds no {}s (pool: {} kittens, {} cats)",
                    kind_name(kind),
                    pool.kittens,
                    pool.cats
                )));
            }
            kind
        }
        None if pool.kittens > 0 && pool.cats > 0 => {
            return Err(MoveError::Ambiguous(format!(
                "piece letter required: {me}'s pool holds kittens and cats (K{0} or C{0})",
                parts.cell
            )));
        }
        None if pool.kittens > 0 => Kind::Kitten,
        None => Kind::Cat,
    };
    if position.piece_at(parts.cell).is_some() {
        return Err(MoveError::Illegal(format!("{} is occupied", parts.cell)));
    }
    let ghost = match parts.ghost {
        None => None,
        Some((a, b, written)) => {
            if position.variant_kind() == Variant::Boop {
                return Err(MoveError::Illegal(
                    "there are no ghosts in the boop variant; '@' is for boooop".into(),
                ));
            }
            if let Some(g) = position.ghost(me) {
                return Err(MoveError::Illegal(format!(
                    "{me}'s ghost is on the bed at {}, not in the pool: it moves by itself and cannot be placed",
                    g.segment
                )));
            }
            let seg = Segment::between(a, b).ok_or_else(|| {
                MoveError::Illegal(format!(
                    "{written} is not a segment: its cells are not side by side"
                ))
            })?;
            if seg.entry_direction().is_none() {
                return Err(MoveError::Illegal(format!(
                    "{seg} is not an entry segment: a ghost enters at the edge of the bed"
                )));
            }
            if !position.free_entries().contains(&seg) {
                return Err(MoveError::Illegal(format!(
                    "{seg} is taken by {}'s ghost",
                    me.other()
                )));
            }
            Some(seg)
        }
    };
    let placement = format!("{}{}", if kind == Kind::Kitten { 'K' } else { 'C' }, parts.cell);
    let options = position.graduation_options(kind, parts.cell);
    let graduation = match (parts.graduation, options) {
        (None, None) => None,
        (Some(_), None) => {
            return Err(MoveError::Illegal(format!(
                "{placement} wins the game, so no graduation is written"
            )));
        }
        (None, Some(options)) => match options.len() {
            0 => None,
            1 => Some(options[0]),
            _ => {
                let list: Vec<String> = options.iter().map(|&g| describe(g)).collect();
                return Err(MoveError::Ambiguous(format!(
                    "graduation choice required after {placement}: {}",
                    list.join(", ")
                )));
            }
        },
        (Some(_), Some(options)) if options.is_empty() => {
            return Err(MoveError::Illegal(format!("no graduation is possible after {placement}")));
        }
        (Some(GraduationText::Line(cells, written)), Some(options)) => {
            let line = Line::from_cells(cells).ok_or_else(|| {
                MoveError::Illegal(format!("{written} is not a line of three cells"))
            })?;
            let g = Graduation::Line(line);
            if !options.contains(&g) {
                let list: Vec<String> = options.iter().map(|&g| describe(g)).collect();
                return Err(MoveError::Illegal(format!(
                    "{line} is not a graduation option after {placement} (options: {})",
                    list.join(", ")
                )));
            }
            Some(g)
        }
        (Some(GraduationText::Single(letter, cell)), Some(options)) => {
            let found =
                options.iter().find(|g| matches!(g, Graduation::Single(c, _) if *c == cell));
            match found {
                None if !options.iter().any(|g| matches!(g, Graduation::Single(..))) => {
                    return Err(MoveError::Illegal(format!(
                        "a single piece graduates only when all 8 of {me}'s pieces are on the bed"
                    )));
                }
                None => {
                    return Err(MoveError::Illegal(format!(
                        "{cell} does not hold one of {me}'s pieces after {placement}"
                    )));
                }
                Some(&Graduation::Single(c, k)) => {
                    if let Some(l) = letter
                        && l != k
                    {
                        return Err(MoveError::Illegal(format!(
                            "{c} holds a {}, not a {}",
                            kind_name(k),
                            kind_name(l)
                        )));
                    }
                    Some(Graduation::Single(c, k))
                }
                Some(&g) => Some(g),
            }
        }
    };
    Ok(Move { kind, cell: parts.cell, ghost, graduation })
}
