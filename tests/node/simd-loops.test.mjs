// The hand-assembled loops the benchmarks measure against (bench/simd-peak.mjs: the SIMD128 peak; bench/simd-loads.mjs:
// the attention kernel's tile step with its operands from memory or registers): each module validates, and each loop
// computes exactly what it should (so that the engine cannot have skipped work), whatever the speed.
import test from 'node:test';
import assert from 'node:assert/strict';
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
    const accumulators = loop.rows.length * loop.columns;
    assert.equal(loop.run(1001), accumulators * 1001);
    assert.equal(loop.flopsPerIteration, 4 * 2 * accumulators);
  }
  assert.throws(() => loops[0].run(2 ** 24), RangeError);
  // the kernel's two steps: 6 loads for 16 multiplies and adds
  assert.deepEqual([loadsOf(SHAPES[0]), vectorOpsOf(SHAPES[0])], [6, 16]);
  assert.deepEqual([loadsOf(SHAPES[1]), vectorOpsOf(SHAPES[1])], [6, 16]);
});
