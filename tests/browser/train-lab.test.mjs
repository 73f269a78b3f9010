// The lab of section "train" in every engine (tests/browser/engines: Chromium, Firefox ESR, WebKitGTK): a link's
// settings train the run they describe, bit for bit (every parameter hash equals the same training in node, on one
// thread), and the link the page writes reproduces it; every setting reaches the models; pause, step and resume end
// with the same bits as a run never paused, every model at one step at each pause; three seeds at the lesson's
// settings (the section's part of the page's sweep): every check passes and every generated sentence holds against
// what is drawn; a setting a model cannot take is refused beside its control in the API's words.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { eachEngine } from './each-engine.mjs';
import { labSentences, labState, labStops, nodeHashes, reachLab } from './train-helpers.mjs';
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
    assert.equal(await s.browser.evaluate(() => document.getElementById('train-start').disabled), true);
    await s.browser.click('#train-step');
    const stepped = await labStops(s.browser, ['paused']);
    assert.deepEqual(stepped.record.models.map((m) => m.steps), at.map((n) => n + 20));
    await s.browser.click('#train-resume');
    const done = await labStops(s.browser, ['done']);
    assert.deepEqual(hashesOf(done), nodeHashes({ models: ['sinusoidal', 'rotary', 'causal'] }));
    assert.equal(done.checks['train-sinusoidal-learns'], 'pass');
  });

  test(`${s.engine}: three seeds at the lesson's settings: every check passes, every generated sentence holds`, { timeout: 300_000 }, async (t) => {
    await open(s, '#train-seeds=3');
    await reachLab(s.browser);
    const state = await labStops(s.browser);
    assert.equal(state.phase, 'done', state.status);
    assert.deepEqual(state.record.models.map((m) => `${m.key} ${m.seed}`), ['none', 'sinusoidal', 'learned', 'rotary', 'causal'].flatMap((k) => [1, 2, 3].map((seed) => `${k} ${seed}`)));
    const names = Object.keys(state.checks);
    assert.deepEqual(names.sort(), ['train-causal-learns', 'train-learned-learns', 'train-learned-refuses', 'train-none-half',
      'train-none-mirror-logits', 'train-rotary-learns', 'train-sinusoidal-learns']);
    assert.deepEqual(Object.values(state.checks).filter((v) => v !== 'pass'), [], JSON.stringify(state.checks));
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
});
