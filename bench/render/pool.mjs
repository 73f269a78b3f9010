// bench/pool.mjs's report (bench/results/<machine kind>/pool.json) as markdown: the machine, the pool's speeds and its
// overhead.
import { speedup } from '../../web/js/bench-kernels.mjs';
import { median, middleHalf } from '../../web/js/median.mjs';
import { ortThreadsName, poolBoundName, poolCallingName, poolName } from '../harness.mjs';
import { fixed, table, times } from './tables.mjs';

/** The worker counts of a case's pools: an object keyed by them while the benchmark runs, their list in its JSON. */
const poolCounts = (pools) => (Array.isArray(pools) ? pools : Object.keys(pools).map(Number));

function poolAttentionTable(cases) {
  const counts = poolCounts(cases[0].pools);
  const cores = Math.max(...counts);
  const ortName = ortThreadsName(cores);
  const byName = cases.map((c) => Object.fromEntries(c.results.map((r) => [r.name, r])));
  // runs made while the pool shared memory where it could also timed a pool that copied, under this name
  const copyingName = `${poolName(cores)}, no shared memory`;
  const copying = cores > 1 && byName.every((by) => by[copyingName]);
  // runs from the bound's introduction on also timed it
  const boundName = poolBoundName(cores);
  const bound = cores > 1 && byName.every((by) => by[boundName]);
  // runs from options.callingThread's introduction on also timed a pool of one worker fewer with the calling thread
  const callingName = poolCallingName(cores - 1);
  const calling = cores > 1 && byName.every((by) => by[callingName]);
  const names = ['seqorder, 1 thread', ...counts.map(poolName), ...(calling ? [callingName] : []), ...(copying ? [copyingName] : []),
    ...(bound ? [boundName] : []), ortName];
  const rows = names.map((name) => [name, ...byName.map((by) => fixed(by[name]?.gflops))]);
  const ratio = (label, fast, slow) => rows.push([label, ...byName.map((by) => times(speedup(by[fast], by[slow])))]);
  // the middle half of the per-round ratios: how much the other work on the machine moved them during the run
  const spread = (label, fast, slow) => rows.push([label, ...byName.map((by) => {
    const [low, high] = middleHalf(by[slow].samples.map((s, i) => s / by[fast].samples[i]));
    return `${times(low)}–${times(high)}`;
  })]);
  const all = poolName(cores);
  if (cores > 1) {
    ratio(`**${all} ÷ seqorder, 1 thread**`, all, 'seqorder, 1 thread');
    spread('its rounds\' middle half', all, 'seqorder, 1 thread');
    ratio(`**${all} ÷ ${ortName}**`, all, ortName);
    spread('its rounds\' middle half', all, ortName);
    if (calling) {
      ratio(`**${callingName} ÷ seqorder, 1 thread**`, callingName, 'seqorder, 1 thread');
      spread('its rounds\' middle half', callingName, 'seqorder, 1 thread');
      ratio(`**${callingName} ÷ ${ortName}**`, callingName, ortName);
      spread('its rounds\' middle half', callingName, ortName);
    }
    ratio(`${all} ÷ ${poolName(1)}`, all, poolName(1));
    if (bound) {
      ratio(`${all} ÷ its bound`, all, boundName);
      ratio(`its bound ÷ seqorder, 1 thread`, boundName, 'seqorder, 1 thread');
    }
  }
  if (copying) {
    ratio(`${copyingName} ÷ seqorder, 1 thread`, copyingName, 'seqorder, 1 thread');
    ratio(`${copyingName} ÷ ${ortName}`, copyingName, ortName);
  }
  ratio(`${poolName(1)} ÷ seqorder, 1 thread`, poolName(1), 'seqorder, 1 thread');
  // CPU time per call, every thread counted: the work the pool adds (copies, messages) whatever the machine's load
  rows.push([`CPU time per call, ${all} ÷ seqorder, 1 thread`,
    ...byName.map((by) => times(by[all].cpuSeconds / by['seqorder, 1 thread'].cpuSeconds))]);
  return table('GFLOP/s (wall clock)', cases.map((c) => `T = ${c.T}${c.causal ? ' causal' : ''}`), rows);
}

