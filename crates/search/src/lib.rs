//! Game-tree search over the ply game contract. It knows no game: a game brings its rules
//! ([`ply_core::Game`]) and its knowledge ([`ply_core::Evaluate`]).
//!
//! * [`AlphaBeta`]: negamax with alpha-beta pruning, iterative deepening, principal-variation
//!   search, a size-limited transposition table, move ordering (table move, killers,
//!   history, the game's priors), turns of compulsory forcing moves searched at no cost in
//!   depth, and quiescence on forcing moves. The score changes sign only
//!   when the player to move changes, so games whose turns do not alternate fit too.
//! * [`Mcts`]: Monte-Carlo tree search with PUCT selection guided by the game's priors,
//!   static evaluation at the leaves instead of random playouts, a solver that proves wins
//!   and losses, and reuse of the tree between moves.
//!
//! Both honour [`Limits`] (depth, nodes, time) and a stop flag, and are deterministic for a
//! given seed and node limit on one thread.

mod alphabeta;
pub mod analysis;
mod engine;
mod mcts;
mod ordering;
mod rng;
mod score;
pub mod spsa;
pub mod tactics;
pub mod testkit;
pub mod tune;

pub use alphabeta::AlphaBeta;
pub use engine::{
    AnyEngine, BenchSpec, Engine, EngineEntry, LevelTable, Noisy, Speed, Think, Thought,
    WeightValue,
};
pub use mcts::Mcts;
pub use rng::Rng;
pub use score::Score;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// When a search must stop. Unset limits do not apply; with none set, a search runs until the
/// stop flag is raised (alpha-beta also stops at its maximum depth).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Alpha-beta: the deepest iteration. MCTS: ignored.
    pub depth: Option<u32>,
    /// Nodes visited (alpha-beta: positions searched; MCTS: playouts).
    pub nodes: Option<u64>,
    pub time: Option<Duration>,
}

impl Limits {
    #[must_use]
    pub fn depth(depth: u32) -> Limits {
        Limits { depth: Some(depth), ..Limits::default() }
    }
    #[must_use]
    pub fn nodes(nodes: u64) -> Limits {
        Limits { nodes: Some(nodes), ..Limits::default() }
    }
    #[must_use]
    pub fn time(time: Duration) -> Limits {
        Limits { time: Some(time), ..Limits::default() }
    }
}

/// Why a search stopped, as `ply engine` reports it (`info stopped <name>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stop {
    /// Alpha-beta completed the deepest iteration it was allowed (or the deepest there is).
    Depth,
    /// The node limit was reached.
    Nodes,
    /// The time limit was reached.
    Time,
    /// The stop flag was raised (`stop`, a new command, a closed room).
    Stopped,
    /// The value of the position is proven: searching on cannot change the move.
    Proven,
    /// The tree holds as much as its memory allows and pruning it frees too little (a
    /// position with more moves than the table can list twice over).
    Memory,
    /// The game is over: there is nothing to search.
    Over,
}

impl Stop {
    /// The word of `info stopped`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Stop::Depth => "depth",
            Stop::Nodes => "nodes",
            Stop::Time => "time",
            Stop::Stopped => "stop",
            Stop::Proven => "proven",
            Stop::Memory => "memory",
            Stop::Over => "over",
        }
    }
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct SearchResult<M> {
    /// The move to play; `None` only when the game is over.
    pub best: Option<M>,
    /// The value of the position for the player to move.
    pub score: Score,
    /// The expected continuation, starting with `best`.
    pub pv: Vec<M>,
    pub nodes: u64,
    /// Alpha-beta: the last completed depth. MCTS: the depth of the principal variation.
    pub depth: u32,
    pub elapsed: Duration,
    /// Why the search stopped; `None` in a report made while it goes on.
    pub stopped: Option<Stop>,
}

/// A search algorithm over one game.
pub trait Searcher<G: ply_core::Game>: Send {
    /// Searches `game` within `limits`; returns early when `stop` becomes true.
    fn search(
        &mut self,
        game: &G,
        limits: &Limits,
        stop: &Arc<AtomicBool>,
    ) -> SearchResult<G::Move>;
    /// [`search`](Searcher::search), calling `report` with the result so far as the search
    /// deepens (alpha-beta: after every completed iteration; by default only once, at the
    /// end), for streaming analysis.
    fn search_reporting(
        &mut self,
        game: &G,
        limits: &Limits,
        stop: &Arc<AtomicBool>,
        report: &mut dyn FnMut(&SearchResult<G::Move>),
    ) -> SearchResult<G::Move> {
        let result = self.search(game, limits, stop);
        report(&result);
        result
    }
    /// Forgets everything learnt (transposition table, tree) before a new game.
    fn clear(&mut self);
}

/// The algorithms on offer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    AlphaBeta,
    Mcts,
}

impl Algorithm {
    #[must_use]
    pub fn parse(s: &str) -> Option<Algorithm> {
        match s {
            "alphabeta" | "ab" => Some(Algorithm::AlphaBeta),
            "mcts" => Some(Algorithm::Mcts),
            _ => None,
        }
    }

    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Algorithm::AlphaBeta => "alphabeta",
            Algorithm::Mcts => "mcts",
        }
    }
}
