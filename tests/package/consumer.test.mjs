// The package as a consumer gets it: `npm pack` (whose prepack hook builds it), installed from the tarball into a new
// project in a temporary folder, then
//   (a) imported from node: load, call, errors, and nothing reachable past the `exports` map;
//   (b) its hand-written .d.ts checked by compiling a typed example with `tsc --noEmit` (strict, under both NodeNext
//       and bundler module resolution), where wrong calls must be type errors;
//   (c) bundled into a minimal Vite 7 app, served on 127.0.0.1 and run in Chromium (playwright-core).
// TypeScript and Vite are the repository's devDependencies; installing the tarball needs no network (--offline).
//
// Where the package comes from: with SEQORDER_DIST unset (or "dist"), `npm pack` runs in the repository, as a publisher
// would. With SEQORDER_DIST set to another folder (an engineer's own build), the package is staged from that folder's
// lib/ with the repository's package.json and packed with --ignore-scripts, so the shared dist/ is never touched.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';
import { startServer } from '../../scripts/serve.mjs';
import { CHROMIUM_ARGS, executablePath } from '../browser/browser.mjs';

const run = promisify(execFile);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const work = mkdtempSync(path.join(tmpdir(), 'seqorder-consumer-'));
const app = path.join(work, 'app');
const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const vite = path.join(root, 'node_modules', 'vite', 'bin', 'vite.js');
let packed; // npm pack's report: { filename, files: [{ path, size }], ... }

/** Runs a command; on failure the error carries its output. */
async function sh(command, args, options = {}) {
  try {
    return await run(command, args, { maxBuffer: 64 << 20, ...options, env: { ...process.env, ...options.env } });
  } catch (error) {
    error.message += `\n--- stdout\n${error.stdout ?? ''}\n--- stderr\n${error.stderr ?? ''}`;
    throw error;
  }
}

before(async () => {
  const dist = process.env.SEQORDER_DIST;
  let packDir = root;
  const packArgs = ['pack', '--json', '--pack-destination', work];
  if (dist && path.resolve(root, dist) !== path.join(root, 'dist')) {
    packDir = path.join(work, 'stage');
    mkdirSync(path.join(packDir, 'dist'), { recursive: true });
    for (const file of ['package.json', 'README.md', 'LICENSE']) {
      if (existsSync(path.join(root, file))) cpSync(path.join(root, file), path.join(packDir, file));
    }
    cpSync(path.resolve(root, dist, 'lib'), path.join(packDir, 'dist', 'lib'), { recursive: true });
    packArgs.push('--ignore-scripts');
  }
  // npm pack prints the prepack build's output before its JSON report: the report is the last top-level array.
  const { stdout } = await sh('npm', packArgs, { cwd: packDir, env: { npm_config_update_notifier: 'false' } });
  [packed] = JSON.parse(stdout.slice(stdout.lastIndexOf('\n[') + 1));

  mkdirSync(app);
  writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'seqorder-consumer', private: true, type: 'module' }, null, 2));
  await sh('npm', ['install', path.join(work, packed.filename), '--offline', '--no-audit', '--no-fund', '--ignore-scripts'],
    { cwd: app, env: { npm_config_update_notifier: 'false' } });
});

after(() => {
  rmSync(work, { recursive: true, force: true });
});

test('package.json has exports, types, files, engines, a license and a version', () => {
  assert.equal(manifest.name, 'seqorder');
  assert.match(manifest.version, /^\d+\.\d+\.\d+(-[\w.]+)?$/);
  assert.equal(typeof manifest.license, 'string');
  assert.ok(existsSync(path.join(root, 'LICENSE')), 'no LICENSE file');
  assert.equal(manifest.type, 'module');
  assert.deepEqual(Object.keys(manifest.exports['.']).sort(), ['import', 'types']);
  assert.equal(Object.keys(manifest.exports['.'])[0], 'types', '"types" must come first in the export conditions');
  assert.equal(manifest.types, manifest.exports['.'].types);
  assert.ok(Array.isArray(manifest.files) && manifest.files.length > 0);
  assert.match(manifest.engines?.node ?? '', />=\s*20/);
});

test('the tarball holds the built package and nothing else', () => {
  const files = packed.files.map((f) => f.path).sort();
  for (const needed of ['package.json', 'LICENSE', 'dist/lib/seqorder.mjs', 'dist/lib/seqorder.d.ts', 'dist/lib/checks.mjs',
    'dist/lib/seqorder_core.mjs', 'dist/lib/seqorder_core.wasm']) {
    assert.ok(files.includes(needed), `${needed} missing from the tarball: ${files.join(', ')}`);
  }
  const stray = files.filter((f) => !/^(package\.json|LICENSE|README\.md|dist\/lib\/[^/]+)$/.test(f));
  assert.deepEqual(stray, [], 'files that do not belong in the package');
  assert.ok(packed.size < 2 << 20, `the tarball is ${packed.size} bytes`);
  assert.equal(packed.version, manifest.version);
});

