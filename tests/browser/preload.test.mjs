// A reader's first visit in Chromium (a new profile: nothing cached): the lesson page asks for every module its first
// screen runs and for the core .wasm from its <head> (the build's modulepreload links, scripts/preload.mjs), so none
// waits for the module that imports it; each is fetched once (a preload that does not match its later request is
// fetched twice and warned about), and the page is ready with every check of its first screen computed.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { launchBrowser, siteDir } from './helpers/browser.mjs';
import { closure, staticImports } from '../../scripts/preload.mjs';

let session;
after(async () => {
  await session?.close();
});

test('staticImports reads the forms the project writes, and only relative specifiers', () => {
  const source = [
    "import { a } from './a.mjs';",
    "import {\n  b,\n  c,\n} from '../b.mjs';",
    "import './side.mjs';",
    "export { d } from './d.mjs';",
    "export * from './e.mjs';",
    "import * as f from './f.mjs';",
    "import g, { h } from './g.mjs';",
    "import fs from 'node:fs';",
    "const later = import('./dynamic.mjs');",
    "// import { x } from './comment.mjs' (not at a line's start)",
    "const s = 'import y from \\'./string.mjs\\'';",
  ].join('\n');
  assert.deepEqual(staticImports(source), ['./a.mjs', '../b.mjs', './side.mjs', './d.mjs', './e.mjs', './f.mjs', './g.mjs']);
});

test('a first visit: every module and .wasm fetched before ready was asked for by the page\'s <head>, each once, and no preload warning', { timeout: 120_000 }, async () => {
  const html = readFileSync(path.join(siteDir, 'index.html'), 'utf8');
  const preloaded = new Set([...html.matchAll(/<link rel="(?:modulepreload|preload)" href="([^"]+)"[^>]*>/g)].map((m) => `/${m[1]}`));
  const entries = [...html.matchAll(/<link rel="modulepreload" href="([^"]+)"[^>]*>/g)].map((m) => m[1]).slice(0, 4);
  // the build added exactly the closure of the page's own links
  for (const file of closure(siteDir, entries)) assert.ok(preloaded.has(`/${file}`), `${file} is imported by the first screen but not preloaded`);
  session = await launchBrowser({ viewport: { width: 1000, height: 900 } });
  const warnings = [];
  session.page.on('console', (message) => {
    if (/preload/i.test(message.text())) warnings.push(message.text());
  });
  await session.page.goto(`${session.server.url}?first-visit`, { waitUntil: 'load' });
  await session.page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });
  const fetched = await session.page.evaluate(() => {
    const ready = performance.getEntriesByName('seqorder:ready')[0].startTime;
    return performance.getEntriesByType('resource').filter((e) => e.startTime < ready)
      .map((e) => new URL(e.name).pathname).filter((p) => /\.(mjs|wasm)$/.test(p));
  });
  const counts = new Map();
  for (const p of fetched) counts.set(p, (counts.get(p) ?? 0) + 1);
  assert.ok(counts.has('/lib/seqorder/seqorder_core.wasm'), `the core .wasm was not fetched before ready: ${fetched.join(', ')}`);
  assert.deepEqual([...counts].filter(([, n]) => n > 1), [], 'fetched more than once');
  assert.deepEqual(fetched.filter((p) => !preloaded.has(p)), [], 'fetched before ready without a preload link');
  assert.deepEqual(warnings, []);
});
