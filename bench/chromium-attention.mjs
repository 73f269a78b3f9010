// Attention in the readers' engines: headless Chromium (Debian's, or $CHROMIUM), whose V8 is newer than node 20's, or
// another of the test engines (Firefox, WebKit: tests/browser/helpers/engines), on a page served from this repository on
// 127.0.0.1 (cross-origin isolated, so that its clock is as fine as the browser allows):
//
//   node bench/chromium-attention.mjs [--browser chromium|firefox|webkit] [--pool] [--quick] [--json out.json]
// (default bench/results/<machine kind>/<engine>.json: chromium.json, firefox.json, webkit.json; --quick: T = 256 and
// 1024, 5 rounds, into <engine>-quick.json, not committed; --pool: measurePool's run instead, into <engine>-pool.json,
// --quick: T = 1024, 5 rounds, into <engine>-pool-quick.json)
//
// For T = 256, 1024, 4096, D = 64, causal and not, interleaved rounds of: seqorder's attention (the built package,
// dist/lib: npm run build), with a new output and with `out`; its fused kernel alone (as bench/attention-kernel.mjs
// times it in node: the core module's binding on tensors already in its heap); onnxruntime-web (wasm, 1 thread, the
// graphs of bench/make-onnx-graphs.mjs, as bench/run.mjs runs them in node; installed by npm run bench into
// bench/node_modules); and the SIMD128 peak (bench/simd-peak.mjs: its best loop in this browser, timed in the same
// rounds). Wall time (a page has no CPU-time clock), medians; each ratio is the median of the per-round ratios, as in
// bench/run.mjs.
// Every contender's output is checked against the others' before timing.
// (No node: imports up here: the page imports this module.)
import { additiveCausalMask, freshInputSets, measure, randomTensor, ring, speedup, wallSeconds } from '../web/js/bench-kernels.mjs';
import { maxAbsDiff } from '../web/js/experiments/reference.mjs';
import { gflopsPerRound, joinRoundPeaks, measuredPeaks, peakContenders, peakName, shareOfPeak, wallSeconds as wallSecondsSync } from './simd-peak.mjs';

const WIDTH = 64;
// onnxruntime-web's files: from bench/, and as the page fetches them
const ORT_DIR = 'node_modules/onnxruntime-web/dist/', ORT_DIST = `/bench/${ORT_DIR}`;

/** The core module alone (its binding, as bench/attention-kernel.mjs uses it), for the kernel alone. */
async function loadCore() {
  const { default: createCore } = await import('/dist/lib/seqorder_core.mjs');
  const { bindCalls } = await import('/dist/lib/binding.mjs');
  const wasmBinary = await (await fetch('/dist/lib/seqorder/seqorder_core.wasm')).arrayBuffer();
  return bindCalls(await createCore({ wasmBinary }));
}

/**
 * The kernel alone for one case, on copies of q, k, v in the core's heap: { contender, free }. Each call's output
 * block is freed unread (the API's contenders check the bits' agreement).
 */
function kernelContender(core, [q, k, v], causal) {
  const inHeap = [q, k, v].map((t) => {
    const address = core._malloc(t.data.byteLength);
    if (!address) throw new RangeError('chromium-attention: the core module is out of memory');
    core.HEAPU8.set(new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength), address);
    return { address, count: t.data.length, dtype: 'float32', shape: t.shape };
  });
  const [qh, kh, vh] = inHeap;
  const contender = {
    name: 'kernel alone',
    run: () => {
      const outcome = core.attention({ q: qh, k: kh, v: vh, causal, queryStart: undefined, steps: false, outLength: undefined });
      if (outcome.error !== undefined) throw new RangeError(outcome.error);
      for (const result of outcome.results) core._free(result.address);
    },
  };
  const free = () => {
    for (const t of inHeap) core._free(t.address);
  };
  return { contender, free };
}

/**
 * In the page: { peak: { gflops, shape, chains }, cases: [{ T,
 * causal, results: [{ name, gflops, fractionOfPeak, overOrt? }] }], versions }. `ort: false` leaves onnxruntime-web out
 * (the tests' runs, where it is not installed).
 */
