//! The legal moves of a position as a compact trie of click paths, for the connection(s)
//! holding the seat to move.
//!
//! A legal move is the list of item ids a person clicks to make it (its click path, see
//! `ply_core::View::click_path`); no path is a prefix of another except where a choice
//! really remains. The trie of all paths is sent as:
//! - `ids`: the item ids it names; each is written in the tree by its **code**, its index in
//!   `ids` in base 64 over `0-9A-Za-z-_`, all codes of one message having the same width (1
//!   character up to 64 ids, 2 up to 4,096, else 3);
//! - `tree`: `['.'] children`, where a leading `.` says the prefix itself is a whole move,
//!   and `children` is a sequence of `code` (a click that completes a move), `code*` (a
//!   click whose continuations were cut off to keep the message small: ask for them with a
//!   `choices` message naming the prefix), or `code(['.'] children)` (a click that goes on;
//!   `.` when it also completes a move).
//!
//! Nodes are expanded breadth first until the message reaches [`BUDGET`] bytes, so a
//! position with thousands of moves (PÜNCT's start has 4,986) sends the first clicks in full
//! and the rest on demand. The moves' notation is not sent in the trie; a move is played by
//! its path, and a `choices` answer for a prefix lists the notation of the moves under it when
//! there are at most [`FEW`] (for buttons that name them), else of the move the prefix itself
//! makes, if it is one.

use std::collections::HashMap;

use crate::{Choices, LegalMove};

/// The most bytes of `ids` and `tree` a choices message aims at.
pub const BUDGET: usize = 6 * 1024;

/// Up to this many moves under a prefix, an answer lists their notation.
pub const FEW: usize = 12;

const ALPHABET: &[u8; 64] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_";

/// Every legal move of one position, by click path.
#[derive(Clone, Debug, Default)]
pub struct ChoiceIndex {
    /// The item ids of all paths, sorted.
    ids: Vec<String>,
    /// Each move's path (as indices into `ids`) and notation, sorted by path.
    moves: Vec<(Box<[u16]>, String)>,
}

/// One node of a trie being encoded.
struct Node {
    /// Index into [`ChoiceIndex::ids`].
    id: u16,
    /// The path to here is a whole move.
    complete: bool,
    children: Vec<usize>,
    expanded: bool,
}

impl ChoiceIndex {
    /// The index of `(notation, click path)` pairs. Paths with more than 65,535 distinct
    /// item ids are not supported (no board has that many items).
    #[must_use]
    pub fn new(click_paths: Vec<(String, Vec<String>)>) -> ChoiceIndex {
        let mut ids: Vec<String> =
            click_paths.iter().flat_map(|(_, p)| p.iter().cloned()).collect();
        ids.sort_unstable();
        ids.dedup();
        let code: HashMap<&str, u16> = ids
            .iter()
            .enumerate()
            .map(|(i, id)| (id.as_str(), u16::try_from(i).unwrap_or(u16::MAX)))
            .collect();
        let mut moves: Vec<(Box<[u16]>, String)> = click_paths
            .into_iter()
            .map(|(m, p)| (p.iter().map(|id| code[id.as_str()]).collect(), m))
            .collect();
        moves.sort_unstable();
        ChoiceIndex { ids, moves }
    }

    /// How many legal moves there are.
    #[must_use]
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    fn codes(&self, path: &[String]) -> Option<Vec<u16>> {
        path.iter()
            .map(|id| {
                self.ids
                    .binary_search_by(|x| x.as_str().cmp(id))
                    .ok()
                    .and_then(|i| u16::try_from(i).ok())
            })
            .collect()
    }

    /// The notation of the move whose whole click path is `path`.
    #[must_use]
    pub fn resolve(&self, path: &[String]) -> Option<&str> {
        let codes = self.codes(path)?;
        let i = self.moves.binary_search_by(|(p, _)| p.as_ref().cmp(codes.as_slice())).ok()?;
        Some(&self.moves[i].1)
    }

    /// Every legal move with its click path, sorted by notation.
    #[must_use]
    pub fn legal_moves(&self) -> Vec<LegalMove> {
        let mut out: Vec<LegalMove> = self
            .moves
            .iter()
            .map(|(p, m)| LegalMove { m: m.clone(), p: self.path_of(p) })
            .collect();
        out.sort_by(|a, b| a.m.cmp(&b.m));
        out
    }

    fn path_of(&self, codes: &[u16]) -> Vec<String> {
        codes.iter().map(|&c| self.ids[usize::from(c)].clone()).collect()
    }

    /// The moves whose path starts with `codes`, as a range of `self.moves`.
    fn range(&self, codes: &[u16]) -> std::ops::Range<usize> {
        let start = self.moves.partition_point(|(p, _)| p.as_ref() < codes);
        let len = self.moves[start..]
            .iter()
            .take_while(|(p, _)| p.len() >= codes.len() && &p[..codes.len()] == codes)
            .count();
        start..start + len
    }

