// The page's positions experiments (web/js/experiments/: no-where, add-position, sinusoids, experiment, norm,
// start-offset), run in node against the built API: every check the page shows passes here too, and each check fails
// when the API is sabotaged in the way it is meant to catch (so a passing check on the page means something).
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { lib, loadSeqorder, siteModule } from './helpers/load.mjs';
import { verdicts } from './helpers/verdicts.mjs';

const {
  ROBOT, TOL, frequency, lessonCodeLines, lessonExperiment, lookupHasNoWhere, normCurves, normProperty, onePairComesBack,
  pairSpeeds, positionsFormula, robotAtPositions, sinusoidTable, startOffset, startOffsetChecks, startOffsetLiveCheck,
} = Object.assign({}, ...await Promise.all(['common', 'reference', 'no-where', 'add-position', 'sinusoids', 'experiment', 'norm',
  'start-offset'].map((name) => siteModule(`js/experiments/${name}.mjs`))));
const { VOCAB, vocabularyTable } = await siteModule('js/experiments/sentence.mjs');

const so = await loadSeqorder();
const table = vocabularyTable();

/** Small sizes for the sweeps, so the sabotage runs stay quick. */
const NORM_OPTIONS = { widths: [2, 8, 64], starts: [0, 1e4, 1e6], length: 64, maxWidth: 64 };

/** Every experiment of the positions sections with the page's arguments (smaller sweeps), by name → checks. */
function runAll(api) {
  const checks = [
    ...lookupHasNoWhere(api, table, VOCAB).checks,
    ...robotAtPositions(api, 3).checks,
    ...sinusoidTable(api, 48, 32, 0).checks,
    ...pairSpeeds(api, 32).checks,
    ...onePairComesBack(api, { length: 256, width: 64, curveLength: 20 }).checks,
    ...lessonExperiment(api).checks,
    ...normProperty(api, NORM_OPTIONS).checks,
    ...startOffsetChecks(api).checks,
  ];
  const live = startOffset(api, { start: 37, count: 5, width: 16 });
  checks.push(startOffsetLiveCheck(live, { start: 37, count: 5, width: 16 }));
  return checks;
}

/** The API with some functions replaced by deliberately wrong ones. */
function sabotaged(replacements) {
  return { ...so, ...replacements };
}

/** Runs everything on a sabotaged API; asserts the named checks fail (a throw counts as caught too). */
function assertCaught(replacements, mustFail) {
  const api = sabotaged(replacements);
  let results;
  try {
    results = verdicts(runAll(api));
  } catch (error) {
    assert.fail(`the sabotage made an experiment throw instead of failing its check: ${error.message}`);
  }
  for (const name of mustFail) assert.equal(results[name], false, `check ${name} did not catch the sabotage`);
}

/** positions(…) with each value transformed: fn(value) → value. */
function positionsMapped(fn) {
  return (length, width, options = {}) => {
    const p = so.positions(length, width, options);
    p.data = p.data.map(fn);
    return p;
  };
}

test('every positions check passes against the real module', () => {
  const checks = runAll(so);
  assert.ok(checks.length >= 20, `${checks.length} checks`);
  for (const c of checks) assert.equal(c.pass, true, `${c.name}: ${c.details}`);
  const names = checks.map((c) => c.name);
  assert.equal(new Set(names).size, names.length, 'check names are unique');
});

test('the JS formula reference agrees with the lesson at hand-computed points', () => {
  const p = positionsFormula(4, 8).data;
  assert.deepEqual([...p.subarray(0, 8)], [0, 1, 0, 1, 0, 1, 0, 1]);
  // t = 3, pair 1: f = 10000^(−2/8) = 0.1, angle 0.3
  assert.ok(Math.abs(p[3 * 8 + 2] - Math.sin(0.3)) < 1e-16);
  assert.ok(Math.abs(p[3 * 8 + 3] - Math.cos(0.3)) < 1e-16);
  assert.ok(Math.abs(frequency(1, 8) - 0.1) < 1e-17);
  assert.ok(Math.abs(frequency(3, 8) - 1e-3) < 1e-18);
  const offset = positionsFormula(2, 8, { start: 5 }).data;
  assert.deepEqual([...offset], [...positionsFormula(7, 8).data.subarray(40)]);
});

test('the numbers on the page are the lesson\'s numbers', () => {
  const r = robotAtPositions(so, 3);
  assert.deepEqual(r.robot, [...ROBOT]);
  assert.ok(Math.abs(r.atT[0] - Math.sin(3)) < 1e-15);
  assert.ok(Math.abs(r.atT[1] - (0.125 + Math.cos(3))) < 1e-15);
  const e = lessonExperiment(so);
  assert.deepEqual(e.pe.shape, [4, 8]);
  for (const n of e.norms) assert.ok(Math.abs(n - 4) <= 4 * TOL.normRelative64);
  const repeats = onePairComesBack(so, { length: 512, width: 64, curveLength: 10 });
  // 333 rad is 53 turns less 0.0088 rad: pair 0 is back within 2·sin(0.0088/2) ≈ 0.0088 of where it started (the
  // closest return below 512; the first within 0.02 is t = 44, 7 turns and 0.0177 rad)
  assert.equal(repeats.back.t, 333);
  assert.ok(Math.abs(repeats.back.d - 2 * Math.sin((106 * Math.PI - 333) / 2)) < 1e-12, `pair 0 at t = 333: ${repeats.back.d}`);
  assert.ok(repeats.all.d > 1.4 && repeats.all.d < 1.5, `closest positions ${repeats.all.d}`);
  const curves = normCurves(so, { length: 10, width: 8, pair: 1 });
  for (let t = 0; t < 10; t += 1) {
    assert.ok(Math.abs(curves.sin2[t] + curves.cos2[t] - 1) <= TOL.normRelative64);
    assert.ok(Math.abs(curves.ratio[t] - 1) <= TOL.normRelative64);
  }
});

