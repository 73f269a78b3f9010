// A model's state is transactional: a call that fails, for any reason (a wrong argument, a refused step, memory the
// heap cannot give), leaves its parameters (hashed here) and Adam's moments and step count as they were (a twin that
// never saw the failing calls then trains to the same bits), and its buffers for a new length valid; train, several
// steps in one call, too: all of them or none. Also what a model
// keeps in the heap between calls, and the rules that keep its parameters and moments finite.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadSeqorder } from './helpers/load.mjs';
import { parameterHash as hash } from './helpers/model-helpers.mjs';

const so = await loadSeqorder();

/** ids (B, T) cycling through the vocabulary from `start`. */
function sentences(B, T, vocab, start = 0) {
  return { data: Int32Array.from({ length: B * T }, (_, i) => (start + 7 * i) % vocab), shape: [B, T] };
}

/** Targets for ids (B, T): (B) for readout 'mean', (B, T) for 'each', cycling through the classes. */
function targetsFor(model, B, T, start = 0) {
  const { readout, classes } = model.config;
  const n = readout === 'mean' ? B : B * T;
  return { data: Int32Array.from({ length: n }, (_, i) => (start + i) % classes), shape: readout === 'mean' ? [B] : [B, T] };
}

/** Two models of one configuration, trained alike for three steps (Adam's moments not zero). */
function twins(options) {
  const pair = [so.createModel(options), so.createModel(options)];
  for (let k = 0; k < 3; k++)
    for (const m of pair) m.step(sentences(2, 4 + k, options.vocab, k), targetsFor(m, 2, 4 + k, k), { lr: 1e-2 });
  return pair;
}

const CONFIGS = [
  { vocab: 11, width: 8, heads: 2, classes: 2, positions: 'sinusoidal', seed: 1 },
  { vocab: 11, width: 8, heads: 2, layers: 2, classes: 3, positions: 'learned', maxLength: 9, causal: true, readout: 'each', dtype: 'float64', seed: 2 },
  { vocab: 11, width: 8, heads: 2, classes: 3, positions: 'rotary', causal: true, readout: 'each', seed: 3 },
];

