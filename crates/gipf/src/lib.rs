//! GIPF: the basic, standard and tournament games, exactly as `shared/rules/gipf.md` states them.
//!
//! * [`Position`] implements [`ply_core::Game`] and [`ply_core::View`]. It is a small `Copy`
//!   [`State`] (three bitboards, reserves, captures, entry phases, side to move, result) plus
//!   a history of earlier states for `undo`.
//! * A [`Move`] is one whole turn: pre-push removals, the push, post-push removals, with the
//!   kept GIPF pieces of every removal. It is `Copy` (27 bytes).
//! * [`Setup`] builds arbitrary positions for tests and analysis.
//!
//! White is [`Player::P1`] and moves first; Black is [`Player::P2`].
//!
//! ```
//! use ply_core::{PositionError, Game, perft};
//! use ply_gipf::Position;
//!
//! let mut pos = Position::new("standard").unwrap();
//! assert_eq!(perft(&mut pos, 3), 73_800);
//! let mv = pos.parse_move("a1-b2").unwrap();
//! assert_eq!(pos.format_move(mv), "a1-b2");
//! pos.play(mv);
//! assert_eq!(pos.reserve(ply_core::Player::P1), 11);
//! ```

mod eval;
pub use eval::Eval;
mod geometry;
mod notation;
mod position_string;
mod rules;
mod text;
mod view;

use ply_core::{Game, MoveError, Outcome, Player, PositionError, VariantError, zobrist};

pub use geometry::{NUM_ENTRIES, NUM_LINES, NUM_POINTS, Point};
pub use rules::MAX_STEPS;
use rules::{Board, Generator};

/// The three variants, default first.
pub const VARIANTS: &[&str] = &["standard", "basic", "tournament"];

/// A GIPF variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    Standard,
    Basic,
    Tournament,
}

impl Variant {
    /// The variant id.
    #[must_use]
    pub const fn id(self) -> &'static str {
        match self {
            Variant::Standard => "standard",
            Variant::Basic => "basic",
            Variant::Tournament => "tournament",
        }
    }

    /// The variant with this id.
    #[must_use]
    pub fn from_id(id: &str) -> Option<Variant> {
        match id {
            "standard" => Some(Variant::Standard),
            "basic" => Some(Variant::Basic),
            "tournament" => Some(Variant::Tournament),
            _ => None,
        }
    }

    /// Chips per player: 15 in `basic`, 18 otherwise.
    #[must_use]
    pub const fn chips(self) -> u8 {
        match self {
            Variant::Basic => 15,
            _ => 18,
        }
    }
}

/// A piece on a point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub player: Player,
    /// A GIPF piece (two stacked chips) rather than a single piece.
    pub gipf: bool,
}

/// Where a player stands with the tournament entry rules T1–T4 (gipf.md 4.7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum EntryPhase {
    /// Has entered nothing yet: must enter a GIPF piece (T1). Not GIPF-committed.
    #[default]
    NotStarted,
    /// Has entered GIPF pieces only: may enter either kind (T2). GIPF-committed.
    GipfPieces,
    /// Has entered a single piece: singles only from now on (T3). GIPF-committed.
    Singles,
}

impl EntryPhase {
    const fn index(self) -> usize {
        self as usize
    }
}

/// Everything that describes a position (gipf.md section 9), plus the result and the hash.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct State {
    pub(crate) board: Board,
    pub(crate) variant: Variant,
    pub(crate) to_move: Player,
    /// Tournament entry phases; `GipfPieces` in `standard`, `NotStarted` in `basic` (unused).
    pub(crate) entry: [EntryPhase; 2],
    pub(crate) winner: Option<Player>,
    pub(crate) hash: u64,
}

/// One removal step of a turn: the line of the row, and the GIPF pieces kept, as a mask of
/// positions along the line (bit i = the line's i-th point in ascending order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub(crate) struct Step {
    pub(crate) line: u8,
    pub(crate) keep: u8,
}

