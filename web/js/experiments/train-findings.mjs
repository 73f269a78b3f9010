// What a run of the lab (train.mjs) says, built from its numbers only: the checks of section "train" (claims with
// a verdict computed from the measurements; at any settings, one beside all the curves' sentences, one beside all the
// lengths figure's, and one beside each of the conclusion's), and every sentence the section writes about a result.
// Each sentence is { name, type, params, text }: `text` is written from `params`, and PREDICATES[type](record,
// params) decides, from the run's record alone (what the page draws: curves, tables), whether the sentence is true.
// The section writes a sentence only beside its predicate, and the browser tests evaluate every predicate against
// what is drawn. Pure: no DOM.
//
// The record (train-record.mjs's runRecord): { config, step, state, models: [{ key, seed, label, steps, hash, curve:
// { step: [], loss: [], accuracy: [] } }], measured: null or measureRun's rows, measuredAt: the step measured }.
import { fmt } from '../format.mjs';
import { median } from '../median.mjs';
import { DECODER, isLessonRun, kindLabel, kindOf } from './train.mjs';
import { MEASURED_COUNT, SAME_LOGITS, VALIDATION_COUNT, measuredLengths, setWords, trainedLength, validationLength } from './train-tasks.mjs';

/** The accuracy the curves' sentences call "reached". */
export const REACHED = 0.95;

/** The accuracy at every trained length that a check calls "learns", and the one at longer lengths called "kept". */
export const LEARNED = 0.9;
export const KEPT = 0.9;

export const percent = (x) => `${fmt(100 * x, 3)}%`;
const list = (items) => (items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`);

/** The record's models grouped by kind, in the run's order: [{ key, label, models: [record models] }]. */
export function byKind(record) {
  return record.config.kinds.map((key) => ({
    key, label: kindLabel(key, record.config), models: record.models.filter((m) => m.key === key),
  }));
}

/**
 * A kind's accuracy curve over its seeds: at every step all its seeds have reached, { step, median, min, max }.
 * With one seed, median = min = max.
 */
export function kindCurve(models) {
  const steps = models[0].curve.step.slice(0, Math.min(...models.map((m) => m.curve.step.length)));
  return steps.map((step, j) => {
    const values = models.map((m) => m.curve.accuracy[j]);
    return { step, median: median(values), min: Math.min(...values), max: Math.max(...values) };
  });
}

/** Every seed's measurement of a kind at length T (undefined where a seed has none). */
const cellsAt = (record, key, T) => record.measured.filter((r) => r.key === key).map((r) => r.lengths[T]);

/** A kind's accuracy at length T over its seeds: { median, min, max }, or { error } when it refused T. */
export function kindAt(record, key, T) {
  const rows = cellsAt(record, key, T);
  if (rows.some((r) => r.error)) return { error: rows.find((r) => r.error).error };
  const values = rows.map((r) => r.accuracy);
  return { median: median(values), min: Math.min(...values), max: Math.max(...values) };
}

const seedsWord = (record) => (record.config.seeds.length > 1 ? `, the median of ${record.config.seeds.length} seeds` : '');
const range = (a) => (a.min === a.max ? percent(a.median) : `${percent(a.median)} (${fmt(100 * a.min, 3)}–${percent(a.max)})`);

// ---- the checks ----

/**
 * What the position-free bidirectional model's mirrored pairs show, from their counts over every length (and seed)
 * measured: without ties, exactly one sentence of each pair is right (50%); with ties, how many pairs had one right
 * and how many tied within float32 rounding (both right or both wrong, so the accuracy moves off 50%).
 */
export function halfClaim({ pairs, oneRight, tied, tiedRight }) {
  if (!tied) return 'So exactly one sentence of each pair is right: 50% on mirrored pairs';
  const wrong = tied - tiedRight;
  const both = [tiedRight && `${tiedRight} with both right`, wrong && `${wrong} with both wrong`].filter(Boolean).join(', ');
  const accuracy = (oneRight + 2 * tiedRight) / (2 * pairs);
  return `So one answer serves both sentences of a pair: exactly one is right in ${oneRight} of ${pairs} pairs; ` +
    `in ${tied} more the logits tie within float32 rounding, which tipped the two answers apart (${both}), ` +
    (accuracy === 0.5 ? `which leaves the accuracy over the ${pairs} pairs at 50%` : `so the accuracy over the ${pairs} pairs is ${percent(accuracy)} rather than 50%`);
}

/** The checks of a run, from its record (measured). Claims are written from the run's settings. */
export function runChecks(record) {
  const { config } = record;
  const lengths = measuredLengths(config);
  const trained = lengths.filter((T) => trainedLength(config, T));
  const longer = lengths.filter((T) => !trainedLength(config, T));
  const rowsOf = (key) => record.measured.filter((r) => r.key === key);
  const perSeed = (rows, text) => rows.map((r) => `${config.seeds.length > 1 ? `seed ${r.seed}: ` : ''}${text(r)}`).join('; ');
  const checks = [];
  const none = rowsOf('none');
  if (none.length && config.task === 'order') {
    const largest = Math.max(...none.flatMap((r) => lengths.map((T) => r.lengths[T].mirrorDifference ?? NaN)));
    const perLength = none[0].lengths[lengths[0]].pairs;
    checks.push({
      name: 'train-none-mirror-logits',
      claim: 'Without positions, the bidirectional model gives a sentence and its mirror the same logits',
      pass: largest <= SAME_LOGITS,
      details: `largest |logit(sentence) − logit(mirror)| over ${perLength} pairs at each of T = ${lengths.join(', ')}` +
        `${config.seeds.length > 1 ? `, seeds ${config.seeds.join(', ')}` : ''}: ${fmt(largest, 2)} (the same up to float32 rounding: ≤ ${fmt(SAME_LOGITS)})`,
    });
    const sum = (field) => none.reduce((n, r) => n + lengths.reduce((m, T) => m + r.lengths[T][field], 0), 0);
    const [pairs, oneRight, tied, tiedRight] = ['pairs', 'pairsOneRight', 'pairsTied', 'pairsTiedRight'].map(sum);
    checks.push({
      name: 'train-none-half',
      claim: halfClaim({ pairs, oneRight, tied, tiedRight }),
      pass: none.every((r) => lengths.every((T) => r.lengths[T].pairsOneRight + r.lengths[T].pairsTied === r.lengths[T].pairs)),
      details: perSeed(none, (r) => lengths.map((T) => `T = ${T}: ${percent(r.lengths[T].accuracy)} (${r.lengths[T].pairsOneRight}/${r.lengths[T].pairs} pairs one right` +
        `${r.lengths[T].pairsTied ? `, ${r.lengths[T].pairsTied} tied` : ''})`).join(', ')) +
        (tied ? `; a tie: the pair's logits within ${fmt(SAME_LOGITS)} of each other, the model answers both alike and only float32 rounding tips the two argmaxes apart` : ''),
    });
  }
  if (none.length && config.task === 'lookback') {
    const largest = Math.max(...none.flatMap((r) => lengths.map((T) => r.lengths[T].sameWordDifference ?? NaN)));
    checks.push({
      name: 'train-none-same-word',
      claim: 'Without positions, the bidirectional model gives two positions holding the same word the same logits: it cannot answer both when the words k places back differ',
      pass: largest <= SAME_LOGITS,
      details: `largest |logit difference| between two positions of one sentence holding the same word, ${MEASURED_COUNT} sentences at each of T = ${lengths.join(', ')}: ${fmt(largest, 2)} (≤ ${fmt(SAME_LOGITS)})`,
    });
  }
  for (const key of config.kinds.filter((k) => kindOf(k).positions === 'learned')) {
    const rows = rowsOf(key);
    const refused = longer.filter((T) => rows.every((r) => r.lengths[T].error?.name === 'RangeError'));
    const answered = trained.every((T) => rows.every((r) => !r.lengths[T].error));
    checks.push({
      name: `train-${key}-refuses`,
      claim: `${kindLabel(key, config)}: the table has ${config.longest} rows, so a sentence of T = ${list(longer.map(String)).replace(' and ', ' or ')} is refused, not guessed at`,
      pass: refused.length === longer.length && answered,
      details: refused.length ? refused.map((T) => { const e = rows[0].lengths[T].error; return `T = ${T}: ${e.name}: ${e.message}`; }).join('; ')
        : `answered at T = ${longer.join(', ')}`,
    });
  }
  if (isLessonRun(config)) {
    for (const key of config.kinds.filter((k) => k !== 'none')) {
      const rows = rowsOf(key);
      const { positions, causal } = kindOf(key);
      const lowest = Math.min(...rows.flatMap((r) => trained.map((T) => r.lengths[T].accuracy ?? NaN)));
      const how = positions === 'none' ? 'Without positions but with a causal mask, the model learns the order anyway'
        : `With ${positions} positions${causal ? ' and a causal mask' : ''}, the model learns the order`;
      checks.push({
        name: `train-${key}-learns`,
        claim: `${how}: at least ${percent(LEARNED)} at every trained length (T = ${trained.join(', ')})${config.seeds.length > 1 ? ', every seed' : ''}`,
        pass: lowest >= LEARNED,
        details: `${perSeed(rows, (r) => trained.map((T) => `T = ${T}: ${percent(r.lengths[T].accuracy)}`).join(', '))}; lowest ${percent(lowest)}` +
          (causal && positions === 'none' ? ' (the mask lets each token see only those before it: an order of its own)' : ''),
      });
    }
  }
  return checks;
}

