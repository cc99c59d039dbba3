// The game page: draws the board the server sends, offers the legal moves as click paths
// and keeps in step with the server over a WebSocket (protocol 2, docs/http-api.md): the
// whole state on `hello`, then small versioned events with board patches, and the choices of
// the seat to move as a trie of click paths.

import { applyPatch, autoAdvance, click, graft, nodeAt, decode } from './board.js';
import { el, messages, localize, markTurn, parseSvg, boardSettings, SVG_NS } from './ui.js';

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
 * @property {string} [end] why a rules win happened: a message id of the game's texts
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
 * @property {ClockView} [clock] the clocks, in games with a time control
 * @property {Record<string, string | null>} [players] the names of the people in the seats
 * @property {boolean} [rated]
 * @property {string | null} [rematch_offer] after the game: the seat offering a rematch
 * @property {string | null} [rematch] the game of an agreed rematch
 */

/**
 * The clocks as the server sent them: the time control, each seat's time left when sent (the
 * running one counts down from there) and whose clock runs.
 * @typedef {{ control: { initial_s?: number, increment_s?: number, days?: number },
 *   left_ms: Record<string, number>, running: string | null }} ClockView
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
 * @property {Record<string, Part[]>} messages the page's Fluent messages (see formatMessage)
 */

/**
 * A part of a message: text, an argument `{v}`, or a selection `{s, k, d}` by an argument's
 * plural category (CLDR, from Intl.PluralRules) or value; numeric keys are written `=N`.
 * @typedef {string | number | { v: string } | { s: string, k: Record<string, Part[]>, d: string }} Part
 */

const bootEl = el('ply-boot');
/** @type {Boot} */
const boot = JSON.parse(bootEl.textContent || '{}');
const S = boot.strings;
const { formatMessage, playerName: seatName } = messages(boot);

/**
 * A seat as people read it: the person's name with the seat's colour when a person holds it
 * ("Teal Otter (White)"), else the seat's colour.
 * @param {string | null} seat
 */
