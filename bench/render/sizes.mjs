// bench/sizes.mjs's report (bench/results/sizes.json) as markdown: what each module weighs, and each entry point.
import { table } from './tables.mjs';

const kb = (bytes) => `${(bytes / 1000).toFixed(1)} KB`;

/** The parts of bench/sizes.mjs's report: { files (each .wasm module), entries (what each entry point adds) }. */
export function sizeParts(report) {
  const files = table('module', ['raw', 'gzip', 'brotli'], Object.entries(report.wasm)
    .map(([file, s]) => [`\`${file}\``, kb(s.raw), kb(s.gzip), kb(s.brotli)]));
  const main = report.entries.find((e) => e.name === 'seqorder');
  const wasmOf = (names) => names.reduce((a, n) => ({ raw: a.raw + report.wasm[n].raw, gzip: a.gzip + report.wasm[n].gzip }), { raw: 0, gzip: 0 });
  const rows = report.entries.map((e) => {
    const alone = e === main || e.name.startsWith('seqorder/plot') || e.name.startsWith('seqorder/checks');
    // beside seqorder's own: the modules of e's graph that seqorder's does not hold
    const own = alone ? e.js : e.ownJs;
    const wasm = wasmOf(e.wasm);
    const what = e === main ? '`seqorder` (an app that computes positions and attention)' : `\`${e.name}\`${alone ? '' : ', beside `seqorder`'}`;
    // each module, those fetched later than the entry point's loader marked with when
    const modules = e.wasm.map((n) => `\`${n}\`${e.when?.[n] ? ` (${e.when[n]})` : ''}`);
    return [what, `${kb(own.raw)} (${kb(own.gzip)})`, e.workerJs ? `${kb(e.workerJs.raw)} (${kb(e.workerJs.gzip)})` : '—',
      e.wasm.length ? `${modules.join(', ')}: ${kb(wasm.raw)} (${kb(wasm.gzip)})` : '—'];
  });
  const entries = table('the app imports', ['its JS, raw (gzip)', 'a worker\'s JS', '.wasm it ships, raw (gzip)'], rows);
  return { files, entries };
}
