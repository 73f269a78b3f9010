// The lab's speed in the docs, rendered from bench/lab-run.mjs's results (bench/results/<machine kind>/lab-run.json): the README's
// line (<!-- lab-run:readme -->) and docs/page.md's table (<!-- lab-run:page -->); and the bench page's answer to input
// from bench/lab-input.mjs's (lab-input.json; <!-- lab-run:input -->). Pure: no files, no runs; the bench scripts
// write them, and tests/node/lab-run-doc.test.mjs checks that the docs hold what the results give.

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

/** docs/page.md's table: every build timed in the same rounds, its wall time, ratio, CPU time and answer to input. */
export function pageText(report) {
  const head = ['build', 'the default run, median (range)', '÷ the arithmetic', 'CPU time', 'CPU ÷ the arithmetic\'s',
    'a 10 ms timer late by, first second / after'];
  const lines = [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`];
  for (const s of report.sites) {
    lines.push(`| ${[s.label, `${seconds(s.page)} (${seconds(s.pageRange[0])}–${seconds(s.pageRange[1])})`, `${s.ratio} (${s.ratios[0]}–${s.ratios[1]})`,
      seconds(s.cpu), String(s.cpuRatio), `${Math.round(s.lagStart)} / ${Math.round(s.lagAfter)} ms`].join(' | ')} |`);
  }
  return `${lines.join('\n')}\n\n${report.rounds} interleaved rounds, ${report.machine.cpu} (${report.machine.cores} cores), ` +
    `load average ${load(report)}, ${report.machine.date.slice(0, 10)}; the arithmetic alone: ${seconds(report.arithmetic)} ` +
    `(${seconds(report.arithmeticCpu)} of CPU) on ${report.workers} workers. \`${['node bench/lab-run.mjs', report.rounds, ...report.sites.slice(1).map((s) => `--site <dir>=${s.label}`), '--save --write'].join(' ')}\`.`;
}

/** docs/page.md's table of the bench page's answer to input during its default run and after it (bench/lab-input.mjs's results). */
export function inputText(report) {
  const ms = (x) => `${Math.round(x)} ms`;
  const head = ['', 'inputs', 'to the next frame painted, median / most', 'key presses', 'clicks', 'pointer moves',
    'to the first handler, median / most', 'interactions of 16 ms or more (Event Timing), the longest'];
  const lines = [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`];
  for (const [name, side] of [['during the run', report.during], ['after it, idle', report.after]]) {
    const pair = (t) => `${ms(t.median)} / ${ms(t.max)}`;
    lines.push(`| ${[name, side.inputs, `**${pair(side.painted)}**`, ...['keydown', 'pointerdown', 'pointermove'].map((type) => pair(side.byType[type].painted)),
      pair(side.handler), side.long ? `${side.long}, ${ms(side.longest[0].duration)}` : '0'].join(' | ')} |`);
  }
  const { during } = report;
  const verdict = during.late === 0
    ? `every input of the run was answered within the goal, ${report.goal} ms`
    : `${during.late} of the run's ${during.inputs} inputs took longer than the goal, ${report.goal} ms (the median ${ms(during.painted.median)})`;
  return `${lines.join('\n')}\n\n${capitalized(verdict)}. ${report.rounds} first visits in headless Chromium, ${report.machine.cpu} ` +
    `(${report.machine.kind}, ${report.machine.cores} cores), load average ${load(report)}, ${report.machine.date.slice(0, 10)}; the ` +
    `run trained and was measured in ${seconds(report.run)} (median). \`node bench/lab-input.mjs ${report.rounds} --save --write\`.`;
}

/** `doc` with the text between `<!-- lab-run:<name> -->` and its closing marker replaced by `text`. */
export function withBlock(doc, name, text) {
  const begin = `<!-- lab-run:${name} -->`, end = `<!-- /lab-run:${name} -->`;
  const at = doc.indexOf(begin), stop = doc.indexOf(end);
  if (at < 0 || stop < at) throw new Error(`no ${begin} … ${end}`);
  return `${doc.slice(0, at + begin.length)}\n${text}\n${doc.slice(stop)}`;
}
