// The page's generated sentences (web/js/claims.mjs's rule), in node: each is made from the numbers it is about, and
// its predicate holds against what the page draws at those settings, and fails when what is drawn contradicts it: the
// sentence of another setting, a map drawn with the mask when the sentence was made without, rows changed. (The
// browser sweep, tests/browser/sweep.test.mjs, evaluates every predicate against the real page at every setting.)
import test from 'node:test';
import assert from 'node:assert/strict';
import { loadSeqorder, siteModule } from './helpers/load.mjs';

const so = await loadSeqorder();
const steps = await siteModule('js/experiments/four-steps.mjs');
const sinusoids = await siteModule('js/experiments/sinusoids.mjs');
const incremental = await siteModule('js/experiments/incremental.mjs');
const start = await siteModule('js/experiments/start-offset.mjs');
const addPosition = await siteModule('js/experiments/add-position.mjs');
const { vocabularyTable } = await siteModule('js/experiments/sentence.mjs');
const table = vocabularyTable();

/** A tensor as a heatmap draws it (its options: data, rows, cols). */
const asDrawn = (t) => ({ data: Float64Array.from(t.data), rows: t.shape[0], cols: t.shape[1] });
const holds = (sentences, drawn) => sentences.filter((s) => typeof s !== 'string').map((s) => [s.name, s.holds(drawn)]);

test('four steps: every sentence holds against its own maps, and fails against the maps of another setting', () => {
  const words = steps.STEPS_SENTENCE;
  const settingsList = [];
  for (const causal of [false, true]) for (const positions of [false, true]) for (const projections of [false, true]) settingsList.push({ words, causal, positions, projections });
  const drawnOf = (s) => { const r = steps.fourSteps(so, table, s); return { weights: asDrawn(r.weights), output: asDrawn(r.output) }; };
  for (const s of settingsList) {
    const sentences = steps.stepsSentences(steps.fourSteps(so, table, s), s);
    for (const [name, ok] of holds(sentences, drawnOf(s))) assert.equal(ok, true, `${name} at ${JSON.stringify(s)}`);
  }
  // the page's old mistake: "identical without positions" made without the mask, drawn with it
  const unmasked = { words, causal: false, positions: false, projections: false };
  const masked = { ...unmasked, causal: true };
  const said = steps.stepsSentences(steps.fourSteps(so, table, unmasked), unmasked);
  assert.match(said.find((x) => x.name === 'steps-repeated-rows').text, /same weights and outputs, bit for bit/);
  assert.deepEqual(holds(said, drawnOf(masked)).find(([n]) => n === 'steps-repeated-rows'), ['steps-repeated-rows', false]);
  // and the numbers: the mask alone separates the two "the" rows by 0.51 in their weights
  const bridge = steps.stepsSentences(steps.fourSteps(so, table, masked), masked).find((x) => x.name === 'steps-repeated-rows');
  assert.match(bridge.text, /weights by up to 0\.51 .* the mask alone tells them apart/);
  assert.equal(bridge.holds(drawnOf({ ...masked, positions: true })), false);
});

test('four steps: the repeated-word check is computed at the settings drawn, and names the variants it compares with', () => {
  const words = steps.STEPS_SENTENCE;
  const masked = steps.repeatedWordCheck(so, table, { words, causal: true, positions: false });
  assert.equal(masked.pass, true);
  assert.match(masked.claim, /the causal mask alone tells the two “the” rows \(0 and 3\) apart.*without the mask \(not drawn\)/);
  assert.ok(masked.gaps.drawn > 0.5 && masked.gaps.neither === 0, JSON.stringify(masked.gaps));
  const both = steps.repeatedWordCheck(so, table, { words, causal: true, positions: true });
  assert.equal(both.pass, true);
  assert.match(both.claim, /each alone would separate them/);
  // with projections, the diagonal check now tests what it claims: other keys outscore a row's own
  const projected = steps.diagonalCheck(so, table, { words, causal: false, positions: true, projections: true });
  assert.equal(projected.pass, true);
  assert.match(projected.claim, /in \d of 5 rows another key scores higher than the row’s own/);
  assert.equal(steps.diagonalCheck({ ...so, attention: (q, k, v, o) => so.attention(q, q, v, o) }, table,
    { words, projections: true }).pass, false);
});

