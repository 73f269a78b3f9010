// Small DOM helpers shared by the sections on attention and order (order-experiments, four-steps, incremental).
import { check } from './checks.mjs';
import { heatmap, formatValue } from './plot.mjs';

/**
 * Creates an element. props: { className, text, html (trusted, static strings only), attrs: { name: value },
 * dataset, on: { event: handler } }; children: nodes or strings.
 */
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  const { className, text, html, attrs = {}, dataset = {}, on = {} } = props;
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  if (html !== undefined) node.innerHTML = html;
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  Object.assign(node.dataset, dataset);
  for (const [event, handler] of Object.entries(on)) node.addEventListener(event, handler);
  node.append(...children.filter((c) => c !== null && c !== undefined));
  return node;
}

let styles;
/** Adds web/css/order.css (the styles of these sections) once; resolves when it has loaded (or failed). */
export function loadStyles() {
  styles ??= new Promise((resolve) => {
    const link = el('link', { attrs: { rel: 'stylesheet', href: new URL('../css/order.css', import.meta.url).href } });
    link.addEventListener('load', resolve);
    link.addEventListener('error', () => {
      console.warn('order.css could not be loaded; the sections still work, unstyled');
      resolve();
    });
    document.head.append(link);
  });
  return styles;
}

/** Renders (or updates) an experiment's checks ({ name, pass, claim, details }) in a `.checks` list. */
export function renderChecks(list, checks) {
  for (const c of checks) check(list, c.name, c.pass, c.details, { claim: c.claim });
}

/** A word's label in a sentence: "robot (0)". */
export const wordLabel = (words, i) => `${words[i]} (${i})`;

/** A titled figure block in container; returns it (a plot goes inside). */
export function figure(container, title) {
  const block = el('div', { className: 'order-figure' }, el('p', { className: 'order-figure-title', text: title }));
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

/** A labelled <select> inside a .control block; onChange(value) runs on change. */
export function selectControl({ id, label, options, value, onChange, hint }) {
  const select = el('select', { attrs: { id } });
  for (const o of options) select.append(el('option', { text: o.label, attrs: { value: o.value } }));
  select.value = value;
  select.addEventListener('change', () => onChange(select.value));
  return el('div', { className: 'control control-select' },
    el('label', { text: label, attrs: { for: id } }), select,
    hint ? el('span', { className: 'hint', text: hint }) : null);
}

/** A labelled range slider showing its value; onInput(number) runs on input. */
export function sliderControl({ id, label, min, max, value, onInput, format = String, hint }) {
  const input = el('input', { attrs: { id, type: 'range', min, max, step: 1, value } });
  const output = el('output', { text: format(value), attrs: { for: id } });
  input.addEventListener('input', () => {
    output.textContent = format(Number(input.value));
    onInput(Number(input.value));
  });
  return {
    input,
    output,
    element: el('div', { className: 'control' }, el('label', { text: label, attrs: { for: id } }), output, input,
      hint ? el('span', { className: 'hint', text: hint }) : null),
  };
}

/** A toggle button (aria-pressed), usable with Enter and Space like every button. */
export function toggleButton({ id, label, pressed = false, onToggle }) {
  const button = el('button', { className: 'toggle', attrs: { id, type: 'button', 'aria-pressed': String(pressed) } },
    el('span', { className: 'toggle-track', attrs: { 'aria-hidden': 'true' } }), el('span', { text: label }));
  button.addEventListener('click', () => {
    const next = button.getAttribute('aria-pressed') !== 'true';
    button.setAttribute('aria-pressed', String(next));
    onToggle(next);
  });
  return button;
}

/**
 * A row of word chips, each with its position under it: [{ word, position, kind }] where kind is a CSS modifier
 * ('cached', 'new', 'wrong', ...).
 */
export function tokenStrip(tokens, { label } = {}) {
  const strip = el('div', { className: 'token-strip', attrs: { role: 'list', ...(label ? { 'aria-label': label } : {}) } });
  for (const { word, position, kind = '' } of tokens) {
    strip.append(el('span', { className: `token ${kind ? `token-${kind}` : ''}`.trim(), attrs: { role: 'listitem' } },
      el('span', { className: 'token-word', text: word }),
      el('span', { className: 'token-position', text: `t = ${position}` })));
  }
  return strip;
}
