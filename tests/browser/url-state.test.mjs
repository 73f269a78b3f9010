// The page's settings in the URL's hash (web/js/url-state.mjs), in every engine: a link with settings opens the page
// at those settings, and the copied link reproduces what is drawn; a value the page cannot take, or a key it does not
// know, falls back to the default with a visible note and no error; the reader's changes are written to the hash,
// and Back and Forward restore them; the settings of sections that have not run yet (each runs when it comes near
// the screen) stay in the URL, and reach their sections when they run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eachEngine } from './helpers/each-engine.mjs';
import { showEverySection } from './helpers/sections.mjs';

let loads = 0;

/**
 * Loads the page anew (a query of its own each time, so that a hash alone never makes it a same-page jump) and shows
 * every section.
 */
async function open(s, hash) {
  loads += 1;
  await s.browser.goto(`${s.site.origin}/?load=${loads}${hash}`);
  await s.browser.waitForSelector('body[data-ready]', { timeout: 60_000 });
  assert.equal(await s.browser.attribute('body', 'data-ready'), 'true', await s.browser.text('#status'));
  await showEverySection(s.browser);
}

/**
 * The control values the tests look at, a hash of the numbers the sinusoid table draws (drawn.mjs) and one of its
 * pixels (after two more frames).
 */
const look = async (s) => (await s.browser.frames(), s.browser.evaluate(async () => {
  const canvas = document.querySelector('#sinusoids .plot-heatmap canvas');
  const hash = (bytes) => {
    let h = 2166136261;
    for (let i = 0; i < bytes.length; i += 1) h = Math.imul(h ^ bytes[i], 16777619) >>> 0;
    return h.toString(16);
  };
  const { drawnIn } = await import('/js/drawn.mjs');
  const { table } = drawnIn(document.getElementById('sinusoids'));
  return {
    table: `${table.rows}×${table.cols} ${hash(new Uint8Array(Float64Array.from(table.data).buffer))}`,
    width: document.getElementById('sinusoids-width').value,
    start: document.getElementById('sinusoids-start').value,
    causal: document.getElementById('steps-causal').getAttribute('aria-pressed'),
    sentence: document.getElementById('steps-sentence').value,
    shiftK: document.getElementById('cmp-shift-k').value,
    heatmap: hash(canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data),
  };
}));

/**
 * What of look()'s to compare between two drawings in `engine`: WebKitGTK draws the plot's tick labels a few pixels
 * differently once the page has scrolled (a copied link's page, scrolled through as the first was, once differed from
 * it in the heatmap's pixels only, the numbers drawn the same): there the numbers drawn are compared, elsewhere the
 * pixels too.
 */
const pixels = (engine, seen) => (engine === 'webkit' ? { ...seen, heatmap: undefined } : seen);

const notes = (s) => s.browser.evaluate(() => {
  const box = document.getElementById('link-notes');
  return { visible: !box.hidden && box.checkVisibility(), lines: [...box.querySelectorAll('.link-note')].map((p) => p.textContent) };
});

/**
 * Resolves once the page's hash is `hash` (history updates are synchronous, drawing is not: two frames more). The
 * limit is generous: a click that scrolls section lab into view starts its training run, whose five workers share
 * the machine's cores with the page.
 */
async function hashIs(s, hash) {
  await s.browser.waitFor((h) => location.hash === h, hash, { timeout: 30_000, what: `location.hash === ${hash}` });
  await s.browser.frames();
}

