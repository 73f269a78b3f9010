// What a vector load costs beside f32x4 multiplies and adds on this machine's core: the attention kernel's inner loop
// (a tile of rows x columns of four-lane accumulators, acc[r][c] += a[r] * b[c], a multiply then an add) with its
// operands taken from memory or from registers, each loop shape's speed given as a share of the SIMD128 peak measured
// in the same rounds (bench/simd-peak.mjs).
//
//   node bench/simd-loads.mjs [--quick] [--chromium | --browser firefox|webkit] [--json out.json]
// (default bench/results/<machine kind>/simd-loads.json; --quick: 5 rounds, into simd-loads-quick.json, not committed;
// --chromium: the same loops in headless Chromium (Debian's, or $CHROMIUM), whose V8 is newer than node's, timed by the
// page's clock, into simd-loads-chromium.json; --browser firefox or webkit: in a page of that test engine, into
// simd-loads-firefox.json or simd-loads-webkit.json)
//
// The loops are assembled by hand below (no toolchain needed), like simd-peak's. Most load their operands from the same
// few addresses (the L1 cache, no pointer to move on; one `and` an iteration picks one of two copies: copyAddress),
// so what differs from shape to shape is only how many loads come with the 8 multiplies and 8 adds of a 4 x 8 tile
// step, or the 10 and 10 of a 5 x 8 one:
//   '4x8, 6 loads'       b (2 vectors) and the 4 rows' a, splatted in memory: the kernel's scores step (splat_in_loop)
//   '4x8, 2 + 4 splats'  b, and the 4 rows' a by load_splat (x64: vbroadcastss): the kernel's weighted-sum step
//   '4x8, 4 loads'       b, 2 rows' a loaded, 2 held in registers
//   '4x8, 2 loads'       b only, the 4 rows' a held in registers (the tile no kernel can have: a changes every step;
//                        with 16 v128 values live it is one more than V8 11.3 allocates, which keeps an accumulator on
//                        the stack)
//   '5x8, 7 loads'       a 5-row tile: 10 accumulators, 2 loads of b and 5 of a for 20 multiplies and adds
//   '2x16, 6 loads'      a 2-row, 16-column tile: b 4 vectors, a 2 rows splatted in memory (the same counts as 4 x 8)
//   '2x16, 4 + 2 splats' the same with a by load_splat (the kernel's tile transposed: 16 query rows in the lanes of 4
//                        vectors, 2 keys splatted)
//   '3x12, 3 + 3 splats' a 3-row, 12-column tile: 9 accumulators, 6 loads for 18 multiplies and adds
//   '4x8, 3 loads + 3 rotations'  b, and the 4 rows' a as one vector (a row in each lane) rotated by 1, 2 and 3 lanes
//                        (i8x16.shuffle): each accumulator a diagonal of the tile, 3 loads but 3 shuffles
//   '4x8, 3 loads + 4 shuffles'   b, and the same vector of a with each lane splatted by a shuffle
// and some that walk through memory as the kernel does ('…, walking': each step's operands at the next addresses,
// 64 steps a tile, as the scores step walks a key panel of D = 64 and the splatted queries).
// Where the loads go through ports of their own, beside the vector pipes, every shape can run near the peak; where
// something they share with the arithmetic binds (dispatch, scheduling, or a core shared with another thread), the
// shapes with more loads per multiply fall behind, and the arrangement of the same operations can matter too:
// docs/performance.md gives the runs and what they show. A shape with more values live than V8 has registers for keeps
// some on the stack, and then measures that too (`node --print-wasm-code` shows it: a step's accesses to [rbp-…]).
// (No node: imports up here: the page of --chromium imports this module.)
import { median } from '../web/js/median.mjs';
import { calibrate, copyAddress, peakContenders, roundPeaks, shareOfPeak, wallSeconds } from './simd-peak.mjs';
import { OP, get, i32, name, section, set, simd, tee, u32, vector } from './wasm-bytes.mjs';

