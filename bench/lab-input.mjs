// The bench page's answer to input during its default run: lab.html at a first visit (config.mjs's BENCH_RUN, trained
// at once) in headless Chromium, a fresh browser each round. While the run trains and is measured, the reader's input
// comes through the browser's own input pipeline (playwright's keyboard and mouse: the DevTools protocol's Input
// events), one every ~150 ms, in turn: a key press (Tab, the focus moving through the settings), a click on a control
// (the run figure's "How the models train" summary, opening and closing it) and the pointer moved over the loss plot
// (its tooltip). For each input the page notes, from the event's timeStamp (when the browser received it): when the
// page's first handler ran (capture listeners on window), and when the next frame had been painted (a
// requestAnimationFrame callback, then a message posted from it: the frame's paint is done when it arrives). Beside
// them, Chromium's Event Timing entries of 16 ms or more (durationThreshold's least; the measure behind INP). Prints one
// JSON line per round, then the medians and maxima over every input of every round.
// --save keeps the results in bench/results/<machine kind>/lab-input.json; --write (or --from-results, running
// nothing: this machine kind's file) writes them into docs/page.md between its <!-- lab-run:input --> markers
// (bench/lab-run-tables.mjs renders them).
//   node bench/lab-input.mjs [rounds = 3] [--save] [--write]
//   node bench/lab-input.mjs --from-results
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from '../scripts/serve.mjs';
import { launchChromium } from '../tests/browser/helpers/engines/chromium.mjs';
import { siteDir } from '../tests/browser/helpers/site.mjs';
import { median } from '../web/js/median.mjs';
import { inputText, withBlock } from './lab-run-tables.mjs';
import { machineKind } from './harness.mjs';

const args = process.argv.slice(2);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const resultsFile = path.join(root, 'bench', 'results', machineKind(), 'lab-input.json');
if (args.includes('--from-results')) {
  writeDocs(JSON.parse(readFileSync(resultsFile, 'utf8')));
  process.exit(0);
}
const rounds = Number(args.find((a) => /^\d+$/.test(a)) ?? 3);

/** In the page, before its scripts: every trusted input's delays, in globalThis.__inputs; Event Timing's long ones in __long. */
function watchInput() {
  const inputs = (globalThis.__inputs = []);
  const long = (globalThis.__long = []);
  for (const type of ['keydown', 'pointerdown', 'pointermove']) {
    addEventListener(type, (event) => {
      if (!event.isTrusted) return;
      const handler = performance.now() - event.timeStamp;
      requestAnimationFrame(() => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => inputs.push({ type, handler, painted: performance.now() - event.timeStamp });
        channel.port2.postMessage(0);
      });
    }, { capture: true });
  }
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) long.push({ type: e.name, duration: e.duration, delay: e.processingStart - e.startTime });
  }).observe({ type: 'event', durationThreshold: 16, buffered: true });
}

/** The reader's inputs, in turn: a key, a click on a control, the pointer over a plot. */
const INPUTS = [
  (page) => page.keyboard.press('Tab'),
  async (page, i) => {
    const summary = page.locator('#lab-run details:not([hidden]) > summary').last();
    await summary.scrollIntoViewIfNeeded();
    const box = await summary.boundingBox();
    await page.mouse.click(box.x + 20, box.y + box.height / 2);
    return i;
  },
  async (page, i) => {
    const plot = page.locator('#lab-run canvas').first();
    await plot.scrollIntoViewIfNeeded();
    const box = await plot.boundingBox();
    await page.mouse.move(box.x + box.width * (0.2 + 0.06 * (i % 10)), box.y + box.height / 2);
  },
];

const server = await startServer({ root: siteDir, port: 0 });
/** One first visit: every input's delays (ms), the long Event Timing entries, the run's time. */
async function round() {
  const chromium = await launchChromium({ viewport: { width: 1280, height: 1000 } });
  try {
    const { page } = chromium;
    await page.context().addInitScript(watchInput);
    await page.goto(`${server.url}lab.html`, { waitUntil: 'load' });
    const training = () => page.evaluate(() => document.querySelector('#lab .section-body')?.dataset.training);
    await page.waitForFunction(() => ['running', 'done'].includes(document.querySelector('#lab .section-body')?.dataset.training), null, { timeout: 60_000 });
    let sent = 0;
    for (let phase = await training(); phase !== 'done' && phase !== 'error'; phase = await training()) {
      await INPUTS[sent % INPUTS.length](page, sent);
      sent += 1;
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    await new Promise((resolve) => setTimeout(resolve, 200));  // the last inputs' frames
    const { inputs, long, status, ms } = await page.evaluate(() => ({
      inputs: globalThis.__inputs, long: globalThis.__long,
      status: document.querySelector('.lab-status').textContent, ms: Number(document.querySelector('.lab-status').dataset.milliseconds),
    }));
    return { load: Number(os.loadavg()[0].toFixed(2)), sent, inputs, long, status, ms };
  } finally {
    await chromium.close();
  }
}

const rows = [];
try {
  for (let r = 0; r < rounds; r += 1) {
    const row = await round();
    rows.push(row);
    const ms = (key) => row.inputs.map((x) => x[key]);
    console.log(JSON.stringify({ load: row.load, run: row.ms, sent: row.sent, noted: row.inputs.length,
      painted: [median(ms('painted')), Math.max(...ms('painted'))].map(Math.round), long: row.long.length }));
  }
} finally {
  await server.close();
}
const all = rows.flatMap((r) => r.inputs);
const of = (inputs, key) => ({ median: Number(median(inputs.map((x) => x[key])).toFixed(1)), max: Number(Math.max(...inputs.map((x) => x[key])).toFixed(1)) });
const report = {
  machine: { cpu: os.cpus()[0]?.model ?? 'unknown', cores: os.availableParallelism(), date: new Date().toISOString() },
  rounds, load: [Math.min(...rows.map((r) => r.load)), Math.max(...rows.map((r) => r.load))],
  run: median(rows.map((r) => r.ms)), inputs: all.length,
  handler: of(all, 'handler'), painted: of(all, 'painted'),
  byType: Object.fromEntries(['keydown', 'pointerdown', 'pointermove'].map((type) => {
    const some = all.filter((x) => x.type === type);
    return [type, { count: some.length, handler: of(some, 'handler'), painted: of(some, 'painted') }];
  })),
  long: { count: rows.reduce((n, r) => n + r.long.length, 0), maxDuration: Math.max(0, ...rows.flatMap((r) => r.long.map((e) => e.duration))) },
  rows: rows.map(({ inputs, ...row }) => ({ ...row, painted: of(inputs, 'painted') })),
};
console.log(JSON.stringify({ ...report, rows: undefined }));
if (args.includes('--save')) {
  writeFileSync(resultsFile, `${JSON.stringify(report, null, 1)}\n`);
  console.error(`wrote ${path.relative(root, resultsFile)}`);
}
if (args.includes('--write')) writeDocs(report);

/** docs/page.md's sentence, from `results`, between its <!-- lab-run:input --> markers. */
function writeDocs(results) {
  const at = path.join(root, 'docs', 'page.md');
  writeFileSync(at, withBlock(readFileSync(at, 'utf8'), 'input', inputText(results)));
  console.error('wrote the bench page\'s answer to input into docs/page.md');
}
