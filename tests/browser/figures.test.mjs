// seqorder/plot and seqorder/checks given what they cannot draw, in Chromium (on a blank page of the site with the
// package's stylesheet): the cases the issue found, each refused up front with a TypeError or RangeError naming the
// option and the figure left as it was, or drawn, never a loop without a bound (a call that does not come back within
// LIMIT_MS fails); a check left behind by a slider is visibly stale; append takes typed arrays; and the property test
// (helpers/figure-properties.mjs, fast-check in the page): SEQORDER_PROPERTY_RUNS cases per property (300 by default),
// seeded (SEQORDER_PROPERTY_SEED).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { collectErrors, launchBrowser, root } from './helpers/browser.mjs';

const seed = Number(process.env.SEQORDER_PROPERTY_SEED ?? 20261130);
const numRuns = Number(process.env.SEQORDER_PROPERTY_RUNS ?? 300);
/** The longest one call of a figure may take, drawing included (a bound on hangs, not a speed test). */
const LIMIT_MS = 10_000;

/** An import map for fast-check's ES module and the subpaths of pure-rand it imports, served from node_modules. */
function importMap() {
  const imports = { 'fast-check': '/__nm/fast-check/lib/fast-check.js' };
  const { exports } = JSON.parse(readFileSync(path.join(root, 'node_modules', 'pure-rand', 'package.json'), 'utf8'));
  for (const [sub, target] of Object.entries(exports)) {
    if (typeof target === 'object' && target.import) imports[`pure-rand${sub.slice(1)}`] = `/__nm/pure-rand/${target.import.slice(2)}`;
  }
  return JSON.stringify({ imports });
}

let session;
let page;
let errors;
const fetched = [];

before(async () => {
  session = await launchBrowser({ viewport: { width: 1000, height: 900 } });
  ({ page } = session);
  errors = collectErrors(page);
  session.context.on('request', (request) => fetched.push(new URL(request.url()).pathname));
  const body = `<!doctype html><title>figures</title><script type="importmap">${importMap()}</script>` +
    '<link rel="stylesheet" href="/lib/figures/figures.css"><link rel="stylesheet" href="/css/style.css"><body></body>';
  await page.route(`${session.origin}/__figures/**`, (route) => {
    const { pathname } = new URL(route.request().url());
    if (pathname.endsWith('/properties.mjs')) {
      return route.fulfill({ status: 200, contentType: 'text/javascript', body: readFileSync(path.join(root, 'tests/browser/helpers/figure-properties.mjs'), 'utf8') });
    }
    return route.fulfill({ status: 200, contentType: 'text/html', body });
  });
  await page.route(`${session.origin}/__nm/**`, (route) => {
    const file = path.join(root, 'node_modules', new URL(route.request().url()).pathname.slice('/__nm/'.length));
    return route.fulfill({ status: 200, contentType: 'text/javascript', body: readFileSync(file, 'utf8') });
  });
  await page.goto(`${session.origin}/__figures/index.html`, { waitUntil: 'load' });
});

after(async () => {
  await session?.close();
});

/** page.evaluate(fn, arg), failing after LIMIT_MS (the page may be lost in a loop then: the test fails, it does not hang). */
function bounded(fn, arg) {
  let timer;
  const limit = new Promise((resolve, reject) => { timer = setTimeout(() => reject(new Error(`no answer within ${LIMIT_MS} ms: a loop without a bound?`)), LIMIT_MS); });
  return Promise.race([page.evaluate(fn, arg), limit]).finally(() => clearTimeout(timer));
}

