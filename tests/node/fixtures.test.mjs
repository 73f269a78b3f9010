// The JS API against the numpy reference fixtures (tests/fixtures/*.txt, written by tests/fixtures/make_fixtures.py,
// independent of the code under test), in both dtypes, with the same named tolerances as the native suite.
import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';

import { loadSeqorder } from './helpers/load.mjs';
import { countCases, readFixtures } from '../fixtures/read.mjs';

// --- Tolerances, each with its reason (the same as tests/native) -----------------------------------------------
const TOLERANCE = Object.freeze({
  // float64 table vs numpy: both round t·f_i in float64; libm sin/cos and the fast path's rotation recurrence add a
  // few ulps of the angle (~2e-10 at t = 1e6): the README states 1e-9.
  positionsFloat64: 1e-9,
  // float32 table: the README states 2e-7 (a float32 angle would be off by ~6e-2 at t = 1e6) ...
  positionsFloat32: 2e-7,
  // ... and what "float64 angles, rounded once" really gives: half a float32 ulp of a value in [-1, 1].
  positionsFloat32RoundedOnce: 2 ** -25 + 1e-9,
  // float32 x + positions: the table value rounded once, then the sum rounded once (|sum| < 8 in the fixtures).
  addPositionsFloat32: 2 ** -25 + 2 ** -22 + 1e-9,
  // lookups copy rows: bit for bit (fixture tables hold float32 values exactly).
  copy: 0,
  // attention, every step: the README states these (float64: summation order only; float32: float32 accumulation).
  attentionFloat64: 1e-12,
  attentionFloat32: 2e-5,
});

/** "[1, 2, 3]": the index of flat element `flat` in `shape`. */
function indexString(flat, shape) {
  const index = [];
  for (let axis = shape.length - 1; axis >= 0; axis--) {
    index.unshift(shape[axis] ? flat % shape[axis] : 0);
    flat = shape[axis] ? Math.floor(flat / shape[axis]) : 0;
  }
  return `[${index.join(', ')}]`;
}

/**
 * Every element of `got` within `tolerance` of the fixture `want`; non-finite reference values (the mask's -inf)
 * must match exactly. Returns the worst error (for the record).
 */
function assertClose(what, got, want, tolerance) {
  assert.equal(got.length, want.values.length, `${what}: ${got.length} values, the reference has ${want.values.length}`);
  let worst = -1;
  let worstError = -1;
  for (let i = 0; i < got.length; i++) {
    const expected = want.values[i];
    if (!Number.isFinite(expected)) {
      assert.ok(Object.is(got[i], expected) || (Number.isNaN(expected) && Number.isNaN(got[i])),
        `${what}: element ${indexString(i, want.shape)} must be exactly ${expected}, got ${got[i]}`);
      continue;
    }
    const error = Number.isNaN(got[i]) ? Infinity : Math.abs(got[i] - expected);
    if (error > worstError) {
      worstError = error;
      worst = i;
    }
  }
  if (worst >= 0) {
    assert.ok(worstError <= tolerance,
      `${what}: element ${indexString(worst, want.shape)} is ${got[worst]}, numpy says ${want.values[worst]}: ` +
      `error ${worstError} > tolerance ${tolerance}`);
  }
  return worstError;
}

/** A fixture array as an API tensor of `dtype` (fixture inputs are float32 values, exact in both dtypes). */
function tensorOf(array, dtype) {
  const Type = { float64: Float64Array, float32: Float32Array, int32: Int32Array }[dtype];
  const data = Type.from(array.values);
  if (dtype !== 'float64') assert.deepEqual(Float64Array.from(data), array.values, 'fixture inputs must be exact in ' + dtype);
  return { data, shape: [...array.shape], dtype };
}

const ARRAY_CLASS = { float64: Float64Array, float32: Float32Array };
const DTYPES = ['float64', 'float32'];

let so;
before(async () => {
  so = await loadSeqorder();
});

describe('positions against numpy (widths up to 1024, starts up to 1e6, both layouts)', () => {
  const file = readFixtures('positions.txt');
  const cases = countCases(file, 'positions', 'table');
  test('the fixture file has the cases', () => assert.ok(cases >= 30, `only ${cases} cases`));
  for (let n = 0; n < cases; n++) {
    const [length, width, start, base, layoutCode] = file.get(`positions/${n}/params`).values;
    const layout = layoutCode === 0 ? 'interleaved' : 'halves';
    const want = file.get(`positions/${n}/table`);
    for (const dtype of DTYPES) {
      const what = `positions(${length}, ${width}, { start: ${start}, base: ${base}, layout: '${layout}', dtype: '${dtype}' })`;
      test(what, () => {
        const pe = so.positions(length, width, { start, base, layout, dtype });
        assert.deepEqual(pe.shape, [length, width]);
        assert.equal(pe.dtype, dtype);
        assert.ok(pe.data instanceof ARRAY_CLASS[dtype], `data is a ${pe.data.constructor.name}`);
        if (dtype === 'float64') {
          assertClose(what, pe.data, want, TOLERANCE.positionsFloat64);
        } else {
          assertClose(what, pe.data, want, TOLERANCE.positionsFloat32);
          assertClose(`${what} (rounded once)`, pe.data, want, TOLERANCE.positionsFloat32RoundedOnce);
        }
      });
    }
  }
  test("options.out receives the same table", () => {
    const want = file.get('positions/3/table');
    const [length, width] = want.shape;
    const out = new Float32Array(length * width);
    const pe = so.positions(length, width, { dtype: 'float32', out });
    assert.equal(pe.data, out);
    assertClose('positions into out', out, want, TOLERANCE.positionsFloat32);
  });
});

