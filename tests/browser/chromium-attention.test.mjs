// bench/chromium-attention.mjs: seqorder's attention (the built package), its fused kernel alone and,
// where npm run bench installed it, onnxruntime-web, measured in a page of each test engine (ENGINES: Chromium,
// Firefox, WebKit) against the SIMD peak of the same rounds: the module and what it imports load in the page, every
// contender's output agrees with seqorder's before it is timed, and each result is a positive, finite speed, share of
// the peak and (with onnxruntime-web) ratio; and the pool's run (--pool) in Chromium: its output one thread's bits, each
// result a positive, finite speed and ratio. Speeds are never asserted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { measureInBrowser, measurePoolInBrowser } from '../../bench/chromium-attention.mjs';
import { ENGINES, VERSION_PATTERNS } from './helpers/engines/index.mjs';

// onnxruntime-web is one of the benchmark's contenders (bench/package.json), not a test dependency
const ort = existsSync(new URL('../../bench/node_modules/onnxruntime-web/dist/ort.wasm.min.mjs', import.meta.url));

const withOrt = ort ? ', with onnxruntime-web' : ' (onnxruntime-web not installed: seqorder alone)';

for (const engine of ENGINES) test(`${engine}: chromium-attention measures attention in the page${withOrt}`, async () => {
  const result = await measureInBrowser(engine, { lengths: [64], rounds: 1, sampleSeconds: 0.002, ort });
  assert.match(result.browser, VERSION_PATTERNS[engine]);
  assert.ok(Number.isFinite(result.peak.gflops) && result.peak.gflops > 0, `peak ${result.peak.gflops}`);
  assert.deepEqual(result.cases.map((c) => [c.T, c.causal]), [[64, false], [64, true]]);
  // the API's two ways, onnxruntime-web where installed, then the kernel alone
  const names = ['seqorder', 'seqorder, out', ...(ort ? ['onnxruntime-web'] : []), 'kernel alone'];
  for (const c of result.cases) {
    assert.deepEqual(c.results.map((r) => r.name), names);
    for (const r of c.results) {
      assert.ok(Number.isFinite(r.gflops) && r.gflops > 0 && r.fractionOfPeak > 0, `${r.name}: ${r.gflops}`);
      if (ort && r.name.startsWith('seqorder')) assert.ok(r.overOrt > 0, `${r.name} over onnxruntime-web: ${r.overOrt}`);
    }
  }
});

test(`chromium: chromium-attention --pool measures the pool in the page${withOrt}`, { skip: !ENGINES.includes('chromium') }, async () => {
  const result = await measurePoolInBrowser('chromium', { lengths: [64], rounds: 1, sampleSeconds: 0.002, ort, freshBytes: 2 ** 20 });
  assert.ok(result.threads >= 1);
  assert.deepEqual(result.cases.map((c) => [c.T, c.causal]), [[64, false], [64, true]]);
  const calling = result.threads > 1;  // a pool of one worker fewer with the page's thread computing a share
  const names = ['seqorder, 1 thread', `pool, ${result.threads} workers`, ...(ort ? [`onnxruntime-web, ${result.threads} threads`] : []),
    ...(calling ? [`pool, ${result.threads - 1} worker${result.threads > 2 ? 's' : ''} and the calling thread`] : [])];
  for (const c of result.cases) {
    assert.deepEqual(c.results.map((r) => r.name), names);
    for (const r of c.results) assert.ok(Number.isFinite(r.gflops) && r.gflops > 0, `${r.name}: ${r.gflops}`);
    assert.ok(c.ratios.overOne > 0 && (!ort || c.ratios.overOrt > 0), JSON.stringify(c.ratios));
    assert.ok(!calling || (c.ratios.callingOverOne > 0 && (!ort || c.ratios.callingOverOrt > 0)), JSON.stringify(c.ratios));
  }
});
