// The functions of the lesson on plain { data, shape, dtype } tensors, over one instance of the WebAssembly module.
// This layer validates every argument, copies tensors into the WebAssembly heap, calls the core through the thin
// binding (src/bindings/embind.cpp), copies results out into JS-owned arrays and frees everything, also on errors.
import { DTYPES, checkBoolean, checkChoice, checkInteger, checkOptions, checkOut, checkPositiveNumber, checkTensor } from './checks.mjs';

export const version = '0.1.0';

/** Largest position: every integer up to 2^53 is exact in float64. */
const MAX_POSITION = 2 ** 53;
const BYTES = { float64: 8, float32: 4, int32: 4 };

function mib(bytes) {
  return `${(bytes / 2 ** 20).toFixed(1)} MiB`;
}

export function makeApi(core) {
  const maxTensorBytes = core.maxTensorBytes();

  /** Throws a RangeError when a tensor of `count` elements of `dtype` exceeds the core's size limit. */
  function checkSize(name, count, dtype) {
    if (count * BYTES[dtype] > maxTensorBytes)
      throw new RangeError(`${name} is too large: ${mib(count * BYTES[dtype])}, a tensor may hold at most ${mib(maxTensorBytes)}`);
  }

  /** Runs work(call) with a per-call heap allocator that frees every block at the end, error or not. */
  function withHeap(work) {
    const blocks = [];
    const call = {
      alloc(name, bytes) {
        const address = core._malloc(Math.max(bytes, 8));
        if (!address) throw new RangeError(`${name}: out of memory, the WebAssembly heap cannot hold ${mib(bytes)} more`);
        blocks.push(address);
        return address;
      },
      copyIn(name, data) {
        const address = call.alloc(name, data.byteLength);
        // (nothing to copy for an empty tensor, whose buffer may even be detached)
        if (data.byteLength > 0) core.HEAPU8.set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), address);
        return address;
      },
      // Copies `count` elements at `address` into `out` (or a new array): the heap's views die when it grows.
      // Without out, the typed-array constructor copies the view into a new array in one pass, without first
      // zero-filling it (allocate-then-set costs ~2x for a 4 MiB table: the benchmark measures both).
      copyOut(address, dtype, count, out) {
        const view = new DTYPES[dtype](core.HEAPU8.buffer, address, count);
        if (out === undefined) return new DTYPES[dtype](view);
        out.set(view);
        return out;
      },
    };
    try {
      return work(call);
    } finally {
      for (const address of blocks) core._free(address);
    }
  }

  /** The binding returns '' or the core's error message. */
  function ok(message) {
    if (message) throw new RangeError(message);
  }

  function checkStart(name, start, length) {
    checkInteger(name, start, { min: 0, max: MAX_POSITION });
    if (start > MAX_POSITION - length) // not start + length: that sum can round down to 2^53 in float64
      throw new RangeError(`${name} + length must be at most 2^53 (positions must be exact integers), got ${start} + ${length}`);
    return start;
  }

  /**
   * The sinusoidal position table (length, width): column 2i = sin(t·f_i), column 2i+1 = cos(t·f_i),
   * f_i = base^(−2i/width), t = start … start+length−1 (layout 'halves': all sines, then all cosines).
   */
  function positions(length, width, options) {
    checkInteger('length', length);
    checkInteger('width', width, { min: 1 });
    if (width % 2 !== 0) throw new RangeError(`width must be a positive even integer (every sine needs its cosine), got ${width}`);
    const { start = 0, base = 10000, dtype = 'float64', layout = 'interleaved', out } =
      checkOptions('options', options, ['start', 'base', 'dtype', 'layout', 'out']);
    checkStart('options.start', start, length);
    checkPositiveNumber('options.base', base);
    checkChoice('options.dtype', dtype, ['float64', 'float32']);
    checkChoice('options.layout', layout, ['interleaved', 'halves']);
    const count = length * width;
    checkSize('positions', count, dtype);
    checkOut('options.out', out, dtype, count);
    const data = withHeap((call) => {
      const address = call.alloc('positions', count * BYTES[dtype]);
      ok(core.positions(address, dtype === 'float32', length, width, start, base, layout === 'halves'));
      return call.copyOut(address, dtype, count, out);
    });
    return { data, shape: [length, width], dtype };
  }

  /** Token lookup: table (V, D), ids int32 (T) or (B, T) → (T, D) or (B, T, D). */
  function embed(table, ids, options) {
    table = checkTensor('table', table, { ranks: [2] });
    ids = checkTensor('ids', ids, { dtypes: ['int32'], ranks: [1, 2] });
    const { out } = checkOptions('options', options, ['out']);
    const [vocab, width] = table.shape;
    const count = ids.data.length * width;
    checkSize('embeddings', count, table.dtype);
    checkOut('options.out', out, table.dtype, count);
    const rows = ids.shape.length === 2 ? ids.shape[0] : 1;
    const cols = ids.shape[ids.shape.length - 1];
    const data = withHeap((call) => {
      const tableAddress = call.copyIn('table', table.data);
      const idsAddress = call.copyIn('ids', ids.data);
      const address = call.alloc('embeddings', count * BYTES[table.dtype]);
      ok(core.embed(address, tableAddress, table.dtype === 'float32', vocab, width, idsAddress, rows, cols, ids.shape.length === 2));
      return call.copyOut(address, table.dtype, count, out);
    });
    return { data, shape: [...ids.shape, width], dtype: table.dtype };
  }

  /**
   * The body of addPositions and rope: checks x (T, D) or (B, T, D) with an even width D (`why` says why, or is '')
   * and the options { start, base, out }, then runs `transform(address, float32, batch, length, width, start, base)`
   * on a heap copy of x, in place. Returns a tensor of x's shape and dtype.
   */
  function transformPositions(x, options, why, transform) {
    x = checkTensor('x', x, { ranks: [2, 3] });
    const { start = 0, base = 10000, out } = checkOptions('options', options, ['start', 'base', 'out']);
    const [length, width] = x.shape.slice(-2);
    const batch = x.shape.length === 3 ? x.shape[0] : 1;
    if (width === 0 || width % 2 !== 0)
      throw new RangeError(`x's width D (its last axis) must be a positive even integer${why}, got ${width}`);
    checkStart('options.start', start, length);
    checkPositiveNumber('options.base', base);
    checkOut('options.out', out, x.dtype, x.data.length);
    const data = withHeap((call) => {
      const address = call.copyIn('x', x.data);
      ok(transform(address, x.dtype === 'float32', batch, length, width, start, base));
      return call.copyOut(address, x.dtype, x.data.length, out);
    });
    return { data, shape: x.shape, dtype: x.dtype };
  }

  /** x (T, D) or (B, T, D) plus the sinusoidal positions start … start+T−1, broadcast over the batch. */
  function addPositions(x, options) {
    return transformPositions(x, options, '', (address, ...args) => core.addPositions(address, address, ...args));
  }

  /** Learned absolute positions: rows start … start+length−1 of table (P, D) → (length, D). */
  function learnedPositions(table, length, options) {
    table = checkTensor('table', table, { ranks: [2] });
    checkInteger('length', length);
    const { start = 0, out } = checkOptions('options', options, ['start', 'out']);
    checkInteger('options.start', start);
    const [rows, width] = table.shape;
    if (start + length > rows)
      throw new RangeError(`learned positions: rows ${start}..${start + length - 1} reach past the table, which has rows 0..${rows - 1} (a finite table has a supported range)`);
    const count = length * width;
    checkOut('options.out', out, table.dtype, count);
    const data = withHeap((call) => {
      const tableAddress = call.copyIn('table', table.data);
      const address = call.alloc('learned positions', count * BYTES[table.dtype]);
      ok(core.learnedPositions(address, tableAddress, table.dtype === 'float32', rows, width, length, start));
      return call.copyOut(address, table.dtype, count, out);
    });
    return { data, shape: [length, width], dtype: table.dtype };
  }

  /**
   * Rotary positions: x (T, D) or (B, T, D) → same shape, row t's coordinate pair (2i, 2i+1) rotated by the angle
   * (start + t)·base^(−2i/D). Angles in float64; a float32 result is rounded once.
   */
  function rope(x, options) {
    return transformPositions(x, options, ' (rotary positions rotate coordinate pairs)',
      (address, ...args) => core.rope(address, address, ...args));
  }

  /**
   * Scaled dot-product attention in four steps. q (Tq, D) or (B, Tq, D), k (.., Tk, D), v (.., Tk, Dv).
   * Returns the output (.., Tq, Dv), or with steps: true { scores, scaled, weights, output }.
   */
  function attention(q, k, v, options) {
    q = checkTensor('q', q, { ranks: [2, 3] });
    k = checkTensor('k', k, { ranks: [2, 3] });
    v = checkTensor('v', v, { ranks: [2, 3] });
    const { causal = false, queryStart, steps = false, out } =
      checkOptions('options', options, ['causal', 'queryStart', 'steps', 'out']);
    checkBoolean('options.causal', causal);
    checkBoolean('options.steps', steps);
    if (k.dtype !== q.dtype || v.dtype !== q.dtype)
      throw new RangeError(`q, k and v must have one dtype, got '${q.dtype}', '${k.dtype}' and '${v.dtype}'`);
    if (k.shape.length !== q.shape.length || v.shape.length !== q.shape.length)
      throw new RangeError(`q, k and v must have the same rank, got shapes [${q.shape}], [${k.shape}] and [${v.shape}]`);
    const batched = q.shape.length === 3;
    const batch = batched ? q.shape[0] : 1;
    if (batched && (k.shape[0] !== batch || v.shape[0] !== batch))
      throw new RangeError(`q, k and v must have the same batch size B, got ${q.shape[0]}, ${k.shape[0]} and ${v.shape[0]}`);
    const [queries, width] = q.shape.slice(-2);
    const [keys, keyWidth] = k.shape.slice(-2);
    const [values, valueWidth] = v.shape.slice(-2);
    if (keyWidth !== width) throw new RangeError(`q and k must have the same width D, got ${width} and ${keyWidth}`);
    if (width < 1) throw new RangeError('the width D of q and k must be at least 1 (scores are divided by √D)');
    if (values !== keys) throw new RangeError(`k and v must have the same length Tk, got ${keys} and ${values}`);
    if (queryStart !== undefined) {
      checkInteger('options.queryStart', queryStart);
      if (!causal) throw new RangeError('options.queryStart applies only with causal: true (it places the queries among the keys for the mask)');
    }
    if (causal) {
      if (keys < queries) throw new RangeError(`causal attention needs at least as many keys as queries (Tk >= Tq), got Tq = ${queries} and Tk = ${keys}`);
      if (queryStart !== undefined && queryStart > keys - queries)
        throw new RangeError(`options.queryStart must be in 0..Tk - Tq = 0..${keys - queries} (query i sits at position queryStart + i and sees keys 0..queryStart + i), got ${queryStart}`);
    }
    const lead = batched ? [batch] : [];
    const weightCount = batch * queries * keys;
    const outputCount = batch * queries * valueWidth;
    checkSize('output', outputCount, q.dtype);
    if (steps) checkSize('weights', weightCount, q.dtype);
    checkOut('options.out', out, q.dtype, outputCount);
    const tensor = (data, shape) => ({ data, shape: [...lead, ...shape], dtype: q.dtype });
    return withHeap((call) => {
      const qAddress = call.copyIn('q', q.data);
      const kAddress = call.copyIn('k', k.data);
      const vAddress = call.copyIn('v', v.data);
      const outputAddress = call.alloc('output', outputCount * BYTES[q.dtype]);
      const stepAddress = (name) => (steps ? call.alloc(name, weightCount * BYTES[q.dtype]) : 0);
      const [scores, scaled, weights] = ['scores', 'scaled', 'weights'].map(stepAddress);
      ok(core.attention(outputAddress, scores, scaled, weights, qAddress, kAddress, vAddress, q.dtype === 'float32',
        batch, queries, keys, width, valueWidth, causal, queryStart !== undefined, queryStart ?? 0));
      const output = tensor(call.copyOut(outputAddress, q.dtype, outputCount, out), [queries, valueWidth]);
      if (!steps) return output;
      const step = (address) => tensor(call.copyOut(address, q.dtype, weightCount), [queries, keys]);
      return { scores: step(scores), scaled: step(scaled), weights: step(weights), output };
    });
  }

  /** Heap diagnostics: bytes held by malloc now, and the heap's size. */
  function memoryStats() {
    return { allocatedBytes: core.allocatedBytes(), heapBytes: core.HEAPU8.buffer.byteLength };
  }

  // which module runs: 'relaxed' (relaxed SIMD's multiply-add) or 'simd128', as the module itself reports
  const build = core.build();
  return Object.freeze({ version, build, positions, embed, addPositions, learnedPositions, attention, rope, memoryStats });
}
