// The next lesson's parts through the public API (matmul, softmax, splitHeads, mergeHeads): values against the numpy
// fixtures (tests/fixtures/parts.txt, checked against PyTorch when written) in both dtypes, softmax against
// attention's own weights, the rule for a row with nothing to attend to, the heads split and merged back, a
// projection with heads end to end, and `out` (used as the result, left as it was by a failed call). Their errors:
// errors.test.mjs.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';

import { loadMainModule } from './helpers/load.mjs';
import { random, uniformTensor } from './helpers/random.mjs';
import { countCases, readFixtures } from '../fixtures/read.mjs';

const so = await loadMainModule();
const parts = readFixtures('parts.txt');
const ARRAY = { float64: Float64Array, float32: Float32Array };
const EPS = { float64: 2 ** -52, float32: 2 ** -23 };

/** A fixture array as an input tensor of `dtype` (the fixtures' inputs are float32 values: exact in both). */
const input = (name, dtype) => {
  const { shape, values } = parts.get(name);
  return { data: ARRAY[dtype].from(values), shape: [...shape], dtype };
};

/** Whether a and b hold the same bits (NaN counting as equal to NaN). */
const same = (a, b) => a.length === b.length && a.every((x, i) => Object.is(x, b[i]) || (Number.isNaN(x) && Number.isNaN(b[i])));

/** For each result matrix of a (.., M, K) · b (.., K, N), the flat matrix index of a's and of b's (numpy's broadcast). */
function operandMatrices(aShape, bShape, shape) {
  const lead = shape.length - 2;
  const matrices = shape.slice(0, lead).reduce((p, d) => p * d, 1);
  return Array.from({ length: matrices }, (_, matrix) => {
    let rest = matrix;
    let fromA = 0, fromB = 0, strideA = 1, strideB = 1;
    for (let axis = lead - 1; axis >= 0; axis--) {
      const i = rest % shape[axis];
      rest = Math.floor(rest / shape[axis]);
      const back = lead - axis;
      const da = back <= aShape.length - 2 ? aShape.at(-2 - back) : 1;
      const db = back <= bShape.length - 2 ? bShape.at(-2 - back) : 1;
      fromA += (da === 1 ? 0 : i) * strideA;
      fromB += (db === 1 ? 0 : i) * strideB;
      strideA *= da;
      strideB *= db;
    }
    return [fromA, fromB];
  });
}

