// The lab's three tasks: what the models learn, the sentences they train and are measured on, how an answer is scored,
// and what a guess scores (chance). Pure: no DOM; `so` is the API (its orderTask, lookbackTask, inductionTask and
// taskWords).
//
//   order  Does robot come before person? One answer per sentence (readout 'mean', two classes). Measured on
//          sentence–mirror pairs: the same words with robot and person swapped, and the other answer.
//   lookback  The word k places back: at every position t ≥ k, the word at t − k (readout 'each', one class per word;
//          positions t < k have no answer, target −1). Where a word sits is the whole answer.
//   induction  The word that followed the last earlier occurrence of the word at t ("… A B … A → B"; readout 'each',
//          one class per word; a word not seen before has no answer, target −1): a match, then a copy.
//
// A run's seed draws its models' initial parameters and every sentence they see: dataSeed(seed, n) seeds the stream n
// (step k's batch: 1000 + k; the held-out sentences: 7; the sentences at length T: 500 + T), so three seeds vary the
// data as well as the initialisation (bench/model_study.cpp and bench/model_reference.py use the same seeds and sets).

/** Sentences per Adam step. */
export const BATCH = 32;

/** The largest |difference| between two logits that still counts as "the same" (float32 sums in another order
 * differ by rounding, ~1e-7 here). */
export const SAME_LOGITS = 1e-5;

/**
 * The order task's score of logits (count, 2) against targets (count): { accuracy, pairs, pairsOneRight, pairsTied,
 * pairsTiedRight, mirrorDifference }. For mirrored sets (sentence 2k + 1 the mirror of 2k), pairsOneRight counts the
 * pairs with exactly one of the two right; pairsTied those whose four logits agree within SAME_LOGITS while the two
 * answers differ (a tie within float32 rounding: a model that gives both the same logits answers both alike, and only
 * rounding tips the two argmaxes apart), so both are right or both wrong; pairsTiedRight the tied pairs with both
 * right; mirrorDifference is the largest |logit(sentence 2k) − logit(sentence 2k+1)|.
 */
export function orderScore(logits, targets) {
  const n = targets.data.length;
  const l = logits.data;
  const said = (s) => Number(l[2 * s + 1] > l[2 * s]);
  let right = 0;
  let pairsOneRight = 0;
  let pairsTied = 0;
  let pairsTiedRight = 0;
  let mirrorDifference = 0;
  for (let s = 0; s < n; s += 1) right += Number(said(s) === targets.data[s]);
  for (let s = 0; s + 1 < n; s += 2) {
    const oneRight = (said(s) === targets.data[s]) !== (said(s + 1) === targets.data[s + 1]);
    let difference = 0;
    for (let c = 0; c < 2; c += 1) difference = Math.max(difference, Math.abs(l[2 * s + c] - l[2 * s + 2 + c]));
    const margins = [l[2 * s + 1] - l[2 * s], l[2 * s + 3] - l[2 * s + 2]];
    pairsOneRight += Number(oneRight);
    const tied = !oneRight && difference <= SAME_LOGITS && margins.every((m) => Math.abs(m) <= 2 * SAME_LOGITS);
    pairsTied += Number(tied);
    pairsTiedRight += Number(tied && said(s) === targets.data[s]);
    mirrorDifference = Math.max(mirrorDifference, difference);
  }
  return { accuracy: right / n, pairs: Math.floor(n / 2), pairsOneRight, pairsTied, pairsTiedRight, mirrorDifference };
}

/**
 * The lookback task's score of logits (count, T, classes) against targets (count, T) and ids (count, T): { accuracy
 * (over the positions with an answer), answered, sameWordDifference }: the last is the largest |difference| between
 * the logits of two positions of one sentence that hold the same word (a model that cannot tell positions apart
 * gives them the same answer).
 */
export function lookbackScore(logits, targets, ids) {
  const [count, T] = targets.shape;
  const classes = logits.data.length / (count * T);
  const l = logits.data;
  let right = 0;
  let answered = 0;
  let sameWordDifference = 0;
  for (let s = 0; s < count; s += 1) {
    for (let t = 0; t < T; t += 1) {
      const r = s * T + t;
      const target = targets.data[r];
      if (target !== -1) {
        let best = 0;
        for (let c = 1; c < classes; c += 1) if (l[r * classes + c] > l[r * classes + best]) best = c;
        right += Number(best === target);
        answered += 1;
      }
      // the first later position holding the same word: every pair of equal words is compared through such links
      for (let u = t + 1; u < T; u += 1) {
        if (ids.data[s * T + u] !== ids.data[r]) continue;
        for (let c = 0; c < classes; c += 1) {
          sameWordDifference = Math.max(sameWordDifference, Math.abs(l[r * classes + c] - l[(s * T + u) * classes + c]));
        }
        break;
      }
    }
  }
  return { accuracy: answered ? right / answered : NaN, answered, sameWordDifference };
}

/**
 * The two tasks. Each: label, readout, classes(vocab), minLength(config) (the shortest sentence it takes), make(so,
 * config, { count, length, seed, mirrored }) (sentences), the options of its held-out and measured sets, and
 * score(logits, set) (its scorer on a set { ids, targets }).
 */
