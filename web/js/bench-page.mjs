// The benchmark page (bench.html): starts the worker (bench-worker.mjs), shows its progress, fills the two tables.
// No timing happens on this thread.
import { startWorkers, workerFailed } from '../lib/pool/protocol.mjs';
import { speedup } from './bench-kernels.mjs';

const $ = (id) => document.getElementById(id);
const status = $('status');
const statusText = status.querySelector('.status-text');
const start = $('start');
const stop = $('stop');
const preset = $('preset');
const progress = $('progress');
const progressLabel = $('progress-label');

function setStatus(text, kind = '') {
  statusText.textContent = text;
  if (kind) status.dataset.kind = kind;
  else delete status.dataset.kind;
}

function cell(text) {
  const td = document.createElement('td');
  td.textContent = text;
  return td;
}

const fixed = (x, digits) => (Number.isFinite(x) ? x.toFixed(digits) : '—');
const times = (x) => (Number.isFinite(x) ? `${x.toFixed(x >= 10 ? 1 : 2)}×` : '—');
const worstDifference = (results) => Math.max(...results.map((r) => r.maxAbsDiff ?? 0)).toExponential(1);

function addRow(result) {
  const by = Object.fromEntries(result.results.map((r) => [r.name, r]));
  const tr = document.createElement('tr');
  if (result.kind === 'attention') {
    const gflops = (name) => (by[name] ? result.work / by[name].seconds / 1e9 : NaN);
    tr.append(cell(String(result.T)), cell(result.causal ? 'causal' : 'none'),
      ...['seqorder', 'seqorder, out', 'seqorder, relaxed SIMD', 'seqorder pool', 'plain JS'].map((n) => cell(fixed(gflops(n), 2))),
      cell(times(speedup(by.seqorder, by['plain JS']))), cell(times(speedup(by['seqorder pool'], by.seqorder))),
      cell(worstDifference(result.results)));
    $('attention-table').tBodies[0].append(tr);
  } else {
    const ns = (name) => (by[name] ? (by[name].seconds * 1e9) / result.work : NaN);
    tr.append(cell(`${result.length} × ${result.width}`),
      ...['seqorder', 'seqorder, out', 'plain JS', 'plain JS, out'].map((n) => cell(fixed(ns(n), 2))),
      cell(times(speedup(by.seqorder, by['plain JS']))), cell(times(speedup(by['seqorder, out'], by['plain JS, out']))),
      cell(worstDifference(result.results)));
    $('positions-table').tBodies[0].append(tr);
  }
}

function clearTables() {
  for (const id of ['attention-table', 'positions-table']) $(id).tBodies[0].replaceChildren();
}

// bench.html?preset=smoke offers the tiny preset the browser test runs.
const asked = new URLSearchParams(location.search).get('preset');
if (asked === 'smoke') preset.append(new Option('smoke (tiny sizes)', 'smoke', true, true));

$('environment-text').textContent = `${navigator.userAgent}; ${navigator.hardwareConcurrency ?? '?'} logical cores reported.`;

let worker = null;  // a promise of the worker (bench-worker.mjs, a set of one over the package's worker protocol)

function ready({ version, relaxed, poolWorkers, poolError }) {
  document.body.dataset.state = 'ready';
  setStatus(`seqorder ${version} loaded in a worker${relaxed
    ? ', with its relaxed-SIMD build'
    : ' (this browser does not run relaxed SIMD: that column stays empty)'}${poolWorkers
    ? `, and a pool of ${poolWorkers} workers`
    : ` (no pool: ${poolError})`}. Ready.`);
  start.disabled = false;
}

function failed(message) {
  document.body.dataset.state = 'error';
  setStatus(`The benchmark stopped: ${message}`, 'error');
  start.disabled = false;
  stop.disabled = true;
}

function startWorker() {
  const starting = startWorkers({
    count: 1,
    start: () => new Worker(new URL('./bench-worker.mjs', import.meta.url), { type: 'module' }),
    first: { op: 'load' },
  });
  worker = starting;
  starting.then((set) => set.request(0, 'describe')).then(
    (description) => { if (worker === starting) ready(description); },
    (error) => {
      if (worker !== starting) return;
      if (!workerFailed(error)) return failed(error.message);
      setStatus('This browser could not start the benchmark\'s module worker (module Web Workers are needed).', 'error');
      start.disabled = true;
      stop.disabled = true;
    },
  );
}

/** The run's reports: its progress, and each case's results as they come. */
function report(news) {
  if (news.type === 'progress') {
    progress.value = news.fraction;
    progressLabel.textContent = news.label;
  } else if (news.type === 'case') {
    addRow(news.result);
  }
}

start.addEventListener('click', async () => {
  if (!worker) startWorker();
  clearTables();
  progress.value = 0;
  start.disabled = true;
  stop.disabled = false;
  setStatus(`Running the ${preset.value} benchmark…`);
  document.body.dataset.state = 'running';
  const running = worker;
  try {
    const { seconds } = await (await running).request(0, 'run', { preset: preset.value }, [], report);
    if (worker !== running) return;
    progress.value = 1;
    progressLabel.textContent = `done in ${seconds.toFixed(1)} s`;
    setStatus('Finished: the tables below are your machine\'s numbers.', 'pass');
    document.body.dataset.state = 'done';
    start.disabled = false;
    stop.disabled = true;
  } catch (error) {
    if (worker === running) failed(error.message);  // (a run Stop ended says nothing)
  }
});

stop.addEventListener('click', () => {
  // A worker in the middle of a timed sample cannot be interrupted politely: end it and start a fresh one.
  worker?.then((set) => set.close(), () => {});
  worker = null;
  stop.disabled = true;
  start.disabled = true;
  progressLabel.textContent = 'stopped';
  setStatus('Stopped. Reloading the worker…');
  startWorker();
});

startWorker();
