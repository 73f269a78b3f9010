// Models in the pool's workers (pool.createModel, src/js/pool/model.mjs over the ops of src/js/pool/worker.mjs):
// trained there, a model has the bits of the same model trained on one thread (losses, parameters, logits, gradients,
// attention weights); each model stays in the worker that created it, one per worker while there are free ones; its
// errors are so.createModel's and the model's, class and message; dispose, a killed worker and close() end it clearly;
// docs/pool.md's example runs as written.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { lib, loadSeqorder, loadSeqorderPool } from './helpers/load.mjs';

const { workersOf } = await import(pathToFileURL(path.join(lib, 'pool', 'index.mjs')).href);

const so = await loadSeqorder();
const WORKERS = 3;
let pool;
before(async () => { pool = await loadSeqorderPool({ workers: WORKERS }); });
after(() => pool?.close());

const bytes = (t) => Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength);
const DISPOSED = 'seqorder: this model was disposed; create a new one with createModel()';

/** Asserts two { name: tensor } (or one tensor each) hold the same names, shapes, dtypes and bytes. */
function assertSameTensors(got, want, label) {
  const named = (r) => ('data' in r ? { tensor: r } : r);
  const [g, w] = [named(got), named(want)];
  assert.deepEqual(Object.keys(g), Object.keys(w), label);
  for (const name of Object.keys(w)) {
    assert.deepEqual([g[name].shape, g[name].dtype, g[name].data.constructor], [w[name].shape, w[name].dtype, w[name].data.constructor], `${label}: ${name}`);
    assert.ok(bytes(g[name]).equals(bytes(w[name])), `${label}: ${name} differs from one thread's`);
  }
}

/** The 'each' readout's targets for order-task batches: the sentence's target at its last position, else −1. */
function targetsFor(config, { ids, targets }) {
  if (config.readout !== 'each') return targets;
  const [B, T] = ids.shape;
  return { data: Int32Array.from({ length: B * T }, (_, i) => (i % T === T - 1 ? targets.data[Math.floor(i / T)] : -1)), shape: [B, T] };
}

/** Asserts the promise rejects with exactly the error `run()` throws on this thread (class and message). */
async function assertSameError(promise, run, label) {
  let expected;
  try {
    run();
  } catch (error) {
    expected = error;
  }
  assert.ok(expected, `${label}: the call on this thread did not throw`);
  await assert.rejects(promise, (error) => {
    assert.equal(error.constructor, expected.constructor, `${label}: ${error.message}`);
    assert.equal(error.message, expected.message, label);
    return true;
  });
}

describe('the bits of one thread', () => {
  const CONFIGS = [
    { vocab: 16, width: 32, heads: 2, classes: 2, seed: 1 },
    { vocab: 16, width: 16, heads: 4, layers: 2, positions: 'learned', maxLength: 9, causal: true, readout: 'each', classes: 2, seed: 2 },
    { vocab: 16, width: 16, heads: 2, positions: 'rotary', classes: 2, dtype: 'float64', seed: 3 },
    { vocab: 16, width: 8, positions: 'none', classes: 3, seed: 4 },
    { vocab: 16, width: 16, heads: 2, layers: 2, positions: 'alibi', causal: true, readout: 'each', classes: 2, seed: 5 },
    { vocab: 16, width: 16, heads: 2, layers: 2, positions: 'relative', buckets: 8, maxDistance: 6, classes: 2, seed: 6 },
    { vocab: 16, width: 16, heads: 2, positions: 'rotary', rotaryBase: 500, rotaryPairs: 2, classes: 2, seed: 7 },
  ];
  for (const config of CONFIGS) {
    test(`train, step and every method: ${JSON.stringify(config)}`, async () => {
      const local = so.createModel(config);
      const remote = await pool.createModel(config);
      try {
        assert.deepEqual(remote.config, local.config);
        assert.ok(Object.isFrozen(remote.config));
        const batches = Array.from({ length: 7 }, (_, k) => {
          const task = so.orderTask({ count: 8, length: config.maxLength ?? 5 + (k % 4), seed: 100 + k });
          return { ids: task.ids, targets: targetsFor(config, task) };
        });
        const wanted = batches.slice(0, 6).map(({ ids, targets }) => local.step(ids, targets, { lr: 3e-3 }));
        const losses = await remote.train(batches.slice(0, 6), { lr: 3e-3 });
        assert.ok(losses instanceof Float64Array);
        assert.deepEqual([...losses], wanted, 'the losses of train()');
        const last = batches[6];
        assert.equal(await remote.step(last.ids, last.targets, { lr: 3e-3 }), local.step(last.ids, last.targets, { lr: 3e-3 }));
        assertSameTensors(await remote.parameters(), local.parameters(), 'parameters');
        assertSameTensors(await remote.forward(last.ids), local.forward(last.ids), 'forward');
        assert.equal(await remote.loss(last.ids, last.targets), local.loss(last.ids, last.targets));
        const [g, w] = [await remote.gradients(last.ids, last.targets), local.gradients(last.ids, last.targets)];
        assert.equal(g.loss, w.loss);
        assertSameTensors(g.grads, w.grads, 'gradients');
        const one = { data: last.ids.data.subarray(0, last.ids.shape[1]), shape: [1, last.ids.shape[1]] };
        assertSameTensors(await remote.attentionWeights(one), local.attentionWeights(one), 'attention weights');
        // setParameters: the local model's parameters, sent over, give its predictions
        const fresh = await pool.createModel({ ...config, seed: 99 });
        await fresh.setParameters(local.parameters());
        assertSameTensors(await fresh.forward(last.ids), local.forward(last.ids), 'after setParameters');
        await fresh.dispose();
      } finally {
        local.dispose();
        await remote.dispose();
      }
    });
  }
});

