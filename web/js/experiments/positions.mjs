// The positions experiments of the lesson page (sections 1–6), as pure functions of the seqorder API `so`: each runs
// one experiment and returns its data (for the figures) and its checks, [{ name, claim, pass, details }]. No DOM, so
// node tests run them against the real module and against deliberately broken ones (tests/node/positions-experiments.test.mjs).
//
// The expected values come from outside the code under test: the lesson's formula evaluated in JS with Math.sin
// and Math.cos (reference.mjs), exact facts (sin 0 = 0, cos 0 = 1, sin² + cos² = 1), and plain row indexing.
import { fmt } from '../format.mjs';
import { frequency, maxAbsDiff, positionsFormula } from './reference.mjs';

export { frequency };

/** The lesson's token vector for "robot": (0, 1/8, …, 7/8). */
export const ROBOT = Object.freeze(Array.from({ length: 8 }, (_, i) => i / 8));

/** Tolerances of the checks, each with its reason. */
export const TOL = Object.freeze({
  /**
   * seqorder vs the formula in JS at positions up to t: the frequencies 10000^(−2i/D) may differ by one ulp between
   * C's pow and JS's `**`, which moves an angle t·f by up to about t·2.2e-16; the core's rotation recurrence adds a
   * few more ulps between its exact anchor rows. 8e-16·t covers both with room; 1e-12 covers small t.
   */
  formula: (t) => 1e-12 + 8e-16 * t,
  /**
   * ‖p_t‖² / (D/2) − 1 in float64. sin² + cos² of exactly rounded values is 1 within a few ulps (2.2e-16 each); the
   * core's rotation recurrence between exact anchor rows adds a few ulps per step since the anchor (5e-14 seen). 1e-12
   * leaves room for that and still catches real faults: a wrong frequency or a swapped column moves a norm by O(1),
   * a value off by δ moves it by about 2δ.
   */
  normRelative64: 1e-12,
  /**
   * The same in float32: each value is rounded once to float32 (relative error ≤ 2^−24 ≈ 6e-8), so a pair's
   * sin² + cos² moves by at most about 2·2^−24 ≈ 1.2e-7 relative; 1.5e-7 allows for the float64 sum.
   */
  normRelative32: 1.5e-7,
  /** numpy.testing.assert_allclose defaults, as the lesson's experiment uses them. */
  assertAllclose: { rtol: 1e-7, atol: 0 },
  /** numpy.allclose defaults (the lesson's "assert not np.allclose(...)"). */
  allclose: { rtol: 1e-5, atol: 1e-8 },
  /** "Different": far above rounding; the differences shown are of order 0.1 to 1. */
  different: 1e-3,
});

/** The lesson's formula in plain JS (reference.mjs), as a flat Float64Array (length × width). */
export function formulaPositions(length, width, options) {
  return positionsFormula(length, width, options).data;
}

function vec(values, digits = 3) {
  return `(${Array.from(values, (v) => fmt(v, digits)).join(', ')})`;
}

function shapeText(shape) {
  return `(${shape.join(', ')})`;
}

function sameShape(a, b) {
  return a.length === b.length && a.every((n, i) => n === b[i]);
}

function tensor(data, shape) {
  return { data: Float64Array.from(data), shape, dtype: 'float64' };
}

// ---- 1. A lookup cannot know "where" -------------------------------------------------------------------------

/**
 * Lesson 1's lookup on "robot follows person" and "person follows robot".
 * @param so     the seqorder API
 * @param table  the lookup table, Tensor (V, D)
 * @param vocab  the words, index = token id
 * @returns {{ first: string[], second: string[], x1: Tensor, x2: Tensor, checks }}  x1, x2: (3, D)
 */
