// The analysis board of a finished game (`/game/{id}/analysis`, docs/http-api.md): the server
// analyses, this page draws. It shows any position of the game or of a side line made by
// clicking on the board, the engine's best line there as the search deepens (a new position
// cancels the old search), an evaluation bar, and, on request, the review of the whole game:
// a graph of the evaluation and marks for inaccuracies, mistakes and blunders in the move
// list. It knows no game.

import { autoAdvance, click, graft, nodeAt, decode } from './board.js';
import { el, messages, localize, markTurn, parseSvg, boardSettings, SVG_NS } from './ui.js';

/** @typedef {import('./board.js').TrieNode} TrieNode */
/** @typedef {import('./board.js').Choices} Choices */
/** @typedef {import('./ui.js').Motion} Motion */

/**
 * One turn of the review (crates/search/src/analysis.rs).
 * @typedef {{ number: number, player: string, played: string, before: { score: string, expected: number },
 *   after: { score: string, expected: number }, best: string, line: string[], loss: number,
 *   mark: string | null }} Turn
 */

const boot = JSON.parse(el('ply-boot').textContent || '{}');
const { formatMessage, playerName } = messages(boot);
/** @type {string[]} the turns of the game */
const game = boot.view.history;
const gameId = boot.view.id;

const board = el('ply-board');
const helpEl = el('ply-help');
const engineEl = el('ply-engine');
const fill = el('ply-eval-fill');
const bar = el('ply-eval-bar');
const movesEl = el('ply-moves');
const movesBox = el('ply-moves-box');
const sideEl = el('ply-side-line');
const sideMoves = el('ply-side-moves');
const graph = el('ply-graph');
const reviewButton = /** @type {HTMLButtonElement} */ (el('ply-review'));
const progress = /** @type {HTMLProgressElement} */ (el('ply-review-progress'));
const summary = el('ply-summary');

const state = {
  /** @type {string[]} the turns from the start to the position shown */
  line: game.slice(),
  serial: 0,
  /** @type {TrieNode | null} */
  choices: null,
  /** @type {string[]} */
  prefix: [],
  /** @type {string[][]} */
  back: [],
  /** @type {Map<number, Turn>} the review's turns, by number */
  turns: new Map(),
  connected: false,
};

/** The picture drawn and the line it shows. */
const drawn = { line: /** @type {string[] | null} */ (null), svg: /** @type {Element | null} */ (null) };

/**
 * How many turns `line` shares with the game from the start.
 * @param {string[]} line
 */
function common(line) {
  let i = 0;
  while (i < line.length && i < game.length && line[i] === game[i]) i++;
  return i;
}

/** @type {WebSocket | null} */
let socket = null;

/** @param {Record<string, unknown>} msg */
function post(msg) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(msg));
}

/**
 * Shows the position after `line` (asks the server; the answer draws it).
 * @param {string[]} line
 */
function show(line) {
  state.line = line;
  state.prefix = [];
  state.back = [];
  state.choices = null;
  engineEl.textContent = formatMessage('engine-thinking');
  post({ type: 'show', line });
  renderMoves();
}

/**
 * Draws a position the server sent.
 * @param {any} msg
 */
function takePosition(msg) {
  state.serial = msg.serial;
  const fresh = parseSvg(msg.svg);
  if (!fresh) return;
  localize(fresh, formatMessage, playerName);
  // The turn that led here is marked against the picture before it when that was drawn.
  const prev = drawn.line;
  const follows = prev !== null && prev.length + 1 === msg.line.length && prev.every((m, i) => m === msg.line[i]);
  markTurn(follows ? drawn.svg : null, fresh, msg.motions, msg.last_path);
  board.replaceChildren(fresh);
  drawn.line = msg.line;
  drawn.svg = /** @type {Element} */ (fresh.cloneNode(true));
  state.line = msg.line;
  state.choices = msg.choices ? decode(msg.choices) : null;
  state.prefix = state.choices ? autoAdvance(state.choices, []) : [];
  if (msg.over) engineEl.textContent = formatMessage('game-over-here');
  render();
  explore(msg.position, msg.line);
}

const explorerEl = el('ply-explorer');
/** The position the explorer was last asked about (answers for older ones are dropped). */
let explored = '';

/**
 * Asks the opening explorer what was played from `position` in the archive, and lists it:
 * each turn with its count and the results that followed; a click plays it on the board.
 * @param {string} position
 * @param {string[]} line the turns that lead to it
 */
