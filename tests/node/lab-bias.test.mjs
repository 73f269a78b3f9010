// The bias family's matrices as the lab draws them (web/js/lab/bias.mjs, as built in the site) against what the model
// adds to its scores: a model whose queries are zero (wq = 0) scores every key 0, so its attention weights are the
// softmax of its bias alone; for ALiBi (1 … 8 heads, causal and bidirectional) and the T5 relative bias (distinct
// learned values, sentences past maxDistance, causal and bidirectional) the softmax of the drawn matrix, computed here
// in float64, equals model.attentionWeights. Sabotaged matrices (the slopes of twice the heads, the distance's sign
// flipped, the buckets shifted by one) fail the same comparison. The bias by offset (the bench page's plot of a trained
// relative model) is every row of that matrix: entry (i, j) is its value at d = j − i; read one offset off, it is not.
// The page's check beside the bias maps (biasCheck, on the weights of zeroQueryWeights' copy) passes on the drawn
// matrix and fails on the sabotaged ones and on a model whose queries still score.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadSeqorder, siteModule } from './helpers/load.mjs';

const { alibiSlopes, biasByOffset, biasCheck, biasMatrix, relativeBucket, zeroQueryWeights } = await siteModule('js/lab/bias.mjs');
const so = await loadSeqorder();

/** The largest |softmax(bias row) − weight| over every head and query (masked keys: −Infinity, weight 0). */
function largestDifference(bias, weights, H, T) {
  let largest = 0;
  for (let h = 0; h < H; h++) {
    for (let i = 0; i < T; i++) {
      const row = Array.from(bias.data.subarray((h * T + i) * T, (h * T + i + 1) * T));
      const top = Math.max(...row);
      const e = row.map((v) => Math.exp(v - top));
      const sum = e.reduce((a, b) => a + b, 0);
      for (let j = 0; j < T; j++) largest = Math.max(largest, Math.abs(e[j] / sum - weights.data[(h * T + i) * T + j]));
    }
  }
  return largest;
}

/** A one-layer model of `options` whose queries are zero, and (relative) its bias table set to distinct values. */
function zeroQueries(options) {
  const width = 4 * options.heads;
  const model = so.createModel({ vocab: 16, width, classes: 2, layers: 1, seed: 3, ...options });
  const set = { 'layers.0.attention.wq': { data: new Float32Array(width * width), shape: [width, width] } };
  if (options.positions === 'relative') {
    const { shape } = model.parameters().relativeBias;
    set.relativeBias = { data: Float32Array.from({ length: shape[0] * shape[1] }, (_, k) => Math.sin(1.7 * k + 0.3) * 3), shape };
  }
  model.setParameters(set);
  return model;
}

const sentence = (T) => ({ data: Int32Array.from({ length: T }, (_, t) => (7 * t + 3) % 16), shape: [1, T] });

test('ALiBi: the drawn bias is what the model adds (1 … 8 heads, causal and bidirectional); other slopes are not', () => {
  for (const causal of [false, true]) {
    for (const heads of [1, 2, 3, 4, 5, 6, 7, 8]) {
      const T = 24;
      const model = zeroQueries({ positions: 'alibi', heads, causal });
      const weights = model.attentionWeights(sentence(T));
      const bias = biasMatrix(model.config, T);
      assert.ok(largestDifference(bias, weights, heads, T) < 1e-6, `${heads} heads, causal ${causal}`);
      // sabotage: the first slopes of twice as many heads
      const other = biasMatrix({ ...model.config, heads: 2 * heads }, T);
      const shifted = { data: other.data.filter((_, k) => Math.floor(k / (T * T)) < heads) };
      assert.ok(largestDifference(shifted, weights, heads, T) > 1e-3, `other slopes pass at ${heads} heads`);
      model.dispose();
    }
  }
  assert.deepEqual(alibiSlopes(6), [1 / 4, 1 / 16, 1 / 64, 1 / 256, 1 / 2, 1 / 8]);  // docs/model.md's example
  assert.deepEqual(alibiSlopes(8), [1 / 2, 1 / 4, 1 / 8, 1 / 16, 1 / 32, 1 / 64, 1 / 128, 1 / 256]);
});

test('the T5 relative bias: the drawn bias is what the model adds, past maxDistance too; a flipped distance or shifted buckets are not', () => {
  for (const causal of [false, true]) {
    const T = 150;
    const model = zeroQueries({ positions: 'relative', heads: 2, causal });
    const weights = model.attentionWeights(sentence(T));
    const { relativeBias } = model.parameters();
    assert.ok(largestDifference(biasMatrix(model.config, T, relativeBias), weights, 2, T) < 1e-6, `causal ${causal}`);
    // sabotage: the distance query − key instead of key − query (bidirectional: the two directions swapped)
    const flipped = biasMatrix(model.config, T, relativeBias);
    for (let h = 0; h < 2; h++) {
      for (let i = 0; i < T; i++) {
        for (let j = 0; j <= i; j++) flipped.data[(h * T + i) * T + j] = relativeBias.data[relativeBucket(i - j, model.config) * 2 + h];
      }
    }
    assert.ok(largestDifference(flipped, weights, 2, T) > 1e-3, `a flipped distance passes, causal ${causal}`);
    // sabotage: every bucket one further (the last kept)
    const last = model.config.buckets - 1;
    const shiftedBias = { data: Float32Array.from(relativeBias.data, (_, k) => relativeBias.data[Math.min(Math.floor(k / 2) + 1, last) * 2 + (k % 2)]) };
    assert.ok(largestDifference(biasMatrix(model.config, T, shiftedBias), weights, 2, T) > 1e-3, `shifted buckets pass, causal ${causal}`);
    model.dispose();
  }
  // docs/model.md's example, bidirectional with the defaults: −8 … −11 bucket 8, −12 … −15 bucket 9, −128 bucket 15, +3 bucket 19
  const defaults = { causal: false, buckets: 32, maxDistance: 128 };
  assert.deepEqual([-7, -8, -11, -12, -15, -128, -400, 3].map((d) => relativeBucket(d, defaults)), [7, 8, 8, 9, 9, 15, 15, 19]);
});

