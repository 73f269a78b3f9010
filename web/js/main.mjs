// The lesson page's entry point: loads seqorder's WebAssembly module once, numbers the sections, links them from the
// pipeline strip, reads the page's settings from the URL (url-state.mjs), then runs each section when it comes near
// the screen.
//
// The sections are the <section> elements of <main> in index.html, in order (nothing here lists them). One with a
// .section-body is filled by the module web/js/sections/<id>.mjs, exporting
//     export const settings = declareSettings({ … });   // optional: its settings, declared once (settings.mjs)
//     export const makesModels = true;                   // optional: it calls so.createModel
//     export async function run(so, root, state) { ... }
// where `so` is the loaded API (src/js/seqorder.d.ts; the main module alone, and the model module too, loaded before
// the first section that makes models runs: an app that never reaches one never fetches it), `root` its .section-body
// and `state` its settings' state
// (url-state.mjs: state.values holds the current values, read from the URL; controls.mjs's settingControl builds a
// declared setting's control and keeps both in step). A section renders its prose, figures and checks
// (the package's seqorder/checks, lib/figures/checks.mjs) inside root only, and resolves once its first experiments have run; controls re-run them later.
// Its data-stage attribute names the pipeline stages it covers (the data-stage items of #pipeline). To add a section:
// add its <section id="…" data-stage="…"> with an <h2> and a .section-body to index.html where it belongs, and write
// web/js/sections/<id>.mjs.
//
// A section runs when it is shown: when it comes within one screen height of the viewport (near.mjs: an
// IntersectionObserver with a root margin of 100%, and a timer where the browser draws no frames), in page order when
// several come at once; until then its module is not even loaded, its section says data-state="waiting", and its body
// holds one pending check that says when it will run (and keeps a screen's height, so that the sections below it stay
// out of reach). Then data-state is "queued", "running", and "done" or "error". A link to an element no section has
// drawn yet (a check) runs every section first. The modules of the sections not shown are loaded once the page is
// ready, while the browser is idle, so that every setting in the URL is known (url-state.mjs's declared()).
//
// <body data-ready="true"> says that the module has loaded and every section in the viewport when the page loaded
// has run: the first screen is computed and its checks have their verdicts (the sections near it run next, as
// near.mjs reports them).
// It stays "true" as the reader scrolls: each later section's own data-state says whether it has run. "error": the
// module could not load (the status says why). The section "lab" trains its models when it comes into view
// (its checks are pending until then, and its .section-body says data-training="done" once they are computed).
import { renderChecks, summarize } from '../lib/figures/checks.mjs';
import { atNextFrame } from './next-frame.mjs';
import { watchNear } from './near.mjs';
import { checkList, copyLinkButton, el, keepFocusInView } from './ui.mjs';
import { createUrlState } from './url-state.mjs';

const statusEl = document.getElementById('status');
const sections = [...document.querySelectorAll('main > section')];

function setStatus(text, kind = 'info') {
  const span = statusEl.querySelector('.status-text') ?? statusEl.appendChild(el('span'));
  span.className = 'status-text';
  span.textContent = text;
  statusEl.dataset.kind = kind;
}

/** Numbers the sections (1, 2, … and A, B, … for asides) and links each from its stages in the pipeline strip. */
function numberAndLink() {
  let main = 0;
  let aside = 0;
  for (const section of sections) {
    const number = section.classList.contains('aside') ? String.fromCharCode(65 + aside++) : String(++main);
    const title = section.querySelector('h2');
    title.prepend(el('span', { className: 'num' }, number), ' ');
    const stages = (section.dataset.stage ?? '').split(/\s+/).filter(Boolean);
    const names = [];
    for (const stage of stages) {
      const item = document.querySelector(`#pipeline [data-stage="${stage}"]`);
      if (!item) continue;
      names.push(item.querySelector('.stage-name').textContent);
      let links = item.querySelector(':scope > .stage-links');
      if (!links) {  // under the stage's name; in a group, above its steps (in the keyboard's order as on screen)
        links = el('span', { className: 'stage-links' });
        const steps = item.querySelector(':scope > .pipeline-steps');
        if (steps) steps.before(links);
        else item.append(links);
      }
      const name = title.textContent.replace(/^\S+\s/, '');
      links.append(el('a', { href: `#${section.id}`, title: name }, number, el('span', { className: 'visually-hidden' }, `: ${name}`)));
    }
    if (names.length) {
      title.after(el('p', { className: 'stage-note' }, el('a', { href: '#pipeline' }, 'In the pipeline'), `: ${names.join(', ')}`));
    }
  }
}

/**
 * Lets the browser paint between sections, so the page fills in progressively instead of all at once (without waiting
 * long for a frame that does not come: atNextFrame).
 */
const nextFrame = () => new Promise((resolve) => atNextFrame(() => setTimeout(resolve, 0)));

