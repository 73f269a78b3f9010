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
// The peak: a hand-assembled WebAssembly function (below) whose loop is 7 independent f32x4.mul chains and 7 independent
// f32x4.add chains on registers, i.e. as many multiplies and adds per second as one core can issue; GFLOP/s counts 4
// per instruction, as the kernels' 4·T²·D counts a multiply and an add per term. (Beware a tempting alternative:
// `acc += x * y` with x and y fixed in registers lets V8 hoist the loop-invariant multiply out of the loop, and then
// "measures" about twice the real rate: ~50 GFLOP/s on this machine kind.)
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const lib = path.resolve(root, process.env.SEQORDER_DIST ?? 'dist', 'lib');
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const jsonPath = args.includes('--json') ? args[args.indexOf('--json') + 1] : undefined;

const { default: createCore } = await import(pathToFileURL(path.join(lib, 'seqorder_core.mjs')).href);
const core = await createCore({ wasmBinary: readFileSync(path.join(lib, 'seqorder', 'seqorder_core.wasm')) });

// ---------------------------------------------------------------------------------------------------------------
// The SIMD128 peak: (func $peak (param $n i32) (result f32)) running $n iterations of
//   m[i] = m[i] * c   for i < 7      (7 independent multiply chains)
//   a[i] = a[i] + c   for i < 7      (7 independent add chains)
// 14 instructions = 56 flops per iteration; 7 chains of each hide the 4-cycle latencies, 15 v128 registers in all (V8
// keeps one of x64's 16 as scratch). The lanes of the results are summed and returned, so nothing can be dropped.
const PEAK_CHAINS = 7;
function peakModule() {
  const u32 = (n) => { const out = []; do { let b = n & 0x7f; n >>>= 7; if (n) b |= 0x80; out.push(b); } while (n); return out; };
  const section = (id, bytes) => [id, ...u32(bytes.length), ...bytes];
  const simd = (op) => [0xfd, ...u32(op)];
  const F32X4_MUL = 0xe6, F32X4_ADD = 0xe4, F32X4_SPLAT = 0x13, EXTRACT_LANE = 0x1f;
  const F32_CONST = 0x43, F32_ADD = 0x92, LOCAL_GET = 0x20, LOCAL_SET = 0x21, LOCAL_TEE = 0x22;
  const get = (i) => [LOCAL_GET, i], set = (i) => [LOCAL_SET, i];
  const f32 = (x) => [F32_CONST, ...new Uint8Array(new Float32Array([x]).buffer)];
  const chains = 2 * PEAK_CHAINS, c = 1 + chains;  // local 0 is $n; 1..14 the chains; 15 the constant
  const body = [0x01, chains + 1, 0x7b];            // locals: 15 v128
  body.push(...f32(1.0000001), ...simd(F32X4_SPLAT), ...set(c));
  for (let i = 1; i <= chains; i++) body.push(...f32(1), ...simd(F32X4_SPLAT), ...set(i));
  body.push(0x03, 0x40);                                                        // loop
  for (let i = 1; i <= PEAK_CHAINS; i++) {
    body.push(...get(i), ...get(c), ...simd(F32X4_MUL), ...set(i));                              // m *= c
    body.push(...get(PEAK_CHAINS + i), ...get(c), ...simd(F32X4_ADD), ...set(PEAK_CHAINS + i));  // a += c
  }
  body.push(...get(0), 0x41, 1, 0x6b, LOCAL_TEE, 0, 0x0d, 0, 0x0b);           // n -= 1; br_if loop; end
  body.push(...get(1), ...simd(EXTRACT_LANE), 0);
  for (let i = 2; i <= chains; i++) body.push(...get(i), ...simd(EXTRACT_LANE), 0, F32_ADD);
  body.push(0x0b);
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, [1, 0x60, 1, 0x7f, 1, 0x7d]),                // type: (i32) -> f32
    ...section(3, [1, 0]),                                      // one function of that type
    ...section(7, [1, 4, ...Buffer.from('peak'), 0x00, 0]),    // export "peak"
    ...section(10, [1, ...u32(body.length), ...body]),
  ]);
}

const peakBytes = peakModule();
if (!WebAssembly.validate(peakBytes)) throw new Error('the peak module does not validate');
const { instance: peakInstance } = await WebAssembly.instantiate(peakBytes);
const peak = peakInstance.exports.peak;
const PEAK_ITERATIONS = 2e7, PEAK_FLOPS = 2 * PEAK_CHAINS * 4 * PEAK_ITERATIONS;

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
for (let round = 0; round < 3; round++) {
  const small = setup(256, 64, false), smallCausal = setup(256, 64, true);
  for (let i = 0; i < 30; i++) { small.run(false); smallCausal.run(false); }
  for (let i = 0; i < 2; i++) small.run(true);
  for (let i = 0; i < 3; i++) peak(1e6);
  small.free(); smallCausal.free();
  await sleep(200);
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
console.log(`seqorder attention kernels, float32, D = ${D}, one thread, node ${process.versions.node}, load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')} (GFLOP/s by CPU time, medians)`);
console.log('      T  mask      fast   reference  speedup   peak   fast/peak   fast ms');
for (const r of rows)
  console.log(`${String(r.T).padStart(7)}  ${r.causal ? 'causal' : 'none  '}  ${f1(r.fastGflops)}  ${f1(r.referenceGflops)}    ${f1(r.speedup)}x ${f1(r.peakGflops)}   ${(100 * r.fractionOfPeak).toFixed(0).padStart(5)}%   ${r.fastMs.toFixed(2).padStart(8)}`);
if (jsonPath) writeFileSync(jsonPath, JSON.stringify({ node: process.versions.node, cpu: os.cpus()[0]?.model, loadAverage: os.loadavg(), rows }, null, 2) + '\n');
