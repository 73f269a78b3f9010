// npm run bench [-- --quick] [-- --only attention,positions,training,schemes] [-- --json path]
//
// seqorder against the other ways to run these operations in JavaScript, in one node process:
//   attention (float32, D = 64, T = 256, 1024, 4096, causal and not):
//     seqorder (its default path; with `out`; and the readable reference, asked for its four steps),
//     onnxruntime-web (wasm backend, 1 thread; the graphs of bench/make-onnx-graphs.mjs, causal via an additive mask),
//     @tensorflow/tfjs-backend-wasm (1 thread), plain JS (web/js/bench-kernels.mjs);
//   positions (512 x 512 and 2048 x 512, float32 and float64): seqorder and plain JS, each with and without `out`;
//   and this machine's WebAssembly SIMD128 peak (bench/simd-peak.mjs), so each kernel shows its fraction of it;
//   training: Adam steps per second of the lab model through the JS API, against PyTorch (native, one thread),
//     tfjs-backend-wasm and plain JS (bench/model-train.mjs);
//   schemes: what each kind of positions costs a training step of the lab model, as ratios to positions 'none'
//     (bench/model-schemes.mjs).
// GFLOP/s = 4·T²·D / time per attention (q·kᵀ and weights·v, a multiply and an add per term), half that for causal;
// positions in ns per element. Each call is timed as the JS caller sees it: copies into and out of the WebAssembly heap
// and the allocation of the result are included.
//
// Times are this process's CPU time (user + system), not wall time: the machines this runs on are shared, and CPU
// time does not count waiting for a core (every contender runs on one thread). Rounds are interleaved and medians
// reported; each ratio is the median of the per-round ratios (speedup() in bench-kernels.mjs); compare ratios
// within one run. Results: a markdown table on stdout, and JSON in bench/results/<machine kind>/latest.json (harness.mjs's
// machineKind(); --quick or --only: quick.json there, not committed) with the machine it ran on.
//
// The package is loaded from $SEQORDER_DIST/lib (default dist/lib): build it first (npm run build).
// The opt-in relaxed-SIMD module (loadSeqorder({ simd: 'relaxed' })) is a contender too where this node runs relaxed
// SIMD; node 20 needs --experimental-wasm-relaxed-simd, which the benchmark adds itself (rerunWithRelaxedSimd).
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';

import { RUN_SECTIONS, benchArgs, importPackage, machine } from './harness.mjs';
import { runText } from './render/run.mjs';
import { CLOCK, cpuSeconds, cpuSecondsAsync } from './clock.mjs';
import { measureSimdPeak, peakContenders } from './simd-peak.mjs';
import { benchTraining } from './model-train.mjs';
import { benchSchemes } from './model-schemes.mjs';
import { graphFile, WIDTH } from './make-onnx-graphs.mjs';
import { additiveCausalMask, measure, plainJsAttention, plainJsPositions, randomTensor } from '../web/js/bench-kernels.mjs';
import { maxAbsDiff } from '../web/js/experiments/reference.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// The contenders' packages: bench/package.json, installed by bench/run.sh (npm run bench), not by npm start.
const benchModules = path.join(root, 'bench', 'node_modules');
const SECTIONS = RUN_SECTIONS;
const argv = process.argv.slice(2);
const only = argv.includes('--only') ? argv[argv.indexOf('--only') + 1].split(',') : SECTIONS;
for (const section of only) if (!SECTIONS.includes(section)) throw new Error(`--only: unknown section '${section}' (known: ${SECTIONS.join(', ')})`);
// a partial run is written where a quick one is, never over latest.json
const { args, quick, jsonPath } = benchArgs('latest', 'quick', only.length < SECTIONS.length);

const settings = quick
  ? { lengths: [256, 1024], rounds: { 256: 7, 1024: 7 }, positionRounds: 7, sampleSeconds: 0.02, budgetSeconds: 1.5,
    trainingRounds: 3, trainingRoundSeconds: 0.15, torchSteps: 50, schemesRounds: 3, schemesRoundSeconds: 0.1 }
  : { lengths: [256, 1024, 4096], rounds: { 256: 15, 1024: 15, 4096: 5 }, positionRounds: 15, sampleSeconds: 0.03, budgetSeconds: 6,
    trainingRounds: 9, trainingRoundSeconds: 0.4, torchSteps: 200, schemesRounds: 9, schemesRoundSeconds: 0.25 };
