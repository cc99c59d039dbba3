//! Position strings (docs/position-strings.md): every position reached in random games of
//! every variant round-trips exactly, and play continued from a parsed string goes on as the
//! original (ply_core::testkit::check_position_strings).

use ply_core::testkit::{check_position_garbage, check_position_strings_of_every_variant};
use ply_gipf::Position;
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]

    #[test]
    fn random_positions_round_trip_and_play_on(seed in any::<u64>()) {
        check_position_strings_of_every_variant::<Position>(seed);
    }
}

#[test]
fn garbage_is_an_error_not_a_panic() {
    check_position_garbage::<Position>();
}