test('a failing call of every kind leaves the parameters and Adam\'s state as they were', () => {
  let cases = 0;
  for (const options of CONFIGS) {
    const [model, twin] = twins(options);
    const B = 2, T = 5, V = options.vocab;
    const ids = sentences(B, T, V), targets = targetsFor(model, B, T);
    const badId = sentences(B, T, V);
    badId.data[7] = V;
    const badTarget = targetsFor(model, B, T);
    badTarget.data[1] = model.config.classes;
    const f32 = model.config.dtype === 'float32';
    const Float = f32 ? Float32Array : Float64Array;
    const shapes = Object.fromEntries(Object.entries(model.parameters()).map(([name, p]) => [name, p.shape]));
    const filled = (name, value) => ({ [name]: { data: new Float(shapes[name].reduce((a, b) => a * b, 1)).fill(value), shape: shapes[name] } });
    const long = sentences(1, 4096, V);
    const failing = [
      // [what, call, error class, message]
      ['forward: an id past the vocabulary', (m) => m.forward(badId), RangeError, /^ids\[1, 2\] = 11 is outside/],
      ['forward: ids of floats', (m) => m.forward({ data: new Float32Array(4), shape: [1, 4] }), RangeError, /^ids\.dtype must be 'int32'/],
      ['loss: a target past the classes', (m) => m.loss(ids, badTarget), RangeError, /^targets\[(0, )?1\] = \d is outside/],
      ['gradients: targets of the wrong shape', (m) => m.gradients(ids, { data: new Int32Array(3), shape: [3] }), RangeError, /^targets must have shape/],
      ['step: a target past the classes', (m) => m.step(ids, badTarget, { lr: 1e-2 }), RangeError, /^targets\[(0, )?1\] = \d is outside/],
      ['step: lr negative', (m) => m.step(ids, targets, { lr: -1 }), RangeError, /^lr must be a finite number >= 0/],
      ['step: lr a string', (m) => m.step(ids, targets, { lr: 'fast' }), TypeError, /^lr must be a number/],
      ['step: an unknown option', (m) => m.step(ids, targets, { lr: 1e-3, momentum: 0.9 }), TypeError, /unknown option 'momentum'/],
      ['attentionWeights: two sentences', (m) => m.attentionWeights(ids), RangeError, /^ids must have shape \(1, T\) or \(T\)/],
      ['forward: activations past the tensor limit', (m) => m.forward(sentences(2 ** 18, 8, V)), RangeError, /^ids of shape \(B, T\) = \[262144, 8\] need more activations than the 1024 MiB/],
      ['setParameters: NaN in a weight', (m) => m.setParameters({ ...filled('readout.bias', 1), ...filled('layers.0.attention.wq', NaN) }), RangeError, /^parameter 'layers\.0\.attention\.wq' holds NaN at \[0, 0\]: every parameter must be finite/],
      ['setParameters: Infinity in a gain', (m) => m.setParameters(filled('norm.gain', Infinity)), RangeError, /^parameter 'norm\.gain' holds Infinity at \[0\]/],
      ['setParameters: an unknown name', (m) => m.setParameters({ ...filled('readout.bias', 1), 'readout.scale': { data: new Float(2), shape: [2] } }), RangeError, /no parameter named 'readout\.scale'/],
      ['setParameters: the other dtype', (m) => m.setParameters({ 'readout.bias': { data: new (f32 ? Float64Array : Float32Array)(shapes['readout.bias'][0]), shape: shapes['readout.bias'] } }), RangeError, /^parameters\['readout\.bias'\]\.dtype must be/],
    ];
    if (f32) failing.push(['step: lr past float32', (m) => m.step(ids, targets, { lr: 1e308 }), RangeError, /^lr must be at most 3\.4028234663852886e\+38 \(the largest finite float32, the model's dtype\), got 1e\+308/]);
    if (options.positions === 'learned') failing.push(['forward: T past maxLength', (m) => m.forward(sentences(1, 10, V)), RangeError, /^ids have T = 10 positions, but the learned table has 9 rows/]);
    else failing.push(['attentionWeights at a new length, then a failing one', (m) => { m.attentionWeights(long); m.forward(badId); }, RangeError, /^ids\[1, 2\] = 11 is outside/]);
    for (const [what, call, Class, message] of failing) {
      const before = hash(model);
      assert.throws(() => call(model), { name: Class.name, message }, `${options.positions}: ${what}`);
      assert.equal(hash(model), before, `${options.positions}: ${what} changed the parameters`);
      cases++;
    }
    // refused steps: a loss that is not finite, and an update that would not be
    const refused = [
      ['a loss that is not finite', filled('norm.gain', f32 ? 3e38 : 1e308), 1e-3, /^the loss is (NaN|-?Infinity): a step on a loss that is not finite is refused \(the model is unchanged\)/],
      // every bias at the largest value: the gradients of a row's logits sum to 0, so one class's bias is pushed up
      ['an update past the largest value', filled('readout.bias', f32 ? 3.4028234663852886e38 : Number.MAX_VALUE), f32 ? 1e35 : 1e305, /^lr [\d.e+]+ is refused here: the step would make parameter 'readout\.bias' \[\d+\] or its Adam moments not finite \(the model is unchanged\)/],
    ];
    for (const [what, parameters, lr, message] of refused) {
      const saved = model.parameters();
      const kept = Object.fromEntries(Object.keys(parameters).map((name) => [name, saved[name]]));
      for (const m of [model, twin]) m.setParameters(parameters);
      const before = hash(model);
      assert.throws(() => model.step(ids, targets, { lr }), { name: 'RangeError', message }, `${options.positions}: ${what}`);
      assert.equal(hash(model), before, `${options.positions}: ${what} changed the parameters`);
      for (const m of [model, twin]) m.setParameters(kept);
      cases++;
    }
    // the twin saw none of it: the same parameters, and the same steps from here (Adam's moments and count)
    assert.equal(hash(model), hash(twin), `${options.positions}: parameters`);
    for (const length of [3, 6, 9]) {
      const x = sentences(3, length, V, length), y = targetsFor(model, 3, length, length);
      assert.deepEqual(model.forward(x).data, twin.forward(x).data, `${options.positions}: forward at T = ${length}`);
      assert.equal(model.step(x, y, { lr: 1e-2 }), twin.step(x, y, { lr: 1e-2 }), `${options.positions}: step at T = ${length}`);
      assert.equal(hash(model), hash(twin), `${options.positions}: parameters after a step at T = ${length}`);
    }
    model.dispose();
    twin.dispose();
  }
  assert.ok(cases >= 45, `${cases} failing calls`);
});

test('a call the heap cannot hold is refused before it allocates, and the model is right afterwards at that length', (t) => {
  // a model that has run at T = 4; then models that fill the heap (512 MiB each: 2^24 float64 parameters, four values
  // each) until createModel is refused
  const options = { vocab: 16, width: 8, classes: 2, seed: 1 };
  const model = so.createModel(options);
  model.forward(sentences(1, 4, 16));
  const fillers = [];
  let refusal;
  while (!refusal) {
    try {
      fillers.push(so.createModel({ vocab: 2 ** 20, width: 16, classes: 2, positions: 'none', dtype: 'float64' }));
    } catch (error) {
      refusal = error;
    }
  }
  assert.equal(refusal.name, 'RangeError');
  assert.match(refusal.message, /^a model of 16780498 parameters \(vocab 1048576, width 16, layers 1, classes 2\) needs 512\.1 MiB more memory \(four 8-byte values per parameter: its value, its gradient and Adam's two moments\), but the heap can give \d+\.\d MiB more$/);
  assert.ok(fillers.length >= 2, `${fillers.length} models of 512 MiB fit`);
  // a call at a new length whose activations (936 MiB) are within the tensor limit but not within what is left
  const before = so.memoryStats().allocatedBytes;
  assert.throws(() => model.forward(sentences(8000, 96, 16)), {
    name: 'RangeError',
    message: /^ids of shape \(B, T\) = \[8000, 96\] need \d+\.\d MiB more memory \(the model's activations and the call's results\), but the heap can give \d+\.\d MiB more$/,
  });
  assert.equal(so.memoryStats().allocatedBytes, before, 'the refused call allocated nothing');
  for (const filler of fillers) filler.dispose();
  // at T = 64, the model gives what a fresh one gives
  const fresh = so.createModel(options);
  const x = sentences(1, 64, 16, 3);
  assert.deepEqual(model.forward(x).data, fresh.forward(x).data);
  t.diagnostic(`${fillers.length} models of 512 MiB; ${refusal.message}`);
  model.dispose();
  fresh.dispose();
});

test('train is all or nothing: a bad id in its third batch, a step refused midway', () => {
  let cases = 0;
  for (const options of CONFIGS) {
    const [model, twin] = twins(options);
    const V = options.vocab;
    const f32 = model.config.dtype === 'float32';
    const batch = (B, T, start) => ({ ids: sentences(B, T, V, start), targets: targetsFor(model, B, T, start) });
    const badId = batch(2, 5, 2);
    badId.ids.data[8] = V;
    const badTarget = batch(3, 4, 1);
    badTarget.targets.data[1] = -2;
    const failing = [
      ['a bad id in the third batch', [batch(2, 5, 0), batch(3, 4, 1), badId, batch(2, 5, 3)], 1e-2, /^batches\[2\]: ids\[1, 3\] = 11 is outside 0 \.\. vocab - 1 = 0 \.\. 10$/],
      ['a bad target in the second batch', [batch(2, 5, 0), badTarget], 1e-2, /^batches\[1\]: targets\[(0, )?1\] = -2 is outside -1 \.\. classes - 1/],
      ['lr negative, and a bad batch after it', [batch(2, 5, 0), badId], -1, /^lr must be a finite number >= 0, got -1$/],
      // lr at the top of the dtype's range moves every parameter by about lr, still finite: the next loss overflows,
      // and that step is refused after the first was taken
      ['a step refused after the first', [batch(2, 5, 0), batch(3, 4, 1), batch(2, 5, 0)], f32 ? 1e38 : 1e307,
        /^batches\[1\]: (the loss is (NaN|-?Infinity): a step on a loss that is not finite is refused|lr [\d.e+]+ is refused here: the step would make parameter '[\w.]+' \[[\d, ]+\] or its Adam moments not finite) \(the model is unchanged\)$/],
    ];
    for (const [what, batches, lr, message] of failing) {
      const before = hash(model);
      assert.throws(() => model.train(batches, { lr }), { name: 'RangeError', message }, `${options.positions}: ${what}`);
      assert.equal(hash(model), before, `${options.positions}: ${what} changed the parameters`);
      cases++;
    }
    // the first step of the refused run alone is taken: it was the second that failed
    const first = so.createModel(options);
    const start = hash(first);
    first.train([batch(2, 5, 0)], { lr: f32 ? 1e38 : 1e307 });
    assert.notEqual(hash(first), start, `${options.positions}: one step at the top of the range is taken`);
    first.dispose();
    // the twin saw none of it: train and step give the same bits (Adam's moments and count are the same)
    const x = [batch(3, 6, 4), batch(2, 3, 5)];
    assert.deepEqual(model.train(x, { lr: 1e-2 }), twin.train(x, { lr: 1e-2 }), `${options.positions}: train afterwards`);
    assert.equal(model.step(x[0].ids, x[0].targets, { lr: 1e-2 }), twin.step(x[0].ids, x[0].targets, { lr: 1e-2 }));
    assert.equal(hash(model), hash(twin), `${options.positions}: parameters after training`);
    model.dispose();
    twin.dispose();
  }
  assert.equal(cases, 4 * CONFIGS.length);
});

test('train that runs out of memory after its first step leaves the model as it was', (t) => {
  // the heap filled with 64 MiB models, every other one then disposed: about 1 GiB free, but in pieces of 64 MiB, so
  // the memory check (free bytes) lets a call pass whose attention weights need one block of 67 MiB (T = 4200)
  const options = { vocab: 16, width: 8, classes: 2, seed: 1 };
  const [model, twin] = twins(options);
  const fillers = [];
  for (;;) {
    try {
      fillers.push(so.createModel({ vocab: 2 ** 17, width: 16, classes: 2, positions: 'none', dtype: 'float64' }));
    } catch {
      break;
    }
  }
  for (let i = 0; i < fillers.length; i += 2) fillers[i].dispose();
  const free = so.memoryStats().heapBytes - so.memoryStats().allocatedBytes;
  const batch = (B, T, start) => ({ ids: sentences(B, T, 16, start), targets: targetsFor(model, B, T, start) });
  const before = hash(model);
  const held = so.memoryStats().allocatedBytes;
  assert.throws(() => model.train([batch(2, 5, 0), batch(1, 4200, 1), batch(2, 5, 2)], { lr: 1e-2 }),
    { name: 'RangeError', message: /^(batches\[1\]: )?out of memory: the WebAssembly heap cannot hold this call's tensors$/ });
  assert.equal(hash(model), before, 'the parameters are as they were');
  assert.ok(so.memoryStats().allocatedBytes <= held, 'the failed call holds nothing afterwards');
  for (let i = 1; i < fillers.length; i += 2) fillers[i].dispose();
  // Adam's moments and count too: the model and its twin train alike from here
  const x = [batch(3, 6, 4), batch(2, 3, 5)];
  assert.deepEqual(model.train(x, { lr: 1e-2 }), twin.train(x, { lr: 1e-2 }));
  assert.equal(hash(model), hash(twin));
  t.diagnostic(`${fillers.length} models of 64 MiB, every other one disposed: ${(free / 2 ** 20).toFixed(0)} MiB free in pieces`);
  model.dispose();
  twin.dispose();
});

test('activations past 64 MiB are released when the call ends; smaller ones are kept', () => {
  const model = so.createModel({ vocab: 16, width: 8, heads: 1, classes: 2 });
  const small = sentences(4, 12, 16);
  model.forward(small);
  const kept = so.memoryStats().allocatedBytes;
  model.forward(small);
  assert.equal(so.memoryStats().allocatedBytes, kept, 'a repeated call allocates nothing');
  // one sentence of 4096 tokens: 64 MiB of attention weights, more with the rest
  const weights = model.attentionWeights(sentences(1, 4096, 16));
  assert.deepEqual(weights.shape, [1, 1, 4096, 4096]);
  assert.ok(so.memoryStats().allocatedBytes <= kept, 'the large activations were released');
  model.dispose();
});

test('float64 models take any finite lr; a step whose result would not be finite is refused', () => {
  const [model, twin] = twins({ vocab: 8, width: 4, heads: 1, classes: 2, dtype: 'float64' });
  const x = sentences(2, 3, 8), y = targetsFor(model, 2, 3);
  // 1e308 moves every parameter by about 1e308: still finite, so the step is taken; the next loss overflows
  model.step(x, y, { lr: 1e308 });
  const after = hash(model);
  assert.throws(() => model.step(x, y, { lr: 1e-3 }), { name: 'RangeError', message: /^the loss is NaN: a step on a loss that is not finite is refused|^lr [\d.e+]+ is refused here/ });
  assert.equal(hash(model), after);
  assert.notEqual(hash(twin), after);
  model.dispose();
  twin.dispose();
});

test('orderTask refuses a length no sentence can have, even for no sentences', () => {
  for (const count of [0, 2])
    assert.throws(() => so.orderTask({ count, length: 2 ** 53 - 1 }), {
      name: 'RangeError', message: /^one sentence of length = 9007199254740991 tokens would need more than the 1024 MiB a tensor may hold/,
    });
  assert.deepEqual(so.orderTask({ count: 0, length: 12 }).ids.shape, [0, 12]);
  assert.throws(() => so.orderTask({ count: 2 ** 20, length: 2 ** 20 }), { name: 'RangeError', message: /^ids of count \* length = 1099511627776 tokens/ });
});
