// Small canvas plots shared by every section of the lesson page. No dependencies.
//
//   const h = heatmap(container, { data, rows, cols, rowLabel, colLabel, ... });   h.update({ data, rows, cols });
//   const l = linePlot(container, { series: [{ name, x, y }], xLabel, yLabel });  l.update({ series });
//   const c = circlePlot(container, { points: [{ name, x, y, trail }] });           c.update({ points });
//
// Each call appends a <figure class="plot"> (a canvas, a tooltip, an HTML legend) to `container` and returns
// { figure, canvas, update(changes), destroy() }. `update` merges `changes` into the options and redraws in the next
// animation frame (several updates in one frame draw once). Plots are sized to the container's width, redrawn when
// it changes, and drawn at devicePixelRatio for sharp lines. Colors come from CSS custom properties (style.css), so
// light and dark themes both work. Heatmaps are keyboard-usable: focus one and move a cursor with the arrow keys.

const SERIES_COLORS = ['--series-0', '--series-1', '--series-2', '--series-3', '--series-4', '--series-5'];

function cssVar(el, name, fallback) {
  const value = getComputedStyle(el).getPropertyValue(name).trim();
  return value || fallback;
}

/** Parses '#rrggbb' / '#rgb' / 'rgb(r, g, b)' into [r, g, b]. */
function parseColor(text) {
  const t = text.trim();
  if (t.startsWith('#')) {
    const hex = t.length === 4 ? [...t.slice(1)].map((c) => c + c).join('') : t.slice(1, 7);
    return [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16));
  }
  const m = t.match(/rgba?\(([^)]+)\)/);
  if (m) return m[1].split(/[ ,]+/).slice(0, 3).map(Number);
  return [128, 128, 128];
}

function mix(a, b, s) {
  return [a[0] + (b[0] - a[0]) * s, a[1] + (b[1] - a[1]) * s, a[2] + (b[2] - a[2]) * s];
}

/** Short number for ticks and tooltips. */
export function formatValue(x) {
  if (x === -Infinity) return '−∞ (masked)';
  if (x === Infinity) return '∞';
  if (Number.isNaN(x)) return 'NaN';
  if (x === 0) return '0';
  const a = Math.abs(x);
  const s = a >= 1e-3 && a < 1e5 ? String(Number(x.toPrecision(4))) : x.toExponential(3);
  return s.replace('-', '−');
}

/** About `count` "nice" tick values covering [lo, hi]. */
function niceTicks(lo, hi, count = 5) {
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? raw;
  const ticks = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) ticks.push(Math.abs(v) < step * 1e-9 ? 0 : v);
  return ticks;
}

/** Integer indices 0 … n−1 at a step of 1, 2 or 5 × 10^k: at most about `count` of them, and at least `minStep` apart. */
function indexTicks(n, count = 6, minStep = 1) {
  const raw = Math.max((n - 1) / Math.max(count, 1), minStep, 1);
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw - 1e-9);
  return everyKth(n, step);
}

/** Every k-th index of 0 … n−1, starting at 0. */
function everyKth(n, k) {
  const ticks = [];
  for (let i = 0; i < n; i += k) ticks.push(i);
  return ticks;
}

const labelFont = (px) => `${px}px system-ui, sans-serif`;
const TITLE_FONT = '12px system-ui, sans-serif';
const SIN45 = Math.SQRT1_2;
const NUMBER = /^[−+-]?(\d+\.?\d*|\.\d+)(e[−+-]?\d+)?$/i;

/** True when the names of 0 … n−1 (up to 64 of them sampled) all read as numbers: '12', '−3', '2.5e−8'. */
function numericNames(n, name) {
  const step = Math.max(1, Math.floor(n / 64));
  for (let i = 0; i < n; i += step) if (!NUMBER.test(String(name(i)))) return false;
  return true;
}

/** Widest of `texts` in the context's current font. */
function widest(ctx, texts) {
  let w = 0;
  for (const t of texts) w = Math.max(w, ctx.measureText(t).width);
  return w;
}

/** `text` cut with '…' to fit `maxWidth` in the context's current font. */
function fitText(ctx, text, maxWidth) {
  if (ctx.measureText(text).width <= maxWidth) return text;
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (ctx.measureText(`${text.slice(0, mid)}…`).width <= maxWidth) lo = mid;
    else hi = mid - 1;
  }
  return lo > 0 ? `${text.slice(0, lo)}…` : '';
}

/**
 * Shared machinery: a figure with a canvas sized to the container, a tooltip, a legend, resize and redraw handling.
 * `draw(ctx, width, height, state)` paints in CSS pixels.
 */
