// The lab of section "train" in every engine (tests/browser/engines: Chromium, Firefox ESR, WebKitGTK): a link's
// settings train the run they describe, bit for bit (every parameter hash equals the same training in node, on one
// thread), and the link the page writes reproduces it; every setting reaches the models; pause, step and resume end
// with the same bits as a run never paused, every model at one step at each pause; three seeds at the lesson's
// settings: every check passes and every generated sentence holds against what is drawn; a setting a model cannot take
// is refused beside its control in the API's words; a lab value in a link that the lab does not take falls back to
// its default with a visible note; Back and Forward restore the lab's settings, and the next run trains them; the
// lesson's run answers the reader's sentence (the composer: probabilities, ✓ or ✗, a length outside training marked,
// a learned table refusing, every map row and column labelled, its limits) and downloads as JSON and CSV; the
// conclusion trains the second task and the other scale with one click each, and says what both tasks and the
// scaling show, every sentence holding, each one that states an outcome with its passing check beside it (at 200
// steps, outside the lesson's settings); the curves' sentences and the lengths figure's have their one passing check
// each beside them, whatever the settings, paused or done.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { eachEngine } from './each-engine.mjs';
import { captureDownloads, capturedFiles, labFinished, labSentences, labState, labStops, nodeHashes, reachLab, watchDone, whereNow } from './train-helpers.mjs';
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

/** In the page: the sentences (their names) and checks (name → status) of the run's figure and the lengths figure. */
function figuresSaid() {
  const of = (id) => {
    const f = document.getElementById(id);
    return {
      said: [...f.querySelectorAll('.train-finding')].map((li) => li.dataset.sentence),
      checks: Object.fromEntries([...f.querySelectorAll('[data-check]')].map((c) => [c.dataset.check, c.dataset.status])),
    };
  };
  return { run: of('train-run'), lengths: of('train-lengths') };
}

/**
 * Beside the curves' sentences, beside the two tables' sentence (when the tables differ), and beside the lengths
 * figure's, their one check, passing, in that figure.
 */
async function besideFigures(s) {
  const { run, lengths } = await s.browser.evaluate(figuresSaid);
  assert.ok(run.said.some((name) => name.startsWith('curve-')), run.said.join(' '));
  assert.equal(run.checks['train-curves'], 'pass', JSON.stringify(run.checks));
  assert.equal(run.checks['train-tables'], run.said.includes('sets') ? 'pass' : undefined, JSON.stringify(run));
  assert.ok(lengths.said.some((name) => /^(lengths|refused)-/.test(name)), lengths.said.join(' '));
  assert.equal(lengths.checks['train-lengths'], 'pass', JSON.stringify(lengths.checks));
  assert.ok(!('train-lengths' in run.checks) && !('train-curves' in lengths.checks), 'each check in its own figure');
}

/** Every setting but the seeds, away from its default, written out as createModel's options and the batches. */
const EVERY = '#train-task=lookback&train-back=3&train-models=none,causal-sinusoidal,causal-learned&train-width=16&train-heads=4' +
  '&train-layers=2&train-embed-scale=0&train-lr=0.01&train-steps=100&train-shortest=5&train-longest=9&train-seed=3';
function everyHere() {
  const base = { vocab: 16, width: 16, heads: 4, layers: 2, readout: 'each', classes: 16, dtype: 'float32', seed: 3 };
  return [{ positions: 'none' }, { positions: 'sinusoidal', causal: true }, { positions: 'learned', maxLength: 9, causal: true }].map((options) => {
    const model = so.createModel({ ...base, ...options });
    for (let k = 0; k < 100; k++) {
      const { ids, targets } = so.lookbackTask({ count: 32, length: 5 + (k % 5), back: 3, seed: 1000 + k });
      model.step(ids, targets, { lr: 0.01 });
    }
    const hash = createHash('sha256');
    for (const t of Object.values(model.parameters())) hash.update(Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength));
    model.dispose();
    return hash.digest('hex');
  });
}

