// What the game page and the analysis board share: the page's messages (Fluent, formatted
// with the browser's CLDR plural rules), the board's labels in the reader's language, the
// marks of the last turn, and the board settings (coordinates, flip). It knows no game.

export const SVG_NS = 'http://www.w3.org/2000/svg';

/**
 * The page's element with this id (the server's HTML has it).
 * @param {string} id
 * @returns {HTMLElement}
 */
export function el(id) {
  const found = document.getElementById(id);
  if (!found) throw new Error(`missing #${id}`);
  return found;
}

/**
 * A part of a message: text, an argument `{v}`, or a selection `{s, k, d}` by an argument's
 * plural category (CLDR, from Intl.PluralRules) or value; numeric keys are written `=N`.
 * @typedef {string | number | { v: string } | { s: string, k: Record<string, Part[]>, d: string }} Part
 */

/**
 * @typedef {(id: string, args?: Record<string, string | number>, fallback?: string) => string} Format
 * @typedef {(seat: string | null) => string} PlayerName
 */

/**
 * The page's messages: `formatMessage(id, args, fallback)` and the seats' names.
 * @param {{ lang?: string, messages?: Record<string, Part[]> }} boot
 * @returns {{ formatMessage: Format, playerName: PlayerName }}
 */
export function messages(boot) {
  const M = boot.messages || {};
  const plurals = new Intl.PluralRules(boot.lang || 'en');
  /**
   * @param {Part[]} parts
   * @param {Record<string, string | number>} args
   * @returns {string}
   */
  function formatParts(parts, args) {
    let out = '';
    for (const p of parts) {
      if (typeof p === 'string' || typeof p === 'number') out += String(p);
      else if ('v' in p) out += String(args[p.v] ?? '');
      else {
        const x = args[p.s];
        const n = typeof x === 'number' ? x : Number(x);
        /** @type {Part[] | undefined} */
        let chosen;
        if (x !== undefined && x !== '' && !Number.isNaN(n)) chosen = p.k[`=${n}`] || p.k[plurals.select(n)];
        else if (x !== undefined) chosen = p.k[String(x)];
        out += formatParts(chosen || p.k[p.d] || [], args);
      }
    }
    return out;
  }
  /** @type {Format} */
  const formatMessage = (id, args = {}, fallback) => {
    const m = M[id];
    return m ? formatParts(m, args) : fallback ?? id;
  };
  /** @type {PlayerName} */
  const playerName = (seat) => (seat ? formatMessage(`player-${seat}`, {}, seat) : '');
  return { formatMessage, playerName };
}

/**
 * Parses an SVG document or fragment into an element.
 * @param {string} text
 * @returns {Element | null}
 */
export function parseSvg(text) {
  const tpl = document.createElement('template');
  tpl.innerHTML = text.trim();
  return tpl.content.firstElementChild;
}

/**
 * Writes every label of the picture in the page's language: `<text data-label="id"
 * data-arg-n="12">` takes message `id` with argument `n` (a seat argument is named).
 * @param {Element} svg
 * @param {Format} formatMessage
 * @param {PlayerName} playerName
 */
export function localize(svg, formatMessage, playerName) {
  for (const node of svg.querySelectorAll('[data-label]')) {
    /** @type {Record<string, string>} */
    const args = {};
    for (const a of Array.from(node.attributes)) {
      if (a.name.startsWith('data-arg-')) args[a.name.slice(9)] = a.value;
    }
    for (const [k, v] of Object.entries(args)) if (v === 'P1' || v === 'P2') args[k] = playerName(v);
    const label = node.getAttribute('data-label') || '';
    node.textContent = formatMessage(label, args, node.textContent || '');
  }
}

/**
 * A copy of `node` to draw as a mark: no ids (they stay unique), no clicks.
 * @param {Element} node
 * @param {string} cls
 */
function ghost(node, cls) {
  const copy = /** @type {Element} */ (node.cloneNode(true));
  copy.removeAttribute('id');
  for (const inner of copy.querySelectorAll('[id]')) inner.removeAttribute('id');
  copy.classList.remove('target', 'piece');
  copy.classList.add(cls);
  return copy;
}