export function lookupHasNoWhere(so, table, vocab) {
  const first = ['robot', 'follows', 'person'];
  const second = ['person', 'follows', 'robot'];
  const ids = (words) => ({ data: Int32Array.from(words, (w) => vocab.indexOf(w)), shape: [words.length], dtype: 'int32' });
  const x1 = so.embed(table, ids(first));
  const x2 = so.embed(table, ids(second));
  const width = table.shape[1];
  const rowOf = (t, r) => t.data.subarray(r * width, (r + 1) * width);
  const tableRow = (word) => table.data.subarray(vocab.indexOf(word) * width, (vocab.indexOf(word) + 1) * width);

  const robotDiff = maxAbsDiff(rowOf(x1, 0), rowOf(x2, 2));
  let lookupDiff = 0;
  first.forEach((w, r) => { lookupDiff = Math.max(lookupDiff, maxAbsDiff(rowOf(x1, r), tableRow(w))); });
  // The second sentence's rows are the first's in reverse order.
  let reorderDiff = 0;
  for (let r = 0; r < 3; r += 1) reorderDiff = Math.max(reorderDiff, maxAbsDiff(rowOf(x2, r), rowOf(x1, 2 - r)));

  return {
    first, second, x1, x2,
    checks: [
      {
        name: 'no-where-lookup',
        claim: 'The lookup copies one table row per word',
        pass: lookupDiff === 0 && sameShape(x1.shape, [3, width]),
        details: `shape ${shapeText(x1.shape)}; max |row − table[id]| = ${fmt(lookupDiff)} (exactly equal)`,
      },
      {
        name: 'no-where-robot-same',
        claim: 'robot gets the identical vector whether it comes first or last',
        pass: robotDiff === 0,
        details: `max |robot in row 0 of sentence 1 − robot in row 2 of sentence 2| = ${fmt(robotDiff)} (exactly equal)`,
      },
      {
        name: 'no-where-only-reordered',
        claim: 'The second sentence’s vectors are the first’s, merely reordered: nothing in them says where',
        pass: reorderDiff === 0,
        details: `rows (0, 1, 2) of sentence 2 vs rows (2, 1, 0) of sentence 1: max |difference| = ${fmt(reorderDiff)}`,
      },
    ],
  };
}

// ---- 2. Adding a position vector -------------------------------------------------------------------------------

/**
 * robot's token vector placed at position 0 and at position t (default 3): x + p_0 and x + p_t.
 * @returns {{ robot: number[], p0, pt, at0, atT, checks }}  each a Float64Array (8)
 */
export function robotAtPositions(so, t = 3) {
  const token = tensor(ROBOT, [1, ROBOT.length]);
  const before = Float64Array.from(token.data);
  const at0 = so.addPositions(token, { start: 0 });
  const atT = so.addPositions(token, { start: t });
  const reference = formulaPositions(1, 8, { start: 0 });
  const referenceT = formulaPositions(1, 8, { start: t });
  const expected0 = ROBOT.map((v, i) => v + reference[i]);
  const expectedT = ROBOT.map((v, i) => v + referenceT[i]);
  const sumError = Math.max(maxAbsDiff(at0.data, expected0), maxAbsDiff(atT.data, expectedT));
  const moved = maxAbsDiff(at0.data, atT.data);
  const unchanged = maxAbsDiff(token.data, before);
  return {
    robot: [...ROBOT], p0: reference, pt: referenceT, at0: at0.data, atT: atT.data, t,
    checks: [
      {
        name: 'add-position-sum',
        claim: `The input is the token vector plus the position vector, element by element (t = 0${t === 0 ? '' : ` and t = ${t}`})`,
        pass: sumError <= TOL.formula(t),
        details: `max |addPositions − (robot + p_t from the formula)| = ${fmt(sumError)} ≤ ${fmt(TOL.formula(t))}`,
      },
      {
        name: 'add-position-width',
        claim: 'Addition keeps the width: D = 8 features in, 8 out (concatenation would give 16)',
        pass: sameShape(at0.shape, [1, 8]) && sameShape(atT.shape, [1, 8]),
        details: `robot ${shapeText(token.shape)} → robot + p_0 ${shapeText(at0.shape)}${t === 0 ? '' : `, robot + p_${t} ${shapeText(atT.shape)}`}`,
      },
      {
        name: 'add-position-token-unchanged',
        claim: 'The token vector itself is untouched',
        pass: unchanged === 0,
        details: `max |robot after − robot before| = ${fmt(unchanged)}; robot = ${vec(ROBOT)}`,
      },
      t === 0 ? {
        name: 'add-position-differs',
        claim: 'At t = 0 both inputs are robot + p_0: same token, same position, same input',
        pass: moved === 0,
        details: `max |(robot + p_0) − (robot + p_0)| = ${fmt(moved)} (bit for bit); move t to place robot elsewhere`,
      } : {
        name: 'add-position-differs',
        claim: `Same token, different position, different input: robot at 0 vs robot at ${t}`,
        pass: moved > TOL.different,
        details: `max |(robot + p_0) − (robot + p_${t})| = ${fmt(moved)} > ${fmt(TOL.different)}`,
      },
    ],
  };
}

