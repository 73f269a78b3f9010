// node bench/model-study.mjs [order] [lookback] [schemes] [--seeds 1,2,3] [--steps 800] [--backs 1,2,3]
//                            [--scales 1,sqrtWidth] [--setups a,b [--implementations pytorch]] [--write] [--results file]
//
// The lab's training runs (web/js/lab/run.mjs's schedule) with seqorder (bench/model_study.cpp, built here
// with g++ -O2: the same core, so the same bits as the WebAssembly build) and with the PyTorch reference
// (bench/model_reference.py --study, Debian's python3-torch, one thread): per setup and seed, the first step at which
// the validation accuracy reaches 95% (checked every 20 steps) and the accuracy after training at lengths 16, 32 and
// 64 (1x, 2x and 4x the longest trained length). The seed draws the initial parameters and every sentence, on the
// lab's sets (128 held-out sentences, 256 at each length), so the seeds' range is a run-to-run spread; the default
// seeds are the lab's three-seed run's.
//   order     the order task, every kind of positions, with the token vectors as they are (embedScale 1) and times
//             sqrt(width) (embedScale 'sqrtWidth')
//   lookback  the word k places back, for each k of --backs
// each at every embedScale of --scales.
//   schemes   every kind of positions on order, the word 2 back and induction (2 layers), measured at 1× … 8× the
//             longest trained length (model-study-tables.mjs's SCHEMES), token vectors × √D
// Runs go two at a time. The results go to bench/results/model-study-<task>.json and, as tables, to stdout; with
// --write, into docs/model.md between its <!-- model-study:<task> --> markers, and with both tasks the compact table
// into README.md between its <!-- model-study:readme --> markers (bench/model-study-tables.mjs renders them all).
// --from-results writes the tables of the last saved results, running nothing; --results file keeps a run's results
// there instead of bench/results/ (a trial run that must not replace them). schemes --setups a,b runs only the setups of
// those names (schemeSetups' names, e.g. rotary-randomized-causal) and puts their rows into the saved results in place
// of the same setups' earlier rows, the run noted in the report's `added`; with --implementations, only those
// implementations' runs (and rows).
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import {
  SCHEMES, SETUPS, readmeText, schemeSetups, schemesText, setupArgument, studyText, variantsOf, withBlock,
} from './model-study-tables.mjs';
import { modelSources } from './harness.mjs';

const run = promisify(execFile);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const numbers = (text) => text.split(',').map(Number);
const seeds = numbers(option('--seeds', '1,2,3'));
const steps = Number(option('--steps', '800'));
const backs = numbers(option('--backs', '1,2,3'));
const scales = option('--scales', '1,sqrtWidth').split(',');
const tasks = ['order', 'lookback', 'schemes'].filter((t) => args.includes(t));
if (tasks.length === 0) tasks.push('order', 'lookback');
const resultsFile = (task) => (args.includes('--results') ? path.resolve(option('--results'))
  : path.join(root, 'bench', 'results', `model-study-${task}.json`));

const fromResults = args.includes('--from-results');
const chosen = args.includes('--setups') ? option('--setups').split(',') : null;
if (chosen && (tasks.length !== 1 || tasks[0] !== 'schemes')) throw new Error('--setups: for the schemes study alone');
const implementations = option('--implementations', 'pytorch,seqorder').split(',');
if (!chosen && implementations.length < 2) throw new Error('--implementations: with --setups alone');
const out = path.join(root, 'build-bench');
mkdirSync(out, { recursive: true });

if (!fromResults && implementations.includes('seqorder')) console.error('building bench/model_study.cpp (g++ -O2) ...');
if (!fromResults && implementations.includes('seqorder')) execFileSync('g++', ['-std=c++20', '-O2', '-ffp-contract=off', '-fno-fast-math', '-Isrc/core', 'bench/model_study.cpp',
  ...modelSources(), '-o', path.join(out, 'model_study')], { cwd: root, stdio: 'inherit' });

/** One invocation of either implementation: its JSON lines. */
async function runs(implementation, argv) {
  const [file, prefix] = implementation === 'seqorder'
    ? [path.join(out, 'model_study'), []]
    : ['/usr/bin/python3', ['bench/model_reference.py', '--study']];
  const { stdout } = await run(file, [...prefix, ...argv.map(String)], { cwd: root, maxBuffer: 1 << 26 });
  return stdout.trim().split('\n').map((line) => JSON.parse(line));
}

