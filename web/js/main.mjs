// The lesson page's entry point: loads seqorder's WebAssembly module once, numbers the sections, links them from the
// pipeline strip, reads the page's settings from the URL (url-state.mjs), then runs every section in page order.
//
// The sections are the <section> elements of <main> in index.html, in order (nothing here lists them). One with a
// .section-body is filled by the module web/js/sections/<id>.mjs, exporting
//     export const settings = declareSettings({ … });   // optional: its settings, declared once (settings.mjs)
//     export async function run(so, root, state) { ... }
// where `so` is the loaded API (src/js/seqorder.d.ts), `root` its .section-body and `state` its settings' state
// (url-state.mjs: state.values holds the current values, read from the URL; controls.mjs's settingControl builds a
// declared setting's control and keeps both in step). A section renders its prose, figures and checks
// (the package's seqorder/checks, lib/figures/checks.mjs) inside root only, and resolves once its first experiments have run; controls re-run them later.
// Its data-stage attribute names the pipeline stages it covers (the data-stage items of #pipeline). To add a section:
// add its <section id="…" data-stage="…"> with an <h2> and a .section-body to index.html where it belongs, and write
// web/js/sections/<id>.mjs. When every section has resolved, <body data-ready="true"> tells readers and the browser
// tests that all checks ran, but those of a run that starts later: the section "train" trains its models when the
// reader reaches it (its checks are pending until then, and its .section-body says data-training="done" once they
// are computed).
import { renderChecks, summarize } from '../lib/figures/checks.mjs';
import { el } from './ui.mjs';
import { copyLinkButton, createUrlState } from './url-state.mjs';

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
      const links = item.querySelector(':scope > .stage-links') ?? item.appendChild(el('span', { className: 'stage-links' }));
      const name = title.textContent.replace(/^\S+\s/, '');
      links.append(el('a', { href: `#${section.id}`, title: name }, number, el('span', { className: 'visually-hidden' }, `: ${name}`)));
    }
    if (names.length) {
      title.after(el('p', { className: 'stage-note' }, el('a', { href: '#pipeline' }, 'In the pipeline'), `: ${names.join(', ')}`));
    }
  }
}

/** Lets the browser paint between sections, so the page fills in progressively instead of all at once. */
const nextFrame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

async function runSection(so, section) {
  const root = section.querySelector('.section-body');
  section.dataset.state = 'running';
  try {
    const { module, state } = (await loading).get(section);
    if (module.error) throw module.error;
    await module.run(so, root, state);
    section.dataset.state = 'done';
  } catch (error) {
    // A broken section must not hide the others; it shows its error and a failing check.
    section.dataset.state = 'error';
    console.error(`section ${section.id}:`, error);
    renderChecks(root, [{
      name: `${section.id}-ran`, pass: false, claim: 'The section ran',
      details: `this section stopped with an error: ${error?.message ?? error}`,
    }]);
  }
}

const runnable = sections.filter((s) => s.querySelector('.section-body'));
// Under the status: what the link's settings changed (notes), and the button that copies the link.
const notes = el('div', { className: 'link-notes', id: 'link-notes', role: 'status' });
notes.hidden = true;
const linkRow = el('div', { className: 'link-row' });
statusEl.after(notes, linkRow);
const urlState = createUrlState({ notes });
copyLinkButton(linkRow, urlState);

/**
 * Every section's module, and its settings' state read from the URL, registered in page order once all have loaded
 * (a section whose module fails to load shows why when it runs).
 */
const loading = Promise.all(runnable.map((section) => import(`./sections/${section.id}.mjs`).catch((error) => ({ error }))))
  .then((modules) => {
    const states = modules.map((module, i) => (module.error ? null : urlState.section(runnable[i].id, module.settings)));
    urlState.declared();
    return new Map(runnable.map((section, i) => [section, { module: modules[i], state: states[i] }]));
  });

async function main() {
  numberAndLink();
  if (typeof WebAssembly !== 'object' || typeof WebAssembly.instantiate !== 'function') {
    setStatus('This browser has no WebAssembly, which every experiment on this page needs. ' +
      'Any current Chrome, Firefox, Safari or Edge runs it.', 'error');
    document.body.dataset.ready = 'error';
    return;
  }
  let so;
  let version;
  try {
    // The package is imported here rather than statically: when its JavaScript cannot load (lib/ missing from a copy
    // of the site, a network error), this catch says so instead of leaving "Loading…" on screen forever.
    const seqorder = await import('../lib/seqorder.mjs');
    version = seqorder.version;
    so = await seqorder.loadSeqorder();
  } catch (error) {
    setStatus(`The WebAssembly module could not be loaded, so the experiments cannot run: ${error?.message ?? error}. ` +
      'If you opened the file directly from disk, serve the folder instead (npm start).', 'error');
    console.error(error);
    document.body.dataset.ready = 'error';
    return;
  }
  setStatus(`WebAssembly module loaded (seqorder ${version}). Running the experiments…`);
  for (const section of runnable) {
    await runSection(so, section);
    await nextFrame();
  }
  urlState.settled();
  if (urlState.anchor()) unfoldTarget();
  showSummary();
  // Controls re-run checks: keep the summary true to the page.
  let pending = 0;
  document.addEventListener('seqorder:check', () => {
    if (!pending) pending = requestAnimationFrame(() => { pending = 0; showSummary(); });
  });
  document.body.dataset.ready = 'true';
}

/** Each folded preview's summary counts its checks, so that what is folded still shows its verdicts. */
function showPreviewSummaries() {
  for (const details of document.querySelectorAll('.preview-body')) {
    const { passed, failed, pending } = summarize(details);
    const total = passed + failed + pending.length;
    const verdict = failed ? `${failed} of them fail` : pending.length ? `${passed} pass, ${pending.length} pending` : 'all pass';
    details.querySelector('.preview-summary').textContent = total ? `Open the preview: its ${total} checks, ${verdict}` : 'Open the preview';
  }
}

/** A link to something inside folded details (a check, a figure) unfolds them first. */
function unfoldTarget() {
  const id = decodeURIComponent(location.hash.slice(1).split('&')[0]);
  const target = id && document.getElementById(id);
  if (!target) return;
  for (let d = target.closest('details'); d; d = d.parentElement.closest('details')) d.open = true;
  target.scrollIntoView({ block: 'center' });
}
addEventListener('hashchange', unfoldTarget);

function showSummary() {
  showPreviewSummaries();
  const { passed, failed, failures, pending } = summarize(document);
  const waiting = pending.length ? ` ${pending.length} more wait for a training run that has not finished.` : '';
  setStatus(failed === 0
    ? `All ${passed} checks ${pending.length ? 'computed so far' : 'on this page'} pass, computed just now in your browser.${waiting}`
    : `${failed} of ${passed + failed} checks fail: ${failures.map((f) => f.name).join(', ')}.${waiting}`, failed === 0 ? 'pass' : 'fail');
  statusEl.querySelector('a')?.remove();
  const first = failed > 0 ? failures[0].name : pending[0];
  if (first) statusEl.append(el('a', { href: `#check-${first}` }, failed > 0 ? ' Go to the first one.' : ' Go to them.'));
}

main();