/** The names of the checks a run of `config` shows, with a claim for each while it has not been measured. */
export function pendingChecks(config, why) {
  const names = [];
  if (config.kinds.includes('none')) names.push(...(config.task === 'order' ? ['train-none-mirror-logits', 'train-none-half'] : ['train-none-same-word']));
  names.push(...config.kinds.filter((k) => kindOf(k).positions === 'learned').map((k) => `train-${k}-refuses`));
  if (isLessonRun(config)) names.push(...config.kinds.filter((k) => k !== 'none').map((k) => `train-${k}-learns`));
  return names.map((name) => ({ name, pending: true, claim: pendingClaim(name, config), details: why }));
}

function pendingClaim(name, config) {
  const key = name.replace(/^train-/, '').replace(/-(refuses|learns|mirror-logits|half|same-word)$/, '');
  if (name.endsWith('-refuses')) return `The ${kindLabel(key, config)} model's table has ${config.longest} rows: longer sentences are refused, not guessed at`;
  if (name.endsWith('-learns')) return `The ${kindLabel(key, config)} model learns the order: at least ${percent(LEARNED)} at every trained length`;
  if (name === 'train-none-mirror-logits') return 'Without positions, the bidirectional model gives a sentence and its mirror the same logits';
  if (name === 'train-none-half') return 'So a sentence and its mirror get one answer: one is right, or their logits tie';
  return 'Without positions, the bidirectional model gives two positions holding the same word the same logits';
}

// ---- the sentences, each with its predicate ----

const sentence = (name, type, params, text) => ({ name, type, params, text });

/**
 * What the curves say, kind by kind (the median over seeds): the first step it reached REACHED and how it went from
 * there, or that it has not (yet, when the run is not over).
 */
export function curveSentences(record) {
  const { config } = record;
  const over = record.state === 'done';
  return byKind(record).flatMap(({ key, label, models }) => {
    const curve = kindCurve(models);
    if (!curve.length) return [];
    const at = curve.findIndex((p) => p.median >= REACHED);
    const last = curve.at(-1);
    const name = record.config.seeds.length > 1 ? `${label} (the median of ${record.config.seeds.length} seeds)` : label;
    if (at < 0) {
      const values = curve.map((p) => p.median);
      const params = { key, reached: false, last: last.step, over, low: Math.min(...values), high: Math.max(...values) };
      const span = params.low === params.high ? `${percent(params.low)} at every point` : `between ${percent(params.low)} and ${percent(params.high)}`;
      return [sentence(`curve-${key}`, 'curve', params, over
        ? `${name} did not reach ${percent(REACHED)} in ${config.steps} steps: ${span}.`
        : `${name} has not reached ${percent(REACHED)} by step ${last.step}, so far ${span}.`)];
    }
    const after = curve.slice(at);
    const lowest = after.reduce((a, p) => (p.median < a.median ? p : a));
    const params = { key, reached: true, first: curve[at].step, last: last.step, lastValue: last.median, over, low: lowest.median, lowStep: lowest.step };
    const then = lowest.median >= REACHED
      ? `and stayed at or above it to step ${last.step}`
      : `then went as low as ${percent(lowest.median)} (step ${lowest.step}) and stood at ${percent(last.median)} at step ${last.step}`;
    return [sentence(`curve-${key}`, 'curve', params, `${name} first reached ${percent(REACHED)} at step ${curve[at].step}, ${then}.`)];
  });
}

/**
 * Each model's two numbers at length T, where it has both: the models' table's (its curve's last held-out accuracy)
 * and the lengths table's, and how far apart they are: [{ key, seed, held, measured, gap }].
 */
function tablePairs(record, T) {
  return record.models.flatMap((m) => {
    const row = record.measured?.find((r) => r.key === m.key && r.seed === m.seed)?.lengths[T];
    const held = m.curve.accuracy.at(-1);
    return !row || row.error || held === undefined ? [] : [{ key: m.key, seed: m.seed, held, measured: row.accuracy, gap: Math.abs(held - row.accuracy) }];
  });
}

/**
 * The two tables that measure at the curves' length: the models' table (the curves' held-out sentences, a row per
 * model and seed) and the lengths table (other sentences; with several seeds, the median), and why their numbers
 * differ: the largest gap between the two for one model.
 */
