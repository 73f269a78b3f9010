// node polluted.mjs <lib folder> <enumerable | hidden>: runs the same calls on one thread and on the pool twice, with a
// clean Object.prototype and then with one that holds every option name (and a few unrelated ones) with values that
// would change a result or fail a call if they were read; prints one JSON line: { differ: [the calls whose outcome
// changed, with what they gave], heap: [one thread's allocated bytes before, after] }. `hidden` makes the polluting
// properties non-enumerable (only a read by name sees them), `enumerable` as old scripts do (for…in sees them too).
import { createHash } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import path from 'node:path';

const [dir, mode] = process.argv.slice(2);
const { loadSeqorder } = await import(pathToFileURL(path.join(dir, 'model-entry.mjs')).href);  // seqorder/model: models too
const { loadSeqorderPool } = await import(pathToFileURL(path.join(dir, 'pool', 'index.mjs')).href);
const so = await loadSeqorder();
const pool = await loadSeqorderPool({ workers: 2 });

const POLLUTION = {
  foo: 1, heads: 3, start: 5, dtype: 'float64', causal: true, lr: -1, out: new Float32Array(4), base: 2, layout: 'halves', queryStart: 1,
  steps: true, vocab: 3, width: 2, layers: 3, positions: 'learned', maxLength: 2, readout: 'each', classes: 7, seed: 9, count: 1, length: 1,
  mirrored: true, data: new Float32Array(1), shape: [1], transfer: true, workers: 1, sharedMemory: false, simd: 'relaxed', wasmUrl: 'x',
  wasmBinary: new Uint8Array(4), ids: 1, targets: 1, model: 5, address: 8, outLength: 1, tensor: 1, name: 'x', parameters: 1,
  Float32Array: 'int32', Uint8Array: 'float32', toJSON: 1, embedScale: 'sqrtWidth', back: 1, workerUrl: 'x', batches: 1,
};

const x = () => ({ data: Float32Array.from({ length: 48 }, (_, i) => Math.sin(i)), shape: [6, 8] });
const ids = () => ({ data: Int32Array.of(1, 3, 0, 2, 5, 1, 4, 3), shape: [2, 4] });
const targets = () => ({ data: Int32Array.of(1, 0), shape: [2] });
const gain = () => ({ data: Float32Array.from({ length: 8 }, (_, i) => 1 + i / 16), shape: [8] });
// every method of a model (one thread's and the pool's alike)
const modelCalls = async (model) => [
  model.config, await model.forward(ids()), await model.step(ids(), targets()), await model.step(ids(), targets(), { lr: 0.01 }),
  await model.loss(ids(), targets()), await model.attentionWeights({ data: Int32Array.of(1, 2, 3), shape: [1, 3] }),
  await model.gradients(ids(), targets()), await model.setParameters({ 'norm.gain': gain() }), await model.parameters(),
  await model.train([{ ids: ids(), targets: targets() }, { ids: ids(), targets: targets() }], { lr: 0.01 }),
  await model.train([{ ids: ids(), targets: targets() }]),
];
const CALLS = {
  positions: () => so.positions(4, 6),
  'positions with a base': () => so.positions(4, 6, { base: 100, dtype: 'float32' }),
  addPositions: () => so.addPositions(x()),
  rope: () => so.rope(x(), { start: 2 }),
  learnedPositions: () => so.learnedPositions(x(), 3),
  embed: () => so.embed({ data: Float64Array.from({ length: 32 }, (_, i) => i), shape: [4, 8] }, { data: Int32Array.of(1, 3), shape: [2] }),
  attention: () => so.attention(x(), x(), x()),
  'attention with steps': () => so.attention(x(), x(), x(), { steps: true, causal: false }),
  'attention on shapes it refuses': () => so.attention(x(), { data: new Float32Array(8), shape: [2, 4] }, x()),
  'attention, an option it does not know': () => so.attention(x(), x(), x(), { casual: true }),
  matmul: () => so.matmul(x(), { data: Float32Array.from({ length: 16 }, (_, i) => i / 8), shape: [8, 2] }),
  softmax: () => so.softmax(x(), { causal: true, queryStart: 0 }),
  'splitHeads and mergeHeads': () => so.mergeHeads(so.splitHeads(x(), 2)),
  'the pool: attention': () => pool.attention(x(), x(), x()),
  'the pool: attention over a new shape': () => pool.attention({ data: new Float32Array(40), shape: [5, 8] }, x(), x()),
  orderTask: () => so.orderTask({ count: 2, length: 4 }),
  lookbackTask: () => so.lookbackTask({ count: 2, length: 5 }),
  inductionTask: () => so.inductionTask({ count: 2, length: 6 }),
  'a model with embedScale': async () => {
    const model = so.createModel({ vocab: 16, width: 8, classes: 2, embedScale: 2 });
    try {
      return [model.config, model.forward(ids())];
    } finally {
      model.dispose();
    }
  },
  'a model': async () => {
    const model = so.createModel({ vocab: 16, width: 8, classes: 2 });
    try {
      return await modelCalls(model);
    } finally {
      model.dispose();
    }
  },
  'a model refused': () => so.createModel({ vocab: 16, width: 8, classes: 2, heads: 3 }),
  "the pool's model": async () => {
    const model = await pool.createModel({ vocab: 16, width: 8, classes: 2 });
    try {
      return await modelCalls(model);
    } finally {
      await model.dispose();
    }
  },
  'a new pool': async () => {
    const other = await loadSeqorderPool({ workers: 1 });
    try {
      return [other.workers, other.sharedMemory, await other.attention(x(), x(), x())];
    } finally {
      await other.close();
    }
  },
  'a new instance': async () => (await loadSeqorder()).positions(2, 4),
};

function digest(value) {
  return JSON.stringify(value, (key, v) => {
    if (ArrayBuffer.isView(v)) return `${v.constructor.name}(${v.length}) ${createHash('sha256').update(new Uint8Array(v.buffer, v.byteOffset, v.byteLength)).digest('hex')}`;
    if (v instanceof Error) return `${v.constructor.name}: ${v.message}`;
    return v;
  });
}

async function runAll() {
  const results = {};
  for (const [name, call] of Object.entries(CALLS)) {
    try {
      results[name] = digest({ value: await call() });
    } catch (error) {
      results[name] = digest({ error });
    }
  }
  return results;
}

const clean = await runAll();
const before = so.memoryStats().allocatedBytes;
for (const [name, value] of Object.entries(POLLUTION))
  Object.defineProperty(Object.prototype, name, { value, enumerable: mode === 'enumerable', configurable: true, writable: true });
let polluted;
let after;
try {
  polluted = await runAll();
  after = so.memoryStats().allocatedBytes;
} finally {
  for (const name of Object.keys(POLLUTION)) delete Object.prototype[name];
}
const differ = Object.keys(CALLS).filter((name) => polluted[name] !== clean[name]).map((name) => `${name}: ${polluted[name].slice(0, 200)}`);
await pool.close();
console.log(JSON.stringify({ differ, heap: [before, after] }));
