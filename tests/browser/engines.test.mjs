// The driver interface itself (tests/browser/helpers/engines), in every engine: what the other cross-engine tests rely on to
// be able to fail. Errors in the page are recorded (console.error, an uncaught error, an unhandled rejection, a failed
// load), an exception in evaluate rejects with its message, a waitFor poll cut short by a navigation is polled again,
// the page has keyboard focus (document.hasFocus(), focus events, Tab moves it, Shift+Tab moves it back) and keys reach
// the focused element, a click and the pointer reach their element, and the viewport takes the size asked (the page
// keeping the keyboard focus).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eachEngine } from './helpers/each-engine.mjs';
import { UNHANDLED_KEY } from './helpers/site.mjs';

const PAGE = `<!doctype html><title>driver</title><link rel="icon" href="/favicon.svg">
<input id="field"><button id="button" style="width: 100px; height: 40px">press</button>
<div id="target" style="width: 200px; height: 100px"></div>`;

eachEngine({ viewport: { width: 800, height: 600 }, answers: { '/__driver/index.html': { type: 'html', body: PAGE } } }, (s) => {
  test(`${s.engine}: a page's errors are recorded, and a navigation starts afresh`, async () => {
    await s.browser.goto(`${s.site.origin}/__driver/index.html`);
    assert.deepEqual(await s.browser.errors(), []);
    await s.browser.evaluate(() => {
      console.error('an error logged');
      setTimeout(() => { throw new Error('thrown later'); });
      Promise.reject(new Error('never caught'));
    });
    const errors = (await s.browser.waitFor(async () => {
      const recorded = globalThis.__seqorderTestErrors;
      return recorded.length >= 3 && recorded;
    }, null, { timeout: 5000, what: 'three recorded errors' })).join('\n');
    assert.match(errors, /console\.error: an error logged/);
    assert.match(errors, /uncaught: Error: thrown later/);
    assert.match(errors, /unhandled rejection: Error: never caught/);
    await s.browser.goto(`${s.site.origin}/__driver/index.html`);
    assert.deepEqual(await s.browser.errors(), []);
    // the rejection is also kept across the load, for each-engine.mjs's check after each test (taken here: it was meant)
    const kept = await s.browser.evaluate((key) => {
      const list = JSON.parse(sessionStorage.getItem(key) ?? '[]');
      sessionStorage.removeItem(key);
      return list;
    }, UNHANDLED_KEY);
    assert.equal(kept.length, 1, JSON.stringify(kept));
    assert.match(kept[0], /^\/__driver\/index\.html: Error: never caught/);
  });

  test(`${s.engine}: an exception in evaluate rejects with its message; values come back as JSON`, async () => {
    await assert.rejects(s.browser.evaluate(() => { throw new RangeError('from the page'); }), /from the page/);
    assert.deepEqual(await s.browser.evaluate((x) => ({ twice: x.n * 2, list: [x.s, null, true] }), { n: 21, s: 'a' }),
      { twice: 42, list: ['a', null, true] });
    assert.equal(await s.browser.evaluate(async () => new Promise((r) => setTimeout(() => r('later'), 10))), 'later');
  });

  // Puppeteer's Firefox page loses its frame when the page itself navigates; the tests navigate only by goto.
  test(`${s.engine}: a waitFor poll cut short by a navigation counts as one that did not hold`, { skip: s.engine === 'firefox' }, async () => {
    await s.browser.goto(`${s.site.origin}/__driver/index.html`);
    const value = await s.browser.waitFor(() => {
      if (!sessionStorage.getItem('reloaded')) {
        sessionStorage.setItem('reloaded', 'yes');
        location.reload();
        return new Promise(() => {});
      }
      return document.readyState === 'complete' && sessionStorage.getItem('reloaded');
    }, null, { timeout: 10_000, what: 'the reloaded page' });
    assert.equal(value, 'yes');
  });

  // (before any click: right after the driver clicked #button, Shift+Tab from it left the focus there in WebKitGTK
  // until a key without Shift had been pressed)
  test(`${s.engine}: Shift+Tab moves the focus back, with Shift held for the Tab only`, async () => {
    await s.browser.focus('#button');
    await s.browser.evaluate(() => {
      document.querySelector('#field').value = '';
      document.querySelector('#button').addEventListener('keydown', (e) => (globalThis.__key = `${e.shiftKey ? 'Shift+' : ''}${e.code}`));
    });
    await s.browser.press('Shift+Tab');
    assert.deepEqual(await s.browser.evaluate(() => [document.activeElement?.id, globalThis.__key]), ['field', 'Shift+Tab']);
    await s.browser.press('a');
    assert.equal(await s.browser.value('#field'), 'a', 'Shift was still held after Shift+Tab');
    await s.browser.evaluate(() => document.activeElement.blur());
  });

  test(`${s.engine}: the page has keyboard focus: keys reach the focused element, Tab moves the focus; click and pointer reach theirs`, async () => {
    await s.browser.evaluate(() => {
      const log = (globalThis.__log = []);
      for (const id of ['field', 'button']) document.getElementById(id).addEventListener('focus', () => log.push(`focus ${id}`));
      document.querySelector('#field').addEventListener('keydown', (e) => log.push(`key ${e.key}`));
      document.querySelector('#button').addEventListener('click', () => log.push('click'));
      document.querySelector('#target').addEventListener('pointermove', () => log.push('move'), { once: true });
    });
    await s.browser.focus('#field');
    for (const key of ['ArrowDown', 'ArrowRight', 'Escape', 'a', 'Tab']) await s.browser.press(key);
    assert.deepEqual(await s.browser.evaluate(() => [document.activeElement?.id, document.hasFocus()]), ['button', true],
      'Tab did not move the focus to #button, in a document that has it');
    await s.browser.click('#button');
    await s.browser.hover('#target', 0.5, 0.5);
    await s.browser.waitFor(() => globalThis.__log.includes('move'), null, { timeout: 5000, what: 'a pointermove on #target' });
    assert.deepEqual(await s.browser.evaluate(() => globalThis.__log),
      ['focus field', 'key ArrowDown', 'key ArrowRight', 'key Escape', 'key a', 'key Tab', 'focus button', 'click', 'move']);
  });

  test(`${s.engine}: focus() rejects when the element cannot take the focus`, async () => {
    await s.browser.evaluate(() => document.body.insertAdjacentHTML('beforeend', '<div id="plain">not focusable</div>'));
    await assert.rejects(s.browser.focus('#plain'), new RegExp(`${s.engine}: #plain did not take the focus`));
    await assert.rejects(s.browser.focus('#nothing'), /no element matches #nothing/);
  });

  test(`${s.engine}: the viewport takes the size asked, and the page keeps the keyboard focus`, async () => {
    await s.browser.setViewport({ width: 640, height: 480 });
    assert.deepEqual(await s.browser.evaluate(() => [innerWidth, innerHeight]), [640, 480]);
    assert.ok(await s.browser.evaluate(() => document.hasFocus()), 'the resized page lost the keyboard focus');
  });

  test(`${s.engine}: waitFor gives up with a message naming the condition and the engine`, async () => {
    await assert.rejects(s.browser.waitFor(() => false, null, { timeout: 300, what: 'something impossible' }),
      new RegExp(`${s.engine}: something impossible did not hold within 300 ms`));
  });
});
