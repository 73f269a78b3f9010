// The lab's controller (web/js/lab/controller.mjs, as built in the site) in node, with a plain object for the page:
// one run at a time however fast Train is pressed (the guard is set before the first await), a run created for a
// press that Reset or another run has overtaken is disposed, Reset never waits on the pool (a model whose worker
// never answers cannot hold it) and Pause, Resume and Step after it do nothing; a worker's failure ends the run
// visibly; the status names the step a pause lands on, and the time left comes from measured progress only; the
// warm-up trains each kind a chunk, one model at a time, frees them, and stops for a run, whose bits it leaves alone.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { loadSeqorder, loadSeqorderPool, siteModule } from './helpers/load.mjs';

const { createLab, duration, timeLeft } = await siteModule('js/lab/controller.mjs');
const { CHUNK } = await siteModule('js/lab/run.mjs');
const so = await loadSeqorder();
const real = await loadSeqorderPool({ workers: 2 });
after(() => real.close());

/** A pool that counts what it is asked (and may hold a method's answers back: `hold(method)` → true). */
function countingPool(base, { hold = () => false, fail = null } = {}) {
  const counts = { created: 0, disposed: 0 };
  const seen = { trained: [], mostAlive: 0 };  // the batches of each train call; the most models alive at once
  return {
    counts,
    seen,
    async createModel(options) {
      counts.created += 1;
      seen.mostAlive = Math.max(seen.mostAlive, counts.created - counts.disposed);
      const handle = await base.createModel(options);
      // the handle's methods, each counted (the handle itself is frozen)
      return Object.fromEntries(Object.keys(handle).map((name) => [name, typeof handle[name] !== 'function' ? handle[name] : (...args) => {
        if (name === 'dispose') counts.disposed += 1;
        if (name === 'train') seen.trained.push(args[0].length);
        if (hold(name)) return new Promise(() => {});
        if (fail && name === 'train') return Promise.reject(new Error(fail));
        return handle[name](...args);
      }]));
    },
  };
}

/** The lab over `pool` with the page's side written down: every phase and status, in order. */
function labOver(pool, values = { steps: 60, models: ['sinusoidal', 'causal'] }, { refused = [] } = {}) {
  const seen = { phases: [], statuses: [], failures: [], measured: 0 };
  const lab = createLab({
    so, pool: async () => pool, workers: 2, cores: 2, values: () => values, refused: () => refused,
    ui: {
      phase: (p) => seen.phases.push(p),
      status: (text) => seen.statuses.push(text),
      started() {},
      progress: (then) => then(),
      async measured() { seen.measured += 1; },
      cleared() {},
      failed: (error) => seen.failures.push(error.message),
    },
  });
  return { lab, seen };
}

test('two presses of Train in one moment start one run; its curves have one point per chunk', async () => {
  const pool = countingPool(real);
  const { lab, seen } = labOver(pool);
  await Promise.all([lab.train(), lab.train()]);
  assert.equal(pool.counts.created, 2, 'one model per kind, once');
  assert.equal(seen.measured, 1);
  assert.deepEqual(lab.lab.record.models.map((m) => m.curve.step.length), [60 / CHUNK, 60 / CHUNK]);
  // each model's options as the API resolved them (the downloads carry them)
  assert.deepEqual(lab.lab.record.models.map((m) => m.options), lab.lab.run.models.map((m) => m.handle.config));
  assert.deepEqual(lab.lab.record.models.map((m) => [m.options.positions, m.options.causal]), [['sinusoidal', false], ['none', true]]);
  // again after it finished: the old run's models freed, one new run
  await Promise.all([lab.train(), lab.train(), lab.step()]);
  assert.deepEqual([pool.counts.created, pool.counts.disposed], [4, 2]);
  assert.equal(lab.lab.phase, 'done');
});

test('Reset while the run is being created: the run that arrives is disposed; Pause, Resume and Step after Reset do not throw', async () => {
  const pool = countingPool(real);
  const { lab } = labOver(pool);
  const going = lab.train();
  lab.reset();
  assert.equal(lab.lab.phase, 'idle');
  await going;
  assert.equal(lab.lab.run, null);
  assert.deepEqual(pool.counts, { created: 2, disposed: 2 });
  lab.pause();
  await lab.resume();
  assert.equal(lab.lab.phase, 'idle');
  // Step from idle starts a run of its own, one chunk
  await lab.step();
  assert.equal(lab.lab.phase, 'paused');
  assert.equal(lab.lab.run.step, CHUNK);
  lab.reset();
  lab.pause();
  await lab.resume();
  assert.equal(lab.lab.phase, 'idle');
});

