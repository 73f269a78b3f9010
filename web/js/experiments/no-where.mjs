// Section "no-where": lesson 1's lookup gives each word its row wherever the word stands, so nothing in the rows says
// where. Returns what the section draws, its checks and its sentences. Pure: no DOM.
import { fmt } from '../format.mjs';
import { maxAbsDiff } from './reference.mjs';
import { rowOf, shapeText, sameShape } from './common.mjs';

/**
 * Lesson 1's lookup on "robot follows person" and "person follows robot".
 * @param so     the seqorder API
 * @param table  the lookup table, Tensor (V, D)
 * @param vocab  the words, index = token id
 * @returns {{ first: string[], second: string[], x1: Tensor, x2: Tensor, checks }}  x1, x2: (3, D)
 */
export function lookupHasNoWhere(so, table, vocab) {
  const first = ['robot', 'follows', 'person'];
  const second = ['person', 'follows', 'robot'];
  const ids = (words) => ({ data: Int32Array.from(words, (w) => vocab.indexOf(w)), shape: [words.length], dtype: 'int32' });
  const x1 = so.embed(table, ids(first));
  const x2 = so.embed(table, ids(second));
  const width = table.shape[1];
  const rowOf = (t, r) => t.data.subarray(r * width, (r + 1) * width);
  const tableRow = (word) => table.data.subarray(vocab.indexOf(word) * width, (vocab.indexOf(word) + 1) * width);

  const robotDiff = maxAbsDiff(rowOf(x1, 0), rowOf(x2, 2));
  let lookupDiff = 0;
  first.forEach((w, r) => { lookupDiff = Math.max(lookupDiff, maxAbsDiff(rowOf(x1, r), tableRow(w))); });
  // The second sentence's rows are the first's in reverse order.
  let reorderDiff = 0;
  for (let r = 0; r < 3; r += 1) reorderDiff = Math.max(reorderDiff, maxAbsDiff(rowOf(x2, r), rowOf(x1, 2 - r)));

  return {
    first, second, x1, x2,
    checks: [
      {
        name: 'no-where-lookup',
        claim: 'The lookup copies one table row per word',
        pass: lookupDiff === 0 && sameShape(x1.shape, [3, width]),
        details: `shape ${shapeText(x1.shape)}; max |row − table[id]| = ${fmt(lookupDiff)} (exactly equal)`,
      },
      {
        name: 'no-where-robot-same',
        claim: 'robot gets the identical vector whether it comes first or last',
        pass: robotDiff === 0,
        details: `max |robot in row 0 of sentence 1 − robot in row 2 of sentence 2| = ${fmt(robotDiff)} (exactly equal)`,
      },
      {
        name: 'no-where-only-reordered',
        claim: 'The second sentence’s vectors are the first’s, merely reordered: nothing in them says where',
        pass: reorderDiff === 0,
        details: `rows (0, 1, 2) of sentence 2 vs rows (2, 1, 0) of sentence 1: max |difference| = ${fmt(reorderDiff)}`,
      },
    ],
  };
}

/**
 * The section's sentence, from the two lookups (lookupHasNoWhere's result); its predicate reads the two maps drawn
 * (drawn.first, drawn.second: the rows of each sentence).
 */
export function noWhereSentences({ first, second, x1, x2 }) {
  const a = first.indexOf('robot');
  const b = second.indexOf('robot');
  const same = maxAbsDiff(rowOf(x1, a), rowOf(x2, b)) === 0;
  return [{
    name: 'no-where-robot-row',
    text: same
      ? `The robot row is the same in both maps, bit for bit (row ${a} of the first, row ${b} of the second): nothing in it says where robot stands.`
      : `The robot rows differ between the maps (row ${a} of the first, row ${b} of the second).`,
    holds: (drawn) => (maxAbsDiff(rowOf(drawn.first, a), rowOf(drawn.second, b)) === 0) === same,
  }];
}
