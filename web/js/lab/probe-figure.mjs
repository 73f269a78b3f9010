// The lab's probe figure ("the mask counts", the bench page's): for every model, how often a linear readout of its
// final vectors names a held-out word's position (probe.mjs), as a table with chance as its last row, the claims
// written from the run (findings.mjs's probeClaims) and the probe's check, and what the literature reports beside it.
// It records the table as drawn ("probe": the view its claims are read again from).
import { checkList } from '../../lib/figures/checks.mjs';
import { count, fmt } from '../format.mjs';
import { recordDrawn } from '../drawn.mjs';
import { el, fig, more } from '../ui.mjs';
import { probeView } from './facts.mjs';
import { capital, percent } from './findings.mjs';
import { PROBE_COUNT } from './probe.mjs';
import { labTable } from './table.mjs';

/** The figure. Returns { checks, wait(text), show(record) }. */
export function probeFigure(root) {
  const f = fig(root, { title: 'The mask counts: where each model knows it is', id: 'lab-probe' });
  const waiting = el('p', { className: 'lab-wait' });
  f.append(waiting);
  const table = labTable(f, { caption: '', className: 'lab-probe-table' });
  const checks = checkList(f, 'Checked against its run', { foldDetails: true });
  let drawn = null;
  recordDrawn(table.element, 'probe', () => drawn);
  more(f, 'How the probe reads a position',
    `After the run, each model reads ${2 * PROBE_COUNT} new sentences of the longest training length. Its final vector at ` +
    'each word (what its readout reads, after the last layer norm) goes into a linear least-squares readout, position ≈ ' +
    `w·vector + b, fitted on ${PROBE_COUNT} sentences and scored on the other ${PROBE_COUNT}: a word counts when the ` +
    'position nearest the readout’s value is its own. A readout that knows nothing names one position: chance is 1/T, and ' +
    'it is off by the mean distance from the middle. Without positions and without the mask, a word’s final vector ' +
    'depends on the word and on the set of words in its sentence, not on their order, so the readout can use only where ' +
    'the task puts its words. The causal mask lets word t see t + 1 words: an average over them changes with t.',
    'Haviv et al. (2022, “Transformer Language Models without Positional Encodings Still Learn Positional Information”, ' +
    'causal language models on WikiText-103 and the Pile, up to 1.3B parameters): “Probing experiments reveal that such ' +
    'models acquire an implicit notion of absolute positions throughout the network, effectively compensating for the ' +
    'missing information. We conjecture that causal attention enables the model to infer the number of predecessors that ' +
    'each token can attend to, thereby approximating its absolute position.” Their probes read positions from every layer ' +
    'of models far larger than these, trained on text; this probe is linear and reads the last layer only.',
    'Kazemnejad et al. (2023, “The Impact of Positional Encoding on Length Generalization in Transformers”), Theorem 1, ' +
    'for a sequence [&lt;bos&gt;, x₁, …, x_T] of length T + 1: “the first layer of f_θ can recover absolute positions [1, …, T + 1] ' +
    'in the hidden state H⁽¹⁾.” Their proof builds the weights: every key the same, so the causal softmax gives each of ' +
    'the t tokens a query sees the weight 1/t, and only &lt;bos&gt; has a value, so the head writes 1/t; the feedforward layer ' +
    'then turns 1/t into t. It is a construction, not a trained model, and it needs a &lt;bos&gt; token, which these sentences ' +
    'do not have; 1/t is not linear in t, so a linear readout of it alone would not name every position.');

  const wait = (text) => {
    waiting.textContent = text;
    waiting.hidden = false;
    table.element.hidden = true;
    drawn = null;
  };
  wait('Probed when the run pauses or ends.');

  return {
    checks,
    wait,
    /** The probe of a probed record, drawn. */
    show(record) {
      const view = probeView(record);
      if (!view) {
        wait('This run was not probed.');
        return;
      }
      const seeds = view.seeds > 1;
      const cell = (k) => `${percent(k.median)}${seeds ? ` (${percent(k.min)}–${percent(k.max)})` : ''}`;
      table.show(['model', `position named right, T = ${view.T}${seeds ? ' (median, min–max)' : ''}`, 'off by, on average'], [
        ...view.kinds.map((k) => [k.label, cell(k), `${fmt(k.distance, 3)} positions`]),
        ['chance', `1/${view.T} = ${percent(view.chance)}`, `${fmt(view.distance, 3)} positions`],
      ], {
        caption: `${capital(view.run)}: the position a linear readout of each model’s final vectors names, for ${count(view.words)} held-out words ` +
          `(${PROBE_COUNT} sentences of ${view.T}), against chance.`,
      });
      table.element.hidden = false;
      const missing = ['causal', 'none'].filter((key) => !record.config.kinds.includes(key));
      waiting.textContent = missing.length ? `To see what the mask alone does, train both models without positions, causal and bidirectional: this run has ${missing.length === 2 ? 'neither' : `no ${missing[0] === 'none' ? 'bidirectional' : 'causal'} one`}.` : '';
      waiting.hidden = !missing.length;
      drawn = view;
    },
  };
}
