// The lesson's claims about order, as experiments on a sentence and a reordering of it. Each experiment returns what
// the page draws plus its checks: { name, pass, claim, details } with the numbers behind the verdict.
// Pure: no DOM; the page (web/js/sections/order-experiments.mjs) and tests/node/order-experiments.test.mjs run it.
//
// Notation: x (T, D) is a sentence's input, P a reordering (row i of P·x is row order[i] of x), attention(x) the
// unmasked self-attention of x with queries = keys = values = x.
import { fmt } from '../format.mjs';
import { maxAbsDiff } from './reference.mjs';
import { TOL, rowOf } from './common.mjs';
import { VOCAB, reorderRows, rowDiffs, selfAttention, sentenceInput } from './sentence.mjs';

/** The lesson's pair of sentences: the second is the first with its first and last words swapped. */
export const SENTENCE = Object.freeze(['robot', 'follows', 'person']);
export const SWAP = Object.freeze([2, 1, 0]);

/** Every reordering of three words except the identity (which changes nothing, so it tests nothing). */
export const REORDERINGS = Object.freeze([[2, 1, 0], [1, 0, 2], [0, 2, 1], [1, 2, 0], [2, 0, 1]].map(Object.freeze));

function checkOrder(words, order) {
  if (order.length !== words.length) throw new RangeError(`order has ${order.length} entries for ${words.length} words`);
  if (order.every((from, to) => from === to)) throw new RangeError('order must move at least one word');
}

/**
 * Without positions: attention(P·x) equals P·attention(x) (equivariant) and differs from attention(x) (not
 * invariant). Returns the outputs of both sentences, each word's output row in each, and two checks.
 */
export function reorderingExperiment(so, table, { words = SENTENCE, order = SWAP } = {}) {
  checkOrder(words, order);
  const reordered = order.map((i) => words[i]);
  const x = sentenceInput(so, table, words);
  const output = selfAttention(so, x);
  const reorderedOutput = selfAttention(so, sentenceInput(so, table, reordered));
  const followed = reorderRows(output, order);
  const equivariance = maxAbsDiff(reorderedOutput, followed);
  const change = maxAbsDiff(reorderedOutput, output);
  const moved = order.filter((from, to) => from !== to).length;
  return {
    words, reordered, order, output, reorderedOutput,
    checks: [
      {
        name: 'order-equivariant',
        pass: equivariance <= TOL.same,
        claim: `Without positions, the outputs move with the words: each word’s output row in “${reordered.join(' ')}” is its row from “${words.join(' ')}”, moved.`,
        details: `max |attention(P·x) − P·attention(x)| = ${fmt(equivariance)} ≤ ${TOL.same}`,
      },
      {
        name: 'order-not-invariant',
        pass: change > TOL.different,
        claim: 'Equivariant is not invariant: the output tensor itself changes, because its rows moved.',
        details: `max |attention(P·x) − attention(x)| = ${fmt(change)} > ${TOL.different} (${moved} of ${words.length} rows moved)`,
      },
    ],
  };
}

/**
 * With positions, two different experiments:
 *  - relabel: reorder the words, then add positions 0 … T−1 again: addPositions(P·e). Equivariance breaks.
 *  - pairs: move each (word, position) row together: P·addPositions(e). Attention stays equivariant.
 * e (T, D) is the lookup of the words without positions.
 */
