//! A GIPF position with more than a million legal turns: reading and explaining turns there
//! must stay cheap.

use crate::common;

use ply_core::{Game, MoveError};
use ply_gipf::Position;

/// A tournament position with 1,461,270 legal turns (White's pieces all GIPF pieces, in
/// overlapping rows, each kept or taken), found by the `record` fuzz target. Explaining why a
/// text is not one of them held every turn's replay at once: 770 MB and 2 s in release per
/// message. The messages are those of that version (length and words counted from it).
///
/// In a test binary of its own, so that the peak memory of the process is this test's.
#[test]
fn a_position_with_a_million_turns_explains_bad_turns() {
    let mut p = Position::new("tournament").unwrap();
    let turns = "Gi2-h3 Gc1-c2 Gi2-h3 Gc1-c2 Gh6-g6 Gi2-h2 Gi2-h3 Gc1-c2 Gh6-g6 Gi2-h2 Gi2-h3 \
                 Gc1-c2 Gh6-g6 Gi2-h2 Gi2-h2 Gi2-h3 Gc1-c2 Gh6-g6";
    for turn in turns.split(' ') {
        common::play(&mut p, turn);
    }
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    assert_eq!(moves.len(), 1_461_270);
    drop(moves);
    for (text, start, end, chars, words) in [
        (
            "Gi2-h2",
            "rows of yours must be removed before you push (4.2, 4.6): xb3-g6 xb3-g6+b3 ",
            " xc6-h3+g4+h3 xc6-h3+h3",
            2055,
            137,
        ),
        (
            "xb3-g6+b3+c4+d5+e6+f6,Ga1-b2",
            "after xb3-g6+b3+c4+d5+e6+f6, rows of yours must be removed before you push",
            " xc6-h3+g4+h3 xc6-h3+h3",
            1085,
            76,
        ),
        (
            "xc6-h3",
            "incomplete turn: after xc6-h3, the rules require more (one of: Ga1-b2 Ga2-b2 ",
            " i3-h4 i4-h4 i4-h5 i5-h5)",
            583,
            90,
        ),
        (
            "xb3-g6+a1",
            "a1 is not a GIPF piece of the run b3-g6, so it cannot be kept (GIPF pieces there: \
             b3 c4 d5 e6 f6 g6)",
            ")",
            100,
            24,
        ),
    ] {
        let message = match p.parse_move(text) {
            Ok(m) => panic!("{text} read as {}", p.format_move(m)),
            Err(MoveError::Illegal(m)) => m,
            Err(e) => panic!("{text}: {e:?}"),
        };
        assert!(message.starts_with(start) && message.ends_with(end), "{text}: {message}");
        assert_eq!(
            (message.len(), message.split(' ').count()),
            (chars, words),
            "{text}: {message}"
        );
    }
    // The move list itself is 1.46 million turns of 27 bytes: a few tens of MB.
    let peak = peak_memory_kb().expect("VmHWM in /proc/self/status (Linux)");
    assert!(peak < 400_000, "peak memory {peak} kB");
}

/// The peak resident memory of this process (`VmHWM`, Linux).
fn peak_memory_kb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}
