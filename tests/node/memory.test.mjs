// The WebAssembly heap through memoryStats(): tens of thousands of calls, failing ones included, calls of hundreds of
// MB, and a thousand models created, trained and disposed leave allocatedBytes where it started; a request (or a
// model) beyond the heap's limit is a RangeError and the next call works; results are JS-owned arrays that survive the
// heap growing. Each test loads its own instance, so the heap
// figures are not disturbed by other tests (and a heap grown to 2 GiB is dropped with its instance).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadSeqorder } from './helpers/load.mjs';
import * as reference from './helpers/reference.mjs';

const MiB = 2 ** 20;
const mib = (bytes) => `${(bytes / MiB).toFixed(1)} MiB`;
const f64 = (shape, f = (n) => Math.sin(n)) => ({ data: Float64Array.from({ length: shape.reduce((a, b) => a * b, 1) }, (_, n) => f(n)), shape });
const f32 = (shape, f = (n) => Math.cos(n)) => ({ data: Float32Array.from({ length: shape.reduce((a, b) => a * b, 1) }, (_, n) => f(n)), shape });
const ids = (values, shape = [values.length]) => ({ data: Int32Array.from(values), shape });

/** Runs call(); returns the error it throws (asserting it is a TypeError or RangeError), or undefined. */
function attempt(call) {
  try {
    call();
    return undefined;
  } catch (error) {
    assert.ok(error instanceof TypeError || error instanceof RangeError, `got ${error?.constructor?.name}: ${error?.message ?? error}`);
    assert.ok(error.message.length > 0);
    return error;
  }
}

test('20,000 calls of every function, a third of them failing (in JS and in the core), leak nothing', async (t) => {
  const so = await loadSeqorder();
  const before = so.memoryStats();
  const table = f64([50, 16]);
  const x = f32([2, 12, 16]);
  const q = f64([2, 4, 8]);
  const kv = f64([2, 6, 8]);
  const calls = [
    () => so.positions(24, 32, { start: 7 }),
    () => so.positions(9, 6, { dtype: 'float32', layout: 'halves', base: 100 }),
    () => so.embed(table, ids([1, 49, 3, 3, 0, 7], [2, 3])),
    () => so.embed(table, ids([1, 2, 50])), // fails in the core, after the copies into the heap
    () => so.embed(table, ids([0, -3, 2], [1, 3])), // fails in the core
    () => so.addPositions(x, { start: 5 }),
    () => so.addPositions(x, { start: -1 }), // fails in JS
    () => so.rope(x, { start: 3, base: 500 }),
    () => so.rope({ data: new Float32Array(6), shape: [2, 3] }), // odd width
    () => so.learnedPositions(table, 10, { start: 40 }),
    () => so.learnedPositions(table, 10, { start: 41 }), // past the table
    () => so.attention(q, kv, kv, { causal: true, steps: true }),
    () => so.attention(q, kv, kv, { causal: true, queryStart: 1 }),
    () => so.attention(q, kv, kv, { causal: true, queryStart: 3 }), // out of range
    () => so.attention(q, kv, f64([2, 5, 8])), // Tk mismatch
    () => so.positions(2 ** 20, 2 ** 10), // beyond the size limit
  ];
  let failures = 0;
  let peak = 0;
  for (let n = 0; n < 20000; n++) {
    if (attempt(calls[n % calls.length])) failures++;
    if (n % 1000 === 999) {
      const { allocatedBytes } = so.memoryStats();
      peak = Math.max(peak, allocatedBytes);
      assert.equal(allocatedBytes, before.allocatedBytes, `after ${n + 1} calls`);
    }
  }
  const after = so.memoryStats();
  t.diagnostic(`20000 calls (${failures} failing): allocatedBytes ${before.allocatedBytes} -> ${after.allocatedBytes}, heapBytes ${before.heapBytes} -> ${after.heapBytes}`);
  assert.equal(failures, 20000 * 8 / 16);
  assert.equal(after.allocatedBytes, before.allocatedBytes);
  assert.equal(after.heapBytes, before.heapBytes, 'small calls do not grow the heap');
});

