// The sections on attention and order in a real browser (Debian's Chromium via playwright-core): their checks are all
// on the page and pass, the causal toggle works from the keyboard and masks the scaled scores, hovering reads values,
// and the reordering select and incremental sliders re-run the experiments with every check still passing.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { frames as nextFrames, openLesson, unfold } from './helpers/browser.mjs';

const SECTIONS = ['order-experiments', 'four-steps', 'incremental'];
const CHECKS = [
  'order-equivariant', 'order-not-invariant', 'order-positions-break-equivariance', 'order-pairs-equivariant',
  'order-relabel-vs-pairs', 'order-causal-not-equivariant', 'order-causal-later-never-changes-earlier',
  'steps-scores-are-dot-products', 'steps-scaled-is-scores-over-sqrt-d', 'steps-diagonal', 'steps-weights-are-softmax', 'steps-weights-rows-sum-to-one',
  'steps-masked-weights-exactly-zero', 'steps-output-is-weighted-sum', 'steps-repeated-word-mask-or-positions',
  'incremental-cached-equals-full', 'incremental-default-query-start', 'incremental-restart-at-zero-differs',
  'incremental-top-left-differs',
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

/** Resolves after two animation frames: controls re-render in the next frame. */
const frames = () => nextFrames(page);

/** { name: status } of every check inside the three sections. */
const statuses = () => page.$$eval(SECTIONS.map((id) => `#${id} [data-check]`).join(', '),
  (els) => Object.fromEntries(els.map((el) => [el.dataset.check, `${el.dataset.status}: ${el.textContent.replace(/\s+/g, ' ')}`])));

function assertAllPass(found) {
  const failing = Object.entries(found).filter(([, s]) => !s.startsWith('pass'));
  assert.deepEqual(failing, []);
}

/** A hash of one canvas's pixels. */
const canvasHash = (selector, index) => page.evaluate(([sel, i]) => {
  const canvas = document.querySelectorAll(sel)[i];
  const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
  let h = 2166136261;
  for (let k = 0; k < data.length; k += 1) h = Math.imul(h ^ data[k], 16777619) >>> 0;
  return h.toString(16);
}, [selector, index]);

test('the sections ran, and every one of their checks is on the page and passes', async () => {
  for (const id of SECTIONS) assert.equal(await page.getAttribute(`#${id}`, 'data-state'), 'done', `section ${id}`);
  const found = await statuses();
  for (const name of CHECKS) assert.ok(name in found, `missing check ${name}`);
  assertAllPass(found);
});

test('the causal toggle works from the keyboard: scaled scores get masked cells, checks still pass', async () => {
  const legend = () => page.$$eval('#four-steps .legend-masked', (els) => els.length);
  assert.equal(await legend(), 0);
  const before = await canvasHash('#four-steps canvas', 1);
  await page.focus('#steps-causal');
  await page.keyboard.press('Space');
  await frames();
  await frames();
  assert.equal(await page.getAttribute('#steps-causal', 'aria-pressed'), 'true');
  assert.notEqual(await canvasHash('#four-steps canvas', 1), before, 'the scaled heatmap did not change');
  assert.equal(await legend(), 1, 'the scaled heatmap shows no masked cells');
  await page.keyboard.press('Enter');
  await frames();
  assert.equal(await page.getAttribute('#steps-causal', 'aria-pressed'), 'false');
  assertAllPass(await statuses());
});

test('the ALiBi toggle from the keyboard: step 2 shifts by −|i − j|/2, step 1 stays; its row-constant check passes, and fails on weights of other scores', async () => {
  const maps = () => page.evaluate(async () => {
    const { drawnIn } = await import('/js/drawn.mjs');
    const d = drawnIn(document.getElementById('four-steps'));
    return { scores: Array.from(d.scores.data), scaled: Array.from(d.scaled.data), T: d.scaled.rows };
  });
  const before = await maps();
  await page.focus('#steps-alibi');
  await page.keyboard.press('Space');
  await frames();
  await frames();
  assert.equal(await page.getAttribute('#steps-alibi', 'aria-pressed'), 'true');
  const after = await maps();
  assert.deepEqual(after.scores, before.scores);
  const { T } = after;
  assert.ok(after.scaled.every((v, n) => Math.abs(v - (before.scaled[n] - Math.abs(Math.floor(n / T) - (n % T)) / 2)) < 1e-12));
  const found = await statuses();
  assert.match(found['steps-alibi-row-constant'] ?? '', /^pass/);
  assertAllPass(found);
  const holds = await page.evaluate(async () => {
    const { verifyClaims } = await import('/js/claims.mjs');
    const { drawnIn } = await import('/js/drawn.mjs');
    const section = document.getElementById('four-steps');
    const verdict = () => verifyClaims(section).find((c) => c.name === 'steps-alibi-row-constant').holds;
    const real = verdict();
    // sabotage: step 2 as drawn with a term that differs along each row (j added to column j)
    const { scaled } = drawnIn(section);
    const kept = Float64Array.from(scaled.data);
    scaled.data.forEach((v, n) => { scaled.data[n] = v + (n % scaled.cols); });
    const sabotaged = verdict();
    scaled.data.set(kept);
    return { real, sabotaged, restored: verdict() };
  });
  assert.deepEqual(holds, { real: true, sabotaged: false, restored: true });
  await page.keyboard.press('Enter');
  await frames();
  assert.equal(await page.getAttribute('#steps-alibi', 'aria-pressed'), 'false');
  assert.equal('steps-alibi-row-constant' in await statuses(), false);
  assertAllPass(await statuses());
});

test('hovering a weight, or moving to it with the arrow keys, reads its value', async () => {
  const canvas = (await page.$$('#four-steps canvas'))[2];
  await canvas.scrollIntoViewIfNeeded();
  const box = await canvas.boundingBox();
  await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.5);
  const tooltip = await page.waitForSelector('#four-steps .plot-tooltip:not([hidden])', { timeout: 5000 });
  assert.match(await tooltip.textContent(), /query \d \(\w+\) · key \d \(\w+\): \d/);
  await page.mouse.move(0, 0);
  await canvas.focus();
  await page.keyboard.press('ArrowDown');
  await frames();
  const texts = await page.$$eval('#four-steps .plot-tooltip:not([hidden])', (els) => els.map((el) => el.textContent));
  assert.ok(texts.some((t) => /^query 0 \(the\) · key 0 \(the\): 0\.\d+/.test(t)), `tooltips: ${texts}`);
});

