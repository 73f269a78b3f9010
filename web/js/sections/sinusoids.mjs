// Section "sinusoids": the lesson's formula; D = 8 gives four pairs; the table as one broadcast product, and why the
// width is even; the table as a heatmap with sliders; pairs as points turning on circles; why one pair is not enough
// (its search runs in the worker). The experiments are experiments/sinusoids.mjs.
import { controlGroup, settingControl } from '../controls.mjs';
import { fmt } from '../format.mjs';
import { renderChecks } from '../../lib/figures/checks.mjs';
import { circlePlot, heatmap, linePlot } from '../../lib/figures/plot/index.mjs';
import { checkList, codeBlock, el, fig, more, notice, numbersTable, perFrame, prose } from '../ui.mjs';
import { frequency } from '../experiments/reference.mjs';
import {
  broadcastAndWidth, fourPairs, fourPairsSentences, onePairSentences, pairSpeeds, sinusoidTable, tableSentences, turnSentences,
} from '../experiments/sinusoids.mjs';
import { say } from '../claims.mjs';
import { inWorker } from '../worker-client.mjs';
import { declareSettings } from '../settings.mjs';
import { drawnPlot } from '../drawn.mjs';

export const settings = declareSettings({
  length: { kind: 'slider', id: 'sinusoids-length', label: 'length (positions)', min: 1, max: 512, default: 64 },
  width: { kind: 'slider', id: 'sinusoids-width', label: 'width D', min: 2, max: 256, step: 2, default: 64 },
  start: { kind: 'slider', id: 'sinusoids-start', label: 'start (first position)', min: 0, max: 5000, default: 0 },
  t: { kind: 'slider', id: 'sinusoids-t', label: 'position t', min: 0, max: 100, default: 3,
    hint: 'Each pair turns by its own step; the trail shows the last positions.' },
});

/** Pairs to follow: the fastest two, one in between, and the slowest (distinct, for D/2 pairs). */
function chosenPairs(width) {
  const half = width / 2;
  return [...new Set([0, 1, Math.round(half / 4), half - 1].filter((i) => i < half))].sort((a, b) => a - b);
}

export async function run(so, root, settings) {
  prose(root,
    'The fixed encoding groups the <var>D</var> features in pairs: pair <var>i</var> holds the sine and cosine of one ' +
    'angle, growing with the position <var>t</var> at the pair’s own rate <var>f<sub>i</sub></var>:',
    '<div class="callout mono formula">p<sub>t</sub>[2i] &nbsp; = sin(t · f<sub>i</sub>)<br>' +
    'p<sub>t</sub>[2i+1] = cos(t · f<sub>i</sub>)<br>f<sub>i</sub> = 10000<sup>−2i/D</sup>, &nbsp; i = 0 … D/2 − 1</div>');
  codePair(root);
  fourPairsFigure(so, root);
  broadcastFigure(so, root);
  const table = tableFigure(so, root, settings);
  circlesFigure(so, root, table, settings);
  await oneSineFigure(so, root);
}

/** The lesson's own positions() in numpy, beside the call that gives this page its tables. */
function codePair(root) {
  const pair = el('div', { className: 'code-pair' });
  root.append(pair);
  codeBlock(pair, { label: 'the lesson’s positions() in Python', lines: [
    'def positions(length, width, start=0):  # the lesson’s numpy',
    '    pos = np.arange(start, start + length)[:, None]',
    '    frequency = 10000.0 ** (-np.arange(0, width, 2) / width)',
    '    pe = np.empty((length, width))',
    '    pe[:, 0::2] = np.sin(pos * frequency[None, :])',
    '    pe[:, 1::2] = np.cos(pos * frequency[None, :])',
    '    return pe'] });
  codeBlock(pair, { label: 'the same table from seqorder in JavaScript', lines: [
    '// seqorder, in this page: the same table',
    'so.positions(length, width, { start })'] });
}

