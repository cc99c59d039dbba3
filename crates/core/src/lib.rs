//! The game contract of ply.
//!
//! Every rules crate (boop., GIPF, ZÈRTZ, PÜNCT) implements [`Game`] for its position type and
//! [`View`] for its pictures; everything above the rules (search, records, the command line, the
//! server) is written once against these traits and never names a game.
//!
//! * [`Game`] is the fast, typed interface: `Copy` moves, a reusable move buffer, make/unmake
//!   with [`Game::play`] and [`Game::undo`], an incrementally kept Zobrist [`Game::hash`].
//! * [`AnyGame`] is the object-safe layer over it: moves as canonical notation strings,
//!   pictures, JSON views. [`GameEntry`] and [`Registry`] map a game name to a constructor.
//! * [`perft`] counts leaf turns; it is the backbone of the rules tests.
//! * [`PositionString`] writes and reads any position as one line of text (module
//!   [`position`]), with the typed [`PositionError`].
//! * [`History`] is the undo stack every position keeps, and [`state_history_methods!`]
//!   writes the [`Game`] methods that only read the state or the stack.
//! * [`testkit`] holds the checks every game's tests run (random games, position strings,
//!   pictures, perft files).
//!
//! A move is always a **whole turn** (DESIGN.md, principle 3), and the player to move is kept
//! explicitly by each position.

mod any;
mod error;
mod eval;
mod game;
mod history;
mod perft;
mod player;
pub mod position;
pub mod testkit;
pub mod weights;
pub mod zobrist;

pub use any::{AnyGame, DynGame, GameEntry, Registry, ShownTurn, UnknownGame, position_keys};
pub use error::{MoveError, VariantError};
pub use eval::{EVAL_LIMIT, Evaluate, Evaluator, LateMoveReductions};
pub use game::{Game, LANGUAGES, Motion, STEP_CHOOSE, View, in_language};
pub use history::History;
pub use perft::{divide, perft};
pub use player::{ByPlayer, Outcome, Player};
pub use position::{PositionError, PositionString, position_key};
pub use weights::{Tunable, WeightGroup, Weights, WeightsError};
