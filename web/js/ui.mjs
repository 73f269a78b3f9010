// The page's DOM toolkit: one element helper, prose, figure groups ("what to notice" line, folded details, the focus
// kept clear of their sticky controls), tables of numbers that fit a phone or scroll with a visible cue, and per-frame
// scheduling. Controls are in controls.mjs; checks and plots come from the package (lib/figures/: seqorder/checks,
// seqorder/plot).
import { fmt } from './format.mjs';
import { checkList as packageCheckList } from '../lib/figures/checks.mjs';
import { recordDrawn } from './drawn.mjs';

/**
 * Creates an element: el('p', { className: 'x' }, 'text', child). Props are assigned as properties, except
 * `dataset` (merged) and names containing '-' (set as attributes, e.g. 'aria-label'). Children may be nested arrays;
 * null, undefined and false are skipped.
 */
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props ?? {})) {
    if (key === 'dataset') Object.assign(node.dataset, value);
    else if (key.includes('-')) node.setAttribute(key, value);
    else node[key] = value;
  }
  node.append(...children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false));
  return node;
}

/**
 * Appends the page's own prose, written as trusted static HTML (never user input), to root: a string starting with
 * a block tag (<h3>, <ul>, <ol>, <pre>, <div>) is inserted as is, any other string becomes a paragraph.
 */
export function prose(root, ...paragraphs) {
  for (const html of paragraphs) {
    const block = /^<(h3|h4|ul|ol|pre|div)\b/.test(html.trim());
    const node = document.createElement(block ? 'div' : 'p');
    node.innerHTML = html;
    root.append(...(block ? node.childNodes : [node]));
  }
}

/**
 * A figure group: controls, plots, a "what to notice" line, folded details and checks that belong together.
 * `folded`: the whole group unfolds from its title (a <details> inside the .fig, which is what is returned).
 */
export function fig(root, { title, id, folded = false } = {}) {
  if (folded) {
    const body = el('details', { className: 'fig-fold' }, el('summary', { className: 'fig-summary' }, title));
    root.append(el('div', { className: 'fig fig-folded', ...(id ? { id } : {}) }, body));
    return body;
  }
  const group = el('div', { className: 'fig', ...(id ? { id } : {}) }, title ? el('h3', {}, title) : null);
  root.append(group);
  return group;
}

/** A figure's controls: sticky at the top of the screen while the figure scrolls by, on a narrow screen (style.css). */
const STICKY_CONTROLS = ':scope > .controls, :scope > .controls-sticky';
const narrowScreen = matchMedia('(max-width: 48rem)');

/** Is the element's top above the screen, or under one of its figure's controls painted over it? */
function topHidden(element, figure) {
  const { top, bottom } = element.getBoundingClientRect();
  if (top < 0) return true;
  const bars = [...figure.querySelectorAll(STICKY_CONTROLS)];
  const own = bars.findIndex((bar) => bar.contains(element));
  // a bar is painted over the rest of its figure, and over the bars before it (the same z-index)
  return bars.slice(own + 1).some((bar) => {
    const box = bar.getBoundingClientRect();
    return box.top < bottom && box.bottom > top;
  });
}

/**
 * On a narrow screen, what takes the focus from the keyboard in a figure is brought into view below the figure's
 * sticky controls. Its scroll-margin-top (style.css) does so where the browser scrolls a focused element in; Firefox
 * leaves one that is already partly on screen where it is, under the controls, and WebKit can leave one of a sticky
 * group above the screen: after the browser's own scrolling, such an element is scrolled into view (block 'nearest',
 * which honours the scroll margin). A focus from the pointer is left alone (scrolling would move what is being
 * pressed), and nothing is done where the element is in view.
 */
export function keepFocusInView() {
  let fromKeyboard = false;
  addEventListener('keydown', () => { fromKeyboard = true; }, true);
  addEventListener('pointerdown', () => { fromKeyboard = false; }, true);
  document.addEventListener('focusin', ({ target }) => {
    const figure = fromKeyboard && narrowScreen.matches && target instanceof Element ? target.closest('.fig') : null;
    if (!figure) return;
    requestAnimationFrame(() => {
      if (document.activeElement === target && topHidden(target, figure)) target.scrollIntoView({ block: 'nearest' });
    });
  });
}

/**
 * The one line of a figure to read first (trusted HTML). Returns the paragraph; set its innerHTML again to follow
 * controls.
 */
export function notice(root, html) {
  const p = el('p', { className: 'notice' });
  p.innerHTML = html;
  root.append(p);
  return p;
}

