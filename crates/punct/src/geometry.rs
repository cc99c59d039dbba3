//! Board geometry: the 211 points, directions, piece shapes, sides and the central hexagon.
//!
//! Points are numbered 0‥210 in column-major order (`a2`, `a3`, …, `a8`, `b1`, …, `q16`), rows
//! ascending inside a column. That order is exactly the ascending cell order of the notation
//! (§6.2), so sorting points by index sorts their names.
//!
//! Every table is computed at compile time.

use std::fmt;

/// The number of board points.
pub const N_POINTS: usize = 211;
/// Marks "no point" in the tables.
pub(crate) const NONE: u8 = 255;

/// One of the 211 board points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point(pub(crate) u8);

const fn on_board(c: i32, r: i32) -> bool {
    if c < 1 || c > 17 || r < 1 || r > 17 || c - r < -8 || c - r > 8 {
        return false;
    }
    !matches!((c, r), (1, 1) | (1, 9) | (9, 1) | (9, 17) | (17, 9) | (17, 17))
}

/// `GRID[c * 18 + r]` for 1 ≤ c, r ≤ 17: the point index, or `NONE`.
const GRID: [u8; 18 * 18] = {
    let mut g = [NONE; 18 * 18];
    let mut n = 0u8;
    let mut c = 1;
    while c <= 17 {
        let mut r = 1;
        while r <= 17 {
            if on_board(c, r) {
                g[(c * 18 + r) as usize] = n;
                n += 1;
            }
            r += 1;
        }
        c += 1;
    }
    assert!(n as usize == N_POINTS);
    g
};

const fn index_of(c: i32, r: i32) -> u8 {
    if c < 1 || c > 17 || r < 1 || r > 17 { NONE } else { GRID[(c * 18 + r) as usize] }
}

/// (column index, row) of every point, both 1-based.
pub(crate) const COORD: [(u8, u8); N_POINTS] = {
    let mut out = [(0u8, 0u8); N_POINTS];
    let mut c = 1;
    while c <= 17 {
        let mut r = 1;
        while r <= 17 {
            let i = index_of(c, r);
            if i != NONE {
                out[i as usize] = (c as u8, r as u8);
            }
            r += 1;
        }
        c += 1;
    }
    out
};

/// D[0..5] = N, NE, SE, S, SW, NW as (Δc, Δr); clockwise.
pub(crate) const DIRS: [(i32, i32); 6] = [(0, 1), (1, 1), (1, 0), (0, -1), (-1, -1), (-1, 0)];

/// `NEIGHBOURS[p][d]`: the neighbour of `p` in direction `d`, or `NONE`.
pub(crate) const NEIGHBOURS: [[u8; 6]; N_POINTS] = {
    let mut out = [[NONE; 6]; N_POINTS];
    let mut i = 0;
    while i < N_POINTS {
        let (c, r) = COORD[i];
        let mut d = 0;
        while d < 6 {
            out[i][d] = index_of(c as i32 + DIRS[d].0, r as i32 + DIRS[d].1);
            d += 1;
        }
        i += 1;
    }
    out
};

/// The six piece kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// Triangle, PÜNCT dot on a corner.
    T = 0,
    /// Straight, PÜNCT dot in the middle.
    C = 1,
    /// Straight, PÜNCT dot on an end.
    E = 2,
    /// Angle, PÜNCT dot on an end, turning clockwise.
    L = 3,
    /// Angle, PÜNCT dot on the bend.
    M = 4,
    /// Angle, PÜNCT dot on an end, turning counter-clockwise.
    R = 5,
}

impl Kind {
    /// All kinds in notation order.
    pub const ALL: [Kind; 6] = [Kind::T, Kind::C, Kind::E, Kind::L, Kind::M, Kind::R];
    /// How many pieces of each kind a player owns.
    pub const COUNT: [u8; 6] = [6, 2, 4, 2, 2, 2];

    /// The kind's letter.
    #[must_use]
    pub const fn letter(self) -> char {
        match self {
            Kind::T => 'T',
            Kind::C => 'C',
            Kind::E => 'E',
            Kind::L => 'L',
            Kind::M => 'M',
            Kind::R => 'R',
        }
    }

    /// The kind named by an upper-case letter.
    #[must_use]
    pub const fn from_letter(c: char) -> Option<Kind> {
        Some(match c {
            'T' => Kind::T,
            'C' => Kind::C,
            'E' => Kind::E,
            'L' => Kind::L,
            'M' => Kind::M,
            'R' => Kind::R,
            _ => return None,
        })
    }

    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    #[must_use]
    pub const fn from_index(i: usize) -> Kind {
        Kind::ALL[i]
    }

    /// The orientations of this kind (indices into the 33).
    #[must_use]
    pub const fn orients(self) -> std::ops::Range<u8> {
        let first = KIND_FIRST[self as usize];
        first..first + KIND_ROTATIONS[self as usize]
    }
}

/// First orientation index of each kind, and its number of distinct rotations.
pub(crate) const KIND_FIRST: [u8; 6] = [0, 6, 9, 15, 21, 27];
pub(crate) const KIND_ROTATIONS: [u8; 6] = [6, 3, 6, 6, 6, 6];
/// The number of distinct orientations of all kinds together.
pub const N_ORIENTS: usize = 33;

