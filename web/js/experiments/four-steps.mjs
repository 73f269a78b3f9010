// Attention as the lesson's four visible steps, on a short sentence, and checks that each step is what it claims to
// be, recomputed here independently of the core:
//   1. scores  = q·kᵀ            (T, T)
//   2. scaled  = scores / √D      (T, T), masked entries −∞; with ALiBi, + its bias −m·|i − j|
//   3. weights = softmax per row  (T, T), rows sum to 1, masked entries exactly 0
//   4. output  = weights·v        (T, D)
// Queries and keys are the input rows x themselves (no learned projections yet), or, to show what changes when a
// model learns them, x·Wq and x·Wk with two fixed random matrices; values are x.
// Pure: no DOM.
import { fmt } from '../format.mjs';
import { dotProducts, matmul, maxAbsDiff } from './reference.mjs';
import { TOL } from './common.mjs';
import { WIDTH, row, sentenceInput, uniformGenerator } from './sentence.mjs';

export const STEPS_SENTENCE = Object.freeze(['the', 'robot', 'follows', 'the', 'person']);

/** The ALiBi slope the section draws: that of ALiBi's first head of 8, 2^(−8/8) = 1/2 (bias.mjs's alibiSlopes(8)[0]). */
export const ALIBI_SLOPE = 0.5;

/** ALiBi's bias for query i and key j: −m·|i − j| (−m·(i − j) under the causal mask, the same for the keys it sees). */
export const alibiBias = (i, j) => -ALIBI_SLOPE * Math.abs(i - j);

/** Stand-ins for learned projections Wq, Wk (D, D): seeded uniform entries of variance 1/D. */
export const PROJECTIONS = Object.freeze(Object.fromEntries(['Wq', 'Wk'].map((name, n) => {
  const uniform = uniformGenerator(9001 + n);
  const scale = Math.sqrt(3 / WIDTH);
  const data = Float64Array.from({ length: WIDTH * WIDTH }, () => (2 * uniform() - 1) * scale);
  return [name, Object.freeze({ data, shape: [WIDTH, WIDTH], dtype: 'float64' })];
})));

/**
 * The four steps of self-attention over the sentence's input (lookup + positions, or lookup alone): q = k = v = x,
 * or q = x·Wq, k = x·Wk, v = x with `projections`. With `alibi`, step 2 adds ALiBi's bias (alibiBias) to the scaled
 * scores, and steps 3 and 4 follow from it (the API's softmax and matmul).
 */
export function fourSteps(so, table, { words = STEPS_SENTENCE, causal = false, positions = true, projections = false, alibi = false } = {}) {
  const x = sentenceInput(so, table, words, { positions });
  const q = projections ? matmul(x, PROJECTIONS.Wq) : x;
  const k = projections ? matmul(x, PROJECTIONS.Wk) : x;
  const steps = so.attention(q, k, x, { causal, steps: true });
  if (alibi) {
    const T = words.length;
    const scaled = { ...steps.scaled, data: Float64Array.from(steps.scaled.data, (v, n) => v + alibiBias(Math.floor(n / T), n % T)) };
    const weights = so.softmax(scaled, { causal });
    Object.assign(steps, { scaled, weights, output: so.matmul(weights, x) });
  }
  return { words, causal, positions, projections, alibi, x, q, k, v: x, ...steps };
}

/** Row-wise softmax in plain JS of a (T, T) map (tensor or plot options), −∞ entries weight 0. */
function softmaxRows(t) {
  const T = t.shape?.[0] ?? t.rows;
  const out = new Float64Array(T * T);
  for (let i = 0; i < T; i += 1) {
    const row = t.data.subarray(i * T, (i + 1) * T);
    const top = Math.max(...row);
    let total = 0;
    for (let j = 0; j < T; j += 1) total += Math.exp(row[j] - top);
    for (let j = 0; j < T; j += 1) out[i * T + j] = Math.exp(row[j] - top) / total;
  }
  return out;
}

/** max |softmax(scaled + i, row by row) − weights| of two (T, T) maps: what a constant added per row changes. */
export function rowConstantChange({ scaled, weights }) {
  const T = scaled.shape?.[0] ?? scaled.rows;
  const shifted = { data: Float64Array.from(scaled.data, (v, n) => v + Math.floor(n / T)), shape: [T, T] };
  return maxAbsDiff(softmaxRows(shifted), weights.data);
}

/**
 * With ALiBi on: a constant added to every score of a row (i to row i) leaves its weights as drawn, computed from the
 * drawn steps 2 and 3; so under the causal mask, ALiBi's −m·(i − j) = m·j − m·i counts by m·j alone.
 */