function makePlot(container, options, draw, { className = '' } = {}) {
  const figure = document.createElement('figure');
  figure.className = `plot ${className}`.trim();
  const frame = document.createElement('div');
  frame.className = 'plot-frame';
  const canvas = document.createElement('canvas');
  canvas.className = 'plot-canvas';
  const tooltip = document.createElement('div');
  tooltip.className = 'plot-tooltip';
  tooltip.hidden = true;
  tooltip.setAttribute('role', 'status');
  tooltip.setAttribute('aria-live', 'polite');
  const legend = document.createElement('div');
  legend.className = 'plot-legend';
  frame.append(canvas, tooltip);
  figure.append(frame, legend);
  if (options.caption) {
    const caption = document.createElement('figcaption');
    caption.textContent = options.caption;
    figure.appendChild(caption);
  }
  container.appendChild(figure);

  const state = { options: { ...options }, width: 0, height: 0, pending: 0, hover: null, canvas, tooltip, legend, figure };

  function render() {
    state.pending = 0;
    const width = Math.max(Math.floor(frame.clientWidth), 120);
    // A plot with its own layout (the heatmap) sizes itself and honours options.height there.
    const height = Math.round(state.layoutHeight?.(width) ?? state.options.height ?? Math.min(320, width * 0.6));
    const dpr = window.devicePixelRatio || 1;
    if (canvas.width !== Math.round(width * dpr) || canvas.height !== Math.round(height * dpr)) {
      canvas.width = Math.round(width * dpr);
      canvas.height = Math.round(height * dpr);
      canvas.style.height = `${height}px`;
    }
    state.width = width;
    state.height = height;
    const ctx = canvas.getContext('2d');
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, width, height);
    draw(ctx, width, height, state);
  }

  function schedule() {
    if (!state.pending) state.pending = requestAnimationFrame(render);
  }

  let lastWidth = 0;
  const observer = new ResizeObserver(() => {
    if (frame.clientWidth !== lastWidth) {
      lastWidth = frame.clientWidth;
      schedule();
    }
  });
  observer.observe(frame);

  if (options.ariaLabel) {
    canvas.setAttribute('role', 'img');
    canvas.setAttribute('aria-label', options.ariaLabel);
  }

  state.showTooltip = (text, x, y) => {
    tooltip.textContent = text;
    tooltip.hidden = false;
    // Keep the tooltip inside the frame: left of the pointer when near the right edge.
    const w = tooltip.offsetWidth;
    const h = tooltip.offsetHeight;
    const left = x + 14 + w > state.width ? Math.max(0, x - 14 - w) : x + 14;
    const top = Math.min(Math.max(0, y - h - 10), Math.max(0, state.height - h));
    tooltip.style.left = `${left}px`;
    tooltip.style.top = `${top}px`;
  };
  state.hideTooltip = () => {
    tooltip.hidden = true;
  };
  state.schedule = schedule;
  state.renderNow = render;

  return {
    state,
    handle: {
      figure,
      canvas,
      /** Merges `changes` into the options and redraws in the next animation frame. */
      update(changes = {}) {
        Object.assign(state.options, changes);
        if (changes.ariaLabel) canvas.setAttribute('aria-label', changes.ariaLabel);
        state.onUpdate?.(changes);
        schedule();
      },
      /** Draws now (synchronously), e.g. before reading pixels. */
      flush() {
        if (state.pending) cancelAnimationFrame(state.pending);
        render();
      },
      destroy() {
        observer.disconnect();
        if (state.pending) cancelAnimationFrame(state.pending);
        figure.remove();
      },
    },
  };
}

function legendItems(legend, items) {
  legend.replaceChildren(...items.map(({ label, color, className = '' }) => {
    const item = document.createElement('span');
    item.className = `legend-item ${className}`.trim();
    const swatch = document.createElement('span');
    swatch.className = 'legend-swatch';
    swatch.style.background = color;
    item.append(swatch, document.createTextNode(label));
    return item;
  }));
}

/** The color bar: its gap from the plot, its width, the gap before its labels. */
const BAR = { gap: 14, w: 10, pad: 4 };
/** The longest a turned column name may be (CSS pixels) before it is cut with '…'. */
const MAX_TURNED = 110;

/**
 * A heatmap of a row-major matrix.
 * @param {Element} container
 * @param {object} options
 * @param {ArrayLike<number>} options.data  rows × cols values, row-major; −Infinity is drawn as "masked", NaN as "NaN"
 * @param {number} options.rows
 * @param {number} options.cols
 * @param {'diverging'|'sequential'} [options.scale='diverging']  diverging: blue < 0 < red, symmetric around 0;
 *        sequential: 0 … max, for weights and other non-negative data
 * @param {number} [options.range]   the value drawn at full color (default: the largest |finite value|)
 * @param {string} [options.rowLabel='row']  axis titles ('' for none: the row names then get the title's room)
 * @param {string} [options.colLabel='column']
 * @param {(row: number) => string} [options.rowName]  tick/tooltip names, e.g. r => `t = ${start + r}`. Names that
 *        are numbers are shown at a nice step; names that are words are all shown while they fit (column names turn
 *        45° or shrink first). Margins are sized from the measured names, titles and color-bar labels.
 * @param {(col: number) => string} [options.colName]
 * @param {(row: number, col: number, value: number) => string} [options.tooltip]  custom hover text
 * @param {{ row0: number, row1: number, col0?: number, col1?: number, label?: string }[]} [options.marks]  outlined
 *        blocks of cells, rows [row0, row1) × columns [col0, col1) (default: all columns), with an optional label
 * @param {number} [options.height]  CSS pixels; default follows the matrix's aspect ratio, within [minHeight, maxHeight]
 * @param {number} [options.minHeight=120]
 * @param {number} [options.maxHeight=420]
 * @param {string} [options.ariaLabel]  what the figure shows, for screen readers
 * @param {string} [options.caption]
 */
