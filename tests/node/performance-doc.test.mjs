// docs/performance.md's tables are bench/report.mjs's rendering of bench/results/*.json, never figures copied by hand:
// every generated block (between `<!-- report: <file> <part> -->` and `<!-- /report -->`) holds exactly what the
// results give, each results file has its blocks, and a changed number is caught.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { renderDocument } from '../../bench/report.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const doc = readFileSync(path.join(root, 'docs', 'performance.md'), 'utf8');
const read = (source) => JSON.parse(readFileSync(path.join(root, 'bench', 'results', `${source}.json`), 'utf8'));

test('docs/performance.md: every generated table is what bench/report.mjs renders from bench/results/*.json', () => {
  const blocks = [...doc.matchAll(/<!-- report: ([\w-]+) (\w+) -->/g)].map((m) => `${m[1]} ${m[2]}`);
  for (const needed of ['latest machine', 'latest attention', 'latest positions', 'latest training', 'pool machine',
    'pool attention', 'pool overhead', 'sizes files', 'sizes entries', 'page-ready machine', 'page-ready loads']) assert.ok(blocks.includes(needed), `no block "${needed}"`);
  assert.equal(renderDocument(doc, read), doc, 'a table differs from the results: run node bench/report.mjs');
});

test('a number changed by hand in a generated table is caught', () => {
  const edited = doc.replace(/(<!-- report: latest attention -->\n\| [^\n]*\n\| [^\n]*\n\| seqorder \| )[\d.]+/, '$199.9');
  assert.notEqual(edited, doc);
  assert.notEqual(renderDocument(edited, read), edited);
});
