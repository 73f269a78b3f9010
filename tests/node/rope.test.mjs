// so.rope (rotary positions) and the 'halves' layout through the public API of the built package: numpy fixtures,
// the defining properties, every error path, and no heap growth.
import test from 'node:test';
import assert from 'node:assert/strict';
import { loadSeqorder } from './helpers/load.mjs';
import { readFixtures } from '../fixtures/read.mjs';

const so = await loadSeqorder();
// Regenerate: /usr/bin/python3 tests/fixtures/make_rope_fixtures.py
const fixtures = readFixtures('rope.txt');

function maxAbsDiff(a, b) {
  assert.equal(a.length, b.length);
  let max = 0;
  for (let i = 0; i < a.length; i++) max = Math.max(max, Math.abs(a[i] - b[i]));
  return max;
}

/** A seeded uniform [-1, 1) tensor (a small LCG: the same numbers on every run). */
function randomTensor(shape, seed, dtype = 'float64') {
  const count = shape.reduce((a, b) => a * b, 1);
  const data = new (dtype === 'float32' ? Float32Array : Float64Array)(count);
  let state = seed >>> 0;
  for (let i = 0; i < count; i++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    data[i] = (state / 2 ** 32) * 2 - 1;
  }
  return { data, shape, dtype };
}

/** Dot products of every row of a (T, D) with every row of b (T, D) → (T, T) as nested arrays. */
function scores(a, b) {
  const [length, width] = a.shape;
  return Array.from({ length }, (_, m) => Array.from({ length }, (_, n) => {
    let dot = 0;
    for (let d = 0; d < width; d++) dot += a.data[m * width + d] * b.data[n * width + d];
    return dot;
  }));
}

function maxDiagonalChange(s) {
  let max = 0;
  for (let m = 1; m < s.length; m++) for (let n = 1; n < s.length; n++) max = Math.max(max, Math.abs(s[m][n] - s[m - 1][n - 1]));
  return max;
}

/** The same vector at every one of `length` positions → (length, D). */
function repeated(vector, length) {
  const width = vector.length;
  const data = new Float64Array(length * width);
  for (let t = 0; t < length; t++) data.set(vector, t * width);
  return { data, shape: [length, width], dtype: 'float64' };
}

test('rope matches numpy (complex multiplication by exp(j t f_i)) in float64', () => {
  for (const name of ['small', 'batched', 'far']) {
    const x = fixtures.get(`rope/${name}/x`);
    const [start, base] = fixtures.get(`rope/${name}/params`).values;
    const expected = fixtures.get(`rope/${name}/out`);
    const out = so.rope({ data: x.values, shape: x.shape, dtype: 'float64' }, { start, base });
    assert.deepEqual(out.shape, x.shape);
    assert.equal(out.dtype, 'float64');
    assert.ok(out.data instanceof Float64Array);
    // Angles t·f_i may differ by a few ulps between numpy and the core: ~1e-15 near 0, ~2e-10 at t = 1e6.
    const tolerance = 1e-15 + 8 * (start + x.shape.at(-2)) * Number.EPSILON;
    const error = maxAbsDiff(out.data, expected.values);
    assert.ok(error <= tolerance, `${name}: max |error| ${error} > ${tolerance}`);
  }
});

test('rope in float32: the float64 rotation rounded once (within one float32 ulp of numpy)', () => {
  const x = fixtures.get('rope/single32/x');
  const [start] = fixtures.get('rope/single32/params').values;
  const expected = fixtures.get('rope/single32/out');
  const out = so.rope({ data: Float32Array.from(x.values), shape: x.shape, dtype: 'float32' }, { start });
  assert.equal(out.dtype, 'float32');
  assert.ok(out.data instanceof Float32Array);
  for (let i = 0; i < out.data.length; i++) {
    const ulp = 2 ** (Math.floor(Math.log2(Math.abs(expected.values[i]) || 2 ** -126)) - 23);
    assert.ok(Math.abs(out.data[i] - expected.values[i]) <= ulp, `element ${i}: ${out.data[i]} vs ${expected.values[i]}`);
  }
});

test('after rope, q_m · k_n depends only on m − n; after adding sinusoids it does not', () => {
  const q0 = randomTensor([16], 1).data;
  const k0 = randomTensor([16], 2).data;
  const q = repeated(q0, 40);
  const k = repeated(k0, 40);
  for (const start of [0, 100000]) {
    const change = maxDiagonalChange(scores(so.rope(q, { start }), so.rope(k, { start })));
    assert.ok(change < 1e-11, `start ${start}: max change along a diagonal ${change}`);
  }
  const added = maxDiagonalChange(scores(so.addPositions(q), so.addPositions(k)));
  assert.ok(added > 0.1, `added sinusoids: max change along a diagonal ${added}`);
});

test('rope keeps every pair\'s length, leaves position 0 alone, and rows for start = s are rows s… from 0', () => {
  const x = randomTensor([3, 20, 8], 3);
  const out = so.rope(x, { start: 12345 });
  for (let j = 0; j < x.data.length; j += 2) {
    const before = Math.hypot(x.data[j], x.data[j + 1]);
    const after = Math.hypot(out.data[j], out.data[j + 1]);
    assert.ok(Math.abs(after - before) <= 8 * Number.EPSILON, `pair at ${j}: ${before} → ${after}`);
  }
  const first = so.rope({ data: x.data.slice(0, 8), shape: [1, 8] });
  assert.deepEqual(first.data, x.data.slice(0, 8));
  const whole = so.rope({ data: x.data.slice(0, 160), shape: [20, 8] });
  const tail = so.rope({ data: x.data.slice(80, 160), shape: [10, 8] }, { start: 10 });
  assert.ok(maxAbsDiff(tail.data, whole.data.slice(80)) < 1e-14);
});

