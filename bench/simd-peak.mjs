// This machine's WebAssembly SIMD128 float32 peak on one core: how many f32x4 multiplies and adds per second the engine
// runs when nothing else (loads, stores, dependencies) is in the way. Each benchmark kernel reports its GFLOP/s as a
// fraction of it.
//
// A tiny module assembled by hand below (no toolchain needed), one function per loop shape:
//   (func (param $n i32) (param $m f32) (param $c f32) (result f32))
// running $n iterations of a loop body with `chains` independent accumulators in v128 locals:
//   'mul+add'  a_j = a_j * m + c          (a multiply then an add per chain: 8 flops; the shape of a dot product)
//   'mul|add'  a_j = a_j * m  or  a_j = a_j + c, half the chains each (multiplies and adds that do not wait on each
//              other: what the two kinds of execution units can do together)
//   'tree'     per chain, the products of 4 values x_r (m, 2m, 3m, 4m, in registers) and a vector y loaded from memory
//              every iteration, added as a tree and then to the chain: a_j = a_j + ((x_0 y + x_1 y) + (x_2 y + x_3 y)),
//              2 chains of 4 multiplies and 4 adds, a load each. y is zeros, at an address that changes every 1024
//              iterations (copyAddress), so the engine can neither know it nor move anything out of the loop (V8 14
//              moves a load from a constant address out of a loop that stores nothing, and then the products). Only
//              the last add waits on the previous iteration, so the operations in flight are not bounded by the number
//              of chains (where a multiply or an add takes longer than 12 chains can hide, this shape still fills the
//              vector ports). The x_r differ so that no two products are alike (the engine would compute such products
//              once).
// m and c are parameters (1 and 0 at run time, so values stay finite and normal), which keeps the engine from folding
// anything. The peak is the best of these shapes and chain counts; 4 flops per f32x4 operation.
import { median } from '../web/js/median.mjs';
import { OP, get, i32, name, section, set, simd, tee, u32, vector } from './wasm-bytes.mjs';

/**
 * Bytes that leave on the stack an address that changes as a loop runs: $n & COPY_BYTES (local `counter` is $n, which
 * the loop counts down), 0 or COPY_BYTES, switching every 1024 iterations. Loads at it (plus an offset) from memory
 * that holds the same values in both copies cannot be moved out of the loop: V8 14 (node 26, Chromium) moves a load
 * from a constant address out of a loop that stores nothing, and then the arithmetic on it.
 */
export const COPY_BYTES = 1024;
export const copyAddress = (counter) => [...get(counter), 0x41, ...i32(COPY_BYTES), 0x71];  // local.get; i32.const; i32.and

/** Body of one function: locals 0..2 are the parameters, 3 = splat(m), 4 = splat(c), 5.. the chains. */
function body(shape, chains) {
  const M = 3, C = 4, chain = (j) => 5 + j;
  const code = [...get(1), ...simd(OP.F32X4_SPLAT), ...set(M), ...get(2), ...simd(OP.F32X4_SPLAT), ...set(C)];
  for (let j = 0; j < chains; j++) code.push(...get(M), ...set(chain(j)));  // every chain starts at (1, 1, 1, 1)
  // 'tree': x_r = (r + 1) m in the 4 locals after the chains, the loaded y in the one after those
  const x = (r) => 5 + chains + r, y = 5 + chains + 4;
  if (shape === 'tree') {
    code.push(...get(M), ...set(x(0)));
    for (let r = 1; r < 4; r++) code.push(...get(x(r - 1)), ...get(M), ...simd(OP.F32X4_ADD), ...set(x(r)));
  }
  const product = (r) => [...get(x(r)), ...get(y), ...simd(OP.F32X4_MUL)];
  code.push(0x03, 0x40);  // loop (no result)
  for (let j = 0; j < chains; j++) {
    if (shape === 'tree')  // y from copyAddress + 16 j
      code.push(...copyAddress(0), ...simd(OP.V128_LOAD), 4, ...u32(16 * j), ...set(y), ...get(chain(j)),
                ...product(0), ...product(1), ...simd(OP.F32X4_ADD), ...product(2), ...product(3), ...simd(OP.F32X4_ADD),
                ...simd(OP.F32X4_ADD), ...simd(OP.F32X4_ADD), ...set(chain(j)));
    else if (shape === 'mul+add')
      code.push(...get(chain(j)), ...get(M), ...simd(OP.F32X4_MUL), ...get(C), ...simd(OP.F32X4_ADD), ...set(chain(j)));
    else if (j % 2 === 0) code.push(...get(chain(j)), ...get(M), ...simd(OP.F32X4_MUL), ...set(chain(j)));
    else code.push(...get(chain(j)), ...get(C), ...simd(OP.F32X4_ADD), ...set(chain(j)));
  }
  // $n = $n - 1; br_if loop ($n != 0)
  code.push(...get(0), 0x41, 1, 0x6b, ...tee(0), 0x0d, 0, 0x0b);
  // result: sum of lane 0 of every chain, so no chain is dead code
  code.push(0x43, 0, 0, 0, 0);
  for (let j = 0; j < chains; j++) code.push(...get(chain(j)), ...simd(OP.F32X4_EXTRACT_LANE), 0, 0x92);
  code.push(0x0b);
  const locals = [...u32(1), ...u32(2 + chains + (shape === 'tree' ? 5 : 0)), 0x7b];  // one run of v128 locals
  return [...u32(locals.length + code.length), ...locals, ...code];
}

