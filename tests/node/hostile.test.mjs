// The API against a hostile caller: getters that detach, shrink or re-enter (or dispose the model being called);
// proxies; typed-array subclasses that lie about their length, offset or buffer; sizes at 2^31, 2^32 and 2^53; empty
// tensors with huge other axes; 100,000 failing calls in a row. Every case ends in a correct result or a TypeError / RangeError naming the argument, the
// module intact (a later call computes what it should) and the heap back where it started. A trap (a WebAssembly
// RuntimeError) would leave the instance unusable, and the canary after every case would say so.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadSeqorder } from './helpers/load.mjs';

const so = await loadSeqorder();
const canaryTable = so.positions(3, 4, { start: 2 }).data.slice();
const baseline = so.memoryStats().allocatedBytes;

/** The module still computes what it should, and holds no more than it did at the start. */
function intact(what) {
  assert.deepEqual(so.positions(3, 4, { start: 2 }).data, canaryTable, `${what}: the module still works`);
  assert.equal(so.memoryStats().allocatedBytes, baseline, `${what}: the heap is back where it started`);
}

const f32 = (shape, seed = 1) => {
  const n = shape.reduce((a, b) => a * b, 1);
  return { data: Float32Array.from({ length: n }, (_, i) => Math.sin(seed * 7.1 + i * 0.37)), shape };
};
const detach = (typed) => structuredClone(typed.buffer, { transfer: [typed.buffer] });

let cases = 0;
/** Runs `call`; expects a result checked by `ok`, or an error of `Class` whose message matches `message`. */
function hostile(what, call, expected) {
  cases++;
  let result;
  let thrown;
  try {
    result = call();
  } catch (error) {
    thrown = error;
  }
  if (expected.Class) {
    assert.ok(thrown, `${what}: expected a ${expected.Class.name}, got a result`);
    assert.equal(thrown.constructor, expected.Class, `${what}: ${thrown?.constructor?.name}: ${thrown?.message}`);
    assert.match(thrown.message, expected.message, what);
  } else {
    assert.equal(thrown, undefined, `${what}: threw ${thrown?.name}: ${thrown?.message}`);
    expected.ok(result);
  }
  intact(what);
}

