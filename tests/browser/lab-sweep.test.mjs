// Section "train"'s part of the page's sweep (tests/browser/sweep.test.mjs leaves it out: its settings start a
// training run). Every value each run setting declares to sweep (experiments/train.mjs's SETTINGS: each task, each
// model alone, all eight and the lesson's five, width, heads, layers, steps, the shortest and longest sentence and k at
// their extremes, each learning rate, the token vectors × √D on and off, one and three seeds on each task, the seed at
// its extremes) is set through the URL's hash as a link would, one at a time, from a short run (100 Adam steps, the
// other settings at their defaults; a value another setting must follow comes with it, e.g. the longest sentence with
// the shortest). The run trains what the link says; every check passes; every generated sentence (the curves', the
// lengths', the conclusion's) holds against what is drawn. A value a model cannot take is refused beside its control
// in the API's words, and nothing runs. Chromium visits every value; Firefox and WebKit one run of all eight models.
//   TRAIN_SWEEP_ONLY='width lr' node --test tests/browser/train-sweep.test.mjs   (only those settings, while working)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eachEngine } from './each-engine.mjs';
import { labFinished, labSentences, labState, reachLab } from './train-helpers.mjs';
import { siteModule } from '../node/helpers/load.mjs';

const { SETTINGS, KINDS, runConfig } = await siteModule('js/experiments/train.mjs');
const { encode, same, sweepValues } = await siteModule('js/settings.mjs');

/** The short run every visit starts from. */
const BASE = { steps: 100 };
/** The settings of the composer and the maps: no run of their own (the other browser tests set them). */
const NOT_RUNS = new Set(['words', 'mapA', 'mapB']);
/** The values that make a model refuse: width 2 at 2 heads leaves rotary positions one feature a head. */
const REFUSED = [{ width: 2 }];
const ONLY = (process.env.TRAIN_SWEEP_ONLY ?? '').split(/\s+/).filter(Boolean);

/** Every visit: the values that differ from the base (each as the setting's name → value). */
function plan() {
  const visits = [];
  for (const [name, spec] of Object.entries(SETTINGS)) {
    if (NOT_RUNS.has(name) || (ONLY.length && !ONLY.includes(name))) continue;
    for (const value of sweepValues(spec)) {
      const visit = { ...BASE, [name]: value };
      if (name === 'back') visit.task = 'lookback';  // k matters in the second task only
      if (name === 'shortest' && value > SETTINGS.longest.default) visit.longest = value;
      if (name === 'longest' && value < SETTINGS.shortest.default) visit.shortest = value;
      if (name === 'steps' && value === spec.max) visit.models = ['none', 'sinusoidal'];  // 4,000 steps: two models
      if (name === 'width' && value === spec.min) visits.push({ ...visit, heads: 1 });  // and, refused, at 2 heads
      if (name === 'seeds') visits.push({ ...visit, task: 'lookback' });
      visits.push(visit);
    }
  }
  const hashes = new Map(visits.map((v) => [hashOf(v), v]));
  return [...hashes.values()];
}

/** A visit's link, as the page writes it: the settings that differ from their defaults, in declaration order. */
function hashOf(values) {
  return `#${Object.values(SETTINGS).filter((spec) => spec.name in values && !same(values[spec.name], spec.default))
    .map((spec) => `${spec.id}=${encodeURIComponent(encode(spec, values[spec.name]))}`).join('&')}`;
}

const refused = (visit) => REFUSED.some((r) => Object.entries(r).every(([k, v]) => visit[k] === v)) && !('heads' in visit);

/** In the page: the lab's refusals shown beside their controls, and whether Train and Step are disabled. */
function refusalsShown() {
  return {
    messages: [...document.querySelectorAll('#train-settings .train-refusal')].filter((p) => !p.hidden).map((p) => `${p.id}: ${p.textContent}`),
    train: document.getElementById('train-start').disabled,
    step: document.getElementById('train-step').disabled,
  };
}

/** A visit's run configuration (the other settings at their defaults): a finished run with all of it is the visit's. */
const asConfig = (visit) => ({ ...runConfig(visit) });

eachEngine({ viewport: { width: 1000, height: 900 } }, (s) => {
  test(`${s.engine}: every swept value of the lab's settings: the run trains it, every check passes, every sentence holds`, { timeout: 1_800_000 }, async (t) => {
    const visits = s.engine === 'chromium' ? plan() : [{ ...BASE, models: KINDS.map((k) => k.key) }];
    const first = visits.findIndex((v) => !refused(v));
    await s.browser.goto(`${s.site.origin}/${hashOf(visits[first])}`);
    await s.browser.waitForSelector('body[data-ready]', { timeout: 60_000 });
    assert.equal(await s.browser.attribute('body', 'data-ready'), 'true');
    await reachLab(s.browser);  // the first visit's run starts as the section comes into view
    const found = [];
    let runs = 0;
    let checks = 0;
    let sentences = 0;
    const started = Date.now();
    for (const [i, visit] of visits.entries()) {
      const hash = hashOf(visit);
      if (i !== first) {
        await s.browser.evaluate((h) => { location.hash = h; }, hash);
        await s.browser.frames();
      }
      if (refused(visit)) {
        const shown = await s.browser.evaluate(refusalsShown);
        if (!(shown.train && shown.step && shown.messages.some((m) => /must be even with positions: 'rotary'/.test(m))))
          found.push(`${hash}: not refused as it should be: ${JSON.stringify(shown)}`);
        continue;
      }
      if (i !== first) await s.browser.click('#train-start');
      let state;
      try {
        state = await labFinished(s.browser, asConfig(visit), 600_000);
      } catch (error) {
        found.push(`${hash}: ${error.message}: ${(await s.browser.evaluate(labState)).status}`);
        continue;
      }
      runs += 1;
      if (state.phase !== 'done') found.push(`${hash}: the run ended ${state.phase}: ${state.status}`);
      checks += Object.keys(state.checks).length;
      for (const [name, status] of Object.entries(state.checks)) if (status !== 'pass') found.push(`${hash}: check ${name} ${status}`);
      const said = await s.browser.evaluate(labSentences);
      sentences += said.length;
      for (const x of said.filter((y) => !y.holds)) found.push(`${hash}: sentence ${x.name} does not hold${x.error ? ` (${x.error})` : ''}: “${x.text}”`);
    }
    t.diagnostic(`${visits.length} settings, ${runs} runs, ${checks} checks and ${sentences} generated sentences, in ${Math.round((Date.now() - started) / 1000)} s`);
    assert.ok(checks > runs, `${checks} checks over ${runs} runs`);
    assert.deepEqual(found, []);
    assert.deepEqual(await s.browser.errors(), []);
  });
});