/** The lesson's D = 8: four pairs, each ten times slower than the one before. */
function fourPairsFigure(so, root) {
  const f = fig(root, { title: 'D = 8 gives four frequency pairs' });
  const r = fourPairs(so);
  numbersTable(f, { caption: 'positions(2, 8): how far each pair turns from t = 0 to t = 1', drawn: 'pairs', folded: 'The four pairs, in numbers' }).show(
    ['pair i', 'columns', 'turn per position (rad)', 'a full turn every'],
    r.turns.map((turn, i) => [String(i), `${2 * i}, ${2 * i + 1}`, turn, `${fmt(2 * Math.PI / turn, 4)} positions`]));
  say(notice(f, ''), fourPairsSentences(r));
  renderChecks(checkList(f), r.checks);
}

/** The lesson's code in one product: a column of positions times a row of frequencies; and why D is even. */
function broadcastFigure(so, root) {
  const f = fig(root, { title: 'The whole table in one product, and why D is even', folded: true });
  const r = broadcastAndWidth(so);
  const half = r.frequencies.length;
  numbersTable(f, { caption: `angles t·f_i: a (${r.positions.length}, 1) column of positions times a (1, ${half}) row of frequencies`, format: (v) => fmt(v, 3) }).show(
    ['t \\ f_i', ...r.frequencies.map((fi, i) => `f${'₀₁₂₃₄₅₆₇₈₉'[i]} = ${fmt(fi)}`)],
    r.angles.map((row, t) => [String(t), ...row]));
  notice(f, 'Their sines fill the even columns, their cosines the odd ones: every sine has its cosine partner.');
  more(f, 'In the lesson’s numpy',
    '<code>pos = np.arange(start, start + length)[:, None]</code> is the (length, 1) column, ' +
    '<code>frequency[None, :]</code> the (1, D/2) row; their product broadcasts to (length, D/2). seqorder refuses an odd ' +
    'width with an error, as the lesson’s function does.');
  renderChecks(checkList(f), r.checks);
}

/** The whole table as a heatmap, with sliders for its length, width and first position. Returns its state. */
function tableFigure(so, root, settings) {
  const f = fig(root, { title: 'The whole table', id: 'sinusoids-table' });
  const values = settings.values;
  const state = {
    get length() { return values.length; }, get width() { return values.width; }, get start() { return values.start; },
    shown: null, onRendered: null,
  };
  const group = controlGroup(f, 'table size and first position');
  const map = drawnPlot('table', heatmap(f, {
    data: new Float64Array(0), rows: 0, cols: 0, range: 1, rowLabel: 'position t', colLabel: 'column (feature)',
    maxHeight: 420, ariaLabel: 'the sinusoidal position table: one row per position, one column per feature',
  }));
  const line = notice(f, '');
  more(f, 'A formula is not a trained model',
    'The formula gives a vector for any position, even one beyond every sequence seen in training. Being able to ' +
    'evaluate it there does not mean a trained model will do well at a longer context: that is a question about the ' +
    'model.');
  const list = checkList(f);
  state.render = () => {
    const { length, width, start } = state;
    const result = sinusoidTable(so, length, width, start);
    // what the heatmap shows, read by the circles below once it is drawn (the sliders move before it is)
    state.shown = { table: result.table, length, width, start };
    map.update({
      data: result.table.data, rows: length, cols: width,
      rowName: (r) => String(start + r),
      tooltip: (r, c, v) => `t = ${start + r}, column ${c}\n${c % 2 ? 'cos' : 'sin'} of pair ${c >> 1}, ` +
        `f = ${fmt(frequency(c >> 1, width))} rad/position\nvalue = ${fmt(v, 6)}`,
    });
    say(line, tableSentences(result.table, start));
    renderChecks(list, result.checks);
    state.onRendered?.();
  };
  const schedule = perFrame(() => state.render());
  for (const name of ['length', 'width', 'start']) settingControl(group, settings, name, { onChange: schedule });
  state.render();
  return state;
}

