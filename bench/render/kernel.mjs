// bench/attention-kernel.mjs's report (bench/results/<machine kind>/kernel.json) as markdown.
import { peakName } from '../simd-peak.mjs';
import { fixed, table } from './tables.mjs';

/**
 * The fused kernel's row: `kernel`, or in runs from before the kernel was one (up to commit bd4433f, which timed its
 * three variants, their report naming the one its probe chose: `probed`), the variant kept, `splat_in_loop`. The other
 * variants' rows are left out.
 */
export const KEPT_VARIANT = 'splat_in_loop';
export const isKernel = (name) => name === 'kernel' || name === KEPT_VARIANT;
const isOtherVariant = (name, probed) => probed !== undefined && !isKernel(name) && name !== 'reference' && !name.startsWith('API');

/** The parts of bench/attention-kernel.mjs's report: { machine (the processor, the peak), kernel (its table) }. */
export function kernelParts(report) {
  const cases = [...new Map(report.rows.map((r) => [`${r.T} ${r.causal}`, r])).values()];
  const names = [...new Set(report.rows.map((r) => r.name))].filter((name) => !isOtherVariant(name, report.probed));
  const cell = (name, c) => {
    const r = report.rows.find((x) => x.name === name && x.T === c.T && x.causal === c.causal);
    return r ? `${fixed(r.gflops)} (${fixed(100 * r.fractionOfPeak, 0)}%)` : '—';
  };
  const label = (name) => (isKernel(name) ? 'the kernel alone' : name);
  const kernel = table('GFLOP/s (% of the same rounds\' SIMD peak)', cases.map((c) => `T = ${c.T}${c.causal ? ' causal' : ''}`),
    names.map((name) => [label(name), ...cases.map((c) => cell(name, c))]));
  const when = report.date ? `${report.date.slice(0, 10)}; commit ${report.commit}; ` : '';
  const variant = report.probed ? ` The kernel then had three variants: its row is the one kept, \`${KEPT_VARIANT}\`.` : '';
  const machine = `Processor: ${report.cpu}${report.kind ? ` (${report.kind})` : ''}; node ${report.node}; ${when}${report.clock === 'wall' ? 'wall' : 'CPU'} time; load average ` +
    `${report.loadAverage.map((x) => x.toFixed(2)).join(' ')} at the end. SIMD128 peak (${peakName(report.simdPeak)}): ` +
    `${fixed(report.simdPeak.gflops)} GFLOP/s.${variant}`;
  return { machine, kernel };
}
