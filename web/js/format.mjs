// The page's number formatting: the figures' formatter (fmt, from the package) and the page's own helpers. No DOM.
export { fmt } from '../lib/figures/format.mjs';

/** A position or count with thousands separators: 1,000,000. */
export const count = (n) => n.toLocaleString('en-US');

/** Digits as subscripts: p₁₂. */
export const subscript = (n) => String(n).replace(/\d/g, (d) => '₀₁₂₃₄₅₆₇₈₉'[d]);

/** 'word' or 'words' after a number: plural(3, 'word') = '3 words'. */
export const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;
