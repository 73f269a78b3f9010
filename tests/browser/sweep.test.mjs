// Every setting of every section (read from the sections' declarations, web/js/settings.mjs), set through the URL's
// hash as a link would: the product of a section's toggles and selects, and each slider and number at its minimum,
// its maximum and a middle value (the others at their defaults). At every setting every check of the section passes
// and was computed at the controls' current values, and every generated sentence's predicate (web/js/claims.mjs)
// holds against what the section draws. Chromium visits every setting; Firefox and WebKit one setting per section
// (its last one: every toggle on, every select at its last option). The section "lab" is swept by its own tests
// (tests/browser/lab*.test.mjs): its settings start a training run.
// Then, in Chromium, the sweep's own test: the page's words and checks as they once were in section four-steps (the
// notice calling the two "the" rows identical without positions, and the checks beside it computed without the
// causal mask, while the mask is drawn) are found by the same problem finder.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eachEngine } from './helpers/each-engine.mjs';
import { showEverySection } from './helpers/sections.mjs';

const SKIP = new Set(['lab']);
/** $SWEEP_ONLY (ids, space-separated): only these sections (while working on one). */
const ONLY = (process.env.SWEEP_ONLY ?? '').split(/\s+/).filter(Boolean);
/** More combinations of toggles and selects than this: each is varied alone instead. */
const MAX_PRODUCT = 64;

/** In the page: every section's settings states to visit, as hashes ({ id, states: [hash] }). */
function plan([skip, maxProduct]) {
  return Promise.all([...document.querySelectorAll('main > section')].filter((s) => s.querySelector('.section-body') && !skip.includes(s.id))
    .map(async (section) => {
      const { settings = {} } = await import(`/js/sections/${section.id}.mjs`);
      const { encode, sweepValues, same } = await import('/js/settings.mjs');
      const specs = Object.values(settings);
      const choices = specs.filter((s) => s.kind === 'toggle' || s.kind === 'select' || s.kind === 'set');
      const ranges = specs.filter((s) => !choices.includes(s));
      const combos = [];
      const product = choices.reduce((n, s) => n * sweepValues(s).length, 1);
      if (product <= maxProduct) {
        const walk = (i, picked) => {
          if (i === choices.length) combos.push(picked);
          else for (const v of sweepValues(choices[i])) walk(i + 1, { ...picked, [choices[i].id]: v });
        };
        walk(0, {});
      } else {
        for (const s of choices) for (const v of sweepValues(s)) combos.push({ [s.id]: v });
      }
      for (const s of ranges) for (const v of sweepValues(s)) combos.push({ [s.id]: v });
      const byId = Object.fromEntries(specs.map((s) => [s.id, s]));
      const hash = (combo) => '#' + Object.entries(combo).filter(([id, v]) => !same(v, byId[id].default))
        .map(([id, v]) => `${id}=${encodeURIComponent(encode(byId[id], v))}`).join('&');
      const states = [...new Set(combos.map(hash))];
      return { id: section.id, states: states.length ? states : ['#'] };
    }));
}

/** In the page: the section's failing or stale checks and its sentences whose predicate fails, as lines. */
async function problems(id) {
  const { verifyClaims } = await import('/js/claims.mjs');
  const section = document.getElementById(id);
  const stampOf = (check) => {
    const group = check.closest('.fig');
    if (!group) return '';
    const extra = (group.dataset.controls ?? '').split(/\s+/).filter(Boolean).map((c) => document.getElementById(c));
    return [...group.querySelectorAll('input, select, button[aria-pressed]'), ...extra]
      .map((c) => `${c.id}=${c.dataset.value ?? c.getAttribute('aria-pressed') ?? c.value}`).join(' ');
  };
  const found = [];
  const checks = section.querySelectorAll('[data-check]');
  if (checks.length === 0) found.push('no checks');
  for (const check of checks) {
    const text = check.textContent.replace(/\s+/g, ' ').trim();
    if (check.dataset.status !== 'pass') found.push(`check ${check.dataset.check} ${check.dataset.status}: ${text}`);
    else if (check.dataset.fixed !== 'true' && (check.dataset.at ?? '') !== stampOf(check))
      found.push(`check ${check.dataset.check} is stale: computed at "${check.dataset.at}", controls now "${stampOf(check)}"`);
  }
  for (const s of verifyClaims(section)) {
    if (!s.holds) found.push(`sentence ${s.name} does not hold against what is drawn${s.error ? ` (${s.error})` : ''}: “${s.text}”`);
  }
  return found;
}

/** Sets the page's hash as a link would, then waits for the section to re-render. */
async function visit(browser, id, hash) {
  await browser.evaluate((h) => { location.hash = h; }, hash);
  await browser.frames();
  await browser.frames();
  // a section whose checks come back from the page's worker: until none is pending
  await browser.waitFor((sid) => !document.querySelector(`#${sid} [data-check][data-status="pending"]`), id,
    { timeout: 20_000, what: `the checks of ${id} computed` });
}

