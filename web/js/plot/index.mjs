// The page's plots, on <canvas>, with no dependencies (they run under the page's strict CSP):
//   heatmap(container, { data, rows, cols, … })        a matrix, keyboard-readable cell by cell
//   heatmapGrid(container, { maps: [{ title, … }] })   small heatmaps on one color scale
//   linePlot(container, { series: [{ name, x, y }] })  lines with a legend; append(name, x, y) grows them live
//   circlePlot(container, { points: [{ name, x, y }] }) points on the unit circle
// Each returns a handle whose update(changes) redraws in the next animation frame (frame.mjs).
export { heatmap } from './heatmap.mjs';
export { heatmapGrid } from './grid.mjs';
export { linePlot } from './lines.mjs';
export { circlePlot } from './circle.mjs';
