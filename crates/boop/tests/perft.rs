//! The perft figures of boop., one a line in `tests/data/perft.txt`: those of boop.md section 11
//! (pinned) and regression values of this engine. Adding a case is adding a line.

ply_core::perft_tests!(ply_boop::Boop, include_str!("data/perft.txt"));
