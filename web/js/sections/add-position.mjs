// Section 2: the input becomes token vector + position vector; robot at position 0 vs position 3.
import { check } from '../checks.mjs';
import { linePlot } from '../plot.mjs';
import { controls, el, numbersTable, perFrame, prose, slider } from '../ui.mjs';
import { robotAtPositions } from '../experiments/positions.mjs';

export async function run(so, root) {
  prose(root,
    'The missing information is added, not inferred: for every position <var>t</var> we build a vector ' +
    '<var>p<sub>t</sub></var> with the same <var>D</var> features as a token vector and add the two, feature by feature. ' +
    'The model then receives <code>input<sub>t</sub> = token<sub>t</sub> + p<sub>t</sub></code>. Adding keeps the width at ' +
    '<var>D</var>; gluing the two side by side would double it. The sum holds both signals in one space. Nothing ' +
    'promises that either one can be read back out on its own: the model learns what to make of the mixture.',
    'Take robot’s token vector from the lesson, (0, 1/8, 2/8, …, 7/8), and place it at position 0 and then at position 3.');

  const fixed = robotAtPositions(so, 3);
  const features = Array.from({ length: 8 }, (_, i) => i);
  const plot = linePlot(root, {
    series: [], xLabel: 'feature', yLabel: 'value', yRange: [-1.2, 2], height: 230,
    ariaLabel: 'robot’s token vector and its inputs at two positions, feature by feature',
  });
  const group = controls(root, 'robot’s second position');
  const tableSlot = el('div');
  root.appendChild(tableSlot);

  const render = (t) => {
    const r = robotAtPositions(so, t);
    plot.update({
      series: [
        { name: 'robot (token vector)', x: features, y: r.robot, markers: true, dashed: true },
        { name: 'robot + p₀ (at position 0)', x: features, y: [...r.at0], markers: true },
        { name: `robot + p${subscript(t)} (at position ${t})`, x: features, y: [...r.atT], markers: true },
      ],
    });
    tableSlot.replaceChildren(numbersTable(
      ['feature', 'robot', 'p₀', 'robot + p₀', `p${subscript(t)}`, `robot + p${subscript(t)}`],
      features.map((i) => [String(i), r.robot[i], r.p0[i], r.at0[i], r.pt[i], r.atT[i]]),
      { caption: `robot at position 0 and at position ${t}`, highlight: (_, c) => c === 5 },
    ));
  };
  const schedule = perFrame(render);
  slider(group, {
    id: 'add-position-t', label: 'second position t', min: 0, max: 40, value: 3, onInput: schedule,
    hint: 'Move robot along the sentence; at t = 0 the two inputs coincide.',
  });
  render(3);

  prose(root,
    'Same word, same lookup row; only the position changed, and with it what the model will be fed. That is the whole ' +
    'job of this step: every row is still built without looking at any other row. One caution for later: reordering a sentence and then numbering it from 0 again ' +
    'changes which token gets which position vector, while carrying each (token, position) pair along keeps them ' +
    'together. Those are two different experiments, and section 7 runs both.');

  for (const c of fixed.checks) check(root, c.name, c.pass, c.details, { claim: c.claim });
}

function subscript(n) {
  return String(n).replace(/\d/g, (d) => '₀₁₂₃₄₅₆₇₈₉'[d]);
}
