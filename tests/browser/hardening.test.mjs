// The lesson page under hostile or unusual conditions, in Chromium (playwright-core), on the built site
// ($SEQORDER_DIST/site, default dist/site):
//   - its Content-Security-Policy is strict (no unsafe-eval, no unsafe-inline, nothing but 'self') and enforced, and a
//     full load plus interaction violates none of it;
//   - every request of the page and of its workers stays on the origin (a context-wide route aborts and records any
//     other), and every resource the page used is same-origin;
//   - the first screen fetches the main module alone, and the model module comes, once, when the first section that
//     makes models runs;
//   - once its sections have run, it keeps working offline (sliders re-run their experiments with the network gone);
//   - when the browser draws no frames (requestAnimationFrame never calls back and no IntersectionObserver reports, as
//     in a hidden tab), every section still runs when it comes near, and computes its checks;
//   - when the engine has no WebAssembly (JIT disabled), forbidden by the server's CSP, or the .wasm is corrupt or cut
//     short, or the package's JavaScript cannot load, the page shows a visible error instead of a blank or stuck page.
// (page.test.mjs covers, in every engine, the normal load: checks, errors, the exact CSP string, a deleted WebAssembly
// global, a missing or corrupt .wasm and a missing package.)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { frames, launchBrowser, openLessonPage, showEverySection, siteDir } from './helpers/browser.mjs';
import { launchChromium } from './helpers/engines/chromium.mjs';

let session;
let origin;
const contextRequests = [];
const foreign = [];

before(async () => {
  session = await launchBrowser({ viewport: { width: 1000, height: 900 } });
  origin = session.origin;
  // Context-wide: the page's requests and its workers'. Anything off the origin is recorded and aborted.
  session.context.on('request', (request) => contextRequests.push(request.url()));
  await session.context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith('data:') || url.startsWith('blob:') || new URL(url).origin === origin) return route.fallback();
    foreign.push(url);
    return route.abort('blockedbyclient');
  });
  // Every CSP violation of every page of the context, from the first script on.
  await session.context.addInitScript(() => {
    globalThis.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      globalThis.__cspViolations.push(`${e.violatedDirective} blocked ${e.blockedURI || 'inline'} (${e.sourceFile}:${e.lineNumber})`));
  });
  await openLessonPage(session.page, session.server.url);
});

after(async () => {
  await session?.close();
});

/** The directives of a CSP string: { 'default-src': ["'self'"], ... }. */
function parseCsp(text) {
  const directives = {};
  for (const part of text.split(';').map((p) => p.trim()).filter(Boolean)) {
    const [name, ...sources] = part.split(/\s+/);
    directives[name.toLowerCase()] = sources;
  }
  return directives;
}

test('the CSP is strict: nothing but self (plus wasm-unsafe-eval for scripts), no unsafe-eval, no unsafe-inline', async () => {
  const text = await session.page.getAttribute('meta[http-equiv="Content-Security-Policy"]', 'content');
  assert.ok(text, 'the page has no Content-Security-Policy meta');
  const csp = parseCsp(text);
  assert.deepEqual(csp['default-src'], ["'self'"], `default-src: ${text}`);
  for (const [name, sources] of Object.entries(csp)) {
    for (const source of sources) {
      assert.ok(!["'unsafe-eval'", "'unsafe-inline'", "'unsafe-hashes'", "'strict-dynamic'", '*'].includes(source),
        `${name} allows ${source}`);
      assert.ok(!/^(https?:|data:|blob:|ws:|wss:)/.test(source) && !source.includes('*'), `${name} allows ${source}`);
    }
  }
  // scripts: self, and WebAssembly compilation (which the module needs); nothing else
  const scripts = csp['script-src'] ?? csp['default-src'];
  assert.deepEqual([...scripts].sort(), ["'self'", "'wasm-unsafe-eval'"].sort(), `script-src: ${text}`);
  // the page itself keeps to it: no inline script, no inline event handler, no style attribute in the markup
  const inline = await session.page.evaluate(() => ({
    scripts: [...document.scripts].filter((s) => !s.src).length,
    handlers: [...document.querySelectorAll('*')].flatMap((el) => [...el.attributes].filter((a) => /^on/i.test(a.name)).map((a) => `${el.tagName}.${a.name}`)),
  }));
  assert.deepEqual(inline, { scripts: 0, handlers: [] });
});

