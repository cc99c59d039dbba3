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
pub use eval::Eval;
mod geometry;
mod labels;
mod notation;
mod position;
mod position_string;
mod text;
mod view;

pub use geometry::{Cell, Direction, Line, Segment, Travel};
pub use position::{
    Boop, GhostOnBed, Graduation, Kind, Move, Piece, Pool, Setup, Variant,
};
