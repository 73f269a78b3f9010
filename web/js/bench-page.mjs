// The benchmark page (bench.html): starts the worker (bench-worker.mjs), shows its progress, fills the two tables.
// No timing happens on this thread.
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

let worker = null;

function startWorker() {
  worker = new Worker(new URL('./bench-worker.mjs', import.meta.url), { type: 'module' });
  worker.addEventListener('message', ({ data }) => {
    switch (data.type) {
      case 'ready':
        document.body.dataset.state = 'ready';
        setStatus(`seqorder ${data.version} loaded in a worker${data.relaxed
          ? ', with its relaxed-SIMD build'
          : ' (this browser does not run relaxed SIMD: that column stays empty)'}${data.poolWorkers
          ? `, and a pool of ${data.poolWorkers} workers (${data.poolShared
            ? 'sharing memory'
            : 'copying: shared memory needs a cross-origin isolated page'})`
          : ` (no pool: ${data.poolError})`}. Ready.`);
        start.disabled = false;
        break;
      case 'progress':
        progress.value = data.fraction;
        progressLabel.textContent = data.label;
        break;
      case 'case':
        addRow(data.result);
        break;
      case 'done':
        progress.value = 1;
        progressLabel.textContent = `done in ${data.seconds.toFixed(1)} s`;
        setStatus('Finished: the tables below are your machine\'s numbers.', 'pass');
        document.body.dataset.state = 'done';
        start.disabled = false;
        stop.disabled = true;
        break;
      case 'error':
        document.body.dataset.state = 'error';
        setStatus(`The benchmark stopped: ${data.message}`, 'error');
        start.disabled = false;
        stop.disabled = true;
        break;
      default:
        break;
    }
  });
  worker.addEventListener('error', (event) => {
    event.preventDefault?.();
    setStatus('This browser could not start the benchmark\'s module worker (module Web Workers are needed).', 'error');
    start.disabled = true;
    stop.disabled = true;
  });
}

start.addEventListener('click', () => {
  if (!worker) startWorker();
  clearTables();
  progress.value = 0;
  start.disabled = true;
  stop.disabled = false;
  setStatus(`Running the ${preset.value} benchmark…`);
  document.body.dataset.state = 'running';
  worker.postMessage({ type: 'run', preset: preset.value });
});

stop.addEventListener('click', () => {
  // A worker in the middle of a timed sample cannot be interrupted politely: end it and start a fresh one.
  worker?.terminate();
  worker = null;
  stop.disabled = true;
  start.disabled = true;
  progressLabel.textContent = 'stopped';
  setStatus('Stopped. Reloading the worker…');
  startWorker();
});

startWorker();
