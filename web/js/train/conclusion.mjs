// Section "train", its conclusion: sentences built from the last finished run of each task (what the numbers show,
// including what contradicts the expectation), what the literature reports on models without positions, and the
// link back to section sinusoids.
import { el, fig, more } from '../ui.mjs';
import { sentenceItems } from './sentences.mjs';

export function conclusionFigure(root) {
  const f = fig(root, { title: 'What the runs say', id: 'train-conclusion' });
  const list = el('ul', { className: 'train-findings train-conclusion' });
  const missing = el('p', { className: 'train-wait' });
  f.append(list, missing);
  more(f, 'What the literature reports on models without positional encodings',
    'Haviv et al. (2022, “Transformer Language Models without Positional Encodings Still Learn Positional ' +
    'Information”) find causal language models without them competitive with those that have them, and probes find ' +
    'the position in their activations: the mask lets a token count what it sees. Kazemnejad et al. (2023, “The ' +
    'Impact of Positional Encoding on Length Generalization in Transformers”) find decoder-only models without them ' +
    'generalizing to longer inputs better than with sinusoidal, learned or rotary ones on their reasoning and ' +
    'arithmetic tasks.');
  const back = el('p', {}, 'The sinusoids of this lesson: ', el('a', { href: '#sinusoids' }, 'section sinusoids'), '.');
  f.append(back);
  return {
    /** The conclusion's sentences (train-findings.mjs's), and what has not been run yet (`runs`: the section's). */
    show(sentences, { order, lookback, scaling }) {
      list.replaceChildren(...sentenceItems(sentences));
      const none = [!order && 'the order task', !lookback && 'the word k places back'].filter(Boolean);
      missing.textContent = [
        none.length ? `Not run to the end yet: ${none.join(' and ')}.` : '',
        scaling ? '' : 'To compare token vectors × √D, train the same settings with it on and off.',
      ].filter(Boolean).join(' ');
      missing.hidden = missing.textContent === '';
    },
  };
}
