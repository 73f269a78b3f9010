// Section "norm": ‖p_t‖² = D/2 at every position, in float64 and float32, and position 0 = (0, 1, 0, 1, …). The
// sweep runs in the page's worker. Pure: no DOM.
import { fmt } from '../format.mjs';
import { TOL } from './common.mjs';

/**
 * ‖p_t‖² = D/2 at every position, in float64 and float32, over widths × starts; position 0 = (0, 1, 0, 1, …) for
 * every even width up to maxWidth.
 */
export function normProperty(so, { widths = [2, 8, 64, 512], starts = [0, 1e4, 1e6], length = 1024, maxWidth = 512 } = {}) {
  const worst = { float64: { rel: 0, width: 0, t: 0 }, float32: { rel: 0, width: 0, t: 0 } };
  let rows = 0;
  for (const dtype of ['float64', 'float32']) {
    for (const width of widths) {
      for (const start of starts) {
        const { data } = so.positions(length, width, { start, dtype });
        for (let r = 0; r < length; r += 1) {
          let s = 0;
          for (let c = 0; c < width; c += 1) s += data[r * width + c] * data[r * width + c];
          const rel = Math.abs(s / (width / 2) - 1);
          if (!(rel <= worst[dtype].rel)) worst[dtype] = { rel, width, t: start + r };
        }
        if (dtype === 'float64') rows += length;
      }
    }
  }
  let zeroError = 0;
  let zeroWidths = 0;
  for (let width = 2; width <= maxWidth; width += 2) {
    for (const dtype of ['float64', 'float32']) {
      const { data } = so.positions(1, width, { dtype });
      for (let c = 0; c < width; c += 1) {
        const d = Math.abs(data[c] - (c % 2));
        if (!(d <= zeroError)) zeroError = d;
      }
    }
    zeroWidths += 1;
  }
  return {
    worst,
    checks: [
      {
        name: 'norm-every-position',
        claim: 'Every position vector has squared norm D/2 (float64)',
        pass: worst.float64.rel <= TOL.normRelative64,
        details: `${rows} rows (D = ${widths.join(', ')}; ${length} positions from each t = ${starts.join(', ')}): ` +
          `max |‖p_t‖²/(D/2) − 1| = ${fmt(worst.float64.rel)} ≤ ${fmt(TOL.normRelative64)}` +
          (worst.float64.rel > 0 ? ` (worst: D = ${worst.float64.width}, t = ${worst.float64.t})` : ''),
      },
      {
        name: 'norm-every-position-float32',
        claim: 'The same holds for float32 tables, within float32 rounding',
        pass: worst.float32.rel <= TOL.normRelative32,
        details: `max |‖p_t‖²/(D/2) − 1| = ${fmt(worst.float32.rel)} ≤ ${fmt(TOL.normRelative32)} (≈ 2·2⁻²⁴)`,
      },
      {
        name: 'norm-position0',
        claim: 'Position 0 is (0, 1, 0, 1, …) exactly',
        pass: zeroError === 0,
        details: `every even D from 2 to ${maxWidth} (${zeroWidths} widths), float64 and float32: ` +
          `max |p_0 − (0, 1, 0, 1, …)| = ${fmt(zeroError)}`,
      },
    ],
  };
}

/** The curves of the norm figure, for width D over t = 0 … length−1: sin² and cos² of one pair, and ‖p_t‖²/(D/2). */
export function normCurves(so, { length = 64, width = 8, pair = 1 } = {}) {
  const { data } = so.positions(length, width);
  const t = Array.from({ length }, (_, k) => k);
  const sin2 = t.map((k) => data[k * width + 2 * pair] ** 2);
  const cos2 = t.map((k) => data[k * width + 2 * pair + 1] ** 2);
  const ratio = t.map((k) => {
    let s = 0;
    for (let c = 0; c < width; c += 1) s += data[k * width + c] ** 2;
    return s / (width / 2);
  });
  return { t, sin2, cos2, ratio };
}

/**
 * The sentence under the norm curves (normCurves' result c, width D); its predicate reads the curves drawn
 * (drawn.curves: sin² of the pair, cos² of the pair, ‖p_t‖²/(D/2)).
 */
export function normSentences(c, { width = 8, pair = 1 } = {}) {
  const spread = (ys) => [Math.min(...ys), Math.max(...ys)];
  const [lo, hi] = spread(c.sin2);
  const off = Math.max(...c.ratio.map((r) => Math.abs(r - 1)));
  return [{
    name: 'norm-stays',
    text: `sin² of pair ${pair} runs from ${fmt(lo, 2)} to ${fmt(hi, 2)} and cos² the other way, yet ‖p_t‖²/(D/2) stays ` +
      `within ${fmt(off, 2)} of 1 (D = ${width}, t = 0 … ${c.t.at(-1)}): no position is “louder” than another.`,
    holds: (drawn) => {
      const [sin2, cos2, ratio] = drawn.curves.series;
      const [a, b] = spread(sin2.y);
      const drawnOff = Math.max(...ratio.y.map((r) => Math.abs(r - 1)));
      return fmt(a, 2) === fmt(lo, 2) && fmt(b, 2) === fmt(hi, 2) && drawnOff <= TOL.normRelative64 && fmt(drawnOff, 2) === fmt(off, 2) &&
        sin2.y.every((v, k) => Math.abs(v + cos2.y[k] - 1) <= TOL.normRelative64);
    },
  }];
}
