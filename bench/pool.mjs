// node bench/pool.mjs [--quick] [--json path]        (npm run bench runs it after bench/run.mjs)
//
// The pool (loadSeqorderPool: attention spread over worker_threads) against seqorder on one thread and against
// onnxruntime-web's threaded WebAssembly build with as many threads as this machine has cores, in one node process:
//   attention, float32, D = 64, T = 256 … 4096 (and T = 2048 causal): GFLOP/s of
//     seqorder on this thread, the pool with 1 worker and with one per core, the pool with one worker fewer and the
//     calling thread computing a share (callingThread), onnxruntime-web (wasm, numThreads = cores;
//     the graphs of bench/make-onnx-graphs.mjs), with fresh inputs each call (web/js/bench-kernels.mjs's
//     freshInputSets: each call reads inputs no call has read for the last 64 MiB of them); and the pool's bound: a
//     worker per core computing parts of even work with their inputs in place (poolBound), what two threads give here;
//   the pool's overhead at T = 256: a pool of 1 worker against seqorder on this thread, with its two parts measured
//     apart: a round trip that computes (almost) nothing (T = 1), and the copies of q, k and v the pool sends.
// Several threads work at once here, so times are wall-clock (performance.now), not CPU time: on a machine shared with
// other work they are noisier than bench/run.mjs's, and the speed-ups are bounded by the cores the others leave free.
// A last row gives the CPU time per call (every thread counted) of the pool over seqorder's: the work the pool adds,
// which the machine's load does not change much. Rounds are interleaved and each ratio is the median of the
// per-round ratios (speedup() in web/js/bench-kernels.mjs); the load average is printed at the start and the end.
// Each sample starts with one untimed call, so that every contender is timed in its steady state (threads awake,
// caches and pages warm) at every T: the first call after a pause costs more (for the pool at T = 2048, ~1–3 ms:
// waking its workers, and the calling thread's copies and checks on cold caches; onnxruntime-web's too), and a sample
// of a few calls (large T) would weigh it far more than one of hundreds (small T).
// Results: markdown tables on stdout, JSON in bench/results/<machine kind>/pool.json (harness.mjs's machineKind(); --quick: pool-quick.json, not committed).
//
// The package is loaded from $SEQORDER_DIST/lib (default dist/lib): build it first (npm run build).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';

import { benchArgs, importPackage, loadAverage, machine, ortThreadsName, packageUrl, poolBoundName, poolCallingName, poolName } from './harness.mjs';
import { poolText } from './render/pool.mjs';
import { graphFile, WIDTH } from './make-onnx-graphs.mjs';
import { freshInputSets, measure, randomTensor, ring, wallSeconds } from '../web/js/bench-kernels.mjs';
import { maxAbsDiff } from '../web/js/experiments/reference.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const benchModules = path.join(root, 'bench', 'node_modules');
const { quick, jsonPath } = benchArgs('pool', 'pool-quick');

const cores = os.availableParallelism?.() ?? os.cpus().length;
const settings = quick
  ? { cases: [[256, false], [2048, false]], rounds: 7, sampleSeconds: 0.05, overheadRounds: 9 }
  : { cases: [[256, false], [1024, false], [2048, false], [2048, true], [4096, false]], rounds: 21, sampleSeconds: 0.1, overheadRounds: 21 };
const log = (...a) => console.error(...a);  // progress on stderr, the tables on stdout

// ---- the contenders ----------------------------------------------------------------------------------------------------
async function load() {
  const { loadSeqorder } = await importPackage();
  const { loadSeqorderPool } = await importPackage('pool/index.mjs');
  const so = await loadSeqorder();
  const pools = { 1: await loadSeqorderPool({ workers: 1 }) };
  if (cores > 1) pools[cores] = await loadSeqorderPool({ workers: cores });
  const calling = cores > 1 ? await loadSeqorderPool({ workers: cores - 1, callingThread: true }) : null;

  const ort = await import('onnxruntime-web');
  ort.env.wasm.numThreads = cores;  // its threaded build: SharedArrayBuffer and worker_threads, in node as is
  ort.env.logLevel = 'error';
  const sessions = {};
  for (const causal of [false, true])
    sessions[causal] = await ort.InferenceSession.create(readFileSync(graphFile(causal)), { executionProviders: ['wasm'] });
  const version = JSON.parse(readFileSync(path.join(benchModules, 'onnxruntime-web', 'package.json'), 'utf8')).version;
  let bound;
  if (cores > 1) {
    const { attentionPlanner } = await importPackage('api.mjs');
    const { compileSeqorder, instantiateCore } = await importPackage('load.mjs');
    const { cutRows } = await importPackage('pool/split.mjs');
    const { compiled, url } = await compileSeqorder({});
    bound = await poolBound({ planner: attentionPlanner(await instantiateCore(compiled, url)), cutRows }, cores);
  }
  return { so, pools, calling, ort, sessions, bound, versions: { seqorder: so.version, 'onnxruntime-web': version } };
}

