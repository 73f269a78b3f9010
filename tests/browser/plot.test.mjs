// The plots in a real browser (the package's seqorder/plot, as the built site serves it: lib/figures/plot/). The
// heatmap's margins fit what is drawn: every label (ticks, titles, color-bar values) lies inside the canvas, no two
// upright labels overlap, the row title stays clear of long row names, and column names that are words are all shown
// (upright, smaller, or turned 45°) while numbers keep a step. Line plots grow live (append), read out by keyboard,
// and draw a line at an end of the y range inside the frame, clear of its edges, beside a tick that names it; the
// circle's axis names stay clear of its points; a heatmap grid shares one color range; a heatmap's note wraps rather than being cut. Each plot records its drawn
// labels' boxes (handle.layout().labels), computed from measureText with the same font that paints them.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser } from './helpers/browser.mjs';

let session;
let page;

before(async () => {
  session = await launchBrowser({ viewport: { width: 1000, height: 900 } });
  ({ page } = session);
  const errors = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  session.errors = errors;
  // A blank page on the site's origin with the lesson's stylesheets, so that the plots import and size as there.
  const body = '<!doctype html><title>plot</title><link rel="stylesheet" href="/lib/figures/figures.css"><link rel="stylesheet" href="/css/style.css"><body></body>';
  await page.route(`${session.origin}/__plot/**`, (route) => route.fulfill({ status: 200, contentType: 'text/html', body }));
  await page.goto(`${session.origin}/__plot/index.html`, { waitUntil: 'load' });
});

after(async () => {
  await session?.close();
});

/**
 * Draws a heatmap `rows` × `cols` in a container `width` px wide; `values` fills the data (cycled); `rowNames` and
 * `colNames` (arrays, optional) name the rows and columns. Resolves to { layout, canvas: { width, height } }.
 */
async function drawHeatmap({ width, rows, cols, values = [1], rowNames, colNames, ...options }) {
  return page.evaluate(async ({ width, rows, cols, values, rowNames, colNames, options }) => {
    const { heatmap } = await import('/lib/figures/plot/index.mjs');
    document.body.replaceChildren();
    const box = document.createElement('div');
    box.style.width = `${width}px`;
    document.body.append(box);
    const data = Float64Array.from({ length: rows * cols }, (_, i) => values[i % values.length]);
    const plot = heatmap(box, {
      data, rows, cols, ...options,
      ...(rowNames ? { rowName: (r) => rowNames[r] } : {}),
      ...(colNames ? { colName: (c) => colNames[c] } : {}),
    });
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    plot.flush();
    const rect = plot.canvas.getBoundingClientRect();
    return { layout: JSON.parse(JSON.stringify(plot.layout())), canvas: { width: rect.width, height: rect.height } };
  }, { width, rows, cols, values, rowNames, colNames, options });
}

const describe = (l) => `${l.kind} "${l.text}" [${l.x0.toFixed(1)}, ${l.x1.toFixed(1)}] × [${l.y0.toFixed(1)}, ${l.y1.toFixed(1)}]`;
const overlap = (a, b) => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;

/** Every label inside the canvas; no two overlap (turned column names, parallel, are checked by their spacing). */
function assertTidy({ layout, canvas }, what) {
  assert.ok(layout.labels.length > 0, `${what}: no labels recorded`);
  for (const l of layout.labels) {
    assert.ok(l.x0 >= 0 && l.x1 <= canvas.width && l.y0 >= 0 && l.y1 <= canvas.height,
      `${what}: ${describe(l)} is outside the ${canvas.width}×${canvas.height} canvas`);
  }
  const { labels } = layout;
  for (let i = 0; i < labels.length; i += 1) {
    for (let j = i + 1; j < labels.length; j += 1) {
      const [a, b] = [labels[i], labels[j]];
      if (a.kind === 'col' && b.kind === 'col' && a.turn && b.turn) continue;
      assert.ok(!overlap(a, b), `${what}: ${describe(a)} overlaps ${describe(b)}`);
    }
  }
}

