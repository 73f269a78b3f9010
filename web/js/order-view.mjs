// DOM pieces of the sections on attention and order (order-experiments, four-steps, incremental), on top of the
// page's toolkit (ui.mjs, controls.mjs) and the package's figures (lib/figures/).
import { fmt } from './format.mjs';
import { heatmap } from '../lib/figures/plot/index.mjs';
import { el, titledBlock } from './ui.mjs';

/**
 * A titled heatmap of a (T, D) tensor whose rows are words: rows named by word, columns by feature. Returns
 * { plot, show(tensor, { words, title, range, note }) }; show redraws in the next frame and keeps the title and the
 * screen-reader label in step.
 */
export function rowsHeatmap(container, { tensor, words, title, range, note }) {
  const [rows, cols] = tensor.shape;
  const block = titledBlock(container, title);
  let current = words;
  const label = (t) => `${t}: one row per word, ${cols} features`;
  const plot = heatmap(block, {
    data: tensor.data, rows, cols, range, note, rowLabel: '', colLabel: 'feature',
    rowName: (r) => current[r],
    tooltip: (r, c, v) => `${current[r]} (row ${r}), feature ${c}: ${fmt(v, 4)}`,
    minHeight: 30 * rows, maxHeight: 36 * rows, ariaLabel: label(title),
  });
  return {
    plot,
    show(next, { words: nextWords, title: nextTitle, range: nextRange, note: nextNote } = {}) {
      current = nextWords ?? current;
      const changes = { data: next.data, rows: next.shape[0], cols: next.shape[1], note: nextNote };
      if (nextRange) changes.range = nextRange;
      if (nextTitle) {
        block.heading.textContent = nextTitle;
        changes.ariaLabel = label(nextTitle);
      }
      plot.update(changes);
    },
  };
}

/** Signed difference a − b of two equally shaped tensors, as a new tensor. */
export function difference(a, b) {
  return { data: a.data.map((v, i) => v - b.data[i]), shape: a.shape, dtype: a.dtype };
}

/** Largest |finite value| of several arrays (for a shared color range); at least `floor`. */
export function sharedRange(arrays, floor = 1e-12) {
  let range = floor;
  for (const a of arrays) for (const v of a) if (Number.isFinite(v)) range = Math.max(range, Math.abs(v));
  return range;
}

/** A labelled row of word chips, each with its position: tokens [{ word, position, kind }] (kind: a CSS modifier). */
export function tokenStrip(label, tokens) {
  return el('div', { className: 'token-strip-row' },
    el('span', { className: 'token-strip-label' }, label),
    el('div', { className: 'token-strip', role: 'list', 'aria-label': label },
      tokens.map(({ word, position, kind }) => el('span', { className: kind ? `token token-${kind}` : 'token', role: 'listitem' },
        el('span', { className: 'token-word' }, word),
        el('span', { className: 'token-position' }, `t = ${position}`)))));
}