/** A few pairs of the table above as points on circles, and their sine columns as curves. */
function circlesFigure(so, root, table, settings) {
  const f = fig(root, { title: 'Fast pairs and slow pairs' });
  f.dataset.controls = 'sinusoids-length sinusoids-width sinusoids-start';
  const group = controlGroup(f, 'position on the circles');
  const row = el('div', { className: 'plot-row' });
  f.append(row);
  const circles = drawnPlot('circles', circlePlot(row, { height: 260, ariaLabel: 'the chosen pairs as points on the unit circle at position t' }));
  const waves = linePlot(row, {
    xLabel: 'position t', yLabel: 'sine column', yRange: [-1.1, 1.1], height: 260,
    ariaLabel: 'the sine column of each chosen pair across the table’s positions',
  });
  const line = notice(f, '');
  const list = checkList(f);
  const render = () => {
    const { table: shown, width, start, length } = table.shown;
    const { t } = settings.values;
    const pairs = chosenPairs(width);
    const from = Math.max(0, t - 6);
    const { data } = so.positions(t - from + 1, width, { start: from });
    const last = t - from;
    circles.update({
      points: pairs.map((i) => ({
        name: `pair ${i} (${fmt(frequency(i, width), 2)} rad/position)`,
        x: data[last * width + 2 * i + 1], y: data[last * width + 2 * i],
        trail: Array.from({ length: last + 1 }, (_, r) => [data[r * width + 2 * i + 1], data[r * width + 2 * i]]),
      })),
      ariaLabel: `pairs ${pairs.join(', ')} of D = ${width} on the unit circle at position ${t}, trails from position ${from}`,
    });
    const ts = Array.from({ length }, (_, r) => start + r);
    waves.update({
      series: pairs.map((i) => ({ name: `sin, pair ${i}`, x: ts, y: ts.map((_, r) => shown.data[r * width + 2 * i]) })),
    });
    say(line, [...turnSentences(width), width > 2 ? 'Fast pairs tell neighbours apart, slow ones distant positions.' : null]);
    renderChecks(list, pairSpeeds(so, width).checks);
  };
  const schedule = perFrame(render);
  table.onRendered = schedule;
  settingControl(group, settings, 't', { onChange: schedule });
  render();
}

/** Distances from position 0 for one fast pair, one slow pair and all pairs (D = 64), and the closest repeats. */
async function oneSineFigure(so, root) {
  const f = fig(root, { title: 'Why not a single sine?' });
  const distances = drawnPlot('distances', linePlot(f, {
    xLabel: 'position t', yLabel: 'distance from p₀', yRange: [0, 2.05], height: 230,
    ariaLabel: 'distance between the code of position t and the code of position 0, for one fast pair, one slow pair and the pairs together',
  }));
  const line = notice(f, 'Computing…');
  more(f, 'Reading the curves',
    'One sine of the position is a single number per position: its period is 2π ≈ 6.28 positions, so positions far ' +
    'apart land on nearly the same value, and even a whole (sin, cos) pair comes back near where it started after a ' +
    'whole number of turns. One slow pair alone has the opposite problem: it turns so little per position that ' +
    'neighbours lie close together. Together, the fast pairs separate neighbours and the slow pairs separate distant ' +
    'positions. The pairs’ joint distance is divided by √(D/2) to share the scale; D = 64 here, whatever the sliders ' +
    'above say.');
  const list = checkList(f);
  // The search over all pairs of positions takes ~0.1 s: off the main thread.
  const repeats = await inWorker(so, './experiments/sinusoids.mjs', 'onePairComesBack', { length: 512, width: 64, curveLength: 100 });
  distances.update({
    series: [
      { name: 'pair 0 alone (fast)', x: repeats.curves.t, y: repeats.curves.fast, width: 1.25, opacity: 0.75 },
      { name: `pair ${repeats.width / 2 - 1} alone (slow)`, x: repeats.curves.t, y: repeats.curves.slow },
      { name: `the ${repeats.width / 2} pairs together / √(D/2)`, x: repeats.curves.t, y: repeats.curves.all, width: 3 },
    ],
  });
  say(line, onePairSentences(repeats));
  renderChecks(list, repeats.checks);
}
