//! The integration tests of `ply-gipf`: one module a file, built and linked as one
//! test binary rather than one per file (docs/benchmarks.md, "CI: where its time goes").

mod common;
mod view_kit;

mod engine;
mod examples;
mod million_turns;
mod notation;
mod perft;
mod position_string;
mod props;
mod reference;
mod view;
mod view_help;
