// The lab's conclusion: the answer to the section's question for the course's decoder, then what each task's last
// finished run says (which models learnt, how they did past the trained lengths, rotary against sinusoids where both
// learnt) and what × √D changed, each claim naming its run and shown as a check (findings.mjs's conclusionClaims);
// what it cannot say yet, as the one press that trains it (the second task, at its top; the run shown with the
// token vectors scaled the other way); what the literature reports, quoted; the link back to the sinusoids' section.
// It records the runs it speaks of as drawn ("runs": the views its claims are read again from).
import { checkList } from '../../lib/figures/checks.mjs';
import { button, controlGroup } from '../controls.mjs';
import { recordDrawn } from '../drawn.mjs';
import { el, fig, more } from '../ui.mjs';
import { runsView } from './findings.mjs';

/**
 * The figure. `actions`: { secondTask(), compareScale() }, each starting the run its button names. Returns { checks,
 * show(runs), offer({ second, compare }) }.
 */
export function conclusionFigure(root, actions) {
  const f = fig(root, { title: 'What the runs say', id: 'lab-conclusion' });
  const group = controlGroup(f, 'runs the conclusion needs');
  const second = button(group, { id: 'lab-second-task', label: 'Train the second task', onClick: actions.secondTask });
  const compare = button(group, { id: 'lab-compare-scale', label: 'Train the same run, token vectors scaled the other way', onClick: actions.compareScale });
  const missing = el('p', { className: 'lab-wait' });
  f.append(missing);
  const checks = checkList(f, 'Checked against its run', { foldDetails: true });
  let drawn = null;
  recordDrawn(checks, 'runs', () => drawn);
  more(f, 'What the literature reports on models without positional encodings',
    'Haviv et al. (2022, “Transformer Language Models without Positional Encodings Still Learn Positional Information”): ' +
    'causal language models trained without positional encodings are competitive with those that have them, and probes ' +
    'recover positions from their activations; the authors conjecture that the causal mask lets each token infer how many ' +
    'tokens precede it. The same, they report, does not hold for bidirectional masked language models.',
    'Kazemnejad et al. (2023, “The Impact of Positional Encoding on Length Generalization in Transformers”): on their ' +
    'reasoning and arithmetic tasks, decoder-only models without positional encodings generalized to longer inputs better ' +
    'than with absolute (sinusoidal) positions, T5’s relative bias, ALiBi or rotary positions.');
  f.append(el('p', {}, 'Why a formula gives a vector at any position: ', el('a', { href: '#sinusoids' }, 'Sines and cosines at many speeds'), '.'));

  const offer = (b, o) => {
    b.closest('.control').hidden = !o;
    if (!o) return;
    b.textContent = o.label;
    b.disabled = !o.enabled;
  };
  return {
    checks,
    /** Records the runs the claims are about (`runs`: the lab's), and says what has not been run yet. */
    show({ order, lookback, induction, scaling }) {
      drawn = runsView({ order, lookback, induction, scaling });
      missing.textContent = order || lookback || induction ? '' : 'Nothing to say yet: no run has finished.';
      missing.hidden = missing.textContent === '';
    },
    /** The buttons: `second` and `compare` each { label, enabled } to offer it, or null to hide it. */
    offer({ second: s, compare: c }) {
      offer(second, s);
      offer(compare, c);
      group.hidden = !s && !c;
    },
  };
}