describe('getters that detach, shrink or re-enter', () => {
  test('an options getter detaches a tensor read before it: a TypeError naming that tensor', () => {
    for (const fn of ['attention', 'addPositions', 'rope']) {
      const q = f32([4, 8]);
      const options = { get start() { detach(q.data); return 0; }, get causal() { detach(q.data); return true; } };
      const call = fn === 'attention'
        ? () => so.attention(q, f32([4, 8], 2), f32([4, 8], 3), { get causal() { detach(q.data); return true; } })
        : () => so[fn](q, { get start() { detach(q.data); return 0; } });
      void options;
      hostile(`${fn}: options getter detaches the first tensor`, call,
        { Class: TypeError, message: fn === 'attention' ? /^q\.data: its buffer was detached or shrunk after the arguments were read/ : /^x\.data: its buffer was detached/ });
    }
  });

  test('a later tensor\'s getter detaches an earlier one; its own shape getter detaches its data', () => {
    const q = f32([4, 8]);
    const k = { get data() { detach(q.data); return f32([4, 8], 2).data; }, shape: [4, 8] };
    hostile('k.data getter detaches q', () => so.attention(q, k, f32([4, 8], 3)), { Class: TypeError, message: /^q\.data: its buffer was detached/ });
    const x = f32([3, 4]);
    const self = { data: x.data, get shape() { detach(x.data); return [3, 4]; } };
    hostile('x.shape getter detaches x.data', () => so.addPositions(self), { Class: TypeError, message: /^x\.data: its buffer was detached/ });
  });

  test('an options getter detaches the out array: a TypeError naming out, nothing written anywhere', () => {
    const out = new Float32Array(12);
    hostile('base getter detaches out', () => so.rope(f32([3, 4]), { out, get base() { detach(out); return 100; } }),
      { Class: TypeError, message: /^out: its buffer is detached/ });
    const later = new Float32Array(12);
    hostile('a tensor getter read after out detaches it', () => so.attention(f32([3, 4]), f32([3, 4], 2), { data: f32([3, 4], 3).data, get shape() { detach(later); return [3, 4]; } }, { out: later }),
      { Class: TypeError, message: /^out: its buffer is detached/ });
    const x = f32([3, 4]);
    hostile('x already detached', () => so.rope({ data: (detach(x.data), x.data), shape: [3, 4] }), { Class: TypeError, message: /^x\.data: its buffer is detached/ });
  });

  test('a resizable buffer shrunk by a getter: a TypeError; grown: the values read stay what was checked', () => {
    const buffer = new ArrayBuffer(4 * 24, { maxByteLength: 4 * 64 });
    const tracking = new Float32Array(buffer);  // length-tracking view
    tracking.set(f32([4, 6]).data);
    hostile('length-tracking view shrunk', () => so.addPositions({ data: tracking, shape: [4, 6] }, { get start() { buffer.resize(4 * 8); return 0; } }),
      { Class: TypeError, message: /^x\.data: its buffer was detached or shrunk/ });
    const fixed = new Float32Array(buffer, 0, 8);
    hostile('fixed view pushed out of bounds', () => so.addPositions({ data: fixed, shape: [2, 4] }, { get start() { buffer.resize(8); return 0; } }),
      { Class: TypeError, message: /^x\.data: its buffer was detached or shrunk/ });
    buffer.resize(4 * 24);
    const grow = new Float32Array(buffer);
    const expected = so.addPositions({ data: grow.slice(0, 24), shape: [4, 6] }).data;
    hostile('length-tracking view grown', () => so.addPositions({ data: grow, shape: [4, 6] }, { get start() { buffer.resize(4 * 64); return 0; } }),
      { ok: (r) => assert.deepEqual(r.data, expected) });
  });

  test('a getter that re-enters the API: both calls compute what they should', () => {
    let inner;
    const x = f32([5, 8]);
    const result = so.addPositions(x, { get start() { inner = so.attention(x, x, x, { causal: true }); return 3; } });
    cases++;
    assert.deepEqual(result.data, so.addPositions(x, { start: 3 }).data);
    assert.deepEqual(inner.data, so.attention(x, x, x, { causal: true }).data);
    intact('re-entering getter');
  });

  test('getters and proxy traps run once per argument, and a throwing one propagates untouched', () => {
    const reads = {};
    const counted = (name, target) => new Proxy(target, { get(t, key, r) { reads[`${name}.${String(key)}`] = (reads[`${name}.${String(key)}`] ?? 0) + 1; return Reflect.get(t, key, r); } });
    const x = f32([3, 4]);
    const tensor = counted('x', { data: x.data, shape: counted('shape', [3, 4]) });
    const options = counted('options', { start: 2, base: 100 });
    hostile('counted reads', () => so.addPositions(tensor, options), { ok: (r) => assert.deepEqual(r.data, so.addPositions(x, { start: 2, base: 100 }).data) });
    for (const key of ['x.data', 'x.shape', 'x.dtype', 'options.start', 'options.base', 'shape.0', 'shape.1', 'shape.length'])
      assert.ok((reads[key] ?? 0) <= 1, `${key} read ${reads[key]} times`);
    const boom = new Error('from a getter');
    cases++;
    assert.throws(() => so.positions(2, 4, { get start() { throw boom; } }), (e) => e === boom);
    intact('throwing getter');
  });
});

