// The lab's "Stretch it" figure (the bench page's): after a run with a rotary model, the reader picks a model, a
// method (PI, NTK, YaRN), a factor and a number of fine-tuning steps; the figure draws the frequency each rotated pair
// turns by per word, as trained and stretched, and a table of the model's accuracy at every measured length: as
// trained, stretched zero-shot, stretched after the steps, and after the same steps without a stretch (stretch.mjs
// computes them). Its sentences come from the table's numbers and are checked again against what is drawn
// ("stretch": the table's view; "stretch-frequencies": the plot). Each stretch joins the run's record (its
// downloads): the result, the step it was made at, the frequencies drawn.
import { checkList } from '../../lib/figures/checks.mjs';
import { linePlot } from '../../lib/figures/plot/index.mjs';
import { say, showChecks } from '../claims.mjs';
import { drawnIn, drawnPlot, recordDrawn } from '../drawn.mjs';
import { fmt } from '../format.mjs';
import { button, controlGroup, select } from '../controls.mjs';
import { el, fig, more } from '../ui.mjs';
import { MEMORY_BUDGET, kindLabel, runCost } from './config.mjs';
import { capital, percent } from './findings.mjs';
import { labTable } from './table.mjs';
import { chance, trainedLength } from './tasks.mjs';
import { DEFAULT_TUNE, FACTORS, METHODS, TUNE_STEPS, ropeFrequencies, rotaryModels, stretchModel, yarnParts } from './stretch.mjs';
import { stretchClaims } from './stretch-claims.mjs';

/** A score's accuracy, or NaN where the model refused the length. */
const accuracyOf = (score) => (score && !score.error ? score.accuracy : NaN);

/** The rows of the table: [key, label] (the stretched rows name the method, factor and steps). */
const rowsOf = (s) => [
  ['trained', 'as trained'],
  ['zeroShot', `stretched (${METHODS[s.method]} ×${s.factor}), zero-shot`],
  ['tuned', `stretched, after ${s.tune} steps on ${s.length} words`],
  ['plain', `not stretched, after the same ${s.tune} steps`],
];

