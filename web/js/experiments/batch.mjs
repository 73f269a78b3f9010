// The tensor the lesson carries forward: a batch of B sentences of T tokens each, token ids (B, T) → lookup
// (B, T, D) → + positions (B, T, D) → attention (B, T, D). Checked against plain JS: every sentence of the batch gets
// the same position rows 0 … T−1, and attention treats each sentence on its own.
// Pure: no DOM.
import { fmt, plural, subscript } from '../format.mjs';
import { attentionFormula, maxAbsDiff, positionsFormula } from './reference.mjs';
import { TOL } from './common.mjs';
import { VOCAB, tokenIds } from './sentence.mjs';

/** The batch's sentences (the first B of them, each cut to its first T words). */
const BATCH_SENTENCES = Object.freeze([
  'the robot follows the person and',
  'a person sees the robot and',
  'the robot lifts a box and',
  'a box follows the person and',
].map((s) => Object.freeze(s.split(' '))));

export const MAX_BATCH = BATCH_SENTENCES.length;
export const MAX_LENGTH = Math.min(...BATCH_SENTENCES.map((s) => s.length));

/** Sentence b of a (B, T, D) tensor as a (T, D) tensor (a view). */
export function item(t, b) {
  const [, T, D] = t.shape;
  return { data: t.data.subarray(b * T * D, (b + 1) * T * D), shape: [T, D], dtype: t.dtype };
}

const shapeText = (shape) => `(${shape.join(', ')})`;

/**
 * B sentences of T words through lookup, positions and unmasked self-attention (q = k = v = x), as one batch.
 * @returns {{ sentences: string[][], ids, e, x, output, checks }}  ids (B, T); e, x, output (B, T, D)
 */
export function batchExperiment(so, table, { batch = 3, length = 5 } = {}) {
  if (!(Number.isInteger(batch) && batch >= 1 && batch <= MAX_BATCH)) throw new RangeError(`batch must be 1..${MAX_BATCH}, got ${batch}`);
  if (!(Number.isInteger(length) && length >= 1 && length <= MAX_LENGTH)) throw new RangeError(`length must be 1..${MAX_LENGTH}, got ${length}`);
  const sentences = BATCH_SENTENCES.slice(0, batch).map((s) => s.slice(0, length));
  const ids = { ...tokenIds(sentences.flat(), VOCAB), shape: [batch, length] };
  const e = so.embed(table, ids);
  const x = so.addPositions(e);
  const output = so.attention(x, x, x);
  const D = table.shape[1];

  const want = [batch, length, D];
  const shapes = [e, x, output].map((t) => t.shape);
  const shapesOk = shapes.every((s) => s.length === 3 && s.every((n, i) => n === want[i]));

  // x − e, sentence by sentence, against the formula's rows 0 … T−1.
  const p = positionsFormula(length, D);
  const positionError = Math.max(...sentences.map((_, b) => maxAbsDiff(item(x, b).data.map((v, k) => v - item(e, b).data[k]), p)));
  // Each sentence's output against attention written out for that sentence alone.
  const alone = sentences.map((_, b) => maxAbsDiff(item(output, b), attentionFormula(item(x, b), item(x, b), item(x, b))));
  const aloneError = Math.max(...alone);
  return {
    sentences, ids, e, x, output,
    checks: [
      {
        name: 'batch-shape',
        pass: shapesOk && ids.shape[0] === batch,
        claim: `ids (${batch}, ${length}) become a (B, T, D) = ${shapeText(want)} tensor, through attention too`,
        details: `lookup ${shapeText(shapes[0])}, + positions ${shapeText(shapes[1])}, attention output ${shapeText(shapes[2])}`,
      },
      {
        name: 'batch-same-positions',
        pass: positionError <= TOL.same,
        claim: `Every sentence gets the same position rows p_0 … p_${length - 1}`,
        details: `max over the ${batch} sentences of |(x − lookup) − formula rows 0 … ${length - 1}| = ${fmt(positionError)} ≤ ${TOL.same}`,
      },
      {
        name: 'batch-sentences-apart',
        pass: aloneError <= TOL.same,
        claim: 'Attention treats each sentence of the batch on its own',
        details: `max |batch output − plain-JS attention of each sentence alone| = ${alone.map((d) => fmt(d)).join(', ')} (each ≤ ${TOL.same})`,
      },
    ],
  };
}

/**
 * The sentence under the batch (batchExperiment's result r); its predicate reads what is drawn (drawn.ids: the ids
 * table, a row per sentence of "word id" cells; drawn.inputs: a map per sentence of its (T, D) input rows), and checks
 * each drawn map against the lookup table's rows of the drawn ids plus the formula's rows 0 … T−1.
 */
export function batchSentences(r, table) {
  const [B, T, D] = r.x.shape;
  const p = positionsFormula(T, D).data;
  return [{
    name: 'batch-one-tensor',
    text: `${plural(B, 'sentence')} of ${plural(T, 'token')} ${B === 1 ? 'makes' : 'make'} one (${B}, ${T}, ${D}) tensor, and ` +
      `${B === 1 ? 'the sentence gets' : 'each sentence gets the same'} position ${T === 1 ? 'row p₀' : `rows ${T === 2 ? 'p₀ and p₁' : `p₀ … p${subscript(T - 1)}`}`} ` +
      `added to its lookup rows.`,
    holds: (drawn) => {
      const maps = drawn.inputs.maps;
      if (maps.length !== B || drawn.ids.rows.length !== B) return false;
      return maps.every((map, b) => {
        if (map.rows !== T || map.cols !== D) return false;
        const ids = drawn.ids.rows[b].slice(1).map((cell) => Number(cell.split(' ').at(-1)));
        const expected = ids.flatMap((id, t) => Array.from({ length: D }, (_, d) => table.data[id * D + d] + p[t * D + d]));
        return maxAbsDiff(map.data, expected) <= TOL.same;
      });
    },
  }];
}
