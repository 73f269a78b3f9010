// bench/simd-loads.mjs's report (bench/results/<machine kind>/simd-loads*.json) as markdown.
import { SHAPES as SIMD_LOAD_SHAPES } from '../simd-loads.mjs';
import { fixed, table } from './tables.mjs';

/**
 * The parts of bench/simd-loads.mjs's report (simd-loads.json in node, simd-loads-<engine>.json in a browser): { machine
 * (the processor, the engine, the peak), shapes (each loop's share of it) }.
 */
export function simdLoadsParts(report) {
  const how = report.engine === 'webkit' ? 'in an Xvfb display' : 'headless';
  const where = report.browser ? `${report.browser} (${how}), wall time` : `node ${report.node}; CPU time`;
  const machine = `Processor: ${report.cpu}; ${where}, medians of ${report.rounds} rounds; ` +
    `${report.date.slice(0, 10)}; load average ${report.loadAverage.map((x) => x.toFixed(2)).join(' ')} at the end. ` +
    `SIMD128 peak: ${fixed(report.peak)} GFLOP/s.${hoistedNote(report)}`;
  const operations = (s) => {
    const ran = operationsRun(report, s);
    return ran === s.vectorOps ? String(s.vectorOps) : `${s.vectorOps}, of which ${ran} ran`;
  };
  const shapes = table('loop step', ['vector loads', 'multiplies + adds', 'GFLOP/s', '% of the same rounds\' peak'],
    report.shapes.map((s) => [`\`${s.name}\``, String(s.loads), operations(s), fixed(s.gflops), `${fixed(100 * s.fractionOfPeak, 0)}%`]));
  return { machine, shapes };
}

/**
 * What a Chromium run from before the loops' addresses varied (`addresses: 'varying'`) measured: its V8 may move a load
 * from a constant address out of a loop that stores nothing, and then the products (V8 14 does), so its fixed-address
 * rows and its peak may count operations that did not run. Empty for node 20's runs (V8 11 moves none of it).
 */
function hoistedNote(report) {
  if (report.addresses === 'varying' || !report.browser) return '';
  return ' **Not valid:** run before the loops\' addresses varied. This V8 may have moved the loads from fixed addresses, ' +
    'and then their multiplies, out of the loops (V8 14 does: bench/simd-loads.mjs), so the rows that do not walk, and ' +
    'the peak\'s tree shape, may count operations that did not run; the walking rows ran as written, but their shares ' +
    'count against that peak.';
}

/**
 * The multiplies and adds a simd-loads loop ran. Runs from before the report says `registerRows: 'distinct'` held the
 * same a (1.0) in every row kept in a register, and V8 computed the products of those rows with each b once: one row's
 * multiplies for all of them (its GFLOP/s and share count the multiplies it did not run).
 */
function operationsRun(report, s) {
  const shape = SIMD_LOAD_SHAPES.find((x) => x.name === s.name);
  const held = shape ? shape.rows.filter((kind) => kind === 'register').length : 0;
  if (report.registerRows === 'distinct' || held < 2) return s.vectorOps;
  return s.vectorOps - (held - 1) * shape.columns;
}
