//! Evaluation weights as data: a game's evaluator reads its numbers from a weights file, one
//! line a named group (`RESERVE 100`, `LOW_RESERVE 260 150 70 25`), so `ply tune` can fit
//! them to games and write the result back, and the file is read when the crate is built
//! (a malformed built-in file does not compile).
//!
//! [`weights!`](crate::weights!) declares a game's groups and makes a `Copy` array type with
//! one index constant a group; [`Tunable`] is an evaluator whose numbers are such weights.
//! The same reader, a `const fn`, reads the built-in files at compile time and other files
//! at run time, where a fault is a typed [`WeightsError`] naming the line.

use std::fmt::{self, Write as _};

use crate::{Evaluator, Game};

/// One named group of weights: its key in a weights file, how many numbers it holds, whether
/// `ply tune` fits it (a `fixed` group holds a convention, like the value of a near-certain
/// win, that data cannot improve), and what it means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WeightGroup {
    pub name: &'static str,
    pub len: usize,
    pub tuned: bool,
    pub doc: &'static str,
}

/// A game's evaluation weights: a fixed array of numbers in named groups (made by
/// [`weights!`](crate::weights!)).
pub trait Weights: Copy + Send + Sync + fmt::Debug + PartialEq + 'static {
    /// The groups, in the order of [`values`](Weights::values).
    const GROUPS: &'static [WeightGroup];

    fn values(&self) -> &[i32];

    fn values_mut(&mut self) -> &mut [i32];

    /// Reads a weights file.
    ///
    /// # Errors
    /// The first fault, with its line: an unknown or repeated name, a missing group, too few
    /// or too many numbers, or a word that is not a number.
    fn read(text: &str) -> Result<Self, WeightsError>;

    /// The weights as a weights file: `comment` first (each line as a `#` comment), then one
    /// line a group, each after its meaning.
    fn to_text(&self, comment: &str) -> String {
        let mut out = String::new();
        for line in comment.lines() {
            if line.is_empty() {
                out.push_str("#\n");
            } else {
                let _ = writeln!(out, "# {line}");
            }
        }
        let mut at = 0;
        for group in Self::GROUPS {
            out.push('\n');
            for line in group.doc.lines() {
                let _ = writeln!(out, "#{line}");
            }
            if !group.tuned {
                out.push_str("# (fixed: ply tune leaves it as it is)\n");
            }
            out.push_str(group.name);
            for v in &self.values()[at..at + group.len] {
                let _ = write!(out, " {v}");
            }
            out.push('\n');
            at += group.len;
        }
        out
    }

    /// The indices of the values `ply tune` may change.
    #[must_use]
    fn tuned_indices() -> Vec<usize> {
        let mut out = Vec::new();
        let mut at = 0;
        for group in Self::GROUPS {
            if group.tuned {
                out.extend(at..at + group.len);
            }
            at += group.len;
        }
        out
    }

    /// The name of the value at `index`: the group's, with the position in it if it holds
    /// more than one (`LOW_RESERVE[2]`).
    #[must_use]
    fn value_name(index: usize) -> String {
        let mut at = 0;
        for group in Self::GROUPS {
            if index < at + group.len {
                return if group.len == 1 {
                    group.name.to_string()
                } else {
                    format!("{}[{}]", group.name, index - at)
                };
            }
            at += group.len;
        }
        format!("#{index}")
    }
}

/// An evaluator whose numbers are [`Weights`]: `ply tune` fits them and `ply match` can play
/// one set against another.
pub trait Tunable<G: Game>: Evaluator<G> + Default {
    type Weights: Weights;

    /// The weight sets built into the program, by name; the first is the default.
    const SETS: &'static [(&'static str, &'static str)];

    fn weights(&self) -> &Self::Weights;

    #[must_use]
    fn with_weights(weights: Self::Weights) -> Self;

