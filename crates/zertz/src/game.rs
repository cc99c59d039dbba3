//! The contract: [`Game`] for [`Position`], joining the rules (module `rules`) and the
//! notation (module `notation`) behind the one interface search, records and the server use.

use ply_core::{Game, MoveError, Outcome, VariantError};

use crate::geometry::{Bits, NONE};
use crate::notation;
use crate::rules::{Position, hash_of};
use crate::types::{Colour, Move, VARIANTS, Variant};

impl Game for Position {
    type Move = Move;
    const NAME: &'static str = "zertz";
    const DISPLAY_NAME: &'static str = "ZÈRTZ";
    const REPETITION_DRAWS: bool = true;
    const LEGALITY_WITHOUT_LISTING: bool = true;

    fn variants() -> &'static [&'static str] {
        VARIANTS
    }

    fn new(variant: &str) -> Result<Self, VariantError> {
        Variant::from_id(variant)
            .map(Position::start)
            .ok_or_else(|| VariantError::of::<Self>(variant))
    }

    fn variant(&self) -> &'static str {
        self.variant.id()
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.state.outcome.is_some() {
            return;
        }
        self.gen_captures(out);
        if !out.is_empty() {
            return;
        }
        let vacant = self.state.vacant();
        let free = self.free_rings();
        let nfree = free.count_ones() as usize;
        let per_colour = vacant.count_ones() as usize * nfree.max(1);
        for (k, ok) in self.placeable().into_iter().enumerate() {
            if !ok {
                continue;
            }
            out.reserve(per_colour);
            let colour = Colour::ALL[k];
            for v in Bits(vacant) {
                let rest = free & !(1u64 << v);
                if rest == 0 {
                    out.push(Move::Place { colour, ring: v, remove: NONE });
                } else {
                    for r in Bits(rest) {
                        out.push(Move::Place { colour, ring: v, remove: r });
                    }
                }
            }
        }
    }

    fn play(&mut self, mv: Move) {
        self.history.push(self.state);
        let p = self.state.to_move.index();
        match mv {
            Move::Place { colour, ring, remove } => {
                let c = colour.index();
                if self.pool_empty() {
                    let n = self.state.captures[p][c] - 1;
                    self.set_cap(p, c, n);
                } else {
                    let n = self.state.pool[c] - 1;
                    self.set_pool(c, n);
                }
                self.toggle_marble(c, ring);
                if remove != NONE {
                    self.remove_ring(remove);
                }
            }
            Move::Capture { start, len, dirs } => {
                let nb = &self.layout.nb;
                let jumper = self.state.colour_at(start).map_or(0, Colour::index);
                let mut at = start;
                for k in 0..len {
                    let d = Move::jump_direction(dirs, k);
                    let b = nb[at as usize][d];
                    let c = nb[b as usize][d];
                    let taken = self.state.colour_at(b).map_or(0, Colour::index);
                    self.toggle_marble(taken, b);
                    let n = self.state.captures[p][taken] + 1;
                    self.set_cap(p, taken, n);
                    self.toggle_marble(jumper, at);
                    self.toggle_marble(jumper, c);
                    at = c;
                }
            }
        }
        self.end_turn();
    }

    fn outcome(&self) -> Option<Outcome> {
        self.state.outcome
    }

    fn compute_hash(&self) -> u64 {
        hash_of(&self.state)
    }

    fn format_move(&self, mv: Move) -> String {
        notation::format(self.layout, mv)
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        notation::parse(self, text)
    }

    /// A placement, told by the rules the generator applies to one; never a capture: while
    /// a marble can jump a capture is compulsory and no placement is legal, so this tells
    /// every legal move or none.
    fn legal_without_listing(&self, mv: Move) -> bool {
        let Move::Place { colour, ring, remove } = mv else { return false };
        if self.state.outcome.is_some()
            || self.state.vacant() & (1u64 << ring) == 0
            || !self.placeable()[colour.index()]
            || self.has_jump()
        {
            return false;
        }
        // A free ring other than the one just filled goes, if there is one.
        let rest = self.free_rings() & !(1u64 << ring);
        if rest == 0 { remove == NONE } else { remove < 64 && rest & (1u64 << remove) != 0 }
    }

    ply_core::state_history_methods!();
}

#[cfg(test)]
mod tests {
    use ply_core::Player;

