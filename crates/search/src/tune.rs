//! Texel tuning: fits an evaluator's [`Weights`] to positions labelled with the results of
//! the games they came from (Peter Österlund's method for the chess engine Texel).
//!
//! A position's predicted score for the side to move is `σ(K · evaluation)`; the error of a
//! weight set is the mean squared difference between that prediction and the result (1 a
//! win, ½ a draw, 0 a loss). `K` is fitted first, to the starting weights, and then held, so
//! the weights keep their scale. The weights are then changed one at a time by a step, kept
//! where the error falls, with the step halved where neither direction helps, until no step
//! of one unit helps or the passes run out. A step that helped doubles for the next pass,
//! so a weight far from its best value gets there in a few passes. The evaluator is a black box: its numbers may
//! enter it in any way, through maxima and integer divisions alike.
//!
//! Positions of one game in ten (by the game's number) are held out: their error, which the
//! fit never sees, says whether the new weights generalise or only learnt the training games.

use std::sync::atomic::{AtomicBool, Ordering};

use ply_core::{Evaluate, Evaluator, Game, PositionString, Tunable, Weights};

/// One labelled position: a position string, the game it came from, and that game's result
/// for the side to move in it.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    pub position: String,
    pub game: usize,
    /// 1 the side to move won, 0.5 a draw, 0 he lost.
    pub result: f64,
}

/// How to fit.
#[derive(Clone, Debug)]
pub struct TuneSettings {
    /// The weights to start from: a built-in set's name or a weights file.
    pub start: String,
    /// Passes over all the tuned weights, at most.
    pub passes: usize,
    /// Threads evaluating the positions.
    pub threads: usize,
    /// Values left at their starting value: a group's name (`TEMPO`, all of `UNSAFE`) or one
    /// value of it (`UNSAFE[3]`), as the report names them.
    pub hold: Vec<String>,
}

/// What a fit did.
#[derive(Clone, Debug)]
pub struct TuneReport {
    /// Positions fitted on, and held out.
    pub training: usize,
    pub held_out: usize,
    /// Positions skipped: the game is over in them.
    pub skipped: usize,
    /// Positions left out because a forcing move is compulsory in them
    /// ([`must_force`](Evaluator::must_force)): the search never evaluates such a position
    /// (it searches on), so the weights are fitted to the quiet ones it does evaluate.
    pub forced: usize,
    /// The fitted scale: a score of `1 / K` evaluation units means odds of e : 1.
    pub k: f64,
    /// The starting evaluator's [`value_scale`](Evaluator::value_scale), which should be
    /// about `2 / K`: both describe the same curve.
    pub value_scale: f32,
    /// Mean squared errors with the starting weights and with the fitted ones.
    pub training_before: f64,
    pub training_after: f64,
    pub held_out_before: f64,
    pub held_out_after: f64,
    /// Passes made, and whether they stopped because no step of one unit helped.
    pub passes: usize,
    pub converged: bool,
    /// Every tuned value: its name, the starting and the fitted value.
    pub changes: Vec<(String, i32, i32)>,
    /// The fitted weights as a weights file (without a header comment).
    pub weights: String,
}

/// Progress of a fit, for a progress display.
#[derive(Clone, Copy, Debug)]
pub enum TuneProgress {
    /// Fitting `K`.
    Scale,
    /// Pass `pass` (from 1), after `step` of `steps` weight changes tried, at `error`.
    Pass { pass: usize, step: usize, steps: usize, error: f64 },
}

/// Why a fit could not be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TuneError {
    /// The starting weights: neither a built-in set nor a readable weights file of the game.
    Start(String),
    /// A value to hold that is no tuned value; `known` lists the tuned ones.
    Hold { name: String, known: Vec<String> },
    /// Sample `number` (from 1) is not a position of the game.
    Sample { number: usize, error: String },
    /// Every sample is of a finished game or has a compulsory forcing move (or there are none).
    NoPositions,
}

