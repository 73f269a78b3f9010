// What the benchmarks' reports (bench/run.mjs, bench/pool.mjs, bench/sizes.mjs, bench/attention-kernel.mjs,
// bench/page-ready.mjs) are made of: their command line, the machine they ran on (CPU, cores, node and V8, the load
// average, the commit), and their markdown tables, rendered from their JSON (bench/results/*.json). Run as a command,
// it writes those tables into docs/performance.md (see the end).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { speedup } from '../web/js/bench-kernels.mjs';
import { median } from '../web/js/median.mjs';
import { trainingTable } from './model-train.mjs';
import { SHAPES as SIMD_LOAD_SHAPES } from './simd-loads.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The commit the benchmark ran at, with ' (modified)' when the work tree differs from it. */
export function gitDescribe() {
  try {
    const git = (...a) => execFileSync('git', a, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const dirty = git('status', '--porcelain', '--untracked-files=no', '--', 'src', 'CMakeLists.txt') !== '';
    return `${git('rev-parse', '--short', 'HEAD')}${dirty ? ' (modified)' : ''}`;
  } catch {
    return 'unknown';
  }
}

/** The 1, 5 and 15-minute load averages, rounded. */
export const loadAverage = () => os.loadavg().map((x) => Number(x.toFixed(2)));

/** The machine, and `clock`: what the benchmark's times are. */
export function machine(clock) {
  let cpu = os.cpus()[0]?.model ?? 'unknown';
  try {
    const line = readFileSync('/proc/cpuinfo', 'utf8').split('\n').find((l) => l.startsWith('model name'));
    if (line) cpu = line.split(':')[1].trim();
  } catch { /* not Linux: os.cpus() it is */ }
  return {
    cpu,
    cores: os.cpus().length,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    platform: `${os.platform()} ${os.release()}`,
    node: process.version,
    v8: process.versions.v8,
    date: new Date().toISOString(),
    loadAverage: loadAverage(),
    clock,
    commit: gitDescribe(),
  };
}

/**
 * A module of the built package ($SEQORDER_DIST/lib, default dist/lib): its entry point, or `file` (pool/index.mjs for
 * seqorder/pool); exits with a hint when it is not built.
 */
export async function importPackage(file = 'seqorder.mjs') {
  const lib = path.resolve(root, process.env.SEQORDER_DIST ?? 'dist', 'lib');
  if (!existsSync(path.join(lib, file))) {
    console.error(`bench: no built package in ${lib}: run npm run build first (or set SEQORDER_DIST)`);
    process.exit(1);
  }
  return import(pathToFileURL(path.join(lib, file)).href);
}

/**
 * The kind of processor this runs on, which names the folder of its results (bench/results/<kind>/): the same
 * WebAssembly runs at a different share of the peak on each. 'intel'; 'amd-zen3' or 'amd-zen4' (AMD family 25, by
 * model: 0x00-0x0f and 0x20-0x5f Zen 3, the others Zen 4); 'amd-zen5' (family 26); 'amd-family-<n>' for other AMD
 * families; else the vendor or the architecture.
 */
export function machineKind(cpuinfo = readCpuinfo()) {
  const field = (name) => cpuinfo.split('\n').find((l) => l.startsWith(name))?.split(':')[1]?.trim();
  const vendor = field('vendor_id');
  if (vendor === 'GenuineIntel') return 'intel';
  if (vendor === 'AuthenticAMD') {
    const family = Number(field('cpu family')), model = Number(field('model'));
    if (family === 26) return 'amd-zen5';
    if (family !== 25) return `amd-family-${family}`;
    return model < 0x10 || (model >= 0x20 && model < 0x60) ? 'amd-zen3' : 'amd-zen4';
  }
  return (vendor ?? os.arch()).toLowerCase().replace(/[^a-z0-9]+/g, '-');
}
function readCpuinfo() {
  try {
    return readFileSync('/proc/cpuinfo', 'utf8');
  } catch {
    return '';  // not Linux
  }
}

/**
 * The command line: --quick, and --json path (else bench/results/<machine kind>/<name>.json, <quickName>.json with
 * --quick or for a `partial` run, which are not committed).
 */
export function benchArgs(name, quickName, partial = false) {
  const args = process.argv.slice(2);
  const quick = args.includes('--quick');
  const jsonPath = args.includes('--json')
    ? path.resolve(args[args.indexOf('--json') + 1])
    : path.join(root, 'bench', 'results', machineKind(), `${quick || partial ? quickName : name}.json`);
  return { args, quick, jsonPath };
}

// ---- tables --------------------------------------------------------------------------------------------------------------
export const fixed = (x, digits = 1) => (Number.isFinite(x) ? x.toFixed(digits) : '—');
export const times = (x) => (Number.isFinite(x) ? `${x.toFixed(x >= 10 ? 1 : 2)}×` : '—');

const row = (cells) => `| ${cells.join(' | ')} |`;

/** One column per case, one row per contender, then the ratios: fits a README. */
export function table(header, columns, rows) {
  return [row([header, ...columns]), row(Array(columns.length + 1).fill('---')), ...rows.map((r) => row(r))].join('\n');
}

// ---- bench/run.mjs's tables --------------------------------------------------------------------------------------------------------------
function runAttentionTable(cases, peak) {
  const byName = cases.map((c) => Object.fromEntries(c.results.map((r) => [r.name, r])));
  const names = [
    ['seqorder', 'seqorder'], ['seqorder, out', 'seqorder, `out`'], ['seqorder relaxed', 'seqorder, opt-in relaxed SIMD'],
    ['seqorder reference (steps)', 'seqorder reference (`steps: true`)'],
    ['onnxruntime-web', 'onnxruntime-web (wasm, 1 thread)'], ['tfjs-backend-wasm', 'tfjs-backend-wasm (1 thread)'], ['plain JS', 'plain JS'],
  ];
  const present = names.filter(([name]) => byName.some((by) => by[name]));
  const rows = present.map(([name, label]) => [label, ...byName.map((by) => (by[name] ? `${fixed(by[name].gflops)} (${fixed(100 * by[name].gflops / peak, 0)}%)` : '—'))]);
  const speedups = (fast, slow) => byName.map((by) => times(speedup(by[fast], by[slow])));
  // each side's fastest round: the least disturbed, when the machine's noise only ever slows a round down
  const best = (result) => Math.min(...(result?.samples ?? []));
  const fastest = (fast, slow) => byName.map((by) => times(best(by[slow]) / best(by[fast])));
  rows.push(['**seqorder ÷ onnxruntime-web**', ...speedups('seqorder', 'onnxruntime-web').map((x) => `**${x}**`)]);
  rows.push(['seqorder ÷ onnxruntime-web, fastest rounds', ...fastest('seqorder', 'onnxruntime-web')]);
  if (byName.some((by) => by['seqorder relaxed'])) {
    rows.push(['seqorder relaxed ÷ onnxruntime-web', ...speedups('seqorder relaxed', 'onnxruntime-web')]);
    rows.push(['seqorder relaxed ÷ onnxruntime-web, fastest rounds', ...fastest('seqorder relaxed', 'onnxruntime-web')]);
    rows.push(['seqorder relaxed ÷ seqorder', ...speedups('seqorder relaxed', 'seqorder')]);
  }
  rows.push(['seqorder ÷ plain JS', ...speedups('seqorder', 'plain JS')]);
  return table('GFLOP/s (% of SIMD peak)', cases.map((c) => `T = ${c.T}${c.causal ? ' causal' : ''}`), rows);
}

function runPositionsTable(cases) {
  const byName = cases.map((c) => Object.fromEntries(c.results.map((r) => [r.name, r])));
  const names = [['seqorder', 'seqorder'], ['seqorder, out', 'seqorder, `out`'], ['plain JS', 'plain JS'], ['plain JS, out', 'plain JS, into one array']];
  const rows = names.map(([name, label]) => [label, ...byName.map((by) => fixed(by[name]?.nsPerElement, 2))]);
  rows.push(['**seqorder ÷ plain JS, with `out`**', ...byName.map((by) => `**${times(speedup(by['seqorder, out'], by['plain JS, out']))}**`)]);
  rows.push(['seqorder ÷ plain JS, new arrays', ...byName.map((by) => times(speedup(by.seqorder, by['plain JS'])))]);
  return table('ns per element', cases.map((c) => `${c.length}×${c.width} ${c.dtype}`), rows);
}

// ---- bench/pool.mjs's tables ------------------------------------------------------------------------------------------------------------
function poolAttentionTable(cases) {
  const counts = poolCounts(cases[0].pools);
  const cores = Math.max(...counts);
  const copyingName = copyingPoolName(cores);
  const ortName = ortThreadsName(cores);
  const byName = cases.map((c) => Object.fromEntries(c.results.map((r) => [r.name, r])));
  const names = ['seqorder, 1 thread', ...counts.map(poolName), ...(cores > 1 ? [copyingName] : []), ortName];
  const rows = names.map((name) => [name, ...byName.map((by) => fixed(by[name]?.gflops))]);
  const ratio = (label, fast, slow) => rows.push([label, ...byName.map((by) => times(speedup(by[fast], by[slow])))]);
  // the middle half of the per-round ratios: how much the other work on the machine moved them during the run
  const spread = (label, fast, slow) => rows.push([label, ...byName.map((by) => {
    const ratios = by[slow].samples.map((s, i) => s / by[fast].samples[i]).sort((a, b) => a - b);
    const at = (p) => ratios[Math.round(p * (ratios.length - 1))];
    return `${times(at(0.25))}–${times(at(0.75))}`;
  })]);
  const all = poolName(cores);
  if (cores > 1) {
    ratio(`**${all} ÷ seqorder, 1 thread**`, all, 'seqorder, 1 thread');
    spread('its rounds\' middle half', all, 'seqorder, 1 thread');
    ratio(`**${all} ÷ ${ortName}**`, all, ortName);
    spread('its rounds\' middle half', all, ortName);
    ratio(`${all} ÷ ${poolName(1)}`, all, poolName(1));
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

// ---- the reports ---------------------------------------------------------------------------------------------------------
/** The names bench/pool.mjs gives its contenders. */
export const poolName = (workers) => `pool, ${workers} worker${workers > 1 ? 's' : ''}`;
export const copyingPoolName = (cores) => `${poolName(cores)}, no shared memory`;
export const ortThreadsName = (cores) => `onnxruntime-web, ${cores} thread${cores > 1 ? 's' : ''}`;
/** The worker counts of a case's pools: an object keyed by them while the benchmark runs, their list in its JSON. */
const poolCounts = (pools) => (Array.isArray(pools) ? pools : Object.keys(pools).map(Number));

/** bench/run.mjs's sections (its --only). */
export const RUN_SECTIONS = ['attention', 'positions', 'training'];

/** The parts of bench/run.mjs's report (its JSON): { machine (a paragraph), attention, positions, training (tables) }. */
export function runParts(report) {
  const m = report.machine;
  const peak = report.simdPeak.gflops;
  return {
    machine: [
      `Machine: ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB; node ${m.node} (V8 ${m.v8}); ${m.date.slice(0, 10)}; commit ${m.commit}; load average ${m.loadAverage.join(' ')} at start.`,
      `onnxruntime-web ${report.versions['onnxruntime-web']} (wasm, 1 thread), @tensorflow/tfjs-backend-wasm ${report.versions['@tensorflow/tfjs-backend-wasm']} (1 thread${report.versions.tfjsSimd ? ', SIMD' : ''}). CPU time, medians of interleaved rounds; ratios are medians of per-round ratios.`,
      `WebAssembly SIMD128 peak of one core: ${peak.toFixed(1)} GFLOP/s (f32x4 multiplies and adds, ${report.simdPeak.shape} x${report.simdPeak.chains}).`,
    ].join('\n'),
    attention: report.attention.length ? runAttentionTable(report.attention, peak) : undefined,
    positions: report.positions.length ? runPositionsTable(report.positions) : undefined,
    // the table alone (what the benchmark prints puts a paragraph before it)
    training: report.training ? trainingTable(report.training).split('\n').filter((l) => l.startsWith('|')).join('\n') : undefined,
  };
}

/** What bench/run.mjs prints (and keeps in its JSON as `table`). */
export function runText(report) {
  const parts = runParts(report);
  const { quick, only } = report.settings;
  return [
    parts.machine,
    '',
    ...(parts.attention ? [`Attention, float32, D = ${report.attention[0].D}: GFLOP/s = 4·T²·D / time (half for causal), and % of the SIMD peak.`,
      '', parts.attention, ''] : []),
    ...(parts.positions ? ['Positions (the sinusoidal table): ns per element (lower is better).', '', parts.positions, ''] : []),
    ...(report.training ? [trainingTable(report.training), ''] : []),
    `(${report.seconds.toFixed(0)} s${quick ? ', --quick' : ''}${only.length < RUN_SECTIONS.length ? `, --only ${only.join(',')}` : ''})`,
  ].join('\n');
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

// ---- bench/sizes.mjs's tables ----------------------------------------------------------------------------------------
const kb = (bytes) => `${(bytes / 1000).toFixed(1)} KB`;

/** The parts of bench/sizes.mjs's report: { files (each .wasm module), entries (what each entry point adds) }. */
export function sizeParts(report) {
  const files = table('module', ['raw', 'gzip', 'brotli'], Object.entries(report.wasm)
    .map(([file, s]) => [`\`${file}\``, kb(s.raw), kb(s.gzip), kb(s.brotli)]));
  const main = report.entries.find((e) => e.name === 'seqorder');
  const wasmOf = (names) => names.reduce((a, n) => ({ raw: a.raw + report.wasm[n].raw, gzip: a.gzip + report.wasm[n].gzip }), { raw: 0, gzip: 0 });
  const rows = report.entries.map((e) => {
    const alone = e === main || e.name.startsWith('seqorder/plot') || e.name.startsWith('seqorder/checks');
    // beside seqorder's own: the modules of e's graph that seqorder's does not hold
    const own = alone ? e.js : e.ownJs;
    const wasm = wasmOf(e.wasm);
    const what = e === main ? '`seqorder` (an app that computes positions and attention)' : `\`${e.name}\`${alone ? '' : ', beside `seqorder`'}`;
    // each module, those fetched later than the entry point's loader marked with when
    const modules = e.wasm.map((n) => `\`${n}\`${e.when?.[n] ? ` (${e.when[n]})` : ''}`);
    return [what, `${kb(own.raw)} (${kb(own.gzip)})`, e.workerJs ? `${kb(e.workerJs.raw)} (${kb(e.workerJs.gzip)})` : '—',
      e.wasm.length ? `${modules.join(', ')}: ${kb(wasm.raw)} (${kb(wasm.gzip)})` : '—'];
  });
  const entries = table('the app imports', ['its JS, raw (gzip)', 'a worker\'s JS', '.wasm it ships, raw (gzip)'], rows);
  return { files, entries };
}

// ---- bench/attention-kernel.mjs's tables (bench/results/<machine kind>/kernel.json) ----------------------------------
/** The parts of bench/attention-kernel.mjs's report: { machine (the processor, the peak, the probe's pick), variants }. */
export function kernelParts(report) {
  const cases = [...new Map(report.rows.map((r) => [`${r.T} ${r.causal}`, r])).values()];
  const names = [...new Set(report.rows.map((r) => r.name))];
  const cell = (name, c) => {
    const r = report.rows.find((x) => x.name === name && x.T === c.T && x.causal === c.causal);
    return r ? `${fixed(r.gflops)} (${fixed(100 * r.fractionOfPeak, 0)}%)` : '—';
  };
  // the variants by their names (attentionKernels()); then the API over the probe's pick, and the reference
  const variant = (name) => name !== 'reference' && !name.startsWith('API');
  const label = (name) => (variant(name) ? `\`${name}\`${name === report.probed ? ' (the probe\'s pick)' : ''}` : name);
  const variants = table('GFLOP/s (% of the same rounds\' SIMD peak)', cases.map((c) => `T = ${c.T}${c.causal ? ' causal' : ''}`),
    names.map((name) => [label(name), ...cases.map((c) => cell(name, c))]));
  const when = report.date ? `${report.date.slice(0, 10)}; commit ${report.commit}; ` : '';
  const machine = `Processor: ${report.cpu}${report.kind ? ` (${report.kind})` : ''}; node ${report.node}; ${when}${report.clock === 'wall' ? 'wall' : 'CPU'} time; load average ` +
    `${report.loadAverage.map((x) => x.toFixed(2)).join(' ')} at the end. SIMD128 peak (${report.simdPeak.shape} ` +
    `x${report.simdPeak.chains}): ${fixed(report.simdPeak.gflops)} GFLOP/s. The probe chose \`${report.probed}\`.`;
  return { machine, variants };
}

// ---- bench/page-ready.mjs's table (bench/results/<machine kind>/page-ready.json) ------------------------------------
/** The parts of bench/page-ready.mjs's report: { machine (how and where), loads (each load, and the medians) }. */
export function pageReadyParts(report) {
  const m = report.machine;
  const ms = (x) => (x === null ? '—' : `${Math.round(x)} ms`);
  const warm = report.loads.filter((l) => l.load !== 'cold');
  const machine = `${report.browser}, one profile: a first load (cold, not counted), then ${warm.length} warm loads. ` +
    `${m.cpu}, ${m.cores} cores; ${m.date.slice(0, 10)}; commit ${m.commit}; load average ${m.loadAverage.join(' ')} ` +
    `before, ${m.loadAverageAtEnd.join(' ')} after.`;
  const loads = table('load', ['navigation → first contentful paint', 'navigation → `body[data-ready="true"]`'], [
    ...report.loads.map((l) => [String(l.load), ms(l.fcp), ms(l.ready)]),
    [`**median of the ${warm.length} warm loads**`, `**${ms(report.median.fcp)}**`, `**${ms(report.median.ready)}**`],
  ]);
  return { machine, loads };
}

// ---- bench/simd-loads.mjs's table (bench/results/<machine kind>/simd-loads.json) ------------------------------------
/**
 * The parts of bench/simd-loads.mjs's report (simd-loads.json in node, simd-loads-<engine>.json in a browser): { machine
 * (the processor, the engine, the peak), shapes (each loop's share of it) }.
 */
export function simdLoadsParts(report) {
  const how = report.engine === 'webkit' ? 'in an Xvfb display' : 'headless';
  const where = report.browser ? `${report.browser} (${how}), wall time` : `node ${report.node}; CPU time`;
  const machine = `Processor: ${report.cpu}; ${where}, medians of ${report.rounds} rounds; ` +
    `${report.date.slice(0, 10)}; load average ${report.loadAverage.map((x) => x.toFixed(2)).join(' ')} at the end. ` +
    `SIMD128 peak: ${fixed(report.peak)} GFLOP/s.${hoistedNote(report)}`;
  const operations = (s) => {
    const ran = operationsRun(report, s);
    return ran === s.vectorOps ? String(s.vectorOps) : `${s.vectorOps}, of which ${ran} ran`;
  };
  const shapes = table('loop step', ['vector loads', 'multiplies + adds', 'GFLOP/s', '% of the same rounds\' peak'],
    report.shapes.map((s) => [`\`${s.name}\``, String(s.loads), operations(s), fixed(s.gflops), `${fixed(100 * s.fractionOfPeak, 0)}%`]));
  return { machine, shapes };
}

/**
 * What a Chromium run from before the loops' addresses varied (`addresses: 'varying'`) measured: its V8 may move a load
 * from a constant address out of a loop that stores nothing, and then the products (V8 14 does), so its fixed-address
 * rows and its peak may count operations that did not run. Empty for node 20's runs (V8 11 moves none of it).
 */
function hoistedNote(report) {
  if (report.addresses === 'varying' || !report.browser) return '';
  return ' **Not valid:** run before the loops\' addresses varied. This V8 may have moved the loads from fixed addresses, ' +
    'and then their multiplies, out of the loops (V8 14 does: bench/simd-loads.mjs), so the rows that do not walk, and ' +
    'the peak\'s tree shape, may count operations that did not run; the walking rows ran as written, but their shares ' +
    'count against that peak.';
}

/**
 * The multiplies and adds a simd-loads loop ran. Runs from before the report says `registerRows: 'distinct'` held the
 * same a (1.0) in every row kept in a register, and V8 computed the products of those rows with each b once: one row's
 * multiplies for all of them (its GFLOP/s and share count the multiplies it did not run).
 */
function operationsRun(report, s) {
  const shape = SIMD_LOAD_SHAPES.find((x) => x.name === s.name);
  const held = shape ? shape.rows.filter((kind) => kind === 'register').length : 0;
  if (report.registerRows === 'distinct' || held < 2) return s.vectorOps;
  return s.vectorOps - (held - 1) * shape.columns;
}

// ---- bench/chromium-attention.mjs's table (bench/results/<machine kind>/<engine>.json) ------------------------------
/** The parts of bench/chromium-attention.mjs's report: { machine (where and how), attention (GFLOP/s, shares, ratios) }. */
export function browserAttentionParts(report) {
  const m = report.machine;
  const machine = [
    `${report.browser} (${report.engine === 'webkit' ? 'in an Xvfb display' : 'headless'}), on ${m.cpu}, ${m.cores} ` +
      `cores; ${m.date.slice(0, 10)}; commit ${m.commit}; load average ${m.loadAverage.join(' ')} at the start, ` +
      `${m.loadAverageAtEnd.join(' ')} at the end.`,
    `onnxruntime-web ${report.versions['onnxruntime-web']} (wasm, 1 thread). Wall time in the page, medians of interleaved ` +
      `rounds; ratios are medians of per-round ratios. SIMD128 peak in this browser: ${fixed(report.peak.gflops)} GFLOP/s ` +
      `(${report.peak.shape} x${report.peak.chains}).`,
  ].join('\n');
  const cases = report.cases;
  const result = (c, name) => c.results.find((r) => r.name === name);
  const names = [...new Set(cases.flatMap((c) => c.results.map((r) => r.name)))];
  const cell = (c, name) => {
    const r = result(c, name);
    return r ? `${fixed(r.gflops)} (${fixed(100 * r.fractionOfPeak, 0)}%)` : '—';
  };
  // the kernel variants by their names (attentionKernels()), the probe's pick marked
  const label = (name) => {
    const variant = name.match(/^kernel (\w+)$/)?.[1];
    if (!variant) return name.replace(', out', ', `out`');
    return `kernel alone, \`${variant}\`${variant === report.probed ? ' (the probe\'s pick)' : ''}`;
  };
  const attention = table('GFLOP/s (% of SIMD peak)', cases.map((c) => `T = ${c.T}${c.causal ? ' causal' : ''}`), [
    ...names.map((name) => [label(name), ...cases.map((c) => cell(c, name))]),
    ['**seqorder ÷ onnxruntime-web**', ...cases.map((c) => `**${times(result(c, 'seqorder')?.overOrt)}**`)],
    ['seqorder with `out` ÷ onnxruntime-web', ...cases.map((c) => times(result(c, 'seqorder, out')?.overOrt))],
  ]);
  return { machine, attention };
}

// ---- the performance goals on each machine kind (docs/performance.md's summary) ----------------------------------------
/** The machine kinds (machineKind()) the goals are stated for, as the summary's columns. */
export const GOAL_MACHINES = [['intel', 'Intel Xeon'], ['amd-zen3', 'AMD Zen 3'], ['amd-zen4', 'AMD Zen 4'], ['amd-zen5', 'AMD Zen 5']];

/** A case's results by contender name ({} for a case not run). */
const byContender = (c) => Object.fromEntries(c?.results.map((r) => [r.name, r]) ?? []);
const attentionCase = (report, T, causal) => byContender(report.attention.find((c) => c.T === T && c.causal === causal));
const positionsCase = (report, length, width, dtype) =>
  byContender(report.positions.find((c) => c.length === length && c.width === width && c.dtype === dtype));
const kernelShares = (report) => [256, 1024, 4096]
  .map((T) => report.rows.find((r) => r.T === T && !r.causal && r.probed)?.fractionOfPeak);

/**
 * Each goal: what it asks, the results file its figure comes from (bench/results/<machine kind>/<source>.json), the
 * figure (NaN, or an array holding one, when the file has no such case), the figure as written, and whether it is met.
 */
export const GOALS = [
  { goal: 'the fused kernel (the probe\'s pick) at T = 256 / 1024 / 4096: ≥ 80% of the same rounds\' SIMD128 peak',
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
  { goal: 'positions, float32 2048 × 512 into `out`, ÷ plain JS into one array: ≥ 10×', source: 'latest',
    figure: (r) => { const c = positionsCase(r, 2048, 512, 'float32'); return speedup(c['seqorder, out'], c['plain JS, out']); },
    text: times, met: (x) => x >= 10 },
  { goal: 'the lesson page ready in headless Chromium, median of 5 warm loads: < 1 s', source: 'page-ready',
    figure: (r) => r.median.ready ?? NaN, text: (x) => `${Math.round(x)} ms`, met: (x) => x < 1000 },
  { goal: 'its first contentful paint: < 300 ms', source: 'page-ready',
    figure: (r) => r.median.fcp ?? NaN, text: (x) => `${Math.round(x)} ms`, met: (x) => x < 300 },
];

/**
 * The summary of the goals: { table (a goal a row, a machine kind a column: each figure from that kind's latest
 * results, and whether it meets the goal), runs (which run of which commit each column's figures come from) }.
 * `read(source)` gives bench/results/<source>.json, parsed; a file not there is a run not made on that kind.
 */
export function goalsParts(read) {
  const scripts = { latest: 'bench/run.mjs', kernel: 'bench/attention-kernel.mjs', 'page-ready': 'bench/page-ready.mjs' };
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
    const figure = goal.figure(report);
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

// ---- docs/performance.md: its tables, from bench/results/*.json --------------------------------------------------------
/**
 * The parts each results file gives: `<!-- report: <source> <part> -->` in a document stands for
 * parts(bench/results/<source>.json)[part], the parts named by the file's name: a source is `sizes` (one file for
 * every machine) or `<machine kind>/<name>` (machineKind(): `intel/latest`, `amd-zen3/kernel`, `amd-zen3/simd-loads`).
 */
const SOURCES = {
  latest: runParts, pool: poolParts, sizes: sizeParts, kernel: kernelParts, 'page-ready': pageReadyParts,
  'page-ready-firefox': pageReadyParts, 'page-ready-webkit': pageReadyParts, 'simd-loads': simdLoadsParts,
  'simd-loads-chromium': simdLoadsParts, 'simd-loads-firefox': simdLoadsParts, 'simd-loads-webkit': simdLoadsParts,
  chromium: browserAttentionParts, firefox: browserAttentionParts, webkit: browserAttentionParts,
};

/** The parts that gather several results files: `<!-- report: <name> <part> -->`, parts(read)[part]. */
const GATHERED = { goals: goalsParts };

/**
 * `text` with every block between `<!-- report: <source> <part> -->` and `<!-- /report -->` replaced by that part,
 * rendered from bench/results/<source>.json by `read(source)` (its parsed JSON).
 */
export function renderDocument(text, read) {
  const cache = {};
  return text.replace(/(<!-- report: ([\w-]+(?:\/[\w-]+)?) (\w+) -->\n)[\s\S]*?(<!-- \/report -->)/g, (_, open, source, part, close) => {
    const parts = SOURCES[source.split('/').at(-1)];
    if (!parts && !GATHERED[source])
      throw new Error(`report: unknown source '${source}' (known: ${[...Object.keys(SOURCES), ...Object.keys(GATHERED)].join(', ')})`);
    cache[source] ??= GATHERED[source] ? GATHERED[source](read) : parts(read(source));
    const body = cache[source][part];
    if (body === undefined) throw new Error(`report: ${source}.json has no part '${part}'`);
    return `${open}${body}\n${close}`;
  });
}

// node bench/report.mjs [--check] [file]: rewrites the generated blocks of docs/performance.md (or file) from
// bench/results/*.json; --check only says whether they are up to date (exit 1 when not).
if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const args = process.argv.slice(2);
  const check = args.includes('--check');
  const file = path.resolve(args.find((a) => !a.startsWith('--')) ?? path.join(root, 'docs', 'performance.md'));
  const text = readFileSync(file, 'utf8');
  const read = (source) => JSON.parse(readFileSync(path.join(root, 'bench', 'results', `${source}.json`), 'utf8'));
  const rendered = renderDocument(text, read);
  if (check) {
    if (rendered !== text) {
      console.error(`${path.relative(process.cwd(), file)}: its tables differ from bench/results/*.json: run node bench/report.mjs`);
      process.exit(1);
    }
  } else if (rendered !== text) {
    writeFileSync(file, rendered);
    console.log(`wrote ${path.relative(process.cwd(), file)}`);
  }
}
