// Randomized test of the public API: thousands of calls, fixed seed, mixing valid arguments of every kind
// (sizes from empty to a few thousand elements, both dtypes, values from subnormal to huge, NaN and infinities,
// omitted dtypes, views into larger and shared buffers, every option) with invalid ones (one corruption per call,
// from a catalogue of wrong kinds and wrong values for every argument). Every call must either return what the
// independent plain-JS reference (reference.mjs) computes, within its error bounds, or throw a TypeError/RangeError
// of the expected class whose message names the argument: never an abort, a bare number, a thrown string, a result
// for invalid arguments, or a hung module. Reproduce a run with SEQORDER_FUZZ_SEED and SEQORDER_FUZZ_CALLS.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadSeqorder } from './helpers/load.mjs';
import * as reference from './helpers/reference.mjs';
import { random } from './helpers/random.mjs';

const SEED = Number(process.env.SEQORDER_FUZZ_SEED ?? 20261129);
const CALLS = Number(process.env.SEQORDER_FUZZ_CALLS ?? 6000);
const ARRAYS = { float64: Float64Array, float32: Float32Array, int32: Int32Array };

// ---- a seeded generator (mulberry32) ----
function generator(seed) {
  const next = random(seed);
  const int = (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)); // lo..hi inclusive
  const pick = (list) => list[Math.floor(next() * list.length)];
  const chance = (p) => next() < p;
  const logUniform = (lo, hi) => Math.exp(Math.log(lo) + next() * (Math.log(hi) - Math.log(lo)));
  return { next, int, pick, chance, logUniform };
}
const R = generator(SEED);
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const product = (shape) => shape.reduce((a, b) => a * b, 1);

// ---- valid values ----
const PROFILES = ['unit', 'unit', 'unit', 'wide', 'integers', 'tiny', 'huge', 'special'];
/** `count` values of a profile, representable in the dtype. Magnitudes stay where no dot product of <= 16 terms overflows. */
function values(count, dtype, profile) {
  const out = new Float64Array(count);
  const f32 = dtype === 'float32';
  for (let n = 0; n < count; n++) {
    const sign = R.chance(0.5) ? -1 : 1;
    switch (profile) {
      case 'unit': out[n] = R.next() * 2 - 1; break;
      case 'wide': out[n] = sign * R.logUniform(1e-3, 1e3); break;
      case 'integers': out[n] = R.int(-3, 3); break;
      case 'tiny': out[n] = R.chance(0.2) ? sign * 0 : sign * (f32 ? R.logUniform(1.5e-45, 1e-37) : R.logUniform(5e-324, 1e-300)); break;
      case 'huge': out[n] = sign * (f32 ? R.logUniform(1e15, 1e18) : R.logUniform(1e100, 1e150)); break;
      case 'special': out[n] = R.chance(0.15) ? R.pick([NaN, Infinity, -Infinity, -0]) : R.next() * 2 - 1; break;
    }
  }
  return out;
}

/** A float tensor of the shape: its data sometimes a view into a larger (or shared) buffer, its dtype sometimes left out. */
function floatTensor(shape, dtype, profile = R.pick(PROFILES), { noDtype = R.chance(0.2) } = {}) {
  const count = product(shape);
  const Array_ = ARRAYS[dtype];
  let data;
  const where = R.int(0, 9);
  if (where === 0) {
    const offset = R.int(1, 5);
    data = new Array_(count + offset + R.int(0, 3)).subarray(offset, offset + count);
  } else if (where === 1) {
    data = new Array_(new SharedArrayBuffer(Math.max(count, 1) * Array_.BYTES_PER_ELEMENT), 0, count);
  } else {
    data = new Array_(count);
  }
  data.set(values(count, dtype, profile));
  return noDtype ? { data, shape } : { data, shape, dtype };
}
const normalized = (t) => ({ data: t.data, shape: t.shape, dtype: t.dtype ?? Object.keys(ARRAYS).find((d) => t.data instanceof ARRAYS[d]) });
const evenWidth = (max = 16) => 2 * R.int(1, max / 2);
const maybe = (p, value) => (R.chance(p) ? value : undefined);
const start = (length) => R.pick([0, 0, R.int(0, 20), R.int(0, 1e6), R.int(0, 2 ** 40), 2 ** 53 - length, -0]);
const base = () => R.pick([undefined, 10000, R.logUniform(1.01, 1e6), R.logUniform(0.2, 0.99)]);
/** An options object from the entries that are defined (sometimes keeping explicit undefined ones), or undefined. */
function options(entries) {
  const o = {};
  for (const [key, value] of Object.entries(entries)) if (value !== undefined || R.chance(0.1)) o[key] = value;
  return Object.keys(o).length === 0 && R.chance(0.5) ? undefined : o;
}

