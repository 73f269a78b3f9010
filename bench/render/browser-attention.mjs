// bench/chromium-attention.mjs's report (bench/results/<machine kind>/<engine>.json) as markdown.
import { KEPT_VARIANT } from './kernel.mjs';
import { peakName } from '../simd-peak.mjs';
import { fixed, table, times } from './tables.mjs';

/** The parts of bench/chromium-attention.mjs's report: { machine (where and how), attention (GFLOP/s, shares, ratios) }. */
export function browserAttentionParts(report) {
  const m = report.machine;
  const machine = [
    `${report.browser} (${report.engine === 'webkit' ? 'in an Xvfb display' : 'headless'}), on ${m.cpu}, ${m.cores} ` +
      `cores; ${m.date.slice(0, 10)}; commit ${m.commit}; load average ${m.loadAverage.join(' ')} at the start, ` +
      `${m.loadAverageAtEnd.join(' ')} at the end.`,
    `onnxruntime-web ${report.versions['onnxruntime-web']} (wasm, 1 thread). Wall time in the page, medians of interleaved ` +
      `rounds; ratios are medians of per-round ratios. SIMD128 peak in this browser: ${fixed(report.peak.gflops)} GFLOP/s ` +
      `(${peakName(report.peak)}).${report.probed ? ` The kernel then had three variants: its row is the one kept, \`${KEPT_VARIANT}\`.` : ''}`,
  ].join('\n');
  const cases = report.cases;
  const result = (c, name) => c.results.find((r) => r.name === name);
  // the fused kernel alone ('kernel alone'); runs from before it was one (up to commit bd4433f) timed each of its three
  // variants ('kernel <variant>'), of which the one kept is shown
  const variant = (name) => (report.probed ? name.match(/^kernel (\w+)$/)?.[1] : undefined);
  const names = [...new Set(cases.flatMap((c) => c.results.map((r) => r.name)))]
    .filter((name) => !variant(name) || variant(name) === KEPT_VARIANT);
  const cell = (c, name) => {
    const r = result(c, name);
    return r ? `${fixed(r.gflops)} (${fixed(100 * r.fractionOfPeak, 0)}%)` : '—';
  };
  const label = (name) => (variant(name) ? 'kernel alone' : name.replace(', out', ', `out`'));
  const attention = table('GFLOP/s (% of SIMD peak)', cases.map((c) => `T = ${c.T}${c.causal ? ' causal' : ''}`), [
    ...names.map((name) => [label(name), ...cases.map((c) => cell(c, name))]),
    ['**seqorder ÷ onnxruntime-web**', ...cases.map((c) => `**${times(result(c, 'seqorder')?.overOrt)}**`)],
    ['seqorder with `out` ÷ onnxruntime-web', ...cases.map((c) => times(result(c, 'seqorder, out')?.overOrt))],
  ]);
  return { machine, attention };
}