/// One of the 33 distinct orientations (kind + rotation) of §3.2.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Orient(pub(crate) u8);

pub(crate) const ORIENT_KIND: [Kind; N_ORIENTS] = {
    let mut out = [Kind::T; N_ORIENTS];
    let mut k = 0;
    while k < 6 {
        let mut r = 0;
        while r < KIND_ROTATIONS[k] {
            out[(KIND_FIRST[k] + r) as usize] = Kind::ALL[k];
            r += 1;
        }
        k += 1;
    }
    out
};

impl Orient {
    /// The orientation of `kind` in rotation `rotation` (§3.2), if it exists.
    #[must_use]
    pub const fn new(kind: Kind, rotation: u8) -> Option<Orient> {
        if rotation < KIND_ROTATIONS[kind as usize] {
            Some(Orient(KIND_FIRST[kind as usize] + rotation))
        } else {
            None
        }
    }

    #[must_use]
    pub const fn kind(self) -> Kind {
        ORIENT_KIND[self.0 as usize]
    }

    /// The rotation number of §3.2.
    #[must_use]
    pub const fn rotation(self) -> u8 {
        self.0 - KIND_FIRST[self.kind() as usize]
    }

    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Which of the three dots `[PÜNCT, plain 1, plain 2]` is the middle dot (`None` for `T`).
    /// The other two are the end dots.
    #[must_use]
    pub const fn middle(self) -> Option<usize> {
        match self.kind() {
            Kind::T => None,
            Kind::C | Kind::M => Some(0),
            Kind::E | Kind::L | Kind::R => Some(1),
        }
    }
}

/// Offsets (Δc, Δr) of the two plain dots of each orientation, in the order of §3.2.
pub(crate) const OFFSETS: [[(i32, i32); 2]; N_ORIENTS] = {
    let mut out = [[(0, 0); 2]; N_ORIENTS];
    let mut k = 0;
    while k < 6 {
        let mut r = 0usize;
        while r < KIND_ROTATIONS[k] as usize {
            let d = DIRS[r];
            let d1 = DIRS[(r + 1) % 6];
            let d2 = DIRS[(r + 2) % 6];
            let d3 = DIRS[(r + 3) % 6];
            let dm = DIRS[(r + 5) % 6];
            let second = match k {
                0 => d1,                       // T: D[r+1]
                1 => d3,                       // C: D[r+3]
                2 => (2 * d.0, 2 * d.1),       // E: 2·D[r]
                3 => (d.0 + d1.0, d.1 + d1.1), // L: D[r] + D[r+1]
                4 => d2,                       // M: D[r+2]
                _ => (d.0 + dm.0, d.1 + dm.1), // R: D[r] + D[r−1]
            };
            out[KIND_FIRST[k] as usize + r] = [d, second];
            r += 1;
        }
        k += 1;
    }
    out
};

/// `SHAPES[p][o]`: the two plain-dot points of orientation `o` with the PÜNCT dot on `p`,
/// in the order of [`OFFSETS`]; `[NONE, NONE]` when a dot would be off the board.
pub(crate) const SHAPES: [[[u8; 2]; N_ORIENTS]; N_POINTS] = {
    let mut out = [[[NONE; 2]; N_ORIENTS]; N_POINTS];
    let mut p = 0;
    while p < N_POINTS {
        let (c, r) = COORD[p];
        let mut o = 0;
        while o < N_ORIENTS {
            let [a, b] = OFFSETS[o];
            let pa = index_of(c as i32 + a.0, r as i32 + a.1);
            let pb = index_of(c as i32 + b.0, r as i32 + b.1);
            if pa != NONE && pb != NONE {
                out[p][o] = [pa, pb];
            }
            o += 1;
        }
        p += 1;
    }
    out
};

/// The 19 points of the central hexagon.
pub(crate) const CENTRAL: [bool; N_POINTS] = {
    let mut out = [false; N_POINTS];
    let mut i = 0;
    while i < N_POINTS {
        let (c, r) = COORD[i];
        let (dc, dr) = (c as i32 - 9, r as i32 - 9);
        let dd = dc - dr;
        if dc.abs() <= 2 && dr.abs() <= 2 && dd.abs() <= 2 {
            out[i] = true;
        }
        i += 1;
    }
    out
};

/// Side bits of each point: bit 0 `A`, 1 `Q`, 2 `R1`, 3 `R17`, 4 `D-`, 5 `D+`.
pub(crate) const SIDES: [u8; N_POINTS] = {
    let mut out = [0u8; N_POINTS];
    let mut i = 0;
    while i < N_POINTS {
        let (c, r) = COORD[i];
        let d = c as i32 - r as i32;
        let mut s = 0u8;
        if c == 1 {
            s |= 1;
        }
        if c == 17 {
            s |= 2;
        }
        if r == 1 {
            s |= 4;
        }
        if r == 17 {
            s |= 8;
        }
        if d == -8 {
            s |= 16;
        }
        if d == 8 {
            s |= 32;
        }
        out[i] = s;
        i += 1;
    }
    out
};

