use crate::Game;

/// The largest magnitude a static evaluation may have; scores beyond it mean proven results.
pub const EVAL_LIMIT: i32 = 100_000;

/// Game knowledge for search: each game crate implements it next to its rules, so the search
/// itself knows no game (DESIGN.md section 5).
pub trait Evaluate: Game {
    /// A static evaluation of a position whose game is not over, from the point of view of
    /// the player to move: positive is good for him. Within ±[`EVAL_LIMIT`]. The scale is the
    /// game's own; [`value_scale`](Evaluate::value_scale) relates it to winning chances.
    fn evaluate(&self) -> i32;

    /// The plain material balance, on the same scale and from the same side as
    /// [`evaluate`](Evaluate::evaluate): what a naive program counts. Benchmarks use it for
    /// the fixed-depth baseline the real evaluation must beat.
    fn material(&self) -> i32;

    /// An evaluation difference that means roughly "three times as likely to win as to lose"
    /// (MCTS maps evaluations to values with `tanh(eval / value_scale)`).
    fn value_scale() -> f32 {
        400.0
    }

    /// A cheap prior for a legal move in this position: higher is more promising. Used for
    /// move ordering in alpha-beta and as the policy prior in MCTS. The default is neutral.
    fn move_prior(&self, _mv: Self::Move) -> i32 {
        0
    }

    /// Whether a move is forcing (a capture, a win threat): quiescence search follows only
    /// these. The default, none, makes quiescence a plain static evaluation.
    fn is_forcing(&self, _mv: Self::Move) -> bool {
        false
    }
}
