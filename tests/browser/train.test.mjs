// The section "train" in Chromium (playwright-core): its checks are pending until the reader reaches it; then the
// default run trains the five models, each in a Web Worker of a seqorder pool (offline: the page loaded everything it
// needs), and every check passes; the hashes it
// shows are those of the same training in node (createModel on this thread); another seed changes them and the same
// seed brings them back; Stop stops; the lengths' table and sentences come from the run; the composer and the pickers
// redraw the attention maps.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { finishTraining, frames, openLesson } from './browser.mjs';
import { loadSeqorder } from '../node/helpers/load.mjs';

const CHECKS = ['train-none-mirror-logits', 'train-none-half', 'train-sinusoidal-learns', 'train-learned-learns',
  'train-rotary-learns', 'train-causal-learns', 'train-learned-refuses'];
const MODELS = ['none, bidirectional', 'sinusoidal', 'learned (16 rows)', 'rotary', 'none, causal'];
const OPTIONS = [{ positions: 'none' }, { positions: 'sinusoidal' }, { positions: 'learned', maxLength: 16 }, { positions: 'rotary' },
  { positions: 'none', causal: true }];

let session;
let page;
let errors;
/** The page's workers of the pool (they start with the page, before any run). */
const poolWorkers = () => page.workers().map((w) => w.url()).filter((url) => url.endsWith('/lib/pool/seqorder/pool-worker.mjs'));

before(async () => {
  session = await openLesson({ train: false });
  ({ page, errors } = session);
});

after(async () => {
  await session?.close();
});

/** { name: status } of the section's checks. */
const statuses = () => page.$$eval('#train [data-check]', (els) => Object.fromEntries(els.map((el) => [el.dataset.check, el.dataset.status])));

/** The models' table: { model: { steps, hash } }. */
const modelRows = () => page.$$eval('#train-run table tbody tr', (rows) => Object.fromEntries(rows.map((row) => {
  const cells = [...row.children].map((c) => c.textContent);
  return [cells[0], { steps: cells[1], hash: cells[4].replace('…', '') }];
})));

/** Sets the seed and presses Train; resolves to how the run ended. */
async function train(seed) {
  await page.fill('#train-seed', String(seed));
  await page.click('#train-start');
  return finishTraining(page);
}

/** The first 16 hex digits of SHA-256 over the parameters' bytes, of the section's five models trained here in node. */
async function nodeHashes(seed) {
  const so = await loadSeqorder();
  return MODELS.map((_, i) => {
    const model = so.createModel({ vocab: so.taskWords.length, width: 32, heads: 2, classes: 2, seed, ...OPTIONS[i] });
    for (let k = 0; k < 800; k++) {
      const { ids, targets } = so.orderTask({ count: 32, length: 8 + (k % 9), seed: 1000 + k });
      model.step(ids, targets, { lr: 3e-3 });
    }
    const hash = createHash('sha256');
    for (const t of Object.values(model.parameters())) hash.update(Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength));
    model.dispose();
    return hash.digest('hex').slice(0, 16);
  });
}

test('before the reader reaches it, its checks are pending and the page says so', async () => {
  assert.deepEqual(await statuses(), Object.fromEntries(CHECKS.map((name) => [name, 'pending'])));
  assert.equal(await page.getAttribute('#train .section-body', 'data-training'), 'idle');
  assert.match(await page.textContent('#status'), /All \d+ checks computed so far pass, computed just now in your browser\. 7 more wait for a training run that has not finished\./);
});

let firstHashes;

test('in view, the default run trains five models in five workers, offline too; every check passes', { timeout: 120_000 }, async (t) => {
  // the page was loaded online; the reader reaches the section with the network gone
  const requests = [];
  const onRequest = (request) => requests.push(request.url());
  session.context.on('request', onRequest);
  await session.context.setOffline(true);
  try {
    assert.equal(await finishTraining(page), 'done');
  } finally {
    await session.context.setOffline(false);
    session.context.off('request', onRequest);
  }
  assert.deepEqual(requests, [], 'requests made by the run');
  assert.deepEqual(await statuses(), Object.fromEntries(CHECKS.map((name) => [name, 'pass'])));
  const rows = await modelRows();
  assert.deepEqual(Object.keys(rows), MODELS);
  assert.ok(Object.values(rows).every((r) => r.steps === '800' && /^[0-9a-f]{16}$/.test(r.hash)), JSON.stringify(rows));
  firstHashes = MODELS.map((m) => rows[m].hash);
  assert.equal(poolWorkers().length, 5, page.workers().map((w) => w.url()).join(', '));
  const status = await page.textContent('#train .train-status');
  assert.match(status, /^Trained and measured in [\d.]+ s: 5 models × 800 steps in 5 workers/);
  t.diagnostic(`${status} (${await page.getAttribute('#train .train-status', 'data-milliseconds')} ms)`);
  assert.match(await page.textContent('#status'), /^\s*All \d+ checks on this page pass/m);
});

test('the hashes shown are those of the same training in node', { timeout: 120_000 }, async () => {
  assert.deepEqual(firstHashes, await nodeHashes(1));
});

