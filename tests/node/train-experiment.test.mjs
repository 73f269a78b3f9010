// The page's training experiment (web/js/experiments/train.mjs) in node, on a pool of worker_threads: the default run
// gives the models of the same training written out here on one thread with createModel (the schedule of the C++
// test and the PyTorch reference: step k on orderTask(32, 8 + k % 9, seed 1000 + k), lr 3e-3), parameter hash for
// parameter hash; every check the page shows passes on it; each check fails on measurements that contradict it (so a
// pass means something); the sentences about lengths follow the numbers they are given; stopping stops.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { loadSeqorder, loadSeqorderPool, siteModule } from './helpers/load.mjs';
import { assertAllPass, verdicts } from './helpers/verdicts.mjs';

const {
  CHUNK, DEFAULT_SEED, EVALUATION_LENGTHS, SETUPS, curveFindings, evaluateModels, lengthFindings, parameterHash, score,
  trainModels, trainingChecks,
} = await siteModule('js/experiments/train.mjs');

const so = await loadSeqorder();
let pool;
let run;  // the default run: { models, steps, evaluation, chunks }
before(async () => {
  pool = await loadSeqorderPool({ workers: SETUPS.length });
  const chunks = SETUPS.map(() => []);
  const { models, steps } = await trainModels(pool, so, { seed: DEFAULT_SEED, onChunk: (i, c) => chunks[i].push(c) });
  run = { models, steps, chunks, evaluation: await evaluateModels(models, so) };
});
after(() => pool?.close());

/** The five models of the section, written out: createModel's options and the training, on this thread. */
const OPTIONS = {
  none: { positions: 'none' },
  sinusoidal: { positions: 'sinusoidal' },
  learned: { positions: 'learned', maxLength: 16 },
  rotary: { positions: 'rotary' },
  causal: { positions: 'none', causal: true },
};
function trainHere(key, seed) {
  const model = so.createModel({ vocab: 16, width: 32, heads: 2, layers: 1, readout: 'mean', classes: 2, dtype: 'float32', seed, ...OPTIONS[key] });
  for (let k = 0; k < 800; k++) {
    const { ids, targets } = so.orderTask({ count: 32, length: 8 + (k % 9), seed: 1000 + k });
    model.step(ids, targets, { lr: 3e-3 });
  }
  return model;
}

/** SHA-256 of the parameters' bytes in order, by node's own crypto (not the experiment's parameterHash). */
function hashHere(model) {
  const hash = createHash('sha256');
  for (const t of Object.values(model.parameters())) hash.update(Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength));
  return hash.digest('hex');
}

test('the default run: the models of the same training on one thread, hash for hash', async () => {
  assert.deepEqual(run.steps, SETUPS.map(() => 800));
  for (const [i, setup] of SETUPS.entries()) {
    const here = trainHere(setup.key, DEFAULT_SEED);
    const parameters = await run.models[i].parameters();
    assert.equal(await parameterHash(parameters), hashHere(here), setup.label);
    here.dispose();
  }
});

test('the curves: one point every CHUNK steps, losses as many as steps, accuracies on the held-out pairs', () => {
  for (const chunks of run.chunks) {
    assert.deepEqual(chunks.map((c) => c.step), Array.from({ length: 800 / CHUNK }, (_, j) => (j + 1) * CHUNK));
    assert.ok(chunks.every((c) => c.losses.length === CHUNK && c.losses.every(Number.isFinite) && c.accuracy >= 0 && c.accuracy <= 1));
  }
  // the position-free bidirectional model sees a held-out pair as one bag of words: 50% at every point
  assert.ok(run.chunks[0].every((c) => c.accuracy === 0.5));
  assert.match(curveFindings(run.chunks), /none, bidirectional never did \(50% from first point to last\)/);
});

test('every check of the section passes on the default run, with the numbers of the evaluation', () => {
  const checks = trainingChecks(run.evaluation);
  assert.equal(checks.length, 7);
  assertAllPass(checks);
  const learned = run.evaluation.find((r) => r.key === 'learned');
  assert.deepEqual(learned.lengths[32].error, { name: 'RangeError', message: 'ids have T = 32 positions, but the learned table has 16 rows (maxLength)' });
  // the evaluation is the models' own: the accuracies of the models trained here, at every length
  const here = trainHere('rotary', DEFAULT_SEED);
  for (const T of EVALUATION_LENGTHS) {
    const set = so.orderTask({ count: 512, length: T, seed: 500 + T, mirrored: true });
    assert.deepEqual(run.evaluation.find((r) => r.key === 'rotary').lengths[T], score(here.forward(set.ids), set.targets), `T = ${T}`);
  }
  here.dispose();
});

