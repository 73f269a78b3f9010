// The lab's facts, each computed by one function: from a run's record, the views its figures draw (the curves, the
// lengths table), and from a view, each kind of fact the lab states (how a curve went against 95%, whether a kind
// learnt, where a number stands against chance, whether two kinds differ by more than the run's spread, how a kind did
// past the trained lengths). A claim (findings.mjs) is written from the facts of the views of its record; its check
// and its predicate compute the same fact again from the views as the page drew them, and compare. Pure: no DOM.
import { median } from '../median.mjs';
import { kindLabel, runName } from './config.mjs';
import { distanceChance } from './probe.mjs';
import { MEASURED_COUNT, VALIDATION_COUNT, answers, chance, measuredLengths, trainedLength, validationLength, versusChance } from './tasks.mjs';

/** The accuracy the curves' claims call "reached". */
export const REACHED = 0.95;

/** The accuracy at every trained length that a claim calls "learnt", and at a longer length "kept". */
export const LEARNED = 0.9;

/** The gap two accuracies must exceed to be called different (with several seeds, also their own ranges). */
export const MARGIN = 0.05;

// ---- the views: what the figures draw ----

/**
 * A kind's accuracy curve over its seeds (record models): at every step all its seeds have reached, { step, median,
 * min, max }. With one seed, median = min = max.
 */
export function kindCurve(models) {
  const steps = models[0].curve.step.slice(0, Math.min(...models.map((m) => m.curve.step.length)));
  return steps.map((step, j) => {
    const values = models.map((m) => m.curve.accuracy[j]);
    return { step, median: median(values), min: Math.min(...values), max: Math.max(...values) };
  });
}

/** What every view says of its run: its name (config.mjs's runName), task, k, layers and how many seeds. */
const runOf = (config) => ({ run: runName(config), task: config.task, back: config.back, layers: config.layers, seeds: config.seeds.length });

/**
 * The curves' view of a record: { run, task, back, layers, seeds, steps, chance, answers (per point), kinds: [{ key,
 * label, points }] }, points kindCurve's of each kind's models.
 */
export function curvesView(record) {
  const { config } = record;
  return {
    ...runOf(config), steps: config.steps, chance: chance(config), answers: answers(config, VALIDATION_COUNT, validationLength(config)),
    kinds: config.kinds.map((key) => ({ key, label: kindLabel(key, config), points: kindCurve(record.models.filter((m) => m.key === key)) })),
  };
}

/** A kind's accuracy at length T over its seeds: { median, min, max }, { error } when one refused T, null unmeasured. */
function kindAt(record, key, T) {
  const cells = record.measured?.filter((r) => r.key === key).map((r) => r.lengths[T]) ?? [];
  if (!cells.length || cells.some((c) => !c)) return null;
  if (cells.some((c) => c.error)) return { error: cells.find((c) => c.error).error };
  const values = cells.map((c) => c.accuracy);
  return { median: median(values), min: Math.min(...values), max: Math.max(...values) };
}

/**
 * The lengths table's view of a record (measured): { run, task, back, layers, seeds, lengths, trained, longest, chance,
 * answers: { [T]: per cell and seed }, kinds: [{ key, label, cells: { [T]: kindAt } }] }.
 */
export function lengthsView(record) {
  const { config } = record;
  const lengths = measuredLengths(config);
  return {
    ...runOf(config), lengths, trained: lengths.filter((T) => trainedLength(config, T)), longest: config.longest, chance: chance(config),
    answers: Object.fromEntries(lengths.map((T) => [T, answers(config, MEASURED_COUNT, T)])),
    kinds: config.kinds.map((key) => ({ key, label: kindLabel(key, config), cells: Object.fromEntries(lengths.map((T) => [T, kindAt(record, key, T)])) })),
  };
}

/**
 * The probe's view of a record (probed: record.probe): { run, task, back, layers, seeds, T, chance (1/T), distance (a
 * readout that knows nothing: distanceChance), words (scored per model), kinds: [{ key, label, median, min, max,
 * distance (the median of the mean distances) }] }, or null before the probe has run.
 */