function playerName(seat) {
  const person = seat ? state.view.players?.[seat] : null;
  return person ? `${person} (${seatName(seat)})` : seatName(seat);
}
const state = {
  /** @type {View} */
  view: boot.view,
  /** @type {string[]} */
  seats: boot.seats,
  /** @type {string[]} the clicks of the turn being built */
  prefix: [],
  /** @type {string[][]} the prefixes before each click, for stepping back */
  back: [],
  /** @type {TrieNode | null} the legal moves of `choicesVersion` as a trie of click paths */
  choices: null,
  choicesVersion: -1,
  /** @type {Map<string, LegalMove[]>} the notation of the moves under a prefix, by prefix */
  named: new Map(),
  /** @type {Set<string>} prefixes asked for and not answered yet */
  asked: new Set(),
  /**
   * What the clicks decide (the next click's help, the turn drawn so far), by version and
   * prefix: stepping back shows the earlier answer at once instead of the generic line.
   * @type {Map<string, { step: string, overlay: string }>}
   */
  previews: new Map(),
  /** @type {Set<string>} the previews asked for and not answered yet */
  previewsAsked: new Set(),
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
const endEl = el('ply-end');
const resultEl = el('ply-result');
const reasonEl = el('ply-reason');
const movesEl = el('ply-moves');
const movesBox = el('ply-moves-box');
const choicesEl = el('ply-choices');
const viewingEl = el('ply-viewing');
const connEl = el('ply-conn');
const helpEl = el('ply-help');
const coordsBox = /** @type {HTMLInputElement} */ (el('ply-coords'));
const flipButton = el('ply-flip');
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

const reduceMotion = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
/** Touch screens get bigger hit areas: 44 px across instead of 24 px. */
const coarse = window.matchMedia?.('(pointer: coarse)').matches ?? false;
const HIT_RADIUS = coarse ? 22 : 12;
board.dataset.hitRadius = String(HIT_RADIUS);

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
 * Replaces the board picture with the position after `ply` turns and marks the turn that led
 * there. When that position follows the one drawn by one turn, its pieces travel: pieces that
 * keep their id glide from their old transform by CSS transition, and the turn's `motions`
 * start where their origin was drawn. `before` is the picture before the turn when the page
 * does not show it (a reload, a step through the record).
 * @param {string} svg
 * @param {number} ply
 * @param {Motion[]} motions
 * @param {string[]} lastPath
 * @param {string | null} [before]
 */
function drawBoard(svg, ply, motions, lastPath, before = null) {
  const old = board.querySelector('svg');
  const fresh = parseSvg(svg);
  const follows = drawn.ply >= 0 && ply === drawn.ply + 1;
  const animate = !reduceMotion && follows && svg !== drawn.svg;
  drawn.ply = ply;
  drawn.svg = svg;
  if (!fresh) {
    board.innerHTML = svg;
    return;
  }
  localize(fresh, formatMessage, seatName);
  const previous = follows ? old : before ? parseSvg(before) : null;
  board.dataset.gone = String(markTurn(previous, fresh, motions, lastPath));
  if (!old || old.getAttribute('viewBox') !== fresh.getAttribute('viewBox')) {
    board.replaceChildren(fresh);
    return;
  }
  // Move the transform of pieces with stable ids from their old place, then let CSS animate.
  /** @type {Map<string, string>} */
  const was = new Map();
  for (const node of old.querySelectorAll('[id][transform]')) {
    was.set(node.id, node.getAttribute('transform') || '');
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
    const from = was.get(node.id);
    const now = node.getAttribute('transform') || '';
    if (from !== undefined && from !== now && node instanceof SVGGraphicsElement) {
      node.setAttribute('transform', from);
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
    const flip = board.classList.contains('flipped') ? -1 : 1;
    const dx = ((start.x - end.x) / scale) * flip;
    const dy = ((start.y - end.y) / scale) * flip;
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

/**
 * The picture before the last turn, fetched once after a reload so its marks can be drawn.
 * @param {number} ply the position shown
 */
async function markFromServer(ply) {
  if (ply === 0) return;
  const resp = await fetch(`/api/games/${state.view.id}/position/${ply - 1}`);
  if (!resp.ok || drawn.ply !== ply) return;
  const pos = await resp.json();
  const svgNow = drawn.svg;
  const motions = state.viewing === null ? state.view.motions : [];
  const lastPath = state.viewing === null ? state.view.last_path : [];
  drawn.ply = -1;
  drawn.svg = '';
  drawBoard(svgNow, ply, motions, lastPath, pos.svg);
  render();
}

/** Draws (or clears) the picture of the turn being built over the board. */
function drawPreview() {
  const svg = board.querySelector('svg');
  if (!svg) return;
  svg.querySelector(':scope > .ply-preview')?.remove();
  const p = currentPreview();
  if (!p || !p.overlay || !interactive()) return;
  const layer = parseSvg(`<svg xmlns="${SVG_NS}">${p.overlay}</svg>`);
  if (!layer) return;
  const g = document.createElementNS(SVG_NS, 'g');
  g.setAttribute('class', 'ply-preview');
  g.append(...Array.from(layer.childNodes));
  localize(g, formatMessage, seatName);
  svg.append(g);
}

/**
 * The help line: what the next click does, in words.
 * @param {TrieNode | undefined} here
 */
function helpText(here) {
  if (!interactive()) return '';
  const p = currentPreview();
  const step = p ? formatMessage(p.step, {}, '') : '';
  const parts = [];
  if (step) parts.push(step.charAt(0).toUpperCase() + step.slice(1));
  else parts.push(S.play_keys || '');
  if (here?.complete && here.children.size > 0) parts.push(formatMessage('help-confirm'));
  if (state.prefix.length > 0) parts.push(formatMessage('help-step-back'));
  return parts.filter(Boolean).join(' · ');
}

/** The clocks: what the server said, and when it arrived (the running one counts from it). */
/** @type {{ view: ClockView | null, at: number }} */
const clocks = { view: null, at: 0 };
const clocksEl = el('ply-clocks');
const soundBox = /** @type {HTMLInputElement} */ (el('ply-sound'));

/** @param {ClockView | undefined} c */
function takeClock(c) {
  clocks.view = c || null;
  clocks.at = performance.now();
}

/**
 * A time left, as clocks show it: h:mm:ss, m:ss, tenths under ten seconds, days beyond one.
 * @param {number} ms
 */
function clockText(ms) {
  const t = Math.max(0, ms);
  if (t >= 86_400_000) {
    const d = Math.floor(t / 86_400_000);
    const h = Math.floor((t % 86_400_000) / 3_600_000);
    return formatMessage('clock-days', { d, h }, `${d}d ${h}h`);
  }
  const s = Math.floor(t / 1000);
  const hh = Math.floor(s / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  if (hh > 0) return `${hh}:${String(mm).padStart(2, '0')}:${ss}`;
  if (t < 10_000) return `${mm}:${ss}.${Math.floor((t % 1000) / 100)}`;
  return `${mm}:${ss}`;
}

/** Draws both clocks, the running one counted down since the server's word. */
function renderClocks() {
  const c = clocks.view;
  clocksEl.hidden = !c;
  if (!c) return;
  const live = state.view.live;
  for (const seat of ['P1', 'P2']) {
    const box = el(`ply-clock-${seat}`);
    let left = c.left_ms[seat] ?? 0;
    const running = live && c.running === seat;
    if (running) left -= performance.now() - clocks.at;
    /** @type {HTMLElement} */ (box.querySelector('.who')).textContent = playerName(seat);
    const time = /** @type {HTMLElement} */ (box.querySelector('.time'));
    const text = clockText(left);
    if (time.textContent !== text) time.textContent = text;
    box.classList.toggle('running', running);
    box.classList.toggle('low', running && left < 20_000);
    box.dataset.left = String(Math.max(0, Math.round(left)));
  }
}
setInterval(renderClocks, 100);

/** Says when it becomes this page's turn: in the tab's title, and with a sound if wanted. */
const title = document.title;
let wasMine = false;
function notifyTurn() {
  const mine = myTurn() && state.viewing === null;
  document.title = mine ? `● ${S.your_turn} · ${title}` : title;
  if (mine && !wasMine && soundBox.checked) beep();
  wasMine = mine;
}

/** A short, soft tone (no file to fetch). */
function beep() {
  try {
    const audio = new AudioContext();
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = 660;
    gain.gain.setValueAtTime(0.08, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.25);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.25);
    osc.addEventListener('ended', () => audio.close());
  } catch {
    // No audio here: the title still says it.
  }
}

function render() {
  const v = state.view;
  if (state.viewing === null && (drawn.ply !== v.history.length || drawn.svg !== v.svg)) {
    // The next turn travels on the board; anything else (a reload, an undo, a resync) is
    // drawn at once, its last turn marked from the picture before it.
    const follows = drawn.ply >= 0 && drawn.ply === v.history.length - 1;
    if (!follows) drawn.ply = -1;
    drawBoard(v.svg, v.history.length, v.motions, v.last_path);
    if (!follows && v.history.length > 0) markFromServer(v.history.length);
  }
  // Targets
  for (const node of board.querySelectorAll('.ply-next, .ply-chosen, .ply-hint')) {
    node.classList.remove('ply-next', 'ply-chosen', 'ply-hint');
    node.removeAttribute('tabindex');
    node.removeAttribute('role');
    node.removeAttribute('aria-label');
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
      const text = node.querySelector('text')?.textContent;
      node.setAttribute('aria-label', text || formatMessage('board-item', { id }, id));
    }
    mark(state.prefix, 'ply-chosen');
    mark(state.hint, 'ply-hint');
    // The board resolves every choice, except one: the clicks so far make a whole turn that
    // could also go on. Then the turns are named, to confirm one.
    const named = state.named.get(key(state.prefix));
    if (state.prefix.length > 0 && here.complete && here.children.size > 0) {
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
    askPreview();
  }
  drawPreview();
  helpEl.textContent = helpText(here);
  helpEl.hidden = !interactive();
  // The bar above the board shows while a turn is being built; it keeps its place (the board
  // does not jump between turns).
  el('ply-turn-bar').classList.toggle('idle', helpEl.hidden && choicesEl.childElementCount === 0);
  buttons.clear.hidden = state.prefix.length === 0 || !interactive();
  const seated = state.seats.length > 0;
  buttons.hint.hidden = !(seated && v.can_hint && myTurn());
  buttons.undo.hidden = !(seated && v.can_undo && v.live && v.history.length > 0);
  buttons.resign.hidden = !(seated && v.live);
  const offer = (v.live && v.draw_offer) || null;
  const offeredToMe = Boolean(offer && seated && !state.seats.includes(offer));
  buttons.draw.hidden = !(seated && v.can_draw && v.live) || offer !== null;
  buttons.accept.hidden = !offeredToMe;
  buttons.decline.hidden = !offeredToMe;
  // Status
  let status;
  if (!v.live) status = S.game_over;
  else if (v.thinking) status = S.thinking;
  else if (!seated) status = `${S.spectating} ${formatMessage('to-move', { player: playerName(v.to_move) })}.`;
  else if (myTurn()) status = `${S.your_turn} (${playerName(v.to_move)})`;
  else status = `${S.their_turn} (${playerName(v.to_move)})`;
  if (offer) status = `${status} · ${offeredToMe ? S.draw_offered_you : S.draw_you_offered}`;
  statusEl.textContent = state.message ? `${state.message} — ${status}` : status;
  statusEl.classList.toggle('error', Boolean(state.message));
  statusEl.classList.toggle('thinking', v.live && v.thinking);
  statusEl.classList.toggle('mine', myTurn());
  renderEnd();
  renderMoves();
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
  // A game over by time, resignation or agreement: the picture no longer says who moves.
  board.classList.toggle('over', !v.live);
  if (!v.live) {
    connEl.textContent = formatMessage('finished', {}, S.game_over);
    connEl.classList.remove('down');
    connEl.classList.add('over');
  } else {
    connEl.textContent = state.connected ? `● ${S.connected}` : `○ ${S.disconnected}`;
    connEl.classList.toggle('down', !state.connected);
    connEl.classList.remove('over');
  }
  document.body.dataset.version = String(v.version);
  document.body.dataset.thinking = String(v.thinking);
  // For tests and styles: 'mine' once the legal moves of this position are here.
  document.body.dataset.turn = myTurn() && state.choicesVersion === v.version ? 'mine' : 'other';
  document.body.dataset.asking = String(state.asked.size > 0);
  renderClocks();
  notifyTurn();
}

/** The end of the game: who won, why, and a new game. */
function renderEnd() {
  const v = state.view;
  const r = v.result;
  endEl.hidden = !r;
  resultEl.hidden = !r;
  if (!r) return;
  let text;
  let why = '';
  if (r.draw) {
    text = formatMessage('result-draw', {}, S.draw);
    if (r.reason === 'agreed') why = formatMessage('reason-agreed', {}, S.agreed);
  } else {
    const mine = state.seats.length === 1 ? state.seats[0] : null;
    if (mine && r.winner === mine) text = formatMessage('result-you-won');
    else if (mine) text = formatMessage('result-you-lost');
    else text = formatMessage('result-wins', { player: playerName(r.winner) });
    const loser = r.winner === 'P1' ? 'P2' : 'P1';
    if (r.reason === 'resigned') {
      why = formatMessage('reason-resigned', { player: playerName(loser) });
    } else if (r.reason === 'time') {
      why = formatMessage('reason-time', { player: playerName(loser) });
    } else if (r.reason === 'record') {
      why = formatMessage('reason-record');
    } else if (r.end) {
      why = formatMessage(r.end, { player: playerName(r.winner) }, '');
    }
  }
  resultEl.textContent = text;
  resultEl.dataset.outcome = r.draw ? 'draw' : state.seats.length === 1 ? (r.winner === state.seats[0] ? 'won' : 'lost') : 'win';
  reasonEl.textContent = why ? why.charAt(0).toUpperCase() + why.slice(1) : '';
  reasonEl.hidden = !why;
  const seat = /** @type {HTMLInputElement | null} */ (document.getElementById('ply-again-seat'));
  if (seat) seat.value = state.seats.length === 1 ? state.seats[0] : 'P1';
  renderRematch();
}

/** The rematch between people: offer, accept or decline; then both go to the new game. */
function renderRematch() {
  const offer = document.getElementById('ply-rematch-offer');
  const accept = document.getElementById('ply-rematch-accept');
  const decline = document.getElementById('ply-rematch-decline');
  const status = document.getElementById('ply-rematch-status');
  if (!offer || !accept || !decline || !status) return;
  const v = state.view;
  const me = state.seats.length === 1 ? state.seats[0] : null;
  const pending = v.rematch_offer || null;
  offer.hidden = !me || v.live || Boolean(v.rematch) || pending !== null;
  accept.hidden = !me || Boolean(v.rematch) || !pending || pending === me;
  decline.hidden = accept.hidden;
  if (v.rematch) status.textContent = formatMessage('rematch-agreed');
  else if (pending && pending === me) status.textContent = formatMessage('rematch-offered');
  else if (pending) status.textContent = formatMessage('rematch-offered-you');
  else status.textContent = '';
  if (v.rematch && me && !rematchFollowed) {
    rematchFollowed = true;
    fetch(`/api/games/${v.id}/rematch`)
      .then((r) => (r.ok ? r.json() : null))
      .then((b) => {
        if (b?.url) location.href = b.url;
      })
      .catch(() => {});
  }
}
let rematchFollowed = false;
for (const [id, action] of [['ply-rematch-offer', 'offer'], ['ply-rematch-accept', 'accept'], ['ply-rematch-decline', 'decline']]) {
  document.getElementById(id)?.addEventListener('click', () => post({ type: 'rematch', action }));
}

/** The move list: one row per pair of turns, the shown one current and in view. */
function renderMoves() {
  const v = state.view;
  // The columns are the players: their names (or the seats' colours).
  for (const seat of ['P1', 'P2']) {
    const head = document.getElementById(`ply-moves-${seat}`);
    if (head && head.textContent !== playerName(seat)) head.textContent = playerName(seat);
  }
  const shown = state.viewing === null ? v.history.length : state.viewing;
  const rows = Math.ceil(v.history.length / 2);
  // Rebuild only what changed: rows are keyed by their number.
  while (movesEl.children.length > rows) movesEl.lastElementChild?.remove();
  for (let r = 0; r < rows; r++) {
    let tr = /** @type {HTMLTableRowElement | undefined} */ (movesEl.children[r]);
    if (!tr) {
      tr = document.createElement('tr');
      const th = document.createElement('th');
      th.scope = 'row';
      th.textContent = `${r + 1}.`;
      tr.append(th, document.createElement('td'), document.createElement('td'));
      movesEl.append(tr);
    }
    for (let c = 0; c < 2; c++) {
      const i = r * 2 + c;
      const td = /** @type {HTMLElement} */ (tr.children[c + 1]);
      const m = v.history[i];
      let b = /** @type {HTMLButtonElement | null} */ (td.querySelector('button'));
      if (m === undefined) {
        b?.remove();
        continue;
      }
      if (!b) {
        b = document.createElement('button');
        b.type = 'button';
        b.className = 'move';
        b.dataset.ply = String(i + 1);
        b.addEventListener('click', () => view(i + 1 === state.view.history.length ? null : i + 1));
        td.append(b);
      }
      if (b.textContent !== m) b.textContent = m;
      b.setAttribute('aria-label', `${formatMessage('turn-number', { n: i + 1 }, String(i + 1))}: ${playerName(i % 2 === 0 ? 'P1' : 'P2')} ${m}`);
      if (i + 1 === shown) b.setAttribute('aria-current', 'step');
      else b.removeAttribute('aria-current');
    }
  }
  const current = movesEl.querySelector('[aria-current="step"]');
  if (current instanceof HTMLElement) {
    // Follow the game inside the list's own box (the page does not jump).
    const box = movesBox.getBoundingClientRect();
    const at = current.getBoundingClientRect();
    if (at.top < box.top || at.bottom > box.bottom) {
      movesBox.scrollTop += at.top - box.top - box.height / 2;
    }
  } else if (shown === 0) {
    movesBox.scrollTop = 0;
  }
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
  state.back = [];
  if (ply === null) {
    render();
    return;
  }
  const [resp, prev] = await Promise.all([
    fetch(`/api/games/${state.view.id}/position/${ply}`),
    ply > 0 ? fetch(`/api/games/${state.view.id}/position/${ply - 1}`) : Promise.resolve(null),
  ]);
  if (!resp.ok || state.viewing !== ply) return;
  const pos = await resp.json();
  const before = prev && prev.ok ? (await prev.json()).svg : null;
  if (state.viewing !== ply) return;
  drawn.ply = -1;
  drawBoard(pos.svg, pos.ply, pos.motions, pos.last_path, before);
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

/** The preview's key: the position's version and the clicks. */
function previewKey(/** @type {number} */ version, /** @type {string[]} */ prefix) {
  return `${version}:${key(prefix)}`;
}

/** What the server said the clicks so far decide, if it has answered. */
function currentPreview() {
  return state.previews.get(previewKey(state.view.version, state.prefix));
}

/** Asks what the clicks so far decide (the next click's help, the turn drawn so far), once. */
function askPreview() {
  const k = previewKey(state.view.version, state.prefix);
  if (state.previews.has(k) || state.previewsAsked.has(k)) return;
  state.previewsAsked.add(k);
  post({ type: 'preview', version: state.view.version, prefix: state.prefix });
}

/**
 * Plays the move made of these clicks.
 * @param {string[]} path
 */
function send(path) {
  state.hint = [];
  if (post({ type: 'move', path, version: state.view.version })) state.sending = true;
  state.prefix = [];
  state.back = [];
  render();
}

/**
 * @param {string} id
 * @param {boolean} [byKey] chosen with the keyboard: keep the focus on the board
 */
function choose(id, byKey = false) {
  if (!interactive() || !state.choices) return;
  state.message = null;
  const before = state.prefix;
  const r = click(state.choices, state.prefix, id);
  if (r.prefix !== before) state.back.push(before);
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

/** Takes back the last click of the turn being built. */
function stepBack() {
  if (!state.choices) return;
  const prev = state.back.pop();
  state.prefix = prev ?? autoAdvance(state.choices, []);
  render();
}

/**
 * The distance in pixels from a point to an element's box on the screen.
 * @param {Element} node
 * @param {number} x
 * @param {number} y
 */
function distance(node, x, y) {
  const r = node.getBoundingClientRect();
  const dx = Math.max(r.left - x, 0, x - r.right);
  const dy = Math.max(r.top - y, 0, y - r.bottom);
  return Math.hypot(dx, dy);
}

/**
 * The id of the clickable target under the pointer, or the nearest one within the hit radius
 * (small points and thin lines are hard to hit, on a phone above all). The drawing is not
 * changed for it.
 * @param {MouseEvent} e
 * @returns {string | null}
 */
function targetAt(e) {
  const direct = e.target instanceof Element ? e.target.closest('.ply-next') : null;
  if (direct) return direct.id;
  for (const node of document.elementsFromPoint(e.clientX, e.clientY)) {
    const up = node.closest('.ply-next');
    if (up && board.contains(up)) return up.id;
  }
  let best = null;
  let bestDistance = HIT_RADIUS;
  for (const node of board.querySelectorAll('.ply-next')) {
    const d = distance(node, e.clientX, e.clientY);
    if (d <= bestDistance) {
      best = node.id;
      bestDistance = d;
    }
  }
  return best;
}

board.addEventListener('click', (e) => {
  const id = targetAt(e);
  if (id) choose(id);
});
board.addEventListener('contextmenu', (e) => {
  if (state.prefix.length > 0 || state.back.length > 0) {
    e.preventDefault();
    stepBack();
  }
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
  const inList = e.target instanceof Element && movesEl.contains(e.target);
  /** @param {number} ply */
  const go = (ply) => {
    e.preventDefault();
    view(ply >= total ? null : Math.max(ply, 0)).then(() => {
      if (inList) {
        const b = movesEl.querySelector('[aria-current="step"]');
        if (b instanceof HTMLElement) b.focus();
      }
    });
  };
  if (e.key === 'Escape') stepBack();
  else if (e.key === 'ArrowLeft') go(shown - 1);
  else if (e.key === 'ArrowRight') go(shown + 1);
  else if (inList && e.key === 'ArrowUp') go(shown - 2);
  else if (inList && e.key === 'ArrowDown') go(shown + 2);
  else if (inList && e.key === 'Home') go(0);
  else if (inList && e.key === 'End') go(total);
});

buttons.clear.addEventListener('click', () => {
  state.prefix = state.choices ? autoAdvance(state.choices, []) : [];
  state.back = [];
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
const rematch = document.getElementById('ply-rematch');
rematch?.addEventListener('click', () => {
  // The same game with the colours swapped.
  const seat = /** @type {HTMLInputElement | null} */ (document.getElementById('ply-again-seat'));
  if (!seat || !seat.form) return;
  seat.value = seat.value === 'P1' ? 'P2' : 'P1';
  seat.form.requestSubmit();
});
const copy = document.getElementById('ply-copy');
const invite = document.getElementById('ply-invite');
if (copy && invite instanceof HTMLInputElement) {
  invite.value = new URL(invite.value, location.href).href;
  copy.addEventListener('click', () => {
    invite.select();
    navigator.clipboard?.writeText(invite.value).catch(() => {});
  });
}

boardSettings(board, coordsBox, flipButton, state.view.id, state.seats);
try {
  soundBox.checked = localStorage.getItem('ply-sound') === 'on';
} catch {
  // Storage off: no sound unless ticked on this page.
}
soundBox.addEventListener('change', () => {
  try {
    localStorage.setItem('ply-sound', soundBox.checked ? 'on' : 'off');
  } catch {
    // Storage off: the choice lasts for this page.
  }
});

/**
 * Takes a whole view (the page's boot view, or a `state` message).
 * @param {View} v
 */
function adopt(v) {
  state.view = v;
  takeClock(v.clock);
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
  state.back = [];
  state.previews = new Map();
  state.previewsAsked = new Set();
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
    state.back = [];
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
    rematch_offer: ev.rematch_offer ?? null,
    rematch: ev.rematch ?? null,
    can_hint: v.can_hint && live,
    can_undo: v.can_undo && live,
    can_draw: v.can_draw && live,
  };
  takeClock(ev.clock || undefined);
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
    case 'preview':
      if (msg.version !== state.view.version) return;
      state.previews.set(previewKey(msg.version, msg.prefix), { step: msg.step, overlay: msg.overlay });
      break;
    case 'thinking':
      state.view = { ...state.view, thinking: Boolean(msg.on) };
      break;
    case 'hint':
      state.hint = msg.path || [];
      state.prefix = [];
      state.back = [];
      break;
    case 'error':
      state.sending = false;
      state.prefix = [];
      state.back = [];
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
    state.previewsAsked = new Set();
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