// The reference asked for its steps returns three (T, T) matrices: 3 x 64 MiB at T = 4096, a copying benchmark.
const REFERENCE_MAX_T = 1024;
const POSITION_SHAPES = [[512, 512], [2048, 512]];

// ---- the log, node's flags -------------------------------------------------------------------------------------------
const log = (...a) => console.error(...a);  // progress on stderr, the table on stdout

// node 20 runs relaxed SIMD only behind a V8 flag. Where this node accepts the flag but was started without it, the
// benchmark runs again in a node started with it (once), so that `npm run bench` also measures the opt-in relaxed
// module; where it does not, the benchmark goes on without that contender.
const RELAXED_FLAG = '--experimental-wasm-relaxed-simd';
function rerunWithRelaxedSimd() {
  if (process.execArgv.includes(RELAXED_FLAG) || process.env.SEQORDER_BENCH_RERUN) return;
  if (spawnSync(process.execPath, [RELAXED_FLAG, '-e', '0'], { stdio: 'ignore' }).status !== 0) return;  // unknown flag
  log(`(rerunning in node ${RELAXED_FLAG}, so the relaxed-SIMD module is measured too)`);
  const argv = [RELAXED_FLAG, ...process.execArgv, fileURLToPath(import.meta.url), ...args];
  const { status, signal } = spawnSync(process.execPath, argv, { stdio: 'inherit', env: { ...process.env, SEQORDER_BENCH_RERUN: '1' } });
  process.exit(status ?? (signal ? 1 : 0));
}

// ---- the contenders' libraries ---------------------------------------------------------------------------------------
async function loadLibraries() {
  const { loadSeqorder } = await importPackage('model-entry.mjs');  // seqorder/model: the training contender makes models
  const so = await loadSeqorder();
  const relaxed = await loadSeqorder({ simd: 'relaxed' });
  const soRelaxed = relaxed.build === 'relaxed' ? relaxed : undefined;  // else this engine lacks relaxed SIMD
  if (!soRelaxed) {
    rerunWithRelaxedSimd();
    log('(no relaxed-SIMD contender: this engine does not run relaxed SIMD)');
  }

  const ort = await import('onnxruntime-web');
  ort.env.wasm.numThreads = 1;  // one thread, like every other contender
  ort.env.logLevel = 'error';
  const sessions = {};
  for (const causal of [false, true])
    sessions[causal] = await ort.InferenceSession.create(readFileSync(graphFile(causal)), { executionProviders: ['wasm'] });

  const tf = await import('@tensorflow/tfjs-core');
  // tfjs-core's gradients (for tf.variableGrads) ship only as ES modules node cannot load (extensionless imports); the
  // union package's node bundle registers them into this same tfjs-core
  await import('@tensorflow/tfjs');
  const { setWasmPaths } = await import('@tensorflow/tfjs-backend-wasm');
  setWasmPaths(path.join(benchModules, '@tensorflow', 'tfjs-backend-wasm', 'dist') + path.sep);  // no network
  tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);  // one thread
  if (!(await tf.setBackend('wasm'))) throw new Error('tfjs: the wasm backend did not initialize');
  await tf.ready();
  const versions = {
    seqorder: so.version,
    'onnxruntime-web': JSON.parse(readFileSync(path.join(benchModules, 'onnxruntime-web', 'package.json'), 'utf8')).version,
    '@tensorflow/tfjs-backend-wasm': JSON.parse(readFileSync(path.join(benchModules, '@tensorflow', 'tfjs-backend-wasm', 'package.json'), 'utf8')).version,
    tfjsSimd: tf.env().getBool('WASM_HAS_SIMD_SUPPORT'),
  };
  return { so, soRelaxed, ort, sessions, tf, versions };
}

