// The page's reader of the URL's hash (web/js/url-state.mjs), in node, over the page's own declarations (each section
// module's `settings`, as built in dist/site/js): whatever the bytes of a link, nothing throws; a part that cannot be
// read (a stray '%', bytes that are not UTF-8), a key no section declares, a value its declaration refuses and a key
// given twice each get a note, the notes of ignored parts are capped and every note is short; numeric options are
// compared as numbers; and once the sections are in, the URL says exactly what the page shows (the values an
// independent reading of the hash gives, each refused one at its default), at load and when the hash changes after.
// The fuzz: SEQORDER_URL_FUZZ hashes (default 3000), seeded (SEQORDER_URL_FUZZ_SEED), random and mutated from valid
// links; a failure prints the hash.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ECHO, NOTED_PARTS, createUrlState, readHash } from '../../web/js/url-state.mjs';
import { encode, parse, same, violation } from '../../web/js/settings.mjs';
import { siteDir as site } from './helpers/load.mjs';

// The section modules as built (they import the package's figures from lib/); ui.mjs asks matchMedia at import.
globalThis.matchMedia ??= () => ({ matches: false, addEventListener() {}, removeEventListener() {} });
const order = [...readFileSync(path.join(site, 'index.html'), 'utf8').matchAll(/<section id="([^"]+)"/g)].map((m) => m[1])
  .filter((id) => readdirSync(path.join(site, 'js', 'sections')).includes(`${id}.mjs`));
const SECTIONS = [];
for (const id of order) {
  const { settings = {} } = await import(pathToFileURL(path.join(site, 'js', 'sections', `${id}.mjs`)).href);
  SECTIONS.push({ id, settings });
}
const SPECS = SECTIONS.flatMap(({ settings }) => Object.values(settings));
const byId = new Map(SPECS.map((spec) => [spec.id, spec]));

/** A page at `hash`: location and history as a browser keeps them (a history write sets the hash), and its events. */
function fakePage(hash) {
  const location = { origin: 'https://example.org', pathname: '/lesson/', search: '?a=1', hash: hash === '#' ? '' : hash };
  const writes = [];
  const write = (kind) => (state, title, url) => {
    assert.ok(url.startsWith('/lesson/?a=1'), `a write left the page: ${url}`);
    const at = url.indexOf('#');
    location.hash = at < 0 || at === url.length - 1 ? '' : url.slice(at);
    writes.push(kind);
  };
  return { location, history: { pushState: write('push'), replaceState: write('replace') }, events: new EventTarget(), writes };
}

/** The page's reader over `page`, every section registered, and declared, then settled: { state, notes, values }. */
function load(page, { settle = true } = {}) {
  let shown = [];
  const state = createUrlState({ notes: (lines) => { shown = lines; }, order, ...page });
  const states = SECTIONS.map(({ id, settings }) => state.section(id, settings));
  state.declared();
  if (settle) state.settled();
  const values = new Map();
  for (const s of states) for (const spec of Object.values(s.settings)) values.set(spec.id, s.values[spec.name]);
  return { state, shown: () => shown, values };
}

// ---- an independent reading of a hash: what the page must show for it, and the URL that says so ----

const decode = (text) => {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
};
const wellFormed = (text) => text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');