impl std::fmt::Display for TuneError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TuneError::Start(e) => write!(f, "{e}"),
            TuneError::Hold { name, known } => {
                write!(f, "--hold {name}: no tuned value of that name ({})", known.join(", "))
            }
            TuneError::Sample { number, error } => write!(f, "sample {number}: {error}"),
            TuneError::NoPositions => write!(
                f,
                "no position to fit: every sample is of a finished game or has a compulsory \
                 forcing move"
            ),
        }
    }
}

impl std::error::Error for TuneError {}

/// A fitting job that can fail on its input. Its settings are checked before its samples, so
/// a call with no samples checks the settings alone (`NoPositions` when they are sound).
pub type Tuner = fn(
    &[Sample],
    &TuneSettings,
    &mut dyn FnMut(TuneProgress),
    &AtomicBool,
) -> Result<TuneReport, TuneError>;

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Evaluations of `positions` by `eval`, on `threads` threads.
fn evaluations<G: Game, E: Evaluator<G>>(eval: &E, positions: &[G], threads: usize) -> Vec<i32> {
    let threads = threads.max(1);
    let chunk = positions.len().div_ceil(threads).max(1);
    let mut out = vec![0; positions.len()];
    std::thread::scope(|scope| {
        for (ps, os) in positions.chunks(chunk).zip(out.chunks_mut(chunk)) {
            scope.spawn(move || {
                for (p, o) in ps.iter().zip(os) {
                    *o = eval.evaluate(p);
                }
            });
        }
    });
    out
}

fn mean_error(evals: &[i32], results: &[f64], k: f64) -> f64 {
    if evals.is_empty() {
        return 0.0;
    }
    let sum: f64 = evals
        .iter()
        .zip(results)
        .map(|(&e, &r)| {
            let d = r - sigmoid(k * f64::from(e));
            d * d
        })
        .sum();
    sum / evals.len() as f64
}

/// The `K` that best fits `evals` to `results`: a golden-section search over log K, the
/// error being unimodal in it.
fn fit_scale(evals: &[i32], results: &[f64]) -> f64 {
    let error = |log_k: f64| mean_error(evals, results, log_k.exp());
    let (mut lo, mut hi) = ((1e-5f64).ln(), (1.0f64).ln());
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let mut a = hi - ratio * (hi - lo);
    let mut b = lo + ratio * (hi - lo);
    let (mut fa, mut fb) = (error(a), error(b));
    for _ in 0..60 {
        if fa < fb {
            hi = b;
            b = a;
            fb = fa;
            a = hi - ratio * (hi - lo);
            fa = error(a);
        } else {
            lo = a;
            a = b;
            fa = fb;
            b = lo + ratio * (hi - lo);
            fb = error(b);
        }
    }
    ((lo + hi) / 2.0).exp()
}

/// The indices of the values to fit: the tuned ones but those `settings` holds.
fn without_held<W: Weights>(settings: &TuneSettings) -> Result<Vec<usize>, TuneError> {
    let tuned: Vec<(usize, String)> =
        W::tuned_indices().into_iter().map(|i| (i, W::value_name(i))).collect();
    unheld(&tuned, &settings.hold)
}

/// The indices of `tuned` (each with its value's name) that no name of `hold` holds: a
/// group's name holds all of it (`UNSAFE`), a value's name (`UNSAFE[3]`) that one.
///
/// # Errors
/// A name of `hold` that names no value of `tuned`.
pub fn unheld(tuned: &[(usize, String)], hold: &[String]) -> Result<Vec<usize>, TuneError> {
    let holds = |h: &str, name: &str| h == name || h == name.split('[').next().unwrap_or(name);
    for h in hold {
        if !tuned.iter().any(|(_, name)| holds(h, name)) {
            let known = tuned.iter().map(|(_, name)| name.clone()).collect();
            return Err(TuneError::Hold { name: h.clone(), known });
        }
    }
    Ok(tuned
        .iter()
        .filter(|(_, name)| !hold.iter().any(|h| holds(h, name)))
        .map(|&(i, _)| i)
        .collect())
}

