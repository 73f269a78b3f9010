// The tables of bench/model-study.mjs's results (bench/results/model-study-<task>.json), written into the docs
// between markers: docs/model.md's full tables (<!-- model-study:<task> -->) and the README's compact one
// (<!-- model-study:readme -->). Pure: no files, no runs; bench/model-study.mjs writes them, and
// tests/node/model-study-doc.test.mjs checks that the docs hold exactly what the results give.
import { median } from '../web/js/median.mjs';

export const SETUPS = {
  order: ['none', 'sinusoidal', 'learned', 'rotary', 'causal', 'sinusoidal-causal'],
  lookback: ['none', 'causal', 'sinusoidal', 'learned', 'rotary', 'sinusoidal-causal'],
};
const LABELS = {
  none: 'none, bidirectional', causal: 'none, causal', sinusoidal: 'sinusoidal', learned: 'learned (16 rows)', rotary: 'rotary',
  'sinusoidal-causal': 'sinusoidal, causal (the course’s decoder)',
};
const LENGTHS = [16, 32, 64];

/** Randomized positions' range in the schemes study: twice the longest test length, so that every test position has
 * been drawn in training (Ruoss et al. 2023 draw from 0 … L − 1 with L well past the longest test length). */
const RANGE = 256;

/**
 * The schemes study: every kind of positions on each task the model has, trained on lengths 8 … 16 and measured at 1×,
 * 2×, 4× and 8× the longest (token vectors × √D, the lab's default). Order and the word 2 back with one layer (the
 * lab's setup), bidirectional and causal; induction with two layers (one cannot learn it), causal, with a
 * bidirectional model without positions beside; randomized positions (positionRange) for the schemes that read
 * positions from a formula or a bias. Each setup: its row's label and the options the runners take
 * (bench/model_study.cpp's key=value setups).
 */
export const SCHEMES = {
  tasks: { order: { back: 0, layers: 1 }, lookback: { back: 2, layers: 1 }, induction: { back: 0, layers: 2 } },
  lengths: [16, 32, 64, 128],
  kinds: [
    ['none', 'none', {}], ['sinusoidal', 'sinusoidal', {}], ['learned', 'learned (16 rows)', {}], ['rotary', 'rotary', {}],
    ['rotary-half', 'rotary, 4 of 8 pairs', { positions: 'rotary', rotaryPairs: 4 }], ['alibi', 'ALiBi', {}],
    ['relative', 'T5 relative bias', {}],
    ...['sinusoidal', 'rotary', 'alibi', 'relative'].map((kind) => [`${kind}-randomized`,
      `${{ alibi: 'ALiBi', relative: 'T5 relative bias' }[kind] ?? kind}, randomized positions (0 … ${RANGE - 1})`,
      { positions: kind, positionRange: RANGE }]),
  ],
};

/** The setups of the schemes study on `task`: [{ name, label, options }]. */
export function schemeSetups(task) {
  const { layers } = SCHEMES.tasks[task];
  const masks = task === 'induction' ? [true] : [false, true];
  const setups = SCHEMES.kinds.flatMap(([kind, label, options]) => masks.map((causal) => ({
    name: `${kind}${causal ? '-causal' : ''}`, label: `${label}, ${causal ? 'causal' : 'bidirectional'}`,
    options: { positions: kind, ...options, causal, layers },
  })));
  if (task === 'induction') setups.unshift({ name: 'none', label: 'none, bidirectional', options: { positions: 'none', causal: false, layers } });
  return setups;
}

/** A setup's options as the runners read them: positions=rotary,causal=1,layers=2,rotaryPairs=4 (and the call option positionRange=64). */
export const setupArgument = (options) => Object.entries(options)
  .map(([key, value]) => `${key}=${value === true ? 1 : value === false ? 0 : value}`).join(',');

