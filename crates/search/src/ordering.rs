//! Moves put in order only as far as a search reaches: a node of thousands of moves is
//! often left after a few of them (an alpha-beta cutoff, an MCTS node visited a few times),
//! so sorting all of them would be mostly wasted.

/// How many of a list's moves [`order_more`] puts in order first.
pub(crate) const SORT_FIRST: usize = 16;

/// Puts more of `items` in order of `key`, highest first, given that `items[..sorted]` are
/// and the rest are in their original order; returns how many are now. The highest of the
/// rest, at least [`SORT_FIRST`] and as many as are ordered already, follow the ordered ones.
/// Ties keep the original order, so the items end up exactly as a stable sort of all of them
/// would put them, a step at a time: a selection of the best instead of a sort of all.
pub(crate) fn order_more<T: Copy>(
    items: &mut [T],
    sorted: usize,
    key: impl Fn(&T) -> u32,
) -> usize {
    let rest = &mut items[sorted..];
    let take = sorted.max(SORT_FIRST).min(rest.len());
    if take == 0 {
        return sorted;
    }
    // One number per item: the key descending, then the position among the rest.
    let mut keys: Vec<u64> =
        rest.iter().enumerate().map(|(i, item)| (u64::from(!key(item)) << 32) | i as u64).collect();
    if take < keys.len() {
        keys.select_nth_unstable(take - 1);
        keys.truncate(take);
    }
    keys.sort_unstable();
    let position = |k: u64| (k & 0xFFFF_FFFF) as usize;
    let mut taken = vec![false; rest.len()];
    let mut reordered = Vec::with_capacity(rest.len());
    for &k in &keys {
        taken[position(k)] = true;
        reordered.push(rest[position(k)]);
    }
    reordered.extend(rest.iter().zip(&taken).filter(|(_, t)| !**t).map(|(m, _)| *m));
    rest.copy_from_slice(&reordered);
    sorted + take
}

/// An `i32` as a `u32` of the same order.
pub(crate) fn ordered_bits(x: i32) -> u32 {
    (x as u32) ^ 0x8000_0000
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rng;

    /// Step by step, the ordered part is always the stable sort's, for float priors (MCTS)
    /// and for signed scores (alpha-beta), with ties everywhere.
    #[test]
    fn ordering_in_steps_gives_the_stable_sort() {
        let mut rng = Rng::new(7);
        for len in [0usize, 1, 2, 15, 16, 17, 40, 333, 5000] {
            let priors: Vec<(u32, f32)> =
                (0..len as u32).map(|m| (m, rng.below(9) as f32 / 8.0)).collect();
            let mut expected = priors.clone();
            expected.sort_by(|a, b| b.1.partial_cmp(&a.1).expect("no NaN"));
            check_steps(priors, &expected, |&(_, p)| p.to_bits());
            let scores: Vec<(i32, u32)> =
                (0..len as u32).map(|m| (rng.below(9) as i32 - 4, m)).collect();
            let mut expected = scores.clone();
            expected.sort_by_key(|s| std::cmp::Reverse(s.0));
            check_steps(scores, &expected, |&(s, _)| ordered_bits(s));
        }
    }

    fn check_steps<T: Copy + PartialEq + std::fmt::Debug>(
        mut items: Vec<T>,
        expected: &[T],
        key: impl Fn(&T) -> u32 + Copy,
    ) {
        let len = items.len();
        let mut sorted = 0;
        loop {
            let next = order_more(&mut items, sorted, key);
            assert_eq!(items[..next], expected[..next], "{len} items, {sorted} sorted");
            assert!(next > sorted || next == len);
            if next == sorted {
                break;
            }
            sorted = next;
        }
        assert_eq!(sorted, len);
        assert_eq!(items, expected);
    }

    #[test]
    fn ordered_bits_keep_the_order() {
        let xs = [i32::MIN, -5, -1, 0, 1, 7, i32::MAX];
        for w in xs.windows(2) {
            assert!(ordered_bits(w[0]) < ordered_bits(w[1]));
        }
    }
}
