// bench/run.mjs's report (bench/results/<machine kind>/latest.json) as markdown: the machine, and the tables of
// attention, positions, training and the positions' cost.
import { speedup } from '../../web/js/bench-kernels.mjs';
import { RUN_SECTIONS } from '../harness.mjs';
import { shareOfPeakTable, trainingTable } from '../model-train.mjs';
import { schemesTable } from '../model-schemes.mjs';
import { peakName } from '../simd-peak.mjs';
import { fixed, table, times } from './tables.mjs';

// The report's clock (harness.mjs's machine(clock): bench/clock.mjs's CLOCK), as the start of a sentence.
const clockText = (clock = 'CPU time') => clock[0].toUpperCase() + clock.slice(1);

function runAttentionTable(cases, peak) {
  const byName = cases.map((c) => Object.fromEntries(c.results.map((r) => [r.name, r])));
  const names = [
    ['seqorder', 'seqorder'], ['seqorder, out', 'seqorder, `out`'], ['seqorder relaxed', 'seqorder, opt-in relaxed SIMD'],
    ['seqorder reference (steps)', 'seqorder reference (`steps: true`)'],
    ['onnxruntime-web', 'onnxruntime-web (wasm, 1 thread)'], ['tfjs-backend-wasm', 'tfjs-backend-wasm (1 thread)'], ['plain JS', 'plain JS'],
  ];
  const present = names.filter(([name]) => byName.some((by) => by[name]));
  const rows = present.map(([name, label]) => [label, ...byName.map((by) => (by[name] ? `${fixed(by[name].gflops)} (${fixed(100 * by[name].gflops / peak, 0)}%)` : '—'))]);
  const speedups = (fast, slow) => byName.map((by) => times(speedup(by[fast], by[slow])));
  // each side's fastest round: the least disturbed, when the machine's noise only ever slows a round down
  const best = (result) => Math.min(...(result?.samples ?? []));
  const fastest = (fast, slow) => byName.map((by) => times(best(by[slow]) / best(by[fast])));
  rows.push(['**seqorder ÷ onnxruntime-web**', ...speedups('seqorder', 'onnxruntime-web').map((x) => `**${x}**`)]);
  rows.push(['seqorder ÷ onnxruntime-web, fastest rounds', ...fastest('seqorder', 'onnxruntime-web')]);
  if (byName.some((by) => by['seqorder relaxed'])) {
    rows.push(['seqorder relaxed ÷ onnxruntime-web', ...speedups('seqorder relaxed', 'onnxruntime-web')]);
    rows.push(['seqorder relaxed ÷ onnxruntime-web, fastest rounds', ...fastest('seqorder relaxed', 'onnxruntime-web')]);
    rows.push(['seqorder relaxed ÷ seqorder', ...speedups('seqorder relaxed', 'seqorder')]);
  }
  rows.push(['seqorder ÷ plain JS', ...speedups('seqorder', 'plain JS')]);
  return table('GFLOP/s (% of SIMD peak)', cases.map((c) => `T = ${c.T}${c.causal ? ' causal' : ''}`), rows);
}

function runPositionsTable(cases) {
  const byName = cases.map((c) => Object.fromEntries(c.results.map((r) => [r.name, r])));
  const names = [['seqorder', 'seqorder'], ['seqorder, out', 'seqorder, `out`'], ['plain JS', 'plain JS'], ['plain JS, out', 'plain JS, into one array']];
  const rows = names.map(([name, label]) => [label, ...byName.map((by) => fixed(by[name]?.nsPerElement, 2))]);
  rows.push(['**seqorder ÷ plain JS, with `out`**', ...byName.map((by) => `**${times(speedup(by['seqorder, out'], by['plain JS, out']))}**`)]);
  rows.push(['seqorder ÷ plain JS, new arrays', ...byName.map((by) => times(speedup(by.seqorder, by['plain JS'])))]);
  return table('ns per element', cases.map((c) => `${c.length}×${c.width} ${c.dtype}`), rows);
}

/** The parts of bench/run.mjs's report (its JSON): { machine (a paragraph), attention, positions, training, stepShare, schemes (tables) }. */
export function runParts(report) {
  const m = report.machine;
  const peak = report.simdPeak.gflops;
  return {
    machine: [
      `Machine: ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB; node ${m.node} (V8 ${m.v8}); ${m.date.slice(0, 10)}; commit ${m.commit}; load average ${m.loadAverage.join(' ')} at start.`,
      `onnxruntime-web ${report.versions['onnxruntime-web']} (wasm, 1 thread), @tensorflow/tfjs-backend-wasm ${report.versions['@tensorflow/tfjs-backend-wasm']} (1 thread${report.versions.tfjsSimd ? ', SIMD' : ''}). ${clockText(m.clock)}, medians of interleaved rounds; ratios are medians of per-round ratios.`,
      `WebAssembly SIMD128 peak of one core: ${peak.toFixed(1)} GFLOP/s (f32x4 multiplies and adds, ${report.simdPeak.shape} x${report.simdPeak.chains}).`,
    ].join('\n'),
    attention: report.attention.length ? runAttentionTable(report.attention, peak) : undefined,
    positions: report.positions.length ? runPositionsTable(report.positions) : undefined,
    // the table alone (what the benchmark prints puts a paragraph before it)
    training: report.training ? trainingTable(report.training).split('\n').filter((l) => l.startsWith('|')).join('\n') : undefined,
    stepShare: report.training?.shareOfPeak ? shareOfPeakTable(report.training) : undefined,
    schemes: report.schemes ? schemesTable(report.schemes).split('\n').filter((l) => l.startsWith('|')).join('\n') : undefined,
  };
}

/** What bench/run.mjs prints (and keeps in its JSON as `table`). */
export function runText(report) {
  const parts = runParts(report);
  const { quick, only } = report.settings;
  return [
    parts.machine,
    '',
    ...(parts.attention ? [`Attention, float32, D = ${report.attention[0].D}: GFLOP/s = 4·T²·D / time (half for causal), and % of the SIMD peak.`,
      '', parts.attention, ''] : []),
    ...(parts.positions ? ['Positions (the sinusoidal table): ns per element (lower is better).', '', parts.positions, ''] : []),
    ...(report.training ? [trainingTable(report.training), ''] : []),
    ...(parts.stepShare ? [`A training step's operations (its matrix products and attention, forward and backward: bench/model-train.mjs's stepFlops) at seqorder's speed, against ${
      report.training.peak?.inRounds ? `the SIMD128 peak timed in the same rounds (${peakName(report.training.peak)}; the median of the per-round ratios, and their middle half)`
        : report.training.shareOfPeak[0].fractionMiddleHalf ? 'the SIMD128 peak timed in the same rounds (the median of the per-round ratios, and their middle half)' : "this run's SIMD128 peak"}.`, '', parts.stepShare, ''] : []),
    ...(report.schemes ? [schemesTable(report.schemes), ''] : []),
    `(${report.seconds.toFixed(0)} s${quick ? ', --quick' : ''}${only.length < RUN_SECTIONS.length ? `, --only ${only.join(',')}` : ''})`,
  ].join('\n');
}
