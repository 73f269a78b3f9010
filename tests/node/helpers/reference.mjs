// An independent plain-JS reference for seqorder's public API, written from the lesson's definitions (not from the
// C++ core): every value is computed in float64 with Math.sin/cos/exp, the obvious loops, and no recurrence or
// shortcut. Tensors are the API's plain { data, shape, dtype } objects.
//
// Each function returns the exact-arithmetic value up to float64 rounding, plus, where the API computes something
// (not a pure copy), an element-wise error bound: how far a correct float64 or float32 implementation may be from the
// true value. The bounds come from the usual rounding-error analysis (unit roundoff u = 2^-53 or 2^-24 per operation,
// gamma(n) = n u / (1 - n u) for a sum of n terms, an absolute term for subnormal underflow) with a safety factor of
// 4, so a wrong mask, a wrong scale, a swapped index or a lost row is still far outside them on ordinary inputs.

export const UNIT_ROUNDOFF = Object.freeze({ float64: 2 ** -53, float32: 2 ** -24 });
/** The smallest subnormal: it bounds the absolute error of one rounding in the underflow range (half of it would be
 * the exact bound, but 2^-1075 is not a float64: it rounds to 0). */
const UNDERFLOW = Object.freeze({ float64: 2 ** -1074, float32: 2 ** -149 });
const ARRAYS = Object.freeze({ float64: Float64Array, float32: Float32Array, int32: Int32Array });
const SAFETY = 4;

const gamma = (n, u) => (n * u) / Math.max(1 - n * u, 0.5);
/** Error bound of sin or cos of the angle t f_i computed in float64 (see positions). */
const ANGLE_BOUND = (angle) => UNIT_ROUNDOFF.float64 * (SAFETY * 1024 + 4 * Math.abs(angle));

/** Rounds a float64 array to the dtype (Float32Array rounds to nearest, ties to even, as a C++ cast does). */
export function rounded(values, dtype) {
  return ARRAYS[dtype].from(values);
}

/** f_i = base^(-2i / width), i = 0 .. width/2 - 1: the lesson's frequencies. */
export function frequencies(width, base = 10000) {
  const f = new Float64Array(width / 2);
  for (let i = 0; i < width / 2; i++) f[i] = Math.pow(base, (-2 * i) / width);
  return f;
}

/**
 * The sinusoid table (length, width): row r is t = start + r; column 2i = sin(t f_i), 2i+1 = cos(t f_i)
 * ('halves': column i = sin, column width/2 + i = cos). Returns { data (float64, exact up to one rounding), bound }.
 * Bound: the angle t f_i is rounded here and in the core (u t f_i each), and two libms' pow may differ by an ulp of
 * f_i (2 u t f_i): 4 u t f_i covers these without a safety factor (4.4e-10 at t f_i = 1e6, inside the 1e-9 promised
 * against numpy). A fast path may carry sin/cos from an exact anchor row by rotations, each adding a few u (the core
 * documents <= 3.5 u per row for < 256 rows: <= 900 u): 4 * 1024 u (4.5e-13) covers it. A float32 table adds one
 * rounding to float32 (2^-24 for values below 1).
 */
export function positions(length, width, { start = 0, base = 10000, dtype = 'float64', layout = 'interleaved' } = {}) {
  const f = frequencies(width, base);
  const half = width / 2;
  const data = new Float64Array(length * width);
  const bound = new Float64Array(length * width);
  for (let r = 0; r < length; r++) {
    const t = start + r;
    for (let i = 0; i < half; i++) {
      const angle = t * f[i];
      const [sinColumn, cosColumn] = layout === 'halves' ? [i, half + i] : [2 * i, 2 * i + 1];
      data[r * width + sinColumn] = Math.sin(angle);
      data[r * width + cosColumn] = Math.cos(angle);
      const b = ANGLE_BOUND(angle) + (dtype === 'float32' ? UNIT_ROUNDOFF.float32 : 0);
      bound[r * width + sinColumn] = b;
      bound[r * width + cosColumn] = b;
    }
  }
  return { data, bound, shape: [length, width], dtype };
}

/** Token lookup: row ids[n] of table (V, D), for ids (T) or (B, T). A copy: exact. Throws on an id outside [0, V). */
export function embed(table, ids) {
  const [vocab, width] = table.shape;
  const data = new ARRAYS[table.dtype](ids.data.length * width);
  ids.data.forEach((id, n) => {
    if (!(id >= 0 && id < vocab)) throw new RangeError(`reference: id ${id} outside 0..${vocab - 1}`);
    data.set(table.data.subarray(id * width, (id + 1) * width), n * width);
  });
  return { data, shape: [...ids.shape, width], dtype: table.dtype };
}

