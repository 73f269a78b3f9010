// Section "no-where": a token lookup gives each word its row wherever the word stands, so nothing in the rows says
// where. The experiment is experiments/no-where.mjs.
import { renderChecks } from '../../lib/figures/checks.mjs';
import { heatmap } from '../../lib/figures/plot/index.mjs';
import { fmt } from '../format.mjs';
import { checkList, el, fig, more, notice, prose, titledBlock } from '../ui.mjs';
import { lookupHasNoWhere, noWhereSentences } from '../experiments/no-where.mjs';
import { drawnPlot } from '../drawn.mjs';
import { say } from '../claims.mjs';
import { VOCAB, vocabularyTable } from '../experiments/sentence.mjs';

export async function run(so, root) {
  prose(root,
    'In lesson 1 a word became a vector by reading its token id’s row of a table. “robot follows person” and “person ' +
    'follows robot” mean different things, yet the lookup hands <em>robot</em> its row either way.');

  const table = vocabularyTable();
  const result = lookupHasNoWhere(so, table, VOCAB);
  const f = fig(root);
  const row = el('div', { className: 'plot-row' });
  f.append(row);
  const range = Math.max(...table.data.map(Math.abs));
  for (const [name, words, x] of [['first', result.first, result.x1], ['second', result.second, result.x2]]) {
    const ids = words.map((w) => VOCAB.indexOf(w));
    drawnPlot(name, heatmap(titledBlock(row, `ids (${ids.join(', ')}) → lookup: “${words.join(' ')}”`), {
      data: x.data, rows: words.length, cols: x.shape[1], range, rowLabel: '', colLabel: 'feature',
      rowName: (r) => `${words[r]} (id ${ids[r]})`, minHeight: 90, maxHeight: 140,
      tooltip: (r, c, v) => `${words[r]} (row ${r}), feature ${c}: ${fmt(v, 4)}`,
      ariaLabel: `the looked-up rows of “${words.join(' ')}”, one row per word`,
    }));
  }
  say(notice(f, ''), noWhereSentences(result));
  more(f, 'Why attention cannot fix this by itself',
    'Attention compares every row with every other, mixes their values and repeats the same arithmetic at each place. ' +
    'Reorder its input rows and, with nothing else to go on, it reorders its outputs the same way: it is ' +
    '<em>permutation equivariant</em> (the outputs follow the reordering; they are not unchanged, which would be ' +
    '<em>invariance</em>). A shared matrix product has no “position 3” inside it. ' +
    'The section <a href="#order-experiments">Order, tested</a> checks this with real numbers; a causal mask, which forbids looking ' +
    'ahead, brings an order of its own and is tested there too.');
  renderChecks(checkList(f), result.checks);
}