test('the experiment\'s code block runs as shown: a module of its lines prints the table\'s shape and norms', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'seqorder-lesson-code-'));
  try {
    const file = path.join(dir, 'experiment.mjs');
    // the package by its built path instead of its name (this folder has no node_modules)
    const lines = lessonCodeLines().map((line) => line.replace("from 'seqorder'", `from '${pathToFileURL(path.join(lib, 'seqorder.mjs')).href}'`));
    writeFileSync(file, lines.join('\n'));
    const printed = execFileSync(process.execPath, [file], { encoding: 'utf8' });
    assert.match(printed, /^\[ 4, 8 \] \[ 4, 4(\.\d+)?, 4(\.\d+)?, 4(\.\d+)? \]\n$/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a lookup that knows the position is caught', () => {
  // embed adding a little of the row index: robot's vector would then depend on where it stands.
  assertCaught({
    embed: (t, ids) => {
      const x = so.embed(t, ids);
      const width = t.shape[1];
      x.data = x.data.map((v, k) => v + 0.01 * Math.floor(k / width));
      return x;
    },
  }, ['no-where-lookup', 'no-where-robot-same', 'no-where-only-reordered']);
});

test('addPositions that ignores start, or mutates its input, or widens it, is caught', () => {
  assertCaught({ addPositions: (x) => so.addPositions(x) }, ['add-position-sum', 'add-position-differs']);
  assertCaught({
    addPositions: (x, o) => {
      const y = so.addPositions(x, o);
      x.data.set(y.data);
      return y;
    },
  }, ['add-position-token-unchanged']);
  assertCaught({
    addPositions: (x, o) => {
      const y = so.addPositions(x, o);
      const [rows, width] = x.shape;
      const p = so.positions(rows, width, o);
      const data = new Float64Array(rows * width * 2);
      for (let r = 0; r < rows; r += 1) {
        data.set(x.data.subarray(r * width, (r + 1) * width), r * 2 * width);
        data.set(p.data.subarray(r * width, (r + 1) * width), r * 2 * width + width);
      }
      void y;
      return { data, shape: [rows, 2 * width], dtype: 'float64' };
    },
  }, ['add-position-width', 'add-position-sum']);
});

test('sines and cosines swapped are caught', () => {
  const swapped = (length, width, options) => {
    const p = so.positions(length, width, options);
    for (let k = 0; k < p.data.length; k += 2) [p.data[k], p.data[k + 1]] = [p.data[k + 1], p.data[k]];
    return p;
  };
  assertCaught({ positions: swapped }, ['sinusoids-formula', 'sinusoids-pair-speeds', 'experiment-position0-sines', 'experiment-position0-cosines',
    'norm-position0']);
});

test('a wrong base (frequencies) is caught', () => {
  assertCaught({ positions: (length, width, options = {}) => so.positions(length, width, { ...options, base: 1000 }) },
    ['sinusoids-formula', 'sinusoids-pair-speeds']);
});

test('positions that ignore start are caught', () => {
  assertCaught({ positions: (length, width, options = {}) => so.positions(length, width, { ...options, start: 0 }) },
    ['start-offset-rows', 'start-offset-live']);
});

test('a table that is not on the unit circle is caught', () => {
  assertCaught({ positions: positionsMapped((v) => v * (1 + 1e-9)) }, ['norm-every-position']);
  assertCaught({ positions: positionsMapped((v) => v * 1.001) },
    ['norm-every-position', 'norm-every-position-float32', 'experiment-norms', 'sinusoids-formula']);
});

test('float64 tables computed in float32 precision are caught', () => {
  // (start-offset-rows compares the module with itself, so it rightly stays green here: both sides are rounded alike.)
  assertCaught({ positions: positionsMapped((v) => Math.fround(v)) }, ['sinusoids-formula', 'norm-every-position']);
});

test('a single-frequency table (every pair the same speed) is caught', () => {
  assertCaught({
    positions: (length, width, options = {}) => {
      const start = options.start ?? 0;
      const data = new Float64Array(length * width);
      for (let r = 0; r < length; r += 1) {
        for (let c = 0; c < width; c += 2) {
          data[r * width + c] = Math.sin(start + r);
          data[r * width + c + 1] = Math.cos(start + r);
        }
      }
      return { data: options.dtype === 'float32' ? Float32Array.from(data) : data, shape: [length, width], dtype: options.dtype ?? 'float64' };
    },
  }, ['sinusoids-formula', 'sinusoids-pair-speeds', 'sinusoids-all-pairs-apart']);
});

test('the tolerances are what their comments say', () => {
  assert.equal(TOL.formula(0), 1e-12);
  assert.ok(TOL.formula(1e6) < 1e-9, 'within the float64 positions\' tolerance of 1e-9 at t = 10^6 (docs/testing.md)');
  assert.ok(TOL.normRelative32 >= 2 * 2 ** -24 && TOL.normRelative32 < 2e-7);
});
