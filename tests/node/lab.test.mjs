// The lab (web/js/lab/, as built in the site) in node, on a pool of worker_threads: the lesson's run gives the models
// of the same training written out here on one thread (createModel, orderTask with the seed's data seeds), hash for
// hash; the seed draws the sentences too; a run paused, resumed or stepped ends with the same bits as one never
// paused, its models kept within a chunk of each other so a pause lands on the first common step; the architecture's
// checks pass on runs and fail on numbers that contradict them; every claim holds against its run's views and fails
// against views that say otherwise (another run, a dip, a flipped model); claims are gated on their premises (a
// comparison between models that learnt, past the run's margin; the mask's one-layer limit only at one layer); chance;
// a setting refused once per rule; what a run costs; the record's JSON and CSV.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { loadSeqorder, loadSeqorderPool, siteModule } from './helpers/load.mjs';
import { assertAllPass, verdicts } from './helpers/verdicts.mjs';

const {
  DEFAULTS, KINDS, LESSON_MODELS, MAX_MODELS, SETTINGS, TASK_WORDS, callOptions, differInScaleOnly, headsOffered, modelOptions, refusals, runConfig, runCost,
  runName, secondTaskValues,
} = await siteModule('js/lab/config.mjs');
const { CHUNK, MAX_WORKERS, createRun, measureModel, measureRun, measureSlice, parameterHash, poolSize, runHashes } = await siteModule('js/lab/run.mjs');
const { SAME_LOGITS, chance, dataSeed, lookbackScore, measuredLengths, measuredSet, orderScore, trainingBatch, versusChance } = await siteModule('js/lab/tasks.mjs');
const { curvesView, gap, learning, lengthsView } = await siteModule('js/lab/facts.mjs');
const { checkOf, conclusionClaims, curveClaims, halfClaim, holds, propertyChecks, runsView, viewsOf } = await siteModule('js/lab/findings.mjs');
const { addChunk, newRecord, recordCsv, recordJson } = await siteModule('js/lab/record.mjs');

const so = await loadSeqorder();
let pool;
/** Trains `config` on the pool to its end (or through `script`: (run) => …), measured: its record (and what the script saw). */
async function recorded(config, script = (run) => run.play()) {
  const record = newRecord(config, {});
  const run = await createRun(pool, so, config, { onChunk: (i, c) => addChunk(record, i, c) });
  try {
    const seen = await script(run);
    const hashes = await runHashes(run);
    hashes.forEach((h, i) => { record.models[i].hash = h; });
    Object.assign(record, { state: run.state, step: run.step, measured: await measureRun(run), measuredAt: run.step });
    return { record, seen };
  } finally {
    await run.dispose();
  }
}

let lesson;  // the lesson's run, measured
before(async () => {
  pool = await loadSeqorderPool({ workers: poolSize(2) });  // 3 workers: several models share one
  ({ record: lesson } = await recorded(runConfig()));
});
after(() => pool?.close());

/** SHA-256 of the parameters' bytes in order, by node's own crypto (not the lab's parameterHash). */
function hashHere(model) {
  const hash = createHash('sha256');
  for (const t of Object.values(model.parameters())) hash.update(Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength));
  return hash.digest('hex');
}

/** One model of the lab trained here on one thread, written out: the lesson's options, orderTask at seed's data seeds. */
function trainHere(options, { seed = 1, steps = 800 } = {}) {
  const model = so.createModel({ vocab: 16, width: 32, heads: 2, layers: 1, readout: 'mean', classes: 2, dtype: 'float32', embedScale: 'sqrtWidth', seed, ...options });
  for (let k = 0; k < steps; k++) {
    const { ids, targets } = so.orderTask({ count: 32, length: 8 + (k % 9), seed: 1_000_000 * seed + 1000 + k });
    model.step(ids, targets, { lr: 3e-3 });
  }
  return model;
}

