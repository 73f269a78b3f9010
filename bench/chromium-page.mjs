// A benchmark module's measurement run in a page of headless Chromium (Debian's, or $CHROMIUM), this repository served
// to it on 127.0.0.1, cross-origin isolated (so that the page's clock is as fine as the browser allows, and a shared
// WebAssembly memory can be made there): the page imports what it measures from the repository's own paths.
// Node only: bench/simd-loads.mjs, bench/chromium-attention.mjs and bench/ab.mjs import it when run in node;
// bench/chromium-attention.mjs and bench/fresh-array.mjs also run theirs in the other test engines (inEnginePage).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from '../scripts/serve.mjs';
import { launchChromium } from '../tests/browser/helpers/engines/chromium.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * This repository served on 127.0.0.1, cross-origin isolated, with an empty page titled `title` at '/', and `mounts`
 * ({ '/prefix/': folder }) beside it.
 */
function emptyPageServer(title, mounts) {
  const page = `<!doctype html><meta charset="utf-8"><title>${title}</title>`;
  return startServer({
    root,
    isolated: true,
    mounts,
    intercept(request, response, pathname) {
      if (pathname !== '/') return false;
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(page);
      return true;
    },
  });
}

/**
 * page.evaluate(run, arg) on an empty page titled `title` (other folders served under `mounts`' paths): { browser
 * ('Chromium <version>'), result }. The page may call `threadSeconds()`: a promise of the CPU time its main thread has
 * spent, in seconds (Chromium's ThreadTime, through the DevTools protocol; each call costs the thread ~1 ms), and
 * `processSeconds()`, its process's (ProcessTime: every thread of the page's renderer, its workers' too).
 */
export async function inChromiumPage(title, run, arg, { mounts } = {}) {
  const server = await emptyPageServer(title, mounts);
  const chromium = await launchChromium();
  try {
    const devtools = await chromium.context.newCDPSession(chromium.page);
    await devtools.send('Performance.enable');
    const metric = async (name) => (await devtools.send('Performance.getMetrics')).metrics.find((m) => m.name === name).value;
    await chromium.page.exposeFunction('threadSeconds', () => metric('ThreadTime'));
    await chromium.page.exposeFunction('processSeconds', () => metric('ProcessTime'));
    await chromium.page.goto(server.url);
    const result = await chromium.page.evaluate(run, arg);
    return { browser: `Chromium ${chromium.context.browser()?.version() ?? ''}`.trim(), result };
  } finally {
    await chromium.close();
    await server.close();
  }
}

/**
 * The same in a page of `engine` ('chromium', 'firefox', 'webkit': tests/browser/helpers/engines), Chromium as inChromiumPage
 * starts it: { browser ('<engine's name> <version>'), result }.
 */
export async function inEnginePage(engine, title, run, arg) {
  if (engine === 'chromium') return inChromiumPage(title, run, arg);
  const { openBrowser } = await import('../tests/browser/helpers/engines/index.mjs');
  const server = await emptyPageServer(title);
  let browser;
  try {
    browser = await openBrowser(engine);
    await browser.goto(server.url);
    return { browser: browser.version, result: await browser.evaluate(run, arg) };
  } finally {
    await browser?.close();
    await server.close();
  }
}
