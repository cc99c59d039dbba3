//! GIPF position strings (`docs/position-strings.md`):
//!
//! ```text
//! gipf;<variant>;<white pieces>;<black pieces>;<reserves>;<captures>;<entry>;<to move>;<result>
//! ```
//!
//! * pieces: the points of a player's pieces in ascending order, separated by `,`; a GIPF
//!   piece is written in capitals (`B5`), a single piece in small letters (`c3`); `-` for none;
//! * reserves and captures: White's and Black's counts, `12,12` (captures are the chips each
//!   player has taken from the other);
//! * entry: the tournament entry phase of White then Black, `n` (nothing entered yet), `g`
//!   (GIPF pieces only so far) or `s` (singles from now on), e.g. `gs`; `-` in `basic` and
//!   `standard`.
//!
//! The start of `standard`:
//! `gipf;standard;B5,E2,H5;B2,E8,H2;12,12;0,0;-;P1;*`.

use ply_core::position::{self, Frame};
use ply_core::{Game, Outcome, Player, PositionError, PositionString};

use crate::geometry::Point;
use crate::rules::Position;
use crate::setup::Setup;
use crate::types::{EntryPhase, Piece, Variant};

fn pieces(pos: &Position, player: Player) -> String {
    let list: Vec<String> = Point::all()
        .filter_map(|p| pos.piece_at(p).filter(|x| x.player == player).map(|x| (p, x.gipf)))
        .map(|(p, gipf)| if gipf { p.to_string().to_uppercase() } else { p.to_string() })
        .collect();
    if list.is_empty() { "-".to_string() } else { list.join(",") }
}

fn phase_letter(phase: EntryPhase) -> char {
    match phase {
        EntryPhase::NotStarted => 'n',
        EntryPhase::GipfPieces => 'g',
        EntryPhase::Singles => 's',
    }
}

fn pair(field: &'static str, text: &str) -> Result<[u8; 2], PositionError> {
    let (a, b) = text.split_once(',').ok_or_else(|| PositionError::BadField {
        field,
        reason: format!("'{text}' is not two counts separated by ',' (White's, then Black's)"),
    })?;
    Ok([position::parse_count(field, a, 18)?, position::parse_count(field, b, 18)?])
}

fn read_pieces(
    field: &'static str,
    text: &str,
    player: Player,
    out: &mut Vec<(Point, Piece)>,
) -> Result<(), PositionError> {
    if text == "-" {
        return Ok(());
    }
    for item in text.split(',') {
        let gipf = item.bytes().next().is_some_and(|b| b.is_ascii_uppercase());
        let name = item.to_ascii_lowercase();
        let point = Point::parse(&name).map_err(|_| PositionError::BadCell {
            field,
            text: item.to_string(),
            what: "point (a1 to i5; capitals for a GIPF piece)",
        })?;
        if item.bytes().any(|b| b.is_ascii_uppercase()) != gipf
            || item.bytes().skip(1).any(|b| b.is_ascii_uppercase())
        {
            return Err(PositionError::BadPiece {
                field,
                text: item.to_string(),
                expected: "a point in small letters, or its column in capitals for a GIPF piece",
            });
        }
        out.push((point, Piece { player, gipf }));
    }
    Ok(())
}

impl PositionString for Position {
    fn position_string(&self) -> String {
        let entry = if self.variant_kind() == Variant::Tournament {
            Player::BOTH.into_iter().map(|p| phase_letter(self.entry_phase(p))).collect()
        } else {
            "-".to_string()
        };
        let fields = [
            pieces(self, Player::P1),
            pieces(self, Player::P2),
            format!("{},{}", self.reserve(Player::P1), self.reserve(Player::P2)),
            format!("{},{}", self.captured(Player::P1), self.captured(Player::P2)),
            entry,
        ];
        position::join(self, &fields)
    }

    fn from_position_string(text: &str) -> Result<Self, PositionError> {
        let Frame { variant, fields, to_move, result } = position::split::<Position>(text, 5)?;
        let variant = Variant::from_id(variant).expect("a checked variant");
        let mut list = Vec::new();
        read_pieces("white pieces", fields[0], Player::P1, &mut list)?;
        read_pieces("black pieces", fields[1], Player::P2, &mut list)?;
        let reserve = pair("reserves", fields[2])?;
        let captured = pair("captures", fields[3])?;
        let entry = if variant == Variant::Tournament {
            let phase = |c: char| match c {
                'n' => Some(EntryPhase::NotStarted),
                'g' => Some(EntryPhase::GipfPieces),
                's' => Some(EntryPhase::Singles),
                _ => None,
            };
            let chars: Vec<char> = fields[4].chars().collect();
            match chars.as_slice() {
                [a, b] if phase(*a).is_some() && phase(*b).is_some() => {
                    [phase(*a).expect("checked"), phase(*b).expect("checked")]
                }
                _ => {
                    return Err(PositionError::BadField {
                        field: "entry",
                        reason: format!(
                            "'{}' is not two entry phases (n, g or s for White, then Black)",
                            fields[4]
                        ),
                    });
                }
            }
        } else {
            if fields[4] != "-" {
                return Err(PositionError::BadField {
                    field: "entry",
                    reason: format!("'{}': only tournament has entry phases; write -", fields[4]),
                });
            }
            [EntryPhase::NotStarted; 2]
        };
        let setup = Setup { variant, pieces: list, reserve, captured, to_move, entry };
        let mut pos = Position::build(&setup, result.is_some())?;
        position::check_result(pos.outcome(), result)?;
        match result {
            None => {}
            Some(Outcome::Draw) => {
                return Err(PositionError::Inconsistent("GIPF has no draws".into()));
            }
            Some(Outcome::Win(w)) => {
                pos.state.winner = Some(w);
                pos.state.hash = pos.state.compute_hash();
            }
        }
        Ok(pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn starts() {
        for (v, s) in [
            ("standard", "gipf;standard;B5,E2,H5;B2,E8,H2;12,12;0,0;-;P1;*"),
            ("basic", "gipf;basic;b5,e2,h5;b2,e8,h2;12,12;0,0;-;P1;*"),
            ("tournament", "gipf;tournament;-;-;18,18;0,0;nn;P1;*"),
        ] {
            let pos = Position::new(v).unwrap();
            assert_eq!(pos.position_string(), s);
            assert_eq!(Position::from_position_string(s).unwrap(), pos);
        }
    }

    /// The mover's removals took both players' last GIPF pieces: he wins, and the string of
    /// that finished position reads back (found by the random-game test).
    #[test]
    fn both_without_gipf_pieces_after_the_last_turn() {
        let s = "gipf;tournament;b5,c2,d2,d6,d7,f2;b2,c6,e3,f3,h5;10,12;1,2;ss;P1;P1wins";
        let pos = Position::from_position_string(s).unwrap();
        assert_eq!(pos.position_string(), s);
        assert!(Position::from_position_string(&s.replace("P1wins", "*")).is_err());
    }
}