export const SHAPES = [
  { shape: 'mul+add', chains: 8, flopsPerChain: 8 },
  { shape: 'mul+add', chains: 12, flopsPerChain: 8 },
  { shape: 'mul|add', chains: 8, flopsPerChain: 4 },
  { shape: 'mul|add', chains: 12, flopsPerChain: 4 },
  { shape: 'tree', chains: 2, flopsPerChain: 32 },
];

/** The module's bytes: one exported function per entry of SHAPES, named `${shape} x${chains}`. */
export function peakModuleBytes() {
  const type = [0x60, ...vector([[0x7f], [0x7d], [0x7d]]), ...vector([[0x7d]])];  // (i32, f32, f32) -> f32
  return Uint8Array.from([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, vector([type])),
    ...section(3, vector(SHAPES.map(() => [0]))),
    ...section(5, vector([[0x00, 1]])),  // a memory of one page, all zeros: the tree's y
    ...section(7, vector(SHAPES.map((s, i) => [...name(`${s.shape} x${s.chains}`), 0x00, ...u32(i)]))),
    ...section(10, vector(SHAPES.map((s) => body(s.shape, s.chains)))),
  ]);
}

/** Wall-clock seconds spent in f. */
export function wallSeconds(f) {
  const t0 = performance.now();
  f();
  return (performance.now() - t0) / 1000;
}

/**
 * The loop shapes, compiled and warmed up: [{ shape, chains, flopsPerIteration, run(iterations) }]. run returns the
 * loop's result, checked to be the exact value (so the engine cannot have skipped work).
 */
export async function simdPeakLoops() {
  const { instance } = await WebAssembly.instantiate(peakModuleBytes());
  const loops = SHAPES.map((s) => {
    const fn = instance.exports[`${s.shape} x${s.chains}`];
    return {
      shape: s.shape,
      chains: s.chains,
      flopsPerIteration: s.chains * s.flopsPerChain,
      run(iterations) {
        const sum = fn(iterations, 1, 0);
        if (sum !== s.chains) throw new Error(`SIMD peak: the ${s.shape} x${s.chains} loop returned ${sum}, not ${s.chains}`);
        return sum;
      },
    };
  });
  // Warm-up: V8 runs a new function in its baseline compiler and optimizes hot ones in the background, and a running
  // call never switches: so call each a few times, and give the optimizing compiler time.
  for (let i = 0; i < 20; i++) for (const loop of loops) loop.run(10000);
  await new Promise((resolve) => setTimeout(resolve, 200));
  return loops;
}

/** How many iterations of `loop` take about `milliseconds` by `time` (seconds spent in a function). */
export function calibrate(loop, milliseconds, time = wallSeconds) {
  for (let n = 100000; ; n *= 4) {
    const elapsed = time(() => loop.run(n)) * 1000;
    if (elapsed > milliseconds / 4) return Math.max(1, Math.round((n * milliseconds) / elapsed));
  }
}

const label = ({ shape, chains }) => `${shape} x${chains}`;

/**
 * Every loop shape as a contender of its own, each call about `milliseconds` long by `time`: [{ name, shape, chains,
 * flops (of one call), run() }]. Timed in the same rounds as the code whose share of the peak they give, the peak of
 * each round is its fastest shape (roundPeaks): no short search beforehand picks one shape for the whole run (on a
 * core where two shapes are within a few percent, which one such a search picked moved the shares by as much).
 */