test('choosing another reordering re-runs the order experiments; every check still passes', async () => {
  const before = await page.textContent('[data-check="order-equivariant"]');
  for (const value of ['1,0,2', '0,2,1', '1,2,0', '2,0,1', '2,1,0']) {
    await page.selectOption('#order-reordering', value);
    await frames();
    assertAllPass(await statuses());
  }
  await page.selectOption('#order-reordering', '1,2,0');
  await frames();
  const afterText = await page.textContent('[data-check="order-equivariant"]');
  assert.notEqual(afterText, before);
  assert.match(afterText, /follows person robot/);
});

test('the incremental sliders move the prefix; the cached result still equals the full recompute', async () => {
  await page.focus('#incremental-prefix');
  for (let i = 0; i < 5; i += 1) await page.keyboard.press('ArrowLeft');
  await frames();
  assert.equal(await page.inputValue('#incremental-prefix'), '5');
  assert.match(await page.textContent('[data-check="incremental-cached-equals-full"]'), /start = 5 and queryStart = 5/);
  await page.focus('#incremental-new');
  await page.keyboard.press('End');
  await frames();
  assert.match(await page.textContent('[data-check="incremental-cached-equals-full"]'), /Tq = 4, Tk = 9/);
  assertAllPass(await statuses());
});

test('no errors in the console or the page', () => {
  assert.deepEqual(errors, []);
});
