// The page's settings in the URL's hash: every setting every section declares (settings.mjs) is read from the hash at
// load and written back as the reader changes it, so that a link reproduces the page, and Back and Forward walk
// through the reader's changes.
//
//   #sinusoids-width=32&steps-causal=1          the settings that differ from their defaults, by control id
//   #four-steps&steps-causal=1                  the same, scrolled to the section four-steps (an id without '=')
//
// A value the declaration refuses (out of range, not an option, not a number) or a key no section declares is
// replaced by the default (or ignored), and a visible note says so: a link never breaks the page. A section may
// adjust a value its other settings do not allow (the note says that too). A run of changes to one setting, each
// within HISTORY_QUIET_MS of the last (a slider dragged, arrow keys held), makes one history entry; a change to
// another setting makes a new one.
//
//   const page = createUrlState({ notes, order });   // notes: the element the notes are shown in; order: the ids
//                                                    // of the page's sections, in page order
//   const state = page.section(id, module.settings); // before the section runs: state.values holds its values
//   page.declared();                                 // once every section is in: notes for unknown keys
//   // in the section: state.values.causal; state.set('causal', true); state.bind('causal', (v) => …)
// Sections may register in any order, each when its module has loaded: the hash lists settings in page order, and
// keeps the hash's keys that no section has claimed yet as they are until declared().
import { encode, parse, same } from './settings.mjs';
import { el } from './ui.mjs';

export const HISTORY_QUIET_MS = 1000;