test('calls of 100-300 MB leave the heap where it started, with correct results', async (t) => {
  const so = await loadSeqorder();
  const before = so.memoryStats();
  const figures = [];
  const check = (label) => {
    const { allocatedBytes, heapBytes } = so.memoryStats();
    figures.push(`${label}: heap ${mib(heapBytes)}`);
    assert.equal(allocatedBytes, before.allocatedBytes, `${label}: allocatedBytes back to ${before.allocatedBytes}`);
  };

  // 256 MiB table: spot-check its last rows against the reference
  const p = so.positions(2 ** 15, 2 ** 10, { start: 1000 });
  assert.equal(p.data.length, 2 ** 25);
  const last = { data: p.data.subarray((2 ** 15 - 3) * 1024), shape: [3, 1024], dtype: 'float64' };
  assert.equal(reference.difference(last, reference.positions(3, 1024, { start: 1000 + 2 ** 15 - 3 })), '');
  check('positions 256 MiB');

  // 128 MiB in, 128 MiB out
  const x = { data: new Float64Array(2 ** 24).fill(1), shape: [2 ** 14, 2 ** 10] };
  const y = so.addPositions(x);
  assert.ok(Math.abs(y.data[(2 ** 14 - 1) * 1024 + 1] - (1 + Math.cos(2 ** 14 - 1))) < 1e-12);
  check('addPositions 128 MiB');

  // 200 MiB of embeddings from a 4 MiB table
  const table = f64([512, 1024], (n) => n);
  const e = so.embed(table, { data: Int32Array.from({ length: 25600 }, (_, n) => (n * 7) % 512), shape: [25600] });
  assert.equal(e.data.length, 25600 * 1024);
  assert.equal(e.data[25599 * 1024 + 5], ((25599 * 7) % 512) * 1024 + 5);
  check('embed 200 MiB');

  // attention with every step kept: 3 x 128 MiB of (Tq, Tk) steps
  const q = f32([4096, 2], (n) => (n % 7) / 7);
  const kv = f32([4096, 2], (n) => (n % 5) / 5);
  const steps = so.attention(q, kv, kv, { causal: true, steps: true });
  assert.equal(steps.weights.data.length, 4096 * 4096);
  assert.equal(steps.weights.data[1], 0, 'query 0 sees key 0 only');
  check('attention steps 3 x 64 MiB (float32)');

  // a failing call of the same size: the id check fails after 200 MiB have been allocated in the heap
  const bad = attempt(() => so.embed(table, { data: Int32Array.from({ length: 25600 }, (_, n) => (n === 25599 ? 512 : 0)), shape: [25600] }));
  assert.match(bad.message, /^ids\[25599\] = 512 is outside/);
  check('failing embed 200 MiB');

  const after = so.memoryStats();
  t.diagnostic(`allocatedBytes ${before.allocatedBytes} -> ${after.allocatedBytes}; heapBytes ${mib(before.heapBytes)} -> ${mib(after.heapBytes)} (${figures.join('; ')})`);
  assert.ok(after.heapBytes > before.heapBytes, 'the heap grew for these calls (and keeps its size: WebAssembly memory cannot shrink)');
});

