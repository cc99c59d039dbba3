//! Position strings (docs/position-strings.md): every position reached in random games of
//! every variant round-trips exactly, and play continued from a parsed string goes on as the
//! original (ply_core::testkit::check_position_strings); damaged strings are errors, not
//! panics. The harness is `ply_core::position_string_tests!`; this crate names its game and
//! how many random seeds to try.

ply_core::position_string_tests!(ply_punct::Position, cases: 6);
