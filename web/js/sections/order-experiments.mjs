// Section "order-experiments": what attention does when a sentence is reordered, without positions, with positions
// (two different experiments) and with a causal mask. The experiments are experiments/order-experiments.mjs; this module draws
// them and their checks.
import { controlGroup, settingControl } from '../controls.mjs';
import { fmt } from '../format.mjs';
import { renderChecks } from '../../lib/figures/checks.mjs';
import { heatmap } from '../../lib/figures/plot/index.mjs';
import { checkList, el, fig, more, notice, numbersTable, perFrame, prose, titledBlock } from '../ui.mjs';
import { vocabularyTable } from '../experiments/sentence.mjs';
import { maxAbsDiff } from '../experiments/reference.mjs';
import {
  REORDERINGS, SENTENCE, SWAP, causalExperiment, orderSentences, positionsExperiment, reorderingExperiment,
} from '../experiments/order-experiments.mjs';
import { drawnPlot } from '../drawn.mjs';
import { say } from '../claims.mjs';
import { difference, rowsHeatmap, sharedRange } from '../order-view.mjs';
import { declareSettings } from '../settings.mjs';

const sentenceText = (order) => order.map((i) => SENTENCE[i]).join(' ');

export const settings = declareSettings({
  reordering: {
    kind: 'select', id: 'order-reordering', label: 'Reordered sentence', default: SWAP.join(','),
    options: REORDERINGS.map((o) => ({ value: o.join(','), label: sentenceText(o) })),
    hint: `P moves the rows: row i of the new sentence is row order[i] of “${SENTENCE.join(' ')}”.`,
  },
});

/** Runs the three experiments for one reordering, plus what the maps draw. */
function runAll(so, table, order) {
  const plain = reorderingExperiment(so, table, { order });
  const positions = positionsExperiment(so, table, { order });
  const causal = causalExperiment(so, table, { order });
  const T = SENTENCE.length;
  // The two influence maps share one color range: the largest change off the diagonal (a word's change of its own
  // row is much larger and saturates the color; the readout shows every exact value).
  let influenceRange = 1e-12;
  for (let k = 0; k < T * T; k += 1) {
    if (Math.floor(k / T) !== k % T) influenceRange = Math.max(influenceRange, causal.influence.unmasked[k], causal.influence.causal[k]);
  }
  return {
    order, reordered: plain.reordered, plain, positions, causal, influenceRange,
    relabelGap: difference(positions.relabel, positions.expected),
    pairsGap: difference(positions.pairs, positions.expected),
    causalGap: difference(causal.reorderedOutput, causal.followed),
  };
}

/** A sub-part of the section's figure: a heading, then what the caller appends. */
function part(f, title) {
  const block = el('div', { className: 'part' }, el('h3', {}, title));
  f.append(block);
  return block;
}

