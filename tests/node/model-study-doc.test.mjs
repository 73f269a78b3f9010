// The model study's figures in the docs are bench/model-study-tables.mjs's rendering of bench/results/model-study-*.json,
// never copied by hand: docs/model.md's two tables and the README's compact one hold exactly what the results give
// (`node bench/model-study.mjs --from-results --write` writes them), and a number changed by hand is caught.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { readmeText, studyText, withBlock } from '../../bench/model-study-tables.mjs';

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
});

test('a number changed by hand in a generated table is caught', () => {
  const edited = readme.replace(/(\| sinusoidal \| )\d+/, '$1999');
  assert.notEqual(edited, readme);
  assert.notEqual(withBlock(edited, 'readme', readmeText(order, lookback)), edited);
});
