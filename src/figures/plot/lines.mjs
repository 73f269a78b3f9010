// A line plot of several series sharing the axes, with a legend. Series can grow while shown (append: loss curves
// of a model training live). Read by pointer or keyboard: Left/Right move a cursor along x (Page Up/Down by tenths,
// Home/End to the ends) and read every series' value there.
import { fmt } from '../format.mjs';
import { seriesColor, themeColors } from './colors.mjs';
import { legendItems, makePlot, pointerAt } from './frame.mjs';
import { LOG_LIMITS, checkLines, checkObject, divisible, readAppend } from './options.mjs';
import { labelFont, labelWriter, logAxis, logTicks, niceAxis, niceTicks, widest } from './ticks.mjs';

const KEYS = new Set(['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End', 'PageUp', 'PageDown']);
// The series are drawn this far inside the frame (CSS pixels), so that a line at an end of a range stays clear of the
// frame's edge, a line of width 3 and a marker whole.
const INSET = 5;

/** Whether a value is drawn: finite, and on a log axis within LOG_LIMITS (the rest are left out). */
const shown = (v, log) => Number.isFinite(v) && (!log || (v >= LOG_LIMITS[0] && v <= LOG_LIMITS[1]));

/**
 * [lo, hi] of the values drawn under `key` of every series; y spans the bands. Data that agree up to rounding (a
 * range too narrow to divide, such as 1 and 0.9999999999999999) are drawn as one value, in the middle of an axis
 * around it.
 */
function extent(series, key, log) {
  let lo = Infinity;
  let hi = -Infinity;
  for (const s of series) {
    for (const list of key === 'y' ? [s.y, s.lo, s.hi] : [s[key]]) {
      if (!list) continue;
      for (let i = 0; i < list.length; i += 1) {
        const v = list[i];
        if (shown(v, log)) {
          if (v < lo) lo = v;
          if (v > hi) hi = v;
        }
      }
    }
  }
  if (!(hi >= lo)) return log ? [0.1, 1] : [0, 1];
  if (log) return divisible(lo, hi) ? [lo, hi] : [lo / 2, hi * 2];
  if (divisible(lo, hi)) return [lo, hi];
  const mid = lo / 2 + hi / 2;
  const half = Math.max(1, Math.abs(mid) / 1000);
  return [mid - half, mid + half];
}

/**
 * The y axis drawn `px` pixels long: { range, ticks }. A range given is kept as it is; the data's extent is widened to
 * nice numbers that are ticks (0.698 → 0.7 on a log axis, 0.98 → 1 on a linear one).
 */
function yAxis(series, { yRange, yLog = false }, px) {
  if (yRange) return { range: yRange, ticks: yLog ? logTicks(yRange[0], yRange[1], px) : niceTicks(yRange[0], yRange[1], 4) };
  const [lo, hi] = extent(series, 'y', yLog);
  return yLog ? logAxis(lo, hi, px) : niceAxis(lo, hi, 4);
}

/** Maps [lo, hi] → [a, b], linearly or on log10 (in halves, so that no difference of two numbers overflows). */
function scaler(lo, hi, a, b, log = false) {
  const f = log ? Math.log10 : (v) => v / 2;
  const [flo, fhi] = [f(lo), f(hi)];
  const k = fhi > flo ? (b - a) / (fhi - flo) : 0;
  return (v) => a + (f(v) - flo) * k;
}

/**
 * @param {Element} container
 * @param {object} options
 * @param {{ name: string, x: ArrayLike<number>, y: ArrayLike<number>, color?: string, dashed?: boolean,
 *           markers?: boolean, width?: number, opacity?: number, lo?: ArrayLike<number>, hi?: ArrayLike<number> }[]}
 *        options.series  width: line width (default 2); lo, hi: a band around the line (a range over runs)
 * @param {string} [options.xLabel]
 * @param {string} [options.yLabel]
 * @param {[number, number]} [options.xRange]  default: the data's extent
 * @param {[number, number]} [options.yRange]  default: the data's extent, widened to nice numbers that are ticks
 * @param {boolean} [options.yLog=false]  a log10 y axis (values outside LOG_LIMITS, non-positive ones among them, are
 *        left out)
 * @param {boolean} [options.integerX=false]  x ticks at whole numbers only (indices, steps)
 * @param {number} [options.height=220]
 * @param {string} [options.ariaLabel]
 * @param {string} [options.caption]
 * @returns the plot handle (frame.mjs), plus append(name, x, y, style?): adds points (numbers, arrays or typed arrays)
 *          to the series `name`, creating it (with `style`: color, dashed, …) if needed, and redraws in the next frame
 */
