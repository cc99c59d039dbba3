//! The object-safe engine the command line, the server and the protocol use: a game plus
//! its searchers, with moves as notation strings. Levels 1–10 and reproducible noise live here.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use ply_core::{
    AnyGame, DynGame, Evaluate, Evaluator, Game, MoveError, PositionString, Tunable, VariantError,
    View, Weights,
};

use crate::{Algorithm, AlphaBeta, Limits, Mcts, Rng, Score, SearchResult, Searcher, Stop};

/// How to think about one move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Think {
    pub algorithm: Algorithm,
    pub limits: Limits,
    /// Amplitude of the evaluation noise that weakens low levels, in evaluation units (0:
    /// none). Added to `noise_scale` times the game's value scale.
    pub noise: i32,
    /// Noise amplitude as a multiple of the game's [`Evaluator::value_scale`].
    pub noise_scale: f32,
    pub seed: u64,
    pub threads: usize,
    /// Transposition table or tree memory, MiB.
    pub hash_mb: usize,
    /// Evaluate by material alone (the naive baseline of benchmarks).
    pub material_only: bool,
    /// How much worse than an even position a draw counts for the engine, in evaluation
    /// units (alpha-beta; see [`AlphaBeta::with_contempt`]).
    pub contempt: i32,
    /// Where the rules draw no repeated position (GIPF), score a position the game
    /// has already seen as a draw all the same (alpha-beta; see
    /// [`AlphaBeta::with_no_progress`]).
    pub no_progress: bool,
}

/// What levels 1–9 are for one game: each level's share of a second's worth of nodes, and
/// its evaluation noise in the game's value scales (so 1.0 is a likely win's worth of noise).
/// Level 10 is one second a move without noise in every game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LevelTable {
    pub share: [f64; 9],
    pub noise: [f64; 9],
}

impl LevelTable {
    /// The table of a game that does not give its own: each level about 2.5 times the nodes
    /// of the one below and less noise.
    pub const STANDARD: LevelTable = LevelTable {
        share: [0.000_1, 0.000_3, 0.000_8, 0.002, 0.006, 0.015, 0.04, 0.1, 0.3],
        noise: [3.0, 2.0, 1.3, 0.8, 0.5, 0.3, 0.15, 0.05, 0.0],
    };
}

impl Think {
    /// The settings of level 1 (a beginner who plays legally and sometimes sensibly) to 10
    /// (the strongest, about one second a move), for a game searched with `algorithm` at
    /// about `nodes_per_second` (measured per game, see [`Speed`]), by the
    /// [`LevelTable::STANDARD`]. Levels 1–9 are limited by nodes, not time, so games
    /// between them are reproducible.
    ///
    /// # Panics
    /// If `level` is not within 1–10.
    #[must_use]
    pub fn level(level: u8, algorithm: Algorithm, nodes_per_second: u64) -> Think {
        Think::level_of(&LevelTable::STANDARD, level, algorithm, nodes_per_second)
    }

    /// The settings of a level by a game's own `table` (see [`Think::level`]).
    ///
    /// # Panics
    /// If `level` is not within 1–10.
    #[must_use]
    pub fn level_of(
        table: &LevelTable,
        level: u8,
        algorithm: Algorithm,
        nodes_per_second: u64,
    ) -> Think {
        assert!((1..=10).contains(&level), "levels are 1 to 10");
        let (limits, noise) = if level == 10 {
            (Limits::time(Duration::from_millis(1000)), 0.0)
        } else {
            let i = usize::from(level - 1);
            let nodes = ((nodes_per_second as f64 * table.share[i]).round() as u64).max(8);
            (Limits::nodes(nodes), table.noise[i])
        };
        Think {
            algorithm,
            limits,
            noise: 0,
            noise_scale: noise as f32,
            seed: 0,
            threads: 1,
            // Small budgets need small tables (and a table is zeroed when it is made).
            hash_mb: match level {
                1..=6 => 4,
                7..=9 => 32,
                _ => 64,
            },
            material_only: false,
            contempt: 0,
            // Measured level in strength, and it ends GIPF's endless cycles
            // (docs/strength.md, "GIPF: no progress").
            no_progress: true,
        }
    }

    /// A plain fixed-depth alpha-beta over material alone: the kind of robot that exists
    /// for these games today, as a yardstick. Depth 0 leaves the depth open (for a time limit).
    #[must_use]
    pub fn baseline(depth: u32) -> Think {
        Think {
            algorithm: Algorithm::AlphaBeta,
            limits: if depth == 0 { Limits::default() } else { Limits::depth(depth) },
            noise: 0,
            noise_scale: 0.0,
            seed: 0,
            threads: 1,
            hash_mb: 64,
            material_only: true,
            contempt: 0,
            no_progress: false,
        }
    }
}