test('positionIds: every method at positions given has the bits of one thread, and the same errors', async () => {
  const config = { vocab: 16, width: 24, heads: 3, layers: 2, positions: 'relative', buckets: 8, maxDistance: 6, classes: 2, seed: 8 };
  const local = so.createModel(config);
  const remote = await pool.createModel(config);
  try {
    // row b of batch k at 3 t + (b + k) mod 3: apart, shifted, increasing
    const spread = (B, T, k) => ({ data: Int32Array.from({ length: B * T }, (_, i) => 3 * (i % T) + ((Math.floor(i / T) + k) % 3)), shape: [B, T] });
    const batches = Array.from({ length: 4 }, (_, k) => {
      const { ids, targets } = so.orderTask({ count: 8, length: 6, seed: 200 + k });
      return { ids, targets, positionIds: spread(8, 6, k) };
    });
    const wanted = batches.slice(0, 3).map(({ ids, targets, positionIds }) => local.step(ids, targets, { lr: 3e-3, positionIds }));
    assert.deepEqual([...await remote.train(batches.slice(0, 3), { lr: 3e-3 })], wanted, 'the losses of train()');
    const { ids, targets, positionIds } = batches[3];
    assert.equal(await remote.step(ids, targets, { lr: 3e-3, positionIds }), local.step(ids, targets, { lr: 3e-3, positionIds }));
    assertSameTensors(await remote.parameters(), local.parameters(), 'parameters');
    assertSameTensors(await remote.forward(ids, { positionIds }), local.forward(ids, { positionIds }), 'forward');
    assert.equal(await remote.loss(ids, targets, { positionIds }), local.loss(ids, targets, { positionIds }));
    const [g, w] = [await remote.gradients(ids, targets, { positionIds }), local.gradients(ids, targets, { positionIds })];
    assertSameTensors(g.grads, w.grads, 'gradients');
    const one = { data: ids.data.subarray(0, 6), shape: [1, 6] }, six = { data: Int32Array.of(0, 4, 5, 9, 20, 21), shape: [1, 6] };
    assertSameTensors(await remote.attentionWeights(one, { positionIds: six }), local.attentionWeights(one, { positionIds: six }), 'attention weights');
    const backwards = { data: Int32Array.of(0, 4, 3, 9, 20, 21), shape: [1, 6] };
    await assertSameError(remote.forward(one, { positionIds: backwards }), () => local.forward(one, { positionIds: backwards }), 'a row not increasing');
    await assertSameError(remote.forward(one, { positionIds: one.data }), () => local.forward(one, { positionIds: one.data }), 'not a tensor');
  } finally {
    local.dispose();
    await remote.dispose();
  }
});

