// The lab's speed in the docs, rendered from bench/lab-run.mjs's results (bench/results/<machine kind>/lab-run.json for
// Chromium, lab-run-firefox.json and lab-run-webkit.json): the README's line (<!-- lab-run:readme -->, Chromium's) and
// docs/page.md's table (<!-- lab-run:page -->, every engine's); and the bench page's answer to input from
// bench/lab-input.mjs's (lab-input.json; <!-- lab-run:input -->); and docs/performance.md's two tables of the lab's
// first model below the page from bench/lab-worker.mjs's (lab-worker-<engine>.json and -without-simd.json;
// <!-- lab-run:worker -->, <!-- lab-run:simd -->). Pure: no files, no runs; the bench scripts write
// them, and tests/node/lab-run-doc.test.mjs checks that the docs hold what the results give.
import { median } from '../web/js/median.mjs';

/** The results file of `engine`'s runs, in bench/results/<machine kind>/. */
export const resultsName = (engine) => (engine === 'chromium' ? 'lab-run.json' : `lab-run-${engine}.json`);

const ENGINES = ['chromium', 'firefox', 'webkit'];
const capitalized = (text) => text[0].toUpperCase() + text.slice(1);
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const load = (report) => (report.load[0] === report.load[1] ? `${report.load[0]}` : `${report.load[0]}–${report.load[1]}`);

/** The README's line: this build's default run, its time and its ratio to the arithmetic, the load it was measured at. */
export function readmeText(report) {
  const [ours] = report.sites;
  return `Its default run (five models × 800 Adam steps, then measured) took ${seconds(ours.page)} from reaching the ` +
    `section, ${ours.ratio.toFixed(2)}× the same training alone (${seconds(report.arithmetic)} there), in headless Chromium ` +
    `on a ${report.machine.cores}-core ${report.machine.cpu} shared with other work (load average ${load(report)}; the ` +
    `median of ${report.rounds} rounds, \`node bench/lab-run.mjs\`, [docs/page.md](https://github.com/seqorder/seqorder/blob/main/docs/page.md#the-labs-speed)).`;
}

/**
 * docs/page.md's table, from `reports` (by engine; Chromium's required): every engine's run and every build timed in
 * its rounds, its wall time, its ratio to the arithmetic of the same rounds, both against Chromium's, its CPU time
 * (and against Chromium's), the cores the page was told of (its pool's size follows) and its answer to input; then each engine's run named (browser, rounds, load, date, the arithmetic, the command).
 */
export function pageText(reports) {
  const base = reports.chromium.sites[0];
  const head = ['engine', 'build', 'the default run, median (range)', '÷ Chromium\'s', '÷ the arithmetic', 'that ÷ Chromium\'s',
    'CPU time', 'CPU ÷ Chromium\'s', 'CPU ÷ the arithmetic\'s', 'the page\'s cores (hardwareConcurrency)', 'a 10 ms timer late by, first second / after'];
  const lines = [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`];
  const notes = [];
  for (const engine of ENGINES.filter((name) => reports[name])) {
    const report = reports[engine];
    const browser = report.browser ?? 'Chromium';
    for (const [i, s] of report.sites.entries()) {
      const cores = [...new Set(report.rows.map((row) => row.sites[i].cores ?? '—'))].join(', ');
      lines.push(`| ${[browser, s.label, `${seconds(s.page)} (${seconds(s.pageRange[0])}–${seconds(s.pageRange[1])})`,
        `${(s.page / base.page).toFixed(2)}×`, `${s.ratio} (${s.ratios[0]}–${s.ratios[1]})`, `${(s.ratio / base.ratio).toFixed(2)}×`,
        seconds(s.cpu), `${(s.cpu / base.cpu).toFixed(2)}×`, String(s.cpuRatio), cores, `${Math.round(s.lagStart)} / ${Math.round(s.lagAfter)} ms`].join(' | ')} |`);
    }
    const command = ['node bench/lab-run.mjs', report.rounds, ...(engine === 'chromium' ? [] : ['--browser', engine]),
      ...report.sites.slice(1).map((s) => `--site <dir>=${s.label}`), '--save --write'].join(' ');
    notes.push(`${browser}: ${report.rounds} interleaved rounds, ${report.machine.cpu} (${report.machine.cores} cores), ` +
      `load average ${load(report)}, ${report.machine.date.slice(0, 10)}; the arithmetic alone: ${seconds(report.arithmetic)} ` +
      `(${seconds(report.arithmeticCpu)} of CPU) on ${report.workers} workers.${warmUpText(report)} \`${command}\`.`);
  }
  return `${lines.join('\n')}\n\n${notes.join('\n\n')}`;
}

