// The lab in Chromium (playwright-core), what needs Chromium's own tools (the network switched off, the workers listed,
// a phone's viewport, computed styles): its checks are pending until the reader reaches it; then the lesson's run
// trains its models in the workers of a seqorder pool (offline: the page loaded everything it needs), every check
// passes, every claim holds against what is drawn, and the time it took, from reaching the section, is printed with
// the page's answer to input meanwhile; the hashes shown are those of the same training in node; the lengths table
// shows chance; on a 390 px phone no table hides a column; the page scrolled through with folds closed shows at most
// 2,500 words; the buttons (disabled ones look it, focus moves to the enabled one); Pause lands on the step it names,
// Reset clears; two presses of Train again start one run, and Pause, Resume and Step after Reset do nothing; a worker
// that closes itself cannot hold Reset (that its run fails visibly: lab-controller.test.mjs); a link to a long run
// waits for the reader's press, saying what it will cost; the time left of a long run. The composer, the downloads, the conclusion's runs, links,
// Back and Forward are tested in every engine (lab-engines.test.mjs), the settings swept in lab-sweep.test.mjs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { click, frames, openLesson, waitInPage } from './helpers/browser.mjs';
import { labClaims, labState, nodeHashes } from './helpers/train-helpers.mjs';
import { siteModule } from '../node/helpers/load.mjs';

const { LESSON_MODELS, kindLabel, runConfig } = await siteModule('js/lab/config.mjs');
const { poolSize } = await siteModule('js/lab/run.mjs');

const MODELS = LESSON_MODELS.map((key) => kindLabel(key, runConfig()));
/** The checks of the lesson's run: the architecture's, and one per claim. */
const CHECKS = ['lab-none-mirror', 'lab-none-half', ...LESSON_MODELS.map((k) => `lab-curve-${k}`),
  'lab-answer-order', 'lab-learnt-order', 'lab-longer-order'];

let session;
let page;
let errors;
/** The page's workers of the pool (they start with the page, before any run). */
const poolWorkers = () => page.workers().filter((w) => w.url().endsWith('/pool-worker.mjs'));
const state = () => page.evaluate(labState);
const phase = () => page.getAttribute('#lab .section-body', 'data-training');
const waitPhase = (...phases) => waitInPage(page, (p) => p.includes(document.querySelector('#lab .section-body').dataset.training), phases, { timeout: 180_000 });

before(async () => {
  session = await openLesson({ lab: false });
  ({ page, errors } = session);
});

after(async () => {
  await session?.close();
});

test('before the reader reaches it, its checks are pending and the page says so', async () => {
  const { checks } = await state();
  assert.deepEqual(checks, { 'lab-none-mirror': 'pending', 'lab-none-half': 'pending' });
  assert.equal(await phase(), 'idle');
  assert.match(await page.textContent('#status'), /All \d+ checks so far pass, computed just now in your browser\..* 2 more checks wait for a training run that has not finished\./);
  assert.equal(await page.textContent('#lab-train'), 'Train');
});

let lesson;

test('in view, the lesson\'s run trains its models in one worker more than the cores, offline; every check passes, every claim holds', { timeout: 180_000 }, async (t) => {
  // the page was loaded online; the reader reaches the section with the network gone. A probe of the page's
  // responsiveness runs meanwhile: the longest a timer of 10 ms waited beyond its time (printed, not asserted).
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
      if (document.querySelector('#lab .section-body').dataset.training !== 'done') setTimeout(tick, 10);
    };
    setTimeout(tick, 10);
  });
  try {
    await page.locator('#lab').scrollIntoViewIfNeeded();
    await waitPhase('done', 'error');
  } finally {
    await session.context.setOffline(false);
    session.context.off('request', onRequest);
  }
  assert.deepEqual(requests, [], 'requests made by the run');
  lesson = await state();
  assert.equal(lesson.phase, 'done', lesson.status);
  const checks = Object.keys(lesson.checks);
  for (const name of CHECKS) assert.ok(checks.includes(name), `${name} in ${checks}`);
  assert.deepEqual(Object.entries(lesson.checks).filter(([, v]) => v !== 'pass'), []);
  assert.deepEqual(lesson.rows.map((r) => r[0]), MODELS);
  lesson.record.models.forEach((m, i) => {
    assert.deepEqual(lesson.rows[i].slice(1, 2), ['800']);
    assert.equal(lesson.rows[i][3], `${Number((100 * m.accuracy).toPrecision(3))}%`);
    assert.equal(lesson.rows[i][4], `${m.hash.slice(0, 16)}…`);
  });
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  assert.equal(poolWorkers().length, poolSize(cores));
  const claims = await page.evaluate(labClaims);
  assert.ok(claims.length >= 8, `${claims.length} claims`);
  assert.deepEqual(claims.filter((s) => !s.holds), []);
  assert.match(lesson.status, new RegExp(`^Trained and measured in [\\d.]+ s: 5 models × 800 steps, ${poolSize(cores)} workers on ${cores} cores\\.$`));
  const lag = await page.evaluate(() => globalThis.__lag);
  t.diagnostic(`the lesson's run: ${lesson.status} (${await page.getAttribute('#lab .lab-status', 'data-milliseconds')} ms from reaching the section: models created at ${lesson.record.timing.created} ms, trained at ${lesson.record.timing.trained}, measured at ${lesson.record.timing.measured}); the longest a 10 ms timer waited meanwhile: ${Math.round(lag)} ms`);
  assert.match(await page.textContent('#status'), /^\s*All \d+ checks on this page pass/m);
  assert.equal(await page.textContent('#lab-train'), 'Train again');
  // the conclusion leads with the answer for the course's decoder, naming its run
  const first = await page.textContent('#lab-conclusion [data-check] .check-claim');
  assert.match(first, /^The order task, seed 1: the course’s decoder \(sinusoids and a causal mask\) (learnt it|did not learn it)/);
});