/**
 * In the page: section four-steps as it once was, at the settings now drawn: the notice's words (rows identical
 * without positions: the predicate is what the words say of the rows drawn) and the checks of the repeated word and
 * the diagonal computed without the causal mask, with the repeated-word check's old claim.
 */
async function oldFourSteps() {
  const { say, showChecks } = await import('/js/claims.mjs');
  const { STEPS_SENTENCE, diagonalCheck, repeatedWord, repeatedWordCheck } = await import('/js/experiments/four-steps.mjs');
  const { vocabularyTable } = await import('/js/experiments/sentence.mjs');
  const { loadSeqorder } = await import('/lib/seqorder.mjs');
  const so = await loadSeqorder();
  const table = vocabularyTable();
  const section = document.getElementById('four-steps');
  const pressed = (id) => document.getElementById(id).getAttribute('aria-pressed') === 'true';
  const settings = { words: STEPS_SENTENCE, positions: pressed('steps-positions'), projections: pressed('steps-projections') };
  const { word, first, second } = repeatedWord(STEPS_SENTENCE);
  const sameRows = (t) => t.data.subarray(first * t.cols, (first + 1) * t.cols).every((v, j) => v === t.data[second * t.cols + j]);
  say(section.querySelector('.notice'), [{
    name: 'steps-repeated-rows',
    text: `The two “${word}” rows are identical without positions.`,
    holds: (drawn) => sameRows(drawn.weights) && sameRows(drawn.output),
  }]);
  const repeat = repeatedWordCheck(so, table, { ...settings, positions: false, causal: false });
  const list = section.querySelector('[data-check="steps-diagonal"]').closest('.checks');
  showChecks(list, [
    diagonalCheck(so, table, { ...settings, causal: false }),
    { ...repeat, claim: `Without positions, the two “${word}” rows get the same weights and outputs, bit for bit.` },
  ]);
}

eachEngine({ viewport: { width: 1000, height: 900 }, open: '/' }, (s) => {
  test(`${s.engine}: at every setting of every section, every check passes and every generated sentence holds`, { timeout: 900_000 }, async (t) => {
    await s.browser.waitForSelector('body[data-ready]', { timeout: 60_000 });
    assert.equal(await s.browser.attribute('body', 'data-ready'), 'true');
    await showEverySection(s.browser);
    const sections = (await s.browser.evaluate(plan, [[...SKIP], MAX_PRODUCT])).filter(({ id }) => ONLY.length === 0 || ONLY.includes(id));
    const everything = s.engine === 'chromium';
    const found = [];
    let visited = 0;
    let sentences = 0;
    for (const { id, states } of sections) {
      for (const hash of everything ? states : [states.at(-1)]) {
        await visit(s.browser, id, hash);
        visited += 1;
        found.push(...(await s.browser.evaluate(problems, id)).map((p) => `#${id} at ${hash}: ${p}`));
      }
      sentences += await s.browser.evaluate(async (sid) => (await import('/js/claims.mjs')).verifyClaims(document.getElementById(sid)).length, id);
    }
    await s.browser.evaluate(() => { location.hash = ''; });
    t.diagnostic(`${visited} settings over ${sections.length} sections; ${sentences} generated sentences at the last ones`);
    assert.ok(sentences > 0, 'no generated sentence on the page');
    assert.deepEqual(found, []);
    assert.deepEqual(await s.browser.errors(), []);
  });

  test(`${s.engine}: the sweep finds section four-steps' old words and its checks computed without the mask`, { skip: s.engine !== 'chromium' && 'Chromium only' }, async () => {
    // causal mask on, positions off: the rows differ as drawn; all three on: the mask changes which rows weigh
    // themselves most
    for (const [hash, expected] of [['#steps-causal=1&steps-positions=0', ['steps-repeated-rows', 'steps-repeated-word-mask-or-positions']],
      ['#steps-causal=1&steps-projections=1', ['steps-diagonal']]]) {
      await visit(s.browser, 'four-steps', hash);
      assert.deepEqual(await s.browser.evaluate(problems, 'four-steps'), [], `today's page at ${hash}`);
      await s.browser.evaluate(oldFourSteps);
      const found = await s.browser.evaluate(problems, 'four-steps');
      for (const name of expected) {
        assert.ok(found.some((p) => p.startsWith(`sentence ${name} does not hold`)), `at ${hash}, ${name} is not found: ${JSON.stringify(found)}`);
      }
      await visit(s.browser, 'four-steps', '#');
    }
    assert.deepEqual(await s.browser.evaluate(problems, 'four-steps'), []);
  });
});