async function explore(position, line) {
  if (!position || position === explored) return;
  explored = position;
  let answer;
  try {
    const r = await fetch(`/api/explore?position=${encodeURIComponent(position)}`);
    if (!r.ok) return;
    answer = await r.json();
  } catch {
    return;
  }
  if (explored !== position) return;
  explorerEl.dataset.position = position;
  /** @type {{ move: string, games: number, p1_wins: number, p2_wins: number, draws: number }[]} */
  const moves = answer.moves || [];
  if (moves.length === 0) {
    const p = document.createElement('p');
    p.textContent = formatMessage('explorer-none');
    explorerEl.replaceChildren(p);
    return;
  }
  const total = moves.reduce((n, m) => n + m.games, 0);
  const table = document.createElement('table');
  table.className = 'summary explorer-moves';
  const head = table.createTHead().insertRow();
  for (const text of [formatMessage('explorer-turn'), formatMessage('explorer-games'), playerName('P1'), formatMessage('result-draw'), playerName('P2')]) {
    const th = document.createElement('th');
    th.scope = 'col';
    th.textContent = text;
    head.append(th);
  }
  const body = table.createTBody();
  const pct = (/** @type {number} */ n, /** @type {number} */ d) => `${d ? Math.round((n * 100) / d) : 0}%`;
  for (const m of moves) {
    const row = body.insertRow();
    const cell = row.insertCell();
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'explorer-move';
    b.textContent = m.move;
    b.addEventListener('click', () => show(line.concat([m.move])));
    cell.append(b);
    row.insertCell().textContent = String(m.games);
    row.insertCell().textContent = pct(m.p1_wins, m.games);
    row.insertCell().textContent = pct(m.draws, m.games);
    row.insertCell().textContent = pct(m.p2_wins, m.games);
    // The results as one bar, as lichess draws them.
    row.title = `${pct(m.p1_wins, m.games)} / ${pct(m.draws, m.games)} / ${pct(m.p2_wins, m.games)}`;
  }
  const sum = document.createElement('p');
  sum.className = 'explorer-total';
  sum.textContent = formatMessage('explorer-total', { games: total });
  /** @type {HTMLElement[]} */
  const parts = [table, sum];
  /** @type {{ id: string, players: string[], result: string, turns: number }[]} */
  const games = answer.games || [];
  if (games.length > 0) {
    const h = document.createElement('h3');
    h.textContent = formatMessage('explorer-reached');
    const list = document.createElement('ul');
    list.className = 'explorer-games';
    for (const g of games) {
      const li = document.createElement('li');
      const a = document.createElement('a');
      a.href = `/game/${encodeURIComponent(g.id)}/analysis`;
      a.textContent = `${g.players[0]} – ${g.players[1]}`;
      li.append(a, ` (${g.result === 'draw' ? formatMessage('result-draw') : g.result === 'unknown' ? '?' : `${g.result === 'P1' ? g.players[0] : g.players[1]} ✓`}, ${g.turns})`);
      list.append(li);
    }
    parts.push(h, list);
  }
  explorerEl.replaceChildren(...parts);
}

/**
 * The engine's view of the position so far.
 * @param {any} msg
 */
function takeLine(msg) {
  if (msg.serial !== state.serial) return;
  engineEl.textContent = formatMessage('engine-line', {
    depth: msg.depth,
    score: msg.score,
    line: msg.pv.join(' '),
  });
  engineEl.dataset.depth = String(msg.depth);
  engineEl.dataset.done = String(msg.done);
  setBar(msg.p1);
}

/** @param {number} p1 P1's expected score, 0 to 100 */
function setBar(p1) {
  fill.style.height = `${Math.max(0, Math.min(100, p1))}%`;
  bar.setAttribute('aria-valuenow', String(Math.round(p1)));
  bar.title = `${playerName('P1')} ${Math.round(p1)}%`;
}

function render() {
  for (const node of board.querySelectorAll('.ply-next, .ply-chosen')) {
    node.classList.remove('ply-next', 'ply-chosen');
    node.removeAttribute('tabindex');
    node.removeAttribute('role');
  }
  const here = nodeAt(state.choices, state.prefix);
  if (here && !here.cut) {
    for (const id of here.children.keys()) {
      const node = board.querySelector(`[id="${CSS.escape(id)}"]`);
      if (!node) continue;
      node.classList.add('ply-next');
      node.setAttribute('tabindex', '0');
      node.setAttribute('role', 'button');
    }
    for (const id of state.prefix) board.querySelector(`[id="${CSS.escape(id)}"]`)?.classList.add('ply-chosen');
  }
  helpEl.textContent = state.choices ? formatMessage('help-explore', {}, formatMessage('step-choose')) : '';
  renderMoves();
}

