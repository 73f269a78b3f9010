// node bench/report.mjs [--check] [file ...]: writes the tables of docs/performance.md and of the notes in bench/notes/
// (or of the files given) from the benchmarks' results (bench/results/*.json), each rendered by its renderer in
// bench/render/; --check only says whether they are up to date (exit 1 when not).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { abParts } from './render/ab.mjs';
import { browserAttentionParts } from './render/browser-attention.mjs';
import { goalsParts } from './render/goals.mjs';
import { kernelParts } from './render/kernel.mjs';
import { pageReadyParts } from './render/page-ready.mjs';
import { pagePoolParts, poolParts } from './render/pool.mjs';
import { runParts } from './render/run.mjs';
import { simdLoadsParts } from './render/simd-loads.mjs';
import { sizeParts } from './render/sizes.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The parts each results file gives: `<!-- report: <source> <part> -->` in a document stands for
 * parts(bench/results/<source>.json)[part], the parts named by the file's name: a source is `sizes` (one file for
 * every machine) or `<machine kind>/<name>` (machineKind(): `intel/latest`, `amd-zen3/kernel`, `amd-zen3/simd-loads`);
 * bench/ab.mjs's results are named ab-<what they compare> (`amd-zen5/ab-kernels-node`).
 */
const SOURCES = {
  latest: runParts, pool: poolParts, sizes: sizeParts, kernel: kernelParts, 'page-ready': pageReadyParts,
  'page-ready-firefox': pageReadyParts, 'page-ready-webkit': pageReadyParts, 'simd-loads': simdLoadsParts,
  'simd-loads-chromium': simdLoadsParts, 'simd-loads-firefox': simdLoadsParts, 'simd-loads-webkit': simdLoadsParts,
  chromium: browserAttentionParts, firefox: browserAttentionParts, webkit: browserAttentionParts,
  'chromium-pool': pagePoolParts,
};

/** The parts that gather several results files: `<!-- report: <name> <part> -->`, parts(read)[part]. */
const GATHERED = { goals: goalsParts };

/**
 * `text` with every block between `<!-- report: <source> <part> -->` and `<!-- /report -->` replaced by that part,
 * rendered from bench/results/<source>.json by `read(source)` (its parsed JSON).
 */
export function renderDocument(text, read) {
  const cache = {};
  return text.replace(/(<!-- report: ([\w-]+(?:\/[\w-]+)?) (\w+) -->\n)[\s\S]*?(<!-- \/report -->)/g, (_, open, source, part, close) => {
    const name = source.split('/').at(-1);
    const parts = SOURCES[name] ?? (name.startsWith('ab-') ? abParts : undefined);
    if (!parts && !GATHERED[source])
      throw new Error(`report: unknown source '${source}' (known: ${[...Object.keys(SOURCES), ...Object.keys(GATHERED)].join(', ')})`);
    cache[source] ??= GATHERED[source] ? GATHERED[source](read) : parts(read(source));
    const body = cache[source][part];
    if (body === undefined) throw new Error(`report: ${source}.json has no part '${part}'`);
    return `${open}${body}\n${close}`;
  });
}

/** The documents with generated parts: docs/performance.md and the notes of bench/notes/. */
export const DOCUMENTS = () => [path.join(root, 'docs', 'performance.md'),
  ...readdirSync(path.join(root, 'bench', 'notes')).filter((f) => f.endsWith('.md')).map((f) => path.join(root, 'bench', 'notes', f))];

/** bench/results/<source>.json, parsed. */
export const readResults = (source) => JSON.parse(readFileSync(path.join(root, 'bench', 'results', `${source}.json`), 'utf8'));

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const args = process.argv.slice(2);
  const check = args.includes('--check');
  const given = args.filter((a) => !a.startsWith('--'));
  let stale = false;
  for (const file of given.length ? given.map((f) => path.resolve(f)) : DOCUMENTS()) {
    const text = readFileSync(file, 'utf8');
    const rendered = renderDocument(text, readResults);
    if (rendered === text) continue;
    if (check) {
      console.error(`${path.relative(process.cwd(), file)}: its tables differ from bench/results/*.json: run node bench/report.mjs`);
      stale = true;
    } else {
      writeFileSync(file, rendered);
      console.log(`wrote ${path.relative(process.cwd(), file)}`);
    }
  }
  if (stale) process.exit(1);
}
