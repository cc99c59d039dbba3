//! The integration tests of `ply-boop`: one module a file, built and linked as one
//! test binary rather than one per file (docs/benchmarks.md, "CI: where its time goes").

#[path = "../../gipf/tests/view_kit/mod.rs"]
mod view_kit;

mod examples;
mod perft;
mod position_string;
mod properties;
mod view_help;
