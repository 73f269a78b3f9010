// Colors of the plots, read from the page's CSS custom properties (style.css), so light and dark themes both work.

const SERIES = ['--series-0', '--series-1', '--series-2', '--series-3', '--series-4', '--series-5'];

/** The value of a custom property on `node`, or `fallback`. */
export function cssVar(node, name, fallback) {
  const value = getComputedStyle(node).getPropertyValue(name).trim();
  return value || fallback;
}

/** Parses '#rrggbb' / '#rgb' / 'rgb(r, g, b)' into [r, g, b]. */
export function parseColor(text) {
  const t = text.trim();
  if (t.startsWith('#')) {
    const hex = t.length === 4 ? [...t.slice(1)].map((c) => c + c).join('') : t.slice(1, 7);
    return [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16));
  }
  const m = t.match(/rgba?\(([^)]+)\)/);
  if (m) return m[1].split(/[ ,]+/).slice(0, 3).map(Number);
  return [128, 128, 128];
}

/** a + (b − a)·s, per channel. */
export function mix(a, b, s) {
  return [a[0] + (b[0] - a[0]) * s, a[1] + (b[1] - a[1]) * s, a[2] + (b[2] - a[2]) * s];
}

/** The theme's text, muted text, grid and panel colors. */
export function themeColors(node) {
  return {
    fg: cssVar(node, '--fg', '#222'),
    muted: cssVar(node, '--muted', '#666'),
    grid: cssVar(node, '--grid', '#ddd'),
    panel: cssVar(node, '--panel', '#fff'),
  };
}

/** Color of series i (its own `color` first), from the color-blind-safe palette of style.css. */
export function seriesColor(node, series, i) {
  return series.color ?? cssVar(node, SERIES[i % SERIES.length], '#0072b2');
}
