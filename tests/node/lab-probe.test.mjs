// The lab's position probe (web/js/lab/least-squares.mjs and probe.mjs, as built in the site). The least-squares
// readout against numpy's (tests/fixtures/probe.txt: numpy.linalg.lstsq, an SVD, written by make_probe_fixtures.py):
// the same predictions on the scored rows for independent, layer-normed and exactly dependent columns; fitted on
// shuffled positions, they are not. The final vectors an identity readout returns are what the model's own readout
// reads: its logits are z·Wr + br (readout 'each') or mean_t(z_t)·Wr + br ('mean'), computed here in float64. The probe
// of two small models trained as the lab trains them: without positions, the bidirectional one is at chance (its
// vectors depend on the words, not on their order) and the causal one above it; fitted on shuffled positions, the
// causal one falls to chance.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFixtures } from '../fixtures/read.mjs';
import { loadSeqorder, siteModule } from './helpers/load.mjs';

const { DEPENDENT, fitLeastSquares, optimality, predict } = await siteModule('js/lab/least-squares.mjs');
const { ORTHOGONAL, PROBE_COUNT, finalVectors, probeSets, probeVectors } = await siteModule('js/lab/probe.mjs');
const { modelOptions, runConfig } = await siteModule('js/lab/config.mjs');
const { trainingBatch, versusChance } = await siteModule('js/lab/tasks.mjs');
const so = await loadSeqorder();
const fixtures = readFixtures('probe.txt');

const largestGap = (a, b) => a.reduce((m, v, i) => Math.max(m, Math.abs(v - b[i])), 0);

test('least squares: the predictions are numpy\'s (independent, layer-normed and dependent columns); shuffled positions are not', () => {
  for (const name of ['full', 'layernorm', 'duplicate']) {
    const X = fixtures.get(`probe/${name}/X`);
    const y = fixtures.get(`probe/${name}/y`).values;
    const Xs = fixtures.get(`probe/${name}/Xs`);
    const want = fixtures.get(`probe/${name}/predicted`).values;
    const [n, p] = X.shape;
    const fit = fitLeastSquares(X.values, y, n, p);
    assert.ok(largestGap(predict(fit, Xs.values, Xs.shape[0]), want) < 1e-5, name);
    assert.ok(optimality(fit, X.values, y) < ORTHOGONAL, `${name}: the residual is orthogonal to every column`);
    if (name === 'duplicate') assert.equal(fit.kept, p - 1);
    // sabotage: the same rows fitted on their positions shuffled
    const shuffled = Float64Array.from(y, (_, i) => y[(7 * i + 3) % n]);
    assert.ok(largestGap(predict(fitLeastSquares(X.values, shuffled, n, p), Xs.values, Xs.shape[0]), want) > 0.1, `${name}: shuffled passes`);
  }
  assert.ok(DEPENDENT > 0 && DEPENDENT < 1e-3);
  assert.throws(() => fitLeastSquares([1, 2, 3], [1, 2], 2, 2), RangeError);
  assert.throws(() => fitLeastSquares([1, 2], [1, 2, 3], 2, 1), RangeError);
});

/** float64 z·Wr + br for every row of final vectors z (N, D), Wr (D, C). */
function readout(z, rows, D, parameters) {
  const W = parameters['readout.weight'];
  const b = parameters['readout.bias'];
  const C = b.shape[0];
  const out = new Float64Array(rows * C);
  for (let r = 0; r < rows; r += 1) for (let c = 0; c < C; c += 1) {
    let s = b.data[c];
    for (let d = 0; d < D; d += 1) s += z[r * D + d] * W.data[d * C + c];
    out[r * C + c] = s;
  }
  return out;
}

test('the final vectors (an identity readout) are what the model\'s readout reads, readout \'each\' and \'mean\'', async () => {
  for (const [readoutKind, classes] of [['each', 16], ['mean', 2]]) {
    const model = so.createModel({ vocab: 16, width: 12, heads: 2, layers: 2, classes, readout: readoutKind, causal: true, seed: 4, positions: 'rotary' });
    const ids = { data: Int32Array.from({ length: 3 * 7 }, (_, i) => (5 * i + 1) % 16), shape: [3, 7] };
    const [z] = await finalVectors((o) => so.createModel(o), model, [ids], { width: 12, layers: 2, heads: 2 });
    assert.deepEqual(z.shape, [3, 7, 12]);
    const logits = model.forward(ids);
    const parameters = model.parameters();
    /** What the readout reads of vectors z (3, 7, 12): every word's, or each sentence's mean. */
    const read = (z) => {
      if (readoutKind === 'each') return readout(z, 21, 12, parameters);
      const means = new Float64Array(3 * 12);
      for (let s = 0; s < 3; s += 1) for (let t = 0; t < 7; t += 1) for (let d = 0; d < 12; d += 1) means[s * 12 + d] += z[(s * 7 + t) * 12 + d] / 7;
      return readout(means, 3, 12, parameters);
    };
    assert.ok(largestGap(read(z.data), logits.data) < 1e-5, readoutKind);
    // sabotage: each word given the next word's vector (the last sentence's last word the first's)
    assert.ok(largestGap(read(Float32Array.from(z.data, (_, i) => z.data[(i + 12) % z.data.length])), logits.data) > 1e-3, `${readoutKind}: shifted passes`);
    model.dispose();
  }
});

test('the probe of two models trained as the lab trains them: bidirectional without positions at chance, causal above; shuffled, at chance', async () => {
  const config = runConfig({ task: 'lookback', back: 1, models: ['none', 'causal'], width: 16, heads: 2, steps: 200, shortest: 4, longest: 8, seed: 3 });
  const found = {};
  for (const key of config.kinds) {
    const model = so.createModel(modelOptions(config, key, 3, so.taskWords.length));
    for (let k = 0; k < config.steps; k += 1) {
      const { ids, targets } = trainingBatch(so, config, 3, k);
      model.step(ids, targets, { lr: config.lr });
    }
    const { fit, scored } = probeSets(so, config, 3);
    const [a, b] = await finalVectors((o) => so.createModel(o), model, [fit.ids, scored.ids], config);
    found[key] = probeVectors(a, b);
    const n = PROBE_COUNT * 8;
    found[`${key}-shuffled`] = probeVectors(a, b, { positions: Float64Array.from({ length: n }, (_, i) => ((i * 7919) % n) % 8) });
    model.dispose();
  }
  const at = (r) => versusChance(r.accuracy, r.chance, r.scored);
  assert.equal(found.none.chance, 1 / 8);
  assert.equal(at(found.none), 'at', JSON.stringify(found.none));
  assert.equal(at(found.causal), 'above', JSON.stringify(found.causal));
  assert.notEqual(at(found['causal-shuffled']), 'above', JSON.stringify(found['causal-shuffled']));
  for (const key of config.kinds) assert.ok(found[key].orthogonality < ORTHOGONAL, key);
});