/** Every job, two at a time (the machine's cores; each job is one thread). */
async function all(jobs) {
  const results = [];
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const job = jobs[next++];
      const started = Date.now();
      results.push(...(await job.run()));
      console.error(`${job.label}: ${((Date.now() - started) / 1e3).toFixed(1)} s`);
    }
  };
  await Promise.all([worker(), worker()]);
  return results;
}

/** The runs of `task`: made now, or (--from-results) those saved last. */
async function measure(task) {
  const file = resultsFile(task);
  if (fromResults) return JSON.parse(readFileSync(file, 'utf8'));
  const jobs = [];
  if (task === 'schemes') {
    for (const implementation of implementations)
      for (const [name, { back }] of Object.entries(SCHEMES.tasks))
        for (const setup of schemeSetups(name).filter((s) => !chosen || chosen.includes(s.name)))
          jobs.push({
            label: `${implementation} ${name} ${setup.name}`,
            run: async () => (await runs(implementation, [name, back, steps, 'sqrtWidth', setupArgument(setup.options), ...seeds]))
              .map((r) => ({ ...r, setup: setup.name })),
          });
  }
  for (const implementation of task === 'schemes' ? [] : ['pytorch', 'seqorder'])
    for (const setup of SETUPS[task])
      for (const [back, embedScale] of variantsOf(task, backs, scales))
        jobs.push({
          label: `${implementation} ${task} ${setup} back ${back} embedScale ${embedScale}`,
          run: () => runs(implementation, [task, back, steps, embedScale, setup, ...seeds]),
        });
  const started = Date.now();
  const results = await all(jobs);
  const cpu = os.cpus()[0]?.model ?? 'unknown';
  const machine = { cpu, date: new Date().toISOString(), seconds: Math.round((Date.now() - started) / 1e3) };
  let report = {
    task, steps, seeds, backs: task === 'lookback' ? backs : undefined, scales: task === 'schemes' ? ['sqrtWidth'] : scales,
    machine, results,
  };
  if (chosen) {
    const saved = JSON.parse(readFileSync(file, 'utf8'));
    if (saved.steps !== steps || saved.seeds.join() !== seeds.join()) throw new Error(`--setups: ${file} holds another schedule (steps, seeds)`);
    report = {
      ...saved, results: [...saved.results.filter((r) => !(chosen.includes(r.setup) && implementations.includes(r.implementation))), ...results],
      added: [...(saved.added ?? []).filter((a) => !(a.setups.every((s) => chosen.includes(s))
        && a.implementations.every((i) => implementations.includes(i)))), { setups: chosen, implementations, ...machine }],
    };
  }
  writeFileSync(file, `${JSON.stringify(report, null, 1)}\n`);
  // both implementations start from the same parameters on the same sentences: their first losses agree to float32
  // rounding (~1e-6), or the runners read a setup differently and the study would compare two computations
  for (const ours of report.results.filter((r) => r.implementation === 'seqorder')) {
    const torch = report.results.find((r) => r.implementation === 'pytorch' && ['task', 'setup', 'back', 'embedScale', 'seed'].every((k) => r[k] === ours[k]));
    if (torch && !(Math.abs(torch.firstLoss - ours.firstLoss) <= 1e-4))
      throw new Error(`(kept in ${file}) ${task} ${ours.setup} seed ${ours.seed}: first loss ${ours.firstLoss} (seqorder) vs ${torch.firstLoss} (PyTorch): not one computation`);
  }
  return report;
}

const reports = {};
for (const task of tasks) {
  const report = await measure(task);
  reports[task] = report;
  const text = task === 'schemes' ? schemesText(report) : studyText(report);
  console.log(`\n${text}\n`);
  if (args.includes('--write')) {
    const docs = path.join(root, 'docs', 'model.md');
    writeFileSync(docs, withBlock(readFileSync(docs, 'utf8'), task, text));
    console.error(`wrote the ${task} table into docs/model.md`);
  }
}
if (reports.order && reports.lookback) {
  const text = readmeText(reports.order, reports.lookback);
  console.log(`\n${text}\n`);
  if (args.includes('--write')) {
    const readme = path.join(root, 'README.md');
    writeFileSync(readme, withBlock(readFileSync(readme, 'utf8'), 'readme', text));
    console.error('wrote the compact table into README.md');
  }
}
