// The benchmark page (bench.html) in a real browser, under its Content-Security-Policy: the worker loads seqorder, a
// run (the tiny 'smoke' preset) reports progress and fills both tables with positive, finite numbers and seqorder's
// agreement with plain JS, and nothing is logged as an error (a CSP violation would be).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer } from '../../scripts/serve.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const siteDir = path.resolve(root, process.env.SEQORDER_DIST ?? 'dist', 'site');
const executablePath = process.env.CHROMIUM ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

let server;
let context;
let userDataDir;
let page;
const errors = [];

before(async () => {
  assert.ok(existsSync(path.join(siteDir, 'bench.html')), `no built page at ${siteDir}: run npm run build first`);
  server = await startServer({ root: siteDir, port: 0 });
  userDataDir = mkdtempSync(path.join(tmpdir(), 'seqorder-chromium-'));
  context = await chromium.launchPersistentContext(userDataDir, {
    executablePath, headless: true, args: CHROMIUM_ARGS, viewport: { width: 1000, height: 900 },
  });
  page = context.pages()[0] ?? (await context.newPage());
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(String(error?.stack ?? error)));
  await page.goto(new URL('bench.html?preset=smoke', server.url).href, { waitUntil: 'load' });
});

after(async () => {
  await context?.close();
  await server?.close();
  if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
});

const tableRows = (id) =>
  page.$$eval(`#${id} tbody tr`, (rows) => rows.map((row) => [...row.cells].map((cell) => cell.textContent)));

test('the worker loads seqorder and the Start button comes alive', async () => {
  await page.waitForSelector('body[data-state="ready"]', { timeout: 60_000 });
  assert.equal(await page.isEnabled('#start'), true);
  assert.equal(await page.inputValue('#preset'), 'smoke');
});

test('a run shows progress, then fills both tables with positive numbers that agree with plain JS', async () => {
  await page.click('#start');
  await page.waitForSelector('body[data-state="done"], body[data-state="error"]', { timeout: 120_000 });
  assert.equal(await page.getAttribute('body', 'data-state'), 'done', await page.textContent('#status'));
  assert.equal(await page.getAttribute('#status', 'data-kind'), 'pass');
  assert.equal(await page.$eval('#progress', (p) => p.value), 1);
  assert.match(await page.textContent('#progress-label'), /done in [\d.]+ s/);

  const attention = await tableRows('attention-table');
  assert.deepEqual(attention.map((r) => r.slice(0, 2)), [['64', 'none'], ['64', 'causal']]);
  for (const row of attention) {
    for (const cell of row.slice(2, 5)) assert.ok(Number(cell) > 0, `GFLOP/s ${cell} in ${row}`);
    assert.match(row[5], /^[\d.]+×$/);
    assert.ok(Number(row[6]) <= 1e-4, `max |Δ| ${row[6]}`);
  }
  const positions = await tableRows('positions-table');
  assert.equal(positions.length, 1);
  assert.equal(positions[0][0], '64 × 64');
  for (const cell of positions[0].slice(1, 5)) assert.ok(Number(cell) > 0, `ns/element ${cell}`);
  assert.ok(Number(positions[0][7]) <= 1.2e-7);
});

test('a second run replaces the tables, and Stop restarts the worker', async () => {
  await page.click('#start');
  await page.click('#stop');
  await page.waitForSelector('body[data-state="ready"]', { timeout: 60_000 });
  await page.click('#start');
  await page.waitForSelector('body[data-state="done"]', { timeout: 120_000 });
  assert.equal((await tableRows('attention-table')).length, 2);
});

test('nothing was logged as an error (no CSP violation, no failed load)', () => {
  assert.deepEqual(errors, []);
});
