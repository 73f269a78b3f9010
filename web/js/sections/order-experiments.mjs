// Section "order-experiments": what attention does when a sentence is reordered, without positions, with positions
// (two different experiments) and with a causal mask. The experiments are web/js/experiments/order.mjs; this module
// only draws them and their checks.
import { checkList } from '../checks.mjs';
import { heatmap, formatValue } from '../plot.mjs';
import { el, perFrame, prose } from '../ui.mjs';
import { vocabularyTable } from '../experiments/sentence.mjs';
import {
  REORDERINGS, SENTENCE, SWAP, causalExperiment, positionsExperiment, reorderingExperiment,
} from '../experiments/order.mjs';
import {
  difference, figure, renderChecks, rowsHeatmap, selectControl, sharedRange,
} from '../order-view.mjs';

const sentenceText = (order) => order.map((i) => SENTENCE[i]).join(' ');

/** Runs the three experiments for one reordering, plus what the maps draw. */
function runAll(so, table, order) {
  const plain = reorderingExperiment(so, table, { order });
  const positions = positionsExperiment(so, table, { order });
  const causal = causalExperiment(so, table, { order });
  const T = SENTENCE.length;
  // The two influence maps share one color range: the largest change off the diagonal (a word's change of its own
  // row is much larger and saturates the color; hovering shows every exact value).
  let influenceRange = 1e-12;
  for (let k = 0; k < T * T; k += 1) {
    if (Math.floor(k / T) !== k % T) influenceRange = Math.max(influenceRange, causal.influence.unmasked[k], causal.influence.causal[k]);
  }
  return {
    reordered: plain.reordered,
    plain,
    positions,
    causal,
    relabelGap: difference(positions.relabel, positions.expected),
    pairsGap: difference(positions.pairs, positions.expected),
    causalGap: difference(causal.reorderedOutput, causal.followed),
    influenceRange,
  };
}

