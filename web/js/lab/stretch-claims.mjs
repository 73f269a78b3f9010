// What the bench page's "Stretch it" says (stretch-figure.mjs draws it): its sentences, written from the numbers of its
// table, each a claim whose predicate reads the same numbers again from what is drawn. Pure: no DOM.
import { fmt } from '../format.mjs';
import { LEARNED, MARGIN } from './facts.mjs';
import { capital, percent } from './findings.mjs';
import { METHODS } from './stretch.mjs';

/**
 * What a stretch's sentences say, from a view of the table ({ lengths, rows: { trained, zeroShot, tuned, plain }:
 * accuracies by length, length (the stretched one), longest, chance, tune, method, factor }): each claim { name, text,
 * holds(drawn) }, holds reading the same numbers from what is drawn.
 */
export function stretchClaims(view, label) {
  const at = (row, T) => view.rows[row][view.lengths.indexOf(T)];
  const L = view.length;
  const name = `${METHODS[view.method]} ×${view.factor}`;
  const zero = () => `${capital(label)} stretched by ${name}, zero-shot: ${percent(at('zeroShot', L))} at ${L} words (as trained: ` +
    `${percent(at('trained', L))}), ${percent(at('zeroShot', view.longest))} at its longest trained length ${view.longest} (as trained: ` +
    `${percent(at('trained', view.longest))}); chance ${percent(view.chance)}.`;
  const claims = [{ key: 'zero', say: zero }];
  if (view.tune > 0) {
    const compare = () => {
      const gap = at('tuned', L) - at('plain', L);
      // a comparison only between models that learned (LEARNED at L, as the lab's facts say it)
      const verdict = Math.min(at('tuned', L), at('plain', L)) < LEARNED ? `not compared: below ${percent(LEARNED)} at ${L} words, not both learned`
        : Math.abs(gap) <= MARGIN ? `no difference this run can tell (within ${fmt(100 * MARGIN, 2)} points)`
        : `the stretch ${gap > 0 ? 'helps' : 'hurts'} by ${fmt(100 * Math.abs(gap), 3)} points`;
      return `After ${view.tune} steps on ${L}-word sentences: ${percent(at('tuned', L))} at ${L} words stretched, ` +
        `${percent(at('plain', L))} with the same steps and no stretch: ${verdict}.`;
    };
    claims.push({ key: 'tuned', say: compare });
    // what the paper of the method the reader picked reports, beside this run (PI's: the one that states its steps)
    if (view.method === 'linear') {
      const literature = () => {
        const tuned = at('tuned', L);
        const verdict = tuned >= LEARNED ? `at or above ${percent(LEARNED)}: it learned the longer sentences back, as they report`
          : `below ${percent(LEARNED)}: not learned back, unlike what they report (their models, task and steps are not this run's)`;
        return `Chen et al. (2023, “Extending Context Window of Large Language Models via Positional Interpolation”) extend ` +
          '“RoPE-based pretrained LLMs such as LLaMA models to up to 32768 with minimal fine-tuning (within 1000 steps)”, ' +
          'models of 7B to 65B parameters, on passkey retrieval, language modelling and long document summarization. ' +
          `Here, interpolated ×${view.factor} and tuned ${view.tune} steps, ${label} reads ${percent(tuned)} at ${L} words: ${verdict}.`;
      };
      claims.push({ key: 'literature', say: literature });
    }
  }
  return claims.map(({ key, say: text }) => {
    const said = text();
    return {
      name: `stretch-${key}`, text: said,
      holds: (drawn) => drawn.stretch !== null && stretchClaims(drawn.stretch, label).find((c) => c.name === `stretch-${key}`)?.text === said,
    };
  });
}

