// A worker of the pool (pool.mjs): one instance of the module, made by the first call that needs it (attention), one of
// the model module, made by the first model, and the ops it runs for the main thread (the protocol: protocol.mjs,
// which also says how to add an op). A worker that only holds models holds only the model module's memory: an engine
// may give a page few memories with reserved address space (JavaScriptCore: 8 a process), and the others run slower.
// The package starts it as seqorder/pool-worker.mjs, a module of two lines calling startWorker(), which
// scripts/build.sh writes where bundlers look for it (see index.mjs).
import { makeApi } from '../api.mjs';
import { instantiateCore } from '../load.mjs';
import { MODEL_METHODS, callModel } from '../model.mjs';
import { instantiateModel, modelModule } from '../model-module.mjs';
import { listen } from './exchange.mjs';
import { timer } from './pace.mjs';
import { serve } from './protocol.mjs';

let main = null;  // the module the pool compiled, { module, url } (op 'load')
let so = null;  // the API over this worker's instance of the module, once the first call that needs it has made it
let modelsHere = null;  // the holder of this worker's model module (model-module.mjs), which its first model starts
const models = new Map();  // this worker's models (op 'modelCreate'), by the id the pool gave each
let compiledModel = null;  // the model module the pool compiled, { module, url }, which its first model brought
let time = null;  // times this worker's attention calls (pace.mjs's timer), made by the first
let exchange = null;  // the header and arena the pool last gave this worker (op 'exchange'), once it has
let served = null;  // serve()'s, once startWorker() has run: { background(id, work) }

/** Whether this worker's instance refuses every call (it stopped after an internal error). */
function stopped() {
  try {
    so?.memoryStats();
    modelsHere?.memoryStats();
    return false;
  } catch {
    return true;
  }
}

/** The ArrayBuffers of every typed array in a result (a tensor, attention's steps, parameters, { loss, grads }, …),
 * to move them back rather than copy them: results are this worker's own. */
function buffersIn(value, found = new Set()) {
  if (ArrayBuffer.isView(value)) found.add(value.buffer);
  else if (value !== null && typeof value === 'object') for (const item of Object.values(value)) buffersIn(item, found);
  return found;
}

/** The model the pool calls `id` in this worker. */
function modelOf(id) {
  const model = models.get(id);
  if (!model) throw new Error(`seqorder pool: the model is not in its worker any more: the worker that held it stopped and was replaced; create it again`);
  return model;
}

/** calls ([{ q, k, v, options }]) run in turn with so.attention → { value: their results, took } (timer()'s). */
async function attentionCalls(calls) {
  so ??= makeApi(await instantiateCore(main.module, main.url));  // (ops run one at a time: no other call waits for it)
  time ??= timer();
  return time(() => calls.map(({ q, k, v, options }) => so.attention(q, k, v, options)));
}

const ops = {
  /**
   * module: the WebAssembly.Module the main thread compiled; url: where it came from (for messages); build: the build
   * it is, which the model module must be too. → the build
   */
  load({ module, url, build }) {
    main = { module, url };
    modelsHere = modelModule(() => instantiateModel(compiledModel.module, compiledModel.url, build));
    return { value: build };
  },

  /**
   * calls: [{ q, k, v, options }], run in turn with so.attention → { results (in order), inputs, took, ended }: the
   * buffers of q, k and v go back too, for the main thread to reuse (all but a SharedArrayBuffer's, which cannot be
   * moved); took: the milliseconds the calls took here (the pool's paces, pace.mjs), or null if too few of the clock's
   * steps; ended: when they ended, in ms since the epoch (performance.timeOrigin + performance.now(), a clock every
   * thread shares).
   */
  async attention({ calls }) {
    const { value: results, took } = await attentionCalls(calls);
    const inputs = [...new Set(calls.flatMap(({ q, k, v }) => [q.data.buffer, k.data.buffer, v.data.buffer]))]
      .filter((buffer) => buffer instanceof ArrayBuffer);
    return { value: { results, inputs, took, ended: performance.timeOrigin + performance.now() }, transfer: [...buffersIn(results, new Set(inputs))] };
  },

  /**
   * The pool's exchange with this worker (exchange.mjs): control, header and arena, SharedArrayBuffers. The first
   * starts listening on control for runs of attention calls, which this worker computes in the arena; a later one
   * (the same control, a larger arena) replaces the header and arena. → nothing
   */
  exchange({ control, header, arena }) {
    const first = exchange === null;
    exchange = { header: new Float64Array(header), arena };
    if (first) listen(new Int32Array(control), () => exchange, served.background, attentionCalls);
    return { value: undefined };
  },

  /**
   * A new model, createModel(options) (or loadModel(saved), a saved model's bytes) in the model module, kept here under
   * `id` (the pool's name for it) → its config. model: the compiled model module, { module, url }, which the worker's
   * first model starts.
   */
  modelCreate({ id, options, saved, model: compiled }) {
    compiledModel ??= compiled;
    const model = modelsHere.use((api) => (saved ? api.loadModel(saved) : api.createModel(options)));
    models.set(id, model);
    return { value: model.config };
  },

  /**
   * model[method] on the model `id`, args what its read (MODEL_METHODS) read on the main thread → its result. (dispose
   * is op 'modelDispose'.)
   */
  modelCall({ id, method, args }) {
    if (!Object.hasOwn(MODEL_METHODS, method)) throw new TypeError(`seqorder pool: models have no method '${method}'`);
    const value = callModel(modelOf(id), method, args);
    return { value, transfer: [...buffersIn(value)] };
  },

  /** Frees the model `id` and forgets it (nothing, if it is not here). */
  modelDispose({ id }) {
    models.get(id)?.dispose();
    models.delete(id);
    return { value: undefined };
  },
};

/**
 * Makes this thread one of the pool's workers: it answers the pool's messages with the ops above. Called by the worker
 * script the package starts (pool/seqorder/pool-worker.mjs, which scripts/build.sh writes); a call, not an import's side
 * effect, so that a bundler that takes the package's modules for free of side effects (package.json) keeps it.
 */
export async function startWorker() {
  served = await serve(ops, { fatal: stopped });
}
