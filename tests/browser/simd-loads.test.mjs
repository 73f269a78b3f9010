// bench/simd-loads.mjs --chromium: the hand-assembled loops, imported by a page in headless Chromium (the module and
// what it imports must load there, without node's modules), each measured and checked there (every loop's result is
// its exact count, so the engine cannot have skipped work): a speed for every shape and a peak, positive and finite.
// Speeds are never asserted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SHAPES, measureInChromium } from '../../bench/simd-loads.mjs';

// (Debian's Chromium or $CHROMIUM, as the other Chromium tests: its absence fails, with what to install.)
test('simd-loads --chromium measures every loop shape in the page', async () => {
  const result = await measureInChromium({ rounds: 1, milliseconds: 2 });
  assert.match(result.browser, /^Chromium \d+/);
  assert.ok(Number.isFinite(result.peak) && result.peak > 0, `peak ${result.peak}`);
  assert.deepEqual(result.shapes.map((s) => s.name), SHAPES.map((s) => s.name));
  for (const s of result.shapes) assert.ok(Number.isFinite(s.gflops) && s.gflops > 0 && s.fractionOfPeak > 0, `${s.name}: ${s.gflops}`);
});
