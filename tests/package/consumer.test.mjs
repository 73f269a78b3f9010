// The package as a consumer gets it: `npm pack` (whose prepack hook builds it), installed from the tarball into one
// new project in a temporary folder, then used as docs/apps.md ("Use it in your app") says, its snippets taken from
// that file itself, and the README's example:
//   node: the app snippet with `import`, the CommonJS snippet with `require`, and what stays private;
//   tsc --noEmit (strict; NodeNext and bundler resolution; a CommonJS file too): a typed example, where wrong calls
//     must be type errors;
//   Chromium (playwright-core): the app snippet served by the Vite dev server (default settings), built by Vite,
//     webpack 5, esbuild and Rollup (docs/apps.md's recipes), and in a plain static folder under its CSP; the
//     worker snippet; wasmUrl; and the errors a server that answers HTML or 404 gets;
//   node: the onnxruntime-web and TensorFlow.js conversions.
// The tools come from tests/package/package.json (npm ci --prefix tests/package); installing the tarball needs no
// network (--offline). One pack, one install and one browser serve every case; the bundles build while node runs.
//
// Where the package comes from: tools.mjs's pack().
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer } from '../../scripts/serve.mjs';
import {
  CHROMIUM_ARGS, checkTools, executablePath, importTool, installApp, pack, root, sh, snippet, toolBin, toolUrl,
  typecheck as typecheckIn, typecheckReadme, viteLogger, writeFiles,
} from './tools.mjs';

const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const work = mkdtempSync(path.join(tmpdir(), 'seqorder-consumer-'));
const app = path.join(work, 'app');
const APP_SNIPPET = "console.log('seqorder'";  // a line only docs/apps.md's app snippet has
const APP_OUTPUT = 'seqorder float32 4x8 0.5';   // what it prints, as its comment says
let packed;   // npm pack's report: { filename, files: [{ path, size }], ... }
let browser;  // one Chromium for every page
const builds = {};  // bundler name -> promise of its output folder, started as soon as the package is installed
const cleanups = [];

before(async () => {
  checkTools();
  packed = await pack(work);
  await installApp(app, path.join(work, packed.filename));

  for (const [name, build] of Object.entries(BUNDLERS)) {
    builds[name] = build();
    builds[name].catch(() => {});  // awaited (and reported) by its own test
  }
  browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
}, { timeout: 600_000 });

after(async () => {
  await Promise.allSettled(Object.values(builds));
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  await browser?.close();
  rmSync(work, { recursive: true, force: true });
}, { timeout: 120_000 });

const CSP = "default-src 'self'; img-src 'self' data:; script-src 'self' 'wasm-unsafe-eval'";  // img-src: the icon

/** A page that runs one module script, under docs/apps.md's Content-Security-Policy. */
function indexHtml(script) {
  return `<!doctype html>
<html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${CSP}"><title>consumer</title>
<link rel="icon" href="data:,"><script type="module" src="${script}"></script></head><body></body></html>
`;
}

/**
 * Opens `url` in a new browser context and waits for a console line starting with "seqorder" (what the snippets
 * print) or for a page error. Resolves to { line, problems, wasm } where problems lists page errors, console errors,
 * HTTP errors and requests off the page's origin, and wasm the .wasm files the page fetched (by name, in the order
 * asked for). `route` may intercept requests first.
 */
