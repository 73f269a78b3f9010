// Measuring a float32 attention against its float64 truth, shared by attention-fast.test.mjs (the SIMD128 fast path)
// and relaxed-calls.mjs (the relaxed-SIMD module); both state their tolerance as 2e-6 · max|v| · max(1, M).
import assert from 'node:assert/strict';

/** The same values as a float64 tensor (exact: every float32 is a float64). */
export const as64 = (t) => ({ data: Float64Array.from(t.data), shape: t.shape, dtype: 'float64' });

/** max |a_n|. */
export const maxAbs = (a) => a.reduce((m, x) => Math.max(m, Math.abs(x)), 0);

/** max |a_n - b_n|, Infinity when any difference is NaN. */
export const maxDiff = (a, b) => {
  assert.equal(a.length, b.length);
  let m = 0;
  for (let n = 0; n < a.length; n++) {
    const d = Math.abs(a[n] - b[n]);
    m = Number.isNaN(d) ? Infinity : Math.max(m, d);
  }
  return m;
};

// M = max over (b, i, j) of sum_d |q_bid k_bjd| / sqrt(D): how much a score's rounding can move the softmax.
// q: (B, Tq, D), k: (B, Tk, D), row-major.
export function scoreMagnitude(q, k, B, Tq, Tk, D) {
  let m = 0;
  for (let b = 0; b < B; b++)
    for (let i = 0; i < Tq; i++)
      for (let j = 0; j < Tk; j++) {
        let s = 0;
        for (let d = 0; d < D; d++) s += Math.abs(q.data[(b * Tq + i) * D + d] * k.data[(b * Tk + j) * D + d]);
        m = Math.max(m, s / Math.sqrt(D));
      }
  return m;
}
