// Every error path of every public function: a wrong kind of argument is a TypeError, a wrong value (or shape, or
// size) is a RangeError, and the message names the argument. After every error the module still works and the heap
// holds what it held before (nothing leaked on the error path).
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { loadSeqorder } from './helpers/load.mjs';
import { badNumbers, badOptions, badTensors, expectError } from './helpers/bad-arguments.mjs';

const so = await loadSeqorder();
const expectedCanary = so.positions(3, 4, { start: 2 }).data.slice();

const f64 = (shape, fill = 0.5) => ({ data: new Float64Array(shape.reduce((a, b) => a * b, 1)).fill(fill), shape, dtype: 'float64' });
const f32 = (shape, fill = 0.5) => ({ data: new Float32Array(shape.reduce((a, b) => a * b, 1)).fill(fill), shape, dtype: 'float32' });
const i32 = (values, shape = [values.length]) => ({ data: Int32Array.from(values), shape, dtype: 'int32' });
/** The ways to get an `out` array wrong for a result of `count` elements of `dtype`. */
function badOut(count, dtype) {
  const Other = dtype === 'float64' ? Float32Array : Float64Array;
  const Same = dtype === 'float64' ? Float64Array : Float32Array;
  return [
    ['out a plain array', { out: new Array(count).fill(0) }, TypeError, /^out must be a typed array/],
    ['out a DataView', { out: new DataView(new ArrayBuffer(count * 8)) }, TypeError, /^out must be a typed array/],
    ['out of the other float class', { out: new Other(count) }, TypeError, new RegExp(`^out must be a ${Same.name} for a '${dtype}' result`)],
    ['out too short', { out: new Same(count - 1) }, RangeError, new RegExp(`^out must have exactly ${count} elements`)],
    ['out too long', { out: new Same(count + 1) }, RangeError, new RegExp(`^out must have exactly ${count} elements`)],
  ];
}

/** The ways to get a start option wrong (an integer position, start + length <= 2^53). */
function badStart(length) {
  return [
    ...badNumbers('start').filter(([label]) => label !== 'missing').map(([label, value, Class, message]) => [`start ${label}`, { start: value }, Class, message]),
    ['start + length past 2^53', { start: 2 ** 53 - length + 1 }, RangeError, /^start( \+ length)? must be/],
  ];
}
function badBase() {
  return badNumbers('base', { integer: false }).filter(([label]) => label !== 'missing')
    .map(([label, value, Class, message]) => [`base ${label}`, { base: value }, Class, message]);
}

// Every case: [function, what is wrong, call, error class, message pattern].
const cases = [];
const add = (fn, label, call, Class, message) => cases.push({ fn, label, call, Class, message });

// positions(length, width, { start, base, dtype, layout, out })
for (const [label, value, Class, message] of badNumbers('length')) add('positions', `length ${label}`, () => so.positions(value, 4), Class, message);
for (const [label, value, Class, message] of badNumbers('width', { min: 1 })) add('positions', `width ${label}`, () => so.positions(2, value), Class, message);
add('positions', 'width 0', () => so.positions(2, 0), RangeError, /^width must be/);
add('positions', 'width odd', () => so.positions(2, 5), RangeError, /^width must be a positive even integer \(every sine needs its cosine\), got 5/);
add('positions', 'width 1', () => so.positions(2, 1), RangeError, /^width must be a positive even integer/);
for (const [label, options, Class, message] of [...badOptions(['start', 'base', 'dtype', 'layout', 'out']), ...badStart(2), ...badBase()])
  add('positions', `options ${label}`, () => so.positions(2, 4, options), Class, message);