/** The figure, hidden until a run with a rotary model is shown. Returns { checks, show(run, record), hide() }. */
export function stretchFigure(root, { so, pool }) {
  const f = fig(root, { title: 'Stretch it: a rotary model taken past its training length', id: 'lab-stretch' });
  const group = controlGroup(f, 'the stretch');
  const pick = (id, label, options, value) => select(group, { id, label, value, onChange: drawFrequencies,
    options: options.map(([v, text]) => ({ value: v, label: text })) });
  const modelPick = pick('lab-stretch-model', 'model', [], '');
  const methodPick = pick('lab-stretch-method', 'stretch', Object.entries(METHODS), 'ntk');
  const factorPick = pick('lab-stretch-factor', 'factor', FACTORS.map((s) => [s, `×${s}`]), 4);
  const tunePick = pick('lab-stretch-steps', 'fine-tuning steps', TUNE_STEPS.map((n) => [n, String(n)]), DEFAULT_TUNE);
  const go = button(group, { id: 'lab-stretch-go', label: 'Stretch', onClick: () => { stretch(); } });
  const status = el('p', { className: 'lab-wait', role: 'status' });
  f.append(status);
  const plotBlock = el('div', { className: 'figure-block' });
  f.append(plotBlock);
  const plot = drawnPlot('stretch-frequencies', linePlot(plotBlock, {
    series: [], xLabel: 'pair i', yLabel: 'radians per word', yLog: true, integerX: true, height: 200,
    ariaLabel: 'The angle each rotated pair turns by per word, as trained and stretched',
  }));
  const yarnNote = el('p', { className: 'notice lab-stretch-yarn' });
  f.append(yarnNote);
  const table = labTable(f, { caption: '', className: 'lab-stretch-table' });
  const lines = el('div', { className: 'lab-stretch-lines' });
  f.append(lines);
  const checks = checkList(f, 'Checked against its stretch', { foldDetails: true });
  let drawn = null;
  recordDrawn(table.element, 'stretch', () => drawn);
  more(f, 'What each stretch does',
    'A rotary model turns pair i of each query and key by p·fᵢ at position p. Past its trained lengths it meets angles ' +
    'it never saw. PI (Chen et al. 2023) divides every frequency by the factor, so the longer sentence’s angles fall ' +
    'within the trained ones, and so do the short offsets’: a word 1 back now turns by 1/s of what it did. NTK-aware ' +
    'scaling raises the base instead: the fastest pair keeps f₀ = 1, the slow ones slow down most. YaRN (Peng et al. ' +
    '2023) keeps the pairs that turn many times over the trained length, interpolates those that turn less than once, ' +
    'blends the ones between, and multiplies the scores by (0.1 ln s + 1)². docs/model.md gives the formulas; the ' +
    'model computes them in its core, the plot from the same formulas.',
    'Measured in the PyTorch reference on this page’s default run (docs/model.md, “What a stretch does to a trained ' +
    'model”), interpolation broke the word 2 back at every factor, NTK kept it best zero-shot, and 50 steps brought ' +
    'every other method to 96–100%, as the same steps without a stretch did.');
  f.hidden = true;
  let shown = null;  // { run, record }
  let latest = 0;

  const modelOf = () => shown && rotaryModels(shown.run)[Number(modelPick.value)];

  /** Model m's rotated pairs (per head), their frequencies as trained, and as stretched by `method` × `factor`. */
  function frequenciesOf(m, method, factor) {
    const { rotaryPairs, rotaryBase = 10000, width, heads } = m.handle.config;
    const pairs = rotaryPairs ?? width / heads / 2;
    const scaling = { method, factor, ...(method === 'yarn' ? { originalLength: shown.run.config.longest } : {}) };
    return { pairs, rotaryBase, before: ropeFrequencies(pairs, rotaryBase, null).frequencies, after: ropeFrequencies(pairs, rotaryBase, scaling) };
  }

  function drawFrequencies() {
    const m = modelOf();
    if (!m) return;
    const method = methodPick.value;
    const factor = Number(factorPick.value);
    const { pairs, rotaryBase, before, after } = frequenciesOf(m, method, factor);
    const x = Float64Array.from({ length: pairs }, (_, i) => i);
    plot.update({
      series: [{ name: 'as trained', x, y: before, markers: true }, { name: `${METHODS[method]} ×${factor}`, x, y: after.frequencies, markers: true, dashed: true }],
      caption: `The ${pairs} rotated pairs of each head: the angle each turns by per word (log scale), as trained and stretched` +
        `${after.temperature !== 1 ? `; the scores are multiplied by ${fmt(after.temperature, 3)}` : ''}.`,
    });
    if (method === 'yarn') {
      const parts = yarnParts(pairs, rotaryBase, shown.run.config.longest);
      yarnNote.textContent = parts.kept === 0 && parts.blended === 0
        ? `At this head width (${pairs} pairs, trained on up to ${shown.run.config.longest} words) YaRN interpolates every pair: here it is PI plus its temperature.`
        : `At this head width YaRN keeps ${parts.kept} pair${parts.kept === 1 ? '' : 's'}, blends ${parts.blended} and interpolates ${parts.interpolated} (of ${pairs}).`;
      yarnNote.hidden = false;
    } else yarnNote.hidden = true;
  }

  function wait(text) {
    status.textContent = text;
    table.element.hidden = true;
    lines.replaceChildren();
    checks.querySelectorAll('[data-check]').forEach((c) => c.remove());
    drawn = null;
  }

  async function stretch() {
    const m = modelOf();
    if (!m || go.disabled) return;
    const request = ++latest;
    const { run, record } = shown;
    const config = run.config;
    const method = methodPick.value;
    const factor = Number(factorPick.value);
    const tune = Number(tunePick.value);
    // what the two copies' steps on the longer sentences and their measurements cost, as a run of them would
    const length = factor * config.longest;
    const cost = runCost({ ...config, kinds: [m.key, m.key], seeds: [m.seed], shortest: length, longest: length, steps: tune },
      { cores: globalThis.navigator?.hardwareConcurrency ?? 2 });
    if (cost.bytes > MEMORY_BUDGET) {
      wait(`Not run: two copies training on ${length}-word sentences would take about ${Math.ceil(cost.bytes / 2 ** 20)} MiB, past this page's ${MEMORY_BUDGET / 2 ** 20} MiB: pick a smaller factor.`);
      return;
    }
    go.disabled = true;
    wait(`Stretching ${kindLabel(m.key, config)} (seed ${m.seed}) by ${METHODS[method]} ×${factor}, then ${tune} steps on ${length}-word sentences (about ${Math.max(1, Math.round(cost.seconds))} s)…`);
    try {
      const result = await stretchModel({ pool: await pool(), so, config, model: m, method, factor, tune });
      if (request !== latest) return;
      const trained = record.measured.find((r) => r.key === m.key && r.seed === m.seed).lengths;
      const { before, after } = frequenciesOf(m, method, factor);
      record.stretches.push({ ...result, step: record.step, frequencies: { trained: Array.from(before), stretched: Array.from(after.frequencies), temperature: after.temperature } });
      const scores = { trained, zeroShot: result.zeroShot, tuned: result.tuned, plain: result.plain };
      const view = {
        lengths: result.lengths, length: result.length, longest: config.longest, chance: chance(config, so.taskWords.length),
        tune, method, factor,
        rows: Object.fromEntries(Object.entries(scores).map(([key, s]) => [key, result.lengths.map((T) => accuracyOf(s[T]))])),
      };
      const label = `${kindLabel(m.key, config)} (seed ${m.seed})`;
      table.show(['', ...result.lengths.map((T) => `T = ${T}${trainedLength(config, T) ? ' (trained)' : ''}`)],
        rowsOf(result).filter(([key]) => tune > 0 || key === 'trained' || key === 'zeroShot')
          .map(([key, name]) => [name, ...view.rows[key].map((a) => (Number.isNaN(a) ? 'refused' : percent(a)))]),
        { caption: `${capital(label)}, trained ${record.step} steps on ${config.shortest} … ${config.longest} words: its accuracy at each length.` });
      table.element.hidden = false;
      drawn = view;
      status.textContent = '';
      const claims = stretchClaims(view, label);
      lines.replaceChildren(...claims.map((c) => {
        const p = el('p', { className: 'notice' });
        say(p, c);
        return p;
      }));
      const now = drawnIn(f.closest('section') ?? f);
      showChecks(checks, claims.map((c) => ({
        name: `lab-${c.name}`, claim: c.text, pass: c.holds(now), holds: c.holds,
        details: 'read again from the table drawn above',
      })));
    } catch (error) {
      if (request === latest) wait(`The stretch failed: ${error?.message ?? error}`);
    } finally {
      if (request === latest) go.disabled = false;
    }
  }

  return {
    checks,
    /** Offers the rotary models of `run` (done or paused, measured: `record`); hides the figure when it has none. */
    show(run, record) {
      latest += 1;
      const models = rotaryModels(run);
      f.hidden = models.length === 0 || !record?.measured;
      if (f.hidden) return;
      shown = { run, record };
      modelPick.replaceChildren(...models.map((m, i) => el('option', { value: String(i) }, `${kindLabel(m.key, run.config)}, seed ${m.seed}`)));
      go.disabled = false;
      wait(`Pick a stretch and press Stretch: the model is copied, the run stays as it is.`);
      drawFrequencies();
    },
    /** Hides the figure (a run is training, or none is shown). */
    hide() {
      latest += 1;
      shown = null;
      f.hidden = true;
    },
  };
}
