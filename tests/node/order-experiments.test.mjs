// The page's experiments on order (web/js/experiments/*.mjs), run in node against the built API: every claim the
// page shows as a check holds here too, and each check fails when the API is sabotaged in the way it is meant to
// catch (so a passing check means something).
import test from 'node:test';
import assert from 'node:assert/strict';
import { loadSeqorder, siteModule } from './helpers/load.mjs';
import { assertAllPass, verdicts } from './helpers/verdicts.mjs';

const {
  VOCAB, WIDTH, reorderRows, sentenceInput, sliceRows, stackRows, tokenIds, vocabularyTable,
} = await siteModule('js/experiments/sentence.mjs');
const { maxAbsDiff } = await siteModule('js/experiments/reference.mjs');
const {
  REORDERINGS, SENTENCE, causalExperiment, positionsExperiment, reorderingExperiment,
} = await siteModule('js/experiments/order-experiments.mjs');
const { ALIBI_SLOPE, STEPS_SENTENCE, fourSteps, repeatedWordCheck, rowConstantChange, rowConstantCheck, stepChecks } = await siteModule('js/experiments/four-steps.mjs');
const { alibiSlopes } = await siteModule('js/lab/bias.mjs');
const { INCREMENTAL_TEXT, incrementalExperiment } = await siteModule('js/experiments/incremental.mjs');

const so = await loadSeqorder();
const table = vocabularyTable();

/** The API with one function replaced: a deliberately wrong implementation the checks must notice. */
function sabotaged(replacements) {
  return { ...so, ...replacements };
}

test('the lookup table is seeded: the same numbers every time, standard-normal-sized', () => {
  const a = vocabularyTable();
  const b = vocabularyTable();
  assert.deepEqual(a.shape, [VOCAB.length, WIDTH]);
  assert.deepEqual(a.data, b.data);
  assert.notDeepEqual(vocabularyTable({ seed: 1 }).data, a.data);
  const mean = a.data.reduce((s, v) => s + v, 0) / a.data.length;
  const variance = a.data.reduce((s, v) => s + (v - mean) ** 2, 0) / a.data.length;
  assert.ok(Math.abs(mean) < 0.3 && variance > 0.5 && variance < 1.6, `mean ${mean}, variance ${variance}`);
});

test('row helpers: reorder, slice, stack; unknown words and bad orders are errors', () => {
  const t = { data: Float64Array.from([0, 1, 10, 11, 20, 21]), shape: [3, 2], dtype: 'float64' };
  assert.deepEqual([...reorderRows(t, [2, 0, 1]).data], [20, 21, 0, 1, 10, 11]);
  assert.deepEqual([...sliceRows(t, 1, 3).data], [10, 11, 20, 21]);
  const s = stackRows(sliceRows(t, 0, 1), sliceRows(t, 2, 3));
  assert.deepEqual(s.shape, [2, 2]);
  assert.deepEqual([...s.data], [0, 1, 20, 21]);
  assert.throws(() => reorderRows(t, [0, 0, 1]), RangeError);
  assert.throws(() => tokenIds(['robot', 'dances']), /\('dances'\) is not in the vocabulary/);
  assert.deepEqual([...tokenIds(['robot', 'follows', 'person']).data], [1, 2, 3]);
  assert.ok(Number.isNaN(maxAbsDiff([1, 2], [1])));
});

test('the lookup knows which word, not where: robot has one input row wherever it stands', () => {
  const a = sentenceInput(so, table, ['robot', 'follows', 'person']);
  const b = sentenceInput(so, table, ['person', 'follows', 'robot']);
  assert.deepEqual(a.data.subarray(0, WIDTH), b.data.subarray(2 * WIDTH, 3 * WIDTH));
});

test('without positions, unmasked attention is equivariant and not invariant, for every reordering of the sentence', () => {
  for (const order of REORDERINGS) assertAllPass(reorderingExperiment(so, table, { order }).checks);
  const r = reorderingExperiment(so, table);
  assert.deepEqual(r.reordered, ['person', 'follows', 'robot']);
  // robot's output row in the second sentence (row 2) is its row in the first (row 0).
  assert.ok(maxAbsDiff(r.reorderedOutput.data.subarray(2 * WIDTH), r.output.data.subarray(0, WIDTH)) <= 1e-12);
});

