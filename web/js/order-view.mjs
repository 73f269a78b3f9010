// DOM pieces shared by the sections on attention and order (order-experiments, four-steps, incremental), on top of
// the page's helpers (ui.mjs, plot.mjs, checks.mjs).
import { check } from './checks.mjs';
import { heatmap, formatValue } from './plot.mjs';
import { el } from './ui.mjs';

/** Renders (or updates) an experiment's checks ({ name, pass, claim, details }) in a `.checks` list. */
export function renderChecks(list, checks) {
  for (const c of checks) check(list, c.name, c.pass, c.details, { claim: c.claim });
}

/** A titled figure block appended to container; returns it (a plot goes inside). */
export function figure(container, title) {
  const block = el('div', { className: 'order-figure' }, el('p', { className: 'order-figure-title' }, title));
  container.append(block);
  return block;
}

/**
 * A heatmap of a (T, D) tensor whose rows are words: rows named by word, columns by feature. Returns
 * { plot, show(tensor, words?, title?, range?) }; show redraws in the next frame.
 */
export function rowsHeatmap(container, { tensor, words, title, range, ariaLabel, tooltip }) {
  const [rows, cols] = tensor.shape;
  const block = figure(container, title);
  let current = words;
  const plot = heatmap(block, {
    data: tensor.data, rows, cols, range, rowLabel: '', colLabel: 'feature',
    rowName: (r) => current[r],
    tooltip: tooltip ?? ((r, c, v) => `${current[r]} (row ${r}), feature ${c}: ${formatValue(v)}`),
    minHeight: 30 * rows, maxHeight: 36 * rows,
    ariaLabel: ariaLabel ?? `${title}: one row per word, ${cols} features; focus and use the arrow keys to read values`,
  });
  return {
    plot,
    show(next, nextWords, nextTitle, nextRange) {
      current = nextWords ?? current;
      if (nextTitle) block.firstChild.textContent = nextTitle;
      plot.update({ data: next.data, rows: next.shape[0], cols: next.shape[1], ...(nextRange ? { range: nextRange } : {}) });
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

/** A labelled <select> in a .control block; onChange(value) runs on change. */
export function selectControl({ id, label, options, value, onChange, hint }) {
  const select = el('select', { id }, options.map((o) => el('option', { value: o.value }, o.label)));
  select.value = value;
  select.addEventListener('change', () => onChange(select.value));
  if (hint) select.setAttribute('aria-describedby', `${id}-hint`);
  return el('div', { className: 'control control-select' },
    el('label', { htmlFor: id }, label), select,
    hint ? el('span', { className: 'hint', id: `${id}-hint` }, hint) : null);
}

/** A switch-like toggle button: its state is aria-pressed; Enter and Space work as on every button. */
export function toggleButton({ id, label, pressed = false, onToggle }) {
  const button = el('button', { className: 'toggle', id, type: 'button', 'aria-pressed': String(pressed) },
    el('span', { className: 'toggle-track', 'aria-hidden': 'true' }), el('span', {}, label));
  button.addEventListener('click', () => {
    const next = button.getAttribute('aria-pressed') !== 'true';
    button.setAttribute('aria-pressed', String(next));
    onToggle(next);
  });
  return button;
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