test('the relative bias by offset: entry (i, j) of the matrix the model adds is its value at d = j − i; an offset off is not', () => {
  for (const causal of [false, true]) {
    const T = 140;
    const model = zeroQueries({ positions: 'relative', heads: 2, causal });
    const { relativeBias } = model.parameters();
    const matrix = biasMatrix(model.config, T, relativeBias);
    const { offsets, values, shape } = biasByOffset(model.config, T, relativeBias);
    assert.deepEqual(shape, [2, causal ? T : 2 * T - 1]);
    assert.equal(offsets[0], -(T - 1));
    assert.equal(offsets.at(-1), causal ? 0 : T - 1);
    const at = (h, d, shift = 0) => values[h * offsets.length + offsets.indexOf(d) + shift];
    let same = true;
    let shifted = 0;
    for (let h = 0; h < 2; h++) {
      for (let i = 0; i < T; i++) {
        for (let j = 0; j < (causal ? i + 1 : T); j++) {
          const m = matrix.data[(h * T + i) * T + j];
          same &&= m === at(h, j - i);
          // sabotage: the value one offset further out (towards −(T − 1))
          if (j - i > -(T - 1) && m !== at(h, j - i, -1)) shifted += 1;
        }
      }
    }
    assert.ok(same, `causal ${causal}`);
    assert.ok(shifted > 0, `an offset off passes, causal ${causal}`);
    model.dispose();
  }
});

test('the page\'s bias check: passes on the drawn matrix, fails on twice the heads\' slopes and on the distance\'s sign flipped', () => {
  const T = 20;
  for (const options of [{ positions: 'alibi', heads: 4, causal: false }, { positions: 'relative', heads: 2, causal: true }]) {
    const model = zeroQueries({ ...options, layers: 2 });
    const weights = model.attentionWeights(sentence(T));
    const relativeBias = options.positions === 'relative' ? model.parameters().relativeBias : null;
    const drawn = biasMatrix(model.config, T, relativeBias);
    const ok = biasCheck('lab-bias-x', 'the model', drawn, weights);
    assert.equal(ok.pass, true, `${options.positions}: ${ok.claim}`);
    assert.match(ok.claim, /^the model: .* within 1e-6 \(largest difference \d\.\de-\d+, \d heads, T = 20\)$/);
    const H = options.heads;
    // sabotage: the slopes (alibi) or the bias (relative) of twice the heads, the first H kept
    const twice = options.positions === 'alibi' ? biasMatrix({ ...model.config, heads: 2 * H }, T)
      : biasMatrix({ ...model.config, heads: 2 * H }, T, { data: Float32Array.from({ length: relativeBias.data.length * 2 }, (_, k) => relativeBias.data[(k * 7) % relativeBias.data.length]) });
    const fewer = { data: twice.data.slice(0, H * T * T), shape: [H, T, T] };
    // sabotage: the distance's sign flipped (key − query read as query − key), the mask kept
    const flipped = biasMatrix(model.config, T, relativeBias);
    for (let h = 0; h < H; h++) {
      for (let i = 0; i < T; i++) {
        for (let j = 0; j < T; j++) {
          if (Number.isFinite(flipped.data[(h * T + i) * T + j])) {
            flipped.data[(h * T + i) * T + j] = options.positions === 'alibi' ? -flipped.data[(h * T + i) * T + j]
              : relativeBias.data[relativeBucket(i - j, model.config) * H + h];
          }
        }
      }
    }
    for (const [what, bias] of [['twice the heads', fewer], ['the sign flipped', flipped]]) {
      const bad = biasCheck('lab-bias-x', 'the model', bias, weights);
      assert.equal(bad.pass, false, `${options.positions}, ${what}: ${bad.claim}`);
      assert.match(bad.claim, /not within 1e-6/);
    }
    model.dispose();
  }
});

test('the page\'s copy with wq zeroed: a model whose queries score passes through it; its own weights (wq kept) fail the check', async () => {
  const T = 16;
  for (const options of [{ positions: 'alibi', heads: 2, causal: true }, { positions: 'relative', heads: 2, causal: false }]) {
    const model = so.createModel({ vocab: 16, width: 8, classes: 2, layers: 2, seed: 5, ...options });
    const relativeBias = options.positions === 'relative' ? model.parameters().relativeBias : null;
    const drawn = biasMatrix(model.config, T, relativeBias);
    const copied = biasCheck('lab-bias-x', 'the model', drawn, await zeroQueryWeights((o) => so.createModel(o), model, sentence(T)));
    assert.equal(copied.pass, true, `${options.positions}: ${copied.claim}`);
    const own = biasCheck('lab-bias-x', 'the model', drawn, model.attentionWeights(sentence(T)));
    assert.equal(own.pass, false, `${options.positions}, wq kept: ${own.claim}`);
    model.dispose();
  }
});