export function rowConstantCheck(steps) {
  const change = rowConstantChange(steps);
  return {
    name: 'steps-alibi-row-constant',
    pass: change <= TOL.same,
    holds: (drawn) => rowConstantChange(drawn) <= TOL.same,
    claim: `Adding a constant to a row of step 2 leaves its weights unchanged${steps.causal ? ': under the mask ALiBi’s −(i − j)/2 counts as j/2' : ''}.`,
    details: `i added to row i of the scaled scores drawn, softmax in plain JS: max |difference from the weights drawn| = ${fmt(change)} ≤ ${TOL.same}`,
  };
}

/** Is entry (query i, key j) hidden by the causal mask (self-attention: queries sit at positions 0 … T−1)? */
const hidden = (causal, i, j) => causal && j > i;

/** Checks of the four steps, run on both the unmasked and the causal version of the sentence. */
export function stepChecks(so, table, { words = STEPS_SENTENCE, causal = false, positions = true, projections = false, alibi = false } = {}) {
  // Each step is checked as drawn and with the mask the other way, which the claims name as not drawn.
  const also = causal ? ' (here and without the mask, not drawn)' : ' (here and under the causal mask, not drawn)';
  const runs = [false, true].map((causal) => fourSteps(so, table, { words, causal, positions, projections, alibi }));
  const bias = (i, j) => (alibi ? alibiBias(i, j) : 0);
  const scoresError = Math.max(...runs.map((r) => maxAbsDiff(r.scores, dotProducts(r.q, r.k)))); // step 1 vs plain JS
  let scaleError = 0; // |scaled − scores/√D| over visible entries
  let softmaxError = 0; // |weights − exp(scaled − max)/Σ| over every entry
  let sumError = 0; // |Σ_j weights_ij − 1|
  let sumWorst = 1;
  let outputError = 0; // |output − Σ_j w_ij v_j|
  let maskedCount = 0;
  let maskedZero = 0;
  let maskedMinusInfinity = 0;
  let visiblePositive = true;
  let maskedOutsideCausal = 0;
  for (const { q, v, scores, scaled, weights, output, causal } of runs) {
    const [T, D] = q.shape;
    for (let i = 0; i < T; i += 1) {
      let max = -Infinity;
      for (let j = 0; j < T; j += 1) if (!hidden(causal, i, j)) max = Math.max(max, scores.data[i * T + j] / Math.sqrt(D) + bias(i, j));
      let total = 0;
      for (let j = 0; j < T; j += 1) if (!hidden(causal, i, j)) total += Math.exp(scores.data[i * T + j] / Math.sqrt(D) + bias(i, j) - max);
      let sum = 0;
      for (let j = 0; j < T; j += 1) {
        const k = i * T + j;
        const w = weights.data[k];
        sum += w;
        if (hidden(causal, i, j)) {
          maskedCount += 1;
          if (w === 0 && Object.is(w, 0)) maskedZero += 1;
          if (scaled.data[k] === -Infinity) maskedMinusInfinity += 1;
          softmaxError = Math.max(softmaxError, Math.abs(w));
        } else {
          if (!causal && scaled.data[k] === -Infinity) maskedOutsideCausal += 1;
          scaleError = Math.max(scaleError, Math.abs(scaled.data[k] - (scores.data[k] / Math.sqrt(D) + bias(i, j))));
          softmaxError = Math.max(softmaxError, Math.abs(w - Math.exp(scores.data[k] / Math.sqrt(D) + bias(i, j) - max) / total));
          if (!(w > 0)) visiblePositive = false;
        }
      }
      if (Math.abs(sum - 1) > sumError) { sumError = Math.abs(sum - 1); sumWorst = sum; }
      for (let d = 0; d < D; d += 1) {
        let mixed = 0;
        for (let j = 0; j < T; j += 1) mixed += weights.data[i * T + j] * v.data[j * D + d];
        outputError = Math.max(outputError, Math.abs(output.data[i * D + d] - mixed));
      }
    }
  }
  const T = words.length;
  const expectedMasked = (T * (T - 1)) / 2;
  return [
    {
      name: 'steps-scores-are-dot-products',
      pass: scoresError <= TOL.same,
      claim: `Step 1: each score is the dot product of a query row and a key row (${projections ? 'q = x·Wq, k = x·Wk' : 'q = k = x'})${also}.`,
      details: `max |scores − q·kᵀ computed in plain JS| = ${fmt(scoresError)} ≤ ${TOL.same}, with and without the mask`,
    },
    {
      name: 'steps-scaled-is-scores-over-sqrt-d',
      pass: scaleError <= TOL.same,
      claim: `Step 2 divides every visible score by √D${alibi ? ' and adds ALiBi’s −|i − j|/2' : ''}${also}.`,
      details: `D = ${runs[0].q.shape[1]}, max |scaled − (scores/√D${alibi ? ' − |i − j|/2' : ''})| = ${fmt(scaleError)} ≤ ${TOL.same}`,
    },
    {
      name: 'steps-weights-are-softmax',
      pass: softmaxError <= TOL.same && visiblePositive,
      claim: `Step 3 is a softmax of each scaled row over the keys it may see, row maximum subtracted first${also}.`,
      details: `max |weights − softmax(scaled)| = ${fmt(softmaxError)} ≤ ${TOL.same}; every visible weight > 0: ${visiblePositive}`,
    },
    {
      name: 'steps-weights-rows-sum-to-one',
      pass: sumError <= TOL.same,
      claim: `Every row of weights sums to 1${also}.`,
      details: `${2 * T} rows, max |Σ weights − 1| = ${fmt(sumError)} (worst row sums to ${fmt(sumWorst, 17)}) ≤ ${TOL.same}`,
    },
    {
      name: 'steps-masked-weights-exactly-zero',
      pass: maskedCount === expectedMasked && maskedZero === maskedCount && maskedMinusInfinity === maskedCount && maskedOutsideCausal === 0,
      claim: `Under the causal mask${causal ? '' : ' (not drawn)'}, every hidden entry is −∞ after scaling and exactly 0 as a weight (no large stand-in number); without it none is.`,
      details: `${maskedCount} hidden entries (T(T−1)/2 = ${expectedMasked}): ${maskedMinusInfinity} are −∞ scaled, ${maskedZero} are exactly 0 weights; unmasked: ${maskedOutsideCausal} −∞`,
    },
    {
      name: 'steps-output-is-weighted-sum',
      pass: outputError <= TOL.same,
      claim: `Step 4: each output row is the weights-weighted sum of the value rows${also}.`,
      details: `max |output − Σ_j w_ij v_j| = ${fmt(outputError)} ≤ ${TOL.same}`,
    },
  ];
}

