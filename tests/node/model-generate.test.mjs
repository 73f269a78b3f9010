// A next-token model's generate (a key/value cache: each id's greedy choice is forward's on the whole sequence so far,
// for every position scheme, float32 and float64; seeded draws, the same ids again), and save / loadModel: a loaded
// model has the saved one's configuration and parameters and trains on to its bits (Adam's moments and step count
// kept); damaged bytes are refused clearly, leaving nothing in the heap. The pool's loadModel, generate and save are
// one thread's. (The cache's logits equal forward's bit for bit: tests/native/test_model_generate.cpp.)
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { loadSeqorder, loadSeqorderPool } from './helpers/load.mjs';
import { parameterHash as hash } from './helpers/model-helpers.mjs';

const so = await loadSeqorder();

/** A next-token batch: ids (B, T) of a seeded cycle, targets the next id. */
function batch(vocab, k, B = 4, T = 8) {
  const seq = Int32Array.from({ length: B * (T + 1) }, (_, i) => ((i % (T + 1)) * (k + 1 + Math.floor(i / (T + 1))) + k) % vocab);
  const ids = new Int32Array(B * T), targets = new Int32Array(B * T);
  for (let b = 0; b < B; b++)
    for (let t = 0; t < T; t++) {
      ids[b * T + t] = seq[b * (T + 1) + t];
      targets[b * T + t] = seq[b * (T + 1) + t + 1];
    }
  return { ids: { data: ids, shape: [B, T] }, targets: { data: targets, shape: [B, T] } };
}

const SCHEMES = [
  { positions: 'none' }, { positions: 'sinusoidal' }, { positions: 'learned', maxLength: 16 },
  { positions: 'rotary' }, { positions: 'alibi' }, { positions: 'relative' },
];
const nextToken = (extra) => ({ vocab: 9, width: 8, heads: 2, layers: 2, causal: true, readout: 'each', classes: 9, seed: 4, ...extra });

/** argmax, the lowest index on a tie. */
function argmax(row) {
  let best = 0;
  for (let i = 1; i < row.length; i++) if (row[i] > row[best]) best = i;
  return best;
}

test('greedy generate picks, at every step, the largest of forward\'s last logits on the sequence so far', () => {
  for (const dtype of ['float32', 'float64'])
    for (const scheme of SCHEMES) {
      const model = so.createModel(nextToken({ ...scheme, dtype }));
      model.train([batch(9, 1), batch(9, 2)], { lr: 2e-2 });
      const out = model.generate([2, 5], { steps: 10, temperature: 0 });
      assert.equal(out.length, 12);
      assert.deepEqual([...out.subarray(0, 2)], [2, 5]);
      for (let t = 2; t < out.length; t++) {
        const { data } = model.forward({ data: out.slice(0, t), shape: [1, t] });
        assert.equal(out[t], argmax(data.subarray((t - 1) * 9)), `${dtype} ${scheme.positions}: step ${t}`);
      }
      assert.deepEqual(model.generate(Int32Array.of(2, 5), { steps: 10, temperature: 3, topK: 1 }), out, 'topK 1 is greedy');
      model.dispose();
    }
});

test('drawn ids come from the seeded stream: the same seed, the same ids; temperature and topK shape them', () => {
  const model = so.createModel(nextToken({ positions: 'rotary' }));
  const a = model.generate([1], { steps: 40, seed: 7 });
  assert.deepEqual(model.generate([1], { steps: 40, seed: 7 }), a);
  assert.notDeepEqual(model.generate([1], { steps: 40, seed: 8 }), a);
  assert.equal(model.generate([1], { steps: 0 }).length, 1);
  // topK 2 keeps, at each step, one of the two largest logits of the sequence so far
  const out = model.generate([1], { steps: 12, topK: 2, seed: 3, temperature: 5 });
  for (let t = 1; t < out.length; t++) {
    const row = [...model.forward({ data: out.slice(0, t), shape: [1, t] }).data.subarray((t - 1) * 9)];
    const ranked = row.map((x, i) => [x, i]).sort((p, q) => q[0] - p[0] || p[1] - q[1]);
    assert.ok([ranked[0][1], ranked[1][1]].includes(out[t]), `step ${t}`);
  }
  model.dispose();
});

