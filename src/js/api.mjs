// The functions of the lesson on plain { data, shape, dtype } tensors, over one instance of the main module (and the
// tasks', from tasks.mjs), and the trainable model's over the model module, once loaded (model-module.mjs, which
// only seqorder/model and the pool import: an app that makes no model ships none of its code).
// Each reads its arguments once (arguments.mjs: JS kinds only), copies its tensors into the heap, runs one call of the
// core (src/core/api/calls.hpp, through src/bindings/embind.cpp: the core checks every value, shape and size and says
// what is wrong), and returns JS-owned results (heap.mjs). attentionPlanner is attention's reading and checking
// without its work, for the pool (pool/pool.mjs), which runs the work in other instances.
import { optional, readBoolean, readNumber, readOptions, readOut, readString, readTensor } from './arguments.mjs';
import { checkTensor, heapRunner } from './heap.mjs';
import { docsUrl } from './docs-url.mjs';
import { makeTaskApi } from './tasks.mjs';
import { version } from './version.mjs';  // written by scripts/build.sh from package.json

export { version };

const optionalNumber = optional(readNumber);
const optionalString = optional(readString);
const optionalBoolean = optional(readBoolean);

/**
 * attention's arguments, read once as attention reads them: the tensors' records (readTensor), its options and the
 * `out` record. `extra` ({ key: reader }) adds options of a caller's own, read last: their values come back in `extra`.
 */
export function readAttention(q, k, v, options, extra = {}) {
  q = readTensor('q', q);
  k = readTensor('k', k);
  v = readTensor('v', v);
  const o = readOptions('options', options, ['causal', 'queryStart', 'steps', 'out', ...Object.keys(extra)]);
  const args = {
    causal: optionalBoolean('causal', o.causal),
    queryStart: optionalNumber('queryStart', o.queryStart),
    steps: optionalBoolean('steps', o.steps),
  };
  const out = readOut('out', o.out, q.dtype);
  const extras = Object.fromEntries(Object.entries(extra).map(([key, read]) => [key, read(key, o[key])]));
  return { q, k, v, args, out, extra: extras };
}

/** The binding's AttentionArgs of attention's arguments read by readAttention, each tensor record passed through `tensor`. */
function coreArgs({ q, k, v, args, out }, tensor) {
  return { q: tensor(q), k: tensor(k), v: tensor(v), ...args, outLength: out?.length };
}

/**
 * attention without its computation, for a caller that spreads the work over other instances of the module (the
 * pool): plan(q, k, v, options, extra) reads the arguments as attention does and runs every check attention runs, in
 * its order and with its messages (the tensors' sizes, then the core's rules), copying nothing into the heap. Returns
 * readAttention's record with the core's plan: { dtype, batch, queries, keys, width, valueWidth, causal, queryStart,
 * steps, results (their shapes), fused (the fused kernel runs it), rowGroup }.
 */
export function attentionPlanner(core) {
  const maxTensorBytes = core.maxTensorBytes();
  // The last call the core accepted: what it was given (as a string) and its plan. The core's checks and plan depend on
  // nothing else, so a call given the same is planned as that one was, without crossing into the module (a round trip
  // through embind costs ~0.04 ms, and ~0.15 ms on a thread that has waited while workers ran).
  let last = { given: null, plan: null };
  return function plan(q, k, v, options, extra) {
    const read = readAttention(q, k, v, options, extra);
    const args = coreArgs(read, (record) => {
      checkTensor(record, maxTensorBytes);
      return { address: 0, count: record.data.length, dtype: record.dtype, shape: record.shape };
    });
    const given = [args.q, args.k, args.v].map((t) => `${t.dtype} ${t.count} ${t.shape}`)
      .concat([args.causal, args.queryStart, args.steps, args.outLength].map(String)).join(' | ');
    if (given !== last.given) {
      const outcome = core.planAttention(args);
      if (outcome.error !== undefined) throw new RangeError(outcome.error);
      last = { given, plan: outcome.plan };
    }
    // a copy: the results' shapes are handed to the caller, who may change them
    return { ...read, plan: { ...last.plan, results: last.plan.results.map((shape) => [...shape]) } };
  };
}

/** Each API's model module (makeApi's `models`): { models, error, source, build, loading }, for loadModelModule. */
const modelSlots = new WeakMap();

/** The model module's slot of the API `so` (makeApi's), or undefined for anything else. */
export const modelSlot = (so) => (typeof so === 'object' && so !== null ? modelSlots.get(so) : undefined);

