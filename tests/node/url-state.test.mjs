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
import { ECHO, NOTED_PARTS, createUrlState, readHash } from '../../web/js/url-state.mjs';
import { parse, violation } from '../../web/js/settings.mjs';
import { canonicalHash, expectedFor, hashes, pageSettings } from './helpers/links.mjs';

const { order, sections: SECTIONS, specs: SPECS, byId } = await pageSettings();

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
function load(page) {
  let shown = [];
  const state = createUrlState({ notes: (lines) => { shown = lines; }, order, ...page });
  const states = SECTIONS.map(({ id, settings }) => state.section(id, settings));
  state.declared();
  state.settled();
  const values = new Map();
  for (const s of states) for (const spec of Object.values(s.settings)) values.set(spec.id, s.values[spec.name]);
  return { state, shown: () => shown, values };
}

/** Everything that must hold of the reader at `hash`: at load, and when the hash changes to it after `previous`. */
function check(hash, previous = '#') {
  const what = `hash ${JSON.stringify(hash.length > 300 ? `${hash.slice(0, 300)}…` : hash)}`;
  assert.doesNotThrow(() => readHash(hash), what);
  const want = expectedFor(hash, SPECS);
  const defaults = new Map(SPECS.map((spec) => [spec.id, spec.default]));
  const page = fakePage(hash);
  const { state, shown, values } = load(page);
  for (const spec of SPECS) {
    assert.equal(violation(spec, values.get(spec.id)), null, `${what}: ${spec.id} is ${JSON.stringify(values.get(spec.id))}`);
    if (!want.inPage) assert.deepEqual(values.get(spec.id), want.values.get(spec.id), `${what}: ${spec.id}`);
  }
  const lines = shown();
  assert.deepEqual(lines, state.notes(), what);
  assert.ok(lines.length <= SPECS.length * 2 + NOTED_PARTS + 1, `${what}: ${lines.length} notes`);
  for (const line of lines) assert.ok(line.length <= 3 * ECHO + 300, `${what}: a note of ${line.length} characters: ${line.slice(0, 200)}…`);
  assert.equal(page.location.hash, canonicalHash(want.anchor, want.inPage ? defaults : want.values, SPECS), `${what}: the URL after load`);
  // a new hash after load (a link followed, Back): the settings and the URL follow it
  const later = fakePage(previous);
  const { state: laterState } = load(later);
  later.location.hash = hash === '#' ? '' : hash;
  assert.doesNotThrow(() => later.events.dispatchEvent(new Event('hashchange')), what);
  const before = expectedFor(previous, SPECS);
  const after = want.inPage ? (before.inPage ? defaults : before.values) : want.values;
  assert.equal(later.location.hash, canonicalHash(want.anchor, after, SPECS), `${what}: the URL after the hash changed`);
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
  const lr = byId.get('lab-lr');
  assert.ok(lr && lr.options.some((o) => o.value === 0.003), 'the lab declares lab-lr with 0.003');
  for (const text of ['3e-3', '0.003', '0.0030', '.003', '3E-3']) assert.deepEqual(parse(lr, text), { value: 0.003 }, text);
  assert.deepEqual(parse(lr, '3e-3x').error, parse(lr, 'x').error);
  assert.deepEqual(parse(lr, '1e-4'), { value: 0.0001 });
  const page = fakePage('#lab-lr=1e-4&sinusoids-width=32&sinusoids-width=48');
  const { values, shown } = load(page);
  assert.equal(values.get('lab-lr'), 0.0001);
  assert.equal(values.get('sinusoids-width'), 48);
  assert.deepEqual(shown(), ['The link sets sinusoids-width 2 times: the last, sinusoids-width=48, counts.']);
  assert.equal(page.location.hash, '#sinusoids-width=48&lab-lr=0.0001', 'the URL says each once, as the page writes it');
  // an older link's key (the lab's train-lr) is read the same way, and given twice, noted under the key it used
  const older = fakePage('#train-lr=1e-4&train-lr=1e-2');
  const read = load(older);
  assert.equal(read.values.get('lab-lr'), 0.01);
  assert.deepEqual(read.shown(), ['The link sets train-lr 2 times: the last, train-lr=1e-2, counts.']);
  assert.equal(older.location.hash, '#lab-lr=0.01');
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

test('fuzz: random and mutated hashes; nothing throws, the notes stay few and short, the URL says what the page shows', () => {
  const runs = Number(process.env.SEQORDER_URL_FUZZ ?? 3000);
  const links = hashes(Number(process.env.SEQORDER_URL_FUZZ_SEED ?? 20260514), SPECS, [...order, 'check-lab-none-mirror', 'pipeline', 'nowhere']);
  let previous = '#';
  for (let n = 0; n < runs; n += 1) {
    const hash = links.next();
    check(hash, previous);
    previous = hash;
  }
});
