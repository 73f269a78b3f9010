// What the benchmark compares seqorder with, and how it times them: shared by the node benchmark (bench/run.mjs) and
// the page's benchmark worker (web/js/bench-worker.mjs), so both measure the same plain-JS code the same way.
//
// - plainJsAttention, plainJsPositions: the benchmark's plain-JS contender, the straightforward JS a reader would write
//   from the lesson (typed arrays, the obvious loops, Math.exp / Math.sin / Math.cos), the baseline every speed-up is
//   quoted against. (The page's reference formulas, which its checks compare seqorder with, are
//   experiments/reference.mjs; so is maxAbsDiff, which the benchmarks use too.)
// - randomTensor: reproducible inputs.
// - measure: rounds interleaved across contenders (round r runs every contender once, starting from a different one),
//   each sample `reps` calls long, medians per contender: machine noise then hits all contenders alike, and ratios
//   taken within one run are what to compare.
import { median } from './median.mjs';

/** Uniform values in [-1, 1) from `seed` (xorshift32), as a typed array of `count` elements. */
export function randomValues(count, seed = 1, Array = Float32Array) {
  const data = new Array(count);
  let s = seed >>> 0 || 1;
  for (let j = 0; j < count; j++) {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    data[j] = s / 2 ** 31 - 1;
  }
  return data;
}

/** The additive mask of a causal attention graph (T, T): 0 where key j <= query i, -infinity above the diagonal. */
export function additiveCausalMask(T) {
  const mask = new Float32Array(T * T);
  for (let i = 0; i < T; i++) mask.fill(-Infinity, i * T + i + 1, (i + 1) * T);
  return mask;
}

/** A { data, shape, dtype } tensor of random values. */
export function randomTensor(shape, seed = 1, dtype = 'float32') {
  const count = shape.reduce((a, b) => a * b, 1);
  return { data: randomValues(count, seed, dtype === 'float32' ? Float32Array : Float64Array), shape, dtype };
}

/**
 * The bytes of inputs a benchmark with fresh inputs walks through (freshInputSets): twice the L3 cache of the largest
 * core complex of the machines measured, so that a call's inputs come from memory, as a caller's new inputs do, and
 * not from a cache the last calls left them in.
 */
export const FRESH_BYTES = 64 * 2 ** 20;

/**
 * Sets [{ q, k, v, feeds }] of attention inputs (T, D) of random values (float32), as many as `bytes` hold (at least
 * 2): a contender that calls on the next set each time (ring()) reads in each call inputs no call has read for the last
 * `bytes` of them. With `ort` (onnxruntime-web's module), each set's feeds of its attention graphs too (q, k, v, and
 * with `causal` the additive mask, one for every set).
 */
export function freshInputSets(T, D, { bytes = FRESH_BYTES, ort, causal = false } = {}) {
  const count = Math.max(2, Math.ceil(bytes / (3 * T * D * 4)));
  const mask = ort && causal ? new ort.Tensor('float32', additiveCausalMask(T), [T, T]) : undefined;
  return Array.from({ length: count }, (_, s) => {
    const [q, k, v] = [1, 2, 3].map((n) => randomTensor([T, D], 3 * s + n));
    if (!ort) return { q, k, v };
    const feeds = Object.fromEntries(Object.entries({ q, k, v }).map(([name, t]) => [name, new ort.Tensor('float32', t.data, t.shape)]));
    if (mask) feeds.mask = mask;
    return { q, k, v, feeds };
  });
}

/** call(set) on the sets in turn from sets[first] on: () => call(the next set). */
export function ring(sets, call, first = 0) {
  let next = first;
  return () => call(sets[next++ % sets.length]);
}

/**
 * Scaled dot-product attention in plain JS. q: (Tq, D), k: (Tk, D), v: (Tk, Dv) typed arrays, row-major, with Tq =
 * queries, Tk = keys, D = width, Dv = valueWidth -> (Tq, Dv) written into `out` (or a new array of q's class). Causal:
 * query i sees keys 0 .. i + Tk − Tq, the others are skipped (as -inf scores would give them weight 0). Sums in
 * float64, as JS numbers are.
 */
export function plainJsAttention({ q, k, v, queries, keys, width, valueWidth, causal = false, out = undefined }) {
  const output = out ?? new q.constructor(queries * valueWidth);
  const scale = 1 / Math.sqrt(width);
  const weights = new Float64Array(keys);
  const sum = new Float64Array(valueWidth);
  for (let i = 0; i < queries; i++) {
    const seen = causal ? i + keys - queries + 1 : keys;
    const qi = i * width;
    let max = -Infinity;
    for (let j = 0; j < seen; j++) {
      const kj = j * width;
      let dot = 0;
      for (let x = 0; x < width; x++) dot += q[qi + x] * k[kj + x];
      const score = dot * scale;
      weights[j] = score;
      if (score > max) max = score;
    }
    let total = 0;
    for (let j = 0; j < seen; j++) {
      const e = Math.exp(weights[j] - max);
      weights[j] = e;
      total += e;
    }
    sum.fill(0);
    for (let j = 0; j < seen; j++) {
      const w = weights[j];
      const vj = j * valueWidth;
      for (let x = 0; x < valueWidth; x++) sum[x] += w * v[vj + x];
    }
    const oi = i * valueWidth;
    for (let x = 0; x < valueWidth; x++) output[oi + x] = sum[x] / total;
  }
  return output;
}

/**
 * The sinusoidal position table in plain JS: (length, width), column 2i = sin(t f_i), 2i+1 = cos(t f_i),
 * f_i = base^(−2i/width) computed once, t = start .. start + length − 1; into `out` or a new array of `Array`.
 */
