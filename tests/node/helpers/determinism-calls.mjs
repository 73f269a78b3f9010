// A fixed set of API calls whose outputs must be bit-identical wherever the module runs, and short seeded training
// runs of the model whose parameters must be: node here (determinism.test.mjs) and Chromium (tests/browser/
// determinism.test.mjs, which loads this very file into the page, and the training runs into a Web Worker).
// Self-contained on purpose: no imports, only the API object and the Web Crypto digest that node 20 and browsers share.
// Inputs come from an integer generator, so they are the same bits on every engine; no call produces a NaN (whose
// payload an engine could canonicalize).

/** A seeded LCG in 32-bit integers; values k / 2^31 - 1 in [-1, 1), exact in float64 and rounded once in float32. */
function tensor(shape, dtype, seed) {
  const count = shape.reduce((a, b) => a * b, 1);
  const data = new (dtype === 'float32' ? Float32Array : Float64Array)(count);
  let state = seed >>> 0;
  for (let n = 0; n < count; n++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    data[n] = state / 2 ** 31 - 1;
  }
  return { data, shape, dtype };
}

/** The calls: [name, so => result (a tensor or the four steps)]. Sizes cover the fast paths' blocks and tails. */
export const CALLS = [
  ['positions 300x64', (so) => so.positions(300, 64)],
  ['positions 64x512 start 1e6 float32', (so) => so.positions(64, 512, { start: 1e6, dtype: 'float32' })],
  ['positions 33x1024 start 2^40 halves', (so) => so.positions(33, 1024, { start: 2 ** 40, layout: 'halves' })],
  ['positions 517x6 base 100 start 9 float32 halves', (so) => so.positions(517, 6, { base: 100, start: 9, dtype: 'float32', layout: 'halves' })],
  ['embed (2, 30) from (50, 64) float64', (so) => so.embed(tensor([50, 64], 'float64', 1), { data: Int32Array.from({ length: 60 }, (_, n) => (n * 17) % 50), shape: [2, 30] })],
  ['embed (45) from (7, 10) float32', (so) => so.embed(tensor([7, 10], 'float32', 2), { data: Int32Array.from({ length: 45 }, (_, n) => (n * 3) % 7), shape: [45] })],
  ['addPositions (2, 40, 64) float32 start 7', (so) => so.addPositions(tensor([2, 40, 64], 'float32', 3), { start: 7 })],
  ['addPositions (300, 18) float64 start 123456 base 500', (so) => so.addPositions(tensor([300, 18], 'float64', 4), { start: 123456, base: 500 })],
  ['learnedPositions 20 of (64, 16) start 30', (so) => so.learnedPositions(tensor([64, 16], 'float64', 5), 20, { start: 30 })],
  ['rope (2, 40, 64) float64 start 1000 base 500', (so) => so.rope(tensor([2, 40, 64], 'float64', 6), { start: 1000, base: 500 })],
  ['rope (300, 32) float32 start 1e6', (so) => so.rope(tensor([300, 32], 'float32', 7), { start: 1e6 })],
  ['attention steps float64 causal queryStart 1', (so) => so.attention(tensor([2, 7, 16], 'float64', 8), tensor([2, 9, 16], 'float64', 9), tensor([2, 9, 8], 'float64', 10), { causal: true, queryStart: 1, steps: true })],
  ['attention float64 (3, 20, 12)', (so) => so.attention(tensor([3, 20, 12], 'float64', 11), tensor([3, 25, 12], 'float64', 12), tensor([3, 25, 5], 'float64', 13))],
  ['attention steps float32 causal', (so) => so.attention(tensor([2, 6, 8], 'float32', 14), tensor([2, 10, 8], 'float32', 15), tensor([2, 10, 3], 'float32', 16), { causal: true, steps: true })],
  ['attention float32 fused causal (3, 37, 24)', (so) => so.attention(tensor([3, 37, 24], 'float32', 17), tensor([3, 50, 24], 'float32', 18), tensor([3, 50, 20], 'float32', 19), { causal: true })],
  ['attention float32 fused (1, 64, 64)', (so) => so.attention(tensor([64, 64], 'float32', 20), tensor([64, 64], 'float32', 21), tensor([64, 64], 'float32', 22))],
  ['matmul float64 (2, 1, 7, 33) @ (3, 33, 17)', (so) => so.matmul(tensor([2, 1, 7, 33], 'float64', 23), tensor([3, 33, 17], 'float64', 24))],
  ['matmul float32 (2, 40, 64) @ (64, 48)', (so) => so.matmul(tensor([2, 40, 64], 'float32', 25), tensor([64, 48], 'float32', 26))],
  ['softmax float64 causal queryStart 2 (2, 5, 9), scaled by 8', (so) => {
    const x = tensor([2, 5, 9], 'float64', 27);
    return so.softmax({ ...x, data: x.data.map((value) => 8 * value) }, { causal: true, queryStart: 2 });
  }],
  ['softmax float32 (6, 37)', (so) => so.softmax(tensor([6, 37], 'float32', 28))],
  ['splitHeads float32 (2, 9, 24) into 3', (so) => so.splitHeads(tensor([2, 9, 24], 'float32', 29), 3)],
  ['mergeHeads float64 (2, 4, 5, 6)', (so) => so.mergeHeads(tensor([2, 4, 5, 6], 'float64', 30))],
];