    /// The trie of the moves after `prefix`, within [`BUDGET`] (see the module documentation);
    /// `None` when no move starts with `prefix`.
    #[must_use]
    pub fn encode(&self, version: i64, prefix: &[String]) -> Option<Choices> {
        let codes = self.codes(prefix)?;
        let range = self.range(&codes);
        if range.is_empty() {
            return None;
        }
        let depth = codes.len();
        let moves = &self.moves[range.clone()];
        // Build the whole trie below the prefix in an arena; node 0 is the prefix itself.
        let mut nodes = vec![Node { id: 0, complete: false, children: Vec::new(), expanded: true }];
        for (path, _) in moves {
            let mut at = 0;
            for (d, &id) in path.iter().enumerate().skip(depth) {
                let found = nodes[at].children.last().copied().filter(|&c| nodes[c].id == id);
                at = match found {
                    Some(c) => c,
                    None => {
                        nodes.push(Node {
                            id,
                            complete: false,
                            children: Vec::new(),
                            expanded: false,
                        });
                        let new = nodes.len() - 1;
                        nodes[at].children.push(new);
                        new
                    }
                };
                if d + 1 == path.len() {
                    nodes[at].complete = true;
                }
            }
            if path.len() == depth {
                nodes[0].complete = true;
            }
        }
        let distinct = {
            let mut seen: Vec<u16> = nodes[1..].iter().map(|n| n.id).collect();
            seen.sort_unstable();
            seen.dedup();
            seen.len()
        };
        let width = match distinct {
            0..=64 => 1,
            65..=4096 => 2,
            _ => 3,
        };
        // Breadth first: expand each node whose children still fit in the budget.
        let mut used = vec![false; self.ids.len()];
        let entry = |n: &Node| width + usize::from(!n.children.is_empty());
        let mut size = usize::from(nodes[0].complete);
        let id_bytes = |id: u16, used: &mut Vec<bool>| -> usize {
            let i = usize::from(id);
            if std::mem::replace(&mut used[i], true) { 0 } else { self.ids[i].len() + 3 }
        };
        for c in nodes[0].children.clone() {
            size += entry(&nodes[c]) + id_bytes(nodes[c].id, &mut used);
        }
        let mut queue: std::collections::VecDeque<usize> = nodes[0].children.clone().into();
        while let Some(n) = queue.pop_front() {
            if nodes[n].children.is_empty() {
                continue;
            }
            let mut cost = 1 + usize::from(nodes[n].complete); // "(" + ")" - "*", and "."
            let mut new_ids = Vec::new();
            for &c in &nodes[n].children {
                cost += entry(&nodes[c]);
                let i = usize::from(nodes[c].id);
                if !used[i] && !new_ids.contains(&i) {
                    new_ids.push(i);
                    cost += self.ids[i].len() + 3;
                }
            }
            if size + cost <= BUDGET {
                size += cost;
                for i in new_ids {
                    used[i] = true;
                }
                nodes[n].expanded = true;
                queue.extend(nodes[n].children.iter().copied());
            }
        }
        // The codes of the ids actually sent may be narrower than the budget assumed.
        let width = match used.iter().filter(|&&u| u).count() {
            0..=64 => 1,
            65..=4096 => 2,
            _ => 3,
        };
        // Write it depth first, numbering ids as they appear.
        let mut ids: Vec<String> = Vec::new();
        let mut local: HashMap<u16, usize> = HashMap::new();
        let mut tree = String::with_capacity(size);
        if nodes[0].complete {
            tree.push('.');
        }
        let mut stack: Vec<Step> = nodes[0].children.iter().rev().map(|&c| Step::Open(c)).collect();
        while let Some(step) = stack.pop() {
            let n = match step {
                Step::Close => {
                    tree.push(')');
                    continue;
                }
                Step::Open(n) => n,
            };
            let id = nodes[n].id;
            let next = ids.len();
            let k = *local.entry(id).or_insert_with(|| {
                ids.push(self.ids[usize::from(id)].clone());
                next
            });
            for shift in (0..width).rev() {
                tree.push(char::from(ALPHABET[(k >> (6 * shift)) & 63]));
            }
            if nodes[n].children.is_empty() {
                continue;
            }
            if !nodes[n].expanded {
                tree.push('*');
                continue;
            }
            tree.push('(');
            if nodes[n].complete {
                tree.push('.');
            }
            stack.push(Step::Close);
            stack.extend(nodes[n].children.iter().rev().map(|&c| Step::Open(c)));
        }
        // Names for buttons: every move under the prefix when they are few, else at least
        // the move the prefix itself makes (so a person can stop there).
        let named = |(p, m): &(Box<[u16]>, String)| LegalMove { m: m.clone(), p: self.path_of(p) };
        let few = if depth == 0 {
            None
        } else if moves.len() <= FEW {
            Some(moves.iter().map(named).collect())
        } else {
            Some(moves.iter().filter(|(p, _)| p.len() == depth).map(named).collect())
        };
        Some(Choices { version, prefix: prefix.to_vec(), ids, tree, moves: few })
    }
}

enum Step {
    Open(usize),
    Close,
}

