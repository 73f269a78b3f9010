// What several of the page's experiments share: their tolerances (each with its reason), the lesson's robot vector,
// and how vectors and shapes are written in a check's numbers. Pure: no DOM.
import { fmt } from '../format.mjs';

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
  /** "Equal": the two sides are the same sums taken in another order; rounding stays near 1e-16 per value. */
  same: 1e-12,
  /** "Different": far above rounding; the differences shown are of order 0.1 to 1. */
  different: 1e-3,
});

/** A vector as "(0, 0.125, …)", each value to `digits` significant digits. */
export function vec(values, digits = 3) {
  return `(${Array.from(values, (v) => fmt(v, digits)).join(', ')})`;
}

/** A shape as "(4, 8)". */
export function shapeText(shape) {
  return `(${shape.join(', ')})`;
}

/** Two shapes are equal. */
export function sameShape(a, b) {
  return a.length === b.length && a.every((n, i) => n === b[i]);
}

/** Row r of a (rows, cols) matrix: a tensor { data, shape } or a drawn heatmap's options { data, cols } (a view). */
export function rowOf(matrix, r) {
  const cols = matrix.shape ? matrix.shape[matrix.shape.length - 1] : matrix.cols;
  return matrix.data.subarray(r * cols, (r + 1) * cols);
}

/** The Euclidean norm of a vector. */
export const norm = (v) => Math.sqrt(Array.from(v).reduce((s, x) => s + x * x, 0));

/** A float64 tensor of `data` (copied) with `shape`. */
export function tensor(data, shape) {
  return { data: Float64Array.from(data), shape, dtype: 'float64' };
}