    /// The evaluator with the built-in set `name` (`default`, `hand`, …) or, failing that,
    /// the weights file at path `name`.
    ///
    /// # Errors
    /// A file that cannot be read or is not a weights file of this game.
    fn from_set_or_file(name: &str) -> Result<Self, String> {
        let text = match Self::SETS.iter().find(|(n, _)| *n == name) {
            Some((_, text)) => (*text).to_string(),
            None => std::fs::read_to_string(name).map_err(|e| {
                let sets: Vec<&str> = Self::SETS.iter().map(|(n, _)| *n).collect();
                format!(
                    "'{name}' is neither a built-in weight set ({}) nor a readable file: {e}",
                    sets.join(", ")
                )
            })?,
        };
        let weights = Self::Weights::read(&text).map_err(|e| format!("{name}: {e}"))?;
        Ok(Self::with_weights(weights))
    }
}

/// Why a weights file could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {problem}")]
pub struct WeightsError {
    /// 1-based; 0 for a fault of the whole file (a missing group).
    pub line: usize,
    pub problem: String,
}

/// A fault found by [`scan`], in terms a `const fn` can return.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    UnknownName { line: usize },
    Repeated { line: usize, group: usize },
    NotANumber { line: usize },
    TooFew { line: usize, group: usize },
    TooMany { line: usize, group: usize },
    Missing { group: usize },
}

impl Fault {
    /// The fault explained with the text it was found in.
    #[must_use]
    pub fn explain(self, text: &str, groups: &[WeightGroup]) -> WeightsError {
        let words = |line: usize| -> Vec<&str> {
            let l = text.lines().nth(line - 1).unwrap_or("");
            l.split('#').next().unwrap_or("").split_whitespace().collect()
        };
        let (line, problem) = match self {
            Fault::UnknownName { line } => {
                let names: Vec<&str> = groups.iter().map(|g| g.name).collect();
                let w = words(line);
                (
                    line,
                    format!(
                        "'{}' is not a weight of this game (they are {})",
                        w.first().unwrap_or(&""),
                        names.join(", ")
                    ),
                )
            }
            Fault::Repeated { line, group } => {
                (line, format!("{} is given a second time", groups[group].name))
            }
            Fault::NotANumber { line } => {
                let bad = words(line)
                    .into_iter()
                    .skip(1)
                    .find(|w| w.parse::<i32>().is_err())
                    .unwrap_or("")
                    .to_string();
                (line, format!("'{bad}' is not a whole number within ±2147483647"))
            }
            Fault::TooFew { line, group } | Fault::TooMany { line, group } => {
                let g = groups[group];
                let s = if g.len == 1 { "" } else { "s" };
                let found = words(line).len() - 1;
                (line, format!("{} needs {} number{s}, found {found}", g.name, g.len))
            }
            Fault::Missing { group } => (0, format!("{} is missing", groups[group].name)),
        };
        WeightsError { line, problem }
    }
}