// ---- valid calls: { fn, args, want(result) -> '' or a difference, out } ----
const VALID = {
  positions() {
    const width = R.chance(0.1) ? 1024 : evenWidth(64);
    const length = width === 1024 ? R.int(0, 4) : R.int(0, 40);
    const dtype = R.pick([undefined, 'float64', 'float32']);
    const o = { start: start(length), base: base(), dtype, layout: R.pick([undefined, 'interleaved', 'halves']) };
    const out = maybe(0.15, new ARRAYS[dtype ?? 'float64'](length * width));
    const args = [length, width, options({ ...o, out })];
    const given = args[2] ?? {};
    return {
      fn: 'positions', args, out: given.out,
      want: (r) => reference.difference(r, reference.positions(length, width, {
        start: given.start ?? 0, base: given.base ?? 10000, dtype: given.dtype ?? 'float64', layout: given.layout ?? 'interleaved' })),
    };
  },
  embed() {
    const vocab = R.int(1, 20);
    const width = R.int(0, 16);
    const table = floatTensor([vocab, width], R.pick(['float64', 'float32']));
    const idsShape = R.chance(0.5) ? [R.int(0, 12)] : [R.int(0, 3), R.int(0, 6)];
    const ids = { data: Int32Array.from({ length: product(idsShape) }, () => R.int(0, vocab - 1)), shape: idsShape };
    if (R.chance(0.7)) ids.dtype = 'int32';
    const out = maybe(0.15, new ARRAYS[normalized(table).dtype](product(idsShape) * width));
    const args = [table, ids, ...(out ? [{ out }] : R.chance(0.2) ? [{}] : [])];
    return { fn: 'embed', args, out, want: (r) => reference.difference(r, reference.embed(normalized(table), normalized(ids))) };
  },
  addPositions: () => sequenceCall('addPositions'),
  rope: () => sequenceCall('rope'),
  learnedPositions() {
    const rows = R.int(0, 20);
    const table = floatTensor([rows, R.int(0, 8)], R.pick(['float64', 'float32']));
    const length = R.int(0, rows);
    const s = R.int(0, rows - length);
    const out = maybe(0.15, new ARRAYS[normalized(table).dtype](length * table.shape[1]));
    const args = [table, length, options({ start: R.chance(0.7) ? s : undefined, out })];
    const given = args[2] ?? {};
    return { fn: 'learnedPositions', args, out, want: (r) => reference.difference(r, reference.learnedPositions(normalized(table), length, { start: given.start ?? 0 })) };
  },
  attention() {
    const dtype = R.pick(['float64', 'float32']);
    const causal = R.chance(0.5);
    const queries = R.int(0, 8);
    const keys = causal ? queries + R.int(0, 6) : R.int(0, 10);
    const width = R.int(1, 16);
    const valueWidth = R.int(0, 8);
    const lead = R.chance(0.5) ? [R.int(0, 3)] : [];
    const profile = R.pick(PROFILES);
    const q = floatTensor([...lead, queries, width], dtype, profile);
    const k = floatTensor([...lead, keys, width], dtype, profile);
    const v = floatTensor([...lead, keys, valueWidth], dtype, R.pick([profile, 'unit']));
    // causal: an explicit queryStart in range, or the default (without causal, a queryStart is an error: see below)
    const queryStart = causal && R.chance(0.6) ? R.int(0, keys - queries) : undefined;
    const steps = R.pick([undefined, false, true]);
    const out = maybe(0.15, new ARRAYS[dtype](product(lead) * queries * valueWidth));
    const args = [q, k, v, options({ causal: causal || R.chance(0.3) ? causal : undefined, queryStart, steps, out })];
    return {
      fn: 'attention', args, out,
      want(r) {
        const want = reference.attention(normalized(q), normalized(k), normalized(v), { causal, queryStart: causal ? queryStart : undefined });
        if (!steps) return reference.difference(r, want.output);
        for (const step of ['scores', 'scaled', 'weights', 'output']) {
          const d = reference.difference(r?.[step], want[step]);
          if (d) return `${step}: ${d}`;
        }
        return '';
      },
      outOf: (r) => (steps ? r.output.data : r.data),
    };
  },
};