export function positionsExperiment(so, table, { words = SENTENCE, order = SWAP } = {}) {
  checkOrder(words, order);
  const e = sentenceInput(so, table, words);
  const x = so.addPositions(e);
  const expected = reorderRows(selfAttention(so, x), order);
  const relabelInput = so.addPositions(reorderRows(e, order));
  const pairsInput = reorderRows(x, order);
  const relabel = selfAttention(so, relabelInput);
  const pairs = selfAttention(so, pairsInput);

  const broken = maxAbsDiff(relabel, expected);
  const kept = maxAbsDiff(pairs, expected);
  // Row i of both inputs holds the word order[i]; relabel gives it position i, pairs keeps its position order[i].
  const inputDiffs = rowDiffs(relabelInput, pairsInput);
  const stayed = order.map((from, to) => from === to);
  const stayedSame = inputDiffs.every((d, i) => !stayed[i] || d === 0);
  const movedDiffer = inputDiffs.every((d, i) => stayed[i] || d > TOL.different);
  const outputGap = maxAbsDiff(relabel, pairs);
  const rows = order.map((from, to) => ({
    word: words[from], row: to, relabelPosition: to, pairsPosition: from, inputDiff: inputDiffs[to],
  }));
  const shown = rows.map((r) => (r.relabelPosition !== r.pairsPosition
    ? `${r.word}: position ${r.relabelPosition} vs ${r.pairsPosition}, max |Δinput| = ${fmt(r.inputDiff)}`
    : `${r.word}: position ${r.relabelPosition} in both, max |Δinput| = ${fmt(r.inputDiff)}`));
  return {
    words, order, rows, relabel, pairs, expected,
    checks: [
      {
        name: 'order-positions-break-equivariance',
        pass: broken > TOL.different,
        claim: 'Reorder the words and number the positions from 0 again: the outputs are no longer the old ones moved.',
        details: `max |attention(addPositions(P·e)) − P·attention(addPositions(e))| = ${fmt(broken)} > ${TOL.different}`,
      },
      {
        name: 'order-pairs-equivariant',
        pass: kept <= TOL.same,
        claim: 'Move each (word, position) row as one piece instead: the outputs are the old ones moved, again.',
        details: `max |attention(P·addPositions(e)) − P·attention(addPositions(e))| = ${fmt(kept)} ≤ ${TOL.same}`,
      },
      {
        name: 'order-relabel-vs-pairs',
        pass: stayedSame && movedDiffer && outputGap > TOL.different,
        claim: 'The two are different experiments: same words in the same rows, but the moved words carry different positions, so inputs and outputs differ.',
        details: `${shown.join('; ')}; max |Δoutput| = ${fmt(outputGap)} > ${TOL.different}`,
      },
    ],
  };
}

/**
 * Causal masking: query i sees keys 0 … i only. The mask itself orders the rows, so a reordering no longer commutes
 * with attention (no positions are added, the mask alone does it); and a later word never changes an earlier
 * output: every word at every position j is replaced by every word of the vocabulary, and the outputs of rows
 * 0 … j−1 are compared bit for bit.
 */
export function causalExperiment(so, table, { words = SENTENCE, order = SWAP, vocab = VOCAB } = {}) {
  checkOrder(words, order);
  const x = sentenceInput(so, table, words);
  const output = selfAttention(so, x, { causal: true });
  const reorderedOutput = selfAttention(so, reorderRows(x, order), { causal: true });
  const followed = reorderRows(output, order);
  const commute = maxAbsDiff(reorderedOutput, followed);

  // influence[i·T + j]: the largest change of output row i over every replacement of word j (T × T, row-major;
  // with the mask, the cells right of the diagonal, i < j, must be exactly 0).
  const T = words.length;
  const influence = { causal: new Float64Array(T * T), unmasked: new Float64Array(T * T) };
  const unmasked = selfAttention(so, x);
  let replacements = 0;
  for (let j = 0; j < T; j += 1) {
    for (const word of vocab) {
      if (word === words[j]) continue;
      const y = sentenceInput(so, table, words.map((w, i) => (i === j ? word : w)));
      const causalDiffs = rowDiffs(selfAttention(so, y, { causal: true }), output);
      const unmaskedDiffs = rowDiffs(selfAttention(so, y), unmasked);
      for (let i = 0; i < T; i += 1) {
        influence.causal[i * T + j] = Math.max(influence.causal[i * T + j], causalDiffs[i]);
        influence.unmasked[i * T + j] = Math.max(influence.unmasked[i * T + j], unmaskedDiffs[i]);
      }
      if (j > 0) replacements += 1;
    }
  }
  // Rows before the replaced word: i < j.
  const earlier = (m) => Math.max(0, ...Array.from({ length: T * T }, (_, k) => (Math.floor(k / T) < k % T ? m[k] : 0)));
  const causalEarlier = earlier(influence.causal);
  const unmaskedEarlier = earlier(influence.unmasked);
  return {
    words, order, output, reorderedOutput, followed, replacements, causalEarlier, unmaskedEarlier, influence,
    checks: [
      {
        name: 'order-causal-not-equivariant',
        pass: commute > TOL.different,
        claim: 'With a causal mask, reordering the sentence no longer just reorders the outputs: the mask itself knows which row comes first.',
        details: `max |causal(P·x) − P·causal(x)| = ${fmt(commute)} > ${TOL.different}`,
      },
      {
        name: 'order-causal-later-never-changes-earlier',
        pass: causalEarlier === 0 && replacements > 0 && unmaskedEarlier > TOL.different,
        claim: 'With the mask, changing a later word never changes an earlier output, bit for bit (without it, it does).',
        details: `${replacements} replacements: max |Δ earlier rows| = ${fmt(causalEarlier)} with the mask, ${fmt(unmaskedEarlier)} without`,
      },
    ],
  };
}

