// The tarball through the two linters of published packages: publint (package.json's exports, files and formats) and
// @arethetypeswrong/cli (every entry point's types under node10, node16 from CommonJS and from ESM, and bundler
// resolution). Both must report nothing. What attw is told to leave out, and why:
//   the assets (figures.css, the .wasm modules, the pool's worker script): exported for bundlers and servers to find
//     by URL, not modules to import, so they have no types;
//   cjs-resolves-to-esm: seqorder/plot and seqorder/checks are ES modules for the browser (DOM and canvas); require()
//     of them is not offered (the main entry point's require() is CommonJS, and attw checks it).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
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
