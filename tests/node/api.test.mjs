// The public JS API through the built package: results, dtypes, shapes and the lesson's properties of positions and
// attention. Values are compared with the independent plain-JS reference (reference.mjs) or with exact identities;
// the numpy fixture comparisons live in fixtures.test.mjs.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { loadSeqorder } from './helpers/load.mjs';
import * as reference from './helpers/reference.mjs';
import { uniformTensor } from './helpers/random.mjs';

const so = await loadSeqorder();

const ARRAYS = { float64: Float64Array, float32: Float32Array, int32: Int32Array };
const tensor = (shape, dtype = 'float64', seed = 1) => uniformTensor(shape, dtype, seed);
const rows = (t, first, count = 1) => {
  const width = t.shape[t.shape.length - 1];
  return t.data.slice(first * width, (first + count) * width);
};
const maxAbsDiff = (a, b) => {
  assert.equal(a.length, b.length);
  let m = 0;
  for (let n = 0; n < a.length; n++) m = Math.max(m, Math.abs(a[n] - b[n]));
  return m;
};
const agrees = (got, want) => assert.equal(reference.difference(got, want), '');
const TOLERANCE = { float64: 1e-12, float32: 2e-6 };

describe('positions', () => {
  test('shape, dtype and a JS-owned array of the dtype', () => {
    for (const dtype of ['float64', 'float32']) {
      const p = so.positions(7, 10, { dtype });
      assert.deepEqual(p.shape, [7, 10]);
      assert.equal(p.dtype, dtype);
      assert.ok(p.data instanceof ARRAYS[dtype]);
      assert.equal(p.data.length, 70);
      assert.equal(p.data.buffer.byteLength, p.data.byteLength, 'its own buffer, not a view into the heap');
    }
    assert.equal(so.positions(2, 4).dtype, 'float64', 'float64 is the default');
  });

  test('the lesson layout: column 2i = sin(t f_i), column 2i+1 = cos(t f_i), f_i = base^(-2i/D)', () => {
    const p = so.positions(3, 4);
    const f1 = 10000 ** (-2 / 4);
    const want = [0, 1, 0, 1, Math.sin(1), Math.cos(1), Math.sin(f1), Math.cos(f1), Math.sin(2), Math.cos(2), Math.sin(2 * f1), Math.cos(2 * f1)];
    assert.ok(maxAbsDiff(p.data, want) < 1e-15);
  });

  test('position 0 is (0, 1, 0, 1, ...) exactly, for every width and dtype', () => {
    for (const width of [2, 4, 6, 64, 1024]) {
      for (const dtype of ['float64', 'float32']) {
        const p = so.positions(1, width, { dtype });
        assert.deepEqual(Array.from(p.data), Array.from({ length: width }, (_, c) => c % 2));
      }
    }
  });

  test('squared norm of every row is D/2', () => {
    for (const width of [2, 8, 128, 512]) {
      for (const start of [0, 1000, 1e6]) {
        for (const dtype of ['float64', 'float32']) {
          const p = so.positions(40, width, { start, dtype });
          for (let r = 0; r < 40; r++) {
            let norm = 0;
            for (const x of rows(p, r)) norm += x * x;
            assert.ok(Math.abs(norm - width / 2) <= (dtype === 'float64' ? 1e-12 : 2e-7) * width,
              `width ${width} start ${start} ${dtype} row ${r}: ${norm}`);
          }
        }
      }
    }
  });

  test('start offset: the rows for start = s are rows s... of the table from 0', () => {
    const full = so.positions(60, 32);
    for (const start of [1, 10, 15, 16, 17, 33]) {
      const part = so.positions(60 - start, 32, { start });
      assert.ok(maxAbsDiff(part.data, rows(full, start, 60 - start)) < 1e-12, `start ${start}`);
    }
    const far = so.positions(5, 16, { start: 1e6 });
    const farFull = so.positions(1e6 + 5, 16);
    assert.ok(maxAbsDiff(far.data, rows(farFull, 1e6, 5)) < 1e-9);
  });

  test('matches the plain-JS reference for widths up to 1024 and starts up to 10^6 (and a far start)', () => {
    for (const width of [2, 6, 64, 1024]) {
      for (const start of [0, 17, 12345, 1e6, 2 ** 40]) {
        for (const dtype of ['float64', 'float32']) {
          for (const base of [10000, 2.5]) {
            const options = { start, dtype, base };
            agrees(so.positions(33, width, options), reference.positions(33, width, options));
          }
        }
      }
    }
  });

  test('float32 is the float64 table rounded once (within half an ulp of values < 1, plus the float64 error)', () => {
    for (const start of [0, 1e5, 1e6]) {
      const p64 = so.positions(50, 256, { start });
      const p32 = so.positions(50, 256, { start, dtype: 'float32' });
      assert.ok(maxAbsDiff(p32.data, p64.data) <= 2 ** -25 + 1e-9, `start ${start}`);
    }
  });

  test("layout 'halves' holds the same numbers, columns permuted: sines first, then cosines", () => {
    for (const dtype of ['float64', 'float32']) {
      const a = so.positions(20, 12, { start: 5, dtype });
      const b = so.positions(20, 12, { start: 5, dtype, layout: 'halves' });
      for (let r = 0; r < 20; r++) {
        for (let i = 0; i < 6; i++) {
          assert.equal(b.data[r * 12 + i], a.data[r * 12 + 2 * i]);
          assert.equal(b.data[r * 12 + 6 + i], a.data[r * 12 + 2 * i + 1]);
        }
      }
    }
  });

  test('base: a different base gives the reference table of that base', () => {
    const p = so.positions(9, 8, { base: 100 });
    agrees(p, reference.positions(9, 8, { base: 100 }));
    assert.ok(maxAbsDiff(p.data, so.positions(9, 8).data) > 0.01, 'the base matters');
  });

  test('length 0 gives an empty (0, D) table', () => {
    const p = so.positions(0, 6);
    assert.deepEqual(p.shape, [0, 6]);
    assert.equal(p.data.length, 0);
  });

  test('out: the result is written into the given array, which is returned as data', () => {
    const out = new Float32Array(24);
    const p = so.positions(4, 6, { dtype: 'float32', out });
    assert.equal(p.data, out);
    assert.deepEqual(Array.from(out), Array.from(so.positions(4, 6, { dtype: 'float32' }).data));
  });

  test('undefined options take their defaults', () => {
    const a = so.positions(5, 8, { start: undefined, base: undefined, dtype: undefined, layout: undefined, out: undefined });
    assert.deepEqual(a, so.positions(5, 8));
  });
});