/** x (T, D) or (B, T, D) + positions(T, D, start, base) broadcast over the batch. */
export function addPositions(x, { start = 0, base = 10000 } = {}) {
  const [length, width] = x.shape.slice(-2);
  const table = positions(length, width, { start, base, dtype: x.dtype });
  const per = length * width;
  const u = UNIT_ROUNDOFF[x.dtype];
  const data = new Float64Array(x.data.length);
  const bound = new Float64Array(x.data.length);
  for (let n = 0; n < x.data.length; n++) {
    data[n] = x.data[n] + table.data[n % per];
    // the table's error, plus one rounding of the sum (of a sum of two T values when T is float32)
    bound[n] = table.bound[n % per] + SAFETY * (2 * u * (Math.abs(x.data[n]) + 1) + UNDERFLOW[x.dtype]);
  }
  return { data, bound, shape: [...x.shape], dtype: x.dtype };
}

/** Rows start .. start+length-1 of table (P, D). A copy: exact. Throws past the last row. */
export function learnedPositions(table, length, { start = 0 } = {}) {
  const [rows, width] = table.shape;
  if (start + length > rows) throw new RangeError(`reference: rows ${start}..${start + length - 1} past ${rows}`);
  const data = table.data.slice(start * width, (start + length) * width);
  return { data, shape: [length, width], dtype: table.dtype };
}

/**
 * Rotary positions: pair (2i, 2i+1) of row r rotated by (start + r) f_i. Returns { data, bound }: the angle's error
 * (as for positions) times the pair's norm, plus one rounding to the dtype.
 */
export function rope(x, { start = 0, base = 10000 } = {}) {
  const [length, width] = x.shape.slice(-2);
  const f = frequencies(width, base);
  const u = UNIT_ROUNDOFF[x.dtype];
  const data = new Float64Array(x.data.length);
  const bound = new Float64Array(x.data.length);
  for (let n = 0; n < x.data.length; n += 2) {
    const r = Math.floor(n / width) % length;
    const i = (n % width) / 2;
    const angle = (start + r) * f[i];
    const [c, s] = [Math.cos(angle), Math.sin(angle)];
    const [a, b] = [x.data[n], x.data[n + 1]];
    data[n] = a * c - b * s;
    data[n + 1] = a * s + b * c;
    const norm = Math.abs(a) + Math.abs(b);
    const e = norm * ANGLE_BOUND(angle) + SAFETY * (u * norm * 2 + UNDERFLOW[x.dtype]);
    bound[n] = e;
    bound[n + 1] = e;
    // An infinite input times a sine or cosine whose sign the angle's error leaves open: any non-finite result is
    // right (Infinity as the bound of a non-finite value; see difference()).
    const open = (z) => z !== 0 && Math.abs(z) <= ANGLE_BOUND(angle);
    if (!Number.isFinite(norm) && (open(c) || open(s))) {
      if (!Number.isFinite(data[n])) bound[n] = Infinity;
      if (!Number.isFinite(data[n + 1])) bound[n + 1] = Infinity;
    }
  }
  return { data, bound, shape: [...x.shape], dtype: x.dtype };
}

/**
 * Scaled dot-product attention, the four steps of the lesson, in float64.
 * q (Tq, D) or (B, Tq, D), k (.., Tk, D), v (.., Tk, Dv). Causal: query i sits at position queryStart + i and sees
 * keys 0 .. queryStart + i (default queryStart = Tk - Tq); hidden keys get scaled = -Infinity and weight exactly 0.
 * Returns { scores, scaled, weights, output } (float64 data, the API's shapes), each with a `bound` array (see above;
 * u is the dtype's: a float32 implementation accumulates in float32).
 */
