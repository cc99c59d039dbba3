//! ZÈRTZ position strings (`docs/position-strings.md`):
//!
//! ```text
//! zertz;<variant>;<removed rings>;<marbles>;<pool>;<P1 captures>;<P2 captures>;<to move>;<result>
//! ```
//!
//! * removed rings: their names in ring order, separated by `,` (`a1,g1`); `-` for none;
//! * marbles: colour letter and ring, separated by `,` (`Wd4,Bc3`); `-` for none;
//! * pool and captures: white, grey and black marbles, `6,8,10`.
//!
//! The start of the 37-ring game: `zertz;37;-;-;6,8,10;0,0,0;0,0,0;P1;*`.

use ply_core::position::{self, Frame};
use ply_core::{Game, PositionError, PositionString};

use crate::geometry::Bits;
use crate::rules::Position;
use crate::setup::Setup;
use crate::types::{Colour, Variant};

fn list(items: Vec<String>) -> String {
    if items.is_empty() { "-".to_string() } else { items.join(",") }
}

fn counts(c: [u8; 3]) -> String {
    format!("{},{},{}", c[0], c[1], c[2])
}

fn read_counts(field: &'static str, text: &str) -> Result<[u8; 3], PositionError> {
    let parts: Vec<&str> = text.split(',').collect();
    if parts.len() != 3 {
        return Err(PositionError::BadField {
            field,
            reason: format!("'{text}' is not three counts (white,grey,black)"),
        });
    }
    Ok([
        position::parse_count(field, parts[0], 20)?,
        position::parse_count(field, parts[1], 20)?,
        position::parse_count(field, parts[2], 20)?,
    ])
}

impl PositionString for Position {
    fn position_string(&self) -> String {
        let layout = self.layout();
        let st = self.state();
        let removed: Vec<String> = Bits(layout.all & !st.rings).map(|i| layout.name(i)).collect();
        let marbles: Vec<String> = Bits(st.occupied())
            .map(|i| {
                let c = st.colour_at(i).expect("occupied");
                format!("{}{}", c.letter(), layout.name(i))
            })
            .collect();
        let fields = [
            list(removed),
            list(marbles),
            counts(st.pool),
            counts(st.captures[0]),
            counts(st.captures[1]),
        ];
        position::join(self, &fields)
    }

    fn from_position_string(text: &str) -> Result<Self, PositionError> {
        let Frame { variant, fields, to_move, result } = position::split::<Position>(text, 5)?;
        let variant = Variant::from_id(variant).expect("a checked variant");
        let layout = variant.board().layout();
        let words = |field: &'static str, text: &str, marble: bool| {
            if text == "-" {
                return Ok(String::new());
            }
            let mut out = Vec::new();
            for item in text.split(',') {
                let ring = if marble {
                    let mut chars = item.chars();
                    if chars.next().and_then(Colour::from_letter).is_none() {
                        return Err(PositionError::BadPiece {
                            field,
                            text: item.to_string(),
                            expected: "a marble: W, G or B and a ring, like Wd4",
                        });
                    }
                    chars.as_str()
                } else {
                    item
                };
                if layout.parse_name(ring).is_none() {
                    return Err(PositionError::BadCell {
                        field,
                        text: ring.to_string(),
                        what: "ring",
                    });
                }
                out.push(item);
            }
            Ok(out.join(" "))
        };
        let setup = Setup {
            removed: words("removed rings", fields[0], false)?,
            marbles: words("marbles", fields[1], true)?,
            pool: read_counts("pool", fields[2])?,
            captures: [
                read_counts("P1 captures", fields[3])?,
                read_counts("P2 captures", fields[4])?,
            ],
            to_move,
        };
        let pos = Position::build(&setup, variant, result)?;
        position::check_result(pos.outcome(), result)?;
        Ok(pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn starts() {
        for v in crate::types::VARIANTS {
            let pos = Position::new(v).unwrap();
            let s = pos.position_string();
            assert_eq!(Position::from_position_string(&s).unwrap(), pos, "{s}");
        }
        assert_eq!(
            Position::new("37").unwrap().position_string(),
            "zertz;37;-;-;6,8,10;0,0,0;0,0,0;P1;*"
        );
    }
}
