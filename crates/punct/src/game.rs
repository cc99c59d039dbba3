//! The contract: [`Game`] for [`Position`], joining the rules (module `rules`) and the
//! notation (module `notation`) behind the one interface search, records and the server use.

use ply_core::{Game, MoveError, Outcome, VariantError};

use crate::geometry::NONE;
use crate::rules::{Position, SIDE_KEY};
use crate::types::{Move, Variant};

impl Game for Position {
    type Move = Move;
    const NAME: &'static str = "punct";
    const DISPLAY_NAME: &'static str = "PÜNCT";
    /// A position's third time draws ([E5]).
    const REPETITION_DRAWS: bool = true;
    const LEGALITY_WITHOUT_LISTING: bool = true;

    fn variants() -> &'static [&'static str] {
        &["standard", "basic"]
    }

    fn new(variant: &str) -> Result<Self, VariantError> {
        Variant::from_id(variant)
            .map(Position::new_game)
            .ok_or_else(|| VariantError::of::<Self>(variant))
    }

    fn variant(&self) -> &'static str {
        self.variant.id()
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.state.outcome.is_some() {
            return;
        }
        self.actions(out);
        if out.is_empty() {
            out.push(Move::Pass); // [A3]
        }
    }

    fn play(&mut self, mv: Move) {
        self.history.push(self.state);
        let st = &mut self.state;
        let was_pass = st.last_pass;
        // The points whose visible colour the turn may change: where the piece lands, and
        // where a shifted piece was.
        let mut changed = [NONE; 6];
        match mv {
            Move::Place { at, orient } => {
                st.place(at.index() as u8, orient.0);
                changed[..3].copy_from_slice(&st.pieces[st.n as usize - 1].points());
            }
            Move::Shift { from, to, orient } => {
                let (left, moved) = st.shift(from.index() as u8, to.index() as u8, orient.0);
                changed[..3].copy_from_slice(&st.pieces[moved as usize].points());
                changed[3..].copy_from_slice(&left);
            }
            Move::Pass => {}
        }
        st.last_pass = mv == Move::Pass;
        st.to_move = st.to_move.other();
        st.hash ^= SIDE_KEY;
        let placed = matches!(mv, Move::Place { .. });
        let passed_twice = was_pass && mv == Move::Pass;
        self.state.outcome = self.decide(placed, passed_twice, &changed);
    }

    fn outcome(&self) -> Option<Outcome> {
        self.state.outcome
    }

    fn compute_hash(&self) -> u64 {
        self.state.compute_hash()
    }

    fn format_move(&self, mv: Move) -> String {
        mv.to_string()
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        self.parse_inner(text)
    }

    fn legal_without_listing(&self, mv: Move) -> bool {
        self.action_legal(mv)
    }

    ply_core::state_history_methods!();
}

#[cfg(test)]
mod tests {
    use ply_core::History;

    use super::*;
    use crate::geometry::{N_POINTS, Point, SIDES};
    use crate::rules::{NO_OWNER, State};

    #[test]
    fn pass_only_without_actions_and_two_passes_draw() {
        // Nothing in either supply and nothing on the board: neither player can act.
        let mut st = State::empty();
        st.supply = [[0; 6]; 2];
        st.hash = st.compute_hash();
        let mut pos = Position { state: st, variant: Variant::Standard, history: History::new() };
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        assert_eq!(moves, [Move::Pass]);
        assert_eq!(pos.parse_move("pass"), Ok(Move::Pass));
        pos.play(Move::Pass);
        assert_eq!(pos.outcome(), None);
        assert_eq!(pos.hash(), pos.compute_hash());
        pos.play(Move::Pass);
        assert_eq!(pos.outcome(), Some(Outcome::Draw)); // [E4]
        pos.undo();
        assert_eq!(pos.outcome(), None);
    }

    fn path(start: &str, legs: &[(usize, usize)]) -> Vec<u8> {
        let mut p = Point::parse(start).unwrap();
        let mut out = vec![p.index() as u8];
        for &(dir, steps) in legs {
            for _ in 0..steps {
                p = p.neighbour(dir).expect("path stays on the board");
                out.push(p.index() as u8);
            }
        }
        out
    }

    #[test]
    fn connections_for_each_pair_of_sides() {
        // (N, NE, SE, S, SW, NW) = 0..5
        let chains = [
            path("a5", &[(2, 8), (1, 8)]),  // A to Q
            path("e1", &[(0, 8), (1, 8)]),  // R1 to R17
            path("b10", &[(2, 8), (3, 8)]), // D- to D+
        ];
        for chain in &chains {
            for colour in [0u8, 1] {
                let mut vis = [NO_OWNER; N_POINTS];
                for &p in chain {
                    vis[p as usize] = colour;
                }
                assert!(State::connected(&vis, colour));
                assert!(!State::connected(&vis, 1 - colour));
                // Break the chain in the middle: no connection.
                vis[chain[chain.len() / 2] as usize] = 1 - colour;
                assert!(!State::connected(&vis, colour));
                // Drop the first side point: the chain no longer touches that side.
                let mut vis2 = [NO_OWNER; N_POINTS];
                for &p in &chain[1..] {
                    vis2[p as usize] = colour;
                }
                assert!(!State::connected(&vis2, colour));
            }
        }
        for p in ["b2", "b9", "i2", "i16", "p9", "p16"] {
            assert_eq!(SIDES[Point::parse(p).unwrap().index()], 0, "{p}");
        }
    }

    #[test]
    fn move_is_small() {
        assert!(std::mem::size_of::<Move>() <= 4);
    }
}