/** The schemes study's table (bench/results/model-study-schemes.json): a row per task and setup. */
export function schemesText({ results, seeds, steps, machine, added = [] }) {
  const head = ['task', 'positions', `steps to 95%, seeds ${seeds.join(' / ')}`, ...SCHEMES.lengths.map((t, i) => `T = ${t} (${2 ** i}×)`)];
  const lines = [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`];
  const names = { order: 'order', lookback: `the word ${SCHEMES.tasks.lookback.back} back`, induction: 'induction, 2 layers' };
  for (const task of Object.keys(SCHEMES.tasks)) {
    for (const { name, label } of schemeSetups(task)) {
      const [ours, torch] = ['seqorder', 'pytorch'].map((impl) => results.filter((r) => r.implementation === impl && r.task === task && r.setup === name));
      if (ours.length + torch.length === 0) continue;
      const reached = (rows) => seeds.map((s) => rows.find((r) => r.seed === s)?.stepsTo95 ?? '—').join(' / ');
      const cells = [names[task], label, `${reached(ours)}; ${reached(torch)}`];
      for (const T of SCHEMES.lengths) {
        const values = (rows) => rows.map((r) => r.accuracy[T]).filter((a) => a !== undefined);
        cells.push(values(ours).length || values(torch).length ? `${spread(values(ours))}; ${spread(values(torch))}` : '—');
      }
      lines.push(`| ${cells.join(' | ')} |`);
    }
  }
  return `${lines.join('\n')}\n\nEach cell: seqorder; PyTorch. Steps: the first multiple of 20 at which the validation ` +
    `accuracy reached 95% (— never, within ${steps}), per seed; accuracies (%, over the counted positions): median ` +
    `(min–max) over seeds ${seeds.join(', ')}; trained on 8 … 16 words, token vectors × √D. ` +
    `\`node bench/model-study.mjs schemes\`, ${machine.cpu}, ${machine.date.slice(0, 10)}` +
    added.map((a) => `; ${a.implementations.join(' and ')} on ${a.setups.join(', ')}: \`… schemes --setups\`, ${a.cpu}, ${a.date.slice(0, 10)}`).join('') + '.';
}

const percent = (x) => (100 * x).toFixed(1).replace(/\.0$/, '').replace(/^100\.0$/, '100');
/** "97.7 (95.1–99.0)": the median and the range over seeds. */
function spread(values) {
  if (values.length === 0) return '—';
  const low = Math.min(...values), high = Math.max(...values);
  return low === high ? `${percent(low)}` : `${percent(median(values))} (${percent(low)}–${percent(high)})`;
}

/** The (back, embedScale) pairs a task runs at: the order task has no back (0). */
export const variantsOf = (task, backs, scales) =>
  (task === 'order' ? [0] : backs).flatMap((back) => scales.map((scale) => [back, scale]));

/** The runs of one setup of a report: [seqorder's, PyTorch's]. */
const runsOf = (results, setup, back, scale) => ['seqorder', 'pytorch'].map((impl) =>
  results.filter((r) => r.implementation === impl && r.setup === setup && r.back === back && r.embedScale === scale));

/** The table of one task's report: a row per (setup, back, embedScale), seqorder and PyTorch side by side. */
export function studyTable({ task, results, seeds, backs, scales = ['1', 'sqrtWidth'] }) {
  /** "600 / 440 / 320" in the order of the seeds; "—" for a run that never reached 95%. */
  const reached = (rows) => seeds.map((s) => rows.find((r) => r.seed === s)?.stepsTo95 ?? '—').join(' / ');
  const head = ['positions', ...(task === 'order' ? [] : ['k']), 'token vectors',
    'steps to 95%, seeds ' + seeds.join(' / '), ...LENGTHS.map((t, i) => `T = ${t} (${2 ** i}×)`)];
  const lines = [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`];
  for (const setup of SETUPS[task]) {
    for (const [back, scale] of variantsOf(task, backs, scales)) {
      const cells = [LABELS[setup], ...(task === 'order' ? [] : [String(back)]), scale === '1' ? 'as they are' : scale === 'sqrtWidth' ? '× √D' : `× ${scale}`];
      const [ours, torch] = runsOf(results, setup, back, scale);
      cells.push(`${reached(ours)}; ${reached(torch)}`);
      for (const T of LENGTHS) {
        const values = (rows) => rows.map((r) => r.accuracy[T]).filter((a) => a !== undefined);
        cells.push(values(ours).length ? `${spread(values(ours))}; ${spread(values(torch))}` : '—');
      }
      lines.push(`| ${cells.join(' | ')} |`);
    }
  }
  return lines.join('\n');
}

/** docs/model.md's block for one task's report: its table and how to read it. */
export function studyText(report) {
  return `${studyTable(report)}\n\nEach cell: seqorder; PyTorch. Steps: the first multiple of 20 at which the ` +
    `validation accuracy reached 95% (— never, within ${report.steps}), per seed; accuracies: median (min–max) over ` +
    `seeds ${report.seeds.join(', ')}. \`node bench/model-study.mjs ${report.task}\`, ${report.machine.cpu}, ` +
    `${report.machine.date.slice(0, 10)}.`;
}

/** The back the README's compact table shows of the second task (lookbackTask's default). */
export const README_BACK = 2;

/**
 * The README's compact table, from both reports: per kind of positions, the medians over seeds (seqorder; PyTorch)
 * of the order task's steps to 95% as they are → × √D and its accuracy at twice the longest trained length × √D, and
 * the second task's accuracy (k = README_BACK, × √D) at the longest trained length and at twice it.
 */
export function readmeText(order, lookback) {
  const middle = (values) => {
    const m = median(values.map((v) => v ?? Infinity));
    return Number.isFinite(m) ? m : '—';
  };
  const steps = (report, setup, scale) => runsOf(report.results, setup, 0, scale).map((rows) => middle(rows.map((r) => r.stepsTo95)));
  const at = (report, setup, back, T) => runsOf(report.results, setup, back, 'sqrtWidth').map((rows) => {
    const values = rows.map((r) => r.accuracy[T]).filter((a) => a !== undefined);
    return values.length ? percent(median(values)) : '—';
  });
  const pair = ([ours, torch]) => (ours === '—' && torch === '—' ? '—' : `${ours}; ${torch}`);
  const head = ['positions', 'order task: steps to 95%, as they are → × √D', 'order task, T = 32 (2×)',
    `word ${README_BACK} back, T = 16 (1×)`, `word ${README_BACK} back, T = 32 (2×)`];
  const lines = [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`];
  for (const setup of SETUPS.lookback) {
    const [plain, scaled] = [steps(order, setup, '1'), steps(order, setup, 'sqrtWidth')];
    const reached = plain.every((s) => s === '—') && scaled.every((s) => s === '—') ? '—' : `${plain[0]} → ${scaled[0]}; ${plain[1]} → ${scaled[1]}`;
    lines.push(`| ${[LABELS[setup], reached, pair(at(order, setup, 0, 32)), pair(at(lookback, setup, README_BACK, 16)), pair(at(lookback, setup, README_BACK, 32))].join(' | ')} |`);
  }
  const seeds = order.seeds.join(', ');
  return `${lines.join('\n')}\n\nEach cell: seqorder; PyTorch, the median over seeds ${seeds}; accuracies in %, token vectors ` +
    `× √D; steps: the first multiple of 20 at which the validation accuracy reached 95% (— never, within ${order.steps}). ` +
    'Trained on lengths 8 … 16; a learned table of 16 rows refuses T = 32 (—). Every setup, k and seed, with the ranges: ' +
    '[docs/model.md](https://github.com/seqorder/seqorder/blob/main/docs/model.md#token-vectors-times-the-square-root-of-the-width). `node bench/model-study.mjs --from-results --write`.';
}

/** `doc` with the text between `<!-- model-study:<name> -->` and its closing marker replaced by `text`. */
export function withBlock(doc, name, text) {
  const begin = `<!-- model-study:${name} -->`, end = `<!-- /model-study:${name} -->`;
  const at = doc.indexOf(begin), stop = doc.indexOf(end);
  if (at < 0 || stop < at) throw new Error(`no ${begin} … ${end}`);
  return `${doc.slice(0, at + begin.length)}\n${text}\n${doc.slice(stop)}`;
}
