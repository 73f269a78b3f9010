// The bench page (lab.html: the lesson's lab, full width), on the built site ($SEQORDER_DIST/site, default dist/site).
// In every engine (tests/browser/helpers/engines; $SEQORDER_BROWSERS chooses): a small seeded run from a link fills
// the lengths table with exactly the numbers the same run gives through the JS API in node on one thread
// (createModel, step, forward, the lab's scorers), and its parameters have the same hashes, as they have again when
// the link the page writes is opened anew; "Stretch it" (pressed from the keyboard) gives the numbers of the same
// stretch in node, its claims hold and fail sabotaged, and the downloads (JSON, CSV) carry it; beside the bias maps of
// a causal ALiBi model and a bidirectional T5 relative-bias model, the check of each drawn bias against its model
// passes. In Chromium
// (playwright-core), what every page of the site must do: the build copies it into the site; its
// Content-Security-Policy is the lesson's, and nothing violates it; no console error, no failed or cross-origin
// request; axe-core finds no serious or critical violation (light and dark, and at a phone's 390 px, where the page
// does not scroll sideways); the settings sit beside the results on a wide screen; the link to the lesson carries the
// run's settings, and the lesson's "open this run in the lab" carries them back; a hostile hash falls back to the
// defaults with notes, and a long or large run waits for the reader's press. The position probe gives the numbers the
// same run gives in node, and its claims and the relative bias plot's hold, and fail when what is drawn is sabotaged.
// Randomized positions from a link give the hashes and the lengths table of the same run in node, and a range past a
// learned table's rows is refused.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { collectErrors, frames, launchBrowser, siteDir, waitInPage } from './helpers/browser.mjs';
import { eachEngine } from './helpers/each-engine.mjs';
import { captureDownloads, capturedFiles, nodeHashes } from './helpers/train-helpers.mjs';
import { loadSeqorder, siteModule } from '../node/helpers/load.mjs';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const { BENCH_RUN, SETTINGS, callOptions, modelOptions, runConfig } = await siteModule('js/lab/config.mjs');
const { TASKS, measuredLengths, measuredSet, trainingBatch, validationSet } = await siteModule('js/lab/tasks.mjs');
const { CHUNK, measureModel } = await siteModule('js/lab/run.mjs');
const { percent } = await siteModule('js/lab/findings.mjs');
const { finalVectors, probeSets, probeVectors } = await siteModule('js/lab/probe.mjs');
const { stretchModel } = await siteModule('js/lab/stretch.mjs');
const so = await loadSeqorder();

/** A small run: every kind of answer (one that learns, one at chance, a learned table that refuses the longer lengths). */
const SMALL = { task: 'lookback', back: 1, models: ['none', 'causal', 'causal-learned'], width: 8, heads: 2, steps: 100, shortest: 4, longest: 6, seed: 5 };
const hashOf = (values) => `#${Object.entries(values).map(([name, v]) => `${SETTINGS[name].id}=${Array.isArray(v) ? v.join(',') : v}`).join('&')}`;

/**
 * The lengths table of the run of `values` (the lab's setting names), computed here in node on one thread through the
 * JS API: each model trained with step on the run's batches (its held-out sentences asked after every CHUNK steps, as
 * the page's curves ask them: with randomized positions each call draws from the model's evaluation stream), then its
 * logits on each length's sentences scored by the task's scorer (run.mjs's measureModel, its calls in the page's
 * order); the rows as the page draws them (median of one seed, or the API's refusal).
 */
async function nodeTable(values) {
  const config = runConfig(values);
  const [seed] = config.seeds;
  const lengths = measuredLengths(config);
  const rows = [];
  for (const key of config.kinds) {
    const model = so.createModel(modelOptions(config, key, seed, so.taskWords.length));
    const calls = callOptions(config, key);
    try {
      for (let k = 0; k < config.steps; k++) {
        const { ids, targets } = trainingBatch(so, config, seed, k);
        model.step(ids, targets, { lr: config.lr, ...calls });
        if ((k + 1) % CHUNK === 0) model.forward(validationSet(so, config, seed).ids, calls);
      }
      // (forward as the pool's: a refusal a rejection, the calls made in the page's order)
      const handle = { forward: async (ids, options) => model.forward(ids, options) };
      const measured = await measureModel(config, handle, new Map(lengths.map((T) => [T, measuredSet(so, config, seed, T)])), calls);
      rows.push(lengths.map((T) => (measured[T].error ? `refused: ${measured[T].error.message}` : percent(measured[T].accuracy))));
    } finally {
      model.dispose();
    }
  }
  return rows;
}