export async function measureAttention({ lengths = [256, 1024, 4096], rounds = 9, sampleSeconds = 0.05, ort: withOrt = true } = {}) {
  const { loadSeqorder } = await import('/dist/lib/seqorder.mjs');
  const so = await loadSeqorder();
  const core = await loadCore();
  let ort;
  const sessions = {};
  if (withOrt) {
    ort = await import(`${ORT_DIST}ort.wasm.min.mjs`);
    ort.env.wasm.numThreads = 1;  // one thread, like seqorder
    ort.env.wasm.wasmPaths = ORT_DIST;
    ort.env.logLevel = 'error';
    for (const causal of [false, true]) {
      const graph = new Uint8Array(await (await fetch(`/bench/models/attention${causal ? '-causal' : ''}-d${WIDTH}.onnx`)).arrayBuffer());
      sessions[causal] = await ort.InferenceSession.create(graph, { executionProviders: ['wasm'] });
    }
  }
  const peaks = await peakContenders(25, wallSecondsSync);
  const roundsPeaks = [];

  const cases = [];
  for (const T of lengths)
    for (const causal of [false, true]) {
      const D = WIDTH, flops = 4 * T * T * D * (causal ? 0.5 : 1);
      const q = randomTensor([T, D], 1), k = randomTensor([T, D], 2), v = randomTensor([T, D], 3);
      const out = new Float32Array(T * D);
      const contenders = [
        { name: 'seqorder', run: () => so.attention(q, k, v, { causal }).data },
        { name: 'seqorder, out', run: () => so.attention(q, k, v, { causal, out }).data },
      ];
      if (withOrt) {
        const feeds = { q: new ort.Tensor('float32', q.data, [T, D]), k: new ort.Tensor('float32', k.data, [T, D]),
          v: new ort.Tensor('float32', v.data, [T, D]) };
        if (causal) feeds.mask = new ort.Tensor('float32', additiveCausalMask(T), [T, T]);
        contenders.push({ name: 'onnxruntime-web', run: async () => (await sessions[causal].run(feeds)).output.data });
      }
      // the same output from every contender, within float32 rounding, before anything is timed
      const expected = await contenders[0].run();
      for (const c of contenders.slice(1)) {
        const got = await c.run();
        const worst = maxAbsDiff(got, expected);
        if (!(worst <= 1e-4)) throw new Error(`chromium-attention: ${c.name} differs from seqorder by ${worst} at T = ${T}${causal ? ' causal' : ''}`);
      }
      const kernel = kernelContender(core, [q, k, v], causal);
      let results;
      try {
        results = await measure([...contenders, kernel.contender, ...peaks],
          { rounds: T > 1024 ? Math.max(3, Math.ceil(rounds / 2)) : rounds, sampleSeconds, time: wallSeconds });
      } finally {
        kernel.free();
      }
      const byName = Object.fromEntries(results.map((r) => [r.name, r]));
      const peak = measuredPeaks(peaks, byName);
      roundsPeaks.push(peak);
      cases.push({
        T, causal,
        results: results.filter((r) => !peaks.some((p) => p.name === r.name)).map((r) => ({
          name: r.name, gflops: flops / r.seconds / 1e9, fractionOfPeak: shareOfPeak(gflopsPerRound(r.samples, flops), peak),
          ...(withOrt && r.name.startsWith('seqorder') ? { overOrt: speedup(r, byName['onnxruntime-web']) } : {}),
        })),
      });
    }
  const { gflops, shape, chains, inRounds } = joinRoundPeaks(peaks, roundsPeaks);
  return { peak: { gflops, shape, chains, inRounds }, cases,
    versions: { seqorder: so.version } };
}

/**
 * The pool in the page (--pool): { threads, cases: [{ T, causal, results: [{ name, gflops, samples }], ratios: { overOne,
 * overOrt, callingOverOne, callingOverOrt } }] } (`ort: false`: without onnxruntime-web, the tests' runs, where it is
 * not installed; `freshBytes`: the fresh inputs' bytes, freshInputSets's by default).
 * seqorder on the page's thread, a pool of one worker per core (navigator.hardwareConcurrency), a pool of one worker
 * fewer with the page's thread computing a share (callingThread: `calling` ratios), and onnxruntime-web's threaded build
 * with as many threads, interleaved, each call on fresh inputs (freshInputSets), wall time; the pool's
 * output checked to be one thread's bits, onnxruntime-web's within 1e-4, before anything is timed. After
 * onnxruntime-web's samples a pause of 200 ms: its threads spin for a while after a call (bench/pool.mjs).
 */
