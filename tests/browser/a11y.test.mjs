// The lesson page for readers on phones, with screen readers or a keyboard only, in Chromium (playwright-core):
//   - axe-core (npm, WCAG 2.1 A/AA and best practice) finds no serious or critical violation at desktop size in the
//     light and dark themes, nor at a phone's 390 px, at load and with every folded part open;
//   - on a 390 px screen the page does not scroll sideways, and every table either fits or is a focusable, named
//     scroll region with a visible cue; a figure's controls stay in view as its plots scroll by, and the lab's
//     composer, too tall for that, shows every control and covers none of the maps;
//   - the sliders of a row of controls line up where their labels are of one height, a hint under one or not;
//   - every plot is focusable, named, and reads a value out (tooltip and live region) when an arrow key is pressed.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { frames, openLesson, unfold } from './helpers/browser.mjs';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

let session;
let page;
let errors;

before(async () => {
  session = await openLesson({ viewport: DESKTOP });
  ({ page, errors } = session);
  // Code evaluated through DevTools is exempt from the page's CSP (an inline <script> would be refused).
  await page.evaluate(axeSource);
});

after(async () => {
  await session?.close();
});

/** axe's serious and critical violations on the whole page, as readable lines. */
async function seriousViolations() {
  const violations = await page.evaluate(async () => {
    const result = await globalThis.axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
    });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.targets.join(', ')}`);
}

test('axe-core: no serious or critical violation at desktop size, light theme', async () => {
  await page.emulateMedia({ colorScheme: 'light' });
  await frames(page);
  assert.deepEqual(await seriousViolations(), []);
});

test('axe-core: no serious or critical violation at desktop size, dark theme', async () => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await frames(page);
  assert.deepEqual(await seriousViolations(), []);
  await page.emulateMedia({ colorScheme: 'light' });
});

test('axe-core: no serious or critical violation on a 390 px phone', async () => {
  await page.setViewportSize(PHONE);
  await frames(page);
  assert.deepEqual(await seriousViolations(), []);
});

test('axe-core: no serious or critical violation with every folded part open (desktop, then the phone)', async () => {
  await unfold(page);
  await page.setViewportSize(DESKTOP);
  await frames(page);
  assert.deepEqual(await seriousViolations(), []);
  await page.setViewportSize(PHONE);
  await frames(page);
  assert.deepEqual(await seriousViolations(), []);
});

test('on a 390 px phone nothing scrolls sideways, and every table fits or scrolls with a cue and keyboard focus', async () => {
  await unfold(page);  // the tables folded at load too
  await page.setViewportSize(PHONE);
  await frames(page);
  const report = await page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const tables = [...document.querySelectorAll('main table')].map((table) => {
      const box = table.closest('.table-scroll');
      const name = box && document.getElementById(box.getAttribute('aria-labelledby') ?? '')?.textContent.trim();
      const cue = box?.parentElement.querySelector('.scroll-cue');
      const overflows = Boolean(box) && box.scrollWidth > box.clientWidth + 1;
      return {
        table: name || table.textContent.slice(0, 40),
        inBox: Boolean(box),
        overflows,
        right: (box ?? table).getBoundingClientRect().right,
        focusable: box?.tabIndex === 0,
        region: box?.getAttribute('role') === 'region' && Boolean(name),
        cue: Boolean(cue) && getComputedStyle(cue).display !== 'none' && cue.textContent.length > 0,
      };
    });
    return { overflow: document.documentElement.scrollWidth - width, width, tables };
  });
  assert.ok(report.overflow <= 0, `the page is ${report.overflow}px wider than the screen`);
  assert.ok(report.tables.length >= 8, `found ${report.tables.length} tables`);
  for (const t of report.tables) {
    assert.ok(t.inBox && t.region, `${t.table}: not in a named scroll region`);
    assert.ok(t.right <= report.width + 0.5, `${t.table}: its box ends at ${t.right}px, past the screen`);
    if (t.overflows) assert.ok(t.focusable && t.cue, `${t.table}: scrolls, but focusable ${t.focusable}, cue ${t.cue}`);
    else assert.equal(t.cue, false, `${t.table}: fits, yet shows the scroll cue`);
  }
});

test('on a 390 px phone a figure\'s controls stay in view while its stacked plots scroll by', async () => {
  await page.setViewportSize(PHONE);
  await frames(page);
  // The pair circles and the sine curves stack under the slider of position t.
  const last = page.locator('#sinusoids-t').locator('xpath=ancestor::div[contains(@class, "fig")]').locator('canvas').last();
  await last.scrollIntoViewIfNeeded();
  await frames(page);
  const boxes = await page.evaluate(() => {
    const controls = document.getElementById('sinusoids-t').closest('.controls').getBoundingClientRect();
    const canvases = [...document.getElementById('sinusoids-t').closest('.fig').querySelectorAll('canvas')];
    return { controls: { top: controls.top, bottom: controls.bottom }, plot: canvases.at(-1).getBoundingClientRect().top, height: innerHeight };
  });
  assert.ok(boxes.controls.top >= 0 && boxes.controls.bottom <= boxes.height, `the slider is off screen: ${JSON.stringify(boxes)}`);
  assert.ok(boxes.plot > boxes.controls.top, `the controls cover nothing but go first: ${JSON.stringify(boxes)}`);
  await page.setViewportSize(DESKTOP);
  await frames(page);
});

test('on a 390 px phone the lab\'s composer shows all its controls, and scrolls away above the maps', async () => {
  await page.setViewportSize(PHONE);
  await frames(page);
  // Its top at the screen's: the last control, the right model's select, shows whole, not hidden inside the block.
  await page.evaluate(() => {
    document.querySelector('#lab-maps details').open = true;  // the composer is folded
    document.querySelector('.lab-composer-block').scrollIntoView({ block: 'start' });
  });
  await frames(page);
  const select = await page.evaluate(() => {
    const box = document.getElementById('lab-mapB').getBoundingClientRect();
    const seen = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return { top: box.top, bottom: box.bottom, height: innerHeight, seen: seen?.id ?? seen?.tagName };
  });
  assert.ok(select.top >= 0 && select.bottom <= select.height && select.seen === 'lab-mapB',
    `the right model's select is not shown whole: ${JSON.stringify(select)}`);
  // The maps near the screen's top: nothing of the composer over them.
  const boxes = await page.evaluate(() => {
    const maps = document.querySelector('#lab-maps .lab-maps-block');
    window.scrollBy(0, maps.getBoundingClientRect().top - 40);
    const block = document.querySelector('.lab-composer-block').getBoundingClientRect();
    return { block: { top: block.top, bottom: block.bottom }, maps: maps.getBoundingClientRect().top };
  });
  assert.ok(boxes.block.bottom <= boxes.maps, `the composer covers the maps: ${JSON.stringify(boxes)}`);
  await page.evaluate(() => { document.querySelector('#lab-maps details').open = false; });
  await page.setViewportSize(DESKTOP);
  await frames(page);
});

