//! ply's record format: reading, writing and replaying. See `ply_fuzz::check_record`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| ply_fuzz::check_record(&String::from_utf8_lossy(data)));