// Code evaluated through DevTools is exempt from the CSP's eval rule, so the probe is a same-origin script of the page
// (served by a route), which the CSP allows to load and then holds to every rule.
const PROBE = `
  const attempt = (f) => { try { f(); return 'ran'; } catch (error) { return error.name; } };
  document.body.dataset.probeEval = attempt(() => globalThis.eval('1 + 1'));
  document.body.dataset.probeFunction = attempt(() => new Function('return 1')());
  const script = document.createElement('script');
  script.textContent = 'document.body.dataset.probeInline = "ran";';
  document.head.append(script);
  document.body.dataset.probeDone = 'true';
`;

test('the CSP is enforced: eval, new Function and an injected inline script are refused', async () => {
  const page = await session.context.newPage();
  try {
    await page.route('**/csp-probe.js', (route) => route.fulfill({ status: 200, contentType: 'text/javascript', body: PROBE }));
    await page.goto(session.server.url, { waitUntil: 'domcontentloaded' });
    await page.evaluate(() => {
      const probe = document.createElement('script');
      probe.src = '/csp-probe.js';
      document.head.append(probe);
    });
    await page.waitForSelector('body[data-probe-done]');
    await page.waitForTimeout(50);
    const result = await page.evaluate(() => ({ ...document.body.dataset, violations: globalThis.__cspViolations.length }));
    assert.equal(result.probeEval, 'EvalError');
    assert.equal(result.probeFunction, 'EvalError');
    assert.equal(result.probeInline, undefined, 'an injected inline script ran');
    assert.ok(result.violations >= 3, `expected the three violations to be reported, got ${result.violations}`);
  } finally {
    await page.close();
  }
});

test('a full load and interaction violate no CSP rule', async () => {
  const { page } = session;
  const before = await page.inputValue('#sinusoids-start');
  await page.focus('#sinusoids-start');
  await page.keyboard.press('ArrowRight');
  await frames(page);
  assert.notEqual(await page.inputValue('#sinusoids-start'), before, 'the arrow key did not move the slider: no interaction was checked');
  assert.deepEqual(await page.evaluate(() => globalThis.__cspViolations), []);
});

test('every request, the workers\' included, stays on the origin; the module, its .wasm and the worker came from it', async () => {
  assert.deepEqual(foreign, [], 'requests off the origin');
  const resources = await session.page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name));
  for (const url of [...contextRequests, ...resources]) {
    if (url.startsWith('data:') || url.startsWith('blob:')) continue;
    assert.equal(new URL(url).origin, origin, url);
  }
  const paths = contextRequests.map((url) => new URL(url).pathname);
  for (const needed of ['/lib/seqorder.mjs', '/lib/seqorder/seqorder_core.wasm', '/js/worker.mjs']) {
    assert.ok(paths.includes(needed), `${needed} was not requested: ${paths.join(', ')}`);
  }
});

test('the model module is fetched once, when the first section that makes models runs: the first screen needs only the main module', async () => {
  const page = await session.context.newPage();
  const asked = [];  // the state of the first section that makes models when the page asks for the model module
  await page.route('**/seqorder_model.wasm', async (route) => {
    asked.push(await page.evaluate(() => document.getElementById('add-position').dataset.state));
    await route.fallback();
  });
  try {
    await page.goto(session.server.url, { waitUntil: 'load' });
    await page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });
    await page.locator('#add-position').scrollIntoViewIfNeeded();
    await page.waitForSelector('#add-position[data-state="done"]', { timeout: 60_000 });
    assert.deepEqual(asked, ['running']);
    const wasm = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname).filter((p) => p.endsWith('.wasm')));
    assert.deepEqual(wasm.sort(), ['/lib/seqorder/seqorder_core.wasm', '/lib/seqorder/seqorder_model.wasm']);
    assert.deepEqual(await page.$$eval('#add-position [data-check]:not([data-status="pass"])', (els) => els.map((el) => el.dataset.check)), []);
  } finally {
    await page.close();
  }
});

