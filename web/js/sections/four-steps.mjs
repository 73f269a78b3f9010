// Section "four-steps": scaled dot-product attention drawn as its four steps (scores, scaled, weights, output) for a
// short sentence, with toggles for the causal mask, the positions and projected queries and keys, and checks that
// each step is what it says; a toggle adds ALiBi's bias to step 2, with the check that a constant added to a row leaves
// its weights unchanged. The computation is experiments/four-steps.mjs; this module draws it.
import { controlGroup, settingControl } from '../controls.mjs';
import { fmt } from '../format.mjs';
import { heatmap } from '../../lib/figures/plot/index.mjs';
import { checkList, el, fig, more, notice, perFrame, prose } from '../ui.mjs';
import { vocabularyTable, WIDTH } from '../experiments/sentence.mjs';
import { declareSettings } from '../settings.mjs';
import { drawnPlot } from '../drawn.mjs';
import { say, showChecks } from '../claims.mjs';
import {
  STEPS_SENTENCE, diagonalCheck, fourSteps, repeatedWord, repeatedWordCheck, rowConstantCheck, stepChecks, stepsSentences,
} from '../experiments/four-steps.mjs';

const SENTENCES = [STEPS_SENTENCE, ['robot', 'follows', 'person'], ['a', 'robot', 'sees', 'a', 'box', 'and', 'lifts', 'it']];

export const settings = declareSettings({
  causal: { kind: 'toggle', id: 'steps-causal', label: 'Causal mask', default: false },
  positions: { kind: 'toggle', id: 'steps-positions', label: 'Positions added', default: true },
  projections: { kind: 'toggle', id: 'steps-projections', label: 'Wq, Wk projections', default: false },
  alibi: { kind: 'toggle', id: 'steps-alibi', label: 'ALiBi', default: false },
  sentence: {
    kind: 'select', id: 'steps-sentence', label: 'Sentence', default: '0',
    options: SENTENCES.map((s, i) => ({ value: String(i), label: s.join(' ') })),
  },
});

const STEP_VIEWS = [
  { key: 'scores', title: 'Scores', formula: 'q·kᵀ: a row per query, a column per key', scale: 'diverging' },
  { key: 'scaled', title: 'Scaled', formula: 'scores / √D; hidden keys −∞', alibi: 'scores / √D − |i − j|/2 (ALiBi); hidden keys −∞', scale: 'diverging' },
  { key: 'weights', title: 'Weights', formula: 'softmax of each row; rows sum to 1', scale: 'sequential', range: 1 },
  { key: 'output', title: 'Output', formula: 'weights · v: a row per query, D features', scale: 'diverging' },
];

