//! PÜNCT (variants `standard` and `basic`): rules, notation and pictures, exactly as
//! `shared/rules/punct.md` states them. Rule ids in comments (`[L3]`) cite that document.
//!
//! # Representation
//!
//! The 211 points are numbered in column-major order (see [`geometry`]). A [`Position`] holds a
//! small `Copy` state and the states before every turn (snapshot undo, repetition):
//!
//! * `pieces`: the pieces on the board in the order they were placed, each as owner,
//!   orientation (one of the 33 of §3.2, which fixes the kind), PÜNCT point and level;
//! * `height[p]`: H(p) of §4, and `top[p]`: the index of the top piece of `p`;
//! * the supplies, the mover, whether the last action was a pass, the outcome and the hash.
//!
//! Pieces of one kind and colour are interchangeable: the hash is a sum over pieces and
//! repetition compares the pieces as multisets. A [`Move`] names the resulting position
//! exactly (§9: one token = one position).

pub mod geometry;

mod bits;
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
pub use geometry::{Kind, N_POINTS, Orient, Point, shape_points};
pub use rules::Position;
pub use setup::{Setup, SetupPiece};
pub use types::{Move, PIECES_PER_PLAYER, PieceInfo, Variant};