/// One whole turn: pre-push removals, an optional push, post-push removals.
///
/// The removal steps are stored in a fixed array of [`MAX_STEPS`]; unused slots are zero so
/// derived equality and hashing are exact. Its meaning depends on the position it was
/// generated in (a step names a line; the run is found on the board when it is played).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// `NO_PUSH`, or the entry index (0–41) with `GIPF_BIT` set for a GIPF piece.
    pub(crate) push: u8,
    /// Number of pre-push removal steps.
    pub(crate) pre: u8,
    /// Total number of removal steps.
    pub(crate) len: u8,
    pub(crate) steps: [Step; MAX_STEPS],
}

pub(crate) const NO_PUSH: u8 = 0xFF;
pub(crate) const GIPF_BIT: u8 = 0x80;

impl Move {
    pub(crate) const EMPTY: Move =
        Move { push: NO_PUSH, pre: 0, len: 0, steps: [Step { line: 0, keep: 0 }; MAX_STEPS] };

    /// The push of the turn, as (dot, first point, GIPF piece?); `None` for a turn that ends
    /// the game during its pre-push removals.
    #[must_use]
    pub fn push(&self) -> Option<(Point, Point, bool)> {
        if self.push == NO_PUSH {
            return None;
        }
        let e = geometry::ENTRIES[(self.push & !GIPF_BIT) as usize];
        Some((
            Point::from_index(e.dot as usize)?,
            Point::from_index(e.first as usize)?,
            self.push & GIPF_BIT != 0,
        ))
    }

    /// Number of removal steps before and after the push.
    #[must_use]
    pub fn removal_counts(&self) -> (usize, usize) {
        (self.pre as usize, (self.len - self.pre) as usize)
    }

    pub(crate) fn add_step(&mut self, step: Step) {
        assert!((self.len as usize) < MAX_STEPS, "more than MAX_STEPS removals in one turn");
        self.steps[self.len as usize] = step;
        self.len += 1;
    }

    pub(crate) fn pop_step(&mut self) {
        self.len -= 1;
        self.steps[self.len as usize] = Step::default();
    }
}

/// An unvalidated position, for tests and analysis. Build it, then call
/// [`Position::from_setup`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    pub variant: Variant,
    pub pieces: Vec<(Point, Piece)>,
    /// Chips in reserve, by player.
    pub reserve: [u8; 2],
    /// Chips captured (taken from the opponent), by player.
    pub captured: [u8; 2],
    pub to_move: Player,
    /// Tournament entry phases. Ignored in `basic` and `standard`.
    pub entry: [EntryPhase; 2],
}

impl Setup {
    /// A setup from two lists of points, as the worked examples write them:
    /// `"b5(G) e2 e3(G) e4"`. Reserves and captures start at 0, White to move, both players in
    /// the [`EntryPhase::Singles`] phase.
    ///
    /// # Errors
    /// A message naming the first word that is not a point.
    pub fn from_lists(variant: Variant, white: &str, black: &str) -> Result<Setup, String> {
        let mut pieces = Vec::new();
        for (player, list) in [(Player::P1, white), (Player::P2, black)] {
            for word in list.split_whitespace() {
                let (name, gipf) = match word.strip_suffix("(G)") {
                    Some(name) => (name, true),
                    None => (word, false),
                };
                pieces.push((Point::parse(name)?, Piece { player, gipf }));
            }
        }
        Ok(Setup {
            variant,
            pieces,
            reserve: [0, 0],
            captured: [0, 0],
            to_move: Player::P1,
            entry: [EntryPhase::Singles; 2],
        })
    }
}

/// A GIPF position with its history (for `undo`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    state: State,
    history: Vec<State>,
}

