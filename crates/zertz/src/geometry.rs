//! Board layouts: which rings each board has, their names and their neighbours.
//!
//! Every board is a set of positions in axial coordinates (q, s) with |q|, |s| ≤ 4 (the
//! shared reference, section 2.1). Rings are numbered 0..n by column, then by row, so that a
//! board fits a `u64` bitboard (at most 61 rings).

/// "No such position" in the neighbour tables.
pub const NONE: u8 = u8::MAX;

/// The six directions, clockwise: N, NE, SE, S, SW, NW, as axial (dq, ds).
pub const DIRECTIONS: [(i8, i8); 6] = [(0, 1), (1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1)];

/// The physical boards. `blitz` plays on [`Board::B37`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Board {
    B37,
    B40,
    B43,
    B44,
    B48,
    B61,
}

const GROUP1: [(i8, i8); 3] = [(-3, 4), (-2, 4), (-1, 4)]; // a5 b6 c7
const GROUP2: [(i8, i8); 3] = [(1, 3), (2, 2), (3, 1)]; // e7 f6 g5
const GROUP3: [(i8, i8); 4] = [(4, -3), (4, -2), (4, -1), (4, 0)]; // h1 h2 h3 h4
const D8: (i8, i8) = (0, 4);

const fn abs(x: i8) -> i8 {
    if x < 0 { -x } else { x }
}

const fn distance(q: i8, s: i8) -> i8 {
    let a = abs(q);
    let b = abs(s);
    let c = abs(q + s);
    let m = if a > b { a } else { b };
    if m > c { m } else { c }
}

const fn in_list(list: &[(i8, i8)], q: i8, s: i8) -> bool {
    let mut i = 0;
    while i < list.len() {
        if list[i].0 == q && list[i].1 == s {
            return true;
        }
        i += 1;
    }
    false
}

const fn contains(board: Board, q: i8, s: i8) -> bool {
    if q < -4 || q > 4 || s < -4 || s > 4 {
        return false;
    }
    let d = distance(q, s);
    match board {
        Board::B61 => d <= 4,
        Board::B37 => d <= 3,
        Board::B40 => d <= 3 || in_list(&GROUP1, q, s),
        Board::B43 => d <= 3 || in_list(&GROUP1, q, s) || in_list(&GROUP2, q, s),
        Board::B44 => d <= 3 || in_list(&GROUP1, q, s) || in_list(&GROUP3, q, s),
        Board::B48 => {
            d <= 3
                || in_list(&GROUP1, q, s)
                || in_list(&GROUP2, q, s)
                || in_list(&GROUP3, q, s)
                || (q == D8.0 && s == D8.1)
        }
    }
}

/// One board's rings, names and neighbours.
#[derive(Debug)]
pub struct Layout {
    /// Number of rings.
    pub n: usize,
    /// Index of the base column (3, or 4 on the 61 board).
    pub m: i8,
    /// Column index (a = 0) of each ring.
    pub col: [u8; 61],
    /// Row (from 1) of each ring.
    pub row: [u8; 61],
    /// Axial q of each ring.
    pub q: [i8; 61],
    /// Axial s of each ring.
    pub s: [i8; 61],
    /// The ring one step away in each direction, or [`NONE`].
    pub nb: [[u8; 6]; 61],
    /// The neighbours of each ring as a bitboard.
    pub nb_mask: [u64; 61],
    /// Ring index by `(col, row - 1)`, or [`NONE`].
    pub by_name: [[u8; 9]; 9],
    /// Every ring of the board.
    pub all: u64,
    /// The neighbours of each ring in directions `d` and `d + 1` (mod 6) as a bitboard, by
    /// `d`: a ring with none of a pair left on the board is free (if vacant).
    pub(crate) pairs: [[u64; 6]; 61],
}

const fn index_at(grid: &[[u8; 9]; 9], q: i8, s: i8) -> u8 {
    if q < -4 || q > 4 || s < -4 || s > 4 {
        return NONE;
    }
    grid[(q + 4) as usize][(s + 4) as usize]
}

