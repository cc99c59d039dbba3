//! The boardspace.net ZÈRTZ importer: SGF reading, conversion and the replay check. See
//! `ply_fuzz::check_boardspace`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    ply_fuzz::check_boardspace(&String::from_utf8_lossy(data));
});
