// npm run bench:sizes: what the built package ($SEQORDER_DIST/lib, default dist/lib) weighs, file by file and by
// entry point: each .wasm module and each entry point's JavaScript (the modules it imports, followed statically),
// raw, gzip (level 9) and brotli (quality 11), as a server would send them. Writes bench/results/sizes.json;
// bench/report.mjs turns it into docs/performance.md's tables.
import { readFileSync, readdirSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { machine } from './harness.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const lib = path.resolve(root, process.env.SEQORDER_DIST ?? 'dist', 'lib');
const out = path.join(root, 'bench', 'results', 'sizes.json');

/** { raw, gzip, brotli } bytes of a file's contents. */
function weigh(bytes) {
  return {
    raw: bytes.length,
    gzip: gzipSync(bytes, { level: 9 }).length,
    brotli: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
}

/**
 * The package's JS modules an entry point imports, itself included: relative static imports (`import … from`,
 * `import '…'`, `export … from`), followed; an import() is loaded when called, and not counted.
 */
function moduleGraph(entry) {
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    const source = readFileSync(file, 'utf8');
    for (const [, spec] of source.matchAll(/^(?:import|export)\s(?:[^'";]*?\sfrom\s*)?['"](\.{1,2}\/[^'"]+)['"]/gm)) visit(path.resolve(path.dirname(file), spec));
  };
  visit(path.join(lib, entry));
  return [...seen].map((f) => path.relative(lib, f)).sort();
}

const sum = (sizes) => sizes.reduce((a, s) => ({ raw: a.raw + s.raw, gzip: a.gzip + s.gzip, brotli: a.brotli + s.brotli }), { raw: 0, gzip: 0, brotli: 0 });

const wasm = Object.fromEntries(readdirSync(path.join(lib, 'seqorder')).filter((f) => f.endsWith('.wasm')).sort()
  .map((f) => [f, weigh(readFileSync(path.join(lib, 'seqorder', f)))]));

// Each entry point: the JS it loads (a worker's graph counted apart), and the .wasm files it names (a bundler emits);
// `when`: the files of them fetched only later than the entry's loader (the pool's model module, by its first model).
const ENTRIES = [
  { name: 'seqorder', entry: 'seqorder.mjs', wasm: ['seqorder_core.wasm'] },
  { name: 'seqorder/model', entry: 'model-entry.mjs', wasm: ['seqorder_model.wasm'] },
  { name: 'seqorder/pool', entry: 'pool/index.mjs', worker: 'pool/seqorder/pool-worker.mjs', wasm: ['seqorder_model.wasm'],
    when: { 'seqorder_model.wasm': 'fetched by the first pool.createModel' } },
  { name: 'seqorder/relaxed', entry: 'relaxed.mjs', wasm: ['seqorder_core_relaxed.wasm', 'seqorder_model_relaxed.wasm'],
    when: { 'seqorder_model_relaxed.wasm': 'fetched with the model module' } },
  { name: 'seqorder/plot', entry: 'figures/plot/index.mjs', wasm: [] },
  { name: 'seqorder/checks', entry: 'figures/checks.mjs', wasm: [] },
];
const mainModules = new Set(moduleGraph('seqorder.mjs'));
const weighModules = (modules) => sum(modules.map((m) => weigh(readFileSync(path.join(lib, m)))));
const entries = ENTRIES.map(({ name, entry, worker, wasm: files, when = {} }) => {
  const modules = moduleGraph(entry);
  const js = weighModules(modules);
  const ownJs = weighModules(modules.filter((m) => !mainModules.has(m)));  // what it adds to seqorder's
  const workerModules = worker ? moduleGraph(worker) : [];
  const workerJs = sum(workerModules.map((m) => weigh(readFileSync(path.join(lib, m)))));
  return { name, entry, modules, js, ownJs, ...(worker ? { worker, workerModules, workerJs } : {}), wasm: files, when };
});

const report = { machine: machine('bytes of the built files'), lib: path.relative(root, lib), wasm, entries };
mkdirSync(path.dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
console.log(`wrote ${path.relative(process.cwd(), out)}`);