// ---- attention ---------------------------------------------------------------------------------------------------------
/** The contenders for one attention case: [{ name, run }] over shared inputs; dispose() frees tfjs tensors. */
function attentionContenders({ so, soRelaxed, ort, sessions, tf }, T, causal) {
  const D = WIDTH;
  const q = randomTensor([T, D], 1), k = randomTensor([T, D], 2), v = randomTensor([T, D], 3);
  const out = new Float32Array(T * D);
  const feeds = { q: new ort.Tensor('float32', q.data, [T, D]), k: new ort.Tensor('float32', k.data, [T, D]), v: new ort.Tensor('float32', v.data, [T, D]) };
  const mask = causal ? additiveCausalMask(T) : undefined;
  if (causal) feeds.mask = new ort.Tensor('float32', mask, [T, T]);
  const tq = tf.tensor2d(q.data, [T, D]), tk = tf.tensor2d(k.data, [T, D]), tv = tf.tensor2d(v.data, [T, D]);
  const tScale = tf.scalar(1 / Math.sqrt(D)), tMask = causal ? tf.tensor2d(mask, [T, T]) : undefined;
  const contenders = [
    { name: 'seqorder', run: () => so.attention(q, k, v, { causal }).data },
    { name: 'seqorder, out', run: () => so.attention(q, k, v, { causal, out }).data },
  ];
  if (soRelaxed) contenders.push({ name: 'seqorder relaxed', run: () => soRelaxed.attention(q, k, v, { causal }).data });
  if (T <= REFERENCE_MAX_T)
    contenders.push({ name: 'seqorder reference (steps)', run: () => so.attention(q, k, v, { causal, steps: true }).output.data });
  contenders.push(
    { name: 'onnxruntime-web', run: async () => (await sessions[causal].run(feeds)).output.data },
    {
      name: 'tfjs-backend-wasm',
      run: () => {
        const result = tf.tidy(() => {
          let scaled = tf.mul(tf.matMul(tq, tk, false, true), tScale);
          if (causal) scaled = tf.add(scaled, tMask);
          return tf.matMul(tf.softmax(scaled), tv);
        });
        const data = result.dataSync();
        result.dispose();
        return data;
      },
    },
    { name: 'plain JS', run: () => plainJsAttention({ q: q.data, k: k.data, v: v.data, queries: T, keys: T, width: D, valueWidth: D, causal }) },
  );
  const dispose = () => tf.dispose([tq, tk, tv, tScale, ...(tMask ? [tMask] : [])]);
  return { contenders, dispose, flops: 4 * T * T * D * (causal ? 0.5 : 1) };
}

// ---- positions ---------------------------------------------------------------------------------------------------------
function positionContenders({ so }, length, width, dtype) {
  const Array = dtype === 'float32' ? Float32Array : Float64Array;
  const out = new Array(length * width), plainOut = new Array(length * width);
  return [
    { name: 'seqorder', run: () => so.positions(length, width, { dtype }).data },
    { name: 'seqorder, out', run: () => so.positions(length, width, { dtype, out }).data },
    { name: 'plain JS', run: () => plainJsPositions(length, width, { Array }) },
    { name: 'plain JS, out', run: () => plainJsPositions(length, width, { Array, out: plainOut }) },
  ];
}

// ---- running a case ----------------------------------------------------------------------------------------------------
/** Calls each contender once (compiling, growing heaps), checks it against plain JS, then times them. */
async function runCase(contenders, { rounds, tolerance, label }) {
  const plain = contenders.find((c) => c.name === 'plain JS');
  let plainResult;
  plain.once = await cpuSecondsAsync(async () => { plainResult = await plain.run(); });
  for (const c of contenders) {
    if (c === plain) continue;
    let result;
    c.once = await cpuSecondsAsync(async () => { result = await c.run(); });
    c.maxAbsDiffVsPlainJS = maxAbsDiff(result, plainResult);
    if (!(c.maxAbsDiffVsPlainJS <= tolerance))
      throw new Error(`${label}: ${c.name} differs from plain JS by ${c.maxAbsDiffVsPlainJS} (> ${tolerance}): not timing a wrong result`);
    // Very slow contenders get fewer rounds, so the whole run stays short.
    c.rounds = Math.max(1, Math.floor(settings.budgetSeconds / Math.max(c.once, 1e-9)));
  }
  plain.rounds = Math.max(1, Math.floor(settings.budgetSeconds / Math.max(plain.once, 1e-9)));
  let last = 0;
  const results = await measure(contenders, {
    rounds,
    sampleSeconds: settings.sampleSeconds,
    time: cpuSecondsAsync,
    onSample: (done, total) => {
      if (done === total || Date.now() - last > 2000) {
        last = Date.now();
        log(`  ${label}: ${done}/${total} samples`);
      }
    },
  });
  return results.map((r) => ({ ...r, rounds: r.samples.length, maxAbsDiffVsPlainJS: contenders.find((c) => c.name === r.name).maxAbsDiffVsPlainJS ?? 0 }));
}

