// Saves a screenshot of the lesson page for the README: serves $SEQORDER_DIST/site (default dist/site) on 127.0.0.1,
// opens it in Chromium (playwright-core, /usr/bin/chromium or $CHROMIUM), shows every section (the page runs each when
// it comes near the screen; the training run does not start) until each has run, and writes a PNG.
//   node scripts/screenshot.mjs [out.png] [--top | --full | --section=id | --lab] [--width=N] [--height=N] [--dark]
// Default: docs/screenshot.png, the sinusoid table's figure (sliders, heatmap with a readout, its checks) in a 1100×1500
// viewport. --top captures the viewport at the top of the page, --full the whole page, --section=id one section;
// --dark emulates prefers-color-scheme: dark. --lab: the bench page (lab.html) once its first run has finished, in a
// 1440×1000 viewport, written to docs/lab-screenshot.png by default.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer } from './serve.mjs';
import { showEverySection } from '../tests/browser/helpers/sections.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const flag = (name) => args.find((a) => a === `--${name}` || a.startsWith(`--${name}=`));
const value = (name, fallback) => (flag(name)?.includes('=') ? flag(name).split('=')[1] : fallback);
const lab = Boolean(flag('lab'));
const out = path.resolve(args.find((a) => !a.startsWith('--')) ?? path.join(root, 'docs', lab ? 'lab-screenshot.png' : 'screenshot.png'));
const siteDir = path.resolve(root, process.env.SEQORDER_DIST ?? 'dist', 'site');

const server = await startServer({ root: siteDir, port: 0 });
const userDataDir = mkdtempSync(path.join(tmpdir(), 'seqorder-shot-'));
let context;
try {
  context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport: { width: Number(value('width', lab ? 1440 : 1100)), height: Number(value('height', lab ? 1000 : 1500)) },
    deviceScaleFactor: 1,
    colorScheme: flag('dark') ? 'dark' : 'light',
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.on('pageerror', (error) => console.error(`page error: ${error}`));
  await page.goto(lab ? new URL('lab.html', server.url).href : server.url, { waitUntil: 'load' });
  await page.waitForSelector('body[data-ready]', { timeout: 60_000 });
  if (lab) await page.waitForSelector('#lab .section-body[data-training="done"]', { timeout: 180_000 });
  else await showEverySection(page);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  mkdirSync(path.dirname(out), { recursive: true });
  const section = value('section', null);
  if (section) await page.locator(`#${section}`).screenshot({ path: out });
  else if (lab) await page.screenshot({ path: out });
  else if (flag('full') || flag('top')) await page.screenshot({ path: out, fullPage: Boolean(flag('full')) });
  else {
    // The README's picture: the sinusoid table's figure (sliders, heatmap with a cell's readout, its notice and
    // checks) under the section's title.
    const canvas = page.locator('#sinusoids-table .plot-heatmap canvas');
    await canvas.scrollIntoViewIfNeeded();
    const box = await canvas.boundingBox();
    await page.mouse.move(box.x + box.width * 0.22, box.y + box.height * 0.3);
    await page.waitForSelector('#sinusoids-table .plot-tooltip:not([hidden])');
    const clip = await page.evaluate(() => {
      const section = document.getElementById('sinusoids').getBoundingClientRect();
      const figure = document.getElementById('sinusoids-table').getBoundingClientRect();
      return { x: section.left - 16, y: figure.top - 24, width: section.width + 32, height: figure.bottom - figure.top + 48 };
    });
    await page.screenshot({ path: out, clip });
  }
  // the training lab's checks stay pending: showEverySection leaves its section unshown (it would start training)
  const count = (status) => page.evaluate((s) => document.querySelectorAll(`[data-check][data-status="${s}"]`).length, status);
  const [passed, failed, pending] = [await count('pass'), await count('fail'), await count('pending')];
  console.log(`wrote ${path.relative(process.cwd(), out)} (checks: ${passed} pass, ${failed} fail, ${pending} pending)`);
} finally {
  await context?.close();
  await server.close();
  rmSync(userDataDir, { recursive: true, force: true });
}
