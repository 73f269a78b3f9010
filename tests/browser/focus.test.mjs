// The lesson's focus, in Chromium: at load the page shows at most 2,500 words (the main line readable in about ten
// minutes), with the details folded: each check shows its verdict and claim while its numbers unfold, the sections
// that preview the next lesson say so and fold their experiments (their summary counts their checks), the aside
// states the lesson's scope and folds its figures. Nothing folded is lost: every check the page had before the
// folding is still there and passes once opened, and every select shows its longest option whole.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { click, frames, openLesson, unfold } from './helpers/browser.mjs';

const MAX_WORDS = 2500;
const PREVIEWS = ['order-experiments', 'four-steps', 'incremental'];

/** Every check the page showed before its details were folded (none may be lost). */
const CHECKS_BEFORE = [
  'no-where-lookup', 'no-where-robot-same', 'no-where-only-reordered', 'add-position-sum', 'add-position-width',
  'add-position-token-unchanged', 'add-position-differs', 'add-position-sum-ambiguous', 'sinusoids-d8-four-pairs',
  'sinusoids-formula', 'sinusoids-pair-speeds', 'sinusoids-pair-0-comes-back', 'sinusoids-all-pairs-apart',
  'experiment-position0-sines', 'experiment-position0-cosines', 'experiment-norms', 'experiment-robot-differs',
  'experiment-shape', 'norm-every-position', 'norm-every-position-float32', 'norm-position0', 'start-offset-live',
  'start-offset-live-restart', 'start-offset-rows', 'start-offset-restart-differs', 'batch-shape', 'batch-same-positions',
  'batch-sentences-apart', 'order-equivariant', 'order-not-invariant', 'order-positions-break-equivariance',
  'order-pairs-equivariant', 'order-relabel-vs-pairs', 'order-causal-not-equivariant',
  'order-causal-later-never-changes-earlier', 'steps-scores-are-dot-products', 'steps-scaled-is-scores-over-sqrt-d',
  'steps-weights-are-softmax', 'steps-weights-rows-sum-to-one', 'steps-masked-weights-exactly-zero',
  'steps-output-is-weighted-sum', 'steps-diagonal', 'steps-repeated-word-mask-or-positions', 'incremental-cached-equals-full',
  'incremental-default-query-start', 'incremental-restart-at-zero-differs', 'incremental-top-left-differs',
  'cmp-none-content-only', 'cmp-rope-relative', 'cmp-added-not-relative', 'cmp-learned-absolute', 'cmp-not-extra-heads',
  'cmp-learned-lookup', 'cmp-learned-past-end', 'cmp-sinusoid-anywhere', 'cmp-learned-extend-append',
  'cmp-learned-extend-stretch', 'cmp-float32-seqorder', 'cmp-float32-angles-drift', 'cmp-layouts-permuted',
  'cmp-layouts-t2t-differs', 'cmp-shift-rotation',
];

let session;
let page;

before(async () => {
  session = await openLesson({ lab: false });
  ({ page } = session);
});

after(async () => {
  await session?.close();
});

/** The words a reader sees: text in rendered elements, outside closed <details> (but their summaries). */
function visibleWords() {
  const counts = {};
  let total = 0;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || el.closest('script, style, noscript, .visually-hidden') || !el.checkVisibility({ visibilityProperty: true })) continue;
    const closed = el.closest('details:not([open])');
    if (closed && !el.closest('summary')) continue;
    const words = n.textContent.trim().split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
    const where = el.closest('section')?.id ?? 'header and footer';
    counts[where] = (counts[where] ?? 0) + words;
    total += words;
  }
  return { total, counts };
}

test(`at load the page shows at most ${MAX_WORDS} words`, async (t) => {
  const { total, counts } = await page.evaluate(visibleWords);
  t.diagnostic(`${total} words visible: ${Object.entries(counts).map(([k, v]) => `${k} ${v}`).join(', ')}`);
  assert.ok(total <= MAX_WORDS, `${total} words visible at load (at most ${MAX_WORDS}): ${JSON.stringify(counts)}`);
});