export async function run(so, root, settings) {
  const table = vocabularyTable();
  const T = SENTENCE.length;
  const orderOf = (value) => value.split(',').map(Number);
  let r = runAll(so, table, orderOf(settings.values.reordering));

  prose(root,
    'Attention is the first step in which rows look at one another. Here it runs in its plainest form, every input row ' +
    `its own query, key and value. Start from “${SENTENCE.join(' ')}” and reorder it.`);
  const f = fig(root);
  const group = controlGroup(f, 'the reordering');
  const rerun = perFrame((order) => {
    r = runAll(so, table, order);
    render();
  });
  settingControl(group, settings, 'reordering', { onChange: (value) => rerun(orderOf(value)) });

  // 1. No positions.
  const plainPart = part(f, 'Without positions: the outputs move with the words');
  const plainRow = el('div', { className: 'plot-row' });
  plainPart.append(plainRow);
  const outputRange = sharedRange([r.plain.output.data]);
  drawnPlot('original', rowsHeatmap(plainRow, { tensor: r.plain.output, words: SENTENCE, range: outputRange, title: `attention(x), x = “${SENTENCE.join(' ')}”` }).plot);
  const plainB = rowsHeatmap(plainRow, { tensor: r.plain.reorderedOutput, words: r.reordered, range: outputRange, title: 'attention(P·x)' });
  drawnPlot('reordered', plainB.plot);
  const plainLine = notice(plainPart, '');
  more(plainPart, 'Equivariant, not invariant',
    'Each word’s output row comes back unchanged, only in its new place: the outputs follow the reordering ' +
    '(<em>equivariance</em>). The output tensor is not the same, because its rows moved, so attention is not ' +
    '<em>invariant</em>. What it cannot do is tell one order from the other.');
  const plainChecks = checkList(plainPart);

  // 2. Positions: relabel vs move pairs.
  const posPart = part(f, 'With positions: two experiments that sound alike');
  const pairsTable = numbersTable(posPart, { caption: 'the position each word carries in the two experiments', format: (v) => fmt(v, 3) });
  const posRow = el('div', { className: 'plot-row' });
  posPart.append(posRow);
  const relabelMap = rowsHeatmap(posRow, { tensor: r.relabelGap, words: r.reordered, title: 'relabel: attention(addPositions(P·e)) − P·attention(x)' });
  const pairsMap = rowsHeatmap(posRow, { tensor: r.pairsGap, words: r.reordered, title: 'move pairs: attention(P·x) − P·attention(x)' });
  drawnPlot('relabel', relabelMap.plot);
  drawnPlot('pairs', pairsMap.plot);
  prose(posPart, 'Here <var>x</var> = addPositions(<var>e</var>), <var>e</var> the words’ lookup. ' +
    '<strong>Relabel</strong>: reorder, then number the positions from 0 again. <strong>Move pairs</strong>: each word ' +
    'keeps its position.');
  const posLine = notice(posPart, '');
  more(posPart, 'Two experiments',
    'Once positions are added, “reorder the sentence” can mean two things. Relabelling gives each word the position ' +
    'of its new place: that is reading a new sentence, and the words meet other positions. Moving whole (word, position) ' +
    'pairs keeps each association: attention still has no order of its own, and the positions just travel with their ' +
    'words. Both maps show the outputs minus the original outputs merely reordered, P·attention(x), on one color scale.');
  const posChecks = checkList(posPart);

  // 3. Causal mask.
  const causalPart = part(f, 'With a causal mask: the mask itself is an order');
  const causalGapMap = rowsHeatmap(causalPart, { tensor: r.causalGap, words: r.reordered, title: 'causal, no positions: attention(P·x) − P·attention(x)' });
  drawnPlot('causal', causalGapMap.plot);
  const influenceRow = el('div', { className: 'plot-row' });
  causalPart.append(influenceRow);
  const influenceMaps = ['causal', 'unmasked'].map((kind) => drawnPlot(kind === 'causal' ? 'influenceCausal' : 'influenceUnmasked', heatmap(titledBlock(influenceRow, `${kind === 'causal' ? 'with' : 'without'} the mask: max |Δ output row|`), {
    data: r.causal.influence[kind], rows: T, cols: T, scale: 'sequential', range: r.influenceRange,
    rowLabel: '', colLabel: 'replaced word', rowName: (i) => SENTENCE[i], colName: (j) => SENTENCE[j],
    minHeight: 32 * T, maxHeight: 40 * T,
    tooltip: (i, j, v) => `output row ${i} (${SENTENCE[i]}) when word ${j} (${SENTENCE[j]}) is replaced: max |Δ| = ${v === 0 ? '0, bit for bit' : fmt(v, 4)}`,
    ariaLabel: `largest change of each output row when each word is replaced, ${kind === 'causal' ? 'with' : 'without'} the causal mask`,
  })));
  const causalLine = notice(causalPart, '');
  more(causalPart, 'How the influence maps are made',
    'A causal mask lets each row see only itself and the rows above it. That rule is about order, so the mask brings ' +
    'an order of its own. To measure how far back a word’s influence goes, each word is replaced in turn by every ' +
    'other word of the vocabulary; a cell holds the largest change of one output row (down) caused by one replaced word (across). Colors ' +
    'saturate at the largest change off the diagonal (a word changes its own row far more).');
  const causalChecks = checkList(causalPart);

  function render() {
    plainB.show(r.plain.reorderedOutput, { words: r.reordered, title: `attention(P·x), P·x = “${r.reordered.join(' ')}”` });
    const sentences = orderSentences(r);
    say(plainLine, sentences.plain);
    renderChecks(plainChecks, r.plain.checks);

    pairsTable.show(['word', 'row', 't, relabel', 't, pairs', 'max |Δ input|'],
      r.positions.rows.map((row) => [row.word, String(row.row), String(row.relabelPosition), String(row.pairsPosition), row.inputDiff]),
      { highlight: (i, c) => c === 3 && r.positions.rows[i].pairsPosition !== r.positions.rows[i].relabelPosition });
    const gapRange = sharedRange([r.relabelGap.data, r.pairsGap.data]);
    const pairsMax = maxAbsDiff(r.pairsGap.data, new Float64Array(r.pairsGap.data.length));
    relabelMap.show(r.relabelGap, { words: r.reordered, range: gapRange });
    pairsMap.show(r.pairsGap, { words: r.reordered, range: gapRange, note: `blank on purpose: max |Δ| = ${fmt(pairsMax)}` });
    say(posLine, sentences.positions);
    renderChecks(posChecks, r.positions.checks);

    causalGapMap.show(r.causalGap, { words: r.reordered, range: sharedRange([r.causalGap.data]) });
    influenceMaps[0].update({ data: r.causal.influence.causal, range: r.influenceRange });
    influenceMaps[1].update({ data: r.causal.influence.unmasked, range: r.influenceRange });
    say(causalLine, sentences.causal);
    renderChecks(causalChecks, r.causal.checks);
  }
  render();
}
