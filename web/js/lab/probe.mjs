// The position probe ("the mask counts"): reads each word's position back from a trained model's final vectors, the
// vectors its readout reads (after the last layer norm). A linear least-squares readout (least-squares.mjs) maps a
// word's final vector to its position, fitted on PROBE_COUNT held-out sentences of the longest trained length and
// scored on PROBE_COUNT others: a word counts as read back when the position nearest the readout's value is its own.
// Chance: 1/T (a readout that knows nothing lands on one position). The final vectors come from the model's own API:
// a model of the same options with readout 'each' and classes = width, its parameters the trained ones but its
// readout the identity (weight I, bias 0), so that its logits are the final vectors, bit for bit (every product of
// the readout is z·1 or z·0, every sum adds exact zeros). Pure: no DOM.
import { fitLeastSquares, optimality, predict } from './least-squares.mjs';
import { TASKS, dataSeed } from './tasks.mjs';
import { measureSlice } from './run.mjs';

/** How many held-out sentences the readout is fitted on, and how many it is scored on. */
export const PROBE_COUNT = 64;

/** The largest |cosine| between the fitted readout's residual and a coordinate that a check calls least squares. */
export const ORTHOGONAL = 1e-6;

/** The length the probe reads positions at: the longest trained (a learned table has rows for it). */
export const probeLength = (config) => config.longest;

/**
 * How far, on average, a readout that knows nothing lands from a word's position at length T: it names one position,
 * at best the middle (min over c of the mean |c − t|, t = 0 … T − 1).
 */
export function distanceChance(T) {
  const c = Math.floor((T - 1) / 2);
  let sum = 0;
  for (let t = 0; t < T; t += 1) sum += Math.abs(t - c);
  return sum / T;
}

/** The probe's sentences at seed `seed`: { fit, scored }, PROBE_COUNT each at probeLength (streams 300 and 301). */
export function probeSets(so, config, seed) {
  const task = TASKS[config.task];
  const T = probeLength(config);
  const make = (n) => task.make(so, config, { count: PROBE_COUNT, length: T, seed: dataSeed(seed, n), ...task.measuredOptions });
  return { fit: make(300), scored: make(301) };
}

/**
 * The final vectors of `model` (a model of createModel, or a pool's handle: its config, parameters()) for each ids (B,
 * T) of `idsList`: [{ data, shape: [B, T, width] }], through one model that `make(options)` creates (createModel, or a
 * pool's) with the identity for its readout, freed before this resolves. Its calls take slices of sentences as
 * measureSlice allows.
 */
export async function finalVectors(make, model, idsList, config) {
  const { width, dtype } = model.config;
  const Float = dtype === 'float64' ? Float64Array : Float32Array;
  const parameters = await model.parameters();
  const identity = new Float(width * width);
  for (let d = 0; d < width; d += 1) identity[d * width + d] = 1;
  const probe = await make({ ...model.config, readout: 'each', classes: width });
  try {
    await probe.setParameters({
      ...parameters, 'readout.weight': { data: identity, shape: [width, width] }, 'readout.bias': { data: new Float(width), shape: [width] },
    });
    return await Promise.all(idsList.map(async (ids) => {
      const [count, T] = ids.shape;
      const slice = measureSlice(config, T);
      const parts = [];
      for (let from = 0; from < count; from += slice) {
        const n = Math.min(slice, count - from);
        parts.push(probe.forward({ data: ids.data.slice(from * T, (from + n) * T), shape: [n, T] }));
      }
      const done = await Promise.all(parts);
      const data = new Float(count * T * width);
      done.reduce((at, p) => { data.set(p.data, at); return at + p.data.length; }, 0);
      return { data, shape: [count, T, width] };
    }));
  } finally {
    await probe.dispose();
  }
}

/**
 * The probe on final vectors (B, T, D) of the fitted sentences and of the scored ones: { T, fitted, scored (words),
 * accuracy (the share of scored words whose nearest position is their own), meanDistance (|nearest − t|, on average),
 * chance (1/T), kept (the coordinates the readout uses), orthogonality (optimality's) }. `positions` (default: each
 * word's own) may be given to fit the readout on other targets (a test's sabotage: shuffled).
 */
export function probeVectors(fitVectors, scoredVectors, { positions } = {}) {
  const [B, T, D] = fitVectors.shape;
  const n = B * T;
  const y = positions ?? Float64Array.from({ length: n }, (_, i) => i % T);
  const fit = fitLeastSquares(fitVectors.data, y, n, D);
  const m = scoredVectors.shape[0] * T;
  const predicted = predict(fit, scoredVectors.data, m);
  let right = 0;
  let distance = 0;
  for (let i = 0; i < m; i += 1) {
    const nearest = Math.min(T - 1, Math.max(0, Math.round(predicted[i])));
    right += nearest === i % T ? 1 : 0;
    distance += Math.abs(nearest - (i % T));
  }
  return {
    T, fitted: n, scored: m, accuracy: right / m, meanDistance: distance / m, chance: 1 / T, kept: fit.kept, width: D,
    orthogonality: optimality(fit, fitVectors.data, y),
  };
}

/**
 * Each model of a run probed at the step it stands at: [{ key, seed, ...probeVectors' }], in the run's order. `make`:
 * what creates the identity-readout models (the pool's createModel).
 */
export async function probeRun(make, so, run) {
  const sets = new Map(run.config.seeds.map((seed) => [seed, probeSets(so, run.config, seed)]));
  const out = [];
  for (const { key, seed, handle } of run.models) {
    const { fit, scored } = sets.get(seed);
    const [a, b] = await finalVectors(make, handle, [fit.ids, scored.ids], run.config);
    out.push({ key, seed, ...probeVectors(a, b) });
  }
  return out;
}
