// Attention as the lesson's four visible steps, on a short sentence, and checks that each step is what it claims to
// be, recomputed here independently of the core:
//   1. scores  = q·kᵀ            (T, T)
//   2. scaled  = scores / √D      (T, T), masked entries −∞
//   3. weights = softmax per row  (T, T), rows sum to 1, masked entries exactly 0
//   4. output  = weights·v        (T, D)
// Queries and keys are the input rows x themselves (no learned projections yet), or, to show what changes when a
// model learns them, x·Wq and x·Wk with two fixed random matrices; values are x.
// Pure: no DOM.
import { fmt } from '../format.mjs';
import { dotProducts, matmul, maxAbsDiff } from './reference.mjs';
import { TOL, WIDTH, row, sentenceInput, uniformGenerator } from './sentence.mjs';

export const STEPS_SENTENCE = Object.freeze(['the', 'robot', 'follows', 'the', 'person']);

/** Stand-ins for learned projections Wq, Wk (D, D): seeded uniform entries of variance 1/D. */
export const PROJECTIONS = Object.freeze(Object.fromEntries(['Wq', 'Wk'].map((name, n) => {
  const uniform = uniformGenerator(9001 + n);
  const scale = Math.sqrt(3 / WIDTH);
  const data = Float64Array.from({ length: WIDTH * WIDTH }, () => (2 * uniform() - 1) * scale);
  return [name, Object.freeze({ data, shape: [WIDTH, WIDTH], dtype: 'float64' })];
})));

/**
 * The four steps of self-attention over the sentence's input (lookup + positions, or lookup alone): q = k = v = x,
 * or q = x·Wq, k = x·Wk, v = x with `projections`.
 */
export function fourSteps(so, table, { words = STEPS_SENTENCE, causal = false, positions = true, projections = false } = {}) {
  const x = sentenceInput(so, table, words, { positions });
  const q = projections ? matmul(x, PROJECTIONS.Wq) : x;
  const k = projections ? matmul(x, PROJECTIONS.Wk) : x;
  return { words, causal, projections, x, q, k, v: x, ...so.attention(q, k, x, { causal, steps: true }) };
}

/** Is entry (query i, key j) hidden by the causal mask (self-attention: queries sit at positions 0 … T−1)? */
const hidden = (causal, i, j) => causal && j > i;

/** Checks of the four steps, run on both the unmasked and the causal version of the sentence. */
export function stepChecks(so, table, { words = STEPS_SENTENCE, positions = true, projections = false } = {}) {
  const runs = [false, true].map((causal) => fourSteps(so, table, { words, causal, positions, projections }));
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
      for (let j = 0; j < T; j += 1) if (!hidden(causal, i, j)) max = Math.max(max, scores.data[i * T + j] / Math.sqrt(D));
      let total = 0;
      for (let j = 0; j < T; j += 1) if (!hidden(causal, i, j)) total += Math.exp(scores.data[i * T + j] / Math.sqrt(D) - max);
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
          scaleError = Math.max(scaleError, Math.abs(scaled.data[k] - scores.data[k] / Math.sqrt(D)));
          softmaxError = Math.max(softmaxError, Math.abs(w - Math.exp(scores.data[k] / Math.sqrt(D) - max) / total));
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
      claim: `Step 1: each score is the dot product of a query row and a key row (${projections ? 'q = x·Wq, k = x·Wk' : 'q = k = x'}).`,
      details: `max |scores − q·kᵀ computed in plain JS| = ${fmt(scoresError)} ≤ ${TOL.same}, with and without the mask`,
    },
    {
      name: 'steps-scaled-is-scores-over-sqrt-d',
      pass: scaleError <= TOL.same,
      claim: 'Step 2 divides every visible score by √D.',
      details: `D = ${runs[0].q.shape[1]}, max |scaled − scores/√D| = ${fmt(scaleError)} ≤ ${TOL.same}`,
    },
    {
      name: 'steps-weights-are-softmax',
      pass: softmaxError <= TOL.same && visiblePositive,
      claim: 'Step 3 is a softmax of each scaled row over the keys it may see (row maximum subtracted first).',
      details: `max |weights − softmax(scaled)| = ${fmt(softmaxError)} ≤ ${TOL.same}; every visible weight > 0: ${visiblePositive}`,
    },
    {
      name: 'steps-weights-rows-sum-to-one',
      pass: sumError <= TOL.same,
      claim: 'Every row of weights sums to 1, with and without the mask.',
      details: `${2 * T} rows, max |Σ weights − 1| = ${fmt(sumError)} (worst row sums to ${fmt(sumWorst, 17)}) ≤ ${TOL.same}`,
    },
    {
      name: 'steps-masked-weights-exactly-zero',
      pass: maskedCount === expectedMasked && maskedZero === maskedCount && maskedMinusInfinity === maskedCount && maskedOutsideCausal === 0,
      claim: 'Under the causal mask, every hidden entry is −∞ after scaling and exactly 0 as a weight (no large stand-in number).',
      details: `${maskedCount} hidden entries (T(T−1)/2 = ${expectedMasked}): ${maskedMinusInfinity} are −∞ scaled, ${maskedZero} are exactly 0 weights; unmasked: ${maskedOutsideCausal} −∞`,
    },
    {
      name: 'steps-output-is-weighted-sum',
      pass: outputError <= TOL.same,
      claim: 'Step 4: each output row is the weights-weighted sum of the value rows.',
      details: `max |output − Σ_j w_ij v_j| = ${fmt(outputError)} ≤ ${TOL.same}`,
    },
  ];
}