impl Point {
    /// All points in ascending order.
    pub fn all() -> impl Iterator<Item = Point> {
        (0..N_POINTS as u8).map(Point)
    }

    /// The point at column index `c` (1 = `a`) and row `r`, if it is on the board.
    #[must_use]
    pub const fn from_coords(c: i32, r: i32) -> Option<Point> {
        let i = index_of(c, r);
        if i == NONE { None } else { Some(Point(i)) }
    }

    /// The point with index `i` (0‥210).
    #[must_use]
    pub const fn from_index(i: usize) -> Option<Point> {
        if i < N_POINTS { Some(Point(i as u8)) } else { None }
    }

    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Column index, 1 (`a`) ‥ 17 (`q`).
    #[must_use]
    pub const fn column(self) -> u8 {
        COORD[self.0 as usize].0
    }

    /// Row, 1‥17.
    #[must_use]
    pub const fn row(self) -> u8 {
        COORD[self.0 as usize].1
    }

    /// Whether the point is one of the 19 central points.
    #[must_use]
    pub const fn is_central(self) -> bool {
        CENTRAL[self.0 as usize]
    }

    /// The neighbour in direction `d` (0 = N, clockwise), if any.
    #[must_use]
    pub const fn neighbour(self, d: usize) -> Option<Point> {
        let n = NEIGHBOURS[self.0 as usize][d];
        if n == NONE { None } else { Some(Point(n)) }
    }

    /// Reads a cell name (`g3`, `q16`) exactly as §6.1 writes it. `None` if the text is not
    /// a cell or names no board point.
    #[must_use]
    pub fn parse(text: &str) -> Option<Point> {
        let (c, r) = parse_cell_coords(text)?;
        Point::from_coords(c, r)
    }
}

/// Column and row of a syntactically valid cell, whether or not it is on the board.
pub(crate) fn parse_cell_coords(text: &str) -> Option<(i32, i32)> {
    let bytes = text.as_bytes();
    if bytes.len() < 2 || bytes.len() > 3 {
        return None;
    }
    let col = bytes[0];
    if !(b'a'..=b'q').contains(&col) {
        return None;
    }
    let digits = &bytes[1..];
    if digits[0] == b'0' || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let row = digits.iter().fold(0i32, |acc, d| acc * 10 + i32::from(d - b'0'));
    if !(1..=17).contains(&row) {
        return None;
    }
    Some((i32::from(col - b'a') + 1, row))
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (c, r) = COORD[self.0 as usize];
        write!(f, "{}{}", char::from(b'a' + c - 1), r)
    }
}

/// The three points `[PÜNCT, plain 1, plain 2]` of orientation `o` with its PÜNCT dot on `p`.
#[must_use]
pub fn shape_points(p: Point, o: Orient) -> Option<[Point; 3]> {
    let [a, b] = SHAPES[p.index()][o.index()];
    if a == NONE { None } else { Some([p, Point(a), Point(b)]) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_facts() {
        assert_eq!(CENTRAL.iter().filter(|&&c| c).count(), 19);
        let perimeter = (0..N_POINTS).filter(|&i| NEIGHBOURS[i].contains(&NONE)).count();
        assert_eq!(perimeter, 48);
        for bit in 0..6 {
            assert_eq!(SIDES.iter().filter(|&&s| s & (1 << bit) != 0).count(), 7);
        }
        assert!(SIDES.iter().all(|s| s.count_ones() <= 1));
        assert_eq!(Point::parse("a2").unwrap().index(), 0);
        assert_eq!(Point::parse("q16").unwrap().index(), 210);
        assert!(Point::parse("a1").is_none());
        assert!(Point::parse("i17").is_none());
        assert!(Point::parse("g03").is_none());
        for p in Point::all() {
            assert_eq!(Point::parse(&p.to_string()), Some(p));
        }
    }

    #[test]
    fn shape_table_matches_the_reference() {
        // §3.2, PÜNCT dot on i9: the plain dots in ascending order.
        let expect = [
            "i10 j10", "j9 j10", "i8 j9", "h8 i8", "h8 h9", "h9 i10", // T
            "i8 i10", "h8 j10", "h9 j9", // C
            "i10 i11", "j10 k11", "j9 k9", "i7 i8", "g7 h8", "g9 h9", // E
            "i10 j11", "j10 k10", "j8 j9", "h7 i8", "g8 h8", "h9 h10", // L
            "i10 j9", "i8 j10", "h8 j9", "h9 i8", "h8 i10", "h9 j10", // M
            "h10 i10", "j10 j11", "j9 k10", "i8 j8", "h7 h8", "g8 h9", // R
        ];
        let i9 = Point::parse("i9").unwrap();
        for (o, want) in expect.iter().enumerate() {
            let [_, a, b] = shape_points(i9, Orient(o as u8)).unwrap();
            let (a, b) = if a < b { (a, b) } else { (b, a) };
            assert_eq!(&format!("{a} {b}"), want, "orientation {o}");
        }
    }
}
