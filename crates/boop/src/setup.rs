//! Set-ups: any arrangement of pieces ([`Setup`]), for tests, examples and position strings,
//! checked against the rules' invariants when it becomes a position ([`Boop::from_setup`],
//! with the typed [`PositionError`] of the contract).

use ply_core::{ByPlayer, Player, PositionError};

use crate::geometry::{Cell, Segment, Travel};
use crate::rules::{Boop, State, compute_hash};
use crate::types::{GhostOnBed, Kind, Piece, Pool, Variant, label};

/// An unvalidated position, for tests, examples and analysis: any arrangement of pieces.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    pub variant: Variant,
    pub cells: [Option<Piece>; 36],
    pub pools: ByPlayer<Pool>,
    pub ghosts: ByPlayer<Option<GhostOnBed>>,
    pub to_move: Player,
}

impl Setup {
    /// An empty bed with every piece in the pools: the set-up of [S1]–[S3].
    #[must_use]
    pub fn start(variant: Variant) -> Setup {
        let pool = Pool { kittens: 8, cats: 0 };
        Setup {
            variant,
            cells: [None; 36],
            pools: ByPlayer::new(pool, pool),
            ghosts: ByPlayer::new(None, None),
            to_move: Player::P1,
        }
    }

    /// Reads a diagram like those of the rules reference: six rows, row 6 first, of six
    /// symbols `.` `x` `X` `o` `O` separated by optional spaces; row labels and a column-letter
    /// line are ignored. Pools, ghosts and the player to move are set separately.
    ///
    /// # Errors
    /// A message saying which row is malformed.
    pub fn with_diagram(mut self, diagram: &str) -> Result<Setup, String> {
        let rows: Vec<Vec<char>> = diagram
            .lines()
            .map(|l| {
                l.chars()
                    .filter(|c| matches!(c, '.' | 'x' | 'X' | 'o' | 'O'))
                    .collect::<Vec<char>>()
            })
            .filter(|r| !r.is_empty())
            .collect();
        if rows.len() != 6 {
            return Err(format!("a diagram has 6 rows, found {}", rows.len()));
        }
        for (i, row) in rows.iter().enumerate() {
            if row.len() != 6 {
                return Err(format!("row {} has {} cells, expected 6", 6 - i, row.len()));
            }
            for (col, ch) in row.iter().enumerate() {
                let cell = Cell::new(col as i8, 5 - i as i8).expect("on bed");
                self.cells[cell.index()] = piece_from_char(*ch);
            }
        }
        Ok(self)
    }

    /// Puts pieces on cells given as `"x b5 c3, o d3 e3"`: a symbol then its cells.
    ///
    /// # Errors
    /// A message naming the bad cell or symbol.
    pub fn with_pieces(mut self, spec: &str) -> Result<Setup, String> {
        let mut current: Option<Piece> = None;
        for word in spec.split(|c: char| c.is_whitespace() || c == ',' || c == ';') {
            if word.is_empty() {
                continue;
            }
            if word.len() == 1 {
                let ch = word.chars().next().unwrap_or('?');
                current = piece_from_char(ch);
                if current.is_none() {
                    return Err(format!("unknown piece symbol '{word}'"));
                }
            } else {
                let cell = Cell::parse(word.as_bytes())
                    .ok_or_else(|| format!("'{word}' is not a cell"))?;
                let piece = current.ok_or_else(|| format!("no piece symbol before {word}"))?;
                self.cells[cell.index()] = Some(piece);
            }
        }
        Ok(self)
    }

    /// Sets both pools; `None` derives a pool of kittens that makes the player's total 8
    /// (with the cats he has on the bed counted as his only cats).
    #[must_use]
    pub fn with_pools(mut self, p1: Option<Pool>, p2: Option<Pool>) -> Setup {
        for (player, pool) in [(Player::P1, p1), (Player::P2, p2)] {
            self.pools[player] = pool.unwrap_or_else(|| {
                let on_bed = self.cells.iter().flatten().filter(|p| p.player == player).count();
                Pool { kittens: 8u8.saturating_sub(on_bed as u8), cats: 0 }
            });
        }
        self
    }

    /// Puts `player`'s ghost on a segment (`"b3c3"`, cells in either order) with a direction.
    ///
    /// # Errors
    /// A message when the text is not a segment between two side-by-side cells.
    pub fn with_ghost(
        mut self,
        player: Player,
        segment: &str,
        travel: Travel,
    ) -> Result<Setup, String> {
        let cells = segment.as_bytes();
        let seg = (cells.len() == 4)
            .then(|| Cell::parse(&cells[..2]).zip(Cell::parse(&cells[2..])))
            .flatten()
            .and_then(|(a, b)| Segment::between(a, b))
            .ok_or_else(|| {
                format!("'{segment}' is not a segment between two side-by-side cells")
            })?;
        self.ghosts[player] = Some(GhostOnBed { segment: seg, travel });
        Ok(self)
    }