const fn same(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

const fn is_space(b: u8) -> bool {
    b == b' ' || b == b'\t' || b == b'\r'
}

/// The index of the first value of group `name` (for the index constants of
/// [`weights!`](crate::weights!)).
///
/// # Panics
/// If no group has that name (at compile time: the constant does not compile).
#[must_use]
pub const fn offset(groups: &[WeightGroup], name: &str) -> usize {
    let mut at = 0;
    let mut i = 0;
    while i < groups.len() {
        if same(groups[i].name.as_bytes(), name.as_bytes()) {
            return at;
        }
        at += groups[i].len;
        i += 1;
    }
    panic!("no weight group of that name")
}

/// Whether a group declared `tuned` or `fixed` is tuned.
///
/// # Panics
/// On another word (a compile error where [`weights!`](crate::weights!) is used).
#[must_use]
pub const fn tuned(kind: &str) -> bool {
    if same(kind.as_bytes(), b"tuned") {
        true
    } else if same(kind.as_bytes(), b"fixed") {
        false
    } else {
        panic!("a weight group is 'tuned' or 'fixed'")
    }
}

/// Reads the `N` values of a weights file laid out as `groups`. A `const fn`, so a game's
/// built-in file is read by the compiler; at run time [`Weights::read`] explains a fault.
///
/// The format: one group a line, its name then its numbers, separated by spaces; `#` starts a
/// comment; blank lines are ignored; every group appears exactly once, in any order.
///
/// # Errors
/// The first [`Fault`].
pub const fn scan<const N: usize>(text: &str, groups: &[WeightGroup]) -> Result<[i32; N], Fault> {
    let bytes = text.as_bytes();
    let mut values = [0i32; N];
    let mut seen = [false; 64];
    assert!(groups.len() <= 64, "at most 64 weight groups");
    let mut pos = 0;
    let mut line = 0;
    while pos < bytes.len() {
        line += 1;
        let mut end = pos;
        while end < bytes.len() && bytes[end] != b'\n' {
            end += 1;
        }
        // The line without its comment.
        let mut stop = pos;
        while stop < end && bytes[stop] != b'#' {
            stop += 1;
        }
        let mut at = pos;
        while at < stop && is_space(bytes[at]) {
            at += 1;
        }
        if at < stop {
            let name_start = at;
            while at < stop && !is_space(bytes[at]) {
                at += 1;
            }
            let name = bytes.split_at(at).0.split_at(name_start).1;
            let mut group = 0;
            let mut first = 0;
            while group < groups.len() && !same(groups[group].name.as_bytes(), name) {
                first += groups[group].len;
                group += 1;
            }
            if group == groups.len() {
                return Err(Fault::UnknownName { line });
            }
            if seen[group] {
                return Err(Fault::Repeated { line, group });
            }
            seen[group] = true;
            let mut count = 0;
            loop {
                while at < stop && is_space(bytes[at]) {
                    at += 1;
                }
                if at == stop {
                    break;
                }
                if count == groups[group].len {
                    return Err(Fault::TooMany { line, group });
                }
                let negative = bytes[at] == b'-';
                if negative {
                    at += 1;
                }
                let digits = at;
                let mut v: i64 = 0;
                while at < stop && !is_space(bytes[at]) {
                    let d = bytes[at];
                    if !d.is_ascii_digit() || v > i32::MAX as i64 {
                        return Err(Fault::NotANumber { line });
                    }
                    v = v * 10 + (d - b'0') as i64;
                    at += 1;
                }
                if at == digits || v > i32::MAX as i64 {
                    return Err(Fault::NotANumber { line });
                }
                values[first + count] = if negative { -v as i32 } else { v as i32 };
                count += 1;
            }
            if count < groups[group].len {
                return Err(Fault::TooFew { line, group });
            }
        }
        pos = end + 1;
    }
    let mut group = 0;
    while group < groups.len() {
        if !seen[group] {
            return Err(Fault::Missing { group });
        }
        group += 1;
    }
    Ok(values)
}

/// Declares a game's evaluation weights: a `Copy` type holding every value, one index
/// constant a group (the index of its first value), and its [`Weights`] layout. Each group is
/// `tuned` (fitted by `ply tune`) or `fixed`, with a length; its doc comment is written above
/// it in weights files.
///
/// ```
/// ply_core::weights! {
///     /// A toy game's weights.
///     pub struct Toy {
///         /// A piece in hand.
///         tuned IN_HAND: 1,
///         /// By distance from the centre.
///         tuned CENTRE: 3,
///         /// A sure win.
///         fixed WIN: 1,
///     }
/// }
/// const TOY: Toy = Toy::built_in("IN_HAND 100\nCENTRE 9 4 0\nWIN 20000 # sure\n");
/// assert_eq!(TOY[Toy::CENTRE + 1], 4);
/// assert_eq!(TOY[Toy::WIN], 20000);
/// ```
#[macro_export]
macro_rules! weights {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident {
            $( $(#[doc = $doc:literal])* $kind:ident $group:ident : $len:literal ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        $vis struct $name(pub [i32; 0 $(+ $len)*]);

        impl $name {
            $(
                $(#[doc = $doc])*
                pub const $group: usize =
                    $crate::weights::offset(<Self as $crate::Weights>::GROUPS, stringify!($group));
            )*

            /// The weights of a built-in weights file, read by the compiler.
            ///
            /// # Panics
            /// If the text is not a valid weights file (a compile error in a constant).
            #[must_use]
            pub const fn built_in(text: &str) -> Self {
                match $crate::weights::scan::<{ 0 $(+ $len)* }>(
                    text,
                    <Self as $crate::Weights>::GROUPS,
                ) {
                    Ok(values) => $name(values),
                    Err(_) => panic!("a built-in weights file is not valid: `ply match --a-weights FILE` names the faulty line"),
                }
            }
        }

        impl ::core::ops::Index<usize> for $name {
            type Output = i32;
            fn index(&self, index: usize) -> &i32 {
                &self.0[index]
            }
        }

        impl $crate::Weights for $name {
            const GROUPS: &'static [$crate::WeightGroup] = &[$(
                $crate::WeightGroup {
                    name: stringify!($group),
                    len: $len,
                    tuned: $crate::weights::tuned(stringify!($kind)),
                    doc: concat!($($doc, "\n"),*),
                }
            ),*];
            fn values(&self) -> &[i32] {
                &self.0
            }
            fn values_mut(&mut self) -> &mut [i32] {
                &mut self.0
            }
            fn read(text: &str) -> Result<Self, $crate::WeightsError> {
                $crate::weights::scan::<{ 0 $(+ $len)* }>(text, Self::GROUPS)
                    .map($name)
                    .map_err(|fault| fault.explain(text, Self::GROUPS))
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    crate::weights! {
        /// Weights of a test.
        struct Test {
            /// One.
            tuned ONE: 1,
            /// A table.
            tuned TABLE: 3,
            /// Kept.
            fixed KEPT: 1,
        }
    }

    const TEXT: &str = "# a comment\n\nTABLE 4 -5 6   # inline\n  ONE 100\nKEPT 20000\n";

    #[test]
    fn a_file_reads_in_any_order_and_round_trips() {
        const BUILT: Test = Test::built_in(TEXT);
        assert_eq!(BUILT.0, [100, 4, -5, 6, 20000]);
        assert_eq!((Test::ONE, Test::TABLE, Test::KEPT), (0, 1, 4));
        assert_eq!(BUILT[Test::TABLE + 1], -5);
        let text = BUILT.to_text("first line\n\nthird");
        assert!(text.starts_with("# first line\n#\n# third\n"), "{text}");
        assert!(text.contains("# (fixed: ply tune leaves it as it is)\nKEPT 20000\n"), "{text}");
        assert_eq!(Test::read(&text), Ok(BUILT));
        assert_eq!(Test::tuned_indices(), vec![0, 1, 2, 3]);
        assert_eq!(Test::value_name(2), "TABLE[1]");
        assert_eq!(Test::value_name(4), "KEPT");
    }

    #[test]
    fn every_fault_names_its_line() {
        let cases = [
            (
                "ONE 1\nTABLE 1 2 3\nKEPT 1\nTWO 2\n",
                4,
                "'TWO' is not a weight of this game (they are ONE, TABLE, KEPT)",
            ),
            ("ONE 1\nONE 2\n", 2, "ONE is given a second time"),
            ("ONE x1\n", 1, "'x1' is not a whole number within ±2147483647"),
            ("ONE 2147483648\n", 1, "'2147483648' is not a whole number within ±2147483647"),
            ("ONE -\n", 1, "'-' is not a whole number within ±2147483647"),
            ("ONE 1\nTABLE 1 2\n", 2, "TABLE needs 3 numbers, found 2"),
            ("ONE 1 2\n", 1, "ONE needs 1 number, found 2"),
            ("ONE 1\nTABLE 1 2 3\n", 0, "KEPT is missing"),
        ];
        for (text, line, problem) in cases {
            let e = Test::read(text).unwrap_err();
            assert_eq!((e.line, e.problem.as_str()), (line, problem), "{text:?}");
        }
        assert_eq!(Test::read("ONE -2147483647\nTABLE 0 0 0\nKEPT 0").unwrap()[0], -2_147_483_647);
    }
}
