// The tarball through the two linters of published packages: publint (package.json's exports, files and formats) and
// @arethetypeswrong/cli (every entry point's types under node10, node16 from CommonJS and from ESM, and bundler
// resolution). Both must report nothing. And the API reference: TypeDoc (typedoc.json, `npm run docs:api`) builds it
// from the hand-written .d.ts files with no warning (every function, method, interface and type documented). What attw is told to leave out, and why:
//   the assets (figures.css, the .wasm modules, the pool's worker script): exported for bundlers and servers to find
//     by URL, not modules to import, so they have no types;
//   cjs-resolves-to-esm: seqorder/plot and seqorder/checks are ES modules for the browser (DOM and canvas); require()
//     of them is not offered (the main entry point's require() is CommonJS, and attw checks it).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { checkTools, importTool, pack, root, sh, toolBin } from './tools.mjs';

const work = mkdtempSync(path.join(tmpdir(), 'seqorder-lint-'));
let tarball;

before(async () => {
  checkTools();
  tarball = path.join(work, (await pack(work)).filename);
  await sh('tar', ['xzf', tarball, '-C', work]);  // into work/package
}, { timeout: 300_000 });

after(() => rmSync(work, { recursive: true, force: true }));

test('publint: no error, warning or suggestion', { timeout: 60_000 }, async () => {
  const { publint } = await importTool('publint');
  const { formatMessage } = await importTool('publint/utils');
  const pkg = JSON.parse(readFileSync(path.join(work, 'package', 'package.json'), 'utf8'));
  const { messages } = await publint({ pkgDir: path.join(work, 'package'), level: 'suggestion', strict: true });
  assert.deepEqual(messages.map((m) => `${m.type}: ${formatMessage(m, pkg)}`), []);
});

test('@arethetypeswrong/cli: every entry point resolves to its types in every resolution mode', { timeout: 120_000 }, async () => {
  const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const assets = Object.keys(manifest.exports).filter((k) => /\.(wasm|css)$|pool-worker\.mjs$/.test(k)).map((k) => k.slice(2));
  assert.ok(assets.includes('figures.css') && assets.includes('seqorder_core.wasm'), `assets: ${assets}`);
  const args = [tarball, '--format', 'ascii', '--exclude-entrypoints', ...assets, '--ignore-rules', 'cjs-resolves-to-esm'];
  const { stdout } = await sh(path.join(toolBin, 'attw'), args);  // a problem exits 1, which fails here with the report
  for (const entry of ['"seqorder"', '"seqorder/plot"', '"seqorder/checks"']) assert.ok(stdout.includes(entry), `attw checked ${entry}`);
});

test('TypeDoc: the API reference builds from the .d.ts files without a warning', { timeout: 120_000 }, async () => {
  const typedoc = path.join(root, 'node_modules', '.bin', 'typedoc');
  assert.ok(existsSync(typedoc), 'no typedoc: run npm ci (scripts/setup.sh --test does)');
  const out = path.join(work, 'api');
  await sh(typedoc, ['--out', out], { cwd: root });  // typedoc.json treats warnings as errors: one fails here
  for (const page of ['modules/seqorder.html', 'functions/seqorder.loadSeqorder.html', 'interfaces/seqorder.Seqorder.html',
    'functions/seqorder_plot.heatmap.html', 'functions/seqorder_checks.renderChecks.html']) {
    assert.ok(existsSync(path.join(out, page)), `the reference has no ${page}`);
  }
  assert.match(readFileSync(path.join(out, 'functions/seqorder_plot.heatmap.html'), 'utf8'), /Throws/);
});

test('npm publish --dry-run: the tarball publishes without a warning (but the one that says the dry run is not logged in)',
  { timeout: 60_000 }, async () => {
    const { stderr } = await sh('npm', ['publish', '--dry-run', '--ignore-scripts', tarball], { cwd: work });
    const warnings = stderr.split('\n').filter((l) => /^npm (warn|error)/i.test(l) && !/requires you to be logged in/.test(l));
    assert.deepEqual(warnings, []);
    assert.match(stderr, /Publishing to https:\/\/registry\.npmjs\.org\/ with tag latest and default access \(dry-run\)/);
  });