test('the settings: declared once, each id the URL key named as createModel\'s option; the lesson\'s run; names of runs', () => {
  assert.deepEqual(TASK_WORDS, so.taskWords);
  const config = runConfig();
  assert.deepEqual(config.kinds, [...LESSON_MODELS]);
  assert.ok(config.kinds.includes('causal-sinusoidal'), 'the course\'s decoder is in the lesson\'s run');
  assert.deepEqual(config.seeds, [1]);
  for (const [name, spec] of Object.entries(SETTINGS)) assert.equal(spec.id, `lab-${name}`, name);
  assert.equal(SETTINGS.embedScale.was.key, 'train-embed-scale');
  assert.deepEqual(modelOptions(config, 'causal-sinusoidal', 1, 16), { vocab: 16, width: 32, heads: 2, layers: 1, readout: 'mean', classes: 2, dtype: 'float32', positions: 'sinusoidal', causal: true, embedScale: 'sqrtWidth', seed: 1 });
  assert.deepEqual(modelOptions(runConfig({ task: 'lookback', embedScale: 1 }), 'rotary', 3, 16), { vocab: 16, width: 32, heads: 2, layers: 1, readout: 'each', classes: 16, dtype: 'float32', positions: 'rotary', seed: 3 });
  assert.equal(runName(config), 'the order task, seed 1');
  assert.equal(runName(runConfig({ task: 'lookback', back: 3, steps: 200, lr: 0.01, seeds: 3, seed: 4, models: ['rotary'] })), 'the word 3 back, lr 0.01, 200 steps, seeds 4–6');
  assert.equal(runName(runConfig({ layers: 2, embedScale: 1, shortest: 5, longest: 9 })), 'the order task, 2 layers, token vectors as they are, lengths 5 … 9, seed 1');
  assert.equal(Object.keys(DEFAULTS).length, Object.keys(SETTINGS).length);
  assert.equal(KINDS.length, 12);
  // the bench page's schemes and rotary's settings: createModel's options under the same names
  const rotary = runConfig({ task: 'induction', models: ['causal-rotary', 'causal-alibi', 'relative'], rotaryBase: 100, rotaryPairs: 4 });
  const base = { vocab: 16, width: 32, heads: 2, layers: 1, readout: 'each', classes: 16, dtype: 'float32', embedScale: 'sqrtWidth', seed: 1 };
  assert.deepEqual(modelOptions(rotary, 'causal-rotary', 1, 16), { ...base, positions: 'rotary', causal: true, rotaryBase: 100, rotaryPairs: 4 });
  assert.deepEqual(modelOptions(rotary, 'causal-alibi', 1, 16), { ...base, positions: 'alibi', causal: true });
  assert.deepEqual(modelOptions(rotary, 'relative', 1, 16), { ...base, positions: 'relative' });
  assert.equal(runName(rotary), 'the induction task, rotary base 100, 4 rotary pairs, seed 1');
  assert.equal(runName(runConfig({ models: ['alibi'], rotaryBase: 100 })), 'the order task, seed 1', 'rotary settings without a rotary model');
  assert.deepEqual(refusals(so, runConfig({ models: ['rotary'], width: 8, heads: 2, rotaryPairs: 4 })).map((r) => r.setting), ['rotaryPairs']);
  // randomized positions: the calls of every model that reads positions take the range; it names the run; a learned
  // table with fewer rows than the range refuses it, in the API's words
  const drawn = runConfig({ models: ['none', 'learned', 'rotary'], positionRange: 256 });
  assert.deepEqual(['none', 'learned', 'rotary'].map((key) => callOptions(drawn, key)), [{}, { positionRange: 256 }, { positionRange: 256 }]);
  assert.deepEqual(callOptions(runConfig({ models: ['rotary'] }), 'rotary'), {});
  assert.equal(runName(drawn), 'the order task, positions drawn from 0 … 255, seed 1');
  assert.deepEqual(refusals(so, drawn), [{ setting: 'positionRange', message: 'learned (16 rows): positionRange must be an integer from T (the sentences\' length) to maxLength' }]);
  assert.deepEqual(refusals(so, { ...drawn, kinds: ['none', 'rotary'] }), []);
});

