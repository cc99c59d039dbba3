//! Game knowledge for search: an [`Evaluator`] is a value of its own type that scores the
//! positions of one game, so search takes a game *and* an evaluator (the minimax crate's
//! Game / Evaluator / Strategy split). Noise, weights and tuning wrap an evaluator, never a
//! game. [`Evaluate`] names a game's own evaluator, the one the engines use.

use crate::Game;

/// The largest magnitude a static evaluation may have; scores beyond it mean proven results.
pub const EVAL_LIMIT: i32 = 100_000;

/// Where alpha-beta searches late moves one turn shallower first (late-move reductions, as
/// chess programs do): in a node with at least `min_depth` turns left, every move after the
/// first `after` that is not forcing ([`Evaluator::is_forcing`]), not the table's move and not
/// a killer is searched one turn less deep with a null window, and again to the full depth
/// only where that beats the best so far. Well-ordered moves rarely need the re-search, so an
/// iteration costs a fraction of its nodes. A game opts in by measurement: where the value of
/// a position depends much on who is to move at the horizon (ZÈRTZ, PÜNCT), a search one turn
/// shallower ends on the other player's turn, beats the best so far too often, and plays
/// worse (docs/strength.md, "Late moves searched shallower").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LateMoveReductions {
    /// The moves of a node searched to the full depth before any is reduced.
    pub after: usize,
    /// The fewest turns left in a node whose moves are reduced.
    pub min_depth: i32,
}

/// Scores the positions of game `G` for search (DESIGN.md section 5).
pub trait Evaluator<G: Game>: Clone + Send + Sync + 'static {
    /// A static evaluation of a position whose game is not over, from the point of view of
    /// the player to move: positive is good for him. Within ±[`EVAL_LIMIT`]. The scale is the
    /// game's own; [`value_scale`](Evaluator::value_scale) relates it to winning chances.
    fn evaluate(&self, game: &G) -> i32;

    /// The plain material balance, on the same scale and from the same side as
    /// [`evaluate`](Evaluator::evaluate): what a naive program counts. Benchmarks use it for
    /// the fixed-depth baseline the real evaluation must beat.
    fn material(&self, game: &G) -> i32;

    /// What an evaluation says about the result: a position evaluated `e` is expected to
    /// score `½ + ½·tanh(e / value_scale)` for the side to move (`e = value_scale` about 88 %).
    /// Analysis reports that expected score, MCTS backs it up as a leaf's value, and the
    /// noise of the low levels is measured in it. It is not a guess: `ply tune` fits
    /// `σ(K · e)` to the results of real and self-play games, and `σ(K · e)` is that same
    /// curve with `value_scale = 2 / K`; each game's figure is the one its data gave
    /// (`docs/tuning.md`, "The value scale").
    fn value_scale(&self) -> f32 {
        400.0
    }

    /// A cheap prior for a legal move in this position: higher is more promising. Used for
    /// move ordering in alpha-beta and as the policy prior in MCTS. The default is neutral.
    fn move_prior(&self, game: &G, mv: G::Move) -> i32 {
        let _ = (game, mv);
        0
    }

    /// [`move_prior`](Evaluator::move_prior) of each of `moves`, in their order, into `out`
    /// (cleared first). A game with thousands of moves a turn whose priors read tables made
    /// for the position overrides it to find those tables once, not once a move.
    fn move_priors(&self, game: &G, moves: &[G::Move], out: &mut Vec<i32>) {
        out.clear();
        out.extend(moves.iter().map(|&mv| self.move_prior(game, mv)));
    }

    /// Whether a move is forcing (a capture, a win threat): quiescence search follows only
    /// these. The default, none, makes quiescence a plain static evaluation.
    fn is_forcing(&self, game: &G, mv: G::Move) -> bool {
        let _ = (game, mv);
        false
    }

    /// Whether some move of the player to move might be forcing: `false` is a promise that
    /// none is ([`is_forcing`](Evaluator::is_forcing)), and quiescence then takes the static
    /// value without listing the moves (PÜNCT, which has no forcing moves, lists thousands a
    /// turn). The default, `true`, promises nothing.
    fn may_force(&self, game: &G) -> bool {
        let _ = game;
        true
    }

    /// Late-move reductions for alpha-beta, or `None` (the default) to search every move to
    /// the full depth. See [`LateMoveReductions`].
    fn late_move_reductions(&self) -> Option<LateMoveReductions> {
        None
    }

    /// Whether the player to move must play a forcing move (ZÈRTZ's compulsory captures).
    /// Alpha-beta then treats the position as a chess program treats check: the turn costs
    /// no depth, so the horizon does not fall inside a forced sequence, and quiescence searches
    /// every move and does not stand pat, since no quiet move could keep the static value.
    /// The default, `false`, lets every turn cost depth and quiescence stand pat everywhere.
    fn must_force(&self, game: &G) -> bool {
        let _ = game;
        false
    }

    /// Futility pruning's bound, for alpha-beta's frontier (a node one turn from the horizon,
    /// whose moves each lead to a static value): an upper bound, for the player to move, on
    /// the value of the position any of his quiet moves ([`is_quiet`](Evaluator::is_quiet))
    /// leaves: minus its [`evaluate`](Evaluator::evaluate), or that evaluation itself where
    /// he is to move again. Where the bound is at most alpha no quiet move can raise alpha,
    /// and the search skips them all. A proven bound, not a margin guessed from experience:
    /// the pruning changes no value a search to a given depth finds, only what it costs.
    /// `None` (the default) where the game knows none.
    fn quiet_bound(&self, game: &G) -> Option<i32> {
        let _ = game;
        None
    }

    /// Whether `mv` is quiet in the sense of [`quiet_bound`](Evaluator::quiet_bound): the
    /// position it leaves is not over, is evaluated within that bound, and needs no
    /// quiescence (no forcing move follows); or, where
    /// [`quiet_may_repeat`](Evaluator::quiet_may_repeat) says so, a position seen before
    /// (which the rules or the search may score as a draw). The default, `false`, says so of
    /// no move.
    fn is_quiet(&self, game: &G, mv: G::Move) -> bool {
        let _ = (game, mv);
        false
    }

    /// Whether quiet move `mv` ([`is_quiet`](Evaluator::is_quiet)) may lead to a position
    /// seen before (PÜNCT's shifts). A draw by repetition is not bounded by
    /// [`quiet_bound`](Evaluator::quiet_bound), so the search skips such a move only after
    /// making sure it repeats nothing, where a draw would raise alpha. The default, `false`,
    /// promises that no quiet move repeats a position (a placement that takes a piece from
    /// the supply or a ring from the board never does).
    fn quiet_may_repeat(&self, game: &G, mv: G::Move) -> bool {
        let _ = (game, mv);
        false
    }

    /// Whether some move of the player to move might win the game at once. `false` is a
    /// promise that none does; MCTS then does not try every move for a win when it expands
    /// the position (in a game with thousands of moves a turn, that trial is most of a
    /// playout's cost). The default, `true`, promises nothing.
    fn may_win_at_once(&self, game: &G) -> bool {
        let _ = game;
        true
    }

    /// Whether move `mv` might win the game at once, asked only where
    /// [`may_win_at_once`](Evaluator::may_win_at_once) said yes: `false` is a promise that it
    /// does not, so MCTS does not try it. The default, `true`, promises nothing.
    fn may_win_with(&self, game: &G, mv: G::Move) -> bool {
        let _ = (game, mv);
        true
    }

    /// The indices of those of `moves` that might win at once, in order, into `out` (cleared
    /// first): none where [`may_win_at_once`](Evaluator::may_win_at_once) says none, else
    /// those [`may_win_with`](Evaluator::may_win_with) lets through. A game with thousands
    /// of moves a turn overrides it to find its per-position tables once, like
    /// [`move_priors`](Evaluator::move_priors).
    fn moves_that_may_win(&self, game: &G, moves: &[G::Move], out: &mut Vec<u32>) {
        out.clear();
        if self.may_win_at_once(game) {
            out.extend(
                (0..moves.len() as u32).filter(|&i| self.may_win_with(game, moves[i as usize])),
            );
        }
    }
}

