// The opt-in relaxed-SIMD module in every engine (tests/browser/helpers/engines): loadSeqorder({ simd: 'relaxed' }) on the
// package served from $SEQORDER_DIST/site/lib loads the relaxed module exactly where the engine can compile it
// (Chromium and Firefox run relaxed SIMD; where an engine cannot, as WebKit, feature detection falls back to the
// default module and the relaxed .wasm is never fetched); the float32 attention of whichever module loaded is within
// float32 tolerance of the float64 reference (as in tests/node/helpers/relaxed-calls.mjs), and the default load stays
// the plain module. The model module follows the main module's build (fetched alongside it; compiled by a model).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { eachEngine } from './helpers/each-engine.mjs';
import { blankPage, siteDir } from './helpers/site.mjs';

const RELAXED = '/lib/seqorder/seqorder_core_relaxed.wasm';
const MODULES = ['/lib/seqorder/seqorder_core.wasm', '/lib/seqorder/seqorder_model.wasm'];
const RELAXED_MODULES = [RELAXED, '/lib/seqorder/seqorder_model_relaxed.wasm'];

eachEngine({
  requires: path.join('lib', 'seqorder.mjs'), answers: { '/__relaxed/index.html': blankPage('relaxed') }, open: '/__relaxed/index.html',
}, (s) => {
  test(`${s.engine}: simd: 'relaxed' loads the relaxed module where the engine compiles it, the default one elsewhere`, { timeout: 120_000 }, async (t) => {
    if (!existsSync(path.join(siteDir, RELAXED))) return t.skip('no relaxed module in this build (SEQORDER_RELAXED=OFF)');
    const result = await s.browser.evaluate(async () => {
      const { loadSeqorder } = await import('/lib/model-entry.mjs');  // seqorder/model: a model of each below
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
      const { median } = await import('/js/median.mjs');  // the page's, served beside the package
      // a model of each: the model module of its main module's build (another build's is refused)
      const widths = [plain, relaxed].map((so) => so.createModel({ vocab: 4, width: 8, classes: 2 }).config.width);
      return {
        builds: [plain.build, relaxed.build], failures, worst, cases, widths,
        speedup: median(times.simd128) / median(times.relaxed),
      };
    });
    const wasmRequests = [...new Set(s.site.requests.map((r) => r.path).filter((p) => p.endsWith('.wasm')))].sort();
    // whether this engine compiles the relaxed module itself, asked only now (it fetches the module)
    const compiles = await s.browser.evaluate(async (url) => WebAssembly.validate(await (await fetch(url)).arrayBuffer()), RELAXED);
    t.diagnostic(`${s.browser.version}: relaxed SIMD ${compiles ? 'runs' : 'does not run'}; ${result.cases} cases, worst |result - float64| / max|v| = ${result.worst.toExponential(2)}${compiles ? `; relaxed ÷ simd128 speed at T = 1024: ${result.speedup.toFixed(2)}×` : ''}`);
    assert.deepEqual(await s.browser.errors(), []);
    assert.deepEqual(result.failures, []);
    assert.deepEqual(result.builds, ['simd128', compiles ? 'relaxed' : 'simd128']);
    assert.deepEqual(result.widths, [8, 8]);
    assert.deepEqual(wasmRequests, (compiles ? [...MODULES, ...RELAXED_MODULES] : MODULES).sort());
    if (s.engine === 'chromium') assert.ok(compiles, 'Chromium runs relaxed SIMD: its module should compile there');
  });
});