test('once its sections have run, the page keeps working offline: sliders re-run their experiments without the network', async () => {
  const { page, context } = session;
  const failed = [];
  const onFailed = (request) => failed.push(`${request.url()} (${request.failure()?.errorText})`);
  context.on('requestfailed', onFailed);
  await context.setOffline(true);
  try {
    for (const id of ['#sinusoids-width', '#sinusoids-length', '#sinusoids-start']) {
      const value = await page.inputValue(id);
      await page.focus(id);
      await page.keyboard.press('ArrowLeft');
      await frames(page);
      assert.notEqual(await page.inputValue(id), value, `${id} did not move`);
    }
    // let any worker round trip finish, then every check must still pass
    await page.waitForTimeout(500);
    await frames(page);
    const failing = await page.$$eval('[data-check]:not([data-status="pass"])', (els) => els.map((el) => el.dataset.check));
    assert.deepEqual(failing, []);
    assert.deepEqual(failed, [], 'requests attempted while offline');
  } finally {
    await context.setOffline(false);
    context.off('requestfailed', onFailed);
  }
});

test('a browser that draws no frames (no animation frame, no intersection reported): every section runs and its checks pass', async () => {
  const page = await session.context.newPage();
  try {
    // as in a hidden tab, or a headless browser that has stopped drawing: animation frame callbacks are taken and
    // never run, and intersection observers, whose reports come at a frame, report nothing
    await page.addInitScript(() => {
      globalThis.requestAnimationFrame = () => 1;
      globalThis.cancelAnimationFrame = () => {};
      globalThis.IntersectionObserver = class { observe() {} unobserve() {} disconnect() {} takeRecords() { return []; } };
    });
    await page.goto(session.server.url, { waitUntil: 'load' });
    await page.waitForSelector('body[data-ready]', { timeout: 60_000 });
    assert.equal(await page.getAttribute('body', 'data-ready'), 'true', await page.textContent('#status'));
    await showEverySection(page);
    const states = await page.$$eval('main > section[data-state]', (els) => els.map((s) => `${s.id}: ${s.dataset.state}`));
    assert.deepEqual(states.filter((s) => !s.endsWith(': done')), [], 'sections that did not run');
    const checks = await page.$$eval('[data-check]', (els) => els.map((el) => ({ name: el.dataset.check, status: el.dataset.status })));
    assert.ok(checks.length >= 60, `expected the page's checks, found ${checks.length}`);
    assert.deepEqual(checks.filter((c) => c.status !== 'pass' && !c.name.startsWith('lab-')).map((c) => c.name), [],
      'checks that do not pass (the lab aside: it starts when its section is in view)');
  } finally {
    await page.close();
  }
});

/** Opens the page in a new page of `context` after `setup(page)`; returns the status once body[data-ready] is set. */
async function loadExpectingError(context, url, setup = async () => {}) {
  const page = await context.newPage();
  const pageErrors = [];
  page.on('pageerror', (error) => pageErrors.push(String(error)));
  try {
    await setup(page);
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForSelector('body[data-ready]', { timeout: 30_000 });
    const status = page.locator('#status');
    return {
      ready: await page.getAttribute('body', 'data-ready'),
      kind: await status.getAttribute('data-kind'),
      text: (await status.textContent()).replace(/\s+/g, ' ').trim(),
      visible: await status.isVisible(),
      pageErrors,
    };
  } finally {
    await page.close();
  }
}

function assertShowsError(result, pattern) {
  assert.equal(result.ready, 'error', `data-ready is ${result.ready}; status: ${result.text}`);
  assert.equal(result.kind, 'error');
  assert.ok(result.visible, 'the status is not visible');
  assert.match(result.text, pattern);
  assert.deepEqual(result.pageErrors, [], 'uncaught errors');
}

