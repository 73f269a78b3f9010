// How long the lesson page's lab takes for its default run (section "lab": five models × 800 Adam steps, measured
// after), against the arithmetic alone: the same five models trained in a node pool of as many workers as the page
// starts (web/js/lab/run.mjs's poolSize for this machine's cores), 800 steps in one message each, nothing
// else (no held-out curve, no measurements, no page). Rounds are interleaved; the page is loaded fresh in one engine
// (--browser chromium, firefox or webkit: tests/browser/helpers/engines, headless, WebKitGTK in an Xvfb display) each
// round, a new profile each time, and timed from reaching the section to its last measurement (the section's own
// data-milliseconds, and its record's timing: models created, trained, measured). With --site, other builds of the
// page (a folder like dist/site) are timed in the same rounds, their order turning each round: an A/B comparison on a
// shared machine. Each page also runs a 10 ms timer during the run: how late it fired at most, in the run's first
// second and after, is the page's answer to input. Beside the wall times, the CPU time each side used (the node
// process's threads for the arithmetic; for the page, from /proc, every process this one started and theirs: the
// browser's, and for WebKit its WebDriver's and Xvfb's too), which other work on a shared machine moves far less.
// With --threads, each page's CPU time by thread as well (named by process and thread, /proc's comm: which of the
// engine's threads, the workers', its compilers', its garbage collector's, the compositor's, took it).
// Prints one JSON line per round (with the load average and the page's navigator.hardwareConcurrency), then the
// medians and the ratio page / arithmetic per site. Needs the built site (npm run build) and the engine.
// --save keeps the results in bench/results/<machine kind>/lab-run.json (Chromium), lab-run-firefox.json or
// lab-run-webkit.json; --write (or --from-results, running nothing: this machine kind's files) writes them
// into README.md (Chromium's) and docs/page.md (every engine's) between their <!-- lab-run:… --> markers
// (bench/lab-run-tables.mjs renders them).
//   node bench/lab-run.mjs [rounds = 5] [--browser chromium|firefox|webkit] [--site dir[=label]]... [--threads] [--save] [--write]
//   node bench/lab-run.mjs --from-results
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from '../scripts/serve.mjs';
import { ALL_ENGINES, openBrowser } from '../tests/browser/helpers/engines/index.mjs';
import { siteDir } from '../tests/browser/helpers/site.mjs';
import { loadSeqorder, loadSeqorderPool, siteModule } from '../tests/node/helpers/load.mjs';
import { median } from '../web/js/median.mjs';
import { pageText, readmeText, resultsName, withBlock } from './lab-run-tables.mjs';
import { machineKind } from './harness.mjs';
import { labRunDone, openNearLab } from './lab-page.mjs';

const args = process.argv.slice(2);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const resultsDir = path.join(root, 'bench', 'results', machineKind());
if (args.includes('--from-results')) {
  writeDocs(savedReports());
  process.exit(0);
}
const engine = args.includes('--browser') ? args[args.indexOf('--browser') + 1] : 'chromium';
if (!ALL_ENGINES.includes(engine)) {
  console.error(`bench/lab-run: --browser must be one of ${ALL_ENGINES.join(', ')}, got ${engine}`);
  process.exit(1);
}
/** --threads: each page's CPU time by thread too (its rows' `threads`). */
const byThread = args.includes('--threads');
const rounds = Number(args.find((a, i) => /^\d+$/.test(a) && !['--site', '--browser'].includes(args[i - 1])) ?? 5);
/** The builds timed: this one (dist/site), then each --site dir[=label]. */
const sites = [{ dir: siteDir, label: 'this build' }, ...args.flatMap((a, i) => {
  if (args[i - 1] !== '--site') return [];
  const [dir, label] = a.split('=');
  return [{ dir: path.resolve(dir), label: label ?? path.basename(dir) }];
})];
const so = await loadSeqorder();
const { poolSize } = await siteModule('js/lab/run.mjs');
const { modelOptions, runConfig } = await siteModule('js/lab/config.mjs');
const { trainingBatch } = await siteModule('js/lab/tasks.mjs');
const workers = poolSize(os.availableParallelism());
const lesson = runConfig();
const batches = Array.from({ length: lesson.steps }, (_, k) => trainingBatch(so, lesson, 1, k));

/** The arithmetic alone: { ms, cpu (ms of CPU, every thread) } for the five models' 800 steps each, on the page's number of workers. */
async function arithmetic() {
  const pool = await loadSeqorderPool({ workers });
  try {
    const models = await Promise.all(lesson.kinds.map((key) => pool.createModel(modelOptions(lesson, key, 1, so.taskWords.length))));
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    await Promise.all(models.map((m) => m.train(batches, { lr: 3e-3 })));
    const { user, system } = process.cpuUsage(c0);
    return { ms: Math.round(performance.now() - t0), cpu: Math.round((user + system) / 1000) };
  } finally {
    pool.close();
  }
}