test('linePlot near rounding: data that agree up to rounding are drawn; ranges a few ulps wide are refused, naming them', async () => {
  const outcomes = await bounded(async () => {
    const { linePlot } = await import('/lib/figures/plot/index.mjs');
    const cases = {
      'y [1, 1, 0.9999999999999999]': { series: [{ name: 'acc', x: [0, 1, 2], y: [1, 1, 0.9999999999999999] }] },
      'y [1, 1 + 2^-52]': { series: [{ name: 'acc', x: [0, 1], y: [1, 1 + 2 ** -52] }] },
      'x [1e16, 1e16 + 2]': { series: [{ name: 'big', x: [1e16, 1e16 + 2], y: [0, 1] }] },
      'yRange [0.3, 0.1 + 0.2]': { series: [{ name: 's', x: [0, 1], y: [0.3, 0.3] }], yRange: [0.3, 0.1 + 0.2] },
      'xRange [1e16, 1e16 + 2]': { series: [], xRange: [1e16, 1e16 + 2] },
      'yLog, yRange [0, 1]': { series: [], yLog: true, yRange: [0, 1] },
      'yLog, y 5e-324 and 1': { series: [{ name: 'tiny', x: [0, 1], y: [5e-324, 1] }], yLog: true },
    };
    const out = {};
    for (const [name, options] of Object.entries(cases)) {
      document.body.replaceChildren();
      const box = document.body.appendChild(document.createElement('div'));
      try {
        const plot = linePlot(box, options);
        plot.flush();
        const ticks = plot.layout().labels.filter((l) => l.kind === 'y' || l.kind === 'x').map((l) => l.text);
        out[name] = `drawn, ${ticks.length} ticks`;
      } catch (error) {
        out[name] = `${error.name}: ${error.message}`;
      }
    }
    return out;
  });
  for (const name of ['y [1, 1, 0.9999999999999999]', 'y [1, 1 + 2^-52]', 'x [1e16, 1e16 + 2]', 'yLog, y 5e-324 and 1']) {
    assert.match(outcomes[name], /^drawn, [1-9]\d* ticks$/, name);
  }
  assert.match(outcomes['yRange [0.3, 0.1 + 0.2]'], /^RangeError: seqorder\/plot: yRange's ends must be apart by at least 2\^-32 of the larger/);
  assert.match(outcomes['xRange [1e16, 1e16 + 2]'], /^RangeError: seqorder\/plot: xRange's ends must be apart/);
  assert.match(outcomes['yLog, yRange [0, 1]'], /^RangeError: seqorder\/plot: yRange on a log axis \(yLog\) must lie within \[1e-300,1e\+300\]/);
});

test('append: 200,000 points at once, and typed arrays (model.train\'s losses); past the cap refused with the plot as it was', async () => {
  const seen = await bounded(async () => {
    const { linePlot } = await import('/lib/figures/plot/index.mjs');
    document.body.replaceChildren();
    const plot = linePlot(document.body.appendChild(document.createElement('div')), { series: [] });
    const x = Float64Array.from({ length: 200_000 }, (_, i) => i);
    const losses = Float64Array.from(x, (i) => 1 / (1 + i));
    plot.append('loss', x, losses);
    plot.append('loss', Int32Array.of(200_000), Float32Array.of(0.5));
    plot.append('loss', 200_001, 0.25);
    plot.flush();
    const { series } = plot.options();
    const refused = [];
    for (const [xs, ys] of [[new Float64Array(2 ** 20), new Float64Array(2 ** 20)], [new BigInt64Array(1), [1]], [[1, 2], [1]], ['1', 1]]) {
      try {
        plot.append('loss', xs, ys);
      } catch (error) {
        refused.push(`${error.name}: ${error.message}`);
      }
    }
    const after = plot.options().series[0];
    return { points: series[0].x.length, last: [series[0].x.at(-1), series[0].y.at(-1)], kept: after.x.length, refused, caller: x.length };
  });
  assert.deepEqual(seen.last, [200_001, 0.25]);
  assert.equal(seen.points, 200_002);
  assert.equal(seen.kept, 200_002, 'a refused append changed the series');
  assert.equal(seen.caller, 200_000, "the caller's array was changed");
  assert.deepEqual(seen.refused.map((r) => r.replace(/: .*/, '')), ['RangeError', 'TypeError', 'RangeError', 'TypeError']);
  assert.match(seen.refused[0], /append: the series "loss" may hold at most 1048576 points, would hold 1248578/);
});

test('circlePlot, heatmap, colors: a trail entry that is not [x, y], rows 0 × cols 1e9, a color url(…): refused, nothing drawn or fetched', async () => {
  const seen = await bounded(async () => {
    const { circlePlot, heatmap, linePlot } = await import('/lib/figures/plot/index.mjs');
    document.body.replaceChildren();
    const box = document.body.appendChild(document.createElement('div'));
    const refused = {};
    const attempt = (name, call) => {
      try {
        call();
        refused[name] = 'accepted';
      } catch (error) {
        refused[name] = `${error.name}: ${error.message}`;
      }
    };
    const circle = circlePlot(box, { points: [{ name: 'p', x: 1, y: 0, trail: [[1, 0], [0, 1]] }] });
    attempt('trail entry 5', () => circle.update({ points: [{ name: 'p', x: 1, y: 0, trail: [[1, 0], 5] }] }));
    attempt('trail entry [1]', () => circlePlot(box, { points: [{ name: 'p', x: 1, y: 0, trail: [[1]] }] }));
    circle.flush();
    attempt('rows 0 × cols 1e9', () => heatmap(box, { data: [], rows: 0, cols: 1e9 }));
    attempt('color url()', () => linePlot(box, { series: [{ name: 's', x: [0], y: [0], color: 'url(/__figures/fetched.png)' }] }));
    attempt('append color url()', () => linePlot(box, {}).append('s', 0, 0, { color: 'red; background: url(/__figures/fetched2.png)' }));
    attempt('color var()', () => circlePlot(box, { points: [{ name: 'p', x: 0, y: 1, color: 'var(--x)' }] }));
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    return { refused, trail: circle.options().points[0].trail.length, figures: box.querySelectorAll('figure').length };
  });
  assert.match(seen.refused['trail entry 5'], /^TypeError: seqorder\/plot: points\[0\]\.trail\[1\] must be \[x, y\], got number/);
  assert.match(seen.refused['trail entry [1]'], /^TypeError: seqorder\/plot: points\[0\]\.trail\[0\] must be \[x, y\]/);
  assert.match(seen.refused['rows 0 × cols 1e9'], /^RangeError: seqorder\/plot: cols must be at most 32767, got 1000000000/);
  assert.match(seen.refused['color url()'], /^RangeError: seqorder\/plot: series\[0\]\.color must be a CSS color/);
  assert.match(seen.refused['append color url()'], /^RangeError: seqorder\/plot: append: the series "s"\.color must be a CSS color/);
  assert.match(seen.refused['color var()'], /^RangeError: seqorder\/plot: points\[0\]\.color must be a CSS color/);
  assert.equal(seen.trail, 2, 'the refused update changed the plot');
  assert.equal(seen.figures, 2, 'figures were added by refused calls (the circle plot and the line plot of the append)');
  assert.deepEqual(fetched.filter((p) => p.includes('fetched')), []);
});

test('renderChecks: a name whose element id another element has is refused before any check is rendered; summarize sees the rest', async () => {
  const seen = await bounded(async () => {
    const { checkList, renderChecks, summarize } = await import('/lib/figures/checks.mjs');
    document.body.replaceChildren();
    const box = document.body.appendChild(document.createElement('div'));
    box.append(Object.assign(document.createElement('p'), { id: 'check-total', textContent: 'a paragraph of the page' }));
    const list = checkList(box);
    renderChecks(list, [{ name: 'first', pass: false, claim: 'fails' }]);
    let error;
    try {
      renderChecks(list, [{ name: 'second', pass: false }, { name: 'total', pass: true }]);
    } catch (e) {
      error = `${e.name}: ${e.message}`;
    }
    let twice;
    try {
      renderChecks(list, [{ name: 'x', pass: true }, { name: 'x', pass: false }]);
    } catch (e) {
      twice = `${e.name}: ${e.message}`;
    }
    const paragraph = document.getElementById('check-total');
    return { error, twice, summary: summarize(box), paragraph: [paragraph.textContent, paragraph.dataset.status ?? null] };
  });
  assert.match(seen.error, /^RangeError: seqorder\/checks: checks\[1\]\.name "total" would be the element id check-total, which another element of the page has$/);
  assert.match(seen.twice, /^RangeError: seqorder\/checks: checks\[1\]\.name "x" is given twice/);
  assert.deepEqual(seen.summary, { passed: 0, failed: 1, failures: [{ name: 'first', text: '✗ failfails ' }], pending: [] });
  assert.deepEqual(seen.paragraph, ['a paragraph of the page', null]);
});

test('a check left behind by a slider is visibly stale, saying the value it was computed at; rendering it again clears that', async () => {
  const { STALE_AFTER_MS } = await page.evaluate(() => import('/lib/figures/checks.mjs').then((m) => ({ STALE_AFTER_MS: m.STALE_AFTER_MS })));
  await page.evaluate(async () => {
    const { checkList, renderChecks } = await import('/lib/figures/checks.mjs');
    document.body.replaceChildren();
    const fig = document.body.appendChild(Object.assign(document.createElement('div'), { className: 'fig' }));
    const label = fig.appendChild(Object.assign(document.createElement('label'), { htmlFor: 'width', textContent: 'width D' }));
    label.after(Object.assign(document.createElement('input'), { type: 'range', id: 'width', min: 2, max: 64, step: 2, value: 16 }));
    globalThis.list = checkList(fig);
    globalThis.render = (width) => renderChecks(globalThis.list, [{ name: 'even', pass: width % 2 === 0, claim: `D = ${width} is even` }]);
    globalThis.render(16);
  });
  const look = () => page.evaluate(() => {
    const check = document.querySelector('[data-check="even"]');
    const tag = check.querySelector('.check-tag');
    const style = getComputedStyle(check);
    return { at: check.dataset.at, stale: check.dataset.stale ?? null, tag: tag.textContent, shown: tag.checkVisibility(), border: style.borderTopStyle, background: style.backgroundColor };
  });
  const fresh = await look();
  assert.deepEqual({ at: fresh.at, stale: fresh.stale, tag: fresh.tag }, { at: 'width=16', stale: null, tag: '' });
  await page.focus('#width');
  await page.keyboard.press('ArrowRight');  // 18, and nothing computes the check again
  await page.waitForFunction(() => document.querySelector('[data-check="even"]').dataset.stale === 'true', null, { timeout: STALE_AFTER_MS + 5000, polling: 50 });
  const stale = await look();
  assert.equal(stale.tag, 'stale: computed at width D 16, now 18');
  assert.ok(stale.shown, 'the stale tag is not shown');
  assert.equal(stale.border, 'dashed');
  assert.notEqual(stale.background, fresh.background, 'a stale check keeps its verdict\'s color');
  await page.evaluate(() => globalThis.render(18));
  const again = await look();
  assert.deepEqual(again, { ...fresh, at: 'width=18' });
  // back at the value it was computed at, it is fresh again without rendering
  await page.keyboard.press('ArrowLeft');
  await new Promise((resolve) => setTimeout(resolve, STALE_AFTER_MS + 300));
  assert.equal((await look()).stale, 'true');
  await page.keyboard.press('ArrowRight');
  await new Promise((resolve) => setTimeout(resolve, STALE_AFTER_MS + 300));
  assert.equal((await look()).stale, null);
});

test(`property: every call draws or is refused up front, naming the option, the figure as it was (${numRuns} runs each)`, { timeout: 900_000 }, async (t) => {
  // (a call that loops for ever takes the page with it: the run is bounded as a whole too)
  let timer;
  const lost = new Promise((resolve) => { timer = setTimeout(() => resolve({ failure: `the property run did not come back within ${30 * LIMIT_MS} ms: a call loops without a bound?` }), 30 * LIMIT_MS); });
  const report = await Promise.race([lost, page.evaluate(async ({ seed, numRuns, limitMs }) => {
    const { run } = await import('/__figures/properties.mjs');
    try {
      return run({ seed, numRuns, limitMs });
    } catch (error) {
      return { failure: String(error?.message ?? error) };
    }
  }, { seed, numRuns, limitMs: LIMIT_MS })]).finally(() => clearTimeout(timer));
  assert.equal(report.failure, undefined, report.failure);
  for (const [name, { runs, drawn, refused }] of Object.entries(report)) {
    t.diagnostic(`${name}: ${runs} cases, ${drawn} calls drawn, ${refused} refused`);
    assert.equal(runs, numRuns, name);
  }
  assert.ok(Object.values(report).every((r) => r.drawn > 0), 'a property drew nothing');
  assert.ok(Object.entries(report).filter(([name]) => !/valid/.test(name)).every(([, r]) => r.refused > 0), 'a property refused nothing');
  assert.deepEqual(errors, []);
});
