// The bench page's entry point (lab.html): the lesson's lab (web/js/lab/, the same modules as the lesson's section
// "lab") full width, its settings beside its results. It loads seqorder's WebAssembly modules (the main one and the
// model module), reads the lab's settings from the URL's hash (url-state.mjs: a link reproduces a run bit for bit; a
// value the lab refuses falls back to its default with a note), and runs the lab: a link's run starts at once unless
// it is long or large (then it waits for the reader's press); a first visit (a link with no setting) trains the
// bench's run (config.mjs's BENCH_RUN), written into the URL as its link would be.
//
// <body data-ready="true"> says that the modules have loaded and the lab has run (its section's data-state is "done"
// or "error"); "error": the modules could not load (the status says why). The run's progress is the section's own
// (.section-body data-training).
import { renderChecks, summarize } from '../lib/figures/checks.mjs';
import { checkList, copyLinkButton, el, keepFocusInView } from './ui.mjs';
import { BENCH_RUN, DEFAULTS, SETTINGS } from './lab/config.mjs';
import { createUrlState, readHash, settingsHash } from './url-state.mjs';

const statusEl = document.getElementById('status');
const section = document.getElementById('lab');
const root = section.querySelector('.section-body');

function setStatus(text, kind = 'info') {
  const span = statusEl.querySelector('.status-text') ?? statusEl.appendChild(el('span'));
  span.className = 'status-text';
  span.textContent = text;
  statusEl.dataset.kind = kind;
}

// A first visit (a link with no setting, nothing but the place it leads to) shows the bench's run, as its link would:
// the URL then says so. (A link with parts the page cannot read keeps them, and their notes.)
const link = readHash(location.hash);
if (link.entries.size === 0 && link.unreadable.length === 0 && link.strays.length === 0) {
  const hash = settingsHash(SETTINGS, { ...DEFAULTS, ...BENCH_RUN }, { anchor: link.anchor });
  history.replaceState(null, '', `${location.pathname}${location.search}${hash}`);
}

// Under the status: what the link's settings changed (notes), and the button that copies the link.
const notes = el('div', { className: 'link-notes', id: 'link-notes', role: 'status' });
notes.hidden = true;
const linkRow = el('div', { className: 'link-row' });
statusEl.after(notes, linkRow);
const urlState = createUrlState({
  notes: (lines) => {
    notes.replaceChildren(...lines.map((text) => el('p', { className: 'link-note' }, text)));
    notes.hidden = lines.length === 0;
  },
  order: ['lab'],
});
copyLinkButton(linkRow, urlState);

/** The status: the checks' verdicts so far (those of a run not finished wait for it). */
function showSummary() {
  const { passed, failed, failures, pending } = summarize(section);
  const waiting = pending.length ? ` ${pending.length} more check${pending.length > 1 ? 's wait' : ' waits'} for a training run that has not finished.` : '';
  if (passed + failed === 0) setStatus(`No check has run yet.${waiting}`);
  else if (failed) setStatus(`${failed} of ${passed + failed} checks fail: ${failures.map((f) => f.name).join(', ')}.${waiting}`, 'fail');
  else setStatus(`All ${passed} checks ${pending.length ? 'so far' : 'on this page'} pass, computed just now in your browser.${waiting}`, 'pass');
}

async function main() {
  if (typeof WebAssembly !== 'object' || typeof WebAssembly.instantiate !== 'function') {
    setStatus('This browser has no WebAssembly, which the lab needs. Any current Chrome, Firefox, Safari or Edge runs it.', 'error');
    document.body.dataset.ready = 'error';
    return;
  }
  let so;
  let lab;
  let state;
  try {
    // Imported here rather than statically: when the package's JavaScript cannot load (lib/ missing from a copy of the
    // site, a network error), the catch below says so instead of leaving "Loading…" on screen forever.
    lab = await import('./sections/lab.mjs');
    state = urlState.section('lab', lab.settings);
    urlState.declared();
    const seqorder = await import('../lib/seqorder.mjs');
    so = await seqorder.loadSeqorder();
    await (await import('../lib/model-entry.mjs')).loadModelModule(so);
    setStatus(`WebAssembly modules loaded (seqorder ${seqorder.version}).`);
  } catch (error) {
    setStatus(`The WebAssembly modules could not be loaded, so the lab cannot run: ${error?.message ?? error}. ` +
      'If you opened the file directly from disk, serve the folder instead (npm start).', 'error');
    console.error(error);
    document.body.dataset.ready = 'error';
    return;
  }
  section.dataset.state = 'running';
  try {
    await lab.run(so, root, state, { page: 'bench' });
    section.dataset.state = 'done';
  } catch (error) {
    section.dataset.state = 'error';
    console.error('lab:', error);
    root.replaceChildren();
    renderChecks(checkList(root), [{ name: 'lab-ran', pass: false, claim: 'The lab ran', details: `it stopped with an error: ${error?.message ?? error}` }]);
  }
  urlState.settled();
  showSummary();
  let queued = 0;
  document.addEventListener('seqorder:check', () => {
    if (!queued) queued = requestAnimationFrame(() => { queued = 0; showSummary(); });
  });
  performance.mark('seqorder:ready');
  document.body.dataset.ready = 'true';
}

keepFocusInView();
main();
