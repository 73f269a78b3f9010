// The hand-assembled loops the benchmarks measure against (bench/simd-peak.mjs: the SIMD128 peak; bench/simd-loads.mjs:
// the attention kernel's tile step with its operands from memory or registers): each module validates, and each loop
// computes exactly what it should (so that the engine cannot have skipped work), whatever the speed.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { joinRoundPeaks, peakModuleBytes, peakName, roundPeaks, shareOfPeak, simdPeakLoops } from '../../bench/simd-peak.mjs';
import { SHAPES, loadsModuleBytes, loadsOf, registerValue, simdLoadLoops, vectorOpsOf } from '../../bench/simd-loads.mjs';

test('the peak module validates and each of its loops returns its exact sum', async () => {
  assert.equal(WebAssembly.validate(peakModuleBytes()), true);
  for (const loop of await simdPeakLoops()) assert.equal(loop.run(1000), loop.chains);
});

test("a round's peak is its fastest loop shape, and a share of the peak is the median of the per-round ratios", () => {
  const shapes = [{ shape: 'mul+add', chains: 12 }, { shape: 'mul|add', chains: 12 }, { shape: 'tree', chains: 2 }];
  const rates = { 'mul+add': [50, 49, 51], 'mul|add': [58, 40, 57], tree: [55, 56, 52] };  // GFLOP/s in 3 rounds
  const peak = roundPeaks(shapes, (s) => rates[s.shape]);
  assert.deepEqual(peak.rounds, [58, 56, 57]);
  assert.deepEqual(peak.fastest, ['mul|add x12', 'tree x2', 'mul|add x12']);
  assert.equal(peak.gflops, 57);
  assert.deepEqual([peak.shape, peak.chains, peak.inRounds], ['mul|add', 12, true]);
  assert.deepEqual(peak.shapes.map((s) => s.gflops), [50, 57, 55]);
  assert.equal(peakName(peak), "each round's fastest loop, most often mul|add x12");
  assert.equal(peakName({ shape: 'tree', chains: 2 }), 'tree x2');
  // a contender at 29, 42, 28.5 GFLOP/s: 0.5, 0.75, 0.5 of its rounds' peaks
  assert.equal(shareOfPeak([29, 42, 28.5], peak), 0.5);
  // two cases' rounds as one: 'tree x2' the fastest in 3 rounds of 5
  const other = roundPeaks(shapes, (s) => ({ 'mul+add': [1, 1], 'mul|add': [2, 2], tree: [3, 3] })[s.shape]);
  const joined = joinRoundPeaks(shapes, [peak, other]);
  assert.deepEqual(joined.rounds, [58, 56, 57, 3, 3]);
  assert.deepEqual([joined.shape, joined.gflops], ['tree', 56]);
});

test('the load module validates; each tile loop counts its iterations in every accumulator, and a count past float32\'s exact integers is refused', async () => {
  assert.equal(WebAssembly.validate(loadsModuleBytes()), true);
  const loops = await simdLoadLoops();
  assert.deepEqual(loops.map((l) => l.name), SHAPES.map((s) => s.name));
  for (const loop of loops) {
    // an iteration: one step, or a tile of 64 steps for the shapes that walk through memory; each step adds a row's a
    // (1.0 from memory; 1, 1/2, 1/4, ... by row for a held in a register) to each of its accumulators
    const accumulators = loop.rows.length * loop.columns, steps = loop.walk ? 64 : 1;
    const perStep = loop.rows.reduce((sum, kind, r) => sum + loop.columns * (kind === 'register' ? 2 ** -r : 1), 0);
    assert.equal(loop.run(1001), perStep * 1001 * steps, loop.name);
    assert.equal(loop.flopsPerIteration, 4 * 2 * accumulators * steps);
  }
  assert.ok(loops.filter((l) => l.walk).length >= 2, 'some shapes walk through memory as the kernel does');
  assert.throws(() => loops[0].run(2 ** 24), RangeError);
  assert.throws(() => loops.find((l) => l.walk).run(2 ** 18), RangeError);
  // the kernel's two steps: 6 loads for 16 multiplies and adds
  assert.deepEqual([loadsOf(SHAPES[0]), vectorOpsOf(SHAPES[0])], [6, 16]);
  assert.deepEqual([loadsOf(SHAPES[1]), vectorOpsOf(SHAPES[1])], [6, 16]);
});

test('no two rows of a tile held in registers have the same a: the engine would compute their products once', () => {
  for (const s of SHAPES) {
    const held = s.rows.flatMap((kind, r) => (kind === 'register' ? [registerValue(r)] : []));
    assert.equal(new Set(held).size, held.length, s.name);
  }
  assert.ok(SHAPES.some((s) => s.rows.filter((kind) => kind === 'register').length >= 2), 'a shape holds several rows');
});

test('simd-peak and simd-loads import nothing of node at their top: simd-loads --chromium imports them in a page', () => {
  for (const file of ['simd-peak.mjs', 'simd-loads.mjs', 'wasm-bytes.mjs']) {
    const source = readFileSync(new URL(`../../bench/${file}`, import.meta.url), 'utf8');
    assert.doesNotMatch(source, /^import [^;]* from 'node:/m, file);
  }
});

test('no loop loads from a constant address: an engine may move such a load, and then its products, out of the loop', () => {
  // a load (v128.load 0x00, v128.load32_splat 0x09) whose address is an i32.const: 0x41 <const> 0xfd <op>
  const constantAddressLoads = (bytes) => {
    let found = 0;
    for (let i = 0; i + 3 < bytes.length; i++) {
      if (bytes[i] !== 0x41) continue;
      let j = i + 1;
      while (bytes[j] & 0x80) j++;  // the constant's LEB128 bytes
      if (bytes[j + 1] === 0xfd && (bytes[j + 2] === 0x00 || bytes[j + 2] === 0x09)) found++;
    }
    return found;
  };
  assert.equal(constantAddressLoads(peakModuleBytes()), 0, 'simd-peak');
  assert.equal(constantAddressLoads(loadsModuleBytes()), 0, 'simd-loads');
  // the scan finds one where there is one
  assert.equal(constantAddressLoads(Uint8Array.of(0x41, 0x80, 0x08, 0xfd, 0x00, 0x04, 0x00)), 1);
});
