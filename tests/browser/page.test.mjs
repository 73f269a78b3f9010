// The lesson page in a real browser: serves $SEQORDER_DIST/site (default dist/site) on 127.0.0.1, opens it in Debian's
// Chromium through playwright-core, waits for <body data-ready="true">, then asserts that every live check passes, that
// nothing was logged as an error, that no request left the origin, and that a slider redraws the heatmap.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { frames as nextFrames, launchBrowser, openLessonPage } from './browser.mjs';

let session;
let server;
let context;
let page;
const consoleErrors = [];
const pageErrors = [];
const foreignRequests = [];
const failedRequests = [];
const workers = [];

before(async () => {
  session = await launchBrowser({ viewport: { width: 1000, height: 900 } });
  ({ server, context, page } = session);
  const { origin } = session;
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => pageErrors.push(String(error?.stack ?? error)));
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith('data:') && !url.startsWith('blob:') && new URL(url).origin !== origin) foreignRequests.push(url);
  });
  page.on('worker', (worker) => workers.push(worker.url()));
  page.on('requestfailed', (request) => failedRequests.push(`${request.url()} (${request.failure()?.errorText})`));
  page.on('response', (response) => {
    if (response.status() >= 400) failedRequests.push(`${response.url()} (HTTP ${response.status()})`);
  });
  await openLessonPage(page, server.url);
});

after(async () => {
  await session?.close();
});

test('the page finishes every experiment', async () => {
  const ready = await page.evaluate(() => document.body.dataset.ready);
  const status = await page.textContent('#status');
  assert.equal(ready, 'true', `body[data-ready] is "${ready}"; status: ${status}`);
});

test('every live check passes', async () => {
  const checks = await page.$$eval('[data-check]', (els) =>
    els.map((el) => ({ name: el.dataset.check, status: el.dataset.status, text: el.textContent.replace(/\s+/g, ' ').trim() })));
  assert.ok(checks.length >= 10, `expected the page's checks, found ${checks.length}`);
  const names = new Set();
  for (const { name } of checks) {
    assert.ok(!names.has(name), `two checks are named "${name}"`);
    names.add(name);
  }
  const failures = checks.filter((c) => c.status !== 'pass');
  assert.deepEqual(failures, [], `failing checks:\n${failures.map((c) => `  ${c.name}: ${c.text}`).join('\n')}`);
});

test('the positions checks of the lesson, and the batch, are all on the page', async () => {
  const names = await page.$$eval('[data-check]', (els) => els.map((el) => el.dataset.check));
  for (const name of ['no-where-robot-same', 'add-position-sum', 'add-position-differs', 'add-position-sum-ambiguous',
    'sinusoids-d8-four-pairs', 'sinusoids-formula', 'sinusoids-pair-speeds', 'sinusoids-one-sine-repeats',
    'experiment-position0-sines', 'experiment-position0-cosines', 'experiment-norms', 'experiment-robot-differs',
    'norm-every-position', 'norm-position0', 'start-offset-rows', 'start-offset-live', 'start-offset-live-restart',
    'batch-shape', 'batch-same-positions', 'batch-sentences-apart']) {
    assert.ok(names.includes(name), `missing check ${name}; present: ${names.join(', ')}`);
  }
});

test('no console errors, no page errors, no failed requests', () => {
  assert.deepEqual(pageErrors, [], `page errors:\n${pageErrors.join('\n')}`);
  assert.deepEqual(consoleErrors, [], `console errors:\n${consoleErrors.join('\n')}`);
  assert.deepEqual(failedRequests, [], `failed requests:\n${failedRequests.join('\n')}`);
});

test('no request leaves the origin', () => {
  assert.deepEqual(foreignRequests, []);
});

test('the Content-Security-Policy is the strict one', async () => {
  const csp = await page.getAttribute('meta[http-equiv="Content-Security-Policy"]', 'content');
  assert.equal(csp, "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'");
});

