// The lobby on the home page: the open seeks, live (`/ws/lobby`), a form to make one, and a
// button to accept each. A seek made here stays open while this page holds it; when someone
// accepts it, this page follows into the game by itself.

import { el, messages } from './ui.js';

const boot = JSON.parse(el('ply-lobby-boot').textContent || '{}');
const { formatMessage } = messages(boot);
const list = el('ply-seeks');
const form = /** @type {HTMLFormElement} */ (el('ply-seek-form'));
const status = el('ply-seek-status');
const cancelButton = /** @type {HTMLButtonElement} */ (el('ply-seek-cancel'));

/**
 * @typedef {{ id: string, game: string, variant: string, display_name: string,
 *   clock: { initial_s?: number, increment_s?: number, days?: number } | null, rated: boolean,
 *   colour: string, player: string | null }} Seek
 */

/** @type {{ id: string, token: string } | null} the seek this page made and holds */
let mine = null;
/** @type {WebSocket | null} */
let socket = null;

/** @param {Seek['clock']} c */
function clockText(c) {
  if (!c) return formatMessage('no-clock', {}, '∞');
  if (c.days) return formatMessage('clock-per-turn-days', { d: c.days }, `${c.days}d`);
  return `${Math.round((c.initial_s || 0) / 60)}+${c.increment_s || 0}`;
}

/** @param {Seek[]} seeks */
function draw(seeks) {
  list.replaceChildren();
  if (seeks.length === 0) {
    const li = document.createElement('li');
    li.className = 'empty';
    li.textContent = formatMessage('lobby-empty');
    list.append(li);
  }
  for (const s of seeks) {
    const li = document.createElement('li');
    li.dataset.seek = s.id;
    const what = document.createElement('span');
    const colour = s.colour === 'random' ? '' : ` · ${formatMessage(`seek-colour-${s.colour}`, {}, s.colour)}`;
    what.textContent = `${s.player || '?'} · ${s.display_name} (${s.variant}) · ${clockText(s.clock)} · ${
      s.rated ? formatMessage('rated') : formatMessage('casual')
    }${colour}`;
    li.append(what, ' ');
    if (mine && mine.id === s.id) {
      const yours = document.createElement('em');
      yours.textContent = formatMessage('seek-yours');
      li.append(yours);
    } else {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'accept';
      b.textContent = formatMessage('seek-accept');
      b.addEventListener('click', () => accept(s.id, b));
      li.append(b);
    }
    list.append(li);
  }
  document.body.dataset.seeks = String(seeks.length);
}

/**
 * @param {string} id
 * @param {HTMLButtonElement} button
 */
async function accept(id, button) {
  button.disabled = true;
  const r = await fetch(`/api/seeks/${id}/accept`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  const body = await r.json().catch(() => ({}));
  if (r.ok && body.url) {
    location.href = body.url;
    return;
  }
  status.textContent = body.error || formatMessage('seek-gone');
  button.disabled = false;
}

function connect() {
  const proto = location.protocol === 'https:' ? 'wss' : 'ws';
  const q = mine ? `?seek=${encodeURIComponent(mine.id)}&token=${encodeURIComponent(mine.token)}` : '';
  const ws = new WebSocket(`${proto}://${location.host}/ws/lobby${q}`);
  socket = ws;
  ws.addEventListener('message', (ev) => {
    const msg = JSON.parse(String(ev.data));
    if (msg.type === 'seeks') draw(msg.seeks);
    else if (msg.type === 'started') location.href = msg.url;
  });
  ws.addEventListener('close', () => {
    if (socket === ws) setTimeout(connect, 1000);
  });
}

/** Reconnects (to hold a new seek, or to stop holding one). */
function reconnect() {
  const old = socket;
  socket = null;
  old?.close();
  connect();
}

form.addEventListener('submit', async (e) => {
  e.preventDefault();
  const data = new FormData(form);
  const [game, variant] = String(data.get('game_variant') || '').split(':');
  const body = {
    game,
    variant: variant || undefined,
    time: String(data.get('time') || 'none'),
    rated: data.get('rated') === 'on',
    colour: String(data.get('colour') || 'random'),
  };
  const r = await fetch('/api/seeks', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const answer = await r.json().catch(() => ({}));
  if (!r.ok) {
    status.textContent = answer.error || String(r.status);
    return;
  }
  mine = { id: answer.id, token: answer.token };
  status.textContent = formatMessage('seek-waiting');
  cancelButton.hidden = false;
  form.querySelector('button[type="submit"]')?.setAttribute('disabled', '');
  reconnect();
});

cancelButton.addEventListener('click', async () => {
  if (!mine) return;
  await fetch(`/api/seeks/${mine.id}`, { method: 'DELETE', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: mine.token }) });
  mine = null;
  status.textContent = '';
  cancelButton.hidden = true;
  form.querySelector('button[type="submit"]')?.removeAttribute('disabled');
  reconnect();
});

connect();

/** One live game being played, refreshed every few seconds (like lichess TV). */
async function tv() {
  const section = el('tv');
  try {
    const r = await fetch('/api/tv');
    const t = await r.json();
    if (!t.game) {
      section.hidden = true;
      return;
    }
    section.hidden = false;
    el('ply-tv').innerHTML = t.svg;
    /** @type {HTMLAnchorElement} */ (el('ply-tv-link')).href = t.url;
    const names = [t.players?.P1, t.players?.P2].filter(Boolean).join(' – ');
    el('ply-tv-meta').textContent = `${t.display_name}${names ? ` · ${names}` : ''} · ${formatMessage('turns', { n: t.turns })}`;
    document.body.dataset.tv = t.game;
  } catch {
    // The next beat tries again.
  }
}
tv();
setInterval(tv, 3000);
