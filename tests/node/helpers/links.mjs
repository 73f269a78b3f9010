// Links to the lesson page for the tests of its URL's hash (tests/node/url-state.test.mjs, and in Chromium
// tests/browser/url-fuzz.test.mjs): the page's settings declarations as built, an independent reading of a hash (what
// the page must show for it), the hash a page showing given values writes, and a seeded generator of hashes: random,
// and mutated from valid links.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { encode, parse, same } from '../../../web/js/settings.mjs';
import { siteDir } from './load.mjs';
import { random as seeded } from './random.mjs';

/**
 * The page's sections in page order, each { id, settings } (its module's declaration, as built in dist/site/js; the
 * modules import the package's figures from lib/, and ui.mjs asks matchMedia at import, which node has not: a stand-in
 * answers), and every setting: { order, sections, specs, byId }.
 */
export async function pageSettings() {
  globalThis.matchMedia ??= () => ({ matches: false, addEventListener() {}, removeEventListener() {} });
  const files = readdirSync(path.join(siteDir, 'js', 'sections'));
  const order = [...readFileSync(path.join(siteDir, 'index.html'), 'utf8').matchAll(/<section id="([^"]+)"/g)].map((m) => m[1])
    .filter((id) => files.includes(`${id}.mjs`));
  const sections = [];
  for (const id of order) {
    const { settings = {} } = await import(pathToFileURL(path.join(siteDir, 'js', 'sections', `${id}.mjs`)).href);
    sections.push({ id, settings });
  }
  const specs = sections.flatMap(({ settings }) => Object.values(settings));
  return { order, sections, specs, byId: new Map(specs.map((spec) => [spec.id, spec])) };
}

const decode = (text) => {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
};

/** `text` with its lone surrogates as U+FFFD (what a URL can hold). */
export const wellFormed = (text) => text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');

/**
 * What a page with these `specs` shows for `hash`, read independently of the page's reader: { anchor, values: id →
 * value, inPage }: the last value given for each declared key (or, without it, for the key an older link used:
 * spec.was) that its declaration takes, else its default; the anchor, the first part without '=' that decodes; inPage,
 * a hash that is an anchor alone (an in-page link, which leaves the settings as they were).
 */
export function expectedFor(hash, specs) {
  const given = new Map();
  let anchor = null;
  let other = false;
  for (const part of hash.replace(/^#/, '').split('&')) {
    if (!part) continue;
    const eq = part.indexOf('=');
    const key = decode(eq < 0 ? part : part.slice(0, eq));
    if (key === null || (eq < 0 && anchor !== null)) other = true;
    else if (eq < 0) anchor = key;
    else given.set(key, decode(part.slice(eq + 1)) ?? part.slice(eq + 1));
  }
  const values = new Map(specs.map((spec) => {
    // under its id, or under the key an older link used (spec.was: its values renamed by spec.was.values)
    const old = spec.was && given.has(spec.was.key) ? given.get(spec.was.key) : undefined;
    const text = given.has(spec.id) ? given.get(spec.id) : old !== undefined && spec.was.values && Object.hasOwn(spec.was.values, old) ? spec.was.values[old] : old;
    const parsed = text !== undefined ? parse(spec, text) : { error: 'absent' };
    return [spec.id, parsed.error === undefined ? parsed.value : spec.default];
  }));
  return { anchor, values, inPage: anchor !== null && given.size === 0 && !other };
}

/** The hash of a page showing `values` (id → value), led to `anchor`: the non-default settings, in `specs`' order. */
export function canonicalHash(anchor, values, specs) {
  const parts = anchor === null ? [] : [encodeURIComponent(wellFormed(anchor))];
  for (const spec of specs) {
    if (!same(values.get(spec.id), spec.default)) parts.push(`${spec.id}=${encodeURIComponent(encode(spec, values.get(spec.id)))}`);
  }
  return parts.length ? `#${parts.join('&')}` : '';
}

const PIECES = ['%', '%2', '%E0', '%A4%A', '%C3%A9', '%ZZ', '%00', '%25', '=', '==', '&', '&&', '#', ',', '-', '.', 'e', '1', '0', '3e-3',
  '1e999', 'NaN', '-0', '__proto__', 'constructor', 'toString', ' ', '+', '\u00e9', '\ud83d\ude00', '\ud800', '\udc00', '\u0000', 'on',
  'none,rotary', 'sinusoidal', 'true', 'x'];

/**
 * A seeded generator of hashes for the page's `specs`: next() → a hash, valid-looking (settings with values their
 * declaration takes, or nearly, and maybe an anchor from `anchors`), one of those mutated (pieces of percent-encoding,
 * separators, odd words inserted, deleted or replaced), or random characters (any UTF-16 unit among them).
 */
export function hashes(seed, specs, anchors) {
  const random = seeded(seed);
  const pick = (list) => list[Math.floor(random() * list.length)];
  const someValue = (spec) => {
    const options = spec.options?.map((o) => String(o.value)) ?? [];
    switch (random() < 0.3 ? 'any' : spec.kind) {
      case 'toggle': return pick(['1', '0', 'true', 'off']);
      case 'slider':
      case 'number': return String(pick([spec.min, spec.max, spec.default, spec.min - 1, spec.max + 1, (spec.min + spec.max) / 2, spec.min + 0.5]));
      case 'select': return pick(options);
      case 'set':
      case 'list': return Array.from({ length: 1 + Math.floor(random() * 4) }, () => pick(options)).join(',');
      default: return pick(PIECES);
    }
  };
  const validish = () => {
    const parts = [];
    if (anchors.length && random() < 0.3) parts.push(encodeURIComponent(pick(anchors)));
    for (let n = Math.floor(random() * 6); n > 0; n -= 1) {
      const spec = pick(specs);
      const key = spec.was && random() < 0.2 ? spec.was.key : spec.id;  // (an older link's key, now and then)
      parts.push(`${key}=${encodeURIComponent(wellFormed(spec.was?.values && key === spec.was.key && random() < 0.5 ? pick(Object.keys(spec.was.values)) : someValue(spec)))}`);
    }
    return `#${parts.join('&')}`;
  };
  const mutate = (text) => {
    let out = text;
    for (let n = 1 + Math.floor(random() * 4); n > 0; n -= 1) {
      const at = Math.floor(random() * (out.length + 1));
      const r = random();
      if (r < 0.4) out = out.slice(0, at) + pick(PIECES) + out.slice(at);
      else if (r < 0.7) out = out.slice(0, at) + out.slice(at + 1 + Math.floor(random() * 3));
      else out = out.slice(0, at) + pick(PIECES) + out.slice(at + 1);
    }
    return out;
  };
  const noise = () => {
    const alphabet = '%=&#,.-_0123456789abcdefABCDEF+~!*()\'\u00e9\ud83d\ude00';
    return `#${Array.from({ length: Math.floor(random() * 60) }, () => (random() < 0.1
      ? String.fromCharCode(Math.floor(random() * 0x10000)) : alphabet[Math.floor(random() * alphabet.length)])).join('')}`;
  };
  return {
    next() {
      const r = random();
      return r < 0.35 ? validish() : r < 0.8 ? mutate(validish()) : noise();
    },
    random,
  };
}
