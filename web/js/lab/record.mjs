// The record of a lab run: its settings and name, every model's curve (one point every CHUNK steps: the mean loss of
// those steps, the accuracy on its seed's held-out sentences), its parameter hash, and the measurements of the lengths
// table. The lab draws from it, its claims are made from it (findings.mjs), and the reader downloads it as JSON or
// CSV. Pure: no DOM.
import { kindLabel, runName } from './config.mjs';

/** A new record for a run of `config`: one entry per model, in the run's order (each kind, each seed). */
export function newRecord(config, settings) {
  return {
    name: runName(config),
    settings: { ...settings },
    config,
    state: 'idle',
    step: 0,
    models: config.kinds.flatMap((key) => config.seeds.map((seed) => ({
      key, seed, label: kindLabel(key, config), steps: 0, loss: NaN, accuracy: NaN, hash: null,
      curve: { step: [], loss: [], accuracy: [] },
    }))),
    measured: null,
    measuredAt: null,
    // the position probe's results (probe.mjs's probeRun), on the bench page
    probe: null,
    // milliseconds of the run (its pauses left out) when its models were created, had trained, had been measured
    timing: {},
  };
}

/** Model i's last chunk (createRun's onChunk): a point on its curves. */
export function addChunk(record, i, { step, losses, accuracy }) {
  const model = record.models[i];
  const loss = losses.reduce((a, b) => a + b, 0) / losses.length;
  model.curve.step.push(step);
  model.curve.loss.push(loss);
  model.curve.accuracy.push(accuracy);
  Object.assign(model, { steps: step, loss: losses[losses.length - 1], accuracy });
}

/** The record as the JSON file the reader downloads (numbers as numbers; NaN as null). */
export function recordJson(record, { version } = {}) {
  return JSON.stringify({ seqorder: version ?? null, ...record }, (key, value) => (Number.isNaN(value) ? null : value), 1);
}

const csvCell = (v) => {
  if (v === null || v === undefined || Number.isNaN(v)) return '';
  const text = String(v);
  return /[",\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

/**
 * The record as one CSV table, one value a row: model, seed, measure, step, T, value. The settings come first
 * (measure "setting:<name>"), then each model's curves (measure "loss" or "accuracy", by step), its parameter hash,
 * the lengths table (measure "accuracy at T", or "refused" with the API's message as the value), and the position
 * probe (measure "probe: position named right" and "probe: mean distance", at its T).
 */
export function recordCsv(record) {
  const rows = [['model', 'seed', 'measure', 'step', 'T', 'value']];
  for (const [name, value] of Object.entries(record.settings)) rows.push(['', '', `setting:${name}`, '', '', Array.isArray(value) ? value.join(' ') : value]);
  for (const m of record.models) {
    m.curve.step.forEach((step, j) => {
      rows.push([m.label, m.seed, 'loss', step, '', m.curve.loss[j]]);
      rows.push([m.label, m.seed, 'accuracy', step, '', m.curve.accuracy[j]]);
    });
    if (m.hash) rows.push([m.label, m.seed, 'parameters sha256', m.steps, '', m.hash]);
  }
  for (const row of record.measured ?? []) {
    const label = record.models.find((m) => m.key === row.key).label;
    for (const [T, at] of Object.entries(row.lengths)) {
      rows.push(at.error ? [label, row.seed, 'refused', record.measuredAt, T, at.error.message] : [label, row.seed, 'accuracy at T', record.measuredAt, T, at.accuracy]);
    }
  }
  for (const row of record.probe ?? []) {
    const label = record.models.find((m) => m.key === row.key).label;
    rows.push([label, row.seed, 'probe: position named right', record.measuredAt, row.T, row.accuracy]);
    rows.push([label, row.seed, 'probe: mean distance', record.measuredAt, row.T, row.meanDistance]);
  }
  return `${rows.map((r) => r.map(csvCell).join(',')).join('\n')}\n`;
}