describe('embed', () => {
  const table = tensor([5, 4], 'float64', 3);

  test('ids (T) -> (T, D): row ids[t] of the table, exactly', () => {
    const ids = { data: Int32Array.of(3, 0, 3, 4), shape: [4], dtype: 'int32' };
    const e = so.embed(table, ids);
    assert.deepEqual(e.shape, [4, 4]);
    assert.equal(e.dtype, 'float64');
    [3, 0, 3, 4].forEach((id, t) => assert.deepEqual(Array.from(rows(e, t)), Array.from(rows(table, id))));
    agrees(e, reference.embed(table, ids));
  });

  test('ids (B, T) -> (B, T, D); dtype follows the table; ids dtype may be left out', () => {
    const t32 = tensor([6, 2], 'float32', 4);
    const ids = { data: Int32Array.of(5, 1, 0, 2, 2, 5), shape: [2, 3] };
    const e = so.embed(t32, ids);
    assert.deepEqual(e.shape, [2, 3, 2]);
    assert.equal(e.dtype, 'float32');
    assert.ok(e.data instanceof Float32Array);
    agrees(e, reference.embed(t32, { ...ids, dtype: 'int32' }));
  });

  test('the lookup does not know where: the same token gives the same vector at every position', () => {
    const e = so.embed(table, { data: Int32Array.of(2, 1, 2), shape: [3] });
    assert.deepEqual(rows(e, 0), rows(e, 2));
  });

  test('empty ids give an empty result; NaN, infinities and -0 in the table are copied as they are', () => {
    assert.deepEqual(so.embed(table, { data: new Int32Array(0), shape: [0] }).shape, [0, 4]);
    assert.deepEqual(so.embed(table, { data: new Int32Array(0), shape: [3, 0] }).shape, [3, 0, 4]);
    const special = { data: Float64Array.of(NaN, -0, Infinity, -Infinity), shape: [2, 2] };
    const e = so.embed(special, { data: Int32Array.of(1, 0), shape: [2] });
    assert.deepEqual(Array.from(e.data), [Infinity, -Infinity, NaN, -0]);
    assert.ok(Object.is(e.data[3], -0));
  });

  test('a table given as a subarray of a larger buffer is read from its own offset', () => {
    const backing = new Float64Array(30).map((_, n) => n);
    const view = { data: backing.subarray(10, 20), shape: [5, 2] };
    const e = so.embed(view, { data: Int32Array.of(0, 4), shape: [2] });
    assert.deepEqual(Array.from(e.data), [10, 11, 18, 19]);
  });
});

