// The comparisons aside's experiments (web/js/experiments/comparisons.mjs), run in node against the built API: every
// check the page shows passes here too, and each check fails when the API is sabotaged in the way it is meant to
// catch, so a passing check means something.
import test from 'node:test';
import assert from 'node:assert/strict';
import { loadSeqorder, siteModule } from './helpers/load.mjs';
import { assertAllPass, verdicts } from './helpers/verdicts.mjs';

const {
  PRECISION_STARTS, TOL, diagonalStats, dotProducts, float32AnglesPositions, frequencies, layoutExperiment,
  learnedExperiment, precisionExperiment, rotaryExperiment, shiftExperiment, t2tPositions,
} = await siteModule('js/experiments/comparisons.mjs');
const { positionsFormula } = await siteModule('js/experiments/reference.mjs');

const so = await loadSeqorder();

/** The API with some functions replaced by deliberately wrong ones. */
function sabotaged(replacements) {
  return { ...so, ...replacements };
}

/** A tensor's data mapped element-wise into a new tensor of the same shape and dtype. */
function mapTensor(t, f) {
  return { data: t.data.map(f), shape: t.shape, dtype: t.dtype };
}

test('every comparisons check passes on the real API', () => {
  for (const e of [learnedExperiment(so), rotaryExperiment(so), precisionExperiment(so), precisionExperiment(so, { width: 16 }),
    layoutExperiment(so), shiftExperiment(so)]) assertAllPass(e.checks);
  for (let seed = 1; seed < 20; seed++) assertAllPass(rotaryExperiment(so, { seed }).checks);
});

test('the JS references: the float64 table is the lesson\'s, float32 angles are float32 arithmetic, t2t is t2t', () => {
  const p = positionsFormula(3, 8, { start: 2 });
  assert.equal(p.data[0], Math.sin(2));
  assert.equal(p.data[8 + 3], Math.cos(3 * 10000 ** (-2 / 8)));
  frequencies(8).forEach((f, i) => assert.ok(Math.abs(f - [1, 0.1, 0.01, 0.001][i]) < 1e-15, `f_${i} = ${f}`));
  // float32 angles: at t = 1e6 (exact in float32), the angle of pair 3 is the float32 product of t and the float32
  // frequency (~1000), so a multiple of float32's step 2^-14 between 2^9 and 2^10.
  const a = float32AnglesPositions(1, 8, { start: 1e6 });
  const angle = Math.fround(1e6 * Math.fround(10000 ** Math.fround(-6 / 8)));
  assert.equal(a.data[6], Math.fround(Math.sin(angle)));
  assert.equal(angle % 2 ** -14, 0);
  assert.notEqual(angle, 1e6 * 10000 ** (-6 / 8));
  const wide = float32AnglesPositions(8, 16, { start: 1e6 });
  const exact = positionsFormula(8, 16, { start: 1e6 });
  assert.ok(wide.data.some((v, j) => Math.abs(v - exact.data[j]) > 1e-3));
  // tensor2tensor, D = 8: frequencies 1, 10^(-4/3), 10^(-8/3), 1e-4; sines in columns 0..3, cosines in 4..7.
  const t = t2tPositions(2, 8);
  assert.equal(t.data[8 + 3], Math.sin(Math.exp(-3 * Math.log(10000) / 3)));
  assert.ok(Math.abs(t.data[8 + 3] - 1e-4) < 1e-12);
  assert.equal(t.data[8 + 4], Math.cos(1));
});

test('diagonalStats: constant diagonals give 0 along and the spread across', () => {
  const toeplitz = { data: Float64Array.from({ length: 9 }, (_, j) => (j % 3) - Math.floor(j / 3)), shape: [3, 3] };
  assert.deepEqual(diagonalStats(toeplitz), { alongDiagonal: 0, acrossDiagonals: 4 });
  const product = dotProducts({ data: Float64Array.of(1, 2, 3, 4), shape: [2, 2] }, { data: Float64Array.of(1, 0, 0, 1), shape: [2, 2] });
  assert.deepEqual([...product.data], [1, 2, 3, 4]);
});