test('sinusoids: "the right ones barely move" is said only where it holds, and its predicate reads the table drawn', () => {
  const wide = sinusoids.sinusoidTable(so, 64, 64, 0).table;
  const [sentence] = sinusoids.tableSentences(wide, 0);
  assert.match(sentence.text, /the right ones barely move over 64 rows/);
  assert.equal(sentence.holds({ table: asDrawn(wide) }), true);
  const narrow = sinusoids.sinusoidTable(so, 64, 2, 0).table;
  const [two] = sinusoids.tableSentences(narrow, 0);
  assert.doesNotMatch(two.text, /barely/);
  assert.equal(two.holds({ table: asDrawn(narrow) }), true);
  assert.equal(sentence.holds({ table: asDrawn(narrow) }), false);
  // one pair comes back, measured: pair 0 within 0.018 of its start at t = 44 in the 100 positions drawn
  const r = sinusoids.onePairComesBack(so, { length: 128, width: 64, curveLength: 100 });
  const [back] = sinusoids.onePairSentences(r);
  assert.match(back.text, /within 0\.018 of its start at t = 44/);
  const series = [{ y: r.curves.fast }, { y: r.curves.slow }, { y: r.curves.all }];
  assert.equal(back.holds({ distances: { series } }), true);
  assert.equal(back.holds({ distances: { series: [{ y: r.curves.slow }, series[1], series[2]] } }), false);
});

test('incremental, start offset, the sum\'s parts: each predicate fails when the table or maps drawn say otherwise', () => {
  const r = incremental.incrementalExperiment(so, table, { words: incremental.INCREMENTAL_TEXT.slice(0, 3), prefix: 1 });
  const [match] = incremental.incrementalSentences(r);
  const rows = r.rows.map((x) => [x.word, String(x.position), x.cached, x.restarted, x.topLeft]);
  assert.equal(match.holds({ rows: { rows } }), true);
  assert.equal(match.holds({ rows: { rows: rows.map((x) => [x[0], x[1], x[3], x[2], x[4]]) } }), false);
  assert.match(r.checks.find((c) => c.name === 'incremental-top-left-differs').claim, /hides 1 key from each new word/);

  const s = start.startOffset(so, { start: 10, count: 4, width: 16 });
  const [repeats] = start.startOffsetSentences(s, { start: 10, count: 4, width: 16 });
  const drawn = { full: asDrawn(s.fromZero), cached: asDrawn(s.offset), restarted: asDrawn(s.restarted) };
  assert.equal(repeats.holds(drawn), true);
  assert.equal(repeats.holds({ ...drawn, restarted: asDrawn(s.offset) }), false);

  const parts = addPosition.sumParts(so, 3);
  assert.equal(parts.checks[0].pass, true);
  assert.match(parts.sentences[0].text, /‖robot‖ = 1\.48 and ‖p₃‖ = 2 = √\(D\/2\), as for every position: 1\.4 times the token’s/);
});

test('experiment: the sentence counts robot’s features that are not close by the rule its check uses (numpy’s allclose)', async () => {
  const experiment = await siteModule('js/experiments/experiment.mjs');
  const r = experiment.lessonExperiment(so);
  // robot + p_0 against robot + p_3 from Math.sin and Math.cos, counted by numpy.allclose's rule |a − b| ≤ 1e-8 + 1e-5·|b|
  const p = (t, c) => (c % 2 ? Math.cos : Math.sin)(t / 10000 ** ((c - (c % 2)) / 8));
  const expected = [0, 1, 2, 3, 4, 5, 6, 7].filter((c) => {
    const [a, b] = [c / 8 + p(0, c), c / 8 + p(3, c)];
    return !(Math.abs(a - b) <= 1e-8 + 1e-5 * Math.abs(b));
  }).length;
  const [sentence] = experiment.experimentSentences(r);
  assert.match(sentence.text, new RegExp(`not allclose in ${expected} of 8 features`));
  assert.match(r.checks.find((c) => c.name === 'experiment-robot-differs').details, new RegExp(`^${expected} of 8 features`));
});

test('batch: one sentence is said in the singular, its position rows named', async () => {
  const batch = await siteModule('js/experiments/batch.mjs');
  const { vocabularyTable } = await siteModule('js/experiments/sentence.mjs');
  const table = vocabularyTable();
  const one = batch.batchExperiment(so, table, { batch: 1, length: 2 });
  assert.match(batch.batchSentences(one, table)[0].text, /^1 sentence of 2 tokens makes one \(1, 2, \d+\) tensor, and the sentence gets position rows p₀ and p₁ added/);
  const three = batch.batchExperiment(so, table, { batch: 3, length: 5 });
  assert.match(batch.batchSentences(three, table)[0].text, /^3 sentences of 5 tokens make one \(3, 5, \d+\) tensor, and each sentence gets the same position rows p₀ … p₄ added/);
});
