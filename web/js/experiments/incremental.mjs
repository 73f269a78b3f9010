// Incremental generation: a prefix has been processed already and its keys/values are kept (the cache); new words
// arrive and only they are processed. Two offsets must be right:
//   - positions: the new words sit at positions p, p+1, … (addPositions start = p), not 0, 1, …
//   - attention: the new queries are the last rows of the keys (queryStart = p = Tk − Tq, the API's default), not
//     the first ones (queryStart = 0, top-left alignment).
// The reference is recomputing the whole sentence with a causal mask and keeping its last rows.
// (No learned projections yet: keys and values are the input rows themselves, so the cache holds the prefix's inputs.)
// Pure: no DOM.
import { fmt } from '../format.mjs';
import { maxAbsDiff } from './reference.mjs';
import { TOL } from './common.mjs';
import { rowDiffs, sliceRows, stackRows, selfAttention, sentenceInput } from './sentence.mjs';

export const INCREMENTAL_TEXT = Object.freeze(
  'the robot sees a box and lifts it and the person follows the robot and sees it'.split(' '));
export const DEFAULT_PREFIX = 10;
export const DEFAULT_NEW = 2;

/**
 * words: the whole sentence so far; prefix p: how many of them are cached (1 … T−1). Returns the full recompute's
 * last rows, the cached result and the two mistakes, with per-new-word differences and three checks.
 */
export function incrementalExperiment(so, table, { words = INCREMENTAL_TEXT.slice(0, DEFAULT_PREFIX + DEFAULT_NEW), prefix = DEFAULT_PREFIX } = {}) {
  const T = words.length;
  if (!Number.isInteger(prefix) || prefix < 1 || prefix >= T)
    throw new RangeError(`prefix must be an integer in 1..${T - 1} (at least one cached and one new word), got ${prefix}`);
  const fresh = words.slice(prefix);

  // Reference: the whole sentence, positions 0 … T−1, causal; rows p … T−1 are the new words' outputs.
  const full = sliceRows(selfAttention(so, sentenceInput(so, table, words, { positions: true }), { causal: true }), prefix, T);

  // The cache: the prefix's inputs (positions 0 … p−1), computed when the prefix was processed.
  const cache = sentenceInput(so, table, words.slice(0, prefix), { positions: true });

  // Right: new words at positions p …, queries aligned to the last key rows.
  const newInput = sentenceInput(so, table, fresh, { positions: true, start: prefix });
  const keys = stackRows(cache, newInput);
  const cachedSteps = so.attention(newInput, keys, keys, { causal: true, queryStart: prefix, steps: true });
  const cached = cachedSteps.output;

  // The API's default alignment (queryStart left out) is Tk − Tq = p: the same call.
  const byDefault = so.attention(newInput, keys, keys, { causal: true });

  // Mistake 1: positions of the new words restarted at 0.
  const restartInput = sentenceInput(so, table, fresh, { positions: true, start: 0 });
  const restartKeys = stackRows(cache, restartInput);
  const restarted = so.attention(restartInput, restartKeys, restartKeys, { causal: true, queryStart: prefix });

  // Mistake 2: right positions, but the queries aligned top-left (as if they were the first rows).
  const topLeftSteps = so.attention(newInput, keys, keys, { causal: true, queryStart: 0, steps: true });
  const topLeft = topLeftSteps.output;

  const cachedError = maxAbsDiff(cached, full);
  const defaultGap = maxAbsDiff(byDefault, cached);
  const restartError = maxAbsDiff(restarted, full);
  const topLeftError = maxAbsDiff(topLeft, full);
  const [cachedRows, restartedRows, topLeftRows] = [cached, restarted, topLeft].map((t) => rowDiffs(t, full));
  const rows = fresh.map((word, i) => ({
    word,
    position: prefix + i,
    cached: cachedRows[i],
    restarted: restartedRows[i],
    topLeft: topLeftRows[i],
    topLeftSees: i + 1, // keys 0 … i under queryStart 0, instead of 0 … p+i
  }));
  const n = fresh.length;
  // Keys each new word sees, from its weights (a hidden key weighs exactly 0): under queryStart = 0 new word i sees
  // keys 0 … i instead of 0 … p + i.
  const seen = (w) => Array.from({ length: n }, (_, i) => w.data.subarray(i * T, (i + 1) * T).filter((v) => v > 0).length);
  const seenRight = seen(cachedSteps.weights);
  const seenTopLeft = seen(topLeftSteps.weights);
  const lost = seenRight.map((k, i) => k - seenTopLeft[i]);
  const keysText = (i) => `${seenTopLeft[i]} of the ${seenRight[i]}`;
  return {
    words, prefix, rows, full, cached, restarted, topLeft,
    weights: { cached: cachedSteps.weights, topLeft: topLeftSteps.weights }, // (Tq, Tk) each
    checks: [
      {
        name: 'incremental-cached-equals-full',
        pass: cachedError <= TOL.same,
        claim: `Processing only the ${n} new word${n === 1 ? '' : 's'} against the cached prefix, with start = ${prefix} and queryStart = ${prefix}, gives the full recompute’s outputs.`,
        details: `max |cached − full| = ${fmt(cachedError)} ≤ ${TOL.same} (prefix ${prefix}, Tq = ${n}, Tk = ${T})`,
      },
      {
        name: 'incremental-default-query-start',
        pass: defaultGap === 0,
        claim: 'Leaving queryStart out gives the same alignment: its default is Tk − Tq, the queries are the last rows.',
        details: `Tk − Tq = ${T} − ${n} = ${prefix}; max |default − queryStart ${prefix}| = ${fmt(defaultGap)} (bit for bit)`,
      },
      {
        name: 'incremental-restart-at-zero-differs',
        pass: restartError > TOL.different,
        claim: 'Numbering the new words from position 0 again gives other outputs.',
        details: `start = 0 instead of ${prefix}: max |restarted − full| = ${fmt(restartError)} > ${TOL.different}`,
      },
      {
        name: 'incremental-top-left-differs',
        pass: topLeftError > TOL.different && lost.every((k) => k === prefix) && seenRight.every((k, i) => k === prefix + i + 1),
        claim: `Aligning the new queries with the first keys (queryStart = 0, top-left) hides ${prefix} key${prefix === 1 ? '' : 's'} ` +
          `from each new word (${n === 1 ? `it sees ${keysText(0)} keys` : `the first sees ${keysText(0)} keys it should, the last ${keysText(n - 1)}`}) and gives other outputs.`,
        details: `queryStart = 0 instead of ${prefix}: keys seen ${seenTopLeft.join(', ')} instead of ${seenRight.join(', ')}; ` +
          `max |top-left − full| = ${fmt(topLeftError)} > ${TOL.different}`,
      },
    ],
  };
}

/**
 * The sentence under the table (incrementalExperiment's result r); its predicate reads the table drawn (drawn.rows:
 * each new word with |cached − full|, |start 0 − full|, |queryStart 0 − full|).
 */
export function incrementalSentences(r) {
  const n = r.rows.length;
  return [{
    name: 'incremental-match',
    text: `With start = ${r.prefix} and queryStart = ${r.prefix}, the ${n === 1 ? 'new word matches' : `${n} new words match`} ` +
      `the full recompute (third column); numbering ${n === 1 ? 'it' : 'them'} from 0 (fourth) or aligning ` +
      `${n === 1 ? 'its query' : 'their queries'} top-left (fifth) does not.`,
    holds: (drawn) => drawn.rows.rows.length === n && drawn.rows.rows.every((row) => row[2] <= TOL.same && row[3] > TOL.different && row[4] > TOL.different),
  }];
}