describe('proxies and lying subclasses', () => {
  test('a proxy of a typed array is not a typed array; a proxy of a tensor or shape array is read through', () => {
    const x = f32([2, 4]);
    hostile('data a proxy', () => so.addPositions({ data: new Proxy(x.data, {}), shape: [2, 4] }), { Class: TypeError, message: /^x\.data must be a typed array/ });
    hostile('out a proxy', () => so.addPositions(x, { out: new Proxy(new Float32Array(8), {}) }), { Class: TypeError, message: /^out must be a typed array/ });
    hostile('tensor and shape proxies', () => so.addPositions(new Proxy({ data: x.data, shape: new Proxy([2, 4], {}) }, {})),
      { ok: (r) => assert.deepEqual(r.data, so.addPositions(x).data) });
    hostile('options a proxy of a plain object', () => so.addPositions(x, new Proxy({ start: 5 }, {})), { ok: (r) => assert.deepEqual(r.data, so.addPositions(x, { start: 5 }).data) });
    hostile('options a proxy with a hidden unknown key', () => so.addPositions(x, new Proxy({ start: 5 }, { ownKeys: () => ['start', 'strat'], getOwnPropertyDescriptor: (t, k) => ({ value: 1, enumerable: true, configurable: true }) })),
      { Class: TypeError, message: /^options: unknown option 'strat'/ });
    const revocable = Proxy.revocable({}, {});
    revocable.revoke();
    hostile('a revoked proxy as a tensor', () => so.addPositions(revocable.proxy), { Class: TypeError, message: /revoked/ });
  });

  test('subclasses that lie about length, byteLength, byteOffset, buffer or their class are not believed', () => {
    class Liar extends Float32Array {
      get length() { return 1e9; }
      get byteLength() { return 4e9; }
      get byteOffset() { return 1 << 30; }
      get buffer() { return new ArrayBuffer(8); }
      get [Symbol.toStringTag]() { return 'Float64Array'; }
      set() { throw new Error('set must not be called'); }
      subarray() { throw new Error('subarray must not be called'); }
    }
    const honest = f32([3, 4]);
    const liar = new Liar(honest.data);
    hostile('a lying x', () => so.addPositions({ data: liar, shape: [3, 4] }), { ok: (r) => assert.deepEqual(r.data, so.addPositions(honest).data) });
    hostile('a lying x with the data count it claims', () => so.addPositions({ data: liar, shape: [1e9 / 4, 4] }), { Class: RangeError, message: /^x\.data has 12 elements but shape \[250000000, 4\] needs 1000000000/ });
    hostile('a lying x that claims to be float64', () => so.addPositions({ data: liar, shape: [3, 4], dtype: 'float64' }), { Class: TypeError, message: /^x\.data must be a Float64Array for dtype 'float64', got a Float32Array/ });
    const out = new Liar(12);
    hostile('a lying out', () => so.addPositions(honest, { out }), { ok: (r) => { assert.equal(r.data, out); assert.deepEqual(Float32Array.from(out), so.addPositions(honest).data); } });
    const offsetView = new Float32Array(new ArrayBuffer(4 * 20), 4 * 5, 12);
    offsetView.set(honest.data);
    hostile('a view with an offset into a larger buffer', () => so.addPositions({ data: offsetView, shape: [3, 4] }), { ok: (r) => assert.deepEqual(r.data, so.addPositions(honest).data) });
    const shared = new Float32Array(new SharedArrayBuffer(4 * 12));
    shared.set(honest.data);
    hostile('a SharedArrayBuffer', () => so.addPositions({ data: shared, shape: [3, 4] }, { out: new Float32Array(new SharedArrayBuffer(48)) }), { ok: (r) => assert.deepEqual(Float32Array.from(r.data), so.addPositions(honest).data) });
  });

  test('options must be a plain object: a Map, a Date, a class instance, an object with another prototype are TypeErrors', () => {
    const x = f32([2, 4]);
    for (const options of [new Map([['start', 1]]), new Date(0), new (class Options { constructor() { this.start = 1; } })(), Object.create({ start: 1 })])
      hostile(`options ${options.constructor?.name ?? 'with a prototype'}`, () => so.addPositions(x, options), { Class: TypeError, message: /^options must be a plain object/ });
    hostile('a symbol key', () => so.addPositions(x, { [Symbol('start')]: 1 }), { Class: TypeError, message: /^options: unknown option 'Symbol\(start\)'/ });
    hostile('options with a null prototype', () => so.addPositions(x, Object.assign(Object.create(null), { start: 2 })), { ok: (r) => assert.deepEqual(r.data, so.addPositions(x, { start: 2 }).data) });
  });

  test('out may alias an input: the result is what it would be in a fresh array', () => {
    const x = f32([3, 4]);
    const expected = so.addPositions(x, { start: 1 }).data;
    hostile('addPositions in place', () => so.addPositions(x, { start: 1, out: x.data }), { ok: (r) => { assert.equal(r.data, x.data); assert.deepEqual(x.data, expected); } });
    const q = f32([4, 8]);
    const want = so.attention(q, q, q).data;
    hostile('attention into q', () => so.attention(q, q, q, { out: q.data }), { ok: () => assert.deepEqual(q.data, want) });
  });
});

