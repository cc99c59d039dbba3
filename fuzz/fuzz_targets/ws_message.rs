//! The WebSocket protocol's client messages. See `ply_fuzz::check_ws_message`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| ply_fuzz::check_ws_message(data));
