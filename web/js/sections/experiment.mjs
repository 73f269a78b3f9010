// Section "experiment": the lesson's small experiment, run live through the JS API, each assertion a check.
import { renderChecks } from '../../lib/figures/checks.mjs';
import { checkList, codeBlock, fig, more, notice, numbersTable, prose } from '../ui.mjs';
import { experimentSentences, lessonCodeLines, lessonExperiment } from '../experiments/experiment.mjs';
import { say } from '../claims.mjs';

export async function run(so, root) {
  prose(root, 'The lesson’s experiment, in seqorder’s JavaScript API, just ran in your browser: a table for 4 positions ' +
    'of width 8, its first row and norms, and robot at positions 0 and 3.');
  const f = fig(root);
  codeBlock(f, { label: 'the experiment in JavaScript', lines: lessonCodeLines(), folded: 'The code, which runs as shown' });
  const result = lessonExperiment(so);
  const { pe, norms } = result;
  // Transposed (a row per feature, a column per position) so that it fits a phone.
  numbersTable(f, { caption: 'pe = so.positions(4, 8): one column per position t, and each row’s squared norm', drawn: 'pe', folded: 'The table pe, and its squared norms' }).show(
    ['feature', 't = 0', 't = 1', 't = 2', 't = 3'],
    [...Array.from({ length: 8 }, (_, c) => [`${c % 2 ? 'cos' : 'sin'} ${c >> 1}`, ...[0, 1, 2, 3].map((t) => pe.data[t * 8 + c])]),
      ['‖p_t‖²', ...norms]],
    { highlight: (r) => r === 8 });
  numbersTable(f, { caption: 'the same token vector at positions 0 and 3', drawn: 'robot', folded: 'robot at positions 0 and 3' }).show(
    ['feature', 'robot', '+ pe[0]', '+ pe[3]', 'difference'],
    result.atZero.map((a, c) => [String(c), c / 8, a, result.atThree[c], result.atThree[c] - a]),
    { highlight: (_, c) => c === 4 });
  say(notice(f, ''), experimentSentences(result));
  more(f, 'The tolerances',
    'Each assertion uses numpy’s tolerance: <code>assert_allclose</code> (rtol 1e-7) for the equalities, ' +
    '<code>allclose</code> (rtol 1e-5, atol 1e-8) for “not close”. Nothing here mixes rows yet: that is attention’s job, ' +
    'further down.');
  renderChecks(checkList(f), result.checks);
}
