//! The bed: cells, directions, lines of three, and the stitching the ghosts walk on.
//!
//! A cell is `column * 6 + row` (both from 0), so the index order is the "ascending order" of
//! the rules (by column, then row) and a set of cells is a 36-bit mask in a `u64`.

use std::fmt;

/// One of the 36 cells of the bed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(u8);

impl Cell {
    pub const COUNT: usize = 36;

    /// The cell at `column` (0 = a) and `row` (0 = row 1), if both are on the bed.
    #[must_use]
    pub const fn new(column: i8, row: i8) -> Option<Cell> {
        if column >= 0 && column < 6 && row >= 0 && row < 6 {
            Some(Cell((column * 6 + row) as u8))
        } else {
            None
        }
    }

    /// # Panics
    /// If `index` is 36 or more.
    #[must_use]
    pub const fn from_index(index: usize) -> Cell {
        assert!(index < 36);
        Cell(index as u8)
    }

    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    #[inline]
    #[must_use]
    pub const fn column(self) -> i8 {
        (self.0 / 6) as i8
    }

    #[inline]
    #[must_use]
    pub const fn row(self) -> i8 {
        (self.0 % 6) as i8
    }

    #[inline]
    #[must_use]
    pub const fn bit(self) -> u64 {
        1 << self.0
    }

    /// The neighbour one step in `dir`, if it is on the bed.
    #[inline]
    #[must_use]
    pub fn step(self, dir: Direction) -> Option<Cell> {
        let n = NEIGHBOUR[self.index()][dir as usize];
        if n == OFF { None } else { Some(Cell(n)) }
    }

    /// Reads `a1` … `f6` (lower-case column, then row).
    #[must_use]
    pub fn parse(text: &[u8]) -> Option<Cell> {
        match text {
            [c @ b'a'..=b'f', r @ b'1'..=b'6'] => Cell::new((c - b'a') as i8, (r - b'1') as i8),
            _ => None,
        }
    }

    /// Every cell in ascending order.
    pub fn all() -> impl Iterator<Item = Cell> {
        (0..36u8).map(Cell)
    }

    /// The cells of a mask in ascending order.
    pub fn in_mask(mut mask: u64) -> impl Iterator<Item = Cell> {
        std::iter::from_fn(move || {
            if mask == 0 {
                None
            } else {
                let i = mask.trailing_zeros() as u8;
                mask &= mask - 1;
                Some(Cell(i))
            }
        })
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.column() as u8) as char, self.row() + 1)
    }
}

/// The eight directions of the bed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    N,
    NE,
    E,
    SE,
    S,
    SW,
    W,
    NW,
}

impl Direction {
    pub const ALL: [Direction; 8] = [
        Direction::N,
        Direction::NE,
        Direction::E,
        Direction::SE,
        Direction::S,
        Direction::SW,
        Direction::W,
        Direction::NW,
    ];

    /// (column, row) change of one step.
    #[must_use]
    pub const fn delta(self) -> (i8, i8) {
        match self {
            Direction::N => (0, 1),
            Direction::NE => (1, 1),
            Direction::E => (1, 0),
            Direction::SE => (1, -1),
            Direction::S => (0, -1),
            Direction::SW => (-1, -1),
            Direction::W => (-1, 0),
            Direction::NW => (-1, 1),
        }
    }
}

pub(crate) const OFF: u8 = u8::MAX;

/// `NEIGHBOUR[cell][dir]`: the cell one step away, or `OFF`.
pub(crate) static NEIGHBOUR: [[u8; 8]; 36] = {
    let mut table = [[OFF; 8]; 36];
    let mut cell = 0;
    while cell < 36 {
        let mut d = 0;
        while d < 8 {
            let (dc, dr) = Direction::ALL[d].delta();
            if let Some(n) = Cell::new((cell / 6) as i8 + dc, (cell % 6) as i8 + dr) {
                table[cell][d] = n.0;
            }
            d += 1;
        }
        cell += 1;
    }
    table
};

/// A line of three cells, identified by its index in [`LINES`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Line(u8);

impl Line {
    pub const COUNT: usize = 80;

    #[must_use]
    pub fn cells(self) -> [Cell; 3] {
        LINES[self.0 as usize].map(Cell)
    }

    #[inline]
    #[must_use]
    pub fn mask(self) -> u64 {
        LINE_MASKS[self.0 as usize]
    }