/**
 * The sum cannot always be taken apart: for a token vector `token` at position s, the vector
 * b = token + p_s − p_(s+k) (any vector may be a row of a learned table) at position s + k gives the same input.
 * p comes from the formula in JS; both sums from so.addPositions.
 * @returns {{ a, b, ps, pt, inputA, inputB, checks }}  a, b, ps, pt, inputA, inputB: Float64Array (D)
 */
export function sumAmbiguity(so, { token = ROBOT, word = 'robot', s = 2, k = 3 } = {}) {
  const width = token.length;
  const t = s + k;
  const ps = formulaPositions(1, width, { start: s });
  const pt = formulaPositions(1, width, { start: t });
  const b = Float64Array.from(token, (v, i) => v + ps[i] - pt[i]);
  const inputA = so.addPositions(tensor(token, [1, width]), { start: s });
  const inputB = so.addPositions(tensor(b, [1, width]), { start: t });
  const same = maxAbsDiff(inputA.data, inputB.data);
  const tokenGap = maxAbsDiff(token, b);
  const tol = TOL.formula(s) + TOL.formula(t);
  return {
    a: Float64Array.from(token), b, ps, pt, inputA: inputA.data, inputB: inputB.data, s, t,
    checks: [{
      name: 'add-position-sum-ambiguous',
      claim: `${word} at position ${s} and another token vector b at position ${t} give one and the same input: ` +
        'from the sum alone, neither the token nor the position can be read back',
      pass: same <= tol && tokenGap > TOL.different,
      details: `b = ${word} + p_${s} − p_${t} = ${vec(b)}; max |(${word} + p_${s}) − (b + p_${t})| = ${fmt(same)} ≤ ${fmt(tol)}, ` +
        `while max |${word} − b| = ${fmt(tokenGap)} > ${fmt(TOL.different)}`,
    }],
  };
}

// ---- 3. The sinusoid table ----------------------------------------------------------------------------------

/**
 * The table the heatmap draws, checked against the formula.
 * @returns {{ table: Tensor (length, width), error: number, checks }}
 */
export function sinusoidTable(so, length, width, start) {
  const table = so.positions(length, width, { start });
  const error = maxAbsDiff(table.data, formulaPositions(length, width, { start }));
  const tMax = start + length - 1;
  return {
    table, error,
    checks: [{
      name: 'sinusoids-formula',
      claim: 'The table drawn is the formula: column 2i = sin(t·f_i), column 2i+1 = cos(t·f_i), f_i = 10000^(−2i/D)',
      pass: sameShape(table.shape, [length, width]) && error <= TOL.formula(tMax),
      details: `length ${length}, D = ${width}, t = ${start} … ${tMax}: max |seqorder − Math.sin/Math.cos| = ` +
        `${fmt(error)} ≤ ${fmt(TOL.formula(tMax))}`,
    }],
  };
}

/**
 * How fast each pair turns: the angle between positions 0 and 1 of pair i is f_i (atan2 of the table's own values).
 * @returns {{ speeds: number[], checks }}
 */
