//! Set-ups: any arrangement of pieces ([`Setup`]), for tests, analysis and position strings,
//! checked against the rules when it becomes a [`Position`] (with the typed [`PositionError`]
//! of the contract), and the start positions.

use ply_core::{History, Player, PositionError};

use crate::geometry::Point;
use crate::rules::{Board, Position, State};
use crate::types::{EntryPhase, Piece, Variant};

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
        Ok(Position { state, history: History::new() })
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
}
