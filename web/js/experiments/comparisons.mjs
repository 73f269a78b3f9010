// The comparisons aside, as experiments: learned vs sinusoidal vs rotary positions, float32 vs float64 tables, the
// two layouts, and the rotation that carries p_t to p_{t+k}. Each experiment returns what the page draws plus its
// checks { name, pass, claim, details }, the numbers behind every verdict in details.
// Pure: no DOM; the page (web/js/sections/comparisons.mjs) and tests/node/comparisons.test.mjs run it.
//
// References are computed here in plain JS float64 (Math.sin, Math.cos, Math.pow), independently of the core, except
// where the claim is about seqorder's own outputs compared with each other (a layout is a permutation of another).
import { fmt } from '../format.mjs';
import { dotProducts, frequencies, maxAbsDiff, positionsFormula } from './reference.mjs';
import { uniformGenerator } from './sentence.mjs';

/** Tolerances of the checks, each with its reason. */
export const TOL = Object.freeze({
  /** Two float64 computations of the same quantity by other roundings: a few ulps of values of order 1–10. */
  same: 1e-12,
  /** "Different": far above rounding; the effects shown are of order 0.01 to 1. */
  different: 1e-3,
  /** seqorder's float32 table: float64 angles rounded once, so half a float32 ulp of a value ≤ 1 (3e-8), with room. */
  float32: 2e-7,
  /** seqorder's float64 table against Math.sin: the angle t·f_i is a few ulps apart, ~1e-10 at t = 1e6. */
  float64: 1e-9,
});

/** The starts of the precision readout. */
export const PRECISION_STARTS = Object.freeze([0, 1e4, 1e5, 1e6]);

const BASE = 10000;

export { dotProducts, frequencies };

/**
 * The table as code that works in float32 throughout computes it (the lesson's torch version with dtype float32):
 * float32 positions, float32 frequencies, a float32 product for the angle, float32 sin and cos. Emulated exactly with
 * Math.fround: each float32 operation is the float64 one rounded once (for these operations that equals float32
 * arithmetic: the product of two float32 values is exact in float64, and sin/cos of a float32 angle are rounded once).
 */
export function float32AnglesPositions(length, width, { start = 0, base = BASE } = {}) {
  const f = Math.fround;
  const half = width / 2;
  const frequency = Array.from({ length: half }, (_, i) => f(base ** f(-(2 * i) / width)));
  const data = new Float32Array(length * width);
  for (let r = 0; r < length; r++) {
    const t = f(start + r);
    for (let i = 0; i < half; i++) {
      const angle = f(t * frequency[i]);
      data[r * width + 2 * i] = Math.sin(angle);
      data[r * width + 2 * i + 1] = Math.cos(angle);
    }
  }
  return { data, shape: [length, width], dtype: 'float32' };
}

/**
 * tensor2tensor's get_timing_signal_1d (min_timescale 1, max_timescale = base): its D/2 frequencies are spaced evenly
 * in log scale from 1 to exactly 1/base, f_i = base^(−i/(D/2 − 1)), and each row is all sines then all cosines.
 */
export function t2tPositions(length, width, { start = 0, base = BASE } = {}) {
  const half = width / 2;
  const increment = Math.log(base) / Math.max(half - 1, 1);
  const data = new Float64Array(length * width);
  for (let r = 0; r < length; r++) {
    for (let i = 0; i < half; i++) {
      const angle = (start + r) * Math.exp(-i * increment);
      data[r * width + i] = Math.sin(angle);
      data[r * width + half + i] = Math.cos(angle);
    }
  }
  return { data, shape: [length, width], dtype: 'float64' };
}

/** A seeded uniform [−1, 1) vector of `width` values. */
export function randomVector(width, seed) {
  const uniform = uniformGenerator(seed);
  return Float64Array.from({ length: width }, () => 2 * uniform() - 1);
}