describe('addPositions', () => {
  test('x + positions broadcast over the batch, exactly as adding the positions() table in the dtype', () => {
    for (const dtype of ['float64', 'float32']) {
      for (const start of [0, 3, 1e6]) {
        const x = tensor([3, 10, 8], dtype, 7);
        const y = so.addPositions(x, { start });
        assert.deepEqual(y.shape, [3, 10, 8]);
        assert.equal(y.dtype, dtype);
        assert.ok(y.data instanceof ARRAYS[dtype]);
        const p = so.positions(10, 8, { start, dtype });
        const round = dtype === 'float32' ? Math.fround : (z) => z;
        for (let n = 0; n < x.data.length; n++) assert.equal(y.data[n], round(x.data[n] + p.data[n % 80]), `element ${n}`);
        agrees(y, reference.addPositions(x, { start }));
      }
    }
  });

  test('(T, D) works like a batch of one, and the input is left unchanged', () => {
    const x = tensor([6, 4], 'float64', 8);
    const copy = x.data.slice();
    const y = so.addPositions(x, { start: 2 });
    assert.deepEqual(y.shape, [6, 4]);
    assert.deepEqual(x.data, copy);
    const batched = so.addPositions({ data: x.data, shape: [1, 6, 4] }, { start: 2 });
    assert.deepEqual(batched.data, y.data);
  });

  test('the robot example: the same token vector at position 0 and position 3 becomes two different inputs', () => {
    const robot = Float64Array.from({ length: 8 }, (_, n) => n / 8);
    const x = { data: new Float64Array(32), shape: [4, 8] };
    for (let t = 0; t < 4; t++) x.data.set(robot, t * 8);
    const y = so.addPositions(x);
    const pe = so.positions(4, 8);
    assert.deepEqual(Array.from(rows(y, 0)), Array.from(robot, (r, c) => r + pe.data[c]));
    assert.ok(maxAbsDiff(rows(y, 0), rows(y, 3)) > 0.5);
  });

  test('base option, empty sequences and out', () => {
    const x = tensor([2, 5, 6], 'float64', 9);
    agrees(so.addPositions(x, { base: 50, start: 4 }), reference.addPositions(x, { base: 50, start: 4 }));
    assert.deepEqual(so.addPositions({ data: new Float64Array(0), shape: [0, 4] }).shape, [0, 4]);
    assert.deepEqual(so.addPositions({ data: new Float32Array(0), shape: [3, 0, 4] }).shape, [3, 0, 4]);
    const out = new Float64Array(60);
    assert.equal(so.addPositions(x, { out }).data, out);
    assert.deepEqual(out, so.addPositions(x).data);
  });
});

describe('learnedPositions', () => {
  test('rows start .. start+length-1 of the table, exactly, in its dtype', () => {
    for (const dtype of ['float64', 'float32']) {
      const table = tensor([12, 6], dtype, 11);
      for (const [length, start] of [[12, 0], [4, 0], [4, 8], [1, 11], [0, 12], [0, 0]]) {
        const l = so.learnedPositions(table, length, { start });
        assert.deepEqual(l.shape, [length, 6]);
        assert.equal(l.dtype, dtype);
        assert.deepEqual(l.data, rows(table, start, length));
        agrees(l, reference.learnedPositions(table, length, { start }));
      }
      assert.deepEqual(so.learnedPositions(table, 3).data, rows(table, 0, 3), 'start defaults to 0');
    }
  });
});