impl Position {
    /// The position a [`Setup`] describes.
    ///
    /// # Errors
    /// [`PositionError`] when a piece stands on a dot or twice on one point, chip totals are not
    /// 15 (`basic`) or 18 per player (reserve + chips on the board + chips the opponent has
    /// captured), `basic` has GIPF pieces, a `standard` player has more than 3, a tournament
    /// player who has entered nothing has chips outside his reserve, or both players are
    /// GIPF-committed without a GIPF piece.
    pub fn from_setup(setup: &Setup) -> Result<Position, PositionError> {
        Position::build(setup, false)
    }

    /// [`from_setup`](Position::from_setup); with `finished`, a game already over may have
    /// both players without GIPF pieces (the mover's removals took both players' last ones):
    /// the caller sets the winner (position strings).
    pub(crate) fn build(setup: &Setup, finished: bool) -> Result<Position, PositionError> {
        let err = |s: String| Err(PositionError::Inconsistent(s));
        let variant = setup.variant;
        let mut board = Board::EMPTY;
        for &(point, piece) in &setup.pieces {
            let Some(cell) = point.cell() else {
                return Err(PositionError::BadCell {
                    field: "setup",
                    text: point.to_string(),
                    what: "interior point (pieces never stand on dots)",
                });
            };
            let bit = 1u64 << cell;
            if (board.color[0] | board.color[1]) & bit != 0 {
                return err(format!("{point} is given twice"));
            }
            board.color[piece.player.index()] |= bit;
            if piece.gipf {
                board.gipf |= bit;
            }
        }
        board.reserve = setup.reserve;
        board.captured = setup.captured;
        let entry = match variant {
            Variant::Basic => [EntryPhase::NotStarted; 2],
            Variant::Standard => [EntryPhase::GipfPieces; 2],
            Variant::Tournament => setup.entry,
        };
        for p in Player::BOTH {
            let i = p.index();
            let on_board = board.color[i].count_ones() + (board.color[i] & board.gipf).count_ones();
            let total = u32::from(board.reserve[i]) + on_board + u32::from(board.captured[1 - i]);
            if total != u32::from(variant.chips()) {
                return err(format!(
                    "{p} has {total} chips (reserve {} + {on_board} on the board + {} captured \
                     by the opponent); {} has {} per player",
                    board.reserve[i],
                    board.captured[1 - i],
                    variant.id(),
                    variant.chips()
                ));
            }
            let gipf = (board.color[i] & board.gipf).count_ones();
            match variant {
                Variant::Basic if gipf > 0 => {
                    return err("basic has no GIPF pieces".to_string());
                }
                Variant::Standard if gipf > 3 => {
                    return err(format!("{p} has {gipf} GIPF pieces; standard has 3 per player"));
                }
                Variant::Tournament
                    if entry[i] == EntryPhase::NotStarted && board.reserve[i] != 18 =>
                {
                    return err(format!(
                        "{p} has entered nothing yet, so all 18 chips must be in his reserve"
                    ));
                }
                _ => {}
            }
        }
        let mut state =
            State { board, variant, to_move: setup.to_move, entry, winner: None, hash: 0 };
        let lost: Vec<Player> = Player::BOTH
            .into_iter()
            .filter(|&p| state.committed(p) && board.color[p.index()] & board.gipf == 0)
            .collect();
        match lost.as_slice() {
            [] => state.settle(),
            [p] => state.winner = Some(p.other()),
            _ if finished => {}
            _ => return err("both players are without GIPF pieces".to_string()),
        }
        state.hash = state.compute_hash();
        Ok(Position { state, history: Vec::new() })
    }

    /// The start position of `variant`.
    #[must_use]
    pub fn start(variant: Variant) -> Position {
        let (white, black) = match variant {
            Variant::Basic => ("b5 e2 h5", "b2 e8 h2"),
            Variant::Standard => ("b5(G) e2(G) h5(G)", "b2(G) e8(G) h2(G)"),
            Variant::Tournament => ("", ""),
        };
        let mut setup = Setup::from_lists(variant, white, black).expect("valid start lists");
        let reserve = if variant == Variant::Tournament { 18 } else { 12 };
        setup.reserve = [reserve, reserve];
        setup.entry = [EntryPhase::NotStarted; 2];
        Position::from_setup(&setup).expect("valid start position")
    }

