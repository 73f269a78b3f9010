// Section 3: the sinusoid table as an interactive heatmap; pairs turning at different speeds; why one sine is not enough.
import { check } from '../checks.mjs';
import { circlePlot, heatmap, linePlot } from '../plot.mjs';
import { controls, el, perFrame, prose, slider } from '../ui.mjs';
import { frequency, pairSpeeds, sinusoidTable } from '../experiments/positions.mjs';
import { inWorker } from '../worker-client.mjs';

/** Pairs to follow: the fastest two, one in between, and the slowest (distinct, for D/2 pairs). */
function chosenPairs(width) {
  const half = width / 2;
  return [...new Set([0, 1, Math.round(half / 4), half - 1].filter((i) => i < half))].sort((a, b) => a - b);
}

export async function run(so, root) {
  prose(root,
    'We need a vector for every position, and the lesson picks a fixed recipe instead of learning one. The <var>D</var> ' +
    'features are grouped in pairs. Pair <var>i</var> is a sine and a cosine of the same angle, and that angle grows ' +
    'with the position <var>t</var> at the pair’s own rate:',
    '<div class="callout mono formula">p<sub>t</sub>[2i] &nbsp; = sin(t · f<sub>i</sub>)<br>' +
    'p<sub>t</sub>[2i+1] = cos(t · f<sub>i</sub>)<br>' +
    'f<sub>i</sub> = 10000<sup>−2i/D</sup>, &nbsp; i = 0 … D/2 − 1</div>',
    'Pair 0 turns by one radian per position; each later pair turns more slowly, down to about 1/10000 of a radian. ' +
    'Below is the whole table: one row per position, one column per feature. Drag the sliders (or focus one and use ' +
    'the arrow keys) and hover over a cell, or focus the picture and move through it with the arrow keys.');

  // ---- the table as a heatmap ----
  const state = { length: 64, width: 64, start: 0 };
  const group = controls(root, 'table size and first position');
  const map = heatmap(root, {
    data: new Float64Array(0), rows: 0, cols: 0, range: 1, rowLabel: 'position t', colLabel: 'column (feature)',
    maxHeight: 380,
    ariaLabel: 'heatmap of the sinusoidal position table: rows are positions, columns are features',
  });
  const render = () => {
    const { length, width, start } = state;
    const result = sinusoidTable(so, length, width, start);
    state.table = result.table;
    state.tableStart = start;
    map.update({
      data: result.table.data, rows: length, cols: width,
      rowName: (r) => String(start + r),
      tooltip: (r, c, v) => `t = ${start + r}, column ${c}\n${c % 2 ? 'cos' : 'sin'} of pair ${c >> 1}, ` +
        `f = ${frequency(c >> 1, width).toPrecision(3)} rad/step\nvalue = ${v.toFixed(6)}`,
    });
    map.flush();
    for (const c of result.checks) check(checkSlot, c.name, c.pass, c.details, { claim: c.claim });
  };
  const schedule = perFrame(render);
  const set = (key) => (value) => {
    state[key] = value;
    schedule();
  };
  slider(group, { id: 'sinusoids-length', label: 'length (positions)', min: 1, max: 512, value: state.length, onInput: set('length') });
  slider(group, { id: 'sinusoids-width', label: 'width D', min: 2, max: 256, step: 2, value: state.width, onInput: set('width') });
  slider(group, { id: 'sinusoids-start', label: 'start (first position)', min: 0, max: 5000, value: state.start, onInput: set('start') });
  const checkSlot = el('div', { className: 'checks' });
  root.appendChild(checkSlot);
  render();

  prose(root,
    'Read the picture from left to right: the first columns flicker from row to row, the last ones hardly change over ' +
    'hundreds of rows. Row 0 is the striped pattern 0, 1, 0, 1, … (every sine of 0 is 0, every cosine is 1).');

  // ---- fast and slow pairs ----
  root.appendChild(el('h3', {}, 'Fast pairs and slow pairs'));
  prose(root,
    'Each pair is a point on a circle: (cos, sin) of its angle. Stepping from one position to the next turns every point ' +
    'by its pair’s fixed angle f<sub>i</sub>. Follow a few pairs of the table above (its width D) as <var>t</var> grows: ' +
    'pair 0 races around, the last pair creeps. The faint trail marks the previous positions.');
  const group2 = controls(root, 'position on the circles');
  const row = el('div', { className: 'plot-row' });
  root.appendChild(row);
  const circles = circlePlot(row, { points: [], height: 260, ariaLabel: 'each chosen pair as a point on the unit circle at position t' });
  const waves = linePlot(row, {
    series: [], xLabel: 'position t', yLabel: 'sine column', yRange: [-1.1, 1.1], height: 260,
    ariaLabel: 'the sine column of each chosen pair across the table’s positions',
  });
  let t = 3;
  const renderPairs = () => {
    const { width, start, length } = state;
    const pairs = chosenPairs(width);
    const from = Math.max(0, t - 6);
    const { data } = so.positions(t - from + 1, width, { start: from });
    const last = t - from;
    circles.update({
      points: pairs.map((i) => ({
        name: `pair ${i} (${frequency(i, width).toPrecision(2)} rad/step)`,
        x: data[last * width + 2 * i + 1], y: data[last * width + 2 * i],
        trail: Array.from({ length: last + 1 }, (_, r) => [data[r * width + 2 * i + 1], data[r * width + 2 * i]]),
      })),
      ariaLabel: `pairs ${pairs.join(', ')} on the unit circle at position ${t}`,
    });
    // The heatmap's table (render runs first in a frame); recomputed only if it is not the current one.
    const current = state.table?.shape[0] === length && state.table?.shape[1] === width && state.tableStart === start;
    const table = current ? state.table : so.positions(length, width, { start });
    const ts = Array.from({ length }, (_, r) => start + r);
    waves.update({
      series: pairs.map((i) => ({ name: `sin, pair ${i}`, x: ts, y: ts.map((_, r) => table.data[r * width + 2 * i]) })),
    });
    const speeds = pairSpeeds(so, width);
    for (const c of speeds.checks) check(checkSlot2, c.name, c.pass, c.details, { claim: c.claim });
  };
  const schedulePairs = perFrame(renderPairs);
  slider(group2, {
    id: 'sinusoids-t', label: 'position t', min: 0, max: 100, value: t, hint: 'Turns every pair by its own step.',
    onInput: (v) => { t = v; schedulePairs(); },
  });
  const checkSlot2 = el('div', { className: 'checks' });
  root.appendChild(checkSlot2);
  // Sliders of the table above change D and the range of t: redraw the pairs too.
  for (const id of ['sinusoids-length', 'sinusoids-width', 'sinusoids-start'])
    root.querySelector(`#${id}`).addEventListener('input', schedulePairs);
  renderPairs();

  // ---- why not a single sine ----
  root.appendChild(el('h3', {}, 'Why not a single sine?'));
  prose(root,
    'One sine of the position would be a single number per position, and it comes back to the same values over and over: ' +
    'its period is 2π ≈ 6.28 positions, so positions far apart land on nearly the same value (the first check below finds the closest such pair among 512 positions). One slow pair alone has the ' +
    'opposite problem: neighbours are almost identical. Together, the fast pairs separate neighbours and the slow pairs ' +
    'separate distant positions. The curves show how far each position’s code is from position 0’s (D = 64; the ' +
    '“all pairs” curve is divided by √(D/2) to share the scale).');
  const distances = linePlot(root, {
    series: [], xLabel: 'position t', yLabel: 'distance from p₀', yRange: [0, 2.05], height: 230,
    ariaLabel: 'distance between the code of position t and the code of position 0, for one fast pair, one slow pair and all pairs',
  });
  // The search over all pairs of positions takes ~0.1 s: run it off the main thread.
  const repeats = await inWorker(so, './experiments/positions.mjs', 'oneSineRepeats', { length: 512, width: 64, curveLength: 100 });
  distances.update({
    series: [
      { name: 'pair 0 alone (fast)', x: repeats.curves.t, y: repeats.curves.fast, width: 1.25, opacity: 0.75 },
      { name: `pair ${repeats.width / 2 - 1} alone (slow)`, x: repeats.curves.t, y: repeats.curves.slow },
      { name: `all ${repeats.width / 2} pairs / √(D/2)`, x: repeats.curves.t, y: repeats.curves.all, width: 3 },
    ],
  });
  const checkSlot3 = el('div', { className: 'checks' });
  root.appendChild(checkSlot3);
  for (const c of repeats.checks) check(checkSlot3, c.name, c.pass, c.details, { claim: c.claim });
}
