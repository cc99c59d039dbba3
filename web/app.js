// The game page: draws the board the server sends, offers the legal moves as click paths
// and keeps in step with the server over a WebSocket (protocol 2, docs/http-api.md): the
// whole state on `hello`, then small versioned events with board patches, and the choices of
// the seat to move as a trie of click paths.

import { applyPatch, autoAdvance, click, graft, moveCount, nodeAt, decode } from './board.js';

/** @typedef {import('./board.js').LegalMove} LegalMove */
/** @typedef {import('./board.js').TrieNode} TrieNode */
/** @typedef {import('./board.js').Choices} Choices */

/** The protocol this page speaks. */
const PROTOCOL = 2;

/**
 * @typedef {Object} Result
 * @property {string | null} winner
 * @property {boolean} draw
 * @property {string} reason
 */

/**
 * The state of a game as the server sends it.
 * @typedef {Object} View
 * @property {string} id
 * @property {number} version
 * @property {string} game
 * @property {string} variant
 * @property {string} mode
 * @property {string | null} computer_seat
 * @property {string} to_move
 * @property {string} status_line
 * @property {string} svg
 * @property {string[]} history
 * @property {string[]} last_path
 * @property {Motion[]} motions pieces the last turn moved
 * @property {Result | null} result
 * @property {boolean} live
 * @property {boolean} thinking
 * @property {boolean} can_hint
 * @property {boolean} can_undo
 * @property {boolean} can_draw
 * @property {string | null} draw_offer the seat that offered a draw, if one is pending
 */

/**
 * A piece that travelled in the last turn: its id now, and the id of the element it started
 * from in the picture before that turn.
 * @typedef {{ piece: string, from: string }} Motion
 */

/**
 * @typedef {Object} Boot
 * @property {View} view
 * @property {string[]} seats
 * @property {string} lang
 * @property {Record<string, string>} strings
 */

/**
 * @param {string} id
 * @returns {HTMLElement}
 */
function el(id) {
  const found = document.getElementById(id);
  if (!found) throw new Error(`missing #${id}`);
  return found;
}

const bootEl = el('ply-boot');
/** @type {Boot} */
const boot = JSON.parse(bootEl.textContent || '{}');
const S = boot.strings;

const state = {
  /** @type {View} */
  view: boot.view,
  /** @type {string[]} */
  seats: boot.seats,
  /** @type {string[]} */
  prefix: [],
  /** @type {TrieNode | null} the legal moves of `choicesVersion` as a trie of click paths */
  choices: null,
  choicesVersion: -1,
  /** @type {Map<string, LegalMove[]>} the notation of the moves under a prefix, by prefix */
  named: new Map(),
  /** @type {Set<string>} prefixes asked for and not answered yet */
  asked: new Set(),
  /** @type {number | null} the turn shown when stepping through the record; null: live */
  viewing: null,
  /** @type {string | null} */
  message: null,
  /** @type {string[]} */
  hint: [],
  sending: false,
  connected: false,
};

const board = el('ply-board');
const statusEl = el('ply-status');
const resultEl = el('ply-result');
const movesEl = el('ply-moves');
const choicesEl = el('ply-choices');
const viewingEl = el('ply-viewing');
const connEl = el('ply-conn');
const helpEl = el('ply-help');
const buttons = {
  clear: /** @type {HTMLButtonElement} */ (el('ply-clear')),
  hint: /** @type {HTMLButtonElement} */ (el('ply-hint')),
  undo: /** @type {HTMLButtonElement} */ (el('ply-undo')),
  resign: /** @type {HTMLButtonElement} */ (el('ply-resign')),
  draw: /** @type {HTMLButtonElement} */ (el('ply-draw')),
  accept: /** @type {HTMLButtonElement} */ (el('ply-accept')),
  decline: /** @type {HTMLButtonElement} */ (el('ply-decline')),
};

/** Whether the person at this page moves now. */
function myTurn() {
  const v = state.view;
  return v.live && !v.thinking && state.seats.includes(v.to_move);
}

/** @returns {boolean} */
function interactive() {
  return myTurn() && state.viewing === null && !state.sending;
}

/**
 * The board element with this id (ids come from the game's SVG).
 * @param {string} id
 * @returns {Element | null}
 */
function item(id) {
  return board.querySelector(`[id="${CSS.escape(id)}"]`);
}

/**
 * @param {string[]} ids
 * @param {string} cls
 */
function mark(ids, cls) {
  for (const id of ids) item(id)?.classList.add(cls);
}

const SVG_NS = 'http://www.w3.org/2000/svg';
const reduceMotion = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;