/**
 * The position probe of the run of `values`, computed here in node on one thread: each model trained with step on the
 * run's batches, then probed (probe.mjs) through createModel: [[kind, accuracy, mean distance]].
 */
async function nodeProbe(values) {
  const config = runConfig(values);
  const out = [];
  for (const key of config.kinds) {
    const model = so.createModel(modelOptions(config, key, config.seeds[0], so.taskWords.length));
    for (let k = 0; k < config.steps; k++) {
      const { ids, targets } = trainingBatch(so, config, config.seeds[0], k);
      model.step(ids, targets, { lr: config.lr });
    }
    const { fit, scored } = probeSets(so, config, config.seeds[0]);
    const [a, b] = await finalVectors((o) => so.createModel(o), model, [fit.ids, scored.ids], config);
    const { accuracy, meanDistance } = probeVectors(a, b);
    out.push([key, accuracy, meanDistance]);
    model.dispose();
  }
  return out;
}

/** The same stretch in node, on the model the same run trains (stretch.mjs with the JS API in place of the pool). */
let nodeStretched = null;
async function nodeStretch(values, { method, factor, tune }) {
  if (nodeStretched) return nodeStretched;
  const config = runConfig(values);
  const [key] = config.kinds;
  const model = so.createModel(modelOptions(config, key, config.seeds[0], so.taskWords.length));
  try {
    for (let k = 0; k < config.steps; k++) {
      const { ids, targets } = trainingBatch(so, config, config.seeds[0], k);
      model.step(ids, targets, { lr: config.lr });
    }
    nodeStretched = await stretchModel({ pool: { createModel: (o) => so.createModel(o) }, so, config,
      model: { key, seed: config.seeds[0], handle: model }, method, factor, tune });
    return nodeStretched;
  } finally {
    model.dispose();
  }
}

