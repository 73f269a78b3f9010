// Every rule of the model's API: createModel's options, the inputs of forward, loss, gradients, step and
// attentionWeights (positionIds, ropeScaling and positionRange too), setParameters' tensors, orderTask's and lookbackTask's options. A wrong kind of argument is a TypeError, a wrong
// value (or shape, or size) a RangeError, and the message names the argument. After every error the module still
// works, the model is unchanged, and the heap holds what it held before.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { loadSeqorder } from './helpers/load.mjs';
import { badNumbers, badOptions, badTensors, expectError } from './helpers/bad-arguments.mjs';
import { ids as idsOf } from './helpers/model-helpers.mjs';

const so = await loadSeqorder();
const expectedCanary = so.positions(3, 4, { start: 2 }).data.slice();

const OPTIONS = ['vocab', 'width', 'heads', 'layers', 'positions', 'maxLength', 'causal', 'readout', 'classes', 'dtype', 'seed', 'embedScale',
  'rotaryBase', 'rotaryPairs', 'buckets', 'maxDistance'];
const VALID = { vocab: 7, width: 8, heads: 2, classes: 3 };

// The models the calls are made on, each run once on inputs of the shapes below (a model keeps its scratch buffers
// between calls, so the heap's baseline is taken after these).
const mean = so.createModel({ ...VALID, positions: 'learned', maxLength: 6 });
const each = so.createModel({ ...VALID, readout: 'each', causal: true, dtype: 'float64' });
const spin = so.createModel({ ...VALID, positions: 'rotary' });  // (a stretch runs the turns per token: their buffers)
const ids = idsOf([[0, 6, 2, 3], [1, 1, 5, 4]]);
const targets = idsOf([2, 0]);
const eachTargets = idsOf([[0, 1, 2, -1], [2, 2, 1, 0]]);
for (const model of [mean, each]) {
  const t = model === mean ? targets : eachTargets;
  model.forward(ids);
  model.gradients(ids, t);
  model.step(ids, t, { lr: 0 });
  model.attentionWeights(idsOf([[1, 2, 3, 4]]));
}
spin.step(ids, targets, { lr: 0, ropeScaling: { method: 'linear', factor: 2 } });
spin.attentionWeights(idsOf([[1, 2, 3, 4]]), { ropeScaling: { method: 'linear', factor: 2 } });

// Every case: [function, what is wrong, call, error class, message pattern].
const cases = [];
const add = (fn, label, call, Class, message) => cases.push({ fn, label, call, Class, message });

// ---- createModel(options) ----
const create = (options) => () => so.createModel(options).dispose();
for (const [label, options, Class, message] of badOptions(OPTIONS).filter(([l]) => l !== 'a differently-cased option'))
  add('createModel', `options ${label}`, create(options), Class, message);
add('createModel', 'no options', () => so.createModel(), TypeError, /^vocab must be a number, got undefined/);
add('createModel', 'a differently-cased option', create({ ...VALID, MaxLength: 3 }), TypeError, /^options: unknown option 'MaxLength'/);
add('createModel', 'options a class instance', create(new (class Options { constructor() { Object.assign(this, VALID); } })()), TypeError, /^options must be a plain object/);