add('positions', 'dtype int32', () => so.positions(2, 4, { dtype: 'int32' }), RangeError, /^dtype must be 'float64' or 'float32', got 'int32'/);
add('positions', 'dtype unknown', () => so.positions(2, 4, { dtype: 'Float64' }), RangeError, /^dtype must be 'float64' or 'float32', got 'Float64'/);
add('positions', 'dtype a class', () => so.positions(2, 4, { dtype: Float64Array }), TypeError, /^dtype must be a string/);
add('positions', 'dtype null', () => so.positions(2, 4, { dtype: null }), TypeError, /^dtype must be a string/);
add('positions', 'layout unknown', () => so.positions(2, 4, { layout: 'rows' }), RangeError, /^layout must be 'interleaved' or 'halves', got 'rows'/);
add('positions', 'layout a number', () => so.positions(2, 4, { layout: 1 }), TypeError, /^layout must be a string/);
for (const [label, options, Class, message] of badOut(8, 'float64')) add('positions', label, () => so.positions(2, 4, options), Class, message);
add('positions', 'out float32 for a float64 default', () => so.positions(2, 4, { out: new Float32Array(8) }), TypeError, /^out must be a Float64Array/);
add('positions', 'a table beyond the size limit', () => so.positions(2 ** 20, 2 ** 10), RangeError, /^positions of shape \[1048576, 1024\] is too large: a tensor may hold at most 1024 MiB/);
add('positions', 'a table whose size overflows', () => so.positions(2 ** 52, 2 ** 20), RangeError, /^positions of shape .* is too large/);

