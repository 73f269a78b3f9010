// Section "train"'s sentences about results, shown one an item: each written by experiments/train-findings.mjs from
// the run's numbers and judged by its predicate against what the section draws (the run's record, drawn.mjs's
// "run" and "runs"), through the page's say() (sentences.mjs), so the tests find and verify every one.
import { el } from '../ui.mjs';
import { say } from '../sentences.mjs';
import { holds } from '../experiments/train-findings.mjs';

/** A sentence of train-findings.mjs ({ name, type, params, text }) with its predicate over what is drawn. */
export const judged = (s) => ({ ...s, holds: (drawn) => holds(s, drawn.run, drawn.runs) });

/** One list item per sentence, each said with its predicate. */
export function sentenceItems(sentences) {
  return sentences.map((s) => {
    const item = el('li', { className: 'train-finding' });
    say(item, judged(s));
    return item;
  });
}