test('a request beyond the heap limit is a RangeError, and the next call works', async (t) => {
  const so = await loadSeqorder();
  const before = so.memoryStats();
  // Beyond the 1 GiB tensor limit: refused before anything is allocated.
  assert.throws(() => so.positions(2 ** 18, 2 ** 10), { name: 'RangeError', message: /^positions of shape \[262144, 1024\] is too large: a tensor may hold at most 1024 MiB/ });
  assert.equal(so.memoryStats().heapBytes, before.heapBytes);
  // Each step within the 1 GiB limit, all three (3 GiB) beyond the 2 GiB heap: scores is allocated (the heap grows
  // to ~1 GiB), the next 1 GiB cannot be, malloc returns 0 and the JS layer frees what it took.
  const q = { data: new Float64Array(2 ** 13), shape: [2 ** 13, 1] };
  const kv = { data: new Float64Array(2 ** 14), shape: [2 ** 14, 1] };
  assert.throws(() => so.attention(q, kv, kv, { steps: true }), { name: 'RangeError', message: /out of memory, the heap cannot hold 1024\.0 MiB more/ });
  const grown = so.memoryStats();
  assert.equal(grown.allocatedBytes, before.allocatedBytes, 'nothing held after the failed call');
  // the next calls work, large ones included
  assert.deepEqual(Array.from(so.positions(1, 4).data), [0, 1, 0, 1]);
  const out = so.attention(q, kv, kv);
  assert.equal(out.data.length, 2 ** 13);
  const big = so.positions(2 ** 16, 2 ** 10, { dtype: 'float32' });
  assert.ok(Math.abs(big.data[2 ** 26 - 1] - Math.cos((2 ** 16 - 1) * 10000 ** (-1022 / 1024))) <= 2 ** -24);
  assert.equal(so.memoryStats().allocatedBytes, before.allocatedBytes);
  t.diagnostic(`heapBytes ${mib(before.heapBytes)} -> ${mib(grown.heapBytes)} after the refused request; allocatedBytes ${before.allocatedBytes} -> ${so.memoryStats().allocatedBytes}`);
});

test('results are JS-owned arrays: still whole and unchanged after the heap grows', async () => {
  const so = await loadSeqorder();
  const x = f64([2, 3, 4]);
  const results = {
    positions: so.positions(5, 8),
    embed: so.embed(f32([4, 2]), ids([3, 1])),
    addPositions: so.addPositions(x),
    rope: so.rope(x, { start: 2 }),
    learnedPositions: so.learnedPositions(f64([6, 2]), 3, { start: 1 }),
    ...Object.fromEntries(Object.entries(so.attention(x, x, x, { steps: true, causal: true })).map(([k, v]) => [`attention ${k}`, v])),
  };
  const copies = Object.fromEntries(Object.entries(results).map(([name, r]) => [name, Array.from(r.data)]));
  const heapBefore = so.memoryStats().heapBytes;
  so.positions(2 ** 14, 2 ** 10); // 128 MiB: the heap's memory grows (its old ArrayBuffer is detached)
  assert.ok(so.memoryStats().heapBytes > heapBefore, 'the heap grew');
  for (const [name, r] of Object.entries(results)) {
    assert.ok(r.data.length > 0, `${name}: not detached`);
    assert.equal(r.data.buffer.byteLength, r.data.byteLength, `${name}: owns its buffer (not a view into the heap)`);
    assert.deepEqual(Array.from(r.data), copies[name], `${name}: unchanged`);
  }
});

test('1000 models created, trained and disposed: the heap returns to its baseline and does not grow', async (t) => {
  const so = await loadSeqorder();
  const before = so.memoryStats();
  const { ids, targets } = so.orderTask({ count: 8, length: 12, seed: 1 });
  const one = { data: ids.data.subarray(0, 12), shape: [1, 12] };
  let heapAfterFirst;
  let last;
  for (let n = 0; n < 1000; n++) {
    const model = so.createModel({ vocab: 16, width: 32, heads: 2, positions: n % 2 ? 'learned' : 'sinusoidal', maxLength: n % 2 ? 12 : undefined, classes: 2, seed: n });
    model.step(ids, targets, { lr: 3e-3 });
    const { grads } = model.gradients(ids, targets);
    model.setParameters({ 'readout.bias': grads['readout.bias'] });
    last = { logits: model.forward(ids), weights: model.attentionWeights(one), parameters: model.parameters() };
    assert.throws(() => model.step(ids, { data: new Int32Array(8).fill(2), shape: [8] }), RangeError);
    model.dispose();
    const stats = so.memoryStats();
    assert.equal(stats.allocatedBytes, before.allocatedBytes, `after cycle ${n + 1}`);
    heapAfterFirst ??= stats.heapBytes;
    assert.equal(stats.heapBytes, heapAfterFirst, `cycle ${n + 1}: the heap does not grow`);
  }
  assert.deepEqual(last.logits.shape, [8, 2]);
  assert.deepEqual(last.weights.shape, [1, 2, 12, 12]);
  assert.equal(Object.keys(last.parameters).length, 18, 'the last model has learned positions: 18 parameters');
  t.diagnostic(`allocatedBytes ${before.allocatedBytes} -> ${so.memoryStats().allocatedBytes}; heapBytes ${mib(before.heapBytes)} -> ${mib(heapAfterFirst)} (first cycle) -> ${mib(so.memoryStats().heapBytes)}`);
});