/** How near the viewport a section runs: within this many screen heights above or below it. */
const NEAR = 1;

const runnable = sections.filter((s) => s.querySelector('.section-body'));
// Under the status: what the link's settings changed (notes), and the button that copies the link.
const notes = el('div', { className: 'link-notes', id: 'link-notes', role: 'status' });
notes.hidden = true;
const linkRow = el('div', { className: 'link-row' });
statusEl.after(notes, linkRow);
const showNotes = (lines) => {
  notes.replaceChildren(...lines.map((text) => el('p', { className: 'link-note' }, text)));
  notes.hidden = lines.length === 0;
};
const urlState = createUrlState({ notes: showNotes, order: runnable.map((s) => s.id) });
copyLinkButton(linkRow, urlState);

/**
 * A section's module and its settings' state read from the URL: { module, state }, loaded once, when first asked for
 * (a module that fails to load gives { module: { error } }, which the section shows when it runs). Once every
 * section's settings are registered, keys that none declares get their note.
 */
const loaded = new Map();
function sectionModule(section) {
  if (!loaded.has(section)) {
    loaded.set(section, import(`./sections/${section.id}.mjs`).then(
      (module) => ({ module, state: urlState.section(section.id, module.settings) }),
      (error) => ({ module: { error }, state: null }),
    ).then((entry) => {
      if (++registered === runnable.length) {
        urlState.declared();
        if (document.body.dataset.ready === 'true') urlState.settled();
      }
      return entry;
    }));
  }
  return loaded.get(section);
}
let registered = 0;

/** Shows a section that has not run: its one pending check says when it will. */
function showWaiting(section) {
  section.dataset.state = 'waiting';
  const root = section.querySelector('.section-body');
  root.replaceChildren();
  renderChecks(checkList(root), [{
    name: `${section.id}-when-shown`, pending: true, claim: 'This section’s checks',
    details: 'computed in your browser when the section comes near the screen: scroll on',
  }]);
}

async function runSection(so, section) {
  const root = section.querySelector('.section-body');
  section.dataset.state = 'running';
  try {
    const { module, state } = await sectionModule(section);
    if (module.error) throw module.error;
    if (module.makesModels) await modelsLoaded(so);
    root.replaceChildren();
    await module.run(so, root, state);
    section.dataset.state = 'done';
  } catch (error) {
    // A broken section must not hide the others; it shows its error and a failing check.
    section.dataset.state = 'error';
    console.error(`section ${section.id}:`, error);
    root.replaceChildren();
    renderChecks(checkList(root), [{
      name: `${section.id}-ran`, pass: false, claim: 'The section ran',
      details: `this section stopped with an error: ${error?.message ?? error}`,
    }]);
  }
}

let loadingModule = null;  // the promise of the loaded API (main() starts it)
let loadingModels = null;  // the promise of its model module, loaded (the package's seqorder/model) when first needed

/** Loads the model module into `so`, once (again after a failure, which the section that needed it shows). */
function modelsLoaded(so) {
  loadingModels ??= import('../lib/model-entry.mjs').then((entry) => entry.loadModelModule(so)).catch((error) => {
    loadingModels = null;
    throw error;
  });
  return loadingModels;
}
let running = Promise.resolve();

/**
 * Runs those of `list` that wait, in page order, after the sections already asked for; resolves when they have run.
 * The summary and the URL's notes follow.
 */
function runSections(list) {
  const todo = runnable.filter((s) => list.includes(s) && s.dataset.state === 'waiting');
  for (const section of todo) {
    section.dataset.state = 'queued';
    near.unwatch(section);
    sectionModule(section);  // loading, while the sections before it run
  }
  running = running.then(async () => {
    const so = await loadingModule.catch(() => null);  // (main() says why the module did not load)
    if (!so) return;
    for (const section of todo) {
      await runSection(so, section);
      await nextFrame();
    }
    if (todo.length && document.body.dataset.ready === 'true') settle();
  });
  return running;
}

/** The URL's notes, the previews' and the page's summaries, once sections have run. */
function settle() {
  urlState.settled();
  showSummary();
}

// Sections that come near the screen run.
const near = watchNear({ margin: NEAR }, runSections);

/** Is some of the section in the viewport now? */
function inView(section) {
  const { top, bottom } = section.getBoundingClientRect();
  return bottom > 0 && top < innerHeight;
}

/** A link to an element no section has drawn yet (a check): every section runs first. */
const linksToUndrawn = () => {
  const id = urlState.anchor();
  return id !== null && !document.getElementById(id);
};

