// Section 5: ‖p_t‖² = D/2 at every position, and position 0 = (0, 1, 0, 1, …).
import { check } from '../checks.mjs';
import { linePlot } from '../plot.mjs';
import { prose } from '../ui.mjs';
import { normCurves } from '../experiments/positions.mjs';
import { inWorker } from '../worker-client.mjs';

export async function run(so, root) {
  prose(root,
    'Every pair is a sine and a cosine of one angle, a point on the unit circle, so it contributes sin² + cos² = 1 to ' +
    'the squared length of the vector, whatever the position. With D/2 pairs, ‖p<sub>t</sub>‖² = D/2 at every ' +
    '<var>t</var>: position vectors all have the same length and differ only in direction. No position is “louder” ' +
    'than another when it is added to a token.',
    'At position 0 every angle is 0, so the vector is (0, 1, 0, 1, …): sines 0, cosines 1. The curves follow pair 1 of a ' +
    'width-8 table (it turns 0.1 rad per position): its sine² and cosine² trade places all the time, yet their sum, and the whole vector’s norm, stay put.');
  const curves = normCurves(so, { length: 64, width: 8, pair: 1 });
  linePlot(root, {
    series: [
      { name: 'sin² of pair 1', x: curves.t, y: curves.sin2 },
      { name: 'cos² of pair 1', x: curves.t, y: curves.cos2 },
      { name: '‖p_t‖² / (D/2), D = 8', x: curves.t, y: curves.ratio, width: 3 },
    ],
    xLabel: 'position t', yLabel: 'value', yRange: [0, 1.15], height: 220,
    ariaLabel: 'sine squared and cosine squared of pair 1 oscillate while the normalised squared norm stays at 1',
  });
  prose(root,
    'In floating point “exactly” means “to within rounding”. The checks sweep several widths and first positions up to ' +
    'a million, in float64 and float32 (the sweep runs in a background worker so the page stays responsive).');
  const result = await inWorker(so, './experiments/positions.mjs', 'normProperty',
    { widths: [2, 8, 64, 512], starts: [0, 1e4, 1e6], length: 1024, maxWidth: 512 });
  for (const c of result.checks) check(root, c.name, c.pass, c.details, { claim: c.claim });
}