/** The first word that occurs twice in `words`, and where: { word, first, second }, or null. */
export function repeatedWord(words) {
  const first = words.findIndex((w, i) => words.indexOf(w, i + 1) > i);
  return first < 0 ? null : { word: words[first], first, second: words.indexOf(words[first], first + 1) };
}

/** max |row a − row b| of a (T, N) tensor ({ data, shape } or a plot's { data, rows, cols }). */
function rowGap(t, a, b) {
  const n = t.shape?.[1] ?? t.cols;
  return maxAbsDiff(t.data.subarray(a * n, (a + 1) * n), t.data.subarray(b * n, (b + 1) * n));
}

/** The two occurrences' largest difference over their weights and output rows. */
const pairGap = (steps, { first, second }) => Math.max(rowGap(steps.weights, first, second), rowGap(steps.output, first, second));

/**
 * A word that occurs twice has one lookup row, so without positions and without the mask its two occurrences get
 * the same scores, weights and output, bit for bit. Positions tell them apart; so does a causal mask on its own: the
 * first occurrence sees fewer keys than the second. The check is computed at the settings drawn and at the variants
 * it compares them with, which its claim names as not drawn.
 */
export function repeatedWordCheck(so, table, { words = STEPS_SENTENCE, causal = false, positions = true, projections = false } = {}) {
  const pair = repeatedWord(words);
  if (!pair) throw new RangeError(`the sentence has no repeated word: ${words.join(' ')}`);
  const { word, first, second } = pair;
  const gap = (p, c) => pairGap(fourSteps(so, table, { words, positions: p, causal: c, projections }), pair);
  const rows = `the two “${word}” rows (${first} and ${second})`;
  const drawn = gap(positions, causal);
  const neither = positions || causal ? gap(false, false) : drawn;
  // what the claim says of the rows drawn: their gap is the one computed at these settings
  const holds = (shown) => pairGap(shown, pair) === drawn;
  const check = { name: 'steps-repeated-word-mask-or-positions', gaps: { drawn, neither }, holds };
  if (!positions && !causal) {
    const withPositions = gap(true, false);
    return {
      ...check,
      pass: drawn === 0 && withPositions > TOL.different,
      claim: `Without positions and without the mask, ${rows} get the same weights and outputs, bit for bit; with positions added (not drawn) they differ.`,
      details: `max |row ${first} − row ${second}| over weights and output: ${fmt(drawn)} as drawn, ${fmt(withPositions)} with positions`,
    };
  }
  if (positions && !causal) {
    return {
      ...check,
      pass: drawn > TOL.different && neither === 0,
      claim: `With positions, ${rows} differ; without positions (not drawn) they get the same weights and outputs, bit for bit.`,
      details: `max |row ${first} − row ${second}| over weights and output: ${fmt(drawn)} as drawn > ${TOL.different}, ${fmt(neither)} without positions`,
    };
  }
  if (!positions && causal) {
    return {
      ...check,
      pass: drawn > TOL.different && neither === 0,
      claim: `Without positions, the causal mask alone tells ${rows} apart: row ${first} sees ${first + 1} key${first ? 's' : ''}, ` +
        `row ${second} sees ${second + 1}; without the mask (not drawn) they get the same weights and outputs, bit for bit.`,
      details: `max |row ${first} − row ${second}| over weights and output: ${fmt(drawn)} as drawn > ${TOL.different}, ${fmt(neither)} without the mask`,
    };
  }
  const maskAlone = gap(false, true);
  const positionsAlone = gap(true, false);
  return {
    ...check,
    pass: drawn > TOL.different && maskAlone > TOL.different && positionsAlone > TOL.different && neither === 0,
    claim: `With the mask and positions, ${rows} differ, and each alone would separate them: the mask without positions ` +
      'and the positions without the mask (neither drawn); with neither they are the same, bit for bit.',
    details: `max |row ${first} − row ${second}| over weights and output: ${fmt(drawn)} as drawn, ${fmt(maskAlone)} with the ` +
      `mask alone, ${fmt(positionsAlone)} with positions alone, ${fmt(neither)} with neither`,
  };
}