// v128.load (load_splat) from address `at` + offset, `at` an i32 local's bytes
const load = (offset, at) => [...get(at), ...simd(OP.V128_LOAD), 4, ...u32(offset)];
const loadSplat = (offset, at) => [...get(at), ...simd(OP.V128_LOAD32_SPLAT), 2, ...u32(offset)];
// i8x16.shuffle of a vector with itself taking its 32-bit lanes `lanes` (four lane numbers)
const shuffle32 = (lanes) => [...simd(OP.I8X16_SHUFFLE), ...lanes.flatMap((l) => [4 * l, 4 * l + 1, 4 * l + 2, 4 * l + 3])];

// Memory: b's vectors at 0, 16, …; a's rows splatted at 256 + 16 r, and as single floats at 512 + 4 r; all 1.0, so
// every accumulator counts the iterations (times its row's a, where that is held in a register: registerValue) exactly.
const B_AT = 0, A_SPLATTED_AT = 256, A_FLOATS_AT = 512;
// Those fixed addresses are offsets into one of two copies of the operands (memory is all 1.0), 1 KiB apart: the
// copy at simd-peak's copyAddress, which the engine cannot know ahead (at a constant address it may move the loads, and
// then the products, out of the loop, leaving only the adds).
// The walking shapes' operands: STEPS steps of b, then of a (splatted, or as floats), each step's at the next addresses,
// as the kernel's scores step walks a key panel and the splatted queries (D = 64 steps a tile).
const STEPS = 64, WALK_B_AT = 0x4000, WALK_A_AT = 0x8000;

/**
 * The loop shapes: rows of a, columns of four-lane b vectors, and how each row's a arrives ('load': splatted in
 * memory, 'splat': a load_splat, 'register': a local set before the loop).
 */
export const SHAPES = [
  { name: '4x8, 6 loads', rows: ['load', 'load', 'load', 'load'], columns: 2 },
  { name: '4x8, 2 + 4 splats', rows: ['splat', 'splat', 'splat', 'splat'], columns: 2 },
  { name: '4x8, 4 loads', rows: ['load', 'register', 'load', 'register'], columns: 2 },
  { name: '4x8, 2 loads', rows: ['register', 'register', 'register', 'register'], columns: 2 },
  { name: '5x8, 7 loads', rows: ['load', 'load', 'load', 'load', 'load'], columns: 2 },
  { name: '2x16, 6 loads', rows: ['load', 'load'], columns: 4 },
  { name: '2x16, 4 + 2 splats', rows: ['splat', 'splat'], columns: 4 },
  { name: '4x8, 3 loads + 3 rotations', rows: ['lanes', 'rotate 1', 'rotate 2', 'rotate 3'], columns: 2 },
  { name: '4x8, 3 loads + 4 shuffles', rows: ['lanes splat 0', 'splat 1', 'splat 2', 'splat 3'], columns: 2 },
  { name: '3x12, 3 + 3 splats', rows: ['splat', 'splat', 'splat'], columns: 3 },
  { name: '4x8, 6 loads, walking', rows: ['load', 'load', 'load', 'load'], columns: 2, walk: true },
  { name: '4x8, 2 + 4 splats, walking', rows: ['splat', 'splat', 'splat', 'splat'], columns: 2, walk: true },
  { name: '2x16, 4 + 2 splats, walking', rows: ['splat', 'splat'], columns: 4, walk: true },
  { name: '5x8, 2 + 5 splats, walking', rows: ['splat', 'splat', 'splat', 'splat', 'splat'], columns: 2, walk: true },
  { name: '3x12, 3 + 3 splats, walking', rows: ['splat', 'splat', 'splat'], columns: 3, walk: true },
];
/** Loads (of any kind) per iteration, and multiplies plus adds per iteration. */
export const loadsOf = (s) => s.columns + s.rows.filter((r) => r === 'load' || r === 'splat' || r.startsWith('lanes')).length;
export const vectorOpsOf = (s) => 2 * s.rows.length * s.columns;