test('the heads offered divide the width, and leave rotary an even head width', () => {
  assert.deepEqual(headsOffered(32, ['sinusoidal']), [1, 2, 4, 8]);
  assert.deepEqual(headsOffered(30, ['none']), [1, 2, 3, 5, 6]);
  assert.deepEqual(headsOffered(30, ['rotary']), [1, 3, 5]);
  assert.deepEqual(headsOffered(2, ['rotary']), [1]);
  for (const width of [2, 6, 30, 64]) {
    for (const heads of headsOffered(width, KINDS.map((k) => k.key))) {
      assert.deepEqual(refusals(so, runConfig({ width, heads, models: KINDS.map((k) => k.key) })), [], `${width} ${heads}`);
    }
  }
});

test('the lesson\'s run: the models of the same training on one thread, hash for hash; the seed draws the sentences', () => {
  assert.deepEqual(lesson.models.map((m) => m.steps), LESSON_MODELS.map(() => 800));
  for (const key of ['sinusoidal', 'causal-sinusoidal']) {
    const here = trainHere({ positions: 'sinusoidal', ...(key === 'causal-sinusoidal' ? { causal: true } : {}) });
    assert.equal(lesson.models.find((m) => m.key === key).hash, hashHere(here), key);
    here.dispose();
  }
  assert.equal(dataSeed(3, 1000 + 7), 3_001_007);
  const config = runConfig();
  assert.notDeepEqual(trainingBatch(so, config, 2, 5).ids.data, trainingBatch(so, config, 1, 5).ids.data);
  assert.deepEqual(trainingBatch(so, config, 2, 5), so.orderTask({ count: 32, length: 13, seed: 2_001_005 }));
  // the blind model sees a held-out pair as one bag of words: 50% at every point of its curve
  assert.ok(lesson.models[0].curve.accuracy.every((a) => a === 0.5));
  assert.deepEqual(lesson.models[0].curve.step, Array.from({ length: 800 / CHUNK }, (_, j) => (j + 1) * CHUNK));
});

test('measured in slices: the same accuracies as the whole set in one call', async () => {
  assert.ok(measureSlice(runConfig(), 64) < 256, 'the lesson\'s set at 64 in slices');
  const big = runConfig({ width: 64, layers: 4, heads: 8, longest: 32 });
  assert.ok(measureSlice(big, 128) < 256 && measureSlice(big, 128) % 2 === 0, String(measureSlice(big, 128)));
  const here = trainHere({ positions: 'rotary' }, { steps: 20 });
  const set = so.orderTask({ count: 256, length: 64, seed: 1_000_000 + 564, mirrored: true });
  const { record } = await recorded(runConfig({ models: ['rotary'], steps: 20 }));
  assert.deepEqual(record.measured[0].lengths[64], orderScore(here.forward(set.ids), set.targets));
  here.dispose();
});

test('measuring the lesson\'s model at every length grows no heap: a worker keeps the model module\'s first heap', async () => {
  const fresh = await loadSeqorder();  // its own heaps, which no earlier test grew
  const config = runConfig();
  const model = fresh.createModel(modelOptions(config, 'causal-sinusoidal', 1, fresh.taskWords.length));
  const started = fresh.memoryStats().heapBytes;
  const sets = new Map(measuredLengths(config).map((T) => [T, measuredSet(fresh, config, 1, T)]));
  assert.equal(Math.max(...sets.keys()), 128);
  const measured = await measureModel(config, { forward: async (ids, options) => model.forward(ids, options) }, sets, callOptions(config, 'causal-sinusoidal'));
  assert.deepEqual(Object.keys(measured).map(Number), [...sets.keys()]);
  assert.equal(fresh.memoryStats().heapBytes, started);
  model.dispose();
});

