// The performance goals on each machine kind (docs/performance.md's summary), from the latest results of each kind.
import { speedup } from '../../web/js/bench-kernels.mjs';
import { ortThreadsName, poolCallingName, poolName } from '../harness.mjs';
import { isKernel } from './kernel.mjs';
import { pageMedians } from './page-ready.mjs';
import { fixed, table, times } from './tables.mjs';

/** The machine kinds (machineKind()) the goals are stated for, as the summary's columns. */
export const GOAL_MACHINES = [['intel', 'Intel Xeon'], ['amd-zen3', 'AMD Zen 3'], ['amd-zen4', 'AMD Zen 4'], ['amd-zen5', 'AMD Zen 5']];

/** A case's results by contender name ({} for a case not run). */
const byContender = (c) => Object.fromEntries(c?.results.map((r) => [r.name, r]) ?? []);
const attentionCase = (report, T, causal) => byContender(report.attention.find((c) => c.T === T && c.causal === causal));
const positionsCase = (report, length, width, dtype) =>
  byContender(report.positions.find((c) => c.length === length && c.width === width && c.dtype === dtype));
const stepShares = (report) => report.training?.shareOfPeak?.map((s) => s.fractionOfPeak) ?? [NaN];
// the pool with every worker at T = 1024 (not causal), over one thread or onnxruntime-web with as many threads
// (calling: a worker fewer and the calling thread, options.callingThread; NaN in runs made before it)
const poolRatio = (report, other, calling = false) => {
  const c = report.attention.find((x) => x.T === 1024 && !x.causal);
  const cores = Math.max(...c.pools);
  const by = Object.fromEntries(c.results.map((r) => [r.name, r]));
  const pool = by[calling ? poolCallingName(cores - 1) : poolName(cores)];
  return pool ? speedup(pool, by[other === 'ort' ? ortThreadsName(cores) : 'seqorder, 1 thread']) : NaN;
};
// the same in a page (bench/chromium-attention.mjs --pool): its case at T = 1024 (not causal)
const PAGE_RATIOS = { one: ['overOne', 'callingOverOne'], ort: ['overOrt', 'callingOverOrt'] };
const pagePoolRatio = (report, other, calling = false) =>
  report.cases.find((x) => x.T === 1024 && !x.causal)?.ratios[PAGE_RATIOS[other][calling ? 1 : 0]] ?? NaN;
// the lab's default run in a page (bench/lab-run.mjs), ms: the median of the build timed ("this build")
const labRunMs = (report) => report?.sites?.[0]?.page ?? NaN;
const seconds = (ms) => `${fixed(ms / 1000, 1)} s`;
const kernelShares = (report) => [256, 1024, 4096]
  .map((T) => report.rows.find((r) => r.T === T && !r.causal && isKernel(r.name))?.fractionOfPeak);

/**
 * Each goal: what it asks, the results file its figure comes from (bench/results/<machine kind>/<source>.json), the
 * figure (NaN, or an array holding one, when the file has no such case; figure(report, read) may read another of the
 * kind's results, read(source), undefined when not run), the figure as written, and whether it is met.
 */