/// A game with an evaluator of its own: each game crate names it next to its rules (module
/// `eval`), so the search itself knows no game.
pub trait Evaluate: Game {
    /// The game's evaluator.
    type Evaluator: Evaluator<Self> + Default;

    /// The game's evaluator with its default weights.
    #[must_use]
    fn evaluator() -> Self::Evaluator {
        Self::Evaluator::default()
    }
}

/// Declares a game's evaluator: the struct `$eval`, holding the weights `$weights` (made by
/// [`weights!`](crate::weights!)), its [`Tunable`](crate::Tunable) built-in sets (the first is
/// the default; every one is read by the compiler), and the game's [`Evaluate`] naming it.
/// The game crate then writes `impl Evaluator<$game> for $eval`, reading its numbers from
/// `self.w`.
///
/// ```ignore
/// ply_core::evaluator!(Eval for Position, Weights, [
///     ("default", include_str!("weights.txt")),
///     ("hand", include_str!("weights-hand.txt")),
/// ]);
/// ```
#[macro_export]
macro_rules! evaluator {
    ($eval:ident for $game:ty, $weights:ty, [$(($set:literal, $text:expr)),+ $(,)?]) => {
        /// The game's evaluator: a value of its own, so search, noise and tuning take it beside
        /// the position ([`Evaluator`](ply_core::Evaluator)), holding its weights.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct $eval {
            w: $weights,
        }

        impl Default for $eval {
            fn default() -> Self {
                const SETS: &[$weights] = &[$(<$weights>::built_in($text)),+];
                $eval { w: SETS[0] }
            }
        }

        impl $crate::Evaluate for $game {
            type Evaluator = $eval;
        }

        impl $crate::Tunable<$game> for $eval {
            type Weights = $weights;
            const SETS: &'static [(&'static str, &'static str)] = &[$(($set, $text)),+];
            fn weights(&self) -> &$weights {
                &self.w
            }
            fn with_weights(w: $weights) -> Self {
                $eval { w }
            }
        }
    };
}