test('node: the installed package imports, loads and computes; errors are RangeErrors; internals stay private',
  { timeout: 60_000 }, async () => {
    writeFileSync(path.join(app, 'node-check.mjs'), `
import { loadSeqorder, version } from 'seqorder';
const so = await loadSeqorder();
const table = so.positions(3, 4);
const out = so.attention(
  { data: new Float64Array([1, 0, 0, 1]), shape: [2, 2] },
  { data: new Float64Array([1, 0, 0, 1]), shape: [2, 2] },
  { data: new Float64Array([10, 20, 30, 40]), shape: [2, 2] }, { causal: true });
let error;
try { so.positions(3, 5); } catch (e) { error = { name: e.name, message: e.message }; }
let deep;
try { await import('seqorder/dist/lib/checks.mjs'); deep = 'imported'; } catch (e) { deep = e.code; }
console.log(JSON.stringify({
  resolved: import.meta.resolve('seqorder'), version,
  table: { shape: table.shape, dtype: table.dtype, data: [...table.data] },
  out: { shape: out.shape, data: [...out.data] }, error, deep, memory: so.memoryStats(),
}));
`);
    const { stdout } = await sh(process.execPath, ['node-check.mjs'], { cwd: app });
    const r = JSON.parse(stdout);
    assert.ok(fileURLToPath(r.resolved).startsWith(path.join(app, 'node_modules', 'seqorder')), `resolved ${r.resolved}`);
    assert.equal(r.version, manifest.version);
    assert.deepEqual(r.table.shape, [3, 4]);
    assert.equal(r.table.dtype, 'float64');
    // independent values: row t is sin(t), cos(t), sin(t / 100), cos(t / 100) (base 10000, width 4)
    const want = [0, 1, 2].flatMap((t) => [Math.sin(t), Math.cos(t), Math.sin(t / 100), Math.cos(t / 100)]);
    r.table.data.forEach((x, i) => assert.ok(Math.abs(x - want[i]) <= 1e-15, `positions[${i}] = ${x}, want ${want[i]}`));
    // causal: query 0 sees key 0 only -> v row 0; query 1 weighs keys 0 and 1 by softmax(0, 1/sqrt 2)
    const w1 = 1 / (1 + Math.exp(-1 / Math.SQRT2));
    const wantOut = [10, 20, (1 - w1) * 10 + w1 * 30, (1 - w1) * 20 + w1 * 40];
    assert.deepEqual(r.out.shape, [2, 2]);
    r.out.data.forEach((x, i) => assert.ok(Math.abs(x - wantOut[i]) <= 1e-12, `attention[${i}] = ${x}, want ${wantOut[i]}`));
    assert.equal(r.error?.name, 'RangeError');
    assert.match(r.error.message, /^width/);
    assert.equal(r.deep, 'ERR_PACKAGE_PATH_NOT_EXPORTED');
    assert.ok(r.memory.heapBytes > 0);
  });

const TYPED_EXAMPLE = `
import { loadSeqorder, version, type Seqorder, type Tensor, type AttentionSteps, type TensorInput } from 'seqorder';

const so: Seqorder = await loadSeqorder();
const v: string = version;
const table: Tensor<'float64'> = so.positions(8, 16);
const small: Tensor<'float32'> = so.positions(8, 16, { dtype: 'float32', start: 4, base: 500, layout: 'halves' });
const f32: Float32Array = small.data;
const q: TensorInput<'float32'> = { data: new Float32Array(2 * 3 * 4), shape: [2, 3, 4] };
const out: Tensor<'float32'> = so.attention(q, q, q, { causal: true, queryStart: 0 });
const steps: AttentionSteps<'float32'> = so.attention(q, q, q, { steps: true });
const weights: Float32Array = steps.weights.data;
const ids: TensorInput<'int32'> = { data: new Int32Array([0, 2, 1]), shape: [3] };
const looked: Tensor<'float64'> = so.embed({ data: new Float64Array(12), shape: [3, 4] }, ids);
const moved = so.addPositions(looked, { start: 3 });
const learned = so.learnedPositions({ data: new Float64Array(12), shape: [6, 2] }, 4, { start: 1 });
const rotated = so.rope(looked, { start: 2 });
const { allocatedBytes, heapBytes } = so.memoryStats();
console.log(v, table.shape, f32.length, out.shape, weights.length, moved.shape, learned.shape, rotated.shape, allocatedBytes, heapBytes);

// Wrong calls must not type-check (an unused @ts-expect-error is itself an error, so loose types fail the build).
// @ts-expect-error length must be a number
so.positions('8', 16);
// @ts-expect-error unknown dtype
so.positions(8, 16, { dtype: 'float16' });
// @ts-expect-error unknown layout
so.positions(8, 16, { layout: 'sideways' });
// @ts-expect-error a float32 result is not a float64 tensor
const wrong: Tensor<'float64'> = so.positions(8, 16, { dtype: 'float32' });
// @ts-expect-error ids must be int32
so.embed({ data: new Float64Array(12), shape: [3, 4] }, { data: new Float64Array(3), shape: [3] });
// @ts-expect-error steps: true returns the four steps, not a tensor
const notTensor: Tensor<'float32'> = so.attention(q, q, q, { steps: true });
// @ts-expect-error attention options are checked
so.attention(q, q, q, { mask: 'causal' });
// @ts-expect-error memoryStats has no such field
so.memoryStats().freeBytes;
export { wrong, notTensor };
`;