const ortName = ortThreadsName(cores);

/**
 * The contenders of one attention case: [{ name, call(set), run }], run() calling call() on the next set of the ring
 * (fresh inputs), call(sets[0]) what runCase checks.
 */
function attentionContenders({ so, pools, calling, ort, sessions, bound }, T, causal) {
  const sets = freshInputSets(T, WIDTH, { ort, causal });
  const contenders = [
    { name: 'seqorder, 1 thread', call: ({ q, k, v }) => so.attention(q, k, v, { causal }).data },
    ...Object.entries(pools).map(([workers, pool]) => ({ name: poolName(workers), call: async ({ q, k, v }) => (await pool.attention(q, k, v, { causal })).data })),
    ...(calling ? [{ name: poolCallingName(calling.workers), call: async ({ q, k, v }) => (await calling.attention(q, k, v, { causal })).data }] : []),
    { name: ortName, call: async ({ feeds }) => (await sessions[causal].run(feeds)).output.data },
  ];
  const ringed = contenders.map((c, n) => ({ ...c, sets, run: ring(sets, c.call, Math.floor((n * sets.length) / contenders.length)) }));
  return bound ? [...ringed, { name: poolBoundName(cores), bound: true, setup: () => bound.setup(sets[0], causal), run: bound.run }] : ringed;
}

/**
 * The pool's bound (poolBoundName): a worker per core, each holding its part of the case (the pool's cut of its plan
 * into parts of even work, as the pool cuts while its workers' paces are even) and computing it when asked, all at
 * once: the speed of the pool's threads on this machine without what the pool adds (the calling thread's plan and
 * copies, the inputs' messages, the assembly). Its inputs stay in place, so its caches are warm: a bound, not a
 * contender the pool could match. { setup(set, causal), run(), close() }.
 */
async function poolBound({ planner, cutRows }, workers) {
  const threads = await Promise.all(Array.from({ length: workers }, () => new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./pool-bound-worker.mjs', import.meta.url), { workerData: { seqorder: packageUrl() } });
    worker.once('message', () => resolve(worker)).once('error', reject);
  })));
  const ask = (worker, message) => new Promise((resolve) => {
    worker.once('message', resolve);
    worker.postMessage(message);
  });
  let parts = 0;
  return {
    async setup({ q, k, v }, causal) {
      const { plan } = planner(q, k, v, { causal });
      const runs = cutRows(plan, workers);
      parts = runs.length;
      await Promise.all(runs.map(([first, end], n) => {
        const rows = { data: q.data.slice(first * WIDTH, end * WIDTH), shape: [end - first, WIDTH], dtype: 'float32' };
        const out = new Float32Array((end - first) * WIDTH);
        return ask(threads[n], { q: rows, k, v, options: causal ? { causal, queryStart: first, out } : { out } });
      }));
    },
    run: () => Promise.all(threads.slice(0, parts).map((worker) => ask(worker, null))),
    close: () => Promise.all(threads.map((worker) => worker.terminate())),
  };
}

/**
 * A pause between samples: onnxruntime-web's threads spin after its calls, waiting for more work (measured here: for
 * ~50–100 ms, a core's worth), and would otherwise take a core from the contender timed next. So its samples are
 * followed by 200 ms of rest, the others' by 10 ms.
 */
let lastRan = '';
const settle = () => sleep(lastRan === ortName ? 200 : 10);
const WARM_CALLS = 1;  // untimed calls at the start of each sample (see the top of this file)

/**
 * Checks each contender on the first set of inputs (the pool: the bits seqorder computes on this thread;
 * onnxruntime-web: within 1e-4, far above float32 rounding differences and far below a wrong mask or scale), calls it
 * once more, then times them in rounds.
 */
