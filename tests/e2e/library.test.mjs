// Browser test of the game library: the shared boardspace records imported with
// `ply import --into`, searched on the archive page, opened on the analysis board, and the
// opening explorer beside it listing the turns played from each position; a click on one plays
// it on the board.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, launch, binary, screenshots } from './harness.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const corpus = path.resolve(root, '..', 'shared', 'corpus', 'zertz-boardspace');

/** @type {Awaited<ReturnType<typeof startServer>>} */
let server;
/** @type {Awaited<ReturnType<typeof launch>>} */
let chrome;

before(async () => {
  const folder = mkdtempSync(path.join(tmpdir(), 'ply-e2e-library-'));
  const said = execFileSync(binary(), ['import', '--into', path.join(folder, 'ply.sqlite'), corpus], { encoding: 'utf8' });
  assert.match(said, /added to the archive/);
  server = await startServer(folder);
  chrome = await launch();
});

after(async () => {
  await chrome?.close();
  await server?.stop();
  server?.cleanup();
});

test('the archive: search the imported records, open one, and explore its openings', async () => {
  const context = await chrome.browser.newContext({ viewport: { width: 1200, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${server.url}/archive`);
  assert.equal(await page.locator('#archive-games tbody tr').count(), 50, 'a page of 50 games');
  assert.equal(await page.locator('a[rel="next"]').count(), 1, 'and a next page');
  // Search by player: every game listed has them in a seat.
  await page.fill('#archive-search input[name="player"]', 'dumbot');
  await Promise.all([page.waitForURL(/player=dumbot/), page.click('#archive-search button[type="submit"]')]);
  const rows = page.locator('#archive-games tbody tr');
  const n = await rows.count();
  assert.ok(n > 10, `${n} games of Dumbot`);
  for (let i = 0; i < n; i++) assert.match((await rows.nth(i).textContent()) || '', /Dumbot/);
  await page.screenshot({ path: path.join(screenshots, 'archive.png') });
  // Open the first on the analysis board, and go to its start.
  await Promise.all([page.waitForURL(/\/analysis$/), rows.first().locator('a').first().click()]);
  await page.waitForSelector('#ply-explorer[data-position]', { timeout: 20000 });
  await page.click('#ply-first');
  await page.waitForFunction(() => (document.getElementById('ply-explorer')?.dataset.position || '').endsWith(';P1;*') && document.querySelector('#ply-explorer table'));
  const start = await page.getAttribute('#ply-explorer', 'data-position');
  // The counts on the page are the explorer's.
  const answer = await page.evaluate(async (p) => (await fetch(`/api/explore?position=${encodeURIComponent(p || '')}`)).json(), start);
  const shown = page.locator('#ply-explorer tbody tr');
  assert.equal(await shown.count(), answer.moves.length);
  assert.equal(await shown.first().locator('button').textContent(), answer.moves[0].move);
  assert.equal((await shown.first().locator('td').nth(1).textContent()) || '', String(answer.moves[0].games));
  assert.ok(answer.moves.reduce((/** @type {number} */ s, /** @type {{games: number}} */ m) => s + m.games, 0) > 10);
  await page.screenshot({ path: path.join(screenshots, 'explorer.png') });
  // A turn of the explorer is played on the board, and the explorer follows.
  await shown.first().locator('button').click();
  await page.waitForFunction((p) => {
    const now = document.getElementById('ply-explorer')?.dataset.position;
    return now && now !== p;
  }, start);
  // The explorer's own page, from the archive: plain links from position to position.
  await page.goto(`${server.url}/archive`);
  await Promise.all([page.waitForURL(/\/explore\/zertz/), page.click('.explorers a[href="/explore/zertz"]')]);
  const turns = page.locator('#explore-moves tbody tr');
  assert.ok((await turns.count()) > 10, 'first turns of the 37-ring games');
  const first = (await turns.first().locator('a').textContent()) || '';
  await Promise.all([page.waitForURL(/moves=/), turns.first().locator('a').click()]);
  assert.match((await page.textContent('#explore-line')) || '', new RegExp(first.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  await page.screenshot({ path: path.join(screenshots, 'explore-page.png') });
  await context.close();
});
