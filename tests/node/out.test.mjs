// The zero-copy option `out`: positions(…, { out }) and attention(…, { out }) write into the caller's
// typed array and return a Tensor whose data IS that array, so repeated calls allocate no new array memory. An out of
// the wrong class is a TypeError naming out (as is one that is not a typed array at all), one of the wrong length a
// RangeError; a rejected call leaves out untouched. The other functions that take out behave the same.
import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { loadSeqorder } from './helpers/load.mjs';

// A handle on the garbage collector, so that memory measurements see only live arrays.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc');

let so;
before(async () => {
  so = await loadSeqorder();
});

/** Uniform values in [-1, 1) from a fixed seed (a small linear congruential generator). */
function tensor(shape, dtype = 'float32', seed = 1) {
  const Array = dtype === 'float32' ? Float32Array : Float64Array;
  const data = new Array(shape.reduce((a, b) => a * b, 1));
  let state = seed;
  for (let j = 0; j < data.length; j++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    data[j] = state / 2 ** 31 - 1;
  }
  return { data, shape, dtype };
}

/** Bytes held by live ArrayBuffers (typed arrays' memory, the WebAssembly heap included), after a full collection. */
function liveArrayBytes() {
  collectGarbage();
  return process.memoryUsage().arrayBuffers;
}

const MiB = 2 ** 20;

describe('positions with out', () => {
  test('returns a Tensor whose data is out, equal to the table computed without out, in both dtypes', () => {
    for (const [dtype, Array] of [['float64', Float64Array], ['float32', Float32Array]]) {
      const out = new Array(37 * 18);
      const result = so.positions(37, 18, { start: 5, dtype, out });
      assert.equal(result.data, out, 'result.data === out');
      assert.deepEqual(result.shape, [37, 18]);
      assert.equal(result.dtype, dtype);
      assert.deepEqual(out, so.positions(37, 18, { start: 5, dtype }).data);
    }
  });

  test('repeated calls overwrite the same array, each time with that call\'s table', () => {
    const out = new Float32Array(300 * 64);
    for (const start of [0, 1000, 0, 999983]) {
      assert.equal(so.positions(300, 64, { start, dtype: 'float32', out }).data, out);
      assert.deepEqual(out, so.positions(300, 64, { start, dtype: 'float32' }).data, `start ${start}`);
    }
  });

  test('an out of the wrong class is a TypeError, of the wrong length a RangeError, each naming out; out is left untouched', () => {
    const cases = [
      [new Float64Array(8 * 4), 'float32', TypeError, /^out must be a Float32Array for a 'float32' result/],
      [new Float32Array(8 * 4), 'float64', TypeError, /^out must be a Float64Array for a 'float64' result/],
      [new Int32Array(8 * 4), 'float32', TypeError, /^out must be a typed array \(Float64Array or Float32Array\)/],
      [new Float32Array(8 * 4 - 1), 'float32', RangeError, /^out must have exactly 32 elements/],
      [new Float64Array(8 * 4 + 1), 'float64', RangeError, /^out must have exactly 32 elements/],
      [new Float32Array(0), 'float32', RangeError, /^out must have exactly 32 elements/],
    ];
    for (const [out, dtype, Class, message] of cases) {
      out.fill(7);
      assert.throws(() => so.positions(8, 4, { dtype, out }), (e) => e.constructor === Class && message.test(e.message));
      assert.ok(out.every((x) => x === 7), 'a rejected call writes nothing');
    }
    assert.throws(() => so.positions(8, 4, { out: [...new Float64Array(32)] }), TypeError, 'a plain array is not a typed array');
    assert.throws(() => so.positions(8, 4, { out: new DataView(new ArrayBuffer(256)) }), TypeError);
  });

  test('a call that fails for another reason leaves out untouched', () => {
    const out = new Float64Array(8 * 4).fill(7);
    assert.throws(() => so.positions(8, 4, { start: -1, out }), RangeError);
    assert.ok(out.every((x) => x === 7));
  });

  test('a view into a larger buffer works: only its own elements are written', () => {
    const buffer = new Float32Array(3 * 64).fill(7);
    const out = buffer.subarray(64, 128);
    assert.equal(so.positions(4, 16, { dtype: 'float32', out }).data, out);
    assert.deepEqual(out, so.positions(4, 16, { dtype: 'float32' }).data);
    assert.ok(buffer.subarray(0, 64).every((x) => x === 7) && buffer.subarray(128).every((x) => x === 7));
  });
});