test('with positions: relabelling breaks equivariance, moving (word, position) pairs keeps it; both are run', () => {
  for (const order of REORDERINGS) assertAllPass(positionsExperiment(so, table, { order }).checks);
  const r = positionsExperiment(so, table);
  const robot = r.rows.find((row) => row.word === 'robot');
  assert.deepEqual({ row: robot.row, relabel: robot.relabelPosition, pairs: robot.pairsPosition }, { row: 2, relabel: 2, pairs: 0 });
  assert.equal(r.rows.find((row) => row.word === 'follows').inputDiff, 0);
});

test('positions checks fail when addPositions adds nothing (the experiment would then show no difference)', () => {
  const v = verdicts(positionsExperiment(sabotaged({ addPositions: (x) => x }), table).checks);
  assert.equal(v['order-positions-break-equivariance'], false);
  assert.equal(v['order-relabel-vs-pairs'], false);
});

test('causal: a reordering no longer commutes; a later word never changes an earlier output, bit for bit', () => {
  for (const order of REORDERINGS) assertAllPass(causalExperiment(so, table, { order }).checks);
  const r = causalExperiment(so, table);
  assert.equal(r.causalEarlier, 0);
  assert.equal(r.replacements, (SENTENCE.length - 1) * (VOCAB.length - 1));
  // influence[i·T + j]: change of output row i when word j is replaced. With the mask: exactly 0 for i < j, and a
  // replaced word does change its own row and every row after it; without the mask every cell changes.
  const T = SENTENCE.length;
  for (let i = 0; i < T; i += 1) {
    for (let j = 0; j < T; j += 1) {
      if (i < j) assert.equal(r.influence.causal[i * T + j], 0, `row ${i}, word ${j}`);
      else assert.ok(r.influence.causal[i * T + j] > 1e-3, `row ${i}, word ${j}`);
      assert.ok(r.influence.unmasked[i * T + j] > 1e-3, `unmasked row ${i}, word ${j}`);
    }
  }
});

test('causal checks fail when attention ignores the mask', () => {
  const unmasked = sabotaged({ attention: (q, k, v, o = {}) => so.attention(q, k, v, { ...o, causal: false }) });
  const v = verdicts(causalExperiment(unmasked, table).checks);
  assert.equal(v['order-causal-not-equivariant'], false);
  assert.equal(v['order-causal-later-never-changes-earlier'], false);
});

test('the four steps: shapes, and every step check passes', () => {
  for (const causal of [false, true]) {
    const s = fourSteps(so, table, { causal });
    const T = STEPS_SENTENCE.length;
    for (const step of ['scores', 'scaled', 'weights']) assert.deepEqual(s[step].shape, [T, T]);
    assert.deepEqual(s.output.shape, [T, WIDTH]);
  }
  assertAllPass(stepChecks(so, table));
  assertAllPass(stepChecks(so, table, { positions: false }));
  assertAllPass([repeatedWordCheck(so, table), repeatedWordCheck(so, table, { words: ['a', 'robot', 'sees', 'a', 'box'] })]);
  assert.throws(() => repeatedWordCheck(so, table, { words: SENTENCE }), /no repeated word/);
  assert.equal(repeatedWordCheck(sabotaged({ addPositions: (x) => x }), table).pass, false);
});

