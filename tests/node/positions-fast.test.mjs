// The WebAssembly build's fast positions (the SIMD rotation recurrence, 8 pairs per strip, re-anchored every 256 rows)
// through the JS API, over tables long enough to cross anchors and widths whose pair count is and is not a multiple of
// the strip: against the independent plain-JS reference (Math.sin/cos of every angle) within its error bound, and the
// float32 table equal to the float64 one rounded once (the SIMD demotion rounds like a C++ cast).
import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadSeqorder } from './helpers/load.mjs';
import * as reference from './helpers/reference.mjs';

const ANCHOR_ROWS = 256;
const LENGTH = 2 * ANCHOR_ROWS + 9;
// 1, 3, 8, 9, 17 and 256 pairs: scalar only, SIMD strips with and without a scalar tail.
const WIDTHS = [2, 6, 16, 18, 34, 512];
const STARTS = [0, 7, 999983, 1_000_000];
const LAYOUTS = ['interleaved', 'halves'];

let so;
before(async () => {
  so = await loadSeqorder();
});

/** Index, error and bound of the element farthest outside (or nearest to) its bound. */
function worst(got, want) {
  let at = 0;
  let ratio = -1;
  for (let j = 0; j < got.length; j++) {
    const r = Math.abs(got[j] - want.data[j]) / want.bound[j];
    if (!(r <= ratio)) {
      ratio = r;
      at = j;
    }
  }
  return { at, ratio, error: Math.abs(got[at] - want.data[at]), bound: want.bound[at] };
}

describe('positions: the fast WebAssembly kernel', () => {
  for (const layout of LAYOUTS) {
    for (const dtype of ['float64', 'float32']) {
      test(`${dtype}, ${layout}: ${LENGTH} rows (three anchor blocks) within the reference's bound`, () => {
        for (const width of WIDTHS) {
          for (const start of STARTS) {
            const got = so.positions(LENGTH, width, { start, dtype, layout });
            const want = reference.positions(LENGTH, width, { start, dtype, layout });
            const w = worst(got.data, want);
            assert.ok(w.ratio <= 1,
              `width ${width}, start ${start}: element ${w.at} (row ${Math.floor(w.at / width)}) off by ${w.error}, bound ${w.bound}`);
          }
        }
      });
    }
    test(`${layout}: the float32 table is the float64 table rounded once, element for element`, () => {
      for (const width of WIDTHS) {
        for (const start of [0, 1_000_000]) {
          const f64 = so.positions(LENGTH, width, { start, layout }).data;
          const f32 = so.positions(LENGTH, width, { start, layout, dtype: 'float32' }).data;
          const rounded = Float32Array.from(f64);
          const first = f32.findIndex((x, j) => !Object.is(x, rounded[j]));
          assert.equal(first, -1, `width ${width}, start ${start}: first difference at ${first}`);
        }
      }
    });
  }

  test('anchor rows do not depend on the length asked for: a table is a prefix of a longer one', () => {
    const long = so.positions(LENGTH, 34, { start: 12345 }).data;
    for (const length of [1, ANCHOR_ROWS - 1, ANCHOR_ROWS, ANCHOR_ROWS + 1]) {
      const short = so.positions(length, 34, { start: 12345 }).data;
      assert.deepEqual(short, long.subarray(0, short.length), `length ${length}`);
    }
  });
});

// A table into `out` larger than the core's piece (calls.hpp: plan_positions, 1 MiB of rows) is computed piece by piece,
// each starting on an anchor row: the same bits as the table computed at once, and the same errors as one call.
describe('positions into out, in pieces', () => {
  const bits = (data) => new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  for (const dtype of ['float64', 'float32']) {
    test(`${dtype}: the same bits as one table, whatever the length, start and layout`, () => {
      const Class = dtype === 'float32' ? Float32Array : Float64Array;
      for (const [length, width, start, layout] of [[2048, 512, 0, 'interleaved'], [1300, 512, 999983, 'halves'],
        [513, 1024, 7, 'interleaved'], [4096, 96, 3, 'interleaved']]) {
        const whole = so.positions(length, width, { dtype, start, layout });
        const out = new Class(length * width).fill(NaN);
        const result = so.positions(length, width, { dtype, start, layout, out });
        assert.equal(result.data, out);
        assert.deepEqual(result.shape, [length, width]);
        assert.equal(result.dtype, dtype);
        assert.deepEqual(bits(out), bits(whole.data), `${length} x ${width}, start ${start}, ${layout}`);
      }
    });
  }
  test('the whole call\'s rules come first, and nothing stays allocated', () => {
    const before = so.memoryStats().allocatedBytes;
    assert.throws(() => so.positions(2048, 512, { dtype: 'float32', out: new Float32Array(2048 * 512 - 1) }),
      { name: 'RangeError', message: /^out must have exactly 1048576 elements for this result, got 1048575/ });
    assert.throws(() => so.positions(4096, 512, { start: 2 ** 53 - 100, out: new Float64Array(4096 * 512) }),
      { name: 'RangeError', message: /^start \+ length must be at most 2\^53/ });
    so.positions(2048, 512, { dtype: 'float32', out: new Float32Array(2048 * 512) });
    assert.equal(so.memoryStats().allocatedBytes, before);
  });
});
