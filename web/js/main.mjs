// The lesson page's entry point: loads seqorder's WebAssembly module once, then runs every section in page order.
//
// A section is a module web/js/sections/<id>.mjs exporting
//     export async function run(so, root) { ... }
// where `so` is the loaded API (see src/js/seqorder.d.ts) and `root` is the `.section-body` element inside
// <section id="<id>"> of index.html. A section renders its prose, figures and checks (web/js/checks.mjs) inside root
// only, and resolves once its initial experiments have run; interactive re-renders may continue afterwards.
// When every section has resolved, <body data-ready="true"> tells readers and the browser test that all checks ran.
import { check, summarize } from './checks.mjs';

/** Section ids in page order. To add a section: append its id here and write web/js/sections/<id>.mjs. */
export const SECTIONS = [
  'no-where',
  'add-position',
  'sinusoids',
  'experiment',
  'norm',
  'start-offset',
  'order-experiments', 'four-steps', 'incremental',
  'comparisons',
];

const statusEl = document.getElementById('status');

function setStatus(text, kind = 'info') {
  const span = statusEl.querySelector('.status-text') ?? statusEl.appendChild(document.createElement('span'));
  span.className = 'status-text';
  span.textContent = text;
  statusEl.dataset.kind = kind;
}

/** Lets the browser paint between sections, so the page fills in progressively instead of all at once. */
const nextFrame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

async function runSection(so, id) {
  const section = document.getElementById(id);
  if (!section) throw new Error(`index.html has no <section id="${id}">`);
  const root = section.querySelector('.section-body') ?? section;
  section.dataset.state = 'running';
  try {
    const module = await import(`./sections/${id}.mjs`);
    await module.run(so, root);
    section.dataset.state = 'done';
  } catch (error) {
    // A broken section must not hide the others; it shows its error and a failing check.
    section.dataset.state = 'error';
    console.error(`section ${id}:`, error);
    check(root, `${id}-ran`, false, `this section stopped with an error: ${error?.message ?? error}`,
      { claim: 'The section ran' });
  }
}

async function main() {
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
  for (const id of SECTIONS) {
    await runSection(so, id);
    await nextFrame();
  }
  showSummary();
  // Sliders re-run checks: keep the summary true to the page.
  let pending = 0;
  document.addEventListener('seqorder:check', () => {
    if (!pending) pending = requestAnimationFrame(() => { pending = 0; showSummary(); });
  });
  document.body.dataset.ready = 'true';
}

function showSummary() {
  const { passed, failed, failures } = summarize(document);
  setStatus(failed === 0
    ? `All ${passed} checks on this page pass, computed just now in your browser.`
    : `${failed} of ${passed + failed} checks fail: ${failures.map((f) => f.name).join(', ')}.`, failed === 0 ? 'pass' : 'fail');
  statusEl.querySelector('a')?.remove();
  if (failed > 0) {
    const link = document.createElement('a');
    link.href = `#check-${failures[0].name}`;
    link.textContent = ' Go to the first one.';
    statusEl.appendChild(link);
  }
}

main();
