// Section 1: a token lookup gives each word its vector wherever the word stands, so nothing in the vectors says where.
import { check } from '../checks.mjs';
import { heatmap } from '../plot.mjs';
import { el, prose } from '../ui.mjs';
import { lookupHasNoWhere } from '../experiments/positions.mjs';
import { VOCAB, vocabularyTable } from '../experiments/sentence.mjs';

export async function run(so, root) {
  prose(root,
    'In lesson 1 a word became a vector by reading one row of a table: the row of <em>robot</em> belongs to robot and ' +
    'to nothing else. That is exactly what we wanted for meaning, and exactly why order is lost. Give the lookup ' +
    '“robot follows person” and then “person follows robot”: robot receives the very same row both times, once at the ' +
    'top of the sentence and once at the bottom. The lookup was never told where a word stands, so it cannot pass that on.');

  const table = vocabularyTable();
  const result = lookupHasNoWhere(so, table, VOCAB);
  const { first, second, x1, x2 } = result;
  const row = el('div', { className: 'plot-row' });
  root.appendChild(row);
  const range = Math.max(...table.data.map(Math.abs));
  const options = (words, title) => ({
    rows: 3, cols: x1.shape[1], range, rowLabel: 'word', colLabel: 'feature', minHeight: 90, maxHeight: 140,
    rowName: (r) => words[r], caption: title,
    ariaLabel: `${title}: the three looked-up vectors, one row per word`,
    tooltip: (r, c, v) => `${words[r]} (row ${r}), feature ${c}: ${v.toFixed(4)}`,
  });
  heatmap(row, { data: x1.data, ...options(first, `“${first.join(' ')}”`) });
  heatmap(row, { data: x2.data, ...options(second, `“${second.join(' ')}”`) });

  prose(root,
    'Compare the robot rows: they are identical, and the second picture is the first one upside down. Now imagine any ' +
    'later step that handles every row the same way: it compares each row with all the others, blends them, and runs ' +
    'the same arithmetic at every place. Reorder its input rows and it can only reorder its output rows in the same way ' +
    '(whatever shuffle goes in comes out again, applied to the results: permutation equivariance, which is weaker than ' +
    'the result not changing at all). A matrix product applied to every row alike has no idea which row is the third.',
    'Attention is such a step when no positions are added. Section 7 builds it and checks this claim with real numbers; ' +
    'a causal mask, which forbids looking ahead, is a positional structure of its own and changes the story there. ' +
    'Here we check only what the lookup does.');

  for (const c of result.checks) check(root, c.name, c.pass, c.details, { claim: c.claim });
}
