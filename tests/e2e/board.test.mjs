// Browser tests of the board as players meet it (issue: a board that players enjoy): the help
// of each click and the turn drawn as it is built, stepping back, coordinates, the last turn
// marked, the move list, the end of a game, labels in the reader's language, hit areas on a
// phone, the home page's lists, hints, the favicon, the flip and the dark theme. Each test
// keeps a screenshot in target/e2e-screenshots/.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { startServer, launch, waitMyTurn, version, screenshots } from './harness.mjs';

/** @type {Awaited<ReturnType<typeof startServer>>} */
let server;
/** @type {Awaited<ReturnType<typeof launch>>} */
let chrome;

before(async () => {
  // Games are played out through the API here: no limit on actions per address.
  server = await startServer(undefined, ['--act-limit', '0']);
  chrome = await launch();
});

after(async () => {
  await chrome?.close();
  await server?.stop();
  server?.cleanup();
});

/**
 * Starts a game from the home page's card and waits for the live connection.
 * @param {import('playwright-core').Page} page
 * @param {string} game
 * @param {string} opponent
 * @param {{ variant?: string, seat?: string }} [opts]
 */
async function newGame(page, game, opponent, opts = {}) {
  await page.goto(`${server.url}/`);
  const card = page.locator(`#card-${game}`);
  if (opts.variant) await card.locator('select[name="variant"]').selectOption(opts.variant);
  await card.locator('select[name="opponent"]').selectOption(opponent);
  await card.locator('select[name="seat"]').selectOption(opts.seat || 'P1');
  await Promise.all([page.waitForURL(/\/game\/[0-9a-f]+$/), card.locator('button[type="submit"]').click()]);
  await page.waitForSelector('#ply-conn:not(.down)');
}

/** @param {import('playwright-core').Page} page */
function gameId(page) {
  return new URL(page.url()).pathname.split('/').pop() || '';
}

/**
 * Plays `n` turns through the HTTP API as the page's seat holder (the page's cookie), each the
 * `pick`-th legal move, and waits until the page shows them.
 * @param {import('playwright-core').Page} page
 * @param {number} n
 * @param {(count: number, i: number) => number} [pick]
 * @returns {Promise<any>} the last view
 */
async function playByApi(page, n, pick = (c, i) => (i * 7 + 3) % c) {
  const id = gameId(page);
  const before = await version(page);
  const last = await page.evaluate(
    async ({ id, n, pickSrc }) => {
      const pick = eval(pickSrc);
      let view = await (await fetch(`/api/games/${id}`)).json();
      for (let i = 0; i < n && view.moves.length > 0; i++) {
        const m = view.moves[pick(view.moves.length, i) % view.moves.length].m;
        const r = await fetch(`/api/games/${id}/moves`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ move: m }),
        });
        if (!r.ok) throw new Error(`move ${m}: ${r.status} ${await r.text()}`);
        view = await (await fetch(`/api/games/${id}`)).json();
      }
      return view;
    },
    { id, n, pickSrc: pick.toString() },
  );
  await page.waitForFunction((v) => Number(document.body.dataset.version) >= v, Math.max(last.version, before));
  return last;
}

/**
 * The help line's text once it settled on something other than `previous`.
 * @param {import('playwright-core').Page} page
 * @param {string} previous
 */
async function helpAfter(page, previous) {
  await page.waitForFunction((p) => {
    const t = document.getElementById('ply-help')?.textContent || '';
    return t !== '' && t !== p;
  }, previous);
  return (await page.textContent('#ply-help')) || '';
}

