//! The integration tests of `ply-records`: one module a file, built and linked as one
//! test binary rather than one per file (docs/benchmarks.md, "CI: where its time goes").

mod boardspace_quirks;
mod records;
