//! Position strings (docs/position-strings.md): every position reached in random games of
//! every variant round-trips exactly, and play continued from a parsed string goes on as the
//! original (ply_core::testkit::check_position_strings); damaged strings are errors, not
//! panics; and each text of `data/position_errors.txt` is an error naming what is wrong. The
//! harness is `ply_core::position_string_tests!`; this crate names its game, how many random
//! seeds to try and its file of bad strings.

ply_core::position_string_tests!(ply_punct::Position, cases: 6,
    errors: include_str!("data/position_errors.txt"));
