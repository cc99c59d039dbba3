//! The integration tests of `ply-server`: one module a file, built and linked as one
//! test binary rather than one per file (docs/benchmarks.md, "CI: where its time goes").

mod common;

mod analysis;
mod api;
mod archive;
mod clocks;
mod full_disk;
mod hostile;
mod live;
mod lobby;
mod players;
mod protocol_sizes;