// 160: a squeeze (the canvas's floor is 120); 330: a phone; 700: a desktop column.
const WIDTHS = [160, 240, 330, 700];

test('long color-bar values are never clipped', async () => {
  const cases = [
    { values: [0.9966, 0.2, 0.5], scale: 'sequential', label: '0.9966' },
    { values: [2.931e-8, -1e-8, 0], label: '2.931e−8' },
    { values: [-20.26, 3, 20.26], label: '−20.26' },
    { values: [-123456.7, 1], label: '−123500' },
    { values: [-2.5e7, 1], label: '−2.5e+7' },
  ];
  for (const width of WIDTHS) {
    for (const { values, scale, label } of cases) {
      const result = await drawHeatmap({ width, rows: 6, cols: 6, values, scale });
      const bar = result.layout.labels.filter((l) => l.kind === 'bar').map((l) => l.text);
      assert.ok(bar.includes(label), `width ${width}: color-bar labels ${bar} lack ${label}`);
      assertTidy(result, `width ${width}, ${label}`);
    }
  }
});

test('long row names get a wider left margin and stay clear of the row title', async () => {
  const rowNames = ['the', 'person', 'representation', 'of', 'x'];
  for (const width of WIDTHS) {
    for (const rowLabel of ['query', 'query position (a longer title)', '']) {
      const result = await drawHeatmap({ width, rows: 5, cols: 5, rowNames, rowLabel, values: [0.1, -0.4, 0.9] });
      const rows = result.layout.labels.filter((l) => l.kind === 'row').map((l) => l.text);
      assert.equal(rows.length, rowNames.length, `width ${width}: every row is named`);
      // Whole from a phone's width up; in a squeeze, a long name may be cut with '…' (never dropped).
      rows.forEach((shown, r) => assert.ok(shown === rowNames[r] || (width < 330 && shown.endsWith('…')
        && rowNames[r].startsWith(shown.slice(0, -1))), `width ${width}: row ${r} shown as "${shown}"`));
      assert.equal(result.layout.labels.some((l) => l.kind === 'row-title'), rowLabel !== '', 'a row title only when given');
      assertTidy(result, `width ${width}, row title "${rowLabel}"`);
    }
  }
});

test('column names that are words are all shown: upright when they fit, else smaller or turned 45°', async () => {
  const five = ['the', 'robot', 'follows', 'the', 'person'];
  const twelve = ['a', 'small', 'robot', 'follows', 'the', 'tall', 'person', 'across', 'the', 'quiet', 'grey', 'street'];
  // A long first name, turned, reaches left past the plot: with no row title it needs room of its own.
  const longFirst = ['representations', 'of', 'each', 'word', 'in', 'the', 'sentence', 'are', 'rows'];
  const seen = new Set();
  for (const width of [200, 240, 330, 700]) {
    for (const colNames of [five, twelve, longFirst]) {
      const rowLabel = colNames === longFirst ? '' : 'query';
      const result = await drawHeatmap({ width, rows: 3, cols: colNames.length, colNames, colLabel: 'key', rowLabel });
      const { col, plot } = result.layout;
      const shown = result.layout.labels.filter((l) => l.kind === 'col').map((l) => l.text);
      const cw = plot.w / colNames.length;
      if (cw * Math.SQRT1_2 >= 11) assert.deepEqual(shown, colNames, `width ${width}: every word is shown`);
      if (col.rotated) {
        const step = (col.ticks[1] ?? col.ticks[0] + 1) - col.ticks[0];
        assert.ok(step * cw * Math.SQRT1_2 >= col.px + 2, `width ${width}: turned names ${step * cw * Math.SQRT1_2} px apart`);
      }
      seen.add(col.rotated ? 'turned' : `upright ${col.px}px`);
      assertTidy(result, `width ${width}, ${colNames.length} words`);
    }
  }
  assert.ok(seen.has('turned') && seen.has('upright 11px'), `layouts met: ${[...seen]}`);
});

