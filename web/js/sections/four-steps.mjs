// Section "four-steps": scaled dot-product attention drawn as its four steps (scores, scaled, weights, output) for a
// short sentence, with a causal toggle, and checks that each step is what it says. The computation is
// web/js/experiments/steps.mjs; this module draws it.
import { checkList } from '../checks.mjs';
import { heatmap, formatValue } from '../plot.mjs';
import { el, perFrame, prose } from '../ui.mjs';
import { vocabularyTable, WIDTH } from '../experiments/sentence.mjs';
import { STEPS_SENTENCE, fourSteps, repeatedWordCheck, stepChecks } from '../experiments/steps.mjs';
import { figure, renderChecks, selectControl, toggleButton } from '../order-view.mjs';

const SENTENCES = [STEPS_SENTENCE, ['robot', 'follows', 'person'], ['a', 'robot', 'sees', 'a', 'box', 'and', 'lifts', 'it']];

const STEP_VIEWS = [
  { key: 'scores', title: 'Scores', formula: 'q·kᵀ: a row per query, a column per key', scale: 'diverging' },
  { key: 'scaled', title: 'Scaled', formula: 'scores / √D; hidden keys −∞', scale: 'diverging' },
  { key: 'weights', title: 'Weights', formula: 'softmax of each row; rows sum to 1', scale: 'sequential', range: 1 },
  { key: 'output', title: 'Output', formula: 'weights · v: a row per query, D features', scale: 'diverging' },
];

export async function run(so, root) {
  const table = vocabularyTable();
  const settings = { words: STEPS_SENTENCE, causal: false, positions: true };

  prose(root,
    'Attention turns each row into a blend of rows. The recipe has four steps, and each one is small enough to look at. The maps below run them on a short sentence, each word’s lookup row plus its position vector (D = 8); queries, keys and values are those rows themselves.',
    `<ol class="steps-list">
      <li><strong>Scores</strong>: the dot product of query row i with key row j, a number for how well the two match.</li>
      <li><strong>Scaled</strong>: every score divided by √D = √${WIDTH}, so that wider vectors do not push the scores ever further apart. Under a causal mask, the entries a query may not see become −∞.</li>
      <li><strong>Weights</strong>: a softmax along each row. The row’s largest scaled score is subtracted first (the result is the same, and exp cannot overflow), then each entry is exponentiated and divided by the row’s total. A row becomes shares that add up to 1, and −∞ becomes a share of exactly 0.</li>
      <li><strong>Output</strong>: each output row is the sum of the value rows, each weighted by its share.</li>
    </ol>`,
    'Point at a cell to read it; on a keyboard, tab to a map and move with the arrow keys. Turn the causal mask on to hide every key to the right of the diagonal; turn positions off and the two copies of “the” become indistinguishable, row for row.');

  // Re-renders in the next frame; the checks re-run when the sentence or the positions changed since the last render.
  let checksStale = true;
  const redraw = perFrame(() => render());
  const changed = (recheck) => {
    checksStale ||= recheck;
    redraw();
  };
  root.append(el('div', { className: 'toggles' },
    toggleButton({ id: 'steps-causal', label: 'Causal mask', pressed: settings.causal, onToggle: (on) => { settings.causal = on; changed(false); } }),
    toggleButton({ id: 'steps-positions', label: 'Positions added', pressed: settings.positions, onToggle: (on) => { settings.positions = on; changed(true); } }),
    selectControl({
      id: 'steps-sentence', label: 'Sentence',
      options: SENTENCES.map((s, i) => ({ value: String(i), label: s.join(' ') })),
      value: '0',
      onChange: (value) => { settings.words = SENTENCES[Number(value)]; changed(true); },
    })));

  const grid = el('div', { className: 'steps-grid' });
  root.append(grid);
  const word = (i) => settings.words[i];
  const maps = {};
  STEP_VIEWS.forEach((view, n) => {
    const block = figure(grid, '');
    block.firstChild.replaceWith(
      el('p', { className: 'step-title' }, el('span', { className: 'step-num' }, `${n + 1}.`), view.title),
      el('p', { className: 'step-formula' }, view.formula));
    const isOutput = view.key === 'output';
    maps[view.key] = heatmap(block, {
      data: new Float64Array(1), rows: 1, cols: 1, scale: view.scale, range: view.range,
      rowLabel: '', colLabel: isOutput ? 'feature' : 'key',
      rowName: word, colName: isOutput ? String : word,
      minHeight: 150, maxHeight: 240,
      tooltip: (i, j, v) => (isOutput
        ? `output row ${i} (${word(i)}), feature ${j}: ${formatValue(v)}`
        : `query ${i} (${word(i)}) · key ${j} (${word(j)}): ${formatValue(v)}${settings.causal && j > i && v !== -Infinity ? ' (hidden by the mask)' : ''}`),
      ariaLabel: `${view.title}: ${view.formula}; focus and use the arrow keys to read values`,
    });
  });
  const list = checkList(root);

  // The checks cover the unmasked and the causal version at once, so they change only with the sentence or positions.
  function render() {
    const steps = fourSteps(so, table, settings);
    for (const { key } of STEP_VIEWS) {
      const t = steps[key];
      maps[key].update({ data: t.data, rows: t.shape[0], cols: t.shape[1] });
    }
    if (checksStale) renderChecks(list, stepChecks(so, table, settings));
    checksStale = false;
  }
  render();
  renderChecks(list, [repeatedWordCheck(so, table)]);
}