export function setsSentence(record) {
  const { config } = record;
  const T = validationLength(config);
  if (!record.measured || record.measuredAt !== record.step) return [];
  const widest = tablePairs(record, T).reduce((w, x) => (!w || x.gap > w.gap ? x : w), null);
  if (!widest || widest.gap === 0) return [];
  const seeds = config.seeds.length > 1;
  return [sentence('sets', 'sets', { T, key: widest.key, seed: widest.seed, held: widest.held, measured: widest.measured },
    `At T = ${T} the two tables measure on different sentences: the models’ table on the curves’ ` +
    `${setWords(config, VALIDATION_COUNT, 'held-out')} (seed 7), the lengths table on ${setWords(config, MEASURED_COUNT, 'other')} ` +
    `(seed 500 + T)${seeds ? ', each cell the median of the seeds' : ''}; the largest gap, ${kindLabel(widest.key, config)}` +
    `${seeds ? ` with seed ${widest.seed}` : ''}: ${percent(widest.held)} and ${percent(widest.measured)}.`)];
}

/** What the lengths table shows at the lengths longer than any training sentence: kept, fell below, refused. */
export function lengthSentences(record) {
  if (!record.measured) return [];
  const { config } = record;
  const longer = measuredLengths(config).filter((T) => T > config.longest);
  const out = [];
  for (const T of longer) {
    const kinds = config.kinds.map((key) => ({ key, at: kindAt(record, key, T) })).filter((k) => !k.at.error);
    const kept = kinds.filter((k) => k.at.median >= KEPT);
    const fell = kinds.filter((k) => k.at.median < KEPT);
    const names = (ks) => list(ks.map((k) => `${kindLabel(k.key, config)} at ${range(k.at)}`));
    const params = { T, kept: kept.map((k) => k.key), fell: fell.map((k) => k.key), at: Object.fromEntries(kinds.map((k) => [k.key, k.at])) };
    out.push(sentence(`lengths-${T}`, 'lengths', params, `At T = ${T}, ${fmt(T / config.longest)}× the longest training sentence` +
      `${seedsWord(record)}: ${kept.length ? `${names(kept)} kept at least ${percent(KEPT)}` : `no model kept ${percent(KEPT)}`}` +
      `${fell.length ? `; ${names(fell)} fell below it` : ''}.`));
  }
  for (const key of config.kinds) {
    const T = longer.find((t) => kindAt(record, key, t).error);
    if (T === undefined) continue;
    out.push(sentence(`refused-${key}`, 'refused', { key, T }, `The ${kindLabel(key, config)} model gives no answer from T = ${T} on: ${kindAt(record, key, T).error.message}.`));
  }
  return out;
}

/** The lowest median accuracy of a kind over the trained lengths (NaN if it refused one). */
function weakestTrained(record, key) {
  const { config } = record;
  const values = measuredLengths(config).filter((T) => trainedLength(config, T)).map((T) => kindAt(record, key, T));
  return values.some((a) => a.error) ? NaN : Math.min(...values.map((a) => a.median));
}

const taskName = (config) => (config.task === 'order' ? 'the order task' : `the word ${config.back} places back`);

/**
 * The section's conclusion, from the last measured run of each task (`runs`: { order, lookback }, records or null): what
 * the position-free bidirectional model does on the order task; which models learned each task; whether the causal
 * mask alone was enough for each; how rotary positions and sinusoids did at twice the longest training sentence; what
 * the sinusoidal model did at the longest length measured; and, with both tasks run, what they say about the causal
 * decoder the course builds (a causal mask, and sinusoids).
 */
export function conclusionSentences(runs) {
  const out = [];
  const order = runs.order?.measured ? runs.order : null;
  const lookback = runs.lookback?.measured ? runs.lookback : null;
  if (order?.config.kinds.includes('none')) {
    const { config } = order;
    const lengths = measuredLengths(config);
    const half = order.measured.filter((r) => r.key === 'none').every((r) => lengths.every((T) => r.lengths[T].accuracy === 0.5 && r.lengths[T].pairsOneRight === r.lengths[T].pairs));
    const values = lengths.map((T) => kindAt(order, 'none', T).median);
    out.push(sentence('conclusion-blind', 'blind', { task: 'order', half, low: Math.min(...values), high: Math.max(...values) },
      half ? `Without positions, the bidirectional model was blind to order: 50% on mirrored pairs at every length (T = ${lengths.join(', ')}), one sentence of each pair right.`
        : `Without positions, the bidirectional model scored between ${percent(Math.min(...values))} and ${percent(Math.max(...values))} on mirrored pairs.`));
  }
  for (const record of [order, lookback].filter(Boolean)) {
    const { config } = record;
    const task = config.task;
    const kinds = config.kinds.filter((k) => k !== 'none' || task === 'lookback').map((key) => ({ key, label: kindLabel(key, config), low: weakestTrained(record, key) }));
    const learnt = kinds.filter((k) => k.low >= LEARNED);
    const notLearnt = kinds.filter((k) => !(k.low >= LEARNED));
    const named = (ks) => list(ks.map((k) => `${k.label} (${Number.isNaN(k.low) ? 'refused a trained length' : percent(k.low)})`));
    if (kinds.length) out.push(sentence(`conclusion-${task}`, 'learnt', { task, learnt: learnt.map((k) => k.key), notLearnt: notLearnt.map((k) => k.key) },
      `On ${taskName(config)}, at the weakest trained length${seedsWord(record)}: ` +
      `${learnt.length ? `${named(learnt)} reached at least ${percent(LEARNED)}` : `no model reached ${percent(LEARNED)}`}` +
      `${notLearnt.length ? `; ${named(notLearnt)} did not` : ''}.`));
    if (config.kinds.includes('causal')) {
      const low = weakestTrained(record, 'causal');
      const enough = low >= LEARNED;
      const why = task === 'order'
        ? (enough ? ': the mask lets each word see only the words before it, an order of its own' : '')
        : (enough ? '' : `: the mask tells a word which words came before it, not which one stands ${config.back} places back`);
      out.push(sentence(`conclusion-${task}-mask`, 'mask', { task, enough },
        `The causal mask alone ${enough ? 'was' : 'was not'} enough for ${taskName(config)}: without positions the ` +
        `causal model scored ${percent(low)} at its weakest trained length${why}.`));
    }
  }
  for (const record of [order, lookback].filter((r) => r?.config.kinds.includes('sinusoidal') && r.config.kinds.includes('rotary'))) {
    const { config } = record;
    const T = 2 * config.longest;
    const [rotary, sinusoidal] = ['rotary', 'sinusoidal'].map((key) => kindAt(record, key, T));
    const which = rotary.median > sinusoidal.median ? 'rotary' : rotary.median < sinusoidal.median ? 'sinusoidal' : 'neither';
    out.push(sentence(`conclusion-${config.task}-longer`, 'longer', { task: config.task, T, rotary: rotary.median, sinusoidal: sinusoidal.median, which },
      `At T = ${T}, twice the longest training sentence, on ${taskName(config)}${seedsWord(record)}: rotary ${range(rotary)}, sinusoidal ` +
      `${range(sinusoidal)}${{
        rotary: ': rotary positions, which tell attention only how far apart two words are, did better than sinusoids',
        sinusoidal: ': sinusoids did better than rotary positions',
        neither: ': the same',
      }[which]}.`));
  }
  for (const record of [order, lookback].filter((r) => r?.config.kinds.includes('sinusoidal'))) {
    const { config } = record;
    const T = Math.max(...measuredLengths(config));
    const at = kindAt(record, 'sinusoidal', T).median;
    const low = weakestTrained(record, 'sinusoidal');
    const kept = at >= KEPT;
    out.push(sentence(`conclusion-${config.task}-formula`, 'formula', { task: config.task, T, value: at, kept },
      `Sinusoids can be computed at any position (see “Sines and cosines at many speeds”), so the sinusoidal model answered on ${taskName(config)} ` +
      `at T = ${T}, ${fmt(T / config.longest)}× its longest training sentence: ${percent(at)}` +
      (kept ? `, which kept at least ${percent(KEPT)}.` : `, against ${percent(low)} at its weakest trained length: a formula that can be evaluated at a new position did not make the trained model generalize there.`)));
  }
  if (order?.config.kinds.includes('causal') && lookback?.config.kinds.includes('causal')) out.push(decoderSentence(order, lookback));
  return out;
}

