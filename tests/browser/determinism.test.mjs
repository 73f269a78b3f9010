// Determinism across engines: the fixed calls of tests/node/determinism-calls.mjs, run in node and in
// Debian's Chromium (playwright-core) on the package served from $SEQORDER_DIST/site/lib on 127.0.0.1, give
// bit-identical outputs (SHA-256 of every result's dtype, shape and bytes).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { launchBrowser, root } from './browser.mjs';
import { loadSeqorder } from '../node/load.mjs';
import { determinismHashes } from '../node/determinism-calls.mjs';

let session;
let server;
let context;

before(async () => {
  session = await launchBrowser({ requires: path.join('lib', 'seqorder.mjs') });
  ({ server, context } = session);
});

after(async () => {
  await session?.close();
});

test('the same calls give bit-identical outputs in node and in Chromium', { timeout: 120_000 }, async (t) => {
  const nodeHashes = await determinismHashes(await loadSeqorder());

  const page = context.pages()[0] ?? (await context.newPage());
  const problems = [];
  page.on('console', (message) => message.type() === 'error' && problems.push(`console: ${message.text()}`));
  page.on('pageerror', (error) => problems.push(`page error: ${error}`));
  const origin = new URL(server.url).origin;
  page.on('request', (request) => new URL(request.url()).origin !== origin && problems.push(`request to ${request.url()}`));
  // A blank page and the calls module, both on the server's origin (the module is served by the route, not copied
  // into the site); the package itself comes from the server as any user's page would load it.
  const calls = readFileSync(path.join(root, 'tests/node/determinism-calls.mjs'), 'utf8');
  await page.route(`${origin}/__determinism/**`, (route) => {
    const { pathname } = new URL(route.request().url());
    if (pathname.endsWith('.mjs')) return route.fulfill({ status: 200, contentType: 'text/javascript', body: calls });
    return route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>determinism</title>' });
  });
  await page.goto(`${origin}/__determinism/index.html`);
  const browser = await page.evaluate(async () => {
    const { loadSeqorder } = await import('/lib/seqorder.mjs');
    const { determinismHashes } = await import('/__determinism/calls.mjs');
    return { hashes: await determinismHashes(await loadSeqorder()), userAgent: navigator.userAgent };
  });
  t.diagnostic(`node ${process.version} vs ${browser.userAgent.match(/(Headless)?Chrome\/[\d.]+/)?.[0]}: ${Object.keys(nodeHashes).length} outputs`);
  assert.deepEqual(problems, []);
  assert.deepEqual(Object.keys(browser.hashes), Object.keys(nodeHashes));
  const different = Object.keys(nodeHashes).filter((name) => browser.hashes[name] !== nodeHashes[name]);
  assert.deepEqual(different, [], 'outputs whose bits differ between node and Chromium');
});