/** The position on the board now: its number of turns and its picture. */
const drawn = { ply: -1, svg: '' };

/**
 * The centre of an element on the screen.
 * @param {Element} node
 */
function centre(node) {
  const r = node.getBoundingClientRect();
  return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
}

/**
 * Replaces the board picture with the position after `ply` turns. When that position follows
 * the one drawn by one turn, its pieces travel: pieces that keep their id (boop.) glide from
 * their old transform by CSS transition, and the turn's `motions` (GIPF pushes, ZÈRTZ jumps,
 * PÜNCT shifts, pieces entering from a pool) start where their origin was drawn.
 * @param {string} svg
 * @param {number} ply
 * @param {Motion[]} motions
 */
function drawBoard(svg, ply, motions) {
  const old = board.querySelector('svg');
  const tpl = document.createElement('template');
  tpl.innerHTML = svg.trim();
  const fresh = tpl.content.firstElementChild;
  const animate = !reduceMotion && ply === drawn.ply + 1 && svg !== drawn.svg;
  drawn.ply = ply;
  drawn.svg = svg;
  if (!old || !fresh || old.getAttribute('viewBox') !== fresh.getAttribute('viewBox')) {
    board.innerHTML = svg;
    return;
  }
  // Move the transform of pieces with stable ids from their old place, then let CSS animate.
  /** @type {Map<string, string>} */
  const before = new Map();
  for (const node of old.querySelectorAll('[id][transform]')) {
    before.set(node.id, node.getAttribute('transform') || '');
  }
  /** @type {Map<string, {x: number, y: number}>} */
  const starts = new Map();
  if (animate) {
    for (const m of motions) {
      const from = old.querySelector(`[id="${CSS.escape(m.from)}"]`);
      if (from) starts.set(m.piece, centre(from));
    }
  }
  board.replaceChildren(fresh);
  if (!animate) return;
  let travelled = 0;
  for (const node of fresh.querySelectorAll('[id][transform]')) {
    const was = before.get(node.id);
    const now = node.getAttribute('transform') || '';
    if (was !== undefined && was !== now && node instanceof SVGGraphicsElement) {
      node.setAttribute('transform', was);
      node.getBoundingClientRect();
      requestAnimationFrame(() => node.setAttribute('transform', now));
      travelled += 1;
    }
  }
  const scale = fresh instanceof SVGSVGElement ? fresh.getScreenCTM()?.a || 1 : 1;
  for (const [id, start] of starts) {
    const node = fresh.querySelector(`[id="${CSS.escape(id)}"]`);
    if (!node) continue;
    const end = centre(node);
    const dx = (start.x - end.x) / scale;
    const dy = (start.y - end.y) / scale;
    // A wrapper carries the travel, so the piece's own transform attribute stays untouched.
    const wrap = document.createElementNS(SVG_NS, 'g');
    node.replaceWith(wrap);
    wrap.appendChild(node);
    wrap.animate(
      [{ transform: `translate(${dx}px, ${dy}px)` }, { transform: 'translate(0px, 0px)' }],
      { duration: 300, easing: 'ease-out' },
    );
    travelled += 1;
  }
  // Counted for the browser tests: how many pieces have travelled on this page.
  board.dataset.travelled = String(Number(board.dataset.travelled || 0) + travelled);
}