function poolOverheadTable(results) {
  const by = Object.fromEntries(results.map((r) => [r.name, r]));
  const us = (name) => fixed(by[name].seconds * 1e6);
  // the median over rounds of the difference within each round, as speedup() pairs its ratios
  const extra = (slow, fast) => fixed(1e6 * median(by[slow].samples.map((s, i) => s - by[fast].samples[i])));
  const rows = [
    ['seqorder on this thread', us('seqorder, T = 256'), us('seqorder, T = 1')],
    ['pool, 1 worker', us('pool, 1 worker, T = 256'), us('pool, 1 worker, T = 1')],
    ['**the pool\'s overhead**', `**${extra('pool, 1 worker, T = 256', 'seqorder, T = 256')}**`, extra('pool, 1 worker, T = 1', 'seqorder, T = 1')],
    ['of which copies of q, k, v (the rest: messages, waking the worker)', us('copies of q, k, v, T = 256'), '—'],
  ];
  return table('µs per call (wall clock)', ['T = 256', 'T = 1 (a round trip)'], rows);
}

/** The parts of bench/pool.mjs's report (its JSON): { machine (a paragraph), attention, overhead }. */
export function poolParts(report) {
  const m = report.machine;
  const cores = Math.max(...poolCounts(report.attention[0].pools));
  return {
    machine: [
      `Machine: ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB; node ${m.node} (V8 ${m.v8}); ${m.date.slice(0, 10)}; commit ${m.commit}; load average ${m.loadAverage.join(' ')} at the start, ${report.loadAverageAtEnd.join(' ')} at the end.`,
      `onnxruntime-web ${report.versions['onnxruntime-web']} (wasm, numThreads = ${cores}). Wall clock, medians of interleaved rounds, each sample after one untimed call; ratios are medians of per-round ratios.`,
    ].join('\n'),
    attention: poolAttentionTable(report.attention),
    overhead: poolOverheadTable(report.overhead),
  };
}

/**
 * The parts of bench/chromium-attention.mjs --pool's report (bench/results/<machine kind>/<engine>-pool.json):
 * { machine, attention (GFLOP/s of each contender, the pool's two ratios) }.
 */
export function pagePoolParts(report) {
  const m = report.machine;
  const machine = [
    `${report.browser} (headless), on ${m.cpu}, ${m.cores} cores; ${m.date.slice(0, 10)}; commit ${m.commit}; load average ` +
      `${m.loadAverage.join(' ')} at the start, ${m.loadAverageAtEnd.join(' ')} at the end.`,
    `onnxruntime-web ${report.versions['onnxruntime-web']} (wasm, numThreads = ${report.threads}). Wall time in the page, ` +
      'medians of interleaved rounds, each sample after one untimed call, fresh inputs each call; ratios are medians of per-round ratios.',
  ].join('\n');
  const cases = report.cases;
  const names = cases[0].results.map((r) => r.name);
  const pool = names[1];
  const calling = names.find((name) => name.endsWith(' and the calling thread'));
  const attention = table('GFLOP/s (wall time)', cases.map((c) => `T = ${c.T}${c.causal ? ' causal' : ''}`), [
    ...names.map((name) => [name, ...cases.map((c) => fixed(c.results.find((r) => r.name === name)?.gflops))]),
    [`**${pool} ÷ ${names[0]}**`, ...cases.map((c) => `**${times(c.ratios.overOne)}**`)],
    [`**${pool} ÷ ${names[2]}**`, ...cases.map((c) => `**${times(c.ratios.overOrt)}**`)],
    // runs from options.callingThread's introduction on also timed a pool of one worker fewer with the page's thread
    ...(calling ? [
      [`**${calling} ÷ ${names[0]}**`, ...cases.map((c) => `**${times(c.ratios.callingOverOne)}**`)],
      [`**${calling} ÷ ${names[2]}**`, ...cases.map((c) => `**${times(c.ratios.callingOverOrt)}**`)],
    ] : []),
  ]);
  return { machine, attention };
}

/** What bench/pool.mjs prints (and keeps in its JSON as `table`). */
export function poolText(report) {
  const parts = poolParts(report);
  return [
    parts.machine,
    '',
    `Attention, float32, D = ${report.attention[0].D}: GFLOP/s = 4·T²·D / time (half for causal).`,
    '',
    parts.attention,
    '',
    'The pool\'s overhead: a pool of 1 worker against seqorder on this thread.',
    '',
    parts.overhead,
    '',
    `(${report.seconds.toFixed(0)} s${report.settings.quick ? ', --quick' : ''})`,
  ].join('\n');
}