/** The game's turns (marked once reviewed) and the side line, if the shown line leaves the game. */
function renderMoves() {
  for (const seat of ['P1', 'P2']) {
    const head = document.getElementById(`ply-moves-${seat}`);
    if (head) head.textContent = playerName(seat);
  }
  const shared = common(state.line);
  const inGame = shared === state.line.length;
  const shown = inGame ? state.line.length : shared;
  movesEl.replaceChildren();
  for (let r = 0; r < Math.ceil(game.length / 2); r++) {
    const tr = document.createElement('tr');
    const th = document.createElement('th');
    th.scope = 'row';
    th.textContent = `${r + 1}.`;
    tr.append(th);
    for (let c = 0; c < 2; c++) {
      const i = r * 2 + c;
      const td = document.createElement('td');
      if (i < game.length) {
        const b = document.createElement('button');
        b.type = 'button';
        b.className = 'move';
        b.dataset.ply = String(i + 1);
        b.textContent = game[i];
        const turn = state.turns.get(i + 1);
        if (turn?.mark) {
          b.classList.add(`mark-${turn.mark}`);
          const sym = document.createElement('span');
          sym.className = 'mark';
          sym.textContent = turn.mark === 'blunder' ? '??' : turn.mark === 'mistake' ? '?' : '?!';
          sym.title = formatMessage(`mark-${turn.mark}`);
          b.append(' ', sym);
        }
        if (i + 1 === shown && inGame) b.setAttribute('aria-current', 'step');
        b.addEventListener('click', () => show(game.slice(0, i + 1)));
        td.append(b);
      }
      tr.append(td);
    }
    movesEl.append(tr);
  }
  const current = movesEl.querySelector('[aria-current="step"]');
  if (current instanceof HTMLElement) {
    const box = movesBox.getBoundingClientRect();
    const at = current.getBoundingClientRect();
    if (at.top < box.top || at.bottom > box.bottom) movesBox.scrollTop += at.top - box.top - box.height / 2;
  }
  sideEl.hidden = inGame;
  sideMoves.textContent = inGame ? '' : `${formatMessage('side-line')}: ${shared}… ${state.line.slice(shared).join(' ')}`;
}

/** The review's graph: P1's expected score after every turn, marks as dots. */
function renderGraph() {
  graph.replaceChildren();
  const n = game.length;
  if (n === 0 || state.turns.size === 0) return;
  /** @param {number} ply */
  const x = (ply) => (ply / n) * 300;
  /** @param {number} p1 */
  const y = (p1) => 80 - (p1 / 100) * 80;
  const mid = document.createElementNS(SVG_NS, 'line');
  mid.setAttribute('x1', '0');
  mid.setAttribute('x2', '300');
  mid.setAttribute('y1', '40');
  mid.setAttribute('y2', '40');
  mid.setAttribute('class', 'mid');
  graph.append(mid);
  const points = [];
  for (let ply = 1; ply <= n; ply++) {
    const t = state.turns.get(ply);
    if (!t) continue;
    const p1 = t.player === 'P1' ? t.after.expected : 100 - t.after.expected;
    points.push(`${x(ply).toFixed(1)},${y(p1).toFixed(1)}`);
    if (t.mark) {
      const dot = document.createElementNS(SVG_NS, 'circle');
      dot.setAttribute('cx', x(ply).toFixed(1));
      dot.setAttribute('cy', y(p1).toFixed(1));
      dot.setAttribute('r', '2.5');
      dot.setAttribute('class', `mark ${t.mark}`);
      graph.append(dot);
    }
  }
  const line = document.createElementNS(SVG_NS, 'polyline');
  line.setAttribute('points', points.join(' '));
  line.setAttribute('class', 'eval');
  graph.prepend(line);
  graph.dataset.points = String(points.length);
}

/**
 * The review's summary per player.
 * @param {any[]} players
 */
function renderSummary(players) {
  summary.replaceChildren();
  for (const s of players) {
    const tr = document.createElement('tr');
    const td = document.createElement('td');
    td.textContent = formatMessage('summary-row', {
      player: playerName(s.player),
      inaccuracies: s.inaccuracies,
      mistakes: s.mistakes,
      blunders: s.blunders,
      loss: s.average_loss,
    });
    tr.append(td);
    summary.append(tr);
  }
  summary.hidden = false;
}

