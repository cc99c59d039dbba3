//! Small edits of SVG pictures, so a live event carries what changed on the board and not
//! the whole picture.
//!
//! A picture is cut into tokens: a new token starts at every `<`, after every `>`, and at
//! every space between a `<` and the next `>` (so an attribute is a token of its own). The
//! edit from an old picture to a new one is written as a list of items: `[start, count]`
//! copies `count` old tokens from token `start` (anywhere in the old picture, so a piece that
//! moved is copied from where it was), a string is new text (see [`diff`] for how it is
//! found). It knows nothing of any game and is exact: applying it to the old text gives the
//! new text byte for byte (`web/board.js` cuts tokens by the same rule). Pieces keep their
//! ids, so the page still animates them.

use crate::{PatchItem, SvgPatch};

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
/// Candidate places in the old picture tried for each new token that breaks a run.
const CANDIDATES: usize = 16;

fn hash(token: &str) -> u64 {
    use std::hash::BuildHasher;
    foldhash::fast::FixedState::with_seed(0x5eed).hash_one(token)
}

/// The edit that turns `old` into `new`.
///
/// One pass over the new tokens, LZ77-style: a run of old tokens goes on while it matches;
/// where it breaks, the places where the new token occurs in the old picture (found through
/// hash chains) are tried, the next old tokens first, and the longest run wins. Tokens no run
/// covers cheaply are written out. Linear in the pictures' size.
#[must_use]
pub fn diff(old: &str, new: &str) -> SvgPatch {
    let a = tokens(old);
    let b = tokens(new);
    let ha: Vec<u64> = a.iter().map(|t| hash(t)).collect();
    let hb: Vec<u64> = b.iter().map(|t| hash(t)).collect();
    // Hash chains over the old tokens: `head` by hash bits, `next` to the next place with the
    // same bits, in increasing order.
    let bits = (a.len().max(16) * 2).next_power_of_two().trailing_zeros();
    let slot = |h: u64| (h >> (64 - bits)) as usize;
    let mut head = vec![u32::MAX; 1 << bits];
    let mut next = vec![u32::MAX; a.len()];
    for i in (0..a.len()).rev() {
        let s = slot(ha[i]);
        next[i] = head[s];
        head[s] = u32::try_from(i).unwrap_or(u32::MAX);
    }
    // The length and bytes of the run of old tokens from `p` equal to new tokens from `i`.
    let run = |p: usize, i: usize| -> (usize, usize) {
        let (mut len, mut bytes) = (0, 0);
        while p + len < a.len()
            && i + len < b.len()
            && ha[p + len] == hb[i + len]
            && a[p + len] == b[i + len]
        {
            bytes += b[i + len].len();
            len += 1;
        }
        (len, bytes)
    };
    let mut out = Patch::default();
    let mut expect = 0; // the old token a run would continue with
    let mut i = 0;
    while i < b.len() {
        // (bytes, start, len) of the best run: the expected place and its next two first
        // (a token replaced or dropped), then the places the token occurs at.
        let mut best = (0, 0, 0);
        for p in expect..(expect + 3).min(a.len()) {
            let (len, bytes) = run(p, i);
            if bytes > best.0 {
                best = (bytes, p, len);
            }
        }
        if best.0 <= 4 * COPY_COST {
            let mut p = head[slot(hb[i])];
            let mut tried = 0;
            while p != u32::MAX && tried < CANDIDATES {
                let pu = p as usize;
                let (len, bytes) = run(pu, i);
                if bytes > best.0 {
                    best = (bytes, pu, len);
                }
                tried += 1;
                p = next[pu];
            }
        }
        if best.0 > COPY_COST {
            out.copy(best.1, best.2, &a);
            expect = best.1 + best.2;
            i += best.2;
        } else {
            out.text(b[i]);
            expect += 1;
            i += 1;
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