export function heatmap(container, options) {
  const { state, handle } = makePlot(container, { scale: 'diverging', rowLabel: 'row', colLabel: 'column', ...options },
    drawHeatmap, { className: 'plot-heatmap' });
  const { canvas } = state;
  canvas.tabIndex = 0;
  const offscreen = document.createElement('canvas');
  state.layoutHeight = (width) => {
    if (state.dirtyImage) paintImage();
    state.layout = computeLayout(canvas.getContext('2d'), width);
    return state.layout.height;
  };
  /** The last drawn layout, in CSS pixels: margins, the plot rectangle, tick choices and every label's box. */
  handle.layout = () => state.layout;
  state.dirtyImage = true;
  state.onUpdate = (changes) => {
    if ('data' in changes || 'rows' in changes || 'cols' in changes || 'range' in changes || 'scale' in changes) state.dirtyImage = true;
    const { rows, cols } = state.options;
    if (state.hover && (state.hover.row >= rows || state.hover.col >= cols)) state.hover = null;
    if (state.hover) state.pendingTooltip = true;
  };

  function colorScale() {
    const el = state.figure;
    return {
      neg: parseColor(cssVar(el, '--heat-neg', '#2166ac')),
      mid: parseColor(cssVar(el, '--heat-mid', '#f7f7f7')),
      pos: parseColor(cssVar(el, '--heat-pos', '#b2182b')),
      masked: parseColor(cssVar(el, '--heat-masked', '#6b6b6b')),
      nan: parseColor(cssVar(el, '--heat-nan', '#e6c229')),
    };
  }

  function paintImage() {
    const { data, rows, cols, scale } = state.options;
    const colors = colorScale();
    let range = state.options.range;
    let masked = false;
    let nan = false;
    if (!(range > 0)) {
      range = 0;
      for (let i = 0; i < rows * cols; i += 1) {
        const v = data[i];
        if (Number.isFinite(v)) range = Math.max(range, Math.abs(v));
      }
      if (!(range > 0)) range = 1;
    }
    offscreen.width = Math.max(cols, 1);
    offscreen.height = Math.max(rows, 1);
    const octx = offscreen.getContext('2d');
    const image = octx.createImageData(offscreen.width, offscreen.height);
    const px = image.data;
    // A 1024-step color table over s = v / range ∈ [−1, 1] (sequential: [0, 1]); no allocation per cell.
    const STEPS = 1024;
    const lut = new Uint8ClampedArray((STEPS + 1) * 3);
    for (let k = 0; k <= STEPS; k += 1) {
      const sv = scale === 'sequential' ? k / STEPS : (2 * k) / STEPS - 1;
      const rgb = sv < 0 ? mix(colors.mid, colors.neg, -sv) : mix(colors.mid, colors.pos, sv);
      lut.set(rgb, k * 3);
    }
    const lo = scale === 'sequential' ? 0 : -1;
    const toIndex = STEPS / (1 - lo);
    for (let i = 0; i < rows * cols; i += 1) {
      const v = data[i];
      const o = i * 4;
      px[o + 3] = 255;
      if (v === -Infinity) {
        px.set(colors.masked, o);
        masked = true;
      } else if (v !== v) {
        px.set(colors.nan, o);
        nan = true;
      } else {
        const sv = Math.max(lo, Math.min(1, v / range));
        const k = Math.round((sv - lo) * toIndex) * 3;
        px[o] = lut[k];
        px[o + 1] = lut[k + 1];
        px[o + 2] = lut[k + 2];
      }
    }
    octx.putImageData(image, 0, 0);
    state.image = { range, masked, nan, colors };
    const items = [];
    if (masked) items.push({ label: 'masked (−∞)', color: `rgb(${colors.masked})`, className: 'legend-masked' });
    if (nan) items.push({ label: 'NaN', color: `rgb(${colors.nan})` });
    legendItems(state.legend, items);
    state.dirtyImage = false;
  }

  /** Row names at every row when they are words and fit (shrinking to 9 px first), else at a step. */
  function rowTicks(ctx, plotH) {
    const { rows } = state.options;
    const rowName = state.options.rowName ?? String;
    const rh = plotH / Math.max(rows, 1);
    if (rows > 0 && !numericNames(rows, rowName)) {
      for (const px of [11, 10, 9]) if (rh >= px + 2) return { ticks: everyKth(rows, 1), px };
      return { ticks: everyKth(rows, Math.ceil(11 / rh)), px: 9 };
    }
    return { ticks: indexTicks(rows, Math.max(2, plotH / 28), 15 / rh), px: 11 };
  }

  /**
   * Column names. Numbers: a nice step with room for the widest. Words: every one, upright if it fits its column
   * (at 11 or 10 px), else turned 45° (11 px, or 9 px when columns are narrow); only when even that collides, every
   * k-th at 11 px. Turned names end at their column; neighbours are then cw·sin 45° apart across the text.
   */
  function colTicks(ctx, plotW) {
    const { cols } = state.options;
    const colName = state.options.colName ?? String;
    const cw = plotW / Math.max(cols, 1);
    if (cols > 0 && cols <= 256 && !numericNames(cols, colName)) {
      const names = Array.from({ length: cols }, (_, c) => String(colName(c)));
      for (const px of [11, 10]) {
        ctx.font = labelFont(px);
        if (widest(ctx, names) + 4 <= cw) return { ticks: everyKth(cols, 1), px, rotated: false };
      }
      const across = cw * SIN45;
      if (across >= 11) return { ticks: everyKth(cols, 1), px: across >= 13 ? 11 : 9, rotated: true };
      return { ticks: everyKth(cols, Math.ceil(13 / across)), px: 11, rotated: true };
    }
    ctx.font = labelFont(11);
    const w = widest(ctx, [String(colName(0)), String(colName(Math.max(cols - 1, 0)))]);
    return { ticks: indexTicks(cols, Math.max(2, plotW / 50), (w + 12) / cw), px: 11, rotated: false };
  }

  /**
   * Margins sized from the measured labels: left = row title + widest row name (and room for the first turned column
   * name), right = color bar + its widest label, bottom = column names (turned or not) + column title. The plot's
   * height follows its width (aspect ratio), so the few quantities that depend on each other are iterated to a fixpoint.
   */
  function computeLayout(ctx, width) {
    const { rows, cols, rowLabel, colLabel, scale, minHeight = 120, maxHeight = 420 } = state.options;
    const rowName = state.options.rowName ?? String;
    const colName = state.options.colName ?? String;
    const { range } = state.image;
    const top = 8;
    ctx.font = labelFont(11);
    const lo = scale === 'sequential' ? 0 : -range;
    const barLabels = [formatValue(range), formatValue((lo + range) / 2), formatValue(lo)];
    const right = Math.ceil(BAR.gap + BAR.w + BAR.pad + widest(ctx, barLabels) + 6);
    const titleSpace = rowLabel ? 22 : 2;
    let left = state.layout?.margin.left ?? 52;
    let plotW;
    let plotH;
    let bottom;
    let row;
    let col;
    for (let pass = 0; pass < 4; pass += 1) {
      plotW = Math.max(width - left - right, 20);
      col = colTicks(ctx, plotW);
      ctx.font = labelFont(col.px);
      col.names = col.ticks.map((c) => (col.rotated ? fitText(ctx, String(colName(c)), MAX_TURNED) : String(colName(c))));
      const colTicksHeight = col.rotated ? Math.ceil(SIN45 * (widest(ctx, col.names) + (col.px + 2) / 2)) : col.px + 2;
      bottom = 4 + colTicksHeight + 4 + (colLabel ? 16 : 0);
      plotH = state.options.height !== undefined
        ? Math.max(state.options.height - top - bottom, 20)
        : Math.min(maxHeight, Math.max(minHeight, (plotW * rows) / Math.max(cols, 1)));
      row = rowTicks(ctx, plotH);
      ctx.font = labelFont(row.px);
      // Row names take at most about a third of the width; longer ones are cut with '…' (the tooltip has them whole).
      const maxRowW = Math.max(24, width * 0.35 - titleSpace - 6);
      row.names = row.ticks.map((r) => fitText(ctx, String(rowName(r)), maxRowW));
      let next = Math.ceil(titleSpace + widest(ctx, row.names) + 6);
      if (col.rotated) {
        // A turned name reaches SIN45·(w + h/2) left of its column's centre: keep the first ones on the canvas.
        ctx.font = labelFont(col.px);
        const cw = plotW / cols;
        col.ticks.forEach((c, i) => {
          const reach = SIN45 * (ctx.measureText(col.names[i]).width + (col.px + 2) / 2) - (c + 0.5) * cw + 2;
          next = Math.max(next, Math.ceil(reach));
        });
      }
      if (next === left) break;
      left = next;
    }
    plotW = Math.max(width - left - right, 20);
    const margin = { top, right, bottom, left };
    const plot = { x: left, y: top, w: plotW, h: plotH };
    return { margin, plot, height: Math.ceil(plotH + top + bottom), width, row, col, barLabels, labels: [] };
  }

  function drawHeatmap(ctx, width, height) {
    const { rows, cols, rowLabel, colLabel, scale } = state.options;
    if (state.dirtyImage || !state.layout || state.layout.width !== width) state.layoutHeight(width);
    const { colors } = state.image;
    const layout = state.layout;
    const { plot, row, col, barLabels } = layout;
    layout.labels = [];
    const fg = cssVar(state.figure, '--fg', '#222');
    const muted = cssVar(state.figure, '--muted', '#666');
    state.plotRect = plot;
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(offscreen, plot.x, plot.y, plot.w, plot.h);
    ctx.strokeStyle = muted;
    ctx.lineWidth = 1;
    ctx.strokeRect(plot.x - 0.5, plot.y - 0.5, plot.w + 1, plot.h + 1);

    // Outlined blocks.
    const cw0 = plot.w / cols;
    const rh0 = plot.h / rows;
    for (const { row0, row1, col0 = 0, col1 = cols, label } of state.options.marks ?? []) {
      const x = plot.x + col0 * cw0;
      const y = plot.y + row0 * rh0;
      ctx.setLineDash([5, 3]);
      ctx.lineWidth = 2;
      ctx.strokeStyle = fg;
      ctx.strokeRect(x + 1, y + 1, (col1 - col0) * cw0 - 2, (row1 - row0) * rh0 - 2);
      ctx.setLineDash([]);
      if (label) {
        ctx.font = '600 11px system-ui, sans-serif';
        ctx.textAlign = 'left';
        ctx.textBaseline = 'top';
        const w = ctx.measureText(label).width + 8;
        ctx.fillStyle = fg;
        ctx.fillRect(x + 3, y + 3, w, 16);
        ctx.fillStyle = cssVar(state.figure, '--panel', '#fff');
        ctx.fillText(label, x + 7, y + 5);
      }
    }

    // Text, with its box recorded (layout.labels) so tests can check that nothing is clipped or overlaps.
    const text = (kind, t, x, y, { align = 'left', baseline = 'middle', px = 11, font = labelFont(px), turn = 0 } = {}) => {
      ctx.font = font;
      ctx.textAlign = align;
      ctx.textBaseline = baseline;
      const w = ctx.measureText(t).width;
      const h = px + 2;
      const x0 = align === 'right' ? -w : align === 'center' ? -w / 2 : 0;
      const y0 = baseline === 'top' ? 0 : baseline === 'bottom' ? -h : -h / 2;
      const corners = [[x0, y0], [x0 + w, y0], [x0, y0 + h], [x0 + w, y0 + h]]
        .map(([u, v]) => [x + u * Math.cos(turn) - v * Math.sin(turn), y + u * Math.sin(turn) + v * Math.cos(turn)]);
      const xs = corners.map((p) => p[0]);
      const ys = corners.map((p) => p[1]);
      layout.labels.push({ kind, text: t, turn, x0: Math.min(...xs), x1: Math.max(...xs), y0: Math.min(...ys), y1: Math.max(...ys) });
      if (turn) {
        ctx.save();
        ctx.translate(x, y);
        ctx.rotate(turn);
        ctx.fillText(t, 0, 0);
        ctx.restore();
      } else ctx.fillText(t, x, y);
    };

    // Ticks at cell centres.
    ctx.fillStyle = muted;
    const cw = plot.w / cols;
    const rh = plot.h / rows;
    col.ticks.forEach((c, i) => {
      const x = plot.x + (c + 0.5) * cw;
      const y = plot.y + plot.h + 4;
      if (col.rotated) text('col', col.names[i], x + 2, y + 2, { align: 'right', px: col.px, turn: -Math.PI / 4 });
      else text('col', col.names[i], x, y, { align: 'center', baseline: 'top', px: col.px });
    });
    row.ticks.forEach((r, i) => text('row', row.names[i], plot.x - 5, plot.y + (r + 0.5) * rh, { align: 'right', px: row.px }));

    // Axis titles; the row title is turned, along the plot's left edge, and shortened if longer than the plot.
    ctx.fillStyle = fg;
    if (colLabel) text('col-title', colLabel, plot.x + plot.w / 2, height - 2, { align: 'center', baseline: 'bottom', px: 12, font: TITLE_FONT });
    if (rowLabel) {
      ctx.font = TITLE_FONT;
      const title = fitText(ctx, rowLabel, plot.h);
      if (title) text('row-title', title, 9, plot.y + plot.h / 2, { align: 'center', px: 12, font: TITLE_FONT, turn: -Math.PI / 2 });
    }

    // Color bar, its labels at the top, middle (when there is room) and bottom.
    const bar = { x: plot.x + plot.w + BAR.gap, y: plot.y, w: BAR.w, h: Math.max(plot.h, 40) };
    const gradient = ctx.createLinearGradient(0, bar.y + bar.h, 0, bar.y);
    if (scale === 'sequential') {
      gradient.addColorStop(0, `rgb(${colors.mid})`);
      gradient.addColorStop(1, `rgb(${colors.pos})`);
    } else {
      gradient.addColorStop(0, `rgb(${colors.neg})`);
      gradient.addColorStop(0.5, `rgb(${colors.mid})`);
      gradient.addColorStop(1, `rgb(${colors.pos})`);
    }
    ctx.fillStyle = gradient;
    ctx.fillRect(bar.x, bar.y, bar.w, bar.h);
    ctx.strokeStyle = muted;
    ctx.strokeRect(bar.x - 0.5, bar.y - 0.5, bar.w + 1, bar.h + 1);
    ctx.fillStyle = muted;
    const barX = bar.x + bar.w + BAR.pad;
    text('bar', barLabels[0], barX, bar.y + 4);
    if (bar.h >= 45) text('bar', barLabels[1], barX, bar.y + bar.h / 2);
    text('bar', barLabels[2], barX, bar.y + bar.h - 4);

    // Cursor (hover or keyboard).
    if (state.hover) {
      const { row, col } = state.hover;
      ctx.strokeStyle = fg;
      ctx.lineWidth = 2;
      ctx.strokeRect(plot.x + col * cw, plot.y + row * rh, Math.max(cw, 2), Math.max(rh, 2));
      if (state.pendingTooltip) {
        state.pendingTooltip = false;
        showCell(row, col);
      }
    }
  }

  function cellText(row, col) {
    const { data, cols, rowLabel, colLabel } = state.options;
    const value = data[row * cols + col];
    if (state.options.tooltip) return state.options.tooltip(row, col, value);
    const rowName = state.options.rowName ?? String;
    const colName = state.options.colName ?? String;
    return `${rowLabel} ${rowName(row)}, ${colLabel} ${colName(col)}: ${formatValue(value)}`;
  }

  function showCell(row, col) {
    const plot = state.plotRect;
    if (!plot) return;
    const { rows, cols } = state.options;
    const x = plot.x + ((col + 0.5) * plot.w) / cols;
    const y = plot.y + ((row + 0.5) * plot.h) / rows;
    state.showTooltip(cellText(row, col), x, y);
  }

  function cellAt(event) {
    const plot = state.plotRect;
    if (!plot) return null;
    const rect = canvas.getBoundingClientRect();
    const x = event.clientX - rect.left;
    const y = event.clientY - rect.top;
    const { rows, cols } = state.options;
    const col = Math.floor(((x - plot.x) / plot.w) * cols);
    const row = Math.floor(((y - plot.y) / plot.h) * rows);
    if (col < 0 || row < 0 || col >= cols || row >= rows) return null;
    return { row, col };
  }

  function onPointer(event) {
    const cell = cellAt(event);
    if (!cell) {
      if (state.hover) {
        state.hover = null;
        state.hideTooltip();
        state.schedule();
      }
      return;
    }
    if (!state.hover || state.hover.row !== cell.row || state.hover.col !== cell.col) {
      state.hover = cell;
      state.schedule();
    }
    showCell(cell.row, cell.col);
  }
  canvas.addEventListener('pointermove', onPointer);
  canvas.addEventListener('pointerdown', onPointer);
  canvas.addEventListener('pointerleave', () => {
    state.hover = null;
    state.hideTooltip();
    state.schedule();
  });
  canvas.addEventListener('keydown', (event) => {
    const { rows, cols } = state.options;
    const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1], Home: [0, -cols], End: [0, cols] };
    if (event.key === 'Escape') {
      state.hover = null;
      state.hideTooltip();
      state.schedule();
      return;
    }
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    const { row = 0, col = 0 } = state.hover ?? {};
    const next = state.hover
      ? { row: Math.min(rows - 1, Math.max(0, row + move[0])), col: Math.min(cols - 1, Math.max(0, col + move[1])) }
      : { row: 0, col: 0 };
    state.hover = next;
    state.pendingTooltip = true;
    state.schedule();
  });
  canvas.addEventListener('blur', () => {
    state.hover = null;
    state.hideTooltip();
    state.schedule();
  });
  if (!options.ariaLabel) canvas.setAttribute('aria-label', `heatmap of ${options.rowLabel ?? 'rows'} by ${options.colLabel ?? 'columns'}; use the arrow keys to read values`);
  canvas.setAttribute('role', 'img');
  state.schedule();
  return handle;
}

