// How soon the lesson page is ready: the built site (dist/site, or $SEQORDER_DIST/site) served on 127.0.0.1 by
// scripts/serve.mjs, opened in headless Chromium (Debian's /usr/bin/chromium, or $CHROMIUM, driven by playwright-core
// with the flags of tests/browser/helpers/engines/chromium.mjs), or in another test engine (--browser firefox or
// webkit), at 1000 × 900 CSS pixels. First visits: `cold` loads, each in a browser started with a new profile (no HTTP
// cache, no compiled code: what a reader's first visit gets), opened `settle` ms after the browser started: a reader's
// browser is running already, and Chromium's own start (its profile, its top-chrome WebUI renderer) takes more of the 2
// cores than the page does for a second or so (--settle 0 times it with the page). Then second visits: 1 + `loads`
// loads in one profile, the first filling the caches (shown, not counted), the others warm. For each load: navigation
// start → first contentful paint (the Paint Timing entry) and navigation start → <body data-ready="true"> (the page's
// User Timing mark `seqorder:ready`, made as it sets the flag; docs/page.md says what the flag means). Then the medians
// of the cold and of the warm loads apart, the processor and the load average before and after.
//   node bench/page-ready.mjs [--browser chromium|firefox|webkit] [--cold 5] [--settle 2000] [--loads 5] [--json [path]]
//   (--json: bench/results/<machine kind>/page-ready.json, page-ready-firefox.json or page-ready-webkit.json, unless a
//   path follows)
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startServer } from '../scripts/serve.mjs';
import { ALL_ENGINES, openBrowser } from '../tests/browser/helpers/engines/index.mjs';
import { siteDir } from '../tests/browser/helpers/site.mjs';
import { median } from '../web/js/median.mjs';
import { loadAverage, machine, machineKind } from './harness.mjs';

const args = process.argv.slice(2);
const option = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const loads = Number(option('--loads') ?? 5);
const cold = Number(option('--cold') ?? 5);
const settle = Number(option('--settle') ?? 2000);
for (const [name, value, least] of [['--loads', loads, 1], ['--cold', cold, 1], ['--settle', settle, 0]]) {
  if (!Number.isInteger(value) || value < least) {
    console.error(`bench/page-ready: ${name} must be a ${least ? 'positive' : 'non-negative'} whole number`);
    process.exit(1);
  }
}
const engine = option('--browser') ?? 'chromium';
if (!ALL_ENGINES.includes(engine)) {
  console.error(`bench/page-ready: --browser must be one of ${ALL_ENGINES.join(', ')}, got ${engine}`);
  process.exit(1);
}
const jsonArg = option('--json');
const jsonName = engine === 'chromium' ? 'page-ready.json' : `page-ready-${engine}.json`;
const jsonPath = args.includes('--json')
  ? path.resolve(jsonArg && !jsonArg.startsWith('--') ? jsonArg : path.join(import.meta.dirname, 'results', machineKind(), jsonName))
  : null;
const VIEWPORT = { width: 1000, height: 900 };

/** One load: { fcp, ready, flag }, fcp and ready in ms from navigation start (ready: null unless the flag is "true"). */
async function load(browser, url) {
  await browser.goto(url);
  const flag = await browser.waitFor(() => document.body?.dataset.ready ?? null, null,
    { timeout: 60_000, interval: 50, what: `body[data-ready] at ${url}` });
  return browser.evaluate((value) => {
    const paint = performance.getEntriesByName('first-contentful-paint')[0];
    const ready = performance.getEntriesByName('seqorder:ready')[0];
    return { fcp: paint ? Number(paint.startTime.toFixed(1)) : null, ready: value === 'true' && ready ? Number(ready.startTime.toFixed(1)) : null, flag: value };
  }, flag);
}

/** One load's row, checked: the page became ready and marked it. */
async function counted(browser, url, name) {
  const row = { load: name, ...(await load(browser, url)) };
  if (row.flag !== 'true') throw new Error(`load ${row.load}: body[data-ready] is "${row.flag}"`);
  if (row.ready === null) throw new Error(`load ${row.load}: the page made no seqorder:ready mark`);
  console.log(`load ${String(row.load).padEnd(7)}  navigation → first contentful paint ${String(row.fcp).padStart(7)} ms   → data-ready ${String(row.ready).padStart(7)} ms`);
  return row;
}

const server = await startServer({ root: siteDir, port: 0 });
const before = machine('wall clock, navigation start to the event');
const rows = [];
let version;
try {
  for (let n = 0; n < cold; n += 1) {
    const browser = await openBrowser(engine, { viewport: VIEWPORT });
    try {
      version = browser.version;
      await new Promise((resolve) => setTimeout(resolve, settle));
      rows.push(await counted(browser, `${server.url}?cold=${n}`, `cold ${n + 1}`));
    } finally {
      await browser.close();
    }
  }
  const browser = await openBrowser(engine, { viewport: VIEWPORT });
  try {
    for (let n = 0; n <= loads; n += 1) rows.push(await counted(browser, `${server.url}?load=${n}`, n === 0 ? 'fill' : `warm ${n}`));
  } finally {
    await browser.close();
  }
} finally {
  await server.close();
}

const firsts = rows.filter((r) => r.load.startsWith('cold'));
const warm = rows.filter((r) => r.load.startsWith('warm'));
const medians = (list) => ({ fcp: median(list.map((r) => r.fcp)), ready: median(list.map((r) => r.ready)) });
const report = {
  machine: { ...before, loadAverageAtEnd: loadAverage() },
  browser: `${version} (${engine === 'webkit' ? 'in an Xvfb display' : 'headless'}), 1000×900`,
  settle,
  loads: rows,
  median: { cold: medians(firsts), warm: medians(warm) },
};
for (const [what, list] of [['cold (first visits, a new profile each)', firsts], ['warm (second visits)', warm]]) {
  const m = medians(list);
  console.log(`median of ${list.length} ${what}: first contentful paint ${m.fcp} ms, data-ready ${m.ready} ms`);
}
console.log(`${before.cpu}, ${before.cores} cores; load average ${before.loadAverage.join(' ')} before, ${report.machine.loadAverageAtEnd.join(' ')} after`);
if (jsonPath) {
  mkdirSync(path.dirname(jsonPath), { recursive: true });
  writeFileSync(jsonPath, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`wrote ${path.relative(process.cwd(), jsonPath)}`);
}
