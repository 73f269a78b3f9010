// The bench page's default run (lab.html at a first visit, as bench/lab-input.mjs opens it) in headless Chromium,
// traced over the DevTools protocol: every task of the page's main thread from the run's start to its end, its wall
// time and its thread's CPU time (the trace's dur and tdur), by the lab's phase when it began (running, measuring,
// done). On a machine shared with other work a task's wall time grows with the load (the thread waits for a core);
// its CPU time is the page's own work, what splitting a task shortens. Prints one JSON line: per phase, the tasks,
// their CPU time, how many took 30 and 50 ms or more of CPU and of wall time, the longest of each. --list: then each
// task of 15 ms of CPU or more, with the animation frames, function calls and layouts of 3 ms or more in it.
// $SEQORDER_DIST chooses the site (default dist/site): builds are compared by running this on each in turn.
//   node bench/lab-tasks.mjs [--list]
import os from 'node:os';
import { startServer } from '../scripts/serve.mjs';
import { launchChromium } from '../tests/browser/helpers/engines/chromium.mjs';
import { siteDir } from '../tests/browser/helpers/site.mjs';

const server = await startServer({ root: siteDir, port: 0 });
const chromium = await launchChromium({ viewport: { width: 1280, height: 1000 } });
let events = [];
let status;
try {
  const { page } = chromium;
  // each change of the lab's phase, a mark in the trace
  await page.context().addInitScript(() => {
    new MutationObserver((records) => {
      for (const r of records) if (r.target.matches('#lab .section-body')) performance.mark(`lab:${r.target.dataset.training}`);
    }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-training'] });
  });
  const cdp = await page.context().newCDPSession(page);
  cdp.on('Tracing.dataCollected', ({ value }) => events.push(...value));
  const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
  await cdp.send('Tracing.start', { transferMode: 'ReportEvents', traceConfig: { includedCategories: ['toplevel', 'blink.user_timing', '__metadata', 'devtools.timeline'] } });
  await page.goto(`${server.url}lab.html`, { waitUntil: 'load' });
  await page.waitForFunction(() => ['done', 'error'].includes(document.querySelector('#lab .section-body')?.dataset.training), null, { timeout: 180_000, polling: 100 });
  await new Promise((resolve) => setTimeout(resolve, 300));
  await cdp.send('Tracing.end');
  await complete;
  status = await page.evaluate(() => document.querySelector('.lab-status').textContent);
} finally {
  await chromium.close();
  await server.close();
}

const marks = events.filter((e) => e.name.startsWith('lab:')).map((e) => ({ phase: e.name.slice(4), ts: e.ts, thread: `${e.pid}:${e.tid}` })).sort((a, b) => a.ts - b.ts);
const running = marks.find((m) => m.phase === 'running');
const end = marks.findLast((m) => m.phase === 'done' || m.phase === 'error');
if (!running || !end) throw new Error('bench/lab-tasks: the trace has no run from start to end');
const onMain = (e) => `${e.pid}:${e.tid}` === running.thread && e.ph === 'X';
const tasks = events.filter((e) => onMain(e) && e.name === 'ThreadControllerImpl::RunTask' && e.ts >= running.ts && e.ts <= end.ts);
const phaseAt = (ts) => marks.findLast((m) => m.ts <= ts)?.phase;
const rows = tasks.map((t) => ({ at: Math.round((t.ts - running.ts) / 1000), wall: t.dur / 1000, cpu: (t.tdur ?? 0) / 1000, phase: phaseAt(t.ts), task: t }));
const phases = {};
for (const phase of ['running', 'measuring']) {
  const some = rows.filter((r) => r.phase === phase);
  const longest = (key) => Math.round(Math.max(0, ...some.map((r) => r[key])));
  phases[phase] = {
    tasks: some.length, cpu: Math.round(some.reduce((n, r) => n + r.cpu, 0)),
    cpu30: some.filter((r) => r.cpu >= 30).length, cpu50: some.filter((r) => r.cpu >= 50).length, longestCpu: longest('cpu'),
    wall30: some.filter((r) => r.wall >= 30).length, wall50: some.filter((r) => r.wall >= 50).length, longestWall: longest('wall'),
  };
}
console.log(JSON.stringify({ load: Number(os.loadavg()[0].toFixed(2)), status, run: Math.round((end.ts - running.ts) / 1000), ...phases }));
if (process.argv.includes('--list')) {
  const KINDS = ['FunctionCall', 'FireAnimationFrame', 'TimerFire', 'EventDispatch', 'RunMicrotasks', 'UpdateLayoutTree', 'Layout', 'PrePaint', 'Paint', 'MinorGC', 'MajorGC'];
  const inner = events.filter((e) => onMain(e) && KINDS.includes(e.name) && e.dur >= 3000);
  for (const r of rows.filter((x) => x.cpu >= 15)) {
    const { task } = r;
    const parts = inner.filter((e) => e.ts >= task.ts && e.ts + e.dur <= task.ts + task.dur).map((e) => {
      const f = e.args?.data?.functionName ? ` ${e.args.data.functionName} ${String(e.args.data.url ?? '').replace(/^.*?\/(js|lib)\//, '$1/')}:${e.args.data.lineNumber}` : '';
      return `${e.name}${f} ${Math.round(e.dur / 1000)} ms`;
    });
    console.log(JSON.stringify({ at: r.at, phase: r.phase, cpu: Math.round(r.cpu), wall: Math.round(r.wall), in: parts }));
  }
}
