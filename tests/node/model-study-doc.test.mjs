// The model study's figures in the docs are bench/model-study-tables.mjs's rendering of bench/results/model-study-*.json,
// never copied by hand: docs/model.md's two tables and the README's compact one hold exactly what the results give
// (`node bench/model-study.mjs --from-results --write` writes them), and a number changed by hand is caught.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { readmeText, schemeSetups, schemesText, setupArgument, studyText, withBlock } from '../../bench/model-study-tables.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const read = (file) => readFileSync(path.join(root, file), 'utf8');
const order = JSON.parse(read('bench/results/model-study-order.json'));
const lookback = JSON.parse(read('bench/results/model-study-lookback.json'));
const readme = read('README.md');
const model = read('docs/model.md');

test('the README\'s compact table is the rendering of both tasks\' results', () => {
  assert.equal(withBlock(readme, 'readme', readmeText(order, lookback)), readme, 'run node bench/model-study.mjs --from-results --write');
  assert.match(readme, /<!-- model-study:readme -->\n\| positions \|/);
  // the medians it shows are the results' own: rotary, × √D, the word 2 back at T = 32, the middle of seeds 1, 2 and 7
  const middle = (impl) => {
    const values = lookback.results.filter((r) => r.implementation === impl && r.setup === 'rotary' && r.back === 2 && r.embedScale === 'sqrtWidth')
      .map((r) => r.accuracy[32]).sort((a, b) => a - b);
    assert.equal(values.length, 3);
    return (100 * values[1]).toFixed(1).replace(/\.0$/, '');
  };
  const row = readme.split('\n').find((line) => line.startsWith('| rotary |'));
  assert.ok(row.endsWith(`| ${middle('seqorder')}; ${middle('pytorch')} |`), row);
});

test('docs/model.md\'s tables are the rendering of each task\'s results', () => {
  assert.equal(withBlock(withBlock(model, 'order', studyText(order)), 'lookback', studyText(lookback)), model);
  const schemes = JSON.parse(read('bench/results/model-study-schemes.json'));
  assert.equal(withBlock(model, 'schemes', schemesText(schemes)), model);
  assert.match(model, /<!-- model-study:schemes -->\n\| task \| positions \|/);
});

test('a number changed by hand in a generated table is caught', () => {
  const edited = readme.replace(/(\| sinusoidal \| )\d+/, '$1999');
  assert.notEqual(edited, readme);
  assert.notEqual(withBlock(edited, 'readme', readmeText(order, lookback)), edited);
});

test('the schemes study: its setups as the runners read them, and its table from a report', () => {
  const induction = schemeSetups('induction');
  assert.deepEqual(induction.map((s) => s.name).slice(0, 3), ['none', 'none-causal', 'sinusoidal-causal']);
  assert.ok(induction.every((s) => s.options.layers === 2));
  assert.ok(induction.slice(1).every((s) => s.options.causal));
  const half = schemeSetups('order').find((s) => s.name === 'rotary-half');
  assert.equal(setupArgument(half.options), 'positions=rotary,rotaryPairs=4,causal=0,layers=1');
  const randomized = schemeSetups('induction').find((s) => s.name === 'alibi-randomized-causal');
  assert.equal(setupArgument(randomized.options), 'positions=alibi,positionRange=256,causal=1,layers=2');
  const run = (implementation, seed, accuracy) => ({ implementation, task: 'induction', setup: 'alibi-causal', seed, stepsTo95: seed === 2 ? 300 : null,
    accuracy: { 16: accuracy, 32: accuracy / 2, 64: 0.25, 128: 0.125 } });
  const report = { seeds: [1, 2, 3], steps: 800, machine: { cpu: 'a core', date: '2026-12-05T00:00:00Z' },
    results: [run('seqorder', 1, 0.9), run('seqorder', 2, 0.95), run('seqorder', 3, 0.7), run('pytorch', 1, 0.9), run('pytorch', 2, 0.9), run('pytorch', 3, 0.9)] };
  const rows = schemesText(report).split('\n').filter((l) => l.startsWith('| induction'));
  assert.deepEqual(rows, ['| induction, 2 layers | ALiBi, causal | — / 300 / —; — / 300 / — | 90 (70–95); 90 | 45 (35–47.5); 45 | 25; 25 | 12.5; 12.5 |']);
});
