// The markdown the renderers write: numbers, ratios and tables.
export const fixed = (x, digits = 1) => (Number.isFinite(x) ? x.toFixed(digits) : '—');
export const times = (x) => (Number.isFinite(x) ? `${x.toFixed(x >= 10 ? 1 : 2)}×` : '—');

const row = (cells) => `| ${cells.join(' | ')} |`;

/** One column per case, one row per contender, then the ratios: fits a README. */
export function table(header, columns, rows) {
  return [row([header, ...columns]), row(Array(columns.length + 1).fill('---')), ...rows.map((r) => row(r))].join('\n');
}
