// The training experiment of section "train": five small transformers learn the order task side by side (does robot
// come before person?), each in its own worker of a seqorder pool, and are then measured: accuracy at the lengths they
// trained on and beyond, a sentence against its mirror, and a hash of their parameters. Nothing here is a result
// written in advance: the checks and the sentences about lengths are computed from the measurements they are given.
// Pure: no DOM; node and the page import it (`so`: the API, for the sentences; `pool`: loadSeqorderPool's).
import { fmt } from '../format.mjs';

/** The five models: where position enters, or not. */
export const SETUPS = Object.freeze([
  { key: 'none', label: 'none, bidirectional', options: { positions: 'none' } },
  { key: 'sinusoidal', label: 'sinusoidal', options: { positions: 'sinusoidal' } },
  { key: 'learned', label: 'learned (16 rows)', options: { positions: 'learned', maxLength: 16 } },
  { key: 'rotary', label: 'rotary', options: { positions: 'rotary' } },
  { key: 'causal', label: 'none, causal', options: { positions: 'none', causal: true } },
]);

/** What every model shares (the PyTorch reference's, bench/model_reference.py): createModel's options but the seed. */
export const ARCHITECTURE = Object.freeze({ width: 32, heads: 2, layers: 1, readout: 'mean', classes: 2, dtype: 'float32' });

/** Training: Adam steps, learning rate, sentences per batch; step k trains on length 8 + k % 9 (8 … 16). */
export const TRAINING = Object.freeze({ steps: 800, lr: 3e-3, batch: 32, shortest: 8, longest: 16 });

/** Steps per message to a worker: the curves grow by one point every CHUNK steps. */
export const CHUNK = 20;

/** The seed of the initial parameters when the reader gives none: the reference's first. */
export const DEFAULT_SEED = 1;

/** Lengths measured after training: the trained ones, then twice and four times the longest. */
export const TRAINED_LENGTHS = Object.freeze([8, 12, 16]);
export const LONGER_LENGTHS = Object.freeze([2 * TRAINING.longest, 4 * TRAINING.longest]);
export const EVALUATION_LENGTHS = Object.freeze([...TRAINED_LENGTHS, ...LONGER_LENGTHS]);

/** The held-out sentences of the live accuracy curve: 128 sentence-mirror pairs of a trained length. */
export const VALIDATION = Object.freeze({ count: 256, length: 12, seed: 7, mirrored: true });

/** The largest |logit(sentence) − logit(mirror)| that still counts as "the same logits" (float32 sums taken in
 * another order differ by rounding, ~1e-7 here). */
export const SAME_LOGITS = 1e-5;

/** Accuracy a model with positions must reach at one trained length at least; the causal one at every trained length. */
export const LEARNED = 0.95;

/** The share at twice and four times the longest length that the sentences about lengths call "kept". */
export const KEPT = 0.9;

/** createModel's options for one setup. */
export function modelOptions(setup, seed, vocab) {
  return { vocab, ...ARCHITECTURE, ...setup.options, seed };
}

/** The sentences of Adam step k: orderTask's, seeded 1000 + k (those of the C++ test and the PyTorch reference). */
export function trainingBatch(so, k) {
  const span = TRAINING.longest - TRAINING.shortest + 1;
  return so.orderTask({ count: TRAINING.batch, length: TRAINING.shortest + (k % span), seed: 1000 + k });
}

/** The measured sentences at length T: 256 sentence-mirror pairs, seeded 500 + T (as the C++ test's). */
export function evaluationSet(so, T) {
  return so.orderTask({ count: 512, length: T, seed: 500 + T, mirrored: true });
}

/**
 * Logits (count, 2) of sentences against their targets: { accuracy, pairs, pairsOneRight, mirrorDifference }. For
 * mirrored sets (sentence 2k + 1 the mirror of 2k), pairsOneRight counts the pairs with exactly one of the two right,
 * and mirrorDifference is the largest |logit(sentence 2k) − logit(sentence 2k+1)|.
 */
