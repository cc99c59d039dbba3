//! The integration tests of `ply`: one module a file, built and linked as one
//! test binary rather than one per file (docs/benchmarks.md, "CI: where its time goes").

mod cli;
mod computer;
mod engine;
mod import;
mod library;
mod nodes;
mod position_analyse;
