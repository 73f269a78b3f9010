// The sinusoid table and its pairs on circles, in a plain static folder: no bundler; the import map of index.html
// maps the package's names to the files copied into ./seqorder/.
import { loadSeqorder } from 'seqorder';
import { circlePlot, heatmap } from 'seqorder/plot';

const so = await loadSeqorder();
const table = so.positions(24, 8);
heatmap(document.getElementById('table'), {
  data: table.data, rows: 24, cols: 8, rowLabel: 'position t', colLabel: 'column', ariaLabel: 'the sinusoid table',
});
// position 5's four (sin, cos) pairs as points on the unit circle
const row = table.data.subarray(5 * 8, 6 * 8);
circlePlot(document.getElementById('pairs'), {
  points: [0, 1, 2, 3].map((i) => ({ name: `pair ${i}`, x: row[2 * i + 1], y: row[2 * i] })),
  ariaLabel: 'the pairs of position 5 on the unit circle',
});
console.log('seqorder static', table.shape.join('x'), so.build);