// embed(table, ids, { out })
const table = f64([5, 4]);
const ids = i32([0, 4, 2]);
for (const [label, value, Class, message] of badTensors('table', table, { ranks: [2], rankRule: '(V, D)' })) add('embed', `table ${label}`, () => so.embed(value, ids), Class, message);
for (const [label, value, Class, message] of badTensors('ids', ids, { dtypes: ['int32'], ranks: [1, 2], rankRule: '(T) or (B, T)' })) add('embed', `ids ${label}`, () => so.embed(table, value), Class, message);
add('embed', 'ids float64 values', () => so.embed(table, { data: Float64Array.of(0, 1), shape: [2] }), RangeError, /^ids\.dtype must be 'int32', got 'float64'/);
add('embed', 'an id past the table', () => so.embed(table, i32([0, 1, 5])), RangeError, /^ids\[2\] = 5 is outside the table's rows 0\.\.4/);
add('embed', 'a negative id, batched', () => so.embed(table, i32([0, 1, 2, -1], [2, 2])), RangeError, /^ids\[1, 1\] = -1 is outside the table's rows 0\.\.4/);
add('embed', 'the int32 minimum id', () => so.embed(table, i32([-(2 ** 31)])), RangeError, /^ids\[0\] = -2147483648 is outside/);
add('embed', 'any id of an empty table', () => so.embed(f64([0, 4]), i32([0])), RangeError, /^ids\[0\] = 0 is outside the table's rows \(the table has none\)/);
for (const [label, options, Class, message] of [...badOptions(['out']), ...badOut(12, 'float64')]) add('embed', `options ${label}`, () => so.embed(table, ids, options), Class, message);
add('embed', 'embeddings beyond the size limit', () => so.embed(f64([1, 2 ** 16]), { data: new Int32Array(2 ** 14 + 1), shape: [2 ** 14 + 1] }), RangeError, /^embeddings of shape .* is too large/);

// addPositions(x, { start, base, out }) and rope(x, { start, base, out }): the same rules
for (const fn of ['addPositions', 'rope']) {
  const x = f32([2, 3, 4]);
  for (const [label, value, Class, message] of badTensors('x', x, { ranks: [2, 3], rankRule: '(T, D) or (.., T, D)' })) add(fn, `x ${label}`, () => so[fn](value), Class, message);
  add(fn, 'x int32', () => so[fn](i32([1, 2], [1, 2])), RangeError, /^x\.dtype must be 'float64' or 'float32', got 'int32'/);
  add(fn, 'x with an odd width', () => so[fn](f64([2, 3])), RangeError, /^x's width D \(its last axis\) must be a positive even integer.*got 3/);
  add(fn, 'x with width 0', () => so[fn](f64([2, 3, 0])), RangeError, /^x's width D .* got 0/);
  for (const [label, options, Class, message] of [...badOptions(['start', 'base', 'out']), ...badStart(3), ...badBase(), ...badOut(24, 'float32')])
    add(fn, `options ${label}`, () => so[fn](x, options), Class, message);
}

// learnedPositions(table, length, { start, out })
const learned = f32([6, 4]);
for (const [label, value, Class, message] of badTensors('table', learned, { ranks: [2], rankRule: '(P, D)' })) add('learnedPositions', `table ${label}`, () => so.learnedPositions(value, 2), Class, message);
for (const [label, value, Class, message] of badNumbers('length')) add('learnedPositions', `length ${label}`, () => so.learnedPositions(learned, value), Class, message);
for (const [label, options, Class, message] of [...badOptions(['start', 'out']), ...badStart(2).slice(0, -1), ...badOut(8, 'float32')])
  add('learnedPositions', `options ${label}`, () => so.learnedPositions(learned, 2, options), Class, message);
add('learnedPositions', 'base is not an option', () => so.learnedPositions(learned, 2, { base: 10 }), TypeError, /^options: unknown option 'base'/);
add('learnedPositions', 'rows past the table', () => so.learnedPositions(learned, 7), RangeError, /^start \+ length must be at most the table's rows P = 6, got rows 0\.\.6 \(a finite table has a supported range/);
add('learnedPositions', 'start past the table', () => so.learnedPositions(learned, 2, { start: 5 }), RangeError, /^start \+ length must be at most the table's rows P = 6, got rows 5\.\.6/);
add('learnedPositions', 'an empty slice after the end', () => so.learnedPositions(learned, 0, { start: 7 }), RangeError, /^start \+ length must be at most the table's rows/);
add('learnedPositions', 'a huge start', () => so.learnedPositions(learned, 1, { start: 2 ** 53 - 1 }), RangeError, /^start \+ length must be at most the table's rows/);

// attention(q, k, v, { causal, queryStart, steps, out })
const q = f64([2, 3, 4]);
const k = f64([2, 5, 4]);
const v = f64([2, 5, 6]);
for (const [label, value, Class, message] of badTensors('q', q, { ranks: [2, 3], rankRule: '(Tq, D) or (.., Tq, D)' })) add('attention', `q ${label}`, () => so.attention(value, k, v), Class, message);
for (const [label, value, Class, message] of badTensors('k', k, { ranks: [2, 3], rankRule: /^q, k and v must have the same rank/ })) add('attention', `k ${label}`, () => so.attention(q, value, v), Class, message);
for (const [label, value, Class, message] of badTensors('v', v, { ranks: [2, 3], rankRule: /^q, k and v must have the same rank/ })) add('attention', `v ${label}`, () => so.attention(q, k, value), Class, message);
add('attention', 'q, k, v of two dtypes', () => so.attention(q, f32([2, 5, 4]), v), RangeError, /^q, k and v must have one dtype, got 'float64', 'float32' and 'float64'/);
add('attention', 'int32 q', () => so.attention(i32([1, 2], [1, 2]), k, v), RangeError, /^q\.dtype must be/);
add('attention', 'q, k, v of two ranks', () => so.attention(f64([3, 4]), k, v), RangeError, /^q, k and v must have the same rank, got shapes \[3, 4\], \[2, 5, 4\] and \[2, 5, 6\]/);
add('attention', 'k of another batch size', () => so.attention(q, f64([1, 5, 4]), v), RangeError, /^q, k and v must have the same batch axes \(all but the last two\), got shapes \[2, 3, 4\], \[1, 5, 4\] and \[2, 5, 6\]/);
add('attention', 'v of another batch size', () => so.attention(q, k, f64([3, 5, 6])), RangeError, /^q, k and v must have the same batch axes \(all but the last two\), got shapes \[2, 3, 4\], \[2, 5, 4\] and \[3, 5, 6\]/);
add('attention', 'k of another width', () => so.attention(q, f64([2, 5, 3]), v), RangeError, /^q and k must have the same width D, got 4 and 3/);
add('attention', 'q and k of width 0', () => so.attention(f64([2, 3, 0]), f64([2, 5, 0]), v), RangeError, /^q and k must have a width D of at least 1/);
add('attention', 'v of another length', () => so.attention(q, k, f64([2, 4, 6])), RangeError, /^k and v must have the same length Tk, got 5 and 4/);
for (const [label, options, Class, message] of badOptions(['causal', 'queryStart', 'steps', 'out']))
  add('attention', `options ${label}`, () => so.attention(q, k, v, options), Class, message);
for (const [name, values] of [['causal', [1, 'true', null, 0]], ['steps', [1, 'yes', null]]])
  for (const value of values)
    add('attention', `${name} ${String(value)}`, () => so.attention(q, k, v, { [name]: value }), TypeError, new RegExp(`^${name} must be true or false`));
for (const [label, value, Class, message] of badNumbers('queryStart').filter(([l]) => l !== 'missing' && l !== 'negative'))
  add('attention', `queryStart ${label}`, () => so.attention(q, k, v, { causal: true, queryStart: value }), Class, message);
add('attention', 'queryStart negative', () => so.attention(q, k, v, { causal: true, queryStart: -2 }), RangeError, /^queryStart must be in 0\.\.Tk - Tq = 0\.\.2 .*got -2/);
add('attention', 'queryStart past Tk - Tq', () => so.attention(q, k, v, { causal: true, queryStart: 3 }), RangeError, /^queryStart must be in 0\.\.Tk - Tq = 0\.\.2 .*got 3/);
add('attention', 'queryStart without causal', () => so.attention(q, k, v, { queryStart: 1 }), RangeError, /^queryStart applies only with causal: true/);
add('attention', 'causal with more queries than keys', () => so.attention(f64([2, 6, 4]), k, v, { causal: true }), RangeError, /^causal attention needs at least as many keys as queries \(Tk >= Tq\), got Tq = 6 and Tk = 5/);
add('attention', 'causal with no keys', () => so.attention(f64([1, 4]), f64([0, 4]), f64([0, 2]), { causal: true }), RangeError, /Tk >= Tq/);
for (const [label, options, Class, message] of badOut(36, 'float64')) add('attention', label, () => so.attention(q, k, v, options), Class, message);
add('attention', 'output beyond the size limit', () => so.attention(f64([2 ** 18, 1]), f64([1, 1]), f64([1, 2 ** 10])), RangeError, /^output of shape .* is too large/);
add('attention', 'steps beyond the size limit', () => so.attention(f64([2 ** 14, 1]), f64([2 ** 14, 1]), f64([2 ** 14, 1]), { steps: true }), RangeError, /^scores of shape \[16384, 16384\] is too large/);

// matmul(a, b, { out })
const ma = f64([2, 3, 4]);
const mb = f64([4, 5]);
for (const [label, value, Class, message] of badTensors('a', ma, { ranks: [2, 3], rankRule: '(M, K) or (.., M, K)' })) add('matmul', `a ${label}`, () => so.matmul(value, mb), Class, message);
for (const [label, value, Class, message] of badTensors('b', mb, { ranks: [2, 3], rankRule: '(K, N) or (.., K, N)' })) add('matmul', `b ${label}`, () => so.matmul(ma, value), Class, message);
add('matmul', 'a and b of two dtypes', () => so.matmul(ma, f32([4, 5])), RangeError, /^a and b must have one dtype, got 'float64' and 'float32'/);
add('matmul', 'int32 a', () => so.matmul(i32([1, 2], [1, 2]), mb), RangeError, /^a\.dtype must be 'float64' or 'float32', got 'int32'/);
add('matmul', 'K differs', () => so.matmul(ma, f64([3, 5])), RangeError, /^a's last axis and b's second-to-last must have one length K, got shapes \[2, 3, 4\] and \[3, 5\]/);
add('matmul', 'leading axes that do not broadcast', () => so.matmul(ma, f64([3, 4, 5])), RangeError, /^a's and b's leading axes must broadcast \(aligned from the right, each pair equal or one of them 1\), got shapes \[2, 3, 4\] and \[3, 4, 5\]/);
for (const [label, options, Class, message] of [...badOptions(['out']), ...badOut(30, 'float64')]) add('matmul', `options ${label}`, () => so.matmul(ma, mb, options), Class, message);
add('matmul', 'a product beyond the size limit', () => so.matmul(f64([2 ** 14, 0]), f64([0, 2 ** 14])), RangeError, /^a @ b of shape \[16384, 16384\] is too large/);

// softmax(x, { causal, queryStart, out })
const sx = f32([2, 3, 5]);
for (const [label, value, Class, message] of badTensors('x', sx, { ranks: [1, 2, 3], rankRule: /^x\.data has|^x must/ }).filter(([label]) => label !== 'a wrong rank'))
  add('softmax', `x ${label}`, () => so.softmax(value), Class, message);
add('softmax', 'x a scalar', () => so.softmax({ data: new Float64Array(1), shape: [] }), RangeError, /^x must have at least one axis \(softmax runs over the last\), got \[\]/);
add('softmax', 'int32 x', () => so.softmax(i32([1, 2])), RangeError, /^x\.dtype must be 'float64' or 'float32', got 'int32'/);
add('softmax', 'causal on one axis', () => so.softmax(f32([5]), { causal: true }), RangeError, /^x must have shape \(Tq, Tk\) or \(\.\., Tq, Tk\) with causal: true, got \[5\]/);
add('softmax', 'causal with more queries than keys', () => so.softmax(f32([2, 6, 5]), { causal: true }), RangeError, /^causal attention needs at least as many keys as queries \(Tk >= Tq\), got Tq = 6 and Tk = 5/);
for (const [label, options, Class, message] of [...badOptions(['causal', 'queryStart', 'out']), ...badOut(30, 'float32')])
  add('softmax', `options ${label}`, () => so.softmax(sx, options), Class, message);
for (const value of [1, 'true', null]) add('softmax', `causal ${String(value)}`, () => so.softmax(sx, { causal: value }), TypeError, /^causal must be true or false/);
for (const [label, value, Class, message] of badNumbers('queryStart').filter(([l]) => l !== 'missing' && l !== 'negative'))
  add('softmax', `queryStart ${label}`, () => so.softmax(sx, { causal: true, queryStart: value }), Class, message);
add('softmax', 'queryStart past Tk - Tq', () => so.softmax(sx, { causal: true, queryStart: 3 }), RangeError, /^queryStart must be in 0\.\.Tk - Tq = 0\.\.2 .*got 3/);
add('softmax', 'queryStart without causal', () => so.softmax(sx, { queryStart: 1 }), RangeError, /^queryStart applies only with causal: true/);

// splitHeads(x, heads, { out }) and mergeHeads(x, { out })
const hx = f64([2, 3, 8]);
for (const [label, value, Class, message] of badTensors('x', hx, { ranks: [2, 3], rankRule: '(T, D) or (.., T, D)' })) add('splitHeads', `x ${label}`, () => so.splitHeads(value, 2), Class, message);
for (const [label, value, Class, message] of badNumbers('heads', { min: 1 })) add('splitHeads', `heads ${label}`, () => so.splitHeads(hx, value), Class, message);
add('splitHeads', 'heads 0', () => so.splitHeads(hx, 0), RangeError, /^heads must be an integer at least 1, got 0/);
add('splitHeads', 'heads that do not divide D', () => so.splitHeads(hx, 3), RangeError, /^heads must divide x's width D \(its last axis\), got D = 8 and heads = 3/);
add('splitHeads', 'int32 x', () => so.splitHeads(i32([1, 2], [1, 2]), 1), RangeError, /^x\.dtype must be 'float64' or 'float32', got 'int32'/);
for (const [label, options, Class, message] of [...badOptions(['out']), ...badOut(48, 'float64')]) add('splitHeads', `options ${label}`, () => so.splitHeads(hx, 2, options), Class, message);
const mx = f32([2, 2, 3, 4]);
for (const [label, value, Class, message] of badTensors('x', mx, { ranks: [3, 4], rankRule: '(H, T, Dh) or (.., H, T, Dh)' })) add('mergeHeads', `x ${label}`, () => so.mergeHeads(value), Class, message);
add('mergeHeads', 'x of two axes', () => so.mergeHeads(f32([3, 4])), RangeError, /^x must have shape \(H, T, Dh\) or \(\.\., H, T, Dh\), got \[3, 4\]/);
add('mergeHeads', 'int32 x', () => so.mergeHeads(i32([1, 2], [1, 1, 2])), RangeError, /^x\.dtype must be 'float64' or 'float32', got 'int32'/);
add('mergeHeads', 'H Dh past 2^53 - 1', () => so.mergeHeads({ data: new Float32Array(0), shape: [2 ** 30, 0, 2 ** 30] }), RangeError, /^x's heads H times their width Dh must be at most 2\^53 - 1/);
for (const [label, options, Class, message] of [...badOptions(['out']), ...badOut(48, 'float32')]) add('mergeHeads', `options ${label}`, () => so.mergeHeads(mx, options), Class, message);

function canary() {
  assert.deepEqual(so.positions(3, 4, { start: 2 }).data, expectedCanary, 'the module still works');
}

describe('every error path: TypeError for kinds, RangeError for values, the argument named', () => {
  const before = so.memoryStats().allocatedBytes;
  for (const fn of [...new Set(cases.map((c) => c.fn))]) {
    test(fn, () => {
      for (const { label, call, Class, message } of cases.filter((c) => c.fn === fn)) {
        expectError(`${fn}: ${label}`, call, Class, message);
        canary();
        assert.equal(so.memoryStats().allocatedBytes, before, `${fn}: ${label}: the heap holds what it held before`);
      }
    });
  }
  test('count', (t) => {
    t.diagnostic(`${cases.length} error cases over ${new Set(cases.map((c) => c.fn)).size} functions`);
    assert.ok(cases.length > 300);
  });
});

describe('loadSeqorder', () => {
  test('unknown options and a wasmBinary of the wrong kind are TypeErrors', async () => {
    await assert.rejects(loadSeqorder({ wasm: 1 }), { name: 'TypeError', message: /^options: unknown option 'wasm'/ });
    await assert.rejects(loadSeqorder('x'), { name: 'TypeError', message: /^options must be an object/ });
    await assert.rejects(loadSeqorder({ wasmBinary: 'bytes' }), { name: 'TypeError', message: /options\.wasmBinary must be an ArrayBuffer/ });
    await assert.rejects(loadSeqorder({ wasmBinary: [0, 97, 115, 109] }), { name: 'TypeError', message: /options\.wasmBinary/ });
  });

  test('bytes that are not the module reject with an Error that says so (and the other instances keep working)', async () => {
    await assert.rejects(loadSeqorder({ wasmBinary: new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 7]) }),
      (error) => error instanceof Error && /WebAssembly module could not be loaded/.test(error.message));
    canary();
  });
});

test('inputs are never modified, also on errors', () => {
  const x = f64([2, 4], 0.25);
  const copy = x.data.slice();
  assert.throws(() => so.addPositions(x, { start: -1 }), RangeError);
  so.addPositions(x, { start: 3 });
  so.rope(x, { start: 3 });
  assert.deepEqual(x.data, copy);
  const t = f64([3, 2], 0.5);
  const tableCopy = t.data.slice();
  assert.throws(() => so.embed(t, i32([0, 3])), RangeError);
  assert.deepEqual(t.data, tableCopy);
});

test('an error leaves a given out array as it was when the arguments are wrong', () => {
  const out = new Float64Array(8).fill(7);
  assert.throws(() => so.positions(2, 4, { out, base: -1 }), RangeError);
  assert.ok(out.every((x) => x === 7));
  assert.throws(() => so.embed(f64([2, 4]), i32([0, 9]), { out }), RangeError);
  assert.ok(out.every((x) => x === 7));
});