describe('lookups against numpy: embed, addPositions, learnedPositions', () => {
  const file = readFixtures('lookup.txt');
  const embedCases = countCases(file, 'embed', 'table');
  const addCases = countCases(file, 'add_positions', 'x');
  const learnedCases = countCases(file, 'learned', 'table');
  test('the fixture file has the cases', () => {
    assert.ok(embedCases >= 3 && addCases >= 3 && learnedCases >= 3, `${embedCases}, ${addCases}, ${learnedCases} cases`);
  });

  for (let n = 0; n < embedCases; n++) {
    for (const dtype of DTYPES) {
      const prefix = `embed/${n}`;
      test(`${prefix} ${dtype}: table[ids], bit for bit`, () => {
        const want = file.get(`${prefix}/output`);
        const ids = tensorOf(file.get(`${prefix}/ids`), 'int32');
        const x = so.embed(tensorOf(file.get(`${prefix}/table`), dtype), ids);
        assert.deepEqual(x.shape, want.shape);
        assert.equal(x.dtype, dtype);
        assertClose(`${prefix} ${dtype}`, x.data, want, TOLERANCE.copy);
      });
    }
  }

  for (let n = 0; n < addCases; n++) {
    for (const dtype of DTYPES) {
      const prefix = `add_positions/${n}`;
      const [start, base] = file.get(`${prefix}/params`).values;
      test(`${prefix} ${dtype}: x + positions (start ${start}, base ${base})`, () => {
        const want = file.get(`${prefix}/output`);
        assert.ok(want.values.every((v) => Math.abs(v) < 8), 'the premise of addPositionsFloat32');
        const x = tensorOf(file.get(`${prefix}/x`), dtype);
        const before = x.data.slice();
        const sum = so.addPositions(x, { start, base });
        assert.deepEqual(sum.shape, want.shape);
        assert.equal(sum.dtype, dtype);
        assert.deepEqual(x.data, before, 'the input is left as it was');
        const tolerance = dtype === 'float64' ? TOLERANCE.positionsFloat64 : TOLERANCE.addPositionsFloat32;
        assertClose(`${prefix} ${dtype}`, sum.data, want, tolerance);
      });
    }
  }

  for (let n = 0; n < learnedCases; n++) {
    for (const dtype of DTYPES) {
      const prefix = `learned/${n}`;
      const [length, start] = file.get(`${prefix}/params`).values;
      test(`${prefix} ${dtype}: rows ${start}..${start + length - 1} of the table, bit for bit`, () => {
        const want = file.get(`${prefix}/output`);
        const table = tensorOf(file.get(`${prefix}/table`), dtype);
        const rows = so.learnedPositions(table, length, { start });
        assert.deepEqual(rows.shape, [length, table.shape[1]]);
        assert.equal(rows.dtype, dtype);
        assertClose(`${prefix} ${dtype}`, rows.data, want, TOLERANCE.copy);
      });
    }
  }
});

describe('attention against numpy: every step (causal, queryStart, Tq != Tk, batch > 1, no batch axis)', () => {
  const file = readFixtures('attention.txt');
  const cases = countCases(file, 'attention', 'q');
  test('the fixture file has the cases', () => assert.ok(cases >= 10, `only ${cases} cases`));
  for (let n = 0; n < cases; n++) {
    const prefix = `attention/${n}`;
    const [causalCode, queryStartCode] = file.get(`${prefix}/options`).values;
    const options = { causal: causalCode === 1 };
    if (queryStartCode >= 0) options.queryStart = queryStartCode;
    for (const dtype of DTYPES) {
      const q = tensorOf(file.get(`${prefix}/q`), dtype);
      const k = tensorOf(file.get(`${prefix}/k`), dtype);
      const v = tensorOf(file.get(`${prefix}/v`), dtype);
      const what = `${prefix} ${dtype} q [${q.shape}] k [${k.shape}] v [${v.shape}] ${JSON.stringify(options)}`;
      test(what, () => {
        const tolerance = dtype === 'float64' ? TOLERANCE.attentionFloat64 : TOLERANCE.attentionFloat32;
        const steps = so.attention(q, k, v, { ...options, steps: true });
        for (const step of ['scores', 'scaled', 'weights', 'output']) {
          const want = file.get(`${prefix}/${step}`);
          assert.deepEqual(steps[step].shape, want.shape, `${what}: shape of ${step}`);
          assert.equal(steps[step].dtype, dtype);
          assert.ok(steps[step].data instanceof ARRAY_CLASS[dtype]);
          assertClose(`${what}: ${step}`, steps[step].data, want, tolerance);
        }
        // Without steps the output alone may take a faster path (fused float32 kernel): it answers to numpy too.
        const output = so.attention(q, k, v, options);
        const want = file.get(`${prefix}/output`);
        assert.deepEqual(output.shape, want.shape);
        assert.equal(output.dtype, dtype);
        assertClose(`${what}: output without steps`, output.data, want, tolerance);
      });
    }
  }
});