test('the hashes shown are those of the same training in node', { timeout: 120_000 }, async () => {
  assert.deepEqual(lesson.record.models.map((m) => m.hash), nodeHashes({}));
});

test('the lengths table: the model without positions at chance at every length, chance its last row, the caption names the run', async () => {
  const table = await page.$$eval('#lab-lengths table tbody tr', (rows) => rows.map((row) => [...row.children].map((c) => c.textContent)));
  assert.deepEqual(table.map((r) => r[0]), [...MODELS, 'chance (a guess)']);
  assert.deepEqual(table[0].slice(1), ['50%', '50%', '50%', '50%', '50%', '50%']);
  assert.deepEqual(table.at(-1).slice(1), ['50%', '50%', '50%', '50%', '50%', '50%']);
  assert.match(await page.textContent('#lab-lengths .lab-caption'), /^The order task, seed 1: accuracy on 128 sentence–mirror pairs per length, trained on 8 … 16\.$/);
  // chance is drawn on the curves too
  const series = await page.evaluate(async () => (await import('/js/drawn.mjs')).drawnIn(document.getElementById('lab')).curves.chance);
  assert.equal(series, 0.5);
});

test('the page scrolled through, folds closed, shows at most 2,500 words', async (t) => {
  const words = await page.evaluate(() => {
    let n = 0;
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || parent.closest('option, script, style, noscript, .visually-hidden') || !parent.checkVisibility({ visibilityProperty: true })) continue;
      n += node.textContent.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
    }
    // a select shows its chosen option only
    for (const select of document.querySelectorAll('select')) if (select.checkVisibility()) n += (select.selectedOptions[0]?.textContent ?? '').split(/\s+/).filter(Boolean).length;
    return { n, open: document.querySelectorAll('details[open]').length };
  });
  t.diagnostic(`${words.n} words visible`);
  assert.equal(words.open, 0, 'a fold is open');
  assert.ok(words.n <= 2500, `${words.n} words`);
});

test('on a 390 px phone the lab\'s tables hide no column: each row is a block of "column: value" lines', async () => {
  await page.setViewportSize({ width: 390, height: 800 });
  await frames(page);
  const fit = await page.$$eval('#lab .lab-table-block', (blocks) => blocks.filter((b) => !b.hidden && b.offsetParent).map((b) => ({
    wide: b.scrollWidth > b.clientWidth + 1,
    labels: [...b.querySelectorAll('td')].every((td) => getComputedStyle(td, '::before').content.length > 2),
  })));
  assert.ok(fit.length >= 2, JSON.stringify(fit));
  assert.deepEqual(fit.filter((f) => f.wide || !f.labels), []);
  await page.setViewportSize({ width: 1000, height: 900 });
});

test('two presses of Train again in one moment start one run; Pause, Resume and Step after Reset do nothing', { timeout: 180_000 }, async () => {
  await page.evaluate(() => document.getElementById('lab-steps').set(100));
  await page.evaluate(() => {
    const b = document.getElementById('lab-train');
    b.click();
    b.click();
  });
  await waitPhase('done');
  const once = await state();
  assert.deepEqual(once.record.models.map((m) => m.curve.step.length), LESSON_MODELS.map(() => 5), 'one point per chunk');
  assert.deepEqual(once.record.models.map((m) => m.hash), nodeHashes({ steps: 100 }));
  await click(page, '#lab-reset');
  assert.equal(await phase(), 'idle');
  await page.evaluate(() => ['lab-pause', 'lab-resume'].forEach((id) => document.getElementById(id).click()));
  assert.equal(await phase(), 'idle');
  assert.deepEqual(errors, []);
});

