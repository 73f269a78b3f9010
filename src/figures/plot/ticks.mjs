// Ticks and text of the plots: nice tick values, index ticks, measuring and fitting labels, and a text writer that
// records the box of every label it draws (plot.layout().labels), so tests can check that nothing is clipped or
// overlaps.

export const labelFont = (px) => `${px}px system-ui, sans-serif`;
export const TITLE_FONT = '12px system-ui, sans-serif';
export const SIN45 = Math.SQRT1_2;
const NUMBER = /^[−+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[−+-]?\d+)?$/i;  // (no text makes it backtrack)

/** `v` without the rounding of the arithmetic that made it (0.30000000000000004 → 0.3). */
const clean = (v) => Number(v.toPrecision(12));

/** The most ticks an axis draws: every loop over ticks stops there, whatever its range (a bound, not a layout). */
const MOST_TICKS = 1000;

/** The "nice" step (1, 2, 2.5 or 5 × 10^k) of about `count` ticks over [lo, hi]. */
function niceStep(lo, hi, count) {
  const raw = (hi / 2 - lo / 2) / Math.max(1, count) * 2;
  const mag = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? raw;
}

/** The multiples of `step` within [lo, hi] (none where they cannot be counted: a step of 0, or past MOST_TICKS). */
function multiples(lo, hi, step) {
  const first = Math.ceil(lo / step - 1e-9);
  const last = Math.floor(hi / step + 1e-9);
  if (!(step > 0 && Number.isFinite(first) && Number.isFinite(last) && last - first <= MOST_TICKS)) return [];
  const ticks = [];
  for (let k = 0; k <= last - first; k += 1) {
    const n = first + k;
    const v = n ? clean(n * step) : 0;
    if (v !== ticks.at(-1)) ticks.push(v);  // (past 2^53, neighbours may round to one number)
  }
  return ticks;
}

/** About `count` "nice" tick values (1, 2, 2.5 or 5 × 10^k apart) covering [lo, hi]. */
export function niceTicks(lo, hi, count = 5) {
  if (!(hi > lo)) return [lo];
  return multiples(lo, hi, niceStep(lo, hi, count));
}

/**
 * An axis for the data's [lo, hi] (lo < hi): the range widened to the nearest multiples of a nice step outside it, and
 * its ticks, so that both ends are labelled ticks (the data's own ends where that cannot be done).
 */
export function niceAxis(lo, hi, count = 5) {
  const step = niceStep(lo, hi, count);
  const range = [Math.floor(lo / step + 1e-9), Math.ceil(hi / step - 1e-9)].map((n) => (n ? clean(n * step) : 0));
  if (!(range[0] < range[1] && Number.isFinite(range[0]) && Number.isFinite(range[1]))) {
    return { range: [lo, hi], ticks: multiples(lo, hi, step) };
  }
  return { range, ticks: multiples(range[0], range[1], step) };
}

/** 10^k ≤ v < 10^(k+1) (v > 0). */
function decade(v) {
  const p = 10 ** Math.floor(Math.log10(v));
  return p * 10 <= v ? p * 10 : p;
}

/** The labels of a log axis stay this far apart, in CSS pixels. */
const LOG_GAP = 22;

/**
 * Ticks of a log axis over [lo, hi] (0 < lo < hi) drawn `px` pixels long, at least LOG_GAP apart: both ends, and
 * inside 1, 2 and 5 × 10^k where they fit, else powers of ten (every one, or every second, …, as fit).
 */
export function logTicks(lo, hi, px) {
  const gap = (LOG_GAP / px) * Math.log10(hi / lo);  // in decades
  const clear = (v) => Math.log10(v / lo) >= gap - 1e-9 && Math.log10(hi / v) >= gap - 1e-9;
  const inner = [];
  if (gap <= Math.log10(2)) {
    // 1 → 2 → 5 → 10: steps of log10(2), log10(2.5) and log10(2) decades
    for (let p = decade(lo), k = 0; p <= hi && k < MOST_TICKS; p = clean(p * 10), k += 1) for (const m of [1, 2, 5]) inner.push(clean(m * p));
  } else {
    const step = Math.max(1, Math.ceil(gap - 1e-9));
    const first = Math.ceil(Math.log10(lo) - 1e-9);
    for (let k = 0; k < MOST_TICKS && first + k * step <= Math.log10(hi) + 1e-9; k += 1) inner.push(clean(10 ** (first + k * step)));
  }
  return [lo, ...inner.filter(clear), hi];
}

/**
 * A log axis for the data's [lo, hi] (0 < lo < hi) drawn `px` pixels long: the range widened to the nearest
 * m × 10^k outside it (m = 1 … 9, so a curve at 0.698 gets an end at 0.7), and its ticks (logTicks).
 */
export function logAxis(lo, hi, px) {
  const p0 = decade(lo);
  const p1 = decade(hi);
  const range = [clean(Math.floor(lo / p0 + 1e-9) * p0), clean(Math.ceil(hi / p1 - 1e-9) * p1)];
  return { range, ticks: logTicks(range[0], range[1], px) };
}

/** Every k-th index of 0 … n−1, starting at 0. */
export function everyKth(n, k) {
  const ticks = [];
  const step = Math.max(1, Math.ceil(k) || 1);
  for (let i = 0; i < n; i += step) ticks.push(i);
  return ticks;
}

/** Integer indices 0 … n−1 at a step of 1, 2 or 5 × 10^k: at most about `count` of them, and at least `minStep` apart. */
export function indexTicks(n, count = 6, minStep = 1) {
  const raw = Math.max((n - 1) / Math.max(count, 1), minStep, 1);
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw - 1e-9);
  return everyKth(n, step);
}

/** True when the names of 0 … n−1 (up to 64 of them sampled) all read as numbers: '12', '−3', '2.5e−8'. */
export function numericNames(n, name) {
  const step = Math.max(1, Math.floor(n / 64));
  for (let i = 0; i < n; i += step) if (!NUMBER.test(String(name(i)))) return false;
  return true;
}

/** Widest of `texts` in the context's current font. */
export function widest(ctx, texts) {
  let w = 0;
  for (const t of texts) w = Math.max(w, ctx.measureText(t).width);
  return w;
}

/** `text` cut with '…' to fit `maxWidth` in the context's current font. */
export function fitText(ctx, text, maxWidth) {
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
 * A function text(kind, t, x, y, { align, baseline, px, font, turn }) that draws `t` and pushes its box
 * { kind, text, turn, x0, x1, y0, y1 } (turned by `turn` radians around (x, y)) onto `labels`.
 */
export function labelWriter(ctx, labels) {
  return (kind, t, x, y, { align = 'left', baseline = 'middle', px = 11, font = labelFont(px), turn = 0 } = {}) => {
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
    labels.push({ kind, text: t, turn, x0: Math.min(...xs), x1: Math.max(...xs), y0: Math.min(...ys), y1: Math.max(...ys) });
    if (turn) {
      ctx.save();
      ctx.translate(x, y);
      ctx.rotate(turn);
      ctx.fillText(t, 0, 0);
      ctx.restore();
    } else ctx.fillText(t, x, y);
  };
}