export function probeView(record) {
  const { config, probe } = record;
  if (!probe?.length) return null;
  const { T, scored } = probe[0];
  return {
    ...runOf(config), T, chance: 1 / T, distance: distanceChance(T), words: scored,
    kinds: config.kinds.map((key) => {
      const rows = probe.filter((r) => r.key === key);
      const values = rows.map((r) => r.accuracy);
      return { key, label: kindLabel(key, config), median: median(values), min: Math.min(...values), max: Math.max(...values), distance: median(rows.map((r) => r.meanDistance)) };
    }),
  };
}

/** A kind's probe with where it stands against chance: { median, min, max, distance, chance: 'at', 'above' or 'below' }. */
export function probeStanding(view, key) {
  const kind = kindIn(view, key);
  return kind ? { median: kind.median, min: kind.min, max: kind.max, distance: kind.distance, chance: versusChance(kind.median, view.chance, view.words) } : null;
}

const kindIn = (view, key) => view.kinds.find((k) => k.key === key);

// ---- the facts ----

/**
 * How a curve went against REACHED: { reached: false, low, high, last, versus } (its range; versus, against chance:
 * 'at' when every point is at chance, else its last point's), or { reached: true, first, low, lowStep, last, lastValue }.
 */
export function reach(view, key) {
  const points = kindIn(view, key)?.points ?? [];
  if (!points.length) return null;
  const last = points.at(-1);
  const at = points.findIndex((p) => p.median >= REACHED);
  if (at < 0) {
    const values = points.map((p) => p.median);
    const versus = values.map((v) => versusChance(v, view.chance, view.answers));
    return { reached: false, low: Math.min(...values), high: Math.max(...values), last: last.step, versus: versus.every((v) => v === 'at') ? 'at' : versus.at(-1) };
  }
  const lowest = points.slice(at).reduce((a, p) => (p.median < a.median ? p : a));
  return { reached: true, first: points[at].step, low: lowest.median, lowStep: lowest.step, last: last.step, lastValue: last.median };
}

/** A kind's cell at T with where it stands against chance: { median, min, max, chance }, { error }, or null. */
export function standing(view, key, T) {
  const cell = kindIn(view, key)?.cells[T];
  if (!cell || cell.error) return cell ?? null;
  return { ...cell, chance: versusChance(cell.median, view.chance, view.answers[T]) };
}

/**
 * Whether a kind learnt: { low: its lowest median over the trained lengths (null when it gave no answer at one),
 * learnt: low ≥ LEARNED, chance: where low stands against chance }.
 */
export function learning(view, key) {
  const cells = view.trained.map((T) => standing(view, key, T));
  if (cells.some((c) => !c || c.error)) return { low: null, learnt: false, chance: null };
  const low = cells.reduce((a, c) => (c.median < a.median ? c : a));
  return { low: low.median, learnt: low.median >= LEARNED, chance: low.chance };
}

/** A kind past the trained lengths: { [T]: standing } at each measured length longer than the longest trained. */
export function beyond(view, key) {
  return Object.fromEntries(view.lengths.filter((T) => T > view.longest).map((T) => [T, standing(view, key, T)]));
}

/**
 * Whether kind x of view vx scored differently at T from kind y of view vy (the same run, or two), by more than the
 * runs allow: { a, b (their medians), threshold (MARGIN with one seed; with more, the widest of the two kinds' seed
 * ranges if wider), higher: 'a', 'b' or null (within it) }, or null when either gave no answer.
 */
export function gap([vx, x], [vy, y], T) {
  const [a, b] = [standing(vx, x, T), standing(vy, y, T)];
  if (!a || !b || a.error || b.error) return null;
  const threshold = Math.max(MARGIN, ...(vx.seeds > 1 || vy.seeds > 1 ? [a.max - a.min, b.max - b.min] : []));
  const higher = Math.abs(a.median - b.median) <= threshold ? null : a.median > b.median ? 'a' : 'b';
  return { a: a.median, b: b.median, threshold, higher };
}
