// bench/page-ready.mjs's report (bench/results/<machine kind>/page-ready*.json) as markdown.
import { table } from './tables.mjs';

/**
 * A report's medians, { cold, warm } (each { fcp, ready }): cold null for a report of before first visits were timed
 * apart (one profile: its first load shown, not counted; its median, of the warm loads).
 */
export function pageMedians(report) {
  return report.median.warm ? report.median : { cold: null, warm: report.median };
}

/** The parts of bench/page-ready.mjs's report: { machine (how and where), loads (each load, and the medians) }. */
export function pageReadyParts(report) {
  const m = report.machine;
  const ms = (x) => (x === null ? '—' : `${Math.round(x)} ms`);
  const { cold, warm } = pageMedians(report);
  const counted = (kind) => report.loads.filter((l) => String(l.load).startsWith(kind)).length;
  const nWarm = cold ? counted('warm') : report.loads.filter((l) => l.load !== 'cold').length;
  const how = cold
    ? `${counted('cold')} first visits, each in a browser started with a new profile (no HTTP cache, no compiled code)` +
      (report.settle === undefined ? '' : report.settle ? `, opened ${report.settle} ms after it started` : ', opened as it started') + '; ' +
      `then one profile: a load filling its caches (not counted) and ${nWarm} warm loads.`
    : `one profile: a first load (cold, not counted), then ${nWarm} warm loads.`;
  const machine = `${report.browser}, ${how} ${m.cpu}, ${m.cores} cores; ${m.date.slice(0, 10)}; commit ${m.commit}; ` +
    `load average ${m.loadAverage.join(' ')} before, ${m.loadAverageAtEnd.join(' ')} after.`;
  const loads = table('load', ['navigation → first contentful paint', 'navigation → `body[data-ready="true"]`'], [
    ...report.loads.map((l) => [String(l.load), ms(l.fcp), ms(l.ready)]),
    ...(cold ? [[`**median of the ${counted('cold')} first visits**`, `**${ms(cold.fcp)}**`, `**${ms(cold.ready)}**`]] : []),
    [`**median of the ${nWarm} warm loads**`, `**${ms(warm.fcp)}**`, `**${ms(warm.ready)}**`],
  ]);
  return { machine, loads };
}