test('paused, resumed and stepped: every model at one step, the first common step at or after the press; the bits of a run never paused', async () => {
  const config = runConfig({ models: ['sinusoidal', 'rotary', 'causal'], steps: 400, seeds: 3 });
  const whole = await recorded(config);
  let widest = 0;
  const record = newRecord(config, {});
  const run = await createRun(pool, so, config, {
    onChunk: (i, c) => {
      addChunk(record, i, c);
      widest = Math.max(widest, Math.max(...run.taken) - Math.min(...run.taken));
    },
  });
  try {
    const pauses = [];
    for (const wait of [40, 120, 250]) {
      const going = run.play();
      await new Promise((resolve) => setTimeout(resolve, wait));
      const least = Math.min(...run.taken);
      const at = run.pause();
      await going;
      // the pause lands where it said, on a common step, at most one chunk past what the slowest had been sent
      pauses.push({ least, at, taken: run.taken });
      assert.ok(run.taken.every((t) => t === at), `${JSON.stringify(pauses.at(-1))}`);
      assert.ok(at <= least + 3 * CHUNK, `paused at ${at}, the slowest at ${least} when pressed`);
      assert.equal(run.state, at === config.steps ? 'done' : 'paused');
      if (run.state === 'done') break;
      await run.advance();
      assert.ok(run.taken.every((t) => t === at + CHUNK));
    }
    await run.play();
    assert.ok(widest <= 3 * CHUNK, `models ${widest} steps apart while running`);
    assert.deepEqual(await runHashes(run), whole.record.models.map((m) => m.hash));
  } finally {
    await run.dispose();
  }
  // seed 3's rotary model, trained here on its own data
  const here = trainHere({ positions: 'rotary' }, { seed: 3, steps: 400 });
  assert.equal(whole.record.models.find((m) => m.key === 'rotary' && m.seed === 3).hash, hashHere(here));
  here.dispose();
});

/** The lesson's record with the scores of one model at some lengths replaced. */
function altered(record, key, lengths) {
  return { ...record, measured: record.measured.map((r) => (r.key === key ? { ...r, lengths: { ...r.lengths, ...lengths } } : r)) };
}
const at = (accuracy, extra = {}) => ({ accuracy, pairs: 128, pairsOneRight: 0, pairsTied: 0, pairsTiedRight: 0, mirrorDifference: 1, ...extra });

test('the architecture\'s checks pass on the lesson\'s run and fail on numbers that contradict them', async () => {
  assert.deepEqual(propertyChecks(lesson).map((c) => c.name), ['lab-none-mirror', 'lab-none-half']);
  assertAllPass(propertyChecks(lesson));
  const fails = (record, name) => assert.equal(verdicts(propertyChecks(record))[name], false, name);
  const none = lesson.measured[0].lengths;
  fails(altered(lesson, 'none', { 16: { ...none[16], mirrorDifference: 3e-5 } }), 'lab-none-mirror');
  fails(altered(lesson, 'none', { 64: { ...none[64], pairsOneRight: 127 } }), 'lab-none-half');
  const { record } = await recorded(runConfig({ models: ['learned'], steps: 20 }));
  assert.deepEqual(record.measured[0].lengths[32].error, { name: 'RangeError', message: 'ids have T = 32 positions, but the learned table has 16 rows (maxLength)' });
  assertAllPass(propertyChecks(record));
  fails(altered(record, 'learned', { 32: at(0.6) }), 'lab-learned-refuses');
  fails(altered(record, 'learned', { 64: { error: { name: 'Error', message: 'the worker stopped' } } }), 'lab-learned-refuses');
});

test('lab-none-half holds when a pair\'s logits tie within float32 rounding, and says so', () => {
  const tie = orderScore({ data: Float32Array.of(0.25, 0.25 + 1e-7, 0.25 + 1e-7, 0.25), shape: [2, 2] }, { data: Int32Array.of(1, 0), shape: [2] });
  assert.deepEqual(tie, { accuracy: 1, pairs: 1, pairsOneRight: 0, pairsTied: 1, pairsTiedRight: 1, mirrorDifference: Math.fround(0.25 + 1e-7) - 0.25 });
  assert.equal(halfClaim({ pairs: 640, oneRight: 640, tied: 0, tiedRight: 0 }), 'so exactly one of each pair is right: 50%, chance');
  assert.equal(halfClaim({ pairs: 640, oneRight: 639, tied: 1, tiedRight: 1 }), 'So one answer serves both sentences of a pair: exactly one is right in 639 of 640 pairs; in 1 more the ' +
    'logits tie within float32 rounding, which tipped the two answers apart (1 with both right), so the accuracy over the 640 pairs is 50.1% rather than 50%');
  assert.ok(SAME_LOGITS >= 1e-6);
});