test('a multi-step turn: the help says what each click does, the turn is drawn as it is built, Esc and right-click step back', async () => {
  const context = await chrome.browser.newContext({ viewport: { width: 1200, height: 860 } });
  const page = await context.newPage();
  await newGame(page, 'gipf', 'hotseat');
  await waitMyTurn(page);
  const first = await helpAfter(page, '');
  assert.match(first, /enter|dot|where/i, `the first click's help names it (${first})`);
  assert.doesNotMatch(first, /highlighted items/i, 'not the generic line');
  // Choose an entry dot with two pushes: the help moves on to the push.
  await page.locator('#ply-board [id="a2"]').click();
  const second = await helpAfter(page, first);
  assert.notEqual(second, first);
  assert.match(second, /Esc/, 'the help says how to step back');
  // Choose the push: the pushed piece is drawn over the board before the turn is sent.
  const before = await version(page);
  const targets = page.locator('#ply-board .ply-next');
  if ((await targets.count()) > 0 && (await version(page)) === before) {
    // Step back with Esc, then with a right-click, and the help returns to the first step.
    await page.keyboard.press('Escape');
    assert.equal(await helpAfter(page, second), first, 'Esc goes back one click');
    await page.locator('#ply-board [id="a2"]').click();
    await helpAfter(page, first);
    await page.locator('#ply-board').click({ button: 'right', position: { x: 5, y: 5 } });
    assert.equal(await helpAfter(page, second), first, 'a right-click goes back one click');
  }
  // A ZÈRTZ placement: after the marble and the ring, the marble is drawn on its ring.
  await newGame(page, 'zertz', 'hotseat');
  await waitMyTurn(page);
  const z1 = await helpAfter(page, '');
  await page.locator('#ply-board .ply-next').first().click();
  const z2 = await helpAfter(page, z1);
  await page.locator('#ply-board .ply-next').first().click();
  await helpAfter(page, z2);
  await page.waitForSelector('#ply-board svg > .ply-preview > *', { timeout: 5000 });
  assert.ok((await page.locator('#ply-board .ply-preview .ghost').count()) > 0, 'a ghost of the marble');
  await page.screenshot({ path: path.join(screenshots, 'board-preview-zertz.png') });
  // PÜNCT: the piece being placed is drawn on its point.
  await newGame(page, 'punct', 'hotseat');
  await waitMyTurn(page);
  const p1 = await helpAfter(page, '');
  await page.locator('#ply-board .ply-next').first().click();
  const p2 = await helpAfter(page, p1);
  await page.locator('#ply-board .ply-next').nth(40).click();
  await helpAfter(page, p2);
  await page.waitForSelector('#ply-board svg > .ply-preview > *', { timeout: 5000 });
  await page.screenshot({ path: path.join(screenshots, 'board-preview-punct.png') });
  await context.close();
});

test('coordinates on every board, switched off and on, remembered', async () => {
  const context = await chrome.browser.newContext();
  const page = await context.newPage();
  for (const g of ['gipf', 'zertz', 'punct', 'boop']) {
    await newGame(page, g, 'hotseat');
    const coords = page.locator('#ply-board svg .coords text');
    assert.ok((await coords.count()) >= 5, `${g}: coordinates are drawn`);
    assert.ok(await coords.first().isVisible(), `${g}: and shown`);
  }
  await page.uncheck('#ply-coords');
  assert.equal(await page.locator('#ply-board svg .coords text').first().isVisible(), false, 'switched off');
  await page.reload();
  await page.waitForSelector('#ply-conn:not(.down)');
  assert.equal(await page.isChecked('#ply-coords'), false, 'remembered');
  assert.equal(await page.locator('#ply-board svg .coords text').first().isVisible(), false);
  await page.check('#ply-coords');
  assert.ok(await page.locator('#ply-board svg .coords text').first().isVisible());
  await context.close();
});

test('the last turn is marked: placed, moved, and what it removed', async () => {
  const context = await chrome.browser.newContext({ viewport: { width: 1200, height: 860 } });
  const page = await context.newPage();
  // ZÈRTZ: a marble placed and a ring removed.
  await newGame(page, 'zertz', 'hotseat');
  await playByApi(page, 1);
  await page.waitForSelector('#ply-board .ply-placed');
  await page.waitForSelector('#ply-board .ply-marks .ply-gone');
  // After a reload the marks come back (drawn from the picture before the turn).
  await page.reload();
  await page.waitForSelector('#ply-board .ply-marks .ply-gone');
  await page.waitForSelector('#ply-board .ply-placed');
  await page.screenshot({ path: path.join(screenshots, 'board-last-turn-zertz.png') });
  // GIPF: a push moves pieces; where they started is outlined.
  await newGame(page, 'gipf', 'hotseat');
  await playByApi(page, 3);
  await page.waitForSelector('#ply-board .ply-moved, #ply-board .ply-placed');
  // Stepping back through the record marks each turn too.
  await page.click('#ply-prev');
  await page.waitForSelector('#ply-viewing:not([hidden])');
  await page.waitForSelector('#ply-board .ply-moved, #ply-board .ply-placed');
  await page.screenshot({ path: path.join(screenshots, 'board-last-turn-gipf.png') });
  await context.close();
});