/** /proc/<pid>/stat's or /proc/<pid>/task/<tid>/stat's fields after the command: { ppid, ticks (utime + stime), comm }, or null. */
function statOf(file) {
  try {
    const text = readFileSync(file, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]), comm: text.slice(text.indexOf('(') + 1, text.lastIndexOf(')')) };
  } catch {
    return null;  // gone meanwhile
  }
}

/** The processes `pids` and every process below them: [{ pid, ppid, ticks, comm }]. */
function processTree(pids) {
  const stats = readdirSync('/proc').filter((d) => /^\d+$/.test(d)).map((d) => ({ pid: Number(d), ...statOf(`/proc/${d}/stat`) }))
    .filter((s) => s.comm !== undefined);
  const inTree = new Set(pids);
  for (let grew = true; grew;) {
    grew = false;
    for (const s of stats) if (!inTree.has(s.pid) && inTree.has(s.ppid)) { inTree.add(s.pid); grew = true; }
  }
  return stats.filter((s) => inTree.has(s.pid));
}

/**
 * Milliseconds of CPU used so far by the processes `pids` and every process below them (/proc: utime + stime, in clock
 * ticks of 10 ms): on a shared machine the CPU a run takes moves far less than its wall time.
 */
const treeCpu = (pids) => 10 * processTree(pids).reduce((n, s) => n + s.ticks, 0);

/**
 * With --threads: the same tree's CPU by thread, { 'process/thread' (their names, digits dropped): ms } (a process's
 * threads that ended meanwhile count in its totals, not here: `threadsDuring` gives them a line of their own).
 */
function threadCpu(pids) {
  const threads = new Map();
  for (const proc of processTree(pids)) {
    let tids = [];
    try {
      tids = readdirSync(`/proc/${proc.pid}/task`);
    } catch {
      continue;  // gone meanwhile
    }
    for (const tid of tids) {
      const stat = statOf(`/proc/${proc.pid}/task/${tid}/stat`);
      if (stat) threads.set(`${proc.pid}/${tid}`, { name: `${proc.comm}/${stat.comm}`.replace(/\d+/g, '#'), ticks: stat.ticks, pid: proc.pid });
    }
  }
  return { threads, processes: new Map(processTree(pids).map((p) => [p.pid, p])) };
}

/** The CPU by thread name between two threadCpu() snapshots (ms, most first), with the threads that ended as one line. */
function threadsDuring(before, after) {
  const byName = {};
  let live = 0;
  for (const [id, t] of after.threads) {
    const ms = 10 * (t.ticks - (before.threads.get(id)?.ticks ?? 0));
    byName[t.name] = (byName[t.name] ?? 0) + ms;
    live += ms;
  }
  const total = 10 * ([...after.processes.values()].reduce((n, p) => n + p.ticks, 0)
    - [...before.processes.values()].filter((p) => after.processes.has(p.pid)).reduce((n, p) => n + p.ticks, 0));
  byName['(threads and processes that ended)'] = total - live;
  return Object.fromEntries(Object.entries(byName).filter(([, ms]) => ms > 0).sort((a, b) => b[1] - a[1]));
}

/** The processes this node process started (the browser, and for WebKit its WebDriver and Xvfb). */
function children() {
  return readdirSync('/proc').filter((d) => /^\d+$/.test(d)).map(Number).filter((pid) => {
    try {
      const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
      return Number(text.slice(text.lastIndexOf(')') + 2).split(' ')[1]) === process.pid;
    } catch {
      return false;  // gone meanwhile
    }
  });
}