// A browser without WebAssembly for real: V8 without its JIT (--jitless, as under a no-JIT security policy) has none.
test('WebAssembly unavailable in the engine (JIT disabled, --js-flags=--jitless): a visible message', async () => {
  const jitless = await launchChromium({ args: ['--js-flags=--jitless'] });
  try {
    assert.equal(await jitless.page.evaluate(() => typeof WebAssembly), 'undefined', '--jitless did not take WebAssembly away');
    assertShowsError(await loadExpectingError(jitless.context, session.server.url), /no WebAssembly/);
  } finally {
    await jitless.close();
  }
});

test('a server CSP that forbids WebAssembly compilation: a visible message, not a stuck page', async () => {
  const result = await loadExpectingError(session.context, session.server.url, (page) =>
    page.route(/\/(index\.html)?$/, async (route) => {
      const response = await route.fetch();
      await route.fulfill({ response, headers: { ...response.headers(), 'content-security-policy': "default-src 'self'; script-src 'self'" } });
    }));
  assertShowsError(result, /could not be loaded/);
});

test('a corrupt or truncated .wasm: a visible message naming the failure', async () => {
  const wasm = readFileSync(path.join(siteDir, 'lib', 'seqorder', 'seqorder_core.wasm'));
  const bodies = { corrupt: Buffer.from('this is not WebAssembly'), truncated: wasm.subarray(0, Math.floor(wasm.length / 2)) };
  for (const [name, body] of Object.entries(bodies)) {
    const result = await loadExpectingError(session.context, session.server.url, (page) =>
      page.route('**/*.wasm', (route) => route.fulfill({ status: 200, contentType: 'application/wasm', body })));
    assertShowsError(result, /could not be loaded/);
    assert.ok(result.text.length > 60, `${name}: the message says too little: ${result.text}`);
  }
});

test('the package\'s JavaScript cannot load (lib/ missing from the site): a visible message, not "Loading…" forever', async () => {
  const result = await loadExpectingError(session.context, session.server.url, (page) =>
    page.route('**/lib/seqorder.mjs', (route) => route.fulfill({ status: 404, contentType: 'text/plain', body: 'not found' })));
  assertShowsError(result, /could not be loaded/);
});

// A pool worker of the lab that stops mid-run, with an uncaught error or by closing itself (which no event reports):
// the pool learns of it (protocol.mjs: an error event, or the Web Lock the worker held), rejects what the worker had,
// the run fails visibly, and no promise is left rejected without a handler (launchBrowser's close() checks that too).
test('a pool worker that throws or closes itself mid-run: the run fails visibly, with no unhandled rejection', { timeout: 180_000 }, async () => {
  for (const [how, stop] of [['throws', "throw new Error('a worker failing on purpose')"], ['closes itself', 'close()']]) {
    const page = await session.context.newPage();
    const before = session.rejections.length;
    try {
      // the packaged worker, stopping once its third model call has come
      await page.route('**/lib/pool/seqorder/pool-worker.mjs', async (route) => {
        const response = await route.fetch();
        const body = `${await response.text()}\nlet seqorderTestCalls = 0;\naddEventListener('message', (event) => {\n` +
          `  if (event.data?.op === 'modelCall' && ++seqorderTestCalls === 3) setTimeout(() => { ${stop}; }, 0);\n});\n`;
        await route.fulfill({ response, body });
      });
      await page.goto(session.server.url, { waitUntil: 'load' });
      await page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });
      await showEverySection(page);
      await page.locator('#lab').scrollIntoViewIfNeeded();
      const body = await page.waitForSelector('#lab .section-body:is([data-training="done"], [data-training="error"])', { timeout: 90_000 });
      assert.equal(await body.getAttribute('data-training'), 'error', `${how}: ${await page.textContent('#lab .lab-status')}`);
      const status = await page.textContent('#lab .lab-status');
      assert.match(status, how === 'throws' ? /^The run failed: seqorder pool: worker \d+ stopped: an uncaught error: .*a worker failing on purpose/
        : /^The run failed: seqorder pool: worker \d+ stopped: it stopped without an error event \(it closed itself, or the browser ended it\)/, how);
      await frames(page);
      assert.deepEqual(session.rejections.slice(before), [], `${how}: unhandled rejections`);
    } finally {
      await page.close();
    }
  }
});