/** Maps [lo, hi] → [a, b]. */
function scaler(lo, hi, a, b) {
  const k = hi > lo ? (b - a) / (hi - lo) : 0;
  return (v) => a + (v - lo) * k;
}

function drawAxes(ctx, plot, xs, ys, { xLabel, yLabel, fg, muted, grid, width, height }) {
  ctx.font = '11px system-ui, sans-serif';
  ctx.lineWidth = 1;
  for (const v of ys.ticks) {
    const y = Math.round(ys.map(v)) + 0.5;
    ctx.strokeStyle = grid;
    ctx.beginPath();
    ctx.moveTo(plot.x, y);
    ctx.lineTo(plot.x + plot.w, y);
    ctx.stroke();
    ctx.fillStyle = muted;
    ctx.textAlign = 'right';
    ctx.textBaseline = 'middle';
    ctx.fillText(formatValue(v), plot.x - 5, y);
  }
  for (const v of xs.ticks) {
    const x = Math.round(xs.map(v)) + 0.5;
    ctx.strokeStyle = grid;
    ctx.beginPath();
    ctx.moveTo(x, plot.y);
    ctx.lineTo(x, plot.y + plot.h);
    ctx.stroke();
    ctx.fillStyle = muted;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    ctx.fillText(formatValue(v), x, plot.y + plot.h + 4);
  }
  ctx.strokeStyle = muted;
  ctx.strokeRect(plot.x - 0.5, plot.y - 0.5, plot.w + 1, plot.h + 1);
  ctx.fillStyle = fg;
  ctx.font = '12px system-ui, sans-serif';
  ctx.textAlign = 'center';
  ctx.textBaseline = 'bottom';
  if (xLabel) ctx.fillText(xLabel, plot.x + plot.w / 2, height - 2);
  if (yLabel) {
    ctx.save();
    ctx.translate(9, plot.y + plot.h / 2);
    ctx.rotate(-Math.PI / 2);
    ctx.textBaseline = 'middle';
    ctx.fillText(yLabel, 0, 0);
    ctx.restore();
  }
  void width;
}

