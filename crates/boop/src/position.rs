//! boop. position strings (`docs/position-strings.md`):
//!
//! ```text
//! boop;<variant>;<bed>;<P1 pool>;<P2 pool>;<P1 ghost>;<P2 ghost>;<to move>;<result>
//! ```
//!
//! * bed: rows 6 down to 1, separated by `/`, each from column a to f: `x` and `X` are P1's
//!   kitten and cat, `o` and `O` P2's, a digit counts empty cells (as in chess's FEN);
//! * pools: kittens and cats, `8,0`;
//! * ghosts (`boooop`): the segment the ghost sits on, its two cells in ascending order, and
//!   the compass direction it travels (`N`/`S` on a vertical seam, `E`/`W` on a horizontal
//!   one), e.g. `b3c3N`; `-` for a ghost in the pool (and always in `boop`).
//!
//! The start: `boop;boop;6/6/6/6/6/6;8,0;8,0;-;-;P1;*`.

use ply_core::position::{self, Frame};
use ply_core::{ByPlayer, Player, PositionError, PositionString};

use crate::geometry::{Cell, Segment, Travel};
use crate::rules::Boop;
use crate::setup::Setup;
use crate::types::{GhostOnBed, Kind, Piece, Pool, Variant};

fn symbol(piece: Piece) -> char {
    match (piece.player, piece.kind) {
        (Player::P1, Kind::Kitten) => 'x',
        (Player::P1, Kind::Cat) => 'X',
        (Player::P2, Kind::Kitten) => 'o',
        (Player::P2, Kind::Cat) => 'O',
    }
}

fn bed(game: &Boop) -> String {
    let mut rows = Vec::new();
    for row in (0..6).rev() {
        let mut text = String::new();
        let mut empty = 0;
        for col in 0..6 {
            match game.piece_at(Cell::new(col, row).expect("on the bed")) {
                None => empty += 1,
                Some(p) => {
                    if empty > 0 {
                        text.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    text.push(symbol(p));
                }
            }
        }
        if empty > 0 {
            text.push(char::from(b'0' + empty));
        }
        rows.push(text);
    }
    rows.join("/")
}

fn ghost(g: Option<GhostOnBed>) -> String {
    match g {
        None => "-".to_string(),
        Some(g) => format!("{}{}", g.segment, g.travel.compass(g.segment.line())),
    }
}

fn read_bed(text: &str, cells: &mut [Option<Piece>; 36]) -> Result<(), PositionError> {
    let field = "bed";
    let rows: Vec<&str> = text.split('/').collect();
    if rows.len() != 6 {
        return Err(PositionError::BadField {
            field,
            reason: format!("{} rows; the bed has 6, separated by '/' (row 6 first)", rows.len()),
        });
    }
    for (i, row) in rows.iter().enumerate() {
        let number = 6 - i;
        let mut line: Vec<Option<Piece>> = Vec::new();
        for ch in row.chars() {
            match ch {
                '1'..='6' => line.extend(std::iter::repeat_n(None, ch as usize - '0' as usize)),
                'x' => line.push(Some(Piece { player: Player::P1, kind: Kind::Kitten })),
                'X' => line.push(Some(Piece { player: Player::P1, kind: Kind::Cat })),
                'o' => line.push(Some(Piece { player: Player::P2, kind: Kind::Kitten })),
                'O' => line.push(Some(Piece { player: Player::P2, kind: Kind::Cat })),
                _ => {
                    return Err(PositionError::BadPiece {
                        field,
                        text: ch.to_string(),
                        expected: "x X o O, or a digit 1-6 for empty cells",
                    });
                }
            }
            if line.len() > 6 {
                break;
            }
        }
        if line.len() != 6 {
            return Err(PositionError::BadField {
                field,
                reason: format!("row {number} ('{row}') does not have 6 cells"),
            });
        }
        for (col, piece) in line.into_iter().enumerate() {
            cells[Cell::new(col as i8, (number - 1) as i8).expect("on the bed").index()] = piece;
        }
    }
    Ok(())
}

fn read_pool(field: &'static str, text: &str) -> Result<Pool, PositionError> {
    let (k, c) = text.split_once(',').ok_or_else(|| PositionError::BadField {
        field,
        reason: format!("'{text}' is not kittens and cats separated by ',' (like 8,0)"),
    })?;
    Ok(Pool {
        kittens: position::parse_count(field, k, 8)?,
        cats: position::parse_count(field, c, 8)?,
    })
}

fn read_ghost(field: &'static str, text: &str) -> Result<Option<GhostOnBed>, PositionError> {
    if text == "-" {
        return Ok(None);
    }
    let bad = || PositionError::BadPiece {
        field,
        text: text.to_string(),
        expected: "a segment between two side-by-side cells and a direction, like b3c3N, or -",
    };
    let b = text.as_bytes();
    if b.len() != 5 {
        return Err(bad());
    }
    let (a, c) = (Cell::parse(&b[..2]).ok_or_else(bad)?, Cell::parse(&b[2..4]).ok_or_else(bad)?);
    if a >= c {
        return Err(bad());
    }
    let segment = Segment::between(a, c).ok_or_else(bad)?;
    let travel = [Travel::Forward, Travel::Backward]
        .into_iter()
        .find(|t| t.compass(segment.line()).as_bytes() == &b[4..])
        .ok_or_else(bad)?;
    Ok(Some(GhostOnBed { segment, travel }))
}

impl PositionString for Boop {
    fn position_string(&self) -> String {
        let pool = |p: Player| format!("{},{}", self.pool(p).kittens, self.pool(p).cats);
        let fields = [
            bed(self),
            pool(Player::P1),
            pool(Player::P2),
            ghost(self.ghost(Player::P1)),
            ghost(self.ghost(Player::P2)),
        ];
        position::join(self, &fields)
    }

    fn from_position_string(text: &str) -> Result<Self, PositionError> {
        let Frame { variant, fields, to_move, result } = position::split::<Boop>(text, 5)?;
        let variant = Variant::from_id(variant).expect("a checked variant");
        let mut setup = Setup::start(variant);
        read_bed(fields[0], &mut setup.cells)?;
        setup.pools =
            ByPlayer::new(read_pool("P1 pool", fields[1])?, read_pool("P2 pool", fields[2])?);
        setup.ghosts =
            ByPlayer::new(read_ghost("P1 ghost", fields[3])?, read_ghost("P2 ghost", fields[4])?);
        setup.to_move = to_move;
        let mut game = Boop::from_setup_of(&setup, result.is_some())?;
        game.set_outcome(result);
        Ok(game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply_core::Game;

    #[test]
    fn starts_and_a_game() {
        let start = "boop;boop;6/6/6/6/6/6;8,0;8,0;-;-;P1;*";
        assert_eq!(Boop::new("boop").unwrap().position_string(), start);
        assert_eq!(Boop::from_position_string(start).unwrap(), Boop::new("boop").unwrap());
        let mut game = Boop::new("boooop").unwrap();
        for m in ["Kc3@b1a1", "Kd4"] {
            let mv = game.parse_move(m).unwrap();
            game.play(mv);
        }
        let s = game.position_string();
        assert_eq!(s, "boop;boooop;6/6/3o2/6/1x4/6;7,0;7,0;a1b1N;-;P1;*");
        let back = Boop::from_position_string(&s).unwrap();
        assert_eq!(back.position_string(), s);
        assert_eq!(back.hash(), game.hash());
    }
}