async function main() {
  numberAndLink();
  if (typeof WebAssembly !== 'object' || typeof WebAssembly.instantiate !== 'function') {
    setStatus('This browser has no WebAssembly, which every experiment on this page needs. ' +
      'Any current Chrome, Firefox, Safari or Edge runs it.', 'error');
    document.body.dataset.ready = 'error';
    return;
  }
  for (const section of runnable) showWaiting(section);
  let version;
  // The package is imported here rather than statically: when its JavaScript cannot load (lib/ missing from a copy
  // of the site, a network error), the catch below says so instead of leaving "Loading…" on screen forever.
  loadingModule = import('../lib/seqorder.mjs').then((seqorder) => {
    version = seqorder.version;
    return seqorder.loadSeqorder();
  });
  // The sections in view at load: their modules load beside the WebAssembly module, and they run first; the first
  // report of those near them queues them after.
  const first = linksToUndrawn() ? runnable : runnable.filter(inView);
  const firstRun = runSections(first);
  for (const section of runnable) if (!first.includes(section)) near.watch(section);
  try {
    await loadingModule;
  } catch (error) {
    // nothing will run: the sections that wait are left empty, as they were before main()
    near.stop();
    for (const section of runnable) {
      delete section.dataset.state;
      section.querySelector('.section-body').replaceChildren();
    }
    setStatus(`The WebAssembly module could not be loaded, so the experiments cannot run: ${error?.message ?? error}. ` +
      'If you opened the file directly from disk, serve the folder instead (npm start).', 'error');
    console.error(error);
    document.body.dataset.ready = 'error';
    return;
  }
  setStatus(`WebAssembly module loaded (seqorder ${version}). Running the experiments…`);
  await firstRun;
  settle();
  if (urlState.anchor()) unfoldTarget();
  // Controls re-run checks: keep the summary true to the page.
  let pending = 0;
  document.addEventListener('seqorder:check', () => {
    if (!pending) pending = requestAnimationFrame(() => { pending = 0; showSummary(); });
  });
  performance.mark('seqorder:ready');  // the same moment as a User Timing entry, for tools that read the timeline
  document.body.dataset.ready = 'true';
  // The modules of the sections not shown yet, while the browser is idle: their settings (the URL's) are then known.
  const idle = globalThis.requestIdleCallback ?? ((f) => setTimeout(f, 200));
  const rest = runnable.filter((s) => !loaded.has(s));
  const next = () => {
    const section = rest.shift();
    if (section) sectionModule(section).then(() => idle(next));
  };
  idle(next);
}

/** Each folded preview's summary counts its checks, so that what is folded still shows its verdicts. */
function showPreviewSummaries() {
  for (const details of document.querySelectorAll('.preview-body')) {
    const { state } = details.closest('section').dataset;
    const { passed, failed, pending } = summarize(details);
    const total = passed + failed + pending.length;
    const verdict = failed ? `${failed} of them fail` : pending.length ? `${passed} pass, ${pending.length} pending` : 'all pass';
    details.querySelector('.preview-summary').textContent = total && (state === 'done' || state === 'error')
      ? `Open the preview: its ${total} checks, ${verdict}` : 'Open the preview';
  }
}

/**
 * A link to something inside folded details (a check, a figure) unfolds them first; a link to something no section
 * has drawn yet runs the sections that wait first.
 */
function unfoldTarget() {
  const id = urlState.anchor();
  if (!id) return;
  const target = document.getElementById(id);
  if (!target) {
    if (runnable.some((s) => s.dataset.state === 'waiting')) runSections(runnable).then(() => document.getElementById(id) && unfoldTarget());
    return;
  }
  for (let d = target.closest('details'); d; d = d.parentElement.closest('details')) d.open = true;
  target.scrollIntoView({ block: 'center' });
}
addEventListener('hashchange', unfoldTarget);
keepFocusInView();

function showSummary() {
  showPreviewSummaries();
  const { passed, failed, failures, pending } = summarize(document);
  const unshown = runnable.filter((s) => s.dataset.state !== 'done' && s.dataset.state !== 'error').length;
  const training = pending.filter((name) => !name.endsWith('-when-shown')).length;
  const later = (unshown ? ` The checks of ${unshown} more section${unshown > 1 ? 's run when you scroll near them' : ' run when you scroll near it'}.` : '') +
    (training ? ` ${training} more check${training > 1 ? 's wait' : ' waits'} for a training run that has not finished.` : '');
  if (passed + failed === 0) setStatus(`No check has run yet.${later}`);
  else setStatus(failed === 0
    ? `All ${passed} checks ${pending.length ? 'so far' : 'on this page'} pass, computed just now in your browser.${later}`
    : `${failed} of ${passed + failed} checks fail: ${failures.map((f) => f.name).join(', ')}.${later}`, failed === 0 ? 'pass' : 'fail');
  statusEl.querySelector('a')?.remove();
  const first = failed > 0 ? failures[0].name : pending[0];
  if (first) statusEl.append(el('a', { href: `#check-${first}` }, failed > 0 ? ' Go to the first one.' : ' Go to them.'));
}

main();
