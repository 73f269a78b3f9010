// The pool from another origin, in Chromium: a page on one origin (an app) loads the package from another (a CDN,
// serving dist/lib with CORS), under a strict Content-Security-Policy that names the CDN. A browser starts no worker
// from another origin's script (Chromium throws a SecurityError), so the pool starts its packaged worker through a
// same-origin Blob; with options.workerUrl it starts a same-origin copy instead. Either way, its results are the bits
// of one thread, also on a page served cross-origin isolated (the CDN answering with Cross-Origin-Resource-Policy). A
// CDN without CORS, or a CSP without blob: for workers, gives an Error that names the script and the fix.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ISOLATION_HEADERS, startServer } from '../../scripts/serve.mjs';
import { launchChromium } from './helpers/engines/chromium.mjs';
import { siteDir } from './helpers/site.mjs';

const lib = path.join(siteDir, 'lib');
let chromium;
const servers = [];
/** Serves `root`; `headers` on every answer. Resolves to its URL (an origin of its own: a port of its own). */
async function serve(root, headers = {}) {
  const server = await startServer({
    root,
    intercept(request, response) {
      for (const [name, value] of Object.entries(headers)) response.setHeader(name, value);
      return false;
    },
  });
  servers.push(server);
  return server.url;
}

const CORS = { 'access-control-allow-origin': '*' };
let cdn;  // the package, with CORS
let cdnIsolated;  // and with what an isolated page needs of it
let cdnWithoutCors;
before(async () => {
  assert.ok(existsSync(path.join(lib, 'pool', 'seqorder', 'pool-worker.mjs')), `no pool worker in ${lib}: run npm run build first`);
  cdn = await serve(lib, CORS);
  cdnIsolated = await serve(lib, { ...CORS, 'cross-origin-resource-policy': 'cross-origin' });
  cdnWithoutCors = await serve(lib);
  chromium = await launchChromium();
});
after(async () => {
  await chromium?.close();
  await Promise.all(servers.map((server) => server.close()));
});

/** The app's origin: a page with a CSP naming the CDNs (and the workers it allows), and a copy of the package in /lib/. */
async function app({ workerSrc, isolated = false, cdnUrl = cdn } = {}) {
  const origins = [...new Set([cdnUrl, cdn].map((url) => new URL(url).origin))].join(' ');
  // (a module worker's imports are checked against worker-src, as the worker itself)
  const csp = `default-src 'self'; script-src 'self' ${origins} 'wasm-unsafe-eval'; connect-src 'self' ${origins}; worker-src ${workerSrc ?? `'self' blob: ${origins}`}`;
  const page = `<!doctype html><html><head><meta http-equiv="Content-Security-Policy" content="${csp}"><title>app</title><link rel="icon" href="data:,"></head><body></body></html>`;
  const server = await startServer({
    root: siteDir,
    isolated,
    intercept(request, response, pathname) {
      if (pathname !== '/app.html') return false;
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
      return true;
    },
  });
  servers.push(server);
  return `${server.url}app.html`;
}

/** In the app's page: the package imported from `from`, a pool with `options`, and its attention against one thread's. */
async function run(pageUrl, from, options) {
  const page = await chromium.context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const workers = [];  // each worker's URL as it starts (page.workers() after close() may have lost them)
  page.on('worker', (worker) => workers.push(worker.url()));
  try {
    await page.goto(pageUrl);
    const outcome = await page.evaluate(async ({ from, options }) => {
      const { loadSeqorder } = await import(`${from}model-entry.mjs`);
      const { loadSeqorderPool } = await import(`${from}pool/index.mjs`);
      const so = await loadSeqorder();
      let pool;
      try {
        pool = await loadSeqorderPool({ workers: 2, ...options });
      } catch (error) {
        return { error: `${error.name}: ${error.message}` };
      }
      const x = { data: Float32Array.from({ length: 700 * 64 }, (_, i) => Math.sin(i * 0.37)), shape: [700, 64] };
      const mine = (await pool.attention(x, x, x, { causal: true })).data;
      const theirs = so.attention(x, x, x, { causal: true }).data;
      const model = await pool.createModel({ vocab: 16, width: 8, classes: 2, seed: 1 });
      const ids = { data: Int32Array.of(1, 2, 3, 4), shape: [1, 4] };
      const logits = [(await model.forward(ids)).data, so.createModel({ vocab: 16, width: 8, classes: 2, seed: 1 }).forward(ids).data];
      const result = {
        same: mine.length === theirs.length && mine.every((v, i) => Object.is(v, theirs[i])),
        sameLogits: logits[0].every((v, i) => Object.is(v, logits[1][i])),
        shared: pool.sharedMemory, isolated: globalThis.crossOriginIsolated,
      };
      await pool.close();
      return result;
    }, { from, options });
    return { ...outcome, workers, errors };
  } finally {
    await page.close();
  }
}

