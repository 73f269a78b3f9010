// A heatmap's layout: margins sized from the measured labels (row names, column names upright or turned 45°, axis
// titles, color-bar values), tick choices, and the height that follows the matrix's aspect ratio. Pure measuring: it
// draws nothing.
import { fmt } from '../format.mjs';
import { SIN45, everyKth, fitText, indexTicks, labelFont, numericNames, widest } from './ticks.mjs';

/** The color bar: its gap from the plot, its width, the gap before its labels. */
export const BAR = { gap: 14, w: 10, pad: 4 };
/** The longest a turned column name may be (CSS pixels) before it is cut with '…'. */
const MAX_TURNED = 110;

/** Row names at every row when they are words and fit (shrinking to 9 px first), else at a step. */
function rowTicks(rows, rowName, plotH) {
  const rh = plotH / Math.max(rows, 1);
  if (rows > 0 && !numericNames(rows, rowName)) {
    for (const px of [11, 10, 9]) if (rh >= px + 2) return { ticks: everyKth(rows, 1), px };
    return { ticks: everyKth(rows, Math.ceil(11 / rh)), px: 9 };
  }
  return { ticks: indexTicks(rows, Math.max(2, plotH / 28), 15 / rh), px: 11 };
}

/**
 * Column names. Numbers: a nice step with room for the widest. Words: every one, upright if it fits its column
 * (at 11 or 10 px), else turned 45° (11 px, or 9 px when columns are narrow); only when even that collides, every
 * k-th at 11 px. Turned names end at their column; neighbours are then cw·sin 45° apart across the text.
 */
function colTicks(ctx, cols, colName, plotW) {
  const cw = plotW / Math.max(cols, 1);
  if (cols > 0 && cols <= 256 && !numericNames(cols, colName)) {
    const names = Array.from({ length: cols }, (_, c) => String(colName(c)));
    for (const px of [11, 10]) {
      ctx.font = labelFont(px);
      if (widest(ctx, names) + 4 <= cw) return { ticks: everyKth(cols, 1), px, rotated: false };
    }
    const across = cw * SIN45;
    if (across >= 11) return { ticks: everyKth(cols, 1), px: across >= 13 ? 11 : 9, rotated: true };
    return { ticks: everyKth(cols, Math.ceil(13 / across)), px: 11, rotated: true };
  }
  ctx.font = labelFont(11);
  const w = widest(ctx, [String(colName(0)), String(colName(Math.max(cols - 1, 0)))]);
  return { ticks: indexTicks(cols, Math.max(2, plotW / 50), (w + 12) / cw), px: 11, rotated: false };
}

/**
 * Left = row title + widest row name (and room for the first turned column name), right = color bar + its widest
 * label, bottom = column names + column title. The plot's height follows its width, so the few quantities that
 * depend on each other are iterated to a fixpoint (starting from the last left margin).
 * @returns {{ margin, plot: { x, y, w, h }, height, width, row, col, barLabels, labels: [] }}
 */
export function heatmapLayout(ctx, width, options, range, startLeft = 52) {
  const { rows, cols, rowLabel, colLabel, scale, minHeight = 120, maxHeight = 420 } = options;
  const rowName = options.rowName ?? String;
  const colName = options.colName ?? String;
  const top = 8;
  ctx.font = labelFont(11);
  const lo = scale === 'sequential' ? 0 : -range;
  const barLabels = [fmt(range, 4), fmt((lo + range) / 2, 4), fmt(lo, 4)];
  const right = Math.ceil(BAR.gap + BAR.w + BAR.pad + widest(ctx, barLabels) + 6);
  const titleSpace = rowLabel ? 22 : 2;
  let left = startLeft;
  let plotW;
  let plotH;
  let bottom;
  let row;
  let col;
  for (let pass = 0; pass < 4; pass += 1) {
    plotW = Math.max(width - left - right, 20);
    col = colTicks(ctx, cols, colName, plotW);
    ctx.font = labelFont(col.px);
    col.names = col.ticks.map((c) => (col.rotated ? fitText(ctx, String(colName(c)), MAX_TURNED) : String(colName(c))));
    const colTicksHeight = col.rotated ? Math.ceil(SIN45 * (widest(ctx, col.names) + (col.px + 2) / 2)) : col.px + 2;
    bottom = 4 + colTicksHeight + 4 + (colLabel ? 16 : 0);
    plotH = options.height !== undefined
      ? Math.max(options.height - top - bottom, 20)
      : Math.min(maxHeight, Math.max(minHeight, (plotW * rows) / Math.max(cols, 1)));
    row = rowTicks(rows, rowName, plotH);
    ctx.font = labelFont(row.px);
    // Row names take at most about a third of the width; longer ones are cut with '…' (the tooltip has them whole).
    const maxRowW = Math.max(24, width * 0.35 - titleSpace - 6);
    row.names = row.ticks.map((r) => fitText(ctx, String(rowName(r)), maxRowW));
    let next = Math.ceil(titleSpace + widest(ctx, row.names) + 6);
    if (col.rotated) {
      // A turned name reaches SIN45·(w + h/2) left of its column's centre: keep the first ones on the canvas.
      ctx.font = labelFont(col.px);
      const cw = plotW / cols;
      col.ticks.forEach((c, i) => {
        const reach = SIN45 * (ctx.measureText(col.names[i]).width + (col.px + 2) / 2) - (c + 0.5) * cw + 2;
        next = Math.max(next, Math.ceil(reach));
      });
    }
    if (next === left) break;
    left = next;
  }
  plotW = Math.max(width - left - right, 20);
  return {
    margin: { top, right, bottom, left },
    plot: { x: left, y: top, w: plotW, h: plotH },
    height: Math.ceil(plotH + top + bottom),
    width, row, col, barLabels, labels: [],
  };
}
