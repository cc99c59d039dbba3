// Click paths: the game-agnostic way a person builds a move by clicking board items.
// The server sends every legal move with the ordered ids of the items to click; this module
// only filters them by the clicked prefix. It knows no game rules.

/**
 * A legal move as the server sends it: its notation and its click path.
 * @typedef {{ m: string, p: string[] }} LegalMove
 */

/**
 * The moves whose click path starts with `prefix`.
 * @param {LegalMove[]} moves
 * @param {string[]} prefix
 * @returns {LegalMove[]}
 */
export function candidates(moves, prefix) {
  return moves.filter(
    (mv) => mv.p.length >= prefix.length && prefix.every((id, i) => mv.p[i] === id),
  );
}

/**
 * The item ids that extend `prefix` towards at least one candidate.
 * @param {LegalMove[]} cands candidates of `prefix`
 * @param {string[]} prefix
 * @returns {Set<string>}
 */
export function nextItems(cands, prefix) {
  /** @type {Set<string>} */
  const out = new Set();
  for (const mv of cands) {
    if (mv.p.length > prefix.length) out.add(mv.p[prefix.length]);
  }
  return out;
}

/**
 * The candidate whose whole path is `prefix`, if any.
 * @param {LegalMove[]} cands
 * @param {string[]} prefix
 * @returns {LegalMove | undefined}
 */
export function completed(cands, prefix) {
  return cands.find((mv) => mv.p.length === prefix.length);
}

/**
 * Extends `prefix` while every candidate continues with the same item and none is complete
 * (there is nothing to choose). Returns the new prefix.
 * @param {LegalMove[]} moves
 * @param {string[]} prefix
 * @returns {string[]}
 */
export function autoAdvance(moves, prefix) {
  let current = prefix.slice();
  for (;;) {
    const cands = candidates(moves, current);
    if (cands.length === 0 || completed(cands, current)) return current;
    const next = nextItems(cands, current);
    if (next.size !== 1) return current;
    current = [...current, ...next];
  }
}

/**
 * What clicking `id` after `prefix` leads to: the new prefix, and the move when it is
 * decided (exactly one candidate left and it is complete).
 * @param {LegalMove[]} moves
 * @param {string[]} prefix
 * @param {string} id
 * @returns {{ prefix: string[], move: LegalMove | undefined }}
 */
export function click(moves, prefix, id) {
  const cands = candidates(moves, prefix);
  if (!nextItems(cands, prefix).has(id)) return { prefix, move: undefined };
  const extended = autoAdvance(moves, [...prefix, id]);
  const left = candidates(moves, extended);
  const done = completed(left, extended);
  return { prefix: extended, move: done && left.length === 1 ? done : undefined };
}
