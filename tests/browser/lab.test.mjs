// The section "train" in Chromium (playwright-core), what needs Chromium's own tools (the network switched off, the
// workers listed, a phone's viewport, computed styles): its checks are pending until the reader reaches it; then the
// lesson's run trains five models in the workers of a seqorder pool (offline: the page loaded everything it needs),
// every check passes, every generated sentence holds against what is drawn, and the time it took, from reaching the
// section, is printed with the page's answer to input meanwhile; the hashes shown are those of the same training in
// node; the tables are the run's record; the lengths table refuses in the API's words; on a 390 px phone no table
// hides a column; the buttons (disabled ones look it, focus moves to the enabled one); Pause and Reset; the time
// remaining of a long run. The composer, the downloads, the conclusion's runs, links, Back and Forward are tested in
// every engine (train-lab.test.mjs), the settings swept in train-sweep.test.mjs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { click, frames, openLesson, waitInPage } from './browser.mjs';
import { labSentences, labState, nodeHashes } from './train-helpers.mjs';
import { siteModule } from '../node/helpers/load.mjs';

const { poolSize } = await siteModule('js/experiments/train.mjs');

const CHECKS = ['train-none-mirror-logits', 'train-none-half', 'train-sinusoidal-learns', 'train-learned-learns',
  'train-rotary-learns', 'train-causal-learns', 'train-learned-refuses'];
// the conclusion's, one beside each of its sentences that states an outcome, once the run has finished
const CONCLUSION_CHECKS = ['train-conclusion-blind', 'train-conclusion-order', 'train-conclusion-order-mask',
  'train-conclusion-order-longer', 'train-conclusion-order-formula'];
const FIGURE_CHECKS = ['train-curves', 'train-lengths'];
const MODELS = ['none, bidirectional', 'sinusoidal', 'learned (16 rows)', 'rotary', 'none, causal'];

let session;
let page;
let errors;
/** The page's workers of the pool (they start with the page, before any run). */
const poolWorkers = () => page.workers().map((w) => w.url()).filter((url) => url.endsWith('/pool-worker.mjs'));
const state = () => page.evaluate(labState);
const phase = () => page.getAttribute('#train .section-body', 'data-training');
const waitPhase = (...phases) => waitInPage(page, (p) => p.includes(document.querySelector('#train .section-body').dataset.training), phases, { timeout: 180_000 });

before(async () => {
  session = await openLesson({ train: false });
  ({ page, errors } = session);
});

after(async () => {
  await session?.close();
});

test('before the reader reaches it, its checks are pending and the page says so', async () => {
  const { checks } = await state();
  assert.deepEqual(checks, Object.fromEntries(CHECKS.map((name) => [name, 'pending'])));
  assert.equal(await phase(), 'idle');
  assert.match(await page.textContent('#status'), /All \d+ checks so far pass, computed just now in your browser\..* 7 more checks wait for a training run that has not finished\./);
  assert.equal(await page.textContent('#train-start'), 'Train');
});

let lesson;

test('in view, the lesson\'s run trains five models in one worker more than the cores, offline; every check passes, every sentence holds', { timeout: 180_000 }, async (t) => {
  // the page was loaded online; the reader reaches the section with the network gone. A probe of the page's
  // responsiveness runs meanwhile: the longest a timer of 10 ms waited beyond its time (printed, not asserted: the
  // machine's other work moves it).
  const requests = [];
  const onRequest = (request) => requests.push(request.url());
  session.context.on('request', onRequest);
  await session.context.setOffline(true);
  await page.evaluate(() => {
    globalThis.__lag = 0;
    let last = performance.now();
    const tick = () => {
      const now = performance.now();
      globalThis.__lag = Math.max(globalThis.__lag, now - last - 10);
      last = now;
      if (document.querySelector('#train .section-body').dataset.training !== 'done') setTimeout(tick, 10);
    };
    setTimeout(tick, 10);
  });
  try {
    await page.locator('#train').scrollIntoViewIfNeeded();
    await waitPhase('done', 'error');
  } finally {
    await session.context.setOffline(false);
    session.context.off('request', onRequest);
  }
  assert.deepEqual(requests, [], 'requests made by the run');
  lesson = await state();
  assert.equal(lesson.phase, 'done', lesson.status);
  assert.deepEqual(lesson.checks, Object.fromEntries([...CHECKS, ...CONCLUSION_CHECKS, ...FIGURE_CHECKS].map((name) => [name, 'pass'])));
  assert.deepEqual(lesson.rows.map((r) => r[0]), MODELS);
  // the table is the record: steps, last loss, accuracy, hash
  lesson.record.models.forEach((m, i) => {
    assert.deepEqual(lesson.rows[i].slice(1, 2), ['800']);
    assert.equal(lesson.rows[i][3], `${Number((100 * m.accuracy).toPrecision(3))}%`);
    assert.equal(lesson.rows[i][4], `${m.hash.slice(0, 16)}…`);
  });
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  assert.equal(poolWorkers().length, poolSize(cores), page.workers().map((w) => w.url()).join(', '));
  const sentences = await page.evaluate(labSentences);
  assert.ok(sentences.length >= 12, `${sentences.length} sentences`);
  assert.deepEqual(sentences.filter((s) => !s.holds), []);
  assert.match(lesson.status, new RegExp(`^Trained and measured in [\\d.]+ s: 5 models × 800 steps in ${poolSize(cores)} workers for the ${cores} cores this device reports\\.$`));
  const lag = await page.evaluate(() => globalThis.__lag);
  t.diagnostic(`the lesson's run: ${lesson.status} (${await page.getAttribute('#train .train-status', 'data-milliseconds')} ms from reaching the section: models created at ${lesson.record.timing.created} ms, trained at ${lesson.record.timing.trained}, measured at ${lesson.record.timing.measured}); the longest a 10 ms timer waited meanwhile: ${Math.round(lag)} ms`);
  assert.match(await page.textContent('#status'), /^\s*All \d+ checks on this page pass/m);
  assert.equal(await page.textContent('#train-start'), 'Train again');
});

