//! The perft figures of ZÈRTZ, one a line in `tests/data/perft.txt`: those of zertz.md
//! (pinned) and regression values of this engine. Adding a case is adding a line.

ply_core::perft_tests!(ply_zertz::Position, include_str!("data/perft.txt"));