function render() {
  const v = state.view;
  if (state.viewing === null) {
    drawBoard(v.svg, v.history.length, v.motions);
    mark(v.last_path, 'ply-last');
  }
  // Targets
  for (const node of board.querySelectorAll('.ply-next')) {
    node.classList.remove('ply-next');
    node.removeAttribute('tabindex');
    node.removeAttribute('role');
  }
  choicesEl.replaceChildren();
  const here = interactive() ? nodeAt(state.choices, state.prefix) : undefined;
  if (here && !here.cut) {
    for (const id of here.children.keys()) {
      const node = item(id);
      if (!node) continue;
      node.classList.add('ply-next');
      node.setAttribute('tabindex', '0');
      node.setAttribute('role', 'button');
      node.setAttribute('aria-label', id);
    }
    mark(state.prefix, 'ply-chosen');
    mark(state.hint, 'ply-hint');
    // A few moves left, or the clicks so far make a move that could also go on: name them.
    const count = moveCount(here);
    const named = state.named.get(key(state.prefix));
    if (state.prefix.length > 0 && ((count !== null && count <= 12) || here.complete)) {
      if (named && named.length > 0) {
        const title = document.createElement('span');
        title.textContent = `${S.choices}:`;
        choicesEl.append(title);
        for (const mv of named.slice(0, 12)) {
          const b = document.createElement('button');
          b.type = 'button';
          b.textContent = mv.m;
          b.className = 'choice';
          b.addEventListener('click', () => send(mv.p));
          choicesEl.append(b);
        }
      } else if (!named) {
        ask(state.prefix);
      }
    }
  }
  buttons.clear.hidden = state.prefix.length === 0;
  helpEl.hidden = !interactive();
  const seated = state.seats.length > 0;
  buttons.hint.hidden = !(seated && v.can_hint && myTurn());
  buttons.undo.hidden = !(seated && v.can_undo && v.live && v.history.length > 0);
  buttons.resign.hidden = !(seated && v.live);
  const offer = v.draw_offer || null;
  const offeredToMe = Boolean(offer && seated && !state.seats.includes(offer));
  buttons.draw.hidden = !(seated && v.can_draw) || offer !== null;
  buttons.accept.hidden = !offeredToMe;
  buttons.decline.hidden = !offeredToMe;
  // Status
  let status;
  if (!v.live) status = S.game_over;
  else if (v.thinking) status = S.thinking;
  else if (!seated) status = `${S.spectating} ${v.to_move} ${S.to_move}.`;
  else if (myTurn()) status = `${S.your_turn} (${v.to_move})`;
  else status = `${S.their_turn} (${v.to_move})`;
  if (offer && v.live) status = `${status} · ${offeredToMe ? S.draw_offered_you : S.draw_you_offered}`;
  statusEl.textContent = state.message ? `${state.message} — ${status}` : status;
  statusEl.classList.toggle('error', Boolean(state.message));
  statusEl.classList.toggle('thinking', v.live && v.thinking);
  statusEl.classList.toggle('mine', myTurn());
  if (v.result) {
    resultEl.hidden = false;
    const r = v.result;
    resultEl.textContent = r.draw
      ? `${S.draw}${r.reason === 'agreed' ? ` (${S.agreed})` : ''}`
      : `${r.winner} ${S.wins}${r.reason === 'resigned' ? ` (${S.resigned})` : ''}`;
  } else {
    resultEl.hidden = true;
  }
  // Move list
  movesEl.replaceChildren();
  v.history.forEach((m, i) => {
    const li = document.createElement('li');
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = m;
    b.className = 'move';
    const shown = state.viewing === null ? v.history.length : state.viewing;
    if (i + 1 === shown) b.setAttribute('aria-current', 'step');
    b.addEventListener('click', () => view(i + 1));
    li.append(b);
    movesEl.append(li);
  });
  viewingEl.hidden = state.viewing === null;
  if (state.viewing !== null) {
    viewingEl.replaceChildren();
    const label = document.createElement('span');
    label.textContent = `${S.viewing} ${state.viewing === 0 ? S.start_position : state.viewing} / ${v.history.length} `;
    const back = document.createElement('button');
    back.type = 'button';
    back.textContent = S.back_to_live;
    back.addEventListener('click', () => view(null));
    viewingEl.append(label, back);
  }
  connEl.textContent = state.connected ? `● ${S.connected}` : `○ ${S.disconnected}`;
  connEl.classList.toggle('down', !state.connected);
  document.body.dataset.version = String(v.version);
  document.body.dataset.thinking = String(v.thinking);
  // For tests and styles: 'mine' once the legal moves of this position are here.
  document.body.dataset.turn = myTurn() && state.choicesVersion === v.version ? 'mine' : 'other';
  document.body.dataset.asking = String(state.asked.size > 0);
}

/**
 * Shows the position after `ply` turns (null: the live position).
 * @param {number | null} ply
 */
async function view(ply) {
  const total = state.view.history.length;
  if (ply !== null && (ply >= total || ply < 0)) ply = ply < 0 ? 0 : null;
  state.viewing = ply;
  state.prefix = [];
  if (ply === null) {
    render();
    return;
  }
  const resp = await fetch(`/api/games/${state.view.id}/position/${ply}`);
  if (!resp.ok || state.viewing !== ply) return;
  const pos = await resp.json();
  drawBoard(pos.svg, pos.ply, pos.motions);
  mark(pos.last_path, 'ply-last');
  render();
}

/** @type {WebSocket | null} */
let socket = null;
let retry = 0;

/** @param {Record<string, unknown>} msg */
function post(msg) {
  if (socket && socket.readyState === WebSocket.OPEN) {
    socket.send(JSON.stringify(msg));
    return true;
  }
  state.message = S.disconnected;
  render();
  return false;
}

