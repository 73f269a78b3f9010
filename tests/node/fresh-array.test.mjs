// bench/fresh-array.mjs: the cost of a new array against copying into one array made once. Each length gives two
// positive times, and the arrays it makes hold what was written (the function checks it and throws if not).
import test from 'node:test';
import assert from 'node:assert/strict';
import { measureFreshArrays } from '../../bench/fresh-array.mjs';

test('measureFreshArrays gives a positive time per array, new and reused, for each length, and per new page', () => {
  const { lengths, systemPage } = measureFreshArrays({ lengths: [16, 64], rounds: 3, arrays: 2 ** 20, large: 2 ** 22 });
  assert.deepEqual(lengths.map((r) => r.T), [16, 64]);
  assert.ok(systemPage > 0 && Number.isFinite(systemPage), `systemPage ${systemPage}`);
  for (const { fresh, reused } of lengths) {
    assert.ok(fresh > 0 && Number.isFinite(fresh), `fresh ${fresh}`);
    assert.ok(reused > 0 && Number.isFinite(reused), `reused ${reused}`);
  }
});