/// Fits the weights of `G`'s evaluator to `samples` ([module docs](self)). `stop` ends the
/// fit after the weight change under way, with the best weights so far.
///
/// # Errors
/// A sample that is not a position of `G`, a starting set that cannot be read, or no
/// position left to fit.
pub fn tune<G>(
    samples: &[Sample],
    settings: &TuneSettings,
    progress: &mut dyn FnMut(TuneProgress),
    stop: &AtomicBool,
) -> Result<TuneReport, TuneError>
where
    G: Evaluate + PositionString,
    G::Evaluator: Tunable<G>,
{
    let start = G::Evaluator::from_set_or_file(&settings.start).map_err(TuneError::Start)?;
    let tuned = without_held::<<G::Evaluator as Tunable<G>>::Weights>(settings)?;
    let mut training = (Vec::new(), Vec::new());
    let mut held_out = (Vec::new(), Vec::new());
    let (mut skipped, mut forced) = (0, 0);
    for (i, s) in samples.iter().enumerate() {
        let position = G::from_position_string(&s.position)
            .map_err(|e| TuneError::Sample { number: i + 1, error: e.to_string() })?;
        if position.outcome().is_some() {
            skipped += 1;
            continue;
        }
        if start.must_force(&position) {
            forced += 1;
            continue;
        }
        let set = if s.game % 10 == 9 { &mut held_out } else { &mut training };
        set.0.push(position);
        set.1.push(s.result);
    }
    if training.0.is_empty() {
        return Err(TuneError::NoPositions);
    }
    let threads = settings.threads;
    progress(TuneProgress::Scale);
    let k = fit_scale(&evaluations(&start, &training.0, threads), &training.1);
    let error_of = |eval: &G::Evaluator, set: &(Vec<G>, Vec<f64>)| {
        mean_error(&evaluations(eval, &set.0, threads), &set.1, k)
    };
    let training_before = error_of(&start, &training);
    let held_out_before = error_of(&start, &held_out);

    let mut weights = *start.weights();
    let mut steps: Vec<i32> =
        tuned.iter().map(|&i| (weights.values()[i].abs() / 8).max(1)).collect();
    let mut best = training_before;
    let mut passes = 0;
    let mut converged = false;
    'passes: while passes < settings.passes {
        passes += 1;
        let mut improved = false;
        for (n, &i) in tuned.iter().enumerate() {
            progress(TuneProgress::Pass { pass: passes, step: n, steps: tuned.len(), error: best });
            if stop.load(Ordering::Relaxed) {
                break 'passes;
            }
            let mut moved = false;
            for delta in [steps[n], -steps[n]] {
                let mut trial = weights;
                trial.values_mut()[i] += delta;
                let e = error_of(&G::Evaluator::with_weights(trial), &training);
                if e < best {
                    best = e;
                    weights = trial;
                    moved = true;
                    break;
                }
            }
            if moved {
                // A weight far from its best value gets there in a few passes.
                steps[n] = steps[n].saturating_mul(2);
                improved = true;
            } else if steps[n] > 1 {
                steps[n] /= 2;
                improved = true;
            }
        }
        if !improved {
            converged = true;
            break;
        }
    }
    let fitted = G::Evaluator::with_weights(weights);
    let held_out_after = error_of(&fitted, &held_out);
    let changes = tuned
        .iter()
        .map(|&i| {
            let name = <G::Evaluator as Tunable<G>>::Weights::value_name(i);
            (name, start.weights().values()[i], weights.values()[i])
        })
        .collect();
    Ok(TuneReport {
        training: training.0.len(),
        held_out: held_out.0.len(),
        skipped,
        forced,
        k,
        value_scale: start.value_scale(),
        training_before,
        training_after: best,
        held_out_before,
        held_out_after,
        passes,
        converged,
        changes,
        weights: weights.to_text(""),
    })
}
