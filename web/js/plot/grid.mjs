// A grid of small heatmaps on one color scale (the same range for all), each titled: a batch of sequences, or the
// attention maps of several heads. Each map is a full heatmap (heatmap.mjs): readable by pointer and keyboard.
import { heatmap } from './heatmap.mjs';
import { fullRange } from './heatmap-paint.mjs';

/**
 * @param {Element} container
 * @param {object} options  heatmap options shared by every map (scale, rowLabel, colLabel, rowName, colName,
 *        tooltip, minHeight, maxHeight …), plus:
 * @param {{ title: string, data: ArrayLike<number>, rows: number, cols: number, rowName?, colName? }[]} options.maps
 * @param {number} [options.range]  default: the largest |finite value| over all maps
 * @param {string} [options.minWidth='11rem']  the narrowest a map may be before the grid wraps
 * @returns {{ element, maps: () => handles, update({ maps, range }) }}
 */
export function heatmapGrid(container, { maps, range, minWidth = '11rem', ...shared }) {
  const element = document.createElement('div');
  element.className = 'plot-grid';
  element.style.setProperty('--grid-min', minWidth);
  container.append(element);
  let plots = [];

  function update({ maps: next, range: fixed = range }) {
    const full = fixed ?? Math.max(...next.map((m) => fullRange(m.data, m.rows * m.cols)));
    while (plots.length > next.length) plots.pop().cell.remove();
    next.forEach((m, i) => {
      const { title, ...own } = m;
      const options = { ...shared, ...own, range: full, ariaLabel: `${title}: ${shared.ariaLabel ?? 'heatmap'}` };
      if (!plots[i]) {
        const cell = document.createElement('div');
        cell.className = 'plot-grid-cell';
        const heading = document.createElement('p');
        heading.className = 'plot-grid-title';
        cell.append(heading);
        element.append(cell);
        plots[i] = { cell, heading, plot: heatmap(cell, options) };
      } else plots[i].plot.update(options);
      plots[i].heading.textContent = title;
    });
    plots = plots.slice(0, next.length);
  }
  update({ maps });
  return { element, maps: () => plots.map((p) => p.plot), update };
}