/** The same vector at every one of `length` positions → (length, D). */
export function repeatRows(vector, length) {
  const data = new Float64Array(length * vector.length);
  for (let t = 0; t < length; t++) data.set(vector, t * vector.length);
  return { data, shape: [length, vector.length], dtype: 'float64' };
}

/**
 * How far a square matrix s (T, T) is from depending on m − n only: the largest change along any diagonal,
 * max |s[m][n] − s[m−1][n−1]|, and the spread across diagonals, max − min of s[m][0] and s[0][n] (0 when nothing
 * depends on the offset either).
 */
export function diagonalStats(s) {
  const size = s.shape[0];
  let alongDiagonal = 0;
  for (let m = 1; m < size; m++) {
    for (let n = 1; n < size; n++) {
      const d = Math.abs(s.data[m * size + n] - s.data[(m - 1) * size + n - 1]);
      if (!(d <= alongDiagonal)) alongDiagonal = d;
    }
  }
  const edge = [];
  for (let k = 0; k < size; k++) edge.push(s.data[k * size], s.data[k]);
  return { alongDiagonal, acrossDiagonals: Math.max(...edge) - Math.min(...edge) };
}

/**
 * Learned positions are a lookup; sinusoids are a formula. `table` (P, D) stands in for trained values.
 * Returns the table, a lookup inside it, what asking past its end gives (the error, caught), the sinusoids at a
 * position no table of P rows has, and three checks.
 */
export function learnedExperiment(so, { rows = 8, width = 8, seed = 5, lookupStart = 2, lookupLength = 3, far = 1_000_000 } = {}) {
  const uniform = uniformGenerator(seed);
  const table = { data: Float64Array.from({ length: rows * width }, () => 2 * uniform() - 1), shape: [rows, width], dtype: 'float64' };
  const lookup = so.learnedPositions(table, lookupLength, { start: lookupStart });
  const expected = table.data.slice(lookupStart * width, (lookupStart + lookupLength) * width);
  const lookupDiff = maxAbsDiff(lookup.data, expected);

  const past = tryLearned(so, table, lookupLength, rows - 1);
  const sinusoid = so.positions(1, width, { start: far });
  const reference = positionsFormula(1, width, { start: far });
  const sinusoidDiff = maxAbsDiff(sinusoid.data, reference.data);
  const squaredNorm = sinusoid.data.reduce((s, v) => s + v * v, 0);

  return {
    table, lookup, lookupStart, lookupLength, past, far, sinusoid,
    checks: [
      {
        name: 'cmp-learned-lookup',
        pass: lookupDiff === 0 && lookup.shape[0] === lookupLength,
        claim: `A learned table is a lookup: positions ${lookupStart}…${lookupStart + lookupLength - 1} are rows ${lookupStart}…${lookupStart + lookupLength - 1} of the table, copied.`,
        details: `max |learnedPositions − table rows| = ${fmt(lookupDiff)} (exactly 0 expected), shape [${lookup.shape}]`,
      },
      {
        name: 'cmp-learned-past-end',
        pass: past.error instanceof RangeError && /at most the table's rows/.test(past.error.message),
        claim: `Asking for positions past row ${rows - 1} of a table of ${rows} rows is an error, not a guess.`,
        details: past.error
          ? `${past.error.name}: ${past.error.message}`
          : `no error: got ${past.result.shape[0]} rows for positions ${rows - 1}…${rows - 2 + lookupLength}`,
      },
      {
        name: 'cmp-sinusoid-anywhere',
        pass: sinusoidDiff <= TOL.float64 && Math.abs(squaredNorm - width / 2) <= TOL.same,
        claim: `The sinusoid formula evaluates at position ${far.toLocaleString('en-US')} like anywhere else.`,
        details: `max |seqorder − Math.sin/cos| = ${fmt(sinusoidDiff)} ≤ ${TOL.float64}; squared norm ${fmt(squaredNorm, 15)} (D/2 = ${width / 2})`,
      },
    ],
  };
}

