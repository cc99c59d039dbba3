//! Game analysis: the engine's view of every turn of a game (`ply analyse`, and the server's
//! analysis view). Knows no game: it works on any [`AnyEngine`].
//!
//! Each position of the game is searched once, with the same [`Think`]; the evaluation after
//! a turn is the evaluation of the next position, seen from the player who made the turn.
//! Evaluations are turned into the mover's **expected score** (0 to 100: a loss, a win),
//! `50 + 50·tanh(score / value_scale)` with the game's own value scale
//! ([`Evaluate::value_scale`](ply_core::Evaluate::value_scale)), 100 or 0 for proven results
//! and for finished games (50 for a draw). A turn's **loss** is how much of it the turn gave
//! away against the engine's preferred turn; a turn that is the preferred one loses nothing.
//! Marks: an inaccuracy from [`INACCURACY`] points of loss, a mistake from [`MISTAKE`], a
//! blunder from [`BLUNDER`] (`docs/analysis.md` gives them in each game's own units); and
//! whatever the loss, a turn that allows a forced win is a blunder, one that lets a forced
//! win go at least a mistake.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use ply_core::{AnyGame, MoveError, Outcome, Player};
use serde::Serialize;

use crate::{AnyEngine, Score, Think};

/// Expected-score loss (in points of 100) from which a turn is an inaccuracy.
pub const INACCURACY: f64 = 8.0;
/// Expected-score loss from which a turn is a mistake.
pub const MISTAKE: f64 = 15.0;
/// Expected-score loss from which a turn is a blunder.
pub const BLUNDER: f64 = 25.0;

/// How bad a turn was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Mark {
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Mark {
    /// The mark of a loss of `loss` expected-score points, if it earns one.
    #[must_use]
    pub fn of_loss(loss: f64) -> Option<Mark> {
        if loss >= BLUNDER {
            Some(Mark::Blunder)
        } else if loss >= MISTAKE {
            Some(Mark::Mistake)
        } else if loss >= INACCURACY {
            Some(Mark::Inaccuracy)
        } else {
            None
        }
    }

    /// `?!`, `?` or `??`, as chess annotates them.
    #[must_use]
    pub const fn symbol(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "?!",
            Mark::Mistake => "?",
            Mark::Blunder => "??",
        }
    }

    #[must_use]
    pub const fn word(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "inaccuracy",
            Mark::Mistake => "mistake",
            Mark::Blunder => "blunder",
        }
    }
}

/// An evaluation from one player's view.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Eval {
    /// The search score in the game's units (`+123`, `win in 3`), or the finished game's.
    pub score: String,
    /// Expected score, 0 (loss) to 100 (win).
    pub expected: f64,
    #[serde(skip)]
    pub raw: Score,
}

/// The expected score, 0 (a loss) to 1 (a win), of the player to move at a search `score`:
/// `½ + ½·tanh(score / value_scale)`, 1 and 0 for proven wins and losses.
#[must_use]
pub fn expected_score(score: Score, value_scale: f32) -> f64 {
    if score.wins_in().is_some() {
        1.0
    } else if score.loses_in().is_some() {
        0.0
    } else {
        0.5 + 0.5 * (f64::from(score.0) / f64::from(value_scale.max(1.0))).tanh()
    }
}

impl Eval {
    /// The evaluation of a search score, with the game's value scale.
    #[must_use]
    pub fn of_score(score: Score, value_scale: f32) -> Eval {
        let expected = 100.0 * expected_score(score, value_scale);
        Eval { score: score.to_string(), expected: (expected * 10.0).round() / 10.0, raw: score }
    }

    fn of_outcome(outcome: Outcome, player: Player) -> Eval {
        let (score, expected, raw) = match outcome.winner() {
            None => ("draw".to_string(), 50.0, Score(0)),
            Some(w) if w == player => ("won".to_string(), 100.0, Score::win_in(0)),
            Some(_) => ("lost".to_string(), 0.0, Score::loss_in(0)),
        };
        Eval { score, expected, raw }
    }