function sequenceCall(fn) {
  const dtype = R.pick(['float64', 'float32']);
  const lead = R.chance(0.5) ? [R.int(0, 3)] : [];
  const x = floatTensor([...lead, R.int(0, 12), evenWidth(16)], dtype);
  const length = x.shape.at(-2);
  const out = maybe(0.15, new ARRAYS[dtype](x.data.length));
  const args = [x, options({ start: start(length), base: base(), out })];
  const given = args[1] ?? {};
  return { fn, args, out, want: (r) => reference.difference(r, reference[fn](normalized(x), { start: given.start ?? 0, base: given.base ?? 10000 })) };
}

// ---- corruptions: each takes a valid call and returns { kind, Class, message } after breaking one argument ----
const NOT_OBJECTS = [undefined, null, 7, 'robot', true, 10n, Symbol('x'), [1, 2], () => 0];
const NOT_NUMBERS = ['4', 4n, null, true, [4], {}, Symbol('4'), Object(4)];

/** Argument slots of each function: [index, name, kind] with kind tensor / int / even / options. */
const SLOTS = {
  positions: [[0, 'length', 'int'], [1, 'width', 'even'], [2, 'options', 'options']],
  embed: [[0, 'table', 'tensor'], [1, 'ids', 'ids'], [2, 'options', 'options']],
  addPositions: [[0, 'x', 'tensor'], [1, 'options', 'options']],
  rope: [[0, 'x', 'tensor'], [1, 'options', 'options']],
  learnedPositions: [[0, 'table', 'tensor'], [1, 'length', 'int'], [2, 'options', 'options']],
  attention: [[0, 'q', 'tensor'], [1, 'k', 'tensor'], [2, 'v', 'tensor'], [3, 'options', 'options']],
};
const OPTIONS = {
  positions: { start: 'start', base: 'base', dtype: 'dtype', layout: 'layout', out: 'out' },
  embed: { out: 'out' },
  addPositions: { start: 'start', base: 'base', out: 'out' },
  rope: { start: 'start', base: 'base', out: 'out' },
  learnedPositions: { start: 'start', out: 'out' },
  attention: { causal: 'boolean', queryStart: 'queryStart', steps: 'boolean', out: 'out' },
};

