// Section "incremental": generating one word at a time against a cache of the prefix, with the two offsets that
// make it equal to recomputing everything (addPositions start, attention queryStart), and the two ways of getting
// them wrong. The computation is web/js/experiments/incremental.mjs; this module draws it.
import { checkList } from '../checks.mjs';
import { heatmap, formatValue } from '../plot.mjs';
import { controls, el, perFrame, prose, slider } from '../ui.mjs';
import { vocabularyTable } from '../experiments/sentence.mjs';
import { DEFAULT_NEW, DEFAULT_PREFIX, INCREMENTAL_TEXT, incrementalExperiment } from '../experiments/incremental.mjs';
import { figure, renderChecks, tokenStrip } from '../order-view.mjs';

const MAX_NEW = 4;

export async function run(so, root) {
  const table = vocabularyTable();
  const settings = { prefix: DEFAULT_PREFIX, fresh: DEFAULT_NEW };
  let current;

  prose(root,
    'A model that writes adds one word at a time. Running the whole sentence again for every new word repeats almost all of the work, so a faster decoder keeps what it computed for the words so far (the cache) and runs only the new ones. The new words no longer begin the sequence, and two numbers have to say so:',
    `<ul>
      <li><code>addPositions(x, { start: p })</code>: after a prefix of p words, the first new word sits at position p, not 0;</li>
      <li><code>attention(q, k, v, { causal: true, queryStart: p })</code>: the new queries are the last rows of the keys, so query i sees keys 0 … p + i. (p = Tk − Tq is also the API’s default; aligning the queries with the first keys instead, as PyTorch’s <code>is_causal</code> does, hides most of the prefix.)</li>
    </ul>`,
    'The reference is the slow way: the whole sentence, positions 0 … T−1, causal attention, keeping the last rows. Move the sliders to change how much is cached and how many words arrive.');

  const redraw = perFrame(() => render());
  const group = controls(root, 'cached prefix and new words');
  slider(group, {
    id: 'incremental-prefix', label: 'Cached prefix p', min: 1, max: INCREMENTAL_TEXT.length - 1, value: settings.prefix,
    format: (v) => `${v} word${v === 1 ? '' : 's'}`,
    onInput: (v) => {
      settings.prefix = v;
      const room = INCREMENTAL_TEXT.length - v;
      if (settings.fresh > room) {
        freshInput.value = String(room);
        freshInput.dispatchEvent(new Event('input')); // updates its shown value and settings.fresh
      }
      redraw();
    },
  });
  const freshInput = slider(group, {
    id: 'incremental-new', label: 'New words', min: 1, max: MAX_NEW, value: settings.fresh,
    onInput: (v) => {
      const room = INCREMENTAL_TEXT.length - settings.prefix;
      if (v > room) {
        freshInput.value = String(room); // the text has only `room` words after the prefix
        freshInput.dispatchEvent(new Event('input'));
        return;
      }
      settings.fresh = v;
      redraw();
    },
  });

  const strips = el('div', { className: 'token-strips' });
  root.append(strips);

  prose(root, 'The weights of the new words over every key show the second offset at work. With queryStart = p, each new word sees the whole prefix and the new words up to itself; with queryStart = 0, it sees only as many keys as if it stood at the start of the sentence. Grey cells are the keys the mask hides: their scaled scores are −∞ and their weights exactly 0.');
  const weightsRow = el('div', { className: 'plot-row' });
  root.append(weightsRow);
  const weightMaps = [
    { key: 'cached', title: 'queryStart = p (right)', queryStart: () => current.prefix },
    { key: 'topLeft', title: 'queryStart = 0 (top-left, wrong)', queryStart: () => 0 },
  ].map((view) => ({
    ...view,
    plot: heatmap(figure(weightsRow, view.title), {
      data: new Float64Array(1), rows: 1, cols: 1, scale: 'sequential', range: 1,
      rowLabel: '', colLabel: 'key position',
      rowName: (i) => current.words[current.prefix + i], colName: String,
      minHeight: 60, maxHeight: 130,
      tooltip: (i, j, v) => `new word ${current.words[current.prefix + i]} (position ${current.prefix + i}) · key ${j} (${current.words[j]}): weight ${v === -Infinity ? '0 exactly (hidden by the mask)' : formatValue(v)}`,
      ariaLabel: `attention weights of the new words over all keys, ${view.title}`,
    }),
  }));

  const numbers = el('div', { className: 'table-scroll', tabIndex: 0, 'aria-label': 'each new word: its output against the full recompute' });
  root.append(numbers);
  const list = checkList(root);
  prose(root, 'The course’s own decoder takes the slow road on purpose: it reruns everything for each word, so its positions always count from 0 and neither offset can slip. Both start to matter as soon as a cache is added.');

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
    numbers.replaceChildren(el('table', { className: 'numbers' },
      el('tr', {}, ['new word', 'position', '|cached − full|', '|start 0 − full|', '|queryStart 0 − full|']
        .map((h) => el('th', { scope: 'col' }, h))),
      current.rows.map((r) => el('tr', {},
        el('td', {}, r.word), el('td', {}, String(r.position)),
        el('td', {}, formatValue(r.cached)),
        el('td', { className: 'diff' }, formatValue(r.restarted)),
        el('td', { className: 'diff' }, formatValue(r.topLeft))))));
    renderChecks(list, current.checks);
  }
  render();
}
