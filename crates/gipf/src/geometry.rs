//! Board geometry: the 61 points, the 37 interior cells, the 21 lines and the 42 entries.
//!
//! Two numberings are used.
//!
//! * A [`Point`] is one of the 61 points in the order of gipf.md D4: by column `a`…`i`, then by
//!   row: `a1` = 0, `a2` = 1, …, `a5` = 4, `b1` = 5, …, `i5` = 60.
//! * A **cell** is the bit index of an interior point in the bitboards. With the axial
//!   coordinates of gipf.md 2.3 (q = c − 4, s = r − 5 + max(0, 4 − c)), an interior point
//!   has |q|, |s|, |q + s| ≤ 3 and cell `(q + 3) * 8 + (s + 3)`:
//!
//! ```text
//!   column q+3:   0    1    2    3    4    5    6
//!   s+3 = 7     pad  pad  pad  pad  pad  pad  pad     <- always empty, stops wrap-around
//!   s+3 = 6      .    .    .   d7   e8   f7   g6     (cells 6, 14, 22, 30, 38, 46, 54)
//!   ...
//!   s+3 = 0     b2   c2   d2   e2    .    .    .     (cells 0, 8, 16, 24, ...)
//! ```
//!
//! One step N is `+1`, NE is `+8`, SE is `+7` (and S, SW, NW the negatives). The padding
//! slot 7 of every column and the unused corners of the 7×7 rhombus never hold a piece, so
//! `x & x >> d & x >> 2d & x >> 3d` finds exactly the four-in-a-line patterns. Cell order
//! agrees with point order (D4) on interior points, so "the smallest point of a run" is its
//! lowest bit.

/// Number of points (interior points and dots).
pub const NUM_POINTS: usize = 61;
/// Number of entries (dot, first point).
pub const NUM_ENTRIES: usize = 42;
/// Number of lines.
pub const NUM_LINES: usize = 21;

const COL_LEN: [u8; 9] = [5, 6, 7, 8, 9, 8, 7, 6, 5];
const COL_START: [u8; 9] = [0, 5, 11, 18, 26, 35, 43, 50, 56];

/// One of the 61 points of the board, numbered in the point order of gipf.md D4.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point(u8);

impl Point {
    /// All 61 points in ascending order.
    pub fn all() -> impl Iterator<Item = Point> {
        (0..NUM_POINTS as u8).map(Point)
    }

    /// The point with index `i` (0 = `a1` … 60 = `i5`).
    #[must_use]
    pub const fn from_index(i: usize) -> Option<Point> {
        if i < NUM_POINTS { Some(Point(i as u8)) } else { None }
    }

    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Column index, `a` = 0 … `i` = 8.
    #[must_use]
    pub const fn column(self) -> u8 {
        POINT_COL[self.0 as usize]
    }

    /// Row number, from 1 at the bottom.
    #[must_use]
    pub const fn row(self) -> u8 {
        self.0 - COL_START[POINT_COL[self.0 as usize] as usize] + 1
    }

    /// The point at column `col` (0–8) and row `row` (1-based), if it exists.
    #[must_use]
    pub const fn at(col: u8, row: u8) -> Option<Point> {
        if col < 9 && row >= 1 && row <= COL_LEN[col as usize] {
            Some(Point(COL_START[col as usize] + row - 1))
        } else {
            None
        }
    }

    /// `true` for the 24 dots of the outer ring.
    #[must_use]
    pub const fn is_dot(self) -> bool {
        POINT_CELL[self.0 as usize] == NO_CELL
    }

    /// The bitboard cell of an interior point.
    #[must_use]
    pub(crate) const fn cell(self) -> Option<u8> {
        let c = POINT_CELL[self.0 as usize];
        if c == NO_CELL { None } else { Some(c) }
    }

    /// The point's name, e.g. `"e5"`.
    #[must_use]
    pub fn name(self) -> String {
        let mut s = String::with_capacity(2);
        s.push((b'a' + self.column()) as char);
        s.push((b'0' + self.row()) as char);
        s
    }