    pub fn all() -> impl Iterator<Item = Line> {
        (0..80u8).map(Line)
    }

    /// The line made of exactly these three cells (in any order), if there is one.
    #[must_use]
    pub fn from_cells(cells: [Cell; 3]) -> Option<Line> {
        let mask = cells.iter().fold(0u64, |m, c| m | c.bit());
        LINE_MASKS.iter().position(|&m| m == mask).map(|i| Line(i as u8))
    }
}

impl fmt::Display for Line {
    /// Its three cells in ascending order, no separator: `b2c3d4`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for c in self.cells() {
            write!(f, "{c}")?;
        }
        Ok(())
    }
}

/// The 80 lines, each with its cells in ascending order, listed in ascending order of cells.
pub(crate) static LINES: [[u8; 3]; 80] = {
    let mut lines = [[0u8; 3]; 80];
    let mut count = 0;
    let mut cell = 0;
    // Directions whose first step is "ascending", so the start cell is the smallest.
    let dirs = [(0i8, 1i8), (1, 1), (1, 0), (1, -1)];
    while cell < 36 {
        let mut d = 0;
        while d < 4 {
            let (dc, dr) = dirs[d];
            let c = (cell / 6) as i8;
            let r = (cell % 6) as i8;
            if let (Some(b), Some(e)) =
                (Cell::new(c + dc, r + dr), Cell::new(c + 2 * dc, r + 2 * dr))
            {
                let mut line = [cell as u8, b.0, e.0];
                // Keep the cells in ascending order (the anti-diagonal rises in index).
                if line[1] < line[0] {
                    line = [line[2], line[1], line[0]];
                }
                lines[count] = line;
                count += 1;
            }
            d += 1;
        }
        cell += 1;
    }
    assert!(count == 80);
    lines
};

pub(crate) static LINE_MASKS: [u64; 80] = {
    let mut masks = [0u64; 80];
    let mut i = 0;
    while i < 80 {
        masks[i] = (1 << LINES[i][0]) | (1 << LINES[i][1]) | (1 << LINES[i][2]);
        i += 1;
    }
    masks
};

/// A stretch of stitching between two orthogonally neighbouring cells.
///
/// Stitch lines 0–4 are the vertical seams between columns a|b … e|f, and their segments are
/// numbered by row; lines 5–9 are the horizontal seams between rows 1|2 … 5|6, their segments
/// numbered by column. A segment is `line * 6 + position`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Segment(u8);

impl Segment {
    pub const COUNT: usize = 60;

    #[must_use]
    pub const fn new(line: u8, position: u8) -> Segment {
        Segment(line * 6 + position)
    }

    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    #[inline]
    #[must_use]
    pub const fn line(self) -> u8 {
        self.0 / 6
    }

    #[inline]
    #[must_use]
    pub const fn position(self) -> u8 {
        self.0 % 6
    }

    /// The two cells beside the segment, lower/left one first (ascending order), and the
    /// directions in which a ghost arriving here pushes each of them.
    #[must_use]
    pub fn sides(self) -> [(Cell, Direction); 2] {
        let (line, pos) = (self.line() as i8, self.position() as i8);
        if line < 5 {
            [
                (Cell::new(line, pos).expect("on bed"), Direction::W),
                (Cell::new(line + 1, pos).expect("on bed"), Direction::E),
            ]
        } else {
            let row = line - 5;
            [
                (Cell::new(pos, row).expect("on bed"), Direction::S),
                (Cell::new(pos, row + 1).expect("on bed"), Direction::N),
            ]
        }
    }

    /// The segment between two cells, in either order, if they are orthogonal neighbours.
    #[must_use]
    pub fn between(a: Cell, b: Cell) -> Option<Segment> {
        let (a, b) = if a < b { (a, b) } else { (b, a) };
        if a.row() == b.row() && b.column() == a.column() + 1 {
            Some(Segment::new(a.column() as u8, a.row() as u8))
        } else if a.column() == b.column() && b.row() == a.row() + 1 {
            Some(Segment::new(5 + a.row() as u8, a.column() as u8))
        } else {
            None
        }
    }

    /// If this is an entry segment, the direction of travel of a ghost placed on it.
    #[must_use]
    pub const fn entry_direction(self) -> Option<Travel> {
        match self.position() {
            0 => Some(Travel::Forward),
            5 => Some(Travel::Backward),
            _ => None,
        }
    }

