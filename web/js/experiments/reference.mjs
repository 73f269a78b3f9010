// Plain-JS references the page's checks compare seqorder against: the lesson's positions formula (the page's only
// JS copy of it), the frequencies, max |a − b|, matrix products and attention written out. Float64, straightforward
// loops, nothing shared with the core. Pure: no DOM; node and the page import it.

/** The frequency of pair i: base^(−2i/width), in radians per position. */
export function frequency(i, width, base = 10000) {
  return base ** (-(2 * i) / width);
}

/** f_i for i = 0 … width/2 − 1. */
export function frequencies(width, base = 10000) {
  return Array.from({ length: width / 2 }, (_, i) => frequency(i, width, base));
}

/**
 * The lesson's table: (length, width) row-major, column 2i = sin(t·f_i), column 2i+1 = cos(t·f_i),
 * t = start … start+length−1. Returns a float64 tensor { data, shape, dtype }.
 */
export function positionsFormula(length, width, { start = 0, base = 10000 } = {}) {
  const f = frequencies(width, base);
  const data = new Float64Array(length * width);
  for (let r = 0; r < length; r += 1) {
    for (let i = 0; i < f.length; i += 1) {
      const angle = (start + r) * f[i];
      data[r * width + 2 * i] = Math.sin(angle);
      data[r * width + 2 * i + 1] = Math.cos(angle);
    }
  }
  return { data, shape: [length, width], dtype: 'float64' };
}

/**
 * max_i |a_i − b_i| over two tensors ({ data }) or array-likes (NaN if the lengths differ or any difference is NaN).
 */
export function maxAbsDiff(a, b) {
  const x = a.data ?? a;
  const y = b.data ?? b;
  if (x.length !== y.length) return NaN;
  let max = 0;
  for (let i = 0; i < x.length; i += 1) {
    const d = Math.abs(x[i] - y[i]);
    if (!(d <= max)) max = d; // also propagates NaN
  }
  return max;
}

/** Every row of a (T, D) dotted with every row of b (T', D) → (T, T'): a·bᵀ. */
export function dotProducts(a, b) {
  const [rows, width] = a.shape;
  const cols = b.shape[0];
  const data = new Float64Array(rows * cols);
  for (let m = 0; m < rows; m += 1) {
    for (let n = 0; n < cols; n += 1) {
      let dot = 0;
      for (let d = 0; d < width; d += 1) dot += a.data[m * width + d] * b.data[n * width + d];
      data[m * cols + n] = dot;
    }
  }
  return { data, shape: [rows, cols], dtype: 'float64' };
}

/** x (T, D) times w (D, E) → (T, E). */
export function matmul(x, w) {
  const [rows, inner] = x.shape;
  const cols = w.shape[1];
  const data = new Float64Array(rows * cols);
  for (let r = 0; r < rows; r += 1) {
    for (let c = 0; c < cols; c += 1) {
      let s = 0;
      for (let k = 0; k < inner; k += 1) s += x.data[r * inner + k] * w.data[k * cols + c];
      data[r * cols + c] = s;
    }
  }
  return { data, shape: [rows, cols], dtype: 'float64' };
}

/**
 * Attention written out for one sequence: q (Tq, D), k (Tk, D), v (Tk, Dv) → output (Tq, Dv), queries at positions
 * queryStart … (default Tk − Tq) when causal. Softmax with the row maximum subtracted; hidden keys weigh 0.
 */
export function attentionFormula(q, k, v, { causal = false, queryStart } = {}) {
  const [Tq, D] = q.shape;
  const Tk = k.shape[0];
  const Dv = v.shape[1];
  const first = queryStart ?? Tk - Tq;
  const scores = dotProducts(q, k).data;
  const data = new Float64Array(Tq * Dv);
  for (let i = 0; i < Tq; i += 1) {
    const seen = causal ? Math.min(Tk, first + i + 1) : Tk;
    let max = -Infinity;
    for (let j = 0; j < seen; j += 1) max = Math.max(max, scores[i * Tk + j] / Math.sqrt(D));
    const w = [];
    let total = 0;
    for (let j = 0; j < seen; j += 1) {
      w.push(Math.exp(scores[i * Tk + j] / Math.sqrt(D) - max));
      total += w[j];
    }
    for (let j = 0; j < seen; j += 1) {
      for (let d = 0; d < Dv; d += 1) data[i * Dv + d] += (w[j] / total) * v.data[j * Dv + d];
    }
  }
  return { data, shape: [Tq, Dv], dtype: 'float64' };
}