/** The default run's evaluation with the scores of one model at some lengths replaced. */
function altered(key, lengths) {
  return run.evaluation.map((r) => (r.key === key ? { ...r, lengths: { ...r.lengths, ...lengths } } : r));
}
const at = (accuracy, extra = {}) => ({ accuracy, pairs: 256, pairsOneRight: 0, mirrorDifference: 1, ...extra });

test('each check fails on measurements that contradict its claim', () => {
  const fails = (evaluation, name) => assert.equal(verdicts(trainingChecks(evaluation))[name], false, name);
  fails(altered('none', { 16: { ...run.evaluation[0].lengths[16], mirrorDifference: 3e-5 } }), 'train-none-mirror-logits');
  fails(altered('none', { 64: { ...run.evaluation[0].lengths[64], pairsOneRight: 255 } }), 'train-none-half');
  fails(altered('none', { 8: { error: { name: 'RangeError', message: 'no' } } }), 'train-none-half');
  for (const key of ['sinusoidal', 'learned', 'rotary']) fails(altered(key, { 8: at(0.94), 12: at(0.9), 16: at(0.5) }), `train-${key}-learns`);
  fails(altered('causal', { 12: at(0.94) }), 'train-causal-learns');
  fails(altered('learned', { 32: at(0.6) }), 'train-learned-refuses');
  fails(altered('learned', { 64: { error: { name: 'Error', message: 'the worker stopped' } } }), 'train-learned-refuses');
});

test('the sentences about lengths follow the numbers', () => {
  const text = lengthFindings(run.evaluation).join(' ');
  for (const T of [32, 64]) {
    for (const r of run.evaluation.filter((e) => !e.lengths[T].error)) {
      const share = `${r.label} (${Number((100 * r.lengths[T].accuracy).toPrecision(3))}%)`;
      assert.ok(text.includes(share), `${share} missing from: ${text}`);
    }
  }
  assert.match(text, /The learned \(16 rows\) model gives no answer from T = 32 on: ids have T = 32 positions/);
  const changed = lengthFindings(altered('sinusoidal', { 32: at(0.97), 64: at(0.91) })).join(' ');
  assert.match(changed, /At T = 32, twice the longest training sentence, [^;]*sinusoidal \(97%\)[^;]* kept at least 90%/);
  assert.match(changed, /At T = 64, four times the longest training sentence, [^;]*sinusoidal \(91%\)[^;]* kept at least 90%/);
  const none = lengthFindings(run.evaluation.map((r) => ({ ...r, lengths: { ...r.lengths, 32: at(0.5), 64: at(0.5) } }))).join(' ');
  assert.match(none, /At T = 32, twice the longest training sentence, no model kept 90%/);
});

test('stopped() stops every model before its next chunk; another seed gives other parameters', async () => {
  let chunks = 0;
  const { models, steps } = await trainModels(pool, so, { seed: 2, onChunk: () => { chunks += 1; }, stopped: () => chunks >= 1 });
  // each model had asked for its first chunk before the first answer came
  assert.deepEqual(steps, SETUPS.map(() => CHUNK));
  const first = await Promise.all(models.map(async (m) => parameterHash(await m.parameters())));
  const here = so.createModel({ vocab: 16, width: 32, heads: 2, classes: 2, seed: 2 });
  for (let k = 0; k < CHUNK; k++) {
    const { ids, targets } = so.orderTask({ count: 32, length: 8 + (k % 9), seed: 1000 + k });
    here.step(ids, targets, { lr: 3e-3 });
  }
  assert.equal(first[1], hashHere(here), 'the sinusoidal model after one chunk');
  here.dispose();
  await Promise.all(models.map((m) => m.dispose()));
});

test('score: accuracy, pairs with one right, and the largest difference between a sentence\'s logits and its mirror\'s', () => {
  const logits = { data: Float32Array.of(0, 1, 0, 1, 2, 0, 0, 3), shape: [4, 2] };  // says 1, 1, 0, 1
  const targets = { data: Int32Array.of(1, 0, 0, 1), shape: [4] };
  assert.deepEqual(score(logits, targets), { accuracy: 0.75, pairs: 2, pairsOneRight: 1, mirrorDifference: 3 });
  assert.deepEqual(score(logits, { data: Int32Array.of(1, 0, 1, 0), shape: [4] }).accuracy, 0.25);
});
