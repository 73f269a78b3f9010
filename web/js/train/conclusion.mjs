// Section "train", its conclusion: sentences built from the last finished run of each task (what the numbers show,
// including what contradicts the expectation, and what the two tasks mean for the causal decoder the course builds),
// and the checks of those that state an outcome, one each (train-findings.mjs's conclusionChecks), below them;
// what the literature reports on models without positions, and the link back to the sinusoids' section. What it cannot
// say yet, it says, with the one click that trains what is missing: the second task, or the same run with the token
// vectors scaled the other way.
import { checkList, renderChecks } from '../../lib/figures/checks.mjs';
import { button, controlGroup } from '../controls.mjs';
import { el, fig, more } from '../ui.mjs';
import { sentenceItems } from './sentences.mjs';

/**
 * The figure. `actions`: { secondTask(), compareScale() }, each starting the run its button names. Returns { show,
 * offer }.
 */
export function conclusionFigure(root, actions) {
  const f = fig(root, { title: 'What the runs say', id: 'train-conclusion' });
  const list = el('ul', { className: 'train-findings train-conclusion' });
  f.append(list);
  const checks = checkList(f);  // shown while there are checks
  checks.hidden = true;
  const missing = el('p', { className: 'train-wait' });
  f.append(missing);
  const group = controlGroup(f, 'runs the conclusion needs');
  const second = button(group, { id: 'train-second-task', label: 'Train the second task', onClick: actions.secondTask });
  const compare = button(group, { id: 'train-compare-scale', label: 'Train the same run, token vectors scaled the other way', onClick: actions.compareScale });
  more(f, 'What the literature reports on models without positional encodings',
    'Haviv et al. (2022, “Transformer Language Models without Positional Encodings Still Learn Positional ' +
    'Information”) find causal language models without them competitive with those that have them, and probes find ' +
    'the position in their activations: the mask lets a token count what it sees. Kazemnejad et al. (2023, “The ' +
    'Impact of Positional Encoding on Length Generalization in Transformers”) find decoder-only models without them ' +
    'generalizing to longer inputs better than with sinusoidal, learned or rotary ones on their reasoning and ' +
    'arithmetic tasks.');
  f.append(el('p', {}, 'Why a formula gives a vector at any position: ', el('a', { href: '#sinusoids' }, 'Sines and cosines at many speeds'), '.'));

  const offer = (b, o) => {
    b.closest('.control').hidden = !o;
    if (!o) return;
    b.textContent = o.label;
    b.disabled = !o.enabled;
  };
  return {
    /**
     * The conclusion's sentences and their checks (train-findings.mjs's), and what has not been run yet (`runs`: the
     * section's).
     */
    show(sentences, sentenceChecks, { order, lookback, scaling }) {
      list.replaceChildren(...sentenceItems(sentences));
      checks.querySelectorAll('[data-check]').forEach((c) => c.remove());
      renderChecks(checks, sentenceChecks);
      checks.hidden = sentenceChecks.length === 0;
      missing.textContent = [
        order ? '' : 'Not run yet: the order task.',
        lookback ? '' : 'Not run yet: the second task. Its button trains it with the run’s settings, including the causal ' +
          'model without positions and the course’s decoder (sinusoids, causal).',
        scaling ? '' : 'Not measured yet: what × √D changes. Its button measures it.',
      ].filter(Boolean).join(' ');
      missing.hidden = missing.textContent === '';
    },
    /**
     * The buttons: `second` and `compare` each { label, enabled } to offer it, or null to hide it.
     */
    offer({ second: s, compare: c }) {
      offer(second, s);
      offer(compare, c);
      group.hidden = !s && !c;
    },
  };
}
