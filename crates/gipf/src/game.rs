//! The contract: [`Game`] for [`Position`], joining the rules (module `rules`) and the
//! notation (module `notation`) behind the one interface search, records and the server use.

use ply_core::{Game, MoveError, Outcome, VariantError};

use crate::notation;
use crate::rules::{Generator, Position};
use crate::types::{Move, VARIANTS, Variant};

impl Game for Position {
    type Move = Move;
    const NAME: &'static str = "gipf";
    const DISPLAY_NAME: &'static str = "GIPF";
    // gipf.md §6: every game ends with a winner.
    const HAS_DRAWS: bool = false;

    fn variants() -> &'static [&'static str] {
        VARIANTS
    }

    fn new(variant: &str) -> Result<Self, VariantError> {
        Variant::from_id(variant)
            .map(Position::start)
            .ok_or_else(|| VariantError::of::<Self>(variant))
    }

    fn variant(&self) -> &'static str {
        self.state.variant.id()
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.state.winner.is_some() {
            return;
        }
        Generator::new(&self.state, out).run();
    }

    fn play(&mut self, mv: Move) {
        self.history.push(self.state);
        self.state.apply(mv);
    }

    fn outcome(&self) -> Option<Outcome> {
        self.state.winner.map(Outcome::Win)
    }

    fn compute_hash(&self) -> u64 {
        self.state.compute_hash()
    }

    fn format_move(&self, mv: Move) -> String {
        notation::tokens(&self.state, mv).join(",")
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        notation::parse(self, text)
    }

    ply_core::state_history_methods!();
}

#[cfg(test)]
mod tests {
    use crate::types::{MAX_STEPS, Move};

    #[test]
    fn move_is_small() {
        assert_eq!(std::mem::size_of::<Move>(), 3 + 2 * MAX_STEPS);
    }
}