eachEngine({ viewport: { width: 1000, height: 900 } }, (s) => {
  test(`${s.engine}: a link's settings open the page at those settings; the copied link reproduces it`, async () => {
    await open(s, '#sinusoids-width=32&sinusoids-start=100&steps-causal=1&steps-sentence=2&cmp-shift-k=9');
    const seen = await look(s);
    assert.deepEqual({ ...seen, heatmap: undefined, table: undefined },
      { width: '32', start: '100', causal: 'true', sentence: '2', shiftK: '9', heatmap: undefined, table: undefined });
    assert.match(seen.table, /^64×32 /);
    assert.deepEqual(await notes(s), { visible: false, lines: [] });
    const failing = await s.browser.evaluate(() => [...document.querySelectorAll('[data-check][data-status="fail"]')].map((c) => c.dataset.check));
    assert.deepEqual(failing, []);

    // what the page writes to the clipboard, recorded on its way there (reading the clipboard back needs a permission
    // that not every engine's automation grants)
    await s.browser.evaluate(() => {
      const clipboard = navigator.clipboard;
      if (!clipboard?.writeText) return;
      const write = clipboard.writeText.bind(clipboard);
      clipboard.writeText = (text) => { globalThis.copiedLink = text; return write(text); };
    });
    await s.browser.click('#copy-link');
    const link = await s.browser.waitFor(() => {
      const said = document.querySelector('.copy-link-said').textContent;
      const field = document.querySelector('.copy-link-field');
      if (said === 'Link copied.') return globalThis.copiedLink ?? 'copied, but not through navigator.clipboard.writeText';
      return !field.hidden && field.value;
    }, null, { timeout: 5000, what: 'the link copied or shown' });
    const expected = `${s.site.origin}/?load=${loads}#sinusoids-width=32&sinusoids-start=100&steps-causal=1&steps-sentence=2&cmp-shift-k=9`;
    assert.equal(link, expected);
    loads += 1;
    await s.browser.goto(expected.replace(/\?load=\d+/, `?load=${loads}`));
    await s.browser.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });
    await showEverySection(s.browser);
    assert.deepEqual(pixels(s.engine, await look(s)), pixels(s.engine, seen), 'the link did not reproduce the page');
    assert.deepEqual(await s.browser.errors(), []);
  });

  test(`${s.engine}: a value the page cannot take, or an unknown key, falls back to the default with a visible note`, async () => {
    await open(s, '#sinusoids-width=7&steps-causal=maybe&steps-sentence=9&cmp-shift-k=%ZZ&no-such-setting=3');
    const seen = await look(s);
    assert.deepEqual({ width: seen.width, causal: seen.causal, sentence: seen.sentence, shiftK: seen.shiftK },
      { width: '64', causal: 'false', sentence: '0', shiftK: '5' });
    const { visible, lines } = await notes(s);
    assert.ok(visible, 'the notes are not visible');
    const expect = [/sinusoids-width=7, which “width D” does not take \(a whole number from 2 to 256 in steps of 2\): its default, 64/,
      /steps-causal=maybe, which “Causal mask” does not take \(on \(1\) or off \(0\)\)/, /steps-sentence=9.*one of 0, 1, 2/,
      /cmp-shift-k=%ZZ.*a whole number from 1 to 30/, /no-such-setting, which is no setting of this page: it is ignored/];
    for (const re of expect) assert.ok(lines.some((l) => re.test(l)), `no note matches ${re}:\n${lines.join('\n')}`);
    assert.equal(lines.length, expect.length, lines.join('\n'));
    // the URL now says what the page shows
    assert.equal(await s.browser.evaluate(() => location.hash), '');
    assert.deepEqual(await s.browser.errors(), []);
  });

  test(`${s.engine}: a link whose hash cannot be read (a stray %, bytes not UTF-8) opens the page, with a note; so does such a hash set after load`, async () => {
    for (const hash of ['#%=1', '#50%', '#%E0%A4%A']) {
      await open(s, hash);
      const { visible, lines } = await notes(s);
      assert.ok(visible, `${hash}: the notes are not visible`);
      assert.ok(lines.some((l) => /^The link has a part that cannot be read, “.*”.*: it is ignored\.$/.test(l)), `${hash}: ${lines.join('\n')}`);
      assert.equal(await s.browser.evaluate(() => location.hash), '', `${hash}: the URL says what the page shows`);
    }
    await s.browser.evaluate(() => { location.hash = '#sinusoids-width=32&%ZZ=1&four-steps%'; });
    await hashIs(s, '#sinusoids-width=32');
    assert.equal((await look(s)).width, '32');
    assert.equal((await notes(s)).lines.length, 2, (await notes(s)).lines.join('\n'));
    assert.deepEqual(await s.browser.errors(), []);
  });

  test(`${s.engine}: the reader's changes go to the hash; Back and Forward restore them`, async () => {
    await open(s, '');
    await s.browser.click('#four-steps .preview-summary'); // the preview folded at load
    const start = await look(s);
    await s.browser.click('#steps-causal');
    await hashIs(s, '#steps-causal=1');
    await s.browser.focus('#sinusoids-width');
    await s.browser.press('ArrowLeft');
    await s.browser.press('ArrowLeft');
    await hashIs(s, '#sinusoids-width=60&steps-causal=1');
    const changed = await look(s);
    assert.notEqual(changed.table, start.table);
    assert.notEqual(changed.heatmap, start.heatmap);

    await s.browser.evaluate(() => history.back());
    await hashIs(s, '#steps-causal=1');
    const back = await look(s);
    assert.equal(back.width, '64', 'Back did not restore the width (key presses on one slider in a row make one entry)');
    assert.equal(back.causal, 'true');
    assert.deepEqual(pixels(s.engine, back), pixels(s.engine, { ...start, causal: 'true' }), 'Back restored the slider but not the heatmap');
    await s.browser.evaluate(() => history.back());
    await hashIs(s, '');
    assert.equal((await look(s)).causal, 'false');
    await s.browser.evaluate(() => history.forward());
    await hashIs(s, '#steps-causal=1');
    await s.browser.evaluate(() => history.forward());
    await hashIs(s, '#sinusoids-width=60&steps-causal=1');
    assert.deepEqual(pixels(s.engine, await look(s)), pixels(s.engine, changed));
    const failing = await s.browser.evaluate(() => [...document.querySelectorAll('[data-check][data-status="fail"]')].map((c) => c.dataset.check));
    assert.deepEqual(failing, []);
    assert.deepEqual(await s.browser.errors(), []);
  });

  test(`${s.engine}: a link's settings for sections not shown yet stay in the URL as the reader changes others, and reach them when they run`, async () => {
    loads += 1;
    await s.browser.goto(`${s.site.origin}/?load=${loads}#steps-causal=1&cmp-shift-k=9`);
    await s.browser.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });
    // section 2, near the top (shown at load on a tall enough screen): brought into view until it has run
    await s.browser.evaluate(() => document.getElementById('add-position').scrollIntoView());
    await s.browser.waitFor(() => document.getElementById('add-position').dataset.state === 'done', null, { what: 'section add-position run' });
    const states = () => s.browser.evaluate(() => ['four-steps', 'comparisons'].map((id) => document.getElementById(id).dataset.state));
    assert.deepEqual(await states(), ['waiting', 'waiting'], 'the sections far below ran');
    await s.browser.focus('#add-position-t');
    await s.browser.press('ArrowRight');
    await hashIs(s, '#add-position-t=4&steps-causal=1&cmp-shift-k=9');
    await showEverySection(s.browser);
    const seen = await look(s);
    assert.deepEqual([seen.causal, seen.shiftK], ['true', '9']);
    assert.equal(await s.browser.evaluate(() => location.hash), '#add-position-t=4&steps-causal=1&cmp-shift-k=9');
    assert.deepEqual(await s.browser.errors(), []);
  });

  test(`${s.engine}: an in-page link keeps the settings in the URL beside the section it scrolls to`, async () => {
    await open(s, '#steps-causal=1');
    await s.browser.click('#pipeline a[href="#four-steps"]');
    await s.browser.waitFor(() => location.hash.startsWith('#four-steps'), null, { timeout: 5000, what: 'the in-page link followed' });
    await hashIs(s, '#four-steps&steps-causal=1');
    assert.equal((await look(s)).causal, 'true');
  });
});
