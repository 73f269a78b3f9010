// node bench/report.mjs [--check] [file]: writes the tables of docs/performance.md (or file) from the benchmarks'
// results (bench/results/*.json), each rendered by its renderer in bench/render/; --check only says whether they are
// up to date (exit 1 when not).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { browserAttentionParts } from './render/browser-attention.mjs';
import { goalsParts } from './render/goals.mjs';
import { kernelParts } from './render/kernel.mjs';
import { pageReadyParts } from './render/page-ready.mjs';
import { poolParts } from './render/pool.mjs';
import { runParts } from './render/run.mjs';
import { simdLoadsParts } from './render/simd-loads.mjs';
import { sizeParts } from './render/sizes.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The parts each results file gives: `<!-- report: <source> <part> -->` in a document stands for
 * parts(bench/results/<source>.json)[part], the parts named by the file's name: a source is `sizes` (one file for
 * every machine) or `<machine kind>/<name>` (machineKind(): `intel/latest`, `amd-zen3/kernel`, `amd-zen3/simd-loads`).
 */
const SOURCES = {
  latest: runParts, pool: poolParts, sizes: sizeParts, kernel: kernelParts, 'page-ready': pageReadyParts,
  'page-ready-firefox': pageReadyParts, 'page-ready-webkit': pageReadyParts, 'simd-loads': simdLoadsParts,
  'simd-loads-chromium': simdLoadsParts, 'simd-loads-firefox': simdLoadsParts, 'simd-loads-webkit': simdLoadsParts,
  chromium: browserAttentionParts, firefox: browserAttentionParts, webkit: browserAttentionParts,
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
    const parts = SOURCES[source.split('/').at(-1)];
    if (!parts && !GATHERED[source])
      throw new Error(`report: unknown source '${source}' (known: ${[...Object.keys(SOURCES), ...Object.keys(GATHERED)].join(', ')})`);
    cache[source] ??= GATHERED[source] ? GATHERED[source](read) : parts(read(source));
    const body = cache[source][part];
    if (body === undefined) throw new Error(`report: ${source}.json has no part '${part}'`);
    return `${open}${body}\n${close}`;
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const args = process.argv.slice(2);
  const check = args.includes('--check');
  const file = path.resolve(args.find((a) => !a.startsWith('--')) ?? path.join(root, 'docs', 'performance.md'));
  const text = readFileSync(file, 'utf8');
  const read = (source) => JSON.parse(readFileSync(path.join(root, 'bench', 'results', `${source}.json`), 'utf8'));
  const rendered = renderDocument(text, read);
  if (check) {
    if (rendered !== text) {
      console.error(`${path.relative(process.cwd(), file)}: its tables differ from bench/results/*.json: run node bench/report.mjs`);
      process.exit(1);
    }
  } else if (rendered !== text) {
    writeFileSync(file, rendered);
    console.log(`wrote ${path.relative(process.cwd(), file)}`);
  }
}
