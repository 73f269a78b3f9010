// The ways a caller can get an argument wrong, shared by the error tests (errors.test.mjs, model-errors.test.mjs): each
// helper returns rows [label, value, error class, message pattern] for an argument of a given name; expectError checks
// that a call fails as a row says.
import assert from 'node:assert/strict';

const detached = () => {
  const data = new Float64Array(2);
  structuredClone(data.buffer, { transfer: [data.buffer] });
  return data; // now of length 0
};
export const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The ways to get a tensor argument wrong, for an argument called `name` whose valid value is `valid`
 * (dtypes: the float dtypes, or ['int32'] for ids; ranks: the accepted ranks). Each: [label, value, class, message].
 */
export function badTensors(name, valid, { dtypes = ['float64', 'float32'], ranks, rankRule }) {
  const n = escape(name);
  const wrongClass = dtypes.includes('int32') ? new Float64Array(valid.data.length) : new Int32Array(valid.data.length);
  const otherRank = ranks.includes(1) ? [valid.data.length, 1, 1] : [valid.data.length];
  return [
    ['missing', undefined, TypeError, new RegExp(`^${n} must be a tensor`)],
    ['null', null, TypeError, new RegExp(`^${n} must be a tensor`)],
    ['a number', 3, TypeError, new RegExp(`^${n} must be a tensor`)],
    ['a string', 'robot', TypeError, new RegExp(`^${n} must be a tensor`)],
    ['a bare typed array', valid.data, TypeError, new RegExp(`^${n} must be a tensor`)],
    ['an array', [1, 2], TypeError, new RegExp(`^${n} must be a tensor`)],
    ['data a plain array', { ...valid, data: Array.from(valid.data) }, TypeError, new RegExp(`^${n}\\.data must be a typed array`)],
    ['data a DataView', { ...valid, data: new DataView(new ArrayBuffer(8)) }, TypeError, new RegExp(`^${n}\\.data must be a typed array`)],
    ['data missing', { shape: valid.shape, dtype: valid.dtype }, TypeError, new RegExp(`^${n}\\.data must be a typed array`)],
    ['shape missing', { data: valid.data, dtype: valid.dtype }, TypeError, new RegExp(`^${n}\\.shape must be an array`)],
    ['shape a string', { ...valid, shape: '2,2' }, TypeError, new RegExp(`^${n}\\.shape must be an array`)],
    ['shape with a string entry', { ...valid, shape: [...valid.shape.slice(0, -1), String(valid.shape.at(-1))] }, TypeError, new RegExp(`^${n}\\.shape\\[\\d\\] must be a number`)],
    ['shape with a negative entry', { ...valid, shape: [-1, ...valid.shape.slice(1)] }, RangeError, new RegExp(`^${n}\\.shape\\[0\\] must be a non-negative integer`)],
    ['shape with a fraction', { ...valid, shape: [1.5, ...valid.shape.slice(1)] }, RangeError, new RegExp(`^${n}\\.shape\\[0\\] must be a non-negative integer`)],
    ['shape with NaN', { ...valid, shape: [NaN, ...valid.shape.slice(1)] }, RangeError, new RegExp(`^${n}\\.shape\\[0\\] must be a non-negative integer`)],
    ['shape with Infinity', { ...valid, shape: [Infinity, ...valid.shape.slice(1)] }, RangeError, new RegExp(`^${n}\\.shape\\[0\\] must be a non-negative integer`)],
    ['a wrong rank', { ...valid, shape: otherRank }, RangeError, rankRule instanceof RegExp ? rankRule : new RegExp(`^${n} must have shape ${escape(rankRule)}, got \\[`)],
    ['data longer than the shape', { ...valid, data: new valid.data.constructor(valid.data.length + 1) }, RangeError, new RegExp(`^${n}\\.data has \\d+ elements but shape`)],
    ['data shorter than the shape', { ...valid, data: new valid.data.constructor(Math.max(valid.data.length - 1, 0)), shape: valid.shape.map((x) => x || 1) }, RangeError, new RegExp(`^${n}\\.data has \\d+ elements but shape`)],
    ['data on a detached buffer', { data: detached(), shape: valid.shape, dtype: 'float64' }, TypeError, new RegExp(`^${n}\\.data: its buffer is detached`)],
    ['dtype a number', { ...valid, dtype: 64 }, TypeError, new RegExp(`^${n}\\.dtype must be a string`)],
    ['an unknown dtype', { ...valid, dtype: 'float16' }, RangeError, new RegExp(`^${n}\\.dtype must be 'float64', 'float32' or 'int32', got 'float16'`)],
    [`a dtype outside ${dtypes}`, { ...valid, dtype: dtypes.includes('int32') ? 'float64' : 'int32', data: dtypes.includes('int32') ? new Float64Array(valid.data.length) : new Int32Array(valid.data.length) }, RangeError, new RegExp(`^${n}\\.dtype must be`)],
    ['data of another class than the dtype', { ...valid, data: dtypes.includes('int32') ? new Uint32Array(valid.data.length) : (valid.dtype === 'float64' ? new Float32Array(valid.data.length) : new Float64Array(valid.data.length)) }, TypeError, new RegExp(`^${n}\\.data must be a`)],
    ['no dtype and data of an unknown class', { data: new Int16Array(valid.data.length), shape: valid.shape }, TypeError, new RegExp(`^${n}\\.data must be a typed array \\(Float64Array or Float32Array or Int32Array\\), got an Int16Array`)],
    ['no dtype and BigInt64Array data', { data: new BigInt64Array(valid.data.length), shape: valid.shape }, TypeError, new RegExp(`^${n}\\.data must be a`)],
    ['no dtype and data of another valid class', { data: wrongClass, shape: valid.shape }, RangeError, new RegExp(`^${n}\\.dtype must be`)],
  ];
}