test('the sliders of one row of controls, their labels of one height, line up, a hint under one or not', async () => {
  await unfold(page);
  const { pairs, apart } = await page.evaluate(() => {
    const found = { pairs: [], apart: [] };
    for (const group of document.querySelectorAll('main .controls')) {
      const sliders = [...group.querySelectorAll('.control input[type="range"]')].filter((input) => input.getClientRects().length)
        .map((input) => ({
          id: input.id, row: input.closest('.control').getBoundingClientRect().top, top: input.getBoundingClientRect().top,
          label: input.closest('.control').querySelector('label').getBoundingClientRect().height,
        }));
      sliders.forEach((s, i) => {
        for (const o of sliders.slice(i + 1).filter((o) => Math.abs(o.row - s.row) < 1 && Math.abs(o.label - s.label) < 1)) {
          found.pairs.push(`${s.id} ${o.id}`);
          if (Math.abs(o.top - s.top) >= 1) found.apart.push(`${s.id} at ${s.top.toFixed(1)}, ${o.id} at ${o.top.toFixed(1)}`);
        }
      });
    }
    return found;
  });
  // the prefix and the new words of section incremental, the second with a hint under it
  assert.ok(pairs.includes('incremental-prefix incremental-new'), `the rows compared: ${pairs.join('; ')}`);
  assert.deepEqual(apart, []);
});

test('every plot is focusable and named, and an arrow key reads a value out', async () => {
  await unfold(page);
  const count = await page.$$eval('main canvas', (els) => els.length);
  assert.ok(count >= 30, `found ${count} plots`);
  const silent = [];
  for (let i = 0; i < count; i += 1) {
    const canvas = page.locator('main canvas').nth(i);
    const attributes = await canvas.evaluate((el) => ({
      role: el.getAttribute('role'), kind: el.getAttribute('aria-roledescription'), label: el.getAttribute('aria-label'), tabIndex: el.tabIndex,
    }));
    assert.equal(attributes.role, 'application', `plot ${i}`);
    assert.ok(attributes.kind && attributes.label?.length > 20 && attributes.tabIndex === 0, `plot ${i}: ${JSON.stringify(attributes)}`);
    await canvas.focus();
    await page.keyboard.press('ArrowRight');
    await frames(page);
    const read = await canvas.evaluate((el) => {
      const figure = el.closest('figure');
      return { tooltip: figure.querySelector('.plot-tooltip:not([hidden])')?.textContent ?? '', spoken: figure.querySelector('[aria-live]').textContent };
    });
    if (!(read.tooltip.length > 0 && read.spoken.length > 0 && /\d/.test(read.spoken))) silent.push(`${i} (${attributes.label}): ${JSON.stringify(read)}`);
    await page.keyboard.press('Escape');
  }
  assert.deepEqual(silent, []);
  assert.deepEqual(errors, []);
});