/** Let V8 compile every contender's hot code with its optimizing tier before anything is timed. */
async function warmUp(libraries) {
  for (const causal of [false, true]) {
    const { contenders, dispose } = attentionContenders(libraries, 64, causal);
    for (let i = 0; i < 15; i++) for (const c of contenders) await c.run();
    dispose();
  }
  for (const dtype of ['float32', 'float64'])
    for (let i = 0; i < 15; i++) for (const c of positionContenders(libraries, 32, 64, dtype)) await c.run();
  await sleep(300);
}

// ---- main ----------------------------------------------------------------------------------------------------------------
const started = Date.now();
const report = { machine: machine(CLOCK), settings: { quick, only, ...settings, referenceMaxT: REFERENCE_MAX_T } };
log(`seqorder benchmark${quick ? ' (quick)' : ''} on ${report.machine.cpu}, ${report.machine.cores} cores, node ${report.machine.node}; load ${report.machine.loadAverage.join(' ')}`);
const libraries = await loadLibraries();
report.versions = libraries.versions;
await warmUp(libraries);

log('SIMD128 peak...');
report.simdPeak = await measureSimdPeak({ rounds: quick ? 3 : 5, milliseconds: quick ? 20 : 40, time: cpuSeconds });
const peak = report.simdPeak.gflops;
log(`  ${peak.toFixed(1)} GFLOP/s (${report.simdPeak.shape} x${report.simdPeak.chains})`);

report.attention = [];
for (const T of only.includes('attention') ? settings.lengths : []) {
  for (const causal of [false, true]) {
    const label = `attention T=${T}${causal ? ' causal' : ''}`;
    const { contenders, dispose, flops } = attentionContenders(libraries, T, causal);
    // float32 results of four implementations that sum in different orders: 1e-4 is far above their rounding
    // differences (~1e-6 here) and far below any real mistake (a wrong mask or scale changes outputs by ~1e-1).
    const results = await runCase(contenders, { rounds: settings.rounds[T], tolerance: 1e-4, label });
    dispose();
    for (const r of results) {
      r.gflops = flops / r.seconds / 1e9;
      r.fractionOfPeak = r.gflops / peak;
    }
    report.attention.push({ T, D: WIDTH, causal, dtype: 'float32', flops, results });
  }
}

report.positions = [];
for (const [length, width] of only.includes('positions') ? POSITION_SHAPES : []) {
  for (const dtype of ['float32', 'float64']) {
    const label = `positions ${length}x${width} ${dtype}`;
    // seqorder's table vs Math.sin/cos: within the documented ~1e-13 near t < 2048 in float64, a float32 rounding step
    const results = await runCase(positionContenders(libraries, length, width, dtype),
      { rounds: settings.positionRounds, tolerance: dtype === 'float32' ? 1.2e-7 : 1e-12, label });
    for (const r of results) r.nsPerElement = (r.seconds * 1e9) / (length * width);
    report.positions.push({ length, width, dtype, results });
  }
}
if (only.includes('training')) {
  log('model training...');
  report.training = await benchTraining({
    ...libraries, rounds: settings.trainingRounds, roundSeconds: settings.trainingRoundSeconds, torchSteps: settings.torchSteps,
    cpuSeconds, log, peaks: await peakContenders(5, cpuSeconds),  // ~5 ms a call
  });
}
if (only.includes('schemes')) {
  log("positions' cost...");
  report.schemes = benchSchemes({
    so: libraries.so, rounds: settings.schemesRounds, roundSeconds: settings.schemesRoundSeconds, cpuSeconds, log,
  });
}
report.seconds = (Date.now() - started) / 1000;

const text = runText(report);
console.log(text);
report.table = text;
mkdirSync(path.dirname(jsonPath), { recursive: true });
writeFileSync(jsonPath, `${JSON.stringify(report, null, 2)}\n`);
log(`wrote ${path.relative(process.cwd(), jsonPath)}`);
