// The package's figures and checks (seqorder/plot, seqorder/checks, seqorder/figures.css) as a course author gets them:
// from the tarball, in a new project.
//   docs/own-lesson.md: its files, taken from the guide itself, built by Vite and opened in Chromium under the guide's
//     CSP: the check passes and follows the slider, the heatmap reads out by keyboard, dark mode reaches the canvas;
//     and its second guide's page (a tiny GPT: a next-token model trained in the page, generating, saved and loaded
//     again), whose checks state what its run reached;
//   the stylesheet through every bundler: a page whose script imports seqorder/figures.css and draws a check, built by
//     webpack (production), Vite and esbuild (docs/apps.md's command), opened in Chromium: the check is styled (its
//     computed style is figures.css's), which a bundler that dropped the import (webpack's production build did, when
//     package.json's sideEffects did not list the stylesheet) would not give;
//   the figures' errors in Chromium: each wrong option a TypeError or RangeError naming it, the plot unchanged after a
//     failed update, no check rendered from a list with a bad one;
//   tsc --strict (the pinned TypeScript, whose noUncheckedSideEffectImports refuses an import it cannot resolve): the
//     figures' types accept the documented calls and the stylesheet's import, and refuse wrong ones.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { startServer } from '../../scripts/serve.mjs';
import { CHROMIUM_ARGS, checkTools, executablePath, importTool, installApp, pack, root, sh, snippet, toolBin, viteLogger, writeFiles } from './tools.mjs';

const work = mkdtempSync(path.join(tmpdir(), 'seqorder-figures-'));
const app = path.join(work, 'app');
let browser;
let site;  // the guide's page, built by Vite and served: { url, close }

/** The second guide's heading in docs/own-lesson.md: the files before it are the first guide's, those after the second's. */
const SECOND_GUIDE = '## A tiny GPT in the page';

/**
 * The files of one guide of docs/own-lesson.md (`first`: the first guide's, else the second's): each fenced block
 * whose first line is a comment naming a file (`<!-- index.html -->`, `/* lesson.css *\/`, `// lesson.js`), that line
 * removed.
 */
function guideFiles(first) {
  const [one, two] = readFileSync(path.join(root, 'docs', 'own-lesson.md'), 'utf8').split(SECOND_GUIDE);
  assert.ok(two !== undefined, `docs/own-lesson.md has the heading '${SECOND_GUIDE}'`);
  const guide = first ? one : two;
  const files = {};
  for (const [, body] of guide.matchAll(/^```\w+\n([\s\S]*?)^```$/gm)) {
    const name = body.match(/^(?:<!-- ([\w.-]+) -->|\/\* ([\w.-]+) \*\/|\/\/ ([\w.-]+))\n/);
    if (name) files[name[1] ?? name[2] ?? name[3]] = body.slice(name[0].length);
  }
  return files;
}

before(async () => {
  checkTools();
  const packed = await pack(work);
  await installApp(app, path.join(work, packed.filename));
  const lesson = path.join(app, 'lesson');
  const files = guideFiles(true);
  assert.deepEqual(Object.keys(files).sort(), ['index.html', 'lesson.css', 'lesson.js'], 'the guide names its three files');
  const gpt = guideFiles(false);
  assert.deepEqual(Object.keys(gpt).sort(), ['gpt.html', 'gpt.js'], 'the second guide names its two files');
  writeFiles(lesson, { ...files, ...gpt });
  const { build } = await importTool('vite');
  const input = { index: path.join(lesson, 'index.html'), gpt: path.join(lesson, 'gpt.html') };
  await build({ root: lesson, configFile: false, logLevel: 'warn', build: { outDir: path.join(lesson, 'dist'), rollupOptions: { input } } });
  site = await startServer({ root: path.join(lesson, 'dist'), port: 0 });
  browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
}, { timeout: 300_000 });

after(async () => {
  await browser?.close();
  await site?.close();
  rmSync(work, { recursive: true, force: true });
});

/**
 * A page of the guide's site in a new context; problems collects page errors, console errors and failed requests (by
 * URL: the browser's own request for /favicon.ico, which the guide's page does not link, is not the page's).
 */
