// Section "batch": the tensor the lesson carries forward, (B, T, D): a batch of sentences through lookup, positions
// and attention at once. The experiment is experiments/batch.mjs.
import { controlGroup, settingControl } from '../controls.mjs';
import { fmt } from '../format.mjs';
import { renderChecks } from '../../lib/figures/checks.mjs';
import { heatmapGrid } from '../../lib/figures/plot/index.mjs';
import { checkList, fig, more, notice, numbersTable, perFrame, prose } from '../ui.mjs';
import { MAX_BATCH, MAX_LENGTH, batchExperiment, batchSentences, item } from '../experiments/batch.mjs';
import { drawnPlot } from '../drawn.mjs';
import { say } from '../claims.mjs';
import { VOCAB, vocabularyTable } from '../experiments/sentence.mjs';
import { declareSettings } from '../settings.mjs';

export const settings = declareSettings({
  batch: { kind: 'slider', id: 'batch-b', label: 'sentences B', min: 1, max: MAX_BATCH, default: 3 },
  length: { kind: 'slider', id: 'batch-t', label: 'tokens per sentence T', min: 1, max: MAX_LENGTH, default: 5 },
});

export async function run(so, root, settings) {
  prose(root,
    'A model takes several sentences at once: token ids of shape (B, T), B sentences of T tokens, become ' +
    'token-plus-position vectors of shape (B, T, D), the tensor attention receives next.');
  const table = vocabularyTable();
  const state = settings.values;
  const f = fig(root);
  const group = controlGroup(f, 'batch size and sentence length');
  const ids = numbersTable(f, { caption: '', drawn: 'ids' });
  const grid = drawnPlot('inputs', heatmapGrid(f, {
    maps: [], rowLabel: '', colLabel: 'feature', minHeight: 120, maxHeight: 200, minWidth: '15rem',
    ariaLabel: 'one sentence of the batch after lookup and positions: a row per token, a column per feature',
  }));
  const line = notice(f, '');
  more(f, 'Why a batch changes nothing about positions',
    'addPositions adds p<sub>0</sub> … p<sub>T−1</sub> to every sentence alike: positions number the tokens within a ' +
    'sentence, not the sentences. Attention, too, runs on each sentence of the batch separately: a batch is many ' +
    'independent sequences computed together, which is what makes it fast.');
  const list = checkList(f);

  const render = () => {
    const r = batchExperiment(so, table, state);
    const [B, T] = r.ids.shape;
    ids.show(['b', ...Array.from({ length: T }, (_, t) => `t = ${t}`)],
      r.sentences.map((words, b) => [String(b), ...words.map((w) => `${w} ${VOCAB.indexOf(w)}`)]),
      { caption: `token ids (B, T) = (${B}, ${T}): each word with its id` });
    grid.update({
      maps: r.sentences.map((words, b) => ({
        title: `x[${b}]: “${words.join(' ')}”`, data: item(r.x, b).data, rows: T, cols: r.x.shape[2],
        rowName: (t) => words[t], tooltip: (t, c, v) => `sentence ${b}, t = ${t} (${words[t]}), feature ${c}: ${fmt(v, 4)}`,
      })),
    });
    say(line, batchSentences(r, table));
    renderChecks(list, r.checks);
  };
  const schedule = perFrame(render);
  settingControl(group, settings, 'batch', { onChange: schedule });
  settingControl(group, settings, 'length', { onChange: schedule });
  render();
}
