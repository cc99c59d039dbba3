//! The contract: [`Game`] for [`Boop`], joining the rules (module `rules`) and the notation
//! (module `notation`) behind the one interface search, records and the server use.

use ply_core::{Game, MoveError, Outcome, Player, VariantError};

use crate::rules::{Boop, compute_hash};
use crate::types::{Move, Variant};

impl Game for Boop {
    type Move = Move;
    const NAME: &'static str = "boop";
    const DISPLAY_NAME: &'static str = "boop.";
    const REPETITION_DRAWS: bool = true;

    fn variants() -> &'static [&'static str] {
        &["boop", "boooop"]
    }

    fn new(variant: &str) -> Result<Self, VariantError> {
        Variant::from_id(variant).map(Boop::start).ok_or_else(|| VariantError::of::<Self>(variant))
    }

    fn variant(&self) -> &'static str {
        self.variant.id()
    }

    fn to_move(&self) -> Player {
        self.state.to_move
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        self.generate(out);
    }

    fn play(&mut self, mv: Move) {
        self.play_move(mv);
    }

    fn undo(&mut self) {
        let (state, outcome) = self.history.pop();
        self.state = state;
        self.outcome = outcome;
        self.seen.pop();
    }

    fn turns_played(&self) -> usize {
        self.history.len()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    fn hash(&self) -> u64 {
        self.state.hash
    }

    fn compute_hash(&self) -> u64 {
        compute_hash(&self.state)
    }

    fn format_move(&self, mv: Move) -> String {
        crate::notation::format(mv)
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        crate::notation::parse(self, text)
    }
}
