// What the tests of the lab share (tests/browser/lab*.test.mjs; not a test file itself): the lab's run as the page
// draws it, read in any engine through the drivers' evaluate (tests/browser/helpers/engines/driver.mjs); waiting for a run to
// stop; and the same training in node on one thread, for the parameter hashes a run must show.
import { createHash } from 'node:crypto';
import { loadSeqorder, siteModule } from '../../node/helpers/load.mjs';

/** In the page: the lab's record (drawn.mjs's "record"), its phase, the table's hashes, and the checks. */
export function labState() {
  return import('/js/drawn.mjs').then(({ drawnIn }) => {
    const section = document.getElementById('lab');
    const record = drawnIn(section).record;
    const rows = [...section.querySelectorAll('#lab-run table tbody tr')].map((tr) => [...tr.children].map((c) => c.textContent));
    return {
      phase: section.querySelector('.section-body').dataset.training,
      record: record && JSON.parse(JSON.stringify(record, (k, v) => (Number.isNaN(v) ? null : v))),
      rows,
      checks: Object.fromEntries([...section.querySelectorAll('[data-check]')].map((c) => [c.dataset.check, c.dataset.status])),
      status: section.querySelector('.lab-status')?.textContent ?? null,
    };
  });
}

/** In the page: every claim of the section checked against what it draws (claims.mjs). */
export function labClaims() {
  return import('/js/claims.mjs').then(({ verifyClaims }) => verifyClaims(document.getElementById('lab')));
}

/** Waits (any engine) until the lab's phase is one of `phases` (default: a run has stopped). */
export async function labStops(browser, phases = ['done', 'paused', 'error'], timeout = 180_000) {
  await withLabState(browser, () => browser.waitFor((p) => p.includes(document.querySelector('#lab .section-body')?.dataset.training),
    phases, { timeout, interval: 200, what: `the lab's phase in ${phases.join(', ')}` }));
  return browser.evaluate(labState);
}

/**
 * Waits (any engine) until the lab has finished a run whose configuration has `want`'s values (e.g. { task:
 * 'lookback' }): a run started by a click has stopped, not the one before it.
 */
export async function labFinished(browser, want, timeout = 240_000) {
  await withLabState(browser, () => browser.waitFor((w) => import('/js/drawn.mjs').then(({ drawnIn }) => {
    // the phase and the run read together, after the import (the page may start a run while it resolves)
    const section = document.getElementById('lab');
    if (!['done', 'error'].includes(section.querySelector('.section-body').dataset.training)) return false;
    const config = drawnIn(section).record?.config;
    return Boolean(config) && Object.entries(w).every(([key, value]) => JSON.stringify(config[key]) === JSON.stringify(value));
  }), want, { timeout, interval: 200, what: `a finished run with ${JSON.stringify(want)}` }));
  return browser.evaluate(labState);
}

/**
 * In the page: from now on, each time the lab's phase becomes 'done' from another phase, where the element `id` then
 * is in the document (its top, in CSS pixels; null when hidden) is kept in globalThis.__atDone; whereNow reads it.
 */
export function watchDone(id) {
  const body = document.querySelector('#lab .section-body');
  const top = () => {
    const r = document.getElementById(id).getBoundingClientRect();
    return r.height ? Math.round(r.top + scrollY) : null;
  };
  globalThis.__atDone = [];
  let phase = body.dataset.training;
  new MutationObserver(() => {
    if (body.dataset.training === 'done' && phase !== 'done') globalThis.__atDone.push(top());
    phase = body.dataset.training;
  }).observe(body, { attributes: true, attributeFilter: ['data-training'] });
  globalThis.__whereNow = top;
}
/** In the page: { atDone: the element's top each time the phase became done, now: its top now } (watchDone). */
export function whereNow() {
  return { atDone: globalThis.__atDone, now: globalThis.__whereNow() };
}

/** Runs `wait()`; if it fails, its error says where the lab was then: its phase, its status, the run it shows. */
async function withLabState(browser, wait) {
  try {
    return await wait();
  } catch (error) {
    const state = await browser.evaluate(labState).catch((e) => ({ unreadable: e.message }));
    const where = state.unreadable ? `the lab could not be read (${state.unreadable})`
      : `the lab: phase ${state.phase}, status "${state.status}", run shown ${JSON.stringify(state.record?.config ?? null)}`;
    throw new Error(`${error.message}; ${where}`, { cause: error });
  }
}

/**
 * In the page: the Blob each download button hands the browser, with its file name, is kept in
 * globalThis.__files (the download itself is prevented: the test reads the file, no browser saves it).
 */
export function captureDownloads() {
  globalThis.__files = [];
  const original = URL.createObjectURL;
  URL.createObjectURL = (blob) => {
    const url = original.call(URL, blob);
    globalThis.__files.push({ blob, url });
    return url;
  };
  document.addEventListener('click', (event) => {
    const a = event.target.closest?.('a[download]');
    const file = globalThis.__files.find((f) => f.url === a?.href);
    if (!file) return;
    file.name = a.download;
    event.preventDefault();
  }, true);
}

/** In the page: the downloads captured so far, as { name, type, text }. */
export function capturedFiles() {
  return Promise.all(globalThis.__files.map(async (f) => ({ name: f.name, type: f.blob.type, text: await f.blob.text() })));
}

/**
 * Brings the section into view (the page runs it when it comes near the screen, and its default run starts then, if
 * none has), and its run figure once the section has run.
 */
export async function reachLab(browser) {
  await browser.evaluate(() => document.getElementById('lab').scrollIntoView());
  await browser.waitFor(() => ['done', 'error'].includes(document.getElementById('lab').dataset.state), null,
    { timeout: 60_000, what: 'the section lab run' });
  await browser.evaluate(() => document.getElementById('lab-run').scrollIntoView());
}

const so = await loadSeqorder();
const { callOptions, modelOptions, runConfig } = await siteModule('js/lab/config.mjs');
const { trainingBatch } = await siteModule('js/lab/tasks.mjs');

/**
 * The SHA-256 (hex) of every model of the lab's run for `settings` (the lab's setting names, defaults filled in),
 * trained here in node, one model after another on this thread with createModel and step (with the run's call options:
 * randomized positions drawn from the model's training stream, as train draws them): what the page must show.
 */
export function nodeHashes(settings, steps) {
  const config = runConfig(settings);
  const hashes = [];
  for (const key of config.kinds) {
    for (const seed of config.seeds) {
      const model = so.createModel(modelOptions(config, key, seed, so.taskWords.length));
      for (let k = 0; k < (steps ?? config.steps); k++) {
        const { ids, targets } = trainingBatch(so, config, seed, k);
        model.step(ids, targets, { lr: config.lr, ...callOptions(config, key) });
      }
      const hash = createHash('sha256');
      for (const t of Object.values(model.parameters())) hash.update(Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength));
      model.dispose();
      hashes.push(hash.digest('hex'));
    }
  }
  return hashes;
}