describe('attention', () => {
  const shapes = [
    { B: 0, Tq: 3, Tk: 3, D: 4, Dv: 4 },
    { B: 1, Tq: 4, Tk: 4, D: 8, Dv: 8 },
    { B: 2, Tq: 3, Tk: 5, D: 4, Dv: 6 },
    { B: 3, Tq: 1, Tk: 7, D: 16, Dv: 2 },
    { B: 2, Tq: 6, Tk: 6, D: 1, Dv: 3 },
  ];
  const qkv = ({ B, Tq, Tk, D, Dv }, dtype, seed) => {
    const lead = B ? [B] : [];
    return [tensor([...lead, Tq, D], dtype, seed), tensor([...lead, Tk, D], dtype, seed + 1), tensor([...lead, Tk, Dv], dtype, seed + 2)];
  };
  const masks = (Tq, Tk) => [{}, { causal: true }, ...Array.from({ length: Tk - Tq + 1 }, (_, s) => ({ causal: true, queryStart: s }))];

  test('shapes and dtypes of the output and of every step, unbatched and batched', () => {
    for (const s of shapes) {
      for (const dtype of ['float64', 'float32']) {
        const [q, k, v] = qkv(s, dtype, 20);
        const lead = s.B ? [s.B] : [];
        const output = so.attention(q, k, v);
        assert.deepEqual(output.shape, [...lead, s.Tq, s.Dv]);
        assert.equal(output.dtype, dtype);
        assert.ok(output.data instanceof ARRAYS[dtype]);
        const steps = so.attention(q, k, v, { steps: true });
        assert.deepEqual(Object.keys(steps).sort(), ['output', 'scaled', 'scores', 'weights']);
        for (const name of ['scores', 'scaled', 'weights']) {
          assert.deepEqual(steps[name].shape, [...lead, s.Tq, s.Tk]);
          assert.equal(steps[name].dtype, dtype);
          assert.ok(steps[name].data instanceof ARRAYS[dtype]);
        }
        // without steps a faster path may run (float32: the fused kernel): the same output up to rounding
        assert.equal(reference.difference(output, reference.attention(q, k, v).output), '', 'output without steps');
      }
    }
  });

  test('every step matches the plain-JS reference, with and without causal masks and offsets', () => {
    let seed = 100;
    for (const s of shapes) {
      for (const dtype of ['float64', 'float32']) {
        for (const mask of masks(s.Tq, s.Tk)) {
          const [q, k, v] = qkv(s, dtype, seed++);
          const got = so.attention(q, k, v, { ...mask, steps: true });
          const want = reference.attention(q, k, v, mask);
          for (const step of ['scores', 'scaled', 'weights', 'output'])
            assert.equal(reference.difference(got[step], want[step]), '', `${JSON.stringify(s)} ${dtype} ${JSON.stringify(mask)} ${step}`);
          assert.equal(reference.difference(so.attention(q, k, v, mask), want.output), '', `${JSON.stringify(s)} ${dtype} ${JSON.stringify(mask)} output without steps`);
        }
      }
    }
  });

  test('scaled = scores / sqrt(D), exactly (one rounding in the dtype)', () => {
    for (const dtype of ['float64', 'float32']) {
      const [q, k, v] = qkv({ B: 2, Tq: 3, Tk: 4, D: 5, Dv: 2 }, dtype, 30);
      const { scores, scaled } = so.attention(q, k, v, { steps: true });
      const round = dtype === 'float32' ? Math.fround : (z) => z;
      const sqrtD = round(Math.sqrt(5));
      scores.data.forEach((x, n) => assert.equal(scaled.data[n], round(x / sqrtD)));
    }
  });

  test('rows of weights sum to 1; masked weights are exactly 0 and their scaled scores -Infinity', () => {
    for (const dtype of ['float64', 'float32']) {
      const [q, k, v] = qkv({ B: 2, Tq: 4, Tk: 7, D: 6, Dv: 3 }, dtype, 40);
      for (const mask of masks(4, 7)) {
        const { weights, scaled } = so.attention(q, k, v, { ...mask, steps: true });
        const start = mask.queryStart ?? 3;
        for (let row = 0; row < 8; row++) {
          const i = row % 4;
          let sum = 0;
          for (let j = 0; j < 7; j++) {
            const w = weights.data[row * 7 + j];
            sum += w;
            const hidden = mask.causal && j > start + i;
            if (hidden) {
              assert.ok(Object.is(w, 0), `masked weight (${i}, ${j}) is ${w}`);
              assert.equal(scaled.data[row * 7 + j], -Infinity);
            } else {
              assert.ok(w > 0 && Number.isFinite(scaled.data[row * 7 + j]));
            }
          }
          assert.ok(Math.abs(sum - 1) <= 8 * reference.UNIT_ROUNDOFF[dtype] * 7, `${dtype} row ${row} sums to ${sum}`);
        }
      }
    }
  });

  test('softmax subtracts the row maximum: huge scores give finite weights (one-hot), not NaN', () => {
    const q = { data: Float64Array.of(1e3, 0), shape: [1, 2] };
    const k = { data: Float64Array.of(1e3, 0, -1e3, 0, 500, 0), shape: [3, 2] };
    const v = { data: Float64Array.of(1, 2, 3), shape: [3, 1] };
    const { weights, output } = so.attention(q, k, v, { steps: true });
    assert.deepEqual(Array.from(weights.data), [1, 0, 0]);
    assert.deepEqual(Array.from(output.data), [1]);
  });

  test('without positions and masks, attention is permutation-equivariant (not invariant)', () => {
    const x = tensor([5, 4], 'float64', 50);
    const permutation = [3, 0, 4, 1, 2];
    const permuted = { data: new Float64Array(20), shape: [5, 4] };
    permutation.forEach((from, to) => permuted.data.set(rows(x, from), to * 4));
    const out = so.attention(x, x, x);
    const outPermuted = so.attention(permuted, permuted, permuted);
    let expected = new Float64Array(20);
    permutation.forEach((from, to) => expected.set(rows(out, from), to * 4));
    assert.ok(maxAbsDiff(outPermuted.data, expected) < 1e-14, 'outputs follow the reordering');
    assert.ok(maxAbsDiff(outPermuted.data, out.data) > 1e-3, 'outputs are not unchanged');
    // moving keys and values together (queries fixed) does not change the output at all
    const moved = so.attention(x, permuted, permuted);
    assert.ok(maxAbsDiff(moved.data, out.data) < 1e-14);
    // adding positions breaks the equivariance
    const px = so.addPositions(x);
    const pPermuted = so.addPositions(permuted);
    const outP = so.attention(px, px, px);
    expected = new Float64Array(20);
    permutation.forEach((from, to) => expected.set(rows(outP, from), to * 4));
    assert.ok(maxAbsDiff(so.attention(pPermuted, pPermuted, pPermuted).data, expected) > 1e-3);
  });

  test('causal: a later token never changes an earlier output (prefix invariance, exact)', () => {
    for (const dtype of ['float64', 'float32']) {
      const x = tensor([2, 8, 6], dtype, 60);
      const changed = { ...x, data: x.data.slice() };
      for (let b = 0; b < 2; b++) for (let n = 5 * 6; n < 8 * 6; n++) changed.data[b * 48 + n] += 10; // tokens 5..7
      const a = so.attention(x, x, x, { causal: true });
      const c = so.attention(changed, changed, changed, { causal: true });
      for (let b = 0; b < 2; b++) {
        assert.deepEqual(a.data.slice(b * 48, b * 48 + 30), c.data.slice(b * 48, b * 48 + 30), 'tokens 0..4 unchanged');
        assert.ok(maxAbsDiff(a.data.slice(b * 48 + 30, b * 48 + 48), c.data.slice(b * 48 + 30, b * 48 + 48)) > 1e-3);
      }
      // and the prefix alone gives the same outputs
      const prefix = { data: x.data.slice(0, 30), shape: [5, 6], dtype };
      assert.deepEqual(so.attention(prefix, prefix, prefix, { causal: true }).data, a.data.slice(0, 30));
    }
  });

  test('causal: a NaN or an infinity in a later token never reaches an earlier output (with steps or without)', () => {
    for (const dtype of ['float64', 'float32']) {
      for (const bad of [NaN, Infinity, -Infinity]) {
        for (const [Tq, Tk] of [[2, 3], [5, 5], [9, 12]]) {
          const q = tensor([Tq, 4], dtype, 61);
          const k = tensor([Tk, 4], dtype, 62);
          const v = tensor([Tk, 3], dtype, 63);
          const last = Tk - 1; // seen only by the last query (queryStart = Tk - Tq)
          const spoiled = (t) => { const data = t.data.slice(); data.fill(bad, last * t.shape[1]); return { ...t, data }; };
          for (const steps of [false, true]) {
            const clean = so.attention(q, k, v, { causal: true, steps });
            for (const [name, args] of [['k', [q, spoiled(k), v]], ['v', [q, k, spoiled(v)]]]) {
              const got = so.attention(...args, { causal: true, steps });
              const [a, b] = steps ? [clean.output.data, got.output.data] : [clean.data, got.data];
              assert.deepEqual(b.slice(0, (Tq - 1) * 3), a.slice(0, (Tq - 1) * 3), `${dtype} ${bad} in ${name} (${Tq}, ${Tk}) steps ${steps}`);
            }
          }
        }
      }
    }
  });

  test('a causal permutation does not commute with attention', () => {
    const x = tensor([5, 4], 'float64', 70);
    const permutation = [4, 3, 2, 1, 0];
    const permuted = { data: new Float64Array(20), shape: [5, 4] };
    permutation.forEach((from, to) => permuted.data.set(rows(x, from), to * 4));
    const out = so.attention(x, x, x, { causal: true });
    const expected = new Float64Array(20);
    permutation.forEach((from, to) => expected.set(rows(out, from), to * 4));
    assert.ok(maxAbsDiff(so.attention(permuted, permuted, permuted, { causal: true }).data, expected) > 1e-3);
  });

  test('queryStart places query i at position queryStart + i; the default is Tk - Tq', () => {
    const [q, k, v] = qkv({ B: 0, Tq: 2, Tk: 5, D: 4, Dv: 3 }, 'float64', 80);
    assert.deepEqual(so.attention(q, k, v, { causal: true }), so.attention(q, k, v, { causal: true, queryStart: 3 }));
    // queryStart = 0: query i sees keys 0..i, as if the keys stopped at Tq (masked keys add exactly nothing)
    const k2 = { data: k.data.slice(0, 8), shape: [2, 4] };
    const v2 = { data: v.data.slice(0, 6), shape: [2, 3] };
    assert.deepEqual(so.attention(q, k, v, { causal: true, queryStart: 0 }).data, so.attention(q, k2, v2, { causal: true }).data);
    // top-left alignment (queryStart 0) and bottom-right (Tk - Tq) differ: the silent bug the option makes explicit
    assert.ok(maxAbsDiff(so.attention(q, k, v, { causal: true, queryStart: 0 }).data, so.attention(q, k, v, { causal: true }).data) > 1e-3);
  });

  test('incremental generation: new tokens against the cached prefix with start and queryStart = full recompute', () => {
    for (const dtype of ['float64', 'float32']) {
      const tokens = tensor([9, 8], dtype, 90);
      const full = so.addPositions(tokens);
      const fullOut = so.attention(full, full, full, { causal: true });
      for (const cached of [1, 4, 7]) {
        const fresh = { data: tokens.data.slice(cached * 8), shape: [9 - cached, 8], dtype };
        const freshX = so.addPositions(fresh, { start: cached });
        const keys = { data: new ARRAYS[dtype](72), shape: [9, 8], dtype };
        keys.data.set(full.data.slice(0, cached * 8));
        keys.data.set(freshX.data, cached * 8);
        const incremental = so.attention(freshX, keys, keys, { causal: true, queryStart: cached });
        assert.ok(maxAbsDiff(incremental.data, rows(fullOut, cached, 9 - cached)) < TOLERANCE[dtype], `${dtype} cached ${cached}`);
        // restarting the new tokens' positions at 0 does not give the same outputs
        const wrongX = so.addPositions(fresh);
        const wrongKeys = { data: keys.data.slice(), shape: [9, 8], dtype };
        wrongKeys.data.set(wrongX.data, cached * 8);
        const wrong = so.attention(wrongX, wrongKeys, wrongKeys, { causal: true, queryStart: cached });
        assert.ok(maxAbsDiff(wrong.data, rows(fullOut, cached, 9 - cached)) > 1e-3);
      }
    }
  });

  test('a batch is independent sequences: each equals the unbatched call, exactly', () => {
    const [q, k, v] = qkv({ B: 3, Tq: 2, Tk: 4, D: 4, Dv: 5 }, 'float32', 95);
    const batched = so.attention(q, k, v, { causal: true, steps: true });
    for (let b = 0; b < 3; b++) {
      const one = so.attention(
        { data: q.data.slice(b * 8, b * 8 + 8), shape: [2, 4], dtype: 'float32' },
        { data: k.data.slice(b * 16, b * 16 + 16), shape: [4, 4], dtype: 'float32' },
        { data: v.data.slice(b * 20, b * 20 + 20), shape: [4, 5], dtype: 'float32' },
        { causal: true, steps: true });
      assert.deepEqual(one.weights.data, batched.weights.data.slice(b * 8, b * 8 + 8));
      assert.deepEqual(one.output.data, batched.output.data.slice(b * 10, b * 10 + 10));
    }
  });

  test('Tk = 0: every row has nothing to attend to and its output is zeros (not NaN); Tq = 0 and Dv = 0 are empty', () => {
    const q = tensor([2, 3, 4], 'float64', 1);
    const empty = { data: new Float64Array(0), shape: [2, 0, 4] };
    const out = so.attention(q, empty, { data: new Float64Array(0), shape: [2, 0, 5] }, { steps: true });
    assert.deepEqual(out.output.shape, [2, 3, 5]);
    assert.ok(out.output.data.every((x) => Object.is(x, 0)));
    assert.deepEqual(out.weights.shape, [2, 3, 0]);
    const none = so.attention({ data: new Float64Array(0), shape: [0, 4] }, tensor([3, 4]), tensor([3, 2]), { causal: true });
    assert.deepEqual(none.shape, [0, 2]);
    assert.deepEqual(so.attention(tensor([2, 4]), tensor([3, 4]), { data: new Float64Array(0), shape: [3, 0] }).shape, [2, 0]);
  });

  test('out: the output is written into the given array', () => {
    const [q, k, v] = qkv({ B: 2, Tq: 3, Tk: 3, D: 2, Dv: 2 }, 'float32', 5);
    const out = new Float32Array(12);
    const r = so.attention(q, k, v, { causal: true, steps: true, out });
    assert.equal(r.output.data, out);
    assert.deepEqual(out, so.attention(q, k, v, { causal: true, steps: true }).output.data);
    const out2 = new Float32Array(12);
    assert.equal(so.attention(q, k, v, { causal: true, out: out2 }).data, out2);
    assert.deepEqual(out2, so.attention(q, k, v, { causal: true }).data);
  });
});