async function open(url, contextOptions = {}) {
  const context = await browser.newContext(contextOptions);
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) problems.push(`console: ${m.text()}`);
  });
  page.on('response', (r) => { if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`); });
  await page.goto(url, { waitUntil: 'load' });
  return { page, problems, close: () => context.close() };
}

const check = (page) => page.locator('[data-check="norm"]');

/** A page's script that imports the figures' stylesheet and draws one check. */
const STYLED_APP = `import 'seqorder/figures.css';
import { checkList, renderChecks } from 'seqorder/checks';

renderChecks(checkList(document.body, 'Checks'), [{ name: 'styled', pass: true, claim: 'This check is drawn', details: 'by seqorder/checks' }]);
`;

/** The page around it, under the guide's CSP: its script, and its stylesheet when the bundler writes one to link. */
const styledPage = (script, css) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'self'; img-src 'self' data:; script-src 'self' 'wasm-unsafe-eval'">
<title>styled</title><link rel="icon" href="data:,">${css ? `<link rel="stylesheet" href="${css}">` : ''}
<script type="module" src="${script}"></script></head><body></body></html>
`;

/**
 * The styled page built by each bundler, as a user builds it, into a static folder (resolves to it). Each must report
 * no warning (esbuild's, for one, says when it drops an import it was told has no side effects).
 */
const CSS_BUNDLERS = {
  async webpack(dir) {
    writeFiles(dir, { 'src/index.js': STYLED_APP });
    const { default: webpack } = await importTool('webpack');
    // production mode (whose sideEffects optimization dropped the stylesheet), with webpack's own CSS handling
    const stats = await new Promise((resolve, reject) => {
      const compiler = webpack({ mode: 'production', context: dir, experiments: { css: true }, output: { path: path.join(dir, 'dist') } });
      compiler.run((error, result) => compiler.close(() => (error ? reject(error) : resolve(result))));
    });
    const { errors, warnings } = stats.toJson({ all: false, errors: true, warnings: true });
    assert.deepEqual([...errors, ...warnings].map((e) => e.message), [], 'webpack: errors or warnings');
    assert.ok(existsSync(path.join(dir, 'dist', 'main.css')), 'webpack wrote no stylesheet: it dropped the import');
    writeFileSync(path.join(dir, 'dist', 'index.html'), styledPage('main.js', 'main.css'));
  },
  async vite(dir) {
    writeFiles(dir, { 'main.js': STYLED_APP, 'index.html': styledPage('./main.js') });
    const { build } = await importTool('vite');
    const { logger, warnings } = await viteLogger();
    await build({ root: dir, configFile: false, customLogger: logger, build: { outDir: path.join(dir, 'dist') } });
    assert.deepEqual(warnings, [], 'vite build: warnings');
  },
  async esbuild(dir) {
    writeFiles(dir, { 'app.js': STYLED_APP });
    symlinkSync(path.join(app, 'node_modules'), path.join(dir, 'node_modules'));
    const { stderr } = await sh('bash', ['-c', snippet('sh', 'esbuild ')], { cwd: dir, env: { PATH: `${toolBin}:${process.env.PATH}` } });
    assert.doesNotMatch(stderr, /warning/i, 'esbuild: warnings');
    assert.ok(existsSync(path.join(dir, 'dist', 'app.css')), 'esbuild wrote no stylesheet: it dropped the import');
    writeFileSync(path.join(dir, 'dist', 'index.html'), styledPage('app.js', 'app.css'));
  },
};

for (const [name, build] of Object.entries(CSS_BUNDLERS)) {
  test(`seqorder/figures.css survives ${name}: the page it builds shows the check styled (Chromium, computed style)`, { timeout: 180_000 }, async () => {
    const dir = path.join(app, `styled-${name}`);
    await build(dir);
    const server = await startServer({ root: path.join(dir, 'dist'), port: 0 });
    const { page, problems, close } = await open(server.url, { colorScheme: 'light' });
    try {
      await page.waitForSelector('[data-check="styled"]', { timeout: 30_000 });
      const style = await page.locator('[data-check="styled"]').evaluate((element) => {
        const { display, borderLeftWidth, backgroundColor } = getComputedStyle(element);
        return { display, borderLeftWidth, backgroundColor };
      });
      // figures.css: .check { display: flex; border-left-width: 4px }, a passing one on --pass-bg (#e3f5eb, light)
      assert.deepEqual(style, { display: 'flex', borderLeftWidth: '4px', backgroundColor: 'rgb(227, 245, 235)' });
      assert.deepEqual(problems, []);
    } finally {
      await close();
      await server.close();
    }
  });
}

test('docs/own-lesson.md: the page Vite builds from the guide runs under its CSP; its check passes and follows the slider',
  { timeout: 120_000 }, async () => {
    const { page, problems, close } = await open(site.url);
    try {
      await page.waitForSelector('[data-check="norm"][data-status="pass"]', { timeout: 30_000 });
      assert.equal(await check(page).getAttribute('data-at'), 'width=16');
      assert.match(await check(page).textContent(), /✓ pass.*squared norm is D \/ 2 = 8.*over 32 rows: /s);
      // the CSP is the guide's, and nothing in the page needed more (a violation is a console error)
      assert.match(await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content'), /^default-src 'self'; script-src 'self' 'wasm-unsafe-eval'$/);
      // the heatmap is drawn (its canvas holds more than one color)
      const colors = await page.evaluate(() => {
        const canvas = document.querySelector('canvas');
        const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
        const seen = new Set();
        for (let i = 0; i < data.length; i += 4 * 97) seen.add(`${data[i]},${data[i + 1]},${data[i + 2]}`);
        return seen.size;
      });
      assert.ok(colors > 10, `the canvas holds ${colors} colors`);
      // the slider by keyboard: width 18; the check is computed again there
      await page.focus('#width');
      await page.keyboard.press('ArrowRight');
      await page.waitForSelector('[data-check="norm"][data-at="width=18"]');
      assert.equal(await check(page).getAttribute('data-status'), 'pass');
      assert.match(await check(page).textContent(), /D \/ 2 = 9/);
      // the heatmap by keyboard: the first key lands on row 0, column 0, which is sin(0) = 0, announced
      await page.focus('canvas');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowRight');
      // each key's cell is announced once the next frame has drawn the cursor: wait for the second one's
      const spoken = () => page.locator('figure [aria-live]').textContent();
      await page.waitForFunction(() => document.querySelector('figure [aria-live]').textContent === 'position t 0, column 1: 1',
        undefined, { timeout: 5_000 }).catch(() => {});
      assert.equal(await spoken(), 'position t 0, column 1: 1');
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

test('docs/own-lesson.md, a tiny GPT: the page trains its model, writes text, saves and loads it; its checks pass',
  { timeout: 180_000 }, async () => {
    const { page, problems, close } = await open(`${site.url}gpt.html`);
    try {
      await page.waitForSelector('[data-check="saved"]', { timeout: 150_000 });
      const checks = await page.locator('[data-check]').evaluateAll((list) => list.map((c) => [c.dataset.check, c.dataset.status, c.textContent]));
      assert.deepEqual(checks.map(([name, status]) => [name, status]), [['learned', 'pass'], ['words', 'pass'], ['saved', 'pass']], JSON.stringify(checks));
      assert.match(checks[0][2], /After 200 steps the loss on fresh windows is .* nats, below half of chance \(ln \d+ = /);
      assert.match(await page.locator('#sample').textContent(), /^the \w/);
      assert.ok(await page.locator('figure canvas').count() >= 1, 'the loss curve is drawn');
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

test('docs/own-lesson.md: in dark mode the theme reaches the page, the check and the heatmap\'s canvas', { timeout: 60_000 }, async () => {
  const looks = {};
  for (const colorScheme of ['light', 'dark']) {
    const { page, problems, close } = await open(site.url, { colorScheme });
    try {
      await page.waitForSelector('[data-check="norm"][data-status="pass"]', { timeout: 30_000 });
      looks[colorScheme] = await page.evaluate(() => {
        const style = getComputedStyle(document.body);
        // Cells whose value is 0 (sin(0), row 0's even columns) are painted exactly in --heat-mid: count such pixels,
        // and those of the other theme's --heat-mid.
        const canvas = document.querySelector('figure canvas');
        const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
        const count = (hex) => {
          const [r, g, b] = [1, 3, 5].map((k) => parseInt(hex.slice(k, k + 2), 16));
          let n = 0;
          for (let i = 0; i < data.length; i += 4) if (data[i] === r && data[i + 1] === g && data[i + 2] === b) n += 1;
          return n;
        };
        return {
          background: style.backgroundColor, check: getComputedStyle(document.querySelector('.check')).backgroundColor,
          mid: style.getPropertyValue('--heat-mid').trim(), light: count('#f7f7f7'), dark: count('#202329'),
        };
      });
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  }
  assert.equal(looks.light.mid, '#f7f7f7');
  assert.equal(looks.dark.mid, '#202329');
  assert.ok(looks.light.light > 0 && looks.light.dark === 0, `light: ${JSON.stringify(looks.light)}`);
  assert.ok(looks.dark.dark > 0 && looks.dark.light === 0, `dark: ${JSON.stringify(looks.dark)}`);
  assert.notEqual(looks.light.background, looks.dark.background);
  assert.notEqual(looks.light.check, looks.dark.check);
});

test('Chromium: a wrong option is a TypeError or RangeError naming it; a failed update leaves the plot as it was',
  { timeout: 60_000 }, async () => {
    writeFiles(app, { 'blank.html': '<!doctype html><title>figures</title><link rel="icon" href="data:,"><body></body>' });
    const server = await startServer({ root: app, port: 0 });
    const { page, problems, close } = await open(`${server.url}blank.html`);
    try {
      const r = await page.evaluate(async () => {
        const lib = '/node_modules/seqorder/dist/lib/figures';
        const { heatmap, heatmapGrid, linePlot, circlePlot, fmt } = await import(`${lib}/plot/index.mjs`);
        const { checkList, renderChecks, summarize } = await import(`${lib}/checks.mjs`);
        const error = (f) => {
          try {
            f();
            return 'no error';
          } catch (e) {
            return `${e.name}: ${e.message}`;
          }
        };
        const box = document.body.appendChild(document.createElement('div'));
        const map = heatmap(box, { data: [1, 2, 3, 4], rows: 2, cols: 2 });
        const lines = linePlot(box, { series: [{ name: 'a', x: [0, 1], y: [1, 2] }] });
        const list = checkList(box);
        const figures = () => box.querySelectorAll('figure').length;
        const before = figures();
        const errors = {
          container: error(() => heatmap('#box', { data: [1], rows: 1, cols: 1 })),
          options: error(() => linePlot(box, 42)),
          data: error(() => heatmap(box, { data: [1, 2, 3], rows: 2, cols: 2 })),
          rows: error(() => heatmap(box, { data: [], rows: -1, cols: 0 })),
          kind: error(() => heatmap(box, { data: 'abc', rows: 1, cols: 3 })),
          scale: error(() => heatmap(box, { data: [1], rows: 1, cols: 1, scale: 'log' })),
          gridMap: error(() => heatmapGrid(box, { maps: [{ title: 'a', data: [1], rows: 1, cols: 1 }, { title: 'b', data: [1], rows: 1, cols: 2 }] })),
          series: error(() => linePlot(box, { series: [{ name: 'a', x: [0, 1], y: [1] }] })),
          yRange: error(() => linePlot(box, { yRange: [1, 0] })),
          point: error(() => circlePlot(box, { points: [{ name: 'p', x: '1', y: 0 }] })),
          update: error(() => map.update({ rows: 3 })),
          append: error(() => lines.append('a', [2, 3], [4])),
          check: error(() => renderChecks(list, [{ name: 'fine', pass: true }, { name: '' }])),
          summarize: error(() => summarize(42)),
          fmt: error(() => fmt('1')),
          digits: error(() => fmt(1, 0)),
        };
        map.flush();
        return {
          errors, created: figures() - before, rows: map.layout().labels.filter((l) => l.kind === 'row').length,
          series: lines.layout().labels.length > 0, checks: list.querySelectorAll('[data-check]').length,
          format: [fmt(0.000123456, 2), fmt(-2.5), fmt(-Infinity)],
        };
      });
      assert.deepEqual(r.errors, {
        container: 'TypeError: seqorder/plot: the container must be a DOM element, got string',
        options: 'TypeError: seqorder/plot: options must be an object, got number',
        data: 'RangeError: seqorder/plot: data must hold rows × cols = 2 × 2 = 4 values, got 3',
        rows: 'RangeError: seqorder/plot: rows must be an integer ≥ 0, got -1',
        kind: 'TypeError: seqorder/plot: data must be an array or a typed array of numbers, got string',
        scale: "RangeError: seqorder/plot: scale must be 'diverging' or 'sequential', got \"log\"",
        gridMap: 'RangeError: seqorder/plot: maps[1].data must hold rows × cols = 1 × 2 = 2 values, got 1',
        series: 'RangeError: seqorder/plot: series[0] must have as many x as y values, got 2 and 1',
        yRange: 'RangeError: seqorder/plot: yRange must be [from, to] with finite from < to, got [1,0]',
        point: 'TypeError: seqorder/plot: points[0].x must be a number, got string',
        update: 'RangeError: seqorder/plot: data must hold rows × cols = 3 × 2 = 6 values, got 4',
        append: 'RangeError: seqorder/plot: append: as many x as y values, got 2 and 1',
        check: 'TypeError: seqorder/checks: checks[1].name must be a non-empty string',
        summarize: 'TypeError: seqorder/checks: scope must be a document or an element',
        fmt: 'TypeError: seqorder/plot: fmt: x must be a number, got string',
        digits: 'RangeError: seqorder/plot: fmt: digits must be an integer from 1 to 100, got 0',
      });
      assert.equal(r.created, 0, 'a failed call adds no figure');
      assert.equal(r.rows, 2, 'the heatmap still draws its 2 rows after the failed update');
      assert.equal(r.checks, 0, 'no check rendered from a list with a bad one');
      assert.deepEqual(r.format, ['1.2e−4', '−2.5', '−∞']);
      assert.deepEqual(problems, []);
    } finally {
      await close();
      await server.close();
    }
  });

test('tsc --strict: the figures\' types take the documented calls and refuse wrong ones', { timeout: 90_000 }, async () => {
  const dir = path.join(app, 'ts-figures');
  writeFiles(dir, {
    'figures.ts': `import 'seqorder/figures.css';
import { loadSeqorder } from 'seqorder';
import { circlePlot, fmt, heatmap, heatmapGrid, linePlot, type HeatmapOptions, type Plot } from 'seqorder/plot';
import { checkList, renderChecks, summarize, type Check } from 'seqorder/checks';

const so = await loadSeqorder();
const root = document.body;
const table = so.positions(8, 4, { dtype: 'float32' });
const map: Plot<HeatmapOptions> = heatmap(root, { data: table.data, rows: 8, cols: 4, scale: 'diverging', rowName: (r) => String(r) });
map.update({ range: 1, tooltip: (r, c, v) => \`\${r} \${c}: \${fmt(v, 4)}\` });
const grid = heatmapGrid(root, { maps: [{ title: 'a', data: table.data, rows: 8, cols: 4 }], scale: 'sequential', minWidth: '10rem' });
grid.update({ range: 2 });
const losses = linePlot(root, { xLabel: 'step', integerX: true, yRange: [0, 1] });
losses.append('loss', 1, 0.5, { dashed: true });
losses.append('loss', [2, 3], [0.4, 0.3]);
circlePlot(root, { points: [{ name: 'pair 0', x: 1, y: 0, trail: [[1, 0], [0, 1]] }] }).flush();
const checks: Check[] = [{ name: 'norm', pass: true, claim: 'rows have norm 2', details: fmt(2) }];
renderChecks(checkList(root, 'Checks'), checks);
const { passed, failed, pending }: { passed: number; failed: number; pending: string[] } = summarize(document);
console.log(passed, failed, pending.length, map.canvas.width, grid.maps().length);

// @ts-expect-error rows is required
heatmap(root, { data: table.data, cols: 4 });
// @ts-expect-error scale is 'diverging' or 'sequential'
heatmap(root, { data: table.data, rows: 8, cols: 4, scale: 'log' });
// @ts-expect-error data is numbers
heatmap(root, { data: ['a'], rows: 1, cols: 1 });
// @ts-expect-error a series has a name
linePlot(root, { series: [{ x: [0], y: [1] }] });
// @ts-expect-error append's y is a number or numbers
losses.append('loss', 4, '0.2');
// @ts-expect-error the container is an element
circlePlot('#plot');
// @ts-expect-error a check's pass is a boolean
renderChecks(checkList(root), [{ name: 'x', pass: 'yes' }]);
// @ts-expect-error fmt formats numbers
fmt('1');
`,
    'tsconfig.json': JSON.stringify({
      compilerOptions: { strict: true, noEmit: true, target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', lib: ['ES2022', 'DOM'], types: [] },
      files: ['figures.ts'],
    }),
  });
  await sh(path.join(toolBin, 'tsc'), ['-p', path.join(dir, 'tsconfig.json')], { cwd: app });
});