/** so.learnedPositions(table, length, { start }), returning { result } or { error } (the page shows either). */
export function tryLearned(so, table, length, start) {
  try {
    return { result: so.learnedPositions(table, length, { start }) };
  } catch (error) {
    return { error };
  }
}

/**
 * Rotary vs added positions. One content vector q0 sits at every query position m and k0 at every key position n,
 * so whatever varies in q_m · k_n comes from the positions. Rotary: rotate Q and K (so.rope) and take dot products.
 * Added: (q0 + p_m) · (k0 + p_n) (so.addPositions). Returns both (T, T) score matrices and two checks.
 */
export function rotaryExperiment(so, { length = 24, width = 8, seed = 7, start = 0 } = {}) {
  const q0 = randomVector(width, seed);
  const k0 = randomVector(width, seed + 1000);
  const q = repeatRows(q0, length);
  const k = repeatRows(k0, length);
  const rotary = dotProducts(so.rope(q, { start }), so.rope(k, { start }));
  const added = dotProducts(so.addPositions(q, { start }), so.addPositions(k, { start }));
  const r = diagonalStats(rotary);
  const a = diagonalStats(added);
  // The rotated scores from start 0 and from start + 1000: shifting every position changes no offset.
  const shifted = dotProducts(so.rope(q, { start: start + 1000 }), so.rope(k, { start: start + 1000 }));
  const shift = maxAbsDiff(shifted, rotary);
  return {
    q0, k0, rotary, added, length, width, start,
    checks: [
      {
        name: 'cmp-rope-relative',
        pass: r.alongDiagonal <= TOL.same && shift <= 1e-10 && r.acrossDiagonals > TOL.different,
        claim: 'After rotary positions, q_m · k_n depends only on the offset m − n: every diagonal of the heatmap is constant.',
        details: `max change along a diagonal = ${fmt(r.alongDiagonal)} ≤ ${TOL.same}; spread across offsets = ${fmt(r.acrossDiagonals)} > ${TOL.different} (positions do matter); starting 1000 later changes the scores by ${fmt(shift)}`,
      },
      {
        name: 'cmp-added-not-relative',
        pass: a.alongDiagonal > TOL.different,
        claim: 'Adding sinusoids to the input does not give this exactly: the diagonals of (q + p_m) · (k + p_n) drift.',
        details: `max change along a diagonal = ${fmt(a.alongDiagonal)} > ${TOL.different}: the cross terms q·p_n and p_m·k depend on each position on its own`,
      },
    ],
  };
}

/** Element-wise a + b of two equally shaped float64 tensors. */
function plus(a, b) {
  return { data: a.data.map((v, i) => v + b.data[i]), shape: a.shape, dtype: 'float64' };
}

/** A seeded uniform [−1, 1) (rows, width) table: stand-in values for a trained one. */
function randomTable(rows, width, seed) {
  const uniform = uniformGenerator(seed);
  return { data: Float64Array.from({ length: rows * width }, () => 2 * uniform() - 1), shape: [rows, width], dtype: 'float64' };
}

/**
 * One question, four answers: how can a compatibility score q_m · k_n depend on position as well as content? The same
 * content vectors q0, k0 as rotaryExperiment sit at every query position m and key position n; each method gives a
 * (T, T) map of scores:
 *   none     q0 · k0                 content only: the same at every (m, n)
 *   added    (q0 + p_m) · (k0 + p_n) sinusoids added to the input (rotaryExperiment)
 *   learned  (q0 + L_m) · (k0 + L_n) rows of a learned table added to the input (random stand-ins)
 *   rotary   rope(q0)_m · rope(k0)_n only the offset m − n (rotaryExperiment)
 * and then the same four on a whole sequence (x, T × D): each runs one attention call with the same shapes.
 * Returns the maps and the checks of rotaryExperiment plus three.
 */