test('the move list: a row per pair of turns, numbers past 9, it follows the game and takes the arrow keys', async () => {
  const context = await chrome.browser.newContext({ viewport: { width: 1200, height: 700 } });
  const page = await context.newPage();
  await newGame(page, 'boop', 'hotseat');
  await playByApi(page, 30);
  const rows = page.locator('#ply-moves tr');
  assert.equal(await rows.count(), 15);
  assert.equal((await rows.nth(10).locator('th').textContent())?.trim(), '11.');
  assert.equal((await rows.nth(14).locator('th').textContent())?.trim(), '15.');
  // The latest turn is in view inside the list's box.
  const inView = () =>
    page.evaluate(() => {
      const b = document.querySelector('#ply-moves [aria-current="step"]');
      const box = document.getElementById('ply-moves-box');
      if (!b || !box) return false;
      const r = b.getBoundingClientRect();
      const o = box.getBoundingClientRect();
      return r.top >= o.top - 1 && r.bottom <= o.bottom + 1;
    });
  assert.ok(await inView(), 'the list follows the game');
  // Keyboard: focus the current turn, Up goes a row back, Left a turn back, Home to the start.
  await page.locator('#ply-moves [aria-current="step"]').focus();
  await page.keyboard.press('ArrowUp');
  await page.waitForFunction(() => document.querySelector('#ply-moves [aria-current="step"]')?.getAttribute('data-ply') === '28');
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction(() => document.querySelector('#ply-moves [aria-current="step"]')?.getAttribute('data-ply') === '27');
  assert.ok(await inView());
  await page.keyboard.press('Home');
  await page.waitForSelector('#ply-viewing:not([hidden])');
  await page.keyboard.press('End');
  await page.waitForSelector('#ply-viewing[hidden]', { state: 'attached' });
  await page.screenshot({ path: path.join(screenshots, 'board-move-list.png') });
  await context.close();
});

