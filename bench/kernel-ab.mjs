// Two or more builds of the fused attention kernel, timed against each other in one process (node, or a page in
// headless Chromium): on a shared machine whose speed swings between runs, only rounds interleaved in one process
// compare builds fairly. Each build is a standalone kernel module (the pool's, src/bindings/kernel.cpp:
// dist/lib/seqorder/seqorder_kernel.wasm, or build-wasm/seqorder_kernel.wasm of another checkout), instantiated on a
// memory of its own with the same q, k, v; their outputs must be the same bits before anything is timed.
//
//   node bench/kernel-ab.mjs [--chromium] [--T 1024] [--causal] [--kernel splat_in_loop] [--rounds 15] [--any-bits] a.wasm b.wasm ...
//
// --any-bits times builds whose outputs differ from the first's (and says which do): for measurement builds only, such
// as one with a part of the kernel left out to see what that part costs.
//
// Prints each build's GFLOP/s (4·T²·D per call, half for causal; D = 64) and its speed over the first build's: the
// median of the per-round ratios. In node the clock is this process's CPU time; in Chromium, the page's clock.
// (No node: imports up here: the page of --chromium imports this module.)
import { randomValues } from '../web/js/bench-kernels.mjs';
import { median } from '../web/js/median.mjs';
import { cpuSeconds } from './simd-peak.mjs';

const WIDTH = 64;
export const KERNELS = ['splat_in_loop', 'splat_per_block', 'splat_all_in_loop'];  // attentionKernels()'s order

/** One build on a memory of its own, its call written there: { name, run(), output() }. */
async function instantiate(name, bytes, { T, causal, kernel }) {
  // 16 MiB to start: more than the module's data and stack ask for (a memory import smaller than that fails to link)
  const memory = new WebAssembly.Memory({ initial: 256, maximum: 32768, shared: true });
  const { instance } = await WebAssembly.instantiate(bytes, { env: { memory } });
  const e = instance.exports;
  const floats = T * WIDTH;
  // the call (13 uint32, kernel_call.hpp), q, k, v, the output, the scratch: each on a 64-byte boundary
  const sizes = [13 * 4, floats * 4, floats * 4, floats * 4, floats * 4, e.scratch_bytes(T, WIDTH, WIDTH)];
  let at = Math.ceil(e.__heap_base.value / 64) * 64;
  const [call, q, k, v, output, scratch] = sizes.map((bytes) => {
    const start = at;
    at += Math.ceil(bytes / 64) * 64;
    return start;
  });
  const pages = Math.ceil(at / 65536) - memory.buffer.byteLength / 65536;
  if (pages > 0) memory.grow(pages);
  [q, k, v].forEach((address, i) => new Float32Array(memory.buffer, address, floats).set(randomValues(floats, i + 1)));
  new Uint32Array(memory.buffer, call, 13).set([output, q, k, v, 1, T, T, WIDTH, WIDTH, causal ? 1 : 0, 0, scratch,
    KERNELS.indexOf(kernel)]);
  return {
    name,
    run: () => e.attention_rows(call),
    output: () => new Uint32Array(memory.buffer, output, floats).slice(),
  };
}

/**
 * The builds (`[{ name, bytes }]`) timed in interleaved rounds by `time(f)` (seconds spent in f): [{ name, gflops,
 * overFirst, sameBits }]. Throws if their outputs differ in any bit, unless anyBits.
 */
