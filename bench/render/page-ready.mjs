// bench/page-ready.mjs's report (bench/results/<machine kind>/page-ready*.json) as markdown.
import { table } from './tables.mjs';

/** The parts of bench/page-ready.mjs's report: { machine (how and where), loads (each load, and the medians) }. */
export function pageReadyParts(report) {
  const m = report.machine;
  const ms = (x) => (x === null ? '—' : `${Math.round(x)} ms`);
  const warm = report.loads.filter((l) => l.load !== 'cold');
  const machine = `${report.browser}, one profile: a first load (cold, not counted), then ${warm.length} warm loads. ` +
    `${m.cpu}, ${m.cores} cores; ${m.date.slice(0, 10)}; commit ${m.commit}; load average ${m.loadAverage.join(' ')} ` +
    `before, ${m.loadAverageAtEnd.join(' ')} after.`;
  const loads = table('load', ['navigation → first contentful paint', 'navigation → `body[data-ready="true"]`'], [
    ...report.loads.map((l) => [String(l.load), ms(l.fcp), ms(l.ready)]),
    [`**median of the ${warm.length} warm loads**`, `**${ms(report.median.fcp)}**`, `**${ms(report.median.ready)}**`],
  ]);
  return { machine, loads };
}