async function runCase(contenders, rounds, label) {
  // each contender's CPU time per call, every thread of the process counted: what its work costs in all
  for (const c of contenders) {
    const run = c.run;
    c.cpu = { seconds: 0, calls: 0 };
    c.run = async () => {
      lastRan = c.name;
      const before = process.cpuUsage();
      const result = await run();
      const { user, system } = process.cpuUsage(before);
      c.cpu.seconds += (user + system) / 1e6;
      c.cpu.calls += 1;
      return result;
    };
  }
  const [reference] = contenders;
  const expected = await reference.call(reference.sets[0]);
  for (const c of contenders) {
    if (c.bound) {  // its parts are the pool's, and its output is not read
      await c.setup();
      c.once = await wallSeconds(c.run);
      continue;
    }
    const result = await c.call(c.sets[0]);
    c.once = await wallSeconds(c.run);
    c.maxAbsDiff = maxAbsDiff(result, expected);
    const exact = c.name.startsWith('pool');
    if (exact ? !Buffer.from(result.buffer, result.byteOffset, result.byteLength).equals(Buffer.from(expected.buffer)) : !(c.maxAbsDiff <= 1e-4))
      throw new Error(`${label}: ${c.name} differs from seqorder on one thread (max |Δ| ${c.maxAbsDiff}): not timing a wrong result`);
  }
  let last = 0;
  for (const c of contenders) c.cpu = { seconds: 0, calls: 0 };  // the timed calls only
  const results = await measure(contenders, {
    rounds,
    sampleSeconds: settings.sampleSeconds,
    time: wallSeconds,
    pause: settle,
    warm: WARM_CALLS,
    onSample: (done, total) => {
      if (done === total || Date.now() - last > 2000) {
        last = Date.now();
        log(`  ${label}: ${done}/${total} samples`);
      }
    },
  });
  return results.map((r) => {
    const { cpu } = contenders.find((c) => c.name === r.name);
    return { ...r, cpuSeconds: cpu.seconds / cpu.calls };
  });
}

/**
 * The pool's overhead at T = 256, in one set of interleaved rounds: seqorder and a pool of 1 worker at T = 256 and at
 * T = 1 (a round trip with next to no work), and the copies the pool makes of q, k and v at T = 256.
 */
function overheadContenders({ so, pools }) {
  const pool = pools[1];
  const at = (T) => ['q', 'k', 'v'].map((_, n) => randomTensor([T, WIDTH], n + 1));
  const [q, k, v] = at(256);
  const [q1, k1, v1] = at(1);
  return [
    { name: 'seqorder, T = 256', run: () => so.attention(q, k, v).data },
    { name: 'pool, 1 worker, T = 256', run: async () => (await pool.attention(q, k, v)).data },
    { name: 'seqorder, T = 1', run: () => so.attention(q1, k1, v1).data },
    { name: 'pool, 1 worker, T = 1', run: async () => (await pool.attention(q1, k1, v1)).data },
    { name: 'copies of q, k, v, T = 256', run: () => [q, k, v].map((t) => t.data.slice()) },
  ];
}

// ---- main ----------------------------------------------------------------------------------------------------------------
const started = Date.now();
const report = { machine: machine('wall clock (performance.now): the pool and onnxruntime-web run several threads'), settings: { quick, ...settings, warmCallsPerSample: WARM_CALLS } };
log(`seqorder pool benchmark${quick ? ' (quick)' : ''} on ${report.machine.cpu}, ${cores} cores, node ${report.machine.node}; load ${report.machine.loadAverage.join(' ')}`);
const libraries = await load();
report.versions = libraries.versions;

// warm-up: every contender's code compiled by its optimizing tier before anything is timed
for (const causal of [false, true]) {
  for (const c of attentionContenders(libraries, 128, causal)) {
    await c.setup?.();
    for (let i = 0; i < 20; i++) await c.run();
  }
}
await sleep(300);

report.overhead = await measure(overheadContenders(libraries), { rounds: settings.overheadRounds, sampleSeconds: settings.sampleSeconds, time: wallSeconds, pause: settle, warm: WARM_CALLS });
log('  overhead at T = 256: done');

report.attention = [];
for (const [T, causal] of settings.cases) {
  const label = `attention T=${T}${causal ? ' causal' : ''}`;
  const results = await runCase(attentionContenders(libraries, T, causal), settings.rounds, label);
  const flops = 4 * T * T * WIDTH * (causal ? 0.5 : 1);
  for (const r of results) r.gflops = flops / r.seconds / 1e9;
  report.attention.push({ T, D: WIDTH, causal, dtype: 'float32', flops, pools: libraries.pools, results });
}
report.loadAverageAtEnd = loadAverage();
report.seconds = (Date.now() - started) / 1000;

const text = poolText(report);
console.log(text);
report.table = text;
for (const c of report.attention) c.pools = Object.keys(c.pools).map(Number);
mkdirSync(path.dirname(jsonPath), { recursive: true });
writeFileSync(jsonPath, `${JSON.stringify(report, null, 2)}\n`);
log(`wrote ${path.relative(process.cwd(), jsonPath)}`);
await Promise.all([...Object.values(libraries.pools).map((pool) => pool.close()), libraries.calling?.close(), libraries.bound?.close()]);
process.exit(0);  // onnxruntime-web's threads keep node running otherwise