export function pairSpeeds(so, width) {
  const { data, shape } = so.positions(2, width);
  const speeds = [];
  let error = 0;
  for (let i = 0; i < width / 2; i += 1) {
    const turned = Math.atan2(data[width + 2 * i], data[width + 2 * i + 1]);
    speeds.push(turned);
    error = Math.max(error, Math.abs(turned - frequency(i, width)));
    if (Number.isNaN(turned)) error = NaN;
  }
  const last = width / 2 - 1;
  return {
    speeds,
    checks: [{
      name: 'sinusoids-pair-speeds',
      claim: `D = ${width} gives ${width / 2} frequency pair${width === 2 ? '' : 's'}, each turning by its own fixed angle per ` +
        `position${width > 2 ? `, from fast (pair 0) to slow (pair ${last})` : ''}`,
      pass: sameShape(shape, [2, width]) && error <= 1e-14,
      details: `D = ${width}: max |measured turn − 10000^(−2i/D)| = ${fmt(error)} ≤ 1e-14; pair 0 turns ` +
        `${fmt(speeds[0])} rad per step (a full turn every ${fmt(2 * Math.PI / speeds[0])} positions), pair ${last} ` +
        `${fmt(speeds[last])} rad (every ${fmt(2 * Math.PI / speeds[last])} positions)`,
    }],
  };
}

/**
 * The lesson's count: D = 8 gives four frequency pairs. Columns (2i, 2i+1) of positions(2, 8) turn between t = 0 and
 * t = 1 by 1, 0.1, 0.01 and 0.001 rad (10000^(−2i/8) = 10^(−i), written out here by hand).
 * @returns {{ turns: number[], checks }}
 */
export function fourPairs(so) {
  const expected = [1, 0.1, 0.01, 0.001];
  const { data, shape } = so.positions(2, 8);
  const turns = expected.map((_, i) => Math.atan2(data[8 + 2 * i], data[8 + 2 * i + 1]));
  const error = maxAbsDiff(turns, expected);
  const radii = expected.map((_, i) => Math.hypot(data[8 + 2 * i], data[8 + 2 * i + 1]));
  const radiusError = maxAbsDiff(radii, [1, 1, 1, 1]);
  return {
    turns, expected,
    checks: [{
      name: 'sinusoids-d8-four-pairs',
      claim: 'D = 8 gives four frequency pairs: columns (0, 1), (2, 3), (4, 5), (6, 7) turn by 1, 0.1, 0.01 and 0.001 rad per position',
      pass: sameShape(shape, [2, 8]) && error <= 1e-14 && radiusError <= 1e-15,
      fixed: true,
      details: `positions(2, 8): shape ${shapeText(shape)}, 8 columns = 4 (sin, cos) pairs; measured turns ${vec(turns, 6)}; ` +
        `max |turn − 10^(−i)| = ${fmt(error)} ≤ 1e-14; every pair on the unit circle (max |r − 1| = ${fmt(radiusError)})`,
    }],
  };
}

/**
 * Why one sine is not enough: among positions 0 … length−1 (width 64), the fastest sine alone gives two positions
 * almost the same value; all pairs together keep every two positions far apart. Also the distance curves
 * ‖p_t − p_0‖ per pair for the figure (t = 0 … curveLength−1).
 */