function seriesColor(el, s, i) {
  return s.color ?? cssVar(el, SERIES_COLORS[i % SERIES_COLORS.length], '#0072b2');
}

/**
 * A line plot of several series sharing the axes.
 * @param {Element} container
 * @param {object} options
 * @param {{ name: string, x: ArrayLike<number>, y: ArrayLike<number>, color?: string, dashed?: boolean, markers?: boolean,
 *           width?: number, opacity?: number }[]} options.series  width: line width in CSS pixels (default 2)
 * @param {string} [options.xLabel]
 * @param {string} [options.yLabel]
 * @param {[number, number]} [options.xRange]  default: the data's extent
 * @param {[number, number]} [options.yRange]
 * @param {number} [options.height=220]
 * @param {string} [options.ariaLabel]
 * @param {string} [options.caption]
 */
export function linePlot(container, options) {
  const margin = { top: 10, right: 12, bottom: 38, left: 52 };
  const { state, handle } = makePlot(container, { height: 220, ...options }, drawLines, { className: 'plot-lines' });
  const { canvas } = state;

  function extent(key) {
    let lo = Infinity;
    let hi = -Infinity;
    for (const s of state.options.series) {
      for (const v of s[key]) {
        if (Number.isFinite(v)) {
          lo = Math.min(lo, v);
          hi = Math.max(hi, v);
        }
      }
    }
    if (!(hi >= lo)) return [0, 1];
    if (hi === lo) return [lo - 1, hi + 1];
    return [lo, hi];
  }

  function drawLines(ctx, width, height) {
    const el = state.figure;
    const fg = cssVar(el, '--fg', '#222');
    const muted = cssVar(el, '--muted', '#666');
    const grid = cssVar(el, '--grid', '#ddd');
    const [x0, x1] = state.options.xRange ?? extent('x');
    const [y0, y1] = state.options.yRange ?? extent('y');
    // The left margin fits the y title and the widest y tick label; the right one half the last x tick label.
    ctx.font = labelFont(11);
    const yTicks = niceTicks(y0, y1, 4);
    margin.left = Math.ceil((state.options.yLabel ? 22 : 4) + widest(ctx, yTicks.map(formatValue)) + 6);
    const xTicksFor = (w) => niceTicks(x0, x1, Math.max(2, Math.floor(w / 70)));
    const lastX = xTicksFor(width - margin.left - 12).at(-1);
    margin.right = Math.max(12, Math.ceil(ctx.measureText(formatValue(lastX ?? 0)).width / 2 + 4));
    const plot = { x: margin.left, y: margin.top, w: width - margin.left - margin.right, h: height - margin.top - margin.bottom };
    const xs = { map: scaler(x0, x1, plot.x, plot.x + plot.w), ticks: xTicksFor(plot.w) };
    const ys = { map: scaler(y0, y1, plot.y + plot.h, plot.y), ticks: yTicks };
    state.scales = { xs, ys, plot, x0, x1 };
    drawAxes(ctx, plot, xs, ys, { ...state.options, fg, muted, grid, width, height });
    ctx.save();
    ctx.beginPath();
    ctx.rect(plot.x, plot.y, plot.w, plot.h);
    ctx.clip();
    state.options.series.forEach((s, i) => {
      const color = seriesColor(el, s, i);
      ctx.strokeStyle = color;
      ctx.fillStyle = color;
      ctx.lineWidth = s.width ?? 2;
      ctx.globalAlpha = s.opacity ?? 1;
      ctx.setLineDash(s.dashed ? [5, 4] : []);
      ctx.beginPath();
      for (let j = 0; j < s.x.length; j += 1) {
        const px = xs.map(s.x[j]);
        const py = ys.map(s.y[j]);
        if (j === 0) ctx.moveTo(px, py);
        else ctx.lineTo(px, py);
      }
      ctx.stroke();
      if (s.markers) {
        for (let j = 0; j < s.x.length; j += 1) {
          ctx.beginPath();
          ctx.arc(xs.map(s.x[j]), ys.map(s.y[j]), 3, 0, 2 * Math.PI);
          ctx.fill();
        }
      }
      ctx.globalAlpha = 1;
    });
    ctx.setLineDash([]);
    if (state.hoverX !== undefined) {
      ctx.strokeStyle = fg;
      ctx.lineWidth = 1;
      const x = Math.round(xs.map(state.hoverX)) + 0.5;
      ctx.beginPath();
      ctx.moveTo(x, plot.y);
      ctx.lineTo(x, plot.y + plot.h);
      ctx.stroke();
    }
    ctx.restore();
    legendItems(state.legend, state.options.series.map((s, i) => ({ label: s.name, color: seriesColor(el, s, i) })));
  }

  canvas.addEventListener('pointermove', (event) => {
    if (!state.scales) return;
    const { xs, plot, x0, x1 } = state.scales;
    const rect = canvas.getBoundingClientRect();
    const px = event.clientX - rect.left;
    if (px < plot.x || px > plot.x + plot.w) return;
    const target = x0 + ((px - plot.x) / plot.w) * (x1 - x0);
    const lines = [];
    let snapped;
    for (const s of state.options.series) {
      let best = 0;
      for (let j = 1; j < s.x.length; j += 1) if (Math.abs(s.x[j] - target) < Math.abs(s.x[best] - target)) best = j;
      if (s.x.length) {
        snapped ??= s.x[best];
        lines.push(`${s.name}: ${formatValue(s.y[best])}`);
      }
    }
    state.hoverX = snapped;
    state.schedule();
    state.showTooltip(`${state.options.xLabel ?? 'x'} = ${formatValue(snapped)}\n${lines.join('\n')}`, xs.map(snapped), event.clientY - rect.top);
  });
  canvas.addEventListener('pointerleave', () => {
    state.hoverX = undefined;
    state.hideTooltip();
    state.schedule();
  });
  if (options.ariaLabel) canvas.setAttribute('role', 'img');
  state.schedule();
  return handle;
}