    /// The typed variant.
    #[must_use]
    pub fn variant_kind(&self) -> Variant {
        self.state.variant
    }

    /// The piece on a point, if any.
    #[must_use]
    pub fn piece_at(&self, point: Point) -> Option<Piece> {
        self.state.board.piece_at(point)
    }

    /// Chips in a player's reserve.
    #[must_use]
    pub fn reserve(&self, player: Player) -> u8 {
        self.state.board.reserve[player.index()]
    }

    /// Chips a player has captured from the opponent.
    #[must_use]
    pub fn captured(&self, player: Player) -> u8 {
        self.state.board.captured[player.index()]
    }

    /// Chips of a player's colour on the board (a GIPF piece counts two).
    #[must_use]
    pub fn chips_on_board(&self, player: Player) -> u8 {
        let b = &self.state.board;
        let c = b.color[player.index()];
        (c.count_ones() + (c & b.gipf).count_ones()) as u8
    }

    /// A player's tournament entry phase.
    #[must_use]
    pub fn entry_phase(&self, player: Player) -> EntryPhase {
        self.state.entry[player.index()]
    }

    /// The current state (board, reserves, side to move, result).
    #[must_use]
    pub fn state(&self) -> &State {
        &self.state
    }
}

// Zobrist keys: 4 piece kinds × 64 cells, reserves and captures 0..=18 per player, entry
// phases, side to move, winner.
const PIECE_KEYS: [u64; 256] = zobrist::keys::<256>(0x6769_7066_0001);
const COUNT_KEYS: [u64; 4 * 19] = zobrist::keys::<76>(0x6769_7066_0002);
const MISC_KEYS: [u64; 9] = zobrist::keys::<9>(0x6769_7066_0003);

impl State {
    /// Whether `p` is GIPF-committed (gipf.md D7).
    #[inline]
    pub(crate) fn committed(&self, p: Player) -> bool {
        match self.variant {
            Variant::Basic => false,
            Variant::Standard => true,
            Variant::Tournament => self.entry[p.index()] != EntryPhase::NotStarted,
        }
    }

    /// Sets the result when the player to move has an empty reserve and no row (gipf.md 6.2).
    fn settle(&mut self) {
        let p = self.to_move;
        if self.winner.is_none()
            && self.board.reserve[p.index()] == 0
            && !self.board.has_row(p.index())
        {
            self.winner = Some(p.other());
        }
    }

    fn piece_hash(board: &Board) -> [u64; 4] {
        [
            board.color[0] & !board.gipf,
            board.color[0] & board.gipf,
            board.color[1] & !board.gipf,
            board.color[1] & board.gipf,
        ]
    }

    fn misc_hash(&self) -> u64 {
        let b = &self.board;
        let mut h = 0;
        for i in 0..2 {
            h ^= COUNT_KEYS[i * 19 + b.reserve[i] as usize];
            h ^= COUNT_KEYS[38 + i * 19 + b.captured[i] as usize];
            h ^= MISC_KEYS[i * 3 + self.entry[i].index()];
        }
        if self.to_move == Player::P2 {
            h ^= MISC_KEYS[6];
        }
        if let Some(w) = self.winner {
            h ^= MISC_KEYS[7 + w.index()];
        }
        h
    }

    fn compute_hash(&self) -> u64 {
        let mut h = self.misc_hash();
        for (kind, mut bits) in State::piece_hash(&self.board).into_iter().enumerate() {
            while bits != 0 {
                h ^= PIECE_KEYS[kind * 64 + bits.trailing_zeros() as usize];
                bits &= bits - 1;
            }
        }
        h
    }

