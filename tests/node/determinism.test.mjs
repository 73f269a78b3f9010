// Determinism in node: the fixed calls of determinism-calls.mjs give bit-identical outputs in independent instances
// and on repeated calls, and its training runs give the parameters whose hashes it fixes (MODEL_HASHES).
// tests/browser/determinism.test.mjs compares the same hashes with Chromium's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadSeqorder } from './helpers/load.mjs';
import { CALLS, MODEL_HASHES, MODEL_RUNS, determinismHashes, modelHashes } from './helpers/determinism-calls.mjs';

test('the same calls give bit-identical outputs: repeated, and in independent instances', async (t) => {
  const first = await loadSeqorder();
  const hashes = await determinismHashes(first);
  assert.ok(Object.keys(hashes).length >= CALLS.length);
  assert.deepEqual(await determinismHashes(first), hashes, 'the same instance, again');
  // a heap that has grown and been reused must not change anything either
  const second = await loadSeqorder();
  second.positions(2 ** 13, 2 ** 10);
  assert.deepEqual(await determinismHashes(second), hashes, 'another instance, after a large call');
  for (const [name, hash] of Object.entries(hashes)) t.diagnostic(`${hash.slice(0, 16)}  ${name}`);
});

test('short seeded training runs give the parameters of the fixed hashes, in every instance', async () => {
  assert.deepEqual(Object.keys(MODEL_HASHES), MODEL_RUNS.map(([name]) => name));
  assert.deepEqual(await modelHashes(await loadSeqorder()), MODEL_HASHES);
  const grown = await loadSeqorder();
  grown.positions(2 ** 13, 2 ** 10);
  assert.deepEqual(await modelHashes(grown), MODEL_HASHES, 'another instance, after a large call');
});