eachEngine({ requires: 'lab.html' }, (s) => {
  let loads = 0;
  /** Loads the page anew at `hash` (a query of its own each time) and waits for its run to end. */
  const openRun = async (hash) => {
    loads += 1;
    await s.browser.goto(`${s.site.origin}/lab.html?load=${loads}${hash}`);
    await s.browser.waitFor(() => ['done', 'error'].includes(document.querySelector('#lab .section-body')?.dataset.training), null,
      { timeout: 150_000, interval: 200, what: 'the run to end' });
  };
  const hashes = () => s.browser.evaluate(() => import('/js/drawn.mjs').then(({ drawnIn }) => {
    const r = drawnIn(document.getElementById('lab')).record;
    return { state: r.state, hashes: r.models.map((m) => m.hash) };
  }));

  test(`${s.engine}: a small seeded run from a link fills the table with the numbers the same run gives in node; the link the page writes gives the same hashes`, { timeout: 300_000 }, async () => {
    await openRun(hashOf(SMALL));
    const { record, cells } = await s.browser.evaluate(() => import('/js/drawn.mjs').then(({ drawnIn }) => {
      const r = drawnIn(document.getElementById('lab')).record;
      const rows = [...document.querySelectorAll('#lab-lengths table tbody tr')].map((tr) => [...tr.children].map((c) => c.textContent));
      return { record: { state: r.state, hashes: r.models.map((m) => m.hash) }, cells: rows.slice(0, -1).map((row) => row.slice(1)) };
    }));
    assert.equal(record.state, 'done');
    assert.deepEqual(record.hashes, nodeHashes(SMALL));
    assert.deepEqual(cells, await nodeTable(SMALL));
    // the round trip: the page's own link, opened anew, trains the same models bit for bit
    const link = await s.browser.evaluate(() => location.hash);
    await openRun(link);
    assert.equal(await s.browser.evaluate(() => location.hash), link);
    assert.deepEqual(await hashes(), record);
    assert.deepEqual(await s.browser.errors(), []);
  });

  test(`${s.engine}: beside the bias maps, each drawn bias (causal ALiBi's, the bidirectional T5 relative bias's) is checked against its model, and passes`, { timeout: 180_000 }, async () => {
    await openRun(hashOf({ ...SMALL, models: ['causal-alibi', 'relative'], mapA: 'causal-alibi', mapB: 'relative' }));
    await s.browser.evaluate(() => { document.querySelector('#lab-maps details').open = true; });  // the composer is folded
    // one map a head (2) for each model, and a check beside them for each
    const checks = await s.browser.waitFor(() => {
      const found = [...document.querySelectorAll('#lab-maps [data-check^="lab-bias-"]')]
        .map((c) => [c.dataset.check, c.dataset.status, c.querySelector('.check-claim').textContent]);
      return document.querySelectorAll('.lab-bias-block:not([hidden]) .plot-heatmap').length === 4 && found.length === 2 && found;
    }, null, { timeout: 30_000, what: 'the bias maps and their checks' });
    assert.deepEqual(checks.map((c) => c.slice(0, 2)), [['lab-bias-causal-alibi', 'pass'], ['lab-bias-relative', 'pass']]);
    const within = String.raw` within 1e-6 \(largest difference \d\.\de-\d+, 2 heads, T = 8\)$`;
    assert.match(checks[0][2], new RegExp(`^causal ALiBi \\(seed 5\\), “[^”]+”: a copy .*${within}`));
    assert.match(checks[1][2], new RegExp(`^T5 relative bias \\(seed 5\\), “[^”]+”: a copy .*${within}`));
    assert.deepEqual(await s.browser.errors(), []);
  });

  test(`${s.engine}: stretch it: a causal rotary model stretched by NTK ×2 and fine-tuned 25 steps gives the numbers of the same stretch in node; its claims hold, and fail sabotaged; the downloads carry it (Stretch pressed from the keyboard)`, { timeout: 300_000 }, async () => {
    const values = { ...SMALL, models: ['causal-rotary'] };
    const stretch = { method: 'ntk', factor: 2, tune: 25 };
    await openRun(hashOf(values));
    await s.browser.evaluate(({ method, factor, tune }) => {
      document.getElementById('lab-stretch-method').set(method);
      document.getElementById('lab-stretch-factor').set(factor);
      document.getElementById('lab-stretch-steps').set(tune);
    }, stretch);
    // Stretch, from the keyboard
    await s.browser.focus('#lab-stretch-go');
    await s.browser.press('Enter');
    await s.browser.waitForSelector('#lab-stretch [data-check="lab-stretch-tuned"]', { timeout: 120_000 });
    const found = await s.browser.evaluate(async () => {
      const { drawnIn } = await import('/js/drawn.mjs');
      const { verifyClaims } = await import('/js/claims.mjs');
      const section = document.getElementById('lab');
      const names = ['stretch-zero', 'stretch-tuned'];
      const holding = () => Object.fromEntries(verifyClaims(section).filter((c) => names.includes(c.name)).map((c) => [c.name, c.holds]));
      const checks = Object.fromEntries([...document.querySelectorAll('#lab-stretch [data-check]')].map((c) => [c.dataset.check, c.dataset.status]));
      const { stretch } = drawnIn(section);
      const rows = structuredClone(stretch.rows);
      const before = holding();
      // sabotage: the stretched model's accuracy at the stretched length, zero-shot and tuned, as drawn 6 points lower
      const at = stretch.lengths.indexOf(stretch.length);
      stretch.rows.zeroShot[at] -= 0.06;
      stretch.rows.tuned[at] -= 0.06;
      const sabotaged = holding();
      stretch.rows = rows;
      return { rows, checks, before, sabotaged, after: holding(), frequencies: drawnIn(section)['stretch-frequencies'].series.map((x) => Array.from(x.y)) };
    });
    const result = await nodeStretch(values, stretch);
    for (const row of ['zeroShot', 'tuned', 'plain'])
      assert.deepEqual(found.rows[row], result.lengths.map((T) => result[row][T].accuracy), row);
    assert.deepEqual(found.checks, { 'lab-stretch-zero': 'pass', 'lab-stretch-tuned': 'pass' });
    assert.deepEqual(found.before, { 'stretch-zero': true, 'stretch-tuned': true });
    assert.deepEqual(found.sabotaged, { 'stretch-zero': false, 'stretch-tuned': false });
    assert.deepEqual(found.after, found.before);
    // width 8, 2 heads: 2 pairs each, turning by 1 and 10000^(−1/2) = 1/100 a word; NTK ×2 raises the base to
    // 10000 · 2^(4/2), so the second turns by 1/200
    const near = (xs, ys) => xs.length === ys.length && xs.every((x, i) => Math.abs(x - ys[i]) <= 1e-15 * ys[i]);
    assert.ok(near(found.frequencies[0], [1, 1 / 100]), String(found.frequencies[0]));
    assert.ok(near(found.frequencies[1], [1, 1 / 200]), String(found.frequencies[1]));
    // the downloads: the run with its model's options, its probe and the stretch (its settings and every accuracy)
    await s.browser.evaluate(captureDownloads);
    await s.browser.click('#lab-download-json');
    await s.browser.click('#lab-download-csv');
    const files = await s.browser.evaluate(capturedFiles);
    assert.deepEqual(files.map((f) => [f.name, f.type]), [['seqorder-lab-lookback-step100.json', 'application/json'], ['seqorder-lab-lookback-step100.csv', 'text/csv']]);
    const record = JSON.parse(files[0].text);
    assert.deepEqual(record.stretches.map((x) => [x.key, x.seed, x.step, x.method, x.factor, x.tune, x.length, x.frequencies.temperature]),
      [['causal-rotary', 5, 100, 'ntk', 2, 25, 12, 1]]);
    for (const row of ['zeroShot', 'tuned', 'plain']) assert.deepEqual(record.stretches[0][row], result[row], row);
    assert.deepEqual([record.models[0].options.positions, record.models[0].options.causal, record.probe.length], ['rotary', true, 1]);
    const rows = files[1].text.trim().split('\n');
    for (const row of ['causal rotary,5,option:rotaryBase,,,10000', 'causal rotary,5,stretch 1: method,100,,ntk', 'causal rotary,5,stretch 1: fine-tuning steps,100,,25',
      `causal rotary,5,"stretch 1: stretched, tuned accuracy",125,12,${result.tuned[12].accuracy}`,
      `causal rotary,5,"stretch 1: not stretched, tuned accuracy",125,12,${result.plain[12].accuracy}`]) assert.ok(rows.includes(row), row);
    assert.equal(rows.filter((r) => r.includes(',stretch 1: zero-shot ')).length, result.lengths.length);
    assert.equal(rows.filter((r) => r.startsWith('causal rotary,5,probe: ')).length, 2);
    assert.deepEqual(await s.browser.errors(), []);
  });
});

