// Where an engine's time for the lab goes, below the page: in a fresh page of one engine (--browser chromium, firefox
// or webkit; the built site served as bench/lab-run.mjs does), through the page's own modules (dist/site's lib/ and
// js/lab/), the lesson's first model (its architecture, its data) timed as
//   thread  800 Adam steps on the page's thread (loadSeqorder, no worker: the engine's code alone)
//   worker  800 steps in a pool of one worker, one message
//   fresh   the same in a new pool of one worker each round (its own instance of the module the page compiled once,
//           in a new thread): how much of an engine's first run is its code being compiled again for that worker
//   chunks  800 steps in the same worker as the lab sends them: 40 messages of 20 steps, one after the other
//   message one forward of one short sentence in that worker, one message after the other (a round trip's time)
//   measure the lengths table's longest set (256 sentences at its longest length) in that worker, in the page's slices
//   lab     the lab's training alone: the lesson's models (the lab's default run's), each 800 steps in 40 messages of
//           20, all at once, in a new pool of as many workers as the lab starts here (web/js/lab/run.mjs's poolSize of
//           the cores the page is told of): the engine running the page's workers side by side, without the page
// each `rounds` times in turn (median printed, and every round: the first is the engine's code compiling), with the
// load average; the same model's steps are not re-created. --site: another build of the page (a folder like
// dist/site). --without-simd: the page with modules built from the same sources without SIMD128 (configured with
// -DSEQORDER_SIMD=OFF into build-nosimd/, its site there: f32x4.hpp's four plain floats), to tell an engine's code for
// SIMD from its code at large.
// --save keeps the run in bench/results/<machine kind>/lab-worker-<engine>.json (-without-simd.json for that page);
// --write (or --from-results, running nothing: this machine kind's files) writes every saved engine's into
// docs/performance.md's tables between its <!-- lab-run:worker --> and <!-- lab-run:simd --> markers
// (bench/lab-run-tables.mjs renders them).
//   node bench/lab-worker.mjs [--browser chromium|firefox|webkit] [--rounds 3] [--site dir | --without-simd] [--save] [--write]
//   node bench/lab-worker.mjs --from-results
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from '../scripts/serve.mjs';
import { ALL_ENGINES, openBrowser } from '../tests/browser/helpers/engines/index.mjs';
import { siteDir } from '../tests/browser/helpers/site.mjs';
import { median } from '../web/js/median.mjs';
import { machineKind } from './harness.mjs';
import { simdText, withBlock, workerText } from './lab-run-tables.mjs';

const args = process.argv.slice(2);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const resultsDir = path.join(root, 'bench', 'results', machineKind());
const resultsFile = (name, withoutSimd = false) => path.join(resultsDir, `lab-worker-${name}${withoutSimd ? '-without-simd' : ''}.json`);
if (args.includes('--from-results')) {
  writeDocs();
  process.exit(0);
}
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const engine = option('--browser', 'chromium');
const rounds = Number(option('--rounds', 3));
if (!ALL_ENGINES.includes(engine)) throw new RangeError(`--browser must be one of ${ALL_ENGINES.join(', ')}, got ${engine}`);
if (!Number.isInteger(rounds) || rounds < 1) throw new RangeError('--rounds must be a positive whole number');
const withoutSimd = args.includes('--without-simd');
if (withoutSimd && args.includes('--site')) throw new RangeError('--without-simd builds its own site: not with --site');

/** The built site (dist/site) with its two modules (seqorder_core, seqorder_model: .mjs and .wasm) built without SIMD. */
function siteWithoutSimd() {
  const build = path.join(root, 'build-nosimd');
  console.error('building the modules without SIMD128 into build-nosimd/ ...');
  execFileSync('bash', ['scripts/build-wasm.sh', '-DSEQORDER_SIMD=OFF', '-DSEQORDER_RELAXED=OFF'],
    { cwd: root, env: { ...process.env, SEQORDER_BUILD_WASM: build }, stdio: ['ignore', 'ignore', 'inherit'] });
  const site = path.join(build, 'site');
  rmSync(site, { recursive: true, force: true });
  cpSync(siteDir, site, { recursive: true });
  for (const name of ['seqorder_core', 'seqorder_model']) {
    cpSync(path.join(build, `${name}.mjs`), path.join(site, 'lib', `${name}.mjs`));
    cpSync(path.join(build, `${name}.wasm`), path.join(site, 'lib', 'seqorder', `${name}.wasm`));
  }
  return site;
}