/**
 * What the warm-up took in the builds of `report` that have one (its rows' warmUp, ms; warmedAtReach: whether it had
 * ended when the section was reached), or nothing.
 */
function warmUpText(report) {
  const parts = report.sites.flatMap((s, i) => {
    const rows = report.rows.map((row) => row.sites[i]).filter((r) => r.warmUp !== undefined && r.warmUp !== null);
    if (!rows.length) return [];
    const ended = rows.filter((r) => r.warmedAtReach).length;
    return [`${s.label}: ${seconds(median(rows.map((r) => r.warmUp)))} (${seconds(Math.min(...rows.map((r) => r.warmUp)))}–` +
      `${seconds(Math.max(...rows.map((r) => r.warmUp)))}), ended before the section was reached in ${ended} of ${report.rows.length} rounds`];
  });
  return parts.length ? ` The warm-up, before the run: ${parts.join('; ')}.` : '';
}

/** docs/page.md's table of the bench page's answer to input during its default run and after it (bench/lab-input.mjs's results). */
export function inputText(report) {
  const ms = (x) => `${Math.round(x)} ms`;
  const head = ['', 'inputs', 'to the next frame painted, median / most', 'key presses', 'clicks', 'pointer moves',
    'to the first handler, median / most', 'interactions of 16 ms or more (Event Timing), the longest', 'the page\'s tasks of 50 ms or more (Long Tasks), the longest'];
  const lines = [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`];
  for (const [name, side] of [['during the run', report.during], ['after it, idle', report.after]]) {
    const pair = (t) => `${ms(t.median)} / ${ms(t.max)}`;
    const tasks = !side.tasks ? '—' : side.tasks.count ? `${side.tasks.count}, ${ms(side.tasks.longest)}` : '0';
    lines.push(`| ${[name, side.inputs, `**${pair(side.painted)}**`, ...['keydown', 'pointerdown', 'pointermove'].map((type) => pair(side.byType[type].painted)),
      pair(side.handler), side.long ? `${side.long}, ${ms(side.longest[0].duration)}` : '0', tasks].join(' | ')} |`);
  }
  const { during } = report;
  const verdict = during.late === 0
    ? `every input of the run was answered within the goal, ${report.goal} ms`
    : `${during.late} of the run's ${during.inputs} inputs took longer than the goal, ${report.goal} ms (the median ${ms(during.painted.median)})`;
  const [script] = during.scripts ?? [];
  const longest = script
    ? ` The run's longest script (Long Animation Frames): ${script.function || 'an anonymous function'} (${script.source.replace(/^[a-z]+:\/\/[^/]+\//, '')}, ${script.invoker}), ${ms(script.duration)}, ` +
      `${ms(script.layout)} of it forced style and layout, while the lab was ${script.phase}.`
    : '';
  return `${lines.join('\n')}\n\n${capitalized(verdict)}.${longest} ${report.rounds} first visits in headless Chromium, ${report.machine.cpu} ` +
    `(${report.machine.kind}, ${report.machine.cores} cores), load average ${load(report)}, ${report.machine.date.slice(0, 10)}; the ` +
    `run trained and was measured in ${seconds(report.run)} (median). \`node bench/lab-input.mjs ${report.rounds} --save --write\`.`;
}

/** The rows of bench/lab-worker.mjs's table: its timings, by key, and what each is. */
const WORKER_ROWS = [
  ['thread', '800 steps on the page\'s thread (round 1: the code\'s first run)'],
  ['worker', '800 steps in a worker, one message'],
  ['fresh', '800 steps in a new worker each round'],
  ['chunks', '800 steps in a worker, 40 messages of 20 (as the lab sends them)'],
  ['message', 'one message\'s round trip'],
  ['measure', 'the lengths table\'s longest set (SHAPE), in the lab\'s slices'],
  ['lab', 'the lab\'s MODELS models at once, each 800 steps in 40 messages of 20, in a pool of as many workers as the lab starts'],
];

/**
 * docs/performance.md's table of the lab's first model below the page, per engine (bench/lab-worker.mjs's results, by
 * engine): every timing's rounds, then each engine's run named.
 */
export function workerText(reports) {
  const engines = ENGINES.filter((name) => reports[name]);
  const shape = reports[engines[0]].rounds.measuredShape;
  const time = (key, ms) => (key === 'message' ? `${ms.toFixed(2)} ms` : seconds(ms));
  const lines = [`| rounds 1 / 2 … | ${engines.map((name) => reports[name].browser).join(' | ')} |`, `|---|${engines.map(() => '---').join('|')}|`];
  for (const [key, label] of WORKER_ROWS.filter(([key]) => engines.every((name) => reports[name].rounds[key]))) {
    const named = label.replace('SHAPE', `${shape[0]} sentences of ${shape[1]}`).replace('MODELS', reports[engines[0]].rounds.labModels);
    lines.push(`| ${named} | ${engines.map((name) => reports[name].rounds[key].map((ms) => time(key, ms)).join(' / ')).join(' | ')} |`);
  }
  const notes = engines.map((name) => {
    const r = reports[name];
    const pool = r.rounds.labWorkers ? `; the lab's pool: ${r.rounds.labWorkers} workers` : '';
    return `${r.browser}: ${r.cpu} (told of ${r.cores} cores${pool}), load average ${r.loadBefore}–${r.loadAfter}, ${r.date.slice(0, 10)}, ` +
      `\`node bench/lab-worker.mjs --browser ${name} --rounds ${r.rounds.thread.length} --save --write\`.`;
  });
  return `${lines.join('\n')}\n\n${notes.join('\n\n')}`;
}

/** The median of a timing's rounds after the first (the engine's compiled code; the first also compiles it). */
const compiled = (rounds) => median(rounds.slice(1));

/**
 * docs/performance.md's table of the same model with and without SIMD128 (bench/lab-worker.mjs's results, by engine:
 * `reports` the site's modules, `scalar` those built without SIMD; an engine is shown where both have 2 rounds or
 * more): per engine, 800 steps on the page's thread and in a worker, compiled (the median of the rounds after the
 * first), each build's time, SIMD's speed-up, each against Chromium's; then the first round over the compiled ones.
 * Ratios are of medians: the two builds ran in separate pages, one after the other.
 */
export function simdText(reports, scalar) {
  const engines = ENGINES.filter((name) => reports[name]?.rounds.thread.length > 1 && scalar[name]?.rounds.thread.length > 1);
  if (engines.length === 0)
    return 'No run without SIMD on this machine kind yet: `node bench/lab-worker.mjs --browser <engine> --rounds 2 --without-simd --save --write`, and the same without `--without-simd`.';
  const x = (ratio) => `${ratio.toFixed(2)}×`;
  const chromium = engines.includes('chromium');
  const lines = [`| 800 Adam steps, compiled (rounds after the first) | ${engines.map((name) => reports[name].browser).join(' | ')} |`, `|---|${engines.map(() => '---').join('|')}|`];
  const row = (label, cell) => lines.push(`| ${label} | ${engines.map(cell).join(' | ')} |`);
  for (const [key, where] of [['thread', 'on the page\'s thread'], ['worker', 'in a worker, one message']]) {
    const simd = (name) => compiled(reports[name].rounds[key]), plain = (name) => compiled(scalar[name].rounds[key]);
    row(`${where}, SIMD128`, (name) => seconds(simd(name)));
    row(`${where}, without SIMD`, (name) => seconds(plain(name)));
    row(`${where}: SIMD's speed-up`, (name) => `**${x(plain(name) / simd(name))}**`);
    if (chromium) {
      row(`${where}, SIMD128 ÷ Chromium's`, (name) => (name === 'chromium' ? '—' : `**${x(simd(name) / simd('chromium'))}**`));
      row(`${where}, without SIMD ÷ Chromium's`, (name) => (name === 'chromium' ? '—' : x(plain(name) / plain('chromium'))));
    }
  }
  row('on the page\'s thread, SIMD128: round 1 (the code\'s first run) ÷ compiled', (name) => x(reports[name].rounds.thread[0] / compiled(reports[name].rounds.thread)));
  const notes = engines.map((name) => {
    const [r, s] = [reports[name], scalar[name]];
    return `${r.browser}: ${r.cpu} (told of ${r.cores} cores); with SIMD128 load average ${r.loadBefore}–${r.loadAfter}, ${r.date.slice(0, 10)}, ` +
      `${r.rounds.thread.length} rounds; without, ${s.loadBefore}–${s.loadAfter}, ${s.date.slice(0, 10)}, ${s.rounds.thread.length} rounds ` +
      `(\`node bench/lab-worker.mjs --browser ${name} --rounds ${s.rounds.thread.length} --without-simd --save --write\`).`;
  });
  return `${lines.join('\n')}\n\n${notes.join('\n\n')}`;
}

/** `doc` with the text between `<!-- lab-run:<name> -->` and its closing marker replaced by `text`. */
export function withBlock(doc, name, text) {
  const begin = `<!-- lab-run:${name} -->`, end = `<!-- /lab-run:${name} -->`;
  const at = doc.indexOf(begin), stop = doc.indexOf(end);
  if (at < 0 || stop < at) throw new Error(`no ${begin} … ${end}`);
  return `${doc.slice(0, at + begin.length)}\n${text}\n${doc.slice(stop)}`;
}