/**
 * What the two tasks say about the causal decoder the course builds: whether the causal mask alone was enough for
 * each task (the causal model without positions), and, when the second task's run has it, how the decoder itself (a
 * causal mask and sinusoids) did there.
 */
function decoderSentence(order, lookback) {
  const orderLow = weakestTrained(order, 'causal');
  const backLow = weakestTrained(lookback, 'causal');
  const decoderLow = lookback.config.kinds.includes(DECODER) ? weakestTrained(lookback, DECODER) : null;
  const params = { orderEnough: orderLow >= LEARNED, backEnough: backLow >= LEARNED, decoder: decoderLow === null ? null : decoderLow >= LEARNED };
  const { back } = lookback.config;
  const decoder = decoderLow === null ? ''
    : `; with sinusoids as well, the decoder scored ${percent(decoderLow)}` +
      (params.decoder && !params.backEnough ? ': the mask gives each word the words before it, the sinusoids how far back each one stands' : '');
  return sentence('conclusion-decoder', 'decoder', params,
    'For the causal decoder the course builds (a causal mask, and sinusoids added to the token vectors), at the weakest ' +
    `trained length: the mask alone ${params.orderEnough ? 'was' : 'was not'} enough to tell whether robot comes before ` +
    `person (${percent(orderLow)}), and ${params.backEnough ? 'was' : 'was not'} enough to name the word ${back} places ` +
    `back (${percent(backLow)})${decoder}.`);
}

/** The first step a kind's median curve reached REACHED, or null. */
function firstReached(record, key) {
  return kindCurve(record.models.filter((m) => m.key === key)).find((p) => p.median >= REACHED)?.step ?? null;
}

/** How much (in accuracy) a kind's median may move at the longest length for the scaling to count as "not changing" it. */
export const SAME_REACH = 0.05;

/**
 * What the token vectors' scale (× √D) changed, from two finished runs that differ in it only (`pair`: { scaled,
 * unscaled }, records): per kind with positions, the step its curve first reached REACHED and its accuracy at the
 * longest length measured, with and without; then whether the scaling moved when the models learned, and whether it
 * moved their accuracy at the longest length by SAME_REACH or more.
 */
export function scalingSentences(pair) {
  if (!pair?.scaled?.measured || !pair?.unscaled?.measured) return [];
  const { scaled, unscaled } = pair;
  const { config } = scaled;
  const T = Math.max(...measuredLengths(config));
  const kinds = config.kinds.filter((key) => kindOf(key).positions !== 'none' && !kindAt(scaled, key, T).error);
  const rows = kinds.map((key) => ({
    key, firstWith: firstReached(scaled, key), firstWithout: firstReached(unscaled, key),
    atWith: kindAt(scaled, key, T).median, atWithout: kindAt(unscaled, key, T).median,
  }));
  if (!rows.length) return [];
  const step = (s) => (s === null ? `not within the ${config.steps} steps` : `at step ${s}`);
  const out = rows.map((r) => sentence(`scaling-${r.key}`, 'scaling', { ...r, T },
    `${kindLabel(r.key, config)}, token vectors × √D against as they are: first reached ${percent(REACHED)} ${step(r.firstWith)} ` +
    `against ${step(r.firstWithout)}; at T = ${T}, ${percent(r.atWith)} against ${percent(r.atWithout)}.`));
  const moved = Math.max(...rows.map((r) => Math.abs(r.atWith - r.atWithout)));
  const sooner = rows.filter((r) => r.firstWith !== r.firstWithout);
  out.push(sentence('scaling-summary', 'scalingSummary', { T, keys: rows.map((r) => r.key), moved, changedSpeed: sooner.length > 0, changedReach: moved >= SAME_REACH },
    `${sooner.length ? `The scaling changed when ${list(sooner.map((r) => kindLabel(r.key, config)))} first reached ${percent(REACHED)}` : `The scaling did not change when any model first reached ${percent(REACHED)}`}; ` +
    `${moved >= SAME_REACH ? `it moved the accuracy at T = ${T} by up to ${fmt(100 * moved, 2)} points` : `it moved the accuracy at T = ${T}, ${fmt(T / config.longest)}× the longest training sentence, by less than ${fmt(100 * SAME_REACH)} points (at most ${fmt(100 * moved, 2)}): it did not make the models generalize to longer sentences`}.`));
  return out;
}

// ---- the conclusion's checks ----

/** A check computed by `compute`, or, when it throws, a failing check that says so. */
function computed(name, claim, compute) {
  let check;
  try {
    check = compute();
  } catch (error) {
    check = { claim, pass: false, details: `the check could not be computed: ${error?.message ?? error}` };
  }
  return { name, ...check, pass: check.pass === true };
}

/**
 * A kind's accuracy at length T read from the record's measurements: the median over its seeds, or null when a seed
 * gave no answer there.
 */
