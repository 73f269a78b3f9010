// The training part of npm run bench (bench/run.mjs): Adam steps per second of the lab model (the lesson page's:
// vocab 16, width 32, 2 heads, 1 layer, sinusoidal positions, readout 'mean', 2 classes, float32; batches of 32
// sentences of 12 tokens of the order task, lr 3e-3), trained by
//   seqorder          through its JS API (model.step), in this process (and its opt-in relaxed-SIMD build, where
//                     this node runs it);
//   PyTorch           natively, one thread (bench/model_reference.py --time, Debian's python3-torch, run as
//                     /usr/bin/python3 with OMP_NUM_THREADS=1 set before torch is imported); skipped with a note where
//                     it is missing;
//   tfjs-backend-wasm the same architecture in tfjs-core's ops (bench/model-tfjs.mjs: tf.variableGrads, tf.train.adam);
//   plain JS          a straightforward implementation (bench/model-plain.mjs).
// Every contender starts from seqorder's initial parameters (PyTorch draws the same ones: model_reference.py ports the
// core's generator) and trains on the same sentences, and each must give seqorder's loss on the first batch within
// float32 rounding (tfjs and plain JS also its loss after one Adam step), so the comparison is of one computation.
// Rounds are interleaved; each contender's time is the CPU time of the thread that steps it (bench/clock.mjs; PyTorch:
// measured in its own process), each sample taken after the garbage of those before it is collected (harness.mjs's
// settle); each ratio is the median of the per-round ratios. The SIMD128 peak's loops (each of simd-peak.mjs's shapes)
// run in the same rounds, for each step's share of the round's fastest.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, middleHalf } from '../web/js/median.mjs';
import { PlainModel } from './model-plain.mjs';
import { tfjsModel } from './model-tfjs.mjs';
import { settle } from './harness.mjs';
import { roundPeaks } from './simd-peak.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const LAB = { vocab: 16, width: 32, heads: 2, layers: 1, positions: 'sinusoidal', classes: 2, dtype: 'float32', seed: 1 };
export const BATCH = 32;
export const LENGTH = 12;
const LR = 3e-3;
const BATCHES = 200;  // step k trains on orderTask(32, 12, seed 1000 + k % 200), as model_reference.py --time does
// float32 losses of implementations that sum in different orders: ~1e-7 apart; a wrong step (a missing scale, a
// transposed weight, another epsilon) moves them by 1e-3 or more
const TOLERANCE = { first: 1e-5, afterOneStep: 1e-4 };
const PYTHON = '/usr/bin/python3';
const WARM_SECONDS = 1.5;  // each contender's steps before it is timed (see benchTraining)
// The second model whose step is counted against the peak: two layers of width 64 on sentences of 32 tokens.
export const WIDE = { ...LAB, width: 64, layers: 2 };
export const WIDE_LENGTH = 32;

/**
 * The floating-point operations of one training step counted by its matrix products and attention (2 per multiply-add;
 * the backward pass twice the forward's: a gradient for each operand): per layer and token, q, k, v and Wo (4 D²) and
 * the MLP (8 D²) times 2, plus the scores and the weighted values (2 · 2 T D per token, every key counted), and the
 * readout (2 D C per sentence, 'mean'). LayerNorm, softmax, the embedding, positions and Adam are not counted.
 */
export function stepFlops({ width: D, layers, classes }, batch, length) {
  const tokens = batch * length;
  const forward = layers * (2 * 12 * D * D * tokens + 2 * 2 * length * D * tokens) + 2 * D * classes * batch;
  return 3 * forward;
}