/// What an engine decided, in notation.
#[derive(Clone, Debug)]
pub struct Thought {
    pub best: String,
    pub score: Score,
    pub pv: Vec<String>,
    pub nodes: u64,
    pub depth: u32,
    pub elapsed: Duration,
    /// Why the search stopped; `None` in a report made while it goes on.
    pub stopped: Option<Stop>,
}

/// A game with its computer player, behind one object-safe interface.
pub trait AnyEngine: Send {
    fn game(&self) -> &dyn AnyGame;
    /// Takes `game`'s position and history as its own, keeping what it learnt (its table or
    /// tree) for the next search: no turn is replayed. `false` when `game` is another game.
    fn set_position(&mut self, game: &dyn AnyGame) -> bool;
    /// Bytes of memory its searchers hold (tables and trees).
    fn memory_bytes(&self) -> usize;
    /// Plays a turn given in notation.
    ///
    /// # Errors
    /// As [`AnyGame::play`].
    fn play(&mut self, text: &str) -> Result<String, MoveError>;
    fn undo(&mut self) -> bool;
    /// Searches the current position; `None` when the game is over.
    fn think(&mut self, think: &Think, stop: &Arc<AtomicBool>) -> Option<Thought>;
    /// [`think`](AnyEngine::think), calling `report` with the result so far as the search
    /// deepens (alpha-beta: after every completed iteration; MCTS: once, at the end). The
    /// search stops early when `stop` is raised, and still returns its best turn so far.
    fn think_reporting(
        &mut self,
        think: &Think,
        stop: &Arc<AtomicBool>,
        report: &mut dyn FnMut(&Thought),
    ) -> Option<Thought> {
        let thought = self.think(think, stop);
        if let Some(t) = &thought {
            report(t);
        }
        thought
    }
    /// A uniformly random legal turn, in notation.
    fn random_move(&self, rng: &mut Rng) -> Option<String>;
    /// The algorithm that plays this game best (measured; `docs/strength.md`).
    fn preferred_algorithm(&self) -> Algorithm;
    /// The game's [`Evaluator::value_scale`]: a score difference that means about "three
    /// times as likely to win as to lose".
    fn value_scale(&self) -> f32 {
        400.0
    }
    /// Whether the search would take the current position's static evaluation, that is, no
    /// forcing move is compulsory in it ([`Evaluator::must_force`]; a ZÈRTZ jump on the board
    /// is searched on instead). `ply tune` labels and fits only such positions.
    fn quiet(&self) -> bool;
    /// The same game from its start, without history.
    fn restart(&mut self);
    /// Evaluates with the built-in weight set `name` (`default`, …) or the weights file at
    /// path `name` from now on (`ply match --a-weights`, `ply tune`).
    ///
    /// # Errors
    /// A file that cannot be read or is not a weights file of this game.
    fn set_weights(&mut self, name: &str) -> Result<(), String>;
    /// The weights it evaluates with, as a weights file.
    fn weights_text(&self) -> String;
    /// Every value of the weights it evaluates with, in the file's order.
    fn weight_values(&self) -> Vec<WeightValue>;
    /// Evaluates with `values` (one for each of [`weight_values`](AnyEngine::weight_values),
    /// in its order) from now on (`ply tune --spsa`).
    ///
    /// # Errors
    /// A count that is not the weights' count.
    fn set_weight_values(&mut self, values: &[i32]) -> Result<(), String>;
}

/// One value of an evaluator's weights.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeightValue {
    /// Its group's name, with its place in the group if the group holds more (`UNSAFE[3]`).
    pub name: String,
    pub value: i32,
    /// Whether `ply tune` may change it (a `fixed` group holds a convention).
    pub tuned: bool,
}

/// An evaluator wrapped so that its evaluation carries reproducible noise: the same position
/// and seed always get the same noise, so a weakened search is still deterministic. With
/// `material_only` it counts material alone (the benchmarks' naive baseline).
#[derive(Clone, Debug, PartialEq)]
pub struct Noisy<E> {
    pub eval: E,
    pub amplitude: i32,
    pub seed: u64,
    /// Use [`Evaluator::material`] instead of the full evaluation.
    pub material_only: bool,
}