export async function run(so, root, state) {
  const table = vocabularyTable();
  const values = state.values;
  const settings = {
    get words() { return SENTENCES[Number(values.sentence)]; },
    get causal() { return values.causal; }, get positions() { return values.positions; }, get projections() { return values.projections; },
    get alibi() { return values.alibi; },
  };

  prose(root,
    `Attention turns each row into a blend of rows, in four steps. Here they run on a short sentence, each word’s ` +
    `lookup row plus its position vector (D = ${WIDTH}).`);
  const f = fig(root);
  const group = controlGroup(f, 'what attention runs on');
  const redraw = perFrame(() => render());
  for (const name of ['causal', 'positions', 'projections', 'alibi', 'sentence']) settingControl(group, state, name, { onChange: redraw });

  const grid = el('div', { className: 'steps-grid' });
  f.append(grid);
  const word = (i) => settings.words[i];
  const maps = {};
  const formulas = {};
  STEP_VIEWS.forEach((view, n) => {
    formulas[view.key] = el('p', { className: 'step-formula' }, view.formula);
    const block = el('div', { className: 'figure-block' },
      el('p', { className: 'step-title' }, el('span', { className: 'step-num' }, `${n + 1}.`), view.title), formulas[view.key]);
    grid.append(block);
    const isOutput = view.key === 'output';
    maps[view.key] = drawnPlot(view.key, heatmap(block, {
      data: new Float64Array(1), rows: 1, cols: 1, scale: view.scale, range: view.range,
      rowLabel: '', colLabel: isOutput ? 'feature' : 'key',
      rowName: word, colName: isOutput ? String : word,
      minHeight: 150, maxHeight: 240,
      tooltip: (i, j, v) => (isOutput
        ? `output row ${i} (${word(i)}), feature ${j}: ${fmt(v, 4)}`
        : `query ${i} (${word(i)}) · key ${j} (${word(j)}): ${v === -Infinity ? '−∞ (hidden by the mask)' : fmt(v, 4)}`),
      ariaLabel: `step ${n + 1}, ${view.title}: ${view.formula}`,
    }));
  });
  const line = notice(f, '');
  // The bridge to the trained models: shown while the mask is on.
  const bridge = el('p', { className: 'callout steps-bridge' });
  bridge.innerHTML = 'A causal mask is an order of its own: query i sees keys 0 … i only, so two equal rows at ' +
    'different places see different keys. A causal model without positions has only this to go on: ' +
    '<a href="#lab">The lab</a> trains one beside models with positions.';
  f.append(bridge);
  more(f, 'The four steps, and why the diagonal',
    `<ol class="steps-list">
      <li><strong>Scores</strong>: the dot product of query row i with key row j, how well the two match.</li>
      <li><strong>Scaled</strong>: every score divided by √D = √${WIDTH}, so that wider vectors do not push scores ever further apart. Under a causal mask, the keys a query may not see become −∞.</li>
      <li><strong>Weights</strong>: a softmax along each row. The row’s largest scaled score is subtracted first (same result, and exp cannot overflow), then each entry is exponentiated and divided by the row’s total: shares that add up to 1, and −∞ becomes exactly 0.</li>
      <li><strong>Output</strong>: each output row is the sum of the value rows, each weighted by its share.</li>
    </ol>`,
    'With no learned projections, queries and keys are the input rows themselves, so a row meets itself as a key and ' +
    'scores its own squared length, which no shorter key can beat: the bright diagonal is an artefact of q = k, not ' +
    'a property of attention itself. A trained model has projections Wq and Wk of its own; “Wq, Wk projections” ' +
    'uses two fixed random ones to show the difference (values stay the input rows).',
    'Point at a cell to read it; on a keyboard, tab to a map and move with the arrow keys.');
  const list = checkList(f);

  function render() {
    const steps = fourSteps(so, table, settings);
    for (const { key, formula, alibi } of STEP_VIEWS) {
      formulas[key].textContent = settings.alibi && alibi ? alibi : formula;
      const t = steps[key];
      maps[key].update({ data: t.data, rows: t.shape[0], cols: t.shape[1] });
    }
    const repeated = repeatedWord(settings.words) !== null;
    const repeat = repeatedWordCheck(so, table, { ...settings, words: repeated ? settings.words : STEPS_SENTENCE });
    say(line, stepsSentences(steps, settings));
    bridge.hidden = !settings.causal;
    if (!settings.alibi) list.querySelector('[data-check="steps-alibi-row-constant"]')?.remove();  // (shown with ALiBi only)
    showChecks(list, [
      ...stepChecks(so, table, settings),
      diagonalCheck(so, table, settings),
      repeated && !settings.alibi ? repeat : {
        // about another sentence than the one drawn, or without the bias drawn: nothing drawn to hold it against
        ...repeat, fixed: true, holds: undefined,
        claim: repeated ? `Without ALiBi (not drawn): ${repeat.claim}` : `This sentence repeats no word, so on “${STEPS_SENTENCE.join(' ')}”: ${repeat.claim}`,
      },
      ...(settings.alibi ? [rowConstantCheck(steps)] : []),
    ]);
  }
  render();
}