export function oneSineRepeats(so, { length = 512, width = 64, curveLength = 160 } = {}) {
  const { data } = so.positions(length, width);
  let sine = { d: Infinity, a: 0, b: 0 };
  let all = { d: Infinity, a: 0, b: 0 };
  for (let a = 0; a < length; a += 1) {
    const ra = a * width;
    for (let b = a + 1; b < length; b += 1) {
      const rb = b * width;
      const d1 = Math.abs(data[ra] - data[rb]);
      if (d1 < sine.d) sine = { d: d1, a, b };
      let s = 0;
      for (let c = 0; c < width; c += 1) {
        const e = data[ra + c] - data[rb + c];
        s += e * e;
      }
      if (s < all.d) all = { d: s, a, b };
    }
  }
  all.d = Math.sqrt(all.d);
  // Distance of p_t from p_0: one pair (its two columns), and all pairs (divided by √(D/2) to share the 0…2 scale).
  const last = width / 2 - 1;
  const t = Array.from({ length: curveLength }, (_, k) => k);
  const pairDistance = (i) => t.map((k) => Math.hypot(data[k * width + 2 * i] - data[2 * i], data[k * width + 2 * i + 1] - data[2 * i + 1]));
  const allDistance = t.map((k) => {
    let s = 0;
    for (let c = 0; c < width; c += 1) s += (data[k * width + c] - data[c]) ** 2;
    return Math.sqrt(s / (width / 2));
  });
  return {
    sine, all, curves: { t, fast: pairDistance(0), slow: pairDistance(last), all: allDistance }, width,
    checks: [
      {
        name: 'sinusoids-one-sine-repeats',
        claim: 'One sine alone repeats too soon: two distant positions get almost the same value',
        fixed: true,
        pass: sine.d < 1e-4 && sine.b - sine.a > 1,
        details: `positions 0 … ${length - 1}, column 0 only: |sin(${sine.a}) − sin(${sine.b})| = ${fmt(sine.d)}`,
      },
      {
        name: 'sinusoids-all-pairs-apart',
        fixed: true,
        claim: `With all ${width / 2} pairs, every two positions stay clearly apart`,
        pass: all.d > 0.5,
        details: `positions 0 … ${length - 1}, D = ${width}: the closest two are ${all.a} and ${all.b}, ` +
          `‖p_${all.a} − p_${all.b}‖ = ${fmt(all.d)} > 0.5 (vs ${fmt(sine.d)} with one sine)`,
      },
    ],
  };
}

// ---- 4. The lesson's small experiment ---------------------------------------------------------------------------

/** The lesson's experiment: pe = positions(4, 8), position 0, the norms, robot at 0 vs 3, the shape. */
export function lessonExperiment(so) {
  const pe = so.positions(4, 8);
  const D = 8;
  const at = (r, c) => pe.data[r * D + c];
  const sines0 = [0, 2, 4, 6].map((c) => at(0, c));
  const cosines0 = [1, 3, 5, 7].map((c) => at(0, c));
  const norms = [0, 1, 2, 3].map((r) => [...pe.data.subarray(r * D, (r + 1) * D)].reduce((s, v) => s + v * v, 0));
  const { rtol, atol } = TOL.assertAllclose;
  const sineError = Math.max(...sines0.map(Math.abs));
  const cosineError = Math.max(...cosines0.map((v) => Math.abs(v - 1)));
  const normError = Math.max(...norms.map((n) => Math.abs(n - 4)));
  const atZero = ROBOT.map((v, c) => v + at(0, c));
  const atThree = ROBOT.map((v, c) => v + at(3, c));
  const close = TOL.allclose;
  const outside = atZero.filter((a, c) => !(Math.abs(a - atThree[c]) <= close.atol + close.rtol * Math.abs(atThree[c]))).length;
  return {
    pe, norms, atZero, atThree,
    checks: [
      {
        name: 'experiment-position0-sines',
        claim: 'Position 0: every sine column is 0',
        pass: sines0.every((v) => Math.abs(v) <= atol + rtol * 0),
        details: `pe[0, 0::2] = ${vec(sines0)}; max |value − 0| = ${fmt(sineError)} ≤ atol ${atol} + rtol ${rtol}·0`,
      },
      {
        name: 'experiment-position0-cosines',
        claim: 'Position 0: every cosine column is 1',
        pass: cosines0.every((v) => Math.abs(v - 1) <= atol + rtol * 1),
        details: `pe[0, 1::2] = ${vec(cosines0)}; max |value − 1| = ${fmt(cosineError)} ≤ rtol ${rtol}·1`,
      },
      {
        name: 'experiment-norms',
        claim: 'Every row’s squared norm is D/2 = 4',
        pass: norms.every((n) => Math.abs(n - 4) <= atol + rtol * 4),
        details: `(pe²).sum(−1) = ${vec(norms, 17)}; max |norm² − 4| = ${fmt(normError)} ≤ rtol ${rtol}·4`,
      },
      {
        name: 'experiment-robot-differs',
        claim: 'robot + pe[0] and robot + pe[3] are not allclose',
        pass: outside > 0,
        details: `${outside} of 8 features differ by more than ${close.atol} + ${close.rtol}·|b|; max |difference| = ` +
          `${fmt(maxAbsDiff(atZero, atThree))}`,
      },
      {
        name: 'experiment-shape',
        claim: 'pe has shape (4, 8)',
        pass: sameShape(pe.shape, [4, 8]) && pe.data.length === 32,
        details: `shape ${shapeText(pe.shape)}, ${pe.data.length} values, dtype ${pe.dtype}`,
      },
    ],
  };
}