test('ropeScaling: every method stretched has the bits of one thread, and the same errors', async () => {
  const config = { vocab: 16, width: 24, heads: 2, layers: 2, positions: 'rotary', causal: true, readout: 'each', classes: 16, seed: 9 };
  const local = so.createModel(config);
  const remote = await pool.createModel(config);
  try {
    const batches = Array.from({ length: 3 }, (_, k) => so.lookbackTask({ count: 8, length: 10, seed: 300 + k }));
    const yarn = { method: 'yarn', factor: 4, originalLength: 6 };
    const wanted = batches.map(({ ids, targets }) => local.step(ids, targets, { lr: 3e-3, ropeScaling: yarn }));
    assert.deepEqual([...await remote.train(batches, { lr: 3e-3, ropeScaling: yarn })], wanted, 'the losses of train()');
    assertSameTensors(await remote.parameters(), local.parameters(), 'parameters');
    const { ids, targets } = batches[0];
    for (const ropeScaling of [{ method: 'linear', factor: 2 }, { method: 'ntk', factor: 3 }, yarn]) {
      assertSameTensors(await remote.forward(ids, { ropeScaling }), local.forward(ids, { ropeScaling }), `forward, ${ropeScaling.method}`);
      assert.equal(await remote.loss(ids, targets, { ropeScaling }), local.loss(ids, targets, { ropeScaling }));
      assertSameTensors((await remote.gradients(ids, targets, { ropeScaling })).grads, local.gradients(ids, targets, { ropeScaling }).grads, 'gradients');
      const one = { data: ids.data.subarray(0, 10), shape: [1, 10] };
      assertSameTensors(await remote.attentionWeights(one, { ropeScaling }), local.attentionWeights(one, { ropeScaling }), 'attention weights');
    }
    await assertSameError(remote.forward(ids, { ropeScaling: { method: 'yarn', factor: 2 } }), () => local.forward(ids, { ropeScaling: { method: 'yarn', factor: 2 } }), 'yarn without originalLength');
    await assertSameError(remote.forward(ids, { ropeScaling: { method: 'dynamic', factor: 2 } }), () => local.forward(ids, { ropeScaling: { method: 'dynamic', factor: 2 } }), 'an unknown method');
    await assertSameError(remote.train(batches, { ropeScaling: { method: 'linear', factor: '2' } }), () => local.train(batches, { ropeScaling: { method: 'linear', factor: '2' } }), 'factor a string');
  } finally {
    local.dispose();
    await remote.dispose();
  }
});

test('positionRange: every method draws what one thread draws (both streams), save and load, and the same errors', async () => {
  const config = { vocab: 16, width: 16, heads: 2, positions: 'alibi', causal: true, readout: 'each', classes: 16, seed: 10 };
  const local = so.createModel(config);
  const remote = await pool.createModel(config);
  try {
    const batches = Array.from({ length: 3 }, (_, k) => so.lookbackTask({ count: 8, length: 10, seed: 400 + k }));
    const wanted = batches.slice(0, 2).map(({ ids, targets }) => local.step(ids, targets, { lr: 3e-3, positionRange: 64 }));
    assert.deepEqual([...await remote.train(batches.slice(0, 2), { lr: 3e-3, positionRange: 64 })], wanted, 'the losses of train()');
    const { ids, targets } = batches[2];
    assert.equal(await remote.step(ids, targets, { lr: 3e-3, positionRange: 64 }), local.step(ids, targets, { lr: 3e-3, positionRange: 64 }));
    assertSameTensors(await remote.forward(ids, { positionRange: 64 }), local.forward(ids, { positionRange: 64 }), 'forward');
    assert.equal(await remote.loss(ids, targets, { positionRange: 64 }), local.loss(ids, targets, { positionRange: 64 }));
    assertSameTensors((await remote.gradients(ids, targets, { positionRange: 64 })).grads, local.gradients(ids, targets, { positionRange: 64 }).grads, 'gradients');
    const one = { data: ids.data.subarray(0, 10), shape: [1, 10] };
    assertSameTensors(await remote.attentionWeights(one, { positionRange: 64 }), local.attentionWeights(one, { positionRange: 64 }), 'attention weights');
    assert.deepEqual(await remote.save(), local.save(), 'the parameters, Adam\'s state and both streams');
    await assertSameError(remote.step(ids, targets, { positionRange: 9 }), () => local.step(ids, targets, { positionRange: 9 }), 'L below T');
    await assertSameError(remote.train(batches, { positionRange: '64' }), () => local.train(batches, { positionRange: '64' }), 'L a string');
    assert.deepEqual(await remote.save(), local.save(), 'unchanged by the failed calls');
  } finally {
    local.dispose();
    await remote.dispose();
  }
});

