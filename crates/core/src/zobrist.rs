//! Zobrist keys generated at compile time.
//!
//! Keys come from SplitMix64 in `const` context, so they need no initialisation at run time
//! and are stable: the same seed gives the same keys in every build. Each game picks its own
//! seeds; changing one changes every stored hash of that game.

/// One step of SplitMix64: returns the next state and its output.
#[must_use]
pub const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

/// `N` pseudo-random keys from `seed`.
#[must_use]
pub const fn keys<const N: usize>(seed: u64) -> [u64; N] {
    let mut out = [0u64; N];
    let mut state = seed;
    let mut i = 0;
    while i < N {
        let (next, value) = splitmix64(state);
        state = next;
        out[i] = value;
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_stable_and_distinct() {
        const K: [u64; 64] = keys(1);
        // SplitMix64's published first output for seed 1.
        assert_eq!(K[0], 0x910A_2DEC_8902_5CC1);
        let mut sorted = K.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), 64);
    }
}