export function answersExperiment(so, { length = 16, width = 8, seed = 7 } = {}) {
  const rotary = rotaryExperiment(so, { length, width, seed });
  const q = repeatRows(rotary.q0, length);
  const k = repeatRows(rotary.k0, length);
  // Scores without positions, from the core's first step of attention, against q0 · k0 in plain JS.
  const none = so.attention(q, k, k, { steps: true }).scores;
  const content = dotProducts(repeatRows(rotary.q0, 1), repeatRows(rotary.k0, 1)).data[0];
  const noneError = Math.max(...none.data.map((v) => Math.abs(v - content)));
  const learnedRows = so.learnedPositions(randomTable(length, width, seed + 2000), length);
  const learned = dotProducts(plus(q, learnedRows), plus(k, learnedRows));
  const noneSpread = Math.max(...none.data) - Math.min(...none.data);
  const l = diagonalStats(learned);

  // A sequence x (T, D) through attention four ways: same call, same shapes; only what goes in differs.
  const x = randomTable(length, width, seed + 3000);
  const runs = {
    none: so.attention(x, x, x, { steps: true }),
    added: (() => { const y = so.addPositions(x); return so.attention(y, y, y, { steps: true }); })(),
    learned: (() => { const y = plus(x, learnedRows); return so.attention(y, y, y, { steps: true }); })(),
    rotary: (() => { const r = so.rope(x); return so.attention(r, r, x, { steps: true }); })(),
  };
  const shapes = Object.values(runs).map((r) => `weights (${r.weights.shape.join(', ')}), output (${r.output.shape.join(', ')})`);
  const sameShapes = shapes.every((s) => s === `weights (${length}, ${length}), output (${length}, ${width})`);
  const names = Object.keys(runs);
  let closest = Infinity;
  for (let i = 0; i < names.length; i++) {
    for (let j = i + 1; j < names.length; j++) closest = Math.min(closest, maxAbsDiff(runs[names[i]].output, runs[names[j]].output));
  }
  return {
    ...rotary, none, learned, learnedRows, runs,
    checks: [
      {
        name: 'cmp-none-content-only',
        pass: noneSpread === 0 && noneError <= TOL.same,
        claim: 'With no positional method, the score of q0 and k0 is the same at every pair of positions: content alone.',
        details: `attention’s scores over ${length} × ${length} (m, n): max − min = ${fmt(noneSpread)} (exactly 0 expected), ` +
          `max |score − q0 · k0| = ${fmt(noneError)} ≤ ${TOL.same}`,
      },
      ...rotary.checks,
      {
        name: 'cmp-learned-absolute',
        pass: l.alongDiagonal > TOL.different,
        claim: 'A learned table added to the input answers with absolute positions, like added sinusoids: the scores change along every diagonal.',
        details: `max change along a diagonal of (q0 + L_m) · (k0 + L_n) = ${fmt(l.alongDiagonal)} > ${TOL.different}`,
      },
      {
        name: 'cmp-not-extra-heads',
        pass: sameShapes && closest > TOL.different,
        claim: 'Each method changes what enters the one attention computation, not how many there are: one (T, T) map of weights, one (T, D) output each, and different outputs.',
        details: `T = ${length}, D = ${width}: ${[...new Set(shapes)].join('; ')} for each of ${names.join(', ')}; ` +
          `the two closest outputs differ by ${fmt(closest)} > ${TOL.different}`,
      },
    ],
  };
}

/**
 * Extending a learned table of P rows to 2P positions takes a deliberate change, and each has a cost:
 *   append   P new rows after the old ones: past positions unchanged, new ones untrained (random, as at initialization)
 *   stretch  linear interpolation: row 2j = old row j, row 2j+1 = the mean of rows j and j+1 (the last row repeats),
 *            so position t now reads what position t/2 used to: every position changes meaning.
 * Returns the three tables, the old table's refusal past its end, and two checks.
 */
