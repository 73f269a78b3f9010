// bench/attention-kernel.mjs's report (bench/results/<machine kind>/kernel.json) as markdown.
import { fixed, table } from './tables.mjs';

/** The parts of bench/attention-kernel.mjs's report: { machine (the processor, the peak, the probe's pick), variants }. */
export function kernelParts(report) {
  const cases = [...new Map(report.rows.map((r) => [`${r.T} ${r.causal}`, r])).values()];
  const names = [...new Set(report.rows.map((r) => r.name))];
  const cell = (name, c) => {
    const r = report.rows.find((x) => x.name === name && x.T === c.T && x.causal === c.causal);
    return r ? `${fixed(r.gflops)} (${fixed(100 * r.fractionOfPeak, 0)}%)` : '—';
  };
  // the variants by their names (attentionKernels()); then the API over the probe's pick, and the reference
  const variant = (name) => name !== 'reference' && !name.startsWith('API');
  const label = (name) => (variant(name) ? `\`${name}\`${name === report.probed ? ' (the probe\'s pick)' : ''}` : name);
  const variants = table('GFLOP/s (% of the same rounds\' SIMD peak)', cases.map((c) => `T = ${c.T}${c.causal ? ' causal' : ''}`),
    names.map((name) => [label(name), ...cases.map((c) => cell(name, c))]));
  const when = report.date ? `${report.date.slice(0, 10)}; commit ${report.commit}; ` : '';
  const machine = `Processor: ${report.cpu}${report.kind ? ` (${report.kind})` : ''}; node ${report.node}; ${when}${report.clock === 'wall' ? 'wall' : 'CPU'} time; load average ` +
    `${report.loadAverage.map((x) => x.toFixed(2)).join(' ')} at the end. SIMD128 peak (${report.simdPeak.shape} ` +
    `x${report.simdPeak.chains}): ${fixed(report.simdPeak.gflops)} GFLOP/s. The probe chose \`${report.probed}\`.`;
  return { machine, variants };
}
