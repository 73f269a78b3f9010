// The lab's experiment (web/js/experiments/train*.mjs, as built in the site) in node, on a pool of worker_threads:
// the lesson's run gives the models of the same training written out here on one thread with createModel (the
// schedule of the C++ test and the PyTorch reference: step k on orderTask(32, 8 + k % 9, seed 1000 + k), lr 3e-3),
// hash for hash; a run paused and resumed, or stepped 20 steps at a time, ends with the same bits as one never paused,
// every model at one step at each pause; every check passes on the lesson's run and fails on measurements that
// contradict it; every sentence's predicate holds on its record and fails on a record that contradicts it; the check
// beside the curves' sentences, the one beside the lengths figure's and those of the conclusion pass on real runs
// (other settings, three seeds, paused) and fail when the numbers and a sentence disagree; the back
// task's sentences and scores against a plain reference written here; a setting a model cannot take is refused in
// the API's words; the record's JSON and CSV.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { loadSeqorder, loadSeqorderPool, siteModule } from './helpers/load.mjs';
import { assertAllPass, verdicts } from './helpers/verdicts.mjs';

const {
  CHUNK, DEFAULTS, KINDS, LESSON_MODELS, MAX_WORKERS, SETTINGS, TASK_WORDS, createRun, differInScaleOnly, isLessonRun, measureRun,
  modelOptions, parameterHash, poolSize, refusals, runConfig, runHashes, secondTaskValues,
} = await siteModule('js/experiments/train.mjs');
const { median } = await siteModule('js/median.mjs');
const { SAME_LOGITS, lookbackScore, measuredLengths, orderScore } = await siteModule('js/experiments/train-tasks.mjs');
const { PREDICATES, conclusionChecks, conclusionSentences, curveSentences, figureChecks, holds, kindCurve, lengthSentences, runChecks, runSentences, scalingSentences, setsSentence } = await siteModule('js/experiments/train-findings.mjs');
const { addChunk, newRecord, recordCsv, recordJson } = await siteModule('js/experiments/train-record.mjs');

