// Argument checks for the public API. Every failure is a TypeError (wrong kind of thing) or a RangeError (right kind,
// wrong value), and its message starts with the argument's name and states the rule.

export const DTYPES = Object.freeze({ float64: Float64Array, float32: Float32Array, int32: Int32Array });

const describe = (value) => {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (ArrayBuffer.isView(value)) return `a ${value.constructor.name}`;
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 20 ? value.slice(0, 20) + '…' : value)}`;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return `${typeof value} ${String(value)}`;
  return typeof value;
};

/** An integer in [min, max]: TypeError unless a number, RangeError unless a safe integer in range. */
export function checkInteger(name, value, { min = 0, max = Number.MAX_SAFE_INTEGER } = {}) {
  if (typeof value !== 'number') throw new TypeError(`${name} must be a number, got ${describe(value)}`);
  if (!Number.isInteger(value)) throw new RangeError(`${name} must be an integer, got ${value}`);
  if (value < min || value > max) {
    // (an integer above 2^53 - 1 is not "less than min": say which limit it broke)
    const rule = max !== Number.MAX_SAFE_INTEGER ? `between ${min} and ${max}` : value < min ? `at least ${min}` : 'at most 2^53 - 1';
    throw new RangeError(`${name} must be an integer ${rule}, got ${value}`);
  }
  return value;
}

/** A finite number > 0. */
export function checkPositiveNumber(name, value) {
  if (typeof value !== 'number') throw new TypeError(`${name} must be a number, got ${describe(value)}`);
  if (!Number.isFinite(value) || value <= 0) throw new RangeError(`${name} must be a finite number greater than 0, got ${value}`);
  return value;
}

export function checkBoolean(name, value) {
  if (typeof value !== 'boolean') throw new TypeError(`${name} must be true or false, got ${describe(value)}`);
  return value;
}

/** One of the given strings. */
export function checkChoice(name, value, choices) {
  if (typeof value !== 'string') throw new TypeError(`${name} must be a string, one of ${choices.map((c) => `'${c}'`).join(', ')}; got ${describe(value)}`);
  if (!choices.includes(value)) throw new RangeError(`${name} must be one of ${choices.map((c) => `'${c}'`).join(', ')}, got '${value}'`);
  return value;
}

/** An options object (or undefined) whose keys are all known; returns it (or {}). */
export function checkOptions(name, options, known) {
  if (options === undefined) return {};
  if (options === null || typeof options !== 'object' || Array.isArray(options) || ArrayBuffer.isView(options))
    throw new TypeError(`${name} must be an object, got ${describe(options)}`);
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) throw new TypeError(`${name}: unknown option '${key}' (known: ${known.join(', ')})`);
  }
  return options;
}

/**
 * A tensor { data, shape, dtype }. Checks the kinds (TypeError), then the values (RangeError): dtype among `dtypes`,
 * data of the dtype's array class, rank among `ranks`, shape entries non-negative integers, data.length = product.
 * dtype may be omitted when data's class says it. Returns { data, shape, dtype }.
 */
export function checkTensor(name, tensor, { dtypes = ['float64', 'float32'], ranks = [1, 2, 3] } = {}) {
  if (tensor === null || typeof tensor !== 'object' || ArrayBuffer.isView(tensor) || Array.isArray(tensor))
    throw new TypeError(`${name} must be a tensor { data, shape, dtype }, got ${describe(tensor)}`);
  const { data, shape } = tensor;
  if (!ArrayBuffer.isView(data) || data instanceof DataView)
    throw new TypeError(`${name}.data must be a typed array (${dtypes.map((d) => DTYPES[d].name).join(' or ')}), got ${describe(data)}`);
  if (!Array.isArray(shape)) throw new TypeError(`${name}.shape must be an array of integers, got ${describe(shape)}`);
  let dtype = tensor.dtype;
  if (dtype === undefined) dtype = Object.keys(DTYPES).find((d) => data instanceof DTYPES[d]);
  if (dtype === undefined) // no dtype given and data is an Int16Array, a BigInt64Array, ...: name the data's class
    throw new TypeError(`${name}.data must be a ${dtypes.map((d) => DTYPES[d].name).join(' or ')}, got ${describe(data)}`);
  if (typeof dtype !== 'string') throw new TypeError(`${name}.dtype must be a string, got ${describe(dtype)}`);
  if (!dtypes.includes(dtype)) throw new RangeError(`${name}.dtype must be ${dtypes.map((d) => `'${d}'`).join(' or ')}, got '${dtype}'`);
  if (!(data instanceof DTYPES[dtype])) throw new TypeError(`${name}.data must be a ${DTYPES[dtype].name} for dtype '${dtype}', got ${describe(data)}`);
  if (!ranks.includes(shape.length))
    throw new RangeError(`${name} must have rank ${ranks.join(' or ')}, got shape [${shape.join(', ')}]`);
  let count = 1;
  for (const [axis, n] of shape.entries()) {
    if (typeof n !== 'number') throw new TypeError(`${name}.shape[${axis}] must be a number, got ${describe(n)}`);
    if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`${name}.shape[${axis}] must be a non-negative integer, got ${n}`);
    count *= n;
  }
  if (data.length !== count)
    throw new RangeError(`${name}.data has ${data.length} elements but shape [${shape.join(', ')}] needs ${count}`);
  return { data, shape: [...shape], dtype };
}

/** An `out` array for a result of `count` elements of `dtype`. */
export function checkOut(name, out, dtype, count) {
  if (out === undefined) return undefined;
  if (!ArrayBuffer.isView(out) || out instanceof DataView) throw new TypeError(`${name} must be a typed array, got ${describe(out)}`);
  if (!(out instanceof DTYPES[dtype])) throw new RangeError(`${name} must be a ${DTYPES[dtype].name} for a '${dtype}' result, got a ${out.constructor.name}`);
  if (out.length !== count) throw new RangeError(`${name} must have exactly ${count} elements for this result, got ${out.length}`);
  return out;
}
