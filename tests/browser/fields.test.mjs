// The page's number fields, in Chromium: each reads what is typed through its setting's declaration (controls.mjs,
// settings.mjs), so a value it does not take is refused beside the field and changes nothing (neither on Enter nor by
// the figure's button): the learned table's "how many" refuses 20000 and 200000 (they once blocked the tab, then
// overflowed its stack), the rotary maps' seed refuses 2000000 (the maps and the checks' stamps stay at the seed they
// were computed at), the lab's seed refuses 2.5 (no run starts). What is typed is taken when the reader commits it
// (Enter, or leaving the field): a half-typed value is never used.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { click, openLesson, unfold, waitInPage } from './helpers/browser.mjs';

let session;
let page;
let errors;

before(async () => {
  session = await openLesson({ lab: false });
  ({ page, errors } = session);
  await unfold(page, '#comparisons');
});

after(async () => {
  await session?.close();
});

/** Types `text` into the field `id` as a reader does (select all, type), and presses Enter unless `enter` is false. */
async function type(id, text, { enter = true } = {}) {
  await page.fill(`#${id}`, '');
  await page.focus(`#${id}`);
  await page.keyboard.type(text);
  if (enter) await page.keyboard.press('Enter');
}

/** The field's refusal as shown: { invalid, text, visible } (text '' and visible false when it takes its value). */
const refusal = (id) => page.evaluate((fieldId) => {
  const field = document.getElementById(fieldId);
  const said = document.getElementById(`${fieldId}-invalid`);
  return { invalid: field.getAttribute('aria-invalid') === 'true', text: said.textContent, visible: said.checkVisibility() };
}, id);

test('the learned table\'s "how many" refuses 20000 and 200000 beside the field; the table stays as it was', async () => {
  // (the formula's table: the learned one shows only while the rows asked for are in the table)
  const rows = () => page.$$eval('#cmp-learned-answer table', (tables) => tables.at(-1).querySelectorAll('tbody tr').length);
  assert.equal(await rows(), 3);
  for (const text of ['20000', '200000', '2.5', '-1', '']) {
    await type('cmp-learned-length', text);
    const said = await refusal('cmp-learned-length');
    assert.equal(said.invalid, true, text);
    assert.ok(said.visible, `${text}: the refusal is not shown`);
    assert.match(said.text, text === '' ? /^Empty: “how many” takes a whole number from 1 to 6; it stays 3\.$/
      : new RegExp(`^${text.replace('.', '\\.')} is refused: “how many” takes a whole number from 1 to 6; it stays 3\\.$`));
    await click(page, '#cmp-learned-go');
    assert.equal(await rows(), 3, `${text}: the table changed`);
  }
  assert.match(await page.evaluate(() => location.hash), /^#?$/, 'a refused value went to the URL');
  await type('cmp-learned-length', '5');
  assert.deepEqual(await refusal('cmp-learned-length'), { invalid: false, text: '', visible: false });
  assert.equal(await rows(), 5);
  assert.equal(await page.evaluate(() => location.hash), '#cmp-learned-length=5');
  // leaving the field commits what it holds, as Enter does
  await type('cmp-learned-length', '4', { enter: false });
  assert.equal(await rows(), 5, 'a value taken before it was committed');
  await page.keyboard.press('Tab');
  assert.equal(await rows(), 4);
  assert.equal(await page.evaluate(() => location.hash), '#cmp-learned-length=4');
});

test('the rotary maps\' seed refuses 2000000: the maps and the checks stay at the seed they were computed at', async () => {
  const drawn = () => page.evaluate(async () => {
    const { drawnIn } = await import('/js/drawn.mjs');
    const { answers } = drawnIn(document.getElementById('comparisons'));
    const check = document.querySelector('[data-check="cmp-rope-relative"]');
    return { maps: JSON.stringify(answers.maps.map((m) => Array.from(m.data.slice(0, 8)))), at: check.dataset.at, stale: check.dataset.stale ?? null };
  });
  const before = await drawn();
  assert.equal(before.at, 'cmp-rope-seed=7');
  await type('cmp-rope-seed', '2000000');
  const said = await refusal('cmp-rope-seed');
  assert.ok(said.invalid && said.visible);
  assert.match(said.text, /^2000000 is refused: “seed of q₀ and k₀” takes a whole number from 0 to 1000000; it stays 7\.$/,
    'a prefix typed on the way (200000) was taken');
  // the checks re-rendered by another control of the figure are stamped with the value they were computed at
  await page.evaluate(async () => {
    const { renderChecks } = await import('/lib/figures/checks.mjs');
    const list = document.querySelector('[data-check="cmp-rope-relative"]').closest('.checks');
    renderChecks(list, [{ name: 'cmp-rope-relative', pass: true, claim: document.querySelector('[data-check="cmp-rope-relative"] .check-claim').textContent }]);
  });
  await new Promise((resolve) => setTimeout(resolve, 600));
  assert.deepEqual(await drawn(), before);
});

test('the lab\'s seed refuses 2.5: Enter starts no run, and the URL keeps the seed it had', async () => {
  // the lab near the screen (its section runs and draws its controls) but not in view (its run would start)
  await page.evaluate(() => {
    const section = document.getElementById('lab');
    window.scrollTo(0, section.getBoundingClientRect().top + scrollY - innerHeight - 1);
  });
  await waitInPage(page, () => document.getElementById('lab').dataset.state === 'done', null, { timeout: 60_000 });
  const phase = () => page.getAttribute('#lab .section-body', 'data-training');
  assert.equal(await phase(), 'idle');
  const hash = await page.evaluate(() => location.hash);
  // typed as a reader types, but by the field's events: focusing it would scroll the lab into view
  await page.evaluate(() => {
    const field = document.getElementById('lab-seed');
    for (const text of ['2', '2.', '2.5']) {
      field.value = text;
      field.dispatchEvent(new Event('input', { bubbles: true }));
    }
    field.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
  });
  const said = await refusal('lab-seed');
  assert.ok(said.invalid && said.visible);
  assert.match(said.text, /^2\.5 is refused: “Seed” takes a whole number from 0 to 1000000000; it stays 1\.$/);
  await new Promise((resolve) => setTimeout(resolve, 500));
  assert.equal(await phase(), 'idle', 'Enter on a refused seed started a run');
  assert.equal(await page.evaluate(() => location.hash), hash);
  await page.evaluate(() => window.scrollTo(0, 0));
  assert.deepEqual(errors, []);
});
