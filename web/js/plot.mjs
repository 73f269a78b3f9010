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

/** Integer indices 0 … n−1 at a nice step, at most about `count` of them. */
function indexTicks(n, count = 6) {
  const step = niceTicks(0, Math.max(n - 1, 1), count)[1] ?? 1;
  const ticks = [];
  for (let i = 0; i < n; i += Math.max(1, Math.round(step))) ticks.push(i);
  return ticks;
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
    const height = Math.round(state.options.height ?? state.layoutHeight?.(width) ?? Math.min(320, width * 0.6));
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
 * @param {string} [options.rowLabel='row']  axis titles
 * @param {string} [options.colLabel='column']
 * @param {(row: number) => string} [options.rowName]  tick/tooltip names, e.g. r => `t = ${start + r}`
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
  const margin = { top: 8, right: 64, bottom: 38, left: 52 };
  const { state, handle } = makePlot(container, { scale: 'diverging', rowLabel: 'row', colLabel: 'column', ...options },
    drawHeatmap, { className: 'plot-heatmap' });
  const { canvas } = state;
  canvas.tabIndex = 0;
  const offscreen = document.createElement('canvas');
  state.layoutHeight = (width) => {
    const { rows, cols, minHeight = 120, maxHeight = 420 } = state.options;
    const plotW = width - margin.left - margin.right;
    const h = (plotW * rows) / Math.max(cols, 1);
    return Math.min(maxHeight, Math.max(minHeight, h)) + margin.top + margin.bottom;
  };
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

  function drawHeatmap(ctx, width, height) {
    const { rows, cols, rowLabel, colLabel, scale } = state.options;
    const rowName = state.options.rowName ?? String;
    const colName = state.options.colName ?? String;
    if (state.dirtyImage) paintImage();
    const { range, colors } = state.image;
    const fg = cssVar(state.figure, '--fg', '#222');
    const muted = cssVar(state.figure, '--muted', '#666');
    // Margins fit the widest row name and color-bar label.
    ctx.font = '11px system-ui, sans-serif';
    const rowTicks = indexTicks(rows, Math.max(2, Math.floor((height - margin.top - margin.bottom) / 28)));
    const rowNameWidth = Math.max(0, ...rowTicks.map((r) => ctx.measureText(rowName(r)).width));
    const lo = scale === 'sequential' ? 0 : -range;
    const barLabels = [formatValue(range), formatValue((lo + range) / 2), formatValue(lo)];
    const barWidth = Math.max(...barLabels.map((t) => ctx.measureText(t).width));
    margin.left = Math.ceil(24 + rowNameWidth + 6);
    margin.right = Math.ceil(14 + 10 + 4 + barWidth + 4);
    const plot = { x: margin.left, y: margin.top, w: width - margin.left - margin.right, h: height - margin.top - margin.bottom };
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

    // Ticks at cell centres.
    ctx.font = '11px system-ui, sans-serif';
    ctx.fillStyle = muted;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    const cw = plot.w / cols;
    const rh = plot.h / rows;
    for (const c of indexTicks(cols, Math.max(2, Math.floor(plot.w / 60)))) {
      ctx.fillText(colName(c), plot.x + (c + 0.5) * cw, plot.y + plot.h + 4);
    }
    ctx.textAlign = 'right';
    ctx.textBaseline = 'middle';
    for (const r of rowTicks) {
      ctx.fillText(rowName(r), plot.x - 5, plot.y + (r + 0.5) * rh);
    }
    // Axis titles.
    ctx.fillStyle = fg;
    ctx.font = '12px system-ui, sans-serif';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'bottom';
    ctx.fillText(colLabel, plot.x + plot.w / 2, height - 2);
    ctx.save();
    ctx.translate(10, plot.y + plot.h / 2);
    ctx.rotate(-Math.PI / 2);
    ctx.textBaseline = 'middle';
    ctx.fillText(rowLabel, 0, 0);
    ctx.restore();

    // Color bar.
    const bar = { x: plot.x + plot.w + 14, y: plot.y, w: 10, h: Math.max(plot.h, 40) };
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
    ctx.font = '11px system-ui, sans-serif';
    ctx.textAlign = 'left';
    ctx.textBaseline = 'middle';
    ctx.fillText(barLabels[0], bar.x + bar.w + 4, bar.y + 4);
    ctx.fillText(barLabels[1], bar.x + bar.w + 4, bar.y + bar.h / 2);
    ctx.fillText(barLabels[2], bar.x + bar.w + 4, bar.y + bar.h - 4);

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
    ctx.translate(12, plot.y + plot.h / 2);
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
    const plot = { x: margin.left, y: margin.top, w: width - margin.left - margin.right, h: height - margin.top - margin.bottom };
    const [x0, x1] = state.options.xRange ?? extent('x');
    const [y0, y1] = state.options.yRange ?? extent('y');
    const xs = { map: scaler(x0, x1, plot.x, plot.x + plot.w), ticks: niceTicks(x0, x1, Math.max(2, Math.floor(plot.w / 70))) };
    const ys = { map: scaler(y0, y1, plot.y + plot.h, plot.y), ticks: niceTicks(y0, y1, 4) };
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
