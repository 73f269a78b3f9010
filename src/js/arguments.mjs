// Reading the public API's arguments: each argument is read once, into plain values (numbers, strings, booleans, a
// plain copy of a shape, and a typed array's buffer, byteOffset and length read through the intrinsic %TypedArray%
// getters, so that a subclass or a proxy cannot lie about them). Only JS kinds are checked here (a number, a string, a
// typed array of a dtype's class: TypeError); every rule about values, shapes and sizes belongs to the core
// (src/core/api/calls.hpp), which reports it as a RangeError. Only what the caller's objects hold is read: an option,
// a tensor's field or a shape's axis that is only inherited from Object.prototype (or Array.prototype) counts as
// absent, and what these readers return has no prototype, so nothing on Object.prototype reaches a call.

/** The typed-array class of each dtype. */
export const DTYPES = Object.freeze({ __proto__: null, float64: Float64Array, float32: Float32Array, int32: Int32Array });
const DTYPE_OF_CLASS = Object.freeze({ __proto__: null, Float64Array: 'float64', Float32Array: 'float32', Int32Array: 'int32' });

// The intrinsic getters, taken once when the module loads.
const TypedArrayPrototype = Object.getPrototypeOf(Uint8Array.prototype);
const intrinsic = (prototype, key) => {
  const get = Object.getOwnPropertyDescriptor(prototype, key).get;
  return (value) => Reflect.apply(get, value, []);
};
/** 'Float32Array' for any Float32Array (a subclass's too), undefined for anything that is not a typed array. */
const classNameOf = intrinsic(TypedArrayPrototype, Symbol.toStringTag);
const bufferOf = intrinsic(TypedArrayPrototype, 'buffer');
const byteOffsetOf = intrinsic(TypedArrayPrototype, 'byteOffset');
const lengthOf = intrinsic(TypedArrayPrototype, 'length');
const { isArray, prototype: ArrayPrototype } = Array;
const { getPrototypeOf, hasOwn, prototype: ObjectPrototype } = Object;
const { ownKeys } = Reflect;

/**
 * object[key], read once, where the object or a prototype of its own holds the key (a class's getter, say); undefined
 * where only Object.prototype or Array.prototype does (or nothing).
 */
function fieldOf(object, key) {
  for (let o = object; o !== null && o !== ObjectPrototype && o !== ArrayPrototype; o = getPrototypeOf(o))
    if (hasOwn(o, key)) return object[key];
  return undefined;
}

/**
 * A short description of a value for messages: 'null', 'an array', 'a Float32Array', 'an Int32Array', 'the string "4"',
 * 'number 4'.
 */
