// The fused float32 attention (src/core/attention_fast.cpp), which the WebAssembly module runs with SIMD128 whenever
// a float32 attention asks for no steps, against the API's own reference paths: float32 with steps: true (the
// readable reference, same dtype) and float64 (the truth for these float32 inputs). The native Catch2 suite runs the
// same blocked algorithm with plain floats; this file is where the SIMD instructions themselves are checked.
//
// Tolerances (the reasoning is in tests/native/test_attention_fast.cpp): with M = max over (i, j) of
// sum_d |q_id k_jd| / sqrt(D) and outputs measured against max|v|,
//   |fast - float64| <= 2e-6 · max|v| · max(1, M)    and    |fast - float32 reference| <= 1e-6 · max|v|.
//
// The long-context test (causal, T = 16384, D = 64) runs by default: it takes a few seconds of CPU.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { loadSeqorder } from './helpers/load.mjs';
import { float32, random } from './helpers/random.mjs';
import { as64, maxAbs, maxDiff, scoreMagnitude } from './helpers/attention-error.mjs';

const so = await loadSeqorder();

/** One case through the fast path and both references; returns the measured errors. */
function check({ B, Tq, Tk, D, Dv, causal = false, queryStart, scale = 1, batched = true }, seed) {
  const lead = batched ? [B] : [];
  const q = float32([...lead, Tq, D], seed, scale), k = float32([...lead, Tk, D], seed + 1, scale);
  const v = float32([...lead, Tk, Dv], seed + 2);
  const options = queryStart === undefined ? { causal } : { causal, queryStart };
  const label = JSON.stringify({ B, Tq, Tk, D, Dv, causal, queryStart, scale, batched });

  const fast = so.attention(q, k, v, options);
  const reference32 = so.attention(q, k, v, { ...options, steps: true }).output;
  const reference64 = so.attention(as64(q), as64(k), as64(v), options);
  assert.deepEqual(fast.shape, [...lead, Tq, Dv], label);
  assert.equal(fast.dtype, 'float32', label);
  assert.ok(fast.data instanceof Float32Array, label);

  const vmax = Math.max(maxAbs(v.data), 1e-30);
  const M = scoreMagnitude(q, k, batched ? B : 1, Tq, Tk, D);
  const error = maxDiff(fast.data, reference64.data), difference32 = maxDiff(fast.data, reference32.data);
  assert.ok(error <= 2e-6 * vmax * Math.max(1, M), `${label}: |fast - float64| = ${error} > 2e-6 · ${vmax} · max(1, ${M})`);
  assert.ok(difference32 <= 1e-6 * vmax, `${label}: |fast - float32 reference| = ${difference32} > 1e-6 · ${vmax}`);
  return { error: error / vmax, difference32: difference32 / vmax };
}

