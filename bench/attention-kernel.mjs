// The attention kernels alone, in one node process: seqorder's fused float32 fast path against its readable
// reference, and both against this machine's WebAssembly SIMD128 multiply+add peak.
//
//   node bench/attention-kernel.mjs [--quick] [--json out.json]     (package from $SEQORDER_DIST/lib, default dist/lib)
//
// GFLOP/s = 4·B·Tq·Tk·D / time (a multiply and an add per term of q·kᵀ and of weights·v); causal counts half.
// The kernels are called through the module's binding on tensors already in the WebAssembly heap, so no JS copying is
// timed. The reference is the same binding asked to keep one step (scores), which routes it to attention_reference.
// Times are the process's CPU time (so waiting for a busy core is not counted); rounds are interleaved (fast,
// reference, peak, fast, ...) and medians reported, so what noise remains hits all alike: compare the ratios.
//
// The peak: a hand-assembled WebAssembly function (below) whose loop is 8 independent f32x4 multiply+add pairs on
// registers (the microkernel's register shape: 8 accumulators, 4 broadcast values, 2 loaded vectors), i.e. the most a
// SIMD128 kernel without fused multiply-add can do on one core.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const lib = path.resolve(root, process.env.SEQORDER_DIST ?? 'dist', 'lib');
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const jsonPath = args.includes('--json') ? args[args.indexOf('--json') + 1] : undefined;

const { default: createCore } = await import(pathToFileURL(path.join(lib, 'seqorder_core.mjs')).href);
const core = await createCore({ wasmBinary: readFileSync(path.join(lib, 'seqorder_core.wasm')) });

// ---------------------------------------------------------------------------------------------------------------
// The SIMD128 peak: (func $peak (param $n i32) (result f32)) running $n iterations of
//   y0, y1 = v128.load(memory[(n & 255) * 32 + 0, 16])
//   acc[2r + h] += x[r] * y[h]      for r < 4, h < 2     (8 f32x4.mul + 8 f32x4.add = 64 flops)
// and returning a lane of the sum, so nothing can be optimized away.
function peakModule() {
  const u32 = (n) => { const out = []; do { let b = n & 0x7f; n >>>= 7; if (n) b |= 0x80; out.push(b); } while (n); return out; };
  const section = (id, bytes) => [id, ...u32(bytes.length), ...bytes];
  const simd = (op) => [0xfd, ...u32(op)];
  const F32X4_MUL = 0xe6, F32X4_ADD = 0xe4, F32X4_SPLAT = 0x13, V128_LOAD = 0x00, EXTRACT_LANE = 0x1f;
  const get = (i) => [0x20, i], set = (i) => [0x21, i], tee = (i) => [0x22, i];
  const acc = (i) => 1 + i, x = (r) => 9 + r, y = (h) => 13 + h, address = 15;  // local 0 is $n
  const body = [
    0x02, 14, 0x7b, 1, 0x7f,  // locals: 14 v128 (acc 1..8, x 9..12, y 13..14), 1 i32 (address 15)
  ];
  for (let r = 0; r < 4; r++) {
    const f = new Uint8Array(new Float32Array([1 + r / 8]).buffer);
    body.push(0x43, ...f, ...simd(F32X4_SPLAT), ...set(x(r)));
  }
  body.push(0x03, 0x40);  // loop
  body.push(...get(0), 0x41, ...[0xff, 0x01], 0x71, 0x41, 5, 0x74, ...set(address));  // (n & 255) << 5
  for (let h = 0; h < 2; h++) body.push(...get(address), ...simd(V128_LOAD), 4, 16 * h, ...set(y(h)));
  for (let r = 0; r < 4; r++)
    for (let h = 0; h < 2; h++)
      body.push(...get(acc(2 * r + h)), ...get(x(r)), ...get(y(h)), ...simd(F32X4_MUL), ...simd(F32X4_ADD), ...set(acc(2 * r + h)));
  body.push(...get(0), 0x41, 1, 0x6b, ...tee(0), 0x0d, 0, 0x0b);  // n -= 1; br_if loop; end
  body.push(...get(acc(0)), ...simd(EXTRACT_LANE), 0);
  for (let i = 1; i < 8; i++) body.push(...get(acc(i)), ...simd(EXTRACT_LANE), 0, 0x92);  // f32.add
  body.push(0x0b);
  const bytes = [
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, [1, 0x60, 1, 0x7f, 1, 0x7d]),                           // type: (i32) -> f32
    ...section(3, [1, 0]),                                                 // one function of that type
    ...section(5, [1, 0x00, 1]),                                           // memory: 1 page
    ...section(7, [1, 4, ...Buffer.from('peak'), 0x00, 0]),               // export "peak"
    ...section(10, [1, ...u32(body.length), ...body]),
  ];
  return new Uint8Array(bytes);
}