test('the end of a game: who won and why, nothing left to move, a new game', async () => {
  const context = await chrome.browser.newContext({ viewport: { width: 1200, height: 860 } });
  const page = await context.newPage();
  // A rules win at one screen (boop. played out through the API).
  await newGame(page, 'boop', 'hotseat');
  const last = await playByApi(page, 600, (c, i) => (i * 31 + 7) % c);
  assert.ok(last.result, 'the game ended');
  await page.waitForSelector('#ply-end:not([hidden])');
  const result = (await page.textContent('#ply-result')) || '';
  assert.match(result, /wins/);
  const reason = (await page.textContent('#ply-reason')) || '';
  assert.ok(reason.length > 3, `a reason for the rules win (${reason})`);
  assert.doesNotMatch((await page.textContent('#ply-board')) || '', /to move/i, 'the board no longer says who is to move');
  assert.equal(await page.locator('#ply-board .ply-next').count(), 0);
  for (const b of ['#ply-hint', '#ply-undo', '#ply-resign', '#ply-draw']) {
    assert.equal(await page.locator(b).isVisible(), false, `${b} hidden`);
  }
  assert.doesNotMatch((await page.textContent('#ply-conn')) || '', /live/, 'no "live" once over');
  await page.screenshot({ path: path.join(screenshots, 'board-end-rules.png') });
  // Against the computer: resigning says "You lost", and "New game" starts the next one.
  await newGame(page, 'zertz', 'computer-1');
  page.once('dialog', (d) => d.accept());
  await page.click('#ply-resign');
  await page.waitForSelector('#ply-end:not([hidden])');
  assert.equal((await page.textContent('#ply-result'))?.trim(), 'You lost');
  assert.match((await page.textContent('#ply-reason')) || '', /resigned/);
  await page.screenshot({ path: path.join(screenshots, 'board-end-resigned.png') });
  const old = page.url();
  await Promise.all([page.waitForURL((u) => u.href !== old && /\/game\//.test(u.href)), page.click('#ply-new-game')]);
  await page.waitForSelector('#ply-conn:not(.down)');
  assert.match((await page.textContent('.side h1')) || '', /ZÈRTZ/);
  // A rematch against the computer swaps the colours: now the computer moves first.
  page.once('dialog', (d) => d.accept());
  await page.click('#ply-resign');
  await page.waitForSelector('#ply-end:not([hidden])');
  const again = page.url();
  await Promise.all([page.waitForURL((u) => u.href !== again && /\/game\//.test(u.href)), page.click('#ply-rematch')]);
  await page.waitForSelector('#ply-conn:not(.down)');
  const seats = await page.evaluate(async () => (await (await fetch(`/api/games/${location.pathname.split('/').pop()}`)).json()).seats);
  assert.deepEqual(seats, ['P2']);
  await context.close();
});

test('in Russian the board, the help and the lists read in Russian, plurals included', async () => {
  const context = await chrome.browser.newContext({ locale: 'ru-RU' });
  const page = await context.newPage();
  await newGame(page, 'gipf', 'hotseat');
  await waitMyTurn(page);
  const labels = await page.locator('#ply-board svg [data-label]').allTextContents();
  assert.ok(labels.length > 0, 'the board has labels');
  assert.ok(labels.some((t) => /[а-яё]/i.test(t)), `labels in Russian (${labels.join(' | ')})`);
  assert.ok(labels.every((t) => !/\b(reserve|captured|to move)\b/i.test(t)), 'no English left');
  assert.match((await helpAfter(page, '')) || '', /[а-яё]/i, 'the help in Russian');
  await playByApi(page, 2);
  await page.goto(`${server.url}/`);
  assert.match((await page.textContent('#my-games')) || '', /2 хода/, 'the list says "2 хода"');
  await page.screenshot({ path: path.join(screenshots, 'board-ru.png'), fullPage: true });
  await context.close();
});

test('on a phone: targets are hit within 22 px of a small point, and the page can be pinch-zoomed', async () => {
  const context = await chrome.browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
  });
  const page = await context.newPage();
  await newGame(page, 'punct', 'hotseat');
  await waitMyTurn(page);
  assert.equal(await page.getAttribute('#ply-board', 'data-hit-radius'), '22');
  const viewport = (await page.getAttribute('meta[name="viewport"]', 'content')) || '';
  assert.doesNotMatch(viewport, /user-scalable\s*=\s*no|maximum-scale\s*=\s*1(\D|$)/, 'zoom is not disabled');
  assert.notEqual(await page.evaluate(() => getComputedStyle(document.getElementById('ply-board') || document.body).touchAction), 'none');
  // Choose a piece, then tap 12 px beside a point (which is drawn a few pixels wide).
  await page.locator('#ply-board .ply-next').first().tap();
  await page.waitForFunction(() => document.querySelectorAll('#ply-board .ply-chosen').length > 0);
  const chosen = await page.locator('#ply-board .ply-chosen').count();
  const point = page.locator('#ply-board .ply-next.point, #ply-board .ply-next').nth(30);
  const box = await point.boundingBox();
  assert.ok(box, 'a point to tap');
  assert.ok(box.width < 24, `the point is small on a phone (${box.width.toFixed(1)} px)`);
  await page.touchscreen.tap(box.x + box.width / 2 + 12, box.y + box.height / 2);
  await page.waitForFunction((n) => document.querySelectorAll('#ply-board .ply-chosen').length > n || document.body.dataset.turn !== 'mine', chosen);
  await page.screenshot({ path: path.join(screenshots, 'board-phone-punct.png') });
  await context.close();
});

test('the home page lists your own games first (yours to move on top) and finished games even when many are live', async () => {
  const context = await chrome.browser.newContext();
  const page = await context.newPage();
  // A finished game, then a live one waiting for me.
  await newGame(page, 'boop', 'computer-1');
  page.once('dialog', (d) => d.accept());
  await page.click('#ply-resign');
  await page.waitForSelector('#ply-end:not([hidden])');
  await newGame(page, 'gipf', 'hotseat');
  const mine = gameId(page);
  await page.goto(`${server.url}/`);
  const first = page.locator('#my-games li').first();
  assert.match((await first.getAttribute('id')) || (await first.innerHTML()), new RegExp(mine));
  assert.match((await first.textContent()) || '', /your turn/);
  assert.match((await page.textContent('#my-games')) || '', /You lost/);
  // Another visitor does not see my games as theirs, and sees finished games listed.
  const other = await chrome.browser.newContext();
  const p2 = await other.newPage();
  await p2.goto(`${server.url}/`);
  assert.equal(await p2.locator('#my-games').count(), 0);
  assert.ok((await p2.locator('#finished-games li').count()) >= 1, 'finished games are listed');
  await page.screenshot({ path: path.join(screenshots, 'home-mine.png'), fullPage: true });
  await other.close();
  await context.close();
});

test('hints only against the computer or at one screen; favicon; flip; dark theme', async () => {
  const context = await chrome.browser.newContext({ colorScheme: 'dark' });
  const page = await context.newPage();
  await newGame(page, 'boop', 'invite');
  await page.waitForSelector('#ply-status');
  assert.equal(await page.locator('#ply-hint').isVisible(), false, 'no hint between two people');
  const refused = await page.evaluate(async (id) => (await fetch(`/api/games/${id}/hint`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status, gameId(page));
  assert.equal(refused, 403);
  await newGame(page, 'boop', 'hotseat');
  await waitMyTurn(page);
  assert.ok(await page.locator('#ply-hint').isVisible(), 'a hint at one screen');
  // Favicon.
  const icon = await page.evaluate(async () => {
    const r = await fetch('/favicon.ico');
    return [r.status, r.headers.get('content-type')];
  });
  assert.deepEqual(icon, [200, 'image/svg+xml']);
  assert.equal(await page.locator('link[rel="icon"]').count(), 1);
  // Dark theme follows the system.
  const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const [r, g, b] = (bg.match(/\d+/g) || []).map(Number);
  assert.ok(r + g + b < 200, `a dark background (${bg})`);
  // Flip, remembered for this game.
  await page.click('#ply-flip');
  assert.equal(await page.getAttribute('#ply-flip', 'aria-pressed'), 'true');
  await page.reload();
  await page.waitForSelector('#ply-board.flipped');
  await page.screenshot({ path: path.join(screenshots, 'board-dark-flipped.png') });
  await context.close();
});

test('the analysis board: a finished game reviewed, the engine line streamed, side lines explored without changing the game', async () => {
  const context = await chrome.browser.newContext({ viewport: { width: 1200, height: 860 } });
  const page = await context.newPage();
  await newGame(page, 'boop', 'hotseat');
  const id = gameId(page);
  // A live game is not analysed.
  const live = await page.evaluate(async (id) => (await fetch(`/game/${id}/analysis`)).status, id);
  assert.equal(live, 403);
  await playByApi(page, 12);
  page.once('dialog', (d) => d.accept());
  await page.click('#ply-resign');
  await page.waitForSelector('#ply-end:not([hidden])');
  await Promise.all([page.waitForURL(/\/analysis$/), page.click('#ply-analyse')]);
  // The engine's line for the last position streams in, and the bar follows it.
  await page.waitForSelector('#ply-engine[data-depth]', { timeout: 20000 });
  assert.match((await page.textContent('#ply-engine')) || '', /depth \d+/);
  assert.ok((await page.getAttribute('#ply-eval-bar', 'aria-valuenow')) !== null);
  // Step back through the game: the shown turn follows, the line is searched again.
  await page.click('#ply-prev');
  await page.waitForFunction(() => document.querySelector('#ply-moves [aria-current="step"]')?.getAttribute('data-ply') === '11');
  // A turn of one's own on the board: a side line; the game itself is unchanged.
  await page.click('#ply-moves [data-ply="4"]');
  await page.waitForFunction(() => document.querySelector('#ply-moves [aria-current="step"]')?.getAttribute('data-ply') === '4');
  for (let i = 0; i < 8 && (await page.locator('#ply-side-line').isHidden()); i++) {
    const t = page.locator('#ply-board .ply-next');
    if ((await t.count()) === 0) break;
    await t.nth(i % (await t.count())).click();
    await page.waitForTimeout(150);
  }
  await page.waitForSelector('#ply-side-line:not([hidden])');
  assert.match((await page.textContent('#ply-side-moves')) || '', /4…/);
  const turns = await page.evaluate(async (id) => (await (await fetch(`/api/games/${id}`)).json()).history.length, id);
  assert.equal(turns, 12, 'the game is unchanged');
  await page.click('#ply-back-to-game');
  await page.waitForSelector('#ply-side-line[hidden]', { state: 'attached' });
  // The review: every turn gets an evaluation on the graph, a summary per player.
  await page.click('#ply-review');
  await page.waitForSelector('body[data-reviewed="true"]', { timeout: 60000 });
  assert.equal(await page.getAttribute('#ply-graph', 'data-points'), '12');
  assert.equal(await page.locator('#ply-summary tr').count(), 2);
  await page.screenshot({ path: path.join(screenshots, 'analysis-boop.png') });
  // A second reader gets the review at once (kept in memory).
  const p2 = await context.newPage();
  await p2.goto(`${server.url}/game/${id}/analysis`);
  await p2.waitForSelector('#ply-engine[data-depth]', { timeout: 20000 });
  const t0 = Date.now();
  await p2.click('#ply-review');
  await p2.waitForSelector('body[data-reviewed="true"]', { timeout: 5000 });
  assert.ok(Date.now() - t0 < 3000, 'a kept review comes at once');
  await context.close();
});
