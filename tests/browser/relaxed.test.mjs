// The opt-in relaxed-SIMD module in Chromium (which runs relaxed SIMD without flags): loadSeqorder({ simd: 'relaxed' })
// on the package served from $SEQORDER_DIST/site/lib loads the relaxed module (build === 'relaxed'), its float32
// attention is within float32 tolerance of the float64 reference (as in tests/node/relaxed-calls.mjs), and the default
// load stays the plain module.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { launchBrowser, siteDir } from './browser.mjs';

let session;

before(async () => {
  session = await launchBrowser({ requires: path.join('lib', 'seqorder.mjs') });
});

after(async () => {
  await session?.close();
});

test("Chromium: simd: 'relaxed' loads the relaxed module, within float32 tolerance of the reference", { timeout: 120_000 }, async (t) => {
  if (!existsSync(path.join(siteDir, 'lib', 'seqorder', 'seqorder_core_relaxed.wasm'))) return t.skip('no relaxed module in this build (SEQORDER_RELAXED=OFF)');
  const { page, origin } = session;
  const problems = [], wasmRequests = [];
  page.on('console', (message) => message.type() === 'error' && problems.push(`console: ${message.text()}`));
  page.on('pageerror', (error) => problems.push(`page error: ${error}`));
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.origin !== origin) problems.push(`request to ${request.url()}`);
    if (url.pathname.endsWith('.wasm')) wasmRequests.push(url.pathname);
  });
  await page.route(`${origin}/__relaxed/**`, (route) =>
    route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>relaxed</title>' }));
  await page.goto(`${origin}/__relaxed/index.html`);
  const result = await page.evaluate(async () => {
    const { loadSeqorder } = await import('/lib/seqorder.mjs');
    const plain = await loadSeqorder();
    const relaxed = await loadSeqorder({ simd: 'relaxed' });
    let seed = 1;
    const float32 = (shape, scale = 1) => {
      const data = new Float32Array(shape.reduce((a, b) => a * b, 1));
      for (let i = 0; i < data.length; i++) {
        seed = (seed * 1103515245 + 12345) % 2147483648;
        data[i] = (seed / 2147483648 * 2 - 1) * scale;
      }
      return { data, shape, dtype: 'float32' };
    };
    const as64 = (x) => ({ data: Float64Array.from(x.data), shape: x.shape, dtype: 'float64' });
    const failures = [];
    let worst = 0, cases = 0;
    for (const [B, Tq, Tk, D, Dv, causal, scale] of [
      [1, 7, 7, 5, 3, false, 1], [2, 9, 19, 17, 9, false, 1], [2, 13, 40, 64, 65, true, 1], [1, 33, 33, 64, 64, false, 8],
      [1, 33, 33, 64, 64, true, 30], [1, 300, 300, 64, 64, false, 1], [3, 4, 12, 1, 1, true, 1],
    ]) {
      const q = float32([B, Tq, D], scale), k = float32([B, Tk, D], scale), v = float32([B, Tk, Dv]);
      const options = causal ? { causal, queryStart: Tk - Tq } : {};
      const got = relaxed.attention(q, k, v, options).data, truth = plain.attention(as64(q), as64(k), as64(v), options).data;
      let M = 0, vmax = 1e-30, error = 0;
      for (let b = 0; b < B; b++)
        for (let i = 0; i < Tq; i++)
          for (let j = 0; j < Tk; j++) {
            let s = 0;
            for (let d = 0; d < D; d++) s += Math.abs(q.data[(b * Tq + i) * D + d] * k.data[(b * Tk + j) * D + d]);
            M = Math.max(M, s / Math.sqrt(D));
          }
      for (const x of v.data) vmax = Math.max(vmax, Math.abs(x));
      for (let n = 0; n < got.length; n++) error = Math.max(error, Math.abs(got[n] - truth[n]) || (got[n] === truth[n] ? 0 : Infinity));
      const bound = 2e-6 * vmax * Math.max(1, M);
      if (!(error <= bound)) failures.push(`${JSON.stringify({ B, Tq, Tk, D, Dv, causal, scale })}: ${error} > ${bound}`);
      worst = Math.max(worst, error / vmax);
      cases += 1;
    }
    // a rough speed comparison at T = 1024, D = 64 (a diagnostic only: never asserted)
    const T = 1024, q = float32([T, 64]), k = float32([T, 64]), v = float32([T, 64]), out = new Float32Array(T * 64);
    const time = (so) => {
      const t0 = performance.now();
      for (let i = 0; i < 3; i++) so.attention(q, k, v, { out });
      return (performance.now() - t0) / 3;
    };
    time(plain); time(relaxed);
    const times = { simd128: [], relaxed: [] };
    for (let round = 0; round < 5; round++) {
      times.simd128.push(time(plain));
      times.relaxed.push(time(relaxed));
    }
    const median = (a) => a.sort((x, y) => x - y)[a.length >> 1];
    return {
      builds: [plain.build, relaxed.build], failures, worst, cases, userAgent: navigator.userAgent,
      speedup: median(times.simd128) / median(times.relaxed),
    };
  });
  t.diagnostic(`${result.userAgent.match(/(Headless)?Chrome\/[\d.]+/)?.[0]}: ${result.cases} cases, worst |relaxed - float64| / max|v| = ${result.worst.toExponential(2)}; relaxed ÷ simd128 speed at T = 1024: ${result.speedup.toFixed(2)}×`);
  assert.deepEqual(problems, []);
  assert.deepEqual(result.builds, ['simd128', 'relaxed']);
  assert.deepEqual(result.failures, []);
  assert.deepEqual([...new Set(wasmRequests)].sort(), ['/lib/seqorder/seqorder_core.wasm', '/lib/seqorder/seqorder_core_relaxed.wasm']);
});
