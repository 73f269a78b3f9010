// A heatmap's cells, painted once per data change into an offscreen image of one pixel per cell (drawn scaled, not
// smoothed). Diverging scale: blue < 0 < red, symmetric around 0; sequential: 0 … max. −∞ is "masked", NaN "NaN".
import { cssVar, mix, parseColor } from './colors.mjs';

/** The heatmap colors of the current theme, as [r, g, b]. */
export function heatColors(node) {
  return {
    neg: parseColor(cssVar(node, '--heat-neg', '#2166ac')),
    mid: parseColor(cssVar(node, '--heat-mid', '#f7f7f7')),
    pos: parseColor(cssVar(node, '--heat-pos', '#b2182b')),
    masked: parseColor(cssVar(node, '--heat-masked', '#6b6b6b')),
    nan: parseColor(cssVar(node, '--heat-nan', '#e6c229')),
  };
}

/** The largest |finite value| of data, or 1 when there is none (or it is 0). */
export function fullRange(data, n) {
  let range = 0;
  for (let i = 0; i < n; i += 1) if (Number.isFinite(data[i])) range = Math.max(range, Math.abs(data[i]));
  return range > 0 ? range : 1;
}

const STEPS = 1024;

/**
 * Paints data (rows × cols, row-major) into `image` (a canvas), the value `range` at full color.
 * @returns {{ range: number, masked: boolean, nan: boolean }}  the range used, and whether −∞ / NaN cells occur
 */
export function paintCells(image, { data, rows, cols, scale, range }, colors) {
  const full = range > 0 ? range : fullRange(data, rows * cols);
  image.width = Math.max(cols, 1);
  image.height = Math.max(rows, 1);
  const ctx = image.getContext('2d');
  const pixels = ctx.createImageData(image.width, image.height);
  const px = pixels.data;
  // A color table over s = v / range ∈ [−1, 1] (sequential: [0, 1]); no allocation per cell.
  const lo = scale === 'sequential' ? 0 : -1;
  const lut = new Uint8ClampedArray((STEPS + 1) * 3);
  for (let k = 0; k <= STEPS; k += 1) {
    const s = lo + ((1 - lo) * k) / STEPS;
    lut.set(s < 0 ? mix(colors.mid, colors.neg, -s) : mix(colors.mid, colors.pos, s), k * 3);
  }
  const toIndex = STEPS / (1 - lo);
  let masked = false;
  let nan = false;
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
      const k = Math.round((Math.max(lo, Math.min(1, v / full)) - lo) * toIndex) * 3;
      px[o] = lut[k];
      px[o + 1] = lut[k + 1];
      px[o + 2] = lut[k + 2];
    }
  }
  ctx.putImageData(pixels, 0, 0);
  return { range: full, masked, nan };
}