    /// Reads a point name: a lower-case column `a`–`i` and one digit `1`–`9`.
    ///
    /// # Errors
    /// A message saying why the text is not a point.
    pub fn parse(text: &str) -> Result<Point, String> {
        let b = text.as_bytes();
        if b.len() != 2 || !(b'a'..=b'i').contains(&b[0]) || !(b'1'..=b'9').contains(&b[1]) {
            return Err(format!(
                "'{text}' is not a point: write a column a-i and a row 1-9, like e5"
            ));
        }
        let col = b[0] - b'a';
        let row = b[1] - b'0';
        Point::at(col, row).ok_or_else(|| {
            format!(
                "{text} is not a point of the board: column {} has rows 1-{}",
                b[0] as char, COL_LEN[col as usize]
            )
        })
    }
}

impl std::fmt::Display for Point {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}{}", (b'a' + self.column()) as char, self.row())
    }
}

pub(crate) const NO_CELL: u8 = 255;

const POINT_COL: [u8; NUM_POINTS] = {
    let mut out = [0u8; NUM_POINTS];
    let mut c = 0;
    while c < 9 {
        let mut r = 0;
        while r < COL_LEN[c] {
            out[(COL_START[c] + r) as usize] = c as u8;
            r += 1;
        }
        c += 1;
    }
    out
};

const fn axial(point: usize) -> (i32, i32) {
    let c = POINT_COL[point] as i32;
    let r = (point as i32) - COL_START[c as usize] as i32 + 1;
    let extra = if c < 4 { 4 - c } else { 0 };
    (c - 4, r - 5 + extra)
}

const fn is_interior(q: i32, s: i32) -> bool {
    let d = if q.abs() > s.abs() { q.abs() } else { s.abs() };
    let t = (q + s).abs();
    (if d > t { d } else { t }) <= 3
}

const fn on_board(q: i32, s: i32) -> bool {
    let d = if q.abs() > s.abs() { q.abs() } else { s.abs() };
    let t = (q + s).abs();
    (if d > t { d } else { t }) <= 4
}

const fn cell_of(q: i32, s: i32) -> u8 {
    ((q + 3) * 8 + (s + 3)) as u8
}

const fn point_of_axial(q: i32, s: i32) -> usize {
    let c = q + 4;
    let extra = if c < 4 { 4 - c } else { 0 };
    let r = s + 5 - extra;
    (COL_START[c as usize] as i32 + r - 1) as usize
}

/// Cell of each point, `NO_CELL` for dots.
pub(crate) const POINT_CELL: [u8; NUM_POINTS] = {
    let mut out = [NO_CELL; NUM_POINTS];
    let mut p = 0;
    while p < NUM_POINTS {
        let (q, s) = axial(p);
        if is_interior(q, s) {
            out[p] = cell_of(q, s);
        }
        p += 1;
    }
    out
};

/// Point of each cell (255 for unused bits).
pub(crate) const CELL_POINT: [u8; 64] = {
    let mut out = [255u8; 64];
    let mut p = 0;
    while p < NUM_POINTS {
        if POINT_CELL[p] != NO_CELL {
            out[POINT_CELL[p] as usize] = p as u8;
        }
        p += 1;
    }
    out
};

/// Every interior cell.
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) const INTERIOR: u64 = {
    let mut m = 0u64;
    let mut p = 0;
    while p < NUM_POINTS {
        if POINT_CELL[p] != NO_CELL {
            m |= 1 << POINT_CELL[p];
        }
        p += 1;
    }
    m
};

/// Axial steps of the six directions N, NE, SE, S, SW, NW.
const DIRS: [(i32, i32); 6] = [(0, 1), (1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1)];
/// The direction names, in the order of `DIRS`.
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) const DIR_NAMES: [&str; 6] = ["N", "NE", "SE", "S", "SW", "NW"];
/// Cell step of the three axes N–S, NE–SW, SE–NW (positive direction N, NE, SE).
pub(crate) const AXIS_STEP: [u32; 3] = [1, 8, 7];

