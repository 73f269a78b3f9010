// docs/performance.md's tables, and those of the notes in bench/notes/, are bench/report.mjs's rendering of
// bench/results/*.json, never figures copied by hand: every generated block (between `<!-- report: <file> <part> -->`
// and `<!-- /report -->`) holds exactly what the results give, each results file has its blocks, and a changed number
// is caught.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { machineKind } from '../../bench/harness.mjs';
import { DOCUMENTS, readResults as read, renderDocument } from '../../bench/report.mjs';
import { GOAL_MACHINES, GOALS, goalsParts } from '../../bench/render/goals.mjs';
import { simdLoadsParts } from '../../bench/render/simd-loads.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const doc = readFileSync(path.join(root, 'docs', 'performance.md'), 'utf8');
const documents = DOCUMENTS().map((file) => ({ file: path.relative(root, file), text: readFileSync(file, 'utf8') }));

test('docs/performance.md and bench/notes/: every generated table is what bench/report.mjs renders from bench/results/*.json', () => {
  const blocksOf = (text) => [...text.matchAll(/<!-- report: ([\w/-]+) (\w+) -->/g)].map((m) => `${m[1]} ${m[2]}`);
  const ownBlocks = blocksOf(doc);
  for (const needed of ['intel/latest machine', 'intel/latest attention', 'intel/latest positions', 'intel/latest training',
    'intel/pool machine', 'intel/pool attention', 'intel/pool overhead', 'sizes files', 'sizes entries'])
    assert.ok(ownBlocks.includes(needed), `no block "${needed}"`);
  // every results file of a machine kind has its blocks (but the quick runs', which are not committed, and the lab's,
  // the page's answer to input, rendered into README.md and docs/page.md, and the lab's first model below the page,
  // with and without SIMD, into docs/performance.md: tests/node/lab-run-doc.test.mjs)
  const blocks = documents.flatMap(({ text }) => blocksOf(text));
  const committed = (f) => f.endsWith('.json') && f !== 'quick.json' && !f.endsWith('-quick.json') && !/^lab-(run(-\w+)?|worker-\w+(-without-simd)?|input)\.json$/.test(f);
  for (const kind of readdirSync(path.join(root, 'bench', 'results'), { withFileTypes: true }).filter((e) => e.isDirectory()))
    for (const file of readdirSync(path.join(root, 'bench', 'results', kind.name)).filter(committed))
      assert.ok(blocks.some((b) => b.startsWith(`${kind.name}/${file.replace(/\.json$/, '')} `)), `no block from ${kind.name}/${file}`);
  for (const { file, text } of documents)
    assert.equal(renderDocument(text, read), text, `${file}: a table differs from the results: run node bench/report.mjs`);
});

test('a number changed by hand in a generated table is caught', () => {
  const edited = doc.replace(/(<!-- report: intel\/latest attention -->\n\| [^\n]*\n\| [^\n]*\n\| seqorder \| )[\d.]+/, '$199.9');
  assert.notEqual(edited, doc);
  assert.notEqual(renderDocument(edited, read), edited);
});

test('machineKind names the folder of a processor\'s results from /proc/cpuinfo', () => {
  const info = (vendor, family, model) => `processor\t: 0\nvendor_id\t: ${vendor}\ncpu family\t: ${family}\nmodel\t\t: ${model}\n`;
  assert.equal(machineKind(info('GenuineIntel', 6, 106)), 'intel');
  assert.equal(machineKind(info('AuthenticAMD', 25, 1)), 'amd-zen3');
  assert.equal(machineKind(info('AuthenticAMD', 25, 33)), 'amd-zen3');
  assert.equal(machineKind(info('AuthenticAMD', 25, 17)), 'amd-zen4');
  assert.equal(machineKind(info('AuthenticAMD', 25, 97)), 'amd-zen4');
  assert.equal(machineKind(info('AuthenticAMD', 26, 2)), 'amd-zen5');
  assert.equal(machineKind(info('AuthenticAMD', 23, 49)), 'amd-family-23');
});

test('a simd-loads run from before its register rows had distinct values says how many operations those rows ran', () => {
  const shape = (name) => ({ name, loads: 2, vectorOps: 16, gflops: 40, fractionOfPeak: 1 });
  const report = { cpu: 'a core', node: '20', rounds: 1, date: '2026-12-02', loadAverage: [0, 0, 0], peak: 40,
    shapes: [shape('4x8, 6 loads'), shape('4x8, 4 loads'), shape('4x8, 2 loads')] };
  const cells = (r) => simdLoadsParts(r).shapes.split('\n').slice(2).map((row) => row.split(' | ')[2]);
  // 2 rows alike: one's 2 multiplies not run; 4 rows alike: 3 rows' 6 not run
  assert.deepEqual(cells(report), ['16', '16, of which 14 ran', '16, of which 10 ran']);
  assert.deepEqual(cells({ ...report, registerRows: 'distinct' }), ['16', '16', '16']);
});

test('a Chromium simd-loads run from before the loops\' addresses varied is marked not valid; node runs and newer ones are not', () => {
  const report = { cpu: 'a core', rounds: 1, date: '2026-12-02', loadAverage: [0, 0, 0], peak: 40, registerRows: 'distinct',
    shapes: [{ name: '4x8, 6 loads', loads: 6, vectorOps: 16, gflops: 40, fractionOfPeak: 1 }] };
  const chromium = { ...report, browser: 'Chromium 156' };
  assert.match(simdLoadsParts(chromium).machine, /Not valid/);
  assert.doesNotMatch(simdLoadsParts({ ...chromium, addresses: 'varying' }).machine, /Not valid/);
  assert.doesNotMatch(simdLoadsParts({ ...report, node: '20.20.2' }).machine, /Not valid/);
});