test('numbered columns keep a nice step, labels apart', async () => {
  for (const width of WIDTHS) {
    const result = await drawHeatmap({ width, rows: 64, cols: 64, values: [1, -1, 0.5] });
    const { ticks } = result.layout.col;
    assert.ok(ticks.length >= 2 && ticks.length < 64, `width ${width}: ticks ${ticks}`);
    const step = ticks[1] - ticks[0];
    assert.ok([1, 2, 5, 10, 20, 50].includes(step), `width ${width}: step ${step}`);
    assertTidy(result, `width ${width}, 64 × 64`);
  }
});

test('a line plot grows live: append adds points and series, the legend follows, labels stay inside', async () => {
  const result = await page.evaluate(async () => {
    const { linePlot } = await import('/lib/figures/plot/index.mjs');
    document.body.replaceChildren();
    const plot = linePlot(document.body, { xLabel: 'step', yLabel: 'loss', yLog: true, integerX: true });
    const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    for (let step = 0; step < 50; step += 1) {
      plot.append('train', step, 3 * Math.exp(-step / 10));
      if (step % 5 === 0) plot.append('validation', step, 3.2 * Math.exp(-step / 12), { dashed: true });
    }
    await frame();
    plot.flush();
    const legend = [...plot.figure.querySelectorAll('.legend-item')].map((el) => el.textContent);
    const { labels } = plot.layout();
    const rect = plot.canvas.getBoundingClientRect();
    return { legend, labels, canvas: { width: rect.width, height: rect.height } };
  });
  assert.deepEqual(result.legend, ['train', 'validation']);
  // The data's 0.022 … 3.2, on an axis from 0.02 to 4: one significant digit each, a power of ten among them.
  const ys = result.labels.filter((l) => l.kind === 'y').map((l) => l.text);
  assert.ok(ys.length >= 3 && ys.every((t) => /^(0\.0*)?[1-9]0*$/.test(t)) && ys.some((t) => /^(0\.0*)?10*$/.test(t)), `log ticks: ${ys}`);
  assert.ok(Number(ys[0]) <= 0.022 && Number(ys.at(-1)) >= 3.2, `log ticks: ${ys} do not span the data`);
  const xs = result.labels.filter((l) => l.kind === 'x').map((l) => Number(l.text));
  assert.ok(xs.length >= 2 && xs.every(Number.isInteger), `x ticks: ${xs}`);
  assertTidy({ layout: { labels: result.labels }, canvas: result.canvas }, 'line plot');
});

/**
 * Draws a line plot 600 px wide with `options`; its series named 'mark' is drawn in pure red. Resolves to its layout,
 * the y tick labels, and the rows (CSS pixels) where the canvas's middle column is red.
 */
async function drawLines(options) {
  return page.evaluate(async (options) => {
    const { linePlot } = await import('/lib/figures/plot/index.mjs');
    document.body.replaceChildren();
    const box = document.createElement('div');
    box.style.width = '600px';
    document.body.append(box);
    const series = options.series.map((s) => (s.name === 'mark' ? { ...s, color: '#ff0000' } : s));
    const plot = linePlot(box, { ...options, series });
    plot.flush();
    const { plot: frame, labels } = plot.layout();
    const dpr = window.devicePixelRatio || 1;
    const x = Math.round((frame.x + frame.w / 2) * dpr);
    const { data } = plot.canvas.getContext('2d').getImageData(x, 0, 1, plot.canvas.height);
    const red = new Set();
    for (let row = 0; row < plot.canvas.height; row += 1) {
      const [r, g, b] = data.subarray(4 * row, 4 * row + 3);
      if (r > 200 && g < 90 && b < 90) red.add(Math.floor(row / dpr));
    }
    return { frame, yTicks: labels.filter((l) => l.kind === 'y'), red: [...red].sort((a, b) => a - b) };
  }, options);
}