async function runPage(url, { route } = {}) {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const problems = [];
    const wasm = [];
    const origin = new URL(url).origin;
    if (route) await route(page);
    page.on('request', (r) => { if (new URL(r.url()).pathname.endsWith('.wasm')) wasm.push(path.basename(new URL(r.url()).pathname)); });
    page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
    page.on('response', (r) => { if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`); });
    page.on('request', (r) => {
      if (!/^(data|blob):/.test(r.url()) && new URL(r.url()).origin !== origin) problems.push(`foreign request: ${r.url()}`);
    });
    const printed = new Promise((resolve) => {
      page.on('console', (m) => { if (m.text().startsWith('seqorder')) resolve(m.text()); });
      page.on('pageerror', (e) => { problems.push(`page error: ${e.message}`); resolve(undefined); });
    });
    let timer;
    const timeout = new Promise((resolve) => { timer = setTimeout(resolve, 30_000, 'timeout: nothing printed in 30 s'); });
    try {
      await page.goto(url, { waitUntil: 'load' });
      return { line: await Promise.race([printed, timeout]), problems, wasm };
    } finally {
      clearTimeout(timer);
    }
  } finally {
    await context.close();
  }
}

/** Serves `dir` on 127.0.0.1 until the tests end; resolves to its URL. */
async function serve(dir, { isolated = false } = {}) {
  const server = await startServer({ root: dir, port: 0, isolated });
  cleanups.push(() => server.close());
  return server.url;
}

/** docs/apps.md's app snippet as `file` in a new folder of the app, with index.html loading `script`. */
function appFolder(name, { file = 'app.js', script = file, importFrom } = {}) {
  const dir = path.join(app, name);
  let code = snippet('js', APP_SNIPPET);
  if (importFrom) code = code.replace("from 'seqorder'", `from '${importFrom}'`);
  writeFiles(dir, { [file]: code, 'index.html': indexHtml(script) });
  return dir;
}

/** A page's script that runs attention on a pool of workers (whose worker script the bundler must find and build). */
const POOL_APP = `import { loadSeqorderPool } from 'seqorder/pool';
const pool = await loadSeqorderPool({ workers: 2 });
const x = { data: new Float32Array(512 * 64).fill(0.5), shape: [512, 64] };
const y = await pool.attention(x, x, x, { causal: true });
console.log('seqorder pool', pool.workers, y.shape.join('x'));
await pool.close();
`;

/**
 * A page's script that trains a model: the model module, which loadSeqorder from seqorder/model fetches and compiles
 * beside the main module (the first model starts it, synchronously, under the page's CSP), must have been emitted too.
 */
const MODEL_APP = `import { loadSeqorder } from 'seqorder/model';
const so = await loadSeqorder();
const { ids, targets } = so.orderTask({ count: 8, length: 6, seed: 1 });
const model = so.createModel({ vocab: so.taskWords.length, width: 16, classes: 2, seed: 2 });
const losses = [model.step(ids, targets), model.step(ids, targets)];
console.log('seqorder model', model.config.width, losses.every((loss) => loss > 0 && loss < 1), losses[1] < losses[0]);
`;
const MODEL_OUTPUT = 'seqorder model 16 true true';

/** Bundlers: each builds the app snippet into a static folder (resolves to it), as docs/apps.md says to. */
const BUNDLERS = {
  async vite() {
    const dir = appFolder('vite-build', { file: 'main.js', script: './main.js' });
    // more pages: the pool, a model
    writeFiles(dir, { 'pool.js': POOL_APP, 'pool.html': indexHtml('./pool.js'), 'model.js': MODEL_APP, 'model.html': indexHtml('./model.js') });
    const { build } = await importTool('vite');
    const { logger, warnings } = await viteLogger();
    const input = { main: path.join(dir, 'index.html'), pool: path.join(dir, 'pool.html'), model: path.join(dir, 'model.html') };
    await build({ root: dir, configFile: false, customLogger: logger, build: { outDir: path.join(dir, 'dist'), rollupOptions: { input } } });
    assert.deepEqual(warnings, [], 'vite build: warnings');
    return path.join(dir, 'dist');
  },
  async webpack() {
    const dir = appFolder('webpack', { file: 'src/index.js', script: 'main.js' });
    writeFiles(dir, { 'src/pool.js': POOL_APP, 'src/model.js': MODEL_APP });
    const { default: webpack } = await importTool('webpack');
    // webpack's defaults (entry ./src/index.js, output dist/main.js), in production mode; more entries: the pool, a model
    const stats = await new Promise((resolve, reject) => {
      const entry = { main: './src/index.js', pool: './src/pool.js', model: './src/model.js' };
      const compiler = webpack({ mode: 'production', context: dir, entry, output: { path: path.join(dir, 'dist') } });
      compiler.run((error, result) => compiler.close(() => (error ? reject(error) : resolve(result))));
    });
    // no error and no warning, not even production mode's size hints: each module (the main one, the model one) is
    // below the 244 KiB webpack recommends for any asset
    const { errors, warnings } = stats.toJson({ all: false, errors: true, warnings: true });
    assert.deepEqual([...errors, ...warnings].map((e) => e.message), [], 'webpack: errors or warnings');
    writeFileSync(path.join(dir, 'dist', 'index.html'), indexHtml('main.js'));
    writeFileSync(path.join(dir, 'dist', 'pool.html'), indexHtml('pool.js'));
    writeFileSync(path.join(dir, 'dist', 'model.html'), indexHtml('model.js'));
    return path.join(dir, 'dist');
  },
  async esbuild() {
    const dir = appFolder('esbuild');
    await sh('bash', ['-c', `cd ${JSON.stringify(dir)} && ln -s ../node_modules node_modules && ${snippet('sh', 'esbuild ')}`],
      { env: { PATH: `${toolBin}:${process.env.PATH}` } });
    writeFileSync(path.join(dir, 'dist', 'index.html'), indexHtml('app.js'));
    return path.join(dir, 'dist');
  },
  async rollup() {
    const dir = appFolder('rollup');
    writeFileSync(path.join(dir, 'rollup.config.mjs'), `import { nodeResolve } from '${toolUrl('@rollup/plugin-node-resolve')}';
export default { input: 'app.js', output: { dir: 'dist', format: 'es' }, plugins: [nodeResolve({ browser: true })] };
`);
    const copy = snippet('sh', 'esbuild ').split('&&')[1].trim();  // "after rollup -c, the same cp"
    await sh('bash', ['-c', `cd ${JSON.stringify(dir)} && ln -s ../node_modules node_modules && rollup -c --silent && ${copy}`],
      { env: { PATH: `${toolBin}:${process.env.PATH}` } });
    writeFileSync(path.join(dir, 'dist', 'index.html'), indexHtml('app.js'));
    return path.join(dir, 'dist');
  },
};

test('package.json: exports map (import and require with their types, the subpaths, the .wasm files; package.json), metadata, files, engines', () => {
  assert.equal(manifest.name, 'seqorder');
  assert.match(manifest.version, /^\d+\.\d+\.\d+(-[\w.]+)?$/);
  assert.equal(typeof manifest.license, 'string');
  assert.ok(existsSync(path.join(root, 'LICENSE')), 'no LICENSE file');
  assert.equal(manifest.type, 'module');
  const main = manifest.exports['.'];
  // import and require each with its own types (publint: one .d.ts for both is ambiguous), default last
  assert.deepEqual(main, {
    import: { types: './dist/lib/seqorder.d.ts', default: './dist/lib/seqorder.mjs' },
    require: { types: './dist/lib/seqorder.d.cts', default: './dist/lib/seqorder.cjs' },
    default: { types: './dist/lib/seqorder.d.ts', default: './dist/lib/seqorder.mjs' },
  });
  assert.deepEqual(manifest.exports['./plot'], { types: './dist/lib/figures/plot/index.d.ts', default: './dist/lib/figures/plot/index.mjs' });
  assert.deepEqual(manifest.exports['./checks'], { types: './dist/lib/figures/checks.d.ts', default: './dist/lib/figures/checks.mjs' });
  // the stylesheet with a declaration (TypeScript's noUncheckedSideEffectImports refuses an import it cannot resolve)
  assert.deepEqual(manifest.exports['./figures.css'], { types: './dist/lib/figures/figures.css.d.ts', default: './dist/lib/figures/figures.css' });
  // every module of the package's folder of modules, whichever it holds (bundlers and Vite's dev server resolve
  // seqorder/<module>.wasm through it)
  assert.equal(manifest.exports['./*.wasm'], './dist/lib/seqorder/*.wasm');
  assert.equal(manifest.exports['./package.json'], './package.json');
  assert.equal(manifest.types, main.import.types);
  // every module is free of side effects but seqorder/relaxed, imported for its effect (naming the relaxed modules),
  // and the stylesheet, imported for its effect (a bundler that thinks it has none drops it: webpack's production build)
  assert.deepEqual(manifest.sideEffects, ['./dist/lib/relaxed.mjs', './dist/lib/figures/figures.css']);
  assert.deepEqual(manifest.exports['./model'], {
    import: { types: './dist/lib/model-entry.d.ts', default: './dist/lib/model-entry.mjs' },
    require: { types: './dist/lib/model-entry.d.cts', default: './dist/lib/model-entry.cjs' },
    default: { types: './dist/lib/model-entry.d.ts', default: './dist/lib/model-entry.mjs' },
  });
  assert.deepEqual(manifest.exports['./pool'], {
    import: { types: './dist/lib/pool/index.d.ts', default: './dist/lib/pool/index.mjs' },
    require: { types: './dist/lib/pool/index.d.cts', default: './dist/lib/pool/index.cjs' },
    default: { types: './dist/lib/pool/index.d.ts', default: './dist/lib/pool/index.mjs' },
  });
  assert.deepEqual(manifest.exports['./relaxed'], { types: './dist/lib/relaxed.d.ts', default: './dist/lib/relaxed.mjs' });
  assert.match(manifest.engines?.node ?? '', />=\s*20/);
  assert.match(manifest.repository?.url ?? '', /^git\+https:\/\//);
  assert.match(manifest.homepage ?? '', /^https:\/\//);
  assert.ok(manifest.keywords?.length >= 5, 'keywords');
  assert.deepEqual(Object.keys(manifest.dependencies ?? {}), [], 'the package itself depends on nothing');
  const benchOnly = ['onnxruntime-web', '@tensorflow/tfjs-core', '@tensorflow/tfjs-backend-wasm', 'vite', 'webpack', 'esbuild', 'rollup', 'typescript'];
  assert.deepEqual(Object.keys(manifest.devDependencies ?? {}).filter((d) => benchOnly.includes(d)), [],
    'benchmark contenders and bundlers live in bench/package.json and tests/package/package.json, not in what npm start installs');
  const changelog = readFileSync(path.join(root, 'CHANGELOG.md'), 'utf8');
  assert.match(changelog, new RegExp(`^## \\[?${manifest.version.replace(/\./g, '\\.')}\\]?`, 'm'), `CHANGELOG.md has no section for ${manifest.version}`);
});

test('the tarball holds the built package and nothing else', () => {
  const files = packed.files.map((f) => f.path).sort();
  for (const needed of ['package.json', 'LICENSE', 'README.md', 'CHANGELOG.md', 'dist/lib/seqorder.mjs', 'dist/lib/seqorder.cjs',
    'dist/lib/seqorder.d.ts', 'dist/lib/seqorder.d.cts', 'dist/lib/load.mjs', 'dist/lib/seqorder_core.mjs',
    'dist/lib/seqorder/seqorder_core.wasm', 'dist/lib/seqorder_model.mjs', 'dist/lib/seqorder/seqorder_model.wasm',
    'dist/lib/model-entry.mjs', 'dist/lib/model-entry.cjs', 'dist/lib/model-entry.d.ts', 'dist/lib/model-entry.d.cts',
    'dist/lib/figures/figures.css.d.ts',
    'dist/lib/pool/index.mjs', 'dist/lib/pool/seqorder/pool-worker.mjs', 'dist/lib/figures/plot/index.mjs', 'dist/lib/figures/plot/index.d.ts',
    'dist/lib/figures/checks.mjs', 'dist/lib/figures/checks.d.ts', 'dist/lib/figures/figures.css']) {
    assert.ok(files.includes(needed), `${needed} missing from the tarball: ${files.join(', ')}`);
  }
  const stray = files.filter((f) => !/^(package\.json|LICENSE|README\.md|CHANGELOG\.md|dist\/lib\/(pool\/)?[^/]+|dist\/lib\/seqorder\/[^/]+\.wasm|dist\/lib\/pool\/seqorder\/pool-worker\.(mjs|d\.ts)|dist\/lib\/figures\/(plot\/)?[\w-]+\.(mjs|d\.ts|css|css\.d\.ts))$/.test(f));
  assert.deepEqual(stray, [], 'files that do not belong in the package');
  assert.ok(packed.size < 2 << 20, `the tarball is ${packed.size} bytes`);
  assert.equal(packed.version, manifest.version);
});

test('node ESM: the app snippet prints what it says; values, errors, the exported .wasm and what stays private',
  { timeout: 60_000 }, async () => {
    writeFileSync(path.join(app, 'snippet.mjs'), snippet('js', APP_SNIPPET));
    assert.equal((await sh(process.execPath, ['snippet.mjs'], { cwd: app })).stdout.trim(), APP_OUTPUT);

    writeFileSync(path.join(app, 'node-check.mjs'), `
import { loadSeqorder, loadSeqorderPool, version } from 'seqorder';
import { loadSeqorder as loadWithModel, loadModelModule } from 'seqorder/model';
const so = await loadSeqorder();
const table = so.positions(3, 4);
const pool = await loadSeqorderPool({ workers: 2 });  // its worker found beside it
const x = { data: new Float32Array(64 * 8).fill(0.5), shape: [64, 8] };
const pooled = await pool.attention(x, x, x);
await pool.close();
let error;
try { so.positions(3, 5); } catch (e) { error = { name: e.name, message: e.message }; }
let deep;
try { await import('seqorder/dist/lib/checks.mjs'); deep = 'imported'; } catch (e) { deep = e.code; }
const fs = await import('node:fs');
const wasm = fs.readFileSync(new URL(import.meta.resolve('seqorder/seqorder_core.wasm')));
const fromBytes = await loadWithModel({ wasmBinary: wasm });
const fromPath = await loadWithModel({ wasmUrl: 'node_modules/seqorder/dist/lib/seqorder/' });
// seqorder's loadSeqorder loads the main module alone: createModel says how to have the model module, which loads later
const options = { vocab: 4, width: 8, classes: 2, seed: 1 };
let notLoaded;
try { so.createModel(options); } catch (e) { notLoaded = e.message; }
await loadModelModule(so);
const missing = await loadSeqorder({ wasmUrl: 'nowhere/seqorder_core.wasm' }).then(() => 'loaded', (e) => e.message);
console.log(JSON.stringify({
  resolved: import.meta.resolve('seqorder'), version, manifest: (await import('seqorder/package.json', { with: { type: 'json' } })).default.version,
  table: { shape: table.shape, dtype: table.dtype, data: [...table.data] }, error, deep, magic: [...wasm.subarray(0, 4)],
  others: [fromBytes.positions(1, 2).data[1], fromPath.positions(1, 2).data[1]], missing,
  // the model module: beside the package's files (wasmBinary gives the main module only), in wasmUrl's folder, and
  // loaded into seqorder's API later
  models: [fromBytes, fromPath, so].map((api) => api.createModel(options).config.width), notLoaded,
  pool: [pool.workers, pool.sharedMemory, pooled.shape, pooled.data.every((value) => value === 0.5)],
}));
`);
    const r = JSON.parse((await sh(process.execPath, ['node-check.mjs'], { cwd: app })).stdout);
    assert.ok(fileURLToPath(r.resolved).startsWith(path.join(app, 'node_modules', 'seqorder')), `resolved ${r.resolved}`);
    assert.equal(r.version, manifest.version);
    assert.equal(r.manifest, manifest.version);
    // independent values: row t is sin(t), cos(t), sin(t / 100), cos(t / 100) (base 10000, width 4)
    const want = [0, 1, 2].flatMap((t) => [Math.sin(t), Math.cos(t), Math.sin(t / 100), Math.cos(t / 100)]);
    assert.deepEqual(r.table.shape, [3, 4]);
    r.table.data.forEach((x, i) => assert.ok(Math.abs(x - want[i]) <= 1e-15, `positions[${i}] = ${x}, want ${want[i]}`));
    assert.equal(r.error?.name, 'RangeError');
    assert.match(r.error.message, /^width/);
    assert.equal(r.deep, 'ERR_PACKAGE_PATH_NOT_EXPORTED');
    assert.deepEqual(r.magic, [0, 0x61, 0x73, 0x6d]);
    assert.deepEqual(r.others, [1, 1]);
    assert.deepEqual(r.models, [8, 8, 8]);
    assert.match(r.notLoaded, /^seqorder: createModel needs the model module, which this API has not loaded: load it with loadSeqorder from 'seqorder\/model' \(both modules\), or await loadModelModule\(so\) from 'seqorder\/model' first; see https:\/\/github\.com\/.*#the-model-module$/);
    assert.match(r.missing, /could not be loaded from file:\/\/.*\/nowhere\/seqorder_core\.wasm: reading it failed .*wasmUrl/);
    assert.deepEqual(r.pool, [2, false, [64, 8], true], 'loadSeqorderPool from \'seqorder\': its workers found beside it');
  });

test('node CommonJS: the require snippet prints what it says', { timeout: 60_000 }, async () => {
  const code = snippet('js', "require('seqorder')");
  writeFileSync(path.join(app, 'snippet.cjs'), code);
  const { stdout } = await sh(process.execPath, ['snippet.cjs'], { cwd: app });
  assert.equal(stdout.trim(), code.match(/\/\/ (.*)$/m)[1]);
  writeFileSync(path.join(app, 'check.cjs'), `const seqorder = require('seqorder');
const pool = require('seqorder/pool');
const withModel = require('seqorder/model');
const x = { data: new Float32Array(64 * 8).fill(0.5), shape: [64, 8] };
Promise.all([pool.loadSeqorderPool({ workers: 1 }), seqorder.loadSeqorderPool({ workers: 2 }), withModel.loadSeqorder()]).then(async ([p, main, so]) => {
  const y = await main.attention(x, x, x);
  const width = so.createModel({ vocab: 4, width: 8, classes: 2 }).config.width;
  console.log(JSON.stringify({ version: seqorder.version, keys: Object.keys(seqorder).sort(), pool: Object.keys(pool), workers: p.workers,
    manifest: require('seqorder/package.json').version, main: [main.workers, main.sharedMemory, y.shape, y.data[0]],
    model: [Object.keys(withModel).sort(), withModel.version, width] }));
  await p.close();
  await main.close();
});`);
  const r = JSON.parse((await sh(process.execPath, ['check.cjs'], { cwd: app })).stdout);
  // require('seqorder').loadSeqorderPool finds the worker script beside the package's files
  assert.deepEqual(r, {
    version: manifest.version, keys: ['loadSeqorder', 'loadSeqorderPool', 'version'], pool: ['loadSeqorderPool'], workers: 1,
    manifest: manifest.version, main: [2, false, [64, 8], 0.5],
    model: [['loadModelModule', 'loadSeqorder', 'version'], manifest.version, 8],
  });
});

const TYPED_EXAMPLE = `
import { loadSeqorder, version, type Seqorder, type Tensor, type AttentionSteps, type TensorInput, type Model,
  type OrderTask, type Parameters, type FloatTensorInput } from 'seqorder';
import { loadSeqorderPool, type PoolModel } from 'seqorder/pool';
import { loadSeqorderPool as poolFromMain, type SeqorderPool, type PoolOptions } from 'seqorder';
import { loadSeqorder as loadWithModel, loadModelModule, version as modelVersion } from 'seqorder/model';
import 'seqorder/relaxed';
import 'seqorder/figures.css';

const so: Seqorder = await loadSeqorder({ wasmUrl: new URL('https://example.org/wasm/'), modelWasmUrl: '/models/', simd: 'relaxed' });
const fromBytes: Seqorder = await loadSeqorder({ wasmBinary: new Uint8Array(8), modelWasmBinary: new ArrayBuffer(8) });
// seqorder/model: the same loader and API, with the model module; or the model module loaded into an API later
const withModel: Seqorder = await loadWithModel({ modelWasmUrl: '/models/', simd: 'relaxed' });
const loaded: Promise<void> = loadModelModule(so);
await loaded;
console.log(withModel.build, modelVersion.length);
const v: string = version;
const table: Tensor<'float64'> = so.positions(8, 16);
const small: Tensor<'float32'> = so.positions(8, 16, { dtype: 'float32', start: 4, base: 500, layout: 'halves' });
const f32: Float32Array = small.data;
const q: TensorInput<'float32'> = { data: new Float32Array(2 * 3 * 4), shape: [2, 3, 4] };
const out: Tensor<'float32'> = so.attention(q, q, q, { causal: true, queryStart: 0, out: new Float32Array(24) });
const steps: AttentionSteps<'float32'> = so.attention(q, q, q, { steps: true });
const weights: Float32Array = steps.weights.data;
// the result's dtype follows the data's class, without a dtype written
const inferred: Tensor<'float64'> = so.attention({ data: new Float64Array(8), shape: [1, 2, 2, 2] },
  { data: new Float64Array(8), shape: [1, 2, 2, 2] }, { data: new Float64Array(8), shape: [1, 2, 2, 2] });
declare const someBoolean: boolean;
const either: Tensor<'float32'> | AttentionSteps<'float32'> = so.attention(q, q, q, { steps: someBoolean });
const ids: TensorInput<'int32'> = { data: new Int32Array([0, 2, 1]), shape: [3] };
const looked: Tensor<'float64'> = so.embed({ data: new Float64Array(12), shape: [3, 4] }, ids, { out: new Float64Array(12) });
const moved: Tensor<'float64'> = so.addPositions(looked, { start: 3, base: 100 });
const learned: Tensor<'float32'> = so.learnedPositions({ data: new Float32Array(12), shape: [6, 2] }, 4, { start: 1 });
const rotated = so.rope(looked, { start: 2 });
const dims: readonly number[] = [3, 4];
const fromOtherLibrary: Tensor<'float32'> = so.addPositions({ data: new Float32Array(12), shape: dims, dtype: 'float32' });
// the next lesson's parts: a projection, its heads, a masked softmax, the heads merged back
const w: TensorInput<'float32'> = { data: new Float32Array(16), shape: [4, 4] };
const projected: Tensor<'float32'> = so.matmul(q, w, { out: new Float32Array(24) });
const heads: Tensor<'float32'> = so.splitHeads(projected, 2);
const masked: Tensor<'float32'> = so.softmax(steps.scaled, { causal: true, queryStart: 0 });
const merged: Tensor<'float32'> = so.mergeHeads(heads, { out: new Float32Array(24) });
console.log(masked.shape, merged.shape);
const { allocatedBytes, heapBytes } = so.memoryStats();
console.log(v, table.shape, f32.length, out.shape, weights.length, inferred, either, moved, learned, rotated.shape,
  fromOtherLibrary, allocatedBytes, heapBytes, so.build, fromBytes.build);
// the trainable model: results follow its dtype
const model: Model<'float32'> = so.createModel({ vocab: 16, width: 32, heads: 2, classes: 2, seed: 1 });
const task: OrderTask = so.orderTask({ count: 32, length: 12, seed: 3, mirrored: false });
const lossBefore: number = model.step(task.ids, task.targets, { lr: 3e-3 });
const logits: Tensor<'float32'> = model.forward(task.ids);
const params: Parameters<'float32'> = model.parameters();
model.setParameters({ embed: params.embed });
const { loss, grads } = model.gradients(task.ids, task.targets);
const shifted: Tensor<'float32'> = model.forward(task.ids, { positionIds: task.ids });
model.train([{ ids: task.ids, targets: task.targets, positionIds: task.ids }], { lr: 1e-3 });
const stretched: Tensor<'float32'> = model.forward(task.ids, { ropeScaling: { method: 'yarn', factor: 2, originalLength: 12 } });
model.train([task], { lr: 1e-3, ropeScaling: { method: 'linear', factor: 2 } });
const drawnLogits: Tensor<'float32'> = model.forward(task.ids, { positionRange: 48 });
model.train([task], { lr: 1e-3, positionRange: 48 });
const exact: Model<'float64'> = so.createModel({ ...model.config, dtype: 'float64' });
const learnedModel = so.createModel({ vocab: 16, width: 32, classes: 2, positions: 'learned', maxLength: 12 });
const rebuilt: Model<'float32'> = so.createModel(learnedModel.config);
const rotaryModel = so.createModel({ vocab: 16, width: 32, heads: 2, classes: 2, positions: 'rotary', rotaryBase: 500000, rotaryPairs: 4 });
const rotaryBase: number = rotaryModel.config.positions === 'rotary' ? rotaryModel.config.rotaryBase : 0;
const relativeModel = so.createModel({ ...so.createModel({ vocab: 16, width: 32, classes: 2, positions: 'relative', buckets: 16 }).config, dtype: 'float64' });
so.createModel({ vocab: 16, width: 32, classes: 2, positions: 'alibi', causal: true });
console.log(rotaryBase, relativeModel.config.positions);
// a tensor whose dtype is known only at run time (another library's, say) gives a union, narrowed by dtype
declare const runtimeDtype: FloatTensorInput;
const either64or32 = so.attention(runtimeDtype, runtimeDtype, runtimeDtype);
const narrowed: Float64Array | undefined = either64or32.dtype === 'float64' ? either64or32.data : undefined;
const unionTable: Tensor<'float64'> | Tensor<'float32'> = so.positions(4, 8, { dtype: someBoolean ? 'float32' : 'float64' });
console.log(rebuilt.config.maxLength, narrowed, unionTable.dtype);
const attention: Float64Array = exact.attentionWeights({ data: task.ids.data.subarray(0, 12), shape: [1, 12] }).data;
const word: string = so.taskWords[1];
console.log(lossBefore, logits.shape, shifted.shape, stretched.shape, drawnLogits.shape, loss, grads['readout.bias'].data, attention.length, word, model.disposed);
model.dispose();
// a model in a pool's worker: the same methods, as promises, and train
const pool = await loadSeqorderPool({ workers: 2, sharedMemory: false });
const shares: boolean = pool.sharedMemory;
const remote: PoolModel<'float32'> = await pool.createModel({ vocab: 16, width: 32, heads: 2, classes: 2, seed: 1 });
const losses: Float64Array = await remote.train([task, task], { lr: 3e-3 });
const remoteLogits: Tensor<'float32'> = await remote.forward(task.ids);
console.log(losses.length, remoteLogits.shape, remote.worker, remote.config.width, remote.disposed, shares);
await remote.dispose();
// the calling thread computing a share of each call
const sharing = await loadSeqorderPool({ workers: 1, callingThread: true });
const computesHere: boolean = sharing.callingThread;
const pair = { data: new Float32Array(8), shape: [2, 4] };
const sharedResult: Tensor<'float32'> = await sharing.attention(pair, pair, pair);
console.log(computesHere, sharedResult.shape);
await sharing.close();
// a next-token model: generate, save and load (one thread and the pool)
const gpt = so.createModel({ vocab: 16, width: 32, heads: 2, classes: 16, causal: true, readout: 'each', positions: 'rotary' });
const text: Int32Array = gpt.generate([1, 2, 3], { steps: 8, temperature: 0.8, topK: 4, seed: 1 });
const greedy: Int32Array = gpt.generate(Int32Array.of(1, 2), { steps: 4, temperature: 0 });
const saved: Uint8Array = gpt.save();
const loadedGpt: Model = so.loadModel(saved);
const loadedRemote: PoolModel = await pool.loadModel(saved);
const remoteText: Int32Array = await loadedRemote.generate([1], { steps: 2 });
const remoteSaved: Uint8Array = await loadedRemote.save();
console.log(text.length, greedy.length, loadedGpt.config.vocab, remoteText.length, remoteSaved.length);

// Wrong calls must not type-check (an unused @ts-expect-error is itself an error, so loose types fail the build).
// @ts-expect-error length must be a number
so.positions('8', 16);
// @ts-expect-error sharedMemory is a boolean
void loadSeqorderPool({ sharedMemory: 'yes' });
// @ts-expect-error callingThread is a boolean
void loadSeqorderPool({ callingThread: 1 });
// @ts-expect-error loadModelModule loads into an API that loadSeqorder made
void loadModelModule({});
// @ts-expect-error seqorder/model's loadSeqorder takes loadSeqorder's options
void loadWithModel({ model: true });
// loadSeqorderPool from 'seqorder' has the same types
const poolOptions: PoolOptions = { workers: 2 };
const fromMain: SeqorderPool = await poolFromMain(poolOptions);
const samePool: typeof loadSeqorderPool = poolFromMain;
void [fromMain, samePool];
// @ts-expect-error workers is a number
void poolFromMain({ workers: '2' });
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
// @ts-expect-error steps: boolean may return the four steps
const maybeSteps: Tensor<'float32'> = so.attention(q, q, q, { steps: someBoolean });
// @ts-expect-error attention options are checked
so.attention(q, q, q, { mask: 'causal' });
// @ts-expect-error q, k and v share one dtype: a float64 k with a float32 q
so.attention(q, { data: new Float64Array(24), shape: [2, 3, 4] }, q);
// @ts-expect-error q, k and v share one dtype: a float64 v with a float32 q
so.attention({ data: new Float32Array(4), shape: [2, 2] }, { data: new Float32Array(4), shape: [2, 2] }, { data: new Float64Array(4), shape: [2, 2] });
// @ts-expect-error out has q's dtype
so.attention(q, q, q, { out: new Float64Array(24) });
// @ts-expect-error matmul's a and b share one dtype
so.matmul(q, { data: new Float64Array(16), shape: [4, 4] });
// @ts-expect-error softmax's mask is attention's: causal, queryStart
so.softmax(q, { mask: true });
// @ts-expect-error splitHeads needs the number of heads
so.splitHeads(q);
// @ts-expect-error mergeHeads' out has x's dtype
so.mergeHeads(heads, { out: new Float64Array(24) });
// @ts-expect-error a dtype that contradicts the data's class
so.addPositions({ data: new Float32Array(4), shape: [2, 2], dtype: 'float64' });
// @ts-expect-error learnedPositions' out has the table's dtype
so.learnedPositions({ data: new Float32Array(12), shape: [6, 2] }, 4, { out: new Float64Array(8) });
// @ts-expect-error addPositions has no dtype option
so.addPositions(looked, { dtype: 'float32' });
// @ts-expect-error wasmUrl is a string or a URL
loadSeqorder({ wasmUrl: 42 });
// @ts-expect-error modelWasmBinary is bytes
loadSeqorder({ modelWasmBinary: 'seqorder_model.wasm' });
// @ts-expect-error memoryStats has no such field
so.memoryStats().freeBytes;
// @ts-expect-error classes is required
so.createModel({ vocab: 16, width: 32 });
// @ts-expect-error a learned table needs its rows: maxLength
so.createModel({ vocab: 16, width: 32, classes: 2, positions: 'learned' });
// @ts-expect-error maxLength goes only with a learned table
so.createModel({ vocab: 16, width: 32, classes: 2, positions: 'rotary', maxLength: 12 });
// @ts-expect-error positions are 'none', 'sinusoidal', 'learned', 'rotary', 'alibi' or 'relative'
so.createModel({ vocab: 16, width: 32, classes: 2, positions: 'absolute' });
// @ts-expect-error rotaryBase goes only with rotary positions
so.createModel({ vocab: 16, width: 32, classes: 2, positions: 'alibi', rotaryBase: 100 });
// @ts-expect-error buckets goes only with relative positions (the default positions are sinusoidal)
so.createModel({ vocab: 16, width: 32, classes: 2, buckets: 16 });
// @ts-expect-error maxDistance goes only with relative positions
so.createModel({ vocab: 16, width: 32, classes: 2, positions: 'rotary', maxDistance: 16 });
// @ts-expect-error a float32 model's parameters are float32
model.setParameters({ embed: { data: new Float64Array(512), shape: [16, 32] } });
// @ts-expect-error ids are int32
model.forward({ data: new Float32Array(4), shape: [1, 4] });
// @ts-expect-error step's options are checked
model.step(task.ids, task.targets, { learningRate: 1 });
// @ts-expect-error positionIds are int32
model.loss(task.ids, task.targets, { positionIds: { data: new Float32Array(12), shape: [1, 12] } });
// @ts-expect-error positionIds go with each batch, not with train's options
model.train([task], { positionIds: task.ids });
// @ts-expect-error 'yarn' needs originalLength
model.forward(task.ids, { ropeScaling: { method: 'yarn', factor: 2 } });
// @ts-expect-error positionRange is a number
model.step(task.ids, task.targets, { positionRange: '64' });
// @ts-expect-error positionRange goes with train's options, for every batch, not with a batch
model.train([{ ...task, positionRange: 64 }]);
// @ts-expect-error taskWords is read-only
so.taskWords.push('robots');
// @ts-expect-error train takes an array of batches
remote.train(task);
// @ts-expect-error generate needs options.steps
gpt.generate([1, 2], { temperature: 0 });
// @ts-expect-error generate's prefix is ids: an Int32Array or numbers
gpt.generate(new Float32Array(2), { steps: 1 });
// @ts-expect-error generate's options are checked
gpt.generate([1], { steps: 1, top_k: 2 });
// @ts-expect-error loadModel takes save()'s bytes
so.loadModel(gpt.config);
// @ts-expect-error save() returns bytes, not a tensor
const notBytes: Tensor<'float32'> = gpt.save();
// @ts-expect-error a pool model's results are promises
const notPromised: Tensor<'float32'> = remote.forward(task.ids);
export { wrong, notTensor, maybeSteps, notPromised, notBytes };
`;

/** Compiles `files` with the pinned tsc (strict) under `compilerOptions`; wrong calls in them must carry @ts-expect-error. */
function typecheck(name, files, compilerOptions) {
  return typecheckIn(path.join(app, `ts-${name}`), files, compilerOptions);
}

for (const resolution of ['NodeNext', 'Bundler']) {
  test(`tsc --noEmit: the typed example type-checks and its wrong calls do not (${resolution} resolution)`, { timeout: 90_000 }, () =>
    typecheck(resolution, { 'example.ts': TYPED_EXAMPLE },
      { module: resolution === 'NodeNext' ? 'NodeNext' : 'ESNext', moduleResolution: resolution }));
}

// (and with the latest typescript: examples.test.mjs)
test('tsc --noEmit --strict: the README\'s example, as written, type-checks (NodeNext and Bundler resolution)', { timeout: 90_000 }, () =>
  typecheckReadme(app, 'ts-readme'));

test('tsc --noEmit: require() from a CommonJS TypeScript file gets the same types (NodeNext)', { timeout: 90_000 }, () =>
  typecheck('cjs', {
    'example.cts': `import seqorder = require('seqorder');
import pool = require('seqorder/pool');
import withModel = require('seqorder/model');
async function main(): Promise<number> {
  const so = await seqorder.loadSeqorder();
  await withModel.loadModelModule(so);
  const trained: seqorder.Seqorder = await withModel.loadSeqorder({ wasmUrl: './static/' });
  const model: seqorder.Model<'float32'> = trained.createModel({ vocab: 4, width: 8, classes: 2 });
  model.dispose();
  const t: seqorder.Tensor<'float32'> = so.positions(2, 4, { dtype: 'float32' });
  // @ts-expect-error unknown option
  await seqorder.loadSeqorder({ wasm: 'x' });
  const workers: pool.SeqorderPool = await pool.loadSeqorderPool({ workers: 1 });
  await workers.close();
  const fromMain: seqorder.SeqorderPool = await seqorder.loadSeqorderPool({ workers: 1 });
  await fromMain.close();
  // @ts-expect-error workers is a number
  await seqorder.loadSeqorderPool({ workers: '1' });
  return t.data.length + seqorder.version.length;
}
main();
`,
  }, { module: 'NodeNext', moduleResolution: 'NodeNext' }));

test('tsc --strict, then node: the conversions to and from onnxruntime-web and TensorFlow.js tensors type-check without casts and round-trip; (B, H, T, D) attention',
  { timeout: 120_000 }, async () => {
    // onnxruntime-web's Tensor is onnxruntime-common's (it re-exports it); @tensorflow/tfjs is tfjs-core with its
    // backends (here the CPU one). The snippet is compiled and run with those packages (linked into the app) in
    // place of the names it imports, and the code below it, typed as a user would write it.
    const dir = path.join(app, 'ts-convert');
    for (const name of ['onnxruntime-common', '@tensorflow/tfjs-core', '@tensorflow/tfjs-backend-cpu']) {
      const link = path.join(app, 'node_modules', name);
      if (!existsSync(link)) {
        mkdirSync(path.dirname(link), { recursive: true });
        symlinkSync(path.join(root, 'tests', 'package', 'node_modules', name), link);
      }
    }
    const conversions = snippet('ts', 'fromOrt')
      .replace("from 'onnxruntime-web'", "from 'onnxruntime-common'")
      .replace("from '@tensorflow/tfjs'", "from '@tensorflow/tfjs-core'");
    writeFiles(dir, {
      'convert.mts': `${conversions}
import '@tensorflow/tfjs-backend-cpu';
import { loadSeqorder } from 'seqorder';
const so = await loadSeqorder();
const values = (n: number) => Float32Array.from({ length: n }, (_, i) => Math.sin(i) / 2);
const q = new ort.Tensor('float32', values(2 * 3 * 4 * 8), [2, 3, 4, 8]);
const heads = toOrt(so.attention(fromOrt(q), fromOrt(q), fromOrt(q)));
const x = { data: values(2 * 3 * 4 * 8), shape: [6, 4, 8] };
const folded = so.attention(x, x, x);
const f64 = new ort.Tensor('float64', Float64Array.from(values(12)), [3, 4]);
const backF64 = toOrt(so.addPositions(fromOrt(f64)));
const t = tf.tensor(values(24), [2, 3, 4]);
const tfOut = toTf(so.attention(fromTf(t), fromTf(t), fromTf(t), { causal: true }));
const tfF64 = toTf(so.positions(3, 4));
const refused = (() => { try { fromTf(tf.tensor([2, 0, 1], [3], 'int32')); return 'accepted'; } catch (e) { return String(e); } })();
console.log(JSON.stringify({
  heads: { isOrt: heads instanceof ort.Tensor, type: heads.type, dims: heads.dims, same: (heads.data as Float32Array).every((v, i) => v === folded.data[i]) },
  backF64: { type: backF64.type, dims: backF64.dims, first: (backF64.data as Float64Array)[1] - (f64.data as Float64Array)[1] },
  tf: { dtype: tfOut.dtype, shape: tfOut.shape, first: [...tfOut.dataSync().slice(0, 4)], t: [...t.dataSync().slice(0, 4)] },
  tfF64: { dtype: tfF64.dtype, shape: tfF64.shape }, refused,
}));
`,
      'tsconfig.json': JSON.stringify({
        compilerOptions: { strict: true, target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2022', 'DOM'], types: [], skipLibCheck: true, outDir: 'out' },
        files: ['convert.mts'],
      }),
    });
    // the snippet itself has no cast: any in the file come from the test's own lines below it
    assert.doesNotMatch(conversions.replace(/^import .*$/gm, ''), / as |<\w+>\w/, 'the conversions need no casts');
    await sh(path.join(toolBin, 'tsc'), ['-p', path.join(dir, 'tsconfig.json')], { cwd: app });
    const { stdout } = await sh(process.execPath, [path.join(dir, 'out', 'convert.mjs')], { cwd: app });
    const r = JSON.parse(stdout.trim().split('\n').pop());
    assert.deepEqual(r.heads, { isOrt: true, type: 'float32', dims: [2, 3, 4, 8], same: true }, '(B, H, T, D) = (B·H, T, D) head by head');
    assert.equal(r.backF64.type, 'float64');
    assert.deepEqual(r.backF64.dims, [3, 4]);
    assert.equal(r.backF64.first, 1);  // + cos(0) at position 0, column 1
    assert.equal(r.tf.dtype, 'float32');
    assert.deepEqual(r.tf.shape, [2, 3, 4]);
    assert.deepEqual(r.tf.first, r.tf.t);  // causal: query 0 sees key 0 only, so its output is v's row 0
    assert.deepEqual(r.tfF64, { dtype: 'float32', shape: [3, 4] });
    assert.equal(r.refused, 'TypeError: seqorder takes float32 tensors, not int32');
  });

test('Chromium: the Vite dev server (default settings) serves the app snippet, and it runs', { timeout: 120_000 }, async () => {
  const dir = appFolder('vite-dev', { file: 'main.js', script: './main.js' });
  writeFiles(dir, { 'pool.js': POOL_APP, 'pool.html': indexHtml('./pool.js') });
  const { createServer } = await importTool('vite');
  const server = await createServer({ root: dir, configFile: false, logLevel: 'silent', server: { host: '127.0.0.1', port: 0 } });
  cleanups.push(() => server.close());
  await server.listen();
  const url = server.resolvedUrls.local[0];
  const { line, problems } = await runPage(url);
  assert.equal(line, APP_OUTPUT, problems.join('\n'));
  assert.deepEqual(problems, []);
  assert.ok(existsSync(path.join(app, 'node_modules', '.vite', 'deps', 'seqorder.js')), 'Vite did not pre-bundle seqorder (the case that used to fail)');
  const pool = await runPage(`${url}pool.html`);
  assert.equal(pool.line, 'seqorder pool 2 512x64', pool.problems.join('\n'));
  assert.deepEqual(pool.problems, []);

  // a server that answers a missing .wasm with its index.html: the error names the URL, what came back and the fix
  const html = await runPage(url, {
    route: (page) => page.route('**/*.wasm', async (r) => r.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><html></html>' })),
  });
  const error = html.problems.find((p) => p.startsWith('page error:')) ?? '';
  assert.match(error, /could not be loaded from http:\/\/127\.0\.0\.1:\d+\/.*seqorder\/seqorder_core\.wasm: the server answered HTTP 200 OK, text\/html/);
  assert.match(error, /first bytes are "<!doctype html><"/);
  assert.match(error, /wasmUrl/);
  assert.doesNotMatch(error, /ASSERTIONS/);
});

for (const name of Object.keys(BUNDLERS)) {
  test(`Chromium: the app snippet built by ${name} runs`, { timeout: 180_000 }, async () => {
    const dist = await builds[name];
    const wasm = readdirSync(dist, { recursive: true }).filter((f) => f.endsWith('.wasm'));
    assert.ok(wasm.length > 0, `${name} emitted no .wasm`);
    const url = await serve(dist);
    const { line, problems } = await runPage(url);
    assert.equal(line, APP_OUTPUT, problems.join('\n'));
    assert.deepEqual(problems, []);
    if (name === 'vite' || name === 'webpack') {  // and more pages: a model (its module emitted), the pool (its worker built)
      const model = await runPage(`${url}model.html`);
      assert.equal(model.line, MODEL_OUTPUT, model.problems.join('\n'));
      assert.deepEqual(model.problems, []);
      const pool = await runPage(`${url}pool.html`);
      assert.equal(pool.line, 'seqorder pool 2 512x64', pool.problems.join('\n'));
      assert.deepEqual(pool.problems, []);
    }
  });
}

test('Chromium: a plain static folder (docs/apps.md: cp dist/lib, import by path) runs the app and the worker snippet, under the CSP',
  { timeout: 120_000 }, async () => {
    const publicDir = appFolder('public', { importFrom: './seqorder/seqorder.mjs' });
    await sh('bash', ['-c', snippet('sh', 'public/seqorder')], { cwd: app });
    writeFiles(publicDir, {
      'worker.js': snippet('js', 'self.onmessage').replace("from 'seqorder'", "from './seqorder/seqorder.mjs'"),
      'page.js': `const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
const x = { data: new Float32Array(4 * 8).fill(0.5), shape: [4, 8] };
worker.onmessage = ({ data: y }) => console.log('seqorder', y.dtype, y.shape.join('x'), y.data[0]);
worker.onerror = (e) => console.error(e.message);
worker.postMessage({ q: x, k: x, v: x });
`,
      'worker.html': indexHtml('page.js'),
      // loadSeqorderPool from the package's entry (not seqorder/pool): its worker is found beside it
      'pool.js': POOL_APP.replace("from 'seqorder/pool'", "from './seqorder/seqorder.mjs'"),
      'pool.html': indexHtml('pool.js'),
      'model.js': MODEL_APP.replace("from 'seqorder/model'", "from './seqorder/model-entry.mjs'"),
      'model.html': indexHtml('model.js'),
    });
    const url = await serve(publicDir);
    const main = await runPage(url);
    assert.equal(main.line, APP_OUTPUT, main.problems.join('\n'));
    assert.deepEqual(main.problems, []);
    const worker = await runPage(`${url}worker.html`);
    assert.equal(worker.line, 'seqorder float32 4x8 0.5', worker.problems.join('\n'));
    assert.deepEqual(worker.problems, []);
    const pool = await runPage(`${url}pool.html`);
    assert.equal(pool.line, 'seqorder pool 2 512x64', pool.problems.join('\n'));
    assert.deepEqual(pool.problems, []);
    const model = await runPage(`${url}model.html`);
    assert.equal(model.line, MODEL_OUTPUT, model.problems.join('\n'));
    assert.deepEqual(model.problems, []);
  });

test('Chromium: wasmUrl (docs/apps.md) finds modules served from another folder; without it, the 404 names the URL and the fix',
  { timeout: 120_000 }, async () => {
    const dir = path.join(app, 'elsewhere');
    cpSync(path.join(app, 'node_modules', 'seqorder', 'dist', 'lib'), path.join(dir, 'lib'), { recursive: true });
    mkdirSync(path.join(dir, 'static'));
    renameSync(path.join(dir, 'lib', 'seqorder'), path.join(dir, 'static', 'seqorder'));
    const call = snippet('js', 'wasmUrl').match(/loadSeqorder\(\{ wasmUrl: [^}]*\}\)/)[0];
    const app1 = snippet('js', APP_SNIPPET).replace("from 'seqorder'", "from './lib/seqorder.mjs'");
    writeFiles(dir, {
      'app.js': app1.replace('loadSeqorder()', call),
      'index.html': indexHtml('app.js'),
      'default.js': app1,
      'default.html': indexHtml('default.js'),
    });
    const url = await serve(dir);
    const found = await runPage(url);
    assert.equal(found.line, APP_OUTPUT, found.problems.join('\n'));
    assert.deepEqual(found.problems, []);
    const missing = await runPage(`${url}default.html`);
    const error = missing.problems.find((p) => p.startsWith('page error:')) ?? missing.problems.join('\n');
    assert.match(error, new RegExp(`could not be loaded from ${url}lib/seqorder/seqorder_core\\.wasm: the server answered HTTP 404`));
    assert.match(error, /wasmUrl/);
  });

test('vite build emits and Chromium fetches only what an app uses: positions alone the main module; seqorder/model the model module too, loaded with it or later; the pool its worker and model module, reusing the main module compiled on the page; seqorder/relaxed the relaxed modules',
  { timeout: 240_000 }, async () => {
    const apps = {
      positions: `import { loadSeqorder } from 'seqorder';
const so = await loadSeqorder();
console.log('seqorder positions', so.positions(4, 8).shape.join('x'), so.build);
`,
      pool: POOL_APP,
      // the main module, compiled for loadSeqorder, is the pool's too (fetched and compiled once)
      both: `import { loadSeqorder } from 'seqorder';
import { loadSeqorderPool } from 'seqorder/pool';
const so = await loadSeqorder();
const pool = await loadSeqorderPool({ workers: 2 });
const x = { data: new Float32Array(64 * 8).fill(0.5), shape: [64, 8] };
console.log('seqorder both', so.attention(x, x, x).data[0], (await pool.attention(x, x, x)).data[0]);
await pool.close();
`,
      // the model module loaded when the page first needs it (as the lesson page does): fetched then, not before
      later: `import { loadSeqorder } from 'seqorder';
const so = await loadSeqorder();
const fetched = () => performance.getEntriesByType('resource').filter((e) => e.name.endsWith('.wasm')).length;
const before = fetched();
const { loadModelModule } = await import('seqorder/model');
await loadModelModule(so);
console.log('seqorder later', before, fetched(), so.createModel({ vocab: 4, width: 8, classes: 2 }).config.width);
`,
      // the pool from the package's entry: nothing of the pool's emitted, and a clear error when it is loaded
      mainPool: `import { loadSeqorderPool } from 'seqorder';
const tried = (options) => loadSeqorderPool({ workers: 1, ...options }).then(() => 'loaded', (e) => e.message);
console.log('seqorder main pool', JSON.stringify(await tried({})));
`,
      // a model too: the model module of the relaxed build (one of another build than the main module's is refused)
      relaxed: `import 'seqorder/relaxed';
import { loadSeqorder } from 'seqorder/model';
const so = await loadSeqorder({ simd: 'relaxed' });
const model = so.createModel({ vocab: 4, width: 8, classes: 2 });
console.log('seqorder relaxed', so.positions(4, 8).shape.join('x'), so.build, model.config.width);
`,
    };
    const { build } = await importTool('vite');
    const emitted = {};
    for (const [name, code] of Object.entries(apps)) {
      const dir = path.join(app, `vite-only-${name}`);
      writeFiles(dir, { 'main.js': code, 'index.html': indexHtml('./main.js') });
      await build({ root: dir, configFile: false, logLevel: 'warn', build: { outDir: path.join(dir, 'dist') } });
      const files = readdirSync(path.join(dir, 'dist'), { recursive: true }).map(String);
      emitted[name] = {
        wasm: files.filter((f) => f.endsWith('.wasm')).map((f) => path.basename(f).replace(/-[\w-]{8}\.wasm$/, '.wasm')).sort(),
        worker: files.some((f) => /pool-worker.*\.js$/.test(f)),
        js: files.filter((f) => f.endsWith('.js')),
        dir: path.join(dir, 'dist'),
      };
    }
    const main = ['seqorder_core.wasm'];
    const withModel = ['seqorder_core.wasm', 'seqorder_model.wasm'];
    assert.deepEqual(emitted.positions.wasm, main, 'a positions-only app: the main module alone');
    assert.equal(emitted.positions.worker, false);
    assert.equal(emitted.positions.js.length, 1, `a positions-only app: one script (no chunk of the pool), got ${emitted.positions.js}`);
    assert.deepEqual(emitted.later.wasm, withModel, 'seqorder/model imported when needed: the model module too');
    assert.deepEqual(emitted.mainPool.wasm, main, 'loadSeqorderPool from \'seqorder\': nothing of the pool');
    assert.equal(emitted.mainPool.worker, false);
    assert.deepEqual(emitted.pool.wasm, withModel, 'the pool: its models\' module too');
    assert.equal(emitted.pool.worker, true, 'the pool: its worker');
    assert.deepEqual(emitted.relaxed.wasm, [...withModel, 'seqorder_core_relaxed.wasm', 'seqorder_model_relaxed.wasm'].sort(),
      'seqorder/relaxed: the relaxed build (and the default one, for engines without relaxed SIMD)');
    // what each page fetches: the positions-only one a single .wasm, the relaxed one the modules of its build
    const fetched = {};
    for (const [name, expected] of Object.entries({ positions: 'seqorder positions 4x8 simd128', relaxed: 'seqorder relaxed 4x8 relaxed 8',
      later: 'seqorder later 1 2 8', both: 'seqorder both 0.5 0.5' })) {
      const { line, problems, wasm } = await runPage(await serve(emitted[name].dir));
      assert.equal(line, expected, problems.join('\n'));
      assert.deepEqual(problems, []);
      fetched[name] = wasm.map((f) => f.replace(/-[\w-]{8}\.wasm$/, '.wasm'));
    }
    assert.deepEqual(fetched.positions, main, 'a positions-only app fetches one .wasm');
    assert.deepEqual([...fetched.relaxed].sort(), ['seqorder_core_relaxed.wasm', 'seqorder_model_relaxed.wasm']);
    assert.deepEqual(fetched.later, withModel, 'the model module, once, when loadModelModule asks for it');
    assert.deepEqual(fetched.both, main, 'loadSeqorder and the pool: the main module fetched (and compiled) once');
    // the message says to import seqorder/pool
    const { line, problems } = await runPage(await serve(emitted.mainPool.dir));
    assert.match(line ?? '', /^seqorder main pool /, problems.join('\n'));
    const worker = JSON.parse(line.slice('seqorder main pool '.length));
    const told = / In an app built by a bundler \(Vite, webpack, \.\.\.\), import loadSeqorderPool from 'seqorder\/pool' rather than from 'seqorder'/;
    assert.match(worker, /^seqorder pool: its workers could not start from http:.*\/seqorder\/pool-worker\.mjs \(.*\)\. Serve the package's /);
    assert.match(worker, told);
  });
