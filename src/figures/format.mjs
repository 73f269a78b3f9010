// The figures' one number formatter, used by tick labels, tooltips and checks' numbers alike. No DOM.

/**
 * A short, readable number with `digits` significant digits: 0, 4, 0.125, 3.14e−17, −2.5e+6, ∞, −∞, NaN.
 * Plain notation from 10⁻³ up to 10⁶, else exponent notation (no trailing zeros); a true minus sign.
 * A TypeError when x or digits is not a number, a RangeError when digits is not an integer from 1 to 100.
 */
export function fmt(x, digits = 3) {
  if (typeof x !== 'number') throw new TypeError(`seqorder/plot: fmt: x must be a number, got ${typeof x}`);
  if (typeof digits !== 'number') throw new TypeError(`seqorder/plot: fmt: digits must be a number, got ${typeof digits}`);
  if (!Number.isInteger(digits) || digits < 1 || digits > 100)
    throw new RangeError(`seqorder/plot: fmt: digits must be an integer from 1 to 100, got ${digits}`);
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return '∞';
  if (x === -Infinity) return '−∞';
  if (x === 0) return '0';
  const a = Math.abs(x);
  const rounded = Number(x.toPrecision(digits));
  const s = a >= 1e-3 && a < 1e6 ? String(rounded) : rounded.toExponential();
  return s.replaceAll('-', '−');
}