test('a line at an end of the y range is drawn inside the frame, clear of its edges, on a labelled tick', async () => {
  const x = Array.from({ length: 20 }, (_, i) => i);
  const flat = (v) => x.map(() => v);
  const cases = [
    // accuracy at 100% on a range given: the range stays, the line stays off the top edge
    { what: '100 on [0, 100]', at: 'top', tick: '100', options: { yRange: [0, 100], series: [{ name: 'mark', x, y: flat(100) }, { name: 'b', x, y: x.map((i) => 50 + i) }] } },
    // a distance starting at 0 on a range given, off the bottom edge
    { what: '0 on [0, 2.05]', at: 'bottom', tick: '0', options: { yRange: [0, 2.05], series: [{ name: 'mark', x, y: flat(0) }, { name: 'b', x, y: x.map((i) => i / 10) }] } },
    // the loss of a model that learns nothing, the largest on a log axis: the axis ends at 0.7, a tick
    { what: 'a loss at 0.698, log', at: 'top', tick: '0.7', options: { yLog: true, series: [{ name: 'mark', x, y: flat(0.698) }, { name: 'b', x, y: x.map((i) => 0.6 * 0.7 ** i) }] } },
    // a norm of 4 above norms of 0.089 … 0.15, log
    { what: 'a norm of 4, log', at: 'top', tick: '4', options: { yLog: true, series: [{ name: 'b', x, y: x.map((i) => 0.089 + i / 300) }, { name: 'mark', x, y: flat(4) }] } },
    // linear, its range from the data
    { what: '0.98 of 0 … 0.98', at: 'top', tick: '1', options: { series: [{ name: 'mark', x, y: flat(0.98) }, { name: 'b', x, y: x.map((i) => i / 20) }] } },
  ];
  for (const { what, at, tick, options } of cases) {
    const { frame, yTicks, red } = await drawLines({ height: 220, ...options });
    // the frame's edges are the rows frame.y − 1 and frame.y + frame.h; a line 2 px wide shows whole, 3 px clear
    assert.ok(red.length >= 2, `${what}: the line shows on ${red.length} rows`);
    const clear = at === 'top' ? red[0] - frame.y : frame.y + frame.h - 1 - red.at(-1);
    assert.ok(clear >= 3, `${what}: the line (rows ${red}) is ${clear} px from the frame's ${at} edge (${frame.y}, height ${frame.h})`);
    const end = at === 'top' ? yTicks.reduce((a, b) => (b.y0 < a.y0 ? b : a)) : yTicks.reduce((a, b) => (b.y0 > a.y0 ? b : a));
    const middle = (end.y0 + end.y1) / 2;
    assert.equal(end.text, tick, `${what}: the ${at} tick`);
    // beside its value: 0.98 lies 3 px below the tick 1
    assert.ok(Math.abs(middle - (red[0] + red.at(-1) + 1) / 2) <= 4, `${what}: the tick ${tick} at ${middle}, the line at rows ${red}`);
  }
});

test('line and circle plots read out by keyboard: the arrow keys step through the values', async () => {
  await page.evaluate(async () => {
    const { circlePlot, linePlot } = await import('/lib/figures/plot/index.mjs');
    document.body.replaceChildren();
    linePlot(document.body, { series: [{ name: 'a', x: [0, 1, 2], y: [5, 6, 7] }, { name: 'b', x: [0, 1, 2], y: [1, 2, 3] }], xLabel: 't' });
    circlePlot(document.body, { points: [{ name: 'pair 0', x: 1, y: 0 }, { name: 'pair 1', x: 0, y: 1 }] });
  });
  const read = async (i, keys) => {
    const canvas = page.locator('canvas').nth(i);
    await canvas.focus();
    for (const key of keys) await page.keyboard.press(key);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    return canvas.evaluate((el) => el.closest('figure').querySelector('[aria-live]').textContent);
  };
  assert.equal(await read(0, ['ArrowRight']), 't = 0; a: 5; b: 1');
  assert.equal(await read(0, ['ArrowRight', 'ArrowRight']), 't = 2; a: 7; b: 3');
  assert.equal(await read(0, ['Home']), 't = 0; a: 5; b: 1');
  assert.match(await read(1, ['ArrowRight']), /^pair 0; angle 0 rad: cos 1, sin 0$/);
  assert.match(await read(1, ['ArrowRight']), /^pair 1; angle 1\.571 rad: cos 0, sin 1$/);
});

