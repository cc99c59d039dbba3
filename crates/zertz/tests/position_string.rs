//! Position strings (docs/position-strings.md): every position reached in random games of
//! every variant round-trips exactly, and play continued from a parsed string goes on as the
//! original (ply_core::testkit::check_position_strings).

use ply_core::testkit::{check_position_strings, random_game};
use ply_core::{Game, PositionString};
use ply_zertz::Position;
use proptest::prelude::*;

const VARIANTS: &[&str] = &["37", "40", "43", "44", "48", "61", "blitz"];

proptest! {
    #![proptest_config(ProptestConfig { cases: 10, ..ProptestConfig::default() })]

    #[test]
    fn random_positions_round_trip_and_play_on(seed in any::<u64>()) {
        for variant in VARIANTS {
            let game = random_game(&Position::new(variant).unwrap(), seed, 300, |_| {});
            check_position_strings(&game, 3);
        }
    }
}

#[test]
fn garbage_is_an_error_not_a_panic() {
    let start = Position::new(VARIANTS[0]).unwrap().position_string();
    let mut texts = vec![String::new(), ";".repeat(40), "zertz".into(), start.replace(';', ",")];
    // Every prefix, every field cut or doubled, and every byte replaced by a few others.
    for i in 0..=start.len() {
        if start.is_char_boundary(i) {
            texts.push(start[..i].to_string());
            texts.push(format!("{}{}", &start[..i], &start[i..]).replacen(';', ";;", 1));
        }
    }
    for (i, _) in start.char_indices() {
        for c in ['-', ',', '/', '@', '9', 'x', 'Z', ':', ';', '*'] {
            let mut t = start.clone();
            t.replace_range(i..=i, &c.to_string());
            texts.push(t);
        }
    }
    for t in texts {
        if let Ok(pos) = Position::from_position_string(&t) {
            // Whatever is accepted is a position that writes itself back and can be played.
            let again = Position::from_position_string(&pos.position_string()).unwrap();
            assert_eq!(again.hash(), pos.hash(), "{t}");
            let mut moves = Vec::new();
            pos.legal_moves(&mut moves);
            assert_eq!(moves.is_empty(), pos.outcome().is_some(), "{t}");
        }
    }
}