function corruptTensor(call, index, name, ids) {
  const t = { ...call.args[index] };
  const n = escape(name);
  const rank = t.shape.length;
  const allowed = ids ? [1, 2] : call.fn === 'embed' || call.fn === 'learnedPositions' ? [2] : [2, 3, 4, 5];
  // the rule each function states for a wrong rank (k and v: a rank other than q's)
  const rankRule = ids ? '\\(T\\) or \\(B, T\\)' : call.fn === 'embed' ? '\\(V, D\\)' : call.fn === 'learnedPositions' ? '\\(P, D\\)' : call.fn === 'attention' ? '\\(Tq, D\\) or' : '\\(T, D\\) or';
  const cases = [
    () => { call.args[index] = R.pick(NOT_OBJECTS); return ['tensor: not an object', TypeError, `^${n} must be a tensor`]; },
    () => { call.args[index] = t.data; return ['tensor: a bare typed array', TypeError, `^${n} must be a tensor`]; },
    () => { t.data = R.pick([Array.from(t.data), null, undefined, {}, 'abc', new DataView(new ArrayBuffer(8)), t.data.buffer]); return ['tensor: data not a typed array', TypeError, `^${n}\\.data must be a typed array`]; },
    () => { t.shape = R.pick([undefined, null, `${t.shape}`, product(t.shape), { 0: 1, length: 1 }, new Int32Array(t.shape)]); return ['tensor: shape not an array', TypeError, `^${n}\\.shape must be an array`]; },
    () => { t.shape = [...t.shape]; t.shape[R.int(0, rank - 1)] = R.pick(['2', null, undefined, 2n, [2]]); return ['tensor: shape entry not a number', TypeError, `^${n}\\.shape\\[\\d\\] must be a number`]; },
    () => { t.shape = [...t.shape]; t.shape[R.int(0, rank - 1)] = R.pick([-1, -7, 1.5, NaN, Infinity, 2 ** 53]); return ['tensor: shape entry negative/fractional/non-finite/unsafe', RangeError, `^${n}\\.shape\\[\\d\\] must be a non-negative integer`]; },
    () => { t.data = new t.data.constructor(t.data.length + R.pick([1, 2, 5])); return ['tensor: data longer than the shape', RangeError, `^${n}\\.data has \\d+ elements but shape`]; },
    () => { t.shape = [...Array(R.pick([0, 1, 3, 4, 5].filter((r) => !allowed.includes(r))))].map(() => 1); t.data = new t.data.constructor(1); return ['tensor: wrong rank', RangeError, call.fn === 'attention' && name !== 'q' ? '^q, k and v must have the same rank' : `^${n} must have shape ${rankRule}`]; },
    () => { t.dtype = R.pick(['float16', 'Float64', 'f32', 'int64', '']); return ['tensor: unknown dtype', RangeError, `^${n}\\.dtype must be`]; },
    () => { t.dtype = R.pick([64, null, {}, true]); return ['tensor: dtype not a string', TypeError, `^${n}\\.dtype must be a string`]; },
    () => {
      t.dtype = ids ? 'int32' : t.dtype ?? normalized(t).dtype;
      t.data = ids ? new Float32Array(t.data.length) : t.dtype === 'float64' ? new Float32Array(t.data.length) : new Float64Array(t.data.length);
      return ['tensor: data of another class than its dtype', TypeError, `^${n}\\.data must be a`];
    },
    () => {
      delete t.dtype;
      t.data = ids ? new Float64Array(t.data.length) : new Int32Array(t.data.length);
      return ['tensor: int32 for floats or floats for ids', RangeError, `^${n}\\.dtype must be`];
    },
    () => { delete t.dtype; t.data = new (R.pick([Int16Array, Uint8Array, Uint32Array, BigInt64Array, Int8Array, Uint8ClampedArray]))(t.data.length); return ['tensor: typed array of an unsupported class', TypeError, `^${n}\\.data must be a`]; },
  ];
  const [kind, Class, message] = R.pick(cases)();
  if (call.args[index] !== t.data && typeof call.args[index] === 'object' && call.args[index] !== null && !Array.isArray(call.args[index])) call.args[index] = t;
  return { kind, Class, message: new RegExp(message) };
}

function corruptNumber(call, index, name, { even = false, integer = true, positive = false } = {}) {
  const n = escape(name);
  const cases = [
    () => [R.pick(NOT_NUMBERS), 'number: wrong kind', TypeError, `^${n} must be a number`],
    () => [R.pick([NaN, Infinity, -Infinity]), 'number: NaN or infinite', RangeError, `^${n} must be`],
    () => [positive ? R.pick([0, -0, -1, -1e-300]) : R.pick([-1, -2, -1e9]), 'number: negative (or zero for base)', RangeError, `^${n} must be`],
  ];
  if (integer) cases.push(() => [R.pick([0.5, 4.5, 1 + 2 ** -30]), 'number: fraction', RangeError, `^${n} must be an integer`],
    () => [R.pick([2 ** 53 + 2, 2 ** 60, 1e300]), 'number: beyond 2^53', RangeError, `^${n}`]);
  if (even) cases.push(() => [R.pick([1, 3, 7, 0]), 'width: odd or zero', RangeError, `^${n} must be`]);
  const [value, kind, Class, message] = R.pick(cases)();
  if (index === 'option') return { value, kind, Class, message: new RegExp(message) };
  call.args[index] = value;
  return { kind, Class, message: new RegExp(message) };
}

