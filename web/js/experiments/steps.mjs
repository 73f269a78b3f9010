// Attention as the lesson's four visible steps, on a short sentence, and checks that each step is what it claims to
// be, recomputed here independently of the core:
//   1. scores  = q·kᵀ            (T, T)
//   2. scaled  = scores / √D      (T, T), masked entries −∞
//   3. weights = softmax per row  (T, T), rows sum to 1, masked entries exactly 0
//   4. output  = weights·v        (T, D)
// Pure: no DOM.
import { fmt, maxAbsDiff } from '../checks.mjs';
import { TOL, row, selfAttention, sentenceInput } from './sentence.mjs';

export const STEPS_SENTENCE = Object.freeze(['the', 'robot', 'follows', 'the', 'person']);

/** The four steps of self-attention over the sentence's input (lookup + positions). */
export function fourSteps(so, table, { words = STEPS_SENTENCE, causal = false, positions = true } = {}) {
  const x = sentenceInput(so, table, words, { positions });
  return { words, causal, x, ...selfAttention(so, x, { causal, steps: true }) };
}

/** Is entry (query i, key j) hidden by the causal mask (self-attention: queries sit at positions 0 … T−1)? */
const hidden = (causal, i, j) => causal && j > i;

/** Checks of the four steps, run on both the unmasked and the causal version of the sentence. */
export function stepChecks(so, table, { words = STEPS_SENTENCE, positions = true } = {}) {
  const runs = [false, true].map((causal) => fourSteps(so, table, { words, causal, positions }));
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
  for (const { x, scores, scaled, weights, output, causal } of runs) {
    const [T, D] = x.shape;
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
        for (let j = 0; j < T; j += 1) mixed += weights.data[i * T + j] * x.data[j * D + d];
        outputError = Math.max(outputError, Math.abs(output.data[i * D + d] - mixed));
      }
    }
  }
  const T = words.length;
  const expectedMasked = (T * (T - 1)) / 2;
  return [
    {
      name: 'steps-scaled-is-scores-over-sqrt-d',
      pass: scaleError <= TOL.same,
      claim: 'Step 2 divides every visible score by √D.',
      details: `D = ${runs[0].x.shape[1]}, max |scaled − scores/√D| = ${fmt(scaleError)} ≤ ${TOL.same}`,
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
      details: `${2 * T} rows, max |Σ weights − 1| = ${fmt(sumError)} (worst row sums to ${sumWorst.toPrecision(17)}) ≤ ${TOL.same}`,
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
export function repeatedWordCheck(so, table, { words = STEPS_SENTENCE } = {}) {
  const first = words.findIndex((w, i) => words.indexOf(w, i + 1) > i);
  if (first < 0) throw new RangeError(`the sentence has no repeated word: ${words.join(' ')}`);
  const second = words.indexOf(words[first], first + 1);
  const gap = (positions) => {
    const s = fourSteps(so, table, { words, positions });
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