/** SHA-256 (hex) of a tensor: its dtype, its shape and the bytes of its data. */
async function digest(t) {
  const header = new TextEncoder().encode(`${t.dtype} ${JSON.stringify(t.shape)}\n`);
  const bytes = new Uint8Array(header.length + t.data.byteLength);
  bytes.set(header);
  bytes.set(new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength), header.length);
  const hash = new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', bytes));
  return Array.from(hash, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Runs every call on the API `so` and returns { name: sha256 } (the steps of attention each under their own name). */
export async function determinismHashes(so) {
  const hashes = {};
  for (const [name, call] of CALLS) {
    const result = call(so);
    if (result.data) hashes[name] = await digest(result);
    else for (const step of ['scores', 'scaled', 'weights', 'output']) hashes[`${name}: ${step}`] = await digest(result[step]);
  }
  return hashes;
}

/** Short seeded training runs on the order task (and one on the induction task), each returning its model's parameters (all of them, in order, as
 * one flat tensor) and disposing the model: [name, dtype, so => tensor]. */
export const MODEL_RUNS = [
  ['the lab model (V 16, D 32, H 2, sinusoidal), float32, 20 Adam steps', 'float32',
    (so) => train(so, { vocab: 16, width: 32, heads: 2, classes: 2, seed: 1 }, { steps: 20, count: 32, length: 12 })],
  ['learned positions, 2 layers, causal, readout each, float32, 10 steps', 'float32',
    (so) => train(so, { vocab: 16, width: 16, heads: 4, layers: 2, positions: 'learned', maxLength: 9, causal: true, readout: 'each', classes: 2, seed: 2 }, { steps: 10, count: 8, length: 9 })],
  ['rotary positions, float64, 10 steps', 'float64',
    (so) => train(so, { vocab: 16, width: 16, heads: 2, positions: 'rotary', classes: 2, dtype: 'float64', seed: 3 }, { steps: 10, count: 8, length: 7 })],
  ['the induction task: 2 layers, causal, rotary, readout each, float32, 10 steps', 'float32',
    (so) => train(so, { vocab: 16, width: 16, heads: 2, layers: 2, positions: 'rotary', causal: true, readout: 'each', classes: 16, seed: 4 }, { steps: 10, count: 8, length: 24, task: 'induction' })],
  ['ALiBi: the induction task, 2 layers, causal, 3 heads, float32, 10 steps', 'float32',
    (so) => train(so, { vocab: 16, width: 24, heads: 3, layers: 2, positions: 'alibi', causal: true, readout: 'each', classes: 16, seed: 5 }, { steps: 10, count: 8, length: 24, task: 'induction' })],
  ['relative bias (8 buckets, maxDistance 6), 2 layers, float32, 10 steps', 'float32',
    (so) => train(so, { vocab: 16, width: 16, heads: 2, layers: 2, positions: 'relative', buckets: 8, maxDistance: 6, classes: 2, seed: 6 }, { steps: 10, count: 8, length: 12 })],
  ['rotary, base 500, 2 of 4 pairs, float32, 10 steps', 'float32',
    (so) => train(so, { vocab: 16, width: 16, heads: 2, positions: 'rotary', rotaryBase: 500, rotaryPairs: 2, classes: 2, seed: 7 }, { steps: 10, count: 8, length: 12 })],
  ['positionIds: sinusoidal, float32, 6 steps', 'float32',
    (so) => train(so, { vocab: 16, width: 16, heads: 2, classes: 2, seed: 8 }, { steps: 6, count: 8, length: 12, spread: true })],
  ['positionIds: rotary, 2 of 4 pairs, causal, float32, 6 steps', 'float32',
    (so) => train(so, { vocab: 16, width: 16, heads: 2, positions: 'rotary', rotaryPairs: 2, causal: true, classes: 2, seed: 9 }, { steps: 6, count: 8, length: 12, spread: true })],
  ['positionIds: ALiBi, causal, 3 heads, float32, 6 steps', 'float32',
    (so) => train(so, { vocab: 16, width: 24, heads: 3, positions: 'alibi', causal: true, classes: 2, seed: 10 }, { steps: 6, count: 8, length: 12, spread: true })],
  ['positionIds: relative bias (8 buckets, maxDistance 6), float32, 6 steps', 'float32',
    (so) => train(so, { vocab: 16, width: 16, heads: 2, positions: 'relative', buckets: 8, maxDistance: 6, classes: 2, seed: 11 }, { steps: 6, count: 8, length: 12, spread: true })],
  ["ropeScaling: rotary, 'yarn' (factor 4, originalLength 6), causal, float32, 6 steps", 'float32',
    (so) => train(so, { vocab: 16, width: 32, heads: 2, positions: 'rotary', causal: true, classes: 2, seed: 12 }, { steps: 6, count: 8, length: 12, ropeScaling: { method: 'yarn', factor: 4, originalLength: 6 } })],
  ["ropeScaling: rotary, 'ntk' (factor 3) at positions given, 3 of 4 pairs, float32, 6 steps", 'float32',
    (so) => train(so, { vocab: 16, width: 16, heads: 2, positions: 'rotary', rotaryPairs: 3, classes: 2, seed: 13 }, { steps: 6, count: 8, length: 12, spread: true, ropeScaling: { method: 'ntk', factor: 3 } })],
  ['positionRange 64: rotary, causal, float32, 6 steps', 'float32',
    (so) => train(so, { vocab: 16, width: 16, heads: 2, positions: 'rotary', causal: true, classes: 2, seed: 14 }, { steps: 6, count: 8, length: 12, positionRange: 64 })],
  ['positionRange 40: learned (maxLength 40), float32, 6 steps', 'float32',
    (so) => train(so, { vocab: 16, width: 16, heads: 2, positions: 'learned', maxLength: 40, classes: 2, seed: 15 }, { steps: 6, count: 8, length: 12, positionRange: 40 })],
];

// SHA-256 of each training run's parameters (MODEL_RUNS), from the default (SIMD128) module.
// The same in every engine and on every machine: a change here is a change of the model's arithmetic (or of its
// initialization, or the tasks' sentences), to be explained, not a number to update.
export const MODEL_HASHES = {
  'the lab model (V 16, D 32, H 2, sinusoidal), float32, 20 Adam steps': '98adc66adec9424ea37e0b6b9933403006d4706565262f68254c67a87d1be524',
  'learned positions, 2 layers, causal, readout each, float32, 10 steps': '804dfd515f78f3e5f2b8ea141aada889335c0ec59b0029232d3f430b0df032ca',
  'rotary positions, float64, 10 steps': 'f2fbabe4225975670902800d99134a02737d1a79fdc1f8bd6664403de2e38342',
  'the induction task: 2 layers, causal, rotary, readout each, float32, 10 steps': 'ed86834309e4091a41b60c17dea4e38fdb1ef025cf29a802331a46f8473387f7',
  'ALiBi: the induction task, 2 layers, causal, 3 heads, float32, 10 steps': '6e33fcdadc732ac053c0241e66f18192b7c701359a097edebdef0f091f8d3564',
  'relative bias (8 buckets, maxDistance 6), 2 layers, float32, 10 steps': 'e574b6db722002af6cedca4e3288466c935e935abbeabc80cac0d492db9449ee',
  'rotary, base 500, 2 of 4 pairs, float32, 10 steps': '1b55a4d45625106d04125481c6293543f1265f3ec167ae5afd3a08679953ff82',
  'positionIds: sinusoidal, float32, 6 steps': 'cf89450fda5e15878ae0d2f745d6bd74cdc86835bf4807848abbff11571077f8',
  'positionIds: rotary, 2 of 4 pairs, causal, float32, 6 steps': '868af435fa8793b16787fb34baac83ac42b9e7a3e52bd55ea3cd8cdc6ffc059b',
  'positionIds: ALiBi, causal, 3 heads, float32, 6 steps': '9121b516f8ccf8950852938de56dac2c029915c890a0df43567d7aa39fb837bc',
  'positionIds: relative bias (8 buckets, maxDistance 6), float32, 6 steps': '88f35dbac47020c71dd8ece3d033231f1dee43e58f43ad32fccc2a09fd077dd3',
  "ropeScaling: rotary, 'yarn' (factor 4, originalLength 6), causal, float32, 6 steps": '40ab340064bf134866782ac81fe3f6277eeb536e8704c5f417f2820ab9f203db',
  "ropeScaling: rotary, 'ntk' (factor 3) at positions given, 3 of 4 pairs, float32, 6 steps": '07d91b0f4d9040d6f669b973af7c2eb995c57f41a695fa126fab68baccfd0fa9',
  'positionRange 64: rotary, causal, float32, 6 steps': '97c52e2f298f0fa325296a1716cf5b1d3ed5915c4825372d88bb0f60f5238d6b',
  'positionRange 40: learned (maxLength 40), float32, 6 steps': '817e8c7c1fc9a6e4296a674cb4d9b4fe601308debd4fd10a619035b015490207',
};

/** positionIds (count, length) of step k: row b at t · (1 + (b + k) mod 3) + b mod 2, increasing, apart and shifted. */
function spreadPositions(count, length, k) {
  const data = Int32Array.from({ length: count * length }, (_, i) => {
    const b = Math.floor(i / length), t = i % length;
    return t * (1 + ((b + k) % 3)) + (b % 2);
  });
  return { data, shape: [count, length] };
}

/** Trains a new model of `config` for `steps` Adam steps (lr 3e-3) on orderTask batches (inductionTask's with `task:
 * 'induction'; spread: at spreadPositions' positionIds; ropeScaling: with that stretch; positionRange: at positions
 * drawn, and after each step a loss at positions drawn from the evaluation stream); its parameters as one tensor. */
function train(so, config, { steps, count, length, task = 'order', spread = false, ropeScaling = undefined, positionRange = undefined }) {
  const model = so.createModel(config);
  for (let k = 0; k < steps; k++) {
    if (task === 'induction') {
      const { ids, targets } = so.inductionTask({ count, length, seed: 100 + k });
      model.step(ids, targets, { lr: 3e-3 });
      continue;
    }
    const { ids, targets } = so.orderTask({ count, length, seed: 100 + k });
    // readout 'each': the sentence's target at its last position, the others ignored (-1)
    const each = { data: Int32Array.from({ length: count * length }, (_, i) => (i % length === length - 1 ? targets.data[Math.floor(i / length)] : -1)), shape: [count, length] };
    model.step(ids, config.readout === 'each' ? each : targets, { lr: 3e-3, ropeScaling, positionRange, ...(spread ? { positionIds: spreadPositions(count, length, k) } : {}) });
    if (positionRange !== undefined) model.loss(ids, targets, { positionRange });
  }
  const parameters = Object.values(model.parameters());
  model.dispose();
  const data = new (config.dtype === 'float64' ? Float64Array : Float32Array)(parameters.reduce((n, p) => n + p.data.length, 0));
  let at = 0;
  for (const p of parameters) {
    data.set(p.data, at);
    at += p.data.length;
  }
  return { data, shape: [data.length], dtype: config.dtype ?? 'float32' };
}

/** Runs every training run on the API `so` and returns { name: sha256 of its parameters }. */
export async function modelHashes(so) {
  const hashes = {};
  for (const [name, , run] of MODEL_RUNS) hashes[name] = await digest(run(so));
  return hashes;
}