const peakBytes = peakModule();
if (!WebAssembly.validate(peakBytes)) throw new Error('the peak module does not validate');
const { instance: peakInstance } = await WebAssembly.instantiate(peakBytes);
const peak = peakInstance.exports.peak;
const PEAK_ITERATIONS = 2e7, PEAK_FLOPS = 64 * PEAK_ITERATIONS;

// ---------------------------------------------------------------------------------------------------------------
// Tensors in the heap, reused by every call of a configuration.
function heapTensor(count, seed) {
  const address = core._malloc(count * 4);
  if (!address) throw new RangeError(`out of memory allocating ${count} floats`);
  const view = new Float32Array(core.HEAPU8.buffer, address, count);
  let s = seed >>> 0;
  for (let i = 0; i < count; i++) {  // xorshift: reproducible values in [-1, 1)
    s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0;
    view[i] = s / 2 ** 31 - 1;
  }
  return address;
}

function setup(T, D, causal) {
  const q = heapTensor(T * D, 1), k = heapTensor(T * D, 2), v = heapTensor(T * D, 3);
  const output = heapTensor(T * D, 4);
  let scores = 0;
  const run = (keepScores) => {
    if (keepScores && !scores) scores = heapTensor(T * T, 5);
    const message = core.attention(output, keepScores ? scores : 0, 0, 0, q, k, v, true, 1, T, T, D, D, causal, false, 0);
    if (message) throw new RangeError(message);
  };
  const free = () => { for (const a of [q, k, v, output, scores]) if (a) core._free(a); };
  return { run, free, flops: 4 * T * T * D * (causal ? 0.5 : 1) };
}

// Seconds of this process's CPU time (user + system) spent in f: unlike wall time, it does not count the time the
// thread waits for a core, so it stays meaningful on a machine shared with other jobs (the sample is single-threaded).
const time = (f) => {
  const before = process.cpuUsage();
  f();
  const { user, system } = process.cpuUsage(before);
  return (user + system) / 1e6;
};
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor((s.length - 1) / 2)]; };

// Warm-up: V8 compiles wasm with its baseline compiler first and tiers hot functions up to TurboFan in the background;
// a long single call never switches mid-way. So call everything a few times on small sizes, and let compilation end.
{
  const small = setup(128, 64, false), smallCausal = setup(128, 64, true);
  for (let i = 0; i < 20; i++) { small.run(false); small.run(true); smallCausal.run(false); peak(1e5); }
  small.free(); smallCausal.free();
  await sleep(300);
  for (let i = 0; i < 5; i++) { peak(1e5); }
}

const sizes = quick ? [256, 1024] : [256, 1024, 4096];
const D = 64;
const rows = [];
for (const T of sizes)
  for (const causal of [false, true]) {
    const s = setup(T, D, causal);
    const fastTimes = [], referenceTimes = [], peakTimes = [];
    const fastRounds = T <= 1024 ? 7 : 5;
    const referenceRounds = quick ? 1 : T <= 1024 ? 3 : 1;
    // enough fast calls per sample to take ~50 ms
    const repeat = Math.max(1, Math.round(5e7 * 8 / s.flops));
    for (let round = 0; round < fastRounds; round++) {
      fastTimes.push(time(() => { for (let i = 0; i < repeat; i++) s.run(false); }) / repeat);
      if (round < referenceRounds) referenceTimes.push(time(() => s.run(true)));
      peakTimes.push(time(() => peak(PEAK_ITERATIONS)));
    }
    s.free();
    const fast = s.flops / median(fastTimes) / 1e9, reference = s.flops / median(referenceTimes) / 1e9;
    const peakGflops = PEAK_FLOPS / median(peakTimes) / 1e9;
    rows.push({ T, D, causal, fastGflops: fast, referenceGflops: reference, peakGflops, speedup: fast / reference,
                fractionOfPeak: fast / peakGflops, fastMs: median(fastTimes) * 1e3, referenceMs: median(referenceTimes) * 1e3 });
  }

const f1 = (x) => x.toFixed(1).padStart(7);
console.log(`seqorder attention kernels, float32, D = ${D}, one thread, node ${process.versions.node} (GFLOP/s, medians)`);
console.log('      T  mask      fast   reference  speedup   peak   fast/peak   fast ms');
for (const r of rows)
  console.log(`${String(r.T).padStart(7)}  ${r.causal ? 'causal' : 'none  '}  ${f1(r.fastGflops)}  ${f1(r.referenceGflops)}    ${f1(r.speedup)}x ${f1(r.peakGflops)}   ${(100 * r.fractionOfPeak).toFixed(0).padStart(5)}%   ${r.fastMs.toFixed(2).padStart(8)}`);
if (jsonPath) writeFileSync(jsonPath, JSON.stringify({ node: process.versions.node, rows }, null, 2) + '\n');
