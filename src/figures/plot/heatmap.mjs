// A heatmap of a row-major matrix: cells painted once per data change (heatmap-paint.mjs), margins measured from the
// labels (heatmap-layout.mjs), read by pointer or keyboard (heatmap-input.mjs). This module draws the pieces.
import { fmt } from '../format.mjs';
import { themeColors } from './colors.mjs';
import { legendItems, makePlot } from './frame.mjs';
import { heatmapInput } from './heatmap-input.mjs';
import { BAR, heatmapLayout } from './heatmap-layout.mjs';
import { heatColors, paintCells } from './heatmap-paint.mjs';
import { checkHeatmap, checkObject } from './options.mjs';
import { TITLE_FONT, fitText, labelWriter } from './ticks.mjs';

/**
 * @param {Element} container
 * @param {object} options
 * @param {ArrayLike<number>} options.data  rows × cols values, row-major; −Infinity is drawn as "masked", NaN as "NaN"
 * @param {number} options.rows
 * @param {number} options.cols
 * @param {'diverging'|'sequential'} [options.scale='diverging']  diverging: blue < 0 < red, symmetric around 0;
 *        sequential: 0 … max, for weights and other non-negative data
 * @param {number} [options.range]   the value drawn at full color (default: the largest |finite value|)
 * @param {string} [options.rowLabel='row']  axis titles ('' for none: the row names then get the title's room)
 * @param {string} [options.colLabel='column']
 * @param {(row: number) => string} [options.rowName]  tick and readout names, e.g. r => `${start + r}`. Names that
 *        are numbers are shown at a nice step; words are all shown while they fit (column names turn 45° or shrink).
 * @param {(col: number) => string} [options.colName]
 * @param {(row: number, col: number, value: number) => string} [options.tooltip]  the readout of a cell
 * @param {{ row0: number, row1: number, col0?: number, col1?: number, label?: string }[]} [options.marks]  outlined
 *        blocks of cells, rows [row0, row1) × columns [col0, col1) (default: all columns), with an optional label
 * @param {string} [options.note]  a short text drawn over the cells (e.g. why a map is blank)
 * @param {number} [options.height]  CSS pixels; default follows the matrix's aspect ratio, within [minHeight, maxHeight]
 * @param {number} [options.minHeight=120]
 * @param {number} [options.maxHeight=420]
 * @param {string} [options.ariaLabel]  what the map shows, for screen readers
 * @param {string} [options.caption]
 * @returns the plot handle (frame.mjs); update({ data, rows, cols, … }) redraws
 */
export function heatmap(container, options) {
  checkObject(options);
  const image = document.createElement('canvas');
  const { state, handle } = makePlot(container, { scale: 'diverging', rowLabel: 'row', colLabel: 'column', ...options },
    draw, { className: 'plot-heatmap', kind: 'heatmap', check: checkHeatmap });
  state.dirty = true;
  state.onUpdate = (changes) => {
    if (['data', 'rows', 'cols', 'range', 'scale'].some((key) => key in changes)) state.dirty = true;
    const { rows, cols } = state.options;
    if (state.cursor && (state.cursor.row >= rows || state.cursor.col >= cols)) state.clear();
    if (state.cursor) state.readPending = true;
  };
  state.layoutHeight = (width) => {
    if (state.dirty) {
      state.painted = paintCells(image, state.options, state.colors = heatColors(state.figure));
      const { masked, nan } = state.painted;
      legendItems(state.legend, [
        masked && { label: 'masked (−∞)', color: `rgb(${state.colors.masked})`, className: 'legend-masked' },
        nan && { label: 'NaN', color: `rgb(${state.colors.nan})` },
      ].filter(Boolean));
      state.dirty = false;
    }
    state.layout = heatmapLayout(state.canvas.getContext('2d'), width, state.options, state.painted.range, state.layout.margin?.left);
    return state.layout.height;
  };

  function cellText(row, col) {
    const { data, cols, rowLabel, colLabel, tooltip } = state.options;
    const value = data[row * cols + col];
    if (tooltip) return tooltip(row, col, value);
    const rowName = state.options.rowName ?? String;
    const colName = state.options.colName ?? String;
    return `${rowLabel} ${rowName(row)}, ${colLabel} ${colName(col)}: ${value === -Infinity ? '−∞ (masked)' : fmt(value, 4)}`;
  }

  const showCell = (row, col, { announce }) => {
    const { plot } = state.layout;
    const { rows, cols } = state.options;
    state.read(cellText(row, col), plot.x + ((col + 0.5) * plot.w) / cols, plot.y + ((row + 0.5) * plot.h) / rows, { announce });
  };
  heatmapInput(state, showCell);

  function draw(ctx, width) {
    if (state.dirty || state.layout.width !== width) state.layoutHeight(width);
    const { layout } = state;
    const colors = themeColors(state.figure);
    layout.labels = [];
    const text = labelWriter(ctx, layout.labels);
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(image, layout.plot.x, layout.plot.y, layout.plot.w, layout.plot.h);
    ctx.strokeStyle = colors.muted;
    ctx.lineWidth = 1;
    ctx.strokeRect(layout.plot.x - 0.5, layout.plot.y - 0.5, layout.plot.w + 1, layout.plot.h + 1);
    drawMarks(ctx, layout.plot, state.options, colors);
    drawAxes(ctx, text, layout, state.options, colors, state.height);
    drawBar(ctx, text, layout, state.options.scale, state.colors, colors);
    if (state.options.note) drawNote(ctx, layout.plot, state.options.note, colors);
    if (state.cursor) {
      const { row, col } = state.cursor;
      const cw = layout.plot.w / state.options.cols;
      const rh = layout.plot.h / state.options.rows;
      ctx.strokeStyle = colors.fg;
      ctx.lineWidth = 2;
      ctx.strokeRect(layout.plot.x + col * cw, layout.plot.y + row * rh, Math.max(cw, 2), Math.max(rh, 2));
      if (state.readPending) {
        state.readPending = false;
        showCell(row, col, { announce: state.keyboard });
      }
    }
  }
  return handle;
}

