// Checks and sentences follow their controls, in Chromium (playwright-core). Every slider (at its ends, its middle and
// back), every option of every select and both states of every toggle: after each change every check passes, and
// every check of the changed control's figure was computed at the controls' current values (seqorder/checks stamps
// data-at at each rendering; a check left behind shows a stale stamp), unless it says it is a fixed example. Then the
// sentences that name numbers: robot at t = 0, the table's first row when start ≠ 0, a sentence without a repeated
// word in the four steps.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { click, frames, openLesson, unfold } from './helpers/browser.mjs';

let session;
let page;
let errors;

before(async () => {
  session = await openLesson();
  ({ page, errors } = session);
  await unfold(page);  // the previews and the aside's figures, folded at load
});

after(async () => {
  await session?.close();
});

/**
 * Failing checks, and checks whose stamp is not the current values of their figure's controls (the contract of
 * seqorder/checks: the controls inside the enclosing .fig, then those its data-controls names).
 */
const problems = () => page.evaluate(() => {
  const stampOf = (check) => {
    const group = check.closest('.fig');
    if (!group) return '';
    const extra = (group.dataset.controls ?? '').split(/\s+/).filter(Boolean).map((id) => document.getElementById(id));
    return [...group.querySelectorAll('input, select, button[aria-pressed]'), ...extra]
      .map((c) => `${c.id}=${c.dataset.value ?? c.getAttribute('aria-pressed') ?? (/^(checkbox|radio)$/.test(c.type) ? c.checked : c.value)}`).join(' ');
  };
  const found = [];
  for (const check of document.querySelectorAll('[data-check]')) {
    const name = check.dataset.check;
    if (check.dataset.status !== 'pass') found.push(`${name} fails: ${check.textContent.replace(/\s+/g, ' ')}`);
    if (check.dataset.fixed === 'true') {
      if (stampOf(check) && !check.querySelector('.check-tag')?.textContent) found.push(`${name}: fixed, but not marked so`);
    } else if ((check.dataset.at ?? '') !== stampOf(check)) {
      found.push(`${name} is stale: computed at "${check.dataset.at}", controls now "${stampOf(check)}"`);
    }
  }
  return found;
});

/** Sets a control as a reader would (the events its own code listens to), then waits for the re-render. */
async function set(id, value) {
  await page.evaluate(([id, value]) => {
    const el = document.getElementById(id);
    el.value = String(value);
    el.dispatchEvent(new Event(el.tagName === 'SELECT' ? 'change' : 'input'));
  }, [id, value]);
  await frames(page);
}

test('every state of every control: all checks pass and follow their controls', { timeout: 120_000 }, async () => {
  assert.deepEqual(await problems(), [], 'before any change');
  const controls = await page.$$eval('main input[type="range"], main select, main button[aria-pressed]', (els) => els.map((el) => ({
    id: el.id,
    kind: el.tagName === 'BUTTON' ? 'toggle' : el.tagName === 'SELECT' ? 'select' : 'range',
    value: el.value,
    min: Number(el.min), max: Number(el.max), step: Number(el.step) || 1,
    options: el.tagName === 'SELECT' ? [...el.options].map((o) => o.value) : [],
  })));
  assert.ok(controls.filter((c) => c.kind === 'range').length >= 15, `${controls.length} controls`);
  const found = [];
  for (const c of controls) {
    let states = [];
    if (c.kind === 'range') {
      const middle = c.min + Math.round((c.max - c.min) / 2 / c.step) * c.step;
      states = [c.min, c.max, middle, c.value];
    } else if (c.kind === 'select') states = [...c.options, c.value];
    for (const state of states) {
      await set(c.id, state);
      found.push(...(await problems()).map((p) => `${c.id} = ${state}: ${p}`));
    }
    if (c.kind === 'toggle') {
      for (let i = 0; i < 2; i += 1) {
        await click(page, `#${c.id}`);
        await frames(page);
        found.push(...(await problems()).map((p) => `${c.id} clicked: ${p}`));
      }
    }
  }
  assert.deepEqual(found, []);
});

test('robot at t = 0: one curve for position 0, and the check says same position, same input', async () => {
  await set('add-position-t', 0);
  const legend = await page.$$eval('#add-position .plot-lines .legend-item', (els) => els.slice(0, 3).map((el) => el.textContent));
  assert.equal(legend.filter((l) => l.includes('p₀')).length, 1, `legend: ${legend}`);
  const check = await page.textContent('[data-check="add-position-differs"]');
  assert.match(check, /same position, same input/);
  assert.doesNotMatch(check, /p_3|at 3/);
  await set('add-position-t', 3);
  assert.match(await page.textContent('[data-check="add-position-differs"]'), /robot at 0 vs robot at 3/);
});

test('the table\'s first row is named for the start chosen', async () => {
  const line = () => page.textContent('#sinusoids-table .notice');
  await set('sinusoids-start', 37);
  assert.match(await line(), /top row is position 37, not 0/);
  await set('sinusoids-start', 0);
  assert.match(await line(), /top row is position 0: 0, 1, 0, 1/);
});

test('the four steps: the repeated-word check follows the sentence, and says so when it cannot', async () => {
  const claim = () => page.textContent('[data-check="steps-repeated-word-mask-or-positions"] .check-claim');
  await set('steps-sentence', '1'); // robot follows person: no repeated word
  assert.match(await claim(), /^This sentence repeats no word, so on “the robot follows the person”/);
  assert.equal(await page.getAttribute('[data-check="steps-repeated-word-mask-or-positions"]', 'data-fixed'), 'true');
  await set('steps-sentence', '2'); // a robot sees a box and lifts it
  assert.match(await claim(), /the two “a” rows \(0 and 3\)/);
  await set('steps-sentence', '0');
  assert.match(await claim(), /the two “the” rows \(0 and 3\)/);
  assert.deepEqual(errors, []);
});
