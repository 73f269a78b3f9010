// A grid of small heatmaps on one color scale (the same range for all), each titled: a batch of sequences, or the
// attention maps of several heads. Each map is a full heatmap (heatmap.mjs): readable by pointer and keyboard.
import { heatmap } from './heatmap.mjs';
import { fullRange } from './heatmap-paint.mjs';
import { checkContainer, checkGrid, checkObject } from './options.mjs';

/**
 * @param {Element} container
 * @param {object} options  heatmap options shared by every map (scale, rowLabel, colLabel, rowName, colName,
 *        tooltip, minHeight, maxHeight …), plus:
 * @param {{ title: string, data: ArrayLike<number>, rows: number, cols: number, rowName?, colName? }[]} options.maps
 * @param {number} [options.range]  default: the largest |finite value| over all maps
 * @param {string} [options.minWidth='11rem']  the narrowest a map may be before the grid wraps
 * @returns {{ element, maps: () => handles, update(changes), options() }}  update merges changes (maps, range,
 *          shared options) into the options and redraws; options() returns the current ones
 */
export function heatmapGrid(container, options) {
  checkContainer(container);
  checkObject(options);
  checkGrid(options);
  const element = document.createElement('div');
  element.className = 'plot-grid';
  container.append(element);
  let current = { minWidth: '11rem', ...options };
  let plots = [];

  function show() {
    const { maps, range, minWidth, ...shared } = current;
    element.style.setProperty('--grid-min', minWidth);
    const full = range ?? Math.max(...maps.map((m) => fullRange(m.data, m.rows * m.cols)));
    while (plots.length > maps.length) plots.pop().cell.remove();
    maps.forEach((m, i) => {
      const { title, ...own } = m;
      const mapOptions = { ...shared, ...own, range: full, ariaLabel: `${title}: ${shared.ariaLabel ?? 'heatmap'}` };
      if (!plots[i]) {
        const cell = document.createElement('div');
        cell.className = 'plot-grid-cell';
        const heading = document.createElement('p');
        heading.className = 'plot-grid-title';
        cell.append(heading);
        element.append(cell);
        plots[i] = { cell, heading, plot: heatmap(cell, mapOptions) };
      } else plots[i].plot.update(mapOptions);
      plots[i].heading.textContent = title;
    });
    plots = plots.slice(0, maps.length);
  }

  function update(changes) {
    checkObject(changes);
    const next = { ...current, ...changes };
    checkGrid(next);
    current = next;
    show();
  }
  show();
  return { element, maps: () => plots.map((p) => p.plot), update, options: () => ({ ...current }) };
}