/**
 * The key of a prefix in `state.named` and `state.asked`.
 * @param {string[]} prefix
 */
function key(prefix) {
  return prefix.join('\u0001');
}

/**
 * Asks the server for the continuations of `prefix` (a cut node, or the names of the moves
 * under it), once.
 * @param {string[]} prefix
 */
function ask(prefix) {
  const k = key(prefix);
  if (state.asked.has(k)) return;
  state.asked.add(k);
  post({ type: 'choices', version: state.view.version, prefix });
}

/**
 * Plays the move made of these clicks.
 * @param {string[]} path
 */
function send(path) {
  state.hint = [];
  if (post({ type: 'move', path, version: state.view.version })) state.sending = true;
  state.prefix = [];
  render();
}

/**
 * @param {string} id
 * @param {boolean} [byKey] chosen with the keyboard: keep the focus on the board
 */
function choose(id, byKey = false) {
  if (!interactive() || !state.choices) return;
  state.message = null;
  const r = click(state.choices, state.prefix, id);
  state.prefix = r.prefix;
  if (r.move) {
    send(r.move);
    return;
  }
  if (r.ask) ask(r.ask);
  render();
  if (byKey) {
    const first = board.querySelector('.ply-next');
    if (first instanceof SVGElement || first instanceof HTMLElement) first.focus();
  }
}

/**
 * The id of a clickable target under the pointer (pieces may lie on top of cells).
 * @param {MouseEvent} e
 * @returns {string | null}
 */
function targetAt(e) {
  const direct = e.target instanceof Element ? e.target.closest('.ply-next') : null;
  if (direct) return direct.id;
  for (const node of document.elementsFromPoint(e.clientX, e.clientY)) {
    if (node.classList.contains('ply-next')) return node.id;
    const up = node.closest('.ply-next');
    if (up && board.contains(up)) return up.id;
  }
  return null;
}

board.addEventListener('click', (e) => {
  const id = targetAt(e);
  if (id) choose(id);
});
board.addEventListener('keydown', (e) => {
  if (e.key !== 'Enter' && e.key !== ' ') return;
  const t = e.target instanceof Element ? e.target.closest('.ply-next') : null;
  if (t) {
    e.preventDefault();
    choose(t.id, true);
  }
});
document.addEventListener('keydown', (e) => {
  const tag = e.target instanceof HTMLElement ? e.target.tagName : '';
  if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA') return;
  const total = state.view.history.length;
  const shown = state.viewing === null ? total : state.viewing;
  if (e.key === 'Escape') {
    state.prefix = state.choices ? autoAdvance(state.choices, []) : [];
    render();
  } else if (e.key === 'ArrowLeft') {
    view(shown - 1);
  } else if (e.key === 'ArrowRight') {
    view(shown + 1 >= total ? null : shown + 1);
  }
});

buttons.clear.addEventListener('click', () => {
  state.prefix = state.choices ? autoAdvance(state.choices, []) : [];
  render();
});
buttons.hint.addEventListener('click', () => post({ type: 'hint' }));
buttons.draw.addEventListener('click', () => {
  // At one screen an offer is an agreement: ask first.
  if (state.seats.length < 2 || window.confirm(S.draw_confirm)) post({ type: 'draw', action: 'offer' });
});
buttons.accept.addEventListener('click', () => post({ type: 'draw', action: 'accept' }));
buttons.decline.addEventListener('click', () => post({ type: 'draw', action: 'decline' }));
buttons.undo.addEventListener('click', () => post({ type: 'undo' }));
buttons.resign.addEventListener('click', () => {
  if (window.confirm(S.resign_confirm)) post({ type: 'resign' });
});
el('ply-first').addEventListener('click', () => view(0));
el('ply-prev').addEventListener('click', () => {
  const shown = state.viewing === null ? state.view.history.length : state.viewing;
  view(shown - 1);
});
el('ply-next').addEventListener('click', () => {
  const total = state.view.history.length;
  const shown = state.viewing === null ? total : state.viewing;
  view(shown + 1 >= total ? null : shown + 1);
});
el('ply-last').addEventListener('click', () => view(null));
const copy = document.getElementById('ply-copy');
const invite = document.getElementById('ply-invite');
if (copy && invite instanceof HTMLInputElement) {
  invite.value = new URL(invite.value, location.href).href;
  copy.addEventListener('click', () => {
    invite.select();
    navigator.clipboard?.writeText(invite.value).catch(() => {});
  });
}

/**
 * Takes a whole view (the page's boot view, or a `state` message).
 * @param {View} v
 */
