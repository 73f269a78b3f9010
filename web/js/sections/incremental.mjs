// Section "incremental": generating one word at a time against a cache of the prefix, with the two offsets that
// make it equal to recomputing everything (addPositions start, attention queryStart), and the two ways of getting
// them wrong. The computation is web/js/experiments/incremental.mjs; this module draws it.
import { checkList } from '../checks.mjs';
import { heatmap, formatValue } from '../plot.mjs';
import { vocabularyTable } from '../experiments/sentence.mjs';
import { DEFAULT_NEW, DEFAULT_PREFIX, INCREMENTAL_TEXT, incrementalExperiment } from '../experiments/incremental.mjs';
import { el, figure, loadStyles, renderChecks, sliderControl, tokenStrip } from '../order-view.mjs';

const MAX_NEW = 4;

export async function run(so, root) {
  await loadStyles();
  const table = vocabularyTable();
  const settings = { prefix: DEFAULT_PREFIX, fresh: DEFAULT_NEW };

  root.append(
    el('p', { text: 'A model that writes adds one word at a time. Running the whole sentence again for every new word repeats almost all of the work, so a faster decoder keeps what it computed for the words so far (the cache) and runs only the new ones. The new words no longer begin the sequence, and two numbers have to say so:' }),
    el('ul', {},
      el('li', { html: '<code>addPositions(x, { start: p })</code>: after a prefix of p words, the first new word sits at position p, not 0;' }),
      el('li', { html: '<code>attention(q, k, v, { causal: true, queryStart: p })</code>: the new queries are the last rows of the keys, so query i sees keys 0 … p + i. (p = Tk − Tq is also the API’s default; aligning the queries with the first keys instead, as PyTorch’s <code>is_causal</code> does, hides most of the prefix.)' }),
    ),
    el('p', { text: 'The reference is the slow way: the whole sentence, positions 0 … T−1, causal attention, keeping the last rows. Move the sliders to change how much is cached and how many words arrive.' }),
  );

  const controls = el('div', { className: 'controls' });
  root.append(controls);
  const maxPrefix = INCREMENTAL_TEXT.length - 1;
  const prefixSlider = sliderControl({
    id: 'incremental-prefix', label: 'Cached prefix p', min: 1, max: maxPrefix, value: settings.prefix,
    onInput: (v) => { settings.prefix = v; clampFresh(); schedule(); },
    format: (v) => `${v} word${v === 1 ? '' : 's'}`,
  });
  const freshSlider = sliderControl({
    id: 'incremental-new', label: 'New words', min: 1, max: MAX_NEW, value: settings.fresh,
    onInput: (v) => { settings.fresh = v; clampFresh(); schedule(); },
    format: String,
  });
  controls.append(prefixSlider.element, freshSlider.element);
  function clampFresh() {
    const room = INCREMENTAL_TEXT.length - settings.prefix;
    if (settings.fresh > room) {
      settings.fresh = room;
      freshSlider.input.value = String(room);
      freshSlider.output.textContent = String(room);
    }
  }

  const strips = el('div', { className: 'token-strips' });
  root.append(strips);

  const weightsRow = el('div', { className: 'plot-row' });
  root.append(
    el('p', { text: 'The weights of the new words over every key show the second offset at work. With queryStart = p, each new word sees the whole prefix and the new words up to itself; with queryStart = 0, it sees only as many keys as if it stood at the start of the sentence. Grey cells are the keys the mask hides: their scaled scores are −∞ and their weights exactly 0.' }),
    weightsRow,
  );
  const weightMaps = [
    ['cached', 'queryStart = p (right)', () => current.prefix],
    ['topLeft', 'queryStart = 0 (top-left, wrong)', () => 0],
  ].map(([key, title, queryStart]) => {
    return {
      key,
      queryStart,
      plot: heatmap(figure(weightsRow, title), {
        data: new Float64Array(1), rows: 1, cols: 1, scale: 'sequential', range: 1,
        rowLabel: '', colLabel: 'key position',
        rowName: (r) => current.words[current.prefix + r], colName: String,
        minHeight: 60, maxHeight: 130,
        tooltip: (r, c, v) => `new word ${current.words[current.prefix + r]} (position ${current.prefix + r}) · key ${c} (${current.words[c]}): weight ${v === -Infinity ? '0 exactly (hidden by the mask)' : formatValue(v)}`,
        ariaLabel: `attention weights of the new words over all keys, ${title}`,
      }),
    };
  });

  const table4 = el('table', { className: 'numbers' });
  root.append(el('div', { className: 'table-scroll' }, table4));
  const list = checkList(root);
  root.append(el('p', { text: 'The deliberately simple decoder of this course recomputes the whole prefix for every word, so its positions always start at 0 and neither offset can go wrong. They matter the moment a cache appears.' }));

  let current;
  let pending = 0;
  function schedule() {
    if (!pending) pending = requestAnimationFrame(() => { pending = 0; render(); });
  }

  function render() {
    const { prefix, fresh } = settings;
    const words = INCREMENTAL_TEXT.slice(0, prefix + fresh);
    current = incrementalExperiment(so, table, { words, prefix });
    const cachedTokens = words.slice(0, prefix).map((word, i) => ({ word, position: i, kind: 'cached' }));
    const newWords = words.slice(prefix);
    const row = (label, tokens) => el('div', { className: 'token-strip-row' },
      el('span', { className: 'token-strip-label', text: label }), tokenStrip(tokens, { label }));
    strips.replaceChildren(
      row('cache (processed)', cachedTokens),
      row(`new, start = ${prefix}`, newWords.map((word, i) => ({ word, position: prefix + i, kind: 'new' }))),
      row('new, start = 0 (wrong)', newWords.map((word, i) => ({ word, position: i, kind: 'wrong' }))),
    );
    for (const { key, plot, queryStart } of weightMaps) {
      // Hidden keys (column > queryStart + row) are drawn grey, as masked; their weights are exactly 0.
      const w = current.weights[key];
      const [rows, cols] = w.shape;
      const start = queryStart();
      const data = w.data.map((v, k) => (k % cols > start + Math.floor(k / cols) ? -Infinity : v));
      plot.update({ data, rows, cols });
    }
    table4.replaceChildren(
      el('tr', {}, ...['new word', 'position', '|cached − full|', '|start 0 − full|', '|queryStart 0 − full|'].map((h) => el('th', { text: h, attrs: { scope: 'col' } }))),
      ...current.rows.map((r) => el('tr', {},
        el('td', { text: r.word }), el('td', { text: String(r.position) }),
        el('td', { text: formatValue(r.cached) }),
        el('td', { text: formatValue(r.restarted), className: 'diff' }),
        el('td', { text: formatValue(r.topLeft), className: 'diff' }))),
    );
    renderChecks(list, current.checks);
  }
  render();
}
