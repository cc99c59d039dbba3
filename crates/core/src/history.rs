//! The undo stack of a position: [`History`], and [`state_history_methods!`], the [`Game`]
//! methods of a position kept as a `Copy` state and its history.
//!
//! [`Game`]: crate::Game

/// The states a position went through before its current one, the oldest first.
///
/// Every game keeps its position as a small `Copy` state that a turn changes in place:
/// [`Game::play`](crate::Game::play) pushes the state it is about to change,
/// [`Game::undo`](crate::Game::undo) pops it back, and the repetition rules count in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct History<S>(Vec<S>);

impl<S> Default for History<S> {
    fn default() -> Self {
        History::new()
    }
}

impl<S> History<S> {
    /// No turn played yet.
    #[must_use]
    pub const fn new() -> Self {
        History(Vec::new())
    }

    /// Keeps `state`, the position before the turn being played.
    pub fn push(&mut self, state: S) {
        self.0.push(state);
    }

    /// Takes back the state before the last turn.
    ///
    /// # Panics
    /// When no turn has been played: "undo without a turn played".
    pub fn pop(&mut self) -> S {
        self.0.pop().expect("undo without a turn played")
    }

    /// How many turns were played: the number of states kept.
    #[must_use]
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether no turn was played.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The state before the last turn, if a turn was played.
    #[must_use]
    pub fn last(&self) -> Option<&S> {
        self.0.last()
    }

    /// How many earlier states `same` picks: the count of a repetition rule.
    #[must_use]
    pub fn count(&self, same: impl Fn(&S) -> bool) -> usize {
        self.0.iter().filter(|s| same(s)).count()
    }
}

/// The [`Game`](crate::Game) methods of a position kept the usual way: a small `Copy` state in
/// a field `state` (with the fields `to_move` and `hash`, the hash kept incrementally by the
/// rules) and the [`History`] of earlier states in a field `history`, which `play` pushes the
/// old state to. Written inside `impl Game for …`, it gives `to_move`, `undo`,
/// `turns_played` and `hash`:
///
/// ```ignore
/// impl Game for Position {
///     // … the game's own methods …
///     ply_core::state_history_methods!();
/// }
/// ```
#[macro_export]
macro_rules! state_history_methods {
    () => {
        fn to_move(&self) -> $crate::Player {
            self.state.to_move
        }

        fn undo(&mut self) {
            self.state = self.history.pop();
        }

        fn turns_played(&self) -> usize {
            self.history.len()
        }

        fn hash(&self) -> u64 {
            self.state.hash
        }
    };
}
