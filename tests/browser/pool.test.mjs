// loadSeqorderPool in every engine (tests/browser/helpers/engines): Web Workers started from a page under the site's
// Content-Security-Policy, on a site served as plain static hosts serve it and on one served cross-origin isolated
// (as `npm start` serves the lesson page); the pool copies on both. Either way its results are the
// bits so.attention computes (in the page, and in node), its errors are so.attention's, a killed worker rejects its
// call and is replaced, close() rejects what is pending, and nothing is recorded as an error.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { eachEngine } from './helpers/each-engine.mjs';
import { indexHtml, root, siteDir } from './helpers/site.mjs';
import { uniformTensor } from '../node/helpers/random.mjs';

const CASES = [
  // [lead axes, Tq, Tk, D, Dv, options, dtype]
  [[], 600, 600, 64, 64, {}, 'float32'],
  [[], 601, 620, 64, 64, { causal: true, queryStart: 19 }, 'float32'],
  [[2, 4], 200, 200, 64, 64, { causal: true }, 'float32'],
  [[3], 300, 320, 64, 32, {}, 'float64'],
  [[], 90, 95, 16, 16, { steps: true }, 'float32'],
];

// A page of the test's own under the site's Content-Security-Policy (read from the built index.html), and the seeded
// inputs' generator (tests/node/helpers/random.mjs, free of imports) beside it, so that the page makes the inputs node
// makes.
const CSP = /<meta http-equiv="Content-Security-Policy"[^>]*>/.exec(indexHtml())[0];