    /// The 20 entry segments, in ascending order of their names.
    pub fn entries() -> impl Iterator<Item = Segment> {
        ENTRY_SEGMENTS.iter().copied()
    }
}

impl fmt::Display for Segment {
    /// Its two cells in ascending order: `a1b1`, `c3c4`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [(a, _), (b, _)] = self.sides();
        write!(f, "{a}{b}")
    }
}

/// The entry segments sorted by name (by their first cell, then second).
static ENTRY_SEGMENTS: [Segment; 20] = {
    // Sort by (first cell, second cell) index; compute keys and do a small selection sort.
    let mut segs = [Segment(0); 20];
    let mut n = 0;
    let mut line = 0;
    while line < 10 {
        segs[n] = Segment::new(line, 0);
        segs[n + 1] = Segment::new(line, 5);
        n += 2;
        line += 1;
    }
    let mut i = 0;
    while i < 20 {
        let mut j = i + 1;
        while j < 20 {
            if sort_key(segs[j]) < sort_key(segs[i]) {
                let t = segs[i];
                segs[i] = segs[j];
                segs[j] = t;
            }
            j += 1;
        }
        i += 1;
    }
    segs
};

const fn sort_key(s: Segment) -> u16 {
    let line = s.line();
    let pos = s.position();
    let (a, b) = if line < 5 {
        (line * 6 + pos, (line + 1) * 6 + pos)
    } else {
        let row = line - 5;
        (pos * 6 + row, pos * 6 + row + 1)
    };
    (a as u16) * 64 + b as u16
}

/// A ghost's direction of travel along its stitch line: forward is N on vertical seams and E
/// on horizontal ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Travel {
    Forward,
    Backward,
}

impl Travel {
    /// The compass name of the direction on a given stitch line.
    #[must_use]
    pub const fn compass(self, line: u8) -> &'static str {
        match (line < 5, self) {
            (true, Travel::Forward) => "N",
            (true, Travel::Backward) => "S",
            (false, Travel::Forward) => "E",
            (false, Travel::Backward) => "W",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbour_counts() {
        let count = |c: Cell| Direction::ALL.iter().filter(|&&d| c.step(d).is_some()).count();
        let counts: Vec<usize> = Cell::all().map(count).collect();
        assert_eq!(counts.iter().filter(|&&n| n == 3).count(), 4);
        assert_eq!(counts.iter().filter(|&&n| n == 5).count(), 16);
        assert_eq!(counts.iter().filter(|&&n| n == 8).count(), 16);
    }

    #[test]
    fn lines_are_80_distinct_and_ascending() {
        let mut masks = LINE_MASKS.to_vec();
        masks.sort_unstable();
        masks.dedup();
        assert_eq!(masks.len(), 80);
        for l in Line::all() {
            let [a, b, c] = l.cells();
            assert!(a < b && b < c, "{l}");
        }
        assert_eq!(
            Line::from_cells([
                Cell::parse(b"d4").unwrap(),
                Cell::parse(b"b2").unwrap(),
                Cell::parse(b"c3").unwrap()
            ])
            .unwrap()
            .to_string(),
            "b2c3d4"
        );
        assert_eq!(
            Line::from_cells([
                Cell::parse(b"a3").unwrap(),
                Cell::parse(b"b2").unwrap(),
                Cell::parse(b"c1").unwrap()
            ])
            .unwrap()
            .to_string(),
            "a3b2c1"
        );
    }

    #[test]
    fn segments_and_entries() {
        let names: Vec<String> = Segment::entries().map(|s| s.to_string()).collect();
        assert_eq!(names.len(), 20);
        for expected in ["a1b1", "a6b6", "a1a2", "f1f2", "e6f6", "a5a6", "f5f6"] {
            assert!(names.contains(&expected.to_string()), "{expected}");
        }
        let mut sorted = names.clone();
        sorted.sort();
        assert_eq!(sorted, names);
        let a1 = Cell::parse(b"a1").unwrap();
        let b1 = Cell::parse(b"b1").unwrap();
        assert_eq!(Segment::between(b1, a1).unwrap().to_string(), "a1b1");
        let c3 = Cell::parse(b"c3").unwrap();
        let c4 = Cell::parse(b"c4").unwrap();
        assert_eq!(Segment::between(c3, c4).unwrap().to_string(), "c3c4");
        assert_eq!(Segment::between(a1, c3), None);
    }
}