test('the buttons: a disabled one looks disabled, focus moves to the enabled one; Pause lands on the step it names; Reset clears', { timeout: 120_000 }, async () => {
  await page.evaluate(() => document.getElementById('lab-steps').set(2000));
  const look = (id) => page.$eval(id, (b) => ({ disabled: b.disabled, opacity: Number(getComputedStyle(b).opacity) }));
  assert.deepEqual(await look('#lab-pause'), { disabled: true, opacity: 0.45 });
  await page.focus('#lab-train');
  await page.keyboard.press('Enter');
  await waitInPage(page, () => document.activeElement?.id === 'lab-pause', null, { timeout: 30_000 });
  await waitInPage(page, () => Number(document.getElementById('lab-progress').value) > 0, null, { timeout: 60_000 });
  await page.keyboard.press('Enter');  // Pause, from the keyboard
  const pausing = await page.textContent('#lab .lab-status');
  const said = Number(pausing.match(/^Pausing at step (\d+): every model finishes the batches it was sent…$/)?.[1]);
  await waitPhase('paused');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'lab-resume');
  const paused = await state();
  assert.ok(paused.record.models.every((m) => m.steps === said && m.hash), `every model at step ${said}: ${paused.record.models.map((m) => m.steps)}`);
  assert.match(paused.status, new RegExp(`^Paused at step ${said} of 2,000: every model stands there`));
  assert.ok(Object.keys(paused.checks).some((n) => n.startsWith('lab-curve-')));
  await click(page, '#lab-reset');
  await waitPhase('idle');
  assert.deepEqual((await state()).rows, []);
  assert.equal(await page.isDisabled('#lab-reset'), true);
  await page.evaluate(() => document.getElementById('lab-steps').set(800));
});

test('a worker that closes itself cannot hold Reset: the lab is idle at once, Train enabled', { timeout: 180_000 }, async () => {
  await page.evaluate(() => document.getElementById('lab-steps').set(4000));
  await click(page, '#lab-train');
  await waitInPage(page, () => Number(document.getElementById('lab-progress').value) > 0, null, { timeout: 60_000 });
  await poolWorkers()[0].evaluate(() => globalThis.close());
  await click(page, '#lab-reset');
  assert.equal(await phase(), 'idle');
  assert.equal(await page.isDisabled('#lab-train'), false);
  await page.evaluate(() => document.getElementById('lab-steps').set(800));
});

test('a link to a long run waits for the reader\'s press, saying what it will cost; the time left of a long run', { timeout: 300_000 }, async () => {
  const heavy = await openLesson({ lab: false });
  try {
    const p = heavy.page;
    await p.goto(`${heavy.server.url}?heavy#lab-models=none,sinusoidal,learned,rotary,causal,causal-sinusoidal,causal-learned,causal-rotary&lab-width=64&lab-layers=4&lab-steps=4000&lab-seeds=3`);
    await p.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });
    await p.locator('#lab').scrollIntoViewIfNeeded();
    await waitInPage(p, () => /^Not started: this run, 24 models/.test(document.querySelector('#lab .lab-status')?.textContent ?? ''), null, { timeout: 60_000 });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    assert.equal(await p.getAttribute('#lab .section-body', 'data-training'), 'idle');
    assert.match(await p.textContent('#lab .lab-status'), /^Not started: this run, 24 models \(8 kinds × seeds 1, 2, 3\) × 4,000 steps, about \d+ (min|h \d+ min) and [\d,]+ MiB on this device \(estimated\), is long or large: press Train to start it\.$/);
    // pressed: it starts, and says how long is left once it has measured its pace (not before)
    await click(p, '#lab-train');
    const first = await p.textContent('#lab .lab-status');
    assert.doesNotMatch(first, / left\.$/);
    await waitInPage(p, () => / left\.$/.test(document.querySelector('#lab .lab-status').textContent), null, { timeout: 120_000 });
    assert.match(await p.textContent('#lab .lab-status'), /^Training 24 models \(8 kinds × seeds 1, 2, 3\) in \d workers: step [\d,]+ of 4,000; about [\d,]+ (s|min|h \d+ min) left\.$/);
    await click(p, '#lab-reset');
    assert.equal(await p.getAttribute('#lab .section-body', 'data-training'), 'idle');
    assert.deepEqual(heavy.errors, []);
  } finally {
    await heavy.close();
  }
});
