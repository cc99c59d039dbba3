//! ZÈRTZ on the 37, 40, 43, 44, 48 and 61 ring boards and in its blitz form, exactly by the
//! rules of `../shared/rules/zertz.md`: placement from the shared pool (or, once it is empty,
//! from one's own captures) with the removal of a free ring, compulsory capture chains,
//! isolation of full groups, the win thresholds, the player without a move, and threefold
//! repetition.
//!
//! A [`Position`] is a small `Copy` [`State`] (bitboards of rings and marbles, pool and
//! captures) plus the history of earlier states for undo and repetition.

pub mod geometry;

mod eval;
mod game;
mod notation;
mod position;
mod rules;
mod setup;
mod text;
mod types;
mod view;

pub use eval::{Eval, Weights};
pub use rules::{Position, State};
pub use setup::Setup;
pub use types::{Colour, Move, VARIANTS, Variant};
