// The fused float32 attention kernel alone and through the JS API, against this machine's WebAssembly SIMD128 peak,
// in one node process:
//
//   node bench/attention-kernel.mjs [--quick] [--wall] [--json out.json]   (package from $SEQORDER_DIST/lib, default dist/lib)
//
// The report goes to bench/results/<machine kind>/kernel.json (kernel-quick.json with --quick), or --json's path.
//
// For T = 256, 1024, 4096 (--quick: 256, 1024), D = 64, causal and not, interleaved rounds of:
//   - the kernel alone: the module's binding called on tensors already in the WebAssembly heap (its output is
//     allocated in the heap and freed, nothing is copied);
//   - the API (the package's own API over the same module instance), with `out` and with a new output array per
//     call: what copying in and out of the heap and allocating cost on top of the kernel;
//   - the readable reference (the binding asked for the steps, which routes it to attention_reference; T <= 1024);
//   - the SIMD128 peak (bench/simd-peak.mjs: each of its loop shapes, a contender of its own), so each row's "% of
//     peak" is a median of per-round ratios to the peak of the same round, its fastest loop.
// GFLOP/s = 4·B·Tq·Tk·D / time (a multiply and an add per term of q·kᵀ and of weights·v); causal counts half.
// Times are the CPU time of the thread that runs the calls by default (bench/clock.mjs: waiting for a busy core is not
// counted, nor V8's helper threads), or wall time with --wall (what a caller waits, GC pauses included).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { benchArgs, gitDescribe, machineKind } from './harness.mjs';
import { cpuSeconds, cpuSecondsAsync } from './clock.mjs';
import { gflopsPerRound, joinRoundPeaks, measuredPeaks, peakContenders, peakName, shareOfPeak, wallSeconds } from './simd-peak.mjs';
import { measure, speedup, wallSeconds as wallSecondsAsync } from '../web/js/bench-kernels.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const lib = path.resolve(root, process.env.SEQORDER_DIST ?? 'dist', 'lib');
const { args, quick, jsonPath } = benchArgs('kernel', 'kernel-quick');
const wall = args.includes('--wall');

const { default: createCore } = await import(pathToFileURL(path.join(lib, 'seqorder_core.mjs')).href);
const { makeApi } = await import(pathToFileURL(path.join(lib, 'api.mjs')).href);
const { bindCalls } = await import(pathToFileURL(path.join(lib, 'binding.mjs')).href);
const core = bindCalls(await createCore({ wasmBinary: readFileSync(path.join(lib, 'seqorder', 'seqorder_core.wasm')) }));
const api = makeApi(core);

/** The clock of every measurement, for a possibly async f (measure() awaits its contenders). */
const time = wall ? wallSecondsAsync : cpuSecondsAsync;

// The reference asked for its steps returns three (T, T) matrices: 3 x 64 MiB at T = 4096, a copying benchmark.
const REFERENCE_MAX_T = 1024;

// ---------------------------------------------------------------------------------------------------------------
/** Reproducible values in [-1, 1) (xorshift). */
function values(count, seed) {
  const out = new Float32Array(count);
  let s = seed >>> 0;
  for (let i = 0; i < count; i++) {
    s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0;
    out[i] = s / 2 ** 31 - 1;
  }
  return out;
}

/** Heap copies of q, k, v (T, D); the binding's call on them; the same tensors for the API. */
function setup(T, D, causal) {
  const tensors = [1, 2, 3].map((seed) => ({ data: values(T * D, seed), shape: [T, D], dtype: 'float32' }));
  const [q, k, v] = tensors.map((t) => {
    const address = core._malloc(t.data.byteLength);
    if (!address) throw new RangeError(`out of memory allocating ${t.data.length} floats`);
    core.HEAPU8.set(new Uint8Array(t.data.buffer), address);
    return { address, count: t.data.length, dtype: 'float32', shape: t.shape };
  });
  // The binding (src/bindings/embind.cpp, through binding.mjs): one object of arguments, the results' blocks handed
  // over (freed here unread). steps: true routes the call to the reference.
  const kernel = (steps = false) => {
    const outcome = core.attention({ q, k, v, causal, queryStart: undefined, steps, outLength: undefined });
    if (outcome.error !== undefined) throw new RangeError(outcome.error);
    for (const result of outcome.results) core._free(result.address);
  };
  const out = new Float32Array(T * D);
  const contenders = [
    { name: 'kernel', run: () => kernel() },
    { name: 'API, out', run: () => api.attention(...tensors, { causal, out }) },
    { name: 'API, new output', run: () => api.attention(...tensors, { causal }) },
  ];
  if (T <= REFERENCE_MAX_T) contenders.push({ name: 'reference', run: () => kernel(true), rounds: 3 });
  const free = () => { for (const t of [q, k, v]) core._free(t.address); };
  return { contenders, free, flops: 4 * T * T * D * (causal ? 0.5 : 1) };
}

