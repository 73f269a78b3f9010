// Small DOM helpers shared by the page's sections: elements, prose, labelled sliders, number tables, frame scheduling.

/**
 * Creates an element: el('p', { className: 'x' }, 'text', child). Props are assigned as properties, except
 * `dataset` (merged) and names containing '-' (set as attributes, e.g. 'aria-label').
 */
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props ?? {})) {
    if (key === 'dataset') Object.assign(node.dataset, value);
    else if (key.includes('-')) node.setAttribute(key, value);
    else node[key] = value;
  }
  node.append(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
  return node;
}

/** Appends paragraphs written as trusted, static HTML (the page's own prose, never user input) to root. */
export function prose(root, ...paragraphs) {
  for (const html of paragraphs) {
    const tag = /^<(h3|ul|ol|pre|div|figure|table)/.test(html.trim()) ? 'div' : 'p';
    const node = document.createElement(tag);
    node.innerHTML = html;
    root.append(...(tag === 'div' ? node.childNodes : [node]));
  }
}

/**
 * A labelled range slider with its current value shown in an <output>; usable by keyboard (arrows, Page Up/Down,
 * Home/End). Calls onInput(value) on every change.
 * @returns {HTMLInputElement}
 */
export function slider(container, { id, label, min, max, step = 1, value, format = String, hint, onInput }) {
  const input = el('input', { type: 'range', id, min, max, step, value });
  const output = el('output', { htmlFor: id }, format(Number(value)));
  const wrap = el('div', { className: 'control' }, el('label', { htmlFor: id }, label), output, input,
    hint ? el('span', { className: 'hint', id: `${id}-hint` }, hint) : null);
  if (hint) input.setAttribute('aria-describedby', `${id}-hint`);
  input.setAttribute('aria-valuetext', format(Number(value)));
  input.addEventListener('input', () => {
    const v = Number(input.value);
    output.value = format(v);
    input.setAttribute('aria-valuetext', format(v));
    onInput?.(v);
  });
  container.appendChild(wrap);
  return input;
}

/** A `.controls` group for sliders. */
export function controls(root, label) {
  const group = el('div', { className: 'controls', role: 'group', 'aria-label': label });
  root.appendChild(group);
  return group;
}

/**
 * Returns a function that runs `fn` at most once per animation frame, with the latest arguments: slider input
 * re-renders in the next frame however many input events arrive in between.
 */
export function perFrame(fn) {
  let pending = 0;
  let args = [];
  return (...latest) => {
    args = latest;
    if (!pending) {
      pending = requestAnimationFrame(() => {
        pending = 0;
        fn(...args);
      });
    }
  };
}

/**
 * A small table of numbers: headers (column titles), rows (arrays of cells: numbers are formatted, strings kept).
 * `highlight(rowIndex, colIndex)` may return true to emphasise a cell.
 */
export function numbersTable(headers, rows, { caption, digits = 4, highlight } = {}) {
  const fmtCell = (v) => (typeof v === 'number' ? formatNumber(v, digits) : v);
  const table = el('table', { className: 'numbers' },
    caption ? el('caption', {}, caption) : null,
    el('thead', {}, el('tr', {}, headers.map((h) => el('th', { scope: 'col' }, h)))),
    el('tbody', {}, rows.map((row, r) => el('tr', {}, row.map((v, c) => el(c === 0 ? 'th' : 'td',
      { className: highlight?.(r, c) ? 'diff' : '', ...(c === 0 ? { scope: 'row' } : {}) }, fmtCell(v)))))));
  return el('div', { className: 'table-scroll', tabIndex: 0, 'aria-label': caption ?? 'numbers' }, table);
}

/** Fixed-width-ish formatting for tables: 0.7071, −1, 2.2e-16. */
export function formatNumber(x, digits = 4) {
  if (x === 0) return '0';
  if (!Number.isFinite(x)) return x === -Infinity ? '−∞' : String(x);
  const a = Math.abs(x);
  const s = a >= 1e-3 && a < 1e6 ? String(Number(x.toFixed(digits))) : x.toExponential(1);
  return s.replace('-', '−');
}