    /// Plays a turn generated in this state.
    fn apply(&mut self, mv: Move) {
        let before = *self;
        let p = self.to_move;
        let ended = self.apply_turn(mv);
        if !ended && mv.push == NO_PUSH {
            // A turn of removals only that did not end by the GIPF check: reserve loss (6.2).
            self.winner = Some(p.other());
        }
        self.to_move = p.other();
        self.settle();
        // Incremental hash: only the changed cells and counters.
        let mut h = before.hash ^ before.misc_hash() ^ self.misc_hash();
        let old = State::piece_hash(&before.board);
        let new = State::piece_hash(&self.board);
        for kind in 0..4 {
            let mut bits = old[kind] ^ new[kind];
            while bits != 0 {
                h ^= PIECE_KEYS[kind * 64 + bits.trailing_zeros() as usize];
                bits &= bits - 1;
            }
        }
        self.hash = h;
    }

    /// Applies the steps and the push of `mv`; returns `true` when the GIPF check ended the
    /// game (the winner is then set and the rest of the turn is not played).
    pub(crate) fn apply_turn(&mut self, mv: Move) -> bool {
        let p = self.to_move.index();
        for i in 0..mv.len as usize {
            if i == mv.pre as usize {
                self.apply_push(mv.push);
            }
            let step = mv.steps[i];
            let run = self.board.run_on_line(p, step.line as usize);
            let keep = rules::keep_cells(step.line as usize, step.keep);
            if self.remove(p, run, keep) {
                return true;
            }
        }
        if mv.pre == mv.len {
            self.apply_push(mv.push);
        }
        false
    }

    fn apply_push(&mut self, push: u8) {
        if push == NO_PUSH {
            return;
        }
        let p = self.to_move.index();
        let gipf = push & GIPF_BIT != 0;
        let entry = &geometry::ENTRIES[(push & !GIPF_BIT) as usize];
        self.board = self.board.push(p, entry, gipf).expect("legal push");
        self.enter(p, gipf);
    }

    /// Tournament entry phase after entering a piece (T1–T3).
    #[inline]
    pub(crate) fn enter(&mut self, p: usize, gipf: bool) {
        if self.variant == Variant::Tournament {
            self.entry[p] = if gipf { EntryPhase::GipfPieces } else { EntryPhase::Singles };
        }
    }
}

impl Game for Position {
    type Move = Move;
    const NAME: &'static str = "gipf";
    const DISPLAY_NAME: &'static str = "GIPF";
    // gipf.md §6: every game ends with a winner.
    const HAS_DRAWS: bool = false;

    fn variants() -> &'static [&'static str] {
        VARIANTS
    }

    fn new(variant: &str) -> Result<Self, VariantError> {
        Variant::from_id(variant).map(Position::start).ok_or_else(|| VariantError {
            game: Self::NAME,
            given: variant.to_string(),
            known: VARIANTS,
        })
    }

    fn variant(&self) -> &'static str {
        self.state.variant.id()
    }

    fn to_move(&self) -> Player {
        self.state.to_move
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.state.winner.is_some() {
            return;
        }
        Generator::new(&self.state, out).run();
    }

    fn play(&mut self, mv: Move) {
        self.history.push(self.state);
        self.state.apply(mv);
    }

    fn undo(&mut self) {
        self.state = self.history.pop().expect("undo without a turn played");
    }

    fn turns_played(&self) -> usize {
        self.history.len()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.state.winner.map(Outcome::Win)
    }

    fn hash(&self) -> u64 {
        self.state.hash
    }

    fn compute_hash(&self) -> u64 {
        self.state.compute_hash()
    }

    fn format_move(&self, mv: Move) -> String {
        notation::tokens(&self.state, mv).join(",")
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        notation::parse(self, text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_is_small() {
        assert_eq!(std::mem::size_of::<Move>(), 3 + 2 * MAX_STEPS);
    }
}
