//! The HTTP API's new-game body and the language switch's redirect target. See
//! `ply_fuzz::check_http_body`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| ply_fuzz::check_http_body(data));
