//! The integration tests of `ply-store`: one module a file, built and linked as one
//! test binary rather than one per file (docs/benchmarks.md, "CI: where its time goes").

mod archive;
mod full_disk;
mod players;
mod store;