const fn build(board: Board) -> Layout {
    let m: i8 = if matches!(board, Board::B61) { 4 } else { 3 };
    let mut layout = Layout {
        n: 0,
        m,
        col: [0; 61],
        row: [0; 61],
        q: [0; 61],
        s: [0; 61],
        nb: [[NONE; 6]; 61],
        nb_mask: [0; 61],
        by_name: [[NONE; 9]; 9],
        all: 0,
        pairs: [[0; 6]; 61],
    };
    let mut grid = [[NONE; 9]; 9];
    let mut q: i8 = -4;
    while q <= 4 {
        let mut s: i8 = -4;
        while s <= 4 {
            if contains(board, q, s) {
                let i = layout.n;
                let c = q + m;
                let extra = if m - c > 0 { m - c } else { 0 };
                let r = s + m + 1 - extra;
                layout.col[i] = c as u8;
                layout.row[i] = r as u8;
                layout.q[i] = q;
                layout.s[i] = s;
                grid[(q + 4) as usize][(s + 4) as usize] = i as u8;
                layout.by_name[c as usize][(r - 1) as usize] = i as u8;
                layout.all |= 1u64 << i;
                layout.n += 1;
            }
            s += 1;
        }
        q += 1;
    }
    let mut i = 0;
    while i < layout.n {
        let mut d = 0;
        while d < 6 {
            let j = index_at(&grid, layout.q[i] + DIRECTIONS[d].0, layout.s[i] + DIRECTIONS[d].1);
            layout.nb[i][d] = j;
            if j != NONE {
                layout.nb_mask[i] |= 1u64 << j;
                layout.pairs[i][d] |= 1u64 << j;
                layout.pairs[i][(d + 5) % 6] |= 1u64 << j;
            }
            d += 1;
        }
        i += 1;
    }
    layout
}

pub static L37: Layout = build(Board::B37);
pub static L40: Layout = build(Board::B40);
pub static L43: Layout = build(Board::B43);
pub static L44: Layout = build(Board::B44);
pub static L48: Layout = build(Board::B48);
pub static L61: Layout = build(Board::B61);

impl Board {
    /// The layout of this board.
    #[must_use]
    pub fn layout(self) -> &'static Layout {
        match self {
            Board::B37 => &L37,
            Board::B40 => &L40,
            Board::B43 => &L43,
            Board::B44 => &L44,
            Board::B48 => &L48,
            Board::B61 => &L61,
        }
    }
}

impl Layout {
    /// Whether ring `i` has two neighbouring positions, side by side (directions `d` and
    /// `d + 1`), without a ring among `rings`: the edge a ring must be on to be free.
    #[must_use]
    pub(crate) fn at_edge(&self, i: u8, rings: u64) -> bool {
        self.pairs[i as usize].iter().any(|&pair| rings & pair == 0)
    }

    /// The name of ring `i`: `d4`.
    #[must_use]
    pub fn name(&self, i: u8) -> String {
        let mut s = String::with_capacity(2);
        self.write_name(i, &mut s);
        s
    }

    /// Appends the name of ring `i`.
    pub fn write_name(&self, i: u8, out: &mut String) {
        out.push((b'a' + self.col[i as usize]) as char);
        out.push((b'0' + self.row[i as usize]) as char);
    }

    /// The ring called `col`/`row` (a = 0, rows from 1), if the layout has it.
    #[must_use]
    pub fn lookup(&self, col: u8, row: u8) -> Option<u8> {
        if col >= 9 || row == 0 || row > 9 {
            return None;
        }
        let i = self.by_name[col as usize][(row - 1) as usize];
        (i != NONE).then_some(i)
    }

    /// The ring named by `text` (`d4`), if the layout has it.
    #[must_use]
    pub fn parse_name(&self, text: &str) -> Option<u8> {
        let b = text.as_bytes();
        if b.len() != 2 || !(b'a'..=b'i').contains(&b[0]) || !(b'1'..=b'9').contains(&b[1]) {
            return None;
        }
        self.lookup(b[0] - b'a', b[1] - b'0')
    }

    /// The direction from `a` to `b` when `b` is exactly two steps away in a straight line.
    #[must_use]
    pub fn two_step_direction(&self, a: u8, b: u8) -> Option<usize> {
        let dq = self.q[b as usize] - self.q[a as usize];
        let ds = self.s[b as usize] - self.s[a as usize];
        DIRECTIONS.iter().position(|&(x, y)| 2 * x == dq && 2 * y == ds)
    }
}

/// Iterates over the set bits of a bitboard, lowest first.
#[derive(Clone, Copy)]
pub struct Bits(pub u64);

impl Iterator for Bits {
    type Item = u8;
    #[inline]
    fn next(&mut self) -> Option<u8> {
        if self.0 == 0 {
            None
        } else {
            let i = self.0.trailing_zeros() as u8;
            self.0 &= self.0 - 1;
            Some(i)
        }
    }
}
