//! The move parser of zertz: from a position the first bytes choose, the rest of the input
//! as a move. See `ply_fuzz::check_parse_move`.
#![no_main]

use std::sync::LazyLock;

static BASES: LazyLock<Vec<ply_zertz::Position>> = LazyLock::new(ply_fuzz::bases);

libfuzzer_sys::fuzz_target!(|data: &[u8]| ply_fuzz::check_parse_move(&BASES, data));
