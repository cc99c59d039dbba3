//! Sets of points as bits of the 18 × 18 grid, for work done on many points at once: the
//! evaluator's shortest paths (one set per distance) and the placements of an orientation
//! (one shifted AND per dot).
//!
//! A point at column `c` and row `r` (both 1-based) is bit `(c - 1) * 18 + r`. Row 0 of each
//! column is never on the board, so every direction is a constant shift: N `+1`, S `-1`,
//! SE `+18`, NW `-18`, NE `+19`, SW `-19`; a shift that runs off a column lands on a point off
//! the board (a row 0, or a corner the hexagon leaves out), and [`BOARD`] masks it away. The
//! grid order is column-major with rows ascending, the order of the point indices, so bits
//! read in ascending order give points in ascending order.

use crate::geometry::{CENTRAL, COORD, N_ORIENTS, N_POINTS, NONE, OFFSETS, SIDES};

const WORDS: usize = 5;
/// The grid positions, up to `16 * 18 + 17`.
const GRID: usize = WORDS * 64;

/// The grid bit of each point.
pub(crate) const BIT_OF: [u16; N_POINTS] = {
    let mut out = [0u16; N_POINTS];
    let mut p = 0;
    while p < N_POINTS {
        let (c, r) = COORD[p];
        out[p] = (c as u16 - 1) * 18 + r as u16;
        p += 1;
    }
    out
};

/// The point at each grid bit, or `NONE`.
const POINT_AT: [u8; GRID] = {
    let mut out = [NONE; GRID];
    let mut p = 0;
    while p < N_POINTS {
        out[BIT_OF[p] as usize] = p as u8;
        p += 1;
    }
    out
};

/// The grid shift of each plain dot of each orientation from its PÜNCT dot ([`OFFSETS`]).
pub(crate) const DOT_SHIFTS: [[i32; 2]; N_ORIENTS] = {
    let mut out = [[0; 2]; N_ORIENTS];
    let mut o = 0;
    while o < N_ORIENTS {
        let mut dot = 0;
        while dot < 2 {
            let (dc, dr) = OFFSETS[o][dot];
            out[o][dot] = dc * 18 + dr;
            dot += 1;
        }
        o += 1;
    }
    out
};

/// A set of points.
#[derive(Clone, Copy, Debug, Eq, Default)]
pub(crate) struct Bits([u64; WORDS]);

/// Word by word: the derived comparison of the array calls `memcmp`, a call per step of the
/// shortest paths' inner loop.
impl PartialEq for Bits {
    #[inline(always)]
    fn eq(&self, other: &Bits) -> bool {
        self.0.iter().zip(other.0).fold(0, |differ, (a, b)| differ | (a ^ b)) == 0
    }
}

/// Every point of the board.
pub(crate) const BOARD: Bits = Bits::of(&[true; N_POINTS]);
/// The central hexagon.
pub(crate) const CENTRAL_BITS: Bits = Bits::of(&CENTRAL);
/// The points of each side, by bit of [`SIDES`].
pub(crate) const SIDE_BITS: [Bits; 6] = {
    let mut out = [Bits::EMPTY; 6];
    let mut bit = 0;
    while bit < 6 {
        let mut p = 0;
        while p < N_POINTS {
            if SIDES[p] & (1 << bit) != 0 {
                out[bit] = out[bit].with(p);
            }
            p += 1;
        }
        bit += 1;
    }
    out
};

impl Bits {
    pub(crate) const EMPTY: Bits = Bits([0; WORDS]);

    /// The points marked in `member` (at compile time).
    const fn of(member: &[bool; N_POINTS]) -> Bits {
        let mut out = Bits::EMPTY;
        let mut p = 0;
        while p < N_POINTS {
            if member[p] {
                out = out.with(p);
            }
            p += 1;
        }
        out
    }

    /// This set and point `p`.
    pub(crate) const fn with(mut self, p: usize) -> Bits {
        let b = BIT_OF[p] as usize;
        self.0[b / 64] |= 1 << (b % 64);
        self
    }

    /// Adds point `p`.
    pub(crate) fn insert(&mut self, p: usize) {
        let b = BIT_OF[p] as usize;
        self.0[b / 64] |= 1 << (b % 64);
    }

    /// Removes point `p`.
    pub(crate) fn remove(&mut self, p: usize) {
        let b = BIT_OF[p] as usize;
        self.0[b / 64] &= !(1 << (b % 64));
    }

    /// Whether point `p` is in the set.
    #[inline]
    pub(crate) fn contains(self, p: u8) -> bool {
        let b = BIT_OF[p as usize] as usize;
        self.0[b / 64] & (1 << (b % 64)) != 0
    }

    /// The union of `sides`' points, by [`SIDES`] bit.
    pub(crate) fn sides(sides: u8) -> Bits {
        let mut out = Bits::EMPTY;
        for (bit, points) in SIDE_BITS.iter().enumerate() {
            if sides & (1 << bit) != 0 {
                out |= *points;
            }
        }
        out
    }

    pub(crate) fn is_empty(self) -> bool {
        self.0.iter().fold(0, |any, &w| any | w) == 0
    }

    /// The points of this set and not of `other`.
    pub(crate) fn without(self, other: Bits) -> Bits {
        let mut out = self;
        for (w, o) in out.0.iter_mut().zip(other.0) {
            *w &= !o;
        }
        out
    }