test('each model stays in one worker; new models go to the worker holding the fewest', async () => {
  const config = { vocab: 16, width: 8, classes: 2 };
  const models = [];
  for (let n = 0; n < WORKERS; n++) models.push(await pool.createModel({ ...config, seed: n }));
  assert.deepEqual(models.map((m) => m.worker), [0, 1, 2]);
  models.push(await pool.createModel(config));
  assert.equal(models[3].worker, 0, 'a tie goes to the first');
  await models[1].dispose();
  const next = await pool.createModel(config);
  assert.equal(next.worker, 1, 'the worker a disposed model left');
  // concurrent creations spread as well
  const more = await Promise.all([0, 1].map(() => pool.createModel(config)));
  assert.deepEqual(more.map((m) => m.worker).sort(), [1, 2]);
  await Promise.all([...models, next, ...more].map((m) => m.dispose()));
});

describe('errors: the class and message of one thread', () => {
  test('createModel: wrong kinds (read here) and wrong values (read in the worker)', async () => {
    class Options { constructor() { this.vocab = 16; this.width = 8; this.classes = 2; } }
    const cases = [
      undefined, null, 7, [], new Map(), new Options(), { vocab: 16, width: 8, classes: 2, colour: 'red' },
      { vocab: '16', width: 8, classes: 2 }, { vocab: 16, width: 8, classes: 2, causal: 1 }, { vocab: 16, width: 8 },
      { vocab: 16, width: 7, classes: 2 }, { vocab: 16, width: 8, heads: 3, classes: 2 }, { vocab: 0, width: 8, classes: 2 },
      { vocab: 16, width: 8, classes: 2, positions: 'learned' }, { vocab: 16, width: 8, classes: 2, positions: 'absolute' },
      { vocab: 16, width: 8, classes: 2, layers: 5 }, { vocab: 16, width: 8, classes: 2, dtype: 'float16' },
      { vocab: 16, width: 8, classes: 2, seed: -1 }, { vocab: 16, width: 8, classes: 2, readout: 'max' },
      // an embedScale that float32 cannot hold (its model would give NaN logits, or ignore its words)
      { vocab: 16, width: 8, classes: 2, embedScale: 3.5e38 }, { vocab: 16, width: 8, classes: 2, embedScale: 1e-46 },
    ];
    for (const options of cases) await assertSameError(pool.createModel(options), () => so.createModel(options), JSON.stringify(options) ?? String(options));
  });

  test('the methods: wrong ids, targets, options and parameters; T past the learned table', async () => {
    const config = { vocab: 16, width: 8, heads: 2, positions: 'learned', maxLength: 6, classes: 2, seed: 5 };
    const local = so.createModel(config);
    const remote = await pool.createModel(config);
    const task = so.orderTask({ count: 4, length: 6, seed: 1 });
    const long = so.orderTask({ count: 2, length: 7, seed: 1 });
    const bad = { data: Int32Array.of(0, 1, 16), shape: [1, 3] };
    const calls = [
      ['forward past maxLength', (m) => m.forward(long.ids)],
      ['forward, an id past the vocabulary', (m) => m.forward(bad)],
      ['forward, float ids', (m) => m.forward({ data: new Float32Array(6), shape: [1, 6] })],
      ['loss, targets of another shape', (m) => m.loss(task.ids, { data: Int32Array.of(1, 0), shape: [2] })],
      ['loss, a target past the classes', (m) => m.loss(task.ids, { data: Int32Array.of(1, 0, 2, 1), shape: [4] })],
      ['gradients without targets', (m) => m.gradients(task.ids)],
      ['step, lr a string', (m) => m.step(task.ids, task.targets, { lr: '0.1' })],
      ['step, a negative lr', (m) => m.step(task.ids, task.targets, { lr: -1 })],
      ['step, an unknown option', (m) => m.step(task.ids, task.targets, { rate: 0.1 })],
      ['attentionWeights of two sentences', (m) => m.attentionWeights(task.ids)],
      ['setParameters, an unknown name', (m) => m.setParameters({ 'layers.0.attention.wz': { data: new Float32Array(64), shape: [8, 8] } })],
      ['setParameters, a wrong shape', (m) => m.setParameters({ embed: { data: new Float32Array(8), shape: [1, 8] } })],
      ['setParameters, float64 for a float32 model', (m) => m.setParameters({ embed: { data: new Float64Array(128), shape: [16, 8] } })],
    ];
    for (const [label, call] of calls) await assertSameError(call(remote), () => call(local), label);
    // a failed call leaves the model as it was: the same parameters as the local one, which failed the same way
    assertSameTensors(await remote.parameters(), local.parameters(), 'after the errors');
    local.dispose();
    await remote.dispose();
  });

  test('train: its own argument errors; a failing batch names its index, and no step is taken', async () => {
    const config = { vocab: 16, width: 8, classes: 2, seed: 6 };
    const remote = await pool.createModel(config);
    const local = so.createModel(config);
    const task = so.orderTask({ count: 4, length: 5, seed: 2 });
    await assert.rejects(remote.train(task), { name: 'TypeError', message: 'batches must be an array of { ids, targets }, got object' });
    await assert.rejects(remote.train([task, 3]), { name: 'TypeError', message: 'batches[1] must be an object, got number 3' });
    await assert.rejects(remote.train([{ ...task, weights: 1 }]), { name: 'TypeError', message: /^batches\[0\]: unknown option 'weights'/ });
    await assert.rejects(remote.train([task], { lr: 'fast' }), { name: 'TypeError', message: 'lr must be a number, got the string "fast"' });
    const broken = { ids: task.ids, targets: { data: Int32Array.of(0, 1), shape: [2] } };
    let expected;
    try {
      local.step(broken.ids, broken.targets);
    } catch (error) {
      expected = error;
    }
    await assert.rejects(remote.train([task, task, broken, task]), (error) => error.constructor === expected.constructor &&
      error.message === `batches[2]: ${expected.message}`);
    assertSameTensors(await remote.parameters(), local.parameters(), 'no step taken');
    assert.deepEqual([...await remote.train([])], [], 'no batches, no steps');
    local.dispose();
    await remote.dispose();
  });
});