test('the lengths: a learned table refuses with the API\'s message; the sentences carry the table\'s numbers', async () => {
  const table = await page.$$eval('#train-lengths table tbody tr', (rows) => rows.map((row) => [...row.children].map((c) => c.textContent)));
  assert.deepEqual(table.map((r) => r[0]), MODELS);
  const learned = table[2];
  assert.equal(learned[4], 'unsupported: ids have T = 32 positions, but the learned table has 16 rows (maxLength)');
  assert.equal(learned[5], 'unsupported: ids have T = 64 positions, but the learned table has 16 rows (maxLength)');
  assert.deepEqual(table[0].slice(1), ['50%', '50%', '50%', '50%', '50%']);
  const findings = await page.textContent('#train-lengths .train-findings');
  for (const row of table.filter((r) => !r[4].startsWith('unsupported'))) assert.ok(findings.includes(`${row[0]} (${row[4]})`), `${row[0]} at T = 32 in: ${findings}`);
});

test('the composer and the pickers redraw the maps; mirroring a sentence does not change the position-free answer', async () => {
  const pixels = () => page.$$eval('#train-maps canvas', (canvases) => canvases.map((canvas) => {
    const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
    let h = 2166136261;
    for (let i = 0; i < data.length; i += 1) h = Math.imul(h ^ data[i], 16777619) >>> 0;
    return h;
  }));
  const answers = () => page.textContent('#train-maps .train-answers');
  const settle = async () => {
    await page.waitForTimeout(200);
    await frames(page);
  };
  assert.equal((await pixels()).length, 4);
  const before = { pixels: await pixels(), answers: await answers(), titles: await page.$$eval('#train-maps .plot-grid-title', (els) => els.map((e) => e.textContent)) };
  assert.deepEqual(before.titles, ['left, none, bidirectional: layer 1, head 1', 'left, none, bidirectional: layer 1, head 2',
    'right, rotary: layer 1, head 1', 'right, rotary: layer 1, head 2']);
  await page.click('#train-mirror');
  await settle();
  assert.match(await page.textContent('#train-maps .train-sentence'), /“the person follows the robot near a box”: robot comes second/);
  const mirrored = { pixels: await pixels(), answers: await answers() };
  assert.ok(mirrored.pixels.every((p, i) => p !== before.pixels[i]), 'every map changed');
  const probability = (text, side) => Number(text.match(new RegExp(`${side}, [^:]+: “robot first” with probability (\\d+(?:\\.\\d+)?(?:e[−+]\\d+)?)`))[1]);
  assert.equal(probability(mirrored.answers, 'Left'), probability(before.answers, 'Left'), `${before.answers} | ${mirrored.answers}`);
  assert.ok(probability(before.answers, 'Right') > 0.5 && probability(mirrored.answers, 'Right') < 0.5, `${before.answers} | ${mirrored.answers}`);
  // a word chosen for a slot: robot moves there, the maps follow
  await page.selectOption('#train-word-6', 'robot');
  await settle();
  assert.match(await page.textContent('#train-maps .train-sentence'), /“the person follows the a near robot box”/);
  assert.notDeepEqual(await pixels(), mirrored.pixels);
  // a sentence without robot is refused, and says why
  await page.selectOption('#train-word-6', 'then');
  await settle();
  assert.match(await page.textContent('#train-maps .train-sentence'), /needs robot and person once each \(it has 0 robot, 1 person\)/);
  await page.selectOption('#train-word-6', 'robot');
  await page.click('#train-longer');
  await settle();
  assert.equal(await page.$$eval('#train-maps .train-slot select', (els) => els.length), 9);
  await page.selectOption('#train-map-b', 'causal');
  await settle();
  assert.match((await page.$$eval('#train-maps .plot-grid-title', (els) => els.map((e) => e.textContent)))[2], /^right, none, causal/);
  assert.match(await answers(), /Right, none, causal: “robot first” with probability/);
});

test('Stop stops the run; its checks wait again, saying so', { timeout: 120_000 }, async () => {
  await page.fill('#train-seed', '1');
  await page.click('#train-start');
  await page.waitForFunction(() => Number(document.getElementById('train-progress').value) > 0, null, { timeout: 60_000 });
  await page.click('#train-stop');
  assert.equal(await finishTraining(page), 'stopped');
  const steps = Object.values(await modelRows()).map((r) => Number(r.steps));
  assert.ok(steps.every((s) => s > 0 && s < 800), `steps: ${steps}`);
  assert.match(await page.textContent('#train .train-status'), /^Stopped at step \d+ of 800\./);
  assert.deepEqual(await statuses(), Object.fromEntries(CHECKS.map((name) => [name, 'pending'])));
  assert.match(await page.textContent('[data-check="train-none-half"] .check-details'), /was stopped at step \d+ of 800/);
  assert.equal(await page.isEnabled('#train-start'), true);
  assert.equal(await page.isEnabled('#train-stop'), false);
});

test('another seed changes every hash; the same seed gives them back, bit for bit', { timeout: 180_000 }, async () => {
  assert.equal(await train(2), 'done');
  const second = Object.values(await modelRows()).map((r) => r.hash);
  assert.ok(second.every((hash, i) => hash !== firstHashes[i]), `${second} vs ${firstHashes}`);
  assert.equal(await train(1), 'done');
  assert.deepEqual(Object.values(await modelRows()).map((r) => r.hash), firstHashes);
  assert.deepEqual(await statuses(), Object.fromEntries(CHECKS.map((name) => [name, 'pass'])));
  assert.equal(poolWorkers().length, 5, 'still five workers: the pool serves every run');
});

test('a seed that is not a whole number is refused', async () => {
  await page.fill('#train-seed', '1.5');
  await page.click('#train-start');
  assert.match(await page.textContent('#train .train-status'), /The seed must be a whole number from 0 to 1,000,000,000/);
  assert.equal(await page.getAttribute('#train .section-body', 'data-training'), 'done');
  assert.deepEqual(errors, []);
});