test('Reset never waits on the pool: a run whose worker stopped answering is dropped at once', async () => {
  let stuck = false;
  const pool = countingPool(real, { hold: (method) => stuck && ['train', 'forward', 'dispose'].includes(method) });
  const { lab } = labOver(pool, { steps: 400, models: ['sinusoidal'] });
  const going = lab.train();
  while (!lab.lab.run || lab.lab.run.step < CHUNK) await new Promise((resolve) => setTimeout(resolve, 10));
  stuck = true;  // from now on the worker answers nothing: neither the run's messages nor dispose
  lab.reset();
  assert.equal(lab.lab.phase, 'idle');
  assert.equal(lab.lab.record, null);
  lab.pause();
  assert.equal(lab.lab.phase, 'idle');
  void going;  // never settles: its worker is gone
});

test('a worker\'s failure ends the run visibly, with its message', async () => {
  const pool = countingPool(real, { fail: 'seqorder/pool: worker 1 stopped' });
  const { lab, seen } = labOver(pool);
  await lab.train();
  assert.equal(lab.lab.phase, 'error');
  assert.deepEqual(seen.failures, ['seqorder/pool: worker 1 stopped']);
  assert.equal(seen.statuses.at(-1), 'The run failed: seqorder/pool: worker 1 stopped');
});

test('Pause says the step it lands on, and lands there', async () => {
  const { lab, seen } = labOver(countingPool(real), { steps: 2000, models: ['sinusoidal', 'rotary', 'causal'] });
  const going = lab.train();
  while (!lab.lab.run || lab.lab.run.step < 2 * CHUNK) await new Promise((resolve) => setTimeout(resolve, 10));
  lab.pause();
  const [, at] = seen.statuses.at(-1).match(/^Pausing at step (\d+): every model finishes the batches it was sent…$/);
  await going;
  assert.equal(lab.lab.phase, 'paused');
  assert.ok(lab.lab.run.taken.every((t) => t === Number(at)), `${lab.lab.run.taken} against ${at}`);
  assert.match(seen.statuses.at(-1), new RegExp(`^Paused at step ${at} of 2,000: every model stands there`));
  lab.reset();
});

test('the warm-up: each kind one chunk, one model at a time, each freed; none for a run that refuses or waits for a press', async () => {
  const pool = countingPool(real);
  const warmed = await labOver(pool, { steps: 60, models: ['sinusoidal', 'rotary', 'causal'] }).lab.warmUp();
  assert.equal(warmed.models, 3);
  assert.ok(warmed.ms > 0);
  assert.deepEqual(pool.counts, { created: 3, disposed: 3 });
  assert.deepEqual(pool.seen, { trained: [CHUNK, CHUNK, CHUNK], mostAlive: 1 });

  const refusing = countingPool(real);
  assert.deepEqual(await labOver(refusing, undefined, { refused: [{ message: 'no' }] }).lab.warmUp(), { models: 0, ms: 0 });
  const heavy = countingPool(real);
  const { lab } = labOver(heavy, { steps: 1_000_000, models: ['sinusoidal'] });
  assert.ok(lab.cost().heavy);
  assert.deepEqual(await lab.warmUp(), { models: 0, ms: 0 });
  assert.equal(refusing.counts.created + heavy.counts.created, 0);
});

test('a run started during the warm-up stops it, and ends with the bits of a run without one', async () => {
  const values = { steps: 40, models: ['none', 'sinusoidal', 'rotary', 'alibi', 'causal'] };
  const alone = labOver(countingPool(real), values).lab;
  await alone.train();
  const pool = countingPool(real);
  const { lab } = labOver(pool, values);
  const warming = lab.warmUp();
  while (pool.counts.created === 0) await new Promise((resolve) => setImmediate(resolve));
  await lab.train();  // while the warm-up's first model trains
  assert.equal((await warming).models, 1, 'the warm-up stopped after the model it had started');
  assert.deepEqual([pool.counts.created, pool.counts.disposed], [6, 1]);
  assert.deepEqual(lab.lab.record.models.map((m) => m.hash), alone.lab.record.models.map((m) => m.hash));
  assert.ok(alone.lab.record.models.every((m) => /^[0-9a-f]{64}$/.test(m.hash)));
});

test('the time left: none before two measurements, then from the measured pace', () => {
  assert.equal(timeLeft([], 100), null);
  assert.equal(timeLeft([{ at: 0, done: 10 }], 100), null);
  assert.equal(timeLeft([{ at: 1000, done: 10 }, { at: 2000, done: 20 }], 100), 8000);
  assert.equal(timeLeft([{ at: 1000, done: 10 }, { at: 1000, done: 10 }], 100), null);
  assert.deepEqual([4.2, 89, 400, 3 * 3600 + 600].map(duration), ['about 4 s', 'about 89 s', 'about 7 min', 'about 3 h 10 min']);
});
