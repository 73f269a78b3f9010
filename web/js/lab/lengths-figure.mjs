// The lab's lengths figure: every model measured at the lengths it trained on and at 2×, 4× and 8× the longest (the
// median over seeds, with the range), as a table and as a heatmap (a model a row, a length a column), a refusal in the
// API's words, chance as the table's last row, and the learned tables' checks. It records the table as drawn ("lengths": the view the claims about it are read again from).
import { checkList } from '../../lib/figures/checks.mjs';
import { heatmap } from '../../lib/figures/plot/index.mjs';
import { recordDrawn } from '../drawn.mjs';
import { el, fig, more } from '../ui.mjs';
import { kindOf } from './config.mjs';
import { lengthsView } from './facts.mjs';
import { capital, percent } from './findings.mjs';
import { LONGER, MEASURED_COUNT, setWords } from './tasks.mjs';
import { labTable } from './table.mjs';

/** The figure; with `map`, the table drawn as a heatmap too (the bench page's). */
export function lengthsFigure(root, { map: withMap = false } = {}) {
  const g = fig(root, { title: 'Longer than any training sentence', id: 'lab-lengths' });
  const waiting = el('p', { className: 'lab-wait' });
  const table = labTable(g, { caption: '', className: 'lab-lengths-table' });
  g.prepend(g.querySelector('h3'), waiting);
  const mapBox = el('div', { className: 'lab-lengths-map' });
  g.append(mapBox);
  let map = null;
  const details = more(g, 'Positions at a new length; chance', '');
  const checks = checkList(g, 'Checks', { foldDetails: true });
  let drawn = null;
  recordDrawn(table.element, 'lengths', () => drawn);

  const wait = (text) => {
    waiting.textContent = text;
    waiting.hidden = false;
    table.element.hidden = true;
    mapBox.hidden = true;
    drawn = null;
  };
  wait('Measured when the run pauses or ends.');

  /**
   * The table as a heatmap: a model a row, a length a column, the median accuracy from 0 to 1; a length a model refuses
   * has no number (NaN) and is outlined as refused.
   */
  function drawMap(view, heading) {
    const rows = view.kinds.length;
    const cols = view.lengths.length;
    const data = new Float64Array(rows * cols);
    const marks = [];
    view.kinds.forEach((k, r) => view.lengths.forEach((T, c) => {
      const cell = k.cells[T];
      data[r * cols + c] = cell && !cell.error ? cell.median : NaN;
      if (cell?.error && !(marks.at(-1)?.row0 === r)) marks.push({ row0: r, row1: r + 1, col0: c, col1: cols, label: 'refused' });
    }));
    const options = {
      data, rows, cols, scale: 'sequential', range: 1, rowLabel: '', colLabel: 'test length', marks,
      rowName: (r) => view.kinds[r].label, colName: (c) => heading(view.lengths[c]).replace('T = ', ''),
      tooltip: (r, c) => {
        const cell = view.kinds[r].cells[view.lengths[c]];
        const what = cell?.error ? `refused (${cell.error.message})` : cell ? `${percent(cell.median)}${cell.min === cell.max ? '' : ` (${percent(cell.min)}–${percent(cell.max)})`}` : 'not measured';
        return `${view.kinds[r].label} at ${heading(view.lengths[c])}: ${what}; chance ${percent(view.chance)}`;
      },
      ariaLabel: 'accuracy by model and test length: a row per model, a column per length',
      caption: 'The table above as a map, its color bar from 0 to 100%; a length a model refuses has no number (NaN), outlined as refused.',
      minHeight: 40 + 28 * rows, maxHeight: 60 + 40 * rows,
    };
    mapBox.hidden = false;
    if (map) map.update(options);
    else map = heatmap(mapBox, options);
  }

  return {
    checks,
    wait,
    /** The measurements of `record` (at record.measuredAt). */
    show(record) {
      const { config } = record;
      const view = lengthsView(record);
      const heading = (T) => (T <= view.longest ? `T = ${T}` : `T = ${T} (${T / view.longest}×)`);
      const cell = (c) => (c.error ? `refused: ${c.error.message}` : c.min === c.max ? percent(c.median) : `${percent(c.median)} (${percent(c.min)}–${percent(c.max)})`);
      const seeds = config.seeds.length > 1 ? '; medians of the seeds, their range in brackets' : '';
      const when = record.measuredAt < config.steps ? `, at step ${record.measuredAt} of ${config.steps} (paused)` : '';
      table.element.hidden = false;  // before it fills: it measures its width then (its scroll cue is there at once)
      table.show(['model', ...view.lengths.map(heading)], [
        ...view.kinds.map((k) => [k.label, ...view.lengths.map((T) => cell(k.cells[T]))]),
        ['chance (a guess)', ...view.lengths.map(() => percent(view.chance))],
      ], {
        caption: `${capital(record.name)}: accuracy on ${setWords(config, MEASURED_COUNT)} per length${seeds}, trained on ${config.shortest} … ${config.longest}${when}.`,
        cellClass: (r, c) => {
          const T = view.lengths[c - 1];
          const at = view.kinds[r]?.cells[T];
          return [T > view.longest ? 'lab-longer' : '', at?.error ? 'lab-refused' : '', r === view.kinds.length ? 'lab-chance' : ''].join(' ').trim();
        },
      });
      if (withMap) drawMap(view, heading);
      drawn = view;
      waiting.hidden = true;
      showDetails(details, config);
    },
  };
}