export async function measurePool({ lengths = [1024, 2048], rounds = 11, sampleSeconds = 0.1, ort: withOrt = true, freshBytes } = {}) {
  const { loadSeqorder } = await import('/dist/lib/seqorder.mjs');
  const { loadSeqorderPool } = await import('/dist/lib/pool/index.mjs');
  const so = await loadSeqorder();
  const threads = navigator.hardwareConcurrency;
  const pool = await loadSeqorderPool({ workers: threads });
  const calling = threads > 1 ? await loadSeqorderPool({ workers: threads - 1, callingThread: true }) : null;
  let ort;
  const sessions = {};
  if (withOrt) {
    ort = await import(`${ORT_DIST}ort.wasm.min.mjs`);
    ort.env.wasm.numThreads = threads;
    ort.env.wasm.wasmPaths = ORT_DIST;
    ort.env.logLevel = 'error';
    for (const causal of [false, true]) {
      const graph = new Uint8Array(await (await fetch(`/bench/models/attention${causal ? '-causal' : ''}-d${WIDTH}.onnx`)).arrayBuffer());
      sessions[causal] = await ort.InferenceSession.create(graph, { executionProviders: ['wasm'] });
    }
  }
  const names = { one: 'seqorder, 1 thread', pool: `pool, ${threads} workers`, ort: `onnxruntime-web, ${threads} threads`,
    calling: `pool, ${threads - 1} worker${threads > 2 ? 's' : ''} and the calling thread` };
  let lastRan = '';
  const pause = () => new Promise((resolve) => setTimeout(resolve, lastRan === names.ort ? 200 : 10));
  const cases = [];
  try {
    for (const T of lengths)
      for (const causal of [false, true]) {
        const sets = freshInputSets(T, WIDTH, { ort, causal, bytes: freshBytes });
        const calls = [
          { name: names.one, call: ({ q, k, v }) => so.attention(q, k, v, { causal }).data },
          { name: names.pool, call: async ({ q, k, v }) => (await pool.attention(q, k, v, { causal })).data },
          ...(withOrt ? [{ name: names.ort, call: async ({ feeds }) => (await sessions[causal].run(feeds)).output.data }] : []),
          ...(calling ? [{ name: names.calling, call: async ({ q, k, v }) => (await calling.attention(q, k, v, { causal })).data }] : []),
        ];
        const expected = calls[0].call(sets[0]);
        for (const pooled of [await calls[1].call(sets[0]), ...(calling ? [await calls.at(-1).call(sets[0])] : [])])
          if (pooled.length !== expected.length || !pooled.every((x, i) => Object.is(x, expected[i])))
            throw new Error(`chromium-attention: the pool's output is not one thread's bits at T = ${T}${causal ? ' causal' : ''}`);
        const worst = withOrt ? maxAbsDiff(await calls[2].call(sets[0]), expected) : 0;
        if (!(worst <= 1e-4)) throw new Error(`chromium-attention: onnxruntime-web differs from seqorder by ${worst} at T = ${T}${causal ? ' causal' : ''}`);
        const contenders = calls.map(({ name, call }, n) => {
          const next = ring(sets, call, Math.floor((n * sets.length) / calls.length));
          return { name, run: () => { lastRan = name; return next(); } };
        });
        for (const c of contenders) await c.run();
        const results = await measure(contenders, { rounds, sampleSeconds, time: wallSeconds, pause, warm: 1 });
        const [one, pooledResult] = results;
        const ortResult = withOrt ? results[2] : undefined;
        const callingResult = calling ? results.at(-1) : undefined;
        const flops = 4 * T * T * WIDTH * (causal ? 0.5 : 1);
        cases.push({
          T, causal,
          results: results.map((r) => ({ name: r.name, gflops: flops / r.seconds / 1e9, samples: r.samples })),
          ratios: {
            overOne: speedup(pooledResult, one), ...(withOrt ? { overOrt: speedup(pooledResult, ortResult) } : {}),
            ...(calling ? { callingOverOne: speedup(callingResult, one) } : {}),
            ...(calling && withOrt ? { callingOverOrt: speedup(callingResult, ortResult) } : {}),
          },
        });
      }
  } finally {
    await Promise.all([pool.close(), calling?.close()]);
  }
  return { threads, cases, versions: { seqorder: so.version } };
}

/** measureAttention(options) in a page of `engine`, this repository served to it: { browser, ...its result }. */
export async function measureInBrowser(engine, options = {}) {
  const { inEnginePage } = await import('./chromium-page.mjs');
  const { browser, result } = await inEnginePage(engine, 'chromium-attention',
    async (o) => (await import('/bench/chromium-attention.mjs')).measureAttention(o), options);
  return { browser, ...result };
}

