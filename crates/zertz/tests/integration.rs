//! The integration tests of `ply-zertz`: one module a file, built and linked as one
//! test binary rather than one per file (docs/benchmarks.md, "CI: where its time goes").

mod common;
#[path = "../../gipf/tests/view_kit/mod.rs"]
mod view_kit;

mod engine;
mod examples;
mod perft;
mod position_string;
mod props;
mod view_help;
