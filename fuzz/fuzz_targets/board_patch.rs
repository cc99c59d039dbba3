//! Board patches and the choices trie of the live protocol. See `ply_fuzz::check_board_patch`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| ply_fuzz::check_board_patch(data));
