// Section 4: the lesson's small experiment, run live through the JS API, each assertion a check.
import { check } from '../checks.mjs';
import { el, numbersTable, prose } from '../ui.mjs';
import { lessonExperiment } from '../experiments/positions.mjs';

export async function run(so, root) {
  prose(root,
    'The lesson closes this part with a short experiment: build a table for 4 positions of width 8, check position 0, ' +
    'check the norms, place robot at two positions, and look at the shape. Here it is in seqorder’s JavaScript API, ' +
    'run in your browser a moment ago. Each assertion of the experiment is one check below, with the tolerance the ' +
    'numpy version uses (<code>assert_allclose</code>: rtol 1e-7; <code>allclose</code>: rtol 1e-5, atol 1e-8).');
  root.appendChild(el('pre', {}, el('code', {}, [
    "const so = await loadSeqorder();",
    "const pe = so.positions(4, 8);              // { data, shape: [4, 8], dtype: 'float64' }",
    "const row = (t) => pe.data.subarray(8 * t, 8 * t + 8);",
    "row(0).filter((_, c) => c % 2 === 0)        // sines of position 0: all 0",
    "row(0).filter((_, c) => c % 2 === 1)        // cosines of position 0: all 1",
    "[0, 1, 2, 3].map((t) => sumOfSquares(row(t)))   // each 4 = D/2",
    "const robot = [0, 1, 2, 3, 4, 5, 6, 7].map((i) => i / 8);",
    "const atZero = robot.map((v, c) => v + row(0)[c]);",
    "const atThree = robot.map((v, c) => v + row(3)[c]);   // not close to atZero",
    "pe.shape                                     // [4, 8]",
  ].join('\n'))));

  const result = lessonExperiment(so);
  const { pe, norms } = result;
  const headers = ['t', ...Array.from({ length: 8 }, (_, c) => `${c % 2 ? 'cos' : 'sin'} ${c >> 1}`), '‖p_t‖²'];
  root.appendChild(numbersTable(headers,
    [0, 1, 2, 3].map((t) => [String(t), ...pe.data.subarray(t * 8, t * 8 + 8), norms[t]]),
    { caption: 'pe = so.positions(4, 8), with each row’s squared norm', highlight: (_, c) => c === 9 }));
  root.appendChild(numbersTable(['feature', 'robot', 'robot + pe[0]', 'robot + pe[3]', 'difference'],
    result.atZero.map((a, c) => [String(c), c / 8, a, result.atThree[c], result.atThree[c] - a]),
    { caption: 'the same token vector at positions 0 and 3', highlight: (_, c) => c === 4 }));

  for (const c of result.checks) check(root, c.name, c.pass, c.details, { claim: c.claim });
  prose(root,
    'Each row here was built without looking at any other row; mixing rows is the job of attention, further down.');
}