/** PyTorch's ms per step over `steps` steps and its loss on the first batch, or { missing } when it cannot run. */
function pytorch(steps) {
  const run = spawnSync(PYTHON, ['bench/model_reference.py', '--time', '--rounds', '1', '--steps', String(steps)], { cwd: root, encoding: 'utf8' });
  if (run.error || run.status !== 0) {
    const reason = run.error ? `${PYTHON} cannot run (${run.error.code})` : /No module named '?torch/.test(run.stderr)
      ? 'python3-torch is not installed (Debian: apt-get install python3-torch)' : `bench/model_reference.py failed: ${run.stderr.trim().split('\n').at(-1)}`;
    return { missing: reason };
  }
  const time = /([0-9.]+) ms per Adam step/.exec(run.stdout);
  const first = /first batch before any step ([0-9.e+-]+)/.exec(run.stdout);
  const version = /pytorch (\S+),/.exec(run.stdout);
  if (!time || !first) throw new Error(`bench/model_reference.py printed no timing: ${run.stdout}${run.stderr}`);
  return { msPerStep: Number(time[1]), first: Number(first[1]), version: version?.[1] };
}

/**
 * Runs the comparison: { rounds } interleaved; `cpuSeconds(f)` times f in this process. Returns the report: the
 * configuration, per contender its steps per second (median), per-round samples and losses, and the ratios.
 */