describe('matmul', () => {
  for (const dtype of ['float64', 'float32']) {
    test(`${dtype}: numpy's matmul within the bound of a sum of K products, 2 γ_K Σ|a b|`, () => {
      const cases = countCases(parts, 'matmul', 'a');
      assert.ok(cases >= 8);
      for (let n = 0; n < cases; n++) {
        const a = input(`matmul/${n}/a`, dtype);
        const b = input(`matmul/${n}/b`, dtype);
        const want = parts.get(`matmul/${n}/output`);
        const got = so.matmul(a, b);
        const what = `matmul/${n} ${dtype} ${JSON.stringify(a.shape)} @ ${JSON.stringify(b.shape)}`;
        assert.deepEqual(got.shape, want.shape, what);
        assert.equal(got.dtype, dtype);
        assert.ok(got.data instanceof ARRAY[dtype]);
        const [M, K] = a.shape.slice(-2);
        const N = b.shape.at(-1);
        const u = EPS[dtype] / 2;
        const gamma = (K * u) / (1 - K * u);
        for (const [matrix, [fromA, fromB]] of operandMatrices(a.shape, b.shape, want.shape).entries()) {
          for (let i = 0; i < M; i++) {
            for (let j = 0; j < N; j++) {
              let magnitude = 0;
              for (let k = 0; k < K; k++) magnitude += Math.abs(a.data[(fromA * M + i) * K + k] * b.data[(fromB * K + k) * N + j]);
              const at = (matrix * M + i) * N + j;
              assert.ok(Math.abs(got.data[at] - want.values[at]) <= 2 * gamma * magnitude,
                `${what}: element ${at} is ${got.data[at]}, numpy says ${want.values[at]}`);
            }
          }
        }
      }
    });
  }

  test('random shapes, leading axes broadcast: the bits of each sum from 0 in order of k (plain JS, rounded as the dtype)', () => {
    const next = random(46);
    const size = (max) => Math.floor(next() * (max + 1));
    let checked = 0;
    for (let n = 0; n < 60; n++) {
      const dtype = n % 2 ? 'float32' : 'float64';
      const round = dtype === 'float32' ? Math.fround : (x) => x;
      // up to three leading axes each, aligned from the right; each pair equal, or one of them 1 (or missing)
      const lead = Array.from({ length: size(3) }, () => 1 + size(2));
      const aLead = lead.slice(size(lead.length)).map((d) => (next() < 0.3 ? 1 : d));
      const bLead = lead.slice(size(lead.length)).map((d) => (next() < 0.3 ? 1 : d));
      const [M, K, N] = [1 + size(4), size(9), 1 + size(4)];
      const a = uniformTensor([...aLead, M, K], dtype, 100 + n);
      const b = uniformTensor([...bLead, K, N], dtype, 200 + n);
      const got = so.matmul(a, b);
      const rank = Math.max(aLead.length, bLead.length);
      const pad = (axes) => [...Array(rank - axes.length).fill(1), ...axes];
      const shape = pad(aLead).map((d, i) => Math.max(d, pad(bLead)[i]));
      assert.deepEqual(got.shape, [...shape, M, N], `${JSON.stringify(a.shape)} @ ${JSON.stringify(b.shape)}`);
      const want = new (dtype === 'float32' ? Float32Array : Float64Array)(got.data.length);
      for (const [matrix, [fromA, fromB]] of operandMatrices(a.shape, b.shape, got.shape).entries())
        for (let i = 0; i < M; i++)
          for (let j = 0; j < N; j++) {
            let sum = 0;
            for (let k = 0; k < K; k++) sum = round(sum + round(a.data[(fromA * M + i) * K + k] * b.data[(fromB * K + k) * N + j]));
            want[(matrix * M + i) * N + j] = sum;
          }
      assert.ok(same(got.data, want), `${dtype} ${JSON.stringify(a.shape)} @ ${JSON.stringify(b.shape)}: not the ordered sums' bits`);
      checked += want.length;
    }
    assert.ok(checked > 1000);
  });

  test('K = 0 gives zeros; a weight without batch axes is broadcast over x\'s, the same bits as each matrix alone', () => {
    assert.deepEqual(so.matmul({ data: new Float64Array(0), shape: [2, 0] }, { data: new Float64Array(0), shape: [0, 3] }).data, new Float64Array(6));
    const x = input('matmul/1/a', 'float32');   // (2, 5, 8)
    const w = input('matmul/1/b', 'float32');   // (8, 8)
    const whole = so.matmul(x, w);
    for (let b = 0; b < 2; b++) {
      const one = so.matmul({ data: x.data.subarray(b * 40, (b + 1) * 40), shape: [5, 8] }, w);
      assert.ok(same(whole.data.subarray(b * 40, (b + 1) * 40), one.data), `batch ${b}`);
    }
  });
});

describe('softmax', () => {
  for (const dtype of ['float64', 'float32']) {
    test(`${dtype}: numpy's, with attention's causal mask; hidden keys and rows with nothing to attend to exactly 0`, () => {
      const cases = countCases(parts, 'softmax', 'x');
      assert.ok(cases >= 8);
      // exp within an ulp or so of e^x, a sum of Tk <= 7 terms below 1 each, one division: a few ulps of 1
      const tolerance = 8 * 7 * EPS[dtype];
      for (let n = 0; n < cases; n++) {
        const [causal, queryStart] = parts.get(`softmax/${n}/options`).values;
        const options = causal ? { causal: true, ...(queryStart >= 0 ? { queryStart } : {}) } : {};
        const x = input(`softmax/${n}/x`, dtype);
        const want = parts.get(`softmax/${n}/output`);
        const got = so.softmax(x, options);
        const what = `softmax/${n} ${dtype} ${JSON.stringify(x.shape)} ${JSON.stringify(options)}`;
        assert.deepEqual(got.shape, want.shape, what);
        for (let i = 0; i < want.values.length; i++) {
          if (want.values[i] === 0) assert.ok(Object.is(got.data[i], 0), `${what}: element ${i} must be exactly 0, got ${got.data[i]}`);
          assert.ok(Math.abs(got.data[i] - want.values[i]) <= tolerance, `${what}: element ${i} is ${got.data[i]}, numpy says ${want.values[i]}`);
        }
      }
    });

    test(`${dtype}: softmax of attention's scaled scores is attention's weights, bit for bit`, () => {
      const attention = readFixtures('attention.txt');
      const cases = countCases(attention, 'attention', 'q');
      for (let n = 0; n < cases; n++) {
        const tensor = (name) => {
          const { shape, values } = attention.get(`attention/${n}/${name}`);
          return { data: ARRAY[dtype].from(values), shape: [...shape] };
        };
        const [causal, queryStart] = attention.get(`attention/${n}/options`).values;
        const mask = causal ? { causal: true, ...(queryStart >= 0 ? { queryStart } : {}) } : {};
        const { scaled, weights } = so.attention(tensor('q'), tensor('k'), tensor('v'), { ...mask, steps: true });
        assert.ok(same(so.softmax(scaled).data, weights.data), `attention/${n}: softmax(scaled)`);
        assert.ok(same(so.softmax(scaled, mask).data, weights.data), `attention/${n}: softmax(scaled, mask)`);
      }
    });
  }

  test('a row whose visible entries are all −∞ is zeros; a NaN or +∞ among them gives NaN; hidden entries do not count', () => {
    const x = { data: Float64Array.of(-Infinity, -Infinity, -Infinity, -Infinity, NaN, -Infinity, 1, Infinity, 2, 0, NaN, 1), shape: [4, 3] };
    const w = so.softmax(x).data;
    assert.ok(same(w.subarray(0, 3), new Float64Array(3)), 'all -inf: zeros');
    assert.ok(w.subarray(3).every(Number.isNaN), 'a NaN or +inf: NaN');
    const y = { data: Float32Array.of(-Infinity, NaN, NaN, 1, -Infinity, Infinity, 2, 2, 2), shape: [3, 3] };
    assert.ok(same(so.softmax(y, { causal: true, queryStart: 0 }).data, Float32Array.of(0, 0, 0, 1, 0, 0, 1 / 3, 1 / 3, 1 / 3)));
    assert.deepEqual(so.softmax({ data: new Float32Array(0), shape: [4, 0] }).shape, [4, 0]);
  });
});