export const TASKS = Object.freeze({
  order: Object.freeze({
    key: 'order',
    label: 'robot before person?',
    readout: 'mean',
    classes: () => 2,
    minLength: () => 2,
    make: (so, config, { count, length, seed, mirrored = false }) => so.orderTask({ count, length, seed, mirrored }),
    validationOptions: { mirrored: true },
    measuredOptions: { mirrored: true },
    score: (logits, set) => orderScore(logits, set.targets),
  }),
  lookback: Object.freeze({
    key: 'lookback',
    label: 'the word k places back',
    readout: 'each',
    classes: (vocab) => vocab,
    minLength: (config) => config.back + 1,
    make: (so, config, { count, length, seed }) => so.lookbackTask({ count, length, back: config.back, seed }),
    validationOptions: {},
    measuredOptions: {},
    score: (logits, set) => lookbackScore(logits, set.targets, set.ids),
  }),
  induction: Object.freeze({
    key: 'induction',
    label: 'the word after the last time this word came',
    readout: 'each',
    classes: (vocab) => vocab,
    minLength: () => 2,
    make: (so, config, { count, length, seed }) => so.inductionTask({ count, length, seed }),
    validationOptions: {},
    measuredOptions: {},
    score: (logits, set) => lookbackScore(logits, set.targets, set.ids),
  }),
});

/** The seed of stream n of a run's sentences at seed `seed`: 1,000,000 seed + n (an integer below 2^53 for seeds ≤ 1e9). */
export const dataSeed = (seed, n) => 1_000_000 * seed + n;

/** The sentences of Adam step k at seed `seed` (every model of that seed trains on these). */
export function trainingBatch(so, config, seed, k) {
  const span = config.longest - config.shortest + 1;
  return TASKS[config.task].make(so, config, { count: BATCH, length: config.shortest + (k % span), seed: dataSeed(seed, 1000 + k) });
}

/** The length of the live curves' held-out sentences: the middle of the training lengths (12 for 8 … 16). */
export const validationLength = (config) => Math.round((config.shortest + config.longest) / 2);

/**
 * How many sentences the live curves' held-out set holds (for the order task, half as many sentence–mirror pairs):
 * every model answers them every CHUNK steps, so they cost a share of the training (about 6% at the lesson's settings).
 */
export const VALIDATION_COUNT = 128;

/** The live curves' held-out sentences at seed `seed`: VALIDATION_COUNT of the middle training length (stream 7). */
export function validationSet(so, config, seed) {
  const task = TASKS[config.task];
  return task.make(so, config, { count: VALIDATION_COUNT, length: validationLength(config), seed: dataSeed(seed, 7), ...task.validationOptions });
}

/** How many times the longest trained length the models are measured at, past it. */
export const LONGER = Object.freeze([2, 4, 8]);

/** The lengths the trained models are measured at: the shortest, middle and longest trained, then 2×, 4× and 8× the longest. */
export function measuredLengths(config) {
  const { shortest, longest } = config;
  return [...new Set([shortest, validationLength(config), longest, ...LONGER.map((n) => n * longest)])];
}

/** Whether the models trained on sentences of length T. */
export const trainedLength = (config, T) => T >= config.shortest && T <= config.longest;

/** How many sentences the lengths table measures at each length (for the order task, half as many pairs). */
export const MEASURED_COUNT = 256;

/** The lengths table's sentences at T and seed `seed`: MEASURED_COUNT of them (stream 500 + T). */
export function measuredSet(so, config, seed, T) {
  const task = TASKS[config.task];
  return task.make(so, config, { count: MEASURED_COUNT, length: T, seed: dataSeed(seed, 500 + T), ...task.measuredOptions });
}

/** What a guess scores on a task: 1/2 on the order task, one word in the vocabulary's on the others (1/16). */
export const chance = (config, vocab = 16) => (config.task === 'order' ? 1 / 2 : 1 / vocab);

/**
 * How many answers a set of `count` sentences of length T gives: one per sentence, one per position t ≥ k, or for
 * induction those expected from uniform draws (position t answers when its word came before: 1 − (15/16)^t), rounded
 * down (fewer answers: a wider margin against chance).
 */
export function answers(config, count, T, vocab = 16) {
  if (config.task === 'order') return count;
  if (config.task === 'lookback') return count * Math.max(0, T - config.back);
  let expected = 0;
  for (let t = 0; t < T; t += 1) expected += 1 - ((vocab - 1) / vocab) ** t;
  return Math.floor(count * expected);
}

/**
 * Where an accuracy measured on `n` answers stands against chance c: 'at' within two standard errors of a guess
 * (2·√(c(1 − c)/n): a coin-flipping model lands there about 95 times in 100), 'below' under that, 'above' over it.
 */
export function versusChance(accuracy, c, n) {
  const margin = 2 * Math.sqrt((c * (1 - c)) / n);
  return accuracy < c - margin ? 'below' : accuracy <= c + margin ? 'at' : 'above';
}

/** A count of a task's sentences in words: '64 held-out sentence–mirror pairs', '128 sentences'. */
export function setWords(config, count, what = '') {
  const kind = what ? `${what} ` : '';
  return config.task === 'order' ? `${count / 2} ${kind}sentence–mirror pairs` : `${count} ${kind}sentences`;
}
