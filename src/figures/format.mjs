// The figures' one number formatter, used by tick labels, tooltips and checks' numbers alike. No DOM.

/**
 * A short, readable number with `digits` significant digits: 0, 4, 0.125, 3.14e−17, −2.5e+6, ∞, −∞, NaN.
 * Plain notation from 10⁻³ up to 10⁶, else exponent notation (no trailing zeros); a true minus sign.
 */
export function fmt(x, digits = 3) {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return '∞';
  if (x === -Infinity) return '−∞';
  if (x === 0) return '0';
  const a = Math.abs(x);
  const rounded = Number(x.toPrecision(digits));
  const s = a >= 1e-3 && a < 1e6 ? String(rounded) : rounded.toExponential();
  return s.replaceAll('-', '−');
}
