// bench/simd-loads.mjs --chromium (--browser firefox|webkit): the hand-assembled loops, imported by a page of each test
// engine (ENGINES: Chromium, Firefox, WebKit; the module and what it imports must load there, without node's modules),
// each measured and checked there (every loop's result is its exact count, so the engine cannot have skipped work): a
// speed for every shape and a peak, positive and finite. Speeds are never asserted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SHAPES, measureInBrowser } from '../../bench/simd-loads.mjs';
import { ENGINES, VERSION_PATTERNS } from './helpers/engines/index.mjs';

// (an engine that cannot start fails, with what to install, as in the other browser tests)
for (const engine of ENGINES) test(`${engine}: simd-loads measures every loop shape in the page`, async () => {
  const result = await measureInBrowser(engine, { rounds: 1, milliseconds: 2 });
  assert.match(result.browser, VERSION_PATTERNS[engine]);
  assert.ok(Number.isFinite(result.peak) && result.peak > 0, `peak ${result.peak}`);
  assert.deepEqual(result.shapes.map((s) => s.name), SHAPES.map((s) => s.name));
  for (const s of result.shapes) assert.ok(Number.isFinite(s.gflops) && s.gflops > 0 && s.fractionOfPeak > 0, `${s.name}: ${s.gflops}`);
});
