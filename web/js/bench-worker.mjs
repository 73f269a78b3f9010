// The benchmark page's Web Worker: times seqorder against plain JS off the main thread, so the page stays responsive
// and shows progress. Same contenders and the same interleaved-rounds harness as the node benchmark (bench/run.mjs),
// from web/js/bench-kernels.mjs; the clock here is wall time (performance.now), the only one a page has.
//
// It speaks the package's worker protocol (lib/pool/protocol.mjs), with three ops:
//   load → nothing, once every module is loaded (or its error);
//   describe → { version, relaxed, poolWorkers, poolError } (relaxed: whether the relaxed build runs here;
//     poolWorkers: the pool's size, or 0 with poolError saying why there is none);
//   run { preset: 'quick' | 'full' | 'smoke' } → { seconds }, reporting { type: 'progress', fraction, label } and one
//     { type: 'case', result } per case on the way; what fails rejects the run with its message.
import { loadSeqorder } from '../lib/seqorder.mjs';
import { loadSeqorderPool } from '../lib/pool/index.mjs';
import { serve } from '../lib/pool/protocol.mjs';
import { measure, plainJsAttention, plainJsPositions, randomTensor, wallSeconds } from './bench-kernels.mjs';
import { maxAbsDiff } from './experiments/reference.mjs';

const WIDTH = 64;
const PRESETS = {
  quick: { lengths: [256, 1024], positions: [[512, 512], [2048, 512]], rounds: 3, sampleSeconds: 0.03, budgetSeconds: 1 },
  full: { lengths: [256, 1024, 2048], positions: [[512, 512], [2048, 512]], rounds: 7, sampleSeconds: 0.08, budgetSeconds: 4 },
  // bench.html?preset=smoke: tiny sizes, one round (the browser test's). Pages that are not cross-origin isolated
  // have a coarse clock (0.1 ms in Chromium, 1 ms in Firefox and WebKit): measure() makes each sample span 5 ms at least.
  smoke: { lengths: [64], positions: [[64, 64]], rounds: 1, sampleSeconds: 0.02, budgetSeconds: 0.1 },
};

// The default module, the opt-in relaxed-SIMD one where this browser runs relaxed SIMD (else relaxed is null), and a
// pool of workers, one per core the browser reports (else pool is null: a browser without nested workers, say).
const ready = Promise.all([
  loadSeqorder(),
  loadSeqorder({ simd: 'relaxed' }),
  loadSeqorderPool().catch((error) => error),
]).then(([so, relaxed, pool]) => ({
  so, relaxed: relaxed.build === 'relaxed' ? relaxed : null, pool: pool instanceof Error ? null : pool, poolError: pool?.message,
}));
ready.catch(() => {});  // its error is op load's answer

/** Yield to the worker's event loop between samples. */
const pause = () => new Promise((resolve) => setTimeout(resolve, 0));

function attentionCase({ so, relaxed, pool }, T, causal) {
  const q = randomTensor([T, WIDTH], 1), k = randomTensor([T, WIDTH], 2), v = randomTensor([T, WIDTH], 3);
  const out = new Float32Array(T * WIDTH);
  return {
    kind: 'attention',
    label: `attention T = ${T}${causal ? ', causal' : ''}`,
    T, causal, width: WIDTH,
    work: 4 * T * T * WIDTH * (causal ? 0.5 : 1),  // flops
    tolerance: 1e-4,
    contenders: [
      { name: 'seqorder', run: () => so.attention(q, k, v, { causal }).data },
      { name: 'seqorder, out', run: () => so.attention(q, k, v, { causal, out }).data },
      ...(relaxed ? [{ name: 'seqorder, relaxed SIMD', run: () => relaxed.attention(q, k, v, { causal }).data }] : []),
      ...(pool ? [{ name: 'seqorder pool', run: async () => (await pool.attention(q, k, v, { causal })).data }] : []),
      { name: 'plain JS', run: () => plainJsAttention({ q: q.data, k: k.data, v: v.data, queries: T, keys: T, width: WIDTH, valueWidth: WIDTH, causal }) },
    ],
  };
}

function positionsCase({ so }, length, width) {
  const out = new Float32Array(length * width), plainOut = new Float32Array(length * width);
  return {
    kind: 'positions',
    label: `positions ${length} × ${width}, float32`,
    length, width, dtype: 'float32',
    work: length * width,  // elements
    tolerance: 1.2e-7,
    contenders: [
      { name: 'seqorder', run: () => so.positions(length, width, { dtype: 'float32' }).data },
      { name: 'seqorder, out', run: () => so.positions(length, width, { dtype: 'float32', out }).data },
      { name: 'plain JS', run: () => plainJsPositions(length, width, { Array: Float32Array }) },
      { name: 'plain JS, out', run: () => plainJsPositions(length, width, { Array: Float32Array, out: plainOut }) },
    ],
  };
}

async function run(preset, report) {
  const settings = PRESETS[preset] ?? PRESETS.quick;
  const modules = await ready;
  const started = performance.now();
  const cases = [];
  for (const T of settings.lengths) for (const causal of [false, true]) cases.push(attentionCase(modules, T, causal));
  for (const [length, width] of settings.positions) cases.push(positionsCase(modules, length, width));

  // Warm-up at small sizes, so the engine has optimized every contender before anything is timed.
  report({ type: 'progress', fraction: 0, label: 'warming up' });
  const small = [attentionCase(modules, 64, false), attentionCase(modules, 64, true), positionsCase(modules, 32, 64)];
  for (let i = 0; i < 10; i++) for (const c of small) for (const contender of c.contenders) await contender.run();
  await new Promise((resolve) => setTimeout(resolve, 200));

  for (let n = 0; n < cases.length; n++) {
    const c = cases[n];
    report({ type: 'progress', fraction: n / cases.length, label: `${c.label}: checking results` });
    await pause();
    // One call each: compiles, grows the heap, and checks seqorder's result against plain JS before timing it.
    const plain = c.contenders.find((x) => x.name === 'plain JS');
    let expected;
    plain.once = await wallSeconds(() => { expected = plain.run(); });
    for (const contender of c.contenders) {
      if (contender !== plain) {
        let got;
        contender.once = await wallSeconds(async () => { got = await contender.run(); });
        contender.maxAbsDiff = maxAbsDiff(got, expected);
        if (!(contender.maxAbsDiff <= c.tolerance))
          throw new Error(`${c.label}: ${contender.name} differs from plain JS by ${contender.maxAbsDiff}`);
      }
      contender.rounds = Math.max(1, Math.floor(settings.budgetSeconds / Math.max(contender.once, 1e-6)));
      await pause();
    }
    const results = await measure(c.contenders, {
      rounds: settings.rounds,
      sampleSeconds: settings.sampleSeconds,
      pause,
      onSample: (done, total) =>
        report({ type: 'progress', fraction: (n + done / total) / cases.length, label: `${c.label}: ${done}/${total} samples` }),
    });
    const { contenders, ...described } = c;
    report({
      type: 'case',
      result: {
        ...described,
        results: results.map((r) => ({ ...r, maxAbsDiff: contenders.find((x) => x.name === r.name).maxAbsDiff ?? 0 })),
      },
    });
  }
  return { seconds: (performance.now() - started) / 1000 };
}

serve({
  async load() {
    await ready;
    return { value: undefined };
  },
  async describe() {
    const { so, relaxed, pool, poolError } = await ready;
    return { value: { version: so.version, relaxed: relaxed !== null, poolWorkers: pool?.workers ?? 0, poolError } };
  },
  async run({ preset }, report) {
    return { value: await run(preset, report) };
  },
});
