// bench/fresh-array.mjs: the cost of a new array against copying into one array made once. Each length gives two
// positive times, and the arrays it makes hold what was written (the function checks it and throws if not); so.attention
// in this process gives per call a CPU time and a count of page faults, with and without `out`.
import test from 'node:test';
import assert from 'node:assert/strict';
import { measureAttentionFaults, measureFreshArrays } from '../../bench/fresh-array.mjs';

test('measureFreshArrays gives a positive time per array, new and reused, for each length, and per new page', () => {
  const { lengths, systemPage } = measureFreshArrays({ lengths: [16, 64], rounds: 3, arrays: 2 ** 20, large: 2 ** 22 });
  assert.deepEqual(lengths.map((r) => r.T), [16, 64]);
  assert.ok(systemPage > 0 && Number.isFinite(systemPage), `systemPage ${systemPage}`);
  for (const { fresh, reused } of lengths) {
    assert.ok(fresh > 0 && Number.isFinite(fresh), `fresh ${fresh}`);
    assert.ok(reused > 0 && Number.isFinite(reused), `reused ${reused}`);
  }
});

test('measureAttentionFaults gives CPU times and page faults per call, with a new output and with out', async () => {
  const { T, modes } = await measureAttentionFaults({ T: 16, calls: 2, rounds: 1 });
  assert.equal(T, 16);
  assert.deepEqual(modes.map((m) => m.name), ['new output', 'out']);
  for (const { user, system, faults } of modes) {
    // (>= 0: a few short calls may take less CPU time than the system's accounting counts)
    for (const [what, x] of Object.entries({ user, system, faults })) assert.ok(x >= 0 && Number.isFinite(x), `${what} ${x}`);
  }
});
