// The lesson page in every engine (tests/browser/helpers/engines: Chromium, Firefox ESR, WebKitGTK; $SEQORDER_BROWSERS
// chooses): the built site served on 127.0.0.1 (tests/browser/helpers/site.mjs), loaded until <body data-ready="true"> and the
// lab's default run has ended. Then: every live check passes, every link within the page leads to an element of it,
// nothing is recorded as an error and no request fails, the heavy sweeps ran in the page's module Worker, a slider
// redraws the heatmap, the heatmap reads out by keyboard and by pointer, the page fits a phone-sized window, where Shift+Tab and Tab never leave the focused
// element under a figure's sticky controls, and without WebAssembly or when the module cannot load the page says so.
// (hardening.test.mjs adds, in Chromium, what needs its request interception and flags.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eachEngine } from './helpers/each-engine.mjs';
import { showEverySection } from './helpers/sections.mjs';
import { indexHtml, withScripts } from './helpers/site.mjs';

const LAB_DONE = '#lab .section-body:is([data-training="done"], [data-training="stopped"], [data-training="error"])';

/** The checks the lesson must show, by name (the positions lesson and the batch). */
const LESSON_CHECKS = ['no-where-robot-same', 'add-position-sum', 'add-position-differs', 'add-position-sum-ambiguous',
  'sinusoids-d8-four-pairs', 'sinusoids-formula', 'sinusoids-pair-speeds', 'sinusoids-pair-0-comes-back',
  'experiment-position0-sines', 'experiment-position0-cosines', 'experiment-norms', 'experiment-robot-differs',
  'norm-every-position', 'norm-position0', 'start-offset-rows', 'start-offset-live', 'start-offset-live-restart',
  'batch-shape', 'batch-same-positions', 'batch-sentences-apart', 'lab-curve-causal', 'lab-answer-order'];

/** A hash of the sinusoids heatmap's pixels, read in the page. */
function heatmapHash() {
  const canvas = document.querySelector('#sinusoids .plot-heatmap canvas');
  const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
  let h = 2166136261;
  for (let i = 0; i < data.length; i += 1) h = Math.imul(h ^ data[i], 16777619) >>> 0;
  return h.toString(16);
}

/** The most focus stops a keyboard walk through the page may take (it has about 170) before it counts as lost. */
const MAX_STOPS = 400;

/** In the page: a button first and one last in <body>, where a keyboard walk through the page starts and ends. */
function placeWalkEnds() {
  for (const [where, end] of [['prepend', 'start'], ['append', 'end']]) {
    const button = document.createElement('button');
    button.type = 'button';
    button.dataset.walkEnd = end;
    button.textContent = `the walk's ${end}`;
    document.body[where](button);
  }
}

/**
 * In the page, once the focus has moved and a frame is drawn: the focused element, and whether the reader sees it.
 * At narrow widths a figure's controls (.fig > .controls, .fig > .controls-sticky) are sticky (style.css): a bar covers
 * the element where their boxes meet and the bar is painted above it, as any bar is above the rest of a figure, and a
 * later bar above an earlier one (same z-index). The element's top must be on screen too.
 */
async function focusStop() {
  await new Promise((resolve) => {
    requestAnimationFrame(() => requestAnimationFrame(resolve));
    setTimeout(resolve, 200);  // a timer too, where the browser draws no frames
  });
  const element = document.activeElement;
  const walk = (globalThis.__walk ??= { ids: new WeakMap(), count: 0 });  // a number for each element (two may read alike)
  if (!walk.ids.has(element)) walk.ids.set(element, (walk.count += 1));
  const name = (e) => `${e.localName}${e.id ? `#${e.id}` : ''}${[...e.classList].map((c) => `.${c}`).join('')}`;
  const text = (element.getAttribute('aria-label') || element.textContent || '').replace(/\s+/g, ' ').trim();
  const box = element.getBoundingClientRect();
  const own = element.closest('.fig > :is(.controls, .controls-sticky)');
  const covers = [];
  for (const bar of document.querySelectorAll('.fig > .controls, .fig > .controls-sticky')) {
    if (bar === own || !bar.checkVisibility() || getComputedStyle(bar).position !== 'sticky') continue;
    if (own && bar.compareDocumentPosition(own) & Node.DOCUMENT_POSITION_FOLLOWING) continue;  // painted under it
    const b = bar.getBoundingClientRect();
    const height = Math.min(box.bottom, b.bottom) - Math.max(box.top, b.top);
    if (height > 0.5 && Math.min(box.right, b.right) - Math.max(box.left, b.left) > 0.5) {
      covers.push(`${Math.round(height)} px under ${name(bar)} of #${bar.closest('section')?.id} (${Math.round(b.top)} to ${Math.round(b.bottom)} px)`);
    }
  }
  return {
    end: element.dataset.walkEnd ?? null,
    id: walk.ids.get(element),
    what: `${name(element)}${text ? ` "${text.length > 40 ? `${text.slice(0, 40)}…` : text}"` : ''} in #${element.closest('section')?.id ?? 'body'}`,
    inFigure: Boolean(element.closest('.fig')),
    top: Math.round(box.top),
    bottom: Math.round(box.bottom),
    hidden: [...covers, ...(box.top < -0.5 ? [`its top ${Math.round(-box.top)} px above the screen`] : [])],
  };
}

