// The lab in every engine (tests/browser/helpers/engines: Chromium, Firefox ESR, WebKitGTK): a link's settings train the run
// they describe, bit for bit (every parameter hash equals the same training in node, on one thread), and the link the
// page writes reproduces it; an older link's keys (train-…) still set the lab; pause, step and resume end with the
// same bits as a run never paused, every model at one step at each pause; three seeds at the lesson's settings: every
// check passes and every claim holds against what is drawn; a setting a model cannot take is refused beside its
// control in the API's words, once, and the status and the checks say "not run"; a lab value in a link that the lab
// does not take falls back to its default with a visible note; Back and Forward restore the lab's settings, and the
// next run trains them; the lesson's run answers the reader's sentence (the composer: probabilities, ✓ or ✗, "at
// chance" for the model without positions, a length outside training marked, a learned table refusing, every map
// row and column labelled, its limits) and downloads as JSON and CSV; the conclusion trains the second task and the
// other scale with one click each, and says what both tasks and the scaling show, every claim a passing check.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { eachEngine } from './helpers/each-engine.mjs';
import { captureDownloads, capturedFiles, labClaims, labFinished, labState, labStops, nodeHashes, reachLab, watchDone, whereNow } from './helpers/train-helpers.mjs';
import { loadSeqorder } from '../node/helpers/load.mjs';

const so = await loadSeqorder();
let loads = 0;

/** Loads the page anew at `hash` (a query of its own each time) and waits for its experiments. */
async function open(s, hash) {
  loads += 1;
  await s.browser.goto(`${s.site.origin}/?load=${loads}${hash}`);
  await s.browser.waitForSelector('body[data-ready]', { timeout: 60_000 });
  assert.equal(await s.browser.attribute('body', 'data-ready'), 'true', await s.browser.text('#status'));
}

const hashesOf = (state) => state.record.models.map((m) => m.hash);

/** Every check of the section passes and every claim holds. */
async function allHold(s) {
  const state = await s.browser.evaluate(labState);
  assert.deepEqual(Object.entries(state.checks).filter(([, v]) => v !== 'pass'), [], state.status);
  const claims = await s.browser.evaluate(labClaims);
  assert.deepEqual(claims.filter((x) => !x.holds), []);
  return { state, claims };
}

/** Every setting but the seeds, away from its default, written out as createModel's options and the batches. */
const EVERY = '#lab-task=lookback&lab-back=3&lab-models=none,causal-sinusoidal,causal-learned&lab-width=16&lab-heads=4' +
  '&lab-layers=2&lab-embedScale=1&lab-lr=0.01&lab-steps=100&lab-shortest=5&lab-longest=9&lab-seed=3';
/** The same, as a link written before the lab's keys were renamed. */
const EVERY_OLD = '#train-task=lookback&train-back=3&train-models=none,causal-sinusoidal,causal-learned&train-width=16&train-heads=4' +
  '&train-layers=2&train-embed-scale=0&train-lr=0.01&train-steps=100&train-shortest=5&train-longest=9&train-seed=3';
function everyHere() {
  const base = { vocab: 16, width: 16, heads: 4, layers: 2, readout: 'each', classes: 16, dtype: 'float32', seed: 3 };
  return [{ positions: 'none' }, { positions: 'sinusoidal', causal: true }, { positions: 'learned', maxLength: 9, causal: true }].map((options) => {
    const model = so.createModel({ ...base, ...options });
    for (let k = 0; k < 100; k++) {
      const { ids, targets } = so.lookbackTask({ count: 32, length: 5 + (k % 5), back: 3, seed: 3_000_000 + 1000 + k });
      model.step(ids, targets, { lr: 0.01 });
    }
    const hash = createHash('sha256');
    for (const t of Object.values(model.parameters())) hash.update(Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength));
    model.dispose();
    return hash.digest('hex');
  });
}