test('learned checks catch a table that wraps around or clamps instead of refusing', () => {
  const wrapping = sabotaged({
    learnedPositions(table, length, { start = 0 } = {}) {
      const [rows, width] = table.shape;
      const data = new Float64Array(length * width);
      for (let r = 0; r < length; r++) data.set(table.data.subarray(((start + r) % rows) * width, ((start + r) % rows + 1) * width), r * width);
      return { data, shape: [length, width], dtype: table.dtype };
    },
  });
  assert.equal(verdicts(learnedExperiment(wrapping).checks)['cmp-learned-past-end'], false);
  const shifted = sabotaged({ learnedPositions: (table, length) => so.learnedPositions(table, length, { start: 0 }) });
  assert.equal(verdicts(learnedExperiment(shifted).checks)['cmp-learned-lookup'], false);
  const float32Sines = sabotaged({ positions: (length, width, options) => mapTensor(so.positions(length, width, options), Math.fround) });
  assert.equal(verdicts(learnedExperiment(float32Sines).checks)['cmp-sinusoid-anywhere'], false);
});

test('rotary checks catch additive "rotary", a rope that ignores positions, and a rope that stretches instead of rotating', () => {
  const additive = sabotaged({ rope: (x, options) => so.addPositions(x, options) });
  assert.equal(verdicts(rotaryExperiment(additive).checks)['cmp-rope-relative'], false);
  const identity = sabotaged({ rope: (x) => x });
  assert.equal(verdicts(rotaryExperiment(identity).checks)['cmp-rope-relative'], false, 'identity has constant diagonals but no offset dependence');
  // Stretching one coordinate of every other row breaks the offset property (and is no rotation).
  const wobbly = sabotaged({
    rope(x, { start = 0 } = {}) {
      const width = x.shape[1];
      const out = so.rope(x, { start });
      return { ...out, data: out.data.map((v, j) => (Math.floor(j / width) % 2 && j % width === 0 ? v * 1.01 : v)) };
    },
  });
  assert.equal(verdicts(rotaryExperiment(wobbly).checks)['cmp-rope-relative'], false);
  // Added sinusoids that were relative would make the second check fail: e.g. no positions added at all.
  const noPositions = sabotaged({ addPositions: (x) => x });
  assert.equal(verdicts(rotaryExperiment(noPositions).checks)['cmp-added-not-relative'], false);
});

test('precision checks catch a float32 table with float32 angles, and a float64 table with float32 angles', () => {
  const angles32 = sabotaged({
    positions: (length, width, options = {}) => (options.dtype === 'float32'
      ? float32AnglesPositions(length, width, options)
      : so.positions(length, width, options)),
  });
  assert.equal(verdicts(precisionExperiment(angles32).checks)['cmp-float32-seqorder'], false);
  const float64Sloppy = sabotaged({
    positions: (length, width, options = {}) => (options.dtype === 'float32'
      ? so.positions(length, width, options)
      : mapTensor(float32AnglesPositions(length, width, options), (v) => v)),
  });
  assert.equal(verdicts(precisionExperiment(float64Sloppy).checks)['cmp-float32-seqorder'], false);
  const readouts = precisionExperiment(so).readouts;
  assert.deepEqual(readouts.map((r) => r.start), [...PRECISION_STARTS]);
  for (const r of readouts) assert.ok(r.float32Error <= TOL.float32, `start ${r.start}: ${r.float32Error}`);
  assert.ok(readouts.at(-1).angles32Error > 1e-3, `float32 angles at 1e6: ${readouts.at(-1).angles32Error}`);
});

test('layout checks catch a layout option that is ignored, or a halves table with other frequencies', () => {
  const ignored = sabotaged({ positions: (length, width, { layout, ...options } = {}) => so.positions(length, width, options) });
  assert.equal(verdicts(layoutExperiment(ignored).checks)['cmp-layouts-permuted'], false);
  const t2tHalves = sabotaged({
    positions: (length, width, options = {}) => (options.layout === 'halves' ? t2tPositions(length, width, options) : so.positions(length, width, options)),
  });
  const v = verdicts(layoutExperiment(t2tHalves).checks);
  assert.equal(v['cmp-layouts-permuted'], false);
  assert.equal(v['cmp-layouts-t2t-differs'], false);
});

test('the shift check catches a table whose rows are not rotations of each other', () => {
  const drifting = sabotaged({ positions: (length, width, options) => mapTensor(so.positions(length, width, options), (v, j) => v + 1e-9 * Math.floor(j / width)) });
  assert.equal(verdicts(shiftExperiment(drifting).checks)['cmp-shift-rotation'], false);
  const float32Table = sabotaged({ positions: (length, width, options) => mapTensor(so.positions(length, width, options), Math.fround) });
  assert.equal(verdicts(shiftExperiment(float32Table).checks)['cmp-shift-rotation'], false);
});
