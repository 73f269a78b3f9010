// The benchmark page (bench.html) in a real browser, under its Content-Security-Policy: the worker loads seqorder and a
// pool of workers (nested in the benchmark's worker), a run (the tiny 'smoke' preset) reports progress and fills both
// tables with positive, finite numbers and seqorder's agreement with plain JS, and nothing is logged as an error (a
// CSP violation would be).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { collectErrors, launchBrowser } from './browser.mjs';

let session;
let page;
let errors;

before(async () => {
  session = await launchBrowser({ viewport: { width: 1000, height: 900 }, requires: 'bench.html' });
  ({ page } = session);
  errors = collectErrors(page);
  await page.goto(new URL('bench.html?preset=smoke', session.server.url).href, { waitUntil: 'load' });
});

after(async () => {
  await session?.close();
});

const tableRows = (id) =>
  page.$$eval(`#${id} tbody tr`, (rows) => rows.map((row) => [...row.cells].map((cell) => cell.textContent)));

test('the worker loads seqorder (its relaxed-SIMD build, a pool of workers) and the Start button comes alive', async () => {
  await page.waitForSelector('body[data-state="ready"]', { timeout: 60_000 });
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  assert.match(await page.textContent('#status'), new RegExp(`with its relaxed-SIMD build, and a pool of ${cores} workers`));
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
    // seqorder, seqorder out, the relaxed-SIMD build (Chromium runs relaxed SIMD), the pool, plain JS
    for (const cell of row.slice(2, 7)) assert.ok(Number(cell) > 0, `GFLOP/s ${cell} in ${row}`);
    assert.match(row[7], /^[\d.]+×$/);
    assert.match(row[8], /^[\d.]+×$/, 'pool ÷ seqorder');
    assert.ok(Number(row[9]) <= 1e-4, `max |Δ| ${row[9]}`);
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
