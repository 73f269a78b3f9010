// Section add-position's two parts at the scale of the lab's model (web/js/experiments/add-position.mjs, modelScales
// and scaleSentences), in node: its checks pass against the real module and catch a model that ignores embedScale or
// starts from larger token vectors; the norms are those of the lab's sinusoidal model as created (its parameters,
// written out here), the position vector's √(D/2) from the sine-cosine pairs; the sentence holds against the table the
// section draws and fails against one that contradicts it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadSeqorder, siteModule } from './helpers/load.mjs';
import { verdicts } from './helpers/verdicts.mjs';

const so = await loadSeqorder();
const { modelScales, scaleSentences } = await siteModule('js/experiments/add-position.mjs');

/** What the section draws: a row per word, its norm as created and × √D, and the position vector's. */
const drawnOf = (r) => ({ scales: { headers: ['word', 'as created', '× √D', 'p_t'], rows: r.words.map((w, i) => [w, r.norms[i], r.scaledNorms[i], r.positionNorm]) } });

test('the lab\'s model as created: its token vectors\' norms, ×√D, against the position vector\'s √(D/2)', () => {
  const r = modelScales(so);
  assert.deepEqual(Object.entries(verdicts(r.checks)), [['add-position-model-positions', true], ['add-position-model-tokens-shorter', true],
    ['add-position-model-scale-lookup', true]]);
  // the norms, from the lab's sinusoidal model's parameters written out here (width 32, 16 words, seed 1)
  const model = so.createModel({ vocab: 16, width: 32, heads: 2, classes: 2, positions: 'sinusoidal', seed: 1 });
  const embed = model.parameters().embed.data;
  model.dispose();
  const here = Array.from({ length: 16 }, (_, w) => Math.hypot(...embed.subarray(32 * w, 32 * w + 32)));
  assert.deepEqual([r.width, r.seed, r.words], [32, 1, so.taskWords]);
  r.norms.forEach((n, w) => assert.ok(Math.abs(n - here[w]) <= 1e-15 * here[w], `${r.words[w]}: ${n} against ${here[w]}`));
  r.scaledNorms.forEach((n, w) => assert.ok(Math.abs(n - Math.sqrt(32) * here[w]) <= 1e-15 * n));
  // every pair sin² + cos² = 1, 16 pairs: √16 = 4
  assert.ok(Math.abs(r.positionNorm - 4) <= 1e-14);
  // entries of std 0.02: a norm near 0.02 √32 = 0.11, far below 4
  const typical = here.reduce((a, b) => a + b, 0) / 16;
  assert.ok(typical > 0.08 && typical < 0.15, `${typical}`);
});

test('the checks catch a model that ignores embedScale, and one that starts from larger token vectors', () => {
  const ignoring = { ...so, taskWords: so.taskWords, positions: so.positions, createModel: (options) => so.createModel({ ...options, embedScale: 1 }) };
  assert.equal(verdicts(modelScales(ignoring).checks)['add-position-model-scale-lookup'], false);
  const larger = {
    ...so, taskWords: so.taskWords, positions: so.positions,
    createModel(options) {
      const model = so.createModel(options);
      const params = model.parameters();
      model.setParameters({ ...params, embed: { ...params.embed, data: params.embed.data.map((x) => 50 * x) } });
      return model;
    },
  };
  assert.equal(verdicts(modelScales(larger).checks)['add-position-model-tokens-shorter'], false);
});

test('the sentence: written from the norms, true of the table drawn, false of one that contradicts it', () => {
  const r = modelScales(so);
  const [s] = scaleSentences(r);
  assert.match(s.text, /^Norms in the lab’s model as created \(D = 32, seed 1\): token vectors 0\.\d+–0\.\d+ \(median 0\.\d+\), position vectors 4, \d+× the median; × √D: 0\.\d+–0\.\d+, [\d.]+×\.$/);
  assert.equal(s.holds(drawnOf(r)), true);
  const unscaled = drawnOf({ ...r, scaledNorms: r.norms });
  assert.equal(s.holds(unscaled), false);
  const shorter = drawnOf({ ...r, positionNorm: 2 });
  assert.equal(s.holds(shorter), false);
});
