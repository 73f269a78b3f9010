// examples/: each project as a user runs it, with the package installed from the packed tarball (its package.json's
// seqorder dependency pointed at the tarball; the tools it lists come from the test):
//   vite-ts: tsc (strict, its tsconfig) and vite build, then the page in Chromium: its check passes, the causal toggle;
//   worker: vite build, then the page in Chromium: the worker answers;
//   static: its copy script, then the folder in Chromium under its CSP (the import map allowed by its hash);
//   node-esm, node-cjs: node runs them.
// The Vite projects run twice: with the pinned tools (tests/package/package.json) and with the latest vite and
// typescript from the npm registry (installed once per run into a temporary folder; the registry must be reachable),
// unless those are the pinned ones; the README's example is type-checked with the latest typescript too
// (consumer.test.mjs checks it with the pinned).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { startServer } from '../../scripts/serve.mjs';
import { CHROMIUM_ARGS, checkTools, executablePath, installApp, pack, root, sh, toolBin, typecheckReadme } from './tools.mjs';

const work = mkdtempSync(path.join(tmpdir(), 'seqorder-examples-'));
const examples = path.join(root, 'examples');
let tarball;
let browser;
const tools = { pinned: toolBin, latest: path.join(work, 'latest', 'node_modules', '.bin') };
const versions = {};  // variant -> 'vite x, tsc y'

/** The versions of a variant's tools, 'vite/x …, Version y'. */
async function toolVersions(variant) {
  const vite = (await sh(path.join(tools[variant], 'vite'), ['--version'])).stdout.trim();
  const tsc = (await sh(path.join(tools[variant], 'tsc'), ['--version'])).stdout.trim();
  versions[variant] = `${vite}, ${tsc}`;
  console.log(`examples: ${variant} ${versions[variant]}`);
}

/** The latest vite and typescript, from the npm registry; a registry out of reach fails the tests that need them. */
async function installLatest() {
  mkdirSync(path.join(work, 'latest'));
  writeFileSync(path.join(work, 'latest', 'package.json'), '{ "private": true }\n');
  try {
    await sh('npm', ['install', 'vite@latest', 'typescript@latest', '--no-audit', '--no-fund', '--no-save'],
      { cwd: path.join(work, 'latest'), timeout: 300_000 });
  } catch (error) {
    throw new Error(`could not install the latest vite and typescript from the npm registry (is it reachable?): ${error.message}`);
  }
  await toolVersions('latest');
}
let latest;  // installLatest()'s promise, started at once, awaited by the tests of the latest tools

before(async () => {
  checkTools();
  latest = installLatest();
  latest.catch(() => {});  // awaited (and reported) by each test that needs it
  tarball = path.join(work, (await pack(work)).filename);
  await toolVersions('pinned');
  browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
}, { timeout: 600_000 });

after(async () => {
  await browser?.close();
  rmSync(work, { recursive: true, force: true });
});

/**
 * A copy of examples/<name> in its own folder with seqorder installed from the tarball, offline; the tools its
 * package.json lists are left out (the test runs its own). Resolves to the folder.
 */
async function install(name, variant = 'node') {
  const dir = path.join(work, `${name}-${variant}`);
  cpSync(path.join(examples, name), dir, { recursive: true });
  const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
  assert.match(manifest.dependencies?.seqorder ?? '', /^\^\d/, `${name}: depends on a published seqorder`);
  manifest.dependencies.seqorder = `file:${tarball}`;
  delete manifest.devDependencies;
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
  await sh('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: dir });
  return dir;
}

/**
 * Opens `url` in a new context; resolves to { page, line: the first console line starting with `prefix`, problems:
 * page errors, console errors (a CSP violation is one) and failed requests, close }.
 */
async function open(url, prefix) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) problems.push(`console: ${m.text()}`);
  });
  page.on('response', (r) => { if (r.status() >= 400 && !r.url().endsWith('/favicon.ico')) problems.push(`HTTP ${r.status()}: ${r.url()}`); });
  const line = new Promise((resolve) => page.on('console', (m) => { if (m.text().startsWith(prefix)) resolve(m.text()); }));
  await page.goto(url, { waitUntil: 'load' });
  let timer;
  const timeout = new Promise((resolve) => { timer = setTimeout(resolve, 30_000, `timeout: no "${prefix}" line in 30 s`); });
  const first = await Promise.race([line, timeout]);
  clearTimeout(timer);
  return { page, line: first, problems, close: () => context.close() };
}

/** Serves `dir` while `use(url)` runs. */
async function served(dir, use) {
  const server = await startServer({ root: dir, port: 0 });
  try {
    return await use(server.url);
  } finally {
    await server.close();
  }
}