/**
 * Row r's a when it is held in a register ('register'): 2^-r, a different value in every row. Were two rows' a alike,
 * their products with each b would be alike too, and the engine computes such a product once (V8 does: 1.0 in every
 * row left 2 of the 8 multiplies of '4x8, 2 loads'). Powers of two keep every sum exact.
 */
export const registerValue = (r) => 2 ** -r;
/** What row r's accumulators gain per step: a (b is 1.0, as is every a in memory). */
const rowValue = (s, r) => (s.rows[r] === 'register' ? registerValue(r) : 1);
const f32Bytes = (x) => [...new Uint8Array(Float32Array.of(x).buffer)];

/**
 * Body of one shape's function (param $n i32) (result f32): locals 0 = $n, then accumulators, b, a, registers, the
 * rows' a as one vector, and (walking) the i32 byte offsets of b and a.
 */
function body(s) {
  const R = s.rows.length, C = s.columns;
  const acc = (r, c) => 1 + r * C + c, b = (c) => 1 + R * C + c, a = 1 + R * C + C, reg = (r) => 2 + R * C + C + r;
  const lanes = 2 + R * C + C + R;  // the rows' a as one vector, for the shuffled kinds
  const v128Locals = R * C + C + 1 + R + 1;  // accumulators, b, a, registers, lanes
  // i32 locals: where b and a are this step (walking), or this iteration's copy of the operands (copyAddress)
  const copy = 3 + v128Locals;
  const atB = s.walk ? 1 + v128Locals : copy, atA = s.walk ? 2 + v128Locals : copy;
  const bBase = s.walk ? WALK_B_AT : B_AT, aSplattedBase = s.walk ? WALK_A_AT : A_SPLATTED_AT, aFloatsBase = s.walk ? WALK_A_AT : A_FLOATS_AT;
  const aStep = s.rows.some((r) => r === 'load') ? 16 * R : 4 * R;  // bytes of a per step
  const code = [];
  for (let r = 0; r < R; r++) for (let c = 0; c < C; c++) code.push(0x43, 0, 0, 0, 0, ...simd(OP.F32X4_SPLAT), ...set(acc(r, c)));
  for (let r = 0; r < R; r++) code.push(0x43, ...f32Bytes(registerValue(r)), ...simd(OP.F32X4_SPLAT), ...set(reg(r)));
  code.push(0x03, 0x40);  // loop (no result)
  if (!s.walk) code.push(...copyAddress(0), ...set(copy));
  if (s.walk) code.push(0x41, 0, ...set(atB), 0x41, 0, ...set(atA), 0x03, 0x40);  // from the first step; loop
  for (let c = 0; c < C; c++) code.push(...load(bBase + 16 * c, atB), ...set(b(c)));
  for (let r = 0; r < R; r++) {
    const kind = s.rows[r];
    if (kind.startsWith('lanes')) code.push(...load(A_FLOATS_AT, copy), ...set(lanes));
    const shuffled = kind.match(/(rotate|splat) (\d)$/);
    if (shuffled) {
      const n = Number(shuffled[2]);
      const pick = shuffled[1] === 'rotate' ? [0, 1, 2, 3].map((i) => (i + n) % 4) : [n, n, n, n];
      code.push(...get(lanes), ...get(lanes), ...shuffle32(pick), ...set(a));
    } else if (kind === 'lanes') {
      code.push(...get(lanes), ...set(a));
    } else {
      code.push(...(kind === 'load' ? load(aSplattedBase + 16 * r, atA) : kind === 'splat' ? loadSplat(aFloatsBase + 4 * r, atA) : get(reg(r))), ...set(a));
    }
    for (let c = 0; c < C; c++)
      code.push(...get(acc(r, c)), ...get(a), ...get(b(c)), ...simd(OP.F32X4_MUL), ...simd(OP.F32X4_ADD), ...set(acc(r, c)));
  }
  if (s.walk) {  // the next step's addresses; br_if inner loop (not past the last step); end
    code.push(...get(atA), 0x41, ...i32(aStep), 0x6a, ...set(atA), ...get(atB), 0x41, ...i32(16 * C), 0x6a, ...tee(atB));
    code.push(0x41, ...i32(16 * C * STEPS), 0x47, 0x0d, 0, 0x0b);
  }
  code.push(...get(0), 0x41, 1, 0x6b, ...tee(0), 0x0d, 0, 0x0b);  // $n = $n - 1; br_if loop ($n != 0)
  code.push(0x43, 0, 0, 0, 0);  // the sum of lane 0 of every accumulator, so that none is dead code
  for (let r = 0; r < R; r++) for (let c = 0; c < C; c++) code.push(...get(acc(r, c)), ...simd(OP.F32X4_EXTRACT_LANE), 0, 0x92);
  code.push(0x0b);
  const declared = [...u32(2), ...u32(v128Locals), 0x7b, ...u32(3), 0x7f];  // v128 locals, then three i32
  return [...u32(declared.length + code.length), ...declared, ...code];
}

