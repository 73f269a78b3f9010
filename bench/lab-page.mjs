// The lesson page's lab as the lab benchmarks drive it (bench/lab-run.mjs, bench/lab-again.mjs): the page opened and
// ready, every section shown with the lab near the screen but not in view (the page runs it: its pool's workers
// start, its training run does not yet), then each run waited for and read.
import { showEverySection } from '../tests/browser/helpers/sections.mjs';

/** Opens `url` in `browser` and leaves it ready, the lab's pool started and its run not. */
export async function openNearLab(browser, url) {
  await browser.goto(url);
  await browser.waitFor(() => document.body.dataset.ready === 'true', null, { timeout: 60_000, what: 'body[data-ready="true"]' });
  await showEverySection(browser);
  await new Promise((resolve) => setTimeout(resolve, 1000));  // the pool's workers have started
}

/**
 * In the page: a promise of whether the lab's run is done, settled when it is or after `ms`. It watches the section's
 * data-training, so that waiting for a run is one message to the page every `ms` rather than a poll every 100 ms: in
 * WebKitGTK each poll costs its WebDriver's processes and the page's thread CPU time (~0.3–0.6 s over 8 s), which on
 * 2 cores the run would lose.
 */
const doneWithin = (ms) => new Promise((resolve) => {
  const body = document.querySelector('#lab .section-body');
  const done = () => body?.dataset.training === 'done';
  if (done()) return resolve(true);
  const observer = new MutationObserver(() => {
    if (!done()) return;
    observer.disconnect();
    clearTimeout(timer);
    resolve(true);
  });
  if (body) observer.observe(body, { attributes: true, attributeFilter: ['data-training'] });
  const timer = setTimeout(() => {
    observer.disconnect();
    resolve(done());
  }, ms);
});

/**
 * Waits until the lab's run is done (at most 10 minutes) → { ms (the section's data-milliseconds: from reaching it to
 * its last measurement), timing (its record's: models created, trained, measured) }.
 */
export async function labRunDone(browser) {
  await browser.waitFor(doneWithin, 20_000, { timeout: 600_000, interval: 0, what: 'the lab\'s run done' });
  return browser.evaluate(async () => ({
    ms: Number(document.querySelector('#lab .lab-status').dataset.milliseconds),
    timing: (await import('/js/drawn.mjs')).drawnIn(document.getElementById('lab')).record.timing,
  }));
}