test('the package from a CDN: the packaged worker starts through a same-origin Blob; the bits of one thread', async () => {
  const page = await app();
  const got = await run(page, cdn, {});
  assert.equal(got.error, undefined, got.error);
  assert.deepEqual([got.same, got.sameLogits, got.shared], [true, true, false]);
  assert.ok(got.workers.length >= 2 && got.workers.every((url) => url.startsWith(`blob:${new URL(page).origin}/`)), got.workers.join(', '));
  assert.deepEqual(got.errors, []);
});

test('the package from a CDN, options.workerUrl a same-origin copy of the worker: no Blob needed (worker-src \'self\')', async () => {
  const page = await app({ workerSrc: "'self'" });
  const got = await run(page, cdn, { workerUrl: '/lib/pool/seqorder/pool-worker.mjs' });
  assert.equal(got.error, undefined, got.error);
  assert.deepEqual([got.same, got.sameLogits], [true, true]);
  const copy = new URL('/lib/pool/seqorder/pool-worker.mjs', page).href;
  assert.ok(got.workers.length >= 2 && got.workers.every((url) => url === copy), got.workers.join(', '));
  assert.deepEqual(got.errors, []);
});

test('an isolated app and a CDN that allows it: the workers, started through the Blob, give the bits of one thread', async () => {
  const page = await app({ isolated: true, cdnUrl: cdnIsolated });
  const got = await run(page, cdnIsolated, {});
  assert.equal(got.error, undefined, got.error);
  assert.deepEqual([got.isolated, got.shared, got.same, got.sameLogits], [true, false, true, true]);
  assert.deepEqual(got.errors, []);
});

test('a CDN without CORS, a CSP without blob: for workers, a workerUrl that is not there: an Error names the script and the fix', async () => {
  // (without CORS the page cannot import the package either: the pool is given the CDN's worker by workerUrl)
  const page = await app({ cdnUrl: cdnWithoutCors });
  const noCors = await run(page, cdn, { workerUrl: `${cdnWithoutCors}pool/seqorder/pool-worker.mjs` });
  assert.match(noCors.error ?? '', /^Error: seqorder pool: its workers could not start from http:\/\/127\.0\.0\.1:\d+\/pool\/seqorder\/pool-worker\.mjs, another origin's, through a same-origin Blob \(worker \d stopped: .*\)\. A script on another origin must be served with CORS/);
  const strict = await run(await app({ workerSrc: "'self'" }), cdn, {});
  assert.match(strict.error ?? '', /its workers could not start from .*pool-worker\.mjs, another origin's, through a same-origin Blob .*must allow workers from blob: and from http:\/\/127\.0\.0\.1:\d+ \(worker-src\)/);
  const missing = await run(await app(), cdn, { workerUrl: '/nowhere/pool-worker.mjs' });
  assert.match(missing.error ?? '', /^Error: seqorder pool: its workers could not start from http:\/\/127\.0\.0\.1:\d+\/nowhere\/pool-worker\.mjs \(worker \d stopped: .*\)\. Serve the package's pool\/seqorder\/pool-worker\.mjs there/);
  for (const options of [{ workerUrl: 5 }, { workerUrl: {} }]) {
    const wrong = await run(await app(), cdn, options);
    assert.equal(wrong.error, "TypeError: options.workerUrl must be a string or a URL: the pool's worker script (the package's pool-worker.mjs)");
  }
});