export function score(logits, targets) {
  const n = targets.data.length;
  const said = (s) => Number(logits.data[2 * s + 1] > logits.data[2 * s]);
  let right = 0;
  let pairsOneRight = 0;
  let mirrorDifference = 0;
  for (let s = 0; s < n; s += 1) right += Number(said(s) === targets.data[s]);
  for (let s = 0; s + 1 < n; s += 2) {
    pairsOneRight += Number((said(s) === targets.data[s]) !== (said(s + 1) === targets.data[s + 1]));
    for (let c = 0; c < 2; c += 1) mirrorDifference = Math.max(mirrorDifference, Math.abs(logits.data[2 * s + c] - logits.data[2 * s + 2 + c]));
  }
  return { accuracy: right / n, pairs: Math.floor(n / 2), pairsOneRight, mirrorDifference };
}

/** SHA-256 (hex) of a model's parameters: the bytes of each tensor of parameters(), in its order, one after another. */
export async function parameterHash(parameters) {
  const tensors = Object.values(parameters);
  const bytes = new Uint8Array(tensors.reduce((n, t) => n + t.data.byteLength, 0));
  let at = 0;
  for (const { data } of tensors) {
    bytes.set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), at);
    at += data.byteLength;
  }
  const digest = new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Trains one model per setup in `pool` from the initial parameters of `seed`, every model on the same sentences, each
 * on its own worker. After every CHUNK steps of a model, onChunk(index, { step, losses, accuracy }) gets the losses of
 * those steps and its accuracy on the VALIDATION sentences. stopped() is asked before each chunk: once it says true,
 * no model takes another step. Resolves to { models (the pool's handles: the caller disposes them), steps: each
 * model's steps taken }. `steps` defaults to TRAINING.steps.
 */
export async function trainModels(pool, so, { seed, steps = TRAINING.steps, onChunk = () => {}, stopped = () => false }) {
  const vocab = so.taskWords.length;
  const models = await Promise.all(SETUPS.map((setup) => pool.createModel(modelOptions(setup, seed, vocab))));
  const validation = so.orderTask(VALIDATION);
  const chunks = new Map();  // first step → its batches, drawn once for the five models
  const batchesFrom = (first) => {
    if (!chunks.has(first)) {
      chunks.set(first, Array.from({ length: Math.min(CHUNK, steps - first) }, (_, j) => trainingBatch(so, first + j)));
    }
    return chunks.get(first);
  };
  const taken = SETUPS.map(() => 0);
  try {
    await Promise.all(models.map(async (model, i) => {
      while (taken[i] < steps && !stopped()) {
        const losses = await model.train(batchesFrom(taken[i]), { lr: TRAINING.lr });
        const { accuracy } = score(await model.forward(validation.ids), validation.targets);
        taken[i] += losses.length;
        onChunk(i, { step: taken[i], losses, accuracy });
      }
    }));
  } catch (error) {
    await Promise.all(models.map((model) => model.dispose()));
    throw error;
  }
  return { models, steps: taken };
}

/**
 * Each trained model measured at every EVALUATION_LENGTHS: per setup, { key, label, lengths: { [T]: score, or
 * { error: { name, message } } where the model refuses T (a RangeError; any other error fails the evaluation) } }.
 */
export async function evaluateModels(models, so) {
  const sets = Object.fromEntries(EVALUATION_LENGTHS.map((T) => [T, evaluationSet(so, T)]));
  return Promise.all(models.map(async (model, i) => {
    const lengths = {};
    for (const T of EVALUATION_LENGTHS) {
      try {
        lengths[T] = score(await model.forward(sets[T].ids), sets[T].targets);
      } catch (error) {
        if (!(error instanceof RangeError)) throw error;
        lengths[T] = { error: { name: error.name, message: error.message } };
      }
    }
    return { key: SETUPS[i].key, label: SETUPS[i].label, lengths };
  }));
}

const percent = (x) => `${fmt(100 * x, 3)}%`;
const measured = (row, lengths) => lengths.filter((T) => !row.lengths[T].error);
const listOf = (row, lengths) => lengths.map((T) => (row.lengths[T].error ? `T = ${T}: refused` : `T = ${T}: ${percent(row.lengths[T].accuracy)}`)).join(', ');

/** The checks of the section, by name: what each claims. */
const CLAIMS = Object.freeze({
  'train-none-mirror-logits': 'Without positions, the bidirectional model gives a sentence and its mirror the same logits',
  'train-none-half': 'So it scores 50% on mirrored pairs: one sentence of each pair right, the other wrong',
  'train-sinusoidal-learns': `With sinusoidal positions the model learns the order: at least ${percent(LEARNED)} at a trained length`,
  'train-learned-learns': `With learned positions the model learns the order: at least ${percent(LEARNED)} at a trained length`,
  'train-rotary-learns': `With rotary positions the model learns the order: at least ${percent(LEARNED)} at a trained length`,
  'train-causal-learns': `Without positions but with a causal mask, the model learns the order anyway: at least ${percent(LEARNED)} at every trained length`,
  'train-learned-refuses': `The learned table has ${TRAINING.longest} rows: a sentence of T = ${LONGER_LENGTHS.join(' or ')} is refused, not guessed at`,
});

/** The checks before their run has finished: each one pending, saying why (`why`). */
export function pendingChecks(why) {
  return Object.entries(CLAIMS).map(([name, claim]) => ({ name, pending: true, claim, details: why }));
}

/** The checks of a finished run, from its evaluation (evaluateModels'). */
export function trainingChecks(evaluation) {
  const row = (key) => evaluation.find((r) => r.key === key);
  const check = (name, pass, details) => ({ name, pass, claim: CLAIMS[name], details });
  const none = row('none');
  const noneLengths = measured(none, EVALUATION_LENGTHS);
  const everyLength = noneLengths.length === EVALUATION_LENGTHS.length;
  const largest = Math.max(...noneLengths.map((T) => none.lengths[T].mirrorDifference));
  const pairs = none.lengths[EVALUATION_LENGTHS[0]].pairs;
  const checks = [
    check('train-none-mirror-logits', everyLength && largest <= SAME_LOGITS,
      `largest |logit(sentence) − logit(mirror)| over ${pairs} pairs at each of T = ${EVALUATION_LENGTHS.join(', ')}: ` +
      `${fmt(largest, 2)} (the same up to float32 rounding: ≤ ${fmt(SAME_LOGITS)})`),
    check('train-none-half', everyLength && noneLengths.every((T) => none.lengths[T].pairsOneRight === pairs),
      `accuracy (pairs with one sentence right): ${noneLengths.map((T) => `T = ${T}: ${percent(none.lengths[T].accuracy)} ` +
        `(${none.lengths[T].pairsOneRight}/${pairs})`).join(', ')}`),
  ];
  for (const key of ['sinusoidal', 'learned', 'rotary']) {
    const r = row(key);
    const best = Math.max(...measured(r, TRAINED_LENGTHS).map((T) => r.lengths[T].accuracy));
    checks.push(check(`train-${key}-learns`, best >= LEARNED, `${listOf(r, TRAINED_LENGTHS)}; best ${percent(best)}`));
  }
  const causal = row('causal');
  const causalTrained = measured(causal, TRAINED_LENGTHS);
  checks.push(check('train-causal-learns',
    causalTrained.length === TRAINED_LENGTHS.length && causalTrained.every((T) => causal.lengths[T].accuracy >= LEARNED),
    `${listOf(causal, TRAINED_LENGTHS)} (the mask lets each token see only those before it: an order of its own)`));
  const learned = row('learned');
  const refused = LONGER_LENGTHS.filter((T) => learned.lengths[T].error?.name === 'RangeError');
  checks.push(check('train-learned-refuses',
    refused.length === LONGER_LENGTHS.length && measured(learned, TRAINED_LENGTHS).length === TRAINED_LENGTHS.length,
    refused.length
      ? `${refused.map((T) => `T = ${T}`).join(', ')}: ${learned.lengths[refused[0]].error.name}: ${learned.lengths[refused[0]].error.message}`
      : `answered at ${listOf(learned, LONGER_LENGTHS)}`));
  return checks;
}

/**
 * What the measurements at longer lengths say, in sentences built from them (evaluateModels'): which models kept at
 * least KEPT at twice and at four times the longest trained length, which fell below, and which refused.
 */
export function lengthFindings(evaluation) {
  const sentences = [];
  const [twice] = LONGER_LENGTHS;
  const names = (rows, T) => rows.map((r) => `${r.label} (${percent(r.lengths[T].accuracy)})`).join(', ');
  for (const T of LONGER_LENGTHS) {
    const answered = evaluation.filter((r) => !r.lengths[T].error);
    const kept = answered.filter((r) => r.lengths[T].accuracy >= KEPT);
    const fell = answered.filter((r) => r.lengths[T].accuracy < KEPT);
    const times = T === twice ? 'twice' : 'four times';
    sentences.push(`At T = ${T}, ${times} the longest training sentence, ` +
      (kept.length ? `${names(kept, T)} kept at least ${percent(KEPT)}` : `no model kept ${percent(KEPT)}`) +
      (fell.length ? `; ${names(fell, T)} fell below it.` : '.'));
  }
  const refused = evaluation.filter((r) => LONGER_LENGTHS.some((T) => r.lengths[T].error));
  for (const r of refused) {
    const T = LONGER_LENGTHS.find((t) => r.lengths[t].error);
    sentences.push(`The ${r.label} model gives no answer from T = ${T} on: ${r.lengths[T].error.message}.`);
  }
  const scores = (key) => {
    const r = evaluation.find((e) => e.key === key);
    const all = measured(r, EVALUATION_LENGTHS).map((T) => r.lengths[T].accuracy);
    const [lo, hi] = [Math.min(...all), Math.max(...all)];
    return lo === hi ? `${percent(lo)} at every length` : `between ${percent(lo)} and ${percent(hi)}`;
  };
  sentences.push(`Over all these lengths, trained or not (T = ${EVALUATION_LENGTHS.join(', ')}), the bidirectional model ` +
    `without positions scored ${scores('none')}, and the causal one without positions ${scores('causal')}.`);
  return sentences;
}

/**
 * What the live curves say, in a sentence built from them: curves[i] holds the { step, accuracy } points of SETUPS[i]
 * on the VALIDATION sentences. Which models reached LEARNED there and at which step, which never did (and their range).
 */
export function curveFindings(curves) {
  const reached = [];
  const never = [];
  curves.forEach((points, i) => {
    const first = points.find((p) => p.accuracy >= LEARNED);
    if (first) reached.push({ label: SETUPS[i].label, step: first.step });
    else if (points.length) never.push({ label: SETUPS[i].label, scores: points.map((p) => p.accuracy) });
  });
  reached.sort((a, b) => a.step - b.step);
  const parts = [];
  if (reached.length) parts.push(`${reached.map((r) => `${r.label} at step ${r.step}`).join(', ')} reached ${percent(LEARNED)}`);
  for (const { label, scores } of never) {
    const [lo, hi] = [Math.min(...scores), Math.max(...scores)];
    parts.push(`${label} never did (${lo === hi ? `${percent(lo)} from first point to last` : `between ${percent(lo)} and ${percent(hi)}`})`);
  }
  return `On the held-out pairs (T = ${VALIDATION.length}): ${parts.join('; ')}.`;
}
