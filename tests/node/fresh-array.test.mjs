// bench/fresh-array.mjs: the cost of a new array against copying into one array made once. Each length gives two
// positive times, and the arrays it makes hold what was written (the function checks it and throws if not).
import test from 'node:test';
import assert from 'node:assert/strict';
import { measureFreshArrays } from '../../bench/fresh-array.mjs';

test('measureFreshArrays gives a positive time per array, new and reused, for each length', () => {
  const results = measureFreshArrays({ lengths: [16, 64], rounds: 3, arrays: 2 ** 20 });
  assert.deepEqual(results.map((r) => r.T), [16, 64]);
  for (const { fresh, reused } of results) {
    assert.ok(fresh > 0 && Number.isFinite(fresh), `fresh ${fresh}`);
    assert.ok(reused > 0 && Number.isFinite(reused), `reused ${reused}`);
  }
});