describe('fast float32 attention (SIMD128) equals the reference paths', () => {
  test('widths D and Dv that are not multiples of 4 or 8 (1, 3, 5, 17, 64, 65)', () => {
    let seed = 10;
    for (const D of [1, 3, 5, 17, 64, 65])
      for (const Dv of [1, 3, 5, 17, 64, 65]) {
        check({ B: 1, Tq: 7, Tk: 7, D, Dv }, (seed += 3));
        check({ B: 2, Tq: 5, Tk: 19, D, Dv }, (seed += 3));
        check({ B: 3, Tq: 9, Tk: 9, D, Dv, causal: true }, (seed += 3));
      }
  });

  test('odd lengths, Tq != Tk, batch > 1, and the unbatched (T, D) form', () => {
    let seed = 500;
    for (const Tq of [1, 2, 3, 4, 5, 8, 9, 31, 33])
      for (const Tk of [1, 2, 7, 8, 9, 16, 17, 40]) {
        check({ B: 2, Tq, Tk, D: 17, Dv: 9 }, (seed += 3));
        if (Tk >= Tq) check({ B: 1, Tq, Tk, D: 17, Dv: 9, causal: true, batched: false }, (seed += 3));
      }
  });

  test('causal attention for every queryStart', () => {
    let seed = 900;
    for (const [Tq, Tk] of [[1, 1], [1, 13], [4, 12], [5, 5], [6, 23], [13, 40], [40, 40]])
      for (let start = 0; start <= Tk - Tq; start += Math.max(1, Math.floor((Tk - Tq) / 5)))
        check({ B: 2, Tq, Tk, D: 5, Dv: 11, causal: true, queryStart: start }, (seed += 3));
  });

  test('peaky softmaxes: q and k scaled up to 30', () => {
    let seed = 1300;
    for (const scale of [3, 8, 30]) {
      check({ B: 2, Tq: 33, Tk: 33, D: 64, Dv: 64, scale }, (seed += 3));
      check({ B: 2, Tq: 33, Tk: 33, D: 64, Dv: 64, causal: true, scale }, (seed += 3));
      check({ B: 1, Tq: 10, Tk: 57, D: 5, Dv: 3, causal: true, queryStart: 20, scale }, (seed += 3));
    }
  });

  test('a random sweep of 120 shapes', () => {
    const next = random(20240607);
    const pick = (lo, hi) => lo + Math.floor(next() * (hi - lo + 1));
    let worst = { error: 0, difference32: 0 };
    for (let n = 0; n < 120; n++) {
      const causal = pick(0, 1) === 1;
      const Tq = pick(1, 70);
      const c = { B: pick(1, 3), Tq, Tk: causal ? Tq + pick(0, 60) : pick(1, 130), D: pick(1, 70), Dv: pick(1, 70), causal };
      if (causal && pick(0, 1) === 1) c.queryStart = pick(0, c.Tk - c.Tq);
      c.scale = pick(0, 3) === 0 ? 6 : 1;
      const e = check(c, 3000 + 3 * n);
      worst = { error: Math.max(worst.error, e.error), difference32: Math.max(worst.difference32, e.difference32) };
    }
    if (process.env.SEQORDER_REPORT_ERRORS) console.log('attention fast path, worst / max|v|:', JSON.stringify(worst));
  });

  test('longer rows: T = 300, several key panels and row groups', () => {
    check({ B: 1, Tq: 300, Tk: 300, D: 64, Dv: 64 }, 7001);
    check({ B: 1, Tq: 300, Tk: 300, D: 64, Dv: 64, causal: true }, 7002);
    check({ B: 1, Tq: 100, Tk: 300, D: 64, Dv: 40, causal: true, queryStart: 150 }, 7003);
  });

  test('Tk = 0: nothing to attend to, zeros (as the reference); Tq = 0: an empty output', () => {
    const out = so.attention(float32([2, 3, 5], 1), float32([2, 0, 5], 2), float32([2, 0, 4], 3));
    assert.deepEqual(out.shape, [2, 3, 4]);
    assert.deepEqual([...out.data], new Array(24).fill(0));
    const empty = so.attention(float32([0, 5], 4), float32([3, 5], 5), float32([3, 2], 6), { causal: true });
    assert.deepEqual(empty.shape, [0, 2]);
    assert.equal(empty.data.length, 0);
  });

  test('float32 without steps takes the fast path (its e^x rounds differently from the reference)', () => {
    const q = float32([64, 32], 41), k = float32([64, 32], 42), v = float32([64, 32], 43);
    const fast = so.attention(q, k, v).data, reference32 = so.attention(q, k, v, { steps: true }).output.data;
    let differing = 0;
    for (let n = 0; n < fast.length; n++) if (fast[n] !== reference32[n]) differing++;
    assert.ok(differing > 0, 'the no-steps float32 output is bit-identical to the reference: is the fast path wired in?');
  });

  test('hidden keys never reach an output: a NaN or infinite later value leaves earlier causal rows unchanged', () => {
    const T = 21, D = 6, Dv = 7;
    const q = float32([T, D], 51, 3), k = float32([T, D], 52, 3), v = float32([T, Dv], 53);
    const before = so.attention(q, k, v, { causal: true });
    const changed = { ...v, data: v.data.slice() };
    for (let e = 0; e < Dv; e++) changed.data[13 * Dv + e] = e % 2 ? NaN : Infinity;  // key 13
    const after = so.attention(q, k, changed, { causal: true });
    assert.deepEqual([...after.data.subarray(0, 13 * Dv)], [...before.data.subarray(0, 13 * Dv)]);
    assert.ok(after.data.subarray(13 * Dv).some(Number.isNaN), 'rows 13.. see key 13');
  });
});

test('long context: causal attention over 16384 tokens (D = 64, float32) in O(T·D) memory', () => {
  // A (T, T) float32 matrix would be 1 GiB: the fused path must stay far below that.
  const T = 16384, D = 64;
  const q = float32([T, D], 61), k = float32([T, D], 62), v = float32([T, D], 63);
  globalThis.gc?.();
  const rssBefore = process.memoryUsage().rss;
  const start = performance.now();
  const out = so.attention(q, k, v, { causal: true });
  const seconds = (performance.now() - start) / 1e3;
  const grown = process.memoryUsage().rss - rssBefore;
  const mib = grown / 2 ** 20;
  if (process.env.SEQORDER_REPORT_ERRORS) console.log(`long context: ${seconds.toFixed(2)} s, resident memory +${mib.toFixed(1)} MiB`);
  assert.deepEqual(out.shape, [T, D]);
  assert.ok(mib < 200, `resident memory grew by ${mib.toFixed(1)} MiB (must stay well under 200 MiB)`);

  // Spot checks against a float64 computation in plain JS: rows on either side of the 4-row groups, first and last.
  for (const i of [0, 1, 2, 3, 4, 5, 1001, 8191, 8192, T - 2, T - 1]) {
    const scores = new Float64Array(i + 1);
    let max = -Infinity, magnitude = 0;
    for (let j = 0; j <= i; j++) {
      let s = 0, m = 0;
      for (let d = 0; d < D; d++) {
        s += q.data[i * D + d] * k.data[j * D + d];
        m += Math.abs(q.data[i * D + d] * k.data[j * D + d]);
      }
      scores[j] = s / Math.sqrt(D);
      max = Math.max(max, scores[j]);
      magnitude = Math.max(magnitude, m / Math.sqrt(D));
    }
    let sum = 0;
    for (let j = 0; j <= i; j++) sum += (scores[j] = Math.exp(scores[j] - max));
    for (let e = 0; e < D; e++) {
      let o = 0;
      for (let j = 0; j <= i; j++) o += (scores[j] / sum) * v.data[j * D + e];
      const error = Math.abs(out.data[i * D + e] - o);
      assert.ok(error <= 2e-6 * Math.max(1, magnitude), `row ${i}, column ${e}: ${out.data[i * D + e]} vs ${o}`);
    }
  }
});
