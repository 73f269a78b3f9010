// The model module on request (seqorder/model, docs/api.md "The model module"), through the built package in a child
// node process each (a module compiled once a page is compiled once a process): seqorder's loadSeqorder loads the
// main module alone, and its createModel says how to have the model module, before reading its options, changing
// nothing; loadModelModule(so) loads it (calls while it loads share one load; a failure rejects and may be tried
// again); seqorder/model's loadSeqorder loads both; every module fetched from a URL is compiled once in a process,
// whichever loader or pool asks for it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { lib } from './helpers/load.mjs';

/** Runs `body` (the body of an ES module, with `seqorder`, `model` and `pool`: the entry points' modules) in a new node process; its JSON line. */
function run(body) {
  const source = `
const seqorder = await import(${JSON.stringify(pathToFileURL(path.join(lib, 'seqorder.mjs')).href)});
const model = await import(${JSON.stringify(pathToFileURL(path.join(lib, 'model-entry.mjs')).href)});
const pool = await import(${JSON.stringify(pathToFileURL(path.join(lib, 'pool', 'index.mjs')).href)});
const thrown = (f) => { try { f(); return 'nothing'; } catch (e) { return \`\${e.name}: \${e.message}\`; } };
${body}`;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', source], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(child.status, 0, child.stderr);
  return JSON.parse(child.stdout.trim().split('\n').pop());
}

const OPTIONS = '{ vocab: 4, width: 8, classes: 2, seed: 1 }';

test('seqorder\'s API makes no model until the model module is loaded into it, then the same model as seqorder/model\'s', () => {
  const r = run(`
const so = await seqorder.loadSeqorder();
const before = so.memoryStats();
// the error comes before the options are read: a wrong option is not what it says
const errors = [thrown(() => so.createModel(${OPTIONS})), thrown(() => so.createModel(42))];
const unchanged = JSON.stringify(so.memoryStats()) === JSON.stringify(before);
const loads = [model.loadModelModule(so), model.loadModelModule(so)];
await Promise.all(loads);
const again = model.loadModelModule(so);
await again;
const logits = so.createModel(${OPTIONS}).forward({ data: Int32Array.of(1, 2, 3), shape: [1, 3] }).data;
const both = await model.loadSeqorder();
const same = both.createModel(${OPTIONS}).forward({ data: Int32Array.of(1, 2, 3), shape: [1, 3] }).data;
console.log(JSON.stringify({ errors, unchanged, shared: loads[0] === loads[1], started: so.memoryStats().heapBytes > before.heapBytes,
  same: logits.every((v, i) => Object.is(v, same[i])), length: logits.length, versions: [model.version === seqorder.version] }));
`);
  const NOT_LOADED = /^Error: seqorder: createModel needs the model module, which this API has not loaded: load it with loadSeqorder from 'seqorder\/model' \(both modules\), or await loadModelModule\(so\) from 'seqorder\/model' first; see https:\/\/github\.com\/seqorder\/seqorder\/blob\/main\/docs\/api\.md#the-model-module$/;
  assert.match(r.errors[0], NOT_LOADED);
  assert.match(r.errors[1], NOT_LOADED);
  assert.deepEqual({ ...r, errors: undefined }, { errors: undefined, unchanged: true, shared: true, started: true, same: true, length: 2, versions: [true] });
});

test('loadModelModule: a model module that cannot be had rejects with why, changes nothing, and loads once it is there; a non-API is a TypeError', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'seqorder-model-module-'));
  try {
    const folder = `${pathToFileURL(dir).href}/`;
    const r = run(`
const { copyFileSync } = await import('node:fs');
const so = await seqorder.loadSeqorder({ modelWasmUrl: ${JSON.stringify(folder)} });
const missing = await model.loadModelModule(so).then(() => 'loaded', (e) => e.message);
const after = thrown(() => so.createModel(${OPTIONS}));
copyFileSync(${JSON.stringify(path.join(lib, 'seqorder', 'seqorder_model.wasm'))}, ${JSON.stringify(path.join(dir, 'seqorder_model.wasm'))});
await model.loadModelModule(so);
const width = so.createModel(${OPTIONS}).config.width;
const notApi = await Promise.all([{}, null, 42, Object.freeze({ ...so })].map((x) => model.loadModelModule(x).then(() => 'loaded', (e) => \`\${e.name}: \${e.message}\`)));
// seqorder/model's loadSeqorder resolves without the model module; createModel says why, each time
const without = await model.loadSeqorder({ modelWasmUrl: ${JSON.stringify(`${folder}nowhere/`)} });
console.log(JSON.stringify({ missing, after, width, notApi, without: [thrown(() => without.createModel(${OPTIONS})), thrown(() => without.createModel(42))],
  positions: without.positions(2, 4).shape }));
`);
    assert.match(r.missing, /^seqorder: the model module could not be loaded from file:\/\/.*\/seqorder_model\.wasm: reading it failed \(ENOENT.*modelWasmUrl/);
    assert.match(r.after, /^Error: seqorder: createModel needs the model module, which this API has not loaded/);
    assert.equal(r.width, 8);
    assert.deepEqual(r.notApi, Array(4).fill('TypeError: loadModelModule: so must be an API that loadSeqorder resolved to'));
    for (const message of r.without) assert.match(message, /^Error: seqorder: the model module could not be loaded from file:\/\/.*\/nowhere\/seqorder_model\.wasm: reading it failed/);
    assert.deepEqual(r.positions, [2, 4]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('each module is compiled once in a process: two loadSeqorder, seqorder/model\'s and a pool with a model compile the main and the model module once each', () => {
  const r = run(`
const compiled = [];
const compile = WebAssembly.compile;
WebAssembly.compile = (bytes) => { compiled.push(bytes.byteLength); return compile(bytes); };
const a = await seqorder.loadSeqorder();
const b = await seqorder.loadSeqorder();
const c = await model.loadSeqorder();
await model.loadModelModule(a);
const p = await pool.loadSeqorderPool({ workers: 1 });
const handle = await p.createModel(${OPTIONS});
const x = { data: new Float32Array(8).fill(0.5), shape: [2, 4] };
const results = [a.attention(x, x, x).data[0], b.attention(x, x, x).data[0], (await p.attention(x, x, x)).data[0], handle.config.width,
  a.createModel(${OPTIONS}).config.width, c.createModel(${OPTIONS}).config.width];
await p.close();
console.log(JSON.stringify({ compiled, results }));
`);
  const sizes = ['seqorder_core.wasm', 'seqorder_model.wasm'].map((f) => statSync(path.join(lib, 'seqorder', f)).size);
  assert.deepEqual([...r.compiled].sort(), [...sizes].sort(), 'the main module and the model module, once each');
  assert.deepEqual(r.results, [0.5, 0.5, 0.5, 8, 8, 8]);
});
