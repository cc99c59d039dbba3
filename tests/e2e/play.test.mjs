// Browser tests of `ply serve`: every game played by clicking, an invite game in two browser
// contexts, a reload in the middle of a game and the language switch.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { startServer, launch, playByClicking, waitMyTurn, version, screenshots } from './harness.mjs';

/** @type {Awaited<ReturnType<typeof startServer>>} */
let server;
/** @type {Awaited<ReturnType<typeof launch>>} */
let chrome;
/** @type {{ name: string, display_name: string, variants: string[], computer: boolean }[]} */
let games = [];

before(async () => {
  server = await startServer();
  chrome = await launch();
  const meta = await (await fetch(`${server.url}/api/meta`)).json();
  games = meta.games;
  assert.ok(games.length >= 1, 'the registry lists games');
});

after(async () => {
  await chrome?.close();
  await server?.stop();
  server?.cleanup();
});

/**
 * Opens the home page and starts a game from the game's card.
 * @param {import('playwright-core').Page} page
 * @param {string} game
 * @param {string} opponent
 * @param {string} [variant]
 */
async function newGame(page, game, opponent, variant) {
  await page.goto(`${server.url}/`);
  const card = page.locator(`#card-${game}`);
  if (variant) await card.locator('select[name="variant"]').selectOption(variant);
  await card.locator('select[name="opponent"]').selectOption(opponent);
  await card.locator('select[name="seat"]').selectOption('P1');
  await Promise.all([page.waitForURL(/\/game\/[0-9a-f]+$/), card.locator('button[type="submit"]').click()]);
  await page.waitForSelector('#ply-conn:not(.down)');
}

/**
 * @param {import('playwright-core').Page} page
 * @returns {Promise<string[]>}
 */
async function history(page) {
  return page.locator('#ply-moves button.move').allTextContents();
}

test('every game is played by clicking (against the computer where there is one)', async () => {
  for (const g of games) {
    const context = await chrome.browser.newContext({ viewport: { width: 1200, height: 860 } });
    const page = await context.newPage();
    const errors = /** @type {string[]} */ ([]);
    page.on('pageerror', (e) => errors.push(String(e)));
    // The page works under the server's Content-Security-Policy: nothing is blocked.
    page.on('console', (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) errors.push(m.text());
    });
    await newGame(page, g.name, g.computer ? 'computer-1' : 'hotseat');
    // Vary the clicked targets a little so games differ from the first item.
    const pick = (/** @type {number} */ n, /** @type {number} */ step) => (step * 7 + 3) % n;
    if (g.computer) {
      for (let i = 0; i < 3; i++) {
        await playByClicking(page, pick);
        if ((await page.getAttribute('#ply-result', 'hidden')) === null) break;
      }
      await waitMyTurn(page).catch(() => {});
      const moves = await history(page);
      assert.ok(moves.length >= 4, `${g.name}: the computer replied at least twice (${moves.join(' ')})`);
    } else {
      for (let i = 0; i < 4; i++) await playByClicking(page, pick);
      assert.equal((await history(page)).length, 4, `${g.name}: four hot-seat moves`);
    }
    const travelled = Number(await page.getAttribute('#ply-board', 'data-travelled'));
    assert.ok(travelled > 0, `${g.name}: pieces travelled on the board (${travelled})`);
    await page.waitForTimeout(400); // let piece transitions finish
    await page.screenshot({ path: path.join(screenshots, `${g.name}.png`), fullPage: true });
    assert.deepEqual(errors, [], `${g.name}: no script errors`);
    await context.close();
  }
});

test('keyboard: Tab to a target and Enter selects it', async () => {
  const context = await chrome.browser.newContext();
  const page = await context.newPage();
  const g = games[0];
  await newGame(page, g.name, 'hotseat');
  const v = await version(page);
  for (let i = 0; i < 12 && (await version(page)) === v; i++) {
    await page.locator('#ply-board .ply-next').first().focus();
    await page.keyboard.press('Enter');
    await page.waitForTimeout(100);
  }
  assert.equal(await version(page), v + 1);
  await context.close();
});

