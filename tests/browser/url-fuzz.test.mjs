// The lesson page against hostile links, in Chromium: seeded random and mutated hashes (tests/node/helpers/links.mjs,
// the generator of tests/node/url-state.test.mjs's fuzz), each opened as a link and set on the page after load. The
// page always becomes ready, records no error, and the URL and the controls always agree: once the page has read a
// hash, the URL lists exactly the settings whose controls differ from their defaults, with the values they show (a
// value refused, a key unknown, a part unreadable: gone from the URL, with its note). SEQORDER_URL_FUZZ_LOADS links
// opened (default 6), SEQORDER_URL_FUZZ_SETS hashes set after load (default 600), seeded (SEQORDER_URL_FUZZ_SEED).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { collectErrors, launchBrowser } from './helpers/browser.mjs';
import { canonicalHash, expectedFor, hashes, pageSettings } from '../node/helpers/links.mjs';
import { encode } from '../../web/js/settings.mjs';

const LOADS = Number(process.env.SEQORDER_URL_FUZZ_LOADS ?? 6);
const SETS = Number(process.env.SEQORDER_URL_FUZZ_SETS ?? 600);
const SEED = Number(process.env.SEQORDER_URL_FUZZ_SEED ?? 20260514);
const BATCH = 25;

const { order, specs } = await pageSettings();
// anchors well above the lab, or none on the page: a link that leads to the lab (or just above it) would bring it into
// view and start its training run
const anchors = [...order.slice(0, Math.max(0, order.indexOf('lab') - 1)), 'pipeline', 'nowhere', 'check-none'];
// the settings whose controls are the page's own elements (a set or a list is drawn by its section in its own way)
const shown = specs.filter((spec) => ['slider', 'number', 'toggle', 'select'].includes(spec.kind));

let session;
let errors;

before(async () => {
  session = await launchBrowser({ viewport: { width: 1000, height: 900 } });
  errors = collectErrors(session.page);
});

after(async () => {
  await session?.close();
});

/** In the page: its hash, and what each control of `ids` shows ({ id: { value, taken } }: taken, a field's data-value). */
function snapshot(ids) {
  const controls = {};
  for (const id of ids) {
    const el = document.getElementById(id);
    if (!el) continue;
    controls[id] = { value: el.getAttribute('aria-pressed') ?? el.value, taken: el.dataset.value ?? null };
  }
  return { hash: location.hash, controls };
}

/** The problems of a page's snapshot: a URL that is not what the controls show, or a control that is not what the URL says. */
function disagreements({ hash, controls }) {
  const found = [];
  const { anchor, values } = expectedFor(hash, specs);
  const canonical = canonicalHash(anchor, values, specs);
  if (hash !== canonical) found.push(`the URL is ${JSON.stringify(hash)}, where the page writes ${JSON.stringify(canonical)}`);
  for (const spec of shown) {
    const control = controls[spec.id];
    if (!control) continue;
    const want = spec.kind === 'toggle' ? String(values.get(spec.id)) : encode(spec, values.get(spec.id));
    if (control.value !== want) found.push(`${spec.id} shows ${JSON.stringify(control.value)}, the URL says ${JSON.stringify(want)}`);
    if (spec.kind === 'number' && control.taken !== want) found.push(`${spec.id} took ${JSON.stringify(control.taken)}, the URL says ${JSON.stringify(want)}`);
  }
  return found;
}

/** Resolves once every section module of the page has loaded (then every key of the URL is known) and a moment more. */
const declared = () => session.page.waitForFunction((ids) => {
  const loaded = new Set(performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname));
  return ids.every((id) => loaded.has(`/js/sections/${id}.mjs`));
}, order, { polling: 50, timeout: 60_000 }).then(() => new Promise((resolve) => setTimeout(resolve, 300)));

test('links with random and mutated hashes: the page becomes ready, and its URL and controls agree', { timeout: 600_000 }, async () => {
  const links = hashes(SEED, specs, anchors);
  const found = [];
  for (let n = 0; n < LOADS; n += 1) {
    const hash = links.next();
    const url = new URL(`${session.server.url}?load=${n}${hash}`).href;
    await session.page.goto(url, { waitUntil: 'load' });
    await session.page.waitForSelector('body[data-ready]', { timeout: 60_000 });
    const ready = await session.page.getAttribute('body', 'data-ready');
    if (ready !== 'true') found.push(`${url}: data-ready is ${ready}: ${await session.page.textContent('#status')}`);
    await declared();
    found.push(...disagreements(await session.page.evaluate(snapshot, shown.map((s) => s.id))).map((p) => `${url}: ${p}`));
  }
  assert.deepEqual(found, []);
  assert.deepEqual(errors, []);
});

test('hashes set on the page after load: every one is read, and the URL and the controls agree after each', { timeout: 600_000 }, async () => {
  const links = hashes(SEED + 1, specs, anchors);
  await session.page.goto(`${session.server.url}?sets`, { waitUntil: 'load' });
  await session.page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });
  await declared();
  const found = [];
  // in batches (a round trip to the page costs more than a hash): each hash set, its hashchange awaited, then looked at
  for (let n = 0; n < SETS && found.length < 20; n += BATCH) {
    const batch = Array.from({ length: Math.min(BATCH, SETS - n) }, () => links.next());
    const seen = await session.page.evaluate(async ([list, ids]) => {
      const out = [];
      for (const h of list) {
        const changed = new Promise((resolve) => {
          addEventListener('hashchange', resolve, { once: true });
          setTimeout(resolve, 200);  // (a hash equal to the current one fires no event)
        });
        location.hash = h;
        await changed;
        const controls = {};
        for (const id of ids) {
          const el = document.getElementById(id);
          if (el) controls[id] = { value: el.getAttribute('aria-pressed') ?? el.value, taken: el.dataset.value ?? null };
        }
        out.push({ hash: location.hash, controls });
      }
      return out;
    }, [batch, shown.map((s) => s.id)]);
    seen.forEach((snap, i) => found.push(...disagreements(snap).map((p) => `after ${JSON.stringify(batch[i])}: ${p}`)));
  }
  assert.deepEqual(found, []);
  assert.equal(await session.page.getAttribute('body', 'data-ready'), 'true');
  assert.deepEqual(errors, []);
});

test('two hashes set within one frame (the second from the first one\'s hashchange): every figure draws what its source has drawn', { timeout: 120_000 }, async () => {
  await session.page.goto(`${session.server.url}?frames#sinusoids-table`, { waitUntil: 'load' });
  await session.page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });
  await declared();
  const before = errors.length;
  // The first hash moves only position t (the circles' own setting), the second the table's length: the circles,
  // scheduled first, must not read a table of the new length before the table has been computed.
  await session.page.evaluate(async () => {
    for (let k = 0; k < 20; k += 1) {
      const t = k % 50 + 1;
      const length = 65 + 7 * k;
      const second = new Promise((resolve) => {
        addEventListener('hashchange', () => {
          addEventListener('hashchange', resolve, { once: true });
          location.hash = `#sinusoids-table&sinusoids-t=${t}&sinusoids-length=${length}`;
        }, { once: true });
      });
      location.hash = `#sinusoids-table&sinusoids-t=${t}&sinusoids-length=${k ? length - 7 : 64}`;
      await second;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });
  await session.page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  assert.deepEqual(errors.slice(before), []);
});
