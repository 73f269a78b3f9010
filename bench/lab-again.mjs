// How much of an engine's first lab run is its code being compiled: the lesson page's default lab run (as
// bench/lab-run.mjs times it: a fresh page and profile, from reaching the section to its last measurement), then
// "Train again" twice in the same page, whose workers' module is compiled by then (new models, the same code). One line
// a page: the engine, the site, the load average and each run's { ms, timing } (the section's data-milliseconds and its
// record's timing: models created, trained, measured).
//   node bench/lab-again.mjs [--browser chromium|firefox|webkit] [--pages 1] [--site dir]
import os from 'node:os';
import { startServer } from '../scripts/serve.mjs';
import { ALL_ENGINES, openBrowser } from '../tests/browser/helpers/engines/index.mjs';
import { siteDir } from '../tests/browser/helpers/site.mjs';
import { labRunDone, openNearLab } from './lab-page.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const engine = option('--browser', 'chromium');
const pages = Number(option('--pages', 1));
const site = option('--site', siteDir);
if (!ALL_ENGINES.includes(engine)) throw new RangeError(`--browser must be one of ${ALL_ENGINES.join(', ')}, got ${engine}`);
if (!Number.isInteger(pages) || pages < 1) throw new RangeError('--pages must be a positive whole number');

const RUNS = 3;  // the first, then "Train again" twice
const server = await startServer({ root: site, port: 0 });
try {
  for (let p = 0; p < pages; p++) {
    const browser = await openBrowser(engine, { viewport: { width: 1000, height: 900 } });
    try {
      const load = Number(os.loadavg()[0].toFixed(2));
      await openNearLab(browser, server.url);
      await browser.evaluate(() => document.getElementById('lab').scrollIntoView());
      const runs = [];
      for (let k = 0; k < RUNS; k++) {
        runs.push(await labRunDone(browser));
        if (k + 1 < RUNS) {
          await browser.click('#lab-train');
          await browser.waitFor(() => document.querySelector('#lab .section-body')?.dataset.training !== 'done', null, { timeout: 60_000, what: 'the next run started' });
        }
      }
      console.log(JSON.stringify({ engine, browser: browser.version, site, load, cores: os.cpus().length, runs }));
    } finally {
      await browser.close();
    }
  }
} finally {
  await server.close();
}
