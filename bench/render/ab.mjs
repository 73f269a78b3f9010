// bench/ab.mjs's report (bench/results/<machine kind>/ab-*.json) as markdown: where it ran, a table per width (a row per
// case, a column per contender) and the summary of each contender's ratios to the first. (No node: imports: the page
// of bench/ab.mjs --chromium imports this module.)
import { table } from './tables.mjs';

/** A case's name. */
export const caseName = ({ T, D, causal, lead }) => `${lead.length ? `${lead.join('×')}×` : ''}T = ${T}, D = ${D}${causal ? ', causal' : ''}`;

const f2 = (x) => `${x.toFixed(2)}×`;
// A ratio that says something: a CPU time read in clock ticks may be 0 on either side (0× or Infinity×), and is left out.
const readable = (x) => Number.isFinite(x) && x > 0;

/**
 * The contenders' names as the tables give them: where every contender is the same folder, what follows its '#' (its
 * options; "as built" for none), the folder then named once (`folder`).
 */
function labels(contenders) {
  const folders = contenders.map((name) => name.replace(/ \(again\)$/, '').split('#')[0]);
  if (!folders.every((f) => f === folders[0])) return { names: contenders, folder: undefined };
  const names = contenders.map((name) => {
    const options = name.slice(folders[0].length).replace(/^#/, '');
    return `\`${options.replace(/ \(again\)$/, '') || 'as built'}\`${name.endsWith(' (again)') ? ' (again)' : ''}`;
  });
  return { names, folder: folders[0] };
}

/**
 * The parts of bench/ab.mjs's report: { machine (where and how, the builds), tables (by width: each contender's GFLOP/s,
 * its ratio to the first, its rounds' middle half and the ratio of the fastest rounds, with --pool the ratio of their
 * CPU time per call), summary }.
 */
export function abParts(report) {
  const { cases } = report;
  const { names, folder } = labels(report.contenders);
  const m = report.machine;
  const machine = `${m.cpu}, ${m.cores} cores; ${report.where}, ${report.workers ? `pools of ${report.workers} workers` : 'one thread'}; ` +
    `${m.date.slice(0, 10)}; commit ${m.commit}; ${report.clock ?? m.clock}; load average ${m.loadAverage.join(' ')} at the start, ` +
    `${m.loadAverageAtEnd.join(' ')} at the end.${folder ? ` Every contender is the package built in ${folder}.` : ''}`;
  const tables = [...new Set(cases.map((c) => c.D))].map((D) => table(`D = ${D}: GFLOP/s (÷ the first, its rounds' middle half)`, names,
    cases.filter((c) => c.D === D).map((c) => [caseName(c).replace(`, D = ${D}`, ''), ...c.results.map((r, i) => (i === 0
      ? r.gflops.toFixed(1)
      : `${r.gflops.toFixed(1)} (${f2(r.overFirst)}, ${f2(r.middleHalf[0])}–${f2(r.middleHalf[1])}` +
        `${r.fastestOverFirst ? `; fastest ${f2(r.fastestOverFirst)}` : ''}${readable(r.cpuOverFirst) ? `; CPU ${f2(r.cpuOverFirst)}` : ''})` +
        `${r.sameBits ? '' : ', other bits'}`))]))).join('\n\n');
  const range = (i, from, key) => {
    const ratios = cases.filter((c) => c.T >= from).map((c) => c.results[i][key]).filter(readable);
    return ratios.length ? [f2(Math.min(...ratios)), f2(Math.max(...ratios))] : ['—', '—'];
  };
  const has = (key) => cases[0].results[0][key] !== undefined;
  const rows = (key, what) => (has(key)
    ? names.slice(1).map((name, j) => [`${name}${what}`, ...range(j + 1, 0, key), ...range(j + 1, 512, key)])
    : []);
  const summary = table(`÷ ${names[0]}, over the cases`, ['lowest', 'highest', 'lowest, T ≥ 512', 'highest, T ≥ 512'],
    [...rows('overFirst', ''), ...rows('fastestOverFirst', ', fastest rounds'), ...rows('cpuOverFirst', ', CPU time per call')]);
  return { machine, tables, summary };
}

/** What bench/ab.mjs prints. */
export function abText(report) {
  const { machine, tables, summary } = abParts(report);
  return [machine, '', tables, '', summary].join('\n');
}
