// What a vector load costs beside f32x4 multiplies and adds on this machine's core: the attention kernel's inner loop
// (a tile of rows x columns of four-lane accumulators, acc[r][c] += a[r] * b[c], a multiply then an add) with its
// operands taken from memory or from registers, each loop shape's speed given as a share of the SIMD128 peak measured
// in the same rounds (bench/simd-peak.mjs).
//
//   node bench/simd-loads.mjs [--quick] [--json out.json]
// (default bench/results/<machine kind>/simd-loads.json; --quick: 5 rounds, into simd-loads-quick.json, not committed)
//
// The loops are assembled by hand below (no toolchain needed), like simd-peak's: every iteration loads its operands
// from the same few addresses (the L1 cache, no pointer to move on), so what differs from shape to shape is only how
// many loads come with the 8 multiplies and 8 adds of a 4 x 8 tile step, or the 10 and 10 of a 5 x 8 one:
//   '4x8, 6 loads'       b (2 vectors) and the 4 rows' a, splatted in memory: the kernel's scores step (splat_in_loop)
//   '4x8, 2 + 4 splats'  b, and the 4 rows' a by load_splat (x64: vbroadcastss): the kernel's weighted-sum step
//   '4x8, 4 loads'       b, 2 rows' a loaded, 2 held in registers
//   '4x8, 2 loads'       b only, the 4 rows' a held in registers (the tile no kernel can have: a changes every step)
//   '5x8, 7 loads'       a 5-row tile: 10 accumulators, 2 loads of b and 5 of a for 20 multiplies and adds
//   '2x16, 6 loads'      a 2-row, 16-column tile: b 4 vectors, a 2 rows splatted in memory (the same counts as 4 x 8)
//   '2x16, 4 + 2 splats' the same with a by load_splat
// Where the loads go through ports of their own, beside the vector pipes, every shape can run near the peak; where
// something they share with the arithmetic binds (dispatch, scheduling, or a core shared with another thread), the
// shapes with more loads per multiply fall behind, and the arrangement of the same operations can matter too:
// docs/performance.md gives the runs and what they show.
import os from 'node:os';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { median } from '../web/js/median.mjs';
import { benchArgs } from './report.mjs';
import { calibrate, simdPeakLoops, wallSeconds } from './simd-peak.mjs';
import { OP, get, name, section, set, simd, tee, u32, vector } from './wasm-bytes.mjs';

const load = (offset) => [0x41, 0, ...simd(OP.V128_LOAD), 4, ...u32(offset)];  // v128.load from address 0 + offset
const loadSplat = (offset) => [0x41, 0, ...simd(OP.V128_LOAD32_SPLAT), 2, ...u32(offset)];

// Memory: b's vectors at 0, 16, …; a's rows splatted at 256 + 16 r, and as single floats at 512 + 4 r; all 1.0, so
// every accumulator counts the iterations exactly.
const B_AT = 0, A_SPLATTED_AT = 256, A_FLOATS_AT = 512;

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
];
/** Loads (of any kind) per iteration, and multiplies plus adds per iteration. */
export const loadsOf = (s) => s.columns + s.rows.filter((r) => r !== 'register').length;
export const vectorOpsOf = (s) => 2 * s.rows.length * s.columns;