test('the circle\'s axis names stay clear of points on the axes, at every width', async () => {
  for (const width of [200, 330, 700]) {
    const { labels, dots } = await page.evaluate(async (width) => {
      const { circlePlot } = await import('/lib/figures/plot/index.mjs');
      document.body.replaceChildren();
      const box = document.createElement('div');
      box.style.width = `${width}px`;
      document.body.append(box);
      const points = [[1, 0], [0, 1], [-1, 0], [0, -1], [Math.SQRT1_2, Math.SQRT1_2]].map(([x, y], i) => ({ name: `p${i}`, x, y }));
      const plot = circlePlot(box, { points });
      plot.flush();
      return JSON.parse(JSON.stringify(plot.layout()));
    }, width);
    for (const l of labels) {
      for (const d of dots) {
        const inside = d.x + d.r > l.x0 && d.x - d.r < l.x1 && d.y + d.r > l.y0 && d.y - d.r < l.y1;
        assert.ok(!inside, `width ${width}: "${l.text}" [${l.x0}, ${l.x1}] × [${l.y0}, ${l.y1}] covers the point at (${d.x}, ${d.y})`);
      }
    }
  }
});

test('a heatmap grid puts its maps on one color range', async () => {
  const bars = await page.evaluate(async () => {
    const { heatmapGrid } = await import('/lib/figures/plot/index.mjs');
    document.body.replaceChildren();
    const grid = heatmapGrid(document.body, {
      maps: [{ title: 'small', data: [0.1, -0.2, 0.3, 0.4], rows: 2, cols: 2 }, { title: 'large', data: [2, -5, 1, 0], rows: 2, cols: 2 }],
    });
    grid.update({ maps: [...grid.maps().map((_, i) => ({ title: `m${i}`, data: [i, -1, 0.5, 2], rows: 2, cols: 2 })), { title: 'new', data: [3, 0, 0, 0], rows: 2, cols: 2 }] });
    return grid.maps().map((plot) => {
      plot.flush();
      return plot.layout().labels.filter((l) => l.kind === 'bar').map((l) => l.text)[0];
    });
  });
  assert.deepEqual(bars, ['3', '3', '3']);
  assert.deepEqual(session.errors, []);
});

test('a heatmap\'s note wider than its cells wraps onto lines that show all of it; one that fits stays one line', async () => {
  const drawn = (width, note) => page.evaluate(async ({ width, note }) => {
    const { heatmap } = await import('/lib/figures/plot/index.mjs');
    document.body.replaceChildren();
    const box = document.createElement('div');
    box.style.width = `${width}px`;
    document.body.append(box);
    const texts = [];
    const fillText = CanvasRenderingContext2D.prototype.fillText;
    CanvasRenderingContext2D.prototype.fillText = function (text, ...rest) {
      texts.push(String(text));
      return fillText.call(this, text, ...rest);
    };
    try {
      const plot = heatmap(box, { data: new Float64Array(3 * 8), rows: 3, cols: 8, note });
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      plot.flush();
    } finally {
      CanvasRenderingContext2D.prototype.fillText = fillText;
    }
    return texts;
  }, { width, note });
  const note = 'blank on purpose: max |Δ| = 4.44e−16';
  const narrow = await drawn(300, note);
  // the note's lines, as painted (once per paint; labels such as "−1" are shorter than any of them)
  const lines = [...new Set(narrow.filter((t) => t.length > 3 && note.includes(t.replace(/…$/, ''))))];
  assert.ok(lines.length >= 2, `one line: ${JSON.stringify(narrow)}`);
  assert.equal(lines.join(' '), note, JSON.stringify(narrow));
  const wide = await drawn(900, note);
  assert.ok(wide.includes(note), JSON.stringify(wide));
  assert.deepEqual(session.errors, []);
});