/** Rows of a (T, T) weights map (tensor or plot options) that put their largest weight on themselves. */
export function rowsWeighingThemselvesMost(weights) {
  const T = weights.shape?.[0] ?? weights.rows;
  let n = 0;
  for (let i = 0; i < T; i += 1) {
    const w = weights.data.subarray(i * T, (i + 1) * T);
    if (w.every((value) => value <= w[i])) n += 1;
  }
  return n;
}

/**
 * Rows of a (T, T) scores map (tensor or plot options) in which a key the row may see (all, or keys 0 … i under the
 * causal mask) scores higher than the row's own key.
 */
export function rowsOutscored(scores, causal) {
  const T = scores.shape?.[0] ?? scores.rows;
  let n = 0;
  for (let i = 0; i < T; i += 1) {
    const own = scores.data[i * T + i];
    for (let j = 0; j < T; j += 1) {
      if (j !== i && !hidden(causal, i, j) && scores.data[i * T + j] > own) {
        n += 1;
        break;
      }
    }
  }
  return n;
}

/**
 * Why the weights crowd onto the diagonal when q = k = x: the score of a row with itself is its squared length
 * ‖x_i‖², and by Cauchy–Schwarz x_i·x_j ≤ ‖x_i‖‖x_j‖ ≤ ‖x_i‖² for every key no longer than x_i; the scores are
 * symmetric. With projections (q = x·Wq, k = x·Wk) a query meets its own vector's key projection, not its own vector:
 * the scores are no longer symmetric and nothing reserves the diagonal. Computed at the settings drawn (the mask
 * hides keys; scores are taken before it).
 */