// ---------------------------------------------------------------------------------------------------------------
// The peak: simd-peak.mjs's loop shapes, each a contender of its own (~25 ms a call).
const peaks = await peakContenders(25, wall ? wallSeconds : cpuSeconds);
const casePeaks = [];

// Warm-up: V8 compiles wasm with its baseline compiler first and tiers hot functions up in the background; a long
// call never switches mid-way. So call everything a few times on a small size, and let compilation end.
for (let round = 0; round < 3; round++) {
  for (const causal of [false, true]) {
    const small = setup(256, 64, causal);
    for (const c of small.contenders) for (let i = 0; i < (c.name === 'reference' ? 2 : 20); i++) c.run();
    small.free();
  }
  await new Promise((resolve) => setTimeout(resolve, 200));
}
const D = 64;
const rows = [];
for (const T of quick ? [256, 1024] : [256, 1024, 4096])
  for (const causal of [false, true]) {
    const s = setup(T, D, causal);
    const results = await measure([...s.contenders, ...peaks], { rounds: T > 1024 ? 5 : 9, sampleSeconds: 0.05, time });
    s.free();
    const byName = Object.fromEntries(results.map((r) => [r.name, r]));
    const peak = measuredPeaks(peaks, byName);
    casePeaks.push(peak);
    for (const r of results) {
      if (peaks.some((p) => p.name === r.name)) continue;
      rows.push({
        T, D, causal, name: r.name, ms: r.seconds * 1e3, gflops: s.flops / r.seconds / 1e9,
        peakGflops: peak.gflops, fractionOfPeak: shareOfPeak(gflopsPerRound(r.samples, s.flops), peak),
        // the API's speed over the kernel's
        fractionOfKernel: r.name.startsWith('API') ? speedup(r, byName.kernel) : undefined,
      });
    }
  }

// ---------------------------------------------------------------------------------------------------------------
const f1 = (x, w = 7) => (x === undefined ? '' : x.toFixed(1)).padStart(w);
const pct = (x, w = 6) => (x === undefined ? '' : `${(100 * x).toFixed(0)}%`).padStart(w);
console.log(`seqorder attention, float32, D = ${D}, one thread: ${os.cpus()[0]?.model} (${machineKind()}), node ${process.versions.node}, ` +
  `load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}; ${wall ? 'wall' : 'CPU'} time, medians of interleaved rounds`);
const simdPeak = joinRoundPeaks(peaks, casePeaks);
console.log(`SIMD128 peak (bench/simd-peak.mjs, ${peakName(simdPeak)}): ${simdPeak.gflops.toFixed(1)} GFLOP/s`);
console.log('      T  mask    contender           GFLOP/s  % of peak  % of kernel        ms');
for (const r of rows)
  console.log(`${String(r.T).padStart(7)}  ${r.causal ? 'causal' : 'none  '}  ${r.name.padEnd(18)}` +
    `${f1(r.gflops, 9)}  ${pct(r.fractionOfPeak, 9)}  ${pct(r.fractionOfKernel, 11)}  ${r.ms.toFixed(2).padStart(8)}`);
mkdirSync(path.dirname(jsonPath), { recursive: true });
writeFileSync(jsonPath, JSON.stringify({
  node: process.versions.node, cpu: os.cpus()[0]?.model, kind: machineKind(), date: new Date().toISOString(), commit: gitDescribe(),
  loadAverage: os.loadavg(), clock: wall ? 'wall' : 'cpu',
  simdPeak, rows,
}, null, 2) + '\n');
console.log(`wrote ${path.relative(process.cwd(), jsonPath)}`);
