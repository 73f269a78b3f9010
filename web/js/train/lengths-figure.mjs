// Section "train", the lengths figure: every model measured at the lengths it trained on and at 2× and 4× the
// longest (the median over seeds, with the range), a refusal in the API's words, the sentences the table supports,
// and its checks: the one beside those sentences, and the learned tables'.
import { checkList } from '../../lib/figures/checks.mjs';
import { el, fig, more, notice } from '../ui.mjs';
import { kindLabel, kindOf } from '../experiments/train.mjs';
import { kindAt, percent } from '../experiments/train-findings.mjs';
import { MEASURED_COUNT, measuredLengths, setWords, trainedLength } from '../experiments/train-tasks.mjs';
import { sentenceItems } from './sentences.mjs';
import { labTable } from './table.mjs';

export function lengthsFigure(root) {
  const g = fig(root, { title: 'Longer than any training sentence', id: 'train-lengths' });
  const waiting = el('p', { className: 'train-wait' });
  const table = labTable(g, { caption: '', className: 'train-lengths-table' });
  g.prepend(g.querySelector('h3'), waiting);
  const line = notice(g, '');
  const findings = el('ul', { className: 'train-findings', 'aria-label': 'what the lengths table shows' });
  g.append(findings);
  const details = more(g, 'What each kind of position offers at a new length', '');
  const checks = checkList(g);

  const wait = (text) => {
    waiting.textContent = text;
    waiting.hidden = false;
    table.element.hidden = true;
    line.hidden = true;
    findings.replaceChildren();
  };
  wait('Measured when the run pauses or ends.');

  return {
    checks,
    wait,
    /** The measurements of `record` (at record.measuredAt), and the sentences about them. */
    show(record, sentences) {
      const { config } = record;
      const lengths = measuredLengths(config);
      const longer = lengths.filter((T) => !trainedLength(config, T));
      const heading = (T) => (trainedLength(config, T) ? `T = ${T}` : `T = ${T} (${T / config.longest}×, longer)`);
      const cell = (key, T) => {
        const at = kindAt(record, key, T);
        if (at.error) return `refused: ${at.error.message}`;
        return at.min === at.max ? percent(at.median) : `${percent(at.median)} (${percent(at.min)}–${percent(at.max)})`;
      };
      const sets = setWords(config, MEASURED_COUNT);
      const seeds = config.seeds.length > 1 ? `; the median of seeds ${config.seeds.join(', ')}, their range in brackets` : '';
      const when = record.measuredAt < config.steps ? `, measured at step ${record.measuredAt} of ${config.steps} (paused)` : '';
      table.element.hidden = false;  // before it fills: it measures its width then (its scroll cue is there at once)
      table.show(['model', ...lengths.map(heading)], config.kinds.map((key) => [kindLabel(key, config), ...lengths.map((T) => cell(key, T))]), {
        caption: `Accuracy on ${sets} at each length (seeded 500 + T)${seeds}; the models trained on T = ${config.shortest} … ${config.longest}${when}.`,
        cellClass: (r, c) => [trainedLength(config, lengths[c - 1]) ? '' : 'train-longer', kindAt(record, config.kinds[r], lengths[c - 1]).error ? 'train-refused' : ''].join(' ').trim(),
      });
      // the lengths, not "the columns": on a narrow screen the table is turned on its side (a block per model)
      line.textContent = `T = ${longer.join(' and ')}, marked “longer”: no training sentence was that long.`;
      line.hidden = false;
      waiting.hidden = true;
      findings.replaceChildren(...sentenceItems(sentences));
      showDetails(details, config);
    },
  };
}

/** How each kind of position meets a new length: mechanisms only, with the run's lengths. */
function showDetails(details, config) {
  const longest = 4 * config.longest;
  const kinds = new Set(config.kinds.map((key) => kindOf(key).positions));
  const texts = [
    kinds.has('learned') && `A learned table has one trained row per position, ${config.longest} here: the model cannot even be asked ` +
      `about position ${config.longest} and later, and the API says so instead of guessing. (Learned tables go beyond this lesson: the course’s model uses sinusoids.)`,
    kinds.has('sinusoidal') && 'Sinusoids can be computed at any position (see “Sines and cosines at many speeds”), but the vectors at new positions are ones the trained weights never met.',
    kinds.has('rotary') && `Rotary positions turn q and k, so a score depends on how far apart two tokens are. Training saw offsets up to ` +
      `${config.longest - 1}; a sentence of T = ${longest} holds offsets up to ${longest - 1}, most of them never seen in training. ` +
      '(Rotary positions go beyond this lesson: the course’s model uses sinusoids.)',
    config.kinds.some((key) => kindOf(key).causal) && 'A causal mask lets each token see only those before it, at any length.',
    `Each length is measured on its own set of sentences (seeded 500 + T)${config.task === 'order' ? ', every sentence followed by its mirror, the same sentence with robot and person swapped' : ''}.`,
  ].filter(Boolean);
  details.replaceChildren(details.querySelector('summary'), ...texts.map((t) => el('p', {}, t)));
}
