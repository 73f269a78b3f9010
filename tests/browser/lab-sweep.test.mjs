// The lab's part of the page's sweep (tests/browser/sweep.test.mjs leaves it out: its settings start a training run).
// Every value each run setting declares to sweep (config.mjs's SETTINGS: each task, each model alone, all eight and
// the lesson's, width, heads, layers, steps, the shortest and longest sentence and k at their extremes, each learning
// rate, the token vectors × √D and as they are, randomized positions off and at their widest, one and three seeds) is
// set through the URL's hash as a link would, one at a time, from a short run (100 Adam steps, the other settings at
// their defaults; a value another setting must follow comes with it); then the seeds 1, 3, 7, 11, 42 and 1e9 at the
// lesson's settings (800 steps), each task there, two layers on the word 1 back, the comparison of × √D (the
// conclusion's button), and Reset then Step. After each: every check of the section passes and every claim (the
// curves', the table's, the conclusion's) holds against what is drawn; a refused setting (the shortest past the
// longest; positions drawn from past a learned table's rows) shows its refusal, and the status and checks say "not
// run". Chromium visits every value; Firefox and WebKit the lesson's run with all eight models at one seed.
//   LAB_SWEEP_ONLY='width lr' node --test tests/browser/lab-sweep.test.mjs   (only those settings, while working)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eachEngine } from './helpers/each-engine.mjs';
import { labClaims, labFinished, labState, reachLab } from './helpers/train-helpers.mjs';
import { siteModule } from '../node/helpers/load.mjs';

const { SETTINGS, KINDS, headsOffered, runConfig } = await siteModule('js/lab/config.mjs');
const { encode, same, sweepValues } = await siteModule('js/settings.mjs');

/** The short run every declared value is visited from. */
const BASE = { steps: 100 };
/** The settings of the composer and the maps: no run of their own (the other browser tests set them). */
const NOT_RUNS = new Set(['words', 'mapA', 'mapB', 'seed']);
const ONLY = (process.env.LAB_SWEEP_ONLY ?? '').split(/\s+/).filter(Boolean);
/** The lesson's settings at the seeds a reader tried, each task, and two layers on the word 1 back. */
const LESSON_VISITS = [...[1, 3, 7, 11, 42, 1e9].map((seed) => ({ seed })), { task: 'lookback' }, { task: 'lookback', back: 1, layers: 2 }];

/** Every visit: the values that differ from the defaults (each as the setting's name → value). */
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
      if (name === 'seeds') visits.push({ ...visit, task: 'lookback' });
      visits.push(visit);
    }
  }
  if (!ONLY.length || ONLY.includes('seed')) visits.push(...LESSON_VISITS);
  // first, refused: a link can ask for them (changed later, one setting moves the other along)
  return [...REFUSED, ...new Map(visits.map((v) => [hashOf(v), v])).values()];
}

/** Visits the lab refuses: the shortest past the longest; positions drawn from past a learned table's rows. */
const REFUSED = [{ ...BASE, shortest: 16, longest: 8 }, { ...BASE, models: ['learned'], positionRange: 64 }];

/** A visit's link, as the page writes it: the settings that differ from their defaults, in declaration order. */
function hashOf(values) {
  return `#${Object.values(SETTINGS).filter((spec) => spec.name in values && !same(values[spec.name], spec.default))
    .map((spec) => `${spec.id}=${encodeURIComponent(encode(spec, values[spec.name]))}`).join('&')}`;
}

/** The run a visit trains: its settings, with the heads moved to the nearest the width and models offer. */
function expected(visit) {
  const config = runConfig(visit);
  const heads = Math.max(...headsOffered(config.width, config.kinds).filter((h) => h <= config.heads));
  return { ...config, heads };
}

/** In the page: the refusals shown beside the controls, the status, and whether Train and Step are disabled. */
function refusalsShown() {
  return {
    messages: [...document.querySelectorAll('#lab-settings .lab-refusal')].filter((p) => !p.hidden).map((p) => p.textContent),
    status: document.querySelector('#lab .lab-status').textContent,
    pending: [...document.querySelectorAll('#lab [data-check][data-status="pending"] .check-details')].map((d) => d.textContent),
    train: document.getElementById('lab-train').disabled,
  };
}