/** Outlined blocks of cells, each with an optional label. */
function drawMarks(ctx, plot, { rows, cols, marks = [] }, colors) {
  const cw = plot.w / cols;
  const rh = plot.h / rows;
  for (const { row0, row1, col0 = 0, col1 = cols, label } of marks) {
    const x = plot.x + col0 * cw;
    const y = plot.y + row0 * rh;
    ctx.setLineDash([5, 3]);
    ctx.lineWidth = 2;
    ctx.strokeStyle = colors.fg;
    ctx.strokeRect(x + 1, y + 1, (col1 - col0) * cw - 2, (row1 - row0) * rh - 2);
    ctx.setLineDash([]);
    if (label) {
      ctx.font = '600 11px system-ui, sans-serif';
      ctx.textAlign = 'left';
      ctx.textBaseline = 'top';
      ctx.fillStyle = colors.fg;
      ctx.fillRect(x + 3, y + 3, ctx.measureText(label).width + 8, 16);
      ctx.fillStyle = colors.panel;
      ctx.fillText(label, x + 7, y + 5);
    }
  }
}

/** Row and column names at their ticks (column names upright or turned 45°), and the axis titles. */
function drawAxes(ctx, text, { plot, row, col }, { rows, cols, rowLabel, colLabel }, colors, height) {
  const cw = plot.w / cols;
  const rh = plot.h / rows;
  ctx.fillStyle = colors.muted;
  col.ticks.forEach((c, i) => {
    const x = plot.x + (c + 0.5) * cw;
    const y = plot.y + plot.h + 4;
    if (col.rotated) text('col', col.names[i], x + 2, y + 2, { align: 'right', px: col.px, turn: -Math.PI / 4 });
    else text('col', col.names[i], x, y, { align: 'center', baseline: 'top', px: col.px });
  });
  row.ticks.forEach((r, i) => text('row', row.names[i], plot.x - 5, plot.y + (r + 0.5) * rh, { align: 'right', px: row.px }));
  // The row title is turned, along the plot's left edge, and shortened if longer than the plot.
  ctx.fillStyle = colors.fg;
  if (colLabel) text('col-title', colLabel, plot.x + plot.w / 2, height - 2, { align: 'center', baseline: 'bottom', px: 12, font: TITLE_FONT });
  if (rowLabel) {
    ctx.font = TITLE_FONT;
    const title = fitText(ctx, rowLabel, plot.h);
    if (title) text('row-title', title, 9, plot.y + plot.h / 2, { align: 'center', px: 12, font: TITLE_FONT, turn: -Math.PI / 2 });
  }
}

/** The color bar, its values at the top, middle (when there is room) and bottom. */
function drawBar(ctx, text, { plot, barLabels }, scale, heat, colors) {
  const bar = { x: plot.x + plot.w + BAR.gap, y: plot.y, w: BAR.w, h: Math.max(plot.h, 40) };
  const gradient = ctx.createLinearGradient(0, bar.y + bar.h, 0, bar.y);
  const stops = scale === 'sequential' ? [heat.mid, heat.pos] : [heat.neg, heat.mid, heat.pos];
  stops.forEach((c, i) => gradient.addColorStop(i / (stops.length - 1), `rgb(${c})`));
  ctx.fillStyle = gradient;
  ctx.fillRect(bar.x, bar.y, bar.w, bar.h);
  ctx.strokeStyle = colors.muted;
  ctx.strokeRect(bar.x - 0.5, bar.y - 0.5, bar.w + 1, bar.h + 1);
  ctx.fillStyle = colors.muted;
  const x = bar.x + bar.w + BAR.pad;
  text('bar', barLabels[0], x, bar.y + 4);
  if (bar.h >= 45) text('bar', barLabels[1], x, bar.y + bar.h / 2);
  text('bar', barLabels[2], x, bar.y + bar.h - 4);
}

/**
 * A short note in a box at the centre of the cells: on one line where it fits, else wrapped at spaces (as many lines
 * as the cells' height holds; only a last line or a word wider than the box is cut, with an ellipsis).
 */
function drawNote(ctx, plot, note, colors) {
  ctx.font = '600 12px system-ui, sans-serif';
  const w = Math.min(ctx.measureText(note).width + 16, plot.w - 4);
  const lines = [];
  for (const word of note.split(' ')) {
    const joined = lines.length ? `${lines.at(-1)} ${word}` : word;
    if (lines.length && ctx.measureText(joined).width <= w - 8) lines[lines.length - 1] = joined;
    else lines.push(word);
  }
  const fits = Math.max(1, Math.floor((plot.h - 22) / 15) + 1);
  const shown = lines.length > fits ? [...lines.slice(0, fits - 1), lines.slice(fits - 1).join(' ')] : lines;
  const h = 22 + 15 * (shown.length - 1);
  const x = plot.x + (plot.w - w) / 2;
  const y = plot.y + (plot.h - h) / 2;
  ctx.fillStyle = colors.panel;
  ctx.strokeStyle = colors.muted;
  ctx.fillRect(x, y, w, h);
  ctx.strokeRect(x + 0.5, y + 0.5, w - 1, h - 1);
  ctx.fillStyle = colors.fg;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  shown.forEach((line, i) => ctx.fillText(fitText(ctx, line, w - 8), x + w / 2, y + 11 + 15 * i));
}