let version;
const servers = await Promise.all(sites.map((site) => startServer({ root: site.dir, port: 0 })));
/** The page's default run: { page (ms from reaching the section), created, trained, measured, cpu, lag…, cores }. */
async function page(server) {
  const browser = await openBrowser(engine, { viewport: { width: 1000, height: 900 } });
  try {
    version = browser.version;
    await openNearLab(browser, server.url);
    // the page's answer to input meanwhile: how late a 10 ms timer fires, the most in the run's first second and after
    await browser.evaluate(() => {
      const lag = (globalThis.__lag = { start: 0, after: 0 });
      const t0 = performance.now();
      let last = t0;
      const tick = () => {
        const now = performance.now();
        const late = now - last - 10;
        if (last - t0 < 1000) lag.start = Math.max(lag.start, late);
        else lag.after = Math.max(lag.after, late);
        last = now;
        if (document.querySelector('#lab .section-body').dataset.training !== 'done') setTimeout(tick, 10);
      };
      setTimeout(tick, 10);
    });
    const pids = children();
    const cpu0 = treeCpu(pids);
    const threads0 = byThread ? threadCpu(pids) : null;
    const warmUp = () => browser.evaluate(() => Number(document.querySelector('#lab .section-body').dataset.warmUp ?? -1));
    const warmedAtReach = await warmUp();
    await browser.evaluate(() => document.getElementById('lab').scrollIntoView());
    const { ms, timing } = await labRunDone(browser);
    const cpu = treeCpu(pids) - cpu0;
    const threads = byThread ? threadsDuring(threads0, threadCpu(pids)) : undefined;
    const seen = await browser.evaluate(() => ({ lag: globalThis.__lag, cores: navigator.hardwareConcurrency }));
    const warmed = await warmUp();
    return {
      page: ms, ...timing, cpu, lagStart: Math.round(seen.lag.start), lagAfter: Math.round(seen.lag.after), cores: seen.cores,
      warmUp: warmed < 0 ? null : warmed, warmedAtReach: warmedAtReach >= 0, threads,
    };
  } finally {
    await browser.close();
  }
}

const rows = [];
try {
  for (let r = 0; r < rounds; r += 1) {
    const { ms, cpu } = await arithmetic();
    const row = { load: Number(os.loadavg()[0].toFixed(2)), arithmetic: ms, arithmeticCpu: cpu, sites: [] };
    const order = sites.map((_, i) => (i + r) % sites.length);
    for (const i of order) row.sites[i] = await page(servers[i]);
    rows.push(row);
    console.log(JSON.stringify(row));
  }
} finally {
  await Promise.all(servers.map((s) => s.close()));
}
const summary = sites.map((site, i) => {
  const of = (key) => median(rows.map((row) => row.sites[i][key]));
  const ratios = rows.map((row) => row.sites[i].page / row.arithmetic);
  return {
    label: site.label, page: of('page'), created: of('created'), trained: of('trained'), measured: of('measured'),
    pageRange: [Math.min(...rows.map((row) => row.sites[i].page)), Math.max(...rows.map((row) => row.sites[i].page))],
    lagStart: of('lagStart'), lagAfter: of('lagAfter'), cpu: of('cpu'),
    cpuRatio: Number(median(rows.map((row) => row.sites[i].cpu / row.arithmeticCpu)).toFixed(3)),
    ratio: Number(median(ratios).toFixed(3)), ratios: [Math.min(...ratios), Math.max(...ratios)].map((x) => Number(x.toFixed(3))),
  };
});
const report = {
  machine: { cpu: os.cpus()[0]?.model ?? 'unknown', cores: os.availableParallelism(), date: new Date().toISOString() },
  engine, browser: version, rounds, workers, load: [Math.min(...rows.map((r) => r.load)), Math.max(...rows.map((r) => r.load))],
  arithmetic: median(rows.map((row) => row.arithmetic)), arithmeticCpu: median(rows.map((row) => row.arithmeticCpu)), sites: summary, rows,
};
console.log(JSON.stringify({ ...report, rows: undefined }));
if (args.includes('--save')) {
  const file = path.join(resultsDir, resultsName(engine));
  mkdirSync(resultsDir, { recursive: true });
  writeFileSync(file, `${JSON.stringify(report, null, 1)}\n`);
  console.error(`wrote ${path.relative(root, file)}`);
}
if (args.includes('--write')) writeDocs({ ...savedReports(), [engine]: report });

/** This machine kind's saved results, by engine (those saved). */
function savedReports() {
  return Object.fromEntries(ALL_ENGINES.map((name) => [name, path.join(resultsDir, resultsName(name))])
    .filter(([, file]) => existsSync(file)).map(([name, file]) => [name, JSON.parse(readFileSync(file, 'utf8'))]));
}

/** The README's line (Chromium's) and docs/page.md's table (every engine's), from `reports` (by engine), between their <!-- lab-run:… --> markers. */
function writeDocs(reports) {
  if (!reports.chromium) throw new Error('bench/lab-run: no Chromium results to write (run it with --browser chromium --save first)');
  for (const [file, name, text] of [['README.md', 'readme', readmeText(reports.chromium)], [path.join('docs', 'page.md'), 'page', pageText(reports)]]) {
    const at = path.join(root, file);
    writeFileSync(at, withBlock(readFileSync(at, 'utf8'), name, text));
    console.error(`wrote the lab's speed into ${file}`);
  }
}