export function attention(q, k, v, { causal = false, queryStart } = {}) {
  const batched = q.shape.length === 3;
  const B = batched ? q.shape[0] : 1;
  const [Tq, D] = q.shape.slice(-2);
  const [Tk] = k.shape.slice(-2);
  const Dv = v.shape[v.shape.length - 1];
  const start = queryStart ?? Tk - Tq;
  const u = UNIT_ROUNDOFF[q.dtype];
  const eta = UNDERFLOW[q.dtype];
  // A float64 implementation is compared with a float64 reference: both have rounding errors, so the bound doubles.
  const twice = q.dtype === 'float64' ? 2 : 1;
  const lead = batched ? [B] : [];
  const make = (n, shape) => ({ data: new Float64Array(n), bound: new Float64Array(n), shape: [...lead, ...shape], dtype: q.dtype });
  const scores = make(B * Tq * Tk, [Tq, Tk]);
  const scaled = make(B * Tq * Tk, [Tq, Tk]);
  const weights = make(B * Tq * Tk, [Tq, Tk]);
  const output = make(B * Tq * Dv, [Tq, Dv]);
  const sqrtD = Math.sqrt(D);
  for (let b = 0; b < B; b++) {
    for (let i = 0; i < Tq; i++) {
      const row = (b * Tq + i) * Tk;
      const visible = causal ? start + i + 1 : Tk;
      // 1. scores: q_i . k_j, and the sum of |products| that bounds its rounding error
      let delta = 0; // largest error of a visible scaled score: perturbs the softmax
      for (let j = 0; j < Tk; j++) {
        let dot = 0;
        let magnitude = 0;
        for (let d = 0; d < D; d++) {
          const p = q.data[(b * Tq + i) * D + d] * k.data[(b * Tk + j) * D + d];
          dot += p;
          magnitude += Math.abs(p);
        }
        scores.data[row + j] = dot;
        scores.bound[row + j] = SAFETY * twice * (gamma(D + 1, u) * magnitude + D * eta);
        // 2. scaled, then the mask
        const scoreBound = scores.bound[row + j];
        if (j < visible) {
          scaled.data[row + j] = dot / sqrtD;
          scaled.bound[row + j] = (scoreBound + SAFETY * twice * 4 * u * Math.abs(dot)) / sqrtD + SAFETY * eta;
          delta = Math.max(delta, scaled.bound[row + j]);
        } else {
          scaled.data[row + j] = -Infinity;
          scaled.bound[row + j] = 0;
        }
      }
      // 3. weights: softmax over the visible keys (the maximum subtracted first); hidden keys exactly 0
      let max = -Infinity;
      for (let j = 0; j < visible; j++) max = Math.max(max, scaled.data[row + j]);
      let sum = 0;
      for (let j = 0; j < visible; j++) sum += Math.exp(scaled.data[row + j] - max);
      for (let j = 0; j < Tk; j++) {
        if (j < visible) {
          const w = Math.exp(scaled.data[row + j] - max) / sum;
          weights.data[row + j] = w;
          // softmax is invariant to a shift; perturbing its inputs by <= delta changes w by a factor <= e^(2 delta);
          // exp, the subtraction, the sum and the division add a few u each
          const relative = 2 * delta + twice * (2 * u * Math.abs(scaled.data[row + j] - max) + 2 * (Tk + 4) * u);
          // (past a shift of 1/2 the bound is simply the range of a weight: the reference may have underflowed)
          weights.bound[row + j] = relative > 0.5 || Number.isNaN(relative) ? 1 : SAFETY * (w * Math.expm1(relative) + 4 * eta);
        } else {
          weights.data[row + j] = 0;
          weights.bound[row + j] = 0;
        }
      }
      // 4. output: weights . v (zeros when there is nothing to attend to, Tk = 0)
      for (let e = 0; e < Dv; e++) {
        let o = 0;
        let magnitude = 0;
        let propagated = 0;
        for (let j = 0; j < visible; j++) {
          const value = v.data[(b * Tk + j) * Dv + e];
          o += weights.data[row + j] * value;
          magnitude += weights.data[row + j] * Math.abs(value);
          propagated += weights.bound[row + j] * Math.abs(value);
        }
        const at = (b * Tq + i) * Dv + e;
        output.data[at] = o;
        output.bound[at] = propagated + SAFETY * twice * (gamma(Tk + 1, u) * magnitude + Tk * eta);
      }
    }
  }
  return { scores, scaled, weights, output };
}

/**
 * Compares an API result with a reference: same shape and dtype, and every element within the reference's bound
 * (exactly equal where the reference has no bound). Non-finite reference values must be matched exactly (a NaN by a
 * NaN, an infinity by the same infinity). Returns '' when they agree, else a description of the first difference.
 */
export function difference(got, want) {
  if (!got || typeof got !== 'object') return `expected a tensor, got ${typeof got}`;
  if (got.dtype !== want.dtype) return `dtype ${got.dtype} != ${want.dtype}`;
  if (!(got.data instanceof ARRAYS[want.dtype])) return `data is a ${got.data?.constructor?.name}, not a ${ARRAYS[want.dtype].name}`;
  if (JSON.stringify(got.shape) !== JSON.stringify(want.shape)) return `shape [${got.shape}] != [${want.shape}]`;
  if (got.data.length !== want.data.length) return `length ${got.data.length} != ${want.data.length}`;
  for (let n = 0; n < want.data.length; n++) {
    const [a, b] = [got.data[n], want.data[n]];
    if (!want.bound) {
      if (!Object.is(a, b)) return `element ${n}: ${a} != ${b} (a copy must be exact)`;
      continue;
    }
    if (!Number.isFinite(b)) {
      // exactly, unless the reference says its sign is open (bound Infinity): then any non-finite value
      if (!Object.is(a, b) && !(want.bound[n] === Infinity && !Number.isFinite(a)))
        return `element ${n}: ${a} != ${b} (non-finite values must match)`;
      continue;
    }
    if (!(Math.abs(a - b) <= want.bound[n])) return `element ${n}: ${a} vs ${b}, |diff| ${Math.abs(a - b)} > bound ${want.bound[n]}`;
  }
  return '';
}
