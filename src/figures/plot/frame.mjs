// What every plot shares: a <figure> holding a canvas sized to its container (drawn at devicePixelRatio, redrawn when
// the width changes, at most once per animation frame), a tooltip, an HTML legend, and reading by keyboard.
//
// The canvas is focusable (role=application, so screen readers pass the arrow keys on; aria-roledescription names
// the kind of plot). A plot moves its own cursor on arrow keys (state.onKey) and calls state.read(text, x, y): the
// text shows in the tooltip and, when it came from a key, is announced through a polite live region. Escape or
// leaving the canvas clears the cursor. Options are checked (options.mjs) before anything is drawn or changed.
import { checkContainer } from './options.mjs';

/** The widest a plot's canvas is drawn, in CSS pixels. */
const MAX_WIDTH = 8192;

/**
 * @param {Element} container
 * @param {object} options   the plot's options; every plot honours caption, ariaLabel and height
 * @param {(ctx, width, height, state) => void} draw  paints in CSS pixels
 * @param {{ className: string, kind: string, check: (options) => void }} how  CSS class of the figure, what the plot
 *        is ('heatmap', …), and the check of its options (throws a TypeError or RangeError)
 * @returns {{ state, handle }}  handle: { figure, canvas, update(changes), flush(), layout(), destroy() }
 */
export function makePlot(container, options, draw, { className, kind, check }) {
  checkContainer(container);
  check(options);
  const canvas = document.createElement('canvas');
  canvas.className = 'plot-canvas';
  canvas.tabIndex = 0;
  canvas.setAttribute('role', 'application');
  canvas.setAttribute('aria-roledescription', kind);
  const tooltip = document.createElement('div');
  tooltip.className = 'plot-tooltip';
  tooltip.hidden = true;
  tooltip.setAttribute('aria-hidden', 'true');
  const announcer = document.createElement('p');
  announcer.className = 'plot-announcer';
  announcer.setAttribute('aria-live', 'polite');
  const frame = document.createElement('div');
  frame.className = 'plot-frame';
  frame.append(canvas, tooltip);
  const legend = document.createElement('div');
  legend.className = 'plot-legend';
  const figure = document.createElement('figure');
  figure.className = `plot ${className}`;
  figure.append(frame, legend, announcer);
  if (options.caption) {
    const caption = document.createElement('figcaption');
    caption.textContent = options.caption;
    figure.append(caption);
  }
  container.append(figure);

  const state = {
    options: { ...options }, width: 0, height: 0, pending: 0, cursor: null, canvas, tooltip, legend, figure,
    /** Labels drawn in the last frame, with their boxes (ticks.labelWriter), and whatever else the plot records. */
    layout: { labels: [] },
  };

  const label = () => `${state.options.ariaLabel ?? kind}. Focus and use the arrow keys to read the values.`;
  canvas.setAttribute('aria-label', label());

  function render() {
    state.pending = 0;
    // (at most MAX_WIDTH: the canvas of a container wider than any screen stays within what browsers draw)
    const width = Math.min(Math.max(Math.floor(frame.clientWidth), 120), MAX_WIDTH);
    // A plot with its own layout (the heatmap) sizes itself and honours options.height there.
    const height = Math.round(state.layoutHeight?.(width) ?? state.options.height ?? Math.min(320, width * 0.6));
    const dpr = window.devicePixelRatio || 1;
    if (canvas.width !== Math.round(width * dpr) || canvas.height !== Math.round(height * dpr)) {
      canvas.width = Math.round(width * dpr);
      canvas.height = Math.round(height * dpr);
      canvas.style.height = `${height}px`;
    }
    state.width = width;
    state.height = height;
    const ctx = canvas.getContext('2d');
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, width, height);
    draw(ctx, width, height, state);
  }

  state.schedule = () => {
    if (!state.pending) state.pending = requestAnimationFrame(render);
  };

  let lastWidth = 0;
  const observer = new ResizeObserver(() => {
    if (frame.clientWidth !== lastWidth) {
      lastWidth = frame.clientWidth;
      state.schedule();
    }
  });
  observer.observe(frame);

  /** Shows `text` at (x, y) in the tooltip (kept inside the frame); `announce` also says it to screen readers. */
  state.read = (text, x, y, { announce = false } = {}) => {
    tooltip.textContent = text;
    tooltip.hidden = false;
    const w = tooltip.offsetWidth;
    const h = tooltip.offsetHeight;
    const left = x + 14 + w > state.width ? Math.max(0, x - 14 - w) : x + 14;
    const top = Math.min(Math.max(0, y - h - 10), Math.max(0, state.height - h));
    tooltip.style.left = `${left}px`;
    tooltip.style.top = `${top}px`;
    if (announce) announcer.textContent = text.replace(/\n/g, '; ');
  };
  state.clear = () => {
    state.cursor = null;
    tooltip.hidden = true;
    state.schedule();
  };

  canvas.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') {
      state.clear();
      return;
    }
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (state.onKey?.(event.key)) {
      event.preventDefault();
      state.keyboard = true;
      state.schedule();
    }
  });
  canvas.addEventListener('blur', () => state.clear());
  canvas.addEventListener('pointerleave', () => state.clear());

  const handle = {
    figure,
    canvas,
    /** Merges `changes` into the options and redraws in the next animation frame. */
    update(changes = {}) {
      if (typeof changes !== 'object' || changes === null) throw new TypeError('seqorder/plot: update takes an object of changed options');
      check({ ...state.options, ...changes });
      Object.assign(state.options, changes);
      if ('ariaLabel' in changes) canvas.setAttribute('aria-label', label());
      state.onUpdate?.(changes);
      state.schedule();
    },
    /** Draws now (synchronously), e.g. before reading pixels. */
    flush() {
      if (state.pending) cancelAnimationFrame(state.pending);
      render();
    },
    /** The last drawn layout, in CSS pixels: every label's box, and the plot's own records (margins, ticks, …). */
    layout: () => state.layout,
    /** The current options (a shallow copy): what the plot draws. */
    options: () => ({ ...state.options }),
    destroy() {
      observer.disconnect();
      if (state.pending) cancelAnimationFrame(state.pending);
      figure.remove();
    },
  };
  state.schedule();
  return { state, handle };
}

/** Replaces the legend's items: [{ label, color, className }]. */
export function legendItems(legend, items) {
  legend.replaceChildren(...items.map(({ label, color, className = '' }) => {
    const item = document.createElement('span');
    item.className = `legend-item ${className}`.trim();
    const swatch = document.createElement('span');
    swatch.className = 'legend-swatch';
    swatch.style.backgroundColor = color;  // (a color only: options.mjs lets no url() through, and neither would this)
    item.append(swatch, document.createTextNode(label));
    return item;
  }));
}

/** Pointer position relative to the canvas, in CSS pixels. */
export function pointerAt(canvas, event) {
  const rect = canvas.getBoundingClientRect();
  return { x: event.clientX - rect.left, y: event.clientY - rect.top };
}