/** The module's bytes: a memory (exported) and one function per shape, named by the shape. */
export function loadsModuleBytes() {
  const type = [0x60, ...vector([[0x7f]]), ...vector([[0x7d]])];  // (i32) -> f32
  return Uint8Array.from([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, vector([type])),
    ...section(3, vector(SHAPES.map(() => [0]))),
    ...section(5, vector([[0x00, 1]])),  // one page
    ...section(7, vector([[...name('memory'), 0x02, 0], ...SHAPES.map((s, i) => [...name(s.name), 0x00, ...u32(i)])])),
    ...section(10, vector(SHAPES.map(body))),
  ]);
}

/** The shapes compiled, warmed up and checked: [{ ...shape, flopsPerIteration, maxIterations, run(iterations) }]. */
export async function simdLoadLoops() {
  const { instance } = await WebAssembly.instantiate(loadsModuleBytes());
  new Float32Array(instance.exports.memory.buffer).fill(1);
  const loops = SHAPES.map((s) => {
    const fn = instance.exports[s.name];
    const steps = s.walk ? STEPS : 1;  // loop steps per iteration
    // every accumulator counts the steps (times a power of two), exactly below 2^24; their sum is taken in float32
    const maxIterations = Math.floor((2 ** 24 - 1) / steps);
    return {
      ...s,
      loads: loadsOf(s),
      flopsPerIteration: 4 * vectorOpsOf(s) * steps,
      maxIterations,
      run(iterations) {
        if (iterations > maxIterations) {
          throw new RangeError(`simd-loads: '${s.name}' runs at most ${maxIterations} iterations, got ${iterations}`);
        }
        let expected = 0;
        for (let r = 0; r < s.rows.length; r++)
          for (let c = 0; c < s.columns; c++) expected = Math.fround(expected + iterations * steps * rowValue(s, r));
        const sum = fn(iterations);
        if (sum !== expected) throw new Error(`simd-loads: '${s.name}' returned ${sum}, not ${expected}`);
        return sum;
      },
    };
  });
  for (let i = 0; i < 20; i++) for (const loop of loops) loop.run(10000);
  await new Promise((resolve) => setTimeout(resolve, 200));
  return loops;
}

/**
 * Each shape's speed as a share of the peak measured in the same rounds: { peak (GFLOP/s: each round's fastest loop of
 * simd-peak, the median over rounds), shapes: [{ name, loads, vectorOps, gflops, fractionOfPeak }] }, medians over
 * `rounds` of short samples.
 */