const NONE = Object.freeze({ allocatedBytes: 0, heapBytes: 0 });

const NOT_LOADED = 'seqorder: createModel needs the model module, which this API has not loaded: load it with '
  + 'loadSeqorder from \'seqorder/model\' (both modules), or await loadModelModule(so) from \'seqorder/model\' first; '
  + `see ${docsUrl('api.md', 'the-model-module')}`;

/**
 * The API over the main module `core` (bound: binding.mjs) and its model module: `models`, a started model module's
 * holder (model-module.mjs's modelModule), or none yet, and then `error`, the Error that says why it could not be had,
 * if it was asked for; `source`, where it is (load.mjs's readLoadOptions), for loadModelModule.
 */
export function makeApi(core, { models = null, error, source } = {}) {
  const { run, memoryStats: coreStats } = heapRunner(core);
  const slot = { models, error, source, build: core.build(), loading: undefined };

  /** The heaps' figures: the main module's, plus the model module's once it has started. */
  function memoryStats() {
    const main = coreStats();
    const model = slot.models?.memoryStats() ?? NONE;
    return { allocatedBytes: main.allocatedBytes + model.allocatedBytes, heapBytes: main.heapBytes + model.heapBytes };
  }

  /** work(api) on the model module's API (model.mjs's makeModelApi), which the first model starts. */
  function useModels(work) {
    if (slot.models === null) throw slot.error ? new Error(slot.error.message, { cause: slot.error.cause }) : new Error(NOT_LOADED);
    return slot.models.use(work);
  }

  /** A new model (model.mjs), in the model module, which the first model starts. */
  function createModel(options) {
    return useModels((api) => api.createModel(options));
  }

  /** A model made again from model.save()'s bytes (model.mjs), in the model module, as createModel's. */
  function loadModel(bytes) {
    return useModels((api) => api.loadModel(bytes));
  }

  /**
   * The sinusoidal position table (length, width): column 2i = sin(t·f_i), column 2i+1 = cos(t·f_i),
   * f_i = base^(−2i/width), t = start … start+length−1 (layout 'halves': all sines, then all cosines).
   */
  function positions(length, width, options) {
    readNumber('length', length);
    readNumber('width', width);
    const o = readOptions('options', options, ['start', 'base', 'dtype', 'layout', 'out']);
    const args = {
      length, width,
      start: optionalNumber('start', o.start),
      base: optionalNumber('base', o.base),
      dtype: optionalString('dtype', o.dtype),
      layout: optionalString('layout', o.layout),
    };
    const out = readOut('out', o.out, args.dtype ?? 'float64');
    return run((call) => {
      if (out !== undefined) {
        // A large table into `out` is computed in pieces of rows that fit in the cache, each copied into `out` while it
        // is there (the core says how many rows: each piece has the whole table's bits); the checks are the whole call's.
        const { pieceRows } = call.outcome(core.planPositions, { ...args, outLength: out.length }).plan;
        if (pieceRows < length) {
          for (let row = 0; row < length; row += pieceRows) {
            const piece = { ...args, length: Math.min(pieceRows, length - row), start: (args.start ?? 0) + row };
            call.outputAt(call.core(core.positions, piece)[0], out, row * width);
          }
          return { data: out.view, shape: [length, width], dtype: args.dtype ?? 'float64' };
        }
      }
      const [table] = call.core(core.positions, { ...args, outLength: out?.length });
      return call.output(table, out);
    });
  }

  /** Token lookup: table (V, D), ids int32 (T) or (B, T) → (T, D) or (B, T, D). */
  function embed(table, ids, options) {
    table = readTensor('table', table);
    ids = readTensor('ids', ids);
    const o = readOptions('options', options, ['out']);
    const out = readOut('out', o.out, table.dtype);
    return run((call) => {
      const [rows] = call.core(core.embed, { table: call.tensor(table), ids: call.tensor(ids), outLength: out?.length });
      return call.output(rows, out);
    });
  }

  /** The body of addPositions and rope: x (.., T, D) and { start, base, out } → x's shape and dtype. */
  function shift(fn, x, options) {
    x = readTensor('x', x);
    const o = readOptions('options', options, ['start', 'base', 'out']);
    const start = optionalNumber('start', o.start);
    const base = optionalNumber('base', o.base);
    const out = readOut('out', o.out, x.dtype);
    return run((call) => {
      const [shifted] = call.core(fn, { x: call.tensor(x), start, base, outLength: out?.length });
      return call.output(shifted, out);
    });
  }

  /** x (.., T, D) plus the sinusoidal positions start … start+T−1, broadcast over the leading axes. */
  function addPositions(x, options) {
    return shift(core.addPositions, x, options);
  }

  /**
   * Rotary positions: x (.., T, D) → same shape, row t's coordinate pair (2i, 2i+1) rotated by the angle
   * (start + t)·base^(−2i/D). Angles in float64; a float32 result is rounded once.
   */
  function rope(x, options) {
    return shift(core.rope, x, options);
  }

  /** Learned absolute positions: rows start … start+length−1 of table (P, D) → (length, D). */
  function learnedPositions(table, length, options) {
    table = readTensor('table', table);
    readNumber('length', length);
    const o = readOptions('options', options, ['start', 'out']);
    const start = optionalNumber('start', o.start);
    const out = readOut('out', o.out, table.dtype);
    return run((call) => {
      const [rows] = call.core(core.learnedPositions, { table: call.tensor(table), length, start, outLength: out?.length });
      return call.output(rows, out);
    });
  }

  /**
   * Scaled dot-product attention in four steps. q (.., Tq, D), k (.., Tk, D), v (.., Tk, Dv), the same leading axes.
   * Returns the output (.., Tq, Dv), or with steps: true { scores, scaled, weights, output }.
   */
  function attention(q, k, v, options) {
    const read = readAttention(q, k, v, options);
    return run((call) => {
      const results = call.core(core.attention, coreArgs(read, call.tensor));
      const output = call.output(results.at(-1), read.out);
      if (!read.args.steps) return output;
      const [scores, scaled, weights] = results.slice(0, 3).map((r) => call.output(r));
      return { scores, scaled, weights, output };
    });
  }

  /**
   * Matrix products: a (.., M, K) · b (.., K, N) → (.., M, N), the leading axes broadcast as numpy's matmul broadcasts
   * them; each sum from 0 in order of k.
   */
  function matmul(a, b, options) {
    a = readTensor('a', a);
    b = readTensor('b', b);
    const o = readOptions('options', options, ['out']);
    const out = readOut('out', o.out, a.dtype);
    return run((call) => {
      const [product] = call.core(core.matmul, { a: call.tensor(a), b: call.tensor(b), outLength: out?.length });
      return call.output(product, out);
    });
  }

  /** Softmax over the last axis of x, with attention's causal mask (causal, queryStart: x (.., Tq, Tk)) → x's shape. */
  function softmax(x, options) {
    x = readTensor('x', x);
    const o = readOptions('options', options, ['causal', 'queryStart', 'out']);
    const causal = optionalBoolean('causal', o.causal);
    const queryStart = optionalNumber('queryStart', o.queryStart);
    const out = readOut('out', o.out, x.dtype);
    return run((call) => {
      const [weights] = call.core(core.softmax, { x: call.tensor(x), causal, queryStart, outLength: out?.length });
      return call.output(weights, out);
    });
  }

  /** x (.., T, D) → (.., heads, T, D / heads): head h is columns h·Dh … (h + 1)·Dh − 1 of every row. */
  function splitHeads(x, heads, options) {
    x = readTensor('x', x);
    readNumber('heads', heads);
    const o = readOptions('options', options, ['out']);
    const out = readOut('out', o.out, x.dtype);
    return run((call) => {
      const [split] = call.core(core.splitHeads, { x: call.tensor(x), heads, outLength: out?.length });
      return call.output(split, out);
    });
  }

  /** x (.., H, T, Dh) → (.., T, H·Dh): splitHeads' inverse. */
  function mergeHeads(x, options) {
    x = readTensor('x', x);
    const o = readOptions('options', options, ['out']);
    const out = readOut('out', o.out, x.dtype);
    return run((call) => {
      const [merged] = call.core(core.mergeHeads, { x: call.tensor(x), outLength: out?.length });
      return call.output(merged, out);
    });
  }

  // which module runs: 'relaxed' (relaxed SIMD's multiply-add) or 'simd128', as the module itself reports
  const build = core.build();
  const { orderTask, lookbackTask, inductionTask, taskWords } = makeTaskApi(core, run);
  const api = Object.freeze({
    version, build, positions, embed, addPositions, learnedPositions, attention, rope, matmul, softmax, splitHeads,
    mergeHeads, memoryStats, createModel, loadModel, orderTask, lookbackTask, inductionTask, taskWords,
  });
  modelSlots.set(api, slot);
  return api;
}