/** Details folded away under a summary line: more(root, 'Why …', '<p>…</p>', …) (trusted HTML, as prose). */
export function more(root, summary, ...paragraphs) {
  const details = el('details', { className: 'more' }, el('summary', {}, summary));
  prose(details, ...paragraphs);
  root.append(details);
  return details;
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

let tableCount = 0;

/**
 * A table of numbers in a scroll box that is a labelled, focusable region whenever it is wider than the screen,
 * with shadows at the edges and a "scroll" cue then (data-overflow="true"). Row headers (the first cell of each row)
 * stay in view while scrolling.
 *   const t = numbersTable(root, { caption });   t.show(headers, rows, { highlight, digits });
 * headers: column titles; rows: arrays of cells (numbers are formatted with `format`, strings kept);
 * highlight(row, col) → true emphasises a cell. `drawn` names what the table shows (drawn.mjs: { headers, rows, caption },
 * the cells as given); `folded` (a summary line) puts the table in a <details> under it. Returns { element, show }.
 */
export function numbersTable(root, { caption, format = (v) => fmt(v, 4), drawn, folded }) {
  const id = `numbers-${(tableCount += 1)}`;
  const captionEl = el('caption', { id }, caption);
  const table = el('table', { className: 'numbers' }, captionEl);
  const cue = el('p', { className: 'scroll-cue', 'aria-hidden': 'true' }, 'scroll sideways for more columns →');
  const box = el('div', { className: 'table-scroll', role: 'region', 'aria-labelledby': id }, table);
  const element = el('div', { className: 'table-block' }, box, cue);
  root.append(folded ? el('details', { className: 'more table-fold' }, el('summary', {}, folded), element) : element);
  const measure = () => {
    const overflow = box.scrollWidth > box.clientWidth + 1;
    box.dataset.overflow = String(overflow);
    element.dataset.overflow = String(overflow);
    // Focusable only when it scrolls, so that keyboard users can scroll it; otherwise it is no tab stop.
    if (overflow) box.tabIndex = 0;
    else box.removeAttribute('tabindex');
  };
  new ResizeObserver(measure).observe(box);
  let shown = { headers: [], rows: [], caption };
  if (drawn) recordDrawn(element, drawn, () => shown);
  return {
    element,
    /** Replaces the table's contents; `caption` (optional) replaces the caption's text too. */
    show(headers, rows, { highlight, caption: text } = {}) {
      if (text !== undefined) captionEl.textContent = text;
      shown = { headers: [...headers], rows: rows.map((r) => [...r]), caption: captionEl.textContent };
      const cell = (v) => (typeof v === 'number' ? format(v) : v);
      table.replaceChildren(captionEl,
        el('thead', {}, el('tr', {}, headers.map((h) => el('th', { scope: 'col' }, h)))),
        el('tbody', {}, rows.map((row, r) => el('tr', {}, row.map((v, c) => el(c === 0 ? 'th' : 'td',
          { className: highlight?.(r, c) ? 'diff' : '', ...(c === 0 ? { scope: 'row' } : {}) }, cell(v)))))));
      measure();
    },
  };
}

/**
 * A scrollable code block that keyboard users can scroll too: a labelled, focusable region; `folded` (a summary line)
 * puts it in a <details> under it.
 */
export function codeBlock(root, { label, lines, folded }) {
  const pre = el('pre', { tabIndex: 0, role: 'region', 'aria-label': label }, el('code', {}, lines.join('\n')));
  root.append(folded ? el('details', { className: 'more code-fold', open: false }, el('summary', {}, folded), pre) : pre);
  return pre;
}

/** A block holding one plot among several side by side, under a short title; block.heading is the title element. */
export function titledBlock(container, title) {
  const heading = el('p', { className: 'figure-title' }, title);
  const block = el('div', { className: 'figure-block' }, heading);
  block.heading = heading;
  container.append(block);
  return block;
}

/** The page's list of checks (seqorder/checks): each shows its verdict and claim, its numbers unfold. */
export function checkList(root, heading = 'Checks') {
  return packageCheckList(root, heading, { foldDetails: true });
}

/**
 * The "Copy link" button: copies the page's link with its settings (page.link(): url-state.mjs) to the clipboard, or,
 * where the clipboard is unavailable, shows it in a field, selected, to copy by hand.
 */
export function copyLinkButton(container, page) {
  const button = el('button', { type: 'button', className: 'copy-link', id: 'copy-link' }, 'Copy link to these settings');
  const said = el('span', { className: 'copy-link-said', role: 'status' });
  const field = el('input', { type: 'text', readOnly: true, className: 'copy-link-field', 'aria-label': 'link to these settings' });
  field.hidden = true;
  button.addEventListener('click', async () => {
    const link = page.link();
    try {
      await navigator.clipboard.writeText(link);
      said.textContent = 'Link copied.';
      field.hidden = true;
    } catch {
      field.value = link;
      field.hidden = false;
      field.select();
      said.textContent = 'Copy the link from the field.';
    }
  });
  container.append(button, said, field);
  return button;
}