describe('attention with out', () => {
  const q = tensor([2, 5, 8], 'float32', 1);
  const k = tensor([2, 7, 8], 'float32', 2);
  const v = tensor([2, 7, 3], 'float32', 3);

  test('returns the output Tensor whose data is out, equal to the output without out, causal or not', () => {
    for (const causal of [false, true]) {
      const out = new Float32Array(2 * 5 * 3);
      const result = so.attention(q, k, v, { causal, out });
      assert.equal(result.data, out);
      assert.deepEqual(result.shape, [2, 5, 3]);
      assert.deepEqual(out, so.attention(q, k, v, { causal }).data);
    }
  });

  test('with steps: true, the output step\'s data is out and the other steps are fresh arrays', () => {
    const out = new Float32Array(2 * 5 * 3);
    const steps = so.attention(q, k, v, { steps: true, out });
    assert.equal(steps.output.data, out);
    for (const name of ['scores', 'scaled', 'weights']) assert.notEqual(steps[name].data, out);
    assert.deepEqual(out, so.attention(q, k, v, { steps: true }).output.data);
  });

  test('float64 inputs need a Float64Array out (else a TypeError) of (.., Tq, Dv) elements (else a RangeError)', () => {
    const q64 = tensor([5, 8], 'float64', 4);
    const k64 = tensor([7, 8], 'float64', 5);
    const v64 = tensor([7, 3], 'float64', 6);
    assert.equal(so.attention(q64, k64, v64, { out: new Float64Array(15) }).data.length, 15);
    for (const out of [new Float32Array(15), new Float64Array(14), new Float64Array(5 * 7), new Float64Array(16)]) {
      out.fill(7);
      const Class = out instanceof Float32Array ? TypeError : RangeError;
      assert.throws(() => so.attention(q64, k64, v64, { out }), (e) => e.constructor === Class && /^out must/.test(e.message));
      assert.ok(out.every((x) => x === 7));
    }
  });
});

describe('the other functions that take out', () => {
  test('embed, addPositions and learnedPositions return out as their data', () => {
    const table = tensor([10, 6], 'float64', 7);
    const ids = { data: Int32Array.of(3, 1, 4, 1, 5), shape: [5], dtype: 'int32' };
    let out = new Float64Array(5 * 6);
    assert.equal(so.embed(table, ids, { out }).data, out);
    assert.deepEqual(out, so.embed(table, ids).data);
    const x = tensor([2, 3, 6], 'float32', 8);
    out = new Float32Array(2 * 3 * 6);
    assert.equal(so.addPositions(x, { start: 4, out }).data, out);
    assert.deepEqual(out, so.addPositions(x, { start: 4 }).data);
    out = new Float64Array(4 * 6);
    assert.equal(so.learnedPositions(table, 4, { start: 2, out }).data, out);
    assert.deepEqual(out, so.learnedPositions(table, 4, { start: 2 }).data);
  });
});

describe('repeated calls with out allocate no array memory', () => {
  // Each call below would need a fresh 4 MiB (positions) or 1 MiB (attention output) array without out.
  const calls = 25;

  test('positions 2048 x 512 float32: live ArrayBuffer bytes do not grow; without out they grow by a table per call', () => {
    const out = new Float32Array(2048 * 512);
    so.positions(2048, 512, { dtype: 'float32', out });  // first call: the WebAssembly heap may grow once
    const before = liveArrayBytes();
    for (let n = 0; n < calls; n++) so.positions(2048, 512, { dtype: 'float32', start: n, out });
    const withOut = liveArrayBytes() - before;
    assert.ok(withOut < 1 * MiB, `with out, ${calls} calls added ${(withOut / MiB).toFixed(2)} MiB of live arrays`);
    // The measurement has teeth: the same calls without out, their results kept alive, show up.
    const kept = [];
    const start = liveArrayBytes();
    for (let n = 0; n < calls; n++) kept.push(so.positions(2048, 512, { dtype: 'float32', start: n }));
    const withoutOut = liveArrayBytes() - start;
    assert.ok(withoutOut >= calls * 4 * MiB, `without out, ${calls} calls kept ${(withoutOut / MiB).toFixed(1)} MiB`);
    assert.equal(kept.length, calls);
  });

  test('attention 1024 x 64 float32: live ArrayBuffer bytes do not grow', () => {
    const q = tensor([1024, 64], 'float32', 9);
    const k = tensor([1024, 64], 'float32', 10);
    const v = tensor([1024, 256], 'float32', 11);
    const out = new Float32Array(1024 * 256);
    so.attention(q, k, v, { out });
    const before = liveArrayBytes();
    for (let n = 0; n < 5; n++) so.attention(q, k, v, { causal: n % 2 === 1, out });
    const grown = liveArrayBytes() - before;
    assert.ok(grown < 0.5 * MiB, `with out, 5 calls added ${(grown / MiB).toFixed(2)} MiB of live arrays`);
  });
});