/** { anchor, values: id → value }: the last value given for each declared key that its declaration takes, else its default. */
function expected(hash) {
  const given = new Map();
  let anchor = null;
  for (const part of hash.replace(/^#/, '').split('&')) {
    if (!part) continue;
    const eq = part.indexOf('=');
    const key = decode(eq < 0 ? part : part.slice(0, eq));
    if (key === null) continue;
    if (eq < 0) anchor ??= key;
    else given.set(key, decode(part.slice(eq + 1)) ?? part.slice(eq + 1));
  }
  const values = new Map(SPECS.map((spec) => {
    const parsed = given.has(spec.id) ? parse(spec, given.get(spec.id)) : {};
    return [spec.id, parsed.error === undefined && given.has(spec.id) ? parsed.value : spec.default];
  }));
  return { anchor, values };
}

/** The hash of a page showing `values`, led to `anchor`: the non-default settings in page order. */
function canonical(anchor, values) {
  const parts = anchor === null ? [] : [encodeURIComponent(wellFormed(anchor))];
  for (const spec of SPECS) {
    if (!same(values.get(spec.id), spec.default)) parts.push(`${spec.id}=${encodeURIComponent(encode(spec, values.get(spec.id)))}`);
  }
  return parts.length ? `#${parts.join('&')}` : '';
}

/** Everything that must hold of the reader at `hash`: at load, and when the hash changes to it after. */
function check(hash, previous = '#') {
  const what = `hash ${JSON.stringify(hash.length > 300 ? `${hash.slice(0, 300)}…` : hash)}`;
  assert.doesNotThrow(() => readHash(hash), what);
  const want = expected(hash);
  // (an anchor alone, with nothing else in the hash, is an in-page link: the settings stay as they were)
  const inPage = (h) => { const r = readHash(h); return r.anchor !== null && r.entries.size === 0 && !r.unreadable.length && !r.strays.length; };
  const page = fakePage(hash);
  const { state, shown, values } = load(page);
  for (const spec of SPECS) {
    assert.equal(violation(spec, values.get(spec.id)), null, `${what}: ${spec.id} is ${JSON.stringify(values.get(spec.id))}`);
    if (!inPage(hash)) assert.deepEqual(values.get(spec.id), want.values.get(spec.id), `${what}: ${spec.id}`);
  }
  const lines = shown();
  assert.deepEqual(lines, state.notes(), what);
  assert.ok(lines.length <= SPECS.length * 2 + NOTED_PARTS + 1, `${what}: ${lines.length} notes`);
  for (const line of lines) assert.ok(line.length <= 3 * ECHO + 300, `${what}: a note of ${line.length} characters: ${line.slice(0, 200)}…`);
  assert.equal(page.location.hash, canonical(want.anchor, inPage(hash) ? new Map(SPECS.map((s) => [s.id, s.default])) : want.values), `${what}: the URL after load`);
  // a new hash after load (a link followed, Back): the controls and the URL follow it
  const later = fakePage(previous);
  const { values: shownValues, state: laterState } = load(later);
  const bound = new Map();
  for (const spec of SPECS) bound.set(spec.id, shownValues.get(spec.id));
  later.location.hash = hash === '#' ? '' : hash;
  assert.doesNotThrow(() => later.events.dispatchEvent(new Event('hashchange')), what);
  const after = inPage(hash) ? expected(previous).values : want.values;
  assert.equal(later.location.hash, canonical(want.anchor, after), `${what}: the URL after the hash changed`);
  assert.doesNotThrow(() => laterState.notes(), what);
}

test('the hashes the issue found: a stray % in a key, a value or the anchor; each is read, noted, and the page shows its defaults', () => {
  const cases = [
    ['#%=1', /cannot be read, “%=1”/],
    ['#50%', /cannot be read, “50%”/],
    ['#%E0%A4%A', /cannot be read, “%E0%A4%A”/],
    ['#sinusoids-width=32&%ZZ=4', /cannot be read, “%ZZ=4”/],
    ['#four-steps&%C3%28', /cannot be read, “%C3%28”/],
  ];
  for (const [hash, note] of cases) {
    const page = fakePage(hash);
    const { shown } = load(page);
    assert.ok(shown().some((line) => note.test(line)), `${hash}: ${JSON.stringify(shown())}`);
    check(hash);
  }
  assert.equal(fakePage('#x').location.hash, '#x');
  const { values } = load(fakePage('#sinusoids-width=32&%ZZ=4'));
  assert.equal(values.get('sinusoids-width'), 32, 'the readable parts are read');
});

test('numeric options are compared as numbers; a key given twice keeps its last value, with a note', () => {
  const lr = byId.get('train-lr');
  assert.ok(lr && lr.options.some((o) => o.value === 0.003), 'the lab declares train-lr with 0.003');
  for (const text of ['3e-3', '0.003', '0.0030', '.003', '3E-3']) assert.deepEqual(parse(lr, text), { value: 0.003 }, text);
  assert.deepEqual(parse(lr, '3e-3x').error, parse(lr, 'x').error);
  assert.deepEqual(parse(lr, '1e-4'), { value: 0.0001 });
  const page = fakePage('#train-lr=1e-4&sinusoids-width=32&sinusoids-width=48');
  const { values, shown } = load(page);
  assert.equal(values.get('train-lr'), 0.0001);
  assert.equal(values.get('sinusoids-width'), 48);
  assert.deepEqual(shown(), ['The link sets sinusoids-width 2 times: the last, sinusoids-width=48, counts.']);
  assert.equal(page.location.hash, '#sinusoids-width=48&train-lr=0.0001', 'the URL says each once, as the page writes it');
});

test('many unknown keys: the first ten named, the rest counted; a long value echoed shortened; fast', () => {
  const many = `#${Array.from({ length: 30_000 }, (_, i) => `no-such-${i}=${i}`).join('&')}`;
  const started = performance.now();
  const { shown } = load(fakePage(many));
  const lines = shown();
  assert.equal(lines.length, NOTED_PARTS + 1);
  assert.match(lines[0], /^The link sets no-such-0, which is no setting of this page: it is ignored\.$/);
  assert.equal(lines.at(-1), `The link has ${30_000 - NOTED_PARTS} more parts that are no setting of this page or cannot be read: ignored.`);
  const huge = `#sinusoids-width=${'9'.repeat(1_000_000)}&${'k'.repeat(100_000)}=1`;
  const { shown: hugeShown, values } = load(fakePage(huge));
  assert.equal(values.get('sinusoids-width'), 64);
  for (const line of hugeShown()) assert.ok(line.length < 400, line.slice(0, 200));
  assert.ok(hugeShown().some((line) => line.includes(`sinusoids-width=${'9'.repeat(ECHO - 1)}…,`)), JSON.stringify(hugeShown()));
  // (what it takes, as a sanity bound: the reader is linear in the link's length, not quadratic)
  assert.ok(performance.now() - started < 20_000, `${performance.now() - started} ms`);
});

/** A seeded generator: next() in [0, 1). */
function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

test('fuzz: random and mutated hashes; nothing throws, the notes stay few and short, the URL says what the page shows', () => {
  const runs = Number(process.env.SEQORDER_URL_FUZZ ?? 3000);
  const random = mulberry32(Number(process.env.SEQORDER_URL_FUZZ_SEED ?? 20260514));
  const pick = (list) => list[Math.floor(random() * list.length)];
  const ids = [...byId.keys()];
  const pieces = ['%', '%2', '%E0', '%A4%A', '%C3%A9', '%ZZ', '%00', '%25', '=', '==', '&', '&&', '#', ',', '-', '.', 'e', '1', '0', '3e-3',
    '1e999', 'NaN', '-0', '__proto__', 'constructor', 'toString', ' ', '+', '\u00e9', '\ud83d\ude00', '\ud800', '\udc00', '\u0000', 'on',
    'none,rotary', 'sinusoidal', 'true', 'x'];
  /** A value its setting might take, or nearly. */
  const someValue = (spec) => {
    const options = spec.options?.map((o) => String(o.value)) ?? [];
    switch (random() < 0.3 ? 'any' : spec.kind) {
      case 'toggle': return pick(['1', '0', 'true', 'off']);
      case 'slider':
      case 'number': return String(pick([spec.min, spec.max, spec.default, spec.min - 1, spec.max + 1, (spec.min + spec.max) / 2, spec.min + 0.5]));
      case 'select': return pick(options);
      case 'set':
      case 'list': return Array.from({ length: 1 + Math.floor(random() * 4) }, () => pick(options)).join(',');
      default: return pick(pieces);
    }
  };
  const validish = () => {
    const parts = [];
    if (random() < 0.3) parts.push(pick([...order, 'check-train-ran', 'pipeline', 'nowhere']));
    for (let n = Math.floor(random() * 6); n > 0; n -= 1) {
      const id = pick(ids);
      parts.push(`${id}=${encodeURIComponent(wellFormed(someValue(byId.get(id))))}`);
    }
    return `#${parts.join('&')}`;
  };
  const mutate = (text) => {
    let out = text;
    for (let n = 1 + Math.floor(random() * 4); n > 0; n -= 1) {
      const at = Math.floor(random() * (out.length + 1));
      const r = random();
      if (r < 0.4) out = out.slice(0, at) + pick(pieces) + out.slice(at);
      else if (r < 0.7) out = out.slice(0, at) + out.slice(at + 1 + Math.floor(random() * 3));
      else out = out.slice(0, at) + pick(pieces) + out.slice(at + 1);
    }
    return out;
  };
  const noise = () => {
    const alphabet = '%=&#,.-_0123456789abcdefABCDEF+~!*()\'\u00e9\ud83d\ude00';
    return `#${Array.from({ length: Math.floor(random() * 60) }, () => (random() < 0.1 ? String.fromCharCode(Math.floor(random() * 0x10000)) : alphabet[Math.floor(random() * alphabet.length)])).join('')}`;
  };
  let previous = '#';
  for (let n = 0; n < runs; n += 1) {
    const r = random();
    const hash = r < 0.35 ? validish() : r < 0.8 ? mutate(validish()) : noise();
    check(hash, previous);
    previous = hash;
  }
});
