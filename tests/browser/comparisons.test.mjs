// The comparisons aside in a real browser: its checks are all on the page and pass, the reader can trigger (and see)
// the learned table's error from the keyboard, and re-running or switching an experiment keeps every check passing.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { click, openLesson, unfold } from './helpers/browser.mjs';

const CHECKS = [
  'cmp-none-content-only', 'cmp-rope-relative', 'cmp-added-not-relative', 'cmp-learned-absolute', 'cmp-not-extra-heads',
  'cmp-learned-lookup', 'cmp-learned-past-end', 'cmp-sinusoid-anywhere', 'cmp-learned-extend-append', 'cmp-learned-extend-stretch',
  'cmp-float32-seqorder', 'cmp-float32-angles-drift', 'cmp-layouts-permuted', 'cmp-layouts-t2t-differs', 'cmp-shift-rotation',
];

let session;
let page;
let errors;

before(async () => {
  session = await openLesson({ lab: false });  // this file looks at its own sections only
  ({ page, errors } = session);
  await unfold(page);  // the previews and the aside's figures, folded at load
});

after(async () => {
  await session?.close();
});

async function comparisonChecks() {
  return page.$$eval('#comparisons [data-check]', (els) =>
    els.map((el) => ({ name: el.dataset.check, status: el.dataset.status, text: el.textContent.replace(/\s+/g, ' ').trim() })));
}

async function assertAllPass() {
  const checks = await comparisonChecks();
  const failing = checks.filter((c) => c.status !== 'pass');
  assert.deepEqual(failing, [], failing.map((c) => `${c.name}: ${c.text}`).join('\n'));
  return checks;
}

test('every check of the comparisons aside is on the page and passes', async () => {
  const checks = await assertAllPass();
  const names = checks.map((c) => c.name);
  for (const name of CHECKS) assert.ok(names.includes(name), `missing check ${name}; present: ${names.join(', ')}`);
  assert.equal(await page.getAttribute('#comparisons', 'data-state'), 'done');
});

test('the reader can ask the learned table past its last row (keyboard only) and sees the error', async () => {
  await page.focus('#cmp-learned-start');
  await page.fill('#cmp-learned-start', '1');
  await page.keyboard.press('Enter');
  let answer = await page.textContent('#cmp-learned-answer');
  assert.match(answer, /rows copied out of the table/);
  assert.doesNotMatch(answer, /RangeError/);
  await page.fill('#cmp-learned-start', '7');
  await page.keyboard.press('Tab'); // to "how many"
  await page.keyboard.press('Tab'); // to the button
  // (Enter in the first position's field looks up too: the button must be the one that has the focus)
  assert.deepEqual(await page.evaluate(() => [document.activeElement?.id, document.hasFocus()]), ['cmp-learned-go', true],
    'two Tabs from the first position did not reach the button "Look up"');
  await page.keyboard.press('Enter');
  const error = await page.textContent('#cmp-learned-answer [data-kind="learned-error"]');
  assert.match(error, /RangeError: start \+ length must be at most the table's rows P = 8, got rows 7\.\.9/);
  answer = await page.textContent('#cmp-learned-answer');
  assert.match(answer, /sinusoids: computed from the formula/);
});

test('new q and k, and another start for the error maps, keep every check passing', async () => {
  const before = await page.textContent('[data-check="cmp-rope-relative"] .check-details');
  await click(page, '#cmp-rope-reroll');
  const after = await page.textContent('[data-check="cmp-rope-relative"] .check-details');
  assert.notEqual(after, before, 'the rotary checks did not run again');
  await page.selectOption('#cmp-precision-start', '0');
  await assertAllPass();
  assert.deepEqual(errors, [], errors.join('\n'));
});