test('an invite game: two browsers see every move', async () => {
  const a = await chrome.browser.newContext();
  const b = await chrome.browser.newContext();
  const pa = await a.newPage();
  const g = games.find((x) => x.name === 'boop') || games[0];
  await newGame(pa, g.name, 'invite');
  const link = await pa.locator('#ply-invite').inputValue();
  assert.match(link, /\/join\/[0-9a-f]+\/[0-9a-f]+$/);
  const pb = await b.newPage();
  await pb.goto(link);
  await pb.waitForSelector('#ply-conn:not(.down)');
  assert.equal(await pb.locator('#ply-invite').count(), 0, 'only the creator sees the invite link');
  // A third context without a seat only watches.
  const c = await chrome.browser.newContext();
  const pc = await c.newPage();
  await pc.goto(pa.url());
  await pc.waitForSelector('#ply-conn:not(.down)');
  assert.equal(await pc.locator('#ply-board .ply-next').count(), 0, 'a spectator gets no targets');
  for (let i = 0; i < 4; i++) {
    const mover = i % 2 === 0 ? pa : pb;
    const v = await playByClicking(mover, (n, s) => (i * 5 + s * 3 + 1) % n);
    for (const p of [pa, pb, pc]) {
      await p.waitForFunction((x) => Number(document.body.dataset.version) >= x, v, { timeout: 10000 });
    }
    const seen = await Promise.all([pa, pb, pc].map(history));
    assert.deepEqual(seen[1], seen[0]);
    assert.deepEqual(seen[2], seen[0]);
    assert.equal(seen[0].length, i + 1);
  }
  // A draw offered in one browser and accepted in the other ends the game for all three.
  await pa.click('#ply-draw');
  await pb.waitForSelector('#ply-accept:not([hidden])');
  await pb.click('#ply-accept');
  for (const p of [pa, pb, pc]) await p.waitForSelector('#ply-result:not([hidden])');
  assert.match(await pc.textContent('#ply-result'), /Draw/);
  await pb.waitForTimeout(400);
  await pb.screenshot({ path: path.join(screenshots, 'invite-second-player.png') });
  await a.close();
  await b.close();
  await c.close();
});

test('a reload in the middle of a game keeps the game and the turn', async () => {
  const context = await chrome.browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  const g = games.find((x) => x.computer) || games[0];
  await newGame(page, g.name, g.computer ? 'computer-1' : 'hotseat');
  await playByClicking(page);
  await waitMyTurn(page);
  const before = await history(page);
  await page.reload();
  await page.waitForSelector('#ply-conn:not(.down)');
  await waitMyTurn(page);
  assert.deepEqual(await history(page), before);
  await playByClicking(page);
  assert.ok((await history(page)).length > before.length);
  if (g.computer) {
    await waitMyTurn(page);
    // Hint: the engine's move is marked on the board.
    await page.click('#ply-hint');
    await page.waitForSelector('#ply-board .ply-hint', { timeout: 20000 });
    // Stepping back through the record shows an earlier position, and back again.
    await page.click('#ply-moves button.move >> nth=0');
    await page.waitForSelector('#ply-viewing:not([hidden])');
    assert.equal(await page.locator('#ply-board .ply-next').count(), 0, 'no targets on an old position');
    await page.click('#ply-last');
    await page.waitForSelector('#ply-viewing[hidden]', { state: 'attached' });
    // Undo takes back the computer's reply and my move.
    const n = (await history(page)).length;
    await page.click('#ply-undo');
    await page.waitForFunction((k) => document.querySelectorAll('#ply-moves button.move').length === k - 2, n);
  }
  await waitMyTurn(page);
  await page.waitForTimeout(400);
  await page.screenshot({ path: path.join(screenshots, 'phone-after-reload.png'), fullPage: true });
  await context.close();
});