/// One of the 42 entries: a dot, the first interior point and the push direction.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    pub dot: u8,
    pub first: u8,
    pub dir: u8,
    /// Cells of the push ray, from the first point to the last interior point.
    pub ray: [u8; 7],
    pub len: u8,
    /// All cells of the ray.
    pub ray_mask: u64,
}

pub(crate) const ENTRIES: [Entry; NUM_ENTRIES] = {
    let blank = Entry { dot: 0, first: 0, dir: 0, ray: [0; 7], len: 0, ray_mask: 0 };
    let mut out = [blank; NUM_ENTRIES];
    let mut n = 0;
    let mut p = 0;
    while p < NUM_POINTS {
        if POINT_CELL[p] == NO_CELL {
            let (q, s) = axial(p);
            let mut d = 0;
            while d < 6 {
                let (dq, ds) = DIRS[d];
                if is_interior(q + dq, s + ds) {
                    let mut e = blank;
                    e.dot = p as u8;
                    e.first = point_of_axial(q + dq, s + ds) as u8;
                    e.dir = d as u8;
                    let (mut cq, mut cs) = (q + dq, s + ds);
                    while is_interior(cq, cs) {
                        let cell = cell_of(cq, cs);
                        e.ray[e.len as usize] = cell;
                        e.ray_mask |= 1 << cell;
                        e.len += 1;
                        cq += dq;
                        cs += ds;
                    }
                    out[n] = e;
                    n += 1;
                }
                d += 1;
            }
        }
        p += 1;
    }
    assert!(n == NUM_ENTRIES);
    out
};

/// One of the 21 lines, its cells in ascending order.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Line {
    pub axis: u8,
    pub cells: [u8; 7],
    pub len: u8,
    pub mask: u64,
    /// The dots at the low and the high end.
    pub dots: [u8; 2],
}

pub(crate) const LINES: [Line; NUM_LINES] = {
    let blank = Line { axis: 0, cells: [0; 7], len: 0, mask: 0, dots: [0; 2] };
    let mut out = [blank; NUM_LINES];
    let mut n = 0;
    let mut axis = 0;
    while axis < 3 {
        let (dq, ds) = DIRS[axis];
        let mut p = 0;
        while p < NUM_POINTS {
            let (q, s) = axial(p);
            // A line starts at an interior point whose predecessor is a dot.
            if is_interior(q, s) && !is_interior(q - dq, s - ds) {
                let mut l = blank;
                l.axis = axis as u8;
                l.dots[0] = point_of_axial(q - dq, s - ds) as u8;
                let (mut cq, mut cs) = (q, s);
                while is_interior(cq, cs) {
                    let cell = cell_of(cq, cs);
                    l.cells[l.len as usize] = cell;
                    l.mask |= 1 << cell;
                    l.len += 1;
                    cq += dq;
                    cs += ds;
                }
                assert!(on_board(cq, cs));
                l.dots[1] = point_of_axial(cq, cs) as u8;
                out[n] = l;
                n += 1;
            }
            p += 1;
        }
        axis += 1;
    }
    assert!(n == NUM_LINES);
    out
};

/// For each cell and axis: the line through it.
pub(crate) const CELL_LINE: [[u8; 3]; 64] = {
    let mut out = [[255u8; 3]; 64];
    let mut l = 0;
    while l < NUM_LINES {
        let line = LINES[l];
        let mut i = 0;
        while i < line.len as usize {
            out[line.cells[i] as usize][line.axis as usize] = l as u8;
            i += 1;
        }
        l += 1;
    }
    out
};

/// For each cell and axis: its position along that line (0 = lowest cell).
pub(crate) const CELL_POS: [[u8; 3]; 64] = {
    let mut out = [[255u8; 3]; 64];
    let mut l = 0;
    while l < NUM_LINES {
        let line = LINES[l];
        let mut i = 0;
        while i < line.len as usize {
            out[line.cells[i] as usize][line.axis as usize] = i as u8;
            i += 1;
        }
        l += 1;
    }
    out
};