describe('sizes past 32 bits, and empty tensors with huge axes', () => {
  const big = [2 ** 31, 2 ** 32, 2 ** 32 + 2, 2 ** 40, 2 ** 53 - 1];
  test('positions: an empty table of any width, and every too-large table a RangeError', () => {
    for (const n of big) {
      hostile(`positions(0, ${n})`, () => so.positions(0, n % 2 ? n - 1 : n), { ok: (r) => { assert.equal(r.data.length, 0); assert.deepEqual(r.shape, [0, n % 2 ? n - 1 : n]); } });
      hostile(`positions(${n}, 2)`, () => so.positions(n, 2), { Class: RangeError, message: /^positions of shape .* is too large|^start \+ length must be at most 2\^53/ });
      hostile(`positions(1, ${n})`, () => so.positions(1, n % 2 ? n - 1 : n), { Class: RangeError, message: /^positions of shape .* is too large/ });
      hostile(`positions(${n}, ${n})`, () => so.positions(n, n % 2 ? n - 1 : n), { Class: RangeError, message: /is too large|at most 2\^53/ });
    }
    hostile('positions(2^53, 2)', () => so.positions(2 ** 53, 2), { Class: RangeError, message: /^length must be an integer at most 2\^53 - 1/ });
    hostile('positions(0, 2, { start: 2^53 })', () => so.positions(0, 2, { start: 2 ** 53 }), { ok: (r) => assert.equal(r.data.length, 0) });
    hostile('positions(1, 2, { start: 2^53 })', () => so.positions(1, 2, { start: 2 ** 53 }), { Class: RangeError, message: /^start \+ length must be at most 2\^53/ });
  });

  test('tensors whose shapes reach past 32 bits: empty ones work, others are refused by their count', () => {
    for (const n of big) {
      const empty = { data: new Float32Array(0), shape: [0, 5, n % 2 ? n - 1 : n] };
      for (const fn of ['addPositions', 'rope'])
        hostile(`${fn} (0, 5, ${n})`, () => so[fn](empty), { ok: (r) => assert.deepEqual(r.shape, empty.shape) });
      hostile(`embed from (0, ${n}) with no ids`, () => so.embed({ data: new Float64Array(0), shape: [0, n] }, { data: new Int32Array(0), shape: [0] }),
        { ok: (r) => assert.deepEqual(r.shape, [0, n]) });
      hostile(`embed from (0, ${n}) with an id`, () => so.embed({ data: new Float64Array(0), shape: [0, n] }, { data: Int32Array.of(0), shape: [1] }),
        { Class: RangeError, message: /^ids\[0\] = 0 is outside the table's rows \(the table has none\)/ });
      hostile(`learnedPositions of (0, ${n})`, () => so.learnedPositions({ data: new Float32Array(0), shape: [0, n] }, 0), { ok: (r) => assert.deepEqual(r.shape, [0, n]) });
      hostile(`learnedPositions ${n} rows`, () => so.learnedPositions(f32([4, 2]), n), { Class: RangeError, message: /^start \+ length must be at most the table's rows P = 4/ });
      hostile(`attention, D = ${n}, no queries`, () => so.attention({ data: new Float32Array(0), shape: [0, n] }, { data: new Float32Array(0), shape: [0, n] }, { data: new Float32Array(0), shape: [0, 3] }),
        { ok: (r) => assert.deepEqual(r.shape, [0, 3]) });
      hostile(`attention, ${n} batches of nothing`, () => so.attention({ data: new Float32Array(0), shape: [n, 0, 4] }, { data: new Float32Array(0), shape: [n, 0, 4] }, { data: new Float32Array(0), shape: [n, 0, 2] }, { steps: true }),
        { ok: (r) => assert.deepEqual(r.weights.shape, [n, 0, 0]) });
      hostile(`a shape of ${n} x ${n} on 12 elements`, () => so.addPositions({ data: new Float32Array(12), shape: [n, n] }), { Class: RangeError, message: /^x\.data has 12 elements but shape/ });
      hostile(`attention with Tk = ${n} on no data`, () => so.attention(f32([2, 4]), { data: new Float32Array(0), shape: [n, 4] }, { data: new Float32Array(0), shape: [n, 1] }),
        { Class: RangeError, message: /^k\.data has 0 elements but shape/ });
    }
  });

  test('numbers of every odd kind where sizes and positions go', () => {
    for (const value of [NaN, Infinity, -Infinity, -0, 0.5, 2 ** 53, 2 ** 64, -(2 ** 31), Number.MIN_VALUE, Number.MAX_VALUE])
      hostile(`positions(${value}, 4)`, () => so.positions(value, 4),
        Object.is(value, -0) ? { ok: (r) => assert.equal(r.data.length, 0) } : { Class: RangeError, message: /^length must be an integer/ });
    for (const value of [NaN, 1.5, -1, 2 ** 60])
      hostile(`attention queryStart ${value}`, () => so.attention(f32([2, 4]), f32([3, 4]), f32([3, 2]), { causal: true, queryStart: value }), { Class: RangeError, message: /^queryStart must be/ });
  });
});

describe('the model', () => {
  const config = { vocab: 16, width: 8, heads: 2, classes: 2, seed: 4 };
  const ints = (values, shape) => ({ data: Int32Array.from(values), shape });
  const ids = () => ints([1, 3, 0, 2, 5, 1, 4, 3], [2, 4]);
  const targets = () => ints([1, 0], [2]);
  /** hostile(what, ...) on a fresh model, disposed (again: dispose twice does nothing) before the module is checked. */
  function onModel(what, call, expected) {
    const model = so.createModel(config);
    hostile(what, () => {
      try {
        return call(model);
      } finally {
        model.dispose();
      }
    }, expected);
  }
  /** What `steps` plain steps on a fresh model give: [losses, parameters]. */
  function plainSteps(steps) {
    const model = so.createModel(config);
    const losses = Array.from({ length: steps }, () => model.step(ids(), targets()));
    const parameters = model.parameters();
    model.dispose();
    return [losses, parameters];
  }

  test('getters that dispose the model, detach an input or step the model again', () => {
    onModel('an options getter disposes the model', (model) => model.step(ids(), targets(), { get lr() { model.dispose(); return 1e-3; } }),
      { Class: Error, message: /^seqorder: this model was disposed/ });
    onModel('a targets getter detaches the ids', (model) => {
      const x = ids();
      return model.loss(x, { data: targets().data, get shape() { detach(x.data); return [2]; } });
    }, { Class: TypeError, message: /^ids\.data: its buffer was detached or shrunk after the arguments were read/ });
    onModel('a parameters getter detaches the tensor read before it', (model) => {
      const gain = { data: new Float32Array(8).fill(2), shape: [8] };
      return model.setParameters({ 'norm.gain': gain, get 'norm.bias'() { detach(gain.data); return { data: new Float32Array(8), shape: [8] }; } });
    }, { Class: TypeError, message: /^parameters\['norm\.gain'\]\.data: its buffer is detached/ });  // (every value is read before any tensor)
    const [losses, parameters] = plainSteps(2);
    onModel('an options getter steps the same model first', (model) => {
      let inner;
      const outer = model.step(ids(), targets(), { get lr() { inner = model.step(ids(), targets()); return 1e-3; } });
      return { losses: [inner, outer], parameters: model.parameters() };
    }, { ok: (r) => assert.deepEqual(r, { losses, parameters }) });
    onModel('a shape getter of setParameters runs the model', (model) => {
      let logits;
      model.setParameters({ 'readout.bias': { data: Float32Array.of(1, -1), get shape() { logits = model.forward(ids()); return [2]; } } });
      return { logits, bias: model.parameters()['readout.bias'].data };
    }, { ok: (r) => { assert.deepEqual(r.logits.shape, [2, 2]); assert.deepEqual(r.bias, Float32Array.of(1, -1)); } });
    const boom = new Error('from a getter');
    onModel('a throwing getter among the parameters', (model) => {
      try {
        model.setParameters({ get embed() { throw boom; } });
      } catch (error) {
        return error;
      }
      return undefined;
    }, { ok: (e) => assert.equal(e, boom) });
  });

  test('proxies and lying subclasses as ids, targets, parameters and options', () => {
    const [[loss]] = plainSteps(1);
    onModel('ids a lying Int32Array subclass', (model) => {
      class Liar extends Int32Array {
        get length() { return 2 ** 30; }
        get buffer() { return new ArrayBuffer(4); }
        get [Symbol.toStringTag]() { return 'Float32Array'; }
      }
      return model.step({ data: new Liar(ids().data), shape: [2, 4] }, targets());
    }, { ok: (r) => assert.equal(r, loss) });
    onModel('ids a proxy of an Int32Array', (model) => model.forward({ data: new Proxy(ids().data, {}), shape: [2, 4] }),
      { Class: TypeError, message: /^ids\.data must be a typed array/ });
    onModel('parameters a proxy with a key it does not hold', (model) => model.setParameters(new Proxy({}, {
      ownKeys: () => ['embed'], getOwnPropertyDescriptor: () => ({ value: undefined, enumerable: true, configurable: true }),
    })), { Class: TypeError, message: /^parameters\['embed'\] must be a tensor/ });
    const reads = {};
    const counted = (name, target) => new Proxy(target, { get(t, key, r) { reads[`${name}.${String(key)}`] = (reads[`${name}.${String(key)}`] ?? 0) + 1; return Reflect.get(t, key, r); } });
    hostile('createModel options read once each', () => so.createModel(counted('options', { ...config, positions: 'rotary', causal: true })).dispose(),
      { ok: () => assert.ok(Object.values(reads).every((n) => n === 1), JSON.stringify(reads)) });
  });

  test('sizes past 32 bits and 2^53', () => {
    for (const n of [2 ** 31, 2 ** 32, 2 ** 53 - 1]) {
      onModel(`ids of shape (${n}, ${n}) on 8 elements`, (model) => model.forward(ints(new Array(8).fill(0), [n, n])), { Class: RangeError, message: /^ids\.data has 8 elements but shape/ });
      onModel(`ids of shape (0, ${n})`, (model) => model.forward({ data: new Int32Array(0), shape: [0, n] }), { Class: RangeError, message: /^ids must have shape \(B, T\) with B >= 1 and T >= 1/ });
      onModel(`targets of shape (${n}) for 2 sentences`, (model) => model.loss(ids(), { data: new Int32Array(0), shape: [0, n] }), { Class: RangeError, message: /^targets must have shape \(B\) = \[2\]/ });
      hostile(`a model of vocab ${n}`, () => so.createModel({ ...config, vocab: n }), { Class: RangeError, message: /^vocab must be an integer in 1 \.\. 2\^31 - 1|^vocab, width/ });
      hostile(`a model of width ${n}`, () => so.createModel({ ...config, width: n, heads: 1, positions: 'none' }), { Class: RangeError, message: /^vocab, width, layers, maxLength and classes make a model of/ });
      hostile(`orderTask of ${n} sentences`, () => so.orderTask({ count: n, length: 2 }), { Class: RangeError, message: /^ids of count \* length = \d+ tokens would need more than/ });
    }
  });
});

test('100,000 failing calls in a row leave the module working and the heap where it started', () => {
  const x = f32([3, 4]);
  const failing = [
    () => so.positions(4, 7),
    () => so.addPositions(x, { start: -1 }),
    () => so.attention(x, f32([3, 5]), x),
    () => so.embed(f32([2, 4]), { data: Int32Array.of(5), shape: [1] }),
    () => so.positions(2 ** 40, 2 ** 10),
    () => so.rope({ data: x.data, shape: [4, 4] }),
    () => so.addPositions(x, { strat: 1 }),
  ];
  for (let n = 0; n < 100_000; n++) {
    try {
      failing[n % failing.length]();
      assert.fail(`call ${n} did not fail`);
    } catch (error) {
      if (!(error instanceof RangeError || error instanceof TypeError)) throw error;
    }
  }
  cases += 100_000;
  intact('after 100,000 failing calls');
});

test('two instances are independent: one failing does not disturb the other', async () => {
  const other = await loadSeqorder();
  const x = f32([4, 8]);
  const expected = so.attention(x, x, x).data;
  assert.throws(() => other.attention(x, x, f32([3, 8])), RangeError);
  assert.deepEqual(other.attention(x, x, x).data, expected);
  intact('two instances');
});

test('after a trap the instance refuses every call and says why, instead of computing on a broken stack', async () => {
  const { heapRunner } = await import(pathToFileURL(path.resolve(import.meta.dirname, '../../', process.env.SEQORDER_DIST ?? 'dist', 'lib', 'heap.mjs')).href);
  const freed = [];
  const fake = {
    maxTensorBytes: () => 2 ** 30,
    _malloc: () => 16,
    _free: (address) => freed.push(address),
    allocatedBytes: () => 0,
    HEAPU8: new Uint8Array(64),
    trap: () => { throw new WebAssembly.RuntimeError('divide by zero'); },
  };
  const { run, memoryStats } = heapRunner(fake);
  assert.throws(() => run((call) => call.core(fake.trap, {})), (e) => e.constructor === Error && /stopped after an internal error \(divide by zero\)/.test(e.message) && e.cause instanceof WebAssembly.RuntimeError);
  assert.throws(() => run(() => 1), /stopped after an internal error \(divide by zero\).*load a new one with loadSeqorder\(\)/);
  assert.throws(() => memoryStats(), /stopped after an internal error/);
  assert.deepEqual(freed, [], 'nothing is freed into a heap that is no longer trusted');
});

test('count', (t) => {
  t.diagnostic(`${cases} hostile calls, 0 traps (every case, and the run of 100,000 failing calls, followed by a check that the module still computes and the heap is at its baseline)`);
  assert.ok(cases > 100_000);
});
