// seqorder/plot: the lesson's figures, on <canvas>, with no dependencies (no eval, no inline style: they run under a
// strict CSP; colors come from figures.css's custom properties, light and dark):
//   heatmap(container, { data, rows, cols, … })        a matrix, keyboard-readable cell by cell
//   heatmapGrid(container, { maps: [{ title, … }] })   small heatmaps on one color scale
//   linePlot(container, { series: [{ name, x, y }] })  lines with a legend; append(name, x, y) grows them live
//   circlePlot(container, { points: [{ name, x, y }] }) points on the unit circle
//   fmt(x, digits)                                      the number formatter of their ticks and readouts
// Each plot returns a handle whose update(changes) redraws in the next animation frame (frame.mjs). Types: index.d.ts.
export { heatmap } from './heatmap.mjs';
export { heatmapGrid } from './grid.mjs';
export { linePlot } from './lines.mjs';
export { circlePlot } from './circle.mjs';
export { fmt } from '../format.mjs';