    #[must_use]
    pub fn with_to_move(mut self, player: Player) -> Setup {
        self.to_move = player;
        self
    }
}

fn piece_from_char(ch: char) -> Option<Piece> {
    let (player, kind) = match ch {
        'x' => (Player::P1, Kind::Kitten),
        'X' => (Player::P1, Kind::Cat),
        'o' => (Player::P2, Kind::Kitten),
        'O' => (Player::P2, Kind::Cat),
        _ => return None,
    };
    Some(Piece { player, kind })
}

impl Boop {
    /// The start of `variant`.
    #[must_use]
    pub fn start(variant: Variant) -> Boop {
        Boop::from_setup(&Setup::start(variant)).expect("the start is valid")
    }

    /// A position from a set-up, checked against the rules' invariants: 8 pieces per player
    /// on the bed and in the pool ([K1]), at least one of them in each pool ([T3]: the
    /// all-eight graduation leaves one there after every turn that does not win), ghosts only
    /// in `boooop`, on distinct segments. The set-up position counts as the first position
    /// for [E3]. If the player who moved last already has a winning arrangement, that is not
    /// checked (as in play, [W2]).
    ///
    /// # Errors
    /// [`PositionError`] saying what is inconsistent.
    pub fn from_setup(setup: &Setup) -> Result<Boop, PositionError> {
        Boop::from_setup_of(setup, false)
    }

    /// [`Boop::from_setup`] for a position whose game is over when `finished`: the player who
    /// moved last may then have won with all 8 pieces on the bed (8 cats, [W1]), so only the
    /// player to move must hold a piece in his pool.
    pub(crate) fn from_setup_of(setup: &Setup, finished: bool) -> Result<Boop, PositionError> {
        let mut pieces = [[0u64; 2]; 2];
        for cell in Cell::all() {
            if let Some(p) = setup.cells[cell.index()] {
                pieces[p.player.index()][p.kind.index()] |= cell.bit();
            }
        }
        for player in Player::BOTH {
            let on_bed = (pieces[player.index()][0] | pieces[player.index()][1]).count_ones();
            let pool = setup.pools[player];
            let total = on_bed + pool.kittens as u32 + pool.cats as u32;
            if total != 8 {
                return Err(PositionError::Inconsistent(format!(
                    "{player} has {total} pieces on the bed and in the pool; the rules keep exactly 8 [K1]"
                )));
            }
            let must_hold = player == setup.to_move || !finished;
            if must_hold && pool.kittens == 0 && pool.cats == 0 {
                return Err(PositionError::Inconsistent(format!(
                    "{player} has all 8 pieces on the bed in a game that goes on; every turn that \
                     does not win leaves one in the pool [R2] [T3]"
                )));
            }
        }
        if setup.variant == Variant::Boop
            && (setup.ghosts[Player::P1].is_some() || setup.ghosts[Player::P2].is_some())
        {
            return Err(PositionError::Inconsistent(
                "ghosts exist only in the boooop variant".into(),
            ));
        }
        if let (Some(a), Some(b)) = (setup.ghosts[Player::P1], setup.ghosts[Player::P2])
            && a.segment == b.segment
        {
            return Err(PositionError::Inconsistent(format!(
                "both ghosts are on {} [G1]",
                a.segment
            )));
        }
        let mut state = State {
            pieces,
            pools: setup.pools,
            ghosts: setup.ghosts,
            to_move: setup.to_move,
            hash: 0,
            labels: [0; 36],
            kittens_alive: [0; 2],
        };
        assign(&mut state);
        state.hash = compute_hash(&state);
        Ok(Boop::from_state(setup.variant, state))
    }
}

/// Gives every piece of a set-up position a label: kittens on the bed take the lowest
/// numbers in ascending cell order, then those in the pool; the same for cats.
pub(crate) fn assign(state: &mut State) {
    for player in Player::BOTH {
        let kittens_on_bed = state.pieces[player.index()][0];
        let kittens = kittens_on_bed.count_ones() + state.pools[player].kittens as u32;
        state.kittens_alive[player.index()] = ((1u16 << kittens) - 1) as u8;
        for kind in [Kind::Kitten, Kind::Cat] {
            for (number, cell) in
                Cell::in_mask(state.pieces[player.index()][kind.index()]).enumerate()
            {
                state.labels[cell.index()] = label(player, kind, number as u8);
            }
        }
    }
}
