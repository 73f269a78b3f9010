// Shared setup of the browser tests (tests/browser/*.test.mjs): the built site ($SEQORDER_DIST/site, default
// dist/site) served on 127.0.0.1, and Debian's Chromium (or $CHROMIUM) driven by playwright-core, headless and quiet on
// a closed network. Not a test file itself (no .test.mjs), so `node --test tests/browser/` does not run it.
//   const session = await launchBrowser({ viewport: { width: 1000, height: 900 } });
//   session.page.on(...);  await openLessonPage(session.page, session.server.url);  …  await session.close();
//   const { page, errors } = await openLesson();  // the same, with the page's errors collected
// Both wait for the section "train" to finish its default run (it starts when the section comes into view), so that
// every check on the page has its verdict; `{ train: false }` leaves it pending, for tests of other sections.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer } from '../../scripts/serve.mjs';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const siteDir = path.resolve(root, process.env.SEQORDER_DIST ?? 'dist', 'site');
export const executablePath = process.env.CHROMIUM ?? '/usr/bin/chromium';

/** Flags for a quiet headless Chromium on a closed network (docs/emscripten.md, "Headless Chromium on a closed network"). */
export const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

/**
 * Serves the built site and starts Chromium with a fresh profile. `requires` is a file the test needs in the site
 * (checked first, with a hint to build); `viewport` is passed on (playwright's default when omitted).
 * Resolves to { server, origin, context, page, close() }; close() stops the browser and server and removes the profile.
 */
export async function launchBrowser({ viewport, requires = 'index.html' } = {}) {
  assert.ok(existsSync(path.join(siteDir, requires)), `no ${requires} in ${siteDir}: run npm run build first`);
  assert.ok(existsSync(executablePath), `no Chromium at ${executablePath} (apt-get install chromium, or set $CHROMIUM)`);
  const server = await startServer({ root: siteDir, port: 0 });
  const userDataDir = mkdtempSync(path.join(tmpdir(), 'seqorder-chromium-'));
  let context;
  try {
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath, headless: true, args: CHROMIUM_ARGS, ...(viewport ? { viewport } : {}),
    });
  } catch (error) {
    await server.close();
    rmSync(userDataDir, { recursive: true, force: true });
    throw error;
  }
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    server,
    origin: new URL(server.url).origin,
    context,
    page,
    async close() {
      await context.close();
      await server.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Loads the lesson page and waits until every section has run (<body data-ready>), then (unless `train` is false)
 * until the section "train" has finished its default run.
 */
export async function openLessonPage(page, url, { train = true } = {}) {
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForSelector('body[data-ready]', { timeout: 60_000 });
  if (train && (await page.getAttribute('body', 'data-ready')) === 'true') await finishTraining(page);
}

/**
 * Brings the section "train" into view, which starts its default run (if no run has started), waits until the run
 * has ended (data-training: done, stopped or error), and scrolls back to the top. Resolves to how it ended.
 */
export async function finishTraining(page, { timeout = 120_000 } = {}) {
  await page.locator('#train').scrollIntoViewIfNeeded();
  const body = await page.waitForSelector('#train .section-body:is([data-training="done"], [data-training="stopped"], [data-training="error"])', { timeout });
  await page.evaluate(() => window.scrollTo(0, 0));
  return body.getAttribute('data-training');
}

/**
 * launchBrowser, then the lesson page loaded and run (openLessonPage, `train` passed on), its console and uncaught
 * errors collected from the start: resolves to the session plus `errors` (the array collectErrors fills).
 */
export async function openLesson({ viewport = { width: 1000, height: 900 }, train = true } = {}) {
  const session = await launchBrowser({ viewport });
  session.errors = collectErrors(session.page);
  await openLessonPage(session.page, session.server.url, { train });
  return session;
}

/** The page's console errors and uncaught errors (with their stacks), collected into the returned array as they come. */
export function collectErrors(page) {
  const errors = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(String(error?.stack ?? error)));
  return errors;
}

/** Resolves after two animation frames: plots and controls re-render in the next frame. */
export const frames = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
