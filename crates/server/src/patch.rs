//! Small edits of SVG pictures, so a live event carries what changed on the board and not
//! the whole picture.
//!
//! A picture is cut into tokens: a new token starts at every `<`, after every `>`, and at
//! every space between a `<` and the next `>` (so an attribute is a token of its own). The
//! edit from an old picture to a new one is written as a list of items: `[start, count]`
//! copies `count` old tokens from token `start` (anywhere in the old picture, so a piece that
//! moved is copied from where it was), a string is new text. It is found by a token diff
//! (Myers, from the `similar` crate) whose insertions are then searched for runs of old
//! tokens. It knows nothing of any game and is exact: applying it to the old text gives the
//! new text byte for byte (`web/board.js` cuts tokens by the same rule). Pieces keep their
//! ids, so the page still animates them.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use similar::{Algorithm, DiffOp, capture_diff_slices_deadline};

use crate::protocol::{PatchItem, SvgPatch};

/// The tokens of `svg` (see the module documentation); their concatenation is `svg`.
#[must_use]
pub fn tokens(svg: &str) -> Vec<&str> {
    let bytes = svg.as_bytes();
    let mut out = Vec::new();
    let mut start = 0;
    let mut in_tag = false;
    for (j, &b) in bytes.iter().enumerate() {
        match b {
            b'<' => {
                if j > start {
                    out.push(&svg[start..j]);
                }
                start = j;
                in_tag = true;
            }
            b'>' if in_tag => {
                out.push(&svg[start..=j]);
                start = j + 1;
                in_tag = false;
            }
            b' ' if in_tag => {
                if j > start {
                    out.push(&svg[start..j]);
                }
                start = j;
            }
            _ => {}
        }
    }
    if start < bytes.len() {
        out.push(&svg[start..]);
    }
    out
}

/// What a copy item costs on the wire, about: `[1234,56],`.
const COPY_COST: usize = 10;

/// The edit that turns `old` into `new`.
#[must_use]
pub fn diff(old: &str, new: &str) -> SvgPatch {
    let a = tokens(old);
    let b = tokens(new);
    // A deadline bounds the diff of two unrelated pictures; the result is still exact.
    let deadline = Instant::now() + Duration::from_millis(20);
    let ops = capture_diff_slices_deadline(Algorithm::Myers, &a, &b, Some(deadline));
    let mut at: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, t) in a.iter().enumerate() {
        at.entry(t).or_default().push(i);
    }
    let mut out = Patch::default();
    for op in ops {
        match op {
            DiffOp::Equal { old_index, len, .. } => out.copy(old_index, len, &a),
            DiffOp::Delete { .. } => {}
            DiffOp::Insert { new_index, new_len, .. }
            | DiffOp::Replace { new_index, new_len, .. } => {
                out.fill(&a, &b[new_index..new_index + new_len], &at);
            }
        }
    }
    out.items
}

#[derive(Default)]
struct Patch {
    items: SvgPatch,
}

impl Patch {
    fn text(&mut self, text: &str) {
        match self.items.last_mut() {
            Some(PatchItem::Text(t)) => t.push_str(text),
            _ => self.items.push(PatchItem::Text(text.to_string())),
        }
    }

    /// Copies old tokens `start..start + len`, or writes them when that is shorter.
    fn copy(&mut self, start: usize, len: usize, a: &[&str]) {
        let bytes: usize = a[start..start + len].iter().map(|t| t.len()).sum();
        if bytes <= COPY_COST {
            return self.text(&a[start..start + len].concat());
        }
        match self.items.last_mut() {
            Some(PatchItem::Copy([s, n])) if *s + *n == start => *n += len,
            _ => self.items.push(PatchItem::Copy([start, len])),
        }
    }

    /// Writes `new` as copies of runs of old tokens found anywhere in `a`, and text.
    fn fill(&mut self, a: &[&str], new: &[&str], at: &HashMap<&str, Vec<usize>>) {
        let mut i = 0;
        while i < new.len() {
            // The longest run of old tokens starting here, among a few candidates.
            let mut best = (0, 0, 0); // (bytes, start, len)
            if let Some(starts) = at.get(new[i]) {
                for &s in starts.iter().take(16) {
                    let mut len = 0;
                    let mut bytes = 0;
                    while i + len < new.len() && s + len < a.len() && a[s + len] == new[i + len] {
                        bytes += new[i + len].len();
                        len += 1;
                    }
                    if bytes > best.0 {
                        best = (bytes, s, len);
                    }
                }
            }
            if best.0 > COPY_COST {
                self.copy(best.1, best.2, a);
                i += best.2;
            } else {
                self.text(new[i]);
                i += 1;
            }
        }
    }
}

/// `old` edited by `patch`; `None` when the patch copies tokens `old` does not have.
#[must_use]
pub fn apply(old: &str, patch: &[PatchItem]) -> Option<String> {
    let a = tokens(old);
    let mut out = String::with_capacity(old.len());
    for item in patch {
        match item {
            PatchItem::Copy([start, count]) => {
                for t in a.get(*start..start.checked_add(*count)?)? {
                    out.push_str(t);
                }
            }
            PatchItem::Text(t) => out.push_str(t),
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_cover_the_text_exactly() {
        let svg = "<svg a=\"1\"><g id=\"x\" class=\"a b\">text > x<b/></g>tail<unfinished y";
        let t = tokens(svg);
        assert_eq!(
            t,
            [
                "<svg",
                " a=\"1\">",
                "<g",
                " id=\"x\"",
                " class=\"a",
                " b\">",
                "text > x",
                "<b/>",
                "</g>",
                "tail",
                "<unfinished",
                " y"
            ]
        );
        assert_eq!(t.concat(), svg);
        assert!(tokens("").is_empty());
    }

    #[test]
    fn a_patch_rebuilds_the_new_text_and_is_small() {
        let old = "<svg><circle id=\"a\"/><circle id=\"b\"/><circle id=\"c\"/><text>1</text></svg>";
        let new = "<svg><circle id=\"a\"/><circle id=\"c\"/><rect id=\"d\"/><text>2</text></svg>";
        let p = diff(old, new);
        assert_eq!(apply(old, &p).as_deref(), Some(new));
        assert!(p.iter().any(|i| matches!(i, PatchItem::Copy(_))), "{p:?}");
        assert_eq!(diff(old, old), vec![PatchItem::Copy([0, tokens(old).len()])]);
        // A piece that moved is copied from where it was.
        let old = "<svg><g id=\"p\" class=\"piece white\"><circle r=\"15\" fill=\"#fff\"/></g><g id=\"q\"/></svg>";
        let new = "<svg><g id=\"q\"/><g id=\"p\" class=\"piece white\"><circle r=\"15\" fill=\"#fff\"/></g></svg>";
        let p = diff(old, new);
        assert_eq!(apply(old, &p).as_deref(), Some(new));
        let text: usize =
            p.iter().map(|i| if let PatchItem::Text(t) = i { t.len() } else { 0 }).sum();
        assert!(text < 30, "{p:?}");
        assert_eq!(apply("", &diff("", new)).as_deref(), Some(new));
        assert_eq!(apply(old, &diff(old, "")).as_deref(), Some(""));
        // A patch for another picture is refused, not applied out of bounds.
        assert_eq!(apply("<a>", &[PatchItem::Copy([0, 5])]), None);
        assert_eq!(apply("<a>", &[PatchItem::Copy([usize::MAX, 2])]), None);
    }
}