/// The entry with this dot and first point.
pub(crate) fn find_entry(dot: Point, first: Point) -> Option<usize> {
    ENTRIES.iter().position(|e| e.dot as usize == dot.index() && e.first as usize == first.index())
}

/// The point of a cell.
#[inline]
pub(crate) const fn cell_point(cell: u32) -> Point {
    Point(CELL_POINT[cell as usize])
}

/// Drawing position of a point: x grows to the right, y downwards, unit = neighbour distance.
pub(crate) fn point_xy(p: Point) -> (f64, f64) {
    let c = f64::from(p.column());
    let r = f64::from(p.row());
    let n = f64::from(COL_LEN[p.column() as usize]);
    (c * 3f64.sqrt() / 2.0, -(r - (n + 1.0) / 2.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts() {
        assert_eq!(Point::all().filter(|p| p.is_dot()).count(), 24);
        assert_eq!(INTERIOR.count_ones(), 37);
        let corner = ENTRIES.iter().filter(|e| Point(e.dot).name() == "a1").count();
        assert_eq!(corner, 1);
        for axis in 0..3 {
            let mut lens: Vec<u8> =
                LINES.iter().filter(|l| l.axis == axis).map(|l| l.len).collect();
            lens.sort_unstable();
            assert_eq!(lens, [4, 4, 5, 5, 6, 6, 7]);
        }
    }

    #[test]
    fn names_round_trip() {
        for p in Point::all() {
            assert_eq!(Point::parse(&p.name()), Ok(p));
        }
        assert!(Point::parse("a6").is_err());
        assert!(Point::parse("j1").is_err());
    }

    #[test]
    fn entries_match_the_reference() {
        let text = "a1-b2 NE a2-b2 SE a2-b3 NE a3-b3 SE a3-b4 NE a4-b4 SE a4-b5 NE a5-b5 SE \
            b1-b2 N b1-c2 NE b6-b5 S b6-c6 SE c1-c2 N c1-d2 NE c7-c6 S c7-d7 SE d1-d2 N \
            d1-e2 NE d8-d7 S d8-e8 SE e1-e2 N e9-e8 S f1-e2 NW f1-f2 N f8-e8 SW f8-f7 S \
            g1-f2 NW g1-g2 N g7-f7 SW g7-g6 S h1-g2 NW h1-h2 N h6-g6 SW h6-h5 S i1-h2 NW \
            i2-h2 SW i2-h3 NW i3-h3 SW i3-h4 NW i4-h4 SW i4-h5 NW i5-h5 SW";
        let words: Vec<&str> = text.split_whitespace().collect();
        let mut want: Vec<String> = words.chunks(2).map(|w| format!("{} {}", w[0], w[1])).collect();
        let mut got: Vec<String> = ENTRIES
            .iter()
            .map(|e| format!("{}-{} {}", Point(e.dot), Point(e.first), DIR_NAMES[e.dir as usize]))
            .collect();
        want.sort();
        got.sort();
        assert_eq!(got, want);
    }

    #[test]
    fn lines_match_the_reference() {
        let line = |l: &Line| {
            let cells: Vec<String> = l.cells[..l.len as usize]
                .iter()
                .map(|&c| cell_point(u32::from(c)).name())
                .collect();
            format!("{} | {} | {}", Point(l.dots[0]), cells.join(" "), Point(l.dots[1]))
        };
        let all: Vec<String> = LINES.iter().map(line).collect();
        assert!(all.contains(&"a1 | b2 c3 d4 e5 f5 g5 h5 | i5".to_string()));
        assert!(all.contains(&"e1 | e2 e3 e4 e5 e6 e7 e8 | e9".to_string()));
        assert!(all.contains(&"a5 | b5 c5 d5 e5 f4 g3 h2 | i1".to_string()));
        assert!(all.contains(&"d8 | e8 f7 g6 h5 | i4".to_string()));
        assert!(all.contains(&"b1 | c2 d3 e4 f4 g4 h4 | i4".to_string()));
    }
}