function corruptOptions(call, index) {
  const known = OPTIONS[call.fn];
  const given = { ...(call.args[index] ?? {}) };
  const set = (key, value) => { given[key] = value; call.args[index] = given; };
  const cases = [
    () => { call.args[index] = R.pick([null, 5, 'causal', [], new Float64Array(1), () => {}, true]); return ['options: not an object', TypeError, '^options must be an object']; },
    () => { set(R.pick(['strat', 'Start', 'length', 'dtypes', 'mask', 'query_start', 'toString']), 1); return ['options: unknown option', TypeError, "^options: unknown option '"]; },
  ];
  for (const [key, kind] of Object.entries(known)) {
    if (kind === 'start' || kind === 'queryStart') cases.push(() => {
      const c = corruptNumber(call, 'option', key);
      set(key, c.value);
      if (kind === 'queryStart') given.causal = true;
      return [`options.${key}: ${c.kind}`, c.Class, c.message.source];
    });
    if (kind === 'base') cases.push(() => {
      const c = corruptNumber(call, 'option', 'base', { integer: false, positive: true });
      set(key, c.value);
      return [`options.base: ${c.kind}`, c.Class, c.message.source];
    });
    if (kind === 'dtype' || kind === 'layout') cases.push(() => {
      if (R.chance(0.5)) { set(key, R.pick(['int32', 'float16', 'rows', 'HALVES', ''])); return [`options.${key}: unknown string`, RangeError, `^${key} must be '`]; }
      set(key, R.pick([32, null, Float64Array, true])); return [`options.${key}: not a string`, TypeError, `^${key} must be a string`];
    });
    if (kind === 'boolean') cases.push(() => { set(key, R.pick([1, 0, 'true', null, 'yes'])); return [`options.${key}: not a boolean`, TypeError, `^${key} must be true or false`]; });
    if (kind === 'out') cases.push(() => {
      const r = R.int(0, 2);
      if (r === 0) { set('out', R.pick([[0, 1], 'out', 5, new DataView(new ArrayBuffer(8)), {}])); return ['out: not a typed array', TypeError, '^out must be a typed array']; }
      if (r === 1) { set('out', new Int32Array(1)); return ['out: wrong class', TypeError, '^out must be a']; }
      return null; // the wrong-length case needs the result's size: done by the caller
    });
  }
  const result = R.pick(cases)();
  if (result === null) {
    // an out array of the right class and a wrong length
    call.wrongOut = true;
    return { kind: 'out: wrong length', Class: RangeError, message: /^out must have exactly \d+ elements/ };
  }
  const [kind, Class, message] = result;
  return { kind, Class, message: new RegExp(message) };
}