export function diagonalCheck(so, table, { words = STEPS_SENTENCE, causal = false, positions = true, projections = false, alibi = false } = {}) {
  const { x, scores, weights } = fourSteps(so, table, { words, causal, positions, projections, alibi });
  const [T, D] = x.shape;
  const at = (i, j) => scores.data[i * T + j];
  const norms2 = Array.from({ length: T }, (_, i) => row(x, i).reduce((sum, value) => sum + value * value, 0));
  let asymmetry = 0;
  let selfError = 0; // |score_ii − ‖x_i‖²|
  let beaten = 0; // keys no longer than x_i that outscore x_i itself (Cauchy–Schwarz says none)
  for (let i = 0; i < T; i += 1) {
    selfError = Math.max(selfError, Math.abs(at(i, i) - norms2[i]));
    for (let j = 0; j < T; j += 1) {
      asymmetry = Math.max(asymmetry, Math.abs(at(i, j) - at(j, i)));
      if (norms2[j] <= norms2[i] && at(i, j) > at(i, i) + TOL.same) beaten += 1;
    }
  }
  const outscored = rowsOutscored(scores, causal);
  const self = rowsWeighingThemselvesMost(weights);
  const summary = `${self} of ${T} rows weigh themselves most${causal ? ' (row 0 sees only itself)' : ''}`;
  const masked = causal ? ' (the scores before the mask)' : '';
  // what the check says of the maps drawn: as many rows weigh themselves most, as many rows are outscored
  const holds = (shown) => rowsWeighingThemselvesMost(shown.weights) === self && rowsOutscored(shown.scores, causal) === outscored;
  if (!projections) {
    return {
      name: 'steps-diagonal',
      holds,
      pass: asymmetry <= TOL.same && selfError <= TOL.same && beaten === 0,
      claim: `With q = k = x, each row’s own score is its squared length, which no shorter key can beat (Cauchy–Schwarz): hence the bright diagonal${masked}.`,
      details: `score_ii = ‖x_i‖² within ${fmt(selfError)}; scores symmetric within ${fmt(asymmetry)}; keys no longer than ` +
        `the query that outscore it: ${beaten}; ${summary}`,
    };
  }
  const claim = 'With projections Wq ≠ Wk, query i is x_i·Wq and key i is x_i·Wk: a query meets a projection of its own ' +
    'vector, not the vector itself, so the scores are not symmetric and nothing reserves the diagonal';
  return outscored > 0 ? {
    name: 'steps-diagonal',
    holds,
    pass: asymmetry > TOL.different && outscored > 0,
    claim: `${claim}: in ${outscored} of ${T} rows another key${causal ? ' it may see' : ''} scores higher than the row’s own.`,
    details: `max |score_ij − score_ji| = ${fmt(asymmetry)} > ${TOL.different}; rows with a key above their own score: ${outscored}; ${summary} (D = ${D})`,
  } : {
    name: 'steps-diagonal',
    holds,
    pass: asymmetry > TOL.different,
    claim: `${claim}, though here every row’s own key still scores highest among the keys it may see.`,
    details: `max |score_ij − score_ji| = ${fmt(asymmetry)} > ${TOL.different}; rows with a key above their own score: 0; ${summary} (D = ${D})`,
  };
}

/**
 * The sentences under the four maps, from the steps drawn (fourSteps at the current settings), each with its
 * predicate on what the section draws (drawn.weights, drawn.output: the maps' options).
 */
export function stepsSentences(steps, { words, causal, projections, alibi = false }) {
  const T = words.length;
  const self = rowsWeighingThemselvesMost(steps.weights);
  const why = projections
    ? 'with Wq and Wk a query meets a projection of its own vector as its key, so nothing reserves the diagonal.'
    : 'with q = k a row scores its own squared length, which no shorter key beats (see why below).';
  const sentences = [{
    name: 'steps-self-most',
    text: `${self} of ${T} ${self === 1 ? 'rows puts its largest weight on itself' : 'rows put their largest weight on themselves'}${causal ? ' (under the mask row 0 sees only itself)' : ''}: ${why}`,
    holds: (drawn) => drawn.weights.rows === T && rowsWeighingThemselvesMost(drawn.weights) === self,
  }];
  const pair = repeatedWord(words);
  if (!pair) {
    sentences.push('This sentence repeats no word.');
    return sentences;
  }
  const gap = pairGap(steps, pair);
  const rows = `The two “${pair.word}” rows (${pair.first} and ${pair.second})`;
  const drawnGap = (drawn) => pairGap(drawn, pair);
  const gaps = (t) => [rowGap(t.weights, pair.first, pair.second), rowGap(t.output, pair.first, pair.second)].map((g) => fmt(g, 2)).join(' ');
  if (gap === 0) {
    sentences.push({
      name: 'steps-repeated-rows',
      text: `${rows} have the same weights and outputs, bit for bit: nothing tells them apart.`,
      holds: (drawn) => drawnGap(drawn) === 0,
    });
  } else {
    const by = alibi
      ? `${[causal && 'the mask', steps.positions && 'the positions', 'the ALiBi bias'].filter(Boolean).join(' and ')} tell${causal || steps.positions ? '' : 's'} them apart`
      : causal
        ? (steps.positions ? 'the mask and the positions both tell them apart' : 'no positions are added, so the mask alone tells them apart')
        : 'their positions tell them apart';
    const [w, o] = gaps(steps).split(' ');
    sentences.push({
      name: 'steps-repeated-rows',
      text: `${rows} differ, their weights by up to ${w} and their outputs by up to ${o}: ${by}.`,
      holds: (drawn) => drawnGap(drawn) > TOL.different && gaps(drawn) === `${w} ${o}`,
    });
  }
  return sentences;
}
