//! The rules of punct: a game walked by the input's bytes, checking the game contract at
//! every position. See `ply_fuzz::check_rules`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| ply_fuzz::check_rules::<ply_punct::Position>(data));
