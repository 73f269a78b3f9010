// Section "incremental": generating one word at a time against a cache of the prefix, with the two offsets that
// make it equal to recomputing everything (addPositions start, attention queryStart), and the two ways of getting
// them wrong. The computation is experiments/incremental.mjs; this module draws it.
import { controlGroup, settingControl } from '../controls.mjs';
import { fmt, plural } from '../format.mjs';
import { renderChecks } from '../../lib/figures/checks.mjs';
import { heatmap } from '../../lib/figures/plot/index.mjs';
import { checkList, el, fig, more, notice, numbersTable, perFrame, prose, titledBlock } from '../ui.mjs';
import { vocabularyTable } from '../experiments/sentence.mjs';
import { DEFAULT_NEW, DEFAULT_PREFIX, INCREMENTAL_TEXT, incrementalExperiment, incrementalSentences } from '../experiments/incremental.mjs';
import { say } from '../claims.mjs';
import { tokenStrip } from '../order-view.mjs';
import { declareSettings } from '../settings.mjs';

const MAX_NEW = 4;

export const settings = declareSettings({
  prefix: {
    kind: 'slider', id: 'incremental-prefix', label: 'Cached prefix p', min: 1, max: INCREMENTAL_TEXT.length - 1,
    default: DEFAULT_PREFIX, format: (v) => plural(v, 'word'),
  },
  fresh: {
    kind: 'slider', id: 'incremental-new', label: 'New words', min: 1, max: MAX_NEW, default: DEFAULT_NEW,
    hint: `up to the words the text has after the prefix (${INCREMENTAL_TEXT.length} words in the text)`,
  },
});

export async function run(so, root, state) {
  const table = vocabularyTable();
  const settings = state.values;
  let current;

  prose(root,
    'A faster decoder keeps what it computed for the words so far (the cache) and runs only the new ones. Two numbers ' +
    'must then say where the new words are: <code>addPositions(x, { start: p })</code> and ' +
    '<code>attention(q, k, v, { causal: true, queryStart: p })</code>, after a prefix of p words.');
  const f = fig(root);
  const group = controlGroup(f, 'cached prefix and new words');
  const redraw = perFrame(() => render());
  // The text has only INCREMENTAL_TEXT.length − p words after a prefix of p: the new words follow.
  const room = () => INCREMENTAL_TEXT.length - settings.prefix;
  settingControl(group, state, 'prefix', {
    onChange: () => {
      if (settings.fresh > room()) freshInput.set(room());
      redraw();
    },
  });
  const freshInput = settingControl(group, state, 'fresh', {
    onChange: (v) => {
      if (v > room()) freshInput.set(room());
      else redraw();
    },
  });
  if (settings.fresh > room()) freshInput.set(room());

  const strips = el('div', { className: 'token-strips' });
  f.append(strips);
  const weightsRow = el('div', { className: 'plot-row' });
  f.append(weightsRow);
  const weightMaps = [
    { key: 'cached', title: 'queryStart = p (correct)', queryStart: () => current.prefix },
    { key: 'topLeft', title: 'queryStart = 0 (top-left, wrong)', queryStart: () => 0 },
  ].map((view) => ({
    ...view,
    plot: heatmap(titledBlock(weightsRow, `weights of the new words, ${view.title}`), {
      data: new Float64Array(1), rows: 1, cols: 1, scale: 'sequential', range: 1,
      rowLabel: '', colLabel: 'key position',
      rowName: (i) => current.words[current.prefix + i], colName: String,
      minHeight: 60, maxHeight: 130,
      tooltip: (i, j, v) => `new word ${current.words[current.prefix + i]} (position ${current.prefix + i}) · key ${j} (${current.words[j]}): weight ${v === -Infinity ? '0 (hidden by the mask)' : fmt(v, 4)}`,
      ariaLabel: `attention weights of the new words over the keys, ${view.title}`,
    }),
  }));
  const numbers = numbersTable(f, { caption: 'each new word: its output against the full recompute', drawn: 'rows' });
  const line = notice(f, '');
  more(f, 'The two offsets',
    'The reference is the slow way: the whole sentence, positions 0 … T−1, causal attention, keeping the last rows. ' +
    'With <code>queryStart = p</code> (also the API’s default, Tk − Tq), new query i sits at position p + i and sees ' +
    'keys 0 … p + i. Aligning the queries with the first keys instead, as PyTorch’s <code>is_causal</code> does, lets ' +
    'new query i see keys 0 … i only. Grey cells are keys the mask hides: −∞ scaled scores, weights 0. The lesson’s own ' +
    'decoder reruns everything for each word, so its positions count from 0 at every step and neither offset can slip.');
  const list = checkList(f);

  function render() {
    const { prefix, fresh } = settings;
    const words = INCREMENTAL_TEXT.slice(0, prefix + fresh);
    current = incrementalExperiment(so, table, { words, prefix });
    const newWords = words.slice(prefix);
    strips.replaceChildren(
      tokenStrip('cache (processed)', words.slice(0, prefix).map((word, i) => ({ word, position: i, kind: 'cached' }))),
      tokenStrip(`new, start = ${prefix}`, newWords.map((word, i) => ({ word, position: prefix + i, kind: 'new' }))),
      tokenStrip('new, start = 0 (wrong)', newWords.map((word, i) => ({ word, position: i, kind: 'wrong' }))));
    for (const { key, plot, queryStart } of weightMaps) {
      // Hidden keys (column > queryStart + row) are drawn grey, as masked; their weights are exactly 0.
      const w = current.weights[key];
      const [rows, cols] = w.shape;
      const start = queryStart();
      plot.update({ rows, cols, data: w.data.map((v, k) => (k % cols > start + Math.floor(k / cols) ? -Infinity : v)) });
    }
    numbers.show(['new word', 'position', '|cached − full|', '|start 0 − full|', '|queryStart 0 − full|'],
      current.rows.map((r) => [r.word, String(r.position), r.cached, r.restarted, r.topLeft]),
      { highlight: (_, c) => c >= 3 });
    say(line, incrementalSentences(current));
    renderChecks(list, current.checks);
  }
  render();
}
