// What the package tests need around the tarball: their tools (tests/package/package.json, installed by
// `npm ci --prefix tests/package`), docs/apps.md's snippets, a command runner with a time limit, and Chromium.
// Not a test file itself (no .test.mjs).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { executablePath } from '../browser/helpers/engines/chromium.mjs';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const here = path.join(root, 'tests', 'package');
export const toolBin = path.join(here, 'node_modules', '.bin');
export { CHROMIUM_ARGS, executablePath } from '../browser/helpers/engines/chromium.mjs';

/** Every tool these tests run; a missing one fails the layer at once, saying how to install it. */
export function checkTools() {
  const manifest = JSON.parse(readFileSync(path.join(here, 'package.json'), 'utf8'));
  const missing = Object.keys(manifest.devDependencies).filter((name) => !existsSync(path.join(here, 'node_modules', name, 'package.json')));
  assert.deepEqual(missing, [], `tests/package needs ${missing.join(', ')}: run npm ci --prefix tests/package (scripts/setup.sh --test does)`);
  assert.ok(existsSync(executablePath), `no Chromium at ${executablePath} (apt-get install chromium, or set $CHROMIUM)`);
}

/** A tool's module, by file URL (the apps under test live in temporary folders that cannot resolve it by name). */
export function toolUrl(name, subpath = '') {
  return import.meta.resolve(name + subpath);
}

export function importTool(name) {
  return import(toolUrl(name));
}

const run = promisify(execFile);

/** Runs a command (killed after `timeout` ms); on failure the error carries its output. Resolves to { stdout, stderr }. */
export async function sh(command, args, { timeout = 120_000, ...options } = {}) {
  try {
    return await run(command, args, {
      maxBuffer: 64 << 20, timeout, killSignal: 'SIGKILL', ...options,
      env: { ...process.env, npm_config_update_notifier: 'false', ...options.env },
    });
  } catch (error) {
    error.message += `\n--- stdout\n${error.stdout ?? ''}\n--- stderr\n${error.stderr ?? ''}`;
    throw error;
  }
}

/** The fenced blocks of a markdown file (default docs/apps.md, "Use it in your app"), with their language: [{ lang, code }]. */
export function docSnippets(file = 'docs/apps.md') {
  const section = readFileSync(path.join(root, file), 'utf8');
  const blocks = [];
  for (const match of section.matchAll(/^( *)```(\w+)\n([\s\S]*?)^\1```$/gm)) {
    const indent = match[1].length;
    blocks.push({ lang: match[2], code: match[3].split('\n').map((line) => line.slice(indent)).join('\n') });
  }
  return blocks;
}

/** The one snippet of `lang` in `file` (default docs/apps.md) whose code contains `marker`. */
export function snippet(lang, marker, file = 'docs/apps.md') {
  const found = docSnippets(file).filter((b) => b.lang === lang && b.code.includes(marker));
  assert.equal(found.length, 1, `${file}: expected one \`\`\`${lang} block with ${JSON.stringify(marker)}, found ${found.length}`);
  return found[0].code;
}


/**
 * A Vite logger for build({ customLogger }) that collects the build's warnings instead of printing them: { logger,
 * warnings }. Vite 8's note of how long its plugins took ([PLUGIN_TIMINGS], about the machine the build ran on, slow
 * when shared) is not a warning about the app, and is left out.
 */
export async function viteLogger() {
  const { createLogger } = await importTool('vite');
  const logger = createLogger('warn');
  const warnings = [];
  logger.warn = logger.warnOnce = (message) => {
    if (!String(message).startsWith('[PLUGIN_TIMINGS]')) warnings.push(message);
  };
  return { logger, warnings };
}

/**
 * Packs the package into `work`; resolves to npm pack's report ({ filename, files: [{ path, size }], … }). With
 * SEQORDER_DIST unset (or "dist"), `npm pack` runs in the repository, as a publisher would (its prepack hook builds).
 * With SEQORDER_DIST set to another folder (a separate build), the package is staged from that folder's lib/
 * with the repository's package.json and packed with --ignore-scripts, so the shared dist/ is never touched.
 */
export async function pack(work) {
  const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const dist = process.env.SEQORDER_DIST;
  let packDir = root;
  const packArgs = ['pack', '--json', '--pack-destination', work];
  if (dist && path.resolve(root, dist) !== path.join(root, 'dist')) {
    packDir = path.join(work, 'stage');
    mkdirSync(path.join(packDir, 'dist'), { recursive: true });
    for (const file of manifest.files.filter((f) => !f.startsWith('dist')).concat('package.json', 'README.md', 'LICENSE')) {
      if (existsSync(path.join(root, file))) cpSync(path.join(root, file), path.join(packDir, file));
    }
    cpSync(path.resolve(root, dist, 'lib'), path.join(packDir, 'dist', 'lib'), { recursive: true });
    packArgs.push('--ignore-scripts');
  }
  // npm pack prints the prepack build's output before its JSON report: the report is the last top-level array.
  const { stdout } = await sh('npm', packArgs, { cwd: packDir, timeout: 300_000 });
  return JSON.parse(stdout.slice(stdout.lastIndexOf('\n[') + 1))[0];
}

/** A new project in `dir` (an ES module package) with the tarball installed, offline. */
export async function installApp(dir, tarball, manifest = {}) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'seqorder-consumer', private: true, type: 'module', ...manifest }, null, 2));
  await sh('npm', ['install', tarball, '--offline', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: dir });
}

/**
 * Compiles `files` ({ name: code }) with tsc (strict, no emit) under `compilerOptions`, in the new folder `dir` inside
 * a project where the package is installed; wrong calls in them must carry @ts-expect-error. `tsc`: the command, as
 * [program, ...arguments] (default: the pinned typescript of tests/package).
 */
export async function typecheck(dir, files, compilerOptions, tsc = [path.join(toolBin, 'tsc')]) {
  writeFiles(dir, {
    ...files,
    'tsconfig.json': JSON.stringify({
      compilerOptions: { strict: true, noEmit: true, target: 'ES2022', lib: ['ES2022', 'DOM'], types: [], skipLibCheck: false, ...compilerOptions },
      files: Object.keys(files),
    }),
  });
  await sh(tsc[0], [...tsc.slice(1), '-p', path.join(dir, 'tsconfig.json')], { cwd: dir });
}

/**
 * README.md's example (its ```js block), as written, type-checked by `tsc` (typecheck's) under NodeNext and Bundler
 * resolution, in folders named `${name}-…` of `app`, a project where the package is installed.
 */
export async function typecheckReadme(app, name, tsc) {
  const [example] = docSnippets('README.md').filter((b) => b.lang === 'js');
  assert.match(example?.code ?? '', /from 'seqorder'/, 'README.md has a ```js example');
  await typecheck(path.join(app, `${name}-node`), { 'readme.mts': example.code }, { module: 'NodeNext', moduleResolution: 'NodeNext' }, tsc);
  await typecheck(path.join(app, `${name}-bundler`), { 'readme.ts': example.code }, { module: 'ESNext', moduleResolution: 'Bundler' }, tsc);
}

/** Writes `files` ({ relative path: text }) under `dir`. */
export function writeFiles(dir, files) {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
}