export function extendLearnedExperiment(so, { rows = 8, width = 8, seed = 5 } = {}) {
  const table = randomTable(rows, width, seed);
  const past = tryLearned(so, table, 2, rows - 1);
  const fresh = randomTable(rows, width, seed + 1);
  const appended = { data: new Float64Array(2 * rows * width), shape: [2 * rows, width], dtype: 'float64' };
  appended.data.set(table.data);
  appended.data.set(fresh.data, rows * width);
  const stretched = { data: new Float64Array(2 * rows * width), shape: [2 * rows, width], dtype: 'float64' };
  const at = (r, c) => table.data[Math.min(r, rows - 1) * width + c];
  for (let t = 0; t < 2 * rows; t++) {
    for (let c = 0; c < width; c++) stretched.data[t * width + c] = t % 2 ? (at(t >> 1, c) + at((t >> 1) + 1, c)) / 2 : at(t >> 1, c);
  }
  const newRows = so.learnedPositions(appended, rows, { start: rows });
  const oldRows = so.learnedPositions(appended, rows);
  const appendOk = maxAbsDiff(newRows, fresh) === 0 && maxAbsDiff(oldRows, table) === 0;
  const stretchedRows = so.learnedPositions(stretched, 2 * rows);
  const evenRows = Float64Array.from({ length: rows * width }, (_, k) => stretchedRows.data[2 * Math.floor(k / width) * width + (k % width)]);
  const keepsOld = maxAbsDiff(evenRows, table);
  const moved = maxAbsDiff(stretchedRows.data.subarray(width, rows * width), table.data.subarray(width));
  const refused = past.error instanceof RangeError;
  return {
    table, appended, stretched, past,
    checks: [
      {
        name: 'cmp-learned-extend-append',
        pass: refused && appendOk,
        claim: `Past row ${rows - 1} the table refuses; appending ${rows} rows makes positions ${rows}…${2 * rows - 1} answer, but with rows no training has shaped.`,
        details: `${refused ? `before: ${past.error.name}` : 'before: no error'}; after: positions ${rows}…${2 * rows - 1} are the appended rows ` +
          `${appendOk ? 'exactly' : 'NOT'}, positions 0…${rows - 1} unchanged`,
      },
      {
        name: 'cmp-learned-extend-stretch',
        pass: keepsOld === 0 && moved > TOL.different,
        claim: 'Stretching the table by interpolation reaches twice as far, but position t now reads what position t/2 used to: every position’s vector changes.',
        details: `stretched row 2j = old row j: max |diff| = ${fmt(keepsOld)} (exactly 0 expected); positions 1…${rows - 1} moved by up to ${fmt(moved)} > ${TOL.different}`,
      },
    ],
  };
}

/**
 * float32 vs float64 tables at each start in `starts`: seqorder's float32 table (float64 angles, rounded once) and a
 * float32-angles table, both against a plain-JS float64 reference; seqorder's float64 table too. Returns one readout
 * per start (max errors and the error matrices) and two checks.
 */
export function precisionExperiment(so, { starts = PRECISION_STARTS, length = 8, width = 8 } = {}) {
  const readouts = starts.map((start) => {
    const reference = positionsFormula(length, width, { start });
    const float64 = so.positions(length, width, { start });
    const float32 = so.positions(length, width, { start, dtype: 'float32' });
    const angles32 = float32AnglesPositions(length, width, { start });
    const errors = (t) => Float64Array.from(t.data, (v, j) => Math.abs(v - reference.data[j]));
    return {
      start, reference, float64, float32, angles32,
      float64Error: maxAbsDiff(float64, reference),
      float32Error: maxAbsDiff(float32, reference),
      angles32Error: maxAbsDiff(angles32, reference),
      float32Errors: { data: errors(float32), shape: [length, width] },
      angles32Errors: { data: errors(angles32), shape: [length, width] },
    };
  });
  const worst = (key) => Math.max(...readouts.map((r) => r[key]));
  const list = (key) => readouts.map((r) => `${fmt(r[key], 2)} at ${r.start.toLocaleString('en-US')}`).join(', ');
  const last = readouts[readouts.length - 1];
  return {
    readouts, length, width,
    checks: [
      {
        name: 'cmp-float32-seqorder',
        pass: worst('float32Error') <= TOL.float32 && worst('float64Error') <= TOL.float64,
        claim: 'seqorder\'s float32 table stays within float32\'s own rounding at every start: its angles are float64, rounded once at the end.',
        details: `max |float32 − exact|: ${list('float32Error')} (each ≤ ${TOL.float32}); float64 table: max ${fmt(worst('float64Error'), 2)} ≤ ${TOL.float64}`,
      },
      {
        name: 'cmp-float32-angles-drift',
        pass: last.angles32Error > 100 * TOL.float32 && last.angles32Error > readouts[0].angles32Error,
        claim: 'Computing the angles themselves in float32 loses accuracy as positions grow.',
        details: `max |float32-angles table − exact|: ${list('angles32Error')}; at ${last.start.toLocaleString('en-US')} that is ${fmt(last.angles32Error / Math.max(last.float32Error, 1e-300), 2)} × seqorder’s float32 error`,
      },
    ],
  };
}

