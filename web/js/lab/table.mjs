// The lab's tables: a caption above the table, outside its scroll box (it stays in view on a phone), the
// table and its box named by it (aria-labelledby). Each data cell carries its column's title (data-label), so that on
// a narrow screen lab.css turns every row into a block of "title: value" lines: no column is ever hidden. Wider
// than its box anyway, the box scrolls with the page's cue and takes the keyboard focus (as ui.mjs's numbersTable).
import { el } from '../ui.mjs';

let tables = 0;

/** A table under `root` with `caption`. Returns { element, show(headers, rows, { caption, cellClass }) }. */
export function labTable(root, { caption, className = '' }) {
  const id = `lab-table-${(tables += 1)}`;
  const captionEl = el('p', { className: 'lab-caption', id }, caption);
  const table = el('table', { className: `numbers lab-table ${className}`.trim(), 'aria-labelledby': id });
  const box = el('div', { className: 'table-scroll lab-table-scroll', role: 'region', 'aria-labelledby': id }, table);
  const cue = el('p', { className: 'scroll-cue', 'aria-hidden': 'true' }, 'scroll sideways for more columns →');
  const element = el('div', { className: 'table-block lab-table-block' }, captionEl, box, cue);
  root.append(element);
  const measure = () => {
    const overflow = box.scrollWidth > box.clientWidth + 1;
    element.dataset.overflow = String(overflow);
    if (overflow) box.tabIndex = 0;
    else box.removeAttribute('tabindex');
  };
  new ResizeObserver(measure).observe(box);
  let shown = '';
  return {
    element,
    /** headers: column titles; rows: arrays of cells (strings); cellClass(row, col) → a class for a data cell. */
    show(headers, rows, { caption: text, cellClass } = {}) {
      if (text !== undefined) captionEl.textContent = text;
      // the same columns and as many rows: only the cells that changed are written (a live table redraws often)
      const shape = JSON.stringify([headers, rows.length, rows.map((r) => r.length)]);
      if (shape === shown && !cellClass) {
        table.tBodies[0].querySelectorAll('tr').forEach((tr, r) => [...tr.children].forEach((cell, c) => {
          if (cell.textContent !== rows[r][c]) cell.textContent = rows[r][c];
        }));
        return;
      }
      shown = shape;
      table.replaceChildren(
        el('thead', {}, el('tr', {}, headers.map((h) => el('th', { scope: 'col' }, h)))),
        el('tbody', {}, rows.map((row, r) => el('tr', {}, row.map((v, c) => (c === 0
          ? el('th', { scope: 'row' }, v)
          : el('td', { className: cellClass?.(r, c) ?? '', dataset: { label: headers[c] } }, v)))))));
      measure();
    },
  };
}
