// How soon the lesson page is ready: the built site (dist/site, or $SEQORDER_DIST/site) served on 127.0.0.1 by
// scripts/serve.mjs, opened in headless Chromium (Debian's /usr/bin/chromium, or $CHROMIUM, driven by playwright-core
// with the flags of tests/browser/engines/chromium.mjs) at 1000 × 900 CSS pixels, and loaded 1 + `loads` times in one
// profile: the first load fills the caches and is shown but not counted, the others are the warm loads. For each load:
// navigation start → first contentful paint (the Paint Timing entry) and navigation start → <body data-ready="true">
// (seen by a MutationObserver the bench adds before the page's own scripts run; docs/page.md says what the flag
// means). Then the medians of the warm loads, the processor and the load average before and after.
//   node bench/page-ready.mjs [--loads 5] [--json [path]]   (--json: bench/results/<machine kind>/page-ready.json unless a path follows)
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startServer } from '../scripts/serve.mjs';
import { launchChromium } from '../tests/browser/engines/chromium.mjs';
import { siteDir } from '../tests/browser/site.mjs';
import { median } from '../web/js/median.mjs';
import { loadAverage, machine, machineKind } from './report.mjs';

const args = process.argv.slice(2);
const option = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const loads = Number(option('--loads') ?? 5);
if (!Number.isInteger(loads) || loads < 1) {
  console.error('bench/page-ready: --loads must be a positive whole number');
  process.exit(1);
}
const jsonArg = option('--json');
const jsonPath = args.includes('--json')
  ? path.resolve(jsonArg && !jsonArg.startsWith('--') ? jsonArg : path.join(import.meta.dirname, 'results', machineKind(), 'page-ready.json'))
  : null;
const VIEWPORT = { width: 1000, height: 900 };

// In the page, before its scripts: when <body> gets data-ready, the time since navigation start (performance.now()'s
// origin) and the flag's value.
const WATCH_READY = `(() => {
  const seen = (globalThis.__pageReady = { at: null, value: null });
  new MutationObserver((records, observer) => {
    const value = document.body?.dataset.ready;
    if (value !== undefined && seen.at === null) {
      Object.assign(seen, { at: performance.now(), value });
      observer.disconnect();
    }
  }).observe(document, { attributes: true, attributeFilter: ['data-ready'], subtree: true });
})();`;

/** One load: { fcp, ready } in ms from navigation start (ready: null when the page says data-ready="error"). */
async function load(page, url) {
  await page.goto(url, { waitUntil: 'commit' });
  await page.waitForFunction(() => globalThis.__pageReady?.at !== null, null, { timeout: 60_000, polling: 50 });
  return page.evaluate(() => {
    const paint = performance.getEntriesByName('first-contentful-paint')[0];
    const { at, value } = globalThis.__pageReady;
    return { fcp: paint ? Number(paint.startTime.toFixed(1)) : null, ready: value === 'true' ? Number(at.toFixed(1)) : null, flag: value };
  });
}

const server = await startServer({ root: siteDir, port: 0 });
const before = machine('wall clock, navigation start to the event');
const chromium = await launchChromium({ viewport: VIEWPORT });
const rows = [];
try {
  await chromium.context.addInitScript({ content: WATCH_READY });
  for (let n = 0; n <= loads; n += 1) {
    const row = { load: n === 0 ? 'cold' : n, ...(await load(chromium.page, `${server.url}?load=${n}`)) };
    if (row.flag !== 'true') throw new Error(`load ${row.load}: body[data-ready] is "${row.flag}"`);
    rows.push(row);
    console.log(`load ${String(row.load).padEnd(4)}  navigation → first contentful paint ${String(row.fcp).padStart(7)} ms   → data-ready ${String(row.ready).padStart(7)} ms`);
  }
} finally {
  await chromium.close();
  await server.close();
}

const warm = rows.slice(1);
const report = {
  machine: { ...before, loadAverageAtEnd: loadAverage() },
  browser: 'Chromium (headless), 1000×900',
  loads: rows,
  median: { fcp: median(warm.map((r) => r.fcp)), ready: median(warm.map((r) => r.ready)) },
};
console.log(`median of ${warm.length} warm loads: first contentful paint ${report.median.fcp} ms, data-ready ${report.median.ready} ms`);
console.log(`${before.cpu}, ${before.cores} cores; load average ${before.loadAverage.join(' ')} before, ${report.machine.loadAverageAtEnd.join(' ')} after`);
if (jsonPath) {
  mkdirSync(path.dirname(jsonPath), { recursive: true });
  writeFileSync(jsonPath, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`wrote ${path.relative(process.cwd(), jsonPath)}`);
}