/**
 * Points on the unit circle (cos on the horizontal axis, sin on the vertical), each with an optional trail.
 * @param {Element} container
 * @param {object} options
 * @param {{ name: string, x: number, y: number, trail?: [number, number][], color?: string }[]} options.points
 * @param {number} [options.height=240]
 * @param {string} [options.ariaLabel]
 * @param {string} [options.caption]
 */
export function circlePlot(container, options) {
  const { state, handle } = makePlot(container, { height: 240, ...options }, drawCircle, { className: 'plot-circle' });

  function drawCircle(ctx, width, height) {
    const el = state.figure;
    const fg = cssVar(el, '--fg', '#222');
    const muted = cssVar(el, '--muted', '#666');
    const grid = cssVar(el, '--grid', '#ddd');
    const r = Math.min(width, height) / 2 - 22;
    const cx = width / 2;
    const cy = height / 2;
    ctx.strokeStyle = grid;
    ctx.lineWidth = 1;
    ctx.beginPath();
    ctx.moveTo(cx - r - 10, cy);
    ctx.lineTo(cx + r + 10, cy);
    ctx.moveTo(cx, cy - r - 10);
    ctx.lineTo(cx, cy + r + 10);
    ctx.stroke();
    ctx.strokeStyle = muted;
    ctx.beginPath();
    ctx.arc(cx, cy, r, 0, 2 * Math.PI);
    ctx.stroke();
    ctx.fillStyle = muted;
    ctx.font = '11px system-ui, sans-serif';
    ctx.textAlign = 'left';
    ctx.textBaseline = 'bottom';
    ctx.fillText('cos', cx + r + 2, cy - 2);
    ctx.textAlign = 'center';
    ctx.fillText('sin', cx, cy - r - 10);
    state.options.points.forEach((p, i) => {
      const color = seriesColor(el, p, i);
      const toX = (x) => cx + x * r;
      const toY = (y) => cy - y * r;
      if (p.trail?.length) {
        ctx.strokeStyle = color;
        ctx.globalAlpha = 0.45;
        ctx.lineWidth = 1.5;
        ctx.beginPath();
        p.trail.forEach(([x, y], j) => (j === 0 ? ctx.moveTo(toX(x), toY(y)) : ctx.lineTo(toX(x), toY(y))));
        ctx.stroke();
        ctx.globalAlpha = 1;
        ctx.fillStyle = color;
        for (const [x, y] of p.trail) {
          ctx.beginPath();
          ctx.arc(toX(x), toY(y), 2, 0, 2 * Math.PI);
          ctx.fill();
        }
      }
      ctx.fillStyle = color;
      ctx.strokeStyle = fg;
      ctx.lineWidth = 1.5;
      ctx.beginPath();
      ctx.arc(toX(p.x), toY(p.y), 6, 0, 2 * Math.PI);
      ctx.fill();
      ctx.stroke();
    });
    legendItems(state.legend, state.options.points.map((p, i) => ({ label: p.name, color: seriesColor(el, p, i) })));
  }
  state.schedule();
  return handle;
}
