//! Solved positions: forced wins within a few turns, kept as data (`tests/data/tactics-*.txt`)
//! so every change to the search is checked against them, as chess engines are against their
//! mate suites.
//!
//! A suite line is `<position string> | <plies> | <source>`: the player to move forces a win
//! in exactly `plies` plies (1: a turn that wins at once; 3: a turn after which every reply
//! leaves him a turn that wins), and no sooner. [`wins_within`] is the oracle: a plain
//! exhaustive search over win or not, with no evaluation, no table and no pruning but the
//! obvious "stop at the first win" and "stop at the first refutation", written apart from the
//! engine's search so the two check each other. Its one aid is the order in which it tries the
//! mover's turns (the last winning one first), which makes 5- and 7-ply proofs take seconds
//! rather than hours and changes no answer (`crates/games/tests/tactics.rs` compares it with
//! the same search in list order).

use ply_core::{Game, Outcome};

/// One solved position of a suite.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tactic {
    pub position: String,
    /// The length of the shortest forced win, in plies (odd).
    pub plies: u32,
    /// Where the position comes from (a record and its turn).
    pub source: String,
}

impl Tactic {
    /// Reads a suite line; `None` for a blank line or a `#` comment.
    ///
    /// # Errors
    /// A message naming what is wrong with the line.
    pub fn parse(line: &str) -> Result<Option<Tactic>, String> {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return Ok(None);
        }
        let fields: Vec<&str> = line.split(" | ").collect();
        let [position, plies, source] = fields[..] else {
            return Err(format!("'{line}': want '<position> | <plies> | <source>'"));
        };
        let plies: u32 =
            plies.trim().parse().map_err(|_| format!("'{plies}' is not a number of plies"))?;
        if plies.is_multiple_of(2) {
            return Err(format!("{plies} plies: a win by the player to move takes an odd number"));
        }
        Ok(Some(Tactic { position: position.into(), plies, source: source.trim().into() }))
    }

    /// The line [`parse`](Tactic::parse) reads.
    #[must_use]
    pub fn line(&self) -> String {
        format!("{} | {} | {}", self.position, self.plies, self.source)
    }
}

/// Whether the player to move forces a win within `plies` plies. Exhaustive: use it on small
/// depths only (every turn of the mover, every reply, down to `plies`).
pub fn wins_within<G: Game>(game: &mut G, plies: u32) -> bool {
    Oracle::new(plies).wins_within(game, plies)
}

/// Whether playing `mv` forces a win for the player to move within `plies` plies.
pub fn wins_with<G: Game>(game: &mut G, mv: G::Move, plies: u32) -> bool {
    Oracle::new(plies).wins_with(game, mv, plies)
}

/// The exhaustive search behind [`wins_within`] and [`wins_with`]. Its one aid is the order
/// of the mover's turns: the turn that last won with the same number of plies left is tried
/// first (a killer move). Most replies to a winning turn leave the same win standing, so a
/// reply is usually refuted by the first turn tried rather than by the one-in-a-hundred found
/// by going down the list. The order changes how soon an answer comes, never the answer.
struct Oracle<M> {
    /// By plies left: the turn that won last.
    killers: Vec<Option<M>>,
}

impl<M: Copy + Eq> Oracle<M> {
    fn new(plies: u32) -> Oracle<M> {
        Oracle { killers: vec![None; plies as usize + 1] }
    }

    fn wins_within<G: Game<Move = M>>(&mut self, game: &mut G, plies: u32) -> bool {
        if plies == 0 || game.outcome().is_some() {
            return false;
        }
        let p = plies as usize;
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        if let Some(first) = self.killers[p].and_then(|k| moves.iter().position(|&m| m == k)) {
            moves.swap(0, first);
        }
        let won = moves.iter().copied().find(|&mv| self.wins_with(game, mv, plies));
        if won.is_some() {
            self.killers[p] = won;
        }
        won.is_some()
    }

    fn wins_with<G: Game<Move = M>>(&mut self, game: &mut G, mv: M, plies: u32) -> bool {
        if plies == 0 {
            return false;
        }
        let mover = game.to_move();
        game.play(mv);
        let won = match game.outcome() {
            Some(outcome) => outcome == Outcome::Win(mover),
            None if game.to_move() == mover => self.wins_within(game, plies - 1),
            None if plies < 3 => false,
            None => {
                let mut replies = Vec::new();
                game.legal_moves(&mut replies);
                replies.iter().all(|&reply| {
                    game.play(reply);
                    let still = match game.outcome() {
                        Some(outcome) => outcome == Outcome::Win(mover),
                        None => self.wins_within(game, plies - 2),
                    };
                    game.undo();
                    still
                })
            }
        };
        game.undo();
        won
    }
}

/// The shortest forced win of the player to move, in plies, if there is one within `max`.
pub fn shortest_win<G: Game>(game: &mut G, max: u32) -> Option<u32> {
    (1..=max).step_by(2).find(|&plies| wins_within(game, plies))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suite_lines_read_back_and_bad_ones_say_why() {
        let t = Tactic::parse("boop;boop;6/6/6/6/6/6;8,0;8,0;-;-;P1;* | 3 | a game turn 5")
            .unwrap()
            .unwrap();
        assert_eq!((t.plies, t.source.as_str()), (3, "a game turn 5"));
        assert_eq!(Tactic::parse(&t.line()).unwrap(), Some(t));
        assert_eq!(Tactic::parse("  # a comment").unwrap(), None);
        assert!(Tactic::parse("x | 2 | y").unwrap_err().contains("odd"));
        assert!(Tactic::parse("x | two | y").unwrap_err().contains("not a number"));
        assert!(Tactic::parse("x | 1").unwrap_err().contains("want"));
    }
}