    /// Every bit moved `k` (1 ≤ k < 64) positions up the grid.
    #[inline(always)]
    fn up(self, k: u32) -> Bits {
        let w = self.0;
        let mut out = [0u64; WORDS];
        out[0] = w[0] << k;
        for i in 1..WORDS {
            out[i] = (w[i] << k) | (w[i - 1] >> (64 - k));
        }
        Bits(out)
    }

    /// Every bit moved `k` (1 ≤ k < 64) positions down the grid.
    #[inline(always)]
    fn down(self, k: u32) -> Bits {
        let w = self.0;
        let mut out = [0u64; WORDS];
        for i in 0..WORDS - 1 {
            out[i] = (w[i] >> k) | (w[i + 1] << (64 - k));
        }
        out[WORDS - 1] = w[WORDS - 1] >> k;
        Bits(out)
    }

    /// The set moved by `delta` grid positions (`delta` ≠ 0, |delta| < 64), bits that leave
    /// the board dropped.
    #[inline(always)]
    pub(crate) fn shifted(self, delta: i32) -> Bits {
        let moved = if delta > 0 { self.up(delta as u32) } else { self.down((-delta) as u32) };
        moved & BOARD
    }

    /// The neighbours of the set's points, and those points.
    #[inline(always)]
    pub(crate) fn grown(self) -> Bits {
        // N and S are ±1; NE and SE (+19, +18) are the set and its N neighbours moved 18
        // up; SW and NW likewise down.
        let north = self.up(1);
        let south = self.down(1);
        ((self | north).up(18) | (self | south).down(18) | north | south | self) & BOARD
    }

    /// The points of the set, in ascending order.
    pub(crate) fn points(self) -> impl Iterator<Item = u8> {
        self.0.into_iter().enumerate().flat_map(|(i, mut w)| {
            std::iter::from_fn(move || {
                if w == 0 {
                    return None;
                }
                let b = w.trailing_zeros() as usize;
                w &= w - 1;
                Some(POINT_AT[i * 64 + b])
            })
        })
    }
}

impl std::ops::BitOr for Bits {
    type Output = Bits;
    #[inline(always)]
    fn bitor(self, o: Bits) -> Bits {
        let mut out = self.0;
        for (w, o) in out.iter_mut().zip(o.0) {
            *w |= o;
        }
        Bits(out)
    }
}

impl std::ops::BitAnd for Bits {
    type Output = Bits;
    #[inline(always)]
    fn bitand(self, o: Bits) -> Bits {
        let mut out = self.0;
        for (w, o) in out.iter_mut().zip(o.0) {
            *w &= o;
        }
        Bits(out)
    }
}

impl std::ops::BitOrAssign for Bits {
    #[inline(always)]
    fn bitor_assign(&mut self, o: Bits) {
        *self = *self | o;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{DIRS, NEIGHBOURS, SHAPES};

    fn single(p: usize) -> Bits {
        Bits::EMPTY.with(p)
    }

    #[test]
    fn every_point_has_its_own_bit_and_reads_back() {
        assert_eq!(BOARD.points().count(), N_POINTS);
        let read: Vec<u8> = BOARD.points().collect();
        let expected: Vec<u8> = (0..N_POINTS as u8).collect();
        assert_eq!(read, expected, "ascending bits give ascending points");
    }

    #[test]
    fn grown_is_the_point_and_its_neighbours() {
        for (p, neighbours) in NEIGHBOURS.iter().enumerate() {
            let mut expected = single(p);
            for &q in neighbours {
                if q != NONE {
                    expected.insert(q as usize);
                }
            }
            assert_eq!(single(p).grown(), expected, "point {p}");
        }
    }

    #[test]
    fn each_direction_is_one_shift() {
        for (d, &(dc, dr)) in DIRS.iter().enumerate() {
            let delta = dc * 18 + dr;
            for (p, neighbours) in NEIGHBOURS.iter().enumerate() {
                let q = neighbours[d];
                let expected = if q == NONE { Bits::EMPTY } else { single(q as usize) };
                assert_eq!(single(p).shifted(delta), expected, "point {p}, direction {d}");
            }
        }
    }

    /// What placement generation relies on: each dot of each orientation is one shift, with
    /// no shift reaching a point on the board by running off a column.
    #[test]
    fn each_dot_of_each_orientation_is_one_shift() {
        for o in 0..N_ORIENTS {
            for (dot, &(dc, dr)) in OFFSETS[o].iter().enumerate() {
                let delta = DOT_SHIFTS[o][dot];
                for p in 0..N_POINTS {
                    let q = SHAPES[p][o][dot];
                    let moved = single(p).shifted(delta);
                    if q == NONE {
                        // Off the board, unless the other dot was the one off it.
                        let shifted_points: Vec<u8> = moved.points().collect();
                        let (c, r) = COORD[p];
                        let on = crate::geometry::Point::from_coords(
                            i32::from(c) + dc,
                            i32::from(r) + dr,
                        );
                        assert_eq!(
                            shifted_points,
                            on.map(|x| x.index() as u8).into_iter().collect::<Vec<_>>(),
                            "point {p}, orientation {o}, dot {dot}"
                        );
                    } else {
                        assert_eq!(moved, single(q as usize), "point {p}, orientation {o}");
                    }
                }
            }
        }
    }

    #[test]
    fn sides_have_seven_points_each() {
        for side in SIDE_BITS {
            assert_eq!(side.points().count(), 7);
        }
        assert_eq!(CENTRAL_BITS.points().count(), 19);
    }
}
