// The lab's speed in the docs is bench/lab-run-tables.mjs's rendering of one machine kind's committed results
// (bench/results/<machine kind>/lab-run.json for Chromium, lab-run-firefox.json and lab-run-webkit.json, each from
// bench/lab-run.mjs --browser <engine> --save on that machine), never copied by hand: the README's line holds
// Chromium's, docs/page.md's table every engine's, the results hold this build's row first, and a number changed by
// hand is caught. So is docs/page.md's sentence on the bench page's answer to input (bench/lab-input.mjs's lab-input.json).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { inputText, pageText, readmeText, resultsName, simdText, withBlock, workerText } from '../../bench/lab-run-tables.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const read = (file) => readFileSync(path.join(root, file), 'utf8');
const readme = read('README.md');
const page = read('docs/page.md');
// each machine kind's results with Chromium's, by engine
const kinds = readdirSync(path.join(root, 'bench', 'results'))
  .filter((kind) => existsSync(path.join(root, 'bench', 'results', kind, resultsName('chromium'))))
  .map((kind) => Object.fromEntries(['chromium', 'firefox', 'webkit']
    .map((engine) => [engine, path.join('bench', 'results', kind, resultsName(engine))])
    .filter(([, file]) => existsSync(path.join(root, file)))
    .map(([engine, file]) => [engine, JSON.parse(read(file))])));
// the results the docs were written from: the README's line is theirs
const reports = kinds.find((r) => withBlock(readme, 'readme', readmeText(r.chromium)) === readme) ?? kinds[0];
const report = reports?.chromium;

test('the README\'s line and docs/page.md\'s table are the rendering of a machine kind\'s bench/results/<machine kind>/lab-run*.json', () => {
  assert.ok(kinds.length > 0, 'no bench/results/<machine kind>/lab-run.json');
  for (const [engine, r] of Object.entries(reports)) {
    assert.equal(r.sites[0].label, 'this build', engine);
    assert.equal(r.rows.length, r.rounds, engine);
    if (engine !== 'chromium') assert.equal(r.engine, engine);
  }
  assert.equal(withBlock(readme, 'readme', readmeText(report)), readme, 'run node bench/lab-run.mjs --from-results');
  assert.equal(withBlock(page, 'page', pageText(reports)), page, 'run node bench/lab-run.mjs --from-results');
  // the medians are the rounds' own
  const middle = (r) => {
    const pages = r.rows.map((row) => row.sites[0].page).sort((a, b) => a - b);
    return pages.length % 2 ? pages[(pages.length - 1) / 2] : (pages[pages.length / 2 - 1] + pages[pages.length / 2]) / 2;
  };
  for (const [engine, r] of Object.entries(reports)) assert.equal(r.sites[0].page, middle(r), engine);
  assert.ok(readme.includes(`took ${(middle(report) / 1000).toFixed(1)} s from reaching the section`));
});

test('a number changed by hand is caught', () => {
  const edited = readme.replace(/took [\d.]+ s/, 'took 0.1 s');
  assert.notEqual(edited, readme);
  assert.notEqual(withBlock(edited, 'readme', readmeText(report)), edited);
});

test('docs/page.md\'s answer to input is the rendering of a bench/results/<machine kind>/lab-input.json', () => {
  const inputs = readdirSync(path.join(root, 'bench', 'results'))
    .map((kind) => path.join('bench', 'results', kind, 'lab-input.json'))
    .filter((file) => existsSync(path.join(root, file)))
    .map((file) => JSON.parse(read(file)));
  assert.ok(inputs.length > 0, 'no bench/results/<machine kind>/lab-input.json');
  assert.ok(inputs.some((r) => withBlock(page, 'input', inputText(r)) === page), 'run node bench/lab-input.mjs --from-results');
  const edited = page.replace(/\*\*(\d+) ms \/ (\d+) ms\*\*/, '**$1 ms / 1 ms**');
  assert.notEqual(edited, page);
  assert.ok(inputs.every((r) => withBlock(edited, 'input', inputText(r)) !== edited));
});

test('docs/performance.md\'s table of the lab\'s first model below the page is the rendering of a machine kind\'s bench/results/<machine kind>/lab-worker-<engine>.json', () => {
  const performance = read('docs/performance.md');
  const runs = readdirSync(path.join(root, 'bench', 'results')).map((kind) => Object.fromEntries(['chromium', 'firefox', 'webkit']
    .map((engine) => [engine, path.join('bench', 'results', kind, `lab-worker-${engine}.json`)])
    .filter(([, file]) => existsSync(path.join(root, file)))
    .map(([engine, file]) => [engine, JSON.parse(read(file))]))).filter((r) => Object.keys(r).length > 0);
  assert.ok(runs.length > 0, 'no bench/results/<machine kind>/lab-worker-<engine>.json');
  assert.ok(runs.some((r) => withBlock(performance, 'worker', workerText(r)) === performance), 'run node bench/lab-worker.mjs --from-results');
  const edited = performance.replace(/(<!-- lab-run:worker -->\n[^\n]*\n[^\n]*\n\| [^|]+\| )[\d.]+ s/, '$10.0 s');
  assert.notEqual(edited, performance);
  assert.ok(runs.every((r) => withBlock(edited, 'worker', workerText(r)) !== edited));
});

test('docs/performance.md\'s table of the lab\'s first model with and without SIMD128 is the rendering of a machine kind\'s bench/results/<machine kind>/lab-worker-<engine>.json and -without-simd.json', () => {
  const performance = read('docs/performance.md');
  const saved = (kind, suffix) => Object.fromEntries(['chromium', 'firefox', 'webkit']
    .map((engine) => [engine, path.join('bench', 'results', kind, `lab-worker-${engine}${suffix}.json`)])
    .filter(([, file]) => existsSync(path.join(root, file)))
    .map(([engine, file]) => [engine, JSON.parse(read(file))]));
  const runs = readdirSync(path.join(root, 'bench', 'results')).map((kind) => [saved(kind, ''), saved(kind, '-without-simd')])
    .filter(([, scalar]) => Object.keys(scalar).length > 0);
  assert.ok(runs.length > 0, 'no bench/results/<machine kind>/lab-worker-<engine>-without-simd.json');
  assert.ok(runs.some(([simd, scalar]) => withBlock(performance, 'simd', simdText(simd, scalar)) === performance), 'run node bench/lab-worker.mjs --from-results');
  const edited = performance.replace(/(<!-- lab-run:simd -->\n[^\n]*\n[^\n]*\n\| [^|]+\| )[\d.]+ s/, '$10.0 s');
  assert.notEqual(edited, performance);
  assert.ok(runs.every(([simd, scalar]) => withBlock(edited, 'simd', simdText(simd, scalar)) !== edited));
});