/**
 * A piece that travelled in the last turn (see the game page's `Motion`).
 * @typedef {{ piece: string, from: string }} Motion
 */

/**
 * Marks the last turn on the fresh picture by comparing it with the one before: pieces that
 * vanished (captured, removed, graduated) stay as faded ghosts, pieces that appeared are
 * "placed", pieces that travelled are "moved" and where they started is outlined. Returns how
 * many pieces vanished.
 * @param {Element | null} before the picture before the turn (null: unknown)
 * @param {Element} after
 * @param {Motion[]} motions
 * @param {string[]} lastPath
 */
export function markTurn(before, after, motions, lastPath) {
  for (const id of lastPath) after.querySelector(`[id="${CSS.escape(id)}"]`)?.classList.add('ply-last');
  if (!before) return 0;
  const layer = document.createElementNS(SVG_NS, 'g');
  layer.setAttribute('class', 'ply-marks');
  const movedFrom = new Set(motions.map((m) => m.from));
  /** @type {Map<string, Element>} */
  const beforePieces = new Map();
  for (const node of before.querySelectorAll('.piece[id]')) {
    if (!node.closest('.ply-marks, .ply-preview')) beforePieces.set(node.id, node);
  }
  const afterIds = new Set();
  for (const node of after.querySelectorAll('.piece[id]')) {
    afterIds.add(node.id);
    const was = beforePieces.get(node.id);
    if (!was) node.classList.add('ply-placed');
    else if ((was.getAttribute('transform') || '') !== (node.getAttribute('transform') || '')) {
      node.classList.add('ply-moved');
    }
  }
  let gone = 0;
  for (const [id, node] of beforePieces) {
    if (afterIds.has(id)) continue;
    if (movedFrom.has(id)) layer.append(ghost(node, 'ply-from'));
    else {
      layer.append(ghost(node, 'ply-gone'));
      gone += 1;
    }
  }
  for (const m of motions) {
    after.querySelector(`[id="${CSS.escape(m.piece)}"]`)?.classList.add('ply-moved');
    const from = after.querySelector(`[id="${CSS.escape(m.from)}"]`);
    if (from && !from.classList.contains('piece')) from.classList.add('ply-from');
  }
  after.append(layer);
  return gone;
}

/**
 * @param {string} name
 * @returns {string | null}
 */
function setting(name) {
  try {
    return localStorage.getItem(name);
  } catch {
    return null;
  }
}

/**
 * @param {string} name
 * @param {string} value
 */
function remember(name, value) {
  try {
    localStorage.setItem(name, value);
  } catch {
    // Storage may be off (private windows): the setting lasts for this page.
  }
}

/**
 * Board settings, remembered: coordinates on or off (for every game), the board flipped (for
 * this game; a second player starts with it flipped).
 * @param {HTMLElement} board
 * @param {HTMLInputElement} coordsBox
 * @param {HTMLElement} flipButton
 * @param {string} gameId
 * @param {string[]} seats
 */
export function boardSettings(board, coordsBox, flipButton, gameId, seats) {
  coordsBox.checked = setting('ply-coords') !== 'off';
  board.classList.toggle('no-coords', !coordsBox.checked);
  coordsBox.addEventListener('change', () => {
    board.classList.toggle('no-coords', !coordsBox.checked);
    remember('ply-coords', coordsBox.checked ? 'on' : 'off');
  });
  const flipKey = `ply-flip-${gameId}`;
  /** @param {boolean} on */
  const setFlip = (on) => {
    board.classList.toggle('flipped', on);
    flipButton.setAttribute('aria-pressed', String(on));
  };
  const saved = setting(flipKey);
  setFlip(saved === null ? seats.length === 1 && seats[0] === 'P2' : saved === 'on');
  flipButton.addEventListener('click', () => {
    const on = !board.classList.contains('flipped');
    setFlip(on);
    remember(flipKey, on ? 'on' : 'off');
  });
}