/** The checks that do not pass, and the claims that do not hold, of the run on screen: lines naming the visit. */
async function problems(browser, label) {
  const found = [];
  const state = await browser.evaluate(labState);
  if (state.phase !== 'done' && state.phase !== 'paused') found.push(`${label}: the run ended ${state.phase}: ${state.status}`);
  for (const [name, status] of Object.entries(state.checks)) if (status !== 'pass') found.push(`${label}: check ${name} ${status}`);
  const claims = await browser.evaluate(labClaims);
  for (const x of claims.filter((y) => !y.holds)) found.push(`${label}: claim ${x.name} does not hold${x.error ? ` (${x.error})` : ''}: “${x.text}”`);
  return { found, checks: Object.keys(state.checks).length, claims: claims.length };
}

eachEngine({ viewport: { width: 1000, height: 900 } }, (s) => {
  test(`${s.engine}: the lab's swept settings: the run trains them, every check passes, every claim holds`, { timeout: 2_400_000 }, async (t) => {
    const chromium = s.engine === 'chromium';
    const visits = chromium ? plan() : [{ models: KINDS.slice(0, 8).map((k) => k.key) }];
    const refused = (v) => REFUSED.includes(v);
    await s.browser.goto(`${s.site.origin}/${hashOf(visits[0])}`);
    await s.browser.waitForSelector('body[data-ready]', { timeout: 60_000 });
    assert.equal(await s.browser.attribute('body', 'data-ready'), 'true');
    await reachLab(s.browser);  // the first visit's run starts as the section comes into view
    const found = [];
    let [runs, checks, claims] = [0, 0, 0];
    const started = Date.now();
    const tally = (p) => { found.push(...p.found); checks += p.checks; claims += p.claims; runs += 1; };
    for (const [i, visit] of visits.entries()) {
      const hash = hashOf(visit);
      if (i > 0) {
        await s.browser.evaluate((h) => { location.hash = h; }, hash);
        await s.browser.frames();
      }
      if (refused(visit)) {
        const shown = await s.browser.evaluate(refusalsShown);
        if (!(shown.train && shown.messages.length === 1 && shown.status.startsWith('Not run: ') && shown.pending.every((d) => d.startsWith('not run: '))))
          found.push(`${hash}: not refused as it should be: ${JSON.stringify(shown)}`);
        continue;
      }
      if (i > 0) {
        const shown = await s.browser.evaluate(refusalsShown);
        if (shown.train) {
          found.push(`${hash}: Train is disabled: ${JSON.stringify(shown)}`);
          continue;
        }
        await s.browser.click('#lab-train');
      }
      try {
        await labFinished(s.browser, expected(visit), 300_000);
      } catch (error) {
        found.push(`${hash}: ${error.message}`);
        continue;
      }
      tally(await problems(s.browser, hash));
    }
    if (chromium && !ONLY.length) {
      // the conclusion's comparison of × √D: the run shown again with the token vectors as they are
      await s.browser.click('#lab-compare-scale');
      await labFinished(s.browser, { embedScale: 1 }, 300_000);
      tally(await problems(s.browser, 'the × √D comparison'));
      const said = await s.browser.evaluate(() => [...document.querySelectorAll('#lab-conclusion [data-check]')].map((c) => c.dataset.check));
      if (!said.includes('lab-scaling')) found.push(`the × √D comparison: no claim lab-scaling among ${said.join(' ')}`);
      // Reset, then Step: every claim is of the run on screen, paused at step 20
      await s.browser.click('#lab-reset');
      await s.browser.click('#lab-step');
      await s.browser.waitFor(() => document.querySelector('#lab .section-body').dataset.training === 'paused', null, { timeout: 120_000, what: 'paused after Step' });
      tally(await problems(s.browser, 'Reset then Step'));
    }
    t.diagnostic(`${visits.length} settings, ${runs} runs, ${checks} checks and ${claims} claims, in ${Math.round((Date.now() - started) / 1000)} s`);
    assert.ok(checks > runs, `${checks} checks over ${runs} runs`);
    assert.deepEqual(found, []);
    assert.deepEqual(await s.browser.errors(), []);
  });
});
