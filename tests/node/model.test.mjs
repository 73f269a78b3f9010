// The trainable model through the JS API, end to end: createModel's configuration, parameters' names and shapes,
// setParameters, forward / loss / gradients / step / attentionWeights, dispose; gradients against central finite
// differences (float64); the numpy fixture (tests/fixtures/make_model_fixtures.py) reproduced; properties of attention
// without positions and with a causal mask; the order task, generated as the fixture's port draws it and learned.
// (Wrong arguments: model-errors.test.mjs; memory: memory.test.mjs; bits across engines: determinism and
// native-vs-wasm.)
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { loadSeqorder } from './helpers/load.mjs';
import { readFixtures, countCases } from '../fixtures/read.mjs';
import { accuracy, ids as idsOf, modelFromFixture } from './helpers/model-helpers.mjs';

const so = await loadSeqorder();

const SMALL = { vocab: 7, width: 8, heads: 2, layers: 2, positions: 'learned', maxLength: 6, classes: 3 };

/** The documented parameter names of a config (src/core/model/parameters.hpp), in order. */
function documentedNames({ layers = 1, positions }) {
  const names = ['embed', ...(positions === 'learned' ? ['positions'] : [])];
  for (let i = 0; i < layers; i++) {
    names.push(...['norm1.gain', 'norm1.bias', 'attention.wq', 'attention.wk', 'attention.wv', 'attention.wo', 'norm2.gain',
      'norm2.bias', 'mlp.w1', 'mlp.b1', 'mlp.w2', 'mlp.b2'].map((n) => `layers.${i}.${n}`));
  }
  return [...names, 'norm.gain', 'norm.bias', 'readout.weight', 'readout.bias'];
}

/** Values sin(seed + 0.7 i) / 2 of each parameter's shape and the model's dtype. */
function otherValues(model, seed) {
  const Class = model.config.dtype === 'float32' ? Float32Array : Float64Array;
  let n = 0;
  return Object.fromEntries(Object.entries(model.parameters()).map(([name, t]) => [name,
    { data: Class.from(t.data, () => Math.sin(seed + 0.7 * n++) / 2), shape: t.shape, dtype: t.dtype }]));
}