/** Cross-argument corruptions: valid kinds, values that do not fit together or are too large. */
const SEMANTIC = {
  positions: [
    (c) => { c.args[1] = R.pick([1, 3, 5, 63]); return ['positions: odd width', RangeError, /^width must be a positive even integer/]; },
    (c) => { const length = R.int(1, 10); c.args[0] = length; c.args[2] = { start: 2 ** 53 - length + R.int(1, 5) }; return ['positions: start + length past 2^53', RangeError, /^start/]; },
    (c) => { c.args[0] = R.pick([2 ** 20, 2 ** 27, 2 ** 40]); c.args[1] = R.pick([2 ** 10, 2 ** 12]); c.args[2] = R.pick([undefined, { dtype: 'float32' }]); return ['positions: table beyond the size limit', RangeError, /^positions of shape .* is too large/]; },
  ],
  embed: [
    (c) => {
      const ids = { ...c.args[1], data: c.args[1].data.length ? c.args[1].data.slice() : Int32Array.of(0), shape: c.args[1].data.length ? c.args[1].shape : [1] };
      ids.data[R.int(0, ids.data.length - 1)] = R.pick([c.args[0].shape[0], c.args[0].shape[0] + 7, -1, -(2 ** 31), 2 ** 31 - 1]);
      c.args[1] = ids;
      c.args.length = 2; // (an out array would no longer fit ids of another length)
      return ['embed: an id outside the table', RangeError, /^ids\[[\d, ]+\] = -?\d+ is outside the table's rows/];
    },
    (c) => { c.args[0] = { data: new Float64Array(2 ** 16), shape: [1, 2 ** 16] }; c.args[1] = { data: new Int32Array(2 ** 14 + 1), shape: [2 ** 14 + 1] }; c.args.length = 2; return ['embed: result beyond the size limit', RangeError, /^embeddings of shape .* is too large/]; },
  ],
  addPositions: [(c) => oddWidth(c), (c) => startPast(c)],
  rope: [(c) => oddWidth(c), (c) => startPast(c)],
  learnedPositions: [
    (c) => { const rows = c.args[0].shape[0]; c.args[1] = rows + R.int(1, 3); c.args[2] = undefined; return ['learned: rows past the table', RangeError, /^start \+ length must be at most the table's rows P = \d+, got rows/]; },
    (c) => { const rows = c.args[0].shape[0]; c.args[1] = R.int(0, 2); c.args[2] = { start: Math.max(0, rows - c.args[1]) + R.int(1, 1e6) }; return ['learned: start past the table', RangeError, /^start \+ length must be at most the table's rows P = \d+, got rows/]; },
  ],
  attention: [
    (c) => { const [q] = c.args; const other = normalized(q).dtype === 'float64' ? Float32Array : Float64Array; const i = R.int(1, 2); c.args[i] = { data: new other(c.args[i].data.length), shape: c.args[i].shape }; return ['attention: q, k, v of two dtypes', RangeError, /^q, k and v must have one dtype/]; },
    (c) => {
      const i = R.int(0, 2);
      const t = c.args[i];
      const shape = t.shape.length === 3 ? t.shape.slice(1) : [1, ...t.shape];
      c.args[i] = { data: new t.data.constructor(product(shape)), shape, dtype: normalized(t).dtype };
      return ['attention: ranks differ', RangeError, /^q, k and v must have the same rank/];
    },
    (c) => {
      const [q, k, v] = c.args;
      const B = q.shape.length === 3 ? q.shape[0] : 1;
      const lift = (t, b) => ({ data: new t.data.constructor(b * product(t.shape.slice(-2))), shape: [b, ...t.shape.slice(-2)], dtype: normalized(t).dtype });
      c.args = [lift(q, B), R.chance(0.5) ? lift(k, B + 1) : lift(k, B), lift(v, B + (R.chance(0.5) ? 2 : 1)), c.args[3]];
      return ['attention: batch sizes differ', RangeError, /^q, k and v must have the same batch axes/];
    },
    (c) => { const k = c.args[1]; const shape = [...k.shape]; shape[shape.length - 1] += 1; c.args[1] = { data: new k.data.constructor(product(shape)), shape, dtype: normalized(k).dtype }; return ['attention: widths of q and k differ', RangeError, /^q and k must have the same width D/]; },
    (c) => { const v = c.args[2]; const shape = [...v.shape]; shape[shape.length - 2] += 1; c.args[2] = { data: new v.data.constructor(product(shape)), shape, dtype: normalized(v).dtype }; return ['attention: lengths of k and v differ', RangeError, /^k and v must have the same length Tk/]; },
    (c) => {
      const d = normalized(c.args[0]).dtype;
      const lead = c.args[0].shape.length === 3 ? [c.args[0].shape[0]] : [];
      c.args = [{ data: new ARRAYS[d](0), shape: [...lead, 2, 0], dtype: d }, { data: new ARRAYS[d](0), shape: [...lead, 3, 0], dtype: d }, { data: new ARRAYS[d](product(lead) * 3), shape: [...lead, 3, 1], dtype: d }];
      return ['attention: width D = 0', RangeError, /^q and k must have a width D of at least 1/];
    },
    (c) => {
      const d = normalized(c.args[0]).dtype;
      const tq = R.int(1, 6);
      const tk = R.int(0, tq - 1);
      c.args = [{ data: new ARRAYS[d](tq * 2), shape: [tq, 2] }, { data: new ARRAYS[d](tk * 2), shape: [tk, 2] }, { data: new ARRAYS[d](tk), shape: [tk, 1] }, { causal: true }];
      return ['attention: causal with Tq > Tk', RangeError, /Tk >= Tq/];
    },
    (c) => {
      const d = normalized(c.args[0]).dtype;
      const tq = R.int(0, 4);
      const tk = tq + R.int(0, 4);
      c.args = [{ data: new ARRAYS[d](tq * 2), shape: [tq, 2] }, { data: new ARRAYS[d](tk * 2), shape: [tk, 2] }, { data: new ARRAYS[d](tk), shape: [tk, 1] }, { causal: true, queryStart: tk - tq + R.int(1, 9) }];
      return ['attention: queryStart past Tk - Tq', RangeError, /^queryStart must be in 0\.\.Tk - Tq/];
    },
    (c) => {
      const options = { ...(c.args[3] ?? {}), causal: R.pick([false, undefined]), queryStart: R.int(0, 3) };
      if (options.causal === undefined) delete options.causal;
      c.args = [c.args[0], c.args[1], c.args[2], options];
      return ['attention: queryStart without causal', RangeError, /^queryStart applies only with causal: true/];
    },
    (c) => { c.args = [{ data: new Float32Array(2 ** 14), shape: [2 ** 14, 1] }, { data: new Float32Array(2 ** 15), shape: [2 ** 15, 1] }, { data: new Float32Array(2 ** 15), shape: [2 ** 15, 1] }, { steps: true }]; return ['attention: steps beyond the size limit', RangeError, /^scores of shape .* is too large/]; },
  ],
};
function oddWidth(c) {
  const x = c.args[0];
  const shape = [...x.shape];
  shape[shape.length - 1] = R.pick([0, 1, 3, 5]);
  c.args[0] = { data: new x.data.constructor(product(shape)), shape, dtype: normalized(x).dtype };
  return [`${c.fn}: odd or zero width`, RangeError, /^x's width D \(its last axis\) must be a positive even integer/];
}
function startPast(c) {
  const length = c.args[0].shape.at(-2);
  c.args[1] = { start: 2 ** 53 - length + R.pick([2, 3, 16]) }; // (2^53 + 1 would round to 2^53, valid for length 0)
  return [`${c.fn}: start + length past 2^53`, RangeError, /^start/];
}

/** Breaks one thing in a valid call. Returns the expectation { kind, Class, message }. */
function corrupt(call) {
  if (R.chance(0.3)) {
    const [kind, Class, message] = R.pick(SEMANTIC[call.fn])(call);
    return { kind, Class, message };
  }
  const [index, name, kind] = R.pick(SLOTS[call.fn]);
  if (index >= call.args.length) call.args.length = index + 1;
  if (kind === 'tensor' || kind === 'ids') return corruptTensor(call, index, name, kind === 'ids');
  if (kind === 'options') return corruptOptions(call, index);
  return corruptNumber(call, index, name, { even: kind === 'even' });
}

/** For the wrong-length out case: the size of the valid call's result, known after a clean run. */
function resultCount(call, result) {
  return (call.outOf ? call.outOf(result) : result.data).length;
}

test(`randomized API calls (seed ${SEED}, ${CALLS} calls): reference results or TypeError/RangeError naming the argument`, { timeout: 180_000 }, async (t) => {
  const so = await loadSeqorder();
  const canary = so.positions(3, 4, { start: 2 }).data.slice();
  const heapBefore = so.memoryStats();
  const counts = { valid: 0, invalid: 0 };
  const byKind = new Map();
  const byFunction = new Map();
  const failures = [];
  const fns = Object.keys(VALID);

  for (let n = 0; n < CALLS; n++) {
    const fn = fns[n % fns.length];
    const call = VALID[fn]();
    const invalid = R.chance(0.45);
    let expect;
    if (invalid) {
      expect = corrupt(call);
      if (call.wrongOut) {
        // run the clean call once to learn the result's size, then give an out array one element off
        const clean = so[fn](...call.args.map((a, i) => (i === call.args.length - 1 && a && typeof a === 'object' && !a.data ? { ...a, out: undefined } : a)));
        const count = resultCount(call, clean);
        const Out = fn === 'positions' ? ARRAYS[(call.args[2] ?? {}).dtype ?? 'float64'] : ARRAYS[normalized(call.args[0]).dtype];
        const opts = { ...(call.args.at(-1) ?? {}) };
        opts.out = new Out(count + (count === 0 || R.chance(0.5) ? 1 : -1));
        call.args[call.args.length - 1] = opts;
      }
      counts.invalid++;
      byKind.set(expect.kind, (byKind.get(expect.kind) ?? 0) + 1);
    } else {
      counts.valid++;
    }
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + 1);

    let result;
    let thrown;
    let threw = false;
    try {
      result = so[fn](...call.args);
    } catch (error) {
      threw = true;
      thrown = error;
    }
    const label = `call ${n} ${fn}${invalid ? ` [${expect.kind}]` : ' [valid]'}`;
    if (threw) {
      if (!(thrown instanceof TypeError || thrown instanceof RangeError)) {
        failures.push(`${label}: threw ${typeof thrown === 'object' && thrown ? thrown.constructor?.name : typeof thrown} ${String(thrown?.message ?? thrown)}`);
      } else if (typeof thrown.message !== 'string' || thrown.message.length === 0) {
        failures.push(`${label}: ${thrown.constructor.name} without a message`);
      } else if (!invalid) {
        failures.push(`${label}: valid arguments threw ${thrown.constructor.name}: ${thrown.message}`);
      } else if (thrown.constructor !== expect.Class || !expect.message.test(thrown.message)) {
        failures.push(`${label}: expected ${expect.Class.name} ${expect.message}, got ${thrown.constructor.name}: ${thrown.message}`);
      }
    } else if (invalid) {
      failures.push(`${label}: invalid arguments returned a result`);
    } else {
      const difference = call.want(result);
      if (difference) failures.push(`${label}: ${difference}`);
      if (difference && process.env.SEQORDER_FUZZ_VERBOSE) console.log(label, JSON.stringify(call.args, (k, v) => (ArrayBuffer.isView(v) ? Array.from(v).map(String) : typeof v === 'number' ? String(v) : v)).slice(0, 3000));
      if (call.out && (call.outOf ? call.outOf(result) : result.data) !== call.out) failures.push(`${label}: the result is not the out array`);
    }
    if (failures.length > 20) break;
    if (n % 200 === 199 || threw) {
      // the module still works (an abort would leave it dead) and holds nothing between calls
      assert.deepEqual(so.positions(3, 4, { start: 2 }).data, canary, `${label}: the module stopped working`);
      assert.equal(so.memoryStats().allocatedBytes, heapBefore.allocatedBytes, `${label}: heap not back where it started`);
    }
  }

  const heapAfter = so.memoryStats();
  t.diagnostic(`${counts.valid + counts.invalid} calls: ${counts.valid} valid, ${counts.invalid} invalid; by function: ${[...byFunction].map(([k, v]) => `${k} ${v}`).join(', ')}`);
  t.diagnostic(`${byKind.size} kinds of bad input: ${[...byKind].sort().map(([k, v]) => `${k} (${v})`).join('; ')}`);
  t.diagnostic(`heap: allocatedBytes ${heapBefore.allocatedBytes} -> ${heapAfter.allocatedBytes}, heapBytes ${heapBefore.heapBytes} -> ${heapAfter.heapBytes}`);
  assert.deepEqual(failures, []);
  assert.equal(heapAfter.allocatedBytes, heapBefore.allocatedBytes);
  if (CALLS >= 3000) assert.ok(byKind.size >= 60, `only ${byKind.size} kinds of bad input were tried`);
});

test('the comparison has teeth: results that are slightly wrong are flagged', async () => {
  const so = await loadSeqorder();
  const positions = so.positions(12, 16, { start: 5 });
  assert.notEqual(reference.difference(positions, reference.positions(12, 16, { start: 6 })), '', 'start off by one');
  assert.notEqual(reference.difference(positions, reference.positions(12, 16, { start: 5, base: 10001 })), '', 'base 10001');
  assert.notEqual(reference.difference(positions, reference.positions(12, 16, { start: 5, layout: 'halves' })), '', 'layout');
  const f32 = so.positions(12, 16, { start: 5, dtype: 'float32' });
  const nudged = { ...f32, data: f32.data.slice() };
  nudged.data[100] = Math.fround(nudged.data[100] + 4e-7);
  assert.notEqual(reference.difference(nudged, reference.positions(12, 16, { start: 5, dtype: 'float32' })), '', 'a float32 value a few ulps off');
  const x = { data: Float64Array.from({ length: 2 * 5 * 4 }, (_, n) => Math.sin(n)), shape: [2, 5, 4], dtype: 'float64' };
  const got = so.attention(x, x, x, { causal: true, steps: true });
  assert.equal(reference.difference(got.output, reference.attention(x, x, x, { causal: true }).output), '');
  assert.notEqual(reference.difference(got.output, reference.attention(x, x, x).output), '', 'mask missing');
  const tweaked = { ...got.weights, data: got.weights.data.slice() };
  tweaked.data[5] *= 1 + 1e-12; // query 1, key 0 (visible)
  assert.notEqual(reference.difference(tweaked, reference.attention(x, x, x, { causal: true }).weights), '', 'a weight 1e-12 off');
  const added = so.addPositions(x, { start: 3 });
  assert.notEqual(reference.difference(added, reference.addPositions(x, { start: 2 })), '', 'addPositions start off by one');
  const embedded = so.embed({ data: Float64Array.of(1, -0, 3, 4), shape: [2, 2] }, { data: Int32Array.of(0), shape: [1] });
  assert.notEqual(reference.difference(embedded, { data: Float64Array.of(1, 0), shape: [1, 2], dtype: 'float64' }), '', '-0 copied as +0');
});
