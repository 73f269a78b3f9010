// Sentences for the order experiments: a tiny vocabulary, lesson 1's lookup table (seeded, so every reader and every
// test sees the same numbers), and the few row operations the experiments need (reorder, slice, stack, compare).
// Pure: no DOM, runs in node and in the browser against the seqorder API `so`.
import { maxAbsDiff } from './reference.mjs';

/** Model width D of the experiments: four sine/cosine pairs, as in the lesson's examples. */
export const WIDTH = 8;

/** The vocabulary; a word's index is its token id. */
export const VOCAB = Object.freeze(['the', 'robot', 'follows', 'person', 'sees', 'a', 'box', 'and', 'lifts', 'it']);

/** Seed of the lookup table. */
export const SEED = 20240611;

/** A small deterministic generator (mulberry32): returns uniform numbers in [0, 1). */
export function uniformGenerator(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Lesson 1's lookup table: one row of D features per word, standard normal entries (Box–Muller on the seeded
 * generator). Returns a float64 Tensor (V, D).
 */
export function vocabularyTable({ width = WIDTH, seed = SEED, vocab = VOCAB } = {}) {
  const uniform = uniformGenerator(seed);
  const data = new Float64Array(vocab.length * width);
  for (let i = 0; i < data.length; i += 2) {
    const radius = Math.sqrt(-2 * Math.log(1 - uniform()));
    const angle = 2 * Math.PI * uniform();
    data[i] = radius * Math.cos(angle);
    if (i + 1 < data.length) data[i + 1] = radius * Math.sin(angle);
  }
  return { data, shape: [vocab.length, width], dtype: 'float64' };
}

/** Words → int32 ids (T). Throws a RangeError naming an unknown word. */
export function tokenIds(words, vocab = VOCAB) {
  const ids = new Int32Array(words.length);
  words.forEach((word, i) => {
    const id = vocab.indexOf(word);
    if (id < 0) throw new RangeError(`word ${i} ('${word}') is not in the vocabulary: ${vocab.join(', ')}`);
    ids[i] = id;
  });
  return { data: ids, shape: [words.length], dtype: 'int32' };
}

/**
 * The model input of a sentence: the lookup rows (T, D), plus the sinusoidal positions start … start+T−1 when
 * `positions` is true.
 */
export function sentenceInput(so, table, words, { positions = false, start = 0 } = {}) {
  const x = so.embed(table, tokenIds(words));
  return positions ? so.addPositions(x, { start }) : x;
}

/** Self-attention with no learned projections yet: queries, keys and values are the input rows themselves. */
export function selfAttention(so, x, options = {}) {
  return so.attention(x, x, x, options);
}

/** Row i of the result is row order[i] of t (T, D) → (T, D). `order` must be a permutation of 0 … T−1. */
export function reorderRows(t, order) {
  const [rows, width] = t.shape;
  if (order.length !== rows || [...order].sort((a, b) => a - b).some((r, i) => r !== i))
    throw new RangeError(`order must be a permutation of 0..${rows - 1}, got [${order}]`);
  const data = new t.data.constructor(t.data.length);
  order.forEach((from, to) => data.set(t.data.subarray(from * width, (from + 1) * width), to * width));
  return { data, shape: [rows, width], dtype: t.dtype };
}

/** Rows from … to−1 of t (T, D) → (to − from, D), copied. */
export function sliceRows(t, from, to) {
  const width = t.shape[1];
  return { data: t.data.slice(from * width, to * width), shape: [to - from, width], dtype: t.dtype };
}

/** Row r of t (T, D) as an array (a view). */
export function row(t, r) {
  const width = t.shape[t.shape.length - 1];
  return t.data.subarray(r * width, (r + 1) * width);
}

/** a (Ta, D) stacked over b (Tb, D) → (Ta + Tb, D). */
export function stackRows(a, b) {
  if (a.shape[1] !== b.shape[1]) throw new RangeError(`cannot stack rows of width ${a.shape[1]} and ${b.shape[1]}`);
  const data = new a.data.constructor(a.data.length + b.data.length);
  data.set(a.data, 0);
  data.set(b.data, a.data.length);
  return { data, shape: [a.shape[0] + b.shape[0], a.shape[1]], dtype: a.dtype };
}

/** Per-row max |a − b| of two (T, D) tensors → number[T]. */
export function rowDiffs(a, b) {
  return Array.from({ length: a.shape[0] }, (_, r) => maxAbsDiff(row(a, r), row(b, r)));
}