eachEngine({ viewport: { width: 1000, height: 900 } }, (s) => {
  test(`${s.engine}: every setting from a link reaches the models: the hashes of the same training in node; the page's link, and an older link, reproduce it`, { timeout: 300_000 }, async () => {
    await open(s, EVERY);
    await reachLab(s.browser);
    const first = await labStops(s.browser);
    assert.equal(first.phase, 'done', first.status);
    assert.deepEqual(first.record.config.kinds, ['none', 'causal-sinusoidal', 'causal-learned']);
    assert.deepEqual(hashesOf(first), everyHere());
    assert.deepEqual(first.rows.map((r) => r[0]), ['without positions', 'causal sinusoidal', 'causal learned (9 rows)']);
    const lengths = await s.browser.evaluate(() => [...document.querySelectorAll('#lab-lengths thead th')].map((th) => th.textContent));
    assert.deepEqual(lengths, ['model', 'T = 5', 'T = 7', 'T = 9', 'T = 18 (2×)', 'T = 36 (4×)', 'T = 72 (8×)']);
    assert.equal(first.checks['lab-causal-learned-refuses'], 'pass');
    assert.equal(first.checks['lab-none-same-word'], 'pass');
    await allHold(s);
    // the page writes its settings into the URL; that link, opened anew, trains the same bits
    const link = await s.browser.evaluate(() => location.hash);
    for (const part of EVERY.slice(1).split('&')) assert.ok(decodeURIComponent(link).includes(part), `${part} in ${link}`);
    await open(s, EVERY_OLD);
    await reachLab(s.browser);
    const old = await labStops(s.browser);
    assert.deepEqual(hashesOf(old), hashesOf(first));
    assert.equal(await s.browser.evaluate(() => document.getElementById('link-notes').hidden), true, 'no note for an older link\'s keys');
    assert.deepEqual(await s.browser.errors(), []);
  });

  test(`${s.engine}: paused, stepped and resumed: one step for every model at each pause, the bits of a run never paused`, { timeout: 240_000 }, async () => {
    await open(s, '#lab-models=sinusoidal,rotary,causal');
    await reachLab(s.browser);
    await s.browser.waitFor(() => (document.getElementById('lab-progress')?.value ?? 0) > 0, null, { timeout: 60_000, what: 'training started' });
    await s.browser.click('#lab-pause');
    const paused = await labStops(s.browser, ['paused']);
    const at = paused.record.models.map((m) => m.steps);
    assert.ok(at.every((n) => n === at[0] && n % 20 === 0 && n < 800), `steps at the pause: ${at}`);
    assert.match(paused.status, new RegExp(`^Paused at step ${at[0]} of 800: every model stands there`));
    assert.ok(paused.rows.every((r) => r[1] === String(at[0])), JSON.stringify(paused.rows));
    await allHold(s);
    assert.equal(await s.browser.evaluate(() => document.getElementById('lab-train').disabled), true);
    await s.browser.click('#lab-step');
    const stepped = await labStops(s.browser, ['paused']);
    assert.deepEqual(stepped.record.models.map((m) => m.steps), at.map((n) => n + 20));
    await s.browser.click('#lab-resume');
    const done = await labStops(s.browser, ['done']);
    assert.deepEqual(hashesOf(done), nodeHashes({ models: ['sinusoidal', 'rotary', 'causal'] }));
  });

  test(`${s.engine}: three seeds at the lesson's settings, each on its own sentences: every check passes, every claim holds`, { timeout: 720_000 }, async (t) => {
    await open(s, '#lab-seeds=3');
    await reachLab(s.browser);
    // 15 models × 800 steps: seconds on an idle machine, minutes on a busy one (WebKitGTK the slowest)
    const state = await labStops(s.browser, undefined, 660_000);
    assert.equal(state.phase, 'done', state.status);
    assert.deepEqual(state.record.models.map((m) => `${m.key} ${m.seed}`), ['none', 'sinusoidal', 'rotary', 'causal', 'causal-sinusoidal'].flatMap((k) => [1, 2, 3].map((seed) => `${k} ${seed}`)));
    const { claims } = await allHold(s);
    assert.ok(claims.some((x) => /seeds 1–3/.test(x.text)), 'the claims name the seeds');
    assert.equal(state.rows[0][1], '1', 'a seed column');
    // the curves: the median of the seeds, their range as a band
    const { series } = await s.browser.evaluate(async () => (await import('/js/drawn.mjs')).drawnIn(document.getElementById('lab')).loss);
    const rotary = state.record.models.filter((m) => m.key === 'rotary').map((m) => m.curve.loss);
    const drawn = series.find((x) => x.name === 'rotary');
    assert.deepEqual([drawn.lo[5], drawn.y[5], drawn.hi[5]], rotary.map((c) => c[5]).sort((a, b) => a - b));
    t.diagnostic(`${claims.length} claims hold; ${state.status}`);
  });

  test(`${s.engine}: a setting a model cannot take is refused once, beside its control, in the API's words; the status and the checks say "not run"`, { timeout: 60_000 }, async () => {
    await open(s, '#lab-shortest=16&lab-longest=8');
    await reachLab(s.browser);
    await s.browser.frames();
    const seen = await s.browser.evaluate(() => ({
      refusals: [...document.querySelectorAll('#lab-settings .lab-refusal')].filter((p) => !p.hidden).map((p) => `${p.id}: ${p.textContent}`),
      status: document.querySelector('#lab .lab-status').textContent,
      checks: [...document.querySelectorAll('#lab [data-check]')].map((c) => [c.dataset.status, c.querySelector('.check-details').textContent]),
      train: document.getElementById('lab-train').disabled,
      phase: document.querySelector('#lab .section-body').dataset.training,
    }));
    assert.deepEqual(seen.refusals, ['lab-shortest-refusal: the shortest training sentence (16) is longer than the longest (8)']);
    assert.equal(seen.status, 'Not run: the shortest training sentence (16) is longer than the longest (8).');
    assert.ok(seen.checks.length > 0 && seen.checks.every(([status, details]) => status === 'pending' && details.startsWith('not run: the shortest')), JSON.stringify(seen.checks));
    assert.deepEqual([seen.train, seen.phase], [true, 'idle']);
    // the heads offered divide the width: 30 offers 1, 2, 3, 5, 6 (and with rotary an even head width: 1, 3, 5)
    await s.browser.evaluate(() => document.getElementById('lab-width').set(30));
    const offered = await s.browser.evaluate(() => [...document.getElementById('lab-heads').options].filter((o) => !o.hidden).map((o) => o.value));
    assert.deepEqual(offered, ['1', '3', '5']);
    assert.equal(await s.browser.value('#lab-heads'), '1');
    // a typed seed the lab does not take is refused beside its field on Enter, and the link keeps the seed it had
    const hash = await s.browser.evaluate(() => location.hash);
    const seed = await s.browser.evaluate(() => {
      const field = document.getElementById('lab-seed');
      for (const text of ['2', '2.', '2.5']) {
        field.value = text;
        field.dispatchEvent(new Event('input', { bubbles: true }));
      }
      field.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
      const said = document.getElementById('lab-seed-invalid');
      return { invalid: field.getAttribute('aria-invalid'), text: said.textContent, visible: said.getClientRects().length > 0 && getComputedStyle(said).visibility !== 'hidden' };
    });
    assert.deepEqual(seed, { invalid: 'true', text: '2.5 is refused: “Seed” takes a whole number from 0 to 1000000000; it stays 1.', visible: true });
    assert.equal(await s.browser.evaluate(() => location.hash), hash);
    assert.deepEqual(await s.browser.errors(), []);
  });

  test(`${s.engine}: a lab value in a link that the lab does not take falls back to its default, with a visible note; the run trains the default`, { timeout: 120_000 }, async () => {
    await open(s, '#lab-width=65&lab-lr=0.5&lab-models=none,bogus&lab-seeds=2&lab-steps=100&lab-task=order');
    await s.browser.waitFor(() => document.querySelectorAll('#link-notes .link-note').length >= 4, null, { timeout: 30_000, what: 'the four notes on the link' });
    const notes = await s.browser.evaluate(() => {
      const box = document.getElementById('link-notes');
      return { visible: !box.hidden && box.checkVisibility(), lines: [...box.querySelectorAll('.link-note')].map((p) => p.textContent) };
    });
    assert.ok(notes.visible, 'the notes are not visible');
    const expect = [/^The link sets lab-width=65, which “width D” does not take \(a whole number from 2 to 64 in steps of 2\): its default, 32, is used instead\.$/,
      /^The link sets lab-lr=0\.5, which “learning rate” does not take \(one of 0\.0001, 0\.0003, 0\.001, 0\.003, 0\.01, 0\.03, 0\.1\): its default, 0\.003, is used instead\.$/,
      /^The link sets lab-models=none,bogus, which “Models” does not take .*: its default, none,sinusoidal,rotary,causal,causal-sinusoidal, is used instead\.$/,
      /^The link sets lab-seeds=2, which “seeds per model” does not take \(one of 1, 3\)/];
    for (const re of expect) assert.ok(notes.lines.some((l) => re.test(l)), `no note matches ${re}:\n${notes.lines.join('\n')}`);
    assert.equal(notes.lines.length, expect.length, notes.lines.join('\n'));
    await reachLab(s.browser);
    await s.browser.waitFor(() => location.hash === '#lab-steps=100', null, { timeout: 30_000, what: 'location.hash === #lab-steps=100' });
    const done = await labStops(s.browser);
    assert.equal(done.phase, 'done', done.status);
    const { width, lr, seeds, steps, kinds } = done.record.config;
    assert.deepEqual({ width, lr, seeds, steps, kinds }, { width: 32, lr: 3e-3, seeds: [1], steps: 100, kinds: ['none', 'sinusoidal', 'rotary', 'causal', 'causal-sinusoidal'] });
    assert.deepEqual(await s.browser.errors(), []);
  });

  test(`${s.engine}: Back and Forward restore the lab's settings (models, task, the reader's sentence), and the next run trains what they show`, { timeout: 180_000 }, async () => {
    await open(s, '#lab-models=causal&lab-steps=100');
    await reachLab(s.browser);
    await labStops(s.browser);
    const look = () => s.browser.evaluate(() => ({
      hash: decodeURIComponent(location.hash),
      models: [...document.querySelectorAll('#lab-models input:checked')].map((b) => b.value),
      task: document.getElementById('lab-task').value,
      words: [...document.querySelectorAll('#lab-maps .lab-slot select')].map((x) => x.value).join(' '),
    }));
    const hashIs = (hash) => s.browser.waitFor((h) => decodeURIComponent(location.hash) === h, hash, { timeout: 5000, what: `the hash ${hash}` });
    const A = '#lab-models=causal&lab-steps=100';
    const B = '#lab-models=rotary,causal&lab-steps=100';
    const C = '#lab-task=lookback&lab-models=rotary,causal&lab-steps=100';
    await s.browser.click('#lab-model-rotary');
    await hashIs(B);
    await s.browser.evaluate(() => {
      const task = document.getElementById('lab-task');
      task.value = 'lookback';
      task.dispatchEvent(new Event('change'));
    });
    await hashIs(C);
    await s.browser.evaluate(() => { document.querySelector('#lab-maps details').open = true; });  // the composer is folded
    await s.browser.click('#lab-mirror');
    await s.browser.waitFor(() => location.hash.includes('lab-words='), null, { timeout: 5000, what: 'the sentence in the hash' });
    assert.equal((await look()).words, 'the person follows the robot near a box');
    const back = () => s.browser.evaluate(() => history.back());
    const forward = () => s.browser.evaluate(() => history.forward());
    const original = 'the robot follows the person near a box';
    await back();
    await hashIs(C);
    assert.deepEqual(await look(), { hash: C, models: ['rotary', 'causal'], task: 'lookback', words: original });
    await back();
    await hashIs(B);
    await back();
    await hashIs(A);
    assert.deepEqual(await look(), { hash: A, models: ['causal'], task: 'order', words: original });
    await forward();
    await hashIs(B);
    assert.deepEqual(await look(), { hash: B, models: ['rotary', 'causal'], task: 'order', words: original });
    await back();
    await hashIs(A);
    await s.browser.evaluate(() => document.getElementById('lab-width').set(16));
    await hashIs('#lab-models=causal&lab-width=16&lab-steps=100');
    await s.browser.click('#lab-train');
    const run = await labFinished(s.browser, { width: 16 });
    assert.equal(run.phase, 'done', run.status);
    assert.deepEqual([run.record.config.kinds, run.record.config.task], [['causal'], 'order']);
    assert.deepEqual(await s.browser.errors(), []);
  });

  test(`${s.engine}: the run answers the reader's sentence (probability, ✓, ✗ or at chance, lengths, labelled maps, the composer's limits) and downloads as JSON and CSV`, { timeout: 300_000 }, async () => {
    await open(s, '#lab-models=none,sinusoidal,learned,rotary,causal');
    await reachLab(s.browser);
    const run = await labStops(s.browser);
    assert.equal(run.phase, 'done', run.status);
    await s.browser.evaluate(() => { document.querySelector('#lab-maps details').open = true; });  // the composer is folded
    const MODELS = ['without positions', 'sinusoidal', 'learned (16 rows)', 'rotary', 'causal without positions'];
    const answers = () => s.browser.evaluate(() => ({
      caption: document.querySelector('#lab-maps .lab-caption').textContent,
      rows: [...document.querySelectorAll('#lab-maps table tbody tr')].map((row) => [...row.children].map((c) => c.textContent)),
      note: document.querySelector('#lab-maps .lab-length-note').textContent,
      sentence: document.querySelector('#lab-maps .lab-sentence').textContent,
    }));
    const answered = (test) => s.browser.waitFor(test, null, { timeout: 30_000, what: 'the models answered' }).then(answers);
    const before = await answered(() => document.querySelectorAll('#lab-maps table tbody tr').length === 5 && !document.querySelector('#lab-maps .lab-table-block').hidden);
    assert.deepEqual(before.rows.map((r) => r[0]), MODELS);
    assert.ok(before.rows.every((r) => /^\d(\.\d+)?(e−\d+)?$/.test(r[1])), JSON.stringify(before.rows));
    // the model without positions is at chance in the lengths table: its answer is a coin flip, not ✓ or ✗
    assert.equal(before.rows[0][2], 'at chance');
    assert.ok(before.rows.slice(1).every((r) => r[2] === '✓'), JSON.stringify(before.rows));
    assert.match(before.note, /^T = 8: a trained length \(8 … 16\)\.$/);
    await s.browser.click('#lab-mirror');
    const mirrored = await answered(() => /robot comes second\)\./.test(document.querySelector('#lab-maps .lab-caption').textContent));
    assert.match(mirrored.sentence, /“the person follows the robot near a box”: robot comes second/);
    assert.equal(mirrored.rows[0][1], before.rows[0][1], 'the position-free model answers a mirror alike');
    assert.equal(mirrored.rows[0][2], 'at chance');
    for (let i = 0; i < 12; i++) await s.browser.click('#lab-longer');
    const longer = await answered(() => document.querySelector('#lab-maps table tbody tr:nth-child(3) td')?.textContent.includes('T = 20'));
    assert.match(longer.note, /^T = 20: outside the training lengths \(8 … 16\): longer than any training sentence/);
    assert.equal(longer.rows[2][1], 'refused: ids have T = 20 positions, but the learned table has 16 rows (maxLength)');
    const drawnMaps = async (done) => {
      const drawn = (await import('/js/drawn.mjs')).drawnIn(document.getElementById('lab')).maps;
      const labelled = drawn?.labels.every((l) => ['row', 'col'].every((k) => l.filter((x) => x.kind === k).length === 20));
      return done ? drawn : drawn?.maps.length === 4 && drawn.maps[0].rows === 20 && labelled && drawn;
    };
    const maps = await s.browser.waitFor(drawnMaps, false, { timeout: 30_000, what: 'the maps at T = 20, labelled' })
      .catch(() => s.browser.evaluate(drawnMaps, true));
    assert.equal(maps.maps.length, 4);
    const words = await s.browser.evaluate(() => [...document.querySelectorAll('#lab-maps .lab-slot select')].map((x) => x.value));
    for (const labels of maps.labels) {
      for (const kind of ['row', 'col']) assert.deepEqual(labels.filter((l) => l.kind === kind).map((l) => l.text), words.map((word, i) => `${i} ${word}`));
    }
    const limits = await s.browser.evaluate(() => {
      const slots = () => document.querySelectorAll('#lab-maps .lab-slot select').length;
      const fewer = document.getElementById('lab-shorter');
      const more = document.getElementById('lab-longer');
      while (!fewer.disabled) fewer.click();
      const shortest = [slots(), fewer.disabled, more.disabled];
      while (!more.disabled) more.click();
      return { shortest, longest: [slots(), more.disabled, fewer.disabled] };
    });
    assert.deepEqual(limits, { shortest: [2, true, false], longest: [64, true, false] });
    await s.browser.evaluate(() => document.getElementById('lab-mapB').set('causal'));
    await s.browser.waitFor(() => /^causal without positions: head 1$/.test(document.querySelectorAll('#lab-maps .plot-grid-title')[2]?.textContent ?? ''), null,
      { timeout: 30_000, what: 'the right map shows the causal model' });
    // the downloads: what the buttons hand the browser to save, each file's name, type and text
    await s.browser.evaluate(captureDownloads);
    await s.browser.click('#lab-download-json');
    await s.browser.click('#lab-download-csv');
    const files = await s.browser.evaluate(capturedFiles);
    assert.deepEqual(files.map((f) => [f.name, f.type]), [['seqorder-lab-order-step800.json', 'application/json'], ['seqorder-lab-order-step800.csv', 'text/csv']]);
    const record = JSON.parse(files[0].text);
    assert.deepEqual(record.models.map((m) => m.hash), hashesOf(run));
    assert.deepEqual(record.measured, run.record.measured);
    const rows = files[1].text.trim().split('\n');
    assert.ok(rows.includes('learned (16 rows),1,refused,800,32,"ids have T = 32 positions, but the learned table has 16 rows (maxLength)"'));
    assert.equal(rows.filter((r) => r.includes(',accuracy,')).length, 5 * 40);
    assert.deepEqual(await s.browser.errors(), []);
  });

  test(`${s.engine}: the conclusion trains the second task and the other scale with one click each; it then says what both tasks, the course's decoder and the scaling show`, { timeout: 300_000 }, async () => {
    // narrower than the others: the answers table is wider than its box here (in Chromium and WebKit), so its scroll
    // cue shows, and must show before the run is called done
    await s.browser.setViewport({ width: 760, height: 900 });
    try {
      await conclusionRuns(s);
    } finally {
      await s.browser.setViewport({ width: 1000, height: 900 });
    }
  });
});

