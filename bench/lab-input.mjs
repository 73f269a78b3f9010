// The bench page's answer to input during its default run: lab.html at a first visit (config.mjs's BENCH_RUN, trained
// at once) in headless Chromium, a fresh browser each round. While the run trains and is measured, the reader's input
// comes through the browser's own input pipeline (playwright's keyboard and mouse: the DevTools protocol's Input
// events), one every ~150 ms, in turn: a key press (Tab, the focus moving through the settings), a click on a control
// (the run figure's "How the models train" summary, opening and closing it) and the pointer moved over the loss plot
// (its tooltip). For each input the page notes, from the event's timeStamp (when the browser received it): when the
// page's first handler ran (capture listeners on window), and when the next frame had been painted (a
// requestAnimationFrame callback, then a message posted from it: the frame's paint is done when it arrives). Beside
// them, Chromium's Event Timing entries of 16 ms or more (durationThreshold's least; the measure behind INP), the
// page's tasks of 50 ms or more from the run's start (Long Tasks, by the lab's phase when each began) and the longest
// scripts of its long animation frames (Long Animation Frames: the function that started each, its time and the style
// and layout it forced). Then the same inputs again once the run has ended, the page idle on the machine as loaded:
// what the run adds. Prints one JSON line per round (--scripts: and its twelve longest scripts), then the medians and
// maxima over every input of every round, during the run and after it.
// --save keeps the results in bench/results/<machine kind>/lab-input.json; --write (or --from-results, running
// nothing: this machine kind's file) writes them into docs/page.md between its <!-- lab-run:input --> markers
// (bench/lab-run-tables.mjs renders them).
//   node bench/lab-input.mjs [rounds = 3] [--scripts] [--save] [--write]
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
      const phase = document.querySelector('#lab .section-body')?.dataset.training;
      requestAnimationFrame(() => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => inputs.push({ type, phase, at: event.timeStamp, handler, painted: performance.now() - event.timeStamp });
        channel.port2.postMessage(0);
      });
    }, { capture: true });
  }
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      long.push({ type: e.name, at: e.startTime, interaction: e.interactionId > 0, duration: e.duration, delay: e.processingStart - e.startTime, processing: e.processingEnd - e.processingStart });
    }
  }).observe({ type: 'event', durationThreshold: 16, buffered: true });
  // the page's tasks of 50 ms or more (Long Tasks), and what ran in them: each long animation frame's scripts of 5 ms
  // or more (the functions that started them, their own time and the style and layout they forced)
  const phases = (globalThis.__phases = []);
  new MutationObserver((records) => {
    for (const r of records) if (r.target.matches('#lab .section-body')) phases.push({ at: performance.now(), phase: r.target.dataset.training });
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-training'] });
  const tasks = (globalThis.__tasks = []);
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) tasks.push({ at: e.startTime, duration: e.duration });
  }).observe({ type: 'longtask', buffered: true });
  const scripts = (globalThis.__scripts = []);
  new PerformanceObserver((list) => {
    for (const frame of list.getEntries()) {
      for (const s of frame.scripts) {
        scripts.push({
          at: s.startTime, duration: s.duration, layout: s.forcedStyleAndLayoutDuration, invoker: s.invoker,
          function: s.sourceFunctionName, source: `${s.sourceURL.replace(/^[a-z]+:\/\/[^/]+\//, '')}:${s.sourceCharPosition}`,
        });
      }
    }
  }).observe({ type: 'long-animation-frame', buffered: true });
}

/** In the page: the box of the first element matching `selector` whose text starts with `text`, scrolled into view. */
function boxOf([selector, text]) {
  const element = [...document.querySelectorAll(selector)].find((e) => e.textContent.startsWith(text));
  element.scrollIntoView({ block: 'nearest' });
  const { x, y, width, height } = element.getBoundingClientRect();
  return { x, y, width, height };
}

/** The reader's inputs, in turn: a key, a click on a control, the pointer over a plot. */
const INPUTS = [
  (page) => page.keyboard.press('Tab'),
  async (page) => {
    const box = await page.evaluate(boxOf, ['#lab-run details > summary', 'How the models train']);
    await page.mouse.click(box.x + 20, box.y + box.height / 2);
  },
  async (page, i) => {
    const box = await page.evaluate(boxOf, ['#lab-run canvas', '']);
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
    const send = async (i) => {
      await INPUTS[i % INPUTS.length](page, i);
      await new Promise((resolve) => setTimeout(resolve, 150));
    };
    let sent = 0;
    for (let phase = await training(); phase !== 'done' && phase !== 'error'; phase = await training()) await send(sent++);
    const ended = await page.evaluate(() => performance.now());
    // the same inputs again once the run has ended (the page idle, the machine as loaded): what the run adds
    for (let i = 0; i < sent; i += 1) await send(i);
    await new Promise((resolve) => setTimeout(resolve, 200));  // the last inputs' frames
    const { inputs, long, tasks, scripts, phases, status, ms } = await page.evaluate(() => ({
      inputs: globalThis.__inputs, long: globalThis.__long, tasks: globalThis.__tasks, scripts: globalThis.__scripts, phases: globalThis.__phases,
      status: document.querySelector('.lab-status').textContent, ms: Number(document.querySelector('.lab-status').dataset.milliseconds),
    }));
    const split = (list) => [list.filter((x) => x.at < ended), list.filter((x) => x.at >= ended)];
    const [during, after] = split(inputs);
    const [longDuring, longAfter] = split(long);
    // the lab's phase when each task started (the last change before it)
    const phaseAt = (at) => phases.findLast((p) => p.at <= at)?.phase ?? 'idle';
    const [tasksDuring, tasksAfter] = split(tasks.map((t) => ({ ...t, phase: phaseAt(t.at) })));
    const [scriptsDuring] = split(scripts.map((x) => ({ ...x, phase: phaseAt(x.at) })));
    const started = phases.find((p) => p.phase === 'running')?.at ?? 0;
    return {
      load: Number(os.loadavg()[0].toFixed(2)), sent, during, after, longDuring, longAfter, status, ms,
      tasksDuring: tasksDuring.filter((t) => t.at >= started), tasksAfter, scriptsDuring: scriptsDuring.filter((x) => x.at >= started),
    };
  } finally {
    await chromium.close();
  }
}

