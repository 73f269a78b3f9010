// Shared setup of the browser tests that run in Chromium only (their playwright-core page is the interface: request
// interception, contexts, flags): the built site ($SEQORDER_DIST/site, default dist/site) served on 127.0.0.1, and
// Debian's Chromium (or $CHROMIUM) started by tests/browser/helpers/engines/chromium.mjs. The tests of every engine use
// ./engines/index.mjs and ./site.mjs instead. Not a test file itself (no .test.mjs), so `node --test` skips it.
//   const session = await launchBrowser({ viewport: { width: 1000, height: 900 } });
//   session.page.on(...);  await openLessonPage(session.page, session.server.url);  …  await session.close();
//   const { page, errors } = await openLesson();  // the same, with the page's errors collected
// Both show every section (./sections.mjs: the page runs a section when it comes near the screen) and wait for the
// section "lab" to finish its default run (it starts when the section comes into view), so that every check on the
// page has its verdict; `{ lab: false }` leaves that run pending, for tests of other sections.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { startServer } from '../../../scripts/serve.mjs';
import { launchChromium } from './engines/chromium.mjs';
import { clickable, twoFrames } from './engines/driver.mjs';
import { showEverySection } from './sections.mjs';
import { siteDir } from './site.mjs';

export { root, siteDir } from './site.mjs';
export { showEverySection } from './sections.mjs';

/**
 * Serves the built site and starts Chromium with a fresh profile. `requires` is a file the test needs in the site
 * (checked first, with a hint to build); `viewport` is passed on (playwright's default when omitted).
 * Resolves to { server, origin, context, page, rejections, close() }; close() stops the browser and server, removes
 * the profile, and fails when a page of the context left an unhandled promise rejection (`rejections` lists them).
 */
export async function launchBrowser({ viewport, requires = 'index.html' } = {}) {
  assert.ok(existsSync(path.join(siteDir, requires)), `no ${requires} in ${siteDir}: run npm run build first`);
  const server = await startServer({ root: siteDir, port: 0 });
  let chromium;
  try {
    chromium = await launchChromium({ viewport });
  } catch (error) {
    await server.close();
    throw error;
  }
  // Every unhandled promise rejection of the context's pages, from their first script on: close() fails on one.
  const rejections = [];
  await chromium.context.exposeBinding('__seqorderUnhandledRejection', (source, text) => rejections.push(`${source.page?.url()}: ${text}`));
  await chromium.context.addInitScript(() => addEventListener('unhandledrejection', (event) =>
    globalThis.__seqorderUnhandledRejection?.(String(event.reason?.stack ?? event.reason).slice(0, 500))));
  return {
    server,
    origin: new URL(server.url).origin,
    context: chromium.context,
    page: chromium.page,
    rejections,
    async close() {
      await chromium.close();
      await server.close();
      assert.deepEqual(rejections, [], 'unhandled promise rejections in the page');
    },
  };
}

/**
 * Loads the lesson page and waits until its first screen has run (<body data-ready>), then shows every other section
 * until each has run and what they started has loaded (no request of the page or its workers for 1.5 s: section
 * lab's pool starts its workers when the section runs), then (unless `lab` is false) waits until the section
 * "lab" has finished its default run.
 */
export async function openLessonPage(page, url, { lab = true } = {}) {
  const requests = trackRequests(page.context());
  try {
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForSelector('body[data-ready]', { timeout: 60_000 });
    if ((await page.getAttribute('body', 'data-ready')) !== 'true') return;
    await showEverySection(page);
    await requests.quiet(1500);
  } finally {
    requests.stop();
  }
  if (lab) await finishLab(page);
}

/**
 * Counts the requests of a playwright context (its pages' and their workers') in flight: quiet(ms) resolves once none
 * has been for `ms` milliseconds (rejects after `timeout`); stop() stops counting.
 */
function trackRequests(context) {
  let inFlight = 0;
  let since = Date.now();
  const started = () => { inFlight += 1; since = Date.now(); };
  const ended = () => { inFlight -= 1; since = Date.now(); };
  context.on('request', started);
  context.on('requestfinished', ended);
  context.on('requestfailed', ended);
  return {
    async quiet(ms, { timeout = 60_000 } = {}) {
      const end = Date.now() + timeout;
      while (inFlight > 0 || Date.now() - since < ms) {
        if (Date.now() > end) throw new Error(`requests still in flight after ${timeout} ms: ${inFlight}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    stop() {
      context.off('request', started);
      context.off('requestfinished', ended);
      context.off('requestfailed', ended);
    },
  };
}

/**
 * Brings the section "lab" into view, which starts its default run (if no run has started), waits until the run
 * has ended (data-training: done, stopped or error), and scrolls back to the top. Resolves to how it ended.
 */
export async function finishLab(page, { timeout = 120_000 } = {}) {
  await page.locator('#lab').scrollIntoViewIfNeeded();
  const body = await page.waitForSelector('#lab .section-body:is([data-training="done"], [data-training="stopped"], [data-training="error"])', { timeout });
  await page.evaluate(() => window.scrollTo(0, 0));
  return body.getAttribute('data-training');
}

/**
 * launchBrowser, then the lesson page loaded and run (openLessonPage, `lab` passed on), its console and uncaught
 * errors collected from the start: resolves to the session plus `errors` (the array collectErrors fills).
 */
export async function openLesson({ viewport = { width: 1000, height: 900 }, lab = true } = {}) {
  const session = await launchBrowser({ viewport });
  session.errors = collectErrors(session.page);
  try {
    await openLessonPage(session.page, session.server.url, { lab });
  } catch (error) {
    await session.close().catch(() => {});  // (else the browser keeps the test's process alive until its timeout)
    throw error;
  }
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

/**
 * Opens every folded part under `selector` (the <details> of the previews, the aside's figures, the checks' numbers),
 * as a reader does who opens them, and waits for the plots to redraw at their new size.
 */
export async function unfold(page, selector = 'main') {
  await page.evaluate((s) => { for (const d of document.querySelectorAll(`${s} details`)) d.open = true; }, selector);
  await frames(page);
}

/** Resolves after two animation frames: plots and controls re-render in the next frame. */
export const frames = (page) => twoFrames((f) => page.evaluate(f));

/**
 * Resolves to fn(arg)'s first truthy value in the page, polled every 50 ms by timers: playwright's waitForFunction polls
 * once an animation frame by default, and headless Chromium on a busy machine has at times stopped drawing.
 */
export function waitInPage(page, fn, arg, { timeout = 30_000 } = {}) {
  return page.waitForFunction(fn, arg, { polling: 50, timeout });
}

/**
 * Clicks the element once it is shown and not disabled (waitInPage), without playwright's own wait for a stable
 * element, which counts animation frames.
 */
export async function click(page, selector) {
  await waitInPage(page, clickable, selector);
  await page.click(selector, { force: true });
}