const so = await loadSeqorder();
let pool;
/** Trains `config` on the pool to its end (or through `script`: (run) => …), measured: its record. */
async function recorded(config, script = (run) => run.play()) {
  const record = newRecord(config, {});
  const run = await createRun(pool, so, config, { onChunk: (i, c) => addChunk(record, i, c) });
  try {
    await script(run);
    const hashes = await runHashes(run);
    hashes.forEach((h, i) => { record.models[i].hash = h; });
    Object.assign(record, { state: run.state, step: run.step, measured: await measureRun(run), measuredAt: run.step });
    return { record, run };
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

/** One model of the lab trained here on one thread, written out: createModel's options (the lesson's: token vectors
 * × √D), orderTask, step. */
function trainHere(options, { steps = 800, shortest = 8, longest = 16, lr = 3e-3 } = {}) {
  const model = so.createModel({ vocab: 16, width: 32, heads: 2, layers: 1, readout: 'mean', classes: 2, dtype: 'float32', embedScale: 'sqrtWidth', ...options });
  for (let k = 0; k < steps; k++) {
    const { ids, targets } = so.orderTask({ count: 32, length: shortest + (k % (longest - shortest + 1)), seed: 1000 + k });
    model.step(ids, targets, { lr });
  }
  return model;
}
const OPTIONS = {
  none: { positions: 'none' }, sinusoidal: { positions: 'sinusoidal' }, learned: { positions: 'learned', maxLength: 16 },
  rotary: { positions: 'rotary' }, causal: { positions: 'none', causal: true },
};

/** SHA-256 of the parameters' bytes in order, by node's own crypto (not the experiment's parameterHash). */
function hashHere(model) {
  const hash = createHash('sha256');
  for (const t of Object.values(model.parameters())) hash.update(Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength));
  return hash.digest('hex');
}

test('the settings: declared once, their defaults are the lesson\'s run; the composer knows the task\'s words', () => {
  assert.deepEqual(TASK_WORDS, so.taskWords);
  const config = runConfig();
  assert.deepEqual(config.kinds, [...LESSON_MODELS]);
  assert.deepEqual(config.seeds, [1]);
  assert.equal(isLessonRun(config), true);
  assert.equal(isLessonRun(runConfig({ seeds: 3, seed: 7, models: ['rotary'] })), true, 'models and seeds do not leave the lesson');
  assert.equal(isLessonRun(runConfig({ lr: 1e-2 })), false);
  assert.deepEqual(runConfig({ seeds: 3, seed: 7 }).seeds, [7, 8, 9]);
  assert.deepEqual(modelOptions(config, 'learned', 1, 16), { vocab: 16, width: 32, heads: 2, layers: 1, readout: 'mean', classes: 2, dtype: 'float32', positions: 'learned', maxLength: 16, embedScale: 'sqrtWidth', seed: 1 });
  assert.deepEqual(modelOptions(runConfig({ task: 'lookback', embedScale: false }), 'causal-rotary', 3, 16), { vocab: 16, width: 32, heads: 2, layers: 1, readout: 'each', classes: 16, dtype: 'float32', positions: 'rotary', causal: true, seed: 3 });
  assert.equal(Object.keys(DEFAULTS).length, Object.keys(SETTINGS).length);
  assert.equal(KINDS.length, 8);
});

test('the lesson\'s run: the models of the same training on one thread, hash for hash', () => {
  assert.deepEqual(lesson.models.map((m) => m.steps), LESSON_MODELS.map(() => 800));
  for (const m of lesson.models) {
    const here = trainHere({ ...OPTIONS[m.key], seed: 1 });
    assert.equal(m.hash, hashHere(here), m.label);
    here.dispose();
  }
});

test('the curves: one point every CHUNK steps, a loss and an accuracy each', () => {
  for (const m of lesson.models) {
    assert.deepEqual(m.curve.step, Array.from({ length: 800 / CHUNK }, (_, j) => (j + 1) * CHUNK));
    assert.ok(m.curve.loss.every(Number.isFinite) && m.curve.accuracy.every((a) => a >= 0 && a <= 1));
  }
  // the position-free bidirectional model sees a held-out pair as one bag of words: 50% at every point
  assert.ok(lesson.models[0].curve.accuracy.every((a) => a === 0.5));
});

test('paused, resumed and stepped: every model at one step at each pause, the same bits as a run never paused', async () => {
  const config = runConfig({ models: ['sinusoidal', 'rotary', 'causal'], steps: 200, seeds: 3 });
  const whole = await recorded(config);
  const pauses = [];
  const paused = await recorded(config, async (run) => {
    const going = run.play();
    await new Promise((resolve) => setTimeout(resolve, 30));
    await run.pause();
    await going;
    pauses.push(run.taken);
    assert.equal(run.state, 'paused');
    await run.advance();
    pauses.push(run.taken);
    await run.advance(CHUNK);
    pauses.push(run.taken);
    await run.play();
  });
  for (const taken of pauses) assert.ok(taken.every((t) => t === taken[0] && t % CHUNK === 0), `steps at a pause: ${taken}`);
  assert.equal(pauses[1][0] - pauses[0][0], CHUNK);
  assert.equal(paused.record.state, 'done');
  assert.deepEqual(paused.record.models.map((m) => m.hash), whole.record.models.map((m) => m.hash));
  assert.deepEqual(paused.record.models.map((m) => m.curve), whole.record.models.map((m) => m.curve));
  // the models' seeds are 1, 2, 3 and one-thread training agrees with the rotary one of seed 3
  const here = trainHere({ positions: 'rotary', seed: 3 }, { steps: 200 });
  assert.equal(whole.record.models.find((m) => m.key === 'rotary' && m.seed === 3).hash, hashHere(here));
  here.dispose();
});

test('every check passes on the lesson\'s run, with the numbers of its measurements', () => {
  const checks = runChecks(lesson);
  assert.deepEqual(checks.map((c) => c.name), ['train-none-mirror-logits', 'train-none-half', 'train-learned-refuses',
    'train-sinusoidal-learns', 'train-learned-learns', 'train-rotary-learns', 'train-causal-learns']);
  assertAllPass(checks);
  const learned = lesson.measured.find((r) => r.key === 'learned');
  assert.deepEqual(learned.lengths[32].error, { name: 'RangeError', message: 'ids have T = 32 positions, but the learned table has 16 rows (maxLength)' });
  // each length refused with its own message
  assert.equal(checks.find((c) => c.name === 'train-learned-refuses').details,
    'T = 32: RangeError: ids have T = 32 positions, but the learned table has 16 rows (maxLength); ' +
    'T = 64: RangeError: ids have T = 64 positions, but the learned table has 16 rows (maxLength)');
  // the measurements are the models' own: the accuracies of the rotary model trained here, at every length
  const here = trainHere({ positions: 'rotary', seed: 1 });
  for (const T of measuredLengths(lesson.config)) {
    const set = so.orderTask({ count: 256, length: T, seed: 500 + T, mirrored: true });
    assert.deepEqual(lesson.measured.find((r) => r.key === 'rotary').lengths[T], orderScore(here.forward(set.ids), set.targets), `T = ${T}`);
  }
  here.dispose();
  // outside the lesson's settings the lesson's claims are not checked; the architecture's still are
  assert.deepEqual(runChecks({ ...lesson, config: runConfig({ lr: 1e-2 }) }).map((c) => c.name), ['train-none-mirror-logits', 'train-none-half', 'train-learned-refuses']);
});

/** The lesson's record with the scores of one model at some lengths replaced. */
function altered(key, lengths) {
  return { ...lesson, measured: lesson.measured.map((r) => (r.key === key ? { ...r, lengths: { ...r.lengths, ...lengths } } : r)) };
}
const at = (accuracy, extra = {}) => ({ accuracy, pairs: 128, pairsOneRight: 0, pairsTied: 0, pairsTiedRight: 0, mirrorDifference: 1, ...extra });

test('each check fails on measurements that contradict its claim', () => {
  const fails = (record, name) => assert.equal(verdicts(runChecks(record))[name], false, name);
  const none = lesson.measured[0].lengths;
  fails(altered('none', { 16: { ...none[16], mirrorDifference: 3e-5 } }), 'train-none-mirror-logits');
  fails(altered('none', { 64: { ...none[64], pairsOneRight: 255 } }), 'train-none-half');
  for (const key of ['sinusoidal', 'learned', 'rotary']) fails(altered(key, { 16: at(0.89) }), `train-${key}-learns`);
  fails(altered('causal', { 12: at(0.89) }), 'train-causal-learns');
  fails(altered('learned', { 32: at(0.6) }), 'train-learned-refuses');
  fails(altered('learned', { 64: { error: { name: 'Error', message: 'the worker stopped' } } }), 'train-learned-refuses');
});

test('train-none-half holds when a pair\'s logits tie within float32 rounding, and says so; it fails when they do not tie', () => {
  // a sentence and its mirror, logits equal but for rounding: margins +1e-8 and −1e-8 tip the two argmaxes apart
  const tie = orderScore({ data: Float32Array.of(0.25, 0.25 + 1e-7, 0.25 + 1e-7, 0.25), shape: [2, 2] }, { data: Int32Array.of(1, 0), shape: [2] });
  assert.deepEqual(tie, { accuracy: 1, pairs: 1, pairsOneRight: 0, pairsTied: 1, pairsTiedRight: 1, mirrorDifference: Math.fround(0.25 + 1e-7) - 0.25 });
  const tieWrong = orderScore({ data: Float32Array.of(0.25, 0.25 + 1e-7, 0.25 + 1e-7, 0.25), shape: [2, 2] }, { data: Int32Array.of(0, 1), shape: [2] });
  assert.deepEqual([tieWrong.accuracy, tieWrong.pairsTied, tieWrong.pairsTiedRight], [0, 1, 0]);
  const apart = orderScore({ data: Float32Array.of(0, 1, 1, 0), shape: [2, 2] }, { data: Int32Array.of(1, 0), shape: [2] });
  assert.deepEqual(apart, { accuracy: 1, pairs: 1, pairsOneRight: 0, pairsTied: 0, pairsTiedRight: 0, mirrorDifference: 1 });
  const half = (record) => runChecks(record).find((c) => c.name === 'train-none-half');
  const lengths = (T0, score) => Object.fromEntries(measuredLengths(lesson.config).map((T) => [T, { ...lesson.measured[0].lengths[T], ...(T === T0 ? score : {}) }]));
  // the lesson's run: no tie, exactly one right in every pair, 50%
  assert.equal(half(lesson).claim, 'So exactly one sentence of each pair is right: 50% on mirrored pairs');
  assert.equal(half(lesson).pass, true);
  // one pair of 128 at T = 16 tied, both right: one answer serves both, the claim counts it and the accuracy it gives
  const oneTie = half(altered('none', lengths(16, { pairsOneRight: 127, pairsTied: 1, pairsTiedRight: 1, accuracy: 129 / 256 })));
  assert.equal(oneTie.pass, true);
  assert.equal(oneTie.claim, 'So one answer serves both sentences of a pair: exactly one is right in 639 of 640 pairs; in 1 more the ' +
    'logits tie within float32 rounding, which tipped the two answers apart (1 with both right), so the accuracy over the 640 pairs is 50.1% rather than 50%');
  // two ties, one both right and one both wrong: 50% again, and the claim says why
  const twoTies = half(altered('none', lengths(8, { pairsOneRight: 126, pairsTied: 2, pairsTiedRight: 1 })));
  assert.match(twoTies.claim, /exactly one is right in 638 of 640 pairs; in 2 more .*\(1 with both right, 1 with both wrong\), which leaves the accuracy over the 640 pairs at 50%$/);
  // a pair neither one right nor tied fails, whatever the claim
  assert.equal(half(altered('none', lengths(64, { pairsOneRight: 127, pairsTied: 0 }))).pass, false);
  assert.ok(SAME_LOGITS >= 1e-6);
});

test('every sentence of the lesson\'s run holds on its record, and fails on a record that contradicts it', () => {
  const runs = { order: lesson, lookback: null };
  const sentences = [...runSentences(lesson), ...conclusionSentences(runs)];
  assert.ok(sentences.length >= 10, sentences.map((s) => s.text).join('\n'));
  for (const s of sentences) assert.equal(holds(s, lesson, runs), true, `${s.name}: ${s.text}`);
  assert.ok(sentences.every((s) => typeof PREDICATES[s.type] === 'function'));
  // each kind of sentence against a record that says otherwise
  const dipped = structuredClone(lesson);
  const rotary = dipped.models.find((m) => m.key === 'rotary');
  rotary.curve.accuracy[rotary.curve.accuracy.length - 2] = 0.5;  // a dip the sentence did not mention
  const curve = sentences.find((s) => s.name === 'curve-rotary');
  assert.match(curve.text, /rotary first reached 95% at step \d+, and stayed at or above it to step 800/);
  assert.equal(holds(curve, dipped, runs), false);
  const longer = sentences.find((s) => s.name === 'lengths-32');
  const rotary32 = lesson.measured.find((r) => r.key === 'rotary').lengths[32].accuracy;
  assert.equal(holds(longer, altered('rotary', { 32: at(rotary32 >= 0.9 ? 0.5 : 0.95) }), runs), false, 'rotary kept or fell the other way');
  const mask = sentences.find((s) => s.name === 'conclusion-order-mask');
  assert.match(mask.text, /The causal mask alone was enough for the order task/);
  assert.equal(holds(mask, lesson, { order: altered('causal', { 8: at(0.6) }) }), false);
  const formula = sentences.find((s) => s.name === 'conclusion-order-formula');
  assert.equal(holds(formula, lesson, { order: altered('sinusoidal', { 64: at(0.97) }) }), false);
  // the sentences follow other numbers
  const kept = runSentences(altered('sinusoidal', { 32: at(0.97), 64: at(0.91) })).map((s) => s.text).join(' ');
  assert.match(kept, /At T = 32, 2× the longest training sentence: [^;]*sinusoidal at 97%[^;]* kept at least 90%/);
});

test('the run\'s figures: one check beside all the curves\' sentences, one beside all the lengths figure\'s; each fails when the numbers contradict a sentence', () => {
  const sentences = runSentences(lesson);
  const checks = figureChecks(sentences, lesson);
  assert.deepEqual(checks.map((c) => c.name), ['train-curves', 'train-lengths']);
  assertAllPass(checks);
  const [curves, lengths] = checks;
  // each sentence's outcome against its threshold, as the sentences state it
  assert.match(curves.claim, /^The curves against 95%, to step 800: [^;]+ reached it and stayed at or above it(; [^;]+ reached it, then fell below it)?; none, bidirectional did not reach it$/);
  assert.match(curves.details, /^none, bidirectional: below 95% at every point to step 800 \(50%\)\. sinusoidal: first at or above 95% at step \d+ \([\d.]+%\); from there lowest [\d.]+% \(step \d+\) [≥<] 95%; [\d.]+% at step 800\. /);
  assert.match(lengths.claim, /^Against 90%: at T = 32, (no model|\d models?) kept it and (no model|\d) fell below; at T = 64, (no model|\d models?) kept it and (no model|\d) fell below; learned \(16 rows\) gives no answer from T = 32 on$/);
  assert.match(lengths.details, /^T = 32: none, bidirectional 50% < 90%; sinusoidal [\d.]+% [≥<] 90%; rotary [\d.]+% [≥<] 90%; none, causal [\d.]+% [≥<] 90%\. T = 64: .*\. learned \(16 rows\): answered at T = 8, 12, 16; no answer at T = 32, 64$/);
  const fails = (record, name, said = sentences) => {
    const check = figureChecks(said, record).find((c) => c.name === name);
    assert.equal(check.pass, false, `${name}: ${check.details}`);
    return check;
  };
  // the curves: a dip below 95% that a sentence says did not happen, a first step at 95% one chunk later, the
  // position-free model reaching 95%, a model's sentence left out, a sentence naming another first step
  const curveOf = (record, key) => record.models.find((m) => m.key === key).curve.accuracy;
  const curveSaid = (key) => sentences.find((x) => x.name === `curve-${key}`).params;
  const stayed = ['sinusoidal', 'learned', 'rotary', 'causal'].find((key) => curveSaid(key).low >= 0.95);
  assert.ok(stayed, 'a model that stayed at or above 95%');
  const dipped = structuredClone(lesson);
  curveOf(dipped, stayed)[curveOf(dipped, stayed).length - 2] = 0.5;
  assert.match(fails(dipped, 'train-curves').details, new RegExp(`Not as the sentences say: ${stayed}`));
  const later = structuredClone(lesson);
  curveOf(later, 'rotary')[curveSaid('rotary').first / CHUNK - 1] = 0.9;
  fails(later, 'train-curves');
  const reached = structuredClone(lesson);
  curveOf(reached, 'none')[10] = 0.96;
  fails(reached, 'train-curves');
  fails(lesson, 'train-curves', sentences.filter((x) => x.name !== 'curve-rotary'));
  fails(lesson, 'train-curves', [...sentences, sentences.find((x) => x.name === 'curve-rotary')]);
  fails(lesson, 'train-curves', sentences.map((x) => (x.name === 'curve-rotary' ? { ...x, params: { ...x.params, first: x.params.first + CHUNK } } : x)));
  // the lengths: a model on the other side of 90% at T = 32, a number the sentence does not quote, the learned table
  // answering at T = 64 or at T = 32, a sentence that puts its refusal elsewhere
  const rotary32 = lesson.measured.find((r) => r.key === 'rotary').lengths[32].accuracy;
  fails(altered('rotary', { 32: at(rotary32 >= 0.9 ? 0.5 : 0.95) }), 'train-lengths');
  fails(altered('rotary', { 32: at(rotary32 >= 0.9 ? rotary32 + (rotary32 < 1 ? 0.001 : -0.001) : rotary32 / 2) }), 'train-lengths');
  assert.match(fails(altered('learned', { 64: at(0.6) }), 'train-lengths').details, /learned \(16 rows\): the measurements do not stop answering at one length \(the first without an answer: T = 32\); the sentence says from T = 32 on/);
  fails(altered('learned', { 32: at(0.6) }), 'train-lengths');
  fails(lesson, 'train-lengths', sentences.map((x) => (x.type === 'refused' ? { ...x, params: { ...x.params, T: 64 } } : x)));
  fails(lesson, 'train-lengths', sentences.filter((x) => x.type !== 'refused'));
  fails(lesson, 'train-lengths', sentences.map((x) => (x.name === 'lengths-64' ? { ...x, params: { ...x.params, kept: x.params.fell, fell: x.params.kept } } : x)));
  // only the figures' sentences have these checks; none without them
  assert.deepEqual(figureChecks(curveSentences(lesson), lesson).map((c) => c.name), ['train-curves']);
  assert.deepEqual(figureChecks(lengthSentences(lesson), lesson).map((c) => c.name), ['train-lengths']);
  assert.deepEqual(figureChecks([], lesson), []);
});

test('the conclusion: a check beside each sentence that states an outcome, recomputed from the run; it fails on numbers or a sentence that contradict each other', () => {
  const runs = { order: lesson, lookback: null };
  const sentences = conclusionSentences(runs);
  const checks = conclusionChecks(sentences, runs);
  assert.deepEqual(checks.map((c) => c.name), ['train-conclusion-blind', 'train-conclusion-order', 'train-conclusion-order-mask',
    'train-conclusion-order-longer', 'train-conclusion-order-formula']);
  assertAllPass(checks);
  const learnt = checks.find((c) => c.name === 'train-conclusion-order');
  assert.match(learnt.claim, /^On the order task: sinusoidal, learned \(16 rows\), rotary and none, causal scored at least 90% at every trained length \(T = 8, 12, 16\)$/);
  assert.match(learnt.details, /^sinusoidal: T = 8: [\d.]+%, T = 12: [\d.]+%, T = 16: [\d.]+%; lowest [\d.]+% ≥ 90%\. learned/);
  // the lesson's sentences against records whose numbers say otherwise
  const fails = (record, name) => assert.equal(verdicts(conclusionChecks(sentences, { order: record }))[name], false, name);
  fails(altered('rotary', { 16: at(0.5) }), 'train-conclusion-order');
  fails(altered('causal', { 8: at(0.6) }), 'train-conclusion-order-mask');
  fails(altered('causal', { 8: at(0.6) }), 'train-conclusion-order');
  fails(altered('none', { 32: { ...lesson.measured[0].lengths[32], accuracy: 0.6, pairsOneRight: 100 } }), 'train-conclusion-blind');
  const longer = sentences.find((s) => s.name === 'conclusion-order-longer');
  fails(altered('rotary', { 32: at(longer.params.sinusoidal + (longer.params.which === 'rotary' ? -0.1 : 0.1)) }), 'train-conclusion-order-longer');
  const formula = sentences.find((s) => s.name === 'conclusion-order-formula');
  fails(altered('sinusoidal', { 64: at(formula.params.kept ? 0.5 : 0.97) }), 'train-conclusion-order-formula');
  // a sentence that states the wrong outcome fails against the run's own numbers
  const wrong = sentences.map((s) => (s.type === 'learnt' ? { ...s, params: { ...s.params, learnt: s.params.learnt.filter((k) => k !== 'rotary'), notLearnt: [...s.params.notLearnt, 'rotary'] } }
    : s.type === 'mask' ? { ...s, params: { ...s.params, enough: !s.params.enough } } : s));
  assert.deepEqual(conclusionChecks(wrong, runs).filter((c) => !c.pass).map((c) => c.name), ['train-conclusion-order', 'train-conclusion-order-mask']);
  // a run of the model without positions alone: nothing to say about which models learnt the order task
  const alone = { ...lesson, config: { ...lesson.config, kinds: ['none'] }, measured: lesson.measured.filter((r) => r.key === 'none') };
  assert.deepEqual(conclusionChecks(conclusionSentences({ order: alone }), { order: alone }).map((c) => c.name), ['train-conclusion-blind']);
});

test('the conclusion\'s checks at other settings than the lesson\'s: steps, lengths and seed of a reader\'s link', async () => {
  // the lesson's own checks are the lesson's claims; the conclusion's sentences state their outcome at any settings,
  // and each has its check there
  const config = runConfig({ steps: 200, shortest: 6, longest: 12, seed: 5 });
  assert.equal(isLessonRun(config), false);
  const { record } = await recorded(config);
  assert.equal(runChecks(record).some((c) => c.name.endsWith('-learns')), false);
  // the figures' checks too
  assert.deepEqual(figureChecks(runSentences(record), record).map((c) => c.name), ['train-curves', 'train-tables', 'train-lengths']);
  assertAllPass(figureChecks(runSentences(record), record));
  const runs = { order: record, lookback: null };
  const sentences = conclusionSentences(runs);
  const checks = conclusionChecks(sentences, runs);
  for (const name of ['conclusion-order', 'conclusion-order-mask']) {
    assert.ok(sentences.some((s) => s.name === name), name);
    assert.ok(checks.some((c) => c.name === `train-${name}`), `train-${name}`);
  }
  assertAllPass(checks);
  const mask = checks.find((c) => c.name === 'train-conclusion-order-mask');
  assert.match(mask.claim, /^On the order task, the causal model without positions scored (at least 90% at every trained length|below 90% at one trained length or more) \(T = 6, 9, 12\)$/);
  // the causal model's numbers flipped to the other side of 90%: the check fails
  const { enough } = sentences.find((s) => s.name === 'conclusion-order-mask').params;
  const flip = (lengths) => Object.fromEntries(Object.entries(lengths).map(([T, a]) => [T, enough ? { ...a, accuracy: T === '9' ? 0.5 : a.accuracy } : { ...a, accuracy: 0.99 }]));
  const flipped = { ...record, measured: record.measured.map((r) => (r.key === 'causal' ? { ...r, lengths: flip(r.lengths) } : r)) };
  assert.equal(verdicts(conclusionChecks(sentences, { order: flipped }))['train-conclusion-order-mask'], false);
});

test('a paused run\'s sentences say "not yet"; its lesson claims wait', async () => {
  const config = runConfig({ steps: 800, models: ['none', 'sinusoidal'] });
  const { record } = await recorded(config, (run) => run.advance(3 * CHUNK));
  assert.equal(record.state, 'paused');
  assert.equal(record.step, 60);
  const texts = runSentences(record).map((s) => s.text);
  assert.ok(texts.includes('none, bidirectional has not reached 95% by step 60, so far 50% at every point.'), texts.join('\n'));
  for (const s of runSentences(record)) assert.equal(holds(s, record), true, s.text);
  assert.equal(verdicts(runChecks(record))['train-none-half'], true);
  // the figures' checks say the same, to step 60, and fail on a sentence that calls the run over
  const figures = figureChecks(runSentences(record), record);
  assertAllPass(figures);
  assert.match(figures[0].claim, /^The curves against 95%, to step 60: .*none, bidirectional( and sinusoidal)? did not reach it$/);
  const over = runSentences(record).map((s) => (s.type === 'curve' ? { ...s, params: { ...s.params, over: true } } : s));
  assert.equal(verdicts(figureChecks(over, record))['train-curves'], false);
});

test('the lookback task: its score against a plain reference; the position-free model cannot tell two equal words apart', async () => {
  const { ids, targets } = so.lookbackTask({ count: 4, length: 9, back: 2, seed: 3 });
  assert.deepEqual(ids.shape, [4, 9]);
  for (let s = 0; s < 4; s++) {
    for (let t = 0; t < 9; t++) assert.equal(targets.data[s * 9 + t], t < 2 ? -1 : ids.data[s * 9 + t - 2]);
  }
  // logits that name the target at every position but one
  const classes = 16;
  const logits = new Float32Array(4 * 9 * classes);
  targets.data.forEach((target, r) => { logits[r * classes + Math.max(0, target)] = 1; });
  logits[2 * classes + targets.data[2]] = 0;
  logits[2 * classes + ((targets.data[2] + 1) % classes)] = 1;
  const score = lookbackScore({ data: logits, shape: [4, 9, classes] }, targets, ids);
  assert.equal(score.answered, 4 * 7);
  assert.equal(score.accuracy, 27 / 28);
  const config = runConfig({ task: 'lookback', models: ['none', 'sinusoidal'], steps: 100 });
  const { record } = await recorded(config);
  const checks = runChecks(record);
  assert.deepEqual(checks.map((c) => c.name), ['train-none-same-word']);
  assertAllPass(checks);
  assertAllPass(figureChecks(runSentences(record), record));
  for (const s of [...runSentences(record), ...conclusionSentences({ lookback: record })]) assert.equal(holds(s, record, { lookback: record }), true, s.text);
});

test('token vectors × √D: createModel\'s embedScale; the conclusion compares two runs that differ in it only, sentence by sentence', async () => {
  const scaledConfig = runConfig({ models: ['sinusoidal', 'rotary'], steps: 300 });
  assert.equal(modelOptions(scaledConfig, 'sinusoidal', 1, 16).embedScale, 'sqrtWidth', 'the lesson\'s default');
  const unscaledConfig = runConfig({ models: ['sinusoidal', 'rotary'], steps: 300, embedScale: false });
  assert.equal('embedScale' in modelOptions(unscaledConfig, 'sinusoidal', 1, 16), false, 'createModel\'s default: as they are');
  assert.equal(isLessonRun(unscaledConfig), false);
  assert.equal(differInScaleOnly(scaledConfig, unscaledConfig), true);
  assert.equal(differInScaleOnly(scaledConfig, runConfig({ models: ['sinusoidal'], steps: 300 })), false);
  const [{ record: scaled }, { record: unscaled }] = [await recorded(scaledConfig), await recorded(unscaledConfig)];
  // the scaled sinusoidal model is createModel's with embedScale 'sqrtWidth', trained the same way
  const here = so.createModel({ vocab: 16, width: 32, heads: 2, classes: 2, positions: 'sinusoidal', embedScale: 'sqrtWidth', seed: 1 });
  for (let k = 0; k < 300; k++) {
    const { ids, targets } = so.orderTask({ count: 32, length: 8 + (k % 9), seed: 1000 + k });
    here.step(ids, targets, { lr: 3e-3 });
  }
  assert.equal(scaled.models[0].hash, hashHere(here));
  here.dispose();
  const pair = { scaled, unscaled };
  const sentences = scalingSentences(pair);
  assert.deepEqual(sentences.map((s) => s.name), ['scaling-sinusoidal', 'scaling-rotary', 'scaling-summary']);
  for (const s of sentences) assert.equal(holds(s, null, { scaling: pair }), true, s.text);
  assert.match(sentences[0].text, /^sinusoidal, token vectors × √D against as they are: first reached 95% (at step \d+|not within the \d+ steps) against (at step \d+|not within the \d+ steps); at T = 64, [\d.]+% against [\d.]+%\.$/);
  // against numbers that say otherwise
  const swapped = { scaled: unscaled, unscaled: scaled };
  assert.equal(sentences.filter((s) => holds(s, null, { scaling: swapped })).length < sentences.length, true);
  // one check for the scaling, beside its summary: every kind's numbers and the summary's outcome, from the two runs
  const checks = conclusionChecks(sentences, { scaling: pair });
  assert.deepEqual(checks.map((c) => c.name), ['train-scaling-summary']);
  assertAllPass(checks);
  assert.equal(conclusionChecks(sentences, { scaling: swapped })[0].pass, false);
  assert.deepEqual(scalingSentences(null), []);
});

test('a setting a model cannot take is refused, in the API\'s own words, beside the setting it names', () => {
  assert.deepEqual(refusals(so, runConfig()), []);
  const odd = refusals(so, runConfig({ width: 31, heads: 1 }));
  assert.deepEqual(odd.map((r) => [r.setting, r.key]), [['width', 'sinusoidal'], ['heads', 'rotary']]);
  assert.match(odd[0].message, /^sinusoidal: width must be even with positions: 'sinusoidal'/);
  const heads = refusals(so, runConfig({ width: 30, heads: 4 }));
  assert.ok(heads.every((r) => r.setting === 'heads' && /heads must divide width/.test(r.message)) && heads.length === 5);
  assert.deepEqual(refusals(so, runConfig({ task: 'lookback', back: 4, shortest: 3, longest: 3 })).map((r) => r.setting), ['shortest']);
  assert.deepEqual(refusals(so, runConfig({ models: KINDS.map((k) => k.key), seeds: 3 })).map((r) => r.setting), []);
  assert.deepEqual(refusals(so, runConfig({ shortest: 12, longest: 10 })).map((r) => r.setting), ['shortest']);
});

test('median and a kind\'s curve over seeds', () => {
  assert.equal(median([3, 1, 2]), 2);
  assert.equal(median([4, 1, 2, 3]), 2.5);
  const models = [0.5, 0.7, 0.6].map((a, i) => ({ curve: { step: [20, 40].slice(0, 2 - (i === 2)), accuracy: [a, a + 0.1] } }));
  assert.deepEqual(kindCurve(models), [{ step: 20, median: 0.6, min: 0.5, max: 0.7 }]);
});

test('the record as JSON and as CSV: settings, curves, hashes, the lengths table', async () => {
  const record = { ...lesson, settings: { ...DEFAULTS } };
  const json = JSON.parse(recordJson(record, { version: '1.2.3' }));
  assert.equal(json.seqorder, '1.2.3');
  assert.deepEqual(json.models.map((m) => m.hash), lesson.models.map((m) => m.hash));
  assert.deepEqual(json.measured, lesson.measured);
  assert.deepEqual(json.settings.models, [...LESSON_MODELS]);
  const rows = recordCsv(record).trim().split('\n');
  assert.equal(rows[0], 'model,seed,measure,step,T,value');
  assert.ok(rows.includes('"none, bidirectional",1,accuracy,20,,0.5'));
  assert.ok(rows.includes('learned (16 rows),1,refused,800,32,"ids have T = 32 positions, but the learned table has 16 rows (maxLength)"'));
  assert.ok(rows.includes(`sinusoidal,1,parameters sha256,800,,${lesson.models[1].hash}`));
  assert.ok(rows.includes(',,setting:models,,,none sinusoidal learned rotary causal'));
  assert.equal(rows.filter((r) => r.includes(',loss,')).length, 5 * 40);
  assert.equal(await parameterHash({ a: { data: new Uint8Array(0) } }), createHash('sha256').digest('hex'));
});

test('the pool\'s size: one worker more than the cores (2 when unknown), at most MAX_WORKERS', () => {
  assert.deepEqual([1, 2, 4, 16].map(poolSize), [2, 3, 5, MAX_WORKERS]);
  assert.deepEqual([undefined, 0, 2.5, NaN].map(poolSize), [3, 3, 3, 3]);
});

test('the second task, as the conclusion trains it: the run shown\'s settings, the word k places back, the mask alone and the decoder among the models', () => {
  const next = runConfig(secondTaskValues({ ...DEFAULTS, models: ['sinusoidal', 'rotary'], steps: 300, back: 3 }));
  assert.deepEqual([next.task, next.back, next.steps], ['lookback', 3, 300]);
  assert.deepEqual(next.kinds, ['sinusoidal', 'rotary', 'causal', 'causal-sinusoidal']);
  assert.deepEqual(runConfig(secondTaskValues(DEFAULTS)).kinds, [...LESSON_MODELS, 'causal-sinusoidal']);
});

test('the conclusion with both tasks: the mask alone on each, rotary against sinusoids at twice the length, the course\'s decoder; each sentence fails on numbers that contradict it', async () => {
  const config = runConfig(secondTaskValues({ ...DEFAULTS, models: ['sinusoidal', 'rotary'], steps: 300 }));
  const { record: lookback } = await recorded(config);
  const runs = { order: lesson, lookback };
  const sentences = conclusionSentences(runs);
  const names = sentences.map((x) => x.name);
  for (const name of ['conclusion-blind', 'conclusion-order', 'conclusion-order-mask', 'conclusion-lookback', 'conclusion-lookback-mask',
    'conclusion-order-longer', 'conclusion-lookback-longer', 'conclusion-order-formula', 'conclusion-lookback-formula', 'conclusion-decoder']) {
    assert.ok(names.includes(name), `${name} in ${names}`);
  }
  for (const x of sentences) assert.equal(holds(x, null, runs), true, `${x.name}: ${x.text}`);
  const decoder = sentences.find((x) => x.name === 'conclusion-decoder');
  assert.match(decoder.text, /^For the causal decoder the course builds \(a causal mask, and sinusoids added to the token vectors\), at the weakest trained length: the mask alone (was|was not) enough to tell whether robot comes before person \([\d.]+%\), and (was|was not) enough to name the word 2 places back \([\d.]+%\); with sinusoids as well, the decoder scored [\d.]+%/);
  // against numbers that say otherwise: the mask alone learning the second task, the decoder failing it
  const learnt = (key, value) => ({ ...lookback, measured: lookback.measured.map((r) => (r.key === key ? { ...r, lengths: Object.fromEntries(Object.entries(r.lengths).map(([T, a]) => [T, { ...a, accuracy: value }])) } : r)) });
  const flipMask = { ...runs, lookback: learnt('causal', decoder.params.backEnough ? 0.2 : 0.99) };
  assert.equal(holds(decoder, null, flipMask), false);
  assert.equal(holds(sentences.find((x) => x.name === 'conclusion-lookback-mask'), null, flipMask), false);
  assert.equal(holds(decoder, null, { ...runs, lookback: learnt('causal-sinusoidal', decoder.params.decoder ? 0.2 : 0.99) }), false);
  const longer = sentences.find((x) => x.name === 'conclusion-lookback-longer');
  assert.match(longer.text, /^At T = 32, twice the longest training sentence, on the word 2 places back: rotary [\d.]+%, sinusoidal [\d.]+%/);
  const swapped = { ...lookback, measured: lookback.measured.map((r) => ({ ...r, key: { rotary: 'sinusoidal', sinusoidal: 'rotary' }[r.key] ?? r.key })) };
  if (longer.params.rotary !== longer.params.sinusoidal) assert.equal(holds(longer, null, { ...runs, lookback: swapped }), false);
  // a check beside each: they pass on the runs' numbers, and those about the mask and the decoder fail on flipMask's
  const checks = conclusionChecks(sentences, runs);
  for (const name of ['conclusion-lookback', 'conclusion-lookback-mask', 'conclusion-decoder', 'conclusion-lookback-longer', 'conclusion-lookback-formula']) {
    assert.ok(checks.some((c) => c.name === `train-${name}`), `train-${name}`);
  }
  assertAllPass(checks);
  const flipped = verdicts(conclusionChecks(sentences, flipMask));
  for (const name of ['train-conclusion-lookback', 'train-conclusion-lookback-mask', 'train-conclusion-decoder']) assert.equal(flipped[name], false, name);
  assert.equal(flipped['train-conclusion-order-mask'], true);
  assert.match(checks.find((c) => c.name === 'train-conclusion-lookback-mask').claim,
    /^On the word 2 places back, the causal model without positions scored (at least 90% at every trained length|below 90% at one trained length or more) \(T = 8, 12, 16\)$/);
  // one task alone: no sentence about the decoder
  assert.equal(conclusionSentences({ order: lesson, lookback: null }).some((x) => x.name === 'conclusion-decoder'), false);
});

test('the formula sentence compares like with like: the longest length against the weakest trained one', () => {
  const formula = conclusionSentences({ order: lesson }).find((x) => x.name === 'conclusion-order-formula');
  assert.match(formula.text, /: [\d.]+%(, which kept at least 90%\.|, against [\d.]+% at its weakest trained length: a formula)/);
  assert.doesNotMatch(formula.text, /at least 100%/);
});

test('the two tables at the curves\' length: the sentence says why they differ, with one seed and with three', async () => {
  const config = runConfig({ models: ['sinusoidal', 'rotary'], steps: 200, seeds: 3 });
  const { record } = await recorded(config);
  const [sets] = setsSentence(record);
  assert.ok(sets, 'a sentence with three seeds');
  // the figures' checks, on the medians of three seeds, and against one seed's number changed at T = 32
  const figures = figureChecks(runSentences(record), record);
  assertAllPass(figures);
  assert.match(figures.find((c) => c.name === 'train-lengths').claim, /^Against 90% \(medians of seeds 1, 2, 3\): at T = 32, (no model|\d models?) kept it and (no model|\d) fell below; at T = 64, /);
  const moved = structuredClone(record);
  moved.measured.find((r) => r.key === 'rotary' && r.seed === 2).lengths[32].accuracy += 0.5;
  assert.equal(verdicts(figureChecks(runSentences(record), moved))['train-lengths'], false);
  assert.match(sets.text, /^At T = 12 the two tables measure on different sentences: the models’ table on the curves’ 64 held-out sentence–mirror pairs \(seed 7\), the lengths table on 128 other sentence–mirror pairs \(seed 500 \+ T\), each cell the median of the seeds; the largest gap, (sinusoidal|rotary) with seed [123]: [\d.]+% and [\d.]+%\.$/);
  assert.equal(holds(sets, record), true);
  const other = structuredClone(record);
  other.models.find((m) => m.key === sets.params.key && m.seed === sets.params.seed).curve.accuracy.push(0.123);
  assert.equal(holds(sets, other), false);
  // its check, in the run's figure: passing on the record; failing when another model's two numbers differ more, when
  // the named model's numbers are not the sentence's, and when the tables agree
  const tables = figures.find((c) => c.name === 'train-tables');
  assert.ok(tables, figures.map((c) => c.name).join(' '));
  assert.deepEqual(figures.map((c) => c.name), ['train-curves', 'train-tables', 'train-lengths']);
  assert.match(tables.claim, /^At T = 12, the two tables differ most for (sinusoidal|rotary) with seed [123]: [\d.]+% and [\d.]+%$/);
  assert.equal(tables.details.split('; ').length, 6, tables.details);
  const tablesPass = (r, said = sets) => figureChecks([said], r).find((c) => c.name === 'train-tables').pass;
  const wider = structuredClone(record);
  const rival = wider.models.find((m) => m.key !== sets.params.key || m.seed !== sets.params.seed);
  rival.curve.accuracy[rival.curve.accuracy.length - 1] = wider.measured.find((r) => r.key === rival.key && r.seed === rival.seed).lengths[12].accuracy +
    (sets.params.held > sets.params.measured ? -1 : 1) * (Math.abs(sets.params.held - sets.params.measured) + 0.01);
  assert.equal(tablesPass(wider), false);
  assert.equal(holds(sets, wider), false, 'the sentence\'s own predicate agrees');
  assert.equal(tablesPass(record, { ...sets, params: { ...sets.params, measured: sets.params.measured + 0.01 } }), false);
  const same = structuredClone(record);
  same.models.forEach((m) => { m.curve.accuracy[m.curve.accuracy.length - 1] = same.measured.find((r) => r.key === m.key && r.seed === m.seed).lengths[12].accuracy; });
  assert.equal(tablesPass(same), false);
  // one seed (the same run's seed-1 models): no median, no seed named; and no sentence when the two tables agree for
  // every model
  const seed1 = structuredClone(record);
  seed1.config.seeds = [1];
  seed1.models = seed1.models.filter((m) => m.seed === 1);
  seed1.measured = seed1.measured.filter((r) => r.seed === 1);
  const [one] = setsSentence(seed1);
  assert.ok(one, 'a sentence with one seed');
  assert.doesNotMatch(one.text, /median|with seed/);
  assert.equal(holds(one, seed1), true);
  const oneCheck = figureChecks([one], seed1)[0];
  assert.equal(oneCheck.pass, true, oneCheck.details);
  assert.match(oneCheck.claim, /^At T = 12, the two tables differ most for (sinusoidal|rotary): [\d.]+% and [\d.]+%$/);
  const agreeing = structuredClone(seed1);
  agreeing.models.forEach((m) => { m.curve.accuracy[m.curve.accuracy.length - 1] = seed1.measured.find((r) => r.key === m.key).lengths[12].accuracy; });
  assert.deepEqual(setsSentence(agreeing), []);
});