/** @param {MessageEvent} ev */
function onMessage(ev) {
  const msg = JSON.parse(String(ev.data));
  switch (msg.type) {
    case 'position':
      takePosition(msg);
      break;
    case 'line':
      takeLine(msg);
      break;
    case 'choices':
      if (state.choices && msg.line.join('\u0001') === state.line.join('\u0001')) {
        state.choices = graft(state.choices, msg.choices);
        state.prefix = autoAdvance(state.choices, state.prefix);
        render();
      }
      break;
    case 'turn':
      state.turns.set(msg.turn.number, msg.turn);
      progress.hidden = false;
      progress.max = msg.total;
      progress.value = msg.done;
      reviewButton.textContent = formatMessage('review-running', { done: msg.done, total: msg.total });
      renderGraph();
      renderMoves();
      break;
    case 'review':
      for (const t of msg.review.turns) state.turns.set(t.number, t);
      progress.hidden = true;
      reviewButton.hidden = true;
      document.body.dataset.reviewed = 'true';
      renderGraph();
      renderSummary(msg.review.summary);
      renderMoves();
      break;
    case 'error':
      engineEl.textContent = msg.message;
      break;
    default:
  }
}

/**
 * @param {string} id
 */
function choose(id) {
  if (!state.choices) return;
  const before = state.prefix;
  const r = click(state.choices, state.prefix, id);
  if (r.prefix !== before) state.back.push(before);
  state.prefix = r.prefix;
  if (r.move) {
    // A turn made on the board: the side line goes on from here.
    post({ type: 'play', line: state.line, path: r.move });
    return;
  }
  if (r.ask) post({ type: 'choices', line: state.line, prefix: r.ask });
  render();
}

board.addEventListener('click', (e) => {
  const t = e.target instanceof Element ? e.target.closest('.ply-next') : null;
  if (t) choose(t.id);
});
board.addEventListener('keydown', (e) => {
  if (e.key !== 'Enter' && e.key !== ' ') return;
  const t = e.target instanceof Element ? e.target.closest('.ply-next') : null;
  if (t) {
    e.preventDefault();
    choose(t.id);
  }
});
board.addEventListener('contextmenu', (e) => {
  if (state.back.length > 0) {
    e.preventDefault();
    state.prefix = state.back.pop() || [];
    render();
  }
});

/**
 * Steps `by` turns along the line shown (into the game's turns when the line is the game's).
 * @param {number} by
 */
function step(by) {
  const shared = common(state.line);
  const onGame = shared === state.line.length;
  const target = state.line.length + by;
  if (target < 0) return;
  if (by < 0) show(state.line.slice(0, target));
  else if (onGame && target <= game.length) show(game.slice(0, target));
}

document.addEventListener('keydown', (e) => {
  if (e.key === 'Escape' && state.back.length > 0) {
    state.prefix = state.back.pop() || [];
    render();
  } else if (e.key === 'ArrowLeft') step(-1);
  else if (e.key === 'ArrowRight') step(1);
});
el('ply-first').addEventListener('click', () => show([]));
el('ply-prev').addEventListener('click', () => step(-1));
el('ply-next').addEventListener('click', () => step(1));
el('ply-last').addEventListener('click', () => show(game.slice()));
el('ply-back-to-game').addEventListener('click', () => show(game.slice(0, common(state.line))));
reviewButton.addEventListener('click', () => {
  reviewButton.disabled = true;
  post({ type: 'review' });
});
graph.addEventListener('click', (e) => {
  const r = graph.getBoundingClientRect();
  const ply = Math.round(((e.clientX - r.left) / r.width) * game.length);
  show(game.slice(0, Math.max(0, Math.min(game.length, ply))));
});
boardSettings(board, /** @type {HTMLInputElement} */ (el('ply-coords')), el('ply-flip'), gameId, boot.seats || []);

let retry = 0;
function connect() {
  const proto = location.protocol === 'https:' ? 'wss' : 'ws';
  const ws = new WebSocket(`${proto}://${location.host}/ws/analysis/${gameId}`);
  socket = ws;
  ws.addEventListener('open', () => {
    retry = 0;
    state.connected = true;
    show(state.line);
  });
  ws.addEventListener('message', onMessage);
  ws.addEventListener('close', () => {
    if (socket !== ws) return;
    state.connected = false;
    retry = Math.min(retry + 1, 6);
    setTimeout(connect, 250 * 2 ** retry);
  });
}

setBar(50);
renderMoves();
connect();