impl<E> Noisy<E> {
    /// `eval` without noise.
    pub fn new(eval: E) -> Self {
        Noisy { eval, amplitude: 0, seed: 0, material_only: false }
    }
}

impl<G: Game, E: Evaluator<G>> Evaluator<G> for Noisy<E> {
    fn evaluate(&self, game: &G) -> i32 {
        let base =
            if self.material_only { self.eval.material(game) } else { self.eval.evaluate(game) };
        if self.amplitude == 0 {
            return base;
        }
        let r = Rng::new(game.hash() ^ self.seed).next_u64();
        let unit = (r >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0;
        base + (unit * f64::from(self.amplitude)) as i32
    }
    fn material(&self, game: &G) -> i32 {
        self.eval.material(game)
    }
    fn value_scale(&self) -> f32 {
        self.eval.value_scale()
    }
    fn move_prior(&self, game: &G, mv: G::Move) -> i32 {
        self.eval.move_prior(game, mv)
    }
    fn move_priors(&self, game: &G, moves: &[G::Move], out: &mut Vec<i32>) {
        self.eval.move_priors(game, moves, out);
    }
    fn is_forcing(&self, game: &G, mv: G::Move) -> bool {
        self.eval.is_forcing(game, mv)
    }
    fn may_force(&self, game: &G) -> bool {
        self.eval.may_force(game)
    }
    fn must_force(&self, game: &G) -> bool {
        self.eval.must_force(game)
    }
    /// The game's own, except for the material-only baselines, which stay the plain search
    /// they are named for.
    fn late_move_reductions(&self) -> Option<ply_core::LateMoveReductions> {
        if self.material_only { None } else { self.eval.late_move_reductions() }
    }
    /// The game's bound, widened by the noise a leaf may carry; none for the material-only
    /// baselines, which stay the plain search they are named for.
    fn quiet_bound(&self, game: &G) -> Option<i32> {
        if self.material_only {
            return None;
        }
        self.eval.quiet_bound(game).map(|b| b.saturating_add(self.amplitude.abs()))
    }
    fn is_quiet(&self, game: &G, mv: G::Move) -> bool {
        self.eval.is_quiet(game, mv)
    }
    fn quiet_may_repeat(&self, game: &G, mv: G::Move) -> bool {
        self.eval.quiet_may_repeat(game, mv)
    }
    fn may_win_at_once(&self, game: &G) -> bool {
        self.eval.may_win_at_once(game)
    }
    fn may_win_with(&self, game: &G, mv: G::Move) -> bool {
        self.eval.may_win_with(game, mv)
    }
    fn moves_that_may_win(&self, game: &G, moves: &[G::Move], out: &mut Vec<u32>) {
        self.eval.moves_that_may_win(game, moves, out);
    }
}

/// The evaluator an engine's searchers use: the game's own, with the level's noise.
type EngineEval<G> = Noisy<<G as Evaluate>::Evaluator>;

/// The [`AnyEngine`] of a typed game.
pub struct Engine<G: Evaluate> {
    game: DynGame<G>,
    eval: G::Evaluator,
    /// The weights changed since the last search: tables and trees hold stale values.
    weights_changed: bool,
    preferred: Algorithm,
    alphabeta: Option<(Think, AlphaBeta<G, EngineEval<G>>)>,
    mcts: Option<(Think, Mcts<G, EngineEval<G>>)>,
}

impl<G: Game + Evaluate + View + PositionString> Engine<G> {
    #[must_use]
    pub fn new(game: G, preferred: Algorithm) -> Engine<G> {
        Engine {
            game: DynGame::new(game),
            eval: G::evaluator(),
            weights_changed: false,
            preferred,
            alphabeta: None,
            mcts: None,
        }
    }
}

fn to_text<G: Game>(game: &G, r: &SearchResult<G::Move>) -> Option<Thought> {
    let best = r.best?;
    let mut g = game.clone();
    let mut pv = Vec::new();
    for &mv in &r.pv {
        pv.push(g.format_move(mv));
        g.play(mv);
    }
    Some(Thought {
        best: game.format_move(best),
        score: r.score,
        pv,
        nodes: r.nodes,
        depth: r.depth,
        elapsed: r.elapsed,
        stopped: r.stopped,
    })
}

/// Whether a cached searcher was built with settings that still fit.
fn same_setup(a: &Think, b: &Think) -> bool {
    a.threads == b.threads
        && a.hash_mb == b.hash_mb
        && a.seed == b.seed
        && a.material_only == b.material_only
}

impl<G: Game + Evaluate + View + PositionString> AnyEngine for Engine<G>
where
    G::Evaluator: Tunable<G>,
{
    fn game(&self) -> &dyn AnyGame {
        &self.game
    }
    fn set_position(&mut self, game: &dyn AnyGame) -> bool {
        match game.as_any().downcast_ref::<DynGame<G>>() {
            Some(same) => {
                self.game.clone_from(same);
                true
            }
            None => false,
        }
    }
    fn memory_bytes(&self) -> usize {
        self.alphabeta.as_ref().map_or(0, |(_, s)| s.table_bytes())
            + self.mcts.as_ref().map_or(0, |(_, s)| s.tree_bytes())
    }
    fn play(&mut self, text: &str) -> Result<String, MoveError> {
        self.game.play(text)
    }
    fn undo(&mut self) -> bool {
        self.game.undo()
    }
    fn think(&mut self, think: &Think, stop: &Arc<AtomicBool>) -> Option<Thought> {
        self.think_reporting(think, stop, &mut |_| {})
    }
    fn think_reporting(
        &mut self,
        think: &Think,
        stop: &Arc<AtomicBool>,
        report: &mut dyn FnMut(&Thought),
    ) -> Option<Thought> {
        let position = self.game.game().clone();
        let mut report = |r: &SearchResult<G::Move>| {
            if let Some(t) = to_text(&position, r) {
                report(&t);
            }
        };
        let eval = self.eval.clone();
        let amplitude = think.noise + (think.noise_scale * eval.value_scale()).round() as i32;
        let think = &Think { noise: amplitude, noise_scale: 0.0, ..*think };
        let game = self.game.game();
        let weights_changed = std::mem::take(&mut self.weights_changed);
        let noisy = Noisy { eval, amplitude, seed: think.seed, material_only: think.material_only };
        let result = match think.algorithm {
            Algorithm::AlphaBeta => {
                if !self.alphabeta.as_ref().is_some_and(|(t, _)| same_setup(t, think)) {
                    self.alphabeta = Some((
                        *think,
                        AlphaBeta::with_evaluator(noisy.clone(), think.hash_mb, think.threads)
                            .with_seed(think.seed),
                    ));
                }
                let (t, searcher) = self.alphabeta.as_mut().expect("just built");
                if t.noise != think.noise
                    || t.contempt != think.contempt
                    || t.no_progress != think.no_progress
                    || weights_changed
                {
                    // Noise, contempt, no progress and weights change the values stored in
                    // the table.
                    searcher.clear();
                    t.noise = think.noise;
                    t.contempt = think.contempt;
                    t.no_progress = think.no_progress;
                }
                searcher.set_contempt(think.contempt);
                searcher.set_no_progress(think.no_progress);
                searcher.set_evaluator(noisy);
                searcher.search_reporting(game, &think.limits, stop, &mut report)
            }
            Algorithm::Mcts => {
                if !self.mcts.as_ref().is_some_and(|(t, _)| same_setup(t, think)) {
                    self.mcts = Some((
                        *think,
                        Mcts::with_evaluator(noisy.clone(), think.hash_mb, think.threads),
                    ));
                }
                let (t, searcher) = self.mcts.as_mut().expect("just built");
                if t.noise != think.noise || weights_changed {
                    searcher.clear();
                    t.noise = think.noise;
                }
                searcher.set_evaluator(noisy);
                searcher.search_reporting(game, &think.limits, stop, &mut report)
            }
        };
        to_text(self.game.game(), &result)
    }
    fn random_move(&self, rng: &mut Rng) -> Option<String> {
        let mut moves = Vec::new();
        self.game.game().legal_moves(&mut moves);
        if moves.is_empty() {
            return None;
        }
        let mv = moves[rng.below(moves.len())];
        Some(self.game.game().format_move(mv))
    }
    fn preferred_algorithm(&self) -> Algorithm {
        self.preferred
    }
    fn value_scale(&self) -> f32 {
        self.eval.value_scale()
    }
    fn quiet(&self) -> bool {
        !self.eval.must_force(self.game.game())
    }
    fn restart(&mut self) {
        while self.game.undo() {}
        if let Some((_, s)) = &mut self.alphabeta {
            s.clear();
        }
        if let Some((_, s)) = &mut self.mcts {
            s.clear();
        }
    }
    fn set_weights(&mut self, name: &str) -> Result<(), String> {
        let eval = G::Evaluator::from_set_or_file(name)?;
        if eval.weights() != self.eval.weights() {
            self.eval = eval;
            self.weights_changed = true;
        }
        Ok(())
    }
    fn weights_text(&self) -> String {
        self.eval.weights().to_text("")
    }
    fn weight_values(&self) -> Vec<WeightValue> {
        type W<G> = <<G as Evaluate>::Evaluator as Tunable<G>>::Weights;
        let tuned = W::<G>::tuned_indices();
        self.eval
            .weights()
            .values()
            .iter()
            .enumerate()
            .map(|(i, &value)| WeightValue {
                name: W::<G>::value_name(i),
                value,
                tuned: tuned.contains(&i),
            })
            .collect()
    }
    fn set_weight_values(&mut self, values: &[i32]) -> Result<(), String> {
        let mut weights = *self.eval.weights();
        let count = weights.values().len();
        if values.len() != count {
            return Err(format!("{} values given; the weights hold {count}", values.len()));
        }
        weights.values_mut().copy_from_slice(values);
        if &weights != self.eval.weights() {
            self.eval = G::Evaluator::with_weights(weights);
            self.weights_changed = true;
        }
        Ok(())
    }
}

/// The fixed work of `ply bench` for one game: chosen so each part takes about a second.
#[derive(Clone, Copy, Debug)]
pub struct BenchSpec {
    /// Perft depth from the start of the default variant.
    pub perft_depth: u32,
    /// Alpha-beta depth from the start.
    pub search_depth: u32,
    /// MCTS playouts from the start.
    pub mcts_nodes: u64,
    /// Depths of the fixed-depth material-only baseline of the strength report.
    pub baseline_depth: u32,
}

/// Measured search speed of a game on the project's machines (one core, release build),
/// which turns levels into node budgets.
#[derive(Clone, Copy, Debug)]
pub struct Speed {
    pub alphabeta_nps: u64,
    pub mcts_nps: u64,
}

impl Speed {
    #[must_use]
    pub fn of(&self, algorithm: Algorithm) -> u64 {
        match algorithm {
            Algorithm::AlphaBeta => self.alphabeta_nps,
            Algorithm::Mcts => self.mcts_nps,
        }
    }
}

/// How to make an engine for one game; the registry of engines lists one per game.
#[derive(Clone, Copy)]
pub struct EngineEntry {
    pub name: &'static str,
    pub preferred: Algorithm,
    pub speed: Speed,
    /// What levels 1–9 are for this game ([`LevelTable::STANDARD`] unless
    /// [`with_levels`](EngineEntry::with_levels) says otherwise).
    pub levels: LevelTable,
    pub bench: BenchSpec,
    constructor: Constructor,
    /// Fits the game's evaluation weights ([`crate::tune`]).
    pub tune: crate::tune::Tuner,
}

type Constructor = fn(&str, Algorithm) -> Result<Box<dyn AnyEngine>, VariantError>;

fn construct<G: Game + Evaluate + View + PositionString>(
    variant: &str,
    preferred: Algorithm,
) -> Result<Box<dyn AnyEngine>, VariantError>
where
    G::Evaluator: Tunable<G>,
{
    Ok(Box::new(Engine::new(G::new(variant)?, preferred)))
}

impl EngineEntry {
    #[must_use]
    pub fn of<G: Game + Evaluate + View + PositionString>(
        preferred: Algorithm,
        speed: Speed,
        bench: BenchSpec,
    ) -> EngineEntry
    where
        G::Evaluator: Tunable<G>,
    {
        EngineEntry {
            name: G::NAME,
            preferred,
            speed,
            levels: LevelTable::STANDARD,
            bench,
            constructor: construct::<G>,
            tune: crate::tune::tune::<G>,
        }
    }

    /// The entry with the game's own table of levels.
    #[must_use]
    pub fn with_levels(self, levels: LevelTable) -> EngineEntry {
        EngineEntry { levels, ..self }
    }

    /// The settings of a level for this game with its preferred algorithm, or `algorithm`.
    #[must_use]
    pub fn level(&self, level: u8, algorithm: Option<Algorithm>) -> Think {
        let algorithm = algorithm.unwrap_or(self.preferred);
        Think::level_of(&self.levels, level, algorithm, self.speed.of(algorithm))
    }

    /// A new game of `variant` with its engine.
    ///
    /// # Errors
    /// [`VariantError`] for an unknown variant.
    pub fn new_engine(&self, variant: &str) -> Result<Box<dyn AnyEngine>, VariantError> {
        (self.constructor)(variant, self.preferred)
    }
}