/// Reads a trie back into `(path, complete)` pairs, cut nodes marked with `cut: true`:
/// the decoder the tests and the load generator use (the browser has its own in `board.js`).
///
/// # Errors
/// A message saying where the text is malformed.
pub fn decode(c: &Choices) -> Result<Vec<Decoded>, String> {
    let width = match c.ids.len() {
        0..=64 => 1,
        65..=4096 => 2,
        _ => 3,
    };
    let bytes = c.tree.as_bytes();
    let mut i = 0;
    let mut out = Vec::new();
    if bytes.first() == Some(&b'.') {
        out.push(Decoded { path: c.prefix.clone(), complete: true, cut: false });
        i = 1;
    }
    let mut path = c.prefix.clone();
    let mut depth_marks: Vec<usize> = Vec::new();
    while i < bytes.len() {
        match bytes[i] {
            b')' => {
                depth_marks.pop().ok_or("unbalanced ')'")?;
                path.pop();
                i += 1;
            }
            _ => {
                let mut k = 0usize;
                for _ in 0..width {
                    let b = *bytes.get(i).ok_or("a code cut short")?;
                    let v = ALPHABET.iter().position(|&a| a == b).ok_or("not a code")?;
                    k = k * 64 + v;
                    i += 1;
                }
                let id = c.ids.get(k).ok_or("a code beyond the ids")?.clone();
                let mut here = path.clone();
                here.push(id.clone());
                match bytes.get(i) {
                    Some(b'*') => {
                        out.push(Decoded { path: here, complete: false, cut: true });
                        i += 1;
                    }
                    Some(b'(') => {
                        i += 1;
                        let complete = bytes.get(i) == Some(&b'.');
                        if complete {
                            i += 1;
                        }
                        out.push(Decoded { path: here, complete, cut: false });
                        path.push(id);
                        depth_marks.push(i);
                    }
                    _ => out.push(Decoded { path: here, complete: true, cut: false }),
                }
            }
        }
    }
    if !depth_marks.is_empty() {
        return Err("unbalanced '('".into());
    }
    Ok(out)
}

/// One node read back by [`decode`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decoded {
    pub path: Vec<String>,
    /// The path is a whole move.
    pub complete: bool,
    /// Its continuations were cut off.
    pub cut: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn index(moves: &[(&str, &[&str])]) -> ChoiceIndex {
        ChoiceIndex::new(
            moves
                .iter()
                .map(|(m, p)| ((*m).to_string(), p.iter().map(|s| (*s).to_string()).collect()))
                .collect(),
        )
    }

    #[test]
    fn a_small_trie_is_sent_whole_and_reads_back() {
        let ix = index(&[
            ("a1-b2", &["a1", "b2"]),
            ("a1-b3", &["a1", "b3"]),
            ("a1-b2*", &["a1", "b2", "x"]),
            ("c3", &["c3"]),
        ]);
        let c = ix.encode(7, &[]).unwrap();
        assert_eq!(c.version, 7);
        assert_eq!(c.ids, ["a1", "b2", "x", "b3", "c3"]);
        assert_eq!(c.tree, "0(1(.2)3)4");
        assert_eq!(c.moves, None);
        let d = decode(&c).unwrap();
        let whole: Vec<String> =
            d.iter().filter(|n| n.complete).map(|n| n.path.join(" ")).collect();
        assert_eq!(whole, ["a1 b2", "a1 b2 x", "a1 b3", "c3"]);
        assert_eq!(ix.resolve(&["a1".into(), "b2".into()]), Some("a1-b2"));
        assert_eq!(ix.resolve(&["a1".into()]), None);
        assert_eq!(ix.resolve(&["zz".into()]), None);
        // Under a prefix: the notation of the few moves there, and whether the prefix is one.
        let c = ix.encode(7, &["a1".into(), "b2".into()]).unwrap();
        assert_eq!(c.tree, ".0");
        assert_eq!(c.moves.unwrap().len(), 2);
        assert!(ix.encode(7, &["b2".into()]).is_none());
        assert!(ix.encode(7, &["nope".into()]).is_none());
    }

    #[test]
    fn a_large_trie_is_cut_to_the_budget_and_completed_on_demand() {
        // 40 × 40 × 10 = 16,000 moves of three clicks: far over the budget.
        let mut moves = Vec::new();
        for a in 0..40 {
            for b in 0..40 {
                for c in 0..10 {
                    let path = vec![format!("a{a}"), format!("b{b}"), format!("c{c}")];
                    moves.push((path.join("-"), path));
                }
            }
        }
        let ix = ChoiceIndex::new(moves);
        let c = ix.encode(1, &[]).unwrap();
        let bytes = serde_json::to_string(&c).unwrap().len();
        assert!(bytes <= BUDGET + 200, "{bytes}");
        let d = decode(&c).unwrap();
        let cut: Vec<&Decoded> = d.iter().filter(|n| n.cut).collect();
        assert!(!cut.is_empty());
        // Every cut node can be asked for, and its answer holds the rest of its moves.
        let sub = ix.encode(1, &cut[0].path).unwrap();
        let whole = decode(&sub).unwrap().iter().filter(|n| n.complete).count();
        let expect = if cut[0].path.len() == 1 { 400 } else { 10 };
        assert_eq!(whole, expect);
    }
}