/**
 * Waits for the page's first screen, shows every section (each runs when it comes near the screen), then waits for
 * the lab's default run (it starts when in view).
 */
async function finishPage({ browser }) {
  await browser.waitForSelector('body[data-ready]', { timeout: 60_000 });
  if ((await browser.attribute('body', 'data-ready')) !== 'true') return;
  await showEverySection(browser);
  await browser.evaluate(() => document.querySelector('#lab').scrollIntoView());
  await browser.waitForSelector(LAB_DONE, { timeout: 180_000 });
  await browser.evaluate(() => window.scrollTo(0, 0));
}

eachEngine({ viewport: { width: 1000, height: 900 }, open: '/', setUp: finishPage }, (s) => {
  test(`${s.engine}: the page finishes every experiment and the lab's run`, async (t) => {
    t.diagnostic(s.browser.version);
    const ready = await s.browser.attribute('body', 'data-ready');
    assert.equal(ready, 'true', `body[data-ready] is "${ready}"; status: ${await s.browser.text('#status')}`);
    assert.equal(await s.browser.attribute('#lab .section-body', 'data-training'), 'done');
    t.diagnostic(`the lab's run: ${await s.browser.attribute('#lab .lab-status', 'data-milliseconds')} ms`);
  });

  test(`${s.engine}: every live check passes, and the lesson's checks are all there`, async (t) => {
    const checks = await s.browser.evaluate(() => [...document.querySelectorAll('[data-check]')].map((el) =>
      ({ name: el.dataset.check, status: el.dataset.status, text: el.textContent.replace(/\s+/g, ' ').trim() })));
    assert.ok(checks.length >= 60, `expected the page's checks, found ${checks.length}`);
    const names = checks.map((c) => c.name);
    assert.equal(new Set(names).size, names.length, 'two checks share a name');
    for (const name of LESSON_CHECKS) assert.ok(names.includes(name), `missing check ${name}`);
    const failures = checks.filter((c) => c.status !== 'pass');
    assert.deepEqual(failures, [], `failing checks:\n${failures.map((c) => `  ${c.name}: ${c.text}`).join('\n')}`);
    t.diagnostic(`${checks.length} checks pass`);
  });

  test(`${s.engine}: no error recorded, no failed request; the sweeps ran in the module Worker`, async () => {
    assert.deepEqual(await s.browser.errors(), []);
    assert.deepEqual(s.site.requests.filter((r) => r.status >= 400), []);
    const paths = s.site.requests.map((r) => r.path);
    for (const needed of ['/lib/seqorder.mjs', '/lib/seqorder/seqorder_core.wasm', '/js/worker.mjs'])
      assert.ok(paths.includes(needed), `${needed} was not requested`);
  });

  test(`${s.engine}: every link within the page leads to an element of the page`, async () => {
    const broken = await s.browser.evaluate(() => [...document.querySelectorAll('a[href^="#"]')]
      .map((a) => a.getAttribute('href')).filter((href) => href.length > 1 && !document.getElementById(decodeURIComponent(href.slice(1)))));
    assert.deepEqual(broken, []);
  });

  test(`${s.engine}: the Content-Security-Policy is the strict one`, async () => {
    assert.equal(await s.browser.attribute('meta[http-equiv="Content-Security-Policy"]', 'content'),
      "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'");
  });

  test(`${s.engine}: moving a slider (keyboard) redraws the heatmap and keeps its checks passing`, async () => {
    for (const id of ['#sinusoids-start', '#sinusoids-width', '#sinusoids-length']) {
      const before = await s.browser.evaluate(heatmapHash);
      const value = await s.browser.value(id);
      await s.browser.focus(id);
      await s.browser.press('ArrowRight');
      await s.browser.press('ArrowRight');
      await s.browser.frames();
      assert.notEqual(await s.browser.value(id), value, `${id}: the arrow key did not move the slider`);
      assert.notEqual(await s.browser.evaluate(heatmapHash), before, `${id}: the heatmap did not change`);
    }
    await s.browser.waitFor(() => document.querySelectorAll('#sinusoids [data-check]:not([data-status="pass"])').length === 0,
      null, { timeout: 10_000, what: 'every check of #sinusoids passing' });
  });

  test(`${s.engine}: the heatmap reads out by keyboard (focus, arrow keys) and by pointer`, async () => {
    await s.browser.focus('#sinusoids .plot-heatmap canvas');
    await s.browser.press('ArrowDown'); // the first key puts the cursor on (t = start, column 0)
    await s.browser.press('ArrowDown');
    await s.browser.press('ArrowRight');
    await s.browser.frames();
    const text = await s.browser.text('#sinusoids .plot-heatmap .plot-tooltip');
    const start = Number(await s.browser.value('#sinusoids-start'));
    assert.match(text, new RegExp(`t = ${start + 1}, column 1\\b`));
    await s.browser.press('Escape');
    await s.browser.frames();
    assert.ok(await s.browser.evaluate(() => document.querySelector('#sinusoids .plot-heatmap .plot-tooltip').hidden), 'Escape did not hide the tooltip');

    await s.browser.hover('#sinusoids .plot-heatmap canvas', 0.4, 0.3);
    await s.browser.waitForSelector('#sinusoids .plot-heatmap .plot-tooltip:not([hidden])', { timeout: 5000 });
    assert.match(await s.browser.text('#sinusoids .plot-heatmap .plot-tooltip'), /t = \d+, column \d+/);
  });

  test(`${s.engine}: the page fits a phone-sized window (no horizontal scrolling)`, async (t) => {
    await s.browser.setViewport({ width: 360, height: 740 });
    await s.browser.frames();
    const { width, overflow } = await s.browser.evaluate(() =>
      ({ width: innerWidth, overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth }));
    // (WebKitGTK's MiniBrowser window cannot be made narrower than about 450 px: the page is then checked there)
    assert.ok(width <= 480, `the window could not be made narrower than ${width}px`);
    if (width !== 360) t.diagnostic(`${s.engine}'s narrowest window: ${width}px`);
    assert.ok(overflow <= 0, `the page is ${overflow}px wider than a ${width}px window`);
    await s.browser.setViewport({ width: 1000, height: 900 });
  });

  test(`${s.engine}: at phone width, Shift+Tab and Tab through the page leave no focused element under a figure's sticky controls`, async (t) => {
    await s.browser.setViewport({ width: 390, height: 740 });
    await s.browser.frames();
    const [width, height] = await s.browser.evaluate(() => [innerWidth, innerHeight]);
    assert.ok(width <= 480, `the window could not be made narrower than ${width}px`);  // (WebKitGTK's: about 450 px)
    await s.browser.evaluate(placeWalkEnds);
    const hidden = [];
    try {
      for (const [key, from, to] of [['Shift+Tab', 'end', 'start'], ['Tab', 'start', 'end']]) {
        await s.browser.focus(`[data-walk-end="${from}"]`);
        const stops = [];
        for (;;) {
          await s.browser.press(key);
          const stop = await s.browser.evaluate(focusStop);
          if (stop.end === to) break;
          assert.ok(!stop.end && stop.id !== stops.at(-1)?.id, `${key}: the focus did not move on from ${stops.at(-1)?.what ?? `the walk's ${from}`}`);
          assert.ok(stops.length < MAX_STOPS, `${key}: the walk did not reach the page's ${to} within ${MAX_STOPS} stops`);
          stops.push(stop);
          for (const why of stop.hidden) hidden.push(`${key} to ${stop.what} (${stop.top} to ${stop.bottom} px): ${why}`);
        }
        t.diagnostic(`${key}: ${stops.length} stops at ${width} × ${height}, ${stops.filter((x) => x.inFigure).length} in figures`);
        assert.ok(stops.length >= 30, `${key}: only ${stops.length} stops`);
      }
    } finally {
      await s.browser.evaluate(() => document.querySelectorAll('[data-walk-end]').forEach((e) => e.remove()));
      await s.browser.setViewport({ width: 1000, height: 900 });
    }
    assert.deepEqual(hidden, [], `focused elements hidden at ${width} × ${height}:\n  ${hidden.join('\n  ')}`);
  });

  test(`${s.engine}: in a group of buttons only, buttons side by side are equally tall when one label takes two lines`, async () => {
    // a group built by the page's own controls.mjs (as the lab's conclusion offers its two runs), 30rem wide: two columns
    const buttons = await s.browser.evaluate(async () => {
      const { button, controlGroup } = await import('./js/controls.mjs');
      const group = controlGroup(document.querySelector('main section'), 'two runs');
      group.style.width = '30rem';
      for (const label of ['Run', 'Train the same run again, with the token vectors scaled the other way'])
        button(group, { id: `equal-${label.length}`, label, onClick: () => {} });
      const boxes = [...group.querySelectorAll('button')].map((b) => {
        const r = b.getBoundingClientRect();
        const text = document.createRange();
        text.selectNodeContents(b);
        return { left: r.left, top: r.top, bottom: r.bottom, height: r.height, lines: text.getClientRects().length };  // a rect a line
      });
      group.remove();
      return boxes;
    });
    const [short, long] = buttons;
    assert.ok(short.left < long.left && short.top < long.bottom && long.top < short.bottom, `side by side: ${JSON.stringify(buttons)}`);
    assert.ok(short.lines === 1 && long.lines >= 2, `one label on one line, the other on two: ${JSON.stringify(buttons)}`);
    assert.ok(Math.abs(short.height - long.height) < 1, `equally tall: ${JSON.stringify(buttons)}`);
  });

  test(`${s.engine}: without WebAssembly, or when the module cannot load, the page says so instead of staying blank`, async () => {
    const cases = [
      {
        name: 'no WebAssembly',
        setup() {
          s.site.answer('/__seqorder-test/no-wasm.js', { type: 'js', body: 'delete globalThis.WebAssembly;' });
          s.site.answer('/', { type: 'html', body: withScripts(indexHtml(), ['/__seqorder-test/no-wasm.js']) });
        },
        expect: /no WebAssembly/,
      },
      { name: 'the .wasm missing', setup: () => s.site.answer('/lib/seqorder/seqorder_core.wasm', { status: 404, body: 'not found' }), expect: /could not be loaded/ },
      { name: 'a corrupt .wasm', setup: () => s.site.answer('/lib/seqorder/seqorder_core.wasm', { type: 'wasm', body: 'this is not WebAssembly' }), expect: /could not be loaded/ },
      { name: 'the package missing', setup: () => s.site.answer('/lib/seqorder.mjs', { status: 404, body: 'not found' }), expect: /could not be loaded/ },
    ];
    try {
      for (const { name, setup, expect } of cases) {
        setup();
        await s.browser.goto(s.site.url);
        await s.browser.waitForSelector('body[data-ready]', { timeout: 30_000 });
        const result = await s.browser.evaluate(() => {
          const status = document.querySelector('#status');
          return {
            ready: document.body.dataset.ready, kind: status.dataset.kind, text: status.textContent.replace(/\s+/g, ' ').trim(),
            visible: status.checkVisibility(), uncaught: globalThis.__seqorderTestErrors.filter((e) => !e.startsWith('console.error')),
          };
        });
        assert.equal(result.ready, 'error', `${name}: data-ready is ${result.ready}; status: ${result.text}`);
        assert.equal(result.kind, 'error', name);
        assert.ok(result.visible, `${name}: the status is not visible`);
        assert.match(result.text, expect, name);
        assert.deepEqual(result.uncaught, [], `${name}: uncaught errors`);
        s.site.reset();
      }
    } finally {
      s.site.reset();
    }
  });
});