eachEngine({ viewport: { width: 1000, height: 900 } }, (s) => {
  test(`${s.engine}: every setting from a link reaches the models: the hashes of the same training in node; the page's link reproduces it`, { timeout: 240_000 }, async () => {
    await open(s, EVERY);
    await reachLab(s.browser);
    const first = await labStops(s.browser);
    assert.equal(first.phase, 'done', first.status);
    assert.deepEqual(first.record.config.kinds, ['none', 'causal-sinusoidal', 'causal-learned']);
    assert.deepEqual(hashesOf(first), everyHere());
    assert.deepEqual(first.rows.map((r) => r[0]), ['none, bidirectional', 'sinusoidal, causal', 'learned (9 rows), causal']);
    const lengths = await s.browser.evaluate(() => [...document.querySelectorAll('#train-lengths thead th')].map((th) => th.textContent));
    assert.deepEqual(lengths, ['model', 'T = 5', 'T = 7', 'T = 9', 'T = 18 (2×, longer)', 'T = 36 (4×, longer)']);
    assert.equal(first.checks['train-causal-learned-refuses'], 'pass');
    assert.equal(first.checks['train-none-same-word'], 'pass');
    await besideFigures(s);
    // the page writes its settings into the URL; that link, opened anew, trains the same bits
    const link = await s.browser.evaluate(() => location.hash);
    for (const part of EVERY.slice(1).split('&')) assert.ok(decodeURIComponent(link).includes(part), `${part} in ${link}`);
    await open(s, link);
    await reachLab(s.browser);
    const again = await labStops(s.browser);
    assert.deepEqual(hashesOf(again), hashesOf(first));
    assert.deepEqual(await s.browser.errors(), []);
  });

  test(`${s.engine}: paused, stepped and resumed: one step for every model at each pause, the bits of a run never paused`, { timeout: 240_000 }, async () => {
    await open(s, '#train-models=sinusoidal,rotary,causal');
    await reachLab(s.browser);
    await s.browser.waitFor(() => (document.getElementById('train-progress')?.value ?? 0) > 0, null, { timeout: 60_000, what: 'training started' });
    await s.browser.click('#train-pause');
    const paused = await labStops(s.browser, ['paused']);
    const at = paused.record.models.map((m) => m.steps);
    assert.ok(at.every((n) => n === at[0] && n % 20 === 0 && n < 800), `steps at the pause: ${at}`);
    assert.match(paused.status, new RegExp(`^Paused at step ${at[0]} of 800: every model stands there`));
    assert.ok(paused.rows.every((r) => r[1] === String(at[0])), JSON.stringify(paused.rows));
    assert.equal(paused.checks['train-sinusoidal-learns'], 'pending');
    await besideFigures(s);
    assert.equal(await s.browser.evaluate(() => document.getElementById('train-start').disabled), true);
    await s.browser.click('#train-step');
    const stepped = await labStops(s.browser, ['paused']);
    assert.deepEqual(stepped.record.models.map((m) => m.steps), at.map((n) => n + 20));
    await s.browser.click('#train-resume');
    const done = await labStops(s.browser, ['done']);
    assert.deepEqual(hashesOf(done), nodeHashes({ models: ['sinusoidal', 'rotary', 'causal'] }));
    assert.equal(done.checks['train-sinusoidal-learns'], 'pass');
  });

  test(`${s.engine}: three seeds at the lesson's settings: every check passes, every generated sentence holds`, { timeout: 720_000 }, async (t) => {
    await open(s, '#train-seeds=3');
    await reachLab(s.browser);
    // 15 models × 800 steps: seconds on an idle machine, minutes on a busy one (WebKitGTK the slowest)
    const state = await labStops(s.browser, undefined, 660_000);
    assert.equal(state.phase, 'done', state.status);
    assert.deepEqual(state.record.models.map((m) => `${m.key} ${m.seed}`), ['none', 'sinusoidal', 'learned', 'rotary', 'causal'].flatMap((k) => [1, 2, 3].map((seed) => `${k} ${seed}`)));
    const names = Object.keys(state.checks);
    assert.deepEqual(names.sort(), ['train-causal-learns', 'train-conclusion-blind', 'train-conclusion-order', 'train-conclusion-order-formula',
      'train-conclusion-order-longer', 'train-conclusion-order-mask', 'train-curves', 'train-learned-learns', 'train-learned-refuses',
      'train-lengths', 'train-none-half', 'train-none-mirror-logits', 'train-rotary-learns', 'train-sinusoidal-learns']);
    assert.deepEqual(Object.values(state.checks).filter((v) => v !== 'pass'), [], JSON.stringify(state.checks));
    await besideFigures(s);
    const sentences = await s.browser.evaluate(labSentences);
    assert.ok(sentences.length >= 10, `${sentences.length} sentences`);
    assert.deepEqual(sentences.filter((x) => !x.holds), []);
    assert.ok(sentences.some((x) => /the median of 3 seeds/.test(x.text)));
    assert.equal(state.rows[0][1], '1', 'a seed column');
    // the curves: the median of the seeds, their range as a band
    const { series } = await s.browser.evaluate(async () => (await import('/js/drawn.mjs')).drawnIn(document.getElementById('train')).accuracy);
    const rotary = state.record.models.filter((m) => m.key === 'rotary').map((m) => m.curve.accuracy);
    const drawn = series.find((x) => x.name === 'rotary');
    const at = (j) => rotary.map((c) => 100 * c[j]).sort((a, b) => a - b);
    assert.deepEqual([drawn.lo[5], drawn.y[5], drawn.hi[5]], at(5));
    t.diagnostic(`${sentences.length} sentences hold; ${state.status}`);
  });

  test(`${s.engine}: a setting a model cannot take is refused beside its control, in the API's words; nothing runs`, { timeout: 60_000 }, async () => {
    await open(s, '#train-width=31&train-heads=1');
    await reachLab(s.browser);
    await s.browser.frames();
    const seen = await s.browser.evaluate(() => ({
      width: document.getElementById('train-width-refusal').textContent,
      heads: document.getElementById('train-heads-refusal').textContent,
      train: document.getElementById('train-start').disabled,
      step: document.getElementById('train-step').disabled,
      phase: document.querySelector('#train .section-body').dataset.training,
    }));
    assert.match(seen.width, /^sinusoidal: width must be even with positions: 'sinusoidal' \(the table pairs a sine with a cosine\), got 31$/);
    assert.match(seen.heads, /^rotary: width \/ heads must be even with positions: 'rotary'/);
    assert.deepEqual([seen.train, seen.step, seen.phase], [true, true, 'idle']);
    assert.deepEqual(await s.browser.errors(), []);
  });
  test(`${s.engine}: a lab value in a link that the lab does not take falls back to its default, with a visible note; the run trains the default`, { timeout: 120_000 }, async () => {
    await open(s, '#train-width=65&train-lr=0.5&train-models=none,bogus&train-seeds=2&train-steps=100&train-task=order');
    // the lab's settings are known once its module has loaded: at once when the section is near the viewport, else
    // while the browser is idle after the page is ready
    await s.browser.waitFor(() => document.querySelectorAll('#link-notes .link-note').length >= 4, null,
      { timeout: 30_000, what: 'the four notes on the link' });
    const notes = await s.browser.evaluate(() => {
      const box = document.getElementById('link-notes');
      return { visible: !box.hidden && box.checkVisibility(), lines: [...box.querySelectorAll('.link-note')].map((p) => p.textContent) };
    });
    assert.ok(notes.visible, 'the notes are not visible');
    const expect = [/^The link sets train-width=65, which “width D” does not take \(a whole number from 2 to 64\): its default, 32, is used instead\.$/,
      /^The link sets train-lr=0\.5, which “learning rate” does not take \(one of 0\.0001, 0\.0003, 0\.001, 0\.003, 0\.01, 0\.03, 0\.1\): its default, 0\.003, is used instead\.$/,
      /^The link sets train-models=none,bogus, which “Models” does not take .*: its default, none,sinusoidal,learned,rotary,causal, is used instead\.$/,
      /^The link sets train-seeds=2, which “seeds per model” does not take \(one of 1, 3\)/];
    for (const re of expect) assert.ok(notes.lines.some((l) => re.test(l)), `no note matches ${re}:\n${notes.lines.join('\n')}`);
    assert.equal(notes.lines.length, expect.length, notes.lines.join('\n'));
    // the lab's controls are drawn when its section runs, as it comes into view (and its run starts)
    await reachLab(s.browser);
    const controls = await s.browser.evaluate(() => ({
      width: document.getElementById('train-width').value, lr: document.getElementById('train-lr').value,
      seeds: document.getElementById('train-seeds').value, steps: document.getElementById('train-steps').value,
      models: [...document.querySelectorAll('#train-models input:checked')].map((b) => b.value),
    }));
    assert.deepEqual(controls, { width: '32', lr: '0.003', seeds: '1', steps: '100', models: ['none', 'sinusoidal', 'learned', 'rotary', 'causal'] });
    // the URL says what the page shows
    await s.browser.waitFor(() => location.hash === '#train-steps=100', null, { timeout: 30_000, what: 'location.hash === #train-steps=100' });
    const done = await labStops(s.browser);
    assert.equal(done.phase, 'done', done.status);
    const { width, lr, seeds, steps, kinds } = done.record.config;
    assert.deepEqual({ width, lr, seeds, steps, kinds }, { width: 32, lr: 3e-3, seeds: [1], steps: 100, kinds: ['none', 'sinusoidal', 'learned', 'rotary', 'causal'] });
    assert.deepEqual(await s.browser.errors(), []);
  });

  test(`${s.engine}: Back and Forward restore the lab's settings (models, task, the reader's sentence), and the next run trains what they show`, { timeout: 180_000 }, async () => {
    await open(s, '#train-models=causal&train-steps=100');
    await reachLab(s.browser);
    await labStops(s.browser);
    const look = () => s.browser.evaluate(() => ({
      hash: decodeURIComponent(location.hash),
      models: [...document.querySelectorAll('#train-models input:checked')].map((b) => b.value),
      task: document.getElementById('train-task').value,
      words: [...document.querySelectorAll('#train-maps .train-slot select')].map((x) => x.value).join(' '),
    }));
    const hashIs = (hash) => s.browser.waitFor((h) => decodeURIComponent(location.hash) === h, hash, { timeout: 5000, what: `the hash ${hash}` });
    await s.browser.click('#train-model-rotary');
    await hashIs('#train-models=rotary,causal&train-steps=100');
    await s.browser.evaluate(() => {
      const task = document.getElementById('train-task');
      task.value = 'lookback';
      task.dispatchEvent(new Event('change'));
    });
    await hashIs('#train-task=lookback&train-models=rotary,causal&train-steps=100');
    await s.browser.click('#train-mirror');
    await s.browser.waitFor(() => location.hash.includes('train-words='), null, { timeout: 5000, what: 'the sentence in the hash' });
    const mirrored = await look();
    assert.equal(mirrored.words, 'the person follows the robot near a box');
    const back = () => s.browser.evaluate(() => history.back());
    const forward = () => s.browser.evaluate(() => history.forward());
    const A = '#train-models=causal&train-steps=100';
    const B = '#train-models=rotary,causal&train-steps=100';
    const C = '#train-task=lookback&train-models=rotary,causal&train-steps=100';
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
    await forward();
    await hashIs(C);
    assert.deepEqual(await look(), { hash: C, models: ['rotary', 'causal'], task: 'lookback', words: original });
    await back();
    await hashIs(B);
    await back();
    await hashIs(A);
    // what Back restored is what the next change writes (no stale sentence or models) and what the next run trains
    await s.browser.evaluate(() => document.getElementById('train-width').set(16));
    await hashIs('#train-models=causal&train-width=16&train-steps=100');
    await s.browser.click('#train-start');
    const run = await labFinished(s.browser, { width: 16 });
    assert.equal(run.phase, 'done', run.status);
    assert.deepEqual([run.record.config.kinds, run.record.config.task], [['causal'], 'order']);
    assert.deepEqual(await s.browser.errors(), []);
  });

  test(`${s.engine}: the lesson's run answers the reader's sentence (probability, ✓ or ✗, lengths, labelled maps, the composer's limits) and downloads as JSON and CSV`, { timeout: 300_000 }, async () => {
    await open(s, '');
    await reachLab(s.browser);
    const lesson = await labStops(s.browser);
    assert.equal(lesson.phase, 'done', lesson.status);
    const MODELS = ['none, bidirectional', 'sinusoidal', 'learned (16 rows)', 'rotary', 'none, causal'];
    const answers = () => s.browser.evaluate(() => ({
      caption: document.querySelector('#train-maps .train-caption').textContent,
      rows: [...document.querySelectorAll('#train-maps table tbody tr')].map((row) => [...row.children].map((c) => c.textContent)),
      note: document.querySelector('#train-maps .train-length-note').textContent,
      sentence: document.querySelector('#train-maps .train-sentence').textContent,
    }));
    const answered = (test) => s.browser.waitFor(test, null, { timeout: 30_000, what: 'the models answered' }).then(answers);
    const before = await answered(() => document.querySelectorAll('#train-maps table tbody tr').length === 5 && !document.querySelector('#train-maps .train-table-block').hidden);
    assert.deepEqual(before.rows.map((r) => r[0]), MODELS);
    assert.ok(before.rows.every((r) => /^\d(\.\d+)?(e−\d+)?$/.test(r[1]) && /^[✓✗]$/.test(r[2])), JSON.stringify(before.rows));
    assert.ok(before.rows.slice(1).every((r) => r[2] === '✓'), JSON.stringify(before.rows));
    assert.match(before.note, /^T = 8: a length the models trained on/);
    await s.browser.click('#train-mirror');
    const mirrored = await answered(() => /robot comes second\)\.$/.test(document.querySelector('#train-maps .train-caption').textContent));
    assert.match(mirrored.sentence, /“the person follows the robot near a box”: robot comes second/);
    assert.equal(mirrored.rows[0][1], before.rows[0][1], 'the position-free model answers a mirror alike');
    assert.notEqual(mirrored.rows[0][2], before.rows[0][2], 'so it is right once of the two');
    // longer than any training sentence: marked, and the learned table refuses
    for (let i = 0; i < 12; i++) await s.browser.click('#train-longer');
    const longer = await answered(() => document.querySelector('#train-maps table tbody tr:nth-child(3) td')?.textContent.includes('T = 20'));
    assert.match(longer.note, /^T = 20: outside the training lengths \(8 … 16\): longer than any training sentence/);
    assert.equal(longer.rows[2][1], 'refused: ids have T = 20 positions, but the learned table has 16 rows (maxLength)');
    // every row and column of every map labelled with its position and word
    // (the maps' options change at once, their labels when they are next drawn: waited for, then compared)
    const drawnMaps = async (done) => {
      const drawn = (await import('/js/drawn.mjs')).drawnIn(document.getElementById('train')).maps;
      const labelled = drawn?.labels.every((l) => ['row', 'col'].every((k) => l.filter((x) => x.kind === k).length === 20));
      return done ? drawn : drawn?.maps.length === 4 && drawn.maps[0].rows === 20 && labelled && drawn;
    };
    const maps = await s.browser.waitFor(drawnMaps, false, { timeout: 30_000, what: 'the maps at T = 20, labelled' })
      .catch(() => s.browser.evaluate(drawnMaps, true));
    assert.equal(maps.maps.length, 4);
    const words = await s.browser.evaluate(() => [...document.querySelectorAll('#train-maps .train-slot select')].map((x) => x.value));
    assert.equal(words.length, 20);
    for (const labels of maps.labels) {
      for (const kind of ['row', 'col']) {
        const texts = labels.filter((l) => l.kind === kind).map((l) => l.text);
        assert.deepEqual(texts, words.map((word, i) => `${i} ${word}`), `${kind} labels: ${texts}`);
      }
    }
    // the composer's limits: One word fewer stops at 2 words, One word more at 64
    const limits = await s.browser.evaluate(() => {
      const slots = () => document.querySelectorAll('#train-maps .train-slot select').length;
      const fewer = document.getElementById('train-shorter');
      const more = document.getElementById('train-longer');
      while (!fewer.disabled) fewer.click();
      const shortest = [slots(), fewer.disabled, more.disabled];
      while (!more.disabled) more.click();
      return { shortest, longest: [slots(), more.disabled, fewer.disabled] };
    });
    assert.deepEqual(limits, { shortest: [2, true, false], longest: [64, true, false] });
    await s.browser.evaluate(() => document.getElementById('train-map-b').set('causal'));
    await s.browser.waitFor(() => /^right, none, causal/.test(document.querySelectorAll('#train-maps .plot-grid-title')[2]?.textContent ?? ''), null,
      { timeout: 30_000, what: 'the right map shows the causal model' });

    // the downloads: what the buttons hand the browser to save, each file's name, type and text
    await s.browser.evaluate(captureDownloads);
    await s.browser.click('#train-download-json');
    await s.browser.click('#train-download-csv');
    const files = await s.browser.evaluate(capturedFiles);
    assert.deepEqual(files.map((f) => [f.name, f.type]), [['seqorder-lab-order-step800.json', 'application/json'], ['seqorder-lab-order-step800.csv', 'text/csv']]);
    const record = JSON.parse(files[0].text);
    assert.deepEqual(record.models.map((m) => m.hash), nodeHashes({}));
    assert.deepEqual(record.models.map((m) => m.hash), hashesOf(lesson));
    assert.equal(record.settings.steps, 800);
    assert.deepEqual(record.measured, lesson.record.measured);
    const rows = files[1].text.trim().split('\n');
    assert.equal(rows[0], 'model,seed,measure,step,T,value');
    assert.ok(rows.includes(`sinusoidal,1,parameters sha256,800,,${lesson.record.models[1].hash}`));
    assert.ok(rows.includes('learned (16 rows),1,refused,800,32,"ids have T = 32 positions, but the learned table has 16 rows (maxLength)"'));
    assert.equal(rows.filter((r) => r.includes(',accuracy,')).length, 5 * 40);
    assert.deepEqual(await s.browser.errors(), []);
  });

  test(`${s.engine}: the conclusion trains the second task and the other scale with one click each; it then says what both tasks, the causal decoder and the scaling show`, { timeout: 300_000 }, async () => {
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
  await open(s, '#train-steps=200');
  await reachLab(s.browser);
  assert.equal((await labStops(s.browser)).phase, 'done');
  const conclusion = () => s.browser.evaluate(() => {
    const f = document.getElementById('train-conclusion');
    const offer = (id) => {
      const b = document.getElementById(id);
      return b.closest('.control').hidden || b.closest('.controls').hidden ? null : { label: b.textContent, disabled: b.disabled };
    };
    return {
      said: [...f.querySelectorAll('.train-finding')].map((li) => li.dataset.sentence),
      checks: Object.fromEntries([...f.querySelectorAll('[data-check]')].map((c) => [c.dataset.check, c.dataset.status])),
      missing: f.querySelector('.train-wait').hidden ? '' : f.querySelector('.train-wait').textContent,
      second: offer('train-second-task'), compare: offer('train-compare-scale'),
    };
  });
  // beside each sentence that states an outcome, its check, passing (the scaling's kinds are checked with its summary),
  // at these settings as at the lesson's
  const besideEach = (c) => {
    const want = c.said.filter((name) => !/^scaling-(?!summary)/.test(name)).map((name) => `train-${name}`);
    assert.deepEqual(Object.keys(c.checks).sort(), want.sort());
    assert.deepEqual(Object.values(c.checks).filter((v) => v !== 'pass'), [], JSON.stringify(c.checks));
  };
  const first = await conclusion();
  besideEach(first);
  await besideFigures(s);
  // at 200 steps a model's two tables differ at the curves' length: the two tables' sentence and its check are shown
  assert.ok((await s.browser.evaluate(figuresSaid)).run.said.includes('sets'));
  assert.ok(first.said.includes('conclusion-order') && first.said.includes('conclusion-order-mask'), first.said.join(' '));
  assert.match(first.missing, /Not run yet: the second task\. Its button trains it with the run’s settings, including the causal model without positions/);
  assert.match(first.missing, /Not measured yet: what × √D changes\. Its button measures it\./);
  assert.deepEqual(first.second, { label: 'Train the second task: the word 2 places back (6 models × 200 steps)', disabled: false });
  assert.deepEqual(first.compare, { label: 'Train the run shown again with the token vectors as they are (5 models × 200 steps)', disabled: false });
  assert.ok(!first.said.includes('conclusion-decoder'));

  await s.browser.evaluate(watchDone, 'train-compare-scale');
  await s.browser.click('#train-second-task');
  const second = await labFinished(s.browser, { task: 'lookback' });
  assert.equal(second.phase, 'done', second.status);
  // the run is done when the answers and maps above the buttons are drawn, the answers table's scroll cue included
  // (before, the maps came later and moved the buttons by ~800 px; the cue, at the next frame, by 23 px)
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const where = await s.browser.evaluate(whereNow);
  assert.equal(where.atDone.length, 1, 'the run became done once');
  assert.equal(where.now, where.atDone[0], 'the button to compare the scale moved after the run was done');
  assert.deepEqual(second.record.config.kinds, ['none', 'sinusoidal', 'learned', 'rotary', 'causal', 'causal-sinusoidal']);
  assert.equal(second.record.config.steps, 200);
  assert.equal(await s.browser.value('#train-task'), 'lookback');
  const both = await conclusion();
  for (const name of ['conclusion-blind', 'conclusion-order-mask', 'conclusion-lookback-mask', 'conclusion-order-longer',
    'conclusion-lookback-longer', 'conclusion-lookback-formula', 'conclusion-decoder']) assert.ok(both.said.includes(name), `${name} in ${both.said}`);
  assert.equal(both.second, null, 'the second task has run');
  besideEach(both);
  await besideFigures(s);
  for (const name of ['train-conclusion-lookback', 'train-conclusion-lookback-mask', 'train-conclusion-decoder']) assert.equal(both.checks[name], 'pass', name);
  assert.deepEqual((await s.browser.evaluate(labSentences)).filter((x) => !x.holds), []);
  const decoder = await s.browser.text('#train-conclusion [data-sentence="conclusion-decoder"]');
  assert.match(decoder, /^For the causal decoder the course builds \(a causal mask, and sinusoids added to the token vectors\)/);

  await s.browser.click('#train-compare-scale');
  const unscaled = await labFinished(s.browser, { task: 'lookback', embedScale: false });
  assert.equal(unscaled.phase, 'done', unscaled.status);
  const scaled = await conclusion();
  assert.ok(scaled.said.includes('scaling-summary') && scaled.said.includes('scaling-sinusoidal'), scaled.said.join(' '));
  assert.equal(scaled.compare, null, 'the run shown has its comparison');
  besideEach(scaled);
  await besideFigures(s);
  assert.equal(scaled.checks['train-scaling-summary'], 'pass');
  assert.doesNotMatch(scaled.missing, /√D/);
  const said = await s.browser.evaluate(() => [...document.querySelectorAll('#train-conclusion .train-finding')].map((li) => li.textContent));
  assert.ok(said.some((t) => /^sinusoidal, token vectors × √D against as they are: first reached 95% /.test(t)), said.join('\n'));
  assert.deepEqual((await s.browser.evaluate(labSentences)).filter((x) => !x.holds), []);
  assert.deepEqual(await s.browser.errors(), []);
}