export function linePlot(container, options) {
  checkObject(options);
  const { state, handle } = makePlot(container, { height: 220, series: [], ...options }, draw,
    { className: 'plot-lines', kind: 'line plot', check: checkLines });
  state.onUpdate = () => {
    if (state.cursor) state.readPending = true;
  };

  function draw(ctx, width, height) {
    const { series, xLabel, yLabel, yLog = false, integerX = false } = state.options;
    const colors = themeColors(state.figure);
    const [x0, x1] = state.options.xRange ?? extent(series, 'x', false);
    const plotH = height - 10 - 38;
    const axis = yAxis(series, state.options, plotH - 2 * INSET);
    const [y0, y1] = axis.range;
    // The left margin fits the y title and the widest y tick label; the right one half the last x tick label.
    ctx.font = labelFont(11);
    const yTicks = axis.ticks;
    const left = Math.ceil((yLabel ? 22 : 4) + widest(ctx, yTicks.map((v) => fmt(v))) + 6);
    const xTicksFor = (w) => niceTicks(x0, x1, Math.max(2, Math.floor(w / 70))).filter((v) => !integerX || Number.isInteger(v));
    const lastX = xTicksFor(width - left - 12).at(-1) ?? 0;
    const right = Math.max(12, Math.ceil(ctx.measureText(fmt(lastX)).width / 2 + 4));
    const plot = { x: left, y: 10, w: width - left - right, h: plotH };
    const xs = { map: scaler(x0, x1, plot.x + INSET, plot.x + plot.w - INSET), ticks: xTicksFor(plot.w) };
    const ys = { map: scaler(y0, y1, plot.y + plot.h - INSET, plot.y + INSET, yLog), ticks: yTicks };
    state.layout = { plot, x0, x1, y0, y1, xs, ys, labels: [] };
    drawAxes(ctx, labelWriter(ctx, state.layout.labels), plot, xs, ys, { xLabel, yLabel, colors, height });
    ctx.save();
    ctx.beginPath();
    ctx.rect(plot.x, plot.y, plot.w, plot.h);
    ctx.clip();
    series.forEach((s, i) => drawSeries(ctx, s, seriesColor(state.figure, s, i), xs, ys, yLog));
    if (state.cursor) {
      const x = Math.round(xs.map(state.cursor.x)) + 0.5;
      ctx.strokeStyle = colors.fg;
      ctx.lineWidth = 1;
      ctx.beginPath();
      ctx.moveTo(x, plot.y);
      ctx.lineTo(x, plot.y + plot.h);
      ctx.stroke();
    }
    ctx.restore();
    legendItems(state.legend, series.map((s, i) => ({ label: s.name, color: seriesColor(state.figure, s, i) })));
    if (state.cursor && state.readPending) {
      state.readPending = false;
      read(state.cursor.x, state.cursor.y ?? plot.y + plot.h / 3);
    }
  }

  /** Reads every series at the x nearest to `target` (each series' own nearest point). */
  function read(target, py) {
    const { series, xLabel = 'x' } = state.options;
    const lines = [];
    let snapped;
    for (const s of series) {
      if (!s.x.length) continue;
      let best = 0;
      for (let j = 1; j < s.x.length; j += 1) if (Math.abs(s.x[j] - target) < Math.abs(s.x[best] - target)) best = j;
      snapped ??= s.x[best];
      lines.push(`${s.name}: ${fmt(s.y[best], 4)}`);
    }
    if (snapped === undefined) return;
    state.cursor = { x: snapped, y: py };
    state.read(`${xLabel} = ${fmt(snapped, 6)}\n${lines.join('\n')}`, state.layout.xs.map(snapped), py, { announce: state.keyboard });
  }

  state.canvas.addEventListener('pointermove', (event) => {
    const { plot, x0, x1 } = state.layout;
    if (!plot) return;
    const { x, y } = pointerAt(state.canvas, event);
    if (x < plot.x || x > plot.x + plot.w) return;
    state.keyboard = false;
    read(x0 + ((x - plot.x - INSET) / (plot.w - 2 * INSET)) * (x1 - x0), y);
    state.schedule();
  });

  state.onKey = (key) => {
    if (!KEYS.has(key)) return false;
    // The cursor steps through the x values of the longest series.
    const xsOf = state.options.series.reduce((a, s) => (s.x.length > a.length ? s.x : a), []);
    if (!xsOf.length) return false;
    let i = state.cursor ? xsOf.indexOf(state.cursor.x) : -1;
    const page = Math.max(1, Math.round(xsOf.length / 10));
    const step = { ArrowLeft: -1, ArrowDown: -1, ArrowRight: 1, ArrowUp: 1, PageUp: page, PageDown: -page, Home: -Infinity, End: Infinity }[key];
    i = i < 0 ? 0 : Math.min(xsOf.length - 1, Math.max(0, i + step));
    state.cursor = { x: xsOf[i] };
    state.readPending = true;
    return true;
  };

  // The series append grows: the plot's own copies (the caller's series and arrays are never changed).
  const grown = new WeakSet();
  handle.append = (name, x, y, style = {}) => {
    const { series } = state.options;
    const current = series.find((e) => e.name === name);
    const { xs, ys } = readAppend(name, x, y, style, current, series.length);
    let s = current;
    if (!s || !grown.has(s)) {
      s = s ? { ...s, x: Array.from(s.x), y: Array.from(s.y) } : { ...style, name, x: [], y: [] };
      grown.add(s);
      state.options.series = current ? series.map((e) => (e === current ? s : e)) : [...series, s];
    }
    for (let i = 0; i < xs.length; i += 1) {
      s.x.push(xs[i]);
      s.y.push(ys[i]);
    }
    if (state.cursor) state.readPending = true;
    state.schedule();
  };
  return handle;
}