function adopt(v) {
  state.view = v;
  state.sending = false;
  if (state.choicesVersion !== v.version) forgetChoices();
  if (state.viewing !== null && state.viewing >= v.history.length) state.viewing = null;
}

function forgetChoices() {
  state.choices = null;
  state.choicesVersion = -1;
  state.named = new Map();
  state.asked = new Set();
  state.prefix = [];
}

/**
 * Takes the legal moves of the position (or the continuations of a prefix).
 * @param {Choices} c
 */
function takeChoices(c) {
  if (c.version !== state.view.version) return;
  state.asked.delete(key(c.prefix));
  if (c.prefix.length === 0 || !state.choices || state.choicesVersion !== c.version) {
    if (c.prefix.length > 0) return;
    state.choices = decode(c);
    state.choicesVersion = c.version;
    state.prefix = autoAdvance(state.choices, []);
  } else {
    state.choices = graft(state.choices, c);
    // The clicks already made may now lead further on their own.
    state.prefix = autoAdvance(state.choices, state.prefix);
  }
  // Remember the answer even without names, so a prefix is asked for once.
  state.named.set(key(c.prefix), c.moves || []);
}

/**
 * Applies one event; false when it does not follow the view (then ask for the state again).
 * @param {any} ev
 */
function applyEvent(ev) {
  const v = state.view;
  let svg = v.svg;
  let lastPath = v.last_path;
  let motions = v.motions;
  if (ev.board) {
    const patched = applyPatch(v.svg, ev.board.patch);
    if (patched === null) return false;
    svg = patched;
    lastPath = ev.board.last_path;
    motions = ev.board.motions;
  }
  let history = v.history;
  if (ev.kind === 'move') history = [...v.history.slice(0, ev.ply), ev.move];
  else if (ev.kind === 'undo') history = v.history.slice(0, ev.ply);
  const live = ev.live;
  state.view = {
    ...v,
    version: ev.version,
    to_move: ev.to_move,
    status_line: ev.status_line,
    svg,
    history,
    last_path: lastPath,
    motions,
    result: ev.result,
    live,
    thinking: ev.thinking,
    draw_offer: ev.draw_offer,
    can_hint: v.can_hint && live,
    can_undo: v.can_undo && live,
    can_draw: v.can_draw && live,
  };
  state.sending = false;
  forgetChoices();
  return true;
}

/** Asks for everything after the version the page holds. */
function resync() {
  post({ type: 'hello', protocol: PROTOCOL, version: state.view.version });
}

/** @param {MessageEvent} ev */
function onMessage(ev) {
  /** @type {any} */
  const msg = JSON.parse(String(ev.data));
  switch (msg.type) {
    case 'welcome':
      state.seats = msg.seats;
      state.view = { ...state.view, thinking: Boolean(msg.thinking) };
      break;
    case 'state':
      state.message = null;
      adopt(msg.view);
      break;
    case 'event':
      if (msg.version <= state.view.version) return;
      if (msg.version > state.view.version + 1 || !applyEvent(msg)) {
        // A gap, or a patch for another picture: ask for exactly what was missed.
        resync();
        return;
      }
      state.message = null;
      state.hint = [];
      break;
    case 'choices':
      takeChoices(msg);
      break;
    case 'thinking':
      state.view = { ...state.view, thinking: Boolean(msg.on) };
      break;
    case 'hint':
      state.hint = msg.path || [];
      state.prefix = [];
      break;
    case 'error':
      state.sending = false;
      state.prefix = [];
      state.message = msg.message;
      if (msg.code === 'stale') resync();
      break;
    default:
      return;
  }
  render();
}

function connect() {
  const proto = location.protocol === 'https:' ? 'wss' : 'ws';
  const ws = new WebSocket(`${proto}://${location.host}/ws/${state.view.id}`);
  socket = ws;
  ws.addEventListener('open', () => {
    retry = 0;
    state.connected = true;
    ws.send(JSON.stringify({ type: 'hello', protocol: PROTOCOL, version: state.view.version }));
    render();
  });
  ws.addEventListener('message', onMessage);
  ws.addEventListener('close', () => {
    if (socket !== ws) return;
    state.connected = false;
    state.sending = false;
    render();
    retry = Math.min(retry + 1, 6);
    setTimeout(connect, 250 * 2 ** retry);
  });
}

// Coming back from sleep: reconnect at once rather than after the back-off.
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'visible' && socket && socket.readyState > WebSocket.OPEN) {
    connect();
  }
});

adopt(state.view);
render();
connect();