describe('splitHeads and mergeHeads', () => {
  for (const dtype of ['float64', 'float32']) {
    test(`${dtype}: numpy's reshape and transpose, bit for bit; mergeHeads gives x back`, () => {
      const cases = countCases(parts, 'heads', 'x');
      assert.ok(cases >= 5);
      for (let n = 0; n < cases; n++) {
        const x = input(`heads/${n}/x`, dtype);
        const [heads] = parts.get(`heads/${n}/params`).values;
        const want = parts.get(`heads/${n}/split`);
        const split = so.splitHeads(x, heads);
        assert.deepEqual(split.shape, want.shape, `heads/${n}`);
        assert.ok(same(split.data, ARRAY[dtype].from(want.values)), `heads/${n}: split`);
        const merged = so.mergeHeads(split);
        assert.deepEqual(merged.shape, x.shape);
        assert.ok(same(merged.data, x.data), `heads/${n}: merged back`);
      }
    });
  }

  test('a projection with heads, end to end: x · W, split, attention, merged: (B, T, D) again', () => {
    const x = input('matmul/1/a', 'float32');   // (2, 5, 8)
    const w = input('matmul/1/b', 'float32');   // (8, 8)
    const q = so.splitHeads(so.matmul(x, w), 2);
    assert.deepEqual(q.shape, [2, 2, 5, 4]);
    const y = so.mergeHeads(so.attention(q, q, q, { causal: true }));
    assert.deepEqual(y.shape, [2, 5, 8]);
    assert.ok(y.data.every(Number.isFinite));
  });
});

test('out: the result is written there and is its data; a failed call leaves out and the inputs as they were', () => {
  const a = input('matmul/0/a', 'float64');
  const b = input('matmul/0/b', 'float64');
  const given = [a.data.slice(), b.data.slice()];
  const out = new Float64Array(15);
  const product = so.matmul(a, b, { out });
  assert.equal(product.data, out);
  assert.ok(same(out, so.matmul(a, b).data));
  const x = { data: Float32Array.from({ length: 24 }, (_, i) => i / 7), shape: [2, 3, 4] };
  const outs = { softmax: new Float32Array(24), splitHeads: new Float32Array(24), mergeHeads: new Float32Array(24) };
  assert.equal(so.softmax(x, { out: outs.softmax }).data, outs.softmax);
  assert.equal(so.splitHeads(x, 2, { out: outs.splitHeads }).data, outs.splitHeads);
  assert.equal(so.mergeHeads(x, { out: outs.mergeHeads }).data, outs.mergeHeads);
  const before = so.memoryStats().allocatedBytes;
  for (const o of Object.values(outs)) o.fill(7);
  out.fill(7);
  const xCopy = x.data.slice();
  assert.throws(() => so.matmul(a, { data: new Float64Array(15), shape: [5, 3] }, { out }), RangeError);
  assert.throws(() => so.softmax(x, { causal: true, queryStart: 5, out: outs.softmax }), RangeError);
  assert.throws(() => so.splitHeads(x, 3, { out: outs.splitHeads }), RangeError);
  assert.throws(() => so.mergeHeads(x, { out: new Float32Array(23) }), RangeError);
  for (const o of [out, ...Object.values(outs)]) assert.ok(o.every((v) => v === 7), 'out as it was');
  assert.ok(same(a.data, given[0]) && same(b.data, given[1]) && same(x.data, xCopy), 'the inputs as they were');
  assert.equal(so.memoryStats().allocatedBytes, before, 'nothing left in the heap');
});