/**
 * A word that occurs twice has one lookup row, so without positions its two occurrences get the same scores,
 * weights and output, bit for bit; with positions added they differ. Runs on STEPS_SENTENCE ('the' at 0 and 3).
 */
export function repeatedWordCheck(so, table, { words = STEPS_SENTENCE, projections = false } = {}) {
  const first = words.findIndex((w, i) => words.indexOf(w, i + 1) > i);
  if (first < 0) throw new RangeError(`the sentence has no repeated word: ${words.join(' ')}`);
  const second = words.indexOf(words[first], first + 1);
  const gap = (positions) => {
    const s = fourSteps(so, table, { words, positions, projections });
    return Math.max(maxAbsDiff(row(s.weights, first), row(s.weights, second)), maxAbsDiff(row(s.output, first), row(s.output, second)));
  };
  const without = gap(false);
  const withPositions = gap(true);
  return {
    name: 'steps-repeated-word-needs-positions',
    pass: without === 0 && withPositions > TOL.different,
    claim: `Without positions, the two “${words[first]}” rows (${first} and ${second}) get the same weights and outputs; positions tell them apart.`,
    details: `max |row ${first} − row ${second}| over weights and output: ${fmt(without)} without positions (bit for bit), ${fmt(withPositions)} with`,
  };
}

/**
 * Why the weights crowd onto the diagonal when q = k = x: the score of a row with itself is its squared length
 * ‖x_i‖², and by Cauchy–Schwarz x_i·x_j ≤ ‖x_i‖‖x_j‖ ≤ ‖x_i‖² for every key no longer than x_i; the scores are
 * symmetric. With projections (q = x·Wq, k = x·Wk) neither holds: the diagonal is no longer special. Unmasked.
 */
export function diagonalCheck(so, table, { words = STEPS_SENTENCE, positions = true, projections = false } = {}) {
  const { x, scores, weights } = fourSteps(so, table, { words, positions, projections });
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
  const onDiagonal = Array.from({ length: T }, (_, i) => row(weights, i))
    .filter((w, i) => w.every((value) => value <= w[i])).length;
  const summary = `${onDiagonal} of ${T} rows weigh themselves most`;
  return projections ? {
    name: 'steps-diagonal',
    pass: asymmetry > TOL.different,
    claim: 'With projections Wq ≠ Wk, a query no longer meets itself as a key: the scores are not symmetric and the diagonal is not special.',
    details: `max |score_ij − score_ji| = ${fmt(asymmetry)} > ${TOL.different}; ${summary} (D = ${D})`,
  } : {
    name: 'steps-diagonal',
    pass: asymmetry <= TOL.same && selfError <= TOL.same && beaten === 0,
    claim: 'With q = k = x, each row’s own score is its squared length, which no shorter key can beat (Cauchy–Schwarz): hence the bright diagonal.',
    details: `score_ii = ‖x_i‖² within ${fmt(selfError)}; scores symmetric within ${fmt(asymmetry)}; keys no longer than ` +
      `the query that outscore it: ${beaten}; ${summary}`,
  };
}