/** The hash's parts: { anchor, entries: Map(key → raw text) }. */
function readHash(hash) {
  const entries = new Map();
  let anchor = null;
  for (const part of hash.replace(/^#/, '').split('&')) {
    if (part === '') continue;
    const at = part.indexOf('=');
    if (at < 0) {
      anchor ??= decodeURIComponent(part);
      continue;
    }
    let value = part.slice(at + 1);
    try {
      value = decodeURIComponent(value);
    } catch { /* a stray '%': the value is refused by its declaration, with a note */ }
    entries.set(decodeURIComponent(part.slice(0, at)), value);
  }
  return { anchor, entries };
}

export function createUrlState({ notes: notesElement = null, order = [], location = globalThis.location, history = globalThis.history } = {}) {
  /** Every setting of the page: id → { state, spec } */
  const byId = new Map();
  const sections = [];
  let requested = readHash(location.hash).entries;
  let applying = false;
  let lastWrite = { at: -Infinity, id: null };
  let complete = false;
  const notes = new Map(); // id → text

  function showNotes() {
    if (!notesElement) return;
    notesElement.replaceChildren(...[...notes.values()].map((text) => el('p', { className: 'link-note' }, text)));
    notesElement.hidden = notes.size === 0;
  }

  /** Where section `id` sits in the page (sections not in `order` after those that are, as they registered). */
  const place = (id) => (order.includes(id) ? order.indexOf(id) : order.length);

  /**
   * The hash for the current values: non-default settings only, in page order; before declared(), then the keys of
   * the hash no section has claimed yet (a section not loaded yet reads them when it registers).
   */
  function currentHash() {
    const parts = [];
    for (const { settings, values } of [...sections].sort((a, b) => place(a.id) - place(b.id))) {
      for (const spec of Object.values(settings)) {
        if (!same(values[spec.name], spec.default)) parts.push(`${spec.id}=${encodeURIComponent(encode(spec, values[spec.name]))}`);
      }
    }
    if (!complete) {
      for (const [key, text] of requested) if (!known(key)) parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(text)}`);
    }
    return parts.length ? `#${parts.join('&')}` : '';
  }

  function write(id) {
    if (applying) return;
    const hash = currentHash();
    const url = `${location.pathname}${location.search}${hash}`;
    if (hash === location.hash || (hash === '' && location.hash === '')) return;
    const now = performance.now();
    if (id === lastWrite.id && now - lastWrite.at < HISTORY_QUIET_MS) history.replaceState(null, '', url);
    else history.pushState(null, '', url);
    lastWrite = { at: now, id };
  }

  /**
   * What the hash asks of a setting: { key, text } under its id, or under the key an older link used (spec.was, its
   * value read as it reads now); null when it asks nothing.
   */
  function asked(spec) {
    if (requested.has(spec.id)) return { key: spec.id, text: requested.get(spec.id) };
    if (!spec.was || !requested.has(spec.was.key)) return null;
    const text = requested.get(spec.was.key);
    return { key: spec.was.key, text: spec.was.values && Object.hasOwn(spec.was.values, text) ? spec.was.values[text] : text };
  }

  /** Whether a key of the hash is some setting's, now or in an older link. */
  const known = (key) => byId.has(key) || [...byId.values()].some(({ spec }) => spec.was?.key === key);

  /** The value the hash asks for (or the default, with a note when the hash's value is refused). */
  function wanted(spec) {
    const ask = asked(spec);
    if (!ask) return spec.default;
    const { key, text } = ask;
    const { value, error } = parse(spec, text);
    if (error === undefined) return value;
    notes.set(spec.id, `The link sets ${key}=${text}, which “${spec.label}” does not take (${error}): ` +
      `its default, ${encode(spec, spec.default)}, is used instead.`);
    return spec.default;
  }

  function noteAdjusted() {
    for (const [id, { state, spec }] of byId) {
      const ask = asked(spec);
      if (!ask || notes.has(id)) continue;
      const { value, error } = parse(spec, ask.text);
      if (error === undefined && !same(value, state.values[spec.name])) {
        notes.set(id, `The link sets ${ask.key}=${requested.get(ask.key)}, which the other settings of its section do not allow: ` +
          `it is ${encode(spec, state.values[spec.name])}.`);
      }
    }
  }

  function noteUnknown() {
    for (const key of requested.keys()) {
      if (!known(key)) notes.set(key, `The link sets ${key}, which is no setting of this page: it is ignored.`);
    }
  }

  /** Back, Forward, or a hash typed or followed: every setting to what the hash says. */
  function apply() {
    const { anchor, entries } = readHash(location.hash);
    if (anchor !== null && entries.size === 0) {
      // an in-page link (#four-steps): the browser has scrolled there; the URL keeps the settings beside it
      const hash = currentHash();
      if (hash) history.replaceState(null, '', `${location.pathname}${location.search}#${encodeURIComponent(anchor)}&${hash.slice(1)}`);
      return;
    }
    requested = entries;
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
    if (complete) noteUnknown();
    showNotes();
  }

  addEventListener('popstate', apply);
  addEventListener('hashchange', apply);

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
        state.values[spec.name] = wanted(spec);
      }
      sections.push(state);
      showNotes();
      return state;
    },
    /** Every section is registered: keys no section declares get their note. */
    declared() {
      complete = true;
      noteUnknown();
      showNotes();
    },
    /** After a section has run: values it adjusted get their note, and the URL says what the page shows. */
    settled() {
      noteAdjusted();
      showNotes();
      if (!applying && notes.size > 0) {
        const hash = currentHash();
        history.replaceState(null, '', `${location.pathname}${location.search}${hash}`);
      }
    },
    /** The current link: this page with every setting that differs from its default. */
    link() {
      return `${location.origin}${location.pathname}${location.search}${currentHash()}`;
    },
    notes: () => [...notes.values()],
    /** The id the link scrolls to (#four-steps&…), or null. */
    anchor: () => readHash(location.hash).anchor,
  };
}

/**
 * The "Copy link" button: copies the page's link with its settings (page.link()) to the clipboard, or, where the
 * clipboard is unavailable, shows it in a field, selected, to copy by hand.
 */
export function copyLinkButton(container, page) {
  const button = el('button', { type: 'button', className: 'copy-link', id: 'copy-link' }, 'Copy link to these settings');
  const said = el('span', { className: 'copy-link-said', role: 'status' });
  const field = el('input', { type: 'text', readOnly: true, className: 'copy-link-field', 'aria-label': 'link to these settings' });
  field.hidden = true;
  button.addEventListener('click', async () => {
    const link = page.link();
    try {
      await navigator.clipboard.writeText(link);
      said.textContent = 'Link copied.';
      field.hidden = true;
    } catch {
      field.value = link;
      field.hidden = false;
      field.select();
      said.textContent = 'Copy the link from the field.';
    }
  });
  container.append(button, said, field);
  return button;
}