export async function benchTraining({ so, soRelaxed, tf, versions, rounds, roundSeconds, torchSteps, cpuSeconds, log, peaks }) {
  const batches = Array.from({ length: BATCHES }, (_, k) => so.orderTask({ count: BATCH, length: LENGTH, seed: 1000 + k }));
  const wideBatches = Array.from({ length: BATCHES }, (_, k) => so.orderTask({ count: BATCH, length: WIDE_LENGTH, seed: 1000 + k }));
  const plainBatches = batches.map(({ ids, targets }) => ({ ids: ids.data, targets: targets.data }));
  const model = so.createModel(LAB);
  const wide = so.createModel(WIDE);
  const relaxed = soRelaxed?.createModel(LAB);
  const initial = model.parameters();
  const reference = { first: model.loss(batches[0].ids, batches[0].targets) };

  const tfModel = tfjsModel(tf, LAB, initial, { lr: LR });
  const plain = new PlainModel(LAB, initial);
  const contenders = [
    { name: 'seqorder', label: `seqorder ${versions.seqorder} (WebAssembly SIMD128, JS API)`, next: 0,
      step: (b) => model.step(b.ids, b.targets, { lr: LR }), loss: (b) => model.loss(b.ids, b.targets) },
    ...(relaxed ? [{ name: 'seqorder relaxed', label: 'seqorder, opt-in relaxed SIMD', next: 0,
      step: (b) => relaxed.step(b.ids, b.targets, { lr: LR }), loss: (b) => relaxed.loss(b.ids, b.targets) }] : []),
    { name: 'tfjs-backend-wasm', label: `tfjs-backend-wasm ${versions['@tensorflow/tfjs-backend-wasm']} (1 thread${versions.tfjsSimd ? ', SIMD' : ''})`, next: 0,
      step: (b) => tfModel.step(b.ids, b.targets), loss: (b) => tfModel.loss(b.ids, b.targets) },
    { name: 'plain JS', label: 'plain JS (bench/model-plain.mjs)', next: 0,
      step: (_, k) => plain.step(plainBatches[k].ids, plainBatches[k].targets, BATCH, LENGTH, LR),
      loss: (_, k) => plain.forward(plainBatches[k].ids, plainBatches[k].targets, BATCH, LENGTH) },
  ];
  // timed in the same rounds for its share of the peak only (no other contender trains it)
  const wideContender = { name: 'seqorder, 2 layers, width 64, T = 32', next: 0,
    step: (_, k) => wide.step(wideBatches[k].ids, wideBatches[k].targets, { lr: LR }) };
  // the SIMD128 peak (`peaks`: simd-peak.mjs's peakContenders, each loop shape a call of a few ms), timed in the same
  // rounds, each for a quarter of a round: the peak of a round is its fastest shape, and each share of it the median
  // of the per-round ratios, as every other ratio here, so that the machine's load moving between the start of the run
  // and these rounds does not move the share
  const peakTimed = peaks.map((p) => ({ name: p.name, next: 0, step: () => p.run(), roundShare: 0.25 }));
  // The same computation: the first batch's loss, one Adam step on it, the second batch's loss
  for (const c of contenders) {
    c.first = c.loss(batches[0], 0);
    c.step(batches[0], 0);
    c.afterOneStep = c.loss(batches[1], 1);
    c.next = 1;
  }
  reference.afterOneStep = contenders[0].afterOneStep;
  const torchFirst = pytorch(20);
  const torch = torchFirst.missing ? undefined
    : { name: 'PyTorch', label: `PyTorch ${torchFirst.version} (native, 1 thread)`, first: torchFirst.first, samples: [] };
  if (!torch) log(`  model training: no PyTorch contender: ${torchFirst.missing}`);
  for (const c of [...contenders.slice(1), ...(torch ? [torch] : [])]) {
    const error = Math.abs(c.first - reference.first);
    if (!(error <= TOLERANCE.first))
      throw new Error(`model training: ${c.name}'s loss on the first batch is ${c.first}, seqorder's ${reference.first} (|diff| ${error} > ${TOLERANCE.first}): not timing another computation`);
    if (c.afterOneStep !== undefined && !(Math.abs(c.afterOneStep - reference.afterOneStep) <= TOLERANCE.afterOneStep))
      throw new Error(`model training: after one Adam step ${c.name}'s loss is ${c.afterOneStep}, seqorder's ${reference.afterOneStep}: not timing another computation`);
  }

  // Warm-up, then how many steps make a round of about roundSeconds each. Each contender steps for WARM_SECONDS first
  // (at least 5 steps): for a second or two after a model starts stepping, V8's background threads are at work (hot
  // code compiled again, the start's garbage collected), and this thread runs slower code until they are done: with 5
  // steps of warm-up, two runs gave the lab model's median 690 and 780 steps a second, with 1.5 s 1,120 and 1,130 (the
  // process's CPU time, the clock then).
  const run = (c, steps) => {
    for (let s = 0; s < steps; s++) {
      const k = c.next;
      c.next = (k + 1) % BATCHES;
      c.step(batches[k], k);
    }
  };
  const timed = [...contenders, wideContender, ...peakTimed];
  for (const c of timed) {
    run(c, 5);
    // (the peak's loops come warmed up)
    for (const start = performance.now(); !c.roundShare && performance.now() - start < 1000 * WARM_SECONDS;) run(c, 1);
    c.steps = Math.max(3, Math.round(((c.roundShare ?? 1) * roundSeconds) / (cpuSeconds(() => run(c, 3)) / 3)));
    c.samples = [];
  }
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < timed.length; i++) {
      const c = timed[(r + i) % timed.length];
      await settle();
      c.samples.push(c.steps / cpuSeconds(() => run(c, c.steps)));  // steps per second
    }
    if (torch) torch.samples.push(1000 / pytorch(torchSteps).msPerStep);
    log(`  model training, round ${r + 1}/${rounds}: ${[...contenders, ...(torch ? [torch] : [])].map((c) => `${c.name} ${c.samples.at(-1).toFixed(0)}`).join(', ')} steps/s; the peak ${Math.max(...peaks.map((p, i) => peakTimed[i].samples.at(-1) * p.flops / 1e9)).toFixed(1)} GFLOP/s`);
  }
  model.dispose();
  wide.dispose();
  relaxed?.dispose();
  tfModel.dispose();

  const [first, ...others] = contenders;
  const all = [first, ...others.filter((c) => c.name === 'seqorder relaxed'), ...(torch ? [torch] : []), ...others.filter((c) => c.name !== 'seqorder relaxed')];
  const seqorder = contenders[0].samples;
  const peak = roundPeaks(peaks, (p, i) => peakTimed[i].samples.map((callsPerSecond) => (callsPerSecond * p.flops) / 1e9));
  const share = (config, length, c) => {
    const flopsPerStep = stepFlops(config, BATCH, length);
    const fractions = c.samples.map((stepsPerSecond, r) => (flopsPerStep * stepsPerSecond) / 1e9 / peak.rounds[r]);
    return { config: { ...config, batch: BATCH, length }, flopsPerStep, stepsPerSecond: median(c.samples),
      gflops: (flopsPerStep * median(c.samples)) / 1e9, peakGflops: peak.gflops, fractionOfPeak: median(fractions),
      fractionMiddleHalf: middleHalf(fractions) };
  };
  return {
    config: { ...LAB, batch: BATCH, length: LENGTH, lr: LR },
    // each step's operations (stepFlops) at seqorder's speed over the SIMD128 peak, round by round
    shareOfPeak: [share(LAB, LENGTH, contenders[0]), share(WIDE, WIDE_LENGTH, wideContender)],
    // the peak of the rounds: each round's fastest loop shape
    peak,
    pytorch: torch ? `${PYTHON} bench/model_reference.py --time, OMP_NUM_THREADS=1` : `skipped: ${torchFirst.missing}`,
    contenders: all.map((c) => ({
      name: c.name, label: c.label, stepsPerSecond: median(c.samples), samples: c.samples, stepsPerRound: c.steps ?? torchSteps,
      firstLoss: c.first, lossAfterOneStep: c.afterOneStep,
      seqorderTimes: c === contenders[0] ? 1 : median(seqorder.map((x, r) => x / c.samples[r])),
    })),
  };
}