// ---- 5. The norm property and position 0 ------------------------------------------------------------------------

/**
 * ‖p_t‖² = D/2 at every position, in float64 and float32, over widths × starts; position 0 = (0, 1, 0, 1, …) for
 * every even width up to maxWidth.
 */
export function normProperty(so, { widths = [2, 8, 64, 512], starts = [0, 1e4, 1e6], length = 1024, maxWidth = 512 } = {}) {
  const worst = { float64: { rel: 0, width: 0, t: 0 }, float32: { rel: 0, width: 0, t: 0 } };
  let rows = 0;
  for (const dtype of ['float64', 'float32']) {
    for (const width of widths) {
      for (const start of starts) {
        const { data } = so.positions(length, width, { start, dtype });
        for (let r = 0; r < length; r += 1) {
          let s = 0;
          for (let c = 0; c < width; c += 1) s += data[r * width + c] * data[r * width + c];
          const rel = Math.abs(s / (width / 2) - 1);
          if (!(rel <= worst[dtype].rel)) worst[dtype] = { rel, width, t: start + r };
        }
        if (dtype === 'float64') rows += length;
      }
    }
  }
  let zeroError = 0;
  let zeroWidths = 0;
  for (let width = 2; width <= maxWidth; width += 2) {
    for (const dtype of ['float64', 'float32']) {
      const { data } = so.positions(1, width, { dtype });
      for (let c = 0; c < width; c += 1) {
        const d = Math.abs(data[c] - (c % 2));
        if (!(d <= zeroError)) zeroError = d;
      }
    }
    zeroWidths += 1;
  }
  return {
    worst,
    checks: [
      {
        name: 'norm-every-position',
        claim: 'Every position vector has squared norm D/2 (float64)',
        pass: worst.float64.rel <= TOL.normRelative64,
        details: `${rows} rows (D = ${widths.join(', ')}; ${length} positions from each t = ${starts.join(', ')}): ` +
          `max |‖p_t‖²/(D/2) − 1| = ${fmt(worst.float64.rel)} ≤ ${fmt(TOL.normRelative64)}` +
          (worst.float64.rel > 0 ? ` (worst: D = ${worst.float64.width}, t = ${worst.float64.t})` : ''),
      },
      {
        name: 'norm-every-position-float32',
        claim: 'The same holds for float32 tables, within float32 rounding',
        pass: worst.float32.rel <= TOL.normRelative32,
        details: `max |‖p_t‖²/(D/2) − 1| = ${fmt(worst.float32.rel)} ≤ ${fmt(TOL.normRelative32)} (≈ 2·2⁻²⁴)`,
      },
      {
        name: 'norm-position0',
        claim: 'Position 0 is (0, 1, 0, 1, …) exactly',
        pass: zeroError === 0,
        details: `every even D from 2 to ${maxWidth} (${zeroWidths} widths), float64 and float32: ` +
          `max |p_0 − (0, 1, 0, 1, …)| = ${fmt(zeroError)}`,
      },
    ],
  };
}

