// "Stretch it" (the bench page's): a trained rotary model taken to longer sentences with its rotation stretched, the
// ropeScaling call option (docs/model.md, "Stretching rotary positions"): zero-shot, then after N fine-tuning steps on
// sentences of the longer length with the stretch, beside the same N steps without one. The frequencies each pair turns
// by, before and after, are drawn from ropeFrequencies below (docs/model.md's formulas, one float64 operation at a time;
// tests/node/lab-stretch.test.mjs compares them with bench/position_schemes.py's, and the model's attention with what
// they predict). Pure: no DOM; node and the page import it.
import { callOptions, kindOf, modelOptions } from './config.mjs';
import { BATCH, TASKS, dataSeed, measuredLengths, measuredSet } from './tasks.mjs';
import { measureModel } from './run.mjs';

/** The methods, as ropeScaling names them, and their names on the page. */
export const METHODS = Object.freeze({ linear: 'PI (position interpolation)', ntk: 'NTK-aware', yarn: 'YaRN' });

/** The factors offered: how many times the longest trained length the model is stretched to. */
export const FACTORS = Object.freeze([2, 4, 8]);

/**
 * The fine-tuning steps offered, and the default: with 50 steps every method but interpolation at 4× and 8× reaches
 * 96–100% on the bench page's default run in bench/stretch_study.py's measurements (docs/model.md).
 */
export const TUNE_STEPS = Object.freeze([0, 25, 50, 100, 200]);
export const DEFAULT_TUNE = 50;

/** The first fine-tuning step's stream (dataSeed(seed, TUNE_STREAM + k)): past the run's (its steps, at most 4,000, take 1000 + k). */
const TUNE_STREAM = 10_000;

/** A run's rotary models ([{ key, seed }] of its models whose positions are rotary). */
export const rotaryModels = (run) => run.models.filter((m) => kindOf(m.key).positions === 'rotary');

/** The ropeScaling option of a stretch of `config`'s models: yarn's originalLength is the longest trained length. */
export function ropeScaling(config, method, factor) {
  return method === 'yarn' ? { method, factor, originalLength: config.longest } : { method, factor };
}

/**
 * The frequencies f_0 … f_(p−1) each rotated pair turns by per position (radians per word), and the temperature the
 * logits are multiplied by (1 but for yarn), for `pairs` pairs of base `base`, stretched by `scaling` (or not).
 */
export function ropeFrequencies(pairs, base, scaling) {
  const d = 2 * pairs;
  const exponents = Array.from({ length: pairs }, (_, i) => (2 * i) / d);
  if (!scaling) return { frequencies: Float64Array.from({ length: pairs }, (_, i) => base ** (-(2 * i) / d)), temperature: 1 };
  const { method, factor } = scaling;
  if (method === 'linear') return { frequencies: Float64Array.from(exponents, (x) => (1 / base ** x) / factor), temperature: 1 };
  if (method === 'ntk') {
    const stretched = base * factor ** (d / (d - 2));
    return { frequencies: Float64Array.from(exponents, (x) => 1 / stretched ** x), temperature: 1 };
  }
  const { lo, hi } = yarnRamp(pairs, base, scaling.originalLength);
  const frequencies = Float64Array.from(exponents, (x, i) => {
    const kept = 1 - Math.min(Math.max((i - lo) / (hi - lo), 0), 1);
    const power = base ** x;
    return (1 / (factor * power)) * (1 - kept) + (1 / power) * kept;
  });
  const m = 0.1 * Math.log(factor) + 1;
  return { frequencies, temperature: m * m };
}

/** YaRN's ramp over the pairs: pairs below lo keep their frequency, those from hi on are interpolated. */
function yarnRamp(pairs, base, length) {
  const d = 2 * pairs;
  const correction = (rotations) => (d * Math.log(length / (rotations * 2 * Math.PI))) / (2 * Math.log(base));
  const lo = Math.max(Math.floor(correction(32)), 0);
  let hi = Math.min(Math.ceil(correction(1)), d - 1);
  if (lo === hi) hi += 0.001;
  return { lo, hi };
}

/**
 * How YaRN treats each pair at this head width: { kept, blended, interpolated } (counts of pairs whose frequency it
 * keeps, mixes, or divides by the factor). With kept 0 and blended 0 it is position interpolation plus its temperature.
 */
export function yarnParts(pairs, base, originalLength) {
  const { lo, hi } = yarnRamp(pairs, base, originalLength);
  const parts = { kept: 0, blended: 0, interpolated: 0 };
  for (let i = 0; i < pairs; i += 1) {
    const kept = 1 - Math.min(Math.max((i - lo) / (hi - lo), 0), 1);
    parts[kept === 1 ? 'kept' : kept === 0 ? 'interpolated' : 'blended'] += 1;
  }
  return parts;
}

/**
 * Stretches model `model` ({ key, seed, handle } of `run`, trained) by `method` and `factor`: two copies of it are made
 * in `pool`, its parameters theirs; the accuracy of the stretched copy at every measured length zero-shot; then both
 * take `tune` Adam steps (lr of the run) on BATCH sentences of factor × longest words, one with the stretch, one
 * without, and are measured again (the stretched one with its stretch). Resolves to { key, seed, method, factor, tune,
 * length (the fine-tuning sentences'), scaling, lengths, zeroShot, tuned, plain ({ [T]: the task's score, or { error } })
 * }. The copies are freed whatever happens.
 */
export async function stretchModel({ pool, so, config, model, method, factor, tune }) {
  const scaling = ropeScaling(config, method, factor);
  const calls = callOptions(config, model.key);  // the run's randomized positions, if it draws them
  const options = modelOptions(config, model.key, model.seed, so.taskWords.length);
  const lengths = measuredLengths(config);
  const sets = new Map(lengths.map((T) => [T, measuredSet(so, config, model.seed, T)]));
  const length = factor * config.longest;
  const parameters = await model.handle.parameters();
  const copies = await Promise.allSettled([pool.createModel(options), pool.createModel(options)]);
  try {
    const failed = copies.find((c) => c.status === 'rejected');
    if (failed) throw failed.reason;
    const [stretched, plain] = copies.map((c) => c.value);
    await Promise.all([stretched.setParameters(parameters), plain.setParameters(parameters)]);
    const zeroShot = await measureModel(config, stretched, sets, { ...calls, ropeScaling: scaling });
    if (tune > 0) {
      const task = TASKS[config.task];
      const batches = Array.from({ length: tune }, (_, k) =>
        task.make(so, config, { count: BATCH, length, seed: dataSeed(model.seed, TUNE_STREAM + k) }));
      await Promise.all([stretched.train(batches, { lr: config.lr, ...calls, ropeScaling: scaling }), plain.train(batches, { lr: config.lr, ...calls })]);
    }
    const [tuned, untuned] = await Promise.all([measureModel(config, stretched, sets, { ...calls, ropeScaling: scaling }), measureModel(config, plain, sets, calls)]);
    return { key: model.key, seed: model.seed, method, factor, tune, length, scaling, lengths, zeroShot, tuned, plain: untuned };
  } finally {
    await Promise.allSettled(copies.filter((c) => c.status === 'fulfilled').map((c) => c.value.dispose()));
  }
}
