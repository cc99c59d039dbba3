//! What the computer knows about GIPF: the reserve is the lifeline (a player who must push
//! with an empty reserve loses), so chips in reserve count most and chips on the board, which
//! a row brings back but the opponent can capture, count less; the last GIPF pieces of a
//! committed player are his life; pieces near the centre lie on long lines and take part in
//! more rows; and a push that would make a row of four is a threat: the side to move cashes
//! his in, the opponent's must be met.

use ply_core::{Evaluator, Game, LateMoveReductions, Player};

use crate::geometry::{ENTRIES, Entry, NUM_LINES};
use crate::rules::{Board, Row, completions};
use crate::rules::{Position, State};
use crate::types::{EntryPhase, GIPF_BIT, Move, NO_PUSH, Variant};

ply_core::weights! {
    /// GIPF's evaluation weights (`weights.txt`, read at build time; `ply tune gipf` fits them).
    pub struct Weights {
        /// A chip in reserve.
        tuned RESERVE: 1,
        /// A chip on the board (a row brings it back, but the opponent can capture it).
        tuned ON_BOARD: 1,
        /// Extra penalty for a nearly empty reserve, by its size (0, 1, 2, 3).
        tuned LOW_RESERVE: 4,
        /// Penalty for a committed player with only one GIPF piece left.
        tuned LAST_GIPF: 1,
        /// Penalty for a committed player with two GIPF pieces left.
        tuned TWO_GIPF: 1,
        /// A piece by its distance from the centre (0, 1, 2, 3).
        tuned CENTRALITY: 4,
        /// A push that makes a row, beyond what it captures: its chips come back to the
        /// reserve. The side to move takes his best threat; the opponent's counts two thirds
        /// against him (he may parry one).
        tuned THREAT_BASE: 1,
        /// An opponent's chip in the runs of a threatening push.
        tuned CAPTURE: 1,
        /// A threatening push whose runs hold every GIPF piece the opponent has left.
        tuned LETHAL: 1,
        /// Extra threatening entries, by their number (0, 1, 2, 3 or more); the opponent's
        /// count twice.
        tuned MORE_THREATS: 4,
        /// Own rows still standing when it is one's turn (made by the opponent's push).
        tuned STANDING_ROW: 1,
    }
}

/// Cells by distance from the centre e5.
const RINGS: [u64; 4] = {
    let mut out = [0u64; 4];
    let mut q: i32 = -3;
    while q <= 3 {
        let mut s: i32 = -3;
        while s <= 3 {
            let d = max3(q.abs(), s.abs(), (q + s).abs());
            if d <= 3 {
                out[d as usize] |= 1 << ((q + 3) * 8 + (s + 3));
            }
            s += 1;
        }
        q += 1;
    }
    out
};

const fn max3(a: i32, b: i32, c: i32) -> i32 {
    let m = if a > b { a } else { b };
    if m > c { m } else { c }
}

/// Threats of `p`: the number of entries whose push makes a row of his colour (capped at 3)
/// and the value of the best of them: the opponent's chips in the runs, and whether they hold
/// every GIPF piece the opponent has left.
fn threats(w: &Weights, state: &State, p: usize) -> (usize, i32) {
    let b = &state.board;
    if b.reserve[p] == 0 {
        return (0, 0);
    }
    let gipf = state.variant == Variant::Tournament && state.entry[p] == EntryPhase::NotStarted;
    let you = 1 - p;
    let lethal_possible = state.committed(Player::from_index(you));
    let mut n = 0;
    let mut best = 0;
    let mut rows = [Row::default(); NUM_LINES];
    let filter = RowFilter::new(b, p);
    for entry in &ENTRIES {
        if !filter.may_make_row(entry) {
            continue;
        }
        let Some(after) = b.push(p, entry, gipf) else {
            continue;
        };
        if !after.has_row(p) {
            continue;
        }
        n += 1;
        let k = after.rows(p, &mut rows);
        let runs = rows[..k].iter().fold(0, |m, r| m | r.run);
        let theirs = after.color[you];
        let mut value =
            w[Weights::THREAT_BASE] + w[Weights::CAPTURE] * chips_in(&after, theirs & runs);
        let their_gipf = theirs & after.gipf;
        if lethal_possible && their_gipf != 0 && their_gipf & !runs == 0 {
            value += w[Weights::LETHAL];
        }
        best = best.max(value);
    }
    (n.min(3), best)
}

/// Which pushes may make a row of one colour, found without pushing: those whose line meets a
/// cell where one more piece of his completes four in a line.
///
/// Without a row before the push, a row after it holds a cell the push gave that colour, and
/// every such cell is on the push's line. A row across that line meets it in that one cell,
/// and its other three pieces stood there before. A row along it also holds a cell that had
/// three of his pieces in a line of four with it before the push (the cases are in design
/// note 36; the test below makes every push). With a row already standing, every push may.
struct RowFilter {
    /// The cells where one more piece completes four.
    near: u64,
}

impl RowFilter {
    fn new(b: &Board, p: usize) -> RowFilter {
        let near = if b.has_row(p) { u64::MAX } else { completions(b.color[p]) };
        RowFilter { near }
    }

    #[inline]
    fn may_make_row(&self, entry: &Entry) -> bool {
        entry.ray_mask & self.near != 0
    }
}

