// The page's settings in the URL's hash: every setting every section declares (settings.mjs) is read from the hash at
// load and written back as the reader changes it, so that a link reproduces the page, and Back and Forward walk
// through the reader's changes.
//
//   #sinusoids-width=32&steps-causal=1          the settings that differ from their defaults, by control id
//   #four-steps&steps-causal=1                  the same, scrolled to the section four-steps (an id without '=')
//
// A value the declaration refuses (out of range, not an option, not a number) or a key no section declares is
// replaced by the default (or ignored), and a visible note says so: a link never breaks the page. Whatever its bytes,
// the hash is read without an error: a part that cannot be decoded (a stray '%', bytes that are not UTF-8) is ignored
// with a note, a key given twice keeps its last value with a note, and the notes of ignored parts name the first
// NOTED_PARTS, then count the rest; each note echoes at most ECHO characters of the link. Once every section is in,
// the URL says what the page shows: the place it scrolls to, then the settings that differ from their defaults (a
// link's, or one typed, at load, on Back, Forward or a hash set after load). A section may adjust a value its other
// settings do not allow (the note says that too). A run of changes to one setting, each within HISTORY_QUIET_MS of
// the last (a slider dragged, arrow keys held), makes one history entry; a change to another setting makes a new one.
//
//   const page = createUrlState({ notes, order });   // notes(lines): shows the notes (an empty list: none); order:
//                                                    // the ids of the page's sections, in page order
//   const state = page.section(id, module.settings); // before the section runs: state.values holds its values
//   page.declared();                                 // once every section is in: notes for unknown keys
//   // in the section: state.values.causal; state.set('causal', true); state.bind('causal', (v) => …)
// Sections may register in any order, each when its module has loaded: the hash lists settings in page order, and
// keeps the hash's keys that no section has claimed yet as they are until declared().
import { encode, parse, same } from './settings.mjs';

export const HISTORY_QUIET_MS = 1000;
/** The ignored parts of a link named one by one in the notes; the rest are counted. */
export const NOTED_PARTS = 10;
/** The most characters of a link's text a note echoes. */
export const ECHO = 40;