/** Body of one shape's function (param $n i32) (result f32): locals 0 = $n, then accumulators, b, a, registers. */
function body(s) {
  const R = s.rows.length, C = s.columns;
  const acc = (r, c) => 1 + r * C + c, b = (c) => 1 + R * C + c, a = 1 + R * C + C, reg = (r) => 2 + R * C + C + r;
  const v128Locals = R * C + C + 1 + R;  // accumulators, b, a, registers
  const code = [];
  for (let r = 0; r < R; r++) for (let c = 0; c < C; c++) code.push(0x43, 0, 0, 0, 0, ...simd(OP.F32X4_SPLAT), ...set(acc(r, c)));
  for (let r = 0; r < R; r++) code.push(0x43, 0, 0, 0x80, 0x3f, ...simd(OP.F32X4_SPLAT), ...set(reg(r)));  // 1.0
  code.push(0x03, 0x40);  // loop (no result)
  for (let c = 0; c < C; c++) code.push(...load(B_AT + 16 * c), ...set(b(c)));
  for (let r = 0; r < R; r++) {
    const kind = s.rows[r];
    code.push(...(kind === 'load' ? load(A_SPLATTED_AT + 16 * r) : kind === 'splat' ? loadSplat(A_FLOATS_AT + 4 * r) : get(reg(r))), ...set(a));
    for (let c = 0; c < C; c++)
      code.push(...get(acc(r, c)), ...get(a), ...get(b(c)), ...simd(OP.F32X4_MUL), ...simd(OP.F32X4_ADD), ...set(acc(r, c)));
  }
  code.push(...get(0), 0x41, 1, 0x6b, ...tee(0), 0x0d, 0, 0x0b);  // $n = $n - 1; br_if loop ($n != 0)
  code.push(0x43, 0, 0, 0, 0);  // the sum of lane 0 of every accumulator, so that none is dead code
  for (let r = 0; r < R; r++) for (let c = 0; c < C; c++) code.push(...get(acc(r, c)), ...simd(OP.F32X4_EXTRACT_LANE), 0, 0x92);
  code.push(0x0b);
  const declared = [...u32(1), ...u32(v128Locals), 0x7b];  // one run of v128 locals after the parameter
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

/** The shapes compiled, warmed up and checked: [{ ...shape, flopsPerIteration, run(iterations) }]. */
export async function simdLoadLoops() {
  const { instance } = await WebAssembly.instantiate(loadsModuleBytes());
  new Float32Array(instance.exports.memory.buffer, 0, 1024).fill(1);
  const loops = SHAPES.map((s) => {
    const fn = instance.exports[s.name];
    const accumulators = s.rows.length * s.columns;
    return {
      ...s,
      loads: loadsOf(s),
      flopsPerIteration: 4 * vectorOpsOf(s),
      run(iterations) {
        // every accumulator counts the iterations, exactly below 2^24; their sum is taken in float32
        if (iterations >= 2 ** 24) throw new RangeError(`simd-loads: at most 2^24 - 1 iterations, got ${iterations}`);
        let expected = 0;
        for (let i = 0; i < accumulators; i++) expected = Math.fround(expected + iterations);
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
 * Each shape's speed as a share of the peak measured in the same rounds: { peak (GFLOP/s, best loop of simd-peak),
 * shapes: [{ name, loads, vectorOps, gflops, fractionOfPeak }] }, medians over `rounds` of short samples.
 */
export async function measureSimdLoads({ rounds = 15, milliseconds = 20, time = wallSeconds } = {}) {
  const peaks = (await simdPeakLoops()).map((loop) => ({ loop, iterations: calibrate(loop, milliseconds, time) }));
  const shapes = (await simdLoadLoops()).map((loop) => ({ loop, iterations: Math.min(calibrate(loop, milliseconds, time), 2 ** 24 - 1), ratios: [], gflops: [] }));
  const peakRates = [];
  for (let round = 0; round < rounds; round++) {
    const peak = Math.max(...peaks.map((p) => (p.iterations * p.loop.flopsPerIteration) / time(() => p.loop.run(p.iterations)) / 1e9));
    peakRates.push(peak);
    for (const s of shapes) {
      const gflops = (s.iterations * s.loop.flopsPerIteration) / time(() => s.loop.run(s.iterations)) / 1e9;
      s.gflops.push(gflops);
      s.ratios.push(gflops / peak);
    }
  }
  return {
    peak: median(peakRates),
    shapes: shapes.map((s) => ({
      name: s.loop.name, loads: s.loop.loads, vectorOps: vectorOpsOf(s.loop), gflops: median(s.gflops), fractionOfPeak: median(s.ratios),
    })),
  };
}

if (process.argv[1] && import.meta.url === `file://${path.resolve(process.argv[1])}`) {
  const { quick, jsonPath } = benchArgs('simd-loads', 'simd-loads-quick');
  const rounds = quick ? 5 : 15;
  const cpuSeconds = (f) => {
    const before = process.cpuUsage();
    f();
    const { user, system } = process.cpuUsage(before);
    return (user + system) / 1e6;
  };
  const result = await measureSimdLoads({ rounds, time: cpuSeconds });
  const cpu = os.cpus()[0]?.model ?? 'unknown';
  console.log(`${cpu}, node ${process.versions.node}, load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}; ` +
    `CPU time, medians of ${rounds} rounds; SIMD128 peak ${result.peak.toFixed(1)} GFLOP/s`);
  console.log('shape                  loads  mul+add  GFLOP/s  % of peak  16/(16+loads)');
  for (const s of result.shapes)
    console.log(`${s.name.padEnd(22)} ${String(s.loads).padStart(5)}  ${String(s.vectorOps).padStart(7)}  ${s.gflops.toFixed(1).padStart(7)}  ` +
      `${(100 * s.fractionOfPeak).toFixed(0).padStart(8)}%  ${(100 * s.vectorOps / (s.vectorOps + s.loads)).toFixed(0).padStart(12)}%`);
  mkdirSync(path.dirname(jsonPath), { recursive: true });
  writeFileSync(jsonPath, `${JSON.stringify({ cpu, node: process.versions.node, rounds, date: new Date().toISOString(), loadAverage: os.loadavg(), ...result }, null, 2)}\n`);
  console.error(`wrote ${jsonPath}`);
}
