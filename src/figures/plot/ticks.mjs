// Ticks and text of the plots: nice tick values, index ticks, measuring and fitting labels, and a text writer that
// records the box of every label it draws (plot.layout().labels), so tests can check that nothing is clipped or
// overlaps.

export const labelFont = (px) => `${px}px system-ui, sans-serif`;
export const TITLE_FONT = '12px system-ui, sans-serif';
export const SIN45 = Math.SQRT1_2;
const NUMBER = /^[−+-]?(\d+\.?\d*|\.\d+)(e[−+-]?\d+)?$/i;

/** About `count` "nice" tick values (1, 2, 2.5 or 5 × 10^k apart) covering [lo, hi]. */
export function niceTicks(lo, hi, count = 5) {
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? raw;
  const ticks = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) ticks.push(Math.abs(v) < step * 1e-9 ? 0 : v);
  return ticks;
}

/** Powers of ten within [lo, hi] (both > 0), thinned to about `count`; at least the two ends when none fall inside. */
export function logTicks(lo, hi, count = 5) {
  const a = Math.ceil(Math.log10(lo) - 1e-9);
  const b = Math.floor(Math.log10(hi) + 1e-9);
  if (b < a) return [lo, hi];
  const step = Math.max(1, Math.ceil((b - a + 1) / count));
  const ticks = [];
  for (let e = a; e <= b; e += step) ticks.push(10 ** e);
  return ticks;
}

/** Every k-th index of 0 … n−1, starting at 0. */
export function everyKth(n, k) {
  const ticks = [];
  for (let i = 0; i < n; i += k) ticks.push(i);
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
