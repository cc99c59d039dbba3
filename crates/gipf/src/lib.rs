//! GIPF: the basic, standard and tournament games, exactly as `shared/rules/gipf.md` states them.
//!
//! * [`Position`] implements [`ply_core::Game`] and [`ply_core::View`]. It is a small `Copy`
//!   [`State`] (three bitboards, reserves, captures, entry phases, side to move, result) plus
//!   a history of earlier states for `undo`.
//! * A [`Move`] is one whole turn: pre-push removals, the push, post-push removals, with the
//!   kept GIPF pieces of every removal. It is `Copy` (27 bytes).
//! * [`Setup`] builds arbitrary positions for tests and analysis.
//!
//! White is [`Player::P1`] and moves first; Black is [`Player::P2`].
//!
//! ```
//! use ply_core::{PositionError, Game, perft};
//! use ply_gipf::Position;
//!
//! let mut pos = Position::new("standard").unwrap();
//! assert_eq!(perft(&mut pos, 3), 73_800);
//! let mv = pos.parse_move("a1-b2").unwrap();
//! assert_eq!(pos.format_move(mv), "a1-b2");
//! pos.play(mv);
//! assert_eq!(pos.reserve(ply_core::Player::P1), 11);
//! ```

mod eval;
mod game;
mod geometry;
mod notation;
mod position;
mod rules;
mod setup;
mod text;
mod types;
mod view;

pub use eval::{Eval, Weights};
pub use geometry::{NUM_ENTRIES, NUM_LINES, NUM_POINTS, Point};
pub use rules::{Position, State};
pub use setup::Setup;
pub use types::{EntryPhase, MAX_STEPS, Move, Piece, VARIANTS, Variant};
