//! The integration tests of `ply-search`: one module a file, built and linked as one
//! test binary rather than one per file (docs/benchmarks.md, "CI: where its time goes").

mod analysis;
mod repetition;
mod search;