/** The band between s.lo and s.hi, filled faintly (its points where both edges are drawn). */
function drawBand(ctx, s, color, xs, ys, yLog) {
  const ok = (v) => shown(v, yLog);
  const at = [];
  for (let j = 0; j < s.x.length; j += 1) if (ok(s.lo[j]) && ok(s.hi[j])) at.push(j);
  if (at.length < 2) return;
  ctx.fillStyle = color;
  ctx.globalAlpha = 0.18;
  ctx.beginPath();
  at.forEach((j, n) => (n ? ctx.lineTo(xs.map(s.x[j]), ys.map(s.hi[j])) : ctx.moveTo(xs.map(s.x[j]), ys.map(s.hi[j]))));
  for (const j of [...at].reverse()) ctx.lineTo(xs.map(s.x[j]), ys.map(s.lo[j]));
  ctx.closePath();
  ctx.fill();
  ctx.globalAlpha = 1;
}

function drawSeries(ctx, s, color, xs, ys, yLog) {
  if (s.lo && s.hi) drawBand(ctx, s, color, xs, ys, yLog);
  const ok = (v) => shown(v, yLog);
  ctx.strokeStyle = color;
  ctx.fillStyle = color;
  ctx.lineWidth = s.width ?? 2;
  ctx.globalAlpha = s.opacity ?? 1;
  ctx.setLineDash(s.dashed ? [5, 4] : []);
  ctx.beginPath();
  let drawing = false;
  for (let j = 0; j < s.x.length; j += 1) {
    if (!ok(s.y[j]) || !Number.isFinite(s.x[j])) {
      drawing = false;
      continue;
    }
    const px = xs.map(s.x[j]);
    const py = ys.map(s.y[j]);
    if (drawing) ctx.lineTo(px, py);
    else ctx.moveTo(px, py);
    drawing = true;
  }
  ctx.stroke();
  if (s.markers) {
    for (let j = 0; j < s.x.length; j += 1) {
      if (!ok(s.y[j]) || !Number.isFinite(s.x[j])) continue;
      ctx.beginPath();
      ctx.arc(xs.map(s.x[j]), ys.map(s.y[j]), 3, 0, 2 * Math.PI);
      ctx.fill();
    }
  }
  ctx.globalAlpha = 1;
  ctx.setLineDash([]);
}

function drawAxes(ctx, text, plot, xs, ys, { xLabel, yLabel, colors, height }) {
  ctx.lineWidth = 1;
  for (const v of ys.ticks) {
    const y = Math.round(ys.map(v)) + 0.5;
    ctx.strokeStyle = colors.grid;
    ctx.beginPath();
    ctx.moveTo(plot.x, y);
    ctx.lineTo(plot.x + plot.w, y);
    ctx.stroke();
    ctx.fillStyle = colors.muted;
    text('y', fmt(v), plot.x - 5, y, { align: 'right' });
  }
  for (const v of xs.ticks) {
    const x = Math.round(xs.map(v)) + 0.5;
    ctx.strokeStyle = colors.grid;
    ctx.beginPath();
    ctx.moveTo(x, plot.y);
    ctx.lineTo(x, plot.y + plot.h);
    ctx.stroke();
    ctx.fillStyle = colors.muted;
    text('x', fmt(v), x, plot.y + plot.h + 4, { align: 'center', baseline: 'top' });
  }
  ctx.strokeStyle = colors.muted;
  ctx.strokeRect(plot.x - 0.5, plot.y - 0.5, plot.w + 1, plot.h + 1);
  ctx.fillStyle = colors.fg;
  if (xLabel) text('x-title', xLabel, plot.x + plot.w / 2, height - 2, { align: 'center', baseline: 'bottom', px: 12, font: '12px system-ui, sans-serif' });
  if (yLabel) text('y-title', yLabel, 9, plot.y + plot.h / 2, { align: 'center', px: 12, font: '12px system-ui, sans-serif', turn: -Math.PI / 2 });
}