    use super::*;
    use crate::rules::{K_SIDE, KEYS};
    use crate::setup::Setup;

    fn z5() -> Position {
        let setup = Setup {
            marbles: "Wa1 Wa2 Wa3 Wa4 Gb1 Gb5 Gc1 Gc6 Gd1 Gd7 Be1 Be6 Bf1 Bf5 Bg1 Bg2 Bg3 Bg4"
                .into(),
            removed: String::new(),
            pool: [2, 2, 2],
            captures: [[0; 3]; 2],
            to_move: Player::P1,
        };
        Position::from_setup(&setup, Variant::V37).unwrap()
    }

    /// 4.8: the third occurrence draws, the second does not. No short cycle was found by a
    /// search from no-free-ring positions, so the history is prepared by hand: the position
    /// after the move is planted once or twice in the history.
    #[test]
    fn third_occurrence_is_a_draw() {
        let start = z5();
        let mv = start.parse_move("Bd4").unwrap();
        let mut after = start.clone();
        after.play(mv);
        assert_eq!(after.outcome(), None);
        let target = after.state;

        let mut twice = start.clone();
        twice.history.push(target);
        twice.play(mv);
        assert_eq!(twice.outcome(), None, "second occurrence");

        let mut thrice = start.clone();
        thrice.history.push(target);
        thrice.history.push(target);
        thrice.play(mv);
        assert_eq!(thrice.outcome(), Some(Outcome::Draw));
        let mut moves = Vec::new();
        thrice.legal_moves(&mut moves);
        assert!(moves.is_empty());
        thrice.undo();
        assert_eq!(thrice.outcome(), None);

        // Same rings and marbles but the other player to move is another position.
        let mut other = target;
        other.to_move = other.to_move.other();
        other.hash ^= KEYS[K_SIDE];
        let mut side = start.clone();
        side.history.push(other);
        side.history.push(other);
        side.play(mv);
        assert_eq!(side.outcome(), None);
    }

    /// Every placement of every colour on every ring with every removal (and none), at the
    /// positions of random games on every board, is legal without listing exactly when the
    /// list has it; captures never are.
    #[test]
    fn legality_without_listing_is_the_list() {
        let (mut asked, mut legal, mut captures) = (0usize, 0usize, 0usize);
        let mut moves = Vec::new();
        let mut rng = 0xC0FFEE;
        for variant in VARIANTS {
            for _game in 0..4 {
                let mut position = Position::new(variant).expect("variant");
                while position.outcome().is_none() {
                    position.legal_moves(&mut moves);
                    let listed: std::collections::HashSet<Move> = moves.iter().copied().collect();
                    for &mv in &moves {
                        if matches!(mv, Move::Capture { .. }) {
                            assert!(!position.legal_without_listing(mv));
                            captures += 1;
                        }
                    }
                    let rings = position.layout.n as u8;
                    for colour in Colour::ALL {
                        for ring in 0..rings {
                            for remove in (0..rings).chain([NONE]) {
                                let mv = Move::Place { colour, ring, remove };
                                let is = listed.contains(&mv);
                                assert_eq!(position.legal_without_listing(mv), is, "{mv:?}");
                                asked += 1;
                                legal += usize::from(is);
                            }
                        }
                    }
                    let (next, x) = ply_core::zobrist::splitmix64(rng);
                    rng = next;
                    position.play(moves[(x >> 8) as usize % moves.len()]);
                }
            }
        }
        assert!(
            asked > 1_000_000 && legal > 50_000 && captures > 100,
            "{asked} {legal} {captures}"
        );
    }

    /// A win takes precedence over a repetition.
    #[test]
    fn win_before_repetition() {
        let setup = Setup {
            marbles: "Wd4 Gd5".into(),
            removed: "f1 g1 g2 g3 g4".into(),
            pool: [3, 4, 7],
            captures: [[1, 2, 2], [0, 0, 0]],
            to_move: Player::P1,
        };
        let start = Position::from_setup(&setup, Variant::Blitz).unwrap();
        let mv = start.parse_move("d5xd3").unwrap();
        let mut after = start.clone();
        after.play(mv);
        let target = after.state;
        let mut p = start.clone();
        p.history.push(target);
        p.history.push(target);
        p.play(mv);
        assert_eq!(p.outcome(), Some(Outcome::Win(Player::P1)));
    }
}