function measuredMedian(record, key, T) {
  const cells = cellsAt(record, key, T);
  return !cells.length || cells.some((c) => !c || c.error) ? null : kindAt(record, key, T).median;
}
const trainedOf = (config) => measuredLengths(config).filter((T) => trainedLength(config, T));
const lowestOf = (record, key, lengths) => {
  const values = lengths.map((T) => measuredMedian(record, key, T));
  return values.includes(null) ? null : Math.min(...values);
};
const atLeast = (value, threshold) => value !== null && value >= threshold;
const cell = (value) => (value === null ? 'no answer' : percent(value));
const mediansWord = (config) => (config.seeds.length > 1 ? ` (medians of seeds ${config.seeds.join(', ')})` : '');
const scoresOf = (record, key, lengths) => lengths.map((T) => `T = ${T}: ${cell(measuredMedian(record, key, T))}`).join(', ');
/** Whether every trained length is at LEARNED or above, in words, as a claim states it. */
const learnsWords = (learns) => (learns ? `scored at least ${percent(LEARNED)} at every trained length` : `scored below ${percent(LEARNED)} at one trained length or more`);
/** A kind's scores at the trained lengths and the lowest, against LEARNED. */
const lowestWords = (record, key, trained) => {
  const low = lowestOf(record, key, trained);
  return `${kindLabel(key, record.config)}: ${scoresOf(record, key, trained)}; lowest ${cell(low)} ${atLeast(low, LEARNED) ? '≥' : '<'} ${percent(LEARNED)}`;
};

/**
 * For each type of the conclusion's sentences, the check shown beside it: (sentence, runs, sentences) → { claim,
 * pass, details }. The claim states the sentence's outcome against its threshold; the verdict is recomputed from the
 * run's recorded measurements (and curves), never taken from the sentence, so it fails when the sentence's outcome is
 * not what the numbers give.
 */
const CHECKS = {
  learnt({ params: p }, runs) {
    const record = runs[p.task];
    const { config } = record;
    const trained = trainedOf(config);
    const kinds = config.kinds.filter((k) => k !== 'none' || config.task === 'lookback');
    const names = (keys) => list(keys.map((k) => kindLabel(k, config)));
    const learns = (key) => atLeast(lowestOf(record, key, trained), LEARNED);
    return {
      claim: `On ${taskName(config)}${mediansWord(config)}: ` + (p.learnt.length
        ? `${names(p.learnt)} ${learnsWords(true)} (T = ${trained.join(', ')})${p.notLearnt.length ? `; ${names(p.notLearnt)} did not` : ''}`
        : `no model (of ${names(p.notLearnt)}) ${learnsWords(true)} (T = ${trained.join(', ')})`),
      pass: same([...p.learnt, ...p.notLearnt].sort(), [...kinds].sort()) && p.learnt.every(learns) && !p.notLearnt.some(learns),
      details: kinds.map((key) => lowestWords(record, key, trained)).join('. '),
    };
  },
  mask({ params: p }, runs) {
    const record = runs[p.task];
    const { config } = record;
    const trained = trainedOf(config);
    return {
      claim: `On ${taskName(config)}, the causal model without positions ${learnsWords(p.enough)} (T = ${trained.join(', ')})${mediansWord(config)}`,
      pass: atLeast(lowestOf(record, 'causal', trained), LEARNED) === p.enough,
      details: lowestWords(record, 'causal', trained),
    };
  },
  blind({ params: p }, runs) {
    const record = runs.order;
    const { config } = record;
    const lengths = measuredLengths(config);
    const rows = record.measured.filter((r) => r.key === 'none');
    const half = rows.length > 0 && rows.every((r) => lengths.every((T) => r.lengths[T].accuracy === 0.5 && r.lengths[T].pairsOneRight === r.lengths[T].pairs));
    const values = lengths.map((T) => measuredMedian(record, 'none', T));
    const seeds = config.seeds.length > 1;
    return {
      claim: p.half
        ? `On the order task, the bidirectional model without positions scored 50% at every length measured (T = ${lengths.join(', ')})${seeds ? ', every seed' : ''}, with exactly one sentence of each mirrored pair right`
        : `On the order task, the bidirectional model without positions scored between ${percent(p.low)} and ${percent(p.high)} on mirrored pairs (T = ${lengths.join(', ')})${mediansWord(config)}`,
      pass: half === p.half && (half || (!values.includes(null) && Math.min(...values) === p.low && Math.max(...values) === p.high)),
      details: rows.map((r) => `${seeds ? `seed ${r.seed}: ` : ''}${lengths.map((T) => `T = ${T}: ${percent(r.lengths[T].accuracy)} (${r.lengths[T].pairsOneRight}/${r.lengths[T].pairs} pairs one right)`).join(', ')}`).join('; '),
    };
  },
  longer({ params: p }, runs) {
    const record = runs[p.task];
    const { config } = record;
    const [rotary, sinusoidal] = ['rotary', 'sinusoidal'].map((key) => measuredMedian(record, key, p.T));
    const which = rotary === null || sinusoidal === null ? null : rotary > sinusoidal ? 'rotary' : rotary < sinusoidal ? 'sinusoidal' : 'neither';
    return {
      claim: `At T = ${p.T}, twice the longest training sentence, on ${taskName(config)}${mediansWord(config)}: rotary scored ` +
        `${{ rotary: 'above', sinusoidal: 'below', neither: 'the same as' }[p.which]} sinusoidal (${percent(p.rotary)} and ${percent(p.sinusoidal)})`,
      pass: p.T === 2 * config.longest && which === p.which && rotary === p.rotary && sinusoidal === p.sinusoidal,
      details: `measured at T = ${p.T}: rotary ${cell(rotary)}, sinusoidal ${cell(sinusoidal)}`,
    };
  },
  formula({ params: p }, runs) {
    const record = runs[p.task];
    const { config } = record;
    const T = Math.max(...measuredLengths(config));
    const at = measuredMedian(record, 'sinusoidal', T);
    return {
      claim: `On ${taskName(config)}, the sinusoidal model at T = ${p.T}, ${fmt(p.T / config.longest)}× its longest training sentence, ` +
        `scored ${p.kept ? 'at least' : 'below'} ${percent(KEPT)} (${percent(p.value)})${mediansWord(config)}`,
      pass: T === p.T && at === p.value && atLeast(at, KEPT) === p.kept,
      details: `measured at T = ${T}: ${cell(at)}; at the trained lengths: ${scoresOf(record, 'sinusoidal', trainedOf(config))}`,
    };
  },
  decoder({ params: p }, runs) {
    const { order, lookback } = runs;
    const learns = (record, key) => atLeast(lowestOf(record, key, trainedOf(record.config)), LEARNED);
    const hasDecoder = lookback.config.kinds.includes(DECODER);
    const back = taskName(lookback.config);
    return {
      claim: `Without positions, the causal model ${learnsWords(p.orderEnough)} of the order task, and ${p.backEnough === p.orderEnough ? 'also ' : ''}` +
        `${learnsWords(p.backEnough)} of ${back}` + (p.decoder === null ? '' : `; with sinusoids, the decoder ${learnsWords(p.decoder)} of ${back}`),
      pass: learns(order, 'causal') === p.orderEnough && learns(lookback, 'causal') === p.backEnough && (hasDecoder ? learns(lookback, DECODER) : null) === p.decoder,
      details: [`the order task: ${lowestWords(order, 'causal', trainedOf(order.config))}`, `${back}: ${lowestWords(lookback, 'causal', trainedOf(lookback.config))}`,
        ...(hasDecoder ? [`${back}: ${lowestWords(lookback, DECODER, trainedOf(lookback.config))}`] : [])].join('. '),
    };
  },
  scalingSummary({ params: p }, runs, sentences) {
    const { scaled, unscaled } = runs.scaling;
    const { config } = scaled;
    const T = Math.max(...measuredLengths(config));
    const first = (record, key) => kindCurve(record.models.filter((m) => m.key === key)).find((q) => q.median >= REACHED)?.step ?? null;
    const rows = p.keys.map((key) => ({
      key, firstWith: first(scaled, key), firstWithout: first(unscaled, key),
      atWith: measuredMedian(scaled, key, T), atWithout: measuredMedian(unscaled, key, T),
    }));
    const moved = Math.max(...rows.map((r) => Math.abs(r.atWith - r.atWithout)));
    const sooner = rows.filter((r) => r.firstWith !== r.firstWithout).map((r) => r.key);
    // each kind's own sentence quotes its steps and accuracies: the same numbers
    const quoted = sentences.filter((s) => s.type === 'scaling').every((s) => {
      const r = rows.find((x) => x.key === s.params.key);
      return r && s.params.T === T && ['firstWith', 'firstWithout', 'atWith', 'atWithout'].every((f) => s.params[f] === r[f]);
    });
    const step = (s) => (s === null ? 'never' : `step ${s}`);
    return {
      claim: `Token vectors × √D against as they are, on ${taskName(config)}: the step at which a model first reached ${percent(REACHED)} ` +
        `${p.changedSpeed ? 'moved for one model or more' : 'moved for none'}; the accuracy at T = ${p.T} moved by ` +
        `${p.changedReach ? `${fmt(100 * SAME_REACH)} points or more` : `less than ${fmt(100 * SAME_REACH)} points`} for every model with positions`,
      pass: T === p.T && same(rows.map((r) => r.key), p.keys) && moved === p.moved && (sooner.length > 0) === p.changedSpeed &&
        (moved >= SAME_REACH) === p.changedReach && quoted,
      details: rows.map((r) => `${kindLabel(r.key, config)}: first ${percent(REACHED)} at ${step(r.firstWith)} against ${step(r.firstWithout)}; ` +
        `at T = ${T}, ${cell(r.atWith)} against ${cell(r.atWithout)}`).join('. ') + `; the largest move: ${fmt(100 * moved, 2)} points`,
    };
  },
};