/** Whether the latest tools are the pinned ones (whose run then covers them). */
const latestIsPinned = async () => (await latest, versions.latest === versions.pinned);

for (const variant of ['pinned', 'latest']) {
  test(`examples/vite-ts with the ${variant} vite and typescript: tsc --strict, vite build, the page in Chromium`,
    { timeout: 240_000 }, async (t) => {
      if (variant === 'latest' && await latestIsPinned()) return t.skip(`the latest are the pinned: ${versions.pinned}`);
      const dir = await install('vite-ts', variant);
      await sh(path.join(tools[variant], 'tsc'), ['-p', 'tsconfig.json'], { cwd: dir });
      await sh(path.join(tools[variant], 'vite'), ['build', '--logLevel', 'warn'], { cwd: dir, timeout: 180_000 });
      await served(path.join(dir, 'dist'), async (url) => {
        const { page, line, problems, close } = await open(url, 'seqorder vite-ts');
        try {
          assert.equal(line, 'seqorder vite-ts 5x5 bidirectional pass', `${versions[variant]}\n${problems.join('\n')}`);
          assert.equal(await page.locator('[data-check="rows-sum-to-1"]').getAttribute('data-status'), 'pass');
          const toggled = new Promise((resolve) => page.on('console', (m) => { if (m.text().includes(' causal ')) resolve(m.text()); }));
          await page.check('#causal');
          assert.equal(await toggled, 'seqorder vite-ts 5x5 causal pass');
          assert.equal(await page.locator('[data-check="rows-sum-to-1"]').getAttribute('data-at'), 'causal=true');
          assert.deepEqual(problems, []);
        } finally {
          await close();
        }
      });
    });

  test(`examples/worker with the ${variant} vite: vite build, the page and its module worker in Chromium`, { timeout: 240_000 }, async (t) => {
    if (variant === 'latest' && await latestIsPinned()) return t.skip(`the latest are the pinned: ${versions.pinned}`);
    const dir = await install('worker', variant);
    await sh(path.join(tools[variant], 'vite'), ['build', '--logLevel', 'warn'], { cwd: dir, timeout: 180_000 });
    await served(path.join(dir, 'dist'), async (url) => {
      const { page, line, problems, close } = await open(url, 'seqorder worker');
      try {
        assert.equal(line, 'seqorder worker 1024x64 float32', `${versions[variant]}\n${problems.join('\n')}`);
        assert.match(await page.locator('#result').textContent(), /^attention over 1024 tokens took [\d.]+ ms in the worker: output \(1024, 64\)$/);
        assert.deepEqual(problems, []);
      } finally {
        await close();
      }
    });
  });
}

test('the README\'s example, as written, type-checks with the latest typescript (tsc --strict; NodeNext and Bundler resolution)',
  { timeout: 240_000 }, async () => {
    await latest;
    const dir = path.join(work, 'readme-latest');
    await installApp(dir, tarball);
    await typecheckReadme(dir, 'ts-readme', [path.join(tools.latest, 'tsc')]);
  });

test('examples/static: its copy script, then the folder under its CSP, the import map allowed by its hash', { timeout: 120_000 }, async () => {
  const dir = await install('static');
  await sh('npm', ['run', 'build', '--silent'], { cwd: dir });
  await served(dir, async (url) => {
    const { page, line, problems, close } = await open(url, 'seqorder static');
    try {
      assert.equal(line, 'seqorder static 24x8 simd128', problems.join('\n'));
      assert.equal(await page.locator('canvas').count(), 2, 'the heatmap and the circle plot');
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });
});

test('examples/node-esm: the model learns the order task with positions; without, it scores exactly one of each mirrored pair',
  { timeout: 120_000 }, async () => {
    const dir = await install('node-esm');
    const { stdout } = await sh('npm', ['start', '--silent'], { cwd: dir });
    const [withPositions, without] = stdout.trim().split('\n');
    const score = (line) => Number(line.match(/: ([\d.]+)% of 512 mirrored sentences$/)?.[1]);
    assert.match(withPositions, /^seqorder node-esm sinusoidal: /);
    assert.ok(score(withPositions) >= 90, withPositions);
    assert.equal(without, 'seqorder node-esm none: 50.0% of 512 mirrored sentences');
  });

test('examples/node-cjs: require() and the first rows of the table', { timeout: 60_000 }, async () => {
  const dir = await install('node-cjs');
  const { stdout } = await sh('npm', ['start', '--silent'], { cwd: dir });
  const version = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).version;
  assert.equal(stdout.trim(), `seqorder node-cjs ${version}: positions (3, 4)\n0.000 1.000 0.000 1.000\n0.841 0.540 0.010 1.000\n0.909 -0.416 0.020 1.000`);
});
