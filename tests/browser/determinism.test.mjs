// Determinism across engines: the fixed calls of tests/node/helpers/determinism-calls.mjs give bit-identical outputs
// (SHA-256 of every result's dtype, shape and bytes) in node and in every engine (tests/browser/helpers/engines: Chromium,
// Firefox ESR, WebKitGTK), on the package served from $SEQORDER_DIST/site/lib on 127.0.0.1; and its training runs of
// the model, run in a module Web Worker there and on the page's main thread (where the first createModel compiles the
// model module synchronously), give the parameters of the hashes it fixes (MODEL_HASHES), as in node.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eachEngine } from './helpers/each-engine.mjs';
import { blankPage, root } from './helpers/site.mjs';
import { loadSeqorder } from '../node/helpers/load.mjs';
import { MODEL_HASHES, determinismHashes } from '../node/helpers/determinism-calls.mjs';

// A worker that runs the training runs on the package and posts their hashes.
const WORKER = `import { loadSeqorder } from '/lib/model-entry.mjs';
import { modelHashes } from '/__determinism/calls.mjs';
postMessage(await modelHashes(await loadSeqorder()));`;

const nodeHashes = await determinismHashes(await loadSeqorder());

// A blank page on the site's origin that can import the calls module (served for the test, not copied into the site)
// and start the worker; the package itself comes from the site as any user's page would load it.
eachEngine({
  requires: path.join('lib', 'seqorder.mjs'),
  answers: {
    '/__determinism/index.html': blankPage('determinism'),
    '/__determinism/calls.mjs': { type: 'js', body: readFileSync(path.join(root, 'tests/node/helpers/determinism-calls.mjs'), 'utf8') },
    '/__determinism/worker.mjs': { type: 'js', body: WORKER },
  },
  open: '/__determinism/index.html',
}, (s) => {
  test(`${s.engine}: the same calls give bit-identical outputs in node and in the page`, { timeout: 180_000 }, async (t) => {
    const expected = nodeHashes;
    const hashes = await s.browser.evaluate(async () => {
      const { loadSeqorder } = await import('/lib/model-entry.mjs');  // seqorder/model: the calls make models
      const { determinismHashes } = await import('/__determinism/calls.mjs');
      return determinismHashes(await loadSeqorder());
    });
    t.diagnostic(`node ${process.version} vs ${s.browser.version}: ${Object.keys(expected).length} outputs`);
    assert.deepEqual(Object.keys(hashes).sort(), Object.keys(expected).sort()); // (WebDriver need not keep key order)
    const different = Object.keys(expected).filter((name) => hashes[name] !== expected[name]);
    assert.deepEqual(different, [], `outputs whose bits differ between node and ${s.browser.version}`);
    assert.deepEqual(await s.browser.errors(), []);
  });

  test(`${s.engine}: the model's training runs give the fixed hashes in a Web Worker, as in node`, { timeout: 180_000 }, async (t) => {
    const hashes = await s.browser.evaluate(() => new Promise((resolve, reject) => {
      const worker = new Worker('/__determinism/worker.mjs', { type: 'module' });
      worker.onmessage = ({ data }) => resolve(data);
      worker.onerror = (event) => reject(new Error(`worker: ${event.message}`));
    }));
    assert.deepEqual(hashes, MODEL_HASHES);
    assert.deepEqual(await s.browser.errors(), []);
    assert.deepEqual(s.site.requests.filter((r) => r.status >= 400), []);
    t.diagnostic(`${Object.keys(hashes).length} training runs: the parameters' hashes of node`);
  });

  test(`${s.engine}: on the main thread, the model module loaded into an API later (loadModelModule, as the page does): the first createModel starts it, and trains to the fixed hashes`,
    { timeout: 180_000 }, async (t) => {
      const result = await s.browser.evaluate(async () => {
        const { loadSeqorder } = await import('/lib/seqorder.mjs');
        const { modelHashes } = await import('/__determinism/calls.mjs');
        const so = await loadSeqorder();
        const { loadModelModule } = await import('/lib/model-entry.mjs');
        await loadModelModule(so);
        const before = so.memoryStats();
        const start = performance.now();
        so.createModel({ vocab: 4, width: 8, classes: 2 }).dispose();  // the first model: the module started
        const first = performance.now() - start;
        return { started: so.memoryStats().heapBytes > before.heapBytes, first, hashes: await modelHashes(so) };
      });
      assert.equal(result.started, true, 'the model module started with the first model');
      assert.deepEqual(result.hashes, MODEL_HASHES);
      assert.deepEqual(await s.browser.errors(), []);
      t.diagnostic(`${s.browser.version}: the first createModel (starting the model module) took ${result.first.toFixed(0)} ms`);
    });
});