export async function measureSimdLoads({ rounds = 15, milliseconds = 20, time = wallSeconds } = {}) {
  const peaks = await peakContenders(milliseconds, time);
  const shapes = (await simdLoadLoops()).map((loop) => ({ loop, iterations: Math.min(calibrate(loop, milliseconds, time), loop.maxIterations), gflops: [] }));
  const peakRates = peaks.map(() => []);
  for (let round = 0; round < rounds; round++) {
    peaks.forEach((p, i) => peakRates[i].push(p.flops / time(p.run) / 1e9));
    for (const s of shapes) s.gflops.push((s.iterations * s.loop.flopsPerIteration) / time(() => s.loop.run(s.iterations)) / 1e9);
  }
  const peak = roundPeaks(peaks, (_, i) => peakRates[i]);
  return {
    peak: peak.gflops,
    shapes: shapes.map((s) => ({
      name: s.loop.name, loads: s.loop.loads, vectorOps: vectorOpsOf(s.loop), gflops: median(s.gflops), fractionOfPeak: shareOfPeak(s.gflops, peak),
    })),
  };
}

/**
 * measureSimdLoads({ rounds, milliseconds }) in a page of `engine` (chromium, firefox, webkit), this repository served
 * to it on 127.0.0.1: { browser, ...its result }.
 */
export async function measureInBrowser(engine, { rounds = 15, milliseconds = 20 } = {}) {
  const { inEnginePage } = await import('./chromium-page.mjs');
  const { browser, result } = await inEnginePage(engine, 'simd-loads',
    async (options) => (await import('/bench/simd-loads.mjs')).measureSimdLoads(options), { rounds, milliseconds });
  return { browser, ...result };
}

// Run as a script.
async function main() {
  const os = (await import('node:os')).default;
  const { mkdirSync, writeFileSync } = await import('node:fs');
  const path = await import('node:path');
  const { ALL_ENGINES } = await import('../tests/browser/helpers/engines/index.mjs');
  const { benchArgs } = await import('./harness.mjs');
  const { cpuSeconds } = await import('./clock.mjs');
  const at = process.argv.indexOf('--browser');
  const engine = process.argv.includes('--chromium') ? 'chromium' : at > 0 ? process.argv[at + 1] : undefined;
  if (engine !== undefined && !ALL_ENGINES.includes(engine)) {
    console.error(`simd-loads: --browser must be one of ${ALL_ENGINES.join(', ')}, got ${engine}`);
    process.exit(2);
  }
  const { quick, jsonPath } = engine
    ? benchArgs(`simd-loads-${engine}`, `simd-loads-${engine}-quick`)
    : benchArgs('simd-loads', 'simd-loads-quick');
  const rounds = quick ? 5 : 15;
  const result = engine ? await measureInBrowser(engine, { rounds }) : await measureSimdLoads({ rounds, time: cpuSeconds });
  const cpu = os.cpus()[0]?.model ?? 'unknown';
  const where = engine ? `${result.browser}, wall time` : `node ${process.versions.node}, CPU time`;
  console.log(`${cpu}, ${where}, load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}; ` +
    `medians of ${rounds} rounds; SIMD128 peak ${result.peak.toFixed(1)} GFLOP/s`);
  console.log('shape                          loads  mul+add  GFLOP/s  % of peak');
  for (const s of result.shapes)
    console.log(`${s.name.padEnd(30)} ${String(s.loads).padStart(5)}  ${String(s.vectorOps).padStart(7)}  ${s.gflops.toFixed(1).padStart(7)}  ` +
      `${(100 * s.fractionOfPeak).toFixed(0).padStart(8)}%`);
  mkdirSync(path.dirname(jsonPath), { recursive: true });
  // registerRows: the rows held in registers have distinct values (registerValue; runs before it computed fewer
  // multiplies); addresses: the loads' addresses vary (copyAddress; before, V8 14 moved work out of the loops)
  const report = { cpu, ...(engine ? { engine } : { node: process.versions.node }), clock: engine ? 'wall' : 'cpu', rounds,
    date: new Date().toISOString(), loadAverage: os.loadavg(), registerRows: 'distinct', addresses: 'varying', ...result };
  writeFileSync(jsonPath, `${JSON.stringify(report, null, 2)}\n`);
  console.error(`wrote ${jsonPath}`);
}
if (typeof process !== 'undefined' && process.argv?.[1] && import.meta.url === `file://${process.argv[1]}`) main();
