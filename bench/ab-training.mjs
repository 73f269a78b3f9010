// Builds of the package timed against each other on training steps, in one process: Adam steps (model.step, lr 3e-3)
// of the lab model and of 2 layers of width 64 at T = 32 (bench/model-train.mjs's LAB and WIDE), through each build's
// JS API, float32. On a shared machine whose speed swings between runs, only rounds interleaved in one process compare
// builds fairly (bench/ab.mjs does the same for attention).
//
//   node bench/ab-training.mjs [--rounds 15] [--sample 0.2] [--positions kind] [--range L] A B ...
//
// --positions gives both models that kind of positions (createModel's positions; default the models' own), --range
// trains them with randomized positions (each step's positionRange: L).
//
// Each contender is a folder of the built package (a checkout's dist/lib). Every contender trains its own copy of each
// model from the same seed on the same batches; before anything is timed, each must give the first contender's losses
// over 20 steps and its parameters after them, bit for bit. Times are the CPU time of the thread that steps them
// (bench/clock.mjs); each round runs every contender in turn (the first one of the round rotating), each sample about
// --sample seconds of steps after one untimed step. A contender's speed over the first's is the median of the per-round
// ratios, with their middle half; GFLOP/s count each step's matrix products and attention (stepFlops).
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { measure, speedup } from '../web/js/bench-kernels.mjs';
import { middleHalf } from '../web/js/median.mjs';
import { cpuSecondsAsync } from './clock.mjs';
import { BATCH, LAB, LENGTH, WIDE, WIDE_LENGTH, stepFlops } from './model-train.mjs';

const args = process.argv.slice(2);
const take = (name, fallback) => {
  const at = args.indexOf(name);
  if (at < 0) return fallback;
  const [, value] = args.splice(at, 2);
  return Number(value);
};
const word = (name) => {
  const at = args.indexOf(name);
  return at < 0 ? undefined : args.splice(at, 2)[1];
};
const rounds = take('--rounds', 15), sampleSeconds = take('--sample', 0.2), range = take('--range', undefined);
const positions = word('--positions');
// (a learned table of positions: maxLength rows, the range's or 64)
const modelOptions = positions === undefined ? {} : positions === 'learned' ? { positions, maxLength: range ?? 64 } : { positions };
const stepOptions = range === undefined ? { lr: 3e-3 } : { lr: 3e-3, positionRange: range };
if (args.length < 2 || args.some((a) => a.startsWith('--')) || !(Number.isInteger(rounds) && rounds >= 1) || !(sampleSeconds > 0) ||
    !(range === undefined || Number.isInteger(range))) {
  console.error('usage: node bench/ab-training.mjs [--rounds 15] [--sample 0.2] [--positions kind] [--range L] A B ...');
  process.exit(2);
}

const MODELS = [{ name: 'the lab model', config: LAB, length: LENGTH }, { name: '2 layers, width 64, T = 32', config: WIDE, length: WIDE_LENGTH }];
const bitsOf = (model, losses) => {
  const parts = [new Float64Array(losses), ...Object.values(model.parameters()).map((t) => t.data)];
  return parts.flatMap((p) => Array.from(new Uint32Array(p.buffer, p.byteOffset, p.byteLength / 4)));
};

// each contender's API (a build given twice is loaded twice: a control, whose ratio to itself is the run's noise)
const apis = [];
for (const [i, folder] of args.entries()) {
  const { loadSeqorder } = await import(`${pathToFileURL(path.resolve(folder, 'model-entry.mjs')).href}?${i}`);
  apis.push({ name: args.indexOf(folder) < i ? `${folder} (again)` : folder, so: await loadSeqorder() });
}
console.log(`node ${process.versions.node}; positions ${positions ?? 'as each model'}${range === undefined ? '' : `, positionRange ${range}`}; CPU time, ${rounds} interleaved rounds; ratios are medians of per-round ratios (quartiles)\n`);
console.log('| model | contender | ms per step | GFLOP/s | speed ÷ the first (quartiles) |\n| --- | --- | --- | --- | --- |');
for (const { name, config, length } of MODELS) {
  const batches = Array.from({ length: 50 }, (_, k) => apis[0].so.orderTask({ count: BATCH, length, seed: 1000 + k }));
  const contenders = apis.map(({ name: who, so }) => {
    const model = so.createModel({ ...config, ...modelOptions });
    let next = 0;
    const losses = [];
    for (; next < 20; next++) losses.push(model.step(batches[next].ids, batches[next].targets, stepOptions));
    const bits = bitsOf(model, losses);
    return { name: who, model, bits, run: () => {
      const b = batches[next++ % batches.length];
      model.step(b.ids, b.targets, stepOptions);
    } };
  });
  for (const c of contenders.slice(1))
    if (c.bits.length !== contenders[0].bits.length || c.bits.some((x, i) => x !== contenders[0].bits[i]))
      throw new Error(`ab-training: ${c.name} differs from ${contenders[0].name} on ${name} (losses or parameters after 20 steps)`);
  const timed = await measure(contenders, { rounds, sampleSeconds, time: cpuSecondsAsync, warm: 1 });
  const flops = stepFlops(config, BATCH, length);
  for (const r of timed) {
    const seconds = [...r.samples].sort((a, b) => a - b)[Math.floor(r.samples.length / 2)];
    const [low, high] = middleHalf(r.samples.map((s, round) => timed[0].samples[round] / s));
    console.log(`| ${name} | ${r.name} | ${(1e3 * seconds).toFixed(3)} | ${(flops / seconds / 1e9).toFixed(1)} | ` +
      `${speedup(r, timed[0]).toFixed(3)} (${low.toFixed(3)}–${high.toFixed(3)}) |`);
  }
  for (const c of contenders) c.model.dispose();
}
