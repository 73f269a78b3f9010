// The model module (seqorder_model.wasm: createModel's models) behind an API (api.mjs): loaded when an app asks for
// it (seqorder/model: its loadSeqorder, which loads it alongside the main module, or loadModelModule(so) for an API
// loaded without it), and only then: an app that makes no model imports none of this, so its bundler emits neither
// the model module nor its glue. Its instance is started, synchronously (createModel is synchronous), by the first
// call that needs a model. A failing call changes nothing: an instance that the call which started it failed on is
// dropped again (the module stays compiled), and one a call succeeded on is kept. Its heap counts in memoryStats()
// from then on: its size, and the bytes its calls hold (what its start-up holds, the same in every instance, is left
// out, so that allocatedBytes returns to where it was before the first model once every model is disposed).
import createModelModule from './seqorder_model.mjs';
import { makeApi, modelSlot } from './api.mjs';
import { bindCalls } from './binding.mjs';
import { heapRunner } from './heap.mjs';
import { MODEL, compileMain, compileModelModule, instantiateCore, loadError, readLoadOptions, startNow } from './load.mjs';
import { makeModelApi } from './model.mjs';

const NONE = Object.freeze({ allocatedBytes: 0, heapBytes: 0 });

/**
 * The holder of the model module's instance behind one API (makeApi's `models`): `start` makes a new bound instance of
 * the model module (or throws why it cannot).
 */
export function modelModule(start) {
  let current = null;  // { api: makeModelApi's, memoryStats, startup: the bytes its start-up holds }

  return {
    /** work(api), api being makeModelApi's over the instance, which is started first if there is none. */
    use(work) {
      const fresh = current === null;
      if (fresh) {
        const core = start();
        const { run, memoryStats } = heapRunner(core);
        current = { api: makeModelApi(core, run), memoryStats, startup: core.allocatedBytes() };
      }
      try {
        return work(current.api);
      } catch (error) {
        if (fresh) current = null;
        throw error;
      }
    },

    /** The instance's heap: { allocatedBytes (beyond its start-up's), heapBytes }; nothing before it is started. */
    memoryStats() {
      if (current === null) return NONE;
      const { allocatedBytes, heapBytes } = current.memoryStats();
      return { allocatedBytes: allocatedBytes - current.startup, heapBytes };
    },
  };
}

/**
 * A new instance of the compiled model module, made synchronously (createModel is synchronous: load.mjs's startNow).
 * `url` names the module in errors; `build` is the main module's, which the model module's must be.
 */
export function instantiateModel(compiled, url, build) {
  const { module, exports, failure } = startNow(createModelModule, compiled);
  // whether the bytes made an instance with exports of its own (the glue failing then: they are not the model module's)
  const another = Object.keys(exports).length > 0;
  if (failure !== undefined && !another)
    throw loadError(url, `it does not instantiate (${failure.message}): is it this version's model module?`, failure, MODEL);
  if (failure !== undefined || typeof module.modelCreate !== 'function' || typeof module.argumentFields !== 'function')
    throw loadError(url, 'it is not seqorder\'s model module (it has no modelCreate).', undefined, MODEL);
  if (module.build() !== build)
    throw loadError(url, `it is the ${module.build()} build, and the main module the ${build} build: give the model module of the main module's build.`, undefined, MODEL);
  return bindCalls(module);
}

/** The holder (modelModule) of the compiled model module { compiled, url } (load.mjs's compileModelModule) for a main module of `build`. */
const holderOf = ({ compiled, url }, build) => modelModule(() => instantiateModel(compiled, url, build));

/**
 * seqorder/model's loadSeqorder: loadSeqorder's (load.mjs), the model module fetched and compiled alongside the main
 * module. A model module that cannot be had fails no loadSeqorder: the API's createModel throws why, every time, and
 * loadModelModule may try again. `packaged`: the packaged model module's URL, as seqorder/model names it.
 */
export async function loadWithModel(options, packaged) {
  const plan = await readLoadOptions(options);
  const model = compileModelModule(plan.model, packaged).then((compiled) => ({ compiled }), (error) => ({ error }));
  const core = await instantiateCore(await compileMain(plan), plan.url);
  const { compiled, error } = await model;
  return makeApi(core, { models: compiled && holderOf(compiled, core.build()), error, source: plan.model });
}

/**
 * seqorder/model's loadModelModule(so): fetches and compiles the model module of the API `so`, where its loadSeqorder's
 * options say it is, so that its createModel runs. Resolves once it has; rejects with the error that says why it could
 * not (createModel then still says how to load it), and may be called again. Calls while it loads share that load; a
 * call once it has loaded resolves at once. `packaged`: as loadWithModel's.
 */
export function loadModelModule(so, packaged) {
  const slot = modelSlot(so);
  if (slot === undefined)
    return Promise.reject(new TypeError('loadModelModule: so must be an API that loadSeqorder resolved to'));
  if (slot.models !== null) return Promise.resolve();
  slot.loading ??= compileModelModule(slot.source, packaged).then((compiled) => {
    slot.models = holderOf(compiled, slot.build);
    slot.error = undefined;
  }).finally(() => {
    slot.loading = undefined;
  });
  return slot.loading;
}