test('a model the heap cannot hold is a RangeError before anything is allocated, and the next model works', async (t) => {
  const so = await loadSeqorder();
  so.createModel({ vocab: 2, width: 2, classes: 2 }).dispose();  // the model module started: its heap counted in before
  const before = so.memoryStats();
  // 2^27 + parameters: within the 1 GiB tensor limit, but its four float32 buffers (values, gradients, Adam's two
  // moments) are 2.1 GB: refused up front
  assert.throws(() => so.createModel({ vocab: 2 ** 22, width: 32, classes: 2 }), { name: 'RangeError', message: /^vocab, width, layers, maxLength and classes make a model of 134230434 parameters: at most 67108864 fit in the 1024 MiB a model may hold/ });
  const grown = so.memoryStats();
  assert.equal(grown.allocatedBytes, before.allocatedBytes);
  assert.equal(grown.heapBytes, before.heapBytes, 'the heap did not grow');
  const model = so.createModel({ vocab: 16, width: 32, classes: 2 });
  const { ids, targets } = so.orderTask({ count: 4, length: 6 });
  assert.ok(Number.isFinite(model.step(ids, targets)));
  model.dispose();
  assert.equal(so.memoryStats().allocatedBytes, before.allocatedBytes);
  t.diagnostic(`heapBytes ${mib(before.heapBytes)} -> ${mib(grown.heapBytes)} after the refused model`);
});

test('the model module starts with the first model: its heap counts from then on, and a failing first call leaves none', async () => {
  const so = await loadSeqorder();
  const main = so.memoryStats();
  // what needs no model runs in the main module alone: the tasks too
  so.positions(8, 16);
  so.orderTask({ count: 4, length: 6 });
  assert.equal(so.taskWords.length > 0, true);
  assert.deepEqual(so.memoryStats(), main, 'no model module yet');
  // a first call that fails (in JS, in the core) leaves no model module behind
  assert.throws(() => so.createModel({ vocab: 16, width: 32 }), TypeError);
  assert.throws(() => so.createModel({ vocab: 16, width: 31, classes: 2 }), RangeError);
  assert.deepEqual(so.memoryStats(), main, 'a failing first call changes nothing');
  // the first model starts it: its heap counts, and its models' memory
  const model = so.createModel({ vocab: 16, width: 32, classes: 2 });
  const started = so.memoryStats();
  assert.ok(started.heapBytes > main.heapBytes, 'the model module\'s heap counts');
  assert.ok(started.allocatedBytes > main.allocatedBytes, 'the model\'s parameters count');
  // a failing call on a started module keeps it, and changes nothing
  assert.throws(() => so.createModel({ vocab: 16, width: 31, classes: 2 }), RangeError);
  assert.deepEqual(so.memoryStats(), started);
  model.dispose();
  const after = so.memoryStats();
  assert.equal(after.allocatedBytes, main.allocatedBytes, 'every model disposed: back to where it was before the first');
  assert.equal(after.heapBytes, started.heapBytes, 'the model module stays');
  // a second model reuses the started module
  so.createModel({ vocab: 16, width: 32, classes: 2 }).dispose();
  assert.deepEqual(so.memoryStats(), after);
});
