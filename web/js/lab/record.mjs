// The record of a lab run: its settings and name, every model's options (createModel's, resolved: the bias family's
// buckets and maxDistance among them) and curve (one point every CHUNK steps: the mean loss of those steps, the
// accuracy on its seed's held-out sentences), its parameter hash, the measurements of the lengths table, and on the
// bench page the position probe, the relative bias by offset and each stretch the reader asked for. The lab draws from
// it, its claims are made from it (findings.mjs), and the reader downloads it as JSON or CSV. Pure: no DOM.
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
      key, seed, label: kindLabel(key, config), options: null, steps: 0, loss: NaN, accuracy: NaN, hash: null,
      curve: { step: [], loss: [], accuracy: [] },
    }))),
    measured: null,
    measuredAt: null,
    // the bench page's: the position probe's results (probe.mjs's probeRun); each relative-bias model's bias by offset
    // (bias.mjs's biasByOffset: { key, seed, step, T, offsets, heads: [per head, a value per offset] }); each stretch
    // (stretch.mjs's stretchModel, with the step it was made at and the frequencies drawn), in the order asked
    probe: null,
    offsets: null,
    stretches: [],
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
 * (measure "setting:<name>"), then each model's options (measure "option:<name>"), curves (measure "loss" or
 * "accuracy", by step) and parameter hash, the lengths table (measure "accuracy at T", or "refused" with the API's
 * message as the value), the position probe (measure "probe: position named right" and "probe: mean distance", at its
 * T), the relative bias by offset (measure "relative bias: head h, offset d"), and each stretch k: its settings
 * (measure "stretch k: method", "…: factor", "…: fine-tuning steps", "…: fine-tuning length", "…: temperature"), then
 * its accuracy at each T (measure "stretch k: zero-shot accuracy", "stretch k: stretched, tuned accuracy" and "stretch k:
 * not stretched, tuned accuracy", at the step the copy stood at; "… refused" with the API's message where it refused T).
 */
export function recordCsv(record) {
  const rows = [['model', 'seed', 'measure', 'step', 'T', 'value']];
  const labelOf = (key) => record.models.find((m) => m.key === key).label;
  /** A model's scores at each length: `measure` with its accuracy, or `refused` with the API's message. */
  const scores = (label, seed, [measure, refused], step, lengths) => {
    for (const [T, at] of Object.entries(lengths)) rows.push(at.error ? [label, seed, refused, step, T, at.error.message] : [label, seed, measure, step, T, at.accuracy]);
  };
  for (const [name, value] of Object.entries(record.settings)) rows.push(['', '', `setting:${name}`, '', '', Array.isArray(value) ? value.join(' ') : value]);
  for (const m of record.models) {
    for (const [name, value] of Object.entries(m.options ?? {})) rows.push([m.label, m.seed, `option:${name}`, '', '', value]);
    m.curve.step.forEach((step, j) => {
      rows.push([m.label, m.seed, 'loss', step, '', m.curve.loss[j]]);
      rows.push([m.label, m.seed, 'accuracy', step, '', m.curve.accuracy[j]]);
    });
    if (m.hash) rows.push([m.label, m.seed, 'parameters sha256', m.steps, '', m.hash]);
  }
  for (const row of record.measured ?? []) scores(labelOf(row.key), row.seed, ['accuracy at T', 'refused'], record.measuredAt, row.lengths);
  for (const row of record.probe ?? []) {
    const label = labelOf(row.key);
    rows.push([label, row.seed, 'probe: position named right', record.measuredAt, row.T, row.accuracy]);
    rows.push([label, row.seed, 'probe: mean distance', record.measuredAt, row.T, row.meanDistance]);
  }
  for (const o of record.offsets ?? []) {
    o.heads.forEach((values, h) => o.offsets.forEach((d, k) => rows.push([labelOf(o.key), o.seed, `relative bias: head ${h + 1}, offset ${d}`, o.step, o.T, values[k]])));
  }
  (record.stretches ?? []).forEach((s, k) => {
    const [label, name] = [labelOf(s.key), `stretch ${k + 1}`];
    const settings = { method: s.method, factor: s.factor, 'fine-tuning steps': s.tune, 'fine-tuning length': s.length, temperature: s.frequencies.temperature };
    for (const [setting, value] of Object.entries(settings)) rows.push([label, s.seed, `${name}: ${setting}`, s.step, '', value]);
    const of = (what) => [`${name}: ${what} accuracy`, `${name}: ${what} refused`];
    scores(label, s.seed, of('zero-shot'), s.step, s.zeroShot);
    scores(label, s.seed, of('stretched, tuned'), s.step + s.tune, s.tuned);
    scores(label, s.seed, of('not stretched, tuned'), s.step + s.tune, s.plain);
  });
  return `${rows.map((r) => r.map(csvCell).join(',')).join('\n')}\n`;
}