/** In the page: the timings above, `rounds` times each, in ms. */
async function inPage(rounds) {
  const { loadSeqorder } = await import('/lib/seqorder.mjs');
  const { loadSeqorderPool } = await import('/lib/pool/index.mjs');
  const { modelOptions, runConfig } = await import('/js/lab/config.mjs');
  const { measuredLengths, measuredSet, trainingBatch } = await import('/js/lab/tasks.mjs');
  const { measureSlice, poolSize } = await import('/js/lab/run.mjs');
  const so = await loadSeqorder();
  await (await import('/lib/model-entry.mjs')).loadModelModule(so);
  const lesson = runConfig();
  const options = modelOptions(lesson, lesson.kinds[0], 1, so.taskWords.length);
  const batches = Array.from({ length: lesson.steps }, (_, k) => trainingBatch(so, lesson, 1, k));
  const sentence = batches[0].ids.data.slice(0, batches[0].ids.shape[1]);
  const ids = { data: Int32Array.from(sentence), shape: [1, sentence.length], dtype: 'int32' };
  const longest = Math.max(...measuredLengths(lesson));
  const measured = measuredSet(so, lesson, 1, longest).ids;
  const [count, T] = measured.shape;
  const slice = measureSlice(lesson, T);
  const parts = Array.from({ length: Math.ceil(count / slice) }, (_, i) => {
    const n = Math.min(slice, count - i * slice);
    return { data: measured.data.slice(i * slice * T, (i * slice + n) * T), shape: [n, T] };
  });
  const pool = await loadSeqorderPool({ workers: 1 });
  const labWorkers = poolSize(navigator.hardwareConcurrency);
  const out = { thread: [], worker: [], fresh: [], chunks: [], message: [], measure: [], lab: [] };
  try {
    const time = async (fn) => {
      const t0 = performance.now();
      await fn();
      return performance.now() - t0;
    };
    // One round, a function of its own: written as the loop's body (its `remote` a const of each iteration, read by the
    // closures timed), WebKitGTK 2.50.6 called round 1's model, disposed, in round 2 of a long run (without SIMD,
    // twice in two), as if the closures had kept the first iteration's binding
    const round = async () => {
      const local = so.createModel(options);
      out.thread.push(await time(() => local.train(batches, { lr: lesson.lr })));
      local.dispose();
      const remote = await pool.createModel(options);
      out.worker.push(await time(() => remote.train(batches, { lr: lesson.lr })));
      const own = await loadSeqorderPool({ workers: 1 });
      try {
        const alone = await own.createModel(options);
        out.fresh.push(await time(() => alone.train(batches, { lr: lesson.lr })));
      } finally {
        await own.close();
      }
      out.chunks.push(await time(async () => {
        for (let k = 0; k < batches.length; k += 20) await remote.train(batches.slice(k, k + 20), { lr: lesson.lr });
      }));
      const n = 200;
      out.message.push((await time(async () => {
        for (let k = 0; k < n; k += 1) await remote.forward(ids);
      })) / n);
      out.measure.push(await time(() => Promise.all(parts.map((part) => remote.forward(part)))));
      await remote.dispose?.();
      const labPool = await loadSeqorderPool({ workers: labWorkers });
      try {
        const models = await Promise.all(lesson.kinds.map((key) => labPool.createModel(modelOptions(lesson, key, 1, so.taskWords.length))));
        out.lab.push(await time(() => Promise.all(models.map(async (m) => {
          for (let k = 0; k < batches.length; k += 20) await m.train(batches.slice(k, k + 20), { lr: lesson.lr });
        }))));
      } finally {
        await labPool.close();
      }
    };
    for (let r = 0; r < rounds; r += 1) await round();
  } finally {
    pool.close();
  }
  return { ...out, cores: navigator.hardwareConcurrency, measuredShape: measured.shape, labModels: lesson.kinds.length,
    labWorkers };
}

const site = withoutSimd ? siteWithoutSimd() : option('--site', siteDir);
const server = await startServer({ root: site, port: 0 });
const browser = await openBrowser(engine, { viewport: { width: 1000, height: 900 } });
try {
  // a document of the site that runs nothing of its own (the lesson page would start its sections' work), with its headers
  await browser.goto(`${server.url}css/style.css`);
  const load = os.loadavg()[0].toFixed(2);
  const result = await browser.evaluate(inPage, rounds);
  const medians = Object.fromEntries(['thread', 'worker', 'fresh', 'chunks', 'message', 'measure', 'lab'].map((k) => [k, Number(median(result[k]).toFixed(2))]));
  const report = { engine, browser: browser.version, cpu: os.cpus()[0]?.model, date: new Date().toISOString(), loadBefore: Number(load),
    loadAfter: Number(os.loadavg()[0].toFixed(2)), site: path.relative(root, site), simd: !withoutSimd, cores: result.cores, medians, rounds: result };
  console.log(JSON.stringify(report));
  if (args.includes('--save')) {
    mkdirSync(resultsDir, { recursive: true });
    writeFileSync(resultsFile(engine, withoutSimd), `${JSON.stringify(report, null, 2)}\n`);
    console.error(`saved ${path.relative(root, resultsFile(engine, withoutSimd))}`);
  }
  if (args.includes('--write')) writeDocs();
} finally {
  await browser.close();
  await server.close();
}

/** docs/performance.md's tables from every engine's saved runs on this machine kind. */
function writeDocs() {
  const saved = (scalar) => Object.fromEntries(ALL_ENGINES.filter((name) => existsSync(resultsFile(name, scalar)))
    .map((name) => [name, JSON.parse(readFileSync(resultsFile(name, scalar), 'utf8'))]));
  const reports = saved(false);
  const at = path.join(root, 'docs', 'performance.md');
  let doc = withBlock(readFileSync(at, 'utf8'), 'worker', workerText(reports));
  doc = withBlock(doc, 'simd', simdText(reports, saved(true)));
  writeFileSync(at, doc);
  console.error('wrote the lab\'s first model below the page into docs/performance.md');
}