export function describe(value) {
  if (value === null) return 'null';
  if (isArray(value)) return 'an array';
  const className = classNameOf(value);
  if (className !== undefined) return `${/^[AEIO]/.test(className) ? 'an' : 'a'} ${className}`;
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 20 ? value.slice(0, 20) + '…' : value)}`;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return `${typeof value} ${String(value)}`;
  if (typeof value === 'object' && value instanceof DataView) return 'a DataView';
  return typeof value;
}

/** A number (any value of it: the core checks the value). */
export function readNumber(name, value) {
  if (typeof value !== 'number') throw new TypeError(`${name} must be a number, got ${describe(value)}`);
  return value;
}

/** Each reader for an option: undefined stays undefined (the core's default applies). */
export const optional = (read) => (name, value) => (value === undefined ? undefined : read(name, value));

export function readBoolean(name, value) {
  if (typeof value !== 'boolean') throw new TypeError(`${name} must be true or false, got ${describe(value)}`);
  return value;
}

export function readString(name, value) {
  if (typeof value !== 'string') throw new TypeError(`${name} must be a string, got ${describe(value)}`);
  return value;
}

/** One of the given strings: for options of the JS layer itself (the loader's), and names it maps (ropeScaling.method). */
export function readChoice(name, value, choices) {
  const list = choices.map((c) => `'${c}'`).join(', ');
  if (typeof value !== 'string') throw new TypeError(`${name} must be a string, one of ${list}; got ${describe(value)}`);
  if (!choices.includes(value)) throw new RangeError(`${name} must be one of ${list}, got '${value}'`);
  return value;
}

/**
 * A plain object (its prototype Object.prototype or null): its own string keys, each for which isKey(key) holds
 * (else the TypeError unknown(key)), with their values read once each. Inherited properties are ignored. `like`
 * shows the expected form in the message when it is not one. Returns [[key, value], ...].
 */
function readEntries(name, object, like, isKey, unknown) {
  if (object === null || typeof object !== 'object' || isArray(object) || classNameOf(object) !== undefined)
    throw new TypeError(`${name} must be an object, got ${describe(object)}`);
  const prototype = getPrototypeOf(object);
  if (prototype !== ObjectPrototype && prototype !== null)
    throw new TypeError(`${name} must be a plain object like ${like}, got ${prototype?.constructor?.name ?? 'an object'} instance`);
  const entries = [];
  for (const key of ownKeys(object)) {
    if (typeof key !== 'string' || !isKey(key)) throw new TypeError(unknown(key));
    entries.push([key, object[key]]);
  }
  return entries;
}

/**
 * An options object: undefined, or a plain object whose own keys are all known. Only its own properties count
 * (inherited ones are ignored); each is read once. Returns an object without a prototype: an option not given reads
 * as undefined, whatever Object.prototype holds.
 */
export function readOptions(name, options, known) {
  const read = { __proto__: null };
  if (options === undefined) return read;
  const entries = readEntries(name, options, `{ ${known[0]}: … }`, (key) => known.includes(key),
    (key) => `${name}: unknown option '${String(key)}' (known: ${known.join(', ')})`);
  for (const [key, value] of entries) read[key] = value;
  return read;
}

/**
 * A plain object of named values, { [name]: value } (its own string keys; which names are valid is the core's rule).
 * Returns [[name, value], ...], each value read once.
 */
export function readNamed(name, object, like) {
  return readEntries(name, object, like, () => true, (key) => `${name}: its keys must be names (strings), got ${String(key)}`);
}

/** Whether a buffer has been detached (transferred): a view of it can no longer be made. */
function isDetached(buffer) {
  try {
    new Uint8Array(buffer, 0, 0);
    return false;
  } catch {
    return true;
  }
}

/** A typed array of one of `classes` (dtype names), recorded by its intrinsic buffer, offset and length. */
function readArray(name, value, dtypes) {
  const className = classNameOf(value);
  const dtype = DTYPE_OF_CLASS[className];
  if (dtype === undefined || !dtypes.includes(dtype))
    throw new TypeError(`${name} must be a typed array (${dtypes.map((d) => DTYPES[d].name).join(' or ')}), got ${describe(value)}`);
  const record = { name, dtype, buffer: bufferOf(value), byteOffset: byteOffsetOf(value), length: lengthOf(value), view: value };
  // (a detached buffer's views read as empty: only an empty one can be)
  if (record.length === 0 && isDetached(record.buffer)) throw new TypeError(`${name}: its buffer is detached`);
  return record;
}

/** A tensor argument as readTensor read it: its name (for messages), dtype, shape (a copy) and data (readArray's). */
class TensorRecord {
  constructor(name, dtype, shape, data) {
    this.name = name;
    this.dtype = dtype;
    this.shape = shape;
    this.data = data;
  }
}

/**
 * `value`, arguments as read (plain objects and arrays holding readTensor's records, and other values), with each
 * tensor in it replaced by tensor(it): a record, or a plain { data, shape, dtype } (a copy of one, as the pool sends
 * it). The objects and arrays around them are copied; nothing else is read.
 */
export function eachTensor(value, tensor) {
  if (value instanceof TensorRecord || (hasOwn(Object(value), 'data') && ArrayBuffer.isView(value.data))) return tensor(value);
  if (isArray(value)) return value.map((item) => eachTensor(item, tensor));
  if (value !== null && typeof value === 'object') {
    const copy = { __proto__: null };
    for (const key of Object.keys(value)) copy[key] = eachTensor(value[key], tensor);
    return copy;
  }
  return value;
}

/**
 * A tensor { data, shape, dtype }: its fields are read once each; data must be a Float64Array, Float32Array or
 * Int32Array, shape an array of numbers (copied), dtype (if given) the name of data's class.
 * Returns its record: { name, dtype, shape, data: { buffer, byteOffset, length } }.
 */
export function readTensor(name, tensor) {
  if (tensor === null || typeof tensor !== 'object' || isArray(tensor) || classNameOf(tensor) !== undefined)
    throw new TypeError(`${name} must be a tensor { data, shape, dtype }, got ${describe(tensor)}`);
  // data first, recorded at once: a later getter that detaches or shrinks it is caught before it is copied
  const dataValue = fieldOf(tensor, 'data');
  const data = readArray(`${name}.data`, dataValue, Object.keys(DTYPES));
  const shapeValue = fieldOf(tensor, 'shape');
  const dtypeValue = fieldOf(tensor, 'dtype');
  if (!isArray(shapeValue)) throw new TypeError(`${name}.shape must be an array of integers, got ${describe(shapeValue)}`);
  const rank = shapeValue.length;
  if (rank > MAX_RANK) throw new RangeError(`${name}.shape must have at most ${MAX_RANK} axes, got ${rank}`);
  const shape = [];
  for (let axis = 0; axis < rank; axis++) {
    const size = fieldOf(shapeValue, axis);
    if (typeof size !== 'number') throw new TypeError(`${name}.shape[${axis}] must be a number, got ${describe(size)}`);
    shape.push(size);
  }
  if (dtypeValue !== undefined) {
    if (typeof dtypeValue !== 'string') throw new TypeError(`${name}.dtype must be a string, got ${describe(dtypeValue)}`);
    if (!(dtypeValue in DTYPES))
      throw new RangeError(`${name}.dtype must be 'float64', 'float32' or 'int32', got '${dtypeValue}'`);
    if (dtypeValue !== data.dtype)
      throw new TypeError(`${name}.data must be a ${DTYPES[dtypeValue].name} for dtype '${dtypeValue}', got ${describe(dataValue)}`);
  }
  return new TensorRecord(name, data.dtype, shape, data);
}

/** Axes a tensor may have: far more than any function takes (the core says which ranks it accepts). */
const MAX_RANK = 32;

/**
 * An `out` array for a result of `dtype` (undefined when the result's dtype is not known here: the core then refuses
 * the call for another reason). Returns its record, or undefined when no out was given.
 */
export function readOut(name, out, dtype) {
  if (out === undefined) return undefined;
  const floats = ['float64', 'float32'];
  const record = readArray(name, out, floats);
  if ((dtype === 'float64' || dtype === 'float32') && record.dtype !== dtype)
    throw new TypeError(`${name} must be a ${DTYPES[dtype].name} for a '${dtype}' result, got ${describe(out)}`);
  return record;
}

/** Whether the array readArray recorded still holds its elements (its buffer neither detached nor shrunk since). */
export function stillThere(record) {
  return record.length === 0 || lengthOf(record.view) >= record.length;
}

/**
 * Throws a TypeError unless the array recorded by readArray still holds what was read: its buffer detached or shrunk
 * since (by a getter of a later argument, say) would make the call read or write past it.
 */
export function checkStillThere(record) {
  if (!stillThere(record))
    throw new TypeError(`${record.name}: its buffer was detached or shrunk after the arguments were read (it held ${record.length} elements)`);
}

/** A Uint8Array over exactly the bytes recorded by readArray. */
export function bytesOf(record) {
  return new Uint8Array(record.buffer, record.byteOffset, record.length * DTYPES[record.dtype].BYTES_PER_ELEMENT);
}