fn chips_in(b: &Board, cells: u64) -> i32 {
    (cells.count_ones() + (cells & b.gipf).count_ones()) as i32
}

fn chips(b: &Board, p: usize) -> i32 {
    chips_in(b, b.color[p])
}

/// A side's standing without the threats, which depend on whose turn it is.
fn standing(w: &Weights, state: &State, p: usize) -> i32 {
    let b = &state.board;
    let reserve = i32::from(b.reserve[p]);
    let mut s = w[Weights::RESERVE] * reserve + w[Weights::ON_BOARD] * chips(b, p);
    if reserve < 4 {
        s -= w[Weights::LOW_RESERVE + reserve as usize];
    }
    let mine = b.color[p];
    for (d, ring) in RINGS.iter().enumerate() {
        s += w[Weights::CENTRALITY + d] * (mine & ring).count_ones() as i32;
    }
    if state.committed(Player::from_index(p)) {
        match (mine & b.gipf).count_ones() {
            1 => s -= w[Weights::LAST_GIPF],
            2 => s -= w[Weights::TWO_GIPF],
            _ => {}
        }
    }
    s
}

ply_core::evaluator!(Eval for Position, Weights, [
    ("default", include_str!("weights.txt")),
    ("hand", include_str!("weights-hand.txt")),
]);

impl Evaluator<Position> for Eval {
    fn evaluate(&self, position: &Position) -> i32 {
        let st = position.state();
        let me = st.to_move.index();
        let you = 1 - me;
        let w = &self.w;
        let mut v = standing(w, st, me) - standing(w, st, you);
        if st.board.has_row(me) {
            // Rows the opponent's push made: taken at the start of my turn.
            v += w[Weights::STANDING_ROW];
        } else {
            let (n, best) = threats(w, st, me);
            v += best + w[Weights::MORE_THREATS + n];
        }
        let (n, best) = threats(w, st, you);
        v -= best * 2 / 3 + w[Weights::MORE_THREATS + n] * 2;
        v
    }

    fn material(&self, position: &Position) -> i32 {
        let b = &position.state().board;
        let me = position.to_move().index();
        let own = |p: usize| i32::from(b.reserve[p]) + chips(b, p);
        100 * (own(me) - own(1 - me))
    }

    /// Fitted: `ply tune gipf --games 600 --seed 4 --passes 0` gave 2/K = 578 on
    /// 51,593 positions of level-6 self-play games (`docs/tuning.md`, "The value scale").
    fn value_scale(&self) -> f32 {
        580.0
    }

    fn move_prior(&self, position: &Position, mv: Move) -> i32 {
        let st = position.state();
        let p = st.to_move.index();
        let mut after = *st;
        if after.apply_turn(mv) {
            // The GIPF check ended the game during the turn.
            return if after.winner == Some(st.to_move) { 10_000 } else { -10_000 };
        }
        if mv.push == NO_PUSH {
            // Removals only, and no GIPF check ended the game: a reserve loss.
            return -10_000;
        }
        let b = &after.board;
        // Chips gained and taken by the turn's removals.
        let cost = 1 + i32::from(mv.push & GIPF_BIT != 0);
        let recovered = i32::from(b.reserve[p]) + cost - i32::from(st.board.reserve[p]);
        let taken = i32::from(b.captured[p] - st.board.captured[p]);
        let mut prior = 40 * recovered + 120 * taken;
        // A row handed to the opponent: he takes it first thing.
        if b.has_row(1 - p) {
            prior -= 150;
        }
        prior
    }

    fn is_forcing(&self, _: &Position, mv: Move) -> bool {
        mv.len > mv.pre
    }

    /// Measured: 68 % against the full-width search at 100 ms a move (docs/strength.md,
    /// "Late moves searched shallower"); depth 7 from the start takes a fourteenth of the
    /// nodes.
    fn late_move_reductions(&self) -> Option<LateMoveReductions> {
        Some(LateMoveReductions { after: 4, min_depth: 2 })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply_core::PositionString;
    use ply_core::testkit::random_game;

    /// The pushes `threats` passes over make no row: every push of both colours, single and
    /// GIPF, is made at every position of random games in the three variants.
    #[test]
    fn threats_pass_over_only_pushes_that_make_no_row() {
        let (mut passed_over, mut rows) = (0, 0);
        for seed in 0..24 {
            let variant = ["standard", "basic", "tournament"][seed as usize % 3];
            let start = Position::new(variant).expect("variant");
            random_game(&start, seed, 400, |position: &Position| {
                let b = &position.state().board;
                for p in 0..2 {
                    let filter = RowFilter::new(b, p);
                    for entry in &ENTRIES {
                        for gipf in [false, true] {
                            let Some(after) = b.push(p, entry, gipf) else {
                                continue;
                            };
                            if !filter.may_make_row(entry) {
                                assert!(!after.has_row(p), "{}", position.position_string());
                                passed_over += 1;
                            } else if after.has_row(p) {
                                rows += 1;
                            }
                        }
                    }
                }
            });
        }
        // Both sides of the filter were exercised.
        assert!(passed_over > 50_000 && rows > 3_000, "{passed_over} passed over, {rows} rows");
    }
}