describe('rope', () => {
  test('matches the plain-JS reference, both dtypes, with start and base', () => {
    for (const dtype of ['float64', 'float32']) {
      for (const options of [{}, { start: 7 }, { start: 1e6, base: 500 }]) {
        const x = tensor([2, 9, 8], dtype, 120);
        const y = so.rope(x, options);
        assert.deepEqual(y.shape, [2, 9, 8]);
        assert.equal(y.dtype, dtype);
        agrees(y, reference.rope(x, options));
      }
    }
  });

  test('position 0 is the identity and every row keeps its pairs\' norms', () => {
    const x = tensor([6, 8], 'float64', 121);
    const y = so.rope(x);
    assert.deepEqual(rows(y, 0), rows(x, 0));
    for (let n = 0; n < 48; n += 2) {
      const before = Math.hypot(x.data[n], x.data[n + 1]);
      assert.ok(Math.abs(Math.hypot(y.data[n], y.data[n + 1]) - before) < 1e-14);
    }
  });

  test('after rotating q and k, q_m . k_n depends only on the offset m - n', () => {
    const one = tensor([1, 16], 'float64', 122);
    const kOne = tensor([1, 16], 'float64', 123);
    const repeat = (t) => ({ data: Float64Array.from({ length: 12 * 16 }, (_, n) => t.data[n % 16]), shape: [12, 16] });
    const q = so.rope(repeat(one));
    const k = so.rope(repeat(kOne));
    const dot = (m, n) => rows(q, m).reduce((s, a, d) => s + a * rows(k, n)[d], 0);
    for (const offset of [-3, 0, 2, 5])
      for (let m = Math.max(0, offset); m < Math.min(12, 12 + offset); m++)
        assert.ok(Math.abs(dot(m, m - offset) - dot(Math.max(0, offset), Math.max(0, offset) - offset)) < 1e-12);
  });
});

test('memoryStats reports the heap as numbers', () => {
  const stats = so.memoryStats();
  assert.deepEqual(Object.keys(stats).sort(), ['allocatedBytes', 'heapBytes']);
  assert.ok(Number.isInteger(stats.allocatedBytes) && stats.allocatedBytes >= 0);
  assert.ok(Number.isInteger(stats.heapBytes) && stats.heapBytes >= 16 * 2 ** 20);
});

test('the API object is frozen and every loadSeqorder() is an independent instance', async () => {
  assert.ok(Object.isFrozen(so));
  const other = await loadSeqorder();
  assert.notEqual(other, so);
  assert.deepEqual(other.positions(3, 4), so.positions(3, 4));
});