test('generate refuses what it cannot do, changing nothing and keeping no memory', () => {
  const model = so.createModel(nextToken({ positions: 'learned', maxLength: 6 }));
  const before = hash(model), bytes = so.memoryStats().allocatedBytes;
  const refused = [
    [[], { steps: 1 }, RangeError, /prefix must hold at least one id/],
    [[9], { steps: 1 }, RangeError, /prefix\[0\] = 9 is outside 0 \.\. vocab - 1 = 0 \.\. 8/],
    [[1, 2], { steps: 5 }, RangeError, /the prefix and steps make 7 positions: past the learned table's maxLength rows, or the tensor limit/],
    [[1], { steps: -1 }, RangeError, /steps must be an integer at least 0, got -1/],
    [[1], { steps: 1.5 }, RangeError, /steps must be an integer/],
    [[1], {}, TypeError, /steps must be a number/],
    [[1], { steps: 1, temperature: -1 }, RangeError, /temperature must be a finite number >= 0/],
    [[1], { steps: 1, topK: 0 }, RangeError, /topK must be an integer at least 1, got 0/],
    [[1], { steps: 1, topK: 10 }, RangeError, /topK must be an integer in 1 \.\. classes = 1 \.\. 9$/],
    [[1], { steps: 1, topk: 2 }, TypeError, /topk/],
    ['12', { steps: 1 }, TypeError, /prefix must be an Int32Array or an array of ids/],
    [[0.5], { steps: 1 }, RangeError, /prefix\[0\] must be an integer id/],
    [new Float32Array(2), { steps: 1 }, TypeError, /prefix must be an Int32Array/],
  ];
  for (const [prefix, options, Class, message] of refused)
    assert.throws(() => model.generate(prefix, options), (e) => e instanceof Class && message.test(e.message), `${JSON.stringify(options)}`);
  assert.equal(hash(model), before);
  assert.equal(so.memoryStats().allocatedBytes, bytes);
  model.dispose();
  for (const options of [{ causal: false }, { readout: 'mean' }, { classes: 4 }]) {
    const m = so.createModel(nextToken(options));
    assert.throws(() => m.generate([1], { steps: 1 }),
      (e) => e instanceof RangeError && e.message === "generate needs a next-token model: causal: true, readout: 'each' and classes = vocab");
    m.dispose();
  }
});

test('a saved model, loaded, has the same configuration and parameters and trains on to the same bits', () => {
  for (const extra of [{ positions: 'learned', maxLength: 16 }, { positions: 'relative', dtype: 'float64' }, { positions: 'rotary', embedScale: 'sqrtWidth' }]) {
    const model = so.createModel(nextToken(extra));
    model.train([batch(9, 1), batch(9, 2), batch(9, 3)], { lr: 1e-2 });        // n = 3 steps
    const bytes = model.save();
    assert.ok(bytes instanceof Uint8Array);
    const loaded = so.loadModel(bytes);
    assert.deepEqual(loaded.config, model.config);
    assert.equal(hash(loaded), hash(model));
    assert.deepEqual(loaded.save(), bytes, 'saved again: the same bytes');
    for (const m of [model, loaded]) m.train([batch(9, 4), batch(9, 5)], { lr: 1e-2 });  // m = 2 more
    assert.equal(hash(loaded), hash(model), `${JSON.stringify(extra)}: n + m steps`);
    assert.deepEqual(loaded.save(), model.save(), 'Adam\'s moments and step count too');
    model.dispose();
    loaded.dispose();
  }
});

test('positionRange: a loaded model draws on as the saved one; bytes of format version 1 load with a new model\'s streams', () => {
  const model = so.createModel(nextToken({ positions: 'rotary' }));
  model.train([batch(9, 1), batch(9, 2)], { lr: 1e-2, positionRange: 40 });
  model.forward(batch(9, 3).ids, { positionRange: 40 });  // the evaluation stream drawn from too
  const bytes = model.save();
  const loaded = so.loadModel(bytes);
  for (const m of [model, loaded]) m.train([batch(9, 4), batch(9, 5)], { lr: 1e-2, positionRange: 40 });
  assert.deepEqual(loaded.forward(batch(9, 6).ids, { positionRange: 40 }), model.forward(batch(9, 6).ids, { positionRange: 40 }));
  assert.deepEqual(loaded.save(), model.save(), 'the parameters, Adam\'s state and both streams');
  // version 1: the same bytes without the two states
  const o = Math.ceil((16 + new DataView(bytes.buffer).getUint32(12, true)) / 8) * 8;
  const old = new Uint8Array(bytes.length - 16);
  old.set(bytes.subarray(0, o + 8));
  old.set(bytes.subarray(o + 24), o + 8);
  new DataView(old.buffer).setUint32(8, 1, true);
  const fresh = so.createModel(model.config);
  const streams = (m) => m.save().subarray(o + 8, o + 24);
  const older = so.loadModel(old);
  assert.deepEqual(streams(older), streams(fresh));
  assert.deepEqual(older.save().subarray(o + 24), bytes.subarray(o + 24), 'the parameters and Adam\'s state');
  for (const m of [model, loaded, fresh, older]) m.dispose();
});

test('bytes that are not a whole saved model are refused clearly, and nothing is kept', () => {
  const model = so.createModel(nextToken({ positions: 'sinusoidal' }));
  model.step(batch(9, 1).ids, batch(9, 1).targets, { lr: 1e-2 });
  const good = model.save();
  model.dispose();
  const heap = so.memoryStats().allocatedBytes;
  const edited = (edit) => {
    const b = good.slice();
    edit(b, new DataView(b.buffer));
    return b;
  };
  const jsonEnd = 16 + new DataView(good.buffer).getUint32(12, true);
  const payload = Math.ceil(jsonEnd / 8) * 8 + 24;  // after the step count and the two stream states
  const json = new TextDecoder().decode(good.subarray(16, jsonEnd));
  const withJson = (text) => edited((b) => b.set(new TextEncoder().encode(text), 16));
  const cases = [
    [good.buffer, TypeError, /bytes must be a Uint8Array/],
    [[...good], TypeError, /bytes must be a Uint8Array/],
    [new Uint8Array(0), RangeError, /not a saved seqorder model: they must begin with 'SEQORDER'/],
    [edited((b) => { b[0] = 0x73; }), RangeError, /not a saved seqorder model/],
    [good.subarray(0, 12), RangeError, /fewer than a saved model's 16-byte header: they were cut short/],
    [good.subarray(0, 40), RangeError, /cut short/],
    [good.subarray(0, good.length - 4), RangeError, /cut short or damaged/],
    [good.subarray(0, good.length - 12), RangeError, /parameters, m and v must each hold the \d+ float32 values of the saved configuration \(bytes cut short or damaged\?\)/],
    [edited((b, v) => v.setUint32(8, 3, true)), RangeError, /format version 3; this seqorder reads versions 1 and 2: update seqorder/],
    [withJson(json.replace('"heads":2', '"heads":3')), RangeError, /heads/],
    [withJson(json.replace('"width":8', '"width":x')), RangeError, /not JSON/],
    [edited((b, v) => v.setFloat32(payload + 4 * 5, NaN, true)), RangeError, /every parameter and Adam's moments must be finite, and the second moment >= 0/],
    [edited((b, v) => v.setFloat32(b.length - 4, -1, true)), RangeError, /every parameter and Adam's moments must be finite, and the second moment >= 0/],
    [edited((b, v) => v.setFloat64(payload - 24, 0.5, true)), RangeError, /Adam's saved step count must be an integer/],
  ];
  for (const [bytes, Class, message] of cases)
    assert.throws(() => so.loadModel(bytes), (e) => e instanceof Class && message.test(e.message), String(message));
  assert.equal(so.memoryStats().allocatedBytes, heap, 'no model, no block kept');
});

let pool;
after(() => pool?.close());

test('the pool loads, saves and generates as one thread', async () => {
  pool = await loadSeqorderPool({ workers: 1 });
  const model = so.createModel(nextToken({ positions: 'alibi' }));
  model.step(batch(9, 1).ids, batch(9, 1).targets, { lr: 1e-2 });
  const remote = await pool.loadModel(model.save());
  assert.deepEqual(remote.config, model.config);
  assert.deepEqual(await remote.save(), model.save());
  assert.deepEqual(await remote.generate([1, 2], { steps: 9, seed: 5 }), model.generate([1, 2], { steps: 9, seed: 5 }));
  await assert.rejects(pool.loadModel(new Uint8Array(3)), (e) => e instanceof RangeError && /not a saved seqorder model/.test(e.message));
  await assert.rejects(remote.generate([1], {}), (e) => e instanceof TypeError && /steps must be a number/.test(e.message));
  await remote.dispose();
  model.dispose();
});