test('each check shows its verdict and claim; its numbers unfold', async () => {
  const report = await page.evaluate(() => [...document.querySelectorAll('[data-check]')].map((check) => {
    const folded = check.parentElement.closest('details:not([open])');
    const summary = check.querySelector('.check-fold > summary');
    return {
      name: check.dataset.check,
      shown: !folded,
      summary: summary ? summary.textContent.replace(/\s+/g, ' ').trim() : null,
      claimShown: Boolean(summary?.querySelector('.check-claim')?.checkVisibility()),
      numbersHidden: !check.querySelector('.check-details').checkVisibility(),
      hasNumbers: check.querySelector('.check-details').textContent.length > 0,
    };
  }));
  const shown = report.filter((c) => c.shown && !c.name.startsWith('lab-'));
  assert.ok(shown.length >= 25, `${shown.length} checks shown at load`);
  for (const c of shown) {
    assert.match(c.summary ?? '', /^(✓ pass|✗ fail|… pending) \S/, `${c.name}: its summary shows no verdict and claim`);
    assert.ok(c.claimShown && c.numbersHidden && c.hasNumbers, `${c.name}: ${JSON.stringify(c)}`);
  }
  // opening one shows its numbers
  await click(page, '[data-check="sinusoids-formula"] .check-fold > summary');
  assert.ok(await page.isVisible('[data-check="sinusoids-formula"] .check-details'));
  assert.match(await page.textContent('[data-check="sinusoids-formula"] .check-details'), /max \|seqorder − Math\.sin\/Math\.cos\| =/);
  await click(page, '[data-check="sinusoids-formula"] .check-fold > summary');
});

test('the previews of the next lesson say so, fold their experiments, and count their checks in the summary', async () => {
  for (const id of PREVIEWS) {
    const r = await page.evaluate((sid) => {
      const section = document.getElementById(sid);
      const body = section.querySelector('details.preview-body');
      return {
        tag: section.querySelector('.preview-tag')?.checkVisibility() && section.querySelector('.preview-tag').textContent,
        folded: Boolean(body) && !body.open && body.contains(section.querySelector('.section-body')),
        summary: body?.querySelector('summary').textContent,
        checks: section.querySelectorAll('[data-check][data-status="pass"]').length,
      };
    }, id);
    assert.equal(r.tag, 'Preview of the next lesson', id);
    assert.ok(r.folded, `${id}: its experiment is not folded`);
    assert.equal(r.summary, `Open the preview: its ${r.checks} checks, all pass`, id);
  }
});

test('the aside keeps the lesson\'s scope in view and folds its figures', async () => {
  const scope = await page.textContent('#comparisons .callout.scope');
  assert.match(scope, /This lesson’s model uses one positional method: fixed sinusoids added to the token vectors/);
  assert.match(scope, /learned and rotary models of the lab/);
  const folded = await page.$$eval('#comparisons .fig-folded > details', (els) => els.map((d) => d.open));
  assert.ok(folded.length >= 5 && folded.every((open) => !open), JSON.stringify(folded));
});

test('no check is lost: every one is on the page and passes once its parts are open; selects show their options whole', async () => {
  await unfold(page);
  const checks = await page.$$eval('[data-check]', (els) => els.map((el) => ({ name: el.dataset.check, status: el.dataset.status })));
  const names = checks.map((c) => c.name);
  for (const name of CHECKS_BEFORE) assert.ok(names.includes(name), `check ${name} is gone`);
  assert.deepEqual(checks.filter((c) => c.status !== 'pass' && !c.name.startsWith('lab-')), []);
  await frames(page);
  // (a select its section hides, as the lesson's lab hides rotary's settings at their defaults, shows nothing)
  const cut = await page.$$eval('main select', (selects) => selects.filter((s) => s.checkVisibility()).map((s) => {
    const ctx = document.createElement('canvas').getContext('2d');
    const style = getComputedStyle(s);
    ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const widest = Math.max(...[...s.options].map((o) => ctx.measureText(o.textContent).width));
    // the text box: the select's inner width less its padding and the arrow (about 1.5em)
    const room = s.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 1.5 * parseFloat(style.fontSize);
    return { id: s.id, widest: Math.ceil(widest), room: Math.floor(room) };
  }).filter((s) => s.widest > s.room));
  assert.deepEqual(cut, [], 'selects whose longest option is cut off');
});
