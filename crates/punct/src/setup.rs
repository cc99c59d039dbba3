//! Set-ups: pieces written as in the worked examples ([`Setup`]), for tests, analysis and
//! position strings, checked against the landing rules when they become a [`Position`] (with
//! the typed [`PositionError`] of the contract), and the empty start.

use ply_core::{History, Outcome, Player, PositionError};

use crate::geometry::{Kind, NONE, Orient, Point, SHAPES};
use crate::rules::{Lift, Piece, Position, SIDE_KEY, State};
use crate::types::Variant;

/// A position to build for tests and analysis; validated by [`Position::from_setup`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Setup {
    /// The pieces on the board, in any order. Supplies are what is not on the board.
    pub pieces: Vec<SetupPiece>,
    /// The mover; White ([`Player::P1`]) by default.
    pub to_move: Option<Player>,
}

/// One piece of a [`Setup`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SetupPiece {
    pub owner: Player,
    pub kind: Kind,
    pub punct: Point,
    pub plain: [Point; 2],
    pub level: u8,
}

impl Setup {
    /// Reads pieces written as in the worked examples of §8, separated by `;`:
    /// `W E i3:i4,i5 L1; B T i8:i9,j9 L1`. The level may be left out for level 1.
    ///
    /// # Errors
    /// [`PositionError`] naming the piece that cannot be read.
    pub fn parse(text: &str, to_move: Player) -> Result<Setup, PositionError> {
        let mut pieces = Vec::new();
        for item in text.split(';').map(str::trim).filter(|s| !s.is_empty()) {
            let bad = || PositionError::BadPiece {
                field: "setup",
                text: item.to_string(),
                expected: "owner, kind, point and orientation",
            };
            let words: Vec<&str> = item.split_whitespace().collect();
            if words.len() != 3 && words.len() != 4 {
                return Err(bad());
            }
            let owner = match words[0] {
                "W" => Player::P1,
                "B" => Player::P2,
                _ => return Err(bad()),
            };
            let mut letters = words[1].chars();
            let kind = letters.next().and_then(Kind::from_letter).ok_or_else(bad)?;
            if letters.next().is_some() {
                return Err(bad());
            }
            let (punct, plain) = words[2].split_once(':').ok_or_else(bad)?;
            let (a, b) = plain.split_once(',').ok_or_else(bad)?;
            let cell = |s: &str| Point::parse(s).ok_or_else(bad);
            let level = match words.get(3) {
                None => 1,
                Some(w) => w.strip_prefix('L').and_then(|l| l.parse().ok()).ok_or_else(bad)?,
            };
            pieces.push(SetupPiece {
                owner,
                kind,
                punct: cell(punct)?,
                plain: [cell(a)?, cell(b)?],
                level,
            });
        }
        Ok(Setup { pieces, to_move: Some(to_move) })
    }
}

/// The orientation of `kind` with PÜNCT dot on `q` and plain dots `{a, b}`, if any.
pub(crate) fn find_orient(kind: Kind, q: Point, a: Point, b: Point) -> Option<Orient> {
    kind.orients().map(Orient).find(|&o| {
        let [x, y] = SHAPES[q.index()][o.index()];
        x != NONE
            && ((x as usize == a.index() && y as usize == b.index())
                || (x as usize == b.index() && y as usize == a.index()))
    })
}

impl Position {
    /// The empty board of `variant`, White to move.
    #[must_use]
    pub fn new_game(variant: Variant) -> Position {
        Position { state: State::empty(), variant, history: History::new() }
    }

    /// Builds a position from pieces. Every piece must be a shape of its kind, rest by the
    /// landing rule on the pieces below it ([L1]–[L5]) at the level given, and the counts must
    /// fit in 18 per player. Nobody may already have a connection.
    ///
    /// # Errors
    /// [`PositionError`] saying which piece is wrong.
    pub fn from_setup(setup: &Setup, variant: Variant) -> Result<Position, PositionError> {
        Position::build(setup, variant, None)
    }

    /// [`from_setup`](Position::from_setup), or with `over` a finished game with that
    /// outcome, where connections are allowed (position strings).
    pub(crate) fn build(
        setup: &Setup,
        variant: Variant,
        over: Option<Outcome>,
    ) -> Result<Position, PositionError> {
        let mut st = State::empty();
        let mut order: Vec<&SetupPiece> = setup.pieces.iter().collect();
        order.sort_by_key(|p| p.level);
        for sp in order {
            let name = format!(
                "{} {} {}:{},{} L{}",
                if sp.owner == Player::P1 { 'W' } else { 'B' },
                sp.kind.letter(),
                sp.punct,
                sp.plain[0],
                sp.plain[1],
                sp.level
            );
            let err = |why: &str| Err(PositionError::Inconsistent(format!("{name}: {why}")));
            let Some(orient) = find_orient(sp.kind, sp.punct, sp.plain[0], sp.plain[1]) else {
                return err("not a shape of this kind");
            };
            let pl = sp.owner.index();
            let k = sp.kind.index();
            if st.supply[pl][k] == 0 {
                return err("more pieces of this kind than a player owns");
            }
            // Land it as if shifted by its owner, with nothing lifted.
            st.to_move = sp.owner;
            let lift = Lift { pts: [NONE; 3], under_h: [0; 3], under_top: [NONE; 3] };
            let [a, b] = SHAPES[sp.punct.index()][orient.index()];
            let level = match st.land(&lift, sp.punct.index() as u8, orient.0, a, b) {
                Ok(l) => l,
                Err(e) => return err(&e.message()),
            };
            if level != sp.level {
                return err(&format!("it would rest at level {level}"));
            }
            st.set_supply(pl, k, st.supply[pl][k] - 1);
            let i = st.n;
            st.pieces[i as usize] =
                Piece { owner: pl as u8, orient: orient.0, at: sp.punct.index() as u8, level };
            st.n += 1;
            st.put(i);
        }
        let to_move = setup.to_move.unwrap_or(Player::P1);
        if st.to_move != to_move {
            st.hash ^= SIDE_KEY;
        }
        st.to_move = to_move;
        // Normalise the side key: the loop above toggled `to_move` without the hash.
        st.hash = st.compute_hash();
        let vis = st.visible();
        if over.is_none() && (State::connected(&vis, 0) || State::connected(&vis, 1)) {
            return Err(PositionError::Inconsistent("a player already has a connection".into()));
        }
        st.outcome = over;
        Ok(Position { state: st, variant, history: History::new() })
    }
}