describe('chromium: the page as every page of the site', () => {
  let session;
  let errors;
  let violations;
  before(async () => {
    session = await launchBrowser({ viewport: { width: 1280, height: 900 }, requires: 'lab.html' });
    errors = collectErrors(session.page);
    await session.context.addInitScript(() => {
      globalThis.__cspViolations = [];
      addEventListener('securitypolicyviolation', (e) => globalThis.__cspViolations.push(`${e.violatedDirective} blocked ${e.blockedURI || 'inline'}`));
    });
    violations = async () => session.page.evaluate(() => globalThis.__cspViolations);
  });
  after(async () => {
    await session?.close();
  });

  let loads = 0;
  /** Loads the page anew at `hash` (a query of its own each time: a hash alone would not reload it). */
  const open = async (hash) => {
    loads += 1;
    await session.page.goto(`${session.origin}/lab.html?load=${loads}${hash}`, { waitUntil: 'load' });
    await session.page.waitForSelector('body[data-ready]', { timeout: 60_000 });
    assert.equal(await session.page.getAttribute('body', 'data-ready'), 'true', await session.page.textContent('#status'));
  };
  const runEnds = () => session.page.waitForSelector('#lab .section-body:is([data-training="done"], [data-training="error"])', { timeout: 120_000 });

  test('the build copies the page and its entry into the site', () => {
    for (const file of ['lab.html', 'js/lab-page.mjs', 'js/lab/section.mjs']) assert.ok(existsSync(path.join(siteDir, file)), file);
  });

  test('a first visit: the bench\'s run, its settings written in the URL, trained at once; every check passes (its time printed)', { timeout: 150_000 }, async (t) => {
    const started = Date.now();
    await open('');
    await runEnds();
    const seconds = (Date.now() - started) / 1000;
    const { hash, checks, status } = await session.page.evaluate(() => ({
      hash: location.hash, status: document.querySelector('.lab-status').textContent,
      checks: [...document.querySelectorAll('#lab [data-check]')].map((c) => [c.dataset.check, c.dataset.status]),
    }));
    t.diagnostic(`the bench's default run: ${seconds.toFixed(1)} s from opening the page (${status})`);
    // the settings in the declaration's order, as the URL lists them
    const settings = Object.values(SETTINGS).filter((s) => s.name in BENCH_RUN)
      .map((s) => `${s.id}=${[BENCH_RUN[s.name]].flat().join('%2C')}`);
    assert.equal(hash, `#${settings.join('&')}`);
    assert.ok(checks.length >= 8, JSON.stringify(checks));
    assert.deepEqual(checks.filter(([, v]) => v !== 'pass'), []);
  });

  test('the probe and the relative bias by offset: the probe\'s numbers are the same run\'s in node; their claims hold; sabotaged, they do not', { timeout: 150_000 }, async () => {
    const values = { ...SMALL, models: ['none', 'causal', 'causal-relative'] };
    await open(hashOf(values));
    await runEnds();
    const found = await session.page.evaluate(async () => {
      const { drawnIn } = await import('/js/drawn.mjs');
      const { verifyClaims } = await import('/js/claims.mjs');
      const section = document.getElementById('lab');
      const names = ['lab-probe', 'lab-mask', 'offsets-causal-relative'];
      const holding = () => Object.fromEntries(verifyClaims(section).filter((c) => names.includes(c.name)).map((c) => [c.name, c.holds]));
      const checks = Object.fromEntries([...document.querySelectorAll('#lab-probe [data-check]')].map((c) => [c.dataset.check, c.dataset.status]));
      const drawn = drawnIn(section);
      const kinds = drawn.probe.kinds.map((k) => [k.key, k.median, k.distance]);
      const before = holding();
      // sabotage: the probe's numbers as drawn one point higher; the plot's first head read one offset further out
      const { probe } = drawn;
      const y = drawn['offsets-causal-relative'].series[0].y;
      const kept = [probe.kinds.map((k) => k.median), Float64Array.from(y)];
      probe.kinds.forEach((k) => { k.median += 0.01; });
      y.copyWithin(0, 1);
      const sabotaged = holding();
      probe.kinds.forEach((k, i) => { k.median = kept[0][i]; });
      y.set(kept[1]);
      return { kinds, checks, before, sabotaged, after: holding(), plots: document.querySelectorAll('#lab-offsets:not([hidden]) canvas').length };
    });
    assert.deepEqual(found.kinds, await nodeProbe(values));
    assert.deepEqual(found.checks, { 'lab-probe': 'pass', 'lab-mask': 'pass', 'lab-probe-least-squares': 'pass' });
    assert.deepEqual(found.before, { 'lab-probe': true, 'lab-mask': true, 'offsets-causal-relative': true });
    assert.deepEqual(found.sabotaged, { 'lab-probe': false, 'lab-mask': false, 'offsets-causal-relative': false });
    assert.deepEqual(found.after, found.before);
    assert.equal(found.plots, 1);
    assert.deepEqual(errors, []);
  });

  test('randomized positions from a link: the hashes and the lengths table of the same run in node (lengths past the range refused), the range in the run\'s name and its downloads; past a learned table\'s rows, refused', { timeout: 150_000 }, async () => {
    const values = { task: 'lookback', back: 1, models: ['causal', 'causal-rotary', 'alibi'], width: 8, heads: 2, steps: 100, seed: 5, positionRange: 64 };
    // a learned table of 16 rows cannot take positions drawn from 0 … 63: refused beside the setting, in the API's words
    await open(hashOf({ ...values, models: ['learned'] }));
    const refused = await session.page.evaluate(() => ({
      text: document.getElementById('lab-positionRange-refusal').textContent, hidden: document.getElementById('lab-positionRange-refusal').hidden,
      train: document.getElementById('lab-train').disabled, status: document.querySelector('.lab-status').textContent,
    }));
    assert.equal(refused.hidden, false);
    assert.match(refused.text, /^learned \(16 rows\): .*positionRange/);
    assert.equal(refused.train, true);
    assert.match(refused.status, /^Not run: learned \(16 rows\): /);
    // the run (the page left once it has ended: its pool's workers have loaded)
    await open(hashOf(values));
    await runEnds();
    const found = await session.page.evaluate(() => import('/js/drawn.mjs').then(({ drawnIn }) => {
      const r = drawnIn(document.getElementById('lab')).record;
      const rows = [...document.querySelectorAll('#lab-lengths table tbody tr')].map((tr) => [...tr.children].map((c) => c.textContent));
      return { state: r.state, hashes: r.models.map((m) => m.hash), cells: rows.slice(0, -1).map((row) => row.slice(1)), caption: document.querySelector('#lab-run .lab-caption').textContent };
    }));
    assert.equal(found.state, 'done');
    assert.deepEqual(found.hashes, nodeHashes(values));
    const table = await nodeTable(values);
    assert.deepEqual(found.cells, table);
    // 8× the longest (128 words) is past the range for the models that draw positions, not for the one without
    assert.deepEqual(table.map((row) => row.at(-1).startsWith('refused: ')), [false, true, true]);
    assert.match(found.caption, /^The word 1 back, width 8, positions drawn from 0 … 63, 100 steps, seed 5: /);
    await session.page.evaluate(captureDownloads);
    await session.page.click('#lab-download-csv');
    const [csv] = await session.page.evaluate(capturedFiles);
    assert.ok(csv.text.split('\n').includes(',,setting:positionRange,,,64'), csv.text.slice(0, 400));
    assert.deepEqual(errors, []);
  });

  test('a run: the CSP is the lesson\'s, nothing violates it, no error, no failed or cross-origin request; the settings sit beside the results', { timeout: 150_000 }, async (t) => {
    const requests = [];
    // this test's requests only: the listeners go when it ends (a response read after the browser closed would reject)
    const finished = (r) => r.response().then((response) => requests.push({ url: r.url(), status: response?.status() }), () => {});
    const failed = (r) => requests.push({ url: r.url(), status: 'failed' });
    session.page.on('requestfinished', finished);
    session.page.on('requestfailed', failed);
    t.after(() => {
      session.page.off('requestfinished', finished);
      session.page.off('requestfailed', failed);
    });
    await open(hashOf({ ...SMALL, models: ['causal-rotary', 'causal-alibi', 'causal-relative'], mapA: 'causal-alibi' }));
    await runEnds();
    const csp = await session.page.getAttribute('meta[http-equiv="Content-Security-Policy"]', 'content');
    const lesson = readFileSync(path.join(siteDir, 'index.html'), 'utf8').match(/http-equiv="Content-Security-Policy" content="([^"]+)"/)[1];
    assert.equal(csp, lesson);
    assert.deepEqual(await violations(), []);
    assert.deepEqual(errors, []);
    assert.deepEqual(requests.filter((r) => !r.url.startsWith(session.origin) || r.status === 'failed' || r.status >= 400), []);
    const [settings, results] = await Promise.all(['#lab-settings', '#lab-run'].map((id) => session.page.locator(id).boundingBox()));
    assert.ok(settings.x + settings.width <= results.x, `the settings (x ${settings.x}, width ${settings.width}) beside the results (x ${results.x})`);
    assert.equal(await session.page.evaluate(() => document.querySelector('#lab-run tbody tr td:last-child').textContent.length > 0), true);
    // the lengths as a map, and (the maps unfolded) the bias the ALiBi model's heads add to their scores, one map a head
    assert.equal(await session.page.locator('#lab-lengths .lab-lengths-map:not([hidden]) canvas').count(), 1);
    await session.page.evaluate(() => { document.querySelector('#lab-maps details').open = true; });
    // (the checks beside them: every engine's test above; the axe test below reads the maps)
    await waitInPage(session.page, () => document.querySelectorAll('.lab-bias-block:not([hidden]) .plot-heatmap').length === 2, null);
    // the relative model's bias by offset, and the probe's table (the axe test below reads them too)
    assert.equal(await session.page.locator('#lab-offsets:not([hidden]) canvas').count(), 1);
    assert.equal(await session.page.locator('#lab-probe .lab-probe-table tbody tr').count(), 4);
    assert.deepEqual(errors, []);
  });

  test('axe-core: no serious or critical violation, light and dark, and on a phone, where nothing scrolls sideways', { timeout: 60_000 }, async () => {
    await session.page.evaluate(axeSource);
    const serious = () => session.page.evaluate(async () => {
      const result = await globalThis.axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } });
      return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.impact} ${v.id}: ${v.nodes.slice(0, 5).map((n) => n.target.join(' ')).join(', ')}`);
    });
    for (const colorScheme of ['light', 'dark']) {
      await session.page.emulateMedia({ colorScheme });
      await frames(session.page);
      assert.deepEqual(await serious(), [], colorScheme);
    }
    await session.page.setViewportSize({ width: 390, height: 844 });
    await frames(session.page);
    assert.deepEqual(await serious(), [], 'at 390 px');
    const overflow = await session.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `the page scrolls ${overflow} px sideways at 390 px`);
    await session.page.setViewportSize({ width: 1280, height: 900 });
    await session.page.emulateMedia({ colorScheme: 'light' });
  });

  test('the link to the lesson carries the run\'s settings, and the lesson\'s link to the lab carries them back', { timeout: 120_000 }, async () => {
    // the settings as this page wrote them in its URL (the non-default ones, as the lesson reads them)
    const settings = await session.page.evaluate(() => location.hash.slice(1));
    assert.match(settings, /^lab-task=lookback&lab-back=1&lab-models=causal-rotary%2Ccausal-alibi%2Ccausal-relative&lab-width=8&lab-steps=100&lab-shortest=4&lab-longest=6&lab-seed=5&lab-mapA=causal-alibi$/);
    assert.equal(await session.page.getAttribute('#lab-elsewhere', 'href'), `index.html#lab&${settings}`);
    await session.page.click('#lab-elsewhere');
    await waitInPage(session.page, () => document.querySelector('#lab-elsewhere'), null, { timeout: 60_000 });
    assert.equal(await session.page.evaluate(() => location.hash), `#lab&${settings}`, 'the lesson kept every setting the link gave');
    assert.equal(await session.page.getAttribute('#lab-elsewhere', 'href'), `lab.html#${settings}`);
    await runEnds();  // (the link leads to the lab, whose run starts as it comes into view)
    // the lesson's sections near the lab have run too (none left running when the next test leaves the page)
    await waitInPage(session.page, () => document.body.dataset.ready === 'true' &&
      ![...document.querySelectorAll('main > section')].some((s) => ['queued', 'running'].includes(s.dataset.state)), null, { timeout: 60_000 });
    assert.deepEqual(errors, []);
  });

  test('a hostile hash: refused values fall back to their defaults with notes; a long or large run waits for the press', { timeout: 60_000 }, async () => {
    await open('#lab-steps=4000&lab-seeds=3&lab-layers=4&lab-width=64&lab-heads=abc&lab-models=none,sinusoidal,learned,rotary,causal,x&lab-seed=-1&lab-nothing=1&%E0%A4%A');
    const notes = await session.page.textContent('#link-notes');
    for (const key of ['lab-heads=abc', 'lab-models=', 'lab-seed=-1', 'lab-nothing', '%E0%A4%A']) assert.ok(notes.includes(key), `a note on ${key}: ${notes}`);
    const state = await session.page.evaluate(() => ({
      phase: document.querySelector('#lab .section-body').dataset.training, status: document.querySelector('.lab-status').textContent,
    }));
    assert.equal(state.phase, 'idle');
    assert.match(state.status, /^Not started: this run, .* is long or large: press Train to start it\.$/);
    assert.deepEqual(errors, []);
    assert.deepEqual(await violations(), []);
  });
});