export async function compareBuilds(builds, { T = 1024, causal = false, kernel = 'splat_in_loop', rounds = 15, anyBits = false, time }) {
  if (!KERNELS.includes(kernel)) throw new RangeError(`kernel-ab: --kernel is one of ${KERNELS.join(', ')}`);
  const runs = await Promise.all(builds.map((b) => instantiate(b.name, b.bytes, { T, causal, kernel })));
  for (const r of runs) for (let i = 0; i < 3; i++) r.run();  // warm: the optimizing compiler's code
  const first = runs[0].output();
  const sameBits = runs.map((r) => {
    const at = r.output().findIndex((x, i) => x !== first[i]);
    if (at >= 0 && !anyBits) throw new Error(`kernel-ab: ${r.name} differs from ${runs[0].name} at output element ${at}`);
    return at < 0;
  });
  const reps = Math.max(1, Math.round(0.1 / time(runs[0].run)));
  const seconds = runs.map(() => []);
  for (let round = 0; round < rounds; round++) {
    const order = runs.map((_, i) => i);
    if (round % 2) order.reverse();  // neither side always first
    for (const i of order) seconds[i].push(time(() => { for (let n = 0; n < reps; n++) runs[i].run(); }) / reps);
  }
  const flops = 4 * T * T * WIDTH * (causal ? 0.5 : 1);
  return runs.map((r, i) => ({
    name: r.name,
    gflops: flops / median(seconds[i]) / 1e9,
    overFirst: median(seconds[i].map((s, round) => seconds[0][round] / s)),
    sameBits: sameBits[i],
  }));
}

/** compareBuilds in headless Chromium: the builds' bytes handed to a page served from this repository. */
async function compareInChromium(builds, options) {
  const { inChromiumPage } = await import('./chromium-page.mjs');
  const { browser, result } = await inChromiumPage('kernel-ab', async ({ builds, options }) => {
    const wall = (f) => { const t0 = performance.now(); f(); return (performance.now() - t0) / 1000; };
    const decoded = builds.map((b) => ({ name: b.name, bytes: Uint8Array.from(atob(b.base64), (c) => c.charCodeAt(0)) }));
    return (await import('/bench/kernel-ab.mjs')).compareBuilds(decoded, { ...options, time: wall });
  }, { builds: builds.map((b) => ({ name: b.name, base64: Buffer.from(b.bytes).toString('base64') })), options });
  return { browser, results: result };
}

async function main() {
  const { readFileSync } = await import('node:fs');
  const args = process.argv.slice(2);
  const option = (name, fallback) => {
    const at = args.indexOf(name);
    if (at < 0) return fallback;
    const [value] = args.splice(at, 2).slice(1);
    return value;
  };
  const flag = (name) => (args.includes(name) ? (args.splice(args.indexOf(name), 1), true) : false);
  const chromium = flag('--chromium'), causal = flag('--causal'), anyBits = flag('--any-bits');
  const T = Number(option('--T', 1024)), rounds = Number(option('--rounds', 15)), kernel = option('--kernel', 'splat_in_loop');
  if (!Number.isInteger(T) || T < 1 || !Number.isInteger(rounds) || rounds < 1 || args.length < 2) {
    console.error('usage: node bench/kernel-ab.mjs [--chromium] [--T n] [--causal] [--kernel name] [--rounds n] [--any-bits] a.wasm b.wasm ...');
    process.exit(1);
  }
  const builds = args.map((file) => ({ name: file, bytes: readFileSync(file) }));
  const options = { T, causal, kernel, rounds, anyBits };
  let where, results;
  if (chromium) {
    ({ browser: where, results } = await compareInChromium(builds, options));
  } else {
    where = `node ${process.versions.node} (CPU time)`;
    results = await compareBuilds(builds, { ...options, time: cpuSeconds });
  }
  const bits = results.every((r) => r.sameBits) ? 'the same bits from every build' : 'outputs differ (--any-bits: measurement builds)';
  console.log(`${where}; T = ${T}${causal ? ' causal' : ''}, D = ${WIDTH}, ${kernel}, ${rounds} rounds; ${bits}`);
  for (const r of results) {
    console.log(`${r.name.padEnd(50)} ${r.gflops.toFixed(1).padStart(6)} GFLOP/s  ${r.overFirst.toFixed(3)}x the first${r.sameBits ? '' : '  (other bits)'}`);
  }
}
if (typeof process !== 'undefined' && process.argv?.[1] && import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error) => {
    console.error(error.message);
    process.exit(1);
  });
}