describe('the end of a model', () => {
  test('dispose: later calls reject as a disposed model\'s do; again does nothing; calls made before it are answered', async () => {
    const model = await pool.createModel({ vocab: 16, width: 8, classes: 2 });
    const task = so.orderTask({ count: 2, length: 4 });
    const before = model.forward(task.ids);
    assert.equal(model.disposed, false);
    const disposing = model.dispose();
    assert.equal(model.disposed, true);
    assert.deepEqual((await before).shape, [2, 2]);
    await disposing;
    for (const call of [() => model.forward(task.ids), () => model.parameters(), () => model.train([task]), () => model.step(task.ids, task.targets)])
      await assert.rejects(call(), (error) => error.constructor === Error && error.message === DISPOSED);
    await model.dispose();
  });

  test('a killed worker: the model\'s pending call rejects, later calls say the model is gone; the pool goes on', async () => {
    const models = await Promise.all(Array.from({ length: WORKERS }, () => pool.createModel({ vocab: 16, width: 8, classes: 2 })));
    const victim = models.find((m) => m.worker === 2);
    const batches = Array.from({ length: 50 }, (_, k) => so.orderTask({ count: 32, length: 16, seed: k }));
    const pending = victim.train(batches);
    workersOf(pool).kill(2);
    await assert.rejects(pending, { message: /^seqorder pool: worker 2 stopped: it was killed\./ });
    await assert.rejects(victim.forward(batches[0].ids),
      { message: 'seqorder pool: the model is not in its worker any more: the worker that held it stopped and was replaced; create it again' });
    const again = await pool.createModel({ vocab: 16, width: 8, classes: 2 });
    assert.deepEqual((await again.forward(batches[0].ids)).shape, [32, 2]);
    await Promise.all([...models, again].map((m) => m.dispose()));
  });

  test('close(): a model\'s calls reject, and so does createModel', async () => {
    const own = await loadSeqorderPool({ workers: 1 });
    const model = await own.createModel({ vocab: 16, width: 8, classes: 2 });
    const task = so.orderTask({ count: 2, length: 4 });
    await own.close();
    await assert.rejects(model.forward(task.ids), { message: /^seqorder pool: the pool is closed/ });
    await assert.rejects(own.createModel({ vocab: 16, width: 8, classes: 2 }), { message: /^seqorder pool: the pool is closed/ });
    await model.dispose();  // nothing left to free: it resolves
  });
});

test("docs/pool.md's example of a model in the pool runs as written and prints what it says", () => {
  const doc = readFileSync(new URL('../../docs/pool.md', import.meta.url), 'utf8');
  const example = [...doc.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]).find((b) => b.includes('pool.createModel('));
  const source = example.replace(/^ {2}/gm, '')
    .replace("from 'seqorder'", `from ${JSON.stringify(pathToFileURL(path.join(lib, 'seqorder.mjs')).href)}`)
    .replace("from 'seqorder/pool'", `from ${JSON.stringify(pathToFileURL(path.join(lib, 'pool', 'index.mjs')).href)}`);
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', source], { encoding: 'utf8', timeout: 30_000 });
  assert.equal(child.status, 0, child.stderr);
  assert.equal(child.stdout.trim(), '0 40 true');
});
