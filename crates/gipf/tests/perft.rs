//! The perft figures of GIPF, one a line in `tests/data/perft.txt`: those of gipf.md section 8
//! (pinned) and regression values of this engine. Adding a case is adding a line.

ply_core::perft_tests!(ply_gipf::Position, include_str!("data/perft.txt"));