for (const resolution of ['NodeNext', 'Bundler']) {
  test(`tsc --noEmit: a typed example type-checks against the .d.ts and wrong calls do not (${resolution} resolution)`,
    { timeout: 60_000 }, async () => {
      const dir = path.join(app, `ts-${resolution}`);
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, 'example.ts'), TYPED_EXAMPLE);
      writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({
        compilerOptions: {
          strict: true, noEmit: true, target: 'ES2022', lib: ['ES2022', 'DOM'], types: [], skipLibCheck: false,
          module: resolution === 'NodeNext' ? 'NodeNext' : 'ESNext', moduleResolution: resolution,
        },
        files: ['example.ts'],
      }));
      await sh(process.execPath, [tsc, '-p', path.join(dir, 'tsconfig.json')], { cwd: app });
    });
}

test('a minimal Vite 7 app importing seqorder builds, and runs in Chromium', { timeout: 120_000 }, async () => {
  const web = path.join(app, 'web');
  mkdirSync(web, { recursive: true });
  writeFileSync(path.join(web, 'index.html'), `<!doctype html>
<html><head><meta charset="utf-8"><title>consumer</title><link rel="icon" href="data:,"><script type="module" src="./main.js"></script></head>
<body><p id="result">…</p></body></html>
`);
  writeFileSync(path.join(web, 'main.js'), `import { loadSeqorder } from 'seqorder';
try {
  const so = await loadSeqorder();
  const table = so.positions(2, 4);
  const out = so.attention({ data: new Float32Array([1, 2]), shape: [1, 2] }, { data: new Float32Array([3, 4]), shape: [1, 2] },
    { data: new Float32Array([5, 6]), shape: [1, 2] });
  document.getElementById('result').textContent = JSON.stringify({ table: [...table.data], out: [...out.data], dtype: out.dtype });
  document.body.dataset.ran = 'true';
} catch (error) {
  document.getElementById('result').textContent = String(error);
  document.body.dataset.ran = 'error';
}
`);
  await sh(process.execPath, [vite, 'build', '--logLevel', 'warn', '--outDir', path.join(web, 'dist'), '--emptyOutDir'], { cwd: web });
  const assets = readdirSync(path.join(web, 'dist', 'assets'));
  assert.ok(assets.some((f) => f.endsWith('.wasm')), `Vite emitted no .wasm: ${assets.join(', ')}`);

  const server = await startServer({ root: path.join(web, 'dist'), port: 0 });
  const userDataDir = mkdtempSync(path.join(tmpdir(), 'seqorder-consumer-chromium-'));
  const browser = await chromium.launchPersistentContext(userDataDir, { executablePath, headless: true, args: CHROMIUM_ARGS });
  try {
    const page = browser.pages()[0] ?? (await browser.newPage());
    const problems = [];
    const origin = new URL(server.url).origin;
    page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
    page.on('pageerror', (e) => problems.push(`page error: ${e}`));
    page.on('response', (r) => { if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`); });
    page.on('request', (r) => {
      if (!r.url().startsWith('data:') && new URL(r.url()).origin !== origin) problems.push(`foreign request: ${r.url()}`);
    });
    await page.goto(server.url, { waitUntil: 'load' });
    await page.waitForSelector('body[data-ran]', { timeout: 30_000 });
    const text = await page.textContent('#result');
    assert.equal(await page.getAttribute('body', 'data-ran'), 'true', text);
    const result = JSON.parse(text);
    const want = [0, 1, 0, 1, Math.sin(1), Math.cos(1), Math.sin(0.01), Math.cos(0.01)];
    result.table.forEach((x, i) => assert.ok(Math.abs(x - want[i]) <= 1e-15, `positions[${i}] = ${x}`));
    assert.deepEqual(result.out, [5, 6]); // one key: its value, whatever the score
    assert.equal(result.dtype, 'float32');
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
    await server.close();
    rmSync(userDataDir, { recursive: true, force: true });
  }
});
