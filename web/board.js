// Click paths and board pictures: the game-agnostic parts of the page. The server sends the
// legal moves as a trie of click paths (the ordered ids of the items a person clicks to make
// each move) and the board as SVG, then small patches of it; this module reads both. It knows
// no game rules.

/**
 * A node of the choices trie: the clicks so far make a whole move (`complete`), and/or go on
 * with `children`; `cut` says the continuations were not sent (ask for them).
 * @typedef {{ complete: boolean, cut: boolean, children: Map<string, TrieNode> }} TrieNode
 */

/**
 * A `choices` message: a trie of the moves after `prefix` (see docs/http-api.md).
 * @typedef {{ version: number, prefix: string[], ids: string[], tree: string, moves?: LegalMove[] }} Choices
 */

/**
 * A legal move with its notation and click path.
 * @typedef {{ m: string, p: string[] }} LegalMove
 */

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_';

/** @returns {TrieNode} */
function node() {
  return { complete: false, cut: false, children: new Map() };
}

/**
 * Reads the trie of a `choices` message: the node its prefix leads to.
 * @param {Choices} c
 * @returns {TrieNode}
 */
export function decode(c) {
  const width = c.ids.length <= 64 ? 1 : c.ids.length <= 4096 ? 2 : 3;
  const t = c.tree;
  const root = node();
  let i = 0;
  if (t[0] === '.') {
    root.complete = true;
    i = 1;
  }
  /** @type {TrieNode[]} */
  const stack = [root];
  while (i < t.length) {
    if (t[i] === ')') {
      stack.pop();
      i += 1;
      continue;
    }
    let k = 0;
    for (let w = 0; w < width; w++) {
      const v = ALPHABET.indexOf(t[i]);
      if (v < 0) throw new Error(`choices: not a code at ${i}`);
      k = k * 64 + v;
      i += 1;
    }
    const id = c.ids[k];
    if (id === undefined) throw new Error(`choices: code ${k} beyond the ids`);
    const n = node();
    stack[stack.length - 1].children.set(id, n);
    if (t[i] === '*') {
      n.cut = true;
      i += 1;
    } else if (t[i] === '(') {
      i += 1;
      if (t[i] === '.') {
        n.complete = true;
        i += 1;
      }
      stack.push(n);
    } else {
      n.complete = true;
    }
  }
  return root;
}

/**
 * The node `prefix` leads to, if the trie knows it.
 * @param {TrieNode | null} root
 * @param {string[]} prefix
 * @returns {TrieNode | undefined}
 */
export function nodeAt(root, prefix) {
  /** @type {TrieNode | undefined} */
  let n = root || undefined;
  for (const id of prefix) {
    n = n?.children.get(id);
  }
  return n;
}

/**
 * Puts the continuations of a `choices` answer in place of the cut node at its prefix.
 * @param {TrieNode} root
 * @param {Choices} c
 */
export function graft(root, c) {
  const sub = decode(c);
  if (c.prefix.length === 0) return sub;
  const parent = nodeAt(root, c.prefix.slice(0, -1));
  if (parent) parent.children.set(c.prefix[c.prefix.length - 1], sub);
  return root;
}

/**
 * How many whole moves lie under a node, or null when part of it was cut off.
 * @param {TrieNode} n
 * @returns {number | null}
 */
export function moveCount(n) {
  if (n.cut) return null;
  let count = n.complete ? 1 : 0;
  for (const child of n.children.values()) {
    const c = moveCount(child);
    if (c === null) return null;
    count += c;
  }
  return count;
}

/**
 * Extends `prefix` while there is nothing to choose: one known continuation and the prefix is
 * not itself a move.
 * @param {TrieNode} root
 * @param {string[]} prefix
 * @returns {string[]}
 */
export function autoAdvance(root, prefix) {
  const current = prefix.slice();
  for (;;) {
    const n = nodeAt(root, current);
    if (!n || n.cut || n.complete || n.children.size !== 1) return current;
    current.push(...n.children.keys());
  }
}

/**
 * What clicking `id` after `prefix` leads to: the new prefix; `move` when it is decided (a
 * whole move with nothing after it), `ask` when the trie must be completed there first.
 * @param {TrieNode} root
 * @param {string[]} prefix
 * @param {string} id
 * @returns {{ prefix: string[], move?: string[], ask?: string[] }}
 */
export function click(root, prefix, id) {
  const here = nodeAt(root, prefix);
  if (!here || !here.children.has(id)) return { prefix };
  const extended = autoAdvance(root, [...prefix, id]);
  const n = nodeAt(root, extended);
  if (!n) return { prefix };
  if (n.cut) return { prefix: extended, ask: extended };
  if (n.complete && n.children.size === 0) return { prefix: extended, move: extended };
  return { prefix: extended };
}

/**
 * The tokens of an SVG text, cut as the server cuts them: a token starts at every `<`, after
 * every `>`, and at every space between a `<` and the next `>`.
 * @param {string} s
 * @returns {string[]}
 */
export function tokens(s) {
  /** @type {string[]} */
  const out = [];
  let start = 0;
  let inTag = false;
  for (let j = 0; j < s.length; j++) {
    const c = s[j];
    if (c === '<') {
      if (j > start) out.push(s.slice(start, j));
      start = j;
      inTag = true;
    } else if (c === '>' && inTag) {
      out.push(s.slice(start, j + 1));
      start = j + 1;
      inTag = false;
    } else if (c === ' ' && inTag) {
      if (j > start) out.push(s.slice(start, j));
      start = j;
    }
  }
  if (start < s.length) out.push(s.slice(start));
  return out;
}

/**
 * The SVG text `old` edited by a patch: `[start, count]` copies old tokens, a string is new
 * text. Null when the patch does not fit `old` (the page then asks for the whole state).
 * @param {string} old
 * @param {(string | [number, number])[]} patch
 * @returns {string | null}
 */
export function applyPatch(old, patch) {
  const a = tokens(old);
  let out = '';
  for (const item of patch) {
    if (typeof item === 'string') {
      out += item;
    } else {
      const [start, count] = item;
      if (start < 0 || count < 0 || start + count > a.length) return null;
      for (let k = start; k < start + count; k++) out += a[k];
    }
  }
  return out;
}