    /// The same evaluation from the other player's view.
    #[must_use]
    pub fn flipped(&self) -> Eval {
        let score = match self.score.as_str() {
            "won" => "lost".to_string(),
            "lost" => "won".to_string(),
            "draw" => "draw".to_string(),
            _ => Score(-self.raw.0).to_string(),
        };
        Eval { score, expected: 100.0 - self.expected, raw: Score(-self.raw.0) }
    }
}

/// The analysis of one turn.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TurnAnalysis {
    /// 1 for the first turn of the game.
    pub number: usize,
    /// Who made it.
    pub player: Player,
    /// The turn, canonical.
    pub played: String,
    /// The position before it, from the mover's view, with best play.
    pub before: Eval,
    /// The position after it, from the mover's view.
    pub after: Eval,
    /// The engine's preferred turn before it, and the line it expects.
    pub best: String,
    pub line: Vec<String>,
    /// Expected-score points given away (0 when the played turn is the preferred one).
    pub loss: f64,
    pub mark: Option<Mark>,
}

/// One player's totals.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct PlayerSummary {
    pub player: Option<Player>,
    pub turns: usize,
    pub inaccuracies: usize,
    pub mistakes: usize,
    pub blunders: usize,
    /// Mean loss per turn, expected-score points.
    pub average_loss: f64,
}

/// The analysis of a game.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Analysis {
    pub game: &'static str,
    pub variant: &'static str,
    pub turns: Vec<TurnAnalysis>,
    /// P1's then P2's.
    pub summary: [PlayerSummary; 2],
    /// `false` when it was stopped before the last turn.
    pub complete: bool,
}

/// What the caller hears as the analysis goes: after each turn is analysed.
#[derive(Clone, Copy, Debug)]
pub struct Progress<'a> {
    /// Positions searched so far and in all (turns + 1 while the game was not over at the end).
    pub done: usize,
    pub total: usize,
    /// The turn just finished, if any (the first search finishes none).
    pub turn: Option<&'a TurnAnalysis>,
}

/// A game that cannot be analysed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnalysisError {
    /// The engine is of another game than the position.
    WrongGame,
    /// A turn of the list is not legal: its 1-based number, text and why.
    IllegalTurn { number: usize, text: String, error: MoveError },
}

impl std::fmt::Display for AnalysisError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AnalysisError::WrongGame => f.write_str("the engine plays another game"),
            AnalysisError::IllegalTurn { number, text, error } => {
                write!(f, "turn {number} '{text}': {error}")
            }
        }
    }
}

impl std::error::Error for AnalysisError {}

/// The mark of a turn: by its loss, and whatever the loss, a blunder when it turns a
/// position that was not lost into a forced loss (it allows a forced win, such as a win on
/// the next turn), and at least a mistake when it lets a forced win go.
fn mark_of(before: &Eval, after: &Eval, loss: f64, preferred: bool) -> Option<Mark> {
    if preferred {
        return None;
    }
    let lost = |e: &Eval| e.raw.loses_in().is_some();
    let won = |e: &Eval| e.raw.wins_in().is_some();
    let by_loss = Mark::of_loss(loss);
    if lost(after) && !lost(before) {
        Some(Mark::Blunder)
    } else if won(before) && !won(after) {
        by_loss.max(Some(Mark::Mistake))
    } else {
        by_loss
    }
}

fn summarise(turns: &[TurnAnalysis]) -> [PlayerSummary; 2] {
    let mut out = [PlayerSummary::default(), PlayerSummary::default()];
    for (i, s) in out.iter_mut().enumerate() {
        let player = Player::from_index(i);
        s.player = Some(player);
        let mine: Vec<&TurnAnalysis> = turns.iter().filter(|t| t.player == player).collect();
        s.turns = mine.len();
        s.inaccuracies = mine.iter().filter(|t| t.mark == Some(Mark::Inaccuracy)).count();
        s.mistakes = mine.iter().filter(|t| t.mark == Some(Mark::Mistake)).count();
        s.blunders = mine.iter().filter(|t| t.mark == Some(Mark::Blunder)).count();
        s.average_loss = if mine.is_empty() {
            0.0
        } else {
            let mean = mine.iter().map(|t| t.loss).sum::<f64>() / mine.len() as f64;
            (mean * 10.0).round() / 10.0
        };
    }
    out
}