/**
 * The same positions in both layouts, and the tensor2tensor table for contrast. Returns the three tables and two
 * checks: halves is interleaved with columns permuted (exactly), and t2t's table is not (other frequencies).
 */
export function layoutExperiment(so, { length = 32, width = 16, start = 0 } = {}) {
  const interleaved = so.positions(length, width, { start });
  const halves = so.positions(length, width, { start, layout: 'halves' });
  const half = width / 2;
  // Column i of halves should be column 2i of interleaved; column half + i, column 2i + 1.
  const permuted = new Float64Array(interleaved.data.length);
  for (let t = 0; t < length; t++) {
    for (let i = 0; i < half; i++) {
      permuted[t * width + i] = interleaved.data[t * width + 2 * i];
      permuted[t * width + half + i] = interleaved.data[t * width + 2 * i + 1];
    }
  }
  const permutationDiff = maxAbsDiff(halves.data, permuted);
  const sorted = (data) => Float64Array.from(data).sort();
  const sameMultiset = maxAbsDiff(sorted(halves.data), sorted(interleaved.data)) === 0;
  const unchangedColumns = width >= 4 ? maxAbsDiff(halves.data, interleaved.data) : 0;
  const t2t = t2tPositions(length, width, { start });
  const t2tDiff = maxAbsDiff(t2t.data, halves.data);
  return {
    interleaved, halves, t2t, length, width, start,
    checks: [
      {
        name: 'cmp-layouts-permuted',
        pass: permutationDiff === 0 && sameMultiset && unchangedColumns > TOL.different,
        claim: 'Interleaved and halves hold the same numbers: column i of halves is column 2i of interleaved, column D/2 + i is column 2i + 1.',
        details: `max |halves − permuted interleaved| = ${fmt(permutationDiff)} (exactly 0 expected); same sorted values: ${sameMultiset}; the tables themselves differ by up to ${fmt(unchangedColumns)}`,
      },
      {
        name: 'cmp-layouts-t2t-differs',
        pass: t2tDiff > TOL.different,
        claim: 'tensor2tensor\'s table also puts sines first, but is not this table: its frequencies differ.',
        details: `max |t2t − halves| = ${fmt(t2tDiff)} > ${TOL.different}; slowest frequency: t2t 1/${BASE} = ${fmt(1 / BASE)}, ours ${BASE}^(−${width - 2}/${width}) = ${fmt(BASE ** (-(width - 2) / width))}`,
      },
    ],
  };
}

/**
 * p_{t+k} is the same rotation of p_t for every t. The rotation is read off row k of the table itself: pair i of p_k
 * is (sin k f_i, cos k f_i), and by angle addition
 *   sin((t+k) f) = sin(t f) cos(k f) + cos(t f) sin(k f),   cos((t+k) f) = cos(t f) cos(k f) − sin(t f) sin(k f).
 * Returns the table, the largest deviation per offset k, and one check.
 */