/**
 * The checks of the conclusion: one beside each of its sentences that states an outcome (`sentences`: those of
 * conclusionSentences and scalingSentences; `runs`: the records they are about, { order, lookback, scaling }), named
 * train-<the sentence's name>. The sentences of each kind's scaling are checked with their summary.
 */
export function conclusionChecks(sentences, runs) {
  return sentences.filter((s) => CHECKS[s.type]).map((s) => computed(`train-${s.name}`, s.text, () => CHECKS[s.type](s, runs, sentences)));
}

// ---- the checks beside the run's figures' sentences ----

/** A curve sentence's outcome against REACHED, from its params: 'stayed', 'fell' (reached, then below) or 'not'. */
const curveOutcome = (p) => (!p.reached ? 'not' : p.low >= REACHED ? 'stayed' : 'fell');

/**
 * The check beside the curves' sentences (curveSentences'), one for all of them: the claim states each model's
 * outcome against REACHED as its sentence does; the verdict recomputes every model's median curve from the record and
 * fails unless each sentence's steps and accuracies (the first step at REACHED, the lowest point from there, the last
 * point; or the range of a curve that never reached it) are the curve's, and every model with a curve has its sentence.
 */
function curvesCheck(sentences, record) {
  const { config } = record;
  const over = record.state === 'done';
  const label = (key) => kindLabel(key, config);
  const rows = byKind(record).filter((k) => k.models.length).map(({ key, models }) => ({ key, points: kindCurve(models) })).filter((r) => r.points.length);
  const verdicts = rows.map(({ key, points }) => {
    const s = sentences.find((x) => x.params.key === key);
    const p = s?.params;
    const last = points.at(-1);
    const first = points.find((q) => q.median >= REACHED);
    const common = Boolean(p) && p.over === over && p.last === last.step && p.reached === Boolean(first);
    if (!first) {
      const values = points.map((q) => q.median);
      const [low, high] = [Math.min(...values), Math.max(...values)];
      return {
        ok: common && p.low === low && p.high === high,
        words: `${label(key)}: below ${percent(REACHED)} at every point to step ${last.step} (${low === high ? percent(low) : `${percent(low)} to ${percent(high)}`})`,
      };
    }
    const lowest = points.filter((q) => q.step >= first.step).reduce((a, q) => (q.median < a.median ? q : a));
    return {
      ok: common && p.first === first.step && p.low === lowest.median && p.lowStep === lowest.step && p.lastValue === last.median,
      words: `${label(key)}: first at or above ${percent(REACHED)} at step ${first.step} (${percent(first.median)}); from there lowest ${percent(lowest.median)} (step ${lowest.step}) ` +
        `${lowest.median >= REACHED ? '≥' : '<'} ${percent(REACHED)}; ${percent(last.median)} at step ${last.step}`,
    };
  });
  const groups = { stayed: 'reached it and stayed at or above it', fell: 'reached it, then fell below it', not: 'did not reach it' };
  const said = Object.entries(groups).map(([outcome, words]) => {
    const keys = sentences.filter((x) => curveOutcome(x.params) === outcome).map((x) => label(x.params.key));
    return keys.length ? `${list(keys)} ${words}` : '';
  }).filter(Boolean);
  const wrong = [
    ...rows.filter((r, i) => !verdicts[i].ok).map((r) => label(r.key)),
    ...sentences.filter((x, i) => !rows.some((r) => r.key === x.params.key) || sentences.findIndex((y) => y.params.key === x.params.key) !== i)
      .map((x) => `${x.params.key} (a sentence without its own curve)`),
  ];
  return {
    claim: `The curves against ${percent(REACHED)}${mediansWord(config)}, to step ${sentences[0].params.last}: ${said.join('; ')}`,
    pass: wrong.length === 0,
    details: verdicts.map((v) => v.words).join('. ') + (wrong.length ? `. Not as the sentences say: ${list(wrong)}` : ''),
  };
}