test('chance: what a guess scores, and where a number stands against it on so many answers', () => {
  assert.equal(chance(runConfig()), 0.5);
  assert.equal(chance(runConfig({ task: 'lookback' })), 1 / 16);
  // 256 answers: two standard errors of a coin flip are 6.25 points
  assert.deepEqual([0.5, 0.56, 0.57, 0.44, 0.43].map((a) => versusChance(a, 0.5, 256)), ['at', 'at', 'above', 'at', 'below']);
  assert.equal(versusChance(0.0625, 1 / 16, 3584), 'at');
  const lengths = lengthsView(lesson);
  assert.equal(learning(lengths, 'none').chance, 'at');
  assert.equal(learning(lengths, 'causal').learnt, true);
});

test('every claim of the lesson\'s run holds against its views, is a passing check, and names its run', () => {
  const drawn = { ...viewsOf(lesson), runs: runsView({ order: lesson }) };
  const claims = [...curveClaims(lesson), ...conclusionClaims({ order: lesson })];
  assert.deepEqual(claims.map((c) => c.name), [...LESSON_MODELS.map((k) => `curve-${k}`),
    'answer-order', 'learnt-order', 'longer-order', ...(learning(drawn.lengths, 'sinusoidal').learnt ? ['compare-order'] : [])]);
  for (const c of claims) {
    assert.equal(holds(c, drawn), true, c.text);
    const check = checkOf(c, drawn);
    assert.equal(check.pass, true, `${check.name}: ${check.details}`);
    assert.equal(check.name, `lab-${c.name}`);
  }
  for (const c of conclusionClaims({ order: lesson })) assert.ok(c.text.startsWith('The order task, seed 1'), c.text);
  const answer = claims.find((c) => c.name === 'answer-order').text;
  assert.match(answer, /^The order task, seed 1: the course’s decoder \(sinusoids and a causal mask\) (learnt it|did not learn it) \([\d.]+%/);
  assert.match(claims.find((c) => c.name === 'curve-none').text, /^without positions did not reach 95% in 800 steps: 50% at every point, at chance \(50%\)\.$/);
  assert.match(claims.find((c) => c.name === 'longer-order').text, /^The order task, seed 1, past the trained lengths \(2×, 4× and 8×\), of those that learnt: .*causal without positions.* kept at least 90%.*: .* → .*\.$/);
});

test('a claim fails against views that say otherwise: another run, a dip, a model on the other side of 90%', async () => {
  const drawn = { ...viewsOf(lesson), runs: runsView({ order: lesson }) };
  const claims = [...curveClaims(lesson), ...conclusionClaims({ order: lesson })];
  const byName = (name) => claims.find((c) => c.name === name);
  // the same claims against a run of another seed: every conclusion claim names seed 1 and fails there
  const { record: other } = await recorded(runConfig({ seed: 2, steps: 100 }));
  const otherDrawn = { ...viewsOf(other), runs: runsView({ order: other }) };
  for (const c of claims) assert.equal(holds(c, otherDrawn), false, c.name);
  // a dip below 95% a curve claim does not mention
  const stayed = curveClaims(lesson).find((c) => c.params.reached && c.params.low >= 0.95);
  const dipped = structuredClone(lesson);
  const curve = dipped.models.find((m) => m.key === stayed.subject).curve.accuracy;
  curve[curve.length - 2] = 0.5;
  assert.equal(holds(stayed, viewsOf(dipped)), false);
  assert.equal(checkOf(stayed, viewsOf(dipped)).pass, false);
  // the causal model without positions under 90% at a trained length: its lengths, the answer, who learnt, who kept
  const flipped = altered(lesson, 'causal', { 12: at(0.6) });
  const flippedDrawn = { ...viewsOf(flipped), runs: runsView({ order: flipped }) };
  for (const name of ['answer-order', 'learnt-order', 'longer-order']) assert.equal(holds(byName(name), flippedDrawn), false, name);
  assert.equal(holds(byName('curve-rotary'), flippedDrawn), true, 'the curves\' claims stand');
  // unreadable views fail, they do not throw
  assert.equal(holds(byName('answer-order'), {}), false);
  assert.equal(checkOf(byName('answer-order'), {}).pass, false);
  assert.equal(drawn.runs.order.run, 'the order task, seed 1');
});

test('claims on their premises: a comparison only between models that learnt and past the margin; the mask\'s limit at one layer only', () => {
  const view = lengthsView(lesson);
  // rotary against sinusoidal within 5 points (one seed): no difference this run can tell
  const close = lengthsView(altered(lesson, 'rotary', { 32: at(lesson.measured.find((r) => r.key === 'sinusoidal').lengths[32].accuracy + 0.04) }));
  assert.equal(gap([close, 'rotary'], [close, 'sinusoidal'], 32).higher, null);
  assert.equal(gap([view, 'causal'], [view, 'none'], 32).higher, 'a');
  // sinusoidal not learnt: no comparison is made
  const unlearnt = altered(lesson, 'sinusoidal', { 8: at(0.7) });
  assert.equal(conclusionClaims({ order: unlearnt }).some((c) => c.type === 'compare'), false);
  assert.equal(conclusionClaims({ order: unlearnt }).find((c) => c.type === 'longer').params.fell.some((f) => f.key === 'sinusoidal'), false, 'past the trained lengths: the models that learnt');
  // the second task: the mask's one-layer limit only with one layer; with two, depth can turn the mask into position
  const lookback = (layers, causal) => {
    const config = runConfig({ task: 'lookback', layers, models: ['causal', 'causal-sinusoidal'] });
    const models = config.kinds.map((key) => ({ key, seed: 1, lengths: Object.fromEntries(measuredLengths(config).map((T) => [T, { accuracy: key === 'causal' ? causal : 1, answered: 256 * (T - 2) }])) }));
    return { config, models: [], measured: models };
  };
  const one = conclusionClaims({ lookback: lookback(1, 0.26) }).find((c) => c.type === 'answer');
  assert.match(one.text, /^The word 2 back, seed 1: the course’s decoder .* learnt it .*; without positions, the causal model did not \(26%\): with one layer, the mask tells a word which words came before it, not which one stands 2 back\.$/);
  const two = conclusionClaims({ lookback: lookback(2, 0.95) }).find((c) => c.type === 'answer');
  assert.match(two.text, /the causal model learnt it \(95%\); with 2 layers, depth can turn the mask into position, so this run does not test the mask’s one-layer limit\.$/);
  assert.doesNotMatch(two.text, /not which one stands/);
});

test('what × √D changes: one claim between two runs that differ in it only, naming both', async () => {
  const scaledConfig = runConfig({ models: ['sinusoidal', 'rotary'], steps: 300 });
  const unscaledConfig = runConfig({ models: ['sinusoidal', 'rotary'], steps: 300, embedScale: 1 });
  assert.equal(differInScaleOnly(scaledConfig, unscaledConfig), true);
  const [{ record: scaled }, { record: unscaled }] = [await recorded(scaledConfig), await recorded(unscaledConfig)];
  const runs = { scaling: { scaled, unscaled } };
  const [claim] = conclusionClaims(runs);
  assert.equal(claim.name, 'scaling');
  assert.match(claim.text, /^The order task, 300 steps, seed 1 against the order task, token vectors as they are, 300 steps, seed 1/);
  const drawn = { runs: runsView(runs) };
  assert.equal(checkOf(claim, drawn).pass, true);
  assert.equal(holds(claim, { runs: runsView({ scaling: { scaled: unscaled, unscaled: scaled } }) }), false);
});

test('a setting the API refuses is refused once per rule, beside the setting it names', () => {
  assert.deepEqual(refusals(so, runConfig()), []);
  const heads = refusals(so, runConfig({ width: 30, heads: 4, models: KINDS.map((k) => k.key) }));
  assert.equal(heads.length, 1, JSON.stringify(heads));
  assert.equal(heads[0].setting, 'heads');
  assert.match(heads[0].message, /^without positions, sinusoidal, learned \(16 rows\), rotary, .*: .*heads must divide width/);
  assert.deepEqual(refusals(so, runConfig({ shortest: 16, longest: 8 })), [{ setting: 'shortest', message: 'the shortest training sentence (16) is longer than the longest (8)' }]);
  assert.deepEqual(refusals(so, runConfig({ task: 'lookback', back: 4, shortest: 3, longest: 3 })).map((r) => r.setting), ['shortest']);
  assert.deepEqual(refusals(so, runConfig({ models: KINDS.slice(0, 8).map((k) => k.key), seeds: 3 })), []);  // (a run's most: 8 models)
  assert.equal(MAX_MODELS, 24);
});

test('what a run costs: the lesson\'s is light; the largest settings are long and large, and asked for', () => {
  const light = runCost(runConfig());
  assert.equal(light.heavy, false);
  assert.ok(light.seconds > 1 && light.seconds < 30, String(light.seconds));
  const largest = runConfig({ models: KINDS.map((k) => k.key), seeds: 3, steps: 4000, width: 64, layers: 4, heads: 8, shortest: 32, longest: 32 });
  const heavy = runCost(largest);
  assert.equal(heavy.heavy, true);
  assert.ok(heavy.seconds > 3600 && heavy.bytes > 512 * 2 ** 20, JSON.stringify(heavy));
  // the estimate follows this device's pace: measured twice as fast, half the time
  assert.ok(Math.abs(runCost(runConfig(), { rate: 2 * 6.5e9 }).seconds - light.seconds / 2) < 1e-9);
});

test('the lookback task: its score against a plain reference', () => {
  const { ids, targets } = so.lookbackTask({ count: 4, length: 9, back: 2, seed: 3 });
  for (let s = 0; s < 4; s++) for (let t = 0; t < 9; t++) assert.equal(targets.data[s * 9 + t], t < 2 ? -1 : ids.data[s * 9 + t - 2]);
  const classes = 16;
  const logits = new Float32Array(4 * 9 * classes);
  targets.data.forEach((target, r) => { logits[r * classes + Math.max(0, target)] = 1; });
  logits[2 * classes + targets.data[2]] = 0;
  logits[2 * classes + ((targets.data[2] + 1) % classes)] = 1;
  const score = lookbackScore({ data: logits, shape: [4, 9, classes] }, targets, ids);
  assert.deepEqual([score.answered, score.accuracy], [4 * 7, 27 / 28]);
});

test('the record as JSON and as CSV: its name, settings, models\' options, curves, hashes, the lengths table, the probe, the relative bias, the stretches', async () => {
  const record = { ...lesson, settings: { ...DEFAULTS } };
  const json = JSON.parse(recordJson(record, { version: '1.2.3' }));
  assert.equal(json.seqorder, '1.2.3');
  assert.equal(json.name, 'the order task, seed 1');
  assert.deepEqual(json.models.map((m) => m.hash), lesson.models.map((m) => m.hash));
  assert.deepEqual(json.measured, lesson.measured);
  const rows = recordCsv(record).trim().split('\n');
  assert.equal(rows[0], 'model,seed,measure,step,T,value');
  assert.ok(rows.includes('without positions,1,accuracy,20,,0.5'));
  assert.ok(rows.includes(`sinusoidal,1,parameters sha256,800,,${lesson.models[1].hash}`));
  assert.equal(rows.filter((r) => r.includes(',loss,')).length, LESSON_MODELS.length * 40);
  assert.equal(await parameterHash({ a: { data: new Uint8Array(0) } }), createHash('sha256').digest('hex'));
  // the bench page's position probe, when the run has one
  const probe = [{ key: 'none', seed: 1, T: 16, fitted: 1024, scored: 1024, accuracy: 0.0625, meanDistance: 4, chance: 1 / 16, kept: 31, width: 32, orthogonality: 1e-8 }];
  assert.deepEqual(JSON.parse(recordJson({ ...record, probe })).probe, probe);
  const probed = recordCsv({ ...record, probe }).trim().split('\n');
  assert.ok(probed.includes('without positions,1,probe: position named right,800,16,0.0625'));
  assert.ok(probed.includes('without positions,1,probe: mean distance,800,16,4'));
  // each model's options (the bias family's among them), the relative bias by offset, and the reader's stretches
  const options = { positions: 'relative', causal: true, heads: 2, buckets: 32, maxDistance: 128 };
  const offsets = [{ key: 'none', seed: 1, step: 800, T: 2, offsets: [-1, 0], heads: [[0.5, -0.25], [1, 2]] }];
  const score = (accuracy) => ({ accuracy, answered: 10 });
  const refused = { error: { name: 'RangeError', message: 'ids have T = 32 positions, but the learned table has 16 rows (maxLength)' } };
  const stretch = {
    key: 'rotary', seed: 1, step: 800, method: 'yarn', factor: 2, tune: 25, length: 32, scaling: { method: 'yarn', factor: 2, originalLength: 16 },
    lengths: [16, 32], zeroShot: { 16: score(0.5), 32: refused }, tuned: { 16: score(0.75), 32: score(0.625) }, plain: { 16: score(1), 32: score(0.25) },
    frequencies: { trained: [1, 0.01], stretched: [0.5, 0.005], temperature: 1.0069555500567189 },
  };
  const more = { ...record, models: record.models.map((m, i) => (i === 0 ? { ...m, options } : m)), offsets, stretches: [stretch, { ...stretch, method: 'ntk' }] };
  const parsed = JSON.parse(recordJson(more));
  assert.deepEqual([parsed.models[0].options, parsed.offsets, parsed.stretches[0]], [options, offsets, stretch]);
  const all = recordCsv(more).trim().split('\n');
  for (const row of ['without positions,1,option:positions,,,relative', 'without positions,1,option:buckets,,,32', 'without positions,1,option:maxDistance,,,128',
    'without positions,1,"relative bias: head 1, offset -1",800,2,0.5', 'without positions,1,"relative bias: head 2, offset 0",800,2,2',
    'rotary,1,stretch 1: method,800,,yarn', 'rotary,1,stretch 1: factor,800,,2', 'rotary,1,stretch 1: fine-tuning steps,800,,25',
    'rotary,1,stretch 1: fine-tuning length,800,,32', 'rotary,1,stretch 1: temperature,800,,1.0069555500567189',
    'rotary,1,stretch 1: zero-shot accuracy,800,16,0.5', `rotary,1,stretch 1: zero-shot refused,800,32,"${refused.error.message}"`,
    'rotary,1,"stretch 1: stretched, tuned accuracy",825,32,0.625', 'rotary,1,"stretch 1: not stretched, tuned accuracy",825,32,0.25',
    'rotary,1,stretch 2: method,800,,ntk']) assert.ok(all.includes(row), row);
  assert.equal(all.filter((r) => r.includes('relative bias:')).length, 4);
  assert.equal(all.filter((r) => /^rotary,1,"?stretch \d: .*(accuracy|refused)/.test(r)).length, 2 * 3 * 2);
});

test('the pool\'s size, and the second task as the conclusion trains it', () => {
  assert.deepEqual([1, 2, 4, 16].map(poolSize), [2, 3, 5, MAX_WORKERS]);
  assert.deepEqual([undefined, 0, 2.5, NaN].map(poolSize), [3, 3, 3, 3]);
  const next = runConfig(secondTaskValues({ ...DEFAULTS, models: ['sinusoidal', 'rotary'], steps: 300, back: 3 }));
  assert.deepEqual([next.task, next.back, next.steps, next.kinds], ['lookback', 3, 300, ['sinusoidal', 'rotary', 'causal', 'causal-sinusoidal']]);
  assert.deepEqual(curvesView(lesson).kinds.map((k) => k.key), [...LESSON_MODELS]);
});