test('the language switch changes the interface and is remembered', async () => {
  const context = await chrome.browser.newContext({ locale: 'en-US' });
  const page = await context.newPage();
  await page.goto(`${server.url}/`);
  assert.equal(await page.getAttribute('html', 'lang'), 'en');
  await page.click('a.lang[hreflang="ko"]');
  await page.waitForFunction(() => document.documentElement.lang === 'ko');
  assert.match(await page.textContent('header'), /새 게임/);
  await page.goto(`${server.url}/rules/${games[0].name}`);
  assert.equal(await page.getAttribute('html', 'lang'), 'ko');
  await page.screenshot({ path: path.join(screenshots, 'rules-ko.png'), fullPage: true });
  await page.click('a.lang[hreflang="ru"]');
  await page.waitForFunction(() => document.documentElement.lang === 'ru');
  assert.match(await page.textContent('main'), /Правила/);
  await context.close();
  // A browser asking for Russian gets Russian without a cookie.
  const ru = await chrome.browser.newContext({ locale: 'ru-RU' });
  const p2 = await ru.newPage();
  await p2.goto(`${server.url}/`);
  assert.equal(await p2.getAttribute('html', 'lang'), 'ru');
  await p2.screenshot({ path: path.join(screenshots, 'home-ru.png'), fullPage: true });
  await ru.close();
});

test('a spectator that lost its connection catches up exactly when it comes back', async () => {
  const a = await chrome.browser.newContext();
  const b = await chrome.browser.newContext();
  const pa = await a.newPage();
  const g = games.find((x) => x.name === 'gipf') || games[0];
  await newGame(pa, g.name, 'invite');
  const link = await pa.locator('#ply-invite').inputValue();
  const pb = await b.newPage();
  await pb.goto(link);
  await pb.waitForSelector('#ply-conn:not(.down)');
  // The spectator's WebSocket goes through the test, which can cut it and keep it cut.
  const c = await chrome.browser.newContext();
  const pc = await c.newPage();
  let blocked = false;
  /** @type {import('playwright-core').WebSocketRoute[]} */
  const routes = [];
  await pc.routeWebSocket(/\/ws\//, (route) => {
    if (blocked) {
      route.close();
      return;
    }
    route.connectToServer();
    routes.push(route);
  });
  await pc.goto(pa.url());
  await pc.waitForSelector('#ply-conn:not(.down)');
  const first = await playByClicking(pa, (n, s) => (s * 3 + 1) % n);
  await pc.waitForFunction((x) => Number(document.body.dataset.version) >= x, first);
  // Cut: two more moves happen while the spectator is away.
  blocked = true;
  for (const r of routes) await r.close();
  await pc.waitForSelector('#ply-conn.down');
  const second = await playByClicking(pb, (n, s) => (s * 5 + 2) % n);
  const third = await playByClicking(pa, (n, s) => (s * 7 + 3) % n);
  assert.equal(third, second + 1);
  assert.equal(await version(pc), first, 'the spectator saw nothing while away');
  // Back: it asks for what it missed (version `first`) and applies the events exactly.
  blocked = false;
  await pc.waitForFunction((x) => Number(document.body.dataset.version) === x, third, { timeout: 15000 });
  assert.deepEqual(await history(pc), await history(pa));
  // The same picture as a page loaded now: the same pieces, and the last move marked.
  const ids = (/** @type {import('playwright-core').Page} */ p) =>
    p.evaluate(() => Array.from(document.querySelectorAll('#ply-board [id]')).map((e) => e.id).sort());
  const fresh = await c.newPage();
  await fresh.goto(pa.url());
  await fresh.waitForSelector('#ply-conn:not(.down)');
  assert.deepEqual(await ids(pc), await ids(fresh));
  assert.ok((await pc.locator('#ply-board .ply-last').count()) > 0, 'the last move is marked');
  await a.close();
  await b.close();
  await c.close();
});