test('rope: batches rotate like single sequences; base changes the speeds; out receives the result', () => {
  const x = randomTensor([2, 5, 6], 4);
  const batched = so.rope(x, { start: 3, base: 100 });
  for (let b = 0; b < 2; b++) {
    const one = so.rope({ data: x.data.slice(b * 30, (b + 1) * 30), shape: [5, 6] }, { start: 3, base: 100 });
    assert.deepEqual(batched.data.slice(b * 30, (b + 1) * 30), one.data);
  }
  assert.ok(maxAbsDiff(so.rope(x, { start: 3 }).data, batched.data) > 1e-3);
  const out = new Float64Array(60);
  const result = so.rope(x, { start: 3, base: 100, out });
  assert.equal(result.data, out);
  assert.deepEqual(out, batched.data);
  assert.deepEqual(x.data, randomTensor([2, 5, 6], 4).data, 'the input is not modified');
});

test("positions layout 'halves' is the interleaved table with its columns permuted", () => {
  for (const [width, start] of [[2, 0], [8, 0], [10, 77], [64, 1000000]]) {
    const interleaved = so.positions(12, width, { start });
    const halves = so.positions(12, width, { start, layout: 'halves' });
    const half = width / 2;
    for (let t = 0; t < 12; t++) {
      for (let i = 0; i < half; i++) {
        assert.equal(halves.data[t * width + i], interleaved.data[t * width + 2 * i]);
        assert.equal(halves.data[t * width + half + i], interleaved.data[t * width + 2 * i + 1]);
      }
    }
  }
});

test('rope: wrong kinds are TypeErrors, wrong values RangeErrors, each naming the argument', () => {
  const x = { data: new Float64Array(8), shape: [2, 4] };
  const cases = [
    [() => so.rope(), TypeError, /^x must be a tensor/],
    [() => so.rope(new Float64Array(8)), TypeError, /^x must be a tensor/],
    [() => so.rope({ data: [1, 2], shape: [1, 2] }), TypeError, /^x\.data must be a typed array/],
    [() => so.rope(x, { start: '1' }), TypeError, /^start must be a number/],
    [() => so.rope(x, { base: '10' }), TypeError, /^base must be a number/],
    [() => so.rope(x, { begin: 1 }), TypeError, /^options: unknown option 'begin'/],
    [() => so.rope(x, 5), TypeError, /^options must be an object/],
    [() => so.rope(x, { out: [0, 0] }), TypeError, /^out must be a typed array/],
    [() => so.rope({ data: new Float64Array(6), shape: [2, 3] }), RangeError, /^x's width D \(its last axis\) must be a positive even integer/],
    [() => so.rope({ data: new Float64Array(0), shape: [2, 0] }), RangeError, /^x's width D/],
    [() => so.rope({ data: new Float64Array(4), shape: [4] }), RangeError, /^x must have shape \(T, D\) or \(\.\., T, D\), got \[4\]/],
    [() => so.rope({ data: new Float64Array(6), shape: [2, 4] }), RangeError, /^x\.data has 6 elements but shape \[2, 4\] needs 8/],
    [() => so.rope({ data: new Int32Array(8), shape: [2, 4], dtype: 'int32' }), RangeError, /^x\.dtype must be 'float64' or 'float32'/],
    [() => so.rope(x, { start: -1 }), RangeError, /^start must be an integer/],
    [() => so.rope(x, { start: 1.5 }), RangeError, /^start must be an integer/],
    [() => so.rope(x, { start: 2 ** 53 - 1 }), RangeError, /^start \+ length must be at most 2\^53/],
    [() => so.rope(x, { base: 0 }), RangeError, /^base must be a finite number greater than 0/],
    [() => so.rope(x, { base: NaN }), RangeError, /^base must be a finite number greater than 0/],
    [() => so.rope(x, { base: Infinity }), RangeError, /^base must be a finite number greater than 0/],
    [() => so.rope(x, { out: new Float32Array(8) }), TypeError, /^out must be a Float64Array/],
    [() => so.rope(x, { out: new Float64Array(9) }), RangeError, /^out must have exactly 8 elements/],
    [() => so.positions(4, 8, { layout: 'sincos' }), RangeError, /^layout must be 'interleaved' or 'halves'/],
  ];
  for (const [call, kind, message] of cases) assert.throws(call, (error) => error instanceof kind && message.test(error.message), `${call}`);
});

test('rope: the module still works after errors, and many calls leave the heap where it was', () => {
  const x = randomTensor([4, 16, 32], 5);
  const expected = so.rope(x, { start: 7 });
  assert.throws(() => so.rope({ data: new Float64Array(6), shape: [2, 3] }), RangeError);
  assert.deepEqual(so.rope(x, { start: 7 }).data, expected.data);
  const before = so.memoryStats().allocatedBytes;
  for (let i = 0; i < 2000; i++) {
    so.rope(x, { start: i });
    if (i % 100 === 0) assert.throws(() => so.rope(x, { base: -1 }), RangeError);
  }
  assert.equal(so.memoryStats().allocatedBytes, before);
});
