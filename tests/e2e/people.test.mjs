// Browser test of playing people: two browsers find each other through the lobby, play on the
// clock, one loses on time, the loser offers a rematch and both go on to it with colours
// swapped; the rated game changed both ratings.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { startServer, launch, playByClicking, screenshots } from './harness.mjs';

/** @type {Awaited<ReturnType<typeof startServer>>} */
let server;
/** @type {Awaited<ReturnType<typeof launch>>} */
let chrome;

before(async () => {
  server = await startServer();
  chrome = await launch();
});

after(async () => {
  await chrome?.close();
  await server?.stop();
  server?.cleanup();
});

test('the lobby, a game on the clock lost on time, a rematch, ratings', async () => {
  const a = await chrome.browser.newContext({ viewport: { width: 1200, height: 860 } });
  const b = await chrome.browser.newContext({ viewport: { width: 1200, height: 860 } });
  const pa = await a.newPage();
  const pb = await b.newPage();
  await pa.goto(`${server.url}/`);
  await pb.goto(`${server.url}/`);
  // A makes a rated seek on a 15 s clock (the form offers longer ones) and holds it as the
  // lobby page does.
  const seekId = await pa.evaluate(async () => {
    const r = await fetch('/api/seeks', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ game: 'boop', clock: { initial_s: 15, increment_s: 0 }, rated: true, colour: 'P1' }),
    });
    const s = await r.json();
    const ws = new WebSocket(`ws://${location.host}/ws/lobby?seek=${s.id}&token=${s.token}`);
    ws.addEventListener('message', (ev) => {
      const m = JSON.parse(ev.data);
      if (m.type === 'started') location.href = m.url;
    });
    // @ts-ignore kept alive on the page
    window.heldSeek = ws;
    return s.id;
  });
  // B sees it in the lobby, live, and takes it; both pages go to the game.
  await pb.waitForSelector(`#ply-seeks li[data-seek="${seekId}"] button.accept`, { timeout: 10000 });
  await pb.screenshot({ path: path.join(screenshots, 'people-lobby.png'), fullPage: true });
  await Promise.all([pb.waitForURL(/\/game\/[0-9a-f]+$/), pb.click(`#ply-seeks li[data-seek="${seekId}"] button.accept`)]);
  await pa.waitForURL(/\/game\/[0-9a-f]+$/, { timeout: 10000 });
  assert.equal(pa.url(), pb.url(), 'both in the same game');
  for (const p of [pa, pb]) await p.waitForSelector('#ply-conn:not(.down)');
  // The clocks show and run; names are shown.
  await pa.waitForSelector('#ply-clocks:not([hidden]) #ply-clock-P1.running');
  assert.match((await pa.textContent('#ply-clock-P1 .time')) || '', /^0:1\d/);
  // A third visitor's home page shows this game being played, names and all.
  const c = await chrome.browser.newContext();
  const pc = await c.newPage();
  await pa.waitForSelector('body[data-turn="mine"]');
  await playByClicking(pa);
  await pc.goto(`${server.url}/`);
  const gameId = new URL(pa.url()).pathname.split('/').pop();
  await pc.waitForSelector(`body[data-tv="${gameId}"]`, { timeout: 10000 });
  assert.ok((await pc.locator('#ply-tv svg').count()) === 1);
  assert.match((await pc.textContent('#ply-tv-meta')) || '', / – /, 'both names');
  await pc.screenshot({ path: path.join(screenshots, 'people-tv.png'), fullPage: true });
  await c.close();
  // The record names the players.
  const record = await pa.evaluate(async (id) => (await fetch(`/game/${id}/record`)).text(), gameId);
  assert.match(record, /\[P1 "[^"]+"\]/);
  assert.match(record, /\[P2 "[^"]+"\]/);
  // Two turns each (P1 has made one), then P1 (A) waits: the clock runs out.
  await playByClicking(pb);
  await playByClicking(pa);
  await playByClicking(pb);
  await pa.waitForSelector('#ply-end:not([hidden])', { timeout: 30000 });
  await pb.waitForSelector('#ply-end:not([hidden])', { timeout: 10000 });
  assert.equal((await pa.textContent('#ply-result'))?.trim(), 'You lost');
  assert.equal((await pb.textContent('#ply-result'))?.trim(), 'You won');
  assert.match((await pa.textContent('#ply-reason')) || '', /ran out of time/);
  await pa.screenshot({ path: path.join(screenshots, 'people-lost-on-time.png') });
  // Ratings changed for both (a rated game).
  for (const p of [pa, pb]) {
    const me = await p.evaluate(async () => (await fetch('/api/me')).json());
    const boop = me.ratings?.boop;
    assert.ok(boop && Math.round(boop.rating) !== 1500 && boop.games === 1, `a rating that moved: ${JSON.stringify(me)}`);
  }
  // The loser offers a rematch; the winner accepts; both go on, colours swapped.
  const old = pa.url();
  await pa.click('#ply-rematch-offer');
  await pb.waitForSelector('#ply-rematch-accept:not([hidden])');
  await Promise.all([
    pa.waitForURL((u) => u.href !== old && /\/game\//.test(u.href)),
    pb.waitForURL((u) => u.href !== old && /\/game\//.test(u.href)),
    pb.click('#ply-rematch-accept'),
  ]);
  assert.equal(pa.url(), pb.url());
  const seats = await pa.evaluate(async () => (await (await fetch(`/api/games/${location.pathname.split('/').pop()}`)).json()).seats);
  assert.deepEqual(seats, ['P2'], 'A plays second in the rematch');
  await a.close();
  await b.close();
});