/// Analyses the turns `moves` played from `start` (any position of the engine's game, with or
/// without history), searching every position with `think`. `progress` hears of every turn
/// as soon as it is done; raising `stop` ends the analysis after the search under way (which
/// it also cuts short), with the turns finished so far and `complete: false`.
///
/// # Errors
/// [`AnalysisError`] when the engine is of another game or a turn is not legal (checked
/// before any search).
pub fn analyse(
    engine: &mut dyn AnyEngine,
    start: &dyn AnyGame,
    moves: &[String],
    think: &Think,
    stop: &Arc<AtomicBool>,
    progress: &mut dyn FnMut(Progress<'_>),
) -> Result<Analysis, AnalysisError> {
    // Check the whole game first, so a bad record costs no search.
    let mut check = start.box_clone();
    let mut canonical = Vec::with_capacity(moves.len());
    for (i, text) in moves.iter().enumerate() {
        let c = check.play(text).map_err(|error| AnalysisError::IllegalTurn {
            number: i + 1,
            text: text.clone(),
            error,
        })?;
        canonical.push(c);
    }
    if !engine.set_position(start) {
        return Err(AnalysisError::WrongGame);
    }
    let scale = engine.value_scale();
    let total = moves.len() + usize::from(check.outcome().is_none());
    let mut turns: Vec<TurnAnalysis> = Vec::new();
    // The evaluation of the current position from its mover's view, with the engine's line.
    let search = |engine: &mut dyn AnyEngine| -> Option<(Eval, String, Vec<String>)> {
        let game = engine.game();
        if let Some(outcome) = game.outcome() {
            return Some((Eval::of_outcome(outcome, game.to_move()), String::new(), Vec::new()));
        }
        let t = engine.think(think, stop)?;
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        Some((Eval::of_score(t.score, scale), t.best, t.pv))
    };
    let mut current = search(engine);
    if current.is_some() {
        progress(Progress { done: 1, total, turn: None });
    }
    for (i, played) in canonical.iter().enumerate() {
        let Some((before, best, line)) = current.take() else { break };
        let player = engine.game().to_move();
        engine.play(played).expect("checked above");
        let Some(next) = search(engine) else { break };
        // `next` is seen from the player to move there; turn it round to the mover's view.
        let after =
            if engine.game().to_move() == player { next.0.clone() } else { next.0.flipped() };
        let loss = if *played == best {
            0.0
        } else {
            ((before.expected - after.expected).max(0.0) * 10.0).round() / 10.0
        };
        let mark = mark_of(&before, &after, loss, *played == best);
        turns.push(TurnAnalysis {
            number: i + 1,
            player,
            played: played.clone(),
            before,
            after,
            best,
            line,
            loss,
            mark,
        });
        progress(Progress { done: i + 2, total, turn: turns.last() });
        current = Some(next);
    }
    let complete = turns.len() == moves.len() && !stop.load(Ordering::Relaxed);
    Ok(Analysis {
        game: start.name(),
        variant: start.variant(),
        summary: summarise(&turns),
        turns,
        complete,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expected_scores_follow_the_value_scale_and_proofs() {
        assert_eq!(expected_score(Score(0), 300.0), 0.5);
        let one_scale = expected_score(Score(300), 300.0);
        assert!((one_scale - (0.5 + 0.5 * 1f64.tanh())).abs() < 1e-12, "{one_scale}");
        assert!((expected_score(Score(-300), 300.0) - (1.0 - one_scale)).abs() < 1e-12);
        assert_eq!(expected_score(Score::win_in(5), 300.0), 1.0);
        assert_eq!(expected_score(Score::loss_in(2), 300.0), 0.0);
        // What analysis shows is the same figure in percent, to a tenth.
        assert_eq!(Eval::of_score(Score(300), 300.0).expected, 88.1);
    }
}