export async function peakContenders(milliseconds, time = wallSeconds) {
  return (await simdPeakLoops()).map((loop) => {
    const iterations = calibrate(loop, milliseconds, time);
    return { name: `peak: ${label(loop)}`, shape: loop.shape, chains: loop.chains,
      flops: iterations * loop.flopsPerIteration, run: () => loop.run(iterations) };
  });
}

/**
 * The peak in each round from the rounds of peakContenders' shapes: `gflops(contender)` gives that shape's GFLOP/s in
 * each round. Returns { rounds (each round's fastest GFLOP/s), fastest (each round's fastest shape, as `${shape}
 * x${chains}`), gflops (the median of rounds), shape and chains (the shape fastest in the most rounds), shapes:
 * [{ shape, chains, gflops (its median) }], inRounds: true }.
 */
export function roundPeaks(contenders, gflops) {
  const rates = contenders.map(gflops);
  const fastest = rates[0].map((_, r) => rates.reduce((best, s, i) => (s[r] > rates[best][r] ? i : best), 0));
  return peakOfRounds(contenders, fastest.map((i, r) => rates[i][r]), fastest.map((i) => label(contenders[i])),
    contenders.map((c, i) => ({ shape: c.shape, chains: c.chains, gflops: median(rates[i]) })));
}

/** GFLOP/s in each round, from a contender's samples in seconds per call of `flops` (bench-kernels' measure()). */
export const gflopsPerRound = (samples, flops) => samples.map((seconds) => flops / seconds / 1e9);

/** roundPeaks of peakContenders timed by bench-kernels' measure(): `byName`, its results by contender name. */
export const measuredPeaks = (contenders, byName) =>
  roundPeaks(contenders, (p) => gflopsPerRound(byName[p.name].samples, p.flops));

/** Several roundPeaks of the same contenders as one (the rounds of every case of a benchmark): the same fields. */
export const joinRoundPeaks = (contenders, peaks) => peakOfRounds(contenders, peaks.flatMap((p) => p.rounds),
  peaks.flatMap((p) => p.fastest),
  contenders.map((c, i) => ({ shape: c.shape, chains: c.chains, gflops: median(peaks.map((p) => p.shapes[i].gflops)) })));

function peakOfRounds(contenders, rounds, fastest, shapes) {
  const wins = contenders.map((c) => fastest.filter((f) => f === label(c)).length);
  const most = contenders[wins.indexOf(Math.max(...wins))];
  return { rounds, fastest, gflops: median(rounds), shape: most.shape, chains: most.chains, shapes, inRounds: true };
}

/** How a report names its peak: the loop shape, or for roundPeaks' the shape fastest in the most rounds. */
export const peakName = (peak) => (peak.inRounds ? `each round's fastest loop, most often ${label(peak)}` : label(peak));

/** A share of the peak: the median over rounds of `gflops[r]` (a contender's GFLOP/s in round r) ÷ that round's peak. */
export const shareOfPeak = (gflops, peak) => median(gflops.map((g, r) => g / peak.rounds[r]));

/**
 * Measures each loop shape `rounds` times for about `milliseconds` each (interleaved), keeps each shape's median,
 * and returns the best: { gflops, shape, chains, shapes: [{ shape, chains, gflops }] }.
 */
export async function measureSimdPeak({ rounds = 5, milliseconds = 40, time = wallSeconds } = {}) {
  const run = (await simdPeakLoops()).map((loop) => ({ loop, iterations: calibrate(loop, milliseconds, time), samples: [] }));
  for (let round = 0; round < rounds; round++)
    for (const r of run) {
      const seconds = time(() => r.loop.run(r.iterations));
      r.samples.push((r.iterations * r.loop.flopsPerIteration) / seconds / 1e9);
    }
  const shapes = run.map((r) => ({ shape: r.loop.shape, chains: r.loop.chains, gflops: median(r.samples) }));
  const best = shapes.reduce((a, b) => (b.gflops > a.gflops ? b : a));
  return { gflops: best.gflops, shape: best.shape, chains: best.chains, shapes };
}

if (typeof process !== 'undefined' && import.meta.url === `file://${process.argv[1]}`) {  // (not in the page of simd-loads --chromium)
  const { cpuSeconds } = await import('./clock.mjs');
  const peak = await measureSimdPeak({ time: process.argv.includes('--wall') ? wallSeconds : cpuSeconds });
  for (const s of peak.shapes) console.log(`${s.shape.padEnd(8)} x${String(s.chains).padEnd(3)} ${s.gflops.toFixed(1)} GFLOP/s`);
  console.log(`peak: ${peak.gflops.toFixed(1)} GFLOP/s (${peak.shape} x${peak.chains})`);
}