/** measurePool(options) in a page of `engine`: { browser, ...its result }. */
export async function measurePoolInBrowser(engine, options = {}) {
  const { inEnginePage } = await import('./chromium-page.mjs');
  const { browser, result } = await inEnginePage(engine, 'chromium-attention pool',
    async (o) => (await import('/bench/chromium-attention.mjs')).measurePool(o), options);
  return { browser, ...result };
}

// Run as a script.
async function main() {
  const os = (await import('node:os')).default;
  const { existsSync, mkdirSync, readFileSync, writeFileSync } = await import('node:fs');
  const path = await import('node:path');
  const { ALL_ENGINES } = await import('../tests/browser/helpers/engines/index.mjs');
  const { benchArgs, machine } = await import('./harness.mjs');
  const at = process.argv.indexOf('--browser');
  const engine = at > 0 ? process.argv[at + 1] : 'chromium';
  if (!ALL_ENGINES.includes(engine)) {
    console.error(`chromium-attention: --browser must be one of ${ALL_ENGINES.join(', ')}, got ${engine}`);
    process.exit(2);
  }
  const poolRun = process.argv.includes('--pool');
  const { quick, jsonPath } = poolRun ? benchArgs(`${engine}-pool`, `${engine}-pool-quick`) : benchArgs(engine, `${engine}-quick`);
  if (!existsSync(new URL(`${ORT_DIR}ort.wasm.min.mjs`, import.meta.url))) {
    console.error('chromium-attention: onnxruntime-web is not installed: run npm run bench once (it installs bench/package.json)');
    process.exit(1);
  }
  if (poolRun) {
    const atStart = machine('wall time in the page (performance.now): the pool and onnxruntime-web run several threads');
    const result = await measurePoolInBrowser(engine, quick ? { lengths: [1024], rounds: 5 } : {});
    const report = { machine: atStart, engine, ...result };
    report.versions['onnxruntime-web'] = JSON.parse(readFileSync(new URL(`${ORT_DIR}../package.json`, import.meta.url), 'utf8')).version;
    console.log(`${report.machine.cpu}, ${result.browser}, ${result.threads} threads; load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
    for (const c of result.cases)
      console.log(`T = ${String(c.T).padEnd(5)} ${c.causal ? 'causal' : '      '} ${c.results.map((r) => `${r.name} ${r.gflops.toFixed(1)}`).join(', ')} GFLOP/s; ` +
        `the pool ${c.ratios.overOne.toFixed(2)}x one thread, ${c.ratios.overOrt.toFixed(2)}x onnxruntime-web` +
        (c.ratios.callingOverOne ? `; with the calling thread ${c.ratios.callingOverOne.toFixed(2)}x, ${c.ratios.callingOverOrt.toFixed(2)}x` : ''));
    report.machine.loadAverageAtEnd = os.loadavg().map((x) => Math.round(x * 100) / 100);
    mkdirSync(path.dirname(jsonPath), { recursive: true });
    writeFileSync(jsonPath, `${JSON.stringify(report, null, 2)}\n`);
    console.error(`wrote ${jsonPath}`);
    return;
  }
  const atStart = machine('wall time in the page (performance.now), one thread per contender');
  const result = await measureInBrowser(engine, quick ? { lengths: [256, 1024], rounds: 5 } : {});
  const report = { machine: atStart, engine, ...result };
  const ortPackage = new URL(`${ORT_DIR}../package.json`, import.meta.url);
  report.versions['onnxruntime-web'] = JSON.parse(readFileSync(ortPackage, 'utf8')).version;
  console.log(`${report.machine.cpu}, ${result.browser}; load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}; ` +
    `SIMD128 peak ${result.peak.gflops.toFixed(1)} GFLOP/s (${peakName(result.peak)})`);
  for (const c of result.cases)
    for (const r of c.results)
      console.log(`T = ${String(c.T).padEnd(5)} ${c.causal ? 'causal' : '      '} ${r.name.padEnd(24)} ${r.gflops.toFixed(1).padStart(6)} GFLOP/s ` +
        `${(100 * r.fractionOfPeak).toFixed(0).padStart(4)}%${r.overOrt ? `  ${r.overOrt.toFixed(2)}x onnxruntime-web` : ''}`);
  mkdirSync(path.dirname(jsonPath), { recursive: true });
  report.machine.loadAverageAtEnd = os.loadavg().map((x) => Math.round(x * 100) / 100);
  writeFileSync(jsonPath, `${JSON.stringify(report, null, 2)}\n`);
  console.error(`wrote ${jsonPath}`);
}
if (typeof process !== 'undefined' && process.argv?.[1] && import.meta.url === `file://${process.argv[1]}`) main();