test('the hashes shown are those of the same training in node', { timeout: 120_000 }, async () => {
  assert.deepEqual(lesson.record.models.map((m) => m.hash), nodeHashes({}));
});

test('the lengths: a learned table refuses in the API\'s words; the model without positions scores 50% at every length', async () => {
  const table = await page.$$eval('#train-lengths table tbody tr', (rows) => rows.map((row) => [...row.children].map((c) => c.textContent)));
  assert.deepEqual(table.map((r) => r[0]), MODELS);
  assert.equal(table[2][4], 'refused: ids have T = 32 positions, but the learned table has 16 rows (maxLength)');
  assert.equal(table[2][5], 'refused: ids have T = 64 positions, but the learned table has 16 rows (maxLength)');
  assert.deepEqual(table[0].slice(1), ['50%', '50%', '50%', '50%', '50%']);
  const findings = await page.textContent('#train-lengths .train-findings');
  for (const row of table.filter((r) => !r[4].startsWith('refused'))) assert.ok(findings.includes(`${row[0]} at ${row[4]}`), `${row[0]} at T = 32 in: ${findings}`);
  // the caption sits outside the table's scroll box
  assert.equal(await page.$$eval('#train-lengths .train-table-scroll .train-caption, #train-lengths caption', (els) => els.length), 0);
});

test('on a 390 px phone the lab\'s tables hide no column: each row is a block of "column: value" lines', async () => {
  await page.setViewportSize({ width: 390, height: 800 });
  await frames(page);
  const fit = await page.$$eval('#train .train-table-block', (blocks) => blocks.filter((b) => !b.hidden && b.offsetParent).map((b) => ({
    wide: b.scrollWidth > b.clientWidth + 1,
    labels: [...b.querySelectorAll('td')].every((td) => getComputedStyle(td, '::before').content.length > 2),
  })));
  assert.ok(fit.length >= 2, JSON.stringify(fit));
  assert.deepEqual(fit.filter((f) => f.wide || !f.labels), []);
  // (the composer on a phone, whole and covering none of the maps: a11y.test.mjs)
  await page.setViewportSize({ width: 1000, height: 900 });
});

test('the buttons: a disabled one looks disabled, focus moves to the enabled one; Pause keeps the run, Reset clears it', { timeout: 120_000 }, async () => {
  const look = (id) => page.$eval(id, (b) => ({ disabled: b.disabled, opacity: Number(getComputedStyle(b).opacity) }));
  assert.deepEqual(await look('#train-pause'), { disabled: true, opacity: 0.45 });
  assert.deepEqual(await look('#train-start'), { disabled: false, opacity: 1 });
  await page.focus('#train-start');
  await page.keyboard.press('Enter');
  await waitInPage(page, () => document.activeElement?.id === 'train-pause', null, { timeout: 30_000 });
  await waitInPage(page, () => Number(document.getElementById('train-progress').value) > 0, null, { timeout: 60_000 });
  await page.keyboard.press('Enter');  // Pause, from the keyboard
  await waitPhase('paused');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'train-resume');
  const paused = await state();
  assert.ok(paused.record.models.every((m) => m.steps === paused.record.step && m.hash), 'every model at one step, its hash shown');
  assert.doesNotMatch(paused.rows.map((r) => r[4]).join(), /–/);
  assert.match(await page.textContent('#train-run .train-findings'), /has not reached 95% by step|first reached 95%/);
  assert.doesNotMatch(await page.textContent('#train-run .train-findings'), /did not reach/);
  await click(page, '#train-reset');
  await waitPhase('idle');
  assert.equal(await page.textContent('#train-start'), 'Train again');
  assert.deepEqual((await state()).rows, []);
  assert.equal(await page.isDisabled('#train-reset'), true);
});

test('a run expected to take over 20 s shows its time remaining; the settings changed since the run say so', { timeout: 300_000 }, async () => {
  // a short run shown first (the buttons' test ended with Reset)
  await page.evaluate(() => document.getElementById('train-steps').set(100));
  await click(page, '#train-start');
  await waitPhase('done');
  await page.evaluate(() => {
    document.getElementById('train-steps').set(4000);
    document.getElementById('train-seeds').set('3');
  });
  for (const key of ['causal-sinusoidal', 'causal-learned', 'causal-rotary']) await page.check(`#train-model-${key}`);
  assert.match(await page.textContent('#train-settings .train-next'), /^The settings have changed since the run shown: press Train to run them \(24 models, at most 24\)\.$/);
  await click(page, '#train-start');
  await waitInPage(page, () => / s left\.$/.test(document.querySelector('#train .train-status').textContent), null, { timeout: 90_000 });
  assert.match(await page.textContent('#train .train-status'), new RegExp(`^Training 24 models \\(8 kinds × seeds 1, 2, 3\\) in ${poolSize(await page.evaluate(() => navigator.hardwareConcurrency))} workers: step \\d+ of 4,000; about [\\d,]+ s left\\.$`));
  await click(page, '#train-reset');
  await waitPhase('idle');
  await page.evaluate(() => {
    document.getElementById('train-steps').set(800);
    document.getElementById('train-seeds').set('1');
  });
  for (const key of ['causal-sinusoidal', 'causal-learned', 'causal-rotary']) await page.uncheck(`#train-model-${key}`);
  assert.deepEqual(errors, []);
});