/**
 * The check beside the lengths figure's sentences (lengthSentences'), one for all of them: the claim states, at each
 * length longer than training, how many models kept KEPT and how many fell below it, and from which length a model
 * gives no answer, as the sentences do; the verdict recomputes each model's accuracy at each longer length from the
 * record's measurements (every seed's) and fails unless each sentence names the models that kept it and those that
 * fell below, with their numbers, and each refusal starts where the measurements' do and lasts to the longest length.
 */
function lengthsCheck(sentences, record) {
  const { config } = record;
  const label = (key) => kindLabel(key, config);
  const lengths = measuredLengths(config);
  const longer = lengths.filter((T) => T > config.longest);
  const answers = (key, T) => { const c = cellsAt(record, key, T); return c.length > 0 && c.every((x) => x && !x.error); };
  const refuses = (key, T) => { const c = cellsAt(record, key, T); return c.length > 0 && c.every((x) => x?.error); };
  const atLengths = sentences.filter((x) => x.type === 'lengths');
  const refusals = sentences.filter((x) => x.type === 'refused');
  const problems = [];
  const perLength = longer.map((T) => {
    const p = atLengths.find((x) => x.params.T === T)?.params;
    const answered = config.kinds.filter((key) => answers(key, T)).map((key) => ({ key, ...kindAt(record, key, T) }));
    const kept = answered.filter((a) => a.median >= KEPT).map((a) => a.key);
    const fell = answered.filter((a) => !(a.median >= KEPT)).map((a) => a.key);
    if (!p) problems.push(`no sentence at T = ${T}`);
    else if (!same(p.kept, kept) || !same(p.fell, fell)) problems.push(`T = ${T}: the sentence's kept and fell below are not the measurements'`);
    else if (!answered.every((a) => ['median', 'min', 'max'].every((f) => p.at?.[a.key]?.[f] === a[f]))) problems.push(`T = ${T}: the sentence's numbers are not the measurements'`);
    return `T = ${T}: ${answered.map((a) => `${label(a.key)} ${percent(a.median)} ${a.median >= KEPT ? '≥' : '<'} ${percent(KEPT)}`).join('; ') || 'no model answered'}`;
  });
  const gaps = config.kinds.map((key) => {
    const from = longer.find((T) => !answers(key, T));
    const r = refusals.find((x) => x.params.key === key);
    if (from === undefined) {
      if (r) problems.push(`${label(key)}: answered at every length, but said to give no answer`);
      return '';
    }
    const whole = lengths.every((T) => (T < from ? answers(key, T) : refuses(key, T)));
    if (!r || r.params.T !== from || !whole) {
      problems.push(`${label(key)}: ${whole ? `no answer from T = ${from} on in the measurements` : `the measurements do not stop answering at one length (the first without an answer: T = ${from})`}; ` +
        `the sentence ${r ? `says from T = ${r.params.T} on` : 'is missing'}`);
    }
    const where = (test) => lengths.filter((T) => test(key, T)).join(', ') || 'none';
    return `${label(key)}: answered at T = ${where(answers)}; no answer at T = ${where(refuses)}` +
      (lengths.some((T) => !answers(key, T) && !refuses(key, T)) ? `; from some seeds only at T = ${where((k, T) => !answers(k, T) && !refuses(k, T))}` : '');
  }).filter(Boolean);
  if (atLengths.some((x) => !longer.includes(x.params.T))) problems.push('a sentence about a length not measured beyond training');
  if (refusals.some((x) => !config.kinds.includes(x.params.key))) problems.push('a refusal of a model not in the run');
  const outcome = ({ T, kept, fell }) => `at T = ${T}, ${kept.length ? `${kept.length} ${kept.length === 1 ? 'model' : 'models'}` : 'no model'} kept it ` +
    `and ${fell.length || 'no model'} fell below`;
  return {
    claim: `Against ${percent(KEPT)}${mediansWord(config)}: ` +
      [...atLengths.map((x) => outcome(x.params)), ...refusals.map((x) => `${label(x.params.key)} gives no answer from T = ${x.params.T} on`)].join('; '),
    pass: problems.length === 0,
    details: [...perLength, ...gaps].join('. ') + (problems.length ? `. Not as stated: ${problems.join('; ')}` : ''),
  };
}

/**
 * The check beside the two tables' sentence (setsSentence's): the claim names the model whose two numbers at the
 * curves' length differ most, the models' table's (its curve's last held-out accuracy) and the lengths table's, as the
 * sentence does; the verdict recomputes every model's two numbers from the record and fails unless the sentence's
 * model has them and its gap is the largest of all (a tie with another model's is still the largest).
 */
function tablesCheck(said, record) {
  const { config } = record;
  const p = said.params;
  const seeds = config.seeds.length > 1;
  const who = (x) => `${kindLabel(x.key, config)}${seeds ? ` with seed ${x.seed}` : ''}`;
  const pairs = tablePairs(record, p.T);
  const largest = Math.max(0, ...pairs.map((x) => x.gap));
  const named = pairs.find((x) => x.key === p.key && x.seed === p.seed);
  const problems = [];
  if (p.T !== validationLength(config) || record.measuredAt !== record.step) problems.push(`the tables are not both at T = ${p.T} and step ${record.step}`);
  if (!named) problems.push(`the sentence names ${who(p)}, which has no two numbers at T = ${p.T}`);
  else if (named.held !== p.held || named.measured !== p.measured) problems.push(`${who(named)}'s numbers are not the sentence's`);
  else if (named.gap !== largest) problems.push(`${who(named)}'s gap is not the largest`);
  if (largest === 0) problems.push('the two tables agree for every model');
  return {
    claim: `At T = ${p.T}, the two tables differ most for ${who(p)}: ${percent(p.held)} and ${percent(p.measured)}`,
    pass: problems.length === 0,
    details: pairs.map((x) => `${who(x)}: ${percent(x.held)} and ${percent(x.measured)}, ${fmt(100 * x.gap, 3)} points apart`).join('; ') +
      (problems.length ? `. Not as the sentence says: ${problems.join('; ')}` : ''),
  };
}

/**
 * The checks beside the sentences of the run's figures (`sentences`: those of curveSentences, setsSentence and
 * lengthSentences, others ignored; `record`: the run they are about): train-curves, one for all the curves' sentences,
 * and train-tables, one for the two tables' (the run's figure), and train-lengths, one for all the lengths figure's
 * (kept, fell below, no answer), each while its figure has such sentences. Each verdict is recomputed from the
 * record's curves or measurements, so it fails when a sentence and the numbers disagree.
 */
export function figureChecks(sentences, record) {
  const curves = sentences.filter((s) => s.type === 'curve');
  const tables = sentences.find((s) => s.type === 'sets');
  const lengths = sentences.filter((s) => s.type === 'lengths' || s.type === 'refused');
  return [
    ...(curves.length ? [computed('train-curves', `The curves against ${percent(REACHED)}`, () => curvesCheck(curves, record))] : []),
    ...(tables ? [computed('train-tables', 'The two tables at the curves’ length', () => tablesCheck(tables, record))] : []),
    ...(lengths.length ? [computed('train-lengths', `The longer lengths against ${percent(KEPT)}`, () => lengthsCheck(lengths, record))] : []),
  ];
}