/** The wrong kinds and the non-integers of a number option (badNumbers but for negatives: each option's range is below). */
const badIntegers = (name, required) => badNumbers(name).filter(([label]) => label !== 'negative' && (required || label !== 'missing'));
const SCHEME_OF = { maxLength: 'learned', rotaryPairs: 'rotary', buckets: 'relative', maxDistance: 'relative' };
for (const name of ['vocab', 'width', 'classes', 'heads', 'layers', 'maxLength', 'seed', 'rotaryPairs', 'buckets', 'maxDistance']) {
  const valid = SCHEME_OF[name] ? { ...VALID, positions: SCHEME_OF[name] } : VALID;
  for (const [label, value, Class, message] of badIntegers(name, ['vocab', 'width', 'classes'].includes(name)))
    add('createModel', `${name} ${label}`, create({ ...valid, [name]: value }), Class,
      name === 'seed' && Class === RangeError ? /^seed must be an integer in 0 \.\. 2\^53, got / : message);
}
const range = [
  ['vocab 0', { vocab: 0 }, /^vocab must be an integer in 1 \.\. 2\^31 - 1 \(token ids are int32\), got 0/],
  ['vocab -3', { vocab: -3 }, /^vocab must be an integer in 1 \.\. 2\^31 - 1 .*got -3/],
  ['vocab 2^31', { vocab: 2 ** 31 }, /^vocab must be an integer in 1 \.\. 2\^31 - 1 .*got 2147483648/],
  ['width 0', { width: 0 }, /^width must be a positive integer, got 0/],
  ['width -8', { width: -8 }, /^width must be a positive integer, got -8/],
  ['heads 0', { heads: 0 }, /^heads must be a positive integer, got 0/],
  ['heads not dividing width', { heads: 3 }, /^heads must divide width \(each head is width \/ heads wide\), got width 8 and heads 3/],
  ['heads past width', { heads: 16 }, /^heads must divide width/],
  ['layers 0', { layers: 0 }, /^layers must be an integer in 1 \.\. 4, got 0/],
  ['layers 5', { layers: 5 }, /^layers must be an integer in 1 \.\. 4, got 5/],
  ['classes 0', { classes: 0 }, /^classes must be an integer in 1 \.\. 2\^31 - 1 \(targets are int32\), got 0/],
  ['seed -1', { seed: -1 }, /^seed must be an integer in 0 \.\. 2\^53, got -1/],
  ['seed past 2^53', { seed: 2 ** 53 + 2 }, /^seed must be an integer in 0 \.\. 2\^53, got 9007199254740994/],
  ['an unknown positions', { positions: 'absolute' }, /^positions must be 'none', 'sinusoidal', 'learned', 'rotary', 'alibi' or 'relative', got 'absolute'/],
  ['positions in capitals', { positions: 'Sinusoidal' }, /^positions must be 'none'/],
  ['learned positions without maxLength', { positions: 'learned' }, /^maxLength is required with positions: 'learned' \(it is the number of rows of the learned table\)/],
  ['maxLength without learned positions', { maxLength: 4 }, /^maxLength applies only to positions: 'learned' \(the rows of its table\); positions is 'sinusoidal'/],
  ['maxLength 0', { positions: 'learned', maxLength: 0 }, /^maxLength must be a positive integer, got 0/],
  ['an odd width with sinusoidal positions', { width: 5, heads: 1, positions: 'sinusoidal' }, /^width must be even with positions: 'sinusoidal' \(the table pairs a sine with a cosine\), got 5/],
  ['an odd head width with rotary positions', { width: 6, heads: 2, positions: 'rotary' }, /^width \/ heads must be even with positions: 'rotary' \(each head rotates coordinate pairs\), got width 6 and heads 2/],
  ['rotaryBase 1', { positions: 'rotary', rotaryBase: 1 }, /^rotaryBase must be a finite number greater than 1 \(the frequencies are rotaryBase\^\(-2i\/d\)\), got 1$/],
  ['rotaryBase Infinity', { positions: 'rotary', rotaryBase: Infinity }, /^rotaryBase must be a finite number greater than 1 .*got Infinity$/],
  ['rotaryBase NaN', { positions: 'rotary', rotaryBase: NaN }, /^rotaryBase must be a finite number greater than 1 .*got NaN$/],
  ['rotaryPairs above the head\'s pairs', { positions: 'rotary', rotaryPairs: 3 }, /^rotaryPairs must be an integer in 1 \.\. 2 \(the pairs of a head of width 4\), got 3$/],
  ['rotaryPairs 0', { positions: 'rotary', rotaryPairs: 0 }, /^rotaryPairs must be an integer in 1 \.\. 2/],
  ['rotaryBase without rotary positions', { rotaryBase: 500 }, /^rotaryBase applies only to positions: 'rotary'; positions is 'sinusoidal'$/],
  ['rotaryPairs without rotary positions', { positions: 'alibi', rotaryPairs: 1 }, /^rotaryPairs applies only to positions: 'rotary'; positions is 'alibi'$/],
  ['buckets odd without a causal mask', { positions: 'relative', buckets: 9 }, /^buckets must be an even integer >= 4 without a causal mask \(half the buckets for each direction\), got 9$/],
  ['buckets 1, causal', { positions: 'relative', causal: true, buckets: 1 }, /^buckets must be an integer >= 2, got 1$/],
  ['maxDistance within the exact buckets', { positions: 'relative', maxDistance: 8 }, /^maxDistance must be an integer greater than 8 \(the exact buckets of a direction: .*got 8$/],
  ['buckets without relative positions', { positions: 'rotary', buckets: 8 }, /^buckets applies only to positions: 'relative'; positions is 'rotary'$/],
  ['maxDistance without relative positions', { maxDistance: 8 }, /^maxDistance applies only to positions: 'relative'; positions is 'sinusoidal'$/],
  ['an unknown readout', { readout: 'last' }, /^readout must be 'mean' \(one prediction per sequence\) or 'each' \(one per position\), got 'last'/],
  ['dtype int32', { dtype: 'int32' }, /^dtype must be 'float32' or 'float64', got 'int32'/],
  ['dtype float16', { dtype: 'float16' }, /^dtype must be 'float32' or 'float64', got 'float16'/],
  ['a model past the tensor limit', { vocab: 2 ** 31 - 1, width: 1024 }, /^vocab, width, layers, maxLength and classes make a model of \d+ parameters: at most 67108864 fit in the 1024 MiB a model may hold \(four 4-byte values per parameter: its value, its gradient and Adam's two moments\)/],
  // the parameters alone (512 MiB) are within the limit, the four values per parameter are not
  ['a model whose gradients and moments pass the limit', { vocab: 2 ** 25, width: 4, heads: 1 }, /^vocab, width, layers, maxLength and classes make a model of 134217979 parameters: at most 67108864 fit/],
  ['a float64 model past the tensor limit', { vocab: 2 ** 20, width: 1024, dtype: 'float64' }, /^vocab, width, .* at most 33554432 fit .*\(four 8-byte values per parameter/],
  ['a width whose parameter count passes 2^63', { width: 2 ** 52 }, /^vocab, width, layers, maxLength and classes make a model of more than 2\^63 parameters/],
];
for (const [label, options, message] of range) add('createModel', label, create({ ...VALID, ...options }), RangeError, message);
// a NUL inside a name: the whole message arrives, the NUL written as \u0000 (a C string would end at it)
const nul = [
  ['positions', 'sinu\0soidal', /^positions must be 'none', 'sinusoidal', 'learned', 'rotary', 'alibi' or 'relative', got 'sinu\\u0000soidal'$/],
  ['positions', 'rotary\0', /^positions must be 'none', 'sinusoidal', 'learned', 'rotary', 'alibi' or 'relative', got 'rotary\\u0000'$/],
  ['readout', 'me\0an', /^readout must be 'mean' \(one prediction per sequence\) or 'each' \(one per position\), got 'me\\u0000an'$/],
  ['dtype', 'float32\0', /^dtype must be 'float32' or 'float64', got 'float32\\u0000'$/],
  ['dtype', '\0float64', /^dtype must be 'float32' or 'float64', got '\\u0000float64'$/],
  ['embedScale', 'sqrt\0Width', /^embedScale must be a positive finite number or 'sqrtWidth', got 'sqrt\\u0000Width'$/],
];
for (const [name, value, message] of nul)
  add('createModel', `${name} with a NUL inside`, create({ ...VALID, [name]: value }), RangeError, message);
for (const value of ['10000', null, 10000n])
  add('createModel', `rotaryBase ${typeof value}`, create({ ...VALID, positions: 'rotary', rotaryBase: value }), TypeError, /^rotaryBase must be a number/);
for (const [name, value] of [['positions', 1], ['positions', null], ['readout', ['mean']], ['dtype', Float32Array]])
  add('createModel', `${name} ${String(value)}`, create({ ...VALID, [name]: value }), TypeError, new RegExp(`^${name} must be a string`));
for (const value of [1, 'true', null])
  add('createModel', `causal ${String(value)}`, create({ ...VALID, causal: value }), TypeError, /^causal must be true or false/);

// ---- forward(ids), loss(ids, targets), gradients(ids, targets), step(ids, targets, options), attentionWeights(ids) ----
const METHODS = {
  forward: (model, i) => model.forward(i),
  loss: (model, i, t) => model.loss(i, t),
  gradients: (model, i, t) => model.gradients(i, t),
  step: (model, i, t, o) => model.step(i, t, o),
};
for (const [fn, call] of Object.entries(METHODS)) {
  for (const [label, value, Class, message] of badTensors('ids', ids, { dtypes: ['int32'], ranks: [2], rankRule: '(B, T)' }))
    add(fn, `ids ${label}`, () => call(mean, value, targets), Class, message);
  add(fn, 'an id past the vocabulary', () => call(mean, idsOf([[0, 1, 7, 2]]), idsOf([0])), RangeError, /^ids\[0, 2\] = 7 is outside 0 \.\. vocab - 1 = 0 \.\. 6/);
  add(fn, 'a negative id', () => call(each, idsOf([[0, 1], [2, -1]]), idsOf([[0, 0], [0, 0]])), RangeError, /^ids\[1, 1\] = -1 is outside 0 \.\. vocab - 1 = 0 \.\. 6/);
  add(fn, 'the int32 minimum id', () => call(mean, idsOf([[-(2 ** 31)]]), idsOf([0])), RangeError, /^ids\[0, 0\] = -2147483648 is outside/);
  add(fn, 'no sentences', () => call(mean, { data: new Int32Array(0), shape: [0, 4] }, idsOf([])), RangeError, /^ids must have shape \(B, T\) with B >= 1 and T >= 1, got \[0, 4\]/);
  add(fn, 'no tokens', () => call(each, { data: new Int32Array(0), shape: [2, 0] }, { data: new Int32Array(0), shape: [2, 0] }), RangeError, /^ids must have shape \(B, T\) with B >= 1 and T >= 1, got \[2, 0\]/);
  add(fn, 'T past maxLength (learned)', () => call(mean, idsOf([[0, 1, 2, 3, 4, 5, 6]]), idsOf([1])), RangeError, /^ids have T = 7 positions, but the learned table has 6 rows \(maxLength\)/);
  add(fn, 'activations past the tensor limit', () => call(each, { data: new Int32Array(2 ** 16), shape: [1, 2 ** 16] }, { data: new Int32Array(2 ** 16), shape: [1, 2 ** 16] }),
    RangeError, /^ids of shape \(B, T\) = \[1, 65536\] need more activations than the 1024 MiB a tensor may hold/);
  add(fn, 'a shape past 2^53', () => call(mean, { data: new Int32Array(4), shape: [2 ** 53, 4] }, targets), RangeError, /^ids\.shape\[0\] must be a non-negative integer at most 2\^53 - 1, got 9007199254740992/);
  if (fn === 'forward') continue;
  for (const [label, value, Class, message] of badTensors('targets', targets, { dtypes: ['int32'], ranks: [1], rankRule: /^targets must have shape \(B\) = \[2\] for readout 'mean' \(one target per sequence\), got \[/ }))
    add(fn, `targets ${label}`, () => call(mean, ids, value), Class, message);
  add(fn, 'targets (B, T) for readout mean', () => call(mean, ids, eachTargets), RangeError, /^targets must have shape \(B\) = \[2\] for readout 'mean' \(one target per sequence\), got \[2, 4\]/);
  add(fn, 'targets (B) for readout each', () => call(each, ids, targets), RangeError, /^targets must have shape \(B, T\) = \[2, 4\] for readout 'each' \(one target per position\), got \[2\]/);
  add(fn, 'targets of another batch', () => call(mean, ids, idsOf([0, 1, 2])), RangeError, /^targets must have shape \(B\) = \[2\]/);
  add(fn, 'a target past the classes', () => call(mean, ids, idsOf([0, 3])), RangeError, /^targets\[1\] = 3 is outside -1 \.\. classes - 1 = -1 \.\. 2 \(-1 ignores a target\)/);
  add(fn, 'a target below -1', () => call(each, ids, idsOf([[0, 1, 2, 0], [1, 1, -2, 0]])), RangeError, /^targets\[1, 2\] = -2 is outside -1 \.\. classes - 1 = -1 \.\. 2/);
  add(fn, 'a bad id and a bad target: the id first', () => call(mean, idsOf([[9, 0, 0, 0], [0, 0, 0, 0]]), idsOf([5, 5])), RangeError, /^ids\[0, 0\] = 9/);
}
for (const [label, options, Class, message] of badOptions(['lr', 'positionIds', 'ropeScaling', 'positionRange']))
  add('step', `options ${label}`, () => mean.step(ids, targets, options), Class, message);
for (const [label, value, Class, message] of badNumbers('lr', { integer: false }).filter(([l]) => !['missing', 'zero', '-0'].includes(l)))
  add('step', `lr ${label}`, () => mean.step(ids, targets, { lr: value }), Class, message);
add('step', 'lr negative', () => mean.step(ids, targets, { lr: -1e-3 }), RangeError, /^lr must be a finite number >= 0, got -0\.001/);
add('step', 'lr NaN', () => mean.step(ids, targets, { lr: NaN }), RangeError, /^lr must be a finite number >= 0, got NaN/);

const one = idsOf([[1, 2, 3]]);
for (const [label, value, Class, message] of badTensors('ids', one, { dtypes: ['int32'], ranks: [1, 2], rankRule: /^ids must have shape \(1, T\) or \(T\): one sequence, got \[/ }))
  add('attentionWeights', `ids ${label}`, () => mean.attentionWeights(value), Class, message);
add('attentionWeights', 'two sentences', () => mean.attentionWeights(ids), RangeError, /^ids must have shape \(1, T\) or \(T\): one sequence, got \[2, 4\]/);
add('attentionWeights', 'no tokens', () => mean.attentionWeights({ data: new Int32Array(0), shape: [0] }), RangeError, /^ids must have shape \(B, T\) with B >= 1 and T >= 1, got \[1, 0\]/);
add('attentionWeights', 'T past maxLength (learned)', () => mean.attentionWeights(idsOf([0, 1, 2, 3, 4, 5, 6])), RangeError, /^ids have T = 7 positions, but the learned table has 6 rows/);
add('attentionWeights', 'an id past the vocabulary', () => each.attentionWeights(idsOf([0, 7])), RangeError, /^ids\[0, 1\] = 7 is outside 0 \.\. vocab - 1 = 0 \.\. 6/);
// ---- positionIds (forward, loss, gradients, step, train's batches, attentionWeights) ----
const none = so.createModel({ ...VALID, positions: 'none' });
const spread = idsOf([[0, 2, 4, 5], [1, 3, 4, 5]]);
const shapeRule = /^positionIds must have the shape of ids, \[2, 4\], got \[/;
for (const [label, value, Class, message] of badTensors('positionIds', spread, { dtypes: ['int32'], ranks: [2], rankRule: shapeRule }).filter(([l]) => l !== 'missing'))
  add('positionIds', `positionIds ${label}`, () => mean.forward(ids, { positionIds: value }), Class, message);
add('positionIds', 'not the shape of ids', () => mean.loss(ids, targets, { positionIds: idsOf([0, 1, 2, 3]) }), RangeError, /^positionIds must have the shape of ids, \[2, 4\], got \[4\]/);
add('positionIds', 'a row not increasing', () => mean.step(ids, targets, { positionIds: idsOf([[0, 2, 2, 5], [0, 1, 2, 3]]) }), RangeError, /^positionIds\[0, 2\] = 2 is not above the position before it: each row must be strictly increasing/);
add('positionIds', 'negative', () => each.gradients(ids, eachTargets, { positionIds: idsOf([[0, 1, 2, 3], [-4, 1, 2, 3]]) }), RangeError, /^positionIds\[1, 0\] = -4 is outside 0 \.\. 2147483647 \(int32\)/);
add('positionIds', 'past maxLength (learned)', () => mean.attentionWeights(idsOf([[1, 2]]), { positionIds: idsOf([[2, 6]]) }), RangeError, /^positionIds\[0, 1\] = 6 is outside 0 \.\. 5 \(maxLength - 1: the learned table's rows\)/);
add('positionIds', 'positions none', () => none.forward(ids, { positionIds: spread }), RangeError, /^positionIds: a model with positions 'none' reads no positions/);
add('positionIds', 'in train, batch 1', () => mean.train([{ ids, targets }, { ids, targets, positionIds: idsOf([[0, 1, 2, 3], [3, 2, 1, 0]]) }]), RangeError, /^batches\[1\]: positionIds\[1, 1\] = 2 is not above/);
add('positionIds', 'in train, not a tensor', () => mean.train([{ ids, targets, positionIds: [0, 1, 2, 3] }]), TypeError, /^batches\[0\]\.positionIds/);
add('positionIds', "train's options", () => mean.train([{ ids, targets }], { positionIds: spread }), TypeError, /unknown option 'positionIds'/);

// ---- ropeScaling (forward, loss, gradients, step, train's options, attentionWeights) ----
const onePair = so.createModel({ ...VALID, positions: 'rotary', rotaryPairs: 1 });
const stretch = (ropeScaling) => [
  ['forward', () => spin.forward(ids, { ropeScaling })], ['loss', () => spin.loss(ids, targets, { ropeScaling })],
  ['gradients', () => spin.gradients(ids, targets, { ropeScaling })], ['step', () => spin.step(ids, targets, { ropeScaling })],
  ['train', () => spin.train([{ ids, targets }, { ids, targets }], { ropeScaling })],
  ['attentionWeights', () => spin.attentionWeights(idsOf([[1, 2, 3]]), { ropeScaling })],
];
const ropeCases = [
  ['not an object', 2, TypeError, /^ropeScaling must be an object, got number 2/],
  ['null', null, TypeError, /^ropeScaling must be an object, got null/],
  ['an unknown member', { method: 'linear', factor: 2, base: 3 }, TypeError, /^ropeScaling: unknown option 'base' \(known: method, factor, originalLength\)/],
  ['method missing', { factor: 2 }, TypeError, /^ropeScaling\.method must be a string, one of 'linear', 'ntk', 'yarn'; got undefined/],
  ['method a number', { method: 1, factor: 2 }, TypeError, /^ropeScaling\.method must be a string, one of 'linear', 'ntk', 'yarn'; got number 1/],
  ['factor missing', { method: 'ntk' }, TypeError, /^ropeScaling\.factor must be a number, got undefined/],
  ['factor a string', { method: 'ntk', factor: '2' }, TypeError, /^ropeScaling\.factor must be a number, got the string "2"/],
  ['originalLength a string', { method: 'yarn', factor: 2, originalLength: '16' }, TypeError, /^ropeScaling\.originalLength must be a number/],
  ['an unknown method', { method: 'dynamic', factor: 2 }, RangeError, /^ropeScaling\.method must be one of 'linear', 'ntk', 'yarn', got 'dynamic'/],
  ['factor below 1', { method: 'linear', factor: 0.5 }, RangeError, /^(batches\[0\]: )?ropeScaling\.factor must be a finite number >= 1$/],
  ['factor NaN', { method: 'ntk', factor: NaN }, RangeError, /^(batches\[0\]: )?ropeScaling\.factor must be a finite number >= 1$/],
  ['factor Infinity', { method: 'linear', factor: Infinity }, RangeError, /^(batches\[0\]: )?ropeScaling\.factor must be a finite number >= 1$/],
  ["'yarn' without originalLength", { method: 'yarn', factor: 4 }, RangeError, /^(batches\[0\]: )?ropeScaling\.originalLength must be given with method 'yarn'/],
  ["originalLength with 'linear'", { method: 'linear', factor: 4, originalLength: 16 }, RangeError, /^(batches\[0\]: )?ropeScaling\.originalLength is only for method 'yarn'/],
  ["originalLength with 'ntk'", { method: 'ntk', factor: 4, originalLength: 16 }, RangeError, /^(batches\[0\]: )?ropeScaling\.originalLength is only for method 'yarn'/],
  ['originalLength 0', { method: 'yarn', factor: 4, originalLength: 0 }, RangeError, /^(batches\[0\]: )?ropeScaling\.originalLength must be an integer >= 1$/],
  ['originalLength a fraction', { method: 'yarn', factor: 4, originalLength: 2.5 }, RangeError, /^(batches\[0\]: )?ropeScaling\.originalLength must be an integer >= 1$/],
];
for (const [label, value, Class, message] of ropeCases)
  for (const [fn, call] of stretch(value)) add('ropeScaling', `${fn}: ${label}`, call, Class, message);
add('ropeScaling', "'ntk' with one pair", () => onePair.forward(ids, { ropeScaling: { method: 'ntk', factor: 2 } }), RangeError, /^ropeScaling\.method 'ntk' needs rotaryPairs >= 2$/);
add('ropeScaling', 'a model without rotary positions', () => mean.step(ids, targets, { ropeScaling: { method: 'linear', factor: 2 } }), RangeError, /^ropeScaling: the model's positions are not rotary/);
add('ropeScaling', 'positions none', () => none.forward(ids, { ropeScaling: { method: 'linear', factor: 2 } }), RangeError, /^ropeScaling: the model's positions are not rotary/);
add('ropeScaling', 'in a batch of train', () => spin.train([{ ids, targets, ropeScaling: { method: 'linear', factor: 2 } }]), TypeError, /^batches\[0\]: unknown option 'ropeScaling'/);
add('ropeScaling', 'with a bad batch of train', () => spin.train([{ ids, targets }, { ids: idsOf([[0, 9]]), targets: idsOf([0]) }], { ropeScaling: { method: 'linear', factor: 2 } }), RangeError, /^batches\[1\]: ids\[0, 1\] = 9/);
add('ropeScaling', "generate's options", () => spin.generate([1], { steps: 1, ropeScaling: { method: 'linear', factor: 2 } }), TypeError, /unknown option 'ropeScaling'/);

// ---- positionRange (forward, loss, gradients, step, train's options, attentionWeights) ----
const drawn = (positionRange) => [
  ['forward', () => spin.forward(ids, { positionRange })], ['loss', () => spin.loss(ids, targets, { positionRange })],
  ['gradients', () => spin.gradients(ids, targets, { positionRange })], ['step', () => spin.step(ids, targets, { positionRange })],
  ['train', () => spin.train([{ ids, targets }, { ids, targets }], { positionRange })],
  ['attentionWeights', () => spin.attentionWeights(idsOf([[1, 2, 3, 4]]), { positionRange })],
];
const rangeRule = /^(batches\[0\]: )?positionRange must be an integer from T \(the sentences' length\) to 2\^31$/;
const rangeCases = [
  ['a string', '8', TypeError, /^positionRange must be a number, got the string "8"/],
  ['null', null, TypeError, /^positionRange must be a number, got null/],
  ['below T', 3, RangeError, rangeRule], ['a fraction', 6.5, RangeError, rangeRule], ['negative', -8, RangeError, rangeRule],
  ['NaN', NaN, RangeError, rangeRule], ['Infinity', Infinity, RangeError, rangeRule], ['2^31 + 1', 2 ** 31 + 1, RangeError, rangeRule],
];
for (const [label, value, Class, message] of rangeCases)
  for (const [fn, call] of drawn(value)) add('positionRange', `${fn}: ${label}`, call, Class, message);
add('positionRange', 'past maxLength (learned)', () => mean.step(ids, targets, { positionRange: 7 }), RangeError, /^positionRange must be an integer from T \(the sentences' length\) to maxLength$/);
add('positionRange', 'with positionIds', () => mean.forward(ids, { positionIds: spread, positionRange: 6 }), RangeError, /^positionRange and positionIds cannot be given together$/);
add('positionRange', 'positions none', () => none.forward(ids, { positionRange: 8 }), RangeError, /^positionRange: a model with positions 'none' reads no positions/);
add('positionRange', 'in train, batch 1 with positionIds', () => spin.train([{ ids, targets }, { ids, targets, positionIds: spread }], { positionRange: 8 }), RangeError, /^batches\[1\]: positionRange and positionIds cannot be given together/);
add('positionRange', 'in train, batch 1 longer than L', () => spin.train([{ ids, targets }, { ids: idsOf([[0, 1, 2, 3, 4, 5]]), targets: idsOf([0]) }], { positionRange: 5 }), RangeError, /^batches\[1\]: positionRange must be an integer from T \(the sentences' length\) to 2\^31$/);
add('positionRange', 'in a batch of train', () => spin.train([{ ids, targets, positionRange: 8 }]), TypeError, /^batches\[0\]: unknown option 'positionRange'/);
add('positionRange', "generate's options", () => spin.generate([1], { steps: 1, positionRange: 8 }), TypeError, /unknown option 'positionRange'/);

add('attentionWeights', 'weights past the tensor limit', () => each.attentionWeights({ data: new Int32Array(2 ** 14), shape: [2 ** 14] }), RangeError, /^ids of shape \(B, T\) = \[1, 16384\] need more activations/);

// ---- setParameters(parameters) ----
const wq = { data: new Float32Array(64), shape: [8, 8], dtype: 'float32' };
for (const [label, value] of [['null', null], ['a number', 3], ['a string', 'embed'], ['an array', [wq]], ['a typed array', wq.data], ['a Map', new Map([['embed', wq]])]])
  add('setParameters', `parameters ${label}`, () => mean.setParameters(value), TypeError, /^parameters must be (an|a plain) object/);
add('setParameters', 'parameters missing', () => mean.setParameters(), TypeError, /^parameters must be an object, got undefined/);
add('setParameters', 'a symbol key', () => mean.setParameters({ [Symbol('embed')]: wq }), TypeError, /^parameters: its keys must be names \(strings\), got Symbol\(embed\)/);
for (const [label, value, Class, message] of badTensors("parameters['layers.0.attention.wq']", wq, { dtypes: ['float32'], ranks: [2], rankRule: /^parameter 'layers\.0\.attention\.wq' has shape \[8, 8\], got \[64\]/ })
  .filter(([l]) => !['a dtype outside float32', 'no dtype and data of another valid class'].includes(l)))
  add('setParameters', `a tensor ${label}`, () => mean.setParameters({ 'layers.0.attention.wq': value }), Class, message);
add('setParameters', 'an unknown name', () => mean.setParameters({ 'layers.0.attention.wz': wq }), RangeError, /^the model has no parameter named 'layers\.0\.attention\.wz' \(parameters\(\) lists them: 'embed', 'layers\.0\.attention\.wq', \.\.\.\)/);
add('setParameters', 'a name with a NUL inside', () => mean.setParameters({ 'embed\0': wq }), RangeError, /^the model has no parameter named 'embed\\u0000' \(parameters\(\) lists them/);
add('forward', 'ids.dtype with a NUL inside', () => mean.forward({ ...ids, dtype: 'int32\0' }), RangeError, /^ids\.dtype must be 'float64', 'float32' or 'int32', got 'int32\0'$/);
add('setParameters', 'a name of a missing layer', () => mean.setParameters({ 'layers.1.attention.wq': wq }), RangeError, /^the model has no parameter named 'layers\.1\.attention\.wq'/);
add('setParameters', 'positions of a model without a learned table', () => each.setParameters({ positions: { data: new Float64Array(8), shape: [1, 8] } }), RangeError, /^the model has no parameter named 'positions'/);
add('setParameters', 'a transposed shape', () => mean.setParameters({ 'layers.0.mlp.w1': { data: new Float32Array(256), shape: [32, 8] } }), RangeError, /^parameter 'layers\.0\.mlp\.w1' has shape \[8, 32\], got \[32, 8\]/);
add('setParameters', 'float64 values for a float32 model', () => mean.setParameters({ 'layers.0.attention.wq': { data: new Float64Array(64), shape: [8, 8] } }), RangeError, /^parameters\['layers\.0\.attention\.wq'\]\.dtype must be 'float32' \(the model's dtype\), got 'float64'/);
add('setParameters', 'float32 values for a float64 model', () => each.setParameters({ 'norm.gain': { data: new Float32Array(8), shape: [8] } }), RangeError, /^parameters\['norm\.gain'\]\.dtype must be 'float64' \(the model's dtype\), got 'float32'/);
add('setParameters', 'int32 values', () => mean.setParameters({ 'readout.bias': { data: new Int32Array(3), shape: [3] } }), RangeError, /^parameters\['readout\.bias'\]\.dtype must be 'float32'/);
add('setParameters', 'a good and a bad one: nothing set', () => mean.setParameters({ 'layers.0.attention.wq': wq, embed: { data: new Float32Array(56), shape: [8, 7] } }), RangeError, /^parameter 'embed' has shape \[7, 8\], got \[8, 7\]/);
add('setParameters', 'data shorter than the shape', () => mean.setParameters({ embed: { data: new Float32Array(55), shape: [7, 8] } }), RangeError, /^parameters\['embed'\]\.data has 55 elements but shape \[7, 8\] needs 56/);

// ---- orderTask(options) ----
const task = (options) => () => so.orderTask(options);
for (const [label, options, Class, message] of badOptions(['count', 'length', 'seed', 'mirrored']).filter(([l]) => l !== 'a differently-cased option'))
  add('orderTask', `options ${label}`, task(options), Class, message);
add('orderTask', 'no options', () => so.orderTask(), TypeError, /^count must be a number, got undefined/);
for (const name of ['count', 'length'])
  for (const [label, value, Class, message] of badNumbers(name).filter(([l]) => l !== 'negative'))
    add('orderTask', `${name} ${label}`, task({ count: 4, length: 5, [name]: value }), Class, message);
add('orderTask', 'count negative', task({ count: -2, length: 5 }), RangeError, /^count must be an integer at least 0, got -2/);
add('orderTask', 'length 1', task({ count: 2, length: 1 }), RangeError, /^length must be at least 2 \(a sentence holds robot and person\), got 1/);
add('orderTask', 'an odd count of mirrored pairs', task({ count: 3, length: 4, mirrored: true }), RangeError, /^count must be even with mirrored: true \(sentences come in pairs\), got 3/);
add('orderTask', 'seed a fraction', task({ count: 2, length: 4, seed: 0.5 }), RangeError, /^seed must be an integer in 0 \.\. 2\^53, got 0\.5/);
add('orderTask', 'seed a string', task({ count: 2, length: 4, seed: '1' }), TypeError, /^seed must be a number/);
add('orderTask', 'mirrored 1', task({ count: 2, length: 4, mirrored: 1 }), TypeError, /^mirrored must be true or false/);
add('orderTask', 'ids past the tensor limit', task({ count: 2 ** 20, length: 2 ** 10 }), RangeError, /^ids of count \* length = 1073741824 tokens would need more than the 1024 MiB a tensor may hold/);

// ---- lookbackTask(options) ----
const lookback = (options) => () => so.lookbackTask(options);
for (const [label, options, Class, message] of badOptions(['count', 'length', 'back', 'seed']).filter(([l]) => l !== 'a differently-cased option'))
  add('lookbackTask', `options ${label}`, lookback(options), Class, message);
add('lookbackTask', 'no options', () => so.lookbackTask(), TypeError, /^count must be a number, got undefined/);
for (const name of ['count', 'length', 'back'])
  for (const [label, value, Class, message] of badNumbers(name).filter(([l]) => l !== 'negative' && (name !== 'back' || l !== 'missing')))
    add('lookbackTask', `${name} ${label}`, lookback({ count: 4, length: 5, [name]: value }), Class, message);
add('lookbackTask', 'count negative', lookback({ count: -2, length: 5 }), RangeError, /^count must be an integer at least 0, got -2/);
add('lookbackTask', 'back 0', lookback({ count: 2, length: 5, back: 0 }), RangeError, /^back must be at least 1 \(the word 1 place back, or more\), got 0/);
add('lookbackTask', 'length not past back', lookback({ count: 2, length: 3, back: 3 }), RangeError, /^length must be greater than back = 3 \(a sentence needs a word back places before its last\), got 3/);
add('lookbackTask', 'the default back and length 2', lookback({ count: 2, length: 2 }), RangeError, /^length must be greater than back = 2/);
add('lookbackTask', 'seed a fraction', lookback({ count: 2, length: 4, seed: 0.5 }), RangeError, /^seed must be an integer in 0 \.\. 2\^53, got 0\.5/);
add('lookbackTask', 'ids past the tensor limit', lookback({ count: 2 ** 20, length: 2 ** 10 }), RangeError, /^ids of count \* length = 1073741824 tokens would need more than the 1024 MiB a tensor may hold/);
add('lookbackTask', 'a sentence past the tensor limit', lookback({ count: 0, length: 2 ** 53 - 1 }), RangeError, /^one sentence of length = 9007199254740991 tokens/);

// ---- inductionTask(options) ----
const induction = (options) => () => so.inductionTask(options);
for (const [label, options, Class, message] of badOptions(['count', 'length', 'seed']).filter(([l]) => l !== 'a differently-cased option'))
  add('inductionTask', `options ${label}`, induction(options), Class, message);
add('inductionTask', 'no options', () => so.inductionTask(), TypeError, /^count must be a number, got undefined/);
for (const name of ['count', 'length'])
  for (const [label, value, Class, message] of badNumbers(name).filter(([l]) => l !== 'negative'))
    add('inductionTask', `${name} ${label}`, induction({ count: 4, length: 5, [name]: value }), Class, message);
add('inductionTask', 'count negative', induction({ count: -2, length: 5 }), RangeError, /^count must be an integer at least 0, got -2/);
add('inductionTask', 'length 1', induction({ count: 2, length: 1 }), RangeError, /^length must be at least 2 \(a word needs an earlier one to repeat\), got 1/);
add('inductionTask', 'seed a fraction', induction({ count: 2, length: 4, seed: 0.5 }), RangeError, /^seed must be an integer in 0 \.\. 2\^53, got 0\.5/);
add('inductionTask', 'seed a string', induction({ count: 2, length: 4, seed: '1' }), TypeError, /^seed must be a number/);
add('inductionTask', 'back is not its option', induction({ count: 2, length: 4, back: 2 }), TypeError, /back/);
add('inductionTask', 'ids past the tensor limit', induction({ count: 2 ** 20, length: 2 ** 10 }), RangeError, /^ids of count \* length = 1073741824 tokens would need more than the 1024 MiB a tensor may hold/);
add('inductionTask', 'a sentence past the tensor limit', induction({ count: 0, length: 2 ** 53 - 1 }), RangeError, /^one sentence of length = 9007199254740991 tokens/);

function canary() {
  assert.deepEqual(so.positions(3, 4, { start: 2 }).data, expectedCanary, 'the module still works');
}

describe('every error path of the model\'s API: TypeError for kinds, RangeError for values, the argument named', () => {
  const before = so.memoryStats().allocatedBytes;
  // (save(): the parameters, Adam's state and the position streams)
  const state = (model) => ({ saved: model.save(), logits: model.forward(ids) });
  const states = [state(mean), state(each), state(spin)];
  for (const fn of [...new Set(cases.map((c) => c.fn))]) {
    test(fn, () => {
      for (const { label, call, Class, message } of cases.filter((c) => c.fn === fn)) {
        expectError(`${fn}: ${label}`, call, Class, message);
        canary();
        assert.equal(so.memoryStats().allocatedBytes, before, `${fn}: ${label}: the heap holds what it held before`);
      }
      assert.deepEqual([state(mean), state(each), state(spin)], states, `${fn}: the models are unchanged by the failed calls`);
    });
  }
  test('count', (t) => {
    t.diagnostic(`${cases.length} error cases over ${new Set(cases.map((c) => c.fn)).size} functions`);
    assert.ok(cases.length > 300);
  });
});

test('a failed step changes nothing: not the parameters, not Adam\'s state', () => {
  const a = so.createModel({ ...VALID, seed: 3 });
  const b = so.createModel({ ...VALID, seed: 3 });
  assert.throws(() => a.step(ids, idsOf([0, 3])), RangeError);
  assert.throws(() => a.step(ids, targets, { lr: -1 }), RangeError);
  for (let k = 0; k < 3; k++) assert.equal(a.step(ids, targets), b.step(ids, targets));
  assert.deepEqual(a.parameters(), b.parameters());
  a.dispose();
  b.dispose();
});

test('inputs are never modified', () => {
  const copies = [ids.data.slice(), targets.data.slice()];
  mean.step(ids, targets, { lr: 0 });
  assert.throws(() => mean.step(ids, idsOf([0, 9])), RangeError);
  assert.deepEqual([ids.data, targets.data], copies);
  const values = { data: new Float32Array(64).fill(0.25), shape: [8, 8] };
  mean.setParameters({ 'layers.0.attention.wk': values });
  assert.ok(values.data.every((x) => x === 0.25));
});
