// Section "norm": ‖p_t‖² = D/2 at every position, and position 0 = (0, 1, 0, 1, …); the sweep runs in the worker.
import { renderChecks } from '../../lib/figures/checks.mjs';
import { linePlot } from '../../lib/figures/plot/index.mjs';
import { checkList, fig, more, notice, prose } from '../ui.mjs';
import { normCurves, normSentences } from '../experiments/norm.mjs';
import { drawnPlot } from '../drawn.mjs';
import { say } from '../claims.mjs';
import { inWorker } from '../worker-client.mjs';

export async function run(so, root) {
  prose(root,
    'Each pair is a point on the unit circle, adding sin² + cos² = 1 to the squared length: with <var>D</var>/2 pairs, ' +
    '‖p<sub>t</sub>‖² = <var>D</var>/2 at every position.');
  const f = fig(root);
  const curves = normCurves(so, { length: 64, width: 8, pair: 1 });
  drawnPlot('curves', linePlot(f, {
    series: [
      { name: 'sin² of pair 1', x: curves.t, y: curves.sin2 },
      { name: 'cos² of pair 1', x: curves.t, y: curves.cos2 },
      { name: '‖p_t‖² / (D/2), D = 8', x: curves.t, y: curves.ratio, width: 3 },
    ],
    xLabel: 'position t', yLabel: 'value', yRange: [0, 1.15], height: 220,
    ariaLabel: 'sine squared and cosine squared of pair 1 trade places while the normalised squared norm stays at 1',
  }));
  say(notice(f, ''), normSentences(curves, { width: 8, pair: 1 }));
  more(f, '“Exactly”, in floating point',
    'In floating point, exactly means within rounding. The checks sweep widths 2 to 512 and first positions up to a ' +
    'million, in float64 and float32 (in a background worker, so the page stays responsive). Position 0 is ' +
    '(0, 1, 0, 1, …) because every angle is 0 there.');
  const list = checkList(f);
  const result = await inWorker(so, './experiments/norm.mjs', 'normProperty',
    { widths: [2, 8, 64, 512], starts: [0, 1e4, 1e6], length: 1024, maxWidth: 512 });
  renderChecks(list, result.checks);
}
