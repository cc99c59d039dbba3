//! boop. and the ghost cats of its Boooop expansion, exactly as `shared/rules/boop.md` has
//! them: the rules ([`Boop`] implements [`ply_core::Game`]), the notation, and the pictures
//! ([`ply_core::View`]).
//!
//! ```
//! use ply_core::{Game, perft};
//! use ply_boop::Boop;
//!
//! let mut game = Boop::new("boop").unwrap();
//! assert_eq!(perft(&mut game, 2), 1260);
//! let mv = game.parse_move("c3").unwrap(); // the piece letter is forced at the start
//! assert_eq!(game.format_move(mv), "Kc3");
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
pub use geometry::{Cell, Direction, Line, Segment, Travel};
pub use rules::Boop;
pub use setup::Setup;
pub use types::{GhostOnBed, Graduation, Kind, Move, Piece, Pool, Variant};