test('the four steps with ALiBi: step 2 shifted by −|i − j|/2, every step check passes; a constant per row leaves the weights, a column term does not', () => {
  assert.equal(ALIBI_SLOPE, alibiSlopes(8)[0]);
  const T = STEPS_SENTENCE.length;
  for (const causal of [false, true]) {
    const plain = fourSteps(so, table, { causal });
    const s = fourSteps(so, table, { causal, alibi: true });
    for (let i = 0; i < T; i++) {
      for (let j = 0; j < T; j++) {
        const [a, b] = [plain.scaled.data[i * T + j], s.scaled.data[i * T + j]];
        assert.ok(a === -Infinity ? b === -Infinity : Math.abs(b - (a - Math.abs(i - j) / 2)) < 1e-12);
      }
    }
    assertAllPass(stepChecks(so, table, { causal, alibi: true }));
    assertAllPass([rowConstantCheck(s)]);
    // sabotage: the weights of the scores without the bias (a term that differs along the row)
    assert.ok(rowConstantChange({ scaled: s.scaled, weights: plain.weights }) > 1e-3, `causal ${causal}`);
    // and step checks computed on the bias-free steps fail
    assert.ok(Object.values(verdicts(stepChecks(sabotaged({ softmax: (x, o) => so.softmax({ ...x, data: x.data.map((v, n) => v + (n % T)) }, o) }), table, { causal, alibi: true }))).includes(false));
  }
});

test('step checks fail on unnormalized weights, a missing mask, or a wrong scale', () => {
  const withSteps = (edit) => sabotaged({
    attention: (q, k, v, o = {}) => { const r = so.attention(q, k, v, o); if (o.steps) edit(r, o); return r; },
  });
  let v = verdicts(stepChecks(withSteps((r) => { r.weights.data[0] *= 1.001; }), table));
  assert.equal(v['steps-weights-rows-sum-to-one'], false);
  assert.equal(v['steps-weights-are-softmax'], false);
  v = verdicts(stepChecks(withSteps((r, o) => { if (o.causal) r.weights.data[1] = 1e-300; }), table));
  assert.equal(v['steps-masked-weights-exactly-zero'], false);
  v = verdicts(stepChecks(withSteps((r) => { r.scaled.data[0] = r.scores.data[0]; }), table));
  assert.equal(v['steps-scaled-is-scores-over-sqrt-d'], false);
  v = verdicts(stepChecks(withSteps((r) => { r.output.data[3] += 1e-6; }), table));
  assert.equal(v['steps-output-is-weighted-sum'], false);
});

test('incremental: cached = full recompute for every prefix and count of new words; both mistakes differ', () => {
  for (let prefix = 1; prefix < INCREMENTAL_TEXT.length; prefix += 1) {
    for (let fresh = 1; fresh <= 4 && prefix + fresh <= INCREMENTAL_TEXT.length; fresh += 1) {
      assertAllPass(incrementalExperiment(so, table, { words: INCREMENTAL_TEXT.slice(0, prefix + fresh), prefix }).checks);
    }
  }
  const r = incrementalExperiment(so, table);
  assert.deepEqual(r.rows.map((row) => row.position), [10, 11]);
  assert.throws(() => incrementalExperiment(so, table, { words: INCREMENTAL_TEXT.slice(0, 4), prefix: 4 }), RangeError);
});

test('incremental check fails when the offsets are dropped', () => {
  const noStart = sabotaged({ addPositions: (x) => so.addPositions(x) });
  assert.equal(verdicts(incrementalExperiment(noStart, table).checks)['incremental-cached-equals-full'], false);
  const topLeft = sabotaged({ attention: (q, k, v, o = {}) => so.attention(q, k, v, o.causal ? { ...o, queryStart: 0 } : o) });
  assert.equal(verdicts(incrementalExperiment(topLeft, table).checks)['incremental-cached-equals-full'], false);
  // A default alignment other than Tk − Tq (here: top-left when queryStart is left out) fails the default check.
  const topLeftDefault = sabotaged({ attention: (q, k, v, o = {}) => so.attention(q, k, v, o.causal && o.queryStart === undefined ? { ...o, queryStart: 0 } : o) });
  assert.equal(verdicts(incrementalExperiment(topLeftDefault, table).checks)['incremental-default-query-start'], false);
});

test('check names are unique across the experiments', () => {
  const names = [
    ...reorderingExperiment(so, table).checks, ...positionsExperiment(so, table).checks,
    ...causalExperiment(so, table).checks, ...stepChecks(so, table), repeatedWordCheck(so, table),
    ...incrementalExperiment(so, table).checks,
  ].map((c) => c.name);
  assert.equal(new Set(names).size, names.length);
});