/** The page answers input within this, from the input to its next frame painted (issue #45's goal). */
const GOAL_MS = 100;
const rows = [];
const of = (inputs, key) => ({ median: Number(median(inputs.map((x) => x[key])).toFixed(1)), max: Number(Math.max(...inputs.map((x) => x[key])).toFixed(1)) });
try {
  for (let r = 0; r < rounds; r += 1) {
    const row = await round();
    rows.push(row);
    console.log(JSON.stringify({ load: row.load, run: row.ms, sent: row.sent, during: of(row.during, 'painted'), after: of(row.after, 'painted'), tasks: taskSummary(row.tasksDuring) }));
    if (args.includes('--scripts')) console.log(JSON.stringify(row.scriptsDuring.toSorted((a, b) => b.duration - a.duration).slice(0, 12)));
  }
} finally {
  await server.close();
}
/** Tasks of 50 ms or more (Long Tasks): how many, the longest, how many by the lab's phase. */
function taskSummary(tasks) {
  const byPhase = {};
  for (const t of tasks) byPhase[t.phase] = (byPhase[t.phase] ?? 0) + 1;
  return { count: tasks.length, longest: tasks.length ? Math.round(Math.max(...tasks.map((t) => t.duration))) : 0, byPhase };
}

/** The inputs of one side (during the run, or after it) over every round: medians, maxima, by type, Event Timing's long ones. */
function summary(inputs, long) {
  return {
    inputs: inputs.length, handler: of(inputs, 'handler'), painted: of(inputs, 'painted'), late: inputs.filter((x) => x.painted > GOAL_MS).length,
    byType: Object.fromEntries(['keydown', 'pointerdown', 'pointermove'].map((type) => {
      const some = inputs.filter((x) => x.type === type);
      return [type, { count: some.length, handler: of(some, 'handler'), painted: of(some, 'painted') }];
    })),
    // by the lab's phase when the input came: its models created, training, measured and drawn
    byPhase: Object.fromEntries([...new Set(inputs.map((x) => x.phase))].map((phase) => {
      const some = inputs.filter((x) => x.phase === phase);
      return [phase, { count: some.length, handler: of(some, 'handler'), painted: of(some, 'painted') }];
    })),
    // Event Timing's interactions (key presses and clicks: INP's) of 16 ms or more, and where the longest went:
    // waiting for the page's thread, its handlers, then the frame
    long: long.filter((e) => e.interaction).length,
    longest: long.filter((e) => e.interaction).toSorted((a, b) => b.duration - a.duration).slice(0, 3),
  };
}
const report = {
  machine: { cpu: os.cpus()[0]?.model ?? 'unknown', kind: machineKind(), cores: os.availableParallelism(), date: new Date().toISOString() },
  goal: GOAL_MS, rounds, load: [Math.min(...rows.map((r) => r.load)), Math.max(...rows.map((r) => r.load))], run: median(rows.map((r) => r.ms)),
  during: {
    ...summary(rows.flatMap((r) => r.during), rows.flatMap((r) => r.longDuring)), tasks: taskSummary(rows.flatMap((r) => r.tasksDuring)),
    // the longest scripts of the run's long animation frames, over every round: what ran in its longest tasks
    scripts: rows.flatMap((r) => r.scriptsDuring).toSorted((a, b) => b.duration - a.duration).slice(0, 5)
      .map((x) => ({ ...x, at: Math.round(x.at), duration: Math.round(x.duration), layout: Math.round(x.layout) })),
  },
  after: { ...summary(rows.flatMap((r) => r.after), rows.flatMap((r) => r.longAfter)), tasks: taskSummary(rows.flatMap((r) => r.tasksAfter)) },
  rows: rows.map((row) => ({
    load: row.load, run: row.ms, sent: row.sent, status: row.status, during: of(row.during, 'painted'), after: of(row.after, 'painted'), tasks: taskSummary(row.tasksDuring),
  })),
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
