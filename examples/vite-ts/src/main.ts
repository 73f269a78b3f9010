// A sentence's token vectors plus their positions, attending to each other: the weights as a heatmap, with a causal
// mask to toggle, and a live check that every row of weights sums to 1.
import { loadSeqorder, type Tensor } from 'seqorder';
import { fmt, heatmap } from 'seqorder/plot';
import { checkList, renderChecks } from 'seqorder/checks';

const words = ['the', 'robot', 'follows', 'the', 'person'];
const width = 16;

const so = await loadSeqorder();
// one random-looking vector per distinct word (a real model would have learned them)
const vocabulary = [...new Set(words)];
const table = { data: Float32Array.from({ length: vocabulary.length * width }, (_, i) => Math.sin(1.7 * i + 0.3)), shape: [vocabulary.length, width] };
const ids = { data: Int32Array.from(words, (w) => vocabulary.indexOf(w)), shape: [words.length] };
const x = so.addPositions(so.embed(table, ids));

const group = document.getElementById('weights') as HTMLElement;
const causal = document.getElementById('causal') as HTMLInputElement;
const map = heatmap(group, {
  data: [], rows: 0, cols: 0, scale: 'sequential', range: 1, rowLabel: 'query', colLabel: 'key',
  rowName: (r) => words[r], colName: (c) => words[c], ariaLabel: 'attention weights, a row per query word',
});
const checks = checkList(group);

/** The largest |row sum − 1| of a (T, T) matrix of weights. */
function worstRow(weights: Tensor<'float32'>): number {
  const [rows, cols] = weights.shape;
  let worst = 0;
  for (let r = 0; r < rows; r++) {
    let sum = 0;
    for (let c = 0; c < cols; c++) sum += weights.data[r * cols + c];
    worst = Math.max(worst, Math.abs(sum - 1));
  }
  return worst;
}

function show(): void {
  const { weights } = so.attention(x, x, x, { causal: causal.checked, steps: true });
  map.update({ data: weights.data, rows: words.length, cols: words.length });
  const worst = worstRow(weights);
  renderChecks(checks, [{
    name: 'rows-sum-to-1', pass: worst < 1e-6, claim: 'Each query spreads a weight of 1 over the keys',
    details: `largest |row sum − 1| over ${words.length} rows: ${fmt(worst)}`,
  }]);
  console.log('seqorder vite-ts', weights.shape.join('x'), causal.checked ? 'causal' : 'bidirectional', worst < 1e-6 ? 'pass' : 'fail');
}
causal.addEventListener('change', show);
show();
