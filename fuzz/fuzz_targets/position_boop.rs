//! The position-string reader of boop: the input as a position string. See
//! `ply_fuzz::check_position_string`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| ply_fuzz::check_position_string::<ply_boop::Boop>(data));