export async function run(so, root) {
  const table = vocabularyTable();
  const T = SENTENCE.length;
  let r = runAll(so, table, SWAP);

  prose(root,
    'The lookup hands <em>robot</em> the same row wherever it stands. Attention is the first step in which rows look at one another, so it is where order could begin to matter. It runs here in its plainest form: no learned projections yet, so every input row is its own query, key and value (the next section takes the computation apart).',
    `Start from <q>${SENTENCE.join(' ')}</q> and choose how to reorder it. The reading <q>${sentenceText(SWAP)}</q> swaps who follows whom; the other orders are there to show that the verdicts do not depend on the choice.`);
  const controls = el('div', { className: 'controls' });
  root.append(controls);
  const rerun = perFrame((order) => {
    r = runAll(so, table, order);
    render();
  });
  controls.append(selectControl({
    id: 'order-reordering',
    label: 'Reordered sentence',
    options: REORDERINGS.map((o) => ({ value: o.join(','), label: sentenceText(o) })),
    value: SWAP.join(','),
    onChange: (value) => rerun(value.split(',').map(Number)),
    hint: `P moves the rows: row i of the new sentence is row order[i] of “${SENTENCE.join(' ')}”.`,
  }));

  // 1. No positions.
  prose(root,
    '<h3>Without positions: the outputs move with the words</h3>',
    'Each word’s output row comes back unchanged, only in its new place: the outputs moved exactly as the words did. That is what <em>equivariant</em> means. The output tensor as a whole is not the same, because its rows moved, so attention is not <em>invariant</em> either. What it cannot do is tell one order from the other: robot gets the same output whether it leads or trails.');
  const plainRow = el('div', { className: 'plot-row' });
  root.append(plainRow);
  const outputRange = sharedRange([r.plain.output.data]);
  rowsHeatmap(plainRow, { tensor: r.plain.output, words: SENTENCE, range: outputRange, title: `attention(x), x = “${SENTENCE.join(' ')}”` });
  const plainB = rowsHeatmap(plainRow, { tensor: r.plain.reorderedOutput, words: r.reordered, range: outputRange, title: '' });
  const plainChecks = checkList(root);

  // 2. Positions: relabel vs move pairs.
  prose(root,
    '<h3>With positions: two experiments that sound alike</h3>',
    'Once position vectors are added, “reorder the sentence” can mean two things. <strong>Relabel</strong>: put the words in their new order and number the positions from 0 again, which is what reading the new sentence means. <strong>Move pairs</strong>: take each row, a word together with the position it already carries, and move it whole; robot then keeps position 0 even as the last row.');
  const pairsTable = el('table', { className: 'numbers order-pairs' });
  root.append(el('div', { className: 'table-scroll', tabIndex: 0, 'aria-label': 'positions each word carries in the two experiments' }, pairsTable));
  prose(root, 'Both maps show how far the outputs land from the original outputs merely reordered, P·attention(x), on one color scale. Relabelled, the words meet a new sentence and the outputs change. Moved as pairs, what is left is rounding: attention still has no sense of order of its own, and the positions just travel with their words.');
  const posRow = el('div', { className: 'plot-row' });
  root.append(posRow);
  const relabelMap = rowsHeatmap(posRow, { tensor: r.relabelGap, words: r.reordered, title: 'relabel: attention(addPositions(P·e)) − P·attention(x)' });
  const pairsMap = rowsHeatmap(posRow, { tensor: r.pairsGap, words: r.reordered, title: 'move pairs: attention(P·x) − P·attention(x)' });
  const posChecks = checkList(root);

  // 3. Causal mask.
  prose(root,
    '<h3>With a causal mask: the mask itself is an order</h3>',
    'A causal mask lets each row see only itself and the rows above it. That rule is about order, so the mask brings order in by itself, with no position vectors at all: after a reordering, the outputs are no longer the old ones moved.');
  const causalGapMap = rowsHeatmap(root, { tensor: r.causalGap, words: r.reordered, title: 'causal, no positions: attention(P·x) − P·attention(x)' });
  prose(root, 'The mask also promises that no word can reach back and change an output before it. To test that, each word is replaced in turn by every other word of the vocabulary, and each cell holds the largest change of one output row (down) caused by one replaced word (across). With the mask, every cell right of the diagonal stays exactly 0; without it, every word moves every row.');
  const influenceRow = el('div', { className: 'plot-row' });
  root.append(influenceRow);
  const influenceMaps = ['causal', 'unmasked'].map((kind) => {
    const title = `${kind === 'causal' ? 'with' : 'without'} the mask: max |Δ output row|`;
    return heatmap(figure(influenceRow, title), {
      data: r.causal.influence[kind], rows: T, cols: T, scale: 'sequential', range: r.influenceRange,
      rowLabel: '', colLabel: 'replaced word', rowName: (i) => SENTENCE[i], colName: (j) => SENTENCE[j],
      minHeight: 32 * T, maxHeight: 40 * T,
      tooltip: (i, j, v) => `output row ${i} (${SENTENCE[i]}) when word ${j} (${SENTENCE[j]}) is replaced: max |Δ| = ${v === 0 ? '0 exactly' : formatValue(v)}`,
      ariaLabel: `largest change of each output row when each word is replaced, ${kind === 'causal' ? 'with' : 'without'} the causal mask`,
    });
  });
  root.append(el('p', { className: 'note' }, 'Color saturates at the largest change off the diagonal; a word changes its own row far more.'));
  const causalChecks = checkList(root);

  function render() {
    plainB.show(r.plain.reorderedOutput, r.reordered, `attention(P·x), P·x = “${r.reordered.join(' ')}”`);
    renderChecks(plainChecks, r.plain.checks);

    pairsTable.replaceChildren(
      el('tr', {}, ['row', 'word', 'position, relabelled', 'position, pairs moved', 'max |Δ input|']
        .map((h) => el('th', { scope: 'col' }, h))),
      ...r.positions.rows.map((row) => el('tr', {},
        el('td', {}, String(row.row)), el('td', {}, row.word),
        el('td', {}, String(row.relabelPosition)),
        el('td', { className: row.pairsPosition !== row.relabelPosition ? 'diff' : '' }, String(row.pairsPosition)),
        el('td', {}, formatValue(row.inputDiff)))));
    const gapRange = sharedRange([r.relabelGap.data, r.pairsGap.data]);
    relabelMap.show(r.relabelGap, r.reordered, undefined, gapRange);
    pairsMap.show(r.pairsGap, r.reordered, undefined, gapRange);
    renderChecks(posChecks, r.positions.checks);

    causalGapMap.show(r.causalGap, r.reordered, undefined, sharedRange([r.causalGap.data]));
    influenceMaps[0].update({ data: r.causal.influence.causal, range: r.influenceRange });
    influenceMaps[1].update({ data: r.causal.influence.unmasked, range: r.influenceRange });
    renderChecks(causalChecks, r.causal.checks);
  }
  render();
}