/** The ways to get a number argument wrong. `integer`: must be an integer >= min. */
export function badNumbers(name, { integer = true, min = 0 } = {}) {
  const n = escape(name);
  const rows = [
    ['missing', undefined, TypeError, new RegExp(`^${n} must be a number, got undefined`)],
    ['null', null, TypeError, new RegExp(`^${n} must be a number, got null`)],
    ['a string', '4', TypeError, new RegExp(`^${n} must be a number, got the string "4"`)],
    ['a bigint', 4n, TypeError, new RegExp(`^${n} must be a number, got bigint 4`)],
    ['a boolean', true, TypeError, new RegExp(`^${n} must be a number, got boolean true`)],
    ['an array', [4], TypeError, new RegExp(`^${n} must be a number, got an array`)],
    ['a Number object', Object(4), TypeError, new RegExp(`^${n} must be a number, got object`)],
    ['a symbol', Symbol('4'), TypeError, new RegExp(`^${n} must be a number, got symbol`)],
    ['NaN', NaN, RangeError, new RegExp(`^${n} must be (an integer|a finite number)`)],
    ['Infinity', Infinity, RangeError, new RegExp(`^${n} must be (an integer|a finite number)`)],
    ['-Infinity', -Infinity, RangeError, new RegExp(`^${n} must be (an integer|a finite number)`)],
    ['negative', -2, RangeError, new RegExp(`^${n} must be (an integer|a finite number)`)],
  ];
  if (integer) rows.push(['a fraction', 4.5, RangeError, new RegExp(`^${n} must be an integer, got 4.5`)],
    ['beyond 2^53', 2 ** 60, RangeError, new RegExp(`^${n}`)]);
  else rows.push(['zero', 0, RangeError, new RegExp(`^${n} must be a finite number greater than 0, got 0`)],
    ['-0', -0, RangeError, new RegExp(`^${n} must be a finite number greater than 0`)]);
  if (min > 0) rows.push(['below the minimum', min - 1, RangeError, new RegExp(`^${n} must be`)]);
  return rows;
}

/** The ways to get the options argument wrong, for a function whose known options are `known`. */
export function badOptions(known) {
  return [
    ['null', null, TypeError, /^options must be an object, got null/],
    ['a number', 5, TypeError, /^options must be an object, got number 5/],
    ['a string', 'causal', TypeError, /^options must be an object, got the string/],
    ['an array', [], TypeError, /^options must be an object, got an array/],
    ['a typed array', new Float64Array(2), TypeError, /^options must be an object, got a Float64Array/],
    ['a function', () => {}, TypeError, /^options must be an object, got function/],
    ['an unknown option', { strat: 1 }, TypeError, new RegExp(`^options: unknown option 'strat' \\(known: ${known.join(', ')}\\)`)],
    ['a differently-cased option', { Start: 1 }, TypeError, /^options: unknown option 'Start'/],
  ];
}

/** Runs call() and asserts it throws exactly a `Class` (not a subclass) whose message matches `message`. */
export function expectError(what, call, Class, message) {
  let thrown;
  try {
    call();
  } catch (error) {
    thrown = error;
  }
  assert.ok(thrown !== undefined, `${what}: no error`);
  assert.ok(thrown instanceof Class && thrown.constructor === Class,
    `${what}: expected a ${Class.name}, got ${thrown?.constructor?.name}: ${thrown?.message ?? String(thrown)}`);
  assert.match(thrown.message, message, what);
}
