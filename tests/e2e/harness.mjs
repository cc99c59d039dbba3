// Shared set-up of the browser tests: a `ply serve` on a free port with a fresh database,
// and Debian's Chromium driven by playwright-core (no browser downloads).

import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const screenshots = path.join(root, 'target', 'e2e-screenshots');

export function binary() {
  const candidates = [
    process.env.PLY_BIN,
    path.join(process.env.CARGO_TARGET_DIR || path.join(root, 'target'), 'release', 'ply'),
    path.join(root, 'target', 'release', 'ply'),
  ].filter(Boolean);
  const found = candidates.find((c) => existsSync(/** @type {string} */ (c)));
  if (!found) throw new Error(`no ply binary (tried ${candidates.join(', ')}); run cargo build --release`);
  return /** @type {string} */ (found);
}

/**
 * Starts `ply serve --addr 127.0.0.1:0` on a database in a fresh temporary folder.
 * @param {string} [dir] reuse this folder (to test a restart)
 * @param {string[]} [extra] more arguments of `ply serve`
 */
export async function startServer(dir, extra = []) {
  const folder = dir || mkdtempSync(path.join(tmpdir(), 'ply-e2e-'));
  const child = spawn(binary(), ['serve', '--addr', '127.0.0.1:0', '--database', path.join(folder, 'ply.sqlite'), ...extra], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('ply serve did not print its address in 20 s')), 20000);
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const m = out.match(/listening on (http:\/\/\S+)/);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.on('exit', (code) => reject(new Error(`ply serve exited with ${code}`)));
  });
  return {
    url: /** @type {string} */ (url),
    folder,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
    },
    cleanup() {
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

export async function launch() {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    timeout: 30000,
  });
  mkdirSync(screenshots, { recursive: true });
  return {
    browser,
    async close() {
      await browser.close();
    },
  };
}

/**
 * The version the page shows (body[data-version]).
 * @param {import('playwright-core').Page} page
 */
export async function version(page) {
  return Number(await page.getAttribute('body', 'data-version'));
}

/**
 * Waits until it is this page's turn (not the computer thinking).
 * @param {import('playwright-core').Page} page
 */
export async function waitMyTurn(page, timeout = 30000) {
  await page.waitForSelector('body[data-turn="mine"]', { timeout });
}

/**
 * Plays one move by clicking highlighted items until the version goes up. `pick` chooses
 * which highlighted item to click (by index among them).
 * @param {import('playwright-core').Page} page
 * @param {(count: number, step: number) => number} [pick]
 */
export async function playByClicking(page, pick = () => 0) {
  await waitMyTurn(page);
  const before = await version(page);
  for (let step = 0; step < 12; step++) {
    // Continuations asked for after a click arrive before the targets are counted.
    await page.waitForSelector('body[data-asking="false"]', { timeout: 10000 });
    const targets = page.locator('#ply-board .ply-next');
    const count = await targets.count();
    if (count === 0) break;
    await targets.nth(pick(count, step) % count).click({ timeout: 5000 });
    const moved = await page
      .waitForFunction((v) => Number(document.body.dataset.version) > v, before, { timeout: 400 })
      .then(() => true)
      .catch(() => false);
    if (moved) return before + 1;
  }
  // A prefix matching a complete move and longer ones: take the listed choice.
  await page.waitForSelector('body[data-asking="false"]', { timeout: 10000 });
  const choice = page.locator('#ply-choices button.choice').first();
  if (await choice.count()) {
    await choice.click();
  }
  await page.waitForFunction((v) => Number(document.body.dataset.version) > v, before, { timeout: 10000 });
  return before + 1;
}
