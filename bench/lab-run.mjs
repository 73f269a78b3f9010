// How long the lesson page's lab takes for its default run (section "train": five models × 800 Adam steps, measured
// after), against the arithmetic alone: the same five models trained in a node pool of two workers, 800 steps in one
// message each, nothing else (no held-out curve, no measurements, no page). Rounds are interleaved; the page is loaded
// fresh in headless Chromium each round and timed from reaching the section to its last measurement (the section's
// own data-milliseconds, and its record's timing: models created, trained, measured). Prints one JSON line per round,
// then the medians and the ratio page / arithmetic. Needs the built site (npm run build) and Chromium.
//   node bench/lab-run.mjs [rounds = 5]
import { startServer } from '../scripts/serve.mjs';
import { launchChromium } from '../tests/browser/engines/chromium.mjs';
import { showEverySection } from '../tests/browser/sections.mjs';
import { siteDir } from '../tests/browser/site.mjs';
import { loadSeqorder, loadSeqorderPool } from '../tests/node/helpers/load.mjs';
import { median } from '../web/js/median.mjs';

const rounds = Number(process.argv[2] ?? 5);
const so = await loadSeqorder();
const batches = Array.from({ length: 800 }, (_, k) => so.orderTask({ count: 32, length: 8 + (k % 9), seed: 1000 + k }));
const KINDS = [{ positions: 'none' }, { positions: 'sinusoidal' }, { positions: 'learned', maxLength: 16 }, { positions: 'rotary' },
  { positions: 'none', causal: true }];

/** The arithmetic alone: milliseconds for the five models' 800 steps each, two workers. */
async function arithmetic() {
  const pool = await loadSeqorderPool({ workers: 2 });
  try {
    const models = await Promise.all(KINDS.map((o) => pool.createModel({ vocab: 16, width: 32, heads: 2, classes: 2, embedScale: 'sqrtWidth', seed: 1, ...o })));
    const t0 = performance.now();
    await Promise.all(models.map((m) => m.train(batches, { lr: 3e-3 })));
    return Math.round(performance.now() - t0);
  } finally {
    pool.close();
  }
}

const server = await startServer({ root: siteDir, port: 0 });
/** The page's default run: { page (ms from reaching the section), created, trained, measured }. */
async function page() {
  const chromium = await launchChromium({ viewport: { width: 1000, height: 900 } });
  try {
    await chromium.page.goto(server.url, { waitUntil: 'load' });
    await chromium.page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });
    // every section shown, "train" near the screen but not in view: the page runs it (its pool's workers start), and
    // its training run does not start yet
    await showEverySection(chromium.page);
    await new Promise((resolve) => setTimeout(resolve, 1000));  // the pool's workers have started
    await chromium.page.evaluate(() => document.getElementById('train').scrollIntoView());
    await chromium.page.waitForSelector('#train .section-body[data-training="done"]', { timeout: 180_000 });
    const ms = Number(await chromium.page.getAttribute('#train .train-status', 'data-milliseconds'));
    const timing = await chromium.page.evaluate(async () => (await import('/js/drawn.mjs')).drawnIn(document.getElementById('train')).run.timing);
    return { page: ms, ...timing };
  } finally {
    await chromium.close();
  }
}

const rows = [];
try {
  for (let r = 0; r < rounds; r += 1) {
    const row = { arithmetic: await arithmetic(), ...(await page()) };
    rows.push(row);
    console.log(JSON.stringify(row));
  }
} finally {
  await server.close();
}
const of = (key) => median(rows.map((row) => row[key]));
const ratios = rows.map((row) => row.page / row.arithmetic);
console.log(JSON.stringify({
  rounds, arithmetic: of('arithmetic'), page: of('page'), trained: of('trained'), measured: of('measured'),
  ratio: Number(median(ratios).toFixed(3)), ratios: [Math.min(...ratios), Math.max(...ratios)].map((x) => Number(x.toFixed(3))),
}));