/** max |value| of a drawn map's or tensor's data. */
const largest = (m) => maxAbsDiff(m.data, new Float64Array(m.data.length));

/** The largest cell right of the diagonal (row i < column j) of a drawn (T, T) map. */
function aboveDiagonal(map) {
  let max = 0;
  for (let i = 0; i < map.rows; i += 1) for (let j = i + 1; j < map.cols; j += 1) max = Math.max(max, Math.abs(map.data[i * map.cols + j]));
  return max;
}

/**
 * The sentences of the section's three parts, from the experiments at one reordering; each predicate reads what is
 * drawn: drawn.original and drawn.reordered (the outputs without positions), drawn.relabel and drawn.pairs (the
 * outputs with positions minus the original ones moved), drawn.causal (the same, causal), drawn.influenceCausal and
 * drawn.influenceUnmasked (each output row's change when each word is replaced).
 */
export function orderSentences({ plain, positions, causal, order, relabelGap, pairsGap, causalGap }) {
  const robotFrom = plain.words.indexOf('robot');
  const robotTo = order.indexOf(robotFrom);
  const moved = (drawn) => order.every((from, to) => maxAbsDiff(rowOf(drawn.reordered, to), rowOf(drawn.original, from)) <= TOL.same);
  const relabel = largest(relabelGap);
  const pairs = largest(pairsGap);
  const reordered = largest(causalGap);
  const unmaskedAbove = Math.max(...Array.from({ length: causal.words.length ** 2 }, (_, k) => {
    const T = causal.words.length;
    return Math.floor(k / T) < k % T ? causal.influence.unmasked[k] : 0;
  }));
  return {
    plain: [{
      name: 'order-rows-moved',
      text: `robot’s output row is the same in both maps (row ${robotFrom} on the left, row ${robotTo} on the right), and so ` +
        'is every other word’s: the outputs moved exactly as the words did.',
      holds: moved,
    }],
    positions: [{
      name: 'order-relabel-and-pairs',
      text: `Relabelling changes the outputs by up to ${fmt(relabel, 3)}; moving (word, position) pairs changes them by at most ` +
        `${fmt(pairs, 2)}, rounding, so its map is blank on purpose.`,
      holds: (drawn) => fmt(largest(drawn.relabel), 3) === fmt(relabel, 3) && relabel > TOL.different && largest(drawn.pairs) <= TOL.same,
    }],
    causal: [{
      name: 'order-causal-maps',
      text: `Even without positions, the masked outputs do not just move with the words: they differ from the original ones ` +
        `moved by up to ${fmt(reordered, 3)}. With the mask every cell right of the diagonal is exactly 0, a later word never ` +
        `changes an earlier output; without it such a change reaches ${fmt(unmaskedAbove, 3)}.`,
      holds: (drawn) => fmt(largest(drawn.causal), 3) === fmt(reordered, 3) && reordered > TOL.different &&
        aboveDiagonal(drawn.influenceCausal) === 0 && fmt(aboveDiagonal(drawn.influenceUnmasked), 3) === fmt(unmaskedAbove, 3),
    }],
  };
}