test('every stylesheet is linked in the head (none added by scripts later) and has loaded', async () => {
  const sheets = await page.evaluate(() => ({
    links: [...document.querySelectorAll('link[rel="stylesheet"]')].map((l) => ({
      href: l.getAttribute('href'), inHead: l.parentElement === document.head,
    })),
    loaded: [...document.styleSheets].map((s) => ({ href: s.href.replace(location.origin, ''), rules: s.cssRules.length })),
  }));
  const hrefs = ['css/style.css', 'css/order.css', 'css/comparisons.css', 'css/train.css'];
  assert.deepEqual(sheets.links, hrefs.map((href) => ({ href, inHead: true })));
  for (const href of hrefs) {
    const sheet = sheets.loaded.find((s) => s.href === `/${href}`);
    assert.ok(sheet?.rules > 0, `${href} did not load: ${JSON.stringify(sheets.loaded)}`);
  }
  // A rule of each applies: step formulas are monospace in the four steps, the learned table's error is boxed, the
  // sentence composer is a grid.
  assert.match(await page.$eval('.step-formula', (el) => getComputedStyle(el).fontFamily), /monospace/, 'order.css');
  assert.equal(await page.$eval('.cmp-error', (el) => getComputedStyle(el).borderLeftStyle), 'solid', 'comparisons.css');
  assert.equal(await page.$eval('.train-composer', (el) => getComputedStyle(el).display), 'grid', 'train.css');
});

/** A hash of the heatmap's pixels, read in the page. */
function heatmapHash() {
  return page.evaluate(() => {
    const canvas = document.querySelector('#sinusoids .plot-heatmap canvas');
    const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
    let h = 2166136261;
    for (let i = 0; i < data.length; i += 1) h = Math.imul(h ^ data[i], 16777619) >>> 0;
    return h.toString(16);
  });
}

/** Resolves after two animation frames: slider input re-renders in the next frame. */
const frames = () => nextFrames(page);

test('moving a slider (keyboard) redraws the heatmap and keeps its checks passing', async () => {
  for (const id of ['#sinusoids-start', '#sinusoids-width', '#sinusoids-length']) {
    const before = await heatmapHash();
    const value = await page.inputValue(id);
    await page.focus(id);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await frames();
    const after = await heatmapHash();
    assert.notEqual(await page.inputValue(id), value, `${id}: the arrow key did not move the slider`);
    assert.notEqual(after, before, `${id}: the heatmap did not change`);
  }
  const failing = await page.$$eval('#sinusoids [data-check]:not([data-status="pass"])', (els) => els.map((el) => el.textContent));
  assert.deepEqual(failing, []);
});

test('hovering the heatmap shows t, column and value', async () => {
  const canvas = await page.$('#sinusoids .plot-heatmap canvas');
  const box = await canvas.boundingBox();
  await page.mouse.move(box.x + box.width * 0.4, box.y + box.height * 0.3);
  const tooltip = await page.waitForSelector('#sinusoids .plot-heatmap .plot-tooltip:not([hidden])', { timeout: 5000 });
  const text = await tooltip.textContent();
  assert.match(text, /t = \d+/);
  assert.match(text, /column \d+/);
  assert.match(text, /[−-]?\d/);
});

test('the page is usable on a phone-sized screen (no horizontal scrolling)', async () => {
  await page.setViewportSize({ width: 360, height: 740 });
  await frames();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 0, `the page is ${overflow}px wider than a 360px screen`);
});

test('the heatmap is readable by keyboard: focus it, move with the arrow keys', async () => {
  await page.setViewportSize({ width: 1000, height: 900 });
  await page.focus('#sinusoids .plot-heatmap canvas');
  await page.keyboard.press('ArrowDown'); // the first key puts the cursor on (t = start, column 0)
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowRight');
  await frames();
  const text = await page.textContent('#sinusoids .plot-heatmap .plot-tooltip');
  const start = Number(await page.inputValue('#sinusoids-start'));
  assert.match(text, new RegExp(`t = ${start + 1}, column 1\\b`));
  await page.keyboard.press('Escape');
});

test('the heavy sweeps ran in a module Worker, off the main thread', () => {
  assert.ok(workers.some((url) => url.endsWith('/js/worker.mjs')), `workers: ${JSON.stringify(workers)}`);
});

test('without WebAssembly, or when the module cannot load, the page says so instead of staying blank', async () => {
  const cases = [
    { setup: (p) => p.addInitScript(() => { delete globalThis.WebAssembly; }), expect: /no WebAssembly/ },
    { setup: (p) => p.route('**/*.wasm', (route) => route.abort()), expect: /could not be loaded/ },
  ];
  for (const { setup, expect } of cases) {
    const other = await context.newPage();
    try {
      await setup(other);
      await other.goto(server.url, { waitUntil: 'load' });
      await other.waitForSelector('body[data-ready="error"]', { timeout: 30_000 });
      const status = await other.textContent('#status');
      assert.match(status, expect);
      assert.equal(await other.getAttribute('#status', 'data-kind'), 'error');
    } finally {
      await other.close();
    }
  }
});