export const GOALS = [
  { goal: 'the fused kernel at T = 256 / 1024 / 4096: ≥ 80% of the same rounds\' SIMD128 peak',
    source: 'kernel', figure: kernelShares, text: (f) => `${f.map((x) => fixed(100 * x, 0)).join(' / ')}%`,
    met: (f) => f.every((x) => x >= 0.8) },
  { goal: 'attention on one thread ÷ onnxruntime-web (1 thread), T = 1024: ≥ 1.6×', source: 'latest',
    figure: (r) => { const c = attentionCase(r, 1024, false); return speedup(c.seqorder, c['onnxruntime-web']); },
    text: times, met: (x) => x >= 1.6 },
  { goal: 'the same, causal: ≥ 3×', source: 'latest',
    figure: (r) => { const c = attentionCase(r, 1024, true); return speedup(c.seqorder, c['onnxruntime-web']); },
    text: times, met: (x) => x >= 3 },
  { goal: 'training the lab model ÷ PyTorch (native, 1 thread): ≥ 1.5×', source: 'latest',
    figure: (r) => r.training?.contenders.find((c) => c.name === 'PyTorch')?.seqorderTimes ?? NaN,
    text: times, met: (x) => x >= 1.5 },
  { goal: 'a training step (JS API, float32; its matrix products and attention counted), the lab model / 2 layers of width 64 at T = 32: ≥ 65% of the same run\'s SIMD128 peak',
    source: 'latest', figure: stepShares, text: (f) => `${f.map((x) => fixed(100 * x, 0)).join(' / ')}%`,
    met: (f) => f.every((x) => x >= 0.65) },
  { goal: 'the pool, every core, T = 1024 ÷ one thread: ≥ 1.7×', source: 'pool',
    figure: (r) => poolRatio(r, 'one'), text: times, met: (x) => x >= 1.7 },
  { goal: 'the same ÷ onnxruntime-web with as many threads: ≥ 1.5×', source: 'pool',
    figure: (r) => poolRatio(r, 'ort'), text: times, met: (x) => x >= 1.5 },
  { goal: 'the pool with a worker fewer and the calling thread computing a share (callingThread), T = 1024 ÷ one thread: ≥ 1.7×',
    source: 'pool', figure: (r) => poolRatio(r, 'one', true), text: times, met: (x) => x >= 1.7 },
  { goal: 'the same ÷ onnxruntime-web with as many threads: ≥ 1.5×', source: 'pool',
    figure: (r) => poolRatio(r, 'ort', true), text: times, met: (x) => x >= 1.5 },
  { goal: 'the pool in Chromium, every core, T = 1024 ÷ one thread: ≥ 1.7×', source: 'chromium-pool',
    figure: (r) => pagePoolRatio(r, 'one'), text: times, met: (x) => x >= 1.7 },
  { goal: 'the same ÷ onnxruntime-web with as many threads: ≥ 1.5×', source: 'chromium-pool',
    figure: (r) => pagePoolRatio(r, 'ort'), text: times, met: (x) => x >= 1.5 },
  { goal: 'the pool in Chromium with a worker fewer and the calling thread (the page\'s), T = 1024 ÷ one thread: ≥ 1.7×',
    source: 'chromium-pool', figure: (r) => pagePoolRatio(r, 'one', true), text: times, met: (x) => x >= 1.7 },
  { goal: 'the same ÷ onnxruntime-web with as many threads: ≥ 1.5×', source: 'chromium-pool',
    figure: (r) => pagePoolRatio(r, 'ort', true), text: times, met: (x) => x >= 1.5 },
  { goal: 'positions, float32 2048 × 512 into `out`, ÷ plain JS into one array: ≥ 10×', source: 'latest',
    figure: (r) => { const c = positionsCase(r, 2048, 512, 'float32'); return speedup(c['seqorder, out'], c['plain JS, out']); },
    text: times, met: (x) => x >= 10 },
  { goal: 'a first visit to the lesson page (a new profile each), headless Chromium, median of 5: ready < 1 s',
    source: 'page-ready', figure: (r) => r.median.cold?.ready ?? NaN, text: (x) => `${Math.round(x)} ms`, met: (x) => x < 1000 },
  { goal: 'its first contentful paint: < 300 ms', source: 'page-ready',
    figure: (r) => r.median.cold?.fcp ?? NaN, text: (x) => `${Math.round(x)} ms`, met: (x) => x < 300 },
  { goal: 'a second visit (warm caches), median of 5: ready < 1 s', source: 'page-ready',
    figure: (r) => pageMedians(r).warm.ready ?? NaN, text: (x) => `${Math.round(x)} ms`, met: (x) => x < 1000 },
  { goal: 'the lab\'s default run in headless Chromium, from reaching the section to done (median of 3, fresh profiles): ≤ 4 s',
    source: 'lab-run', figure: (r) => labRunMs(r), text: seconds, met: (x) => x <= 4000 },
  { goal: 'the same in Firefox ESR: within 2× of Chromium\'s (this kind\'s latest Chromium run)', source: 'lab-run-firefox',
    figure: (r, read) => labRunMs(r) / labRunMs(read('lab-run')), text: (x) => `${times(x)} Chromium's`, met: (x) => x <= 2 },
  { goal: 'the same in WebKitGTK: within 2× of Chromium\'s', source: 'lab-run-webkit',
    figure: (r, read) => labRunMs(r) / labRunMs(read('lab-run')), text: (x) => `${times(x)} Chromium's`, met: (x) => x <= 2 },
];

/**
 * The summary of the goals: { table (a goal a row, a machine kind a column: each figure from that kind's latest
 * results, and whether it meets the goal), runs (which run of which commit each column's figures come from) }.
 * `read(source)` gives bench/results/<source>.json, parsed; a file not there is a run not made on that kind.
 */
export function goalsParts(read) {
  const scripts = { latest: 'bench/run.mjs', kernel: 'bench/attention-kernel.mjs', pool: 'bench/pool.mjs', 'chromium-pool': 'bench/chromium-attention.mjs --pool', 'page-ready': 'bench/page-ready.mjs',
    'lab-run': 'bench/lab-run.mjs', 'lab-run-firefox': 'bench/lab-run.mjs --browser firefox', 'lab-run-webkit': 'bench/lab-run.mjs --browser webkit' };
  const readIfThere = (source) => {
    try {
      return read(source);
    } catch (error) {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    }
  };
  // each kind's results files, read once: { kind: { source: report or undefined } }
  const results = Object.fromEntries(GOAL_MACHINES.map(([kind]) =>
    [kind, Object.fromEntries(Object.keys(scripts).map((source) => [source, readIfThere(`${kind}/${source}`)]))]));
  const cell = (goal, kind) => {
    const report = results[kind][goal.source];
    if (!report) return 'no run';
    const figure = goal.figure(report, (source) => results[kind][source]);
    if ([figure].flat().some((x) => !Number.isFinite(x))) return '—';
    return `${goal.text(figure)}, ${goal.met(figure) ? 'met' : '**not met**'}`;
  };
  const summary = table('goal', GOAL_MACHINES.map(([, name]) => name),
    GOALS.map((goal) => [goal.goal, ...GOAL_MACHINES.map(([kind]) => cell(goal, kind))]));
  const runs = GOAL_MACHINES.map(([kind, name]) => {
    const each = Object.entries(scripts).map(([source, script]) => {
      const report = results[kind][source];
      if (!report) return `${script}: no run`;
      const date = report.machine?.date ?? report.date;
      const commit = report.machine?.commit ?? report.commit;
      return `${script}${commit ? ` at ${commit}` : ''}${date ? ` (${date.slice(0, 10)})` : ' (its commit and date not kept)'}`;
    });
    return `- ${name}: ${each.join('; ')}.`;
  }).join('\n');
  return { table: summary, runs };
}