/** The curves of the norm figure, for width D over t = 0 … length−1: sin² and cos² of one pair, and ‖p_t‖²/(D/2). */
export function normCurves(so, { length = 64, width = 8, pair = 1 } = {}) {
  const { data } = so.positions(length, width);
  const t = Array.from({ length }, (_, k) => k);
  const sin2 = t.map((k) => data[k * width + 2 * pair] ** 2);
  const cos2 = t.map((k) => data[k * width + 2 * pair + 1] ** 2);
  const ratio = t.map((k) => {
    let s = 0;
    for (let c = 0; c < width; c += 1) s += data[k * width + c] ** 2;
    return s / (width / 2);
  });
  return { t, sin2, cos2, ratio };
}

// ---- 6. The start offset -----------------------------------------------------------------------------------------

/** Rows start … start+count−1 of a table from 0, computed two ways, and the table restarted at 0 for comparison. */
export function startOffset(so, { start, count, width }) {
  const fromZero = so.positions(start + count, width);
  const offset = so.positions(count, width, { start });
  const restarted = so.positions(count, width);
  const tail = fromZero.data.subarray(start * width);
  return {
    fromZero, offset, restarted,
    error: maxAbsDiff(offset.data, tail),
    restartError: maxAbsDiff(restarted.data, tail),
  };
}

/** The lesson's case (10 tokens of prefix) and larger offsets, checked; plus the live check for slider values. */
export function startOffsetChecks(so, { starts = [10, 1000, 100000], count = 8, width = 64 } = {}) {
  const results = starts.map((start) => ({ start, ...startOffset(so, { start, count, width }) }));
  const bad = results.filter((r) => !(r.error <= TOL.formula(r.start + count)));
  const lesson = results[0];
  return {
    results,
    checks: [
      {
        name: 'start-offset-rows',
        fixed: true,
        claim: 'The rows for start = s equal rows s, s+1, … of a table that starts at 0',
        pass: bad.length === 0,
        details: `${count} rows, D = ${width}: ` + results.map((r) => `s = ${fmt(r.start)}: max |diff| = ${fmt(r.error)} ≤ ` +
          `${fmt(TOL.formula(r.start + count))}`).join('; '),
      },
      {
        name: 'start-offset-restart-differs',
        fixed: true,
        claim: 'Restarting at 0 after a prefix of 10 gives other vectors: the new tokens would claim positions 0, 1, …',
        pass: lesson.restartError > TOL.different,
        details: `rows of start = 0 vs the right rows 10 … ${10 + count - 1}: max |diff| = ${fmt(lesson.restartError)} > ${fmt(TOL.different)}`,
      },
    ],
  };
}

/** The check for the slider's prefix/new-token values. */
export function startOffsetLiveCheck(result, { start, count, width }) {
  return {
    name: 'start-offset-live',
    claim: `Your choice: ${count} new token${count === 1 ? '' : 's'} after a prefix of ${start} use rows ${start} … ${start + count - 1}`,
    pass: result.error <= TOL.formula(start + count),
    details: `D = ${width}: max |positions(${count}, ${width}, start ${start}) − rows ${start}… of positions(${start + count}, ${width})| = ` +
      `${fmt(result.error)} ≤ ${fmt(TOL.formula(start + count))}`,
  };
}

/** The check of the right-hand picture for the slider's values: restarting at 0 is wrong after any prefix. */
export function startOffsetRestartCheck(result, { start, count }) {
  return start === 0 ? {
    name: 'start-offset-live-restart',
    claim: 'With no prefix, start = 0 is right: the new tokens are the first ones',
    pass: result.restartError === 0,
    details: `prefix 0: max |positions(${count}, D) − rows 0… of the table| = ${fmt(result.restartError)} (bit for bit)`,
  } : {
    name: 'start-offset-live-restart',
    claim: `Restarting at 0 after ${start} tokens is wrong: the new tokens would get the rows of positions 0 … ${count - 1}`,
    pass: result.restartError > TOL.different,
    details: `max |rows 0 … ${count - 1} − the right rows ${start} … ${start + count - 1}| = ${fmt(result.restartError)} > ${fmt(TOL.different)}`,
  };
}
