// The driver interface itself (tests/browser/engines), in every engine: what the other cross-engine tests rely on to
// be able to fail. Errors in the page are recorded (console.error, an uncaught error, an unhandled rejection, a failed
// load), an exception in evaluate rejects with its message, keys reach the focused element, a click and the pointer
// reach their element, and the viewport takes the size asked.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { ENGINES, openBrowser } from './engines/index.mjs';
import { startSite } from './site.mjs';

const PAGE = `<!doctype html><title>driver</title><link rel="icon" href="/favicon.svg">
<input id="field"><button id="button" style="width: 100px; height: 40px">press</button>
<div id="target" style="width: 200px; height: 100px"></div>`;

for (const engine of ENGINES) {
  describe(engine, () => {
    let site;
    let browser;

    before(async () => {
      site = await startSite();
      site.answer('/__driver/index.html', { type: 'html', body: PAGE });
      browser = await openBrowser(engine, { viewport: { width: 800, height: 600 } });
    });

    after(async () => {
      await browser?.close();
      await site?.close();
    });

    test(`${engine}: a page's errors are recorded, and a navigation starts afresh`, async () => {
      await browser.goto(`${site.origin}/__driver/index.html`);
      assert.deepEqual(await browser.errors(), []);
      await browser.evaluate(() => {
        console.error('an error logged');
        setTimeout(() => { throw new Error('thrown later'); });
        Promise.reject(new Error('never caught'));
      });
      const errors = (await browser.waitFor(async () => {
        const recorded = globalThis.__seqorderTestErrors;
        return recorded.length >= 3 && recorded;
      }, null, { timeout: 5000, what: 'three recorded errors' })).join('\n');
      assert.match(errors, /console\.error: an error logged/);
      assert.match(errors, /uncaught: Error: thrown later/);
      assert.match(errors, /unhandled rejection: Error: never caught/);
      await browser.goto(`${site.origin}/__driver/index.html`);
      assert.deepEqual(await browser.errors(), []);
    });

    test(`${engine}: an exception in evaluate rejects with its message; values come back as JSON`, async () => {
      await assert.rejects(browser.evaluate(() => { throw new RangeError('from the page'); }), /from the page/);
      assert.deepEqual(await browser.evaluate((x) => ({ twice: x.n * 2, list: [x.s, null, true] }), { n: 21, s: 'a' }),
        { twice: 42, list: ['a', null, true] });
      assert.equal(await browser.evaluate(async () => new Promise((r) => setTimeout(() => r('later'), 10))), 'later');
    });

    test(`${engine}: keys reach the focused element; click and pointer reach theirs`, async () => {
      await browser.evaluate(() => {
        const log = (globalThis.__log = []);
        document.querySelector('#field').addEventListener('keydown', (e) => log.push(`key ${e.key}`));
        document.querySelector('#button').addEventListener('click', () => log.push('click'));
        document.querySelector('#target').addEventListener('pointermove', () => log.push('move'), { once: true });
      });
      await browser.focus('#field');
      for (const key of ['ArrowDown', 'ArrowRight', 'Escape', 'a']) await browser.press(key);
      await browser.click('#button');
      await browser.hover('#target', 0.5, 0.5);
      await browser.waitFor(() => globalThis.__log.includes('move'), null, { timeout: 5000, what: 'a pointermove on #target' });
      assert.deepEqual(await browser.evaluate(() => globalThis.__log),
        ['key ArrowDown', 'key ArrowRight', 'key Escape', 'key a', 'click', 'move']);
    });

    test(`${engine}: the viewport takes the size asked`, async () => {
      await browser.setViewport({ width: 640, height: 480 });
      assert.deepEqual(await browser.evaluate(() => [innerWidth, innerHeight]), [640, 480]);
    });

    test(`${engine}: waitFor gives up with a message naming the condition and the engine`, async () => {
      await assert.rejects(browser.waitFor(() => false, null, { timeout: 300, what: 'something impossible' }),
        new RegExp(`${engine}: something impossible did not hold within 300 ms`));
    });
  });
}
