//! PÜNCT position strings (`docs/position-strings.md`):
//!
//! ```text
//! punct;<variant>;<white pieces>;<black pieces>;<last turn>;<to move>;<result>
//! ```
//!
//! * pieces: each as its kind letter, PÜNCT dot and plain dots as in a placement
//!   (`Tg3:g4,h4`), then `@<level>` when it does not lie on the board (`Tg3:g4,h4@2`);
//!   separated by `/`, lowest level first, then by PÜNCT dot; `-` for none. The supplies are
//!   what is not on the board.
//! * last turn: `pass` when the last turn was a pass (a second pass draws, [E4]), else `-`.
//!
//! The start: `punct;standard;-;-;-;P1;*`.

use ply_core::position::{self, Frame};
use ply_core::{Game, Player, PositionError, PositionString};

use crate::geometry::{Kind, Point};
use crate::rules::Position;
use crate::setup::{Setup, SetupPiece};
use crate::types::Variant;

fn pieces(pos: &Position, player: Player) -> String {
    let list: Vec<String> = pos
        .pieces()
        .into_iter()
        .filter(|p| p.owner == player)
        .map(|p| {
            let mut s = format!("{}{}:{},{}", p.kind.letter(), p.punct, p.plain[0], p.plain[1]);
            if p.level != 1 {
                s.push_str(&format!("@{}", p.level));
            }
            s
        })
        .collect();
    if list.is_empty() { "-".to_string() } else { list.join("/") }
}

fn point(field: &'static str, text: &str) -> Result<Point, PositionError> {
    Point::parse(text).filter(|p| p.to_string() == text).ok_or_else(|| PositionError::BadCell {
        field,
        text: text.to_string(),
        what: "point",
    })
}

fn read_pieces(
    field: &'static str,
    text: &str,
    owner: Player,
    out: &mut Vec<SetupPiece>,
) -> Result<(), PositionError> {
    if text == "-" {
        return Ok(());
    }
    for item in text.split('/') {
        let bad = || PositionError::BadPiece {
            field,
            text: item.to_string(),
            expected: "a kind letter T C E L M R, the PÜNCT dot and the plain dots, like Tg3:g4,h4 or Tg3:g4,h4@2",
        };
        let (body, level) = match item.split_once('@') {
            None => (item, 1),
            Some((b, l)) => (b, position::parse_count(field, l, 9).map_err(|_| bad())?),
        };
        if level == 0 {
            return Err(bad());
        }
        let mut chars = body.chars();
        let kind = chars.next().and_then(Kind::from_letter).ok_or_else(bad)?;
        let (q, plain) = chars.as_str().split_once(':').ok_or_else(bad)?;
        let (a, b) = plain.split_once(',').ok_or_else(bad)?;
        out.push(SetupPiece {
            owner,
            kind,
            punct: point(field, q)?,
            plain: [point(field, a)?, point(field, b)?],
            level,
        });
    }
    Ok(())
}

impl PositionString for Position {
    fn position_string(&self) -> String {
        let fields = [
            pieces(self, Player::P1),
            pieces(self, Player::P2),
            if self.state.last_pass { "pass" } else { "-" }.to_string(),
        ];
        position::join(self, &fields)
    }

    fn from_position_string(text: &str) -> Result<Self, PositionError> {
        let Frame { variant, fields, to_move, result } = position::split::<Position>(text, 3)?;
        let variant = Variant::from_id(variant).expect("a checked variant");
        let mut list = Vec::new();
        read_pieces("white pieces", fields[0], Player::P1, &mut list)?;
        read_pieces("black pieces", fields[1], Player::P2, &mut list)?;
        let last_pass = match fields[2] {
            "pass" => true,
            "-" => false,
            other => {
                return Err(PositionError::BadField {
                    field: "last turn",
                    reason: format!("'{other}' is neither pass nor -"),
                });
            }
        };
        let setup = Setup { pieces: list, to_move: Some(to_move) };
        let mut pos = Position::build(&setup, variant, result)?;
        pos.state.last_pass = last_pass;
        position::check_result(pos.outcome(), result)?;
        Ok(pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn starts_and_pieces() {
        for v in ["standard", "basic"] {
            let pos = Position::new(v).unwrap();
            let s = pos.position_string();
            assert_eq!(s, format!("punct;{v};-;-;-;P1;*"));
            assert_eq!(Position::from_position_string(&s).unwrap(), pos);
        }
        let mut pos = Position::new("basic").unwrap();
        for m in ["Tb5:b6,c6", "Ei9:i10,i11"] {
            let mv = pos.parse_move(m).unwrap();
            pos.play(mv);
        }
        let s = pos.position_string();
        let back = Position::from_position_string(&s).unwrap();
        assert_eq!(back.position_string(), s);
        assert_eq!(back.hash(), pos.hash());
    }
}