export function shiftExperiment(so, { length = 64, width = 16, offsets = [1, 5, 20] } = {}) {
  const p = so.positions(length, width);
  const at = (t, j) => p.data[t * width + j];
  const deviations = offsets.map((k) => {
    let max = 0;
    for (let t = 0; t + k < length; t++) {
      for (let i = 0; i < width / 2; i++) {
        const sinK = at(k, 2 * i);
        const cosK = at(k, 2 * i + 1);
        const sinT = at(t, 2 * i);
        const cosT = at(t, 2 * i + 1);
        const d = Math.max(Math.abs(at(t + k, 2 * i) - (sinT * cosK + cosT * sinK)),
          Math.abs(at(t + k, 2 * i + 1) - (cosT * cosK - sinT * sinK)));
        if (!(d <= max)) max = d;
      }
    }
    return { k, max };
  });
  const worst = Math.max(...deviations.map((d) => d.max));
  return {
    p, length, width, offsets, deviations,
    checks: [
      {
        name: 'cmp-shift-rotation',
        pass: worst <= TOL.same,
        claim: 'Moving k positions later turns every sine/cosine pair by the same angle, whatever t is: p_(t+k) is a fixed rotation of p_t.',
        details: `${deviations.map((d) => `k = ${d.k}: max deviation ${fmt(d.max, 2)}`).join('; ')} over t = 0…${length - 1} (each ≤ ${TOL.same})`,
      },
    ],
  };
}

// ---- The aside's sentences: each from its experiment's numbers, with a predicate on what the section draws -------

/**
 * Under the four maps (answersExperiment's result e); drawn.answers: the grid's maps none, added, learned, rotary.
 */
export function answersSentences(e) {
  const stats = ['none', 'added', 'learned', 'rotary'].map((key) => diagonalStats(e[key]));
  const flat = Math.max(...e.none.data) - Math.min(...e.none.data);
  const [, added, learned, rotary] = stats;
  const drawnStats = (drawn) => drawn.answers.maps.map((m) => diagonalStats({ data: m.data, shape: [m.rows, m.cols] }));
  return [{
    name: 'cmp-four-maps',
    text: `Without positions the map is flat (max − min = ${fmt(flat)}); added sinusoids and added learned rows make it ` +
      `depend on m and n separately (it changes by up to ${fmt(added.alongDiagonal, 2)} and ${fmt(learned.alongDiagonal, 2)} ` +
      `along a diagonal); rotary keeps every diagonal constant within ${fmt(rotary.alongDiagonal, 1)}: a function of m − n.`,
    holds: (drawn) => {
      const maps = drawn.answers.maps;
      const d = drawnStats(drawn);
      return maps.length === 4 && Math.max(...maps[0].data) - Math.min(...maps[0].data) === flat &&
        fmt(d[1].alongDiagonal, 2) === fmt(added.alongDiagonal, 2) && fmt(d[2].alongDiagonal, 2) === fmt(learned.alongDiagonal, 2) &&
        d[3].alongDiagonal <= TOL.same && d[1].alongDiagonal > TOL.different && d[2].alongDiagonal > TOL.different;
    },
  }];
}

/** Under the learned table (learnedExperiment's result e); drawn.learned: its heatmap. */
export function learnedSentences(e) {
  const rows = e.table.shape[0];
  const refusal = e.past.error ? `${e.past.error.name}: “${e.past.error.message}”` : 'no error';
  return [{
    name: 'cmp-learned-rows',
    text: `The checks below ask this table of ${rows} rows for fixed positions: rows 0 … ${rows - 1} answer, and ` +
      `positions ${rows - 1} … ${rows - 2 + e.lookupLength} give ${refusal}, while the sinusoid formula answers at ` +
      `position ${e.far.toLocaleString('en-US')} as anywhere.`,
    holds: (drawn) => drawn.learned.rows === rows && maxAbsDiff(drawn.learned.data, e.table.data) === 0 && e.past.error instanceof RangeError,
  }];
}