/**
 * Whether each type of sentence is true of a record: PREDICATES[type](record, params), recomputed from the record
 * (its curves and its measurements), never from the sentence's text. `runs` ({ order, lookback }) for the conclusion's.
 */
export const PREDICATES = Object.freeze({
  curve(record, p) {
    const models = record.models.filter((m) => m.key === p.key);
    const points = kindCurve(models);
    if (!points.length || points.at(-1).step !== p.last || (record.state === 'done') !== p.over) return false;
    const first = points.find((q) => q.median >= REACHED);
    if (!p.reached) {
      const values = points.map((q) => q.median);
      return !first && Math.min(...values) === p.low && Math.max(...values) === p.high;
    }
    if (!first || first.step !== p.first || points.at(-1).median !== p.lastValue) return false;
    const after = points.filter((q) => q.step >= p.first);
    const low = Math.min(...after.map((q) => q.median));
    return low === p.low && after.find((q) => q.median === low).step === p.lowStep;
  },
  sets(record, p) {
    const m = record.models.find((x) => x.key === p.key && x.seed === p.seed);
    const row = record.measured.find((r) => r.key === p.key && r.seed === p.seed).lengths[p.T];
    const gaps = record.models.map((x) => {
      const r = record.measured.find((y) => y.key === x.key && y.seed === x.seed).lengths[p.T];
      return r.error ? 0 : Math.abs(x.curve.accuracy.at(-1) - r.accuracy);
    });
    return m.curve.accuracy.at(-1) === p.held && row.accuracy === p.measured && Math.abs(p.held - p.measured) === Math.max(...gaps) && p.held !== p.measured;
  },
  lengths(record, p) {
    const answered = record.config.kinds.filter((key) => !kindAt(record, key, p.T).error);
    const kept = answered.filter((key) => kindAt(record, key, p.T).median >= KEPT);
    return same(kept, p.kept) && same(answered.filter((key) => !kept.includes(key)), p.fell) &&
      answered.every((key) => { const a = kindAt(record, key, p.T); return ['median', 'min', 'max'].every((f) => p.at[key]?.[f] === a[f]); });
  },
  refused(record, p) {
    const longer = measuredLengths(record.config).filter((T) => T > record.config.longest);
    return Boolean(kindAt(record, p.key, p.T).error) && longer.filter((T) => T < p.T).every((T) => !kindAt(record, p.key, T).error);
  },
  blind(record, p) {
    const lengths = measuredLengths(record.config);
    const half = record.measured.filter((r) => r.key === 'none').every((r) => lengths.every((T) => {
      const at = r.lengths[T];
      return at.accuracy === 0.5 && at.pairsOneRight === at.pairs;
    }));
    return record.config.task === 'order' && half === p.half;
  },
  learnt(record, p) {
    const { config } = record;
    const trained = measuredLengths(config).filter((T) => trainedLength(config, T));
    const learns = (key) => trained.every((T) => { const a = kindAt(record, key, T); return !a.error && a.median >= LEARNED; });
    const kinds = config.kinds.filter((k) => k !== 'none' || config.task === 'lookback');
    return config.task === p.task && same(kinds.filter(learns), p.learnt) && same(kinds.filter((k) => !learns(k)), p.notLearnt);
  },
  mask(record, p) {
    const trained = measuredLengths(record.config).filter((T) => trainedLength(record.config, T));
    return record.config.task === p.task && trained.every((T) => kindAt(record, 'causal', T).median >= LEARNED) === p.enough;
  },
  scaling(pair, p) {
    const T = Math.max(...measuredLengths(pair.scaled.config));
    return T === p.T && firstReached(pair.scaled, p.key) === p.firstWith && firstReached(pair.unscaled, p.key) === p.firstWithout &&
      kindAt(pair.scaled, p.key, T).median === p.atWith && kindAt(pair.unscaled, p.key, T).median === p.atWithout;
  },
  scalingSummary(pair, p) {
    const moved = Math.max(...p.keys.map((key) => Math.abs(kindAt(pair.scaled, key, p.T).median - kindAt(pair.unscaled, key, p.T).median)));
    const speed = p.keys.some((key) => firstReached(pair.scaled, key) !== firstReached(pair.unscaled, key));
    return moved === p.moved && speed === p.changedSpeed && (moved >= SAME_REACH) === p.changedReach;
  },
  longer(record, p) {
    if (record.config.task !== p.task || p.T !== 2 * record.config.longest) return false;
    const [rotary, sinusoidal] = ['rotary', 'sinusoidal'].map((key) => kindAt(record, key, p.T).median);
    const which = rotary > sinusoidal ? 'rotary' : rotary < sinusoidal ? 'sinusoidal' : 'neither';
    return rotary === p.rotary && sinusoidal === p.sinusoidal && which === p.which;
  },
  decoder(runs, p) {
    const { order, lookback } = runs;
    if (!order?.measured || !lookback?.measured || order.config.task !== 'order' || lookback.config.task !== 'lookback') return false;
    const learns = (record, key) => weakestTrained(record, key) >= LEARNED;
    const decoder = lookback.config.kinds.includes(DECODER) ? learns(lookback, DECODER) : null;
    return learns(order, 'causal') === p.orderEnough && learns(lookback, 'causal') === p.backEnough && decoder === p.decoder;
  },
  formula(record, p) {
    const T = Math.max(...measuredLengths(record.config));
    const at = kindAt(record, 'sinusoidal', T).median;
    return record.config.task === p.task && T === p.T && at === p.value && (at >= KEPT) === p.kept;
  },
});

const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);

/** Every sentence of a run's record (curves, the two tables, lengths), in the order the section shows them. */
export function runSentences(record) {
  return [...curveSentences(record), ...setsSentence(record), ...lengthSentences(record)];
}

/** Whether a sentence is true of its record (`runs` for the conclusion's: { order, lookback, scaling: { scaled, unscaled } }). */
export function holds(s, record, runs = {}) {
  if (s.type === 'decoder') return PREDICATES.decoder(runs, s.params);
  if (s.type === 'scaling' || s.type === 'scalingSummary') {
    return Boolean(runs.scaling?.scaled?.measured && runs.scaling?.unscaled?.measured) && PREDICATES[s.type](runs.scaling, s.params);
  }
  const which = CONCLUDING.has(s.type) ? runs[s.params.task] : record;
  if (!which || (CONCLUDING.has(s.type) && !which.measured)) return false;
  return PREDICATES[s.type](which, s.params);
}

/** The types of the conclusion's sentences: each is about the last measured run of its task (params.task). */
export const CONCLUDING = new Set(['blind', 'learnt', 'mask', 'longer', 'formula']);
