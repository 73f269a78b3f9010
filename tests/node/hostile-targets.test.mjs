// One hostile caller, two targets: every case runs on one thread (so.attention, so.createModel and its models) and on
// the pool (its attention, its models in workers), and each must give the same
// result, bit for bit, or the same error class and message. The cases: inputs changed, detached or re-entered after
// the call is made or while it waits its turn; getters that detach, dispose or re-enter; proxies; lying subclasses;
// values of the wrong kind (a function, a symbol, a WeakMap, a Promise); options that are not plain objects; bad ids
// deep in large batches; dispose in every position; a failed model call (the model's parameters after it are compared
// too, so a failing call must change it alike on both). Then what only the pool has: train's batches and options,
// calls made while others are pending, models in a worker that stopped, close().
import { test, describe, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { lib } from './helpers/load.mjs';
import { loadTargets, outcome } from './helpers/targets.mjs';

const { workersOf } = await import(pathToFileURL(path.join(lib, 'pool', 'index.mjs')).href);

let targets;
let so;
let baseline;
before(async () => {
  targets = await loadTargets({ workers: 2 });
  so = targets.so;
  baseline = so.memoryStats().allocatedBytes;
});
after(() => targets?.close());

let cases = 0;
let disagreements = [];  // this test's cases where the targets differ (each test fails at its end if there are any)
afterEach(() => {
  const found = disagreements;
  disagreements = [];
  assert.ok(found.length === 0, `${found.length} cases where the targets differ:\n${found.join('\n')}`);
});

/** A short, exact account of an outcome: typed arrays by class, length and a hash of their bytes. */
function digest(value) {
  return JSON.stringify(value, (key, v) => {
    if (ArrayBuffer.isView(v)) {
      const bytes = new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
      return `${v.constructor.name}(${v.length}) ${createHash('sha256').update(bytes).digest('hex').slice(0, 16)}`;
    }
    return typeof v === 'bigint' ? `${v}n` : v;
  });
}

/**
 * Runs `run(target)` on one thread and on the pool, and asserts they agree (outcome()); `expect` checks one
 * thread's: a RegExp its error must match, or 'value' (it must not fail). One thread's heap is back at its baseline.
 * Returns one thread's outcome.
 */
async function agree(what, run, { expect, inner = false } = {}) {
  cases++;
  const all = [targets.oneThread, targets.pool];
  const outcomes = [];
  for (const target of all) outcomes.push(await outcome(() => run(target)));
  // (the pool's attention knows one option more, transfer: the lists of known options in messages differ by it)
  for (const o of outcomes) if (o.error) o.error = o.error.replace(', transfer)', ')');
  const digests = outcomes.map(digest);
  for (let i = 1; i < all.length; i++) {
    if (digests[i] !== digests[0])
      disagreements.push(`${what}: ${all[i].name} gave ${digests[i].slice(0, 400)}, one thread ${digests[0].slice(0, 400)}`);
  }
  const checked = inner ? outcomes[0].value?.result ?? outcomes[0] : outcomes[0];
  if (expect instanceof RegExp) assert.match(checked.error ?? 'no error', expect, what);
  else if (expect === 'value') assert.equal(checked.error, undefined, `${what}: ${checked.error}`);
  assert.equal(so.memoryStats().allocatedBytes, baseline, `${what}: one thread's heap is back at its baseline`);
  return outcomes[0];
}

const f32 = (shape, seed = 1) => {
  const n = shape.reduce((a, b) => a * b, 1);
  return { data: Float32Array.from({ length: n }, (_, i) => Math.sin(seed * 7.1 + i * 0.37)), shape };
};
const f64 = (shape, seed = 1) => ({ ...f32(shape, seed), data: Float64Array.from(f32(shape, seed).data) });
const detach = (typed) => structuredClone(typed.buffer, { transfer: [typed.buffer] });
const int32 = (values, shape) => ({ data: Int32Array.from(values), shape });

describe('attention', () => {
  test('inputs changed, detached or shared after the call is made, or while it waits its turn', async () => {
    await agree('inputs filled with zeros after the call', (t) => {
      const x = f32([64, 32]);
      const pending = t.attention(x, x, x, { causal: true });
      x.data.fill(0);
      return pending;
    }, { expect: 'value' });
    await agree('a call queued behind a large one, its inputs filled with zeros meanwhile', async (t) => {
      const big = f32([1024, 64], 2);
      const first = t.attention(big, big, big);
      const x = f32([128, 64], 3);
      const second = t.attention(x, x, x);
      x.data.fill(0);
      big.data.fill(1);
      return [await first, await second];
    }, { expect: 'value' });
    await agree('a queued call whose inputs are detached meanwhile', async (t) => {
      const big = f32([1024, 64], 2);
      const first = t.attention(big, big, big, { causal: true });
      const q = f32([100, 64], 4);
      const k = f32([80, 64], 5);
      const second = t.attention(q, k, k);
      detach(q.data);
      detach(k.data);
      return [await first, await second];
    }, { expect: 'value' });
    await agree('inputs on a SharedArrayBuffer, changed after the call', (t) => {
      const x = f32([256, 64]);
      const shared = new Float32Array(new SharedArrayBuffer(x.data.byteLength));
      shared.set(x.data);
      const pending = t.attention({ data: shared, shape: [256, 64] }, x, x);
      shared.fill(3);
      return pending;
    }, { expect: 'value' });
    await agree('several calls in a row, each input changed after its call', async (t) => {
      const x = f32([200, 16]);
      const pending = [];
      for (let r = 0; r < 6; r++) {
        pending.push(t.attention(x, x, x, { causal: r % 2 === 0 }));
        x.data[r] += 1;
      }
      return Promise.all(pending);
    }, { expect: 'value' });
    await agree('out given, the inputs changed after the call', async (t) => {
      const x = f32([300, 64]);
      const out = new Float32Array(300 * 64);
      const pending = t.attention(x, x, x, { out });
      x.data.fill(-1);
      const result = await pending;
      return { same: result.data === out, out };
    }, { expect: 'value' });
    await agree('out aliases q', async (t) => {
      const q = f32([64, 16]);
      await t.attention(q, q, q, { out: q.data });
      return q.data;
    }, { expect: 'value' });
    await agree('a getter re-enters attention while the call reads its options', async (t) => {
      const x = f32([40, 8]);
      let inner;
      const outer = t.attention(x, x, x, { get causal() { inner = t.attention(x, x, x); return true; } });
      return [await inner, await outer];
    }, { expect: 'value' });
  });

  test('getters that detach, and arrays that shrink', async () => {
    await agree('an options getter detaches q', (t) => {
      const q = f32([4, 8]);
      return t.attention(q, f32([4, 8], 2), f32([4, 8], 3), { get causal() { detach(q.data); return true; } });
    }, { expect: /^TypeError: q\.data: its buffer was detached or shrunk after the arguments were read/ });
    await agree("k's data getter detaches q", (t) => {
      const q = f32([4, 8]);
      return t.attention(q, { get data() { detach(q.data); return f32([4, 8], 2).data; }, shape: [4, 8] }, f32([4, 8], 3));
    }, { expect: /^TypeError: q\.data: its buffer was detached/ });
    await agree("v's shape getter detaches out", (t) => {
      const out = new Float32Array(12);
      return t.attention(f32([3, 4]), f32([3, 4], 2), { data: f32([3, 4], 3).data, get shape() { detach(out); return [3, 4]; } }, { out });
    }, { expect: /^TypeError: out: its buffer is detached/ });
    await agree('q already detached', (t) => {
      const q = f32([3, 4]);
      detach(q.data);
      return t.attention(q, q, q);
    }, { expect: /^TypeError: q\.data: its buffer is detached/ });
    await agree('a resizable buffer shrunk by an options getter', (t) => {
      const buffer = new ArrayBuffer(4 * 24, { maxByteLength: 4 * 64 });
      const q = { data: new Float32Array(buffer), shape: [4, 6] };
      q.data.set(f32([4, 6]).data);
      return t.attention(q, f32([4, 6], 2), f32([4, 6], 3), { get causal() { buffer.resize(8); return false; } });
    }, { expect: /^TypeError: q\.data: its buffer was detached or shrunk/ });
    await agree('a resizable buffer grown by an options getter', (t) => {
      const buffer = new ArrayBuffer(4 * 24, { maxByteLength: 4 * 64 });
      const q = { data: new Float32Array(buffer), shape: [4, 6] };
      q.data.set(f32([4, 6]).data);
      return t.attention(q, f32([4, 6], 2), f32([4, 6], 3), { get causal() { buffer.resize(4 * 64); return false; } });
    }, { expect: 'value' });
    const boom = new RangeError('from a getter');
    await agree('a throwing getter', (t) => t.attention(f32([2, 4]), f32([2, 4]), f32([2, 4]), { get steps() { throw boom; } }),
      { expect: /^RangeError: from a getter$/ });
  });

  test('proxies, lying subclasses, and values of the wrong kind', async () => {
    const x = f32([3, 8]);
    await agree('a tensor and its shape as proxies', (t) => t.attention(new Proxy({ ...x }, {}), { data: x.data, shape: new Proxy([3, 8], {}) }, x), { expect: 'value' });
    await agree('options as a proxy of a plain object', (t) => t.attention(x, x, x, new Proxy({ causal: true }, {})), { expect: 'value' });
    await agree('data a proxy of a Float32Array', (t) => t.attention({ data: new Proxy(x.data, {}), shape: [3, 8] }, x, x), { expect: /^TypeError: q\.data must be a typed array/ });
    const revocable = Proxy.revocable({}, {});
    revocable.revoke();
    await agree('a revoked proxy as k', (t) => t.attention(x, revocable.proxy, x), { expect: /^TypeError: .*revoked/ });
    class Liar extends Float32Array {
      get length() { return 1e9; }
      get byteLength() { return 4e9; }
      get byteOffset() { return 1 << 30; }
      get buffer() { return new ArrayBuffer(8); }
      get [Symbol.toStringTag]() { return 'Float64Array'; }
      subarray() { throw new Error('subarray must not be called'); }
    }
    await agree('a lying subclass as q, k and v', (t) => t.attention({ data: new Liar(x.data), shape: [3, 8] }, { data: new Liar(x.data), shape: [3, 8] }, x), { expect: 'value' });
    await agree('a lying subclass as out', async (t) => {
      const out = new Liar(24);
      await t.attention(x, x, x, { out });
      return Float32Array.from(out);
    }, { expect: 'value' });
    await agree('a view at an offset into a larger buffer', (t) => {
      const view = new Float32Array(new ArrayBuffer(4 * 40), 4 * 7, 24);
      view.set(x.data);
      return t.attention({ data: view, shape: [3, 8] }, x, x);
    }, { expect: 'value' });
    const wrong = {
      'a function as data': { data: () => {}, shape: [3, 8] },
      'a symbol as dtype': { data: x.data, shape: [3, 8], dtype: Symbol('float32') },
      'a WeakMap': new WeakMap(),
      'a Promise': Promise.resolve(x),
      'a Map as shape': { data: x.data, shape: new Map([[0, 3]]) },
      'a string as shape': { data: x.data, shape: '3,8' },
      'a BigInt axis': { data: x.data, shape: [3n, 8] },
      'an Int8Array as data': { data: new Int8Array(24), shape: [3, 8] },
      'a DataView as data': { data: new DataView(new ArrayBuffer(96)), shape: [3, 8] },
      'an array of numbers as data': { data: Array.from(x.data), shape: [3, 8] },
      null: null,
      'a number': 3,
      'an array': [x.data],
      'a typed array': x.data,
      'dtype float64 on a Float32Array': { data: x.data, shape: [3, 8], dtype: 'float64' },
      "dtype 'toString'": { data: x.data, shape: [3, 8], dtype: 'toString' },
    };
    for (const [what, tensor] of Object.entries(wrong))
      await agree(`q ${what}`, (t) => t.attention(tensor, x, x), { expect: /^(TypeError|RangeError): q/ });
    for (const [what, options] of Object.entries({
      'a Map': new Map([['causal', true]]), 'a Date': new Date(0), 'a class instance': new (class Options { constructor() { this.causal = true; } })(),
      'an object with another prototype': Object.create({ causal: true }), 'an array': [true], 'a number': 5, null: null, 'a string': 'causal',
      'a symbol key': { [Symbol('causal')]: true }, 'an unknown option': { casual: true }, 'a Promise': Promise.resolve({}),
      'causal a string': { causal: 'yes' }, 'queryStart a string': { causal: true, queryStart: '3' }, 'steps a number': { steps: 1 },
      'out a Float64Array for float32': { out: new Float64Array(24) }, 'out a plain array': { out: new Array(24).fill(0) },
    }))
      await agree(`options ${what}`, (t) => t.attention(x, x, x, options), { expect: /^TypeError: / });
    await agree('options with a null prototype', (t) => t.attention(x, x, x, Object.assign(Object.create(null), { causal: true })), { expect: 'value' });
  });

  test('values, sizes and shapes the core refuses, and the ones it takes', async () => {
    const x = f32([3, 8]);
    for (const queryStart of [NaN, 1.5, -1, 2 ** 60, Infinity])
      await agree(`queryStart ${queryStart}`, (t) => t.attention(x, f32([5, 8]), f32([5, 2]), { causal: true, queryStart }), { expect: /^RangeError: queryStart must be/ });
    await agree('queryStart with causal', (t) => t.attention(x, f32([5, 8]), f32([5, 2]), { causal: true, queryStart: 2 }), { expect: 'value' });
    await agree('queryStart without causal', (t) => t.attention(x, f32([5, 8]), f32([5, 2]), { queryStart: 2 }), { expect: /^RangeError/ });
    const shapes = {
      'k of another width': [x, f32([3, 5]), x],
      'v of another length': [x, x, f32([4, 8])],
      'q of rank 1': [f32([8]), x, x],
      'leading axes that differ': [f32([2, 3, 8]), f32([3, 3, 8]), f32([3, 3, 8])],
      'a shape of 2^32 × 2^32 on 24 elements': [{ data: x.data, shape: [2 ** 32, 2 ** 32] }, x, x],
      'a shape of 2^53 - 1 rows': [{ data: x.data, shape: [2 ** 53 - 1, 8] }, x, x],
      'an axis of -1': [{ data: x.data, shape: [-1, 8] }, x, x],
      'an axis of NaN': [{ data: x.data, shape: [NaN, 8] }, x, x],
      'an axis of 1.5': [{ data: x.data, shape: [1.5, 16] }, x, x],
      '33 axes': [{ data: x.data, shape: [...new Array(31).fill(1), 3, 8] }, x, x],
      'float64 q with float32 k': [f64([3, 8]), x, x],
      'int32 inputs': [int32(new Array(24).fill(1), [3, 8]), int32(new Array(24).fill(1), [3, 8]), int32(new Array(24).fill(1), [3, 8])],
      'Tk = 2^32 on no data': [x, { data: new Float32Array(0), shape: [2 ** 32, 8] }, { data: new Float32Array(0), shape: [2 ** 32, 1] }],
    };
    for (const [what, [q, k, v]] of Object.entries(shapes)) await agree(what, (t) => t.attention(q, k, v), { expect: /^(RangeError|TypeError): / });
    const fine = {
      'float64 inputs (not the fused kernel)': [f64([20, 8]), f64([30, 8], 2), f64([30, 4], 3), { causal: true, queryStart: 10 }],
      'steps: true': [f32([20, 8]), f32([30, 8], 2), f32([30, 4], 3), { steps: true }],
      'causal steps in float64': [f64([20, 8]), f64([20, 8], 2), f64([20, 4], 3), { steps: true, causal: true }],
      'batch and head axes': [f32([2, 3, 50, 8]), f32([2, 3, 60, 8], 2), f32([2, 3, 60, 4], 3), { causal: true, queryStart: 10 }],
      'no queries, a huge width': [{ data: new Float32Array(0), shape: [0, 2 ** 40] }, { data: new Float32Array(0), shape: [0, 2 ** 40] }, { data: new Float32Array(0), shape: [0, 3] }, undefined],
      '2^32 batches of nothing, with steps': [{ data: new Float32Array(0), shape: [2 ** 32, 0, 4] }, { data: new Float32Array(0), shape: [2 ** 32, 0, 4] }, { data: new Float32Array(0), shape: [2 ** 32, 0, 2] }, { steps: true }],
      'one query, many keys': [f32([1, 64]), f32([3000, 64], 2), f32([3000, 64], 3), undefined],
      'a long causal call': [f32([1500, 64]), f32([1500, 64], 2), f32([1500, 64], 3), { causal: true }],
      'values of 1e30 (softmax of large scores)': [{ data: new Float32Array(64).fill(1e30), shape: [8, 8] }, f32([8, 8]), f32([8, 8]), undefined],
      'NaN among the keys': [f32([8, 8]), { data: f32([8, 8]).data.map((v, i) => (i === 13 ? NaN : v)), shape: [8, 8] }, f32([8, 8]), undefined],
    };
    for (const [what, [q, k, v, options]] of Object.entries(fine)) await agree(what, (t) => t.attention(q, k, v, options), { expect: 'value' });
  });
});

describe('createModel', () => {
  const config = { vocab: 16, width: 8, heads: 2, classes: 2, seed: 4 };
  /** createModel(options) and, when it succeeds, its config and parameters (the model then disposed). */
  const created = async (t, options) => {
    const model = await t.createModel(options);
    try {
      return { config: model.config, parameters: await model.parameters() };
    } finally {
      await model.dispose();
    }
  };

  test('options of the wrong kind, and objects that are not plain', async () => {
    const kinds = {
      vocab: '16', width: NaN, heads: '2', layers: null, positions: 5, maxLength: 'x', causal: 'yes', readout: 1, dtype: Symbol('float32'),
      seed: {}, classes: undefined,
    };
    for (const [key, value] of Object.entries(kinds))
      await agree(`createModel ${key}: ${String(value)}`, (t) => created(t, { ...config, [key]: value }), { expect: /^(TypeError|RangeError): / });
    for (const [what, options] of Object.entries({
      'a Map': new Map(Object.entries(config)), 'a class instance': Object.assign(new (class P {})(), config), 'an object with another prototype': Object.create(config),
      'an array': [config], null: null, 'a number': 16, 'a string': 'vocab', 'nothing': undefined, 'an unknown option': { ...config, vocabulary: 16 },
      'a symbol key': { ...config, [Symbol('seed')]: 1 }, 'a Promise': Promise.resolve(config), 'a WeakMap': new WeakMap(), 'a function': () => config,
    }))
      await agree(`createModel(${what})`, (t) => created(t, options), { expect: /^TypeError: / });
    await agree('createModel options as a proxy', (t) => created(t, new Proxy({ ...config }, {})), { expect: 'value' });
    await agree('createModel options with a null prototype', (t) => created(t, Object.assign(Object.create(null), config)), { expect: 'value' });
    const boom = new TypeError('from a getter');
    await agree('createModel with a throwing getter', (t) => created(t, { ...config, get seed() { throw boom; } }), { expect: /^TypeError: from a getter$/ });
  });

  test('values the core refuses, and configurations it takes', async () => {
    const values = {
      'vocab 0': { vocab: 0 }, 'vocab -1': { vocab: -1 }, 'vocab 1.5': { vocab: 1.5 }, 'vocab 2^31': { vocab: 2 ** 31 }, 'width 0': { width: 0 },
      'width 3 with sinusoidal positions': { width: 3, heads: 1, positions: 'sinusoidal' }, 'heads 3 of width 8': { heads: 3 }, 'layers 0': { layers: 0 },
      'layers 9': { layers: 9 }, "positions 'foo'": { positions: 'foo' }, "positions 'learned' without maxLength": { positions: 'learned' },
      'maxLength 0': { positions: 'learned', maxLength: 0 }, 'classes 0': { classes: 0 }, "dtype 'int32'": { dtype: 'int32' },
      'seed -1': { seed: -1 }, 'seed 0.5': { seed: 0.5 }, "readout 'all'": { readout: 'all' }, 'width 2^31 (too large)': { width: 2 ** 31, heads: 1, positions: 'none' },
      "positions 'rotary' of an odd head width": { width: 6, heads: 2, positions: 'rotary' }, 'maxLength without learned positions': { maxLength: 8 },
    };
    for (const [what, changes] of Object.entries(values))
      await agree(`createModel ${what}`, (t) => created(t, { ...config, ...changes }), { expect: /^RangeError: / });
    const fine = {
      'the defaults': {}, 'float64, learned, causal, two layers, each': { dtype: 'float64', positions: 'learned', maxLength: 12, causal: true, layers: 2, readout: 'each' },
      'rotary': { positions: 'rotary' }, 'no positions, one head': { positions: 'none', heads: 1 }, 'seed 2^53': { seed: 2 ** 53 }, 'seed 0': { seed: 0 },
    };
    for (const [what, changes] of Object.entries(fine))
      await agree(`createModel ${what}`, (t) => created(t, { ...config, ...changes }), { expect: 'value' });
  });
});

describe("a model's methods", () => {
  const config = { vocab: 16, width: 8, heads: 2, classes: 2, seed: 4 };
  const ids = () => int32([1, 3, 0, 2, 5, 1, 4, 3], [2, 4]);
  const targets = () => int32([1, 0], [2]);
  /**
   * run(model) on a fresh model, then what the model holds after it: its parameters (unless it was disposed), so that a
   * call that fails must leave the model alike on both targets. The model is disposed at the end.
   */
  const onModel = (run, options = config) => async (t) => {
    const model = await t.createModel(options);
    try {
      const result = await outcome(() => run(model, t));
      return { result, after: model.disposed ? 'disposed' : await model.parameters() };
    } finally {
      await model.dispose();
    }
  };
  /** agree() on onModel(run): `expect` (default 'value') is about the call's own outcome, not the parameters after it. */
  const method = (what, run, expect = 'value') => agree(what, onModel(run), { expect, inner: true });
  /**
   * method() for a call that fails, and must leave the model exactly as it was: afterwards it takes one step as a
   * fresh model of the same seed does, the same loss and then the same parameters (so the same parameters, Adam's
   * moments and step count before it), on both targets.
   */
  const failsUnchanged = async (what, run, expect) => {
    const { value } = await agree(what, async (t) => {
      const [model, fresh] = [await t.createModel(config), await t.createModel(config)];
      try {
        const result = await outcome(() => run(model, t));
        const x = int32([2, 7, 1, 0, 9, 3, 3, 6], [2, 4]);
        const y = int32([0, 1], [2]);
        const losses = [await model.step(x, y, { lr: 1e-2 }), await fresh.step(x, y, { lr: 1e-2 })];
        const parameters = [digest(await model.parameters()), digest(await fresh.parameters())];
        return { result, unchanged: losses[0] === losses[1] && parameters[0] === parameters[1] };
      } finally {
        await Promise.all([model.dispose(), fresh.dispose()]);
      }
    }, { expect, inner: true });
    assert.equal(value?.unchanged, true, `${what}: the model is exactly as it was`);
  };

  test('tensors as proxies, lying subclasses and values of the wrong kind', async () => {
    const good = ids();
    const tensors = {
      'a proxy of the tensor': new Proxy({ ...good }, {}),
      'its shape a proxy': { data: good.data, shape: new Proxy([2, 4], {}) },
      'a lying Int32Array subclass': { data: new (class extends Int32Array { get length() { return 2 ** 30; } get buffer() { return new ArrayBuffer(4); } })(good.data), shape: [2, 4] },
      'a view at an offset': (() => { const view = new Int32Array(new ArrayBuffer(64), 12, 8); view.set(good.data); return { data: view, shape: [2, 4] }; })(),
      'a SharedArrayBuffer': (() => { const view = new Int32Array(new SharedArrayBuffer(32)); view.set(good.data); return { data: view, shape: [2, 4] }; })(),
    };
    for (const [what, tensor] of Object.entries(tensors)) {
      await method(`forward: ids ${what}`, (m) => m.forward(tensor));
      await method(`step: ids ${what}`, (m) => m.step(tensor, targets()));
    }
    const wrong = {
      'a function as data': { data: () => {}, shape: [2, 4] }, 'a symbol as dtype': { data: good.data, shape: [2, 4], dtype: Symbol('int32') },
      'a WeakMap': new WeakMap(), 'a Promise': Promise.resolve(good), 'data a proxy of an Int32Array': { data: new Proxy(good.data, {}), shape: [2, 4] },
      'a Float32Array': { data: new Float32Array(8), shape: [2, 4] }, null: null, 'a number': 7, 'an array of ids': [[1, 2], [3, 4]],
      'dtype float32 on an Int32Array': { data: good.data, shape: [2, 4], dtype: 'float32' }, 'a shape of (8)': { data: good.data, shape: [8] },
      'a shape of (0, 4)': { data: new Int32Array(0), shape: [0, 4] }, 'a shape of (2, 2, 2)': { data: good.data, shape: [2, 2, 2] },
      'a shape that does not match': { data: good.data, shape: [3, 4] }, 'a shape of 2^32 × 2^32': { data: good.data, shape: [2 ** 32, 2 ** 32] },
      'an id past the vocabulary': int32([1, 3, 0, 2, 5, 1, 4, 16], [2, 4]), 'an id of -1': int32([1, 3, 0, 2, -1, 1, 4, 3], [2, 4]),
    };
    for (const [what, tensor] of Object.entries(wrong)) {
      await method(`forward: ids ${what}`, (m) => m.forward(tensor), /./);
      await method(`step: ids ${what}`, (m) => m.step(tensor, targets()), /./);
    }
    await method('attentionWeights: ids a proxy', (m) => m.attentionWeights(new Proxy(int32([1, 2, 3], [1, 3]), {})));
    await method('attentionWeights: ids of shape (T)', (m) => m.attentionWeights(int32([1, 2, 3], [3])));
    await method('attentionWeights: two sequences', (m) => m.attentionWeights(ids()), /./);
    await method('loss: targets of another length', (m) => m.loss(ids(), int32([1, 0, 1], [3])), /./);
    await method('loss: a class past the classes', (m) => m.loss(ids(), int32([2, 0], [2])), /./);
    await method('loss: no targets but -1', (m) => m.loss(ids(), int32([-1, -1], [2])));
    await method('gradients: targets as Float64Array', (m) => m.gradients(ids(), { data: Float64Array.of(1, 0), shape: [2] }), /./);
    await method('gradients: targets a proxy', (m) => m.gradients(ids(), new Proxy(targets(), {})));
    await method('gradients: no targets', (m) => m.gradients(ids()), /./);
  });

  test('bad ids deep in large batches', async () => {
    const B = 64;
    const T = 256;
    const large = (at, id) => int32(Array.from({ length: B * T }, (_, i) => (i === at ? id : (i * 7) % 16)), [B, T]);
    const labels = int32(Array.from({ length: B }, (_, i) => i % 2), [B]);
    for (const at of [B * T - 1, 5000, 12345])
      for (const id of [16, -1, 2 ** 31 - 1, -(2 ** 31)]) {
        await method(`forward: id ${id} at ${at} of a (${B}, ${T}) batch`, (m) => m.forward(large(at, id)), /^RangeError: ids\[/);
        await method(`step: id ${id} at ${at} of a (${B}, ${T}) batch`, (m) => m.step(large(at, id), labels), /^RangeError: ids\[/);
      }
    await method(`step: a label of 5 deep in a batch of ${B}`, (m) => m.step(large(0, 1), int32(Array.from({ length: B }, (_, i) => (i === B - 3 ? 5 : 0)), [B])), /^RangeError: targets/);
    await method(`step: a (${B}, ${T}) batch that is fine`, (m) => m.step(large(0, 1), labels));
  });

  test('options of step, and setParameters', async () => {
    for (const [what, options] of Object.entries({
      '5': 5, 'a Map': new Map([['lr', 1e-3]]), 'an object with another prototype': Object.create({ lr: 1e-3 }), 'an unknown option': { rate: 1e-3 },
      'lr a string': { lr: 'fast' }, 'lr -1': { lr: -1 }, 'lr NaN': { lr: NaN }, 'lr Infinity': { lr: Infinity }, 'lr null': { lr: null }, 'lr a BigInt': { lr: 1n },
      'null': null, 'an array': [1e-3], 'a symbol key': { [Symbol('lr')]: 1 },
    }))
      await method(`step options ${what}`, (m) => m.step(ids(), targets(), options), /^(TypeError|RangeError): /);
    for (const [what, options] of Object.entries({ 'lr 0': { lr: 0 }, 'lr 3e-3': { lr: 3e-3 }, 'no lr': {}, 'a null prototype': Object.assign(Object.create(null), { lr: 0.01 }) }))
      await method(`step options ${what}`, (m) => m.step(ids(), targets(), options));
    const gain = () => ({ data: new Float32Array(8).fill(2), shape: [8] });
    class P { constructor() { this['norm.gain'] = gain(); } }
    for (const [what, parameters] of Object.entries({
      'a class instance': new P(), 'an object with another prototype': Object.create({ 'norm.gain': gain() }), 'a Map': new Map([['norm.gain', gain()]]),
      'an array': [gain()], null: null, 'a number': 1, 'a Promise': Promise.resolve({ 'norm.gain': gain() }), 'a symbol key': { [Symbol('norm.gain')]: gain() },
      'an unknown name': { 'norm.gains': gain() }, 'a wrong shape': { 'norm.gain': { data: new Float32Array(4), shape: [4] } },
      'the wrong dtype': { 'norm.gain': { data: new Float64Array(8), shape: [8] } }, 'a function as data': { 'norm.gain': { data: () => {}, shape: [8] } },
      'a proxy with a key it does not hold': new Proxy({}, { ownKeys: () => ['embed'], getOwnPropertyDescriptor: () => ({ value: undefined, enumerable: true, configurable: true }) }),
      "an own '__proto__' key": JSON.parse('{"__proto__": {"data": [1], "shape": [1]}}'),
      'a good one beside an unknown one': { 'norm.gain': gain(), 'norm.scale': gain() },
    }))
      await method(`setParameters(${what})`, (m) => m.setParameters(parameters), /^(TypeError|RangeError): /);
    for (const [what, parameters] of Object.entries({
      'a plain object': { 'norm.gain': gain() }, 'a proxy': new Proxy({ 'norm.gain': gain() }, {}), 'a null prototype': Object.assign(Object.create(null), { 'norm.gain': gain() }),
      'nothing to change': {}, 'every parameter, from another model': 'all',
    }))
      await method(`setParameters(${what})`, async (m, t) => {
        if (parameters !== 'all') return m.setParameters(parameters);
        const other = await t.createModel({ ...config, seed: 9 });
        const values = await other.parameters();
        await other.dispose();
        return m.setParameters(values);
      }, 'value');
  });

  test('dispose in every position', async () => {
    const calls = {
      parameters: (m) => m.parameters(), setParameters: (m) => m.setParameters({}), forward: (m) => m.forward(ids()), loss: (m) => m.loss(ids(), targets()),
      gradients: (m) => m.gradients(ids(), targets()), step: (m) => m.step(ids(), targets()), 'step with options 5': (m) => m.step(ids(), targets(), 5),
      'step with ids null': (m) => m.step(null, null), attentionWeights: (m) => m.attentionWeights(int32([1, 2], [1, 2])),
      'forward with a Promise': (m) => m.forward(Promise.resolve(ids())), 'setParameters(new P())': (m) => m.setParameters(new (class P {})()),
    };
    for (const [what, call] of Object.entries(calls))
      await method(`${what} after dispose`, async (m) => { await m.dispose(); return call(m); }, /^Error: seqorder: this model was disposed/);
    await method('dispose twice', async (m) => { await m.dispose(); await m.dispose(); return m.disposed; });
    const disposing = (m, value) => ({ get data() { m.dispose(); return value.data; }, shape: value.shape });
    await method('an ids getter disposes the model (forward)', (m) => m.forward(disposing(m, ids())), /^Error: seqorder: this model was disposed/);
    await method('an ids getter disposes the model (step)', (m) => m.step(disposing(m, ids()), targets()), /^Error: seqorder: this model was disposed/);
    await method('a targets getter disposes the model (loss)', (m) => m.loss(ids(), disposing(m, targets())), /^Error: seqorder: this model was disposed/);
    await method('a targets getter disposes the model (gradients)', (m) => m.gradients(ids(), disposing(m, targets())), /^Error: seqorder: this model was disposed/);
    await method('an options getter disposes the model (step)', (m) => m.step(ids(), targets(), { get lr() { m.dispose(); return 1e-3; } }), /^Error: seqorder: this model was disposed/);
    await method('a parameters getter disposes the model', (m) => m.setParameters({ get 'norm.gain'() { m.dispose(); return { data: new Float32Array(8), shape: [8] }; } }), /^Error: seqorder: this model was disposed/);
    await method('an ids getter disposes the model (attentionWeights)', (m) => m.attentionWeights(disposing(m, int32([1, 2], [1, 2]))), /^Error: seqorder: this model was disposed/);
    await method('a call made before dispose is answered', async (m) => {
      const pending = m.forward(ids());
      await m.dispose();
      return pending;
    });
  });

  test('getters that detach, throw, or call the model again', async () => {
    await method('a targets getter detaches the ids', (m) => {
      const x = ids();
      return m.loss(x, { data: targets().data, get shape() { detach(x.data); return [2]; } });
    }, /^TypeError: ids\.data: its buffer was detached or shrunk after the arguments were read/);
    await method('an options getter detaches the targets', (m) => {
      const y = targets();
      return m.step(ids(), y, { get lr() { detach(y.data); return 1e-3; } });
    }, /^TypeError: targets\.data: its buffer was detached/);
    await method('a parameters getter detaches the tensor read before it', (m) => {
      const gain = { data: new Float32Array(8).fill(2), shape: [8] };
      return m.setParameters({ 'norm.gain': gain, get 'norm.bias'() { detach(gain.data); return { data: new Float32Array(8), shape: [8] }; } });
    }, /^TypeError: parameters\['norm\.gain'\]\.data: its buffer is detached/);
    await method('an options getter steps the model first', async (m) => {
      let inner;
      const outer = m.step(ids(), targets(), { get lr() { inner = m.step(ids(), targets()); return 1e-3; } });
      return [await inner, await outer];
    });
    await method('a shape getter of setParameters runs the model', async (m) => {
      let logits;
      await m.setParameters({ 'readout.bias': { data: Float32Array.of(1, -1), get shape() { logits = m.forward(ids()); return [2]; } } });
      return logits;
    });
    await method('ids changed after the call is made', async (m) => {
      const x = ids();
      const pending = [m.forward(x), m.step(x, targets()), m.loss(x, targets())];
      x.data.fill(15);
      return Promise.all(pending);
    });
    const boom = new RangeError('from a getter');
    await method('a throwing getter among the parameters', (m) => m.setParameters({ get embed() { throw boom; } }), /^RangeError: from a getter$/);
    await method('a throwing shape getter of the ids', (m) => m.forward({ data: ids().data, get shape() { throw boom; } }), /^RangeError: from a getter$/);
  });

  test('train: its options first, holes, batches read as step reads them, a batch the core refuses', async () => {
    const batch = () => ({ ids: ids(), targets: targets() });
    const trains = {
      'two batches': [[batch(), batch()]], 'two batches, lr 3e-3': [[batch(), batch()], { lr: 3e-3 }], 'no batches': [[]],
      'proxies of a batch and of its ids': [[new Proxy(batch(), {}), { ids: new Proxy(ids(), {}), targets: targets() }]],
      'a batch with a null prototype': [[Object.assign(Object.create(null), batch())]],
    };
    for (const [what, args] of Object.entries(trains)) await method(`train: ${what}`, (m) => m.train(...args));
    const holey = [, batch()];  // a hole at index 0: a sparse array
    const big = (B, T, at, id) => ({ ids: int32(Array.from({ length: B * T }, (_, i) => (i === at ? id : (i * 5) % 16)), [B, T]), targets: int32(Array.from({ length: B }, (_, i) => i % 2), [B]) });
    const wrong = {
      'a hole': [[holey], /^TypeError: batches\[0\] must be an object \{ ids, targets \}, got a hole$/],
      'undefined': [[[batch(), undefined]], /^TypeError: batches\[1\] must be an object \{ ids, targets \}, got undefined$/],
      'null': [[[null]], /^TypeError: batches\[0\] must be an object, got null$/],
      'a number': [[[batch(), 3]], /^TypeError: batches\[1\] must be an object, got number 3$/],
      'not an array': [[batch()], /^TypeError: batches must be an array of \{ ids, targets \}, got object$/],
      'an array-like': [[{ length: 1, 0: batch() }], /^TypeError: batches must be an array of \{ ids, targets \}, got object$/],
      'an unknown key': [[[{ ...batch(), weights: 1 }]], /^TypeError: batches\[0\]: unknown option 'weights' \(known: ids, targets, positionIds\)$/],
      'a class instance': [[[Object.assign(new (class B {})(), batch())]], /^TypeError: batches\[0\] must be a plain object like \{ ids: … \}, got B instance$/],
      'options 5 and no batches': [[[], 5], /^TypeError: options must be an object, got number 5$/],
      'lr -1 and no batches': [[[], { lr: -1 }], /^RangeError: lr must be a finite number >= 0, got -1$/],
      'lr -1 before a bad batch': [[[batch(), { ids: int32([1, 3, 0, 2, 5, 1, 4, 16], [2, 4]), targets: targets() }], { lr: -1 }], /^RangeError: lr must be a finite number >= 0, got -1$/],
      'lr NaN': [[[batch()], { lr: NaN }], /^RangeError: lr must be a finite number >= 0, got NaN$/],
      'lr 1e308': [[[batch(), batch()], { lr: 1e308 }], /^RangeError: lr must be at most 3\.4028234663852886e\+38 \(the largest finite float32, the model's dtype\), got 1e\+308$/],
      'lr a string before a bad batch': [[[3], { lr: 'fast' }], /^TypeError: lr must be a number, got the string "fast"$/],
      'an unknown option': [[[batch()], { rate: 1 }], /^TypeError: options: unknown option 'rate' \(known: lr, ropeScaling, positionRange\)$/],
      'a function as ids data': [[[batch(), { ids: { data: () => {}, shape: [2, 4] }, targets: targets() }]], /^TypeError: batches\[1\]\.ids\.data must be a typed array \(Float64Array or Float32Array or Int32Array\), got function$/],
      'a symbol as targets dtype': [[[batch(), { ids: ids(), targets: { ...targets(), dtype: Symbol('x') } }]], /^TypeError: batches\[1\]\.targets\.dtype must be a string, got symbol$/],
      'a WeakMap as ids': [[[batch(), { ids: new WeakMap(), targets: targets() }]], /^TypeError: batches\[1\]\.ids\.data must be a typed array \(Float64Array or Float32Array or Int32Array\), got undefined$/],
      'a Promise as a batch': [[[Promise.resolve(batch())]], /^TypeError: batches\[0\] must be a plain object like \{ ids: … \}, got Promise instance$/],
      'an id past the vocabulary in the third batch': [[[batch(), batch(), { ids: int32([1, 3, 0, 2, 5, 1, 4, 16], [2, 4]), targets: targets() }, batch()]], /^RangeError: batches\[2\]: ids\[1, 3\] = 16 is outside 0 \.\. vocab - 1 = 0 \.\. 15$/],
      'an id of -1 deep in the third of three large batches': [[[big(64, 256, 0, 1), big(64, 256, 0, 1), big(64, 256, 12345, -1)]], /^RangeError: batches\[2\]: ids\[48, 57\] = -1 is outside 0 \.\. vocab - 1 = 0 \.\. 15$/],
      'targets of another length in the second batch': [[[batch(), { ids: ids(), targets: int32([1], [1]) }]], /^RangeError: batches\[1\]: targets must have shape \(B\) = \[2\] for readout 'mean' \(one target per sequence\), got \[1\]$/],
      'a class past the classes in the last batch': [[[batch(), batch(), { ids: ids(), targets: int32([0, 7], [2]) }]], /^RangeError: batches\[2\]: targets\[1\] = 7 is outside -1 \.\. classes - 1 = -1 \.\. 1 \(-1 ignores a target\)$/],
      'a shape of 2^32 x 2^32 in the second batch': [[[batch(), { ids: { data: ids().data, shape: [2 ** 32, 2 ** 32] }, targets: targets() }]], /^RangeError: batches\[1\]: ids\.data has 8 elements but shape \[4294967296, 4294967296\] needs more than 2\^63$/],
      'a step refused after one was taken (lr 1e38: the next loss overflows)': [[[batch(), batch(), batch(), batch()], { lr: 1e38 }], /^RangeError: batches\[[12]\]: (the loss is (NaN|-?Infinity): a step on a loss that is not finite is refused|lr 1e\+38 is refused here: the step would make parameter '[\w.]+' \[[\d, ]+\] or its Adam moments not finite) \(the model is unchanged\)$/],
    };
    for (const [what, [args, message]] of Object.entries(wrong)) await failsUnchanged(`train: ${what}`, (m) => m.train(...args), message);
    await method('train: a later batch\'s getter detaches an earlier one', (m) => {
      const first = batch();
      return m.train([first, { ids: ids(), get targets() { detach(first.ids.data); return targets(); } }]);
    }, /^TypeError: batches\[0\]\.ids\.data: its buffer was detached or shrunk after the arguments were read/);
    await method('train: a getter disposes the model', (m) => m.train([{ ids: ids(), get targets() { m.dispose(); return targets(); } }]), /^Error: seqorder: this model was disposed/);
    await method('train: after dispose, with wrong arguments', async (m) => { await m.dispose(); return m.train(5, 5); }, /^Error: seqorder: this model was disposed/);
    await method('train: a batch changed after the call is made', (m) => {
      const first = batch();
      const pending = m.train([first, batch()]);
      first.ids.data.fill(15);
      return pending;
    });
  });

  test('many calls at once, and many models', async () => {
    await method('80 calls on one model without waiting', (m) => {
      const pending = [];
      for (let n = 0; n < 80; n++) {
        const x = int32(Array.from({ length: 8 }, (_, i) => (i * 5 + n) % 16), [2, 4]);
        pending.push(n % 4 === 0 ? m.forward(x) : n % 4 === 1 ? m.step(x, targets(), { lr: 3e-3 }) : n % 4 === 2 ? m.loss(x, targets()) : m.step(x, int32([9, 0], [2])));
      }
      return Promise.all(pending.map((p) => outcome(() => p)));
    });
    await agree('200 models created, stepped and disposed', async (t) => {
      const losses = [];
      for (let n = 0; n < 200; n++) {
        const model = await t.createModel({ ...config, seed: n });
        losses.push(await model.step(ids(), targets()));
        await model.dispose();
      }
      return losses;
    }, { expect: 'value' });
  });
});

describe('what only the pool has', () => {
  const config = { vocab: 16, width: 8, heads: 2, classes: 2, seed: 4 };
  const task = () => ({ ids: int32([1, 3, 0, 2, 5, 1, 4, 3], [2, 4]), targets: int32([1, 0], [2]) });

  test('a worker that stopped: its models are no longer counted where new models go', async () => {
    cases++;
    const { pool } = targets.pool;
    const first = await Promise.all([pool.createModel(config), pool.createModel(config)]);
    assert.deepEqual(first.map((m) => m.worker), [0, 1]);
    workersOf(pool).kill(1);
    await assert.rejects(first[1].forward(task().ids), /not in its worker any more/);
    const next = await pool.createModel(config);
    assert.equal(next.worker, 1, 'the replaced worker holds no model: the next one goes there');
    await Promise.all([...first, next].map((m) => m.dispose()));
  });
});

describe('a polluted Object.prototype', () => {
  // in a child process of its own (helpers/polluted.mjs): every option name, and unrelated ones, on Object.prototype
  const polluted = (mode) => {
    const child = spawnSync(process.execPath, [fileURLToPath(new URL('./helpers/polluted.mjs', import.meta.url)), lib, mode], { encoding: 'utf8', timeout: 60_000 });
    assert.equal(child.status, 0, child.stderr);
    return JSON.parse(child.stdout.trim().split('\n').at(-1));
  };
  test('holding every option name (not enumerable): no result changes, nothing leaks, on one thread and the pool', () => {
    cases++;
    const { differ, heap: [before, afterCalls] } = polluted('hidden');
    assert.deepEqual(differ, []);
    assert.equal(afterCalls, before, "one thread's heap");
  });
  test('holding every option name, enumerable as old scripts make them: no result changes, nothing leaks', () => {
    cases++;
    const { differ, heap: [before, afterCalls] } = polluted('enumerable');
    assert.deepEqual(differ, []);
    assert.equal(afterCalls, before, "one thread's heap");
  });
});

test('count', (t) => {
  t.diagnostic(`${cases} cases, each on one thread and on the pool, the same result or error`);
  assert.ok(cases >= 190, `${cases} cases`);
});
