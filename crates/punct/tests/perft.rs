//! The perft figures of PÜNCT, one a line in `tests/data/perft.txt`: those of punct.md section 9
//! (pinned) and regression values of this engine. Adding a case is adding a line.

ply_core::perft_tests!(ply_punct::Position, include_str!("data/perft.txt"));