describe('createModel and its configuration', () => {
  test('defaults are filled in, the configuration is frozen, and maxLength appears only with learned positions', () => {
    const model = so.createModel({ vocab: 16, width: 32, classes: 2 });
    assert.deepEqual(model.config, {
      vocab: 16, width: 32, heads: 1, layers: 1, positions: 'sinusoidal', causal: false, readout: 'mean', classes: 2,
      dtype: 'float32', seed: 0, embedScale: 1,
    });
    assert.ok(Object.isFrozen(model.config) && Object.isFrozen(model));
    const learned = so.createModel({ ...SMALL, causal: true, readout: 'each', dtype: 'float64', seed: 2 ** 53 });
    assert.deepEqual(learned.config, { ...SMALL, causal: true, readout: 'each', dtype: 'float64', seed: 2 ** 53, embedScale: 1 });
    model.dispose();
    learned.dispose();
  });

  test('embedScale: a number or \'sqrtWidth\' (√width), kept in the configuration; the default 1 changes nothing', () => {
    const ids = idsOf([[1, 4, 2, 9, 3], [0, 5, 5, 1, 7]]);
    for (const dtype of ['float32', 'float64']) {
      const options = { vocab: 10, width: 16, heads: 2, classes: 3, dtype, seed: 4 };
      const plain = so.createModel(options);
      const one = so.createModel({ ...options, embedScale: 1 });
      const named = so.createModel({ ...options, embedScale: 'sqrtWidth' });
      const numbered = so.createModel({ ...options, embedScale: Math.sqrt(16) });
      assert.equal(named.config.embedScale, 'sqrtWidth');
      assert.equal(numbered.config.embedScale, 4);
      assert.deepEqual(so.createModel(named.config).config, named.config, 'createModel(config) keeps the name');
      assert.deepEqual(one.forward(ids).data, plain.forward(ids).data);
      assert.deepEqual(named.forward(ids).data, numbered.forward(ids).data, "'sqrtWidth' is √width");
      assert.notDeepEqual(named.forward(ids).data, plain.forward(ids).data);
      for (const m of [plain, one, named, numbered]) m.dispose();
    }
    const bad = [
      [0, RangeError, /^embedScale must be a positive finite number or 'sqrtWidth', got 0/],
      [-2, RangeError, /^embedScale must be a positive finite number or 'sqrtWidth', got -2/],
      [NaN, RangeError, /^embedScale must be a positive finite number or 'sqrtWidth', got NaN/],
      [Infinity, RangeError, /got Infinity/],
      ['sqrtD', RangeError, /^embedScale must be a positive finite number or 'sqrtWidth', got 'sqrtD'/],
      [true, TypeError, /^embedScale must be a number or 'sqrtWidth', got boolean true/],
      [null, TypeError, /^embedScale must be a number or 'sqrtWidth', got null/],
      [[2], TypeError, /^embedScale must be a number or 'sqrtWidth', got an array/],
    ];
    for (const [value, Class, message] of bad)
      assert.throws(() => so.createModel({ vocab: 4, width: 4, classes: 2, embedScale: value }), { name: Class.name, message }, String(value));
    // the rule of lr: finite and > 0 once in the model's dtype (float32 rounds 3.5e38 to Infinity, 1e-46 to 0)
    const float32 = [
      [3.5e38, /^embedScale must be a positive number that float32 \(the model's dtype\) holds, from 1\.401298464324817e-45 to 3\.4028234663852886e\+38, got 3\.5e\+38, which float32 rounds to Infinity$/],
      [1e-46, /^embedScale must be a positive number that float32 .* got 1e-46, which float32 rounds to 0$/],
    ];
    for (const [value, message] of float32) {
      assert.throws(() => so.createModel({ vocab: 4, width: 4, classes: 2, embedScale: value }), { name: 'RangeError', message }, String(value));
      const wide = so.createModel({ vocab: 4, width: 4, classes: 2, embedScale: value, dtype: 'float64' });
      assert.equal(wide.config.embedScale, value, 'float64 holds it');
      wide.dispose();
    }
    // the ends float32 holds are taken, and the model's logits stay finite at the small one
    const tiny = so.createModel({ vocab: 4, width: 4, classes: 2, embedScale: 2 ** -149 });
    assert.ok(tiny.forward({ data: Int32Array.of(0, 1, 2), shape: [1, 3] }).data.every(Number.isFinite));
    tiny.dispose();
    so.createModel({ vocab: 4, width: 4, classes: 2, embedScale: 3.4028234663852886e38 }).dispose();
  });

  test('parameters: the documented names, in order, with their shapes and the model\'s dtype', () => {
    for (const config of [SMALL, { vocab: 16, width: 32, heads: 2, classes: 2 }, { ...SMALL, layers: 4, positions: 'rotary', maxLength: undefined }]) {
      const model = so.createModel({ ...config, dtype: 'float64' });
      const params = model.parameters();
      assert.deepEqual(Object.keys(params), documentedNames(config));
      const { vocab: V, width: D, classes: C, maxLength: P } = model.config;
      const shapes = { embed: [V, D], positions: [P, D], 'norm.gain': [D], 'norm.bias': [D], 'readout.weight': [D, C], 'readout.bias': [C] };
      for (const [name, t] of Object.entries(params)) {
        const layer = name.match(/^layers\.\d+\.(.*)$/)?.[1];
        const want = layer ? { 'attention.wq': [D, D], 'attention.wk': [D, D], 'attention.wv': [D, D], 'attention.wo': [D, D],
          'mlp.w1': [D, 4 * D], 'mlp.b1': [4 * D], 'mlp.w2': [4 * D, D] }[layer] ?? [D] : shapes[name];
        assert.deepEqual(t.shape, want, name);
        assert.equal(t.dtype, 'float64');
        assert.ok(t.data instanceof Float64Array && t.data.length === want.reduce((a, b) => a * b, 1), name);
      }
      // the initialization (init.hpp): gains 1, biases 0, weights drawn (std 0.02)
      assert.ok(params['norm.gain'].data.every((x) => x === 1) && params['layers.0.mlp.b1'].data.every((x) => x === 0));
      const w = params['layers.0.attention.wq'].data;
      const std = Math.sqrt(w.reduce((s, x) => s + x * x, 0) / w.length);
      assert.ok(std > 0.01 && std < 0.04, `wq's standard deviation ${std}`);
      model.dispose();
    }
  });

  test('the same seed gives the same parameters; another seed others', () => {
    const a = so.createModel({ ...SMALL, seed: 7 });
    const b = so.createModel({ ...SMALL, seed: 7 });
    const c = so.createModel({ ...SMALL, seed: 8 });
    assert.deepEqual(a.parameters(), b.parameters());
    assert.notDeepEqual(a.parameters().embed.data, c.parameters().embed.data);
    for (const m of [a, b, c]) m.dispose();
  });
});

describe('parameters and setParameters', () => {
  test('parameters() are copies, each on its own buffer; setParameters round-trips any subset exactly', () => {
    for (const dtype of ['float32', 'float64']) {
      const model = so.createModel({ ...SMALL, dtype });
      const before = model.parameters();
      before.embed.data[0] = 42;
      assert.notEqual(model.parameters().embed.data[0], 42, 'changing a copy changes nothing');
      for (const t of Object.values(before)) assert.equal(t.data.buffer.byteLength, t.data.byteLength, 'owns its buffer');

      const values = otherValues(model, 1);
      model.setParameters(values);
      assert.deepEqual(model.parameters(), values);
      const subset = otherValues(model, 2);
      model.setParameters({ 'layers.1.mlp.w2': subset['layers.1.mlp.w2'], positions: subset.positions });
      assert.deepEqual(model.parameters(), { ...values, 'layers.1.mlp.w2': subset['layers.1.mlp.w2'], positions: subset.positions });
      model.setParameters({});
      assert.equal(model.parameters()['readout.bias'].data[0], values['readout.bias'].data[0]);
      model.dispose();
    }
  });

  test('config and parameters carry a trained model: createModel(config) + setParameters gives the same bits', () => {
    const model = so.createModel({ vocab: 16, width: 16, heads: 2, positions: 'rotary', causal: true, readout: 'each', classes: 2, seed: 3 });
    const { ids, targets } = so.orderTask({ count: 8, length: 6, seed: 4 });
    const eachTargets = { data: Int32Array.from({ length: 48 }, (_, i) => targets.data[Math.floor(i / 6)]), shape: [8, 6] };
    for (let k = 0; k < 5; k++) model.step(ids, eachTargets, { lr: 1e-2 });
    const shipped = structuredClone({ config: model.config, parameters: model.parameters() });  // as postMessage copies them
    const copy = so.createModel(shipped.config);
    copy.setParameters(shipped.parameters);
    assert.deepEqual(copy.forward(ids).data, model.forward(ids).data);
    assert.deepEqual(copy.attentionWeights(idsOf([[1, 3, 2, 0]])).data, model.attentionWeights(idsOf([[1, 3, 2, 0]])).data);
    model.dispose();
    copy.dispose();
  });

  test('in a worker thread: a model trained there and shipped back (transferred buffers) predicts the same here', async () => {
    const worker = new Worker(new URL('./helpers/model-worker.mjs', import.meta.url));
    const message = await new Promise((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    await worker.terminate();
    const { config, parameters, logits, ids } = message;
    assert.ok(Object.values(parameters).every((t) => t.data.buffer.byteLength === t.data.byteLength));
    const model = so.createModel(config);
    model.setParameters(parameters);
    assert.deepEqual(model.forward(ids).data, logits.data, 'the same logits, bit for bit');
    model.dispose();
  });
});

describe('forward, loss, gradients, step, attentionWeights', () => {
  test('shapes: logits (B, C) for readout mean, (B, T, C) for each; weights (layers, heads, T, T)', () => {
    for (const readout of ['mean', 'each']) {
      const model = so.createModel({ ...SMALL, readout });
      const ids = idsOf([[0, 1, 2, 3, 4], [6, 5, 4, 3, 2], [1, 1, 1, 1, 1]]);
      const logits = model.forward(ids);
      assert.deepEqual(logits.shape, readout === 'mean' ? [3, 3] : [3, 5, 3]);
      assert.equal(logits.dtype, 'float32');
      assert.ok(logits.data instanceof Float32Array && logits.data.every(Number.isFinite));
      for (const one of [idsOf([[4, 0, 2]]), { data: Int32Array.of(4, 0, 2), shape: [3] }])
        assert.deepEqual(model.attentionWeights(one).shape, [2, 2, 3, 3]);
      model.dispose();
    }
  });

  test('loss, gradients().loss and step() agree; step lowers the loss; -1 targets are ignored', () => {
    const model = so.createModel({ vocab: 16, width: 16, heads: 2, classes: 2, dtype: 'float64', seed: 5 });
    const { ids, targets } = so.orderTask({ count: 16, length: 7, seed: 9 });
    const first = model.loss(ids, targets);
    assert.ok(first > 0.5 && first < 0.9, `the loss of a fresh model is about ln 2: ${first}`);
    assert.equal(model.gradients(ids, targets).loss, first);
    assert.equal(model.step(ids, targets, { lr: 1e-2 }), first, 'step returns the loss before it');
    let loss = model.loss(ids, targets);
    assert.ok(loss < first);
    for (let k = 0; k < 30; k++) loss = model.step(ids, targets, { lr: 1e-2 });
    assert.ok(loss < 0.5 * first, `30 steps on one batch: ${first} -> ${loss}`);

    const ignored = { data: Int32Array.from(targets.data, (t, i) => (i % 2 ? -1 : t)), shape: targets.shape };
    const kept = { data: Int32Array.from(targets.data.filter((_, i) => i % 2 === 0)), shape: [8] };
    const keptIds = { data: Int32Array.from(ids.data.filter((_, i) => Math.floor(i / 7) % 2 === 0)), shape: [8, 7] };
    assert.ok(Math.abs(model.loss(ids, ignored) - model.loss(keptIds, kept)) < 1e-15, 'the mean over the targets kept');
    const none = { data: new Int32Array(16).fill(-1), shape: [16] };
    const { loss: zero, grads } = model.gradients(ids, none);
    assert.equal(zero, 0);
    assert.ok(Object.values(grads).every((g) => g.data.every((x) => x === 0)), 'every target ignored: zero gradients');
    model.dispose();
  });

  test('step: lr defaults to 1e-3, lr 0 leaves the parameters as they are', () => {
    const a = so.createModel({ ...SMALL, dtype: 'float64' });
    const b = so.createModel({ ...SMALL, dtype: 'float64' });
    const ids = idsOf([[0, 1, 2, 3], [3, 2, 1, 0]]);
    const targets = idsOf([0, 2]);
    a.step(ids, targets);
    b.step(ids, targets, { lr: 1e-3 });
    assert.deepEqual(a.parameters(), b.parameters());
    const before = a.parameters();
    a.step(ids, targets, { lr: 0 });
    assert.deepEqual(a.parameters(), before);
    a.dispose();
    b.dispose();
  });

  test('attention weights: rows sum to 1, masked keys exactly 0 with causal, none 0 without', () => {
    for (const causal of [false, true]) {
      for (const dtype of ['float32', 'float64']) {
        const model = so.createModel({ vocab: 16, width: 16, heads: 4, layers: 3, causal, classes: 2, dtype, seed: 11 });
        const T = 9;
        const w = model.attentionWeights(idsOf([[1, 5, 3, 0, 7, 7, 2, 15, 4]])).data;
        for (let row = 0; row < 3 * 4 * T; row++) {
          const i = row % T;
          const r = w.subarray(row * T, row * T + T);
          const sum = r.reduce((s, x) => s + x, 0);
          assert.ok(Math.abs(sum - 1) < (dtype === 'float32' ? 1e-6 : 1e-14), `row ${row}: sum ${sum}`);
          for (let j = 0; j < T; j++) {
            if (causal && j > i) assert.equal(r[j], 0, `row ${row}, key ${j}: masked`);
            else assert.ok(r[j] > 0, `row ${row}, key ${j}: visible`);
          }
        }
        model.dispose();
      }
    }
  });

  test('gradients match central finite differences of loss() for every element of every parameter (float64)', () => {
    const configs = [
      { ...SMALL, causal: true, readout: 'each' },
      { vocab: 5, width: 8, heads: 2, layers: 1, positions: 'rotary', classes: 2 },
      { vocab: 6, width: 4, heads: 1, layers: 1, positions: 'sinusoidal', classes: 3, readout: 'each' },
    ];
    const h = 1e-6;
    let worst = 0;
    for (const [c, config] of configs.entries()) {
      const model = so.createModel({ ...config, dtype: 'float64', seed: 20 + c });
      model.setParameters(otherValues(model, c));  // away from the initial zeros and ones: every path of the gradient
      const B = 3;
      const T = 5;
      const ids = { data: Int32Array.from({ length: B * T }, (_, i) => (i * 5 + c) % config.vocab), shape: [B, T] };
      const each = config.readout === 'each';
      const targets = { data: Int32Array.from({ length: each ? B * T : B }, (_, i) => (i % 4 === 3 ? -1 : (i * 2 + c) % config.classes)), shape: each ? [B, T] : [B] };
      const { grads } = model.gradients(ids, targets);
      for (const [name, p] of Object.entries(model.parameters())) {
        for (let i = 0; i < p.data.length; i++) {
          const at = (x) => {
            const data = p.data.slice();
            data[i] = x;
            model.setParameters({ [name]: { data, shape: p.shape } });
            return model.loss(ids, targets);
          };
          const fd = (at(p.data[i] + h) - at(p.data[i] - h)) / (2 * h);
          const error = Math.abs(fd - grads[name].data[i]);
          worst = Math.max(worst, error);
          assert.ok(error < 1e-7 + 1e-6 * Math.abs(fd), `${config.positions} ${name}[${i}]: gradient ${grads[name].data[i]}, finite difference ${fd}`);
        }
        model.setParameters({ [name]: p });
      }
      model.dispose();
    }
    assert.ok(worst < 1e-7);
  });
});

describe('the numpy fixture (tests/fixtures/model.txt), float64', () => {
  const fixtures = readFixtures('model.txt');
  const count = countCases(fixtures, 'model', 'config');
  test(`${count} configurations: logits, loss and every gradient within 1e-10`, (t) => {
    assert.ok(count >= 4);
    for (let c = 0; c < count; c++) {
      const get = (name) => fixtures.get(`model/${c}/${name}`);
      const model = modelFromFixture(so, get);
      const ids = { data: Int32Array.from(get('ids').values), shape: get('ids').shape };
      const targets = { data: Int32Array.from(get('targets').values), shape: get('targets').shape };
      const range = fixtures.has(`model/${c}/position_range`);  // positionRange: its positions the first evaluation draw
      const given = fixtures.has(`model/${c}/positions`) && !range;  // positionIds, in the cases that give them
      const options = range ? { positionRange: get('position_range').values[0] } : given ? { positionIds: { data: Int32Array.from(get('positions').values), shape: get('positions').shape } } : {};
      const stretched = fixtures.has(`model/${c}/rope_scaling`);  // ropeScaling: [method 0 linear, 1 ntk, 2 yarn; factor; originalLength, 0: none]
      if (stretched) {
        const [method, factor, originalLength] = get('rope_scaling').values;
        options.ropeScaling = { method: ['linear', 'ntk', 'yarn'][method], factor, ...(originalLength ? { originalLength } : {}) };
      }
      let worst = 0;
      const compare = (what, got, want) => {
        assert.deepEqual(got.shape, want.shape, what);
        for (let i = 0; i < want.values.length; i++) {
          const error = Math.abs(got.data[i] - want.values[i]);
          worst = Math.max(worst, error);
          assert.ok(error <= 1e-10, `model ${c}: ${what}[${i}]: ${got.data[i]} vs numpy ${want.values[i]}`);
        }
      };
      // with a positionRange, each call on a new model: its draw is then the evaluation stream's first
      const models = range ? [model, modelFromFixture(so, get), modelFromFixture(so, get)] : [model, model, model];
      compare('logits', models[0].forward(ids, options), get('logits'));
      const { loss, grads } = models[1].gradients(ids, targets, options);
      compare('loss', { data: [loss], shape: [1] }, get('loss'));
      assert.equal(models[2].loss(ids, targets, options), loss);
      for (const [name, g] of Object.entries(grads)) compare(`grad ${name}`, g, get(`grad/${name}`));
      t.diagnostic(`model ${c} (${model.config.positions}, ${model.config.readout}, causal ${model.config.causal}${given ? ', positionIds' : ''}${range ? `, positionRange ${options.positionRange}` : ''}${stretched ? `, ropeScaling '${options.ropeScaling.method}'` : ''}): largest error ${worst.toExponential(2)}`);
      for (const m of new Set(models)) m.dispose();
    }
  });
});

describe('the position schemes\' options', () => {
  const base = { vocab: 9, width: 16, heads: 2, classes: 3, seed: 5 };

  test('model.config reports rotaryBase and rotaryPairs with rotary positions, buckets and maxDistance with relative ones, defaults filled in', () => {
    const cases = [
      [{ positions: 'rotary' }, { rotaryBase: 10000, rotaryPairs: 4 }],
      [{ positions: 'rotary', rotaryBase: 500000, rotaryPairs: 1 }, { rotaryBase: 500000, rotaryPairs: 1 }],
      [{ positions: 'relative' }, { buckets: 32, maxDistance: 128 }],
      [{ positions: 'relative', causal: true, buckets: 6, maxDistance: 20 }, { buckets: 6, maxDistance: 20 }],
      [{ positions: 'alibi' }, {}],
      [{ positions: 'sinusoidal' }, {}],
    ];
    for (const [options, reported] of cases) {
      const model = so.createModel({ ...base, ...options });
      for (const name of ['rotaryBase', 'rotaryPairs', 'buckets', 'maxDistance'])
        assert.equal(model.config[name], reported[name], `${JSON.stringify(options)}: ${name}`);
      // the configuration makes the same model again
      const again = so.createModel(model.config);
      const ids = idsOf([[1, 2, 3, 4, 5]]);
      assert.deepEqual(again.forward(ids), model.forward(ids));
      model.dispose();
      again.dispose();
    }
  });

  test('alibi adds no parameter; relative adds relativeBias (buckets, heads) after embed, trained by step', () => {
    const none = so.createModel({ ...base, positions: 'none' });
    const alibi = so.createModel({ ...base, positions: 'alibi' });
    assert.deepEqual(Object.keys(alibi.parameters()), Object.keys(none.parameters()));
    const relative = so.createModel({ ...base, positions: 'relative', buckets: 8, maxDistance: 6 });
    const names = Object.keys(relative.parameters());
    assert.equal(names[1], 'relativeBias');
    assert.deepEqual(relative.parameters().relativeBias.shape, [8, 2]);
    const ids = idsOf([[1, 2, 3, 4, 5, 6, 7, 8], [8, 7, 6, 5, 4, 3, 2, 1]]);
    const targets = idsOf([0, 1]);
    const { grads } = relative.gradients(ids, targets);
    // distances 0 .. -7 reach buckets 0 .. 3, distances 1 .. 7 buckets 5 .. 7; bucket 4 (distance 0 after the query)
    // is no key's
    for (let b = 0; b < 8; b++)
      assert.equal(grads.relativeBias.data[2 * b] !== 0, b !== 4, `bucket ${b}: ${grads.relativeBias.data[2 * b]}`);
    const before = relative.parameters().relativeBias.data.slice();
    relative.step(ids, targets, { lr: 1e-2 });
    assert.notDeepEqual(relative.parameters().relativeBias.data, before);
    for (const model of [none, alibi, relative]) model.dispose();
  });

  test('ALiBi changes what a bidirectional model computes, and rotaryBase / rotaryPairs what a rotary one does', () => {
    const ids = idsOf([[1, 2, 3, 4, 5, 6]]);
    const logits = (options) => {
      const model = so.createModel({ ...base, ...options });
      const out = model.forward(ids).data;
      model.dispose();
      return out;
    };
    assert.notDeepEqual(logits({ positions: 'alibi' }), logits({ positions: 'none' }));
    assert.deepEqual(logits({ positions: 'rotary', rotaryBase: 10000, rotaryPairs: 4 }), logits({ positions: 'rotary' }));
    assert.notDeepEqual(logits({ positions: 'rotary', rotaryBase: 100 }), logits({ positions: 'rotary' }));
    assert.notDeepEqual(logits({ positions: 'rotary', rotaryPairs: 2 }), logits({ positions: 'rotary' }));
  });
});

describe('properties', () => {
  const permute = (sentence, order) => order.map((j) => sentence[j]);
  const order = [4, 0, 6, 2, 5, 1, 3];
  const sentence = [3, 9, 1, 12, 0, 5, 1];

  test('without positions or a mask, mean logits are invariant under permuting the sentence, each logits equivariant', () => {
    for (const readout of ['mean', 'each']) {
      const model = so.createModel({ vocab: 16, width: 16, heads: 2, layers: 2, positions: 'none', readout, classes: 3, dtype: 'float64', seed: 4 });
      const a = model.forward(idsOf([sentence])).data;
      const b = model.forward(idsOf([permute(sentence, order)])).data;
      const want = readout === 'mean' ? a : Float64Array.from(permute([...Array(7).keys()], order).flatMap((t) => [...a.subarray(3 * t, 3 * t + 3)]));
      for (let i = 0; i < b.length; i++) assert.ok(Math.abs(b[i] - want[i]) < 1e-12, `${readout}: logit ${i}`);
      // with sinusoidal positions the order shows
      const placed = so.createModel({ ...model.config, positions: 'sinusoidal' });
      const moved = placed.forward(idsOf([permute(sentence, order)])).data;
      assert.ok(Math.abs(moved[0] - placed.forward(idsOf([sentence])).data[0]) > 1e-6);
      model.dispose();
      placed.dispose();
    }
  });

  test('with a causal mask, the outputs at positions 0 .. t do not depend on later tokens (bit for bit)', () => {
    for (const positions of ['none', 'sinusoidal', 'learned', 'rotary', 'alibi', 'relative']) {
      for (const dtype of ['float32', 'float64']) {
        const model = so.createModel({ vocab: 16, width: 16, heads: 2, layers: 2, positions, maxLength: positions === 'learned' ? 8 : undefined, causal: true, readout: 'each', classes: 3, dtype, seed: 6 });
        const full = model.forward(idsOf([[3, 9, 1, 12, 0, 5, 1, 8]])).data;
        for (let t = 1; t < 8; t++) {
          const changed = [3, 9, 1, 12, 0, 5, 1, 8].map((x, i) => (i >= t ? (x + 7) % 16 : x));
          const other = model.forward(idsOf([changed])).data;
          assert.deepEqual(other.subarray(0, 3 * t), full.subarray(0, 3 * t), `${positions} ${dtype}: positions before ${t}`);
          assert.notDeepEqual(other.subarray(3 * t), full.subarray(3 * t));
          const prefix = model.forward(idsOf([changed.slice(0, t)])).data;
          assert.deepEqual(prefix, full.subarray(0, 3 * t), `${positions} ${dtype}: the prefix alone`);
        }
        model.dispose();
      }
    }
  });
});

describe('the order task', () => {
  const fixtures = readFixtures('model.txt');

  test('orderTask draws what the fixture script\'s port of it draws; taskWords are the lesson\'s words', () => {
    const count = countCases(fixtures, 'task/order', 'args');
    assert.ok(count >= 3);
    for (let i = 0; i < count; i++) {
      const [n, length, seed, mirrored] = fixtures.get(`task/order/${i}/args`).values;
      const task = so.orderTask({ count: n, length, seed, mirrored: mirrored === 1 });
      assert.deepEqual(task.ids, { data: Int32Array.from(fixtures.get(`task/order/${i}/ids`).values), shape: [n, length], dtype: 'int32' });
      assert.deepEqual(task.targets, { data: Int32Array.from(fixtures.get(`task/order/${i}/targets`).values), shape: [n], dtype: 'int32' });
    }
    assert.equal(so.taskWords.length, 16);
    assert.deepEqual(so.taskWords.slice(0, 4), ['the', 'robot', 'follows', 'person']);
    assert.ok(Object.isFrozen(so.taskWords));
    const { ids, targets } = so.orderTask({ count: 6, length: 5, seed: 3, mirrored: true });
    const words = (s) => Array.from(ids.data.subarray(5 * s, 5 * s + 5), (id) => so.taskWords[id]);
    for (let s = 0; s < 6; s += 2) {
      assert.deepEqual(words(s + 1), words(s).map((w) => (w === 'robot' ? 'person' : w === 'person' ? 'robot' : w)));
      assert.equal(targets.data[s], words(s).indexOf('robot') < words(s).indexOf('person') ? 1 : 0);
      assert.equal(targets.data[s + 1], 1 - targets.data[s]);
    }
    assert.deepEqual(so.orderTask({ count: 2, length: 2 }), so.orderTask({ count: 2, length: 2, seed: 0, mirrored: false }));
  });

  test('inductionTask draws what the fixture script\'s port of it draws: the word after the last earlier occurrence', () => {
    const count = countCases(fixtures, 'task/induction', 'args');
    assert.ok(count >= 3);
    for (let i = 0; i < count; i++) {
      const [n, length, seed] = fixtures.get(`task/induction/${i}/args`).values;
      const task = so.inductionTask({ count: n, length, seed });
      assert.deepEqual(task.ids, { data: Int32Array.from(fixtures.get(`task/induction/${i}/ids`).values), shape: [n, length], dtype: 'int32' });
      assert.deepEqual(task.targets, { data: Int32Array.from(fixtures.get(`task/induction/${i}/targets`).values), shape: [n, length], dtype: 'int32' });
    }
    const { ids, targets } = so.inductionTask({ count: 6, length: 30, seed: 4 });
    for (let s = 0; s < 6; s++)
      for (let t = 0; t < 30; t++) {
        const row = ids.data.subarray(30 * s, 30 * s + 30);
        const u = row.subarray(0, t).lastIndexOf(row[t]);
        assert.equal(targets.data[30 * s + t], u === -1 ? -1 : row[u + 1]);
      }
    assert.deepEqual(ids, so.lookbackTask({ count: 6, length: 30, seed: 4 }).ids, 'the words are lookbackTask\'s');
    assert.deepEqual(so.inductionTask({ count: 3, length: 6 }), so.inductionTask({ count: 3, length: 6, seed: 0 }));
    assert.deepEqual(so.inductionTask({ count: 0, length: 6 }).targets.shape, [0, 6]);
    const model = so.createModel({ vocab: so.taskWords.length, width: 16, heads: 2, layers: 2, causal: true, readout: 'each', classes: so.taskWords.length });
    assert.ok(Number.isFinite(model.step(ids, targets, { lr: 3e-3 })));
    model.dispose();
  });

  test('lookbackTask draws what the fixture script\'s port of it draws: the target at t is the word back places earlier', () => {
    const count = countCases(fixtures, 'task/lookback', 'args');
    assert.ok(count >= 3);
    for (let i = 0; i < count; i++) {
      const [n, length, back, seed] = fixtures.get(`task/lookback/${i}/args`).values;
      const task = so.lookbackTask({ count: n, length, back, seed });
      assert.deepEqual(task.ids, { data: Int32Array.from(fixtures.get(`task/lookback/${i}/ids`).values), shape: [n, length], dtype: 'int32' });
      assert.deepEqual(task.targets, { data: Int32Array.from(fixtures.get(`task/lookback/${i}/targets`).values), shape: [n, length], dtype: 'int32' });
    }
    const { ids, targets } = so.lookbackTask({ count: 5, length: 9, seed: 4 });  // back 2 by default
    for (let s = 0; s < 5; s++)
      for (let t = 0; t < 9; t++) assert.equal(targets.data[9 * s + t], t < 2 ? -1 : ids.data[9 * s + t - 2]);
    assert.deepEqual(so.lookbackTask({ count: 3, length: 6 }), so.lookbackTask({ count: 3, length: 6, back: 2, seed: 0 }));
    assert.deepEqual(so.lookbackTask({ count: 0, length: 6 }).targets.shape, [0, 6]);
    // a model with readout 'each' and one class per word takes it as it comes
    const model = so.createModel({ vocab: so.taskWords.length, width: 16, heads: 2, readout: 'each', classes: so.taskWords.length });
    assert.ok(Number.isFinite(model.step(ids, targets, { lr: 3e-3 })));
    model.dispose();
  });

  test('trained in node: sinusoidal positions learn it (>= 95% at trained lengths), no positions score exactly 50% on mirrored pairs', (t) => {
    // the native training test's schedule (tests/native/test_model_training.cpp): step k on orderTask(32, 8 + k % 9)
    const results = {};
    for (const [positions, steps] of [['sinusoidal', 800], ['none', 200]]) {
      const model = so.createModel({ vocab: 16, width: 32, heads: 2, positions, classes: 2, seed: 2 });
      for (let k = 0; k < steps; k++) {
        const { ids, targets } = so.orderTask({ count: 32, length: 8 + (k % 9), seed: 1000 + k });
        model.step(ids, targets, { lr: 3e-3 });
      }
      results[positions] = Object.fromEntries([8, 12, 16].map((T) => [T, accuracy(so, model, T)]));
      t.diagnostic(`${positions}, ${steps} steps: accuracy at T = 8, 12, 16: ${Object.values(results[positions]).map((a) => `${(100 * a).toFixed(1)}%`).join(', ')}`);
      model.dispose();
    }
    for (const T of [8, 12, 16]) {
      assert.ok(results.sinusoidal[T] >= 0.95, `sinusoidal at T = ${T}: ${results.sinusoidal[T]}`);
      assert.equal(results.none[T], 0.5, `no positions at T = ${T}: a sentence and its mirror look the same`);
    }
  });
});

describe('dispose', () => {
  test('frees the model\'s memory; every later call is an Error that says so; dispose again does nothing', () => {
    const baseline = so.memoryStats().allocatedBytes;
    const model = so.createModel({ ...SMALL, readout: 'each' });
    const ids = idsOf([[1, 2, 3]]);
    const targets = idsOf([[0, 1, 2]]);
    model.step(ids, targets);
    assert.ok(so.memoryStats().allocatedBytes > baseline);
    assert.equal(model.disposed, false);
    model.dispose();
    assert.equal(model.disposed, true);
    assert.equal(so.memoryStats().allocatedBytes, baseline);
    for (const call of [() => model.parameters(), () => model.setParameters({}), () => model.forward(ids), () => model.loss(ids, targets),
      () => model.gradients(ids, targets), () => model.step(ids, targets), () => model.attentionWeights(ids), () => model.forward('not even ids')])
      assert.throws(call, (e) => e.constructor === Error && /^seqorder: this model was disposed; create a new one with createModel\(\)/.test(e.message));
    model.dispose();
    assert.deepEqual(model.config.vocab, 7, 'the configuration stays readable');
  });

  test('a method called on something else than a model is a TypeError; models are made by createModel only', () => {
    const model = so.createModel(SMALL);
    for (const self of [undefined, null, {}, Object.create(Object.getPrototypeOf(model)), model.config])
      assert.throws(() => model.forward.call(self, idsOf([[1]])), { name: 'TypeError', message: /^not a seqorder model/ });
    assert.throws(() => new model.constructor(), { name: 'TypeError', message: /^models are made by createModel/ });
    model.dispose();
  });

  test('models of two module instances are independent', async () => {
    const other = await loadSeqorder();
    const a = so.createModel(SMALL);
    const b = other.createModel(SMALL);
    b.dispose();
    assert.deepEqual(a.forward(idsOf([[1, 2]])).shape, [1, 3]);
    assert.throws(() => b.forward(idsOf([[1, 2]])), /disposed/);
    // a method of one instance's model called on the other's: each model runs in its own module
    const c = other.createModel({ ...SMALL, seed: 9 });
    assert.deepEqual(a.forward.call(c, idsOf([[1, 2]])).data, c.forward(idsOf([[1, 2]])).data);
    a.dispose();
    c.dispose();
  });
});

test('sinusoidal and learned rows at positions given, kept from call to call, are a new model\'s: calls of many shapes in turn, with and without positions', () => {
  // every call's logits against the same call on a model that never ran (nothing kept from earlier calls)
  // (the largest position below B·T: rows by position, computed up to it and kept; else each token's own)
  const shapes = [[6, 9, 5], [6, 9, 20], [4, 10, 2], [8, 9, 40], [4, 6, 40], [1, 3, 2], [6, 9, 20], [2, 5, 0], [4, 10, 2], [6, 9, 300], [5, 7, 60], [1, 8, 0], [6, 9, 20]];
  for (const positions of ['sinusoidal', 'learned']) {
    const options = { vocab: 7, width: 8, heads: 2, layers: 1, positions, classes: 2, dtype: 'float32', seed: 3, ...(positions === 'learned' ? { maxLength: 400 } : {}) };
    const kept = so.createModel(options);
    try {
      for (const [B, T, shift] of shapes) {
        const ids = { data: Int32Array.from({ length: B * T }, (_, n) => (n * 5 + 1) % 7), shape: [B, T], dtype: 'int32' };
        // rows increasing, repeating across sentences, reaching `shift` + 3 (T − 1); shift 0: no positions given
        const call = shift ? { positionIds: { data: Int32Array.from({ length: B * T }, (_, n) => (n % T) * 3 + ((n / T) | 0) % 3 + (n % T === T - 1 ? shift : 0)), shape: [B, T], dtype: 'int32' } } : {};
        const fresh = so.createModel(options);
        try {
          assert.deepEqual(kept.forward(ids, call).data, fresh.forward(ids, call).data, `${positions}: B ${B}, T ${T}, shift ${shift}`);
        } finally {
          fresh.dispose();
        }
      }
    } finally {
      kept.dispose();
    }
  }
});
