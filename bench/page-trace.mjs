// Where a first visit's time goes: one first visit to the built site (as bench/page-ready.mjs opens it: a browser
// started with a new profile, the page opened `settle` ms later) in headless Chromium, traced over the DevTools
// protocol from navigation start to the page's seqorder:ready mark. It prints the page's requests (sent, headers,
// done: the waterfall, one level of imports after another), the CPU time of each process's busiest threads in that
// window (the page's renderer marked *), and the CPU time of the page's main thread by kind of work, before the first
// contentful paint and before ready.
//   node bench/page-trace.mjs [--settle 2000] [--trace path]   (--trace: also write the trace, for chrome://tracing)
import { writeFileSync } from 'node:fs';
import { startServer } from '../scripts/serve.mjs';
import { launchChromium } from '../tests/browser/helpers/engines/chromium.mjs';
import { siteDir } from '../tests/browser/helpers/site.mjs';
import { loadAverage, machine } from './harness.mjs';

const args = process.argv.slice(2);
const option = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const settle = Number(option('--settle') ?? 2000);
if (!Number.isInteger(settle) || settle < 0) {
  console.error('bench/page-trace: --settle must be a non-negative whole number');
  process.exit(1);
}
const CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing', 'loading', 'v8',
  'v8.execute', 'disabled-by-default-v8.compile', 'toplevel', 'blink', 'cc', 'navigation'];
/** The main thread's kinds of work, as the trace names them. */
const KINDS = ['ParseHTML', 'ParseAuthorStyleSheet', 'UpdateLayoutTree', 'Layout', 'PrePaint', 'Paint', 'Commit',
  'v8.compileModule', 'v8.evaluateModule', 'EvaluateScript', 'FunctionCall', 'RunMicrotasks', 'TimerFire',
  'FireAnimationFrame', 'v8.wasm.compileConsume', 'MinorGC', 'MajorGC', 'ResourceFetcher::requestResource'];

const server = await startServer({ root: siteDir, port: 0 });
const before = machine('wall clock');
const { page, close } = await launchChromium({ viewport: { width: 1000, height: 900 } });
let events = [];
try {
  const cdp = await page.context().newCDPSession(page);
  const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
  await new Promise((resolve) => setTimeout(resolve, settle));
  // The trace is kept by the browser until the end (a stream, read then): sent as it is made, it would keep this
  // process, which also serves the page, busy while the page loads, and its requests would wait for it.
  await cdp.send('Tracing.start', { transferMode: 'ReturnAsStream', traceConfig: { includedCategories: CATEGORIES } });
  await page.goto(`${server.url}?trace`);
  await page.waitForFunction(() => document.body?.dataset.ready, null, { timeout: 60_000, polling: 50 });
  await cdp.send('Tracing.end');
  const { stream } = await complete;
  let text = '';
  for (let chunk = { eof: false }; !chunk.eof;) {
    chunk = await cdp.send('IO.read', { handle: stream });
    text += chunk.base64Encoded ? Buffer.from(chunk.data, 'base64').toString('utf8') : chunk.data;
  }
  await cdp.send('IO.close', { handle: stream });
  const trace = JSON.parse(text);
  events = Array.isArray(trace) ? trace : trace.traceEvents;
} finally {
  await close();
  await server.close();
}
if (option('--trace')) writeFileSync(option('--trace'), JSON.stringify({ traceEvents: events }));

const nav = events.find((e) => e.name === 'navigationStart' && e.args?.data?.isLoadingMainFrame && e.args.data.documentLoaderURL?.startsWith(server.url));
if (!nav) throw new Error('bench/page-trace: the trace has no navigation to the site');
const { pid, tid, ts: t0 } = nav;
const names = new Map();
for (const e of events) if (e.name === 'thread_name' || e.name === 'process_name') names.set(e.name === 'thread_name' ? `${e.pid}:${e.tid}` : e.pid, e.args.name);
events = events.filter((e) => e.ts >= t0);
const mark = (name) => events.find((e) => e.name === name && e.pid === pid)?.ts;
const fcp = mark('firstContentfulPaint');
const ready = mark('seqorder:ready');
if (!ready) throw new Error('bench/page-trace: the page did not become ready');
const ms = (us) => (us / 1000).toFixed(0).padStart(5);
console.log(`first contentful paint ${ms(fcp - t0)} ms, ready ${ms(ready - t0)} ms (the page's own marks, under tracing)`);

const sent = new Map(events.filter((e) => e.name === 'ResourceSendRequest' && e.pid === pid).map((e) => [e.args.data.requestId, e]));
const byId = (name) => new Map(events.filter((e) => e.name === name).map((e) => [e.args.data.requestId, e]));
const headers = byId('ResourceReceiveResponse');
const done = byId('ResourceFinish');
console.log('\nrequests (ms from navigation start): sent, headers, done');
for (const [id, e] of sent) {
  if (e.ts > ready) continue;
  const at = (x) => (x ? ms(x.ts - t0) : '    -');
  console.log(`${ms(e.ts - t0)} ${at(headers.get(id))} ${at(done.get(id))}  ${e.args.data.url.slice(server.url.length - 1)}`);
}

/** Each thread's CPU time up to ready: that of its outermost complete events. */
const threads = new Map();
for (const e of events) {
  if (e.ph !== 'X' || e.ts >= ready) continue;
  const key = `${e.pid}:${e.tid}`;
  if (!threads.has(key)) threads.set(key, []);
  threads.get(key).push(e);
}
const rows = [...threads].map(([key, list]) => {
  list.sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  let end = -1;
  let cpu = 0;
  for (const e of list) if (e.ts >= end) { cpu += e.tdur ?? 0; end = e.ts + (e.dur ?? 0); }
  const p = Number(key.split(':')[0]);
  return { name: `${names.get(p) ?? p}${p === pid ? '*' : ''} / ${names.get(key) ?? key}`, cpu };
}).sort((a, b) => b.cpu - a.cpu);
console.log('\nCPU time from navigation start to ready, by thread (ms; * the page\'s renderer)');
for (const { name, cpu } of rows.slice(0, 12)) console.log(`${ms(cpu)}  ${name}`);

for (const [what, end] of [['the first contentful paint', fcp], ['ready', ready]]) {
  const sums = new Map();
  for (const e of events) if (e.pid === pid && e.tid === tid && e.ph === 'X' && e.ts < end && KINDS.includes(e.name)) sums.set(e.name, (sums.get(e.name) ?? 0) + (e.tdur ?? 0));
  console.log(`\nthe page's main thread before ${what}, CPU ms by kind (nested kinds counted in each):`);
  console.log([...sums].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${(v / 1000).toFixed(0)}`).join(', '));
}
console.log(`\n${before.cpu}, ${before.cores} cores; settle ${settle} ms; load average ${before.loadAverage.join(' ')} before, ${loadAverage().join(' ')} after`);