/** seqorder's speed over a contender's (the relaxed build: its speed over seqorder's default build). */
function ratioCell({ name, seqorderTimes }) {
  if (name === 'seqorder') return '—';
  if (name === 'seqorder relaxed') return `— (${(1 / seqorderTimes).toFixed(2)}× the default build's steps/s)`;
  return `**${seqorderTimes.toFixed(2)}×**`;
}

/** The report's table: one row per contender. */
export function trainingTable({ config, contenders, pytorch: torchNote }) {
  const rows = [
    `Training: Adam steps per second of the lab model (vocab ${config.vocab}, width ${config.width}, ${config.heads} heads, ${config.layers} layer, ${config.positions} positions, ${config.dtype}; batches of ${config.batch} sentences of ${config.length} tokens, lr ${config.lr}). Each contender starts from the same parameters and gives seqorder's loss on the first batch within float32 rounding (tfjs and plain JS also after one Adam step).`,
    '',
    '| contender | steps/s | ms per step | loss on the first batch | seqorder ÷ contender |',
    '| --- | --- | --- | --- | --- |',
    ...contenders.map((c) => `| ${c.label} | ${c.stepsPerSecond.toFixed(0)} | ${(1000 / c.stepsPerSecond).toFixed(2)} | ${c.firstLoss.toPrecision(9)} | ${ratioCell(c)} |`),
  ];
  if (!contenders.some((c) => c.name === 'PyTorch')) rows.push('', `PyTorch: ${torchNote}.`);
  return rows.join('\n');
}

/** A training step's share of the run's SIMD128 peak (the report's shareOfPeak): one row per model. */
export function shareOfPeakTable({ shareOfPeak }) {
  const percent = (x) => `${(100 * x).toFixed(0)}%`;
  // (runs before the peak was timed in the rounds have no middle half)
  const spread = (s) => (s.fractionMiddleHalf ? ` (${s.fractionMiddleHalf.map(percent).join('–')})` : '');
  return ['| model | MFLOP per step | steps/s | GFLOP/s | share of the peak |', '| --- | --- | --- | --- | --- |',
    ...shareOfPeak.map((s) => `| width ${s.config.width}, ${s.config.layers} layer${s.config.layers > 1 ? 's' : ''}, ${s.config.heads} heads, ${s.config.positions}; batch ${s.config.batch} × T ${s.config.length} | ${(s.flopsPerStep / 1e6).toFixed(1)} | ${s.stepsPerSecond.toFixed(0)} | ${s.gflops.toFixed(1)} | ${percent(s.fractionOfPeak)}${spread(s)} |`)].join('\n');
}
