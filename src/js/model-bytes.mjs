// A saved model's bytes (model.save() → so.loadModel(bytes)): format version 2, little-endian.
//
//   offset 0        8 bytes   the magic: ASCII 'SEQORDER'
//          8        uint32    the format version: 2
//          12       uint32    n, the byte length of the configuration
//          16       n bytes   the configuration, JSON (UTF-8): model.config, each of createModel's options given
//          16 + n   0–7       zeros, up to a multiple of 8 bytes: offset o
//          o        float64   Adam's step count
//          o + 8    uint64    the training position stream's state (randomized positions: docs/model.md)
//          o + 16   uint64    the evaluation position stream's state
//          o + 24   P values  the parameters, of the config's dtype, in the order of parameters(), one after another
//                   P values  Adam's first moment m, laid out the same
//                   P values  Adam's second moment v
//
// Version 1 (before the position streams) is the same without the two states, the parameters at o + 8; a model
// loaded from it starts its streams where a new model of its seed does.
//
// The configuration is written from the keys of createModel's option table (model.mjs), so a new option is saved
// and loaded with no new code here. Reading checks the header; the configuration, the parameter count and every value
// (finite; v >= 0) are the core's to check when it makes the model (src/core/api/model_calls.hpp, ModelTable::load).
import { DTYPES, describe } from './arguments.mjs';

const MAGIC = 'SEQORDER';
export const FORMAT_VERSION = 2;
const HEADER = 16;
const ELEMENT_BYTES = { __proto__: null, float32: 4, float64: 8 };

/**
 * The bytes of a model of `config` (its keys `keys`) and state { parameters, m, v, steps, streams } (model_save's
 * results; streams: an Int32Array (4), each stream's low and high 32 bits, the bytes of the two uint64 states).
 */
export function encodeModel(config, keys, { parameters, m, v, steps, streams }) {
  const saved = {};
  for (const key of keys) if (config[key] !== undefined) saved[key] = config[key];
  const json = new TextEncoder().encode(JSON.stringify(saved));
  const offset = Math.ceil((HEADER + json.length) / 8) * 8;
  const bytes = new Uint8Array(offset + 24 + 3 * parameters.byteLength);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < MAGIC.length; i++) bytes[i] = MAGIC.charCodeAt(i);
  view.setUint32(8, FORMAT_VERSION, true);
  view.setUint32(12, json.length, true);
  bytes.set(json, HEADER);
  view.setFloat64(offset, steps, true);
  for (let i = 0; i < 4; i++) view.setInt32(offset + 8 + 4 * i, streams[i], true);
  let at = offset + 24;
  for (const values of [parameters, m, v]) {
    bytes.set(new Uint8Array(values.buffer, values.byteOffset, values.byteLength), at);
    at += values.byteLength;
  }
  return bytes;
}

/**
 * A saved model's bytes read: { config, parameters, m, v, steps, streams } (typed arrays of the config's dtype, on
 * their own buffers; streams an Int32Array (4) as encodeModel takes it, undefined in format version 1). TypeError
 * unless bytes is a Uint8Array; RangeError for bytes that are not a saved model, of a later format version, or cut
 * short.
 */
export function decodeModel(bytes) {
  if (Object.prototype.toString.call(bytes) !== '[object Uint8Array]') throw new TypeError(`bytes must be a Uint8Array (what model.save() returned), got ${describe(bytes)}`);
  const head = String.fromCharCode(...bytes.subarray(0, MAGIC.length));
  if (head !== MAGIC) throw new RangeError(`bytes are not a saved seqorder model: they must begin with '${MAGIC}' (model.save()'s format)`);
  if (bytes.length < HEADER) throw new RangeError(`bytes hold ${bytes.length} bytes, fewer than a saved model's ${HEADER}-byte header: they were cut short`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint32(8, true);
  if (version !== 1 && version !== FORMAT_VERSION)
    throw new RangeError(`bytes are a saved model of format version ${version}; this seqorder reads versions 1 and ${FORMAT_VERSION}${version > FORMAT_VERSION ? ': update seqorder to load it' : ''}`);
  const length = view.getUint32(12, true);
  const offset = Math.ceil((HEADER + length) / 8) * 8;
  const state = version === 1 ? 8 : 24;  // the step count, and the streams' states (version 2)
  if (bytes.length < offset + state) throw new RangeError(`bytes hold ${bytes.length} bytes, fewer than the ${offset + state} of their header, configuration, step count and streams: they were cut short`);
  let config;
  try {
    config = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(HEADER, HEADER + length)));
  } catch (error) {
    throw new RangeError(`bytes: the saved configuration is not JSON (${error.message}): the bytes are damaged`);
  }
  if (config === null || typeof config !== 'object' || Array.isArray(config))
    throw new RangeError(`bytes: the saved configuration must be an object of createModel's options, got ${describe(config)}`);
  const dtype = config.dtype;
  const Array_ = DTYPES[dtype];
  if (!ELEMENT_BYTES[dtype]) throw new RangeError(`bytes: the saved configuration's dtype must be 'float32' or 'float64', got ${describe(dtype)}`);
  const steps = view.getFloat64(offset, true);
  const streams = version === 1 ? undefined : Int32Array.from({ length: 4 }, (_, i) => view.getInt32(offset + 8 + 4 * i, true));
  const rest = bytes.length - offset - state, each = 3 * ELEMENT_BYTES[dtype];
  if (rest % each !== 0)
    throw new RangeError(`bytes: the ${rest} bytes after the header are not three arrays of ${dtype} values (parameters, Adam's m and v): they were cut short or damaged`);
  const count = rest / each;
  const at = (i) => new Array_(bytes.slice(offset + state + i * count * ELEMENT_BYTES[dtype], offset + state + (i + 1) * count * ELEMENT_BYTES[dtype]).buffer);
  return { config, steps, streams, parameters: at(0), m: at(1), v: at(2) };
}