/** How each kind of position meets a new length: mechanisms only, with the run's lengths. */
function showDetails(details, config) {
  const longest = LONGER.at(-1) * config.longest;
  const kinds = new Set(config.kinds.map((key) => kindOf(key).positions));
  const texts = [
    kinds.has('learned') && `A learned table has one trained row per position, ${config.longest} here: the model cannot even be asked ` +
      `about position ${config.longest} and later, and the API says so instead of guessing. (Learned tables go beyond this lesson: the course’s model uses sinusoids.)`,
    kinds.has('sinusoidal') && 'Sinusoids can be computed at any position (see “Sines and cosines at many speeds”), but the vectors at new positions are ones the trained weights never met.',
    kinds.has('rotary') && `Rotary positions turn q and k, so a score depends on how far apart two tokens are. Training saw offsets up to ` +
      `${config.longest - 1}; a sentence of T = ${longest} holds offsets up to ${longest - 1}, most of them never seen in training. ` +
      '(Rotary positions go beyond this lesson: the course’s model uses sinusoids.)',
    kinds.has('alibi') && 'ALiBi adds −m·(i − j) to each score (−m·|i − j| without a causal mask), a slope m per head and no parameters: ' +
      `the same bias at any distance, trained or not. (ALiBi goes beyond this lesson.)`,
    kinds.has('relative') && 'The T5 relative bias adds a learned number per head to each score, looked up by the distance i − j in buckets: exact ' +
      'for short distances, then buckets logarithmically wider, the last from a distance of 128 on; a distance longer than any in training falls in a bucket ' +
      'that training may have filled with shorter ones. (The relative bias goes beyond this lesson.)',
    config.kinds.some((key) => kindOf(key).causal) && 'A causal mask lets each token see only those before it, at any length.',
    `Each length is measured on its own set of sentences${config.task === 'order' ? ', every sentence followed by its mirror, the same sentence with robot and person swapped' : ''}; ` +
      'at T = the curves’ length these are other sentences than the curves’ held-out ones. Chance: what a guess scores (one of two answers, or one word in 16). ' +
      'A number is called at chance when it lies within two standard errors of a guess on that many answers (a coin-flipping model lands there about 95 times in 100), below chance under that.',
  ].filter(Boolean);
  details.replaceChildren(details.querySelector('summary'), ...texts.map((t) => el('p', {}, t)));
}
