// Linear least squares in plain JS (float64): the affine readout w·x + b that predicts y from the rows x of X with the
// smallest sum of squared errors, fitted by modified Gram–Schmidt, twice (reorthogonalized), on the columns of X
// centered at their means. A column within DEPENDENT of the span of the columns before it (relative to its own norm)
// adds nothing a readout can use but rounding, and is left out (weight 0): a layer norm's output, for one, satisfies
// a linear relation across its coordinates. Pure: no DOM.

/** A column whose part outside the span of those before it is below this share of its norm is left out. */
export const DEPENDENT = 1e-5;

/**
 * The least-squares readout of y (n) from X (n, p, row-major; any array of numbers): { weights (p), intercept, kept
 * (how many columns it uses), n, p }. Throws a RangeError when the sizes do not match or n < 1.
 */
export function fitLeastSquares(X, y, n, p) {
  if (!Number.isInteger(n) || !Number.isInteger(p) || n < 1 || p < 0) throw new RangeError(`fitLeastSquares: n must be an integer ≥ 1 and p ≥ 0, got ${n} and ${p}`);
  if (X.length !== n * p) throw new RangeError(`fitLeastSquares: X must hold n·p = ${n * p} numbers, got ${X.length}`);
  if (y.length !== n) throw new RangeError(`fitLeastSquares: y must hold n = ${n} numbers, got ${y.length}`);
  const means = new Float64Array(p);
  for (let i = 0; i < n; i += 1) for (let j = 0; j < p; j += 1) means[j] += X[i * p + j] / n;
  let yMean = 0;
  for (let i = 0; i < n; i += 1) yMean += y[i] / n;
  const q = [];  // the orthonormal columns, each Float64Array(n)
  const kept = [];  // the column of X each stands for
  const r = [];  // r[k]: row k of R (over the kept columns), R upper triangular: centered X[:, kept] = Q R
  for (let j = 0; j < p; j += 1) {
    const v = new Float64Array(n);
    for (let i = 0; i < n; i += 1) v[i] = X[i * p + j] - means[j];
    const size = norm(v);
    const coefficients = new Float64Array(q.length);
    for (let pass = 0; pass < 2; pass += 1) {
      q.forEach((qk, k) => {
        const c = dot(qk, v);
        coefficients[k] += c;
        for (let i = 0; i < n; i += 1) v[i] -= c * qk[i];
      });
    }
    const rest = norm(v);
    if (!(size > 0) || rest <= DEPENDENT * size) continue;
    for (let i = 0; i < n; i += 1) v[i] /= rest;
    coefficients.forEach((c, k) => { r[k].push(c); });
    r.push([...new Array(q.length).fill(0), rest]);
    q.push(v);
    kept.push(j);
  }
  // y's coordinates along q (modified Gram–Schmidt: each taken from what the ones before left), then R w = c
  const residual = Float64Array.from(y, (v) => v - yMean);
  const c = q.map((qk) => {
    const ck = dot(qk, residual);
    for (let i = 0; i < n; i += 1) residual[i] -= ck * qk[i];
    return ck;
  });
  const w = new Float64Array(q.length);
  for (let k = q.length - 1; k >= 0; k -= 1) {
    let s = c[k];
    for (let m = k + 1; m < q.length; m += 1) s -= r[k][m] * w[m];
    w[k] = s / r[k][k];
  }
  const weights = new Float64Array(p);
  kept.forEach((j, k) => { weights[j] = w[k]; });
  let intercept = yMean;
  for (let j = 0; j < p; j += 1) intercept -= weights[j] * means[j];
  return { weights, intercept, kept: kept.length, n, p };
}

/** The readout's predictions for the rows of X (m, p): Float64Array(m). */
export function predict(fit, X, m) {
  const { weights, intercept, p } = fit;
  if (X.length !== m * p) throw new RangeError(`predict: X must hold m·p = ${m * p} numbers, got ${X.length}`);
  const out = new Float64Array(m);
  for (let i = 0; i < m; i += 1) {
    let s = intercept;
    for (let j = 0; j < p; j += 1) s += weights[j] * X[i * p + j];
    out[i] = s;
  }
  return out;
}

/**
 * What makes a fit the least-squares one, measured: the largest |cosine| between its residual y − ŷ on the rows it was
 * fitted on and any centered column of X (the normal equations say 0).
 */
export function optimality(fit, X, y) {
  const { n, p } = fit;
  const residual = predict(fit, X, n).map((v, i) => y[i] - v);
  const rNorm = norm(residual);
  let largest = 0;
  for (let j = 0; j < p; j += 1) {
    let mean = 0;
    for (let i = 0; i < n; i += 1) mean += X[i * p + j] / n;
    let d = 0;
    let cNorm2 = 0;
    for (let i = 0; i < n; i += 1) {
      const x = X[i * p + j] - mean;
      d += x * residual[i];
      cNorm2 += x * x;
    }
    if (cNorm2 > 0 && rNorm > 0) largest = Math.max(largest, Math.abs(d) / (Math.sqrt(cNorm2) * rNorm));
  }
  return largest;
}

function dot(a, b) {
  let s = 0;
  for (let i = 0; i < a.length; i += 1) s += a[i] * b[i];
  return s;
}

/** The Euclidean norm of v. */
function norm(v) {
  return Math.sqrt(dot(v, v));
}
