// The bias family's matrices: what an ALiBi or a T5 relative-bias model adds to each head's scores for a sentence of T
// words, (H, T, T), written from the papers' own code (docs/model.md gives the rules): ALiBi's slopes are
// get_slopes of ofirpress/attention_with_linear_biases, T5's buckets its _relative_position_bucket, in float32 as T5
// computes them. A key the causal mask hides is −Infinity (masked). Pure: no DOM.

const f32 = Math.fround;

/** ALiBi's slope of each of H heads (get_slopes): 2^(−8/H) and its powers for H a power of two; else those of the
 * largest power of two P < H, then every other slope of 2P. */
export function alibiSlopes(H) {
  const ofPowerOfTwo = (n) => {
    const start = 2 ** -(2 ** -(Math.log2(n) - 3));
    return Array.from({ length: n }, (_, i) => start * start ** i);
  };
  if (Number.isInteger(Math.log2(H))) return ofPowerOfTwo(H);
  const P = 2 ** Math.floor(Math.log2(H));
  return [...ofPowerOfTwo(P), ...ofPowerOfTwo(2 * P).filter((_, i) => i % 2 === 0).slice(0, H - P)];
}

/** T5's bucket of the distance d = key − query (_relative_position_bucket, bidirectional = !causal). */
export function relativeBucket(d, { causal, buckets, maxDistance }) {
  const b = causal ? buckets : buckets / 2;
  const offset = !causal && d > 0 ? b : 0;
  const n = causal ? Math.max(-d, 0) : Math.abs(d);
  const e = Math.floor(b / 2);
  if (n < e) return offset + n;
  const v = f32(f32(f32(Math.log(f32(n / e))) / f32(Math.log(maxDistance / e))) * (b - e));
  return offset + Math.min(e + Math.trunc(v), b - 1);
}

/**
 * The bias a model adds to its scores for T words: { data: Float32Array (H, T, T), shape: [H, T, T] }. `config`: the
 * model's (createModel's resolved options: positions 'alibi' or 'relative', heads, causal, and for relative buckets and
 * maxDistance); `relativeBias`: its parameter of that name (buckets, H), for relative models.
 */
export function biasMatrix(config, T, relativeBias = null) {
  const H = config.heads;
  const data = new Float32Array(H * T * T);
  const slopes = config.positions === 'alibi' ? alibiSlopes(H) : null;
  for (let h = 0; h < H; h += 1) {
    for (let i = 0; i < T; i += 1) {
      for (let j = 0; j < T; j += 1) {
        let value;
        if (config.causal && j > i) value = -Infinity;
        else if (slopes) value = -(slopes[h] * Math.abs(i - j));
        else value = relativeBias.data[relativeBucket(j - i, config) * H + h];
        data[(h * T + i) * T + j] = value;
      }
    }
  }
  return { data, shape: [H, T, T] };
}

/**
 * A relative-bias model's learned bias by offset: { offsets: d = key − query from −(T − 1) to T − 1 (to 0 when causal),
 * values: Float32Array (H, offsets.length) } with values[h, k] = relativeBias[bucket(offsets[k]), h], what head h adds
 * to the score of a key d places from its query (the same at every query: biasMatrix's row i holds it at j = i + d).
 */
export function biasByOffset(config, T, relativeBias) {
  const H = config.heads;
  const offsets = Array.from({ length: config.causal ? T : 2 * T - 1 }, (_, k) => k - (T - 1));
  const values = new Float32Array(H * offsets.length);
  for (let h = 0; h < H; h += 1) {
    offsets.forEach((d, k) => { values[h * offsets.length + k] = relativeBias.data[relativeBucket(d, config) * H + h]; });
  }
  return { offsets, values, shape: [H, offsets.length] };
}

/** How far, at most, float32 attention weights may stand from the softmax of the bias, computed in float64. */
export const BIAS_TOLERANCE = 1e-6;

/**
 * The largest |softmax(bias row) − weight| over every head h and query i of `bias` (H, T, T) against the first H maps of
 * `weights` (layer 0 of attentionWeights, batch 1): a key masked in the bias (−Infinity) has softmax 0.
 */
export function biasDifference(bias, weights) {
  const [H, T] = bias.shape;
  if (weights.data.length < H * T * T) throw new RangeError(`biasDifference: weights must hold ${H} maps of ${T}×${T}, got ${weights.data.length} values`);
  let largest = 0;
  for (let r = 0; r < H * T; r += 1) {
    const row = bias.data.subarray(r * T, (r + 1) * T);
    const top = Math.max(...row);
    let sum = 0;
    for (let j = 0; j < T; j += 1) sum += Math.exp(row[j] - top);
    for (let j = 0; j < T; j += 1) largest = Math.max(largest, Math.abs(Math.exp(row[j] - top) / sum - weights.data[r * T + j]));
  }
  return largest;
}

/**
 * The check that the drawn `bias` (H, T, T) is what a model adds: `weights` are layer 0's attention weights of a copy of
 * the model (`label`) whose first layer's queries are zero (wq = 0), so every score is its bias alone. { name, pass,
 * claim, details, difference }.
 */
export function biasCheck(name, label, bias, weights, tolerance = BIAS_TOLERANCE) {
  const [H, T] = bias.shape;
  const difference = biasDifference(bias, weights);
  const pass = difference <= tolerance;
  return {
    name, pass, difference,
    claim: `${label}: a copy with its first layer’s queries zeroed (wq = 0) attends as the softmax of the bias drawn, ` +
      `${pass ? 'within' : 'not within'} ${tolerance.toExponential(0)} (largest difference ${difference.toExponential(1)}, ${H} head${H > 1 ? 's' : ''}, T = ${T})`,
    details: 'its layer-0 weights against the softmax of each row of the bias maps, computed in float64',
  };
}

/**
 * Layer 0's attention weights for `ids` of a copy of `model` (a model of createModel, or a pool's handle: its config,
 * parameters()) with the same options and parameters but its first layer's wq zeroed, made by `make(options)`
 * (createModel, or a pool's) and freed before this resolves: what biasCheck compares with the drawn bias.
 */
export async function zeroQueryWeights(make, model, ids) {
  const parameters = await model.parameters();
  const wq = parameters['layers.0.attention.wq'];
  const copy = await make(model.config);
  try {
    await copy.setParameters({ ...parameters, 'layers.0.attention.wq': { data: new wq.data.constructor(wq.data.length), shape: wq.shape } });
    return await copy.attentionWeights(ids);
  } finally {
    await copy.dispose();
  }
}