test('the goals\' summary says met or not met from each kind\'s figures, and "no run" where a kind has no results', () => {
  const samples = (x) => ({ samples: [x, x, x] });  // seconds per call in each round: the ratio is slow ÷ fast
  const attention = (T, causal, ours, ort) => ({ T, causal, results: [{ name: 'seqorder', ...samples(ours) }, { name: 'onnxruntime-web', ...samples(ort) }] });
  const files = {
    'intel/latest': {
      machine: { date: '2026-12-04T00:00:00Z', commit: 'abc1234' },
      attention: [attention(1024, false, 1, 1.59), attention(1024, true, 1, 3)],
      positions: [{ length: 2048, width: 512, dtype: 'float32', results: [{ name: 'seqorder, out', ...samples(1) }, { name: 'plain JS, out', ...samples(12) }] }],
      training: { contenders: [{ name: 'seqorder', seqorderTimes: 1 }, { name: 'PyTorch', seqorderTimes: 1.5 }],
        shareOfPeak: [{ fractionOfPeak: 0.65 }, { fractionOfPeak: 0.7 }] },
    },
    'intel/pool': { attention: [{ T: 1024, causal: false, pools: [1, 2], results: [
      { name: 'seqorder, 1 thread', ...samples(1.7) }, { name: 'pool, 2 workers', ...samples(1) }, { name: 'onnxruntime-web, 2 threads', ...samples(1.49) },
      { name: 'pool, 1 worker and the calling thread', ...samples(1.05) }] }] },
    'intel/chromium-pool': { machine: { date: '2026-12-06T00:00:00Z', commit: 'fed4321' },
      cases: [{ T: 1024, causal: true, ratios: { overOne: 2, overOrt: 4 } }, { T: 1024, causal: false, ratios: { overOne: 1.72, overOrt: 1.4, callingOverOne: 1.8, callingOverOrt: 1.55 } }] },
    'intel/kernel': { rows: [256, 1024, 4096].map((T) => ({ T, causal: false, name: 'kernel', fractionOfPeak: T === 256 ? 0.79 : 0.85 })) },
    'amd-zen5/page-ready': { machine: { date: '2026-12-04T00:00:00Z', commit: 'def5678' },
      median: { cold: { ready: 999, fcp: 300 }, warm: { ready: 1000, fcp: 100 } } },
    'amd-zen3/page-ready': { machine: { date: '2026-12-02T00:00:00Z', commit: '98dca44' }, median: { ready: 600, fcp: 150 } },
    // the lab's run: Chromium's in seconds; Firefox's and WebKit's over Chromium's of the same kind (none without it)
    'amd-zen5/lab-run': { machine: { date: '2026-12-06T00:00:00Z' }, sites: [{ label: 'this build', page: 4000 }] },
    'amd-zen5/lab-run-firefox': { sites: [{ page: 8000 }] },
    'amd-zen5/lab-run-webkit': { sites: [{ page: 8400 }] },
    'amd-zen3/lab-run-webkit': { sites: [{ page: 8400 }] },
    'intel/lab-run': { sites: [{ page: 4100 }] },
  };
  const read = (source) => {
    if (files[source]) return files[source];
    throw Object.assign(new Error(`no ${source}`), { code: 'ENOENT' });
  };
  const { table, runs } = goalsParts(read);
  const rows = table.split('\n').slice(2).map((line) => line.split(' | ').slice(1).map((c) => c.replace(/ \|$/, '')));
  assert.equal(rows.length, GOALS.length);
  const column = (kind) => rows.map((r) => r[GOAL_MACHINES.findIndex(([k]) => k === kind)]);
  assert.deepEqual(column('intel'), ['79 / 85 / 85%, **not met**', '1.59×, **not met**', '3.00×, met', '1.50×, met',
    '65 / 70%, met', '1.70×, met', '1.49×, **not met**', '1.62×, **not met**', '1.42×, **not met**', '1.72×, met', '1.40×, **not met**',
    '1.80×, met', '1.55×, met', '12.0×, met', 'no run', 'no run', 'no run',
    '4.1 s, **not met**', 'no run', 'no run']);
  assert.deepEqual(column('amd-zen5'), [...Array(14).fill('no run'), '999 ms, met', '300 ms, **not met**', '1000 ms, **not met**',
    '4.0 s, met', "2.00× Chromium's, met", "2.10× Chromium's, **not met**"]);
  // a report of before first visits were timed apart: its median is of warm loads only; WebKit's run without Chromium's
  assert.deepEqual(column('amd-zen3'), [...Array(14).fill('no run'), '—', '—', '600 ms, met', 'no run', 'no run', '—']);
  assert.deepEqual(column('amd-zen4'), Array(GOALS.length).fill('no run'));
  assert.match(runs, /Intel Xeon: bench\/run\.mjs at abc1234 \(2026-12-04\); bench\/attention-kernel\.mjs \(its commit and date not kept\); bench\/pool\.mjs \(its commit and date not kept\); bench\/chromium-attention\.mjs --pool at fed4321 \(2026-12-06\); bench\/page-ready\.mjs: no run; bench\/lab-run\.mjs \(its commit and date not kept\); bench\/lab-run\.mjs --browser firefox: no run; bench\/lab-run\.mjs --browser webkit: no run\./);
  // a results file without the goal's case gives no figure, and an unreadable file is an error, not "no run"
  files['intel/latest'].attention = [];
  assert.equal(goalsParts(read).table.split('\n')[3].split(' | ')[1], '—');
  // a latest run from before the step's share was kept
  delete files['intel/latest'].training.shareOfPeak;
  assert.equal(goalsParts(read).table.split('\n')[6].split(' | ')[1], '—');
  assert.throws(() => goalsParts(() => { throw new SyntaxError('bad JSON'); }), SyntaxError);
});