/** `text` decoded from the URL's percent-encoding, or null where it cannot be (a stray '%', bytes not UTF-8). */
function decoded(text) {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

/** `text` percent-encoded for the hash (a lone surrogate, which no URL can hold, as U+FFFD). */
const encoded = (text) => encodeURIComponent(text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD'));

/** The hash's parts for one declaration's `values`: id=value for each setting that differs from its default, in order. */
function settingParts(settings, values) {
  return Object.values(settings).filter((spec) => !same(values[spec.name], spec.default))
    .map((spec) => `${spec.id}=${encoded(encode(spec, values[spec.name]))}`);
}

/**
 * A link's hash for `values` of `settings` alone, led by `anchor` when given ('#lab&lab-task=lookback'): another page
 * that declares the same settings reads it as this one would ('' when nothing differs and no anchor).
 */
export function settingsHash(settings, values, { anchor = null } = {}) {
  const parts = [...(anchor === null ? [] : [encoded(anchor)]), ...settingParts(settings, values)];
  return parts.length ? `#${parts.join('&')}` : '';
}

/** A link's text as a note quotes it: at most ECHO characters (code points), cut with '…' (a note quotes the page's own
 * defaults whole). */
export function echo(text) {
  const chars = Array.from(text.length > 4 * ECHO ? text.slice(0, 4 * ECHO) : text);
  return chars.length > ECHO ? `${chars.slice(0, ECHO - 1).join('')}…` : text;
}

/**
 * The hash's parts, read without an error whatever its text: { anchor, entries: Map(key → text), repeated:
 * Map(key → how many times it came), unreadable: [parts that cannot be decoded], strays: [parts without '=' after the
 * anchor] }. The anchor is the first part without '=' (the id the link scrolls to). A value that cannot be decoded is
 * kept as it is written (its declaration refuses it, with a note); a key or an anchor that cannot be is unreadable.
 */
export function readHash(hash) {
  const entries = new Map();
  const repeated = new Map();
  const unreadable = [];
  const strays = [];
  let anchor = null;
  for (const part of String(hash).replace(/^#/, '').split('&')) {
    if (part === '') continue;
    const at = part.indexOf('=');
    const key = decoded(at < 0 ? part : part.slice(0, at));
    if (key === null) unreadable.push(part);
    else if (at < 0) {
      if (anchor === null) anchor = key;
      else strays.push(key);
    } else {
      if (entries.has(key)) repeated.set(key, (repeated.get(key) ?? 1) + 1);
      entries.delete(key);  // (the last one given counts, and keeps its place)
      entries.set(key, decoded(part.slice(at + 1)) ?? part.slice(at + 1));
    }
  }
  return { anchor, entries, repeated, unreadable, strays };
}

export function createUrlState({
  notes: showLines = () => {}, order = [], location = globalThis.location, history = globalThis.history, events = globalThis,
} = {}) {
  /** Every setting of the page: id → { state, spec } */
  const byId = new Map();
  /** The keys older links used for some setting (spec.was.key) */
  const olderKeys = new Set();
  const sections = [];
  let link = readHash(location.hash);  // what the URL asked for (readHash's parts)
  let seen = location.hash;  // the hash as this page last read or wrote it
  let applying = false;
  let lastWrite = { at: -Infinity, id: null };
  let complete = false;
  const notes = new Map(); // what the settings' values say: setting id (or id + ' repeated') → text

  /** The notes of the parts of the link that are ignored: the first NOTED_PARTS, then how many more. */
  function ignoredNotes() {
    const lines = [];
    let more = 0;
    const add = (line) => {
      if (lines.length < NOTED_PARTS) lines.push(line());
      else more += 1;
    };
    for (const part of link.unreadable) add(() => `The link has a part that cannot be read, “${echo(part)}” (a '%' must start a byte of UTF-8 written as two hex digits): it is ignored.`);
    for (const part of link.strays) add(() => `The link has a part “${echo(part)}”, which is neither a setting (name=value) nor the place it leads to: it is ignored.`);
    if (complete) {
      for (const key of link.entries.keys()) {
        if (known(key)) continue;
        const times = link.repeated.get(key);
        add(() => `The link sets ${echo(key)}${times ? ` ${times} times` : ''}, which is no setting of this page: it is ignored.`);
      }
    }
    if (more) lines.push(`The link has ${more} more part${more > 1 ? 's' : ''} that ${more > 1 ? 'are' : 'is'} no setting of this page or cannot be read: ignored.`);
    return lines;
  }

  const allNotes = () => [...notes.values(), ...ignoredNotes()];

  const showNotes = () => showLines(allNotes());

  /** Where section `id` sits in the page (sections not in `order` after those that are, as they registered). */
  const place = (id) => (order.includes(id) ? order.indexOf(id) : order.length);

  /**
   * The hash for the current values: non-default settings only, in page order; before declared(), then the keys of
   * the hash no section has claimed yet (a section not loaded yet reads them when it registers). With `anchor`, the
   * place the link leads to first.
   */
  function currentHash({ anchor = null } = {}) {
    const parts = anchor === null ? [] : [encoded(anchor)];
    for (const { settings, values } of [...sections].sort((a, b) => place(a.id) - place(b.id))) parts.push(...settingParts(settings, values));
    if (!complete) {
      for (const [key, text] of link.entries) if (!known(key)) parts.push(`${encoded(key)}=${encoded(text)}`);
    }
    return parts.length ? `#${parts.join('&')}` : '';
  }

  /** Sets the URL to this page with `hash`, as a new history entry or in place of the current one. */
  function go(hash, { replace }) {
    if (hash === location.hash || (hash === '' && location.hash === '')) return false;
    try {
      history[replace ? 'replaceState' : 'pushState'](null, '', `${location.pathname}${location.search}${hash}`);
      return true;
    } catch {
      return false;  // (a URL the browser will not hold: the page is right, and the next change writes it again)
    } finally {
      seen = location.hash;
    }
  }

  /** The URL to what the page shows: the place the URL leads to, then the settings. */
  const rewrite = () => go(currentHash({ anchor: readHash(location.hash).anchor }), { replace: true });

  function write(id) {
    if (applying) return;
    const now = performance.now();
    if (go(currentHash(), { replace: id === lastWrite.id && now - lastWrite.at < HISTORY_QUIET_MS })) lastWrite = { at: now, id };
  }

  /**
   * What the hash asks of a setting: { key, text } under its id, or under the key an older link used (spec.was, its
   * value read as it reads now); null when it asks nothing.
   */
  function asked(spec) {
    if (link.entries.has(spec.id)) return { key: spec.id, text: link.entries.get(spec.id) };
    if (!spec.was || !link.entries.has(spec.was.key)) return null;
    const text = link.entries.get(spec.was.key);
    return { key: spec.was.key, text: spec.was.values && Object.hasOwn(spec.was.values, text) ? spec.was.values[text] : text };
  }

  /** Whether a key of the hash is some setting's, now or in an older link. */
  const known = (key) => byId.has(key) || olderKeys.has(key);

  /** The value the hash asks for (or the default, with a note when the hash's value is refused). */
  function wanted(spec) {
    const ask = asked(spec);
    if (!ask) return spec.default;
    const { key, text } = ask;
    const times = link.repeated.get(key);
    if (times) notes.set(`${spec.id} repeated`, `The link sets ${key} ${times} times: the last, ${key}=${echo(link.entries.get(key))}, counts.`);
    const { value, error } = parse(spec, text);
    if (error === undefined) return value;
    notes.set(spec.id, `The link sets ${key}=${echo(link.entries.get(key))}, which “${spec.label}” does not take (${error}): ` +
      `its default, ${encode(spec, spec.default)}, is used instead.`);
    return spec.default;
  }

  function noteAdjusted() {
    for (const [id, { state, spec }] of byId) {
      const ask = asked(spec);
      if (!ask || notes.has(id)) continue;
      const { value, error } = parse(spec, ask.text);
      if (error === undefined && !same(value, state.values[spec.name])) {
        notes.set(id, `The link sets ${ask.key}=${echo(link.entries.get(ask.key))}, which the other settings of its section do not allow: ` +
          `it is ${echo(encode(spec, state.values[spec.name]))}.`);
      }
    }
  }

  /**
   * Back, Forward, or a hash typed, followed or set: every setting to what the hash says. (One change of the hash may
   * fire both popstate and hashchange: the second finds the hash as the first left it, and changes nothing.)
   */
  function apply() {
    if (location.hash === seen) return;
    seen = location.hash;
    const next = readHash(location.hash);
    if (next.anchor !== null && next.entries.size === 0 && !next.unreadable.length && !next.strays.length) {
      // an in-page link (#four-steps): the browser has scrolled there; the URL keeps the settings beside it
      rewrite();
      return;
    }
    link = next;
    notes.clear();
    applying = true;
    try {
      for (const { state, spec } of byId.values()) {
        const value = wanted(spec);
        if (same(value, state.values[spec.name])) continue;
        const bound = state.bound.get(spec.name);
        if (bound) bound(Array.isArray(value) ? [...value] : value);
        else state.values[spec.name] = value;
      }
    } finally {
      applying = false;
    }
    noteAdjusted();
    showNotes();
    rewrite();
  }

  events.addEventListener('popstate', apply);
  events.addEventListener('hashchange', apply);

  return {
    /** Registers a section's declaration; returns its state, with its values read from the hash. */
    section(id, settings = {}) {
      const state = {
        id,
        settings,
        values: {},
        bound: new Map(),
        /** A new value from the section's control: kept, and written to the URL. */
        set(name, value) {
          if (!(name in settings)) throw new RangeError(`section ${id} declares no setting ${name}`);
          state.values[name] = value;
          write(settings[name].id);
        },
        /** How the section shows a value that comes from the URL (Back, Forward, a link): apply(value). */
        bind(name, applyValue) {
          if (!(name in settings)) throw new RangeError(`section ${id} declares no setting ${name}`);
          state.bound.set(name, applyValue);
        },
      };
      for (const spec of Object.values(settings)) {
        if (byId.has(spec.id)) throw new RangeError(`two settings share the id ${spec.id}`);
        byId.set(spec.id, { state, spec });
        if (spec.was) olderKeys.add(spec.was.key);
        state.values[spec.name] = wanted(spec);
      }
      sections.push(state);
      showNotes();
      return state;
    },
    /** Every section is registered: keys no section declares get their note. */
    declared() {
      complete = true;
      showNotes();
    },
    /** After a section has run: values it adjusted get their note, and the URL says what the page shows. */
    settled() {
      noteAdjusted();
      showNotes();
      if (!applying) rewrite();
    },
    /** The current link: this page with every setting that differs from its default. */
    link() {
      return `${location.origin}${location.pathname}${location.search}${currentHash()}`;
    },
    /** The notes shown, as text. */
    notes: allNotes,
    /** The id the URL leads to (#four-steps&…), or null. */
    anchor: () => readHash(location.hash).anchor,
  };
}