export function plainJsPositions(length, width, { start = 0, base = 10000, Array = Float64Array, out } = {}) {
  const table = out ?? new Array(length * width);
  const half = width / 2;
  const frequency = new Float64Array(half);
  for (let i = 0; i < half; i++) frequency[i] = Math.pow(base, (-2 * i) / width);
  for (let r = 0; r < length; r++) {
    const t = start + r;
    const row = r * width;
    for (let i = 0; i < half; i++) {
      const angle = t * frequency[i];
      table[row + 2 * i] = Math.sin(angle);
      table[row + 2 * i + 1] = Math.cos(angle);
    }
  }
  return table;
}

/**
 * How many times faster `fast` ran than `slow` (two of measure()'s results): the median over rounds of slow's time /
 * fast's time in that round. Each round times every contender back to back, so pairing them by round lets a slow
 * spell of a shared machine hit both sides of each ratio alike (a ratio of the two medians would pair samples taken
 * at different moments).
 */
export function speedup(fast, slow) {
  const n = Math.min(fast?.samples.length ?? 0, slow?.samples.length ?? 0);
  return n > 0 ? median(Array.from({ length: n }, (_, i) => slow.samples[i] / fast.samples[i])) : NaN;
}

/** Wall-clock seconds spent in f (awaited: f may be async). The node benchmark passes a CPU-time clock instead. */
export async function wallSeconds(f) {
  const t0 = performance.now();
  await f();
  return (performance.now() - t0) / 1000;
}

// A clock may step in whole milliseconds (Firefox and WebKit coarsen performance.now() on pages that are not
// cross-origin isolated), so a time is trusted only when it spans at least MIN_SAMPLE_SECONDS: a single fast call
// would read 0 (or one step) and its sample's reps would be chosen wrong.
const MIN_SAMPLE_SECONDS = 0.005;
const MAX_REPS = 2 ** 20;
// A caller's reading of one call (`once`) is taken as it is only when it is this long: a pause (a collection, a
// compile) can make one fast call read as several milliseconds, and reps chosen from it would then be far too few.
const TRUSTED_ONCE_SECONDS = 0.1;

/** Seconds per call of run, timed over 1, 2, 4, … calls until they span MIN_SAMPLE_SECONDS. */
async function secondsPerCall(run, time) {
  for (let n = 1; ; n *= 2) {
    const seconds = await time(async () => {
      for (let i = 0; i < n; i++) await run();
    });
    if (seconds >= MIN_SAMPLE_SECONDS || n >= MAX_REPS) return seconds / n;
  }
}

/**
 * Times contenders against each other. contenders: [{ name, run: () => any (or a promise), once?, rounds? }], each
 * already called at least once at this size (so its memory is grown and its code compiled); `once` is the seconds of
 * one call if known (used when it is at least TRUSTED_ONCE_SECONDS, else measured over several calls). Each sample is
 * `reps` calls, reps chosen so that a sample lasts about `sampleSeconds` (at least MIN_SAMPLE_SECONDS; a sample that
 * reads less than half that is taken again with twice the reps); `rounds` rounds interleaved, round r starting from
 * contender r (a contender's own, smaller `rounds` stops it early: for very slow ones). Returns [{ name, seconds (median per call), samples, reps }]. onSample(done, total) reports
 * progress; `pause`, if given, is awaited between samples (the page's worker uses it to stay responsive). `warm`
 * untimed calls start each sample: then a sample times the steady state (threads awake, caches and pages warm), not
 * the first call after a pause, whose extra cost would otherwise weigh more the fewer calls a sample holds. `cpu`, if
 * given (an async function: the CPU seconds spent so far by every thread), is read around each sample too: each result
 * then has cpuSamples, the CPU seconds per call of each round.
 */
export async function measure(contenders, { rounds = 5, sampleSeconds = 0.05, time = wallSeconds, onSample, pause, warm = 0, cpu } = {}) {
  const runs = [];
  const sample = Math.max(sampleSeconds, MIN_SAMPLE_SECONDS);
  for (const c of contenders) {
    const once = c.once >= TRUSTED_ONCE_SECONDS ? c.once : await secondsPerCall(c.run, time);
    const ownRounds = Math.max(1, Math.min(rounds, c.rounds ?? rounds));
    const reps = Math.min(MAX_REPS, Math.max(1, Math.round(sample / Math.max(once, 1e-9))));
    runs.push({ ...c, reps, rounds: ownRounds, samples: [], cpuSamples: [] });
  }
  const total = runs.reduce((n, r) => n + r.rounds, 0);
  let done = 0;
  for (let round = 0; round < rounds; round++) {
    for (let j = 0; j < runs.length; j++) {
      const r = runs[(j + round) % runs.length];
      if (r.samples.length >= r.rounds) continue;
      let seconds, cpuSeconds;
      for (let n = 0; n < warm; n++) await r.run();
      for (;;) {
        const cpuBefore = await cpu?.();
        seconds = await time(async () => {
          for (let n = 0; n < r.reps; n++) await r.run();
        });
        if (cpu) cpuSeconds = (await cpu()) - cpuBefore;
        // too short to read (reps chosen from a time a pause inflated): twice the reps, and the sample again
        if (seconds >= MIN_SAMPLE_SECONDS / 2 || r.reps >= MAX_REPS) break;
        r.reps = Math.min(MAX_REPS, 2 * r.reps);
      }
      r.samples.push(seconds / r.reps);
      if (cpu) r.cpuSamples.push(cpuSeconds / r.reps);
      done += 1;
      onSample?.(done, total);
      if (pause) await pause();
    }
  }
  return runs.map((r) => ({ name: r.name, seconds: median(r.samples), samples: r.samples, reps: r.reps, ...(cpu ? { cpuSamples: r.cpuSamples } : {}) }));
}
