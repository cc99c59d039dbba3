//! The notation of punct.md §6.3: `Ei3:i4,i5` (a placement), `g3-g8:g9,h9` (a shift), `pass`;
//! [`Move`]'s `Display` writes it, and [`Position`] reads it with the abbreviations the rules
//! allow.

use std::fmt;

use ply_core::MoveError;

use crate::geometry::{self, Kind, Orient, Point, SHAPES};
use crate::rules::Position;
use crate::setup::find_orient;
use crate::types::Move;

impl fmt::Display for Move {
    /// The canonical notation (§6.3).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Some([q, a, b]) = self.points() else {
            return f.write_str("pass");
        };
        match *self {
            Move::Place { orient, .. } => write!(f, "{}{q}:{a},{b}", orient.kind().letter()),
            Move::Shift { from, .. } => write!(f, "{from}-{q}:{a},{b}"),
            Move::Pass => f.write_str("pass"),
        }
    }
}

impl Position {
    pub(crate) fn parse_inner(&self, text: &str) -> Result<Move, MoveError> {
        if let Some(outcome) = self.state.outcome {
            return Err(MoveError::GameOver(outcome.to_string()));
        }
        if text == "pass" {
            return if self.has_action() {
                Err(MoveError::Illegal(
                    "pass is only legal with no placement and no shift ([A3])".into(),
                ))
            } else {
                Ok(Move::Pass)
            };
        }
        let syntax = || {
            MoveError::Syntax(format!(
                "'{text}' is not a PÜNCT action (Tg3:g4,h4, g3-g8:g9,h9 or pass)"
            ))
        };
        let cell = |s: &str| -> Result<Point, MoveError> {
            let (c, r) = geometry::parse_cell_coords(s).ok_or_else(syntax)?;
            Point::from_coords(c, r)
                .ok_or_else(|| MoveError::Syntax(format!("{s} is not a board point")))
        };
        let (head, plain) = match text.split_once(':') {
            Some((h, p)) => {
                let (a, b) = p.split_once(',').ok_or_else(syntax)?;
                (h, Some((cell(a)?, cell(b)?)))
            }
            None => (text, None),
        };
        let first = head.chars().next().ok_or_else(syntax)?;
        if let Some(kind) = Kind::from_letter(first) {
            let q = cell(&head[1..])?;
            self.parse_placement(kind, q, plain)
        } else {
            let (f, t) = head.split_once('-').ok_or_else(syntax)?;
            let (from, to) = (cell(f)?, cell(t)?);
            self.parse_shift(from, to, plain)
        }
    }

    fn unique(&self, what: String, filter: impl Fn(&Move) -> bool) -> Result<Move, MoveError> {
        let mut all = Vec::new();
        self.actions(&mut all);
        let found: Vec<Move> = all.into_iter().filter(|m| filter(m)).collect();
        match found.as_slice() {
            [one] => Ok(*one),
            [] => Err(MoveError::Illegal(format!("no legal action matches {what}"))),
            many => {
                let mut many = many.to_vec();
                many.sort_by_key(|m| match *m {
                    Move::Place { orient, .. } => (0, orient.kind().index(), m.points()),
                    Move::Shift { from, .. } => (1, from.index(), m.points()),
                    Move::Pass => (2, 0, None),
                });
                let names: Vec<String> = many.iter().map(Move::to_string).collect();
                Err(MoveError::Ambiguous(format!(
                    "{what} is ambiguous: {} legal actions match ({})",
                    names.len(),
                    names.join(", ")
                )))
            }
        }
    }

    fn parse_placement(
        &self,
        kind: Kind,
        q: Point,
        plain: Option<(Point, Point)>,
    ) -> Result<Move, MoveError> {
        let Some((a, b)) = plain else {
            return self.unique(
                format!("{}{q}", kind.letter()),
                |m| matches!(*m, Move::Place { at, orient } if at == q && orient.kind() == kind),
            );
        };
        let orient = find_orient(kind, q, a, b).ok_or_else(|| {
            MoveError::Illegal(format!(
                "{a},{b} with the PÜNCT dot on {q} is not a shape of piece {}",
                kind.letter()
            ))
        })?;
        self.placement_legal(q, orient).map_err(|e| MoveError::Illegal(e.message()))?;
        Ok(Move::Place { at: q, orient })
    }

    fn parse_shift(
        &self,
        from: Point,
        to: Point,
        plain: Option<(Point, Point)>,
    ) -> Result<Move, MoveError> {
        let st = &self.state;
        let me = st.to_move.index() as u8;
        let f = from.index() as u8;
        let Some(i) = st.movable_at(f) else {
            let here: Vec<u8> = (0..st.n).filter(|&i| st.pieces[i as usize].at == f).collect();
            let why = if here.is_empty() {
                format!("no piece has its PÜNCT dot on {from}")
            } else if here.iter().any(|&i| st.is_free(i)) {
                format!("the piece on {from} is the opponent's ([M1])")
            } else if here.iter().any(|&i| st.pieces[i as usize].owner == me) {
                format!("piece is covered: the piece on {from} cannot move ([M1])")
            } else {
                format!("the piece on {from} is the opponent's ([M1])")
            };
            return Err(MoveError::Illegal(why));
        };
        let (fc, fr) = (i32::from(from.column()), i32::from(from.row()));
        let (tc, tr) = (i32::from(to.column()), i32::from(to.row()));
        if fc != tc && fr != tr && fc - fr != tc - tr {
            return Err(MoveError::Illegal(format!("{to} is not on a line through {from} ([M2])")));
        }
        let Some((a, b)) = plain else {
            return self.unique(
                format!("{from}-{to}"),
                |m| matches!(*m, Move::Shift { from: x, to: y, .. } if x == from && y == to),
            );
        };
        let piece = st.pieces[i as usize];
        let kind = Orient(piece.orient).kind();
        let orient = find_orient(kind, to, a, b).ok_or_else(|| {
            MoveError::Illegal(format!(
                "{a},{b} with the PÜNCT dot on {to} is not a shape of the piece on {from} ({})",
                kind.letter()
            ))
        })?;
        if from == to && orient.0 == piece.orient {
            return Err(MoveError::Illegal(
                "the piece would end where it is: not a move ([M5])".into(),
            ));
        }
        let lift = st.lift(i);
        let [x, y] = SHAPES[to.index()][orient.index()];
        st.land(&lift, to.index() as u8, orient.0, x, y)
            .map_err(|e| MoveError::Illegal(e.message()))?;
        Ok(Move::Shift { from, to, orient })
    }
}