/** The conclusion test's runs and what it says after each (see its name). */
async function conclusionRuns(s) {
  await open(s, '#lab-steps=200');
  await reachLab(s.browser);
  assert.equal((await labStops(s.browser)).phase, 'done');
  const conclusion = () => s.browser.evaluate(() => {
    const f = document.getElementById('lab-conclusion');
    const offer = (id) => {
      const b = document.getElementById(id);
      return b.closest('.control').hidden || b.closest('.controls').hidden ? null : { label: b.textContent, disabled: b.disabled };
    };
    return {
      checks: Object.fromEntries([...f.querySelectorAll('[data-check]')].map((c) => [c.dataset.check, c.dataset.status])),
      claims: [...f.querySelectorAll('[data-check] .check-claim')].map((c) => c.textContent),
      missing: f.querySelector('.lab-wait').hidden ? '' : f.querySelector('.lab-wait').textContent,
      second: offer('lab-second-task'), compare: offer('lab-compare-scale'),
      top: f.querySelector('.controls').getBoundingClientRect().top < f.querySelector('.checks').getBoundingClientRect().top,
    };
  });
  const first = await conclusion();
  assert.deepEqual(Object.values(first.checks).filter((v) => v !== 'pass'), []);
  assert.ok('lab-answer-order' in first.checks && 'lab-learnt-order' in first.checks, JSON.stringify(first.checks));
  assert.ok(first.claims.every((c) => c.startsWith('The order task, 200 steps, seed 1')), first.claims.join('\n'));
  assert.deepEqual(first.second, { label: 'Train the second task: the word 2 back (5 models × 200 steps)', disabled: false });
  assert.equal(first.top, true, 'the second task\'s button sits at the conclusion\'s top');
  assert.deepEqual(first.compare, { label: 'Compare: the run shown with token vectors as they are (5 models × 200 steps)', disabled: false });

  await s.browser.evaluate(watchDone, 'lab-compare-scale');
  await s.browser.click('#lab-second-task');
  const second = await labFinished(s.browser, { task: 'lookback' });
  assert.equal(second.phase, 'done', second.status);
  // the run is done when the answers and maps above the buttons are drawn, the answers table's scroll cue included
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const where = await s.browser.evaluate(whereNow);
  assert.equal(where.atDone.length, 1, 'the run became done once');
  assert.equal(where.now, where.atDone[0], 'the button to compare the scale moved after the run was done');
  assert.deepEqual(second.record.config.kinds, ['none', 'sinusoidal', 'rotary', 'causal', 'causal-sinusoidal']);
  const both = await conclusion();
  for (const name of ['lab-answer-order', 'lab-answer-lookback', 'lab-learnt-lookback']) assert.equal(both.checks[name], 'pass', name);
  assert.equal(both.second, null, 'the second task has run');
  assert.deepEqual(Object.values(both.checks).filter((v) => v !== 'pass'), []);
  assert.ok(both.claims.some((c) => /^The word 2 back, 200 steps, seed 1: the course’s decoder/.test(c)), both.claims.join('\n'));
  await allHold(s);

  await s.browser.click('#lab-compare-scale');
  const unscaled = await labFinished(s.browser, { task: 'lookback', embedScale: 1 });
  assert.equal(unscaled.phase, 'done', unscaled.status);
  const scaled = await conclusion();
  assert.equal(scaled.checks['lab-scaling'], 'pass');
  assert.equal(scaled.compare, null, 'the run shown has its comparison');
  assert.ok(scaled.claims.some((c) => /^The word 2 back, 200 steps, seed 1 against the word 2 back, token vectors as they are, 200 steps, seed 1/.test(c)), scaled.claims.join('\n'));
  await allHold(s);
  assert.deepEqual(await s.browser.errors(), []);
}
