// The binding's calling convention (src/bindings/values.hpp, src/js/binding.mjs): a call's arguments cross as slots
// written from the module's field tables, so what Object.prototype holds never reaches the core (embind's
// value_object glue, used before, walked its fields with for...in: one enumerable property on Object.prototype broke
// every call and leaked each call's block), inherited properties count as absent, and a string crosses whole (a NUL
// in it included).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { lib } from './helpers/load.mjs';

const { default: createCore } = await import(pathToFileURL(path.join(lib, 'seqorder_core.mjs')).href);
const { default: createModelModule } = await import(pathToFileURL(path.join(lib, 'seqorder_model.mjs')).href);
const { bindCalls } = await import(pathToFileURL(path.join(lib, 'binding.mjs')).href);
const core = bindCalls(await createCore({ wasmBinary: readFileSync(path.join(lib, 'seqorder', 'seqorder_core.wasm')) }));
const model = bindCalls(await createModelModule({ wasmBinary: readFileSync(path.join(lib, 'seqorder', 'seqorder_model.wasm')) }));

/** The values of a call's results (their blocks freed), or its error. */
function outcome(name, args) {
  const result = core[name](args);
  if (result.error !== undefined) return { error: result.error };
  return result.results.map(({ address, dtype, shape }) => {
    const Class = { float64: Float64Array, float32: Float32Array, int32: Int32Array }[dtype];
    const data = new Class(core.HEAPU8.buffer.slice(address, address + shape.reduce((a, b) => a * b, 1) * Class.BYTES_PER_ELEMENT));
    core._free(address);
    return { dtype, shape, data: [...data] };
  });
}

/** A tensor copied into the heap (freed by the caller), as the binding takes it. */
function tensor(values, shape) {
  const data = Float32Array.from(values);
  const address = core._malloc(data.byteLength);
  core.HEAPU8.set(new Uint8Array(data.buffer), address);
  return { address, count: data.length, dtype: 'float32', shape };
}

test('each module describes every bound call\'s arguments, member by member: the main module its calls, the model module the model\'s', () => {
  const tables = JSON.parse(core.argumentFields());
  const modelTables = JSON.parse(model.argumentFields());
  const names = (call) => tables[call].fields.map(([name]) => name);
  assert.deepEqual(names('positions'), ['length', 'width', 'start', 'base', 'dtype', 'layout', 'outLength']);
  assert.deepEqual(names('attention'), ['q', 'k', 'v', 'causal', 'queryStart', 'steps', 'outLength']);
  assert.deepEqual(tables.attention.fields[0][1].fields.map(([name, kind]) => `${name}:${kind}`),
    ['address:number', 'count:number', 'dtype:text', 'shape:numbers']);
  assert.deepEqual(modelTables.modelSetParameters.fields[1], ['parameters', { list: { fields: [['name', 'text'], ['tensor', tables.embed.fields[0][1]]] } }]);
  for (const call of ['positions', 'embed', 'addPositions', 'learnedPositions', 'rope', 'attention', 'planAttention',
    'matmul', 'softmax', 'splitHeads', 'mergeHeads', 'orderTask', 'lookbackTask', 'inductionTask'])
    assert.ok(tables[call]?.fields?.length > 0, call);
  for (const call of ['modelCreate', 'modelDispose', 'modelParameters', 'modelSetParameters', 'modelForward', 'modelLoss',
    'modelGradients', 'modelStep', 'modelAttentionWeights']) {
    assert.ok(modelTables[call]?.fields?.length > 0, call);
    assert.equal(tables[call], undefined, `${call}: not in the main module`);
  }
  for (const call of Object.keys(tables)) assert.equal(modelTables[call], undefined, `${call}: not in the model module`);
});

test('an absent member keeps the core\'s default; an inherited one is absent', () => {
  const plain = outcome('positions', { length: 3, width: 4 });
  assert.deepEqual(outcome('positions', { length: 3, width: 4, start: undefined, dtype: undefined }), plain);
  assert.deepEqual(outcome('positions', Object.assign(Object.create({ start: 5, dtype: 'float32' }), { length: 3, width: 4 })), plain);
  assert.notDeepEqual(outcome('positions', { length: 3, width: 4, start: 5 }), plain);
});

test('a polluted Object.prototype changes no result and leaks nothing', () => {
  const q = tensor([1, 2, 3, 4, 5, 6, 7, 8], [2, 4]);
  const calls = [
    ['positions', { length: 4, width: 8 }],
    ['attention', { q, k: q, v: q, causal: true }],
    ['attention', { q, k: q, v: q, steps: true }],
    ['orderTask', { count: 3, length: 5, seed: 2 }],
  ];
  const clean = calls.map(([name, args]) => outcome(name, args));
  const before = core.allocatedBytes();
  const names = ['foo', 'length', 'width', 'start', 'base', 'dtype', 'layout', 'outLength', 'causal', 'queryStart',
    'steps', 'address', 'count', 'shape', 'seed', 'mirrored', 'fields', 'write'];
  try {
    for (const name of names) Object.prototype[name] = 3;
    for (let round = 0; round < 20; round++)
      calls.forEach(([name, args], n) => assert.deepEqual(outcome(name, args), clean[n], `${name}, polluted with ${names}`));
  } finally {
    for (const name of names) delete Object.prototype[name];
  }
  assert.equal(core.allocatedBytes(), before, 'bytes allocated after 80 calls');
  core._free(q.address);
});

test('a string crosses whole: a NUL or any character in it reaches the core and its message', () => {
  assert.deepEqual(outcome('positions', { length: 1, width: 2, dtype: 'float\u000064' }),
    { error: "dtype must be 'float64' or 'float32', got 'float\\u000064'" });
  assert.deepEqual(outcome('positions', { length: 1, width: 2, layout: 'h\u00e4lves \u{1F600}' }),
    { error: "layout must be 'interleaved' or 'halves', got 'h\u00e4lves \u{1F600}'" });
  assert.equal(outcome('positions', { length: 1, width: 2, dtype: 'float32', layout: 'halves' })[0].dtype, 'float32');
});
