// The hand-assembled loops the benchmarks measure against (bench/simd-peak.mjs: the SIMD128 peak; bench/simd-loads.mjs:
// the attention kernel's tile step with its operands from memory or registers): each module validates, and each loop
// computes exactly what it should (so that the engine cannot have skipped work), whatever the speed.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { peakModuleBytes, simdPeakLoops } from '../../bench/simd-peak.mjs';
import { SHAPES, loadsModuleBytes, loadsOf, simdLoadLoops, vectorOpsOf } from '../../bench/simd-loads.mjs';

test('the peak module validates and each of its loops returns its exact sum', async () => {
  assert.equal(WebAssembly.validate(peakModuleBytes()), true);
  for (const loop of await simdPeakLoops()) assert.equal(loop.run(1000), loop.chains);
});

test('the load module validates; each tile loop counts its iterations in every accumulator, and a count past float32\'s exact integers is refused', async () => {
  assert.equal(WebAssembly.validate(loadsModuleBytes()), true);
  const loops = await simdLoadLoops();
  assert.deepEqual(loops.map((l) => l.name), SHAPES.map((s) => s.name));
  for (const loop of loops) {
    // an iteration: one step, or a tile of 64 steps for the shapes that walk through memory
    const accumulators = loop.rows.length * loop.columns, steps = loop.walk ? 64 : 1;
    assert.equal(loop.run(1001), accumulators * 1001 * steps, loop.name);
    assert.equal(loop.flopsPerIteration, 4 * 2 * accumulators * steps);
  }
  assert.ok(loops.filter((l) => l.walk).length >= 2, 'some shapes walk through memory as the kernel does');
  assert.throws(() => loops[0].run(2 ** 24), RangeError);
  assert.throws(() => loops.find((l) => l.walk).run(2 ** 18), RangeError);
  // the kernel's two steps: 6 loads for 16 multiplies and adds
  assert.deepEqual([loadsOf(SHAPES[0]), vectorOpsOf(SHAPES[0])], [6, 16]);
  assert.deepEqual([loadsOf(SHAPES[1]), vectorOpsOf(SHAPES[1])], [6, 16]);
});

test('simd-peak and simd-loads import nothing of node at their top: simd-loads --chromium imports them in a page', () => {
  for (const file of ['simd-peak.mjs', 'simd-loads.mjs', 'wasm-bytes.mjs']) {
    const source = readFileSync(new URL(`../../bench/${file}`, import.meta.url), 'utf8');
    assert.doesNotMatch(source, /^import [^;]* from 'node:/m, file);
  }
});