/** Under the three tables (extendLearnedExperiment's result e); drawn.extended: the grid's maps table, appended, stretched. */
export function extendSentences(e) {
  const [rows, width] = e.table.shape;
  const moved = maxAbsDiff(e.stretched.data.subarray(width, rows * width), e.table.data.subarray(width));
  return [{
    name: 'cmp-extended',
    text: `Both reach position ${2 * rows - 1}: the appended table keeps rows 0 … ${rows - 1} and adds ${rows} never trained; the ` +
      `stretched one gives positions 1 … ${rows - 1} other vectors than before (by up to ${fmt(moved, 2)}).`,
    holds: (drawn) => {
      const [table, appended, stretched] = drawn.extended.maps;
      return table.rows === rows && appended.rows === 2 * rows && stretched.rows === 2 * rows &&
        maxAbsDiff(appended.data.subarray(0, rows * width), table.data) === 0 &&
        fmt(maxAbsDiff(stretched.data.subarray(width, rows * width), table.data.subarray(width)), 2) === fmt(moved, 2);
    },
  }];
}

/**
 * Under the error maps at one start (a readout of precisionExperiment); drawn.readouts: the table of largest errors,
 * a row per start: start, float64, float32, float32 angles.
 */
export function precisionSentences(readout) {
  const start = readout.start.toLocaleString('en-US');
  return [{
    name: 'cmp-precision-errors',
    text: `At start = ${start}, seqorder’s float32 table is off by at most ${fmt(readout.float32Error, 2)}; the ` +
      `float32-angles table by ${fmt(readout.angles32Error, 2)}.`,
    holds: (drawn) => {
      const row = drawn.readouts.rows.find((r) => r[0] === start);
      return Boolean(row) && fmt(row[2], 2) === fmt(readout.float32Error, 2) && fmt(row[3], 2) === fmt(readout.angles32Error, 2);
    },
  }];
}

/** Under the two layouts (layoutExperiment's result e); drawn.interleaved, drawn.halves: the two maps. */
export function layoutSentences(e) {
  const half = e.width / 2;
  const permuted = (m) => {
    const out = new Float64Array(m.data.length);
    for (let t = 0; t < m.rows; t++) {
      for (let i = 0; i < half; i++) {
        out[t * e.width + i] = m.data[t * e.width + 2 * i];
        out[t * e.width + half + i] = m.data[t * e.width + 2 * i + 1];
      }
    }
    return out;
  };
  return [{
    name: 'cmp-layouts',
    text: `The same ${e.length * e.width} numbers with the columns reordered (column 2i to i, 2i + 1 to D/2 + i, exactly): a ` +
      'model trained with one layout and fed the other receives scrambled features, so the convention has to match.',
    holds: (drawn) => maxAbsDiff(permuted(drawn.interleaved), drawn.halves.data) === 0 && maxAbsDiff(drawn.interleaved.data, drawn.halves.data) > TOL.different,
  }];
}

/**
 * Under the circle (shiftExperiment's table, pair `pair`, t and k); drawn.shift: the circle's points p_t, p_(t+k), p_0,
 * p_k.
 */
export function shiftSentences(e, { pair, t, k }) {
  const f = frequencies(e.width)[pair];
  const arc = (a, b) => ((Math.atan2(b.y, b.x) - Math.atan2(a.y, a.x)) % (2 * Math.PI) + 2 * Math.PI) % (2 * Math.PI);
  const turn = ((k * f) % (2 * Math.PI) + 2 * Math.PI) % (2 * Math.PI);
  return [{
    name: 'cmp-shift-arc',
    text: `Pair ${pair} turns ${fmt(f)} rad per position, so from t = ${t} to t + k = ${t + k} it turns k·f = ${fmt(k * f, 4)} rad: ` +
      'the same arc as from p_0 to p_k, whatever t is.',
    holds: (drawn) => {
      const [pt, ptk, p0, pk] = drawn.shift.points;
      return Math.abs(arc(pt, ptk) - turn) <= 1e-9 && Math.abs(arc(p0, pk) - turn) <= 1e-9;
    },
  }];
}
