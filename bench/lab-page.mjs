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
 * Waits until the lab's run is done → { ms (the section's data-milliseconds: from reaching it to its last
 * measurement), timing (its record's: models created, trained, measured) }.
 */
export async function labRunDone(browser) {
  await browser.waitFor(() => document.querySelector('#lab .section-body')?.dataset.training === 'done', null,
    { timeout: 600_000, what: 'the lab\'s run done' });
  return browser.evaluate(async () => ({
    ms: Number(document.querySelector('#lab .lab-status').dataset.milliseconds),
    timing: (await import('/js/drawn.mjs')).drawnIn(document.getElementById('lab')).record.timing,
  }));
}