for (const isolated of [false, true]) eachEngine({
  requires: 'lib/pool/seqorder/pool-worker.mjs',
  isolated,
  answers: {
    '/__pool/index.html': { type: 'html', body: `<!doctype html><head>${CSP}<title>pool</title><link rel="icon" href="/favicon.svg"></head>` },
    '/__pool/random.mjs': { type: 'js', body: readFileSync(path.join(root, 'tests/node/helpers/random.mjs'), 'utf8') },
    // a worker of the protocol whose op `close` closes it, which no event reports to the page
    '/__pool/closing-worker.mjs': { type: 'js', body: `import { serve } from '/lib/pool/protocol.mjs';
serve({
  load: () => ({ value: 'loaded' }),
  echo: ({ n }) => ({ value: n }),
  close: () => { self.close(); return new Promise(() => {}); },
  wait: ({ ms }) => new Promise((resolve) => setTimeout(() => resolve({ value: ms }), ms)),
});
` },
  },
  open: '/__pool/index.html',
  setUp: ({ browser }) => browser.evaluate(async () => {
    const { loadSeqorder } = await import('/lib/seqorder.mjs');
    const { loadSeqorderPool } = await import('/lib/pool/index.mjs');
    globalThis.so = await loadSeqorder();
    globalThis.pool = await loadSeqorderPool({ workers: 3 });
    // a pool whose calling thread computes a share: where memory can be shared, its runs go through exchanges
    globalThis.calling = await loadSeqorderPool({ workers: 2, callingThread: true });
    const { workersOf } = await import('/lib/pool/index.mjs');
    const set = workersOf(globalThis.calling);
    const { expect } = set;
    globalThis.exchanged = 0;
    set.expect = (index) => {
      globalThis.exchanged++;
      return expect.call(set, index);
    };
  }),
}, (s) => {
  const mode = isolated ? 'cross-origin isolated' : 'not isolated';
  test(`${s.engine} (${mode}): the pool copies: sharedMemory is false, and sharedMemory: true rejects saying so`, async () => {
    const seen = await s.browser.evaluate(async () => {
      const { loadSeqorderPool } = await import('/lib/pool/index.mjs');
      const refused = await loadSeqorderPool({ workers: 1, sharedMemory: true }).then(() => 'loaded', (error) => `${error.constructor.name}: ${error.message}`);
      return { isolated: globalThis.crossOriginIsolated, shared: globalThis.pool.sharedMemory, refused };
    });
    assert.equal(seen.isolated, isolated);
    assert.equal(seen.shared, false);
    assert.match(seen.refused, /^Error: seqorder pool: options\.sharedMemory: true, but the workers cannot share memory: the pool copies .*docs\/pool\.md#one-way-of-moving-the-work-copies$/);
  });

  test(`${s.engine} (${mode}): results: the bits so.attention computes in the page, and in node`, async () => {
    // each case's inputs from seeds, made alike here and in the page
    const seeded = ([lead, Tq, Tk, D, Dv, , dtype]) =>
      [[[...lead, Tq, D], Tq], [[...lead, Tk, D], Tk + 1], [[...lead, Tk, Dv], Tk + 2]].map(([shape, seed]) => ({ shape, dtype, seed }));
    const list = (r) => ('data' in r ? [r] : [r.scores, r.scaled, r.weights, r.output]);
    const results = await s.browser.evaluate(async (cases) => {
      const { uniformTensor } = await import('/__pool/random.mjs');
      const hex = async (t) => [...new Uint8Array(await crypto.subtle.digest('SHA-256', t.data))].map((b) => b.toString(16).padStart(2, '0')).join('');
      const list = (r) => ('data' in r ? [r] : [r.scores, r.scaled, r.weights, r.output]);
      const out = [];
      for (const { inputs, options } of cases) {
        const [q, k, v] = inputs.map(({ shape, dtype, seed }) => uniformTensor(shape, dtype, seed));
        const got = await globalThis.pool.attention(q, k, v, options);
        const want = globalThis.so.attention(q, k, v, options);
        // the calling thread's pool, twice (a run that needs a larger exchange goes by message, the next through it)
        const calling = [];
        for (let n = 0; n < 2; n++) calling.push(await Promise.all(list(await globalThis.calling.attention(q, k, v, options)).map(hex)));
        out.push({ got: await Promise.all(list(got).map(hex)), want: await Promise.all(list(want).map(hex)), calling, shape: list(got).at(-1).shape });
      }
      const canShare = typeof SharedArrayBuffer === 'function' && typeof Atomics.waitAsync === 'function' && globalThis.crossOriginIsolated;
      return { out, exchanged: globalThis.exchanged, canShare };
    }, CASES.map((c) => ({ inputs: seeded(c), options: c[5] })));

    const { loadSeqorder } = await import(pathToFileURL(path.join(siteDir, 'lib', 'seqorder.mjs')).href);
    const so = await loadSeqorder();
    const digest = (tensors) => tensors.map((t) => createHash('sha256').update(new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength)).digest('hex'));
    CASES.forEach((c, n) => {
      const [lead, Tq, Tk, , Dv, options, dtype] = c;
      const label = `case ${n}: ${dtype} [${lead}] ${Tq}x${Tk} ${JSON.stringify(options)}`;
      const inputs = seeded(c).map(({ shape, seed }) => uniformTensor(shape, dtype, seed));
      const { got, want, calling, shape } = results.out[n];
      assert.deepEqual(got, want, `${label}: the pool differs from so.attention in the page`);
      assert.deepEqual(got, digest(list(so.attention(...inputs, options))), `${label}: the page's pool differs from node's so.attention`);
      assert.deepEqual(shape, [...lead, Tq, Dv]);
      calling.forEach((hashes, call) => assert.deepEqual(hashes, want, `${label}: the calling thread's pool, call ${call}, differs from so.attention`));
    });
    // through shared memory where the page can share it (cross-origin isolated, but WebKitGTK, which has no
    // SharedArrayBuffer even there), by message where it cannot
    if (isolated && s.engine !== 'webkit') assert.ok(results.canShare, 'a cross-origin isolated page shares memory');
    if (results.canShare) assert.ok(results.exchanged > 0, 'runs went through exchanges');
    else assert.equal(results.exchanged, 0);
  });

  test(`${s.engine} (${mode}): errors: so.attention's class and message, as a rejection`, async () => {
    const pairs = await s.browser.evaluate(async () => {
      const x = { data: new Float32Array(12), shape: [3, 4] };
      const bad = [
        [x, x], [x, x, { data: new Float32Array(10), shape: [5, 2] }], [x, x, x, { queryStart: 1 }],
        [x, x, x, { causal: true, queryStart: 9 }], [x, x, x, { out: new Float64Array(12) }], [x, x, x, { cause: true }],
        [{ ...x, dtype: 'float64' }, x, x], [x, { data: new Float32Array(12), shape: [4, 3] }, x],
      ];
      const out = [];
      for (const args of bad) {
        let want;
        try { globalThis.so.attention(...args); } catch (error) { want = `${error.constructor.name}: ${error.message}`; }
        const got = await globalThis.pool.attention(...args).then(() => 'resolved', (error) => `${error.constructor.name}: ${error.message}`);
        out.push([got, want]);
      }
      return out;
    });
    for (const [got, want] of pairs) assert.equal(got, want.replace('steps, out)', 'steps, out, transfer)'));
    assert.ok(pairs.every(([, want]) => /^(TypeError|RangeError): /.test(want)));
  });

  test(`${s.engine} (${mode}): a killed worker rejects its call with a clear Error and is replaced; close() rejects what is pending`, async () => {
    const outcome = await s.browser.evaluate(async () => {
      const { workersOf } = await import('/lib/pool/index.mjs');
      const x = { data: new Float32Array(1500 * 64).fill(0.5), shape: [1500, 64] };
      const pending = globalThis.pool.attention(x, x, x);
      workersOf(globalThis.pool).kill(2);
      const killed = await pending.then(() => 'resolved', (error) => `${error.constructor.name}: ${error.message}`);
      const after = (await globalThis.pool.attention(x, x, x, { causal: true })).shape.join('x');
      const last = globalThis.pool.attention(x, x, x);
      await globalThis.pool.close();
      const closed = await last.then(() => 'resolved', (error) => error.message);
      const later = await globalThis.pool.attention(x, x, x).then(() => 'resolved', (error) => error.message);
      return { killed, after, closed, later };
    });
    assert.equal(outcome.killed, 'Error: seqorder pool: worker 2 stopped: it was killed. The calls it was running failed; a new worker is starting in its place.');
    assert.equal(outcome.after, '1500x64');
    assert.match(outcome.closed, /^seqorder pool: the pool was closed \(it was closed\) with this call pending/);
    assert.match(outcome.later, /^seqorder pool: the pool is closed/);
  });

  test(`${s.engine} (${mode}): a worker that closes itself (no error event): its calls reject saying so, and it is replaced`, { skip: isolated && 'on the plain site only' }, async () => {
    const outcome = await s.browser.evaluate(async () => {
      const { startWorkers, workerFailed } = await import('/lib/pool/protocol.mjs');
      const set = await startWorkers({ count: 2, start: () => new Worker('/__pool/closing-worker.mjs', { type: 'module' }), first: { op: 'load' } });
      try {
        const said = (p) => p.then(() => 'resolved', (error) => `${workerFailed(error) ? 'the worker failed' : 'an op failed'}: ${error.message}`);
        const within = (p) => Promise.race([p, new Promise((resolve) => setTimeout(() => resolve('no answer within 20 s'), 20_000))]);
        const closing = said(set.request(0, 'close'));
        const queued = said(set.request(0, 'wait', { ms: 60_000 }));
        const outcomes = await within(Promise.all([closing, queued]));
        return { outcomes, after: await within(set.request(0, 'echo', { n: 7 })), other: await within(set.request(1, 'echo', { n: 8 })), generation: set.generation(0) };
      } finally {
        set.close();  // (not awaited: a worker that never ends would hold the test)
      }
    });
    const message = 'the worker failed: seqorder pool: worker 0 stopped: it stopped without an error event (it closed itself, or the browser ended it). ' +
      'The calls it was running failed; a new worker is starting in its place.';
    assert.deepEqual(outcome, { outcomes: [message, message], after: 7, other: 8, generation: 2 });
  });

  test(`${s.engine} (${mode}): the worker script came from the site, and nothing was recorded as an error`, async () => {
    assert.ok(s.site.requests.some((r) => r.path === '/lib/pool/seqorder/pool-worker.mjs'), 'pool-worker.mjs was fetched');
    assert.deepEqual(s.site.requests.filter((r) => r.status >= 400), []);
    assert.deepEqual(await s.browser.errors(), []);
  });
});
