// The trainable model, createModel, over one instance of the model module (model-module.mjs starts it when a model is
// first made). Like api.mjs, each call reads its arguments once (arguments.mjs: JS kinds only), copies its tensors into
// the heap, runs one call of the core (src/core/api/model_calls.hpp, through src/bindings/model.cpp: the core checks
// every value, shape and size and says what is wrong) and returns JS-owned results (heap.mjs).
//
// A model lives in the module's heap until dispose(); the object createModel returns holds its handle. Nothing here
// assumes a page: it runs the same in a Web Worker (or a node worker thread), and parameters() / setParameters()
// carry a trained model from one thread to another (plain tensors, each on its own ArrayBuffer: transferable).
import { describe, eachTensor, optional, readBoolean, readChoice, readNamed, readNumber, readOptions, readString, readTensor } from './arguments.mjs';
import { decodeModel, encodeModel } from './model-bytes.mjs';

const optionalNumber = optional(readNumber);
const optionalString = optional(readString);
const optionalBoolean = optional(readBoolean);

/** embedScale: a number or a string (the core checks which number or name). */
function readEmbedScale(name, value) {
  if (typeof value !== 'number' && typeof value !== 'string')
    throw new TypeError(`${name} must be a number or 'sqrtWidth', got ${describe(value)}`);
  return value;
}

/**
 * createModel's options, each once, in order, with its reader (JS kinds only: the core checks the values). Each is a
 * member of the core's ModelArgs under the same name (src/core/api/model_calls.hpp), and a key of model.config.
 */
const MODEL_OPTIONS = Object.freeze({
  __proto__: null,
  vocab: readNumber,
  width: readNumber,
  heads: optionalNumber,
  layers: optionalNumber,
  positions: optionalString,
  maxLength: optionalNumber,
  causal: optionalBoolean,
  readout: optionalString,
  classes: readNumber,
  dtype: optionalString,
  seed: optionalNumber,
  embedScale: optional(readEmbedScale),
  rotaryBase: optionalNumber,
  rotaryPairs: optionalNumber,
  buckets: optionalNumber,
  maxDistance: optionalNumber,
});

/** ropeScaling's methods, in the order of the core's (src/core/model/call_positions.hpp: RopeMethod). */
const ROPE_METHODS = ['linear', 'ntk', 'yarn'];

/**
 * ropeScaling: { method, factor, originalLength? } (docs/model.md, "Stretching rotary positions"): the kind of each
 * member and the method's name (the core checks the values: a RangeError naming the member). Read as the core's
 * ModelOptions holds them, side by side: { ropeMethod (its index), ropeFactor, ropeOriginalLength }.
 */
function readRopeScaling(name, value) {
  const { method, factor, originalLength } = readOptions(name, value, ['method', 'factor', 'originalLength']);
  return {
    ropeMethod: ROPE_METHODS.indexOf(readChoice(`${name}.method`, method, ROPE_METHODS)),
    ropeFactor: readNumber(`${name}.factor`, factor),
    ropeOriginalLength: optionalNumber(`${name}.originalLength`, originalLength),
  };
}

/**
 * The options of the model's methods, each once, with its reader: members of the core's ModelOptions (generate's:
 * GenerateInput) under the same names (src/core/api/model_calls.hpp). A method reads those it takes (readCallOptions
 * in its `read` below).
 */
const CALL_OPTIONS = Object.freeze({
  __proto__: null,
  lr: optionalNumber,
  steps: readNumber,
  temperature: optionalNumber,
  topK: optionalNumber,
  seed: optionalNumber,
  positionIds: optional(readTensor),
  ropeScaling: optional(readRopeScaling),
  positionRange: optionalNumber,
});

/**
 * The position options of forward, loss, gradients, step and attentionWeights (positionIds: each token's position;
 * ropeScaling: rotary's frequencies stretched; positionRange: each row's positions drawn from 0 … L − 1).
 */
const POSITION_OPTIONS = ['positionIds', 'ropeScaling', 'positionRange'];

/**
 * The options object of a method that takes the options `names` (of CALL_OPTIONS): { [name]: value read }
 * (ropeScaling: its members read, { ropeMethod, ropeFactor, ropeOriginalLength }).
 */
function readCallOptions(options, names) {
  const o = readOptions('options', options, names);
  const read = {};
  for (const name of names) {
    const value = CALL_OPTIONS[name](name, o[name]);
    if (name === 'ropeScaling') Object.assign(read, value);
    else read[name] = value;
  }
  return read;
}

/** { [name]: tensor } from results in the order of the parameters' `names`. */
function named(call, results, names) {
  return Object.fromEntries(names.map((name, i) => [name, call.output(results[i])]));
}

/** generate's prefix: an Int32Array, or an array of integers (copied into one), as a tensor (T). */
function readPrefix(prefix) {
  let data = prefix;
  if (Array.isArray(prefix)) {
    data = new Int32Array(prefix.length);
    for (let i = 0; i < prefix.length; i++) {
      const id = prefix[i];
      if (typeof id !== 'number') throw new TypeError(`prefix[${i}] must be a number (an id), got ${describe(id)}`);
      if (!Number.isInteger(id) || id < -(2 ** 31) || id >= 2 ** 31) throw new RangeError(`prefix[${i}] must be an integer id, got ${id}`);
      data[i] = id;
    }
  } else if (Object.prototype.toString.call(prefix) !== '[object Int32Array]') {  // (one of another realm too)
    throw new TypeError(`prefix must be an Int32Array or an array of ids, got ${describe(prefix)}`);
  }
  return readTensor('prefix', { data, shape: [data.length], dtype: 'int32' });
}

/** A batch's ids and targets, as loss and gradients take them, and the options `names` (POSITION_OPTIONS). */
const readBatch = (ids, targets, options, names = POSITION_OPTIONS) =>
  ({ ids: readTensor('ids', ids), targets: readTensor('targets', targets), ...readCallOptions(options, names) });

/**
 * The model's methods (dispose aside), each once: `read` reads its arguments into the binding's call (JS kinds only,
 * each read once; the core checks the rest; tensors as readTensor's records), `core` names the binding's function
 * (src/bindings/model.cpp) and `result(call, results, names, config)` makes what the method returns of the core's
 * results (names: the parameters', config: the model's). The model's own methods (Model below) are made from this
 * table, and so are the pool's handles (pool/model.mjs), which read the arguments on
 * the calling thread and send what they read to the model in a worker (callModel), so that both refuse the same
 * arguments with the same errors.
 */
export const MODEL_METHODS = Object.freeze({
  __proto__: null,
  /** A copy of every parameter: { embed, [positions], 'layers.0.norm1.gain', …, 'readout.bias' } (parameters.hpp). */
  parameters: {
    read: () => ({}),
    core: 'modelParameters',
    result: named,
  },
  /** Replaces any subset of the parameters: { [name]: tensor of that parameter's shape and the model's dtype }. */
  setParameters: {
    read: (parameters) => ({
      parameters: readNamed('parameters', parameters, "{ 'layers.0.attention.wq': tensor, … }")
        .map(([name, tensor]) => ({ name, tensor: readTensor(`parameters['${name}']`, tensor) })),
    }),
    core: 'modelSetParameters',
    result: () => undefined,
  },
  /**
   * ids int32 (B, T) → logits (B, classes) for readout 'mean', (B, T, classes) for 'each' (options: POSITION_OPTIONS;
   * positionRange draws from the evaluation stream, as loss, gradients and attentionWeights do).
   */
  forward: {
    read: (ids, options) => ({ ids: readTensor('ids', ids), ...readCallOptions(options, POSITION_OPTIONS) }),
    core: 'modelForward',
    result: (call, [logits]) => call.output(logits),
  },
  /** The mean cross-entropy over the targets (int32 (B) or (B, T)) that are not −1. */
  loss: {
    read: readBatch,
    core: 'modelLoss',
    result: (call, [loss]) => call.number(loss),
  },
  /** The loss and its gradient with respect to every parameter: { loss, grads: { [name]: tensor } }. */
  gradients: {
    read: readBatch,
    core: 'modelGradients',
    result: (call, [loss, ...grads], names) => ({ loss: call.number(loss), grads: named(call, grads, names) }),
  },
  /**
   * One Adam step (options: { lr }, default 1e-3, and POSITION_OPTIONS; positionRange draws from the training stream);
   * returns the loss before it.
   */
  step: {
    read: (ids, targets, options) => readBatch(ids, targets, options, ['lr', ...POSITION_OPTIONS]),
    core: 'modelStep',
    result: (call, [loss]) => call.number(loss),
  },
  /** ids (1, T) (or (T)) → every layer's attention weights, (layers, heads, T, T) (options: POSITION_OPTIONS). */
  attentionWeights: {
    read: (ids, options) => ({ ids: readTensor('ids', ids), ...readCallOptions(options, POSITION_OPTIONS) }),
    core: 'modelAttentionWeights',
    result: (call, [weights]) => call.output(weights),
  },
  /**
   * One Adam step on each of `batches` ([{ ids, targets, positionIds? }]), in order; returns the losses before each step (a
   * Float64Array). All or nothing: the options ({ lr, ropeScaling, positionRange }, as step's, for every batch;
   * positionRange's rows drawn batch after batch) and every batch, as step reads its tensors, are read first, then
   * their sizes; then the core checks lr's value, every batch (its message prefixed `batches[i]: `) and the memory the
   * steps need, before the first step. A step refused after that (a loss that is not finite), or
   * memory running out, undoes the steps before it: the call fails and the model is exactly as it was.
   */
  train: {
    read: (batches, options) => {
      if (!Array.isArray(batches)) throw new TypeError(`batches must be an array of { ids, targets }, got ${describe(batches)}`);
      const read = readCallOptions(options, ['lr', 'ropeScaling', 'positionRange']);
      const list = [];
      for (let i = 0; i < batches.length; i++) {
        const name = `batches[${i}]`;
        const given = Object.hasOwn(batches, i);  // (a hole is not a batch, nor what Array.prototype may hold there)
        const batch = given ? batches[i] : undefined;
        if (batch === undefined) throw new TypeError(`${name} must be an object { ids, targets }, got ${given ? 'undefined' : 'a hole'}`);
        const { ids, targets, positionIds } = readOptions(name, batch, ['ids', 'targets', 'positionIds']);
        list.push({
          ids: readTensor(`${name}.ids`, ids), targets: readTensor(`${name}.targets`, targets),
          positionIds: positionIds === undefined ? undefined : readTensor(`${name}.positionIds`, positionIds),
        });
      }
      return { batches: list, ...read };
    },
    core: 'modelTrain',
    result: (call, [losses]) => call.output(losses).data,
  },
  /**
   * A next-token model (causal, readout 'each', classes = vocab): prefix (Int32Array or ids), then options.steps ids
   * drawn one at a time (temperature, default 1, 0: greedy; topK; seed, default 0) → an Int32Array, a key/value cache
   * making each new id one row of work (model/generate.hpp).
   */
  generate: {
    read: (prefix, options) => ({ prefix: readPrefix(prefix), ...readCallOptions(options, ['steps', 'temperature', 'topK', 'seed']) }),
    core: 'modelGenerate',
    result: (call, [ids]) => call.output(ids).data,
  },
  /** The model, its configuration and Adam's state as bytes (a Uint8Array) that so.loadModel makes a model of again. */
  save: {
    read: () => ({}),
    core: 'modelSave',
    result: (call, [parameters, m, v, steps, streams], names, config) => encodeModel(config, Object.keys(MODEL_OPTIONS), {
      parameters: call.output(parameters).data, m: call.output(m).data, v: call.output(v).data, steps: call.number(steps),
      streams: call.output(streams).data,
    }),
  },
});

/**
 * callModel(model, method, sent): model[method] on what MODEL_METHODS[method].read read, as a pool sends it (each
 * tensor a plain { name, data, shape, dtype }, read again here): what a pool's worker runs for a handle's call. (Set by
 * Model, which alone reaches a model's handle.)
 */
export let callModel;

/** Only this module makes models: `new` on a model's constructor from outside is refused. */
const making = Symbol('making a model');

/** A model in the module's heap, created by createModel(). */
class Model {
  #handle;
  #core;
  #run;
  #names; // the parameters' names, in the order of the core's results
  #disposed = false;

  constructor(token, core, run, created) {
    if (token !== making) throw new TypeError('models are made by createModel({ vocab, width, classes, … })');
    this.#core = core;
    this.#run = run;
    this.#handle = created.model;
    this.#names = created.names;
    /** The resolved configuration: every option of createModel, defaults filled in. */
    this.config = Object.freeze(created.config);
    Object.freeze(this);
  }

  /** Throws unless `model` is a model that has not been disposed: checked before its arguments are read, and again
   * when the call runs (a getter among them may have disposed it). */
  static #live(model) {
    if (typeof model !== 'object' || model === null || !(#handle in model))
      throw new TypeError('not a seqorder model: call the method on the object createModel() returned');
    if (model.#disposed) throw new Error('seqorder: this model was disposed; create a new one with createModel()');
  }

  /** Runs work(call, handle) in a heap session of the model's module. */
  static #session(model, work) {
    Model.#live(model);
    return model.#run((call) => work(call, model.#handle));
  }

  /** MODEL_METHODS[method] on `read`, its arguments as read: their tensors copied into the heap, one core call. */
  static #call(model, method, read) {
    const { core, result } = MODEL_METHODS[method];
    return Model.#session(model, (call, handle) => {
      const args = eachTensor(read, (record) => call.tensor(record));
      return result(call, call.core(model.#core[core], { model: handle, ...args }), model.#names, model.config);
    });
  }

  static {
    callModel = (model, method, sent) => Model.#call(model, method, eachTensor(sent, (t) => readTensor(t.name, t)));
    // the methods of MODEL_METHODS: the model checked, the arguments read, then the call
    for (const method of Object.keys(MODEL_METHODS)) {
      const { [method]: run } = {
        [method](...args) {
          Model.#live(this);
          return Model.#call(this, method, MODEL_METHODS[method].read(...args));
        },
      };
      Object.defineProperty(Model.prototype, method, { value: run, writable: true, configurable: true });
    }
  }

  /** Whether dispose() has been called. */
  get disposed() {
    return this.#disposed;
  }

  /** Frees the model's memory in the module; any later call throws an Error. Calling it again does nothing. */
  dispose() {
    if (this.#disposed) return;
    try {
      Model.#session(this, (call, model) => call.outcome(this.#core.modelDispose, { model }));
    } finally {
      this.#disposed = true;
    }
  }
}

/**
 * createModel's options read into plain values (their JS kinds checked; the values are the core's to check), options
 * left out as undefined: what the core's modelCreate takes, and what the pool sends a worker (pool/model.mjs).
 */
export function readModelOptions(options) {
  const o = readOptions('options', options, Object.keys(MODEL_OPTIONS));
  const read = {};
  for (const [name, reader] of Object.entries(MODEL_OPTIONS)) read[name] = reader(name, o[name]);
  return read;
}

/** createModel over the model module `core`, calling it through heap.mjs's `run`. */
export function makeModelApi(core, run) {
  /** A new model: token embedding, positions, `layers` pre-norm transformer blocks, a readout; parameters from seed. */
  function createModel(options) {
    const args = readModelOptions(options);
    return new Model(making, core, run, run((call) => call.outcome(core.modelCreate, args)));
  }

  /** A model made again from model.save()'s bytes: its configuration, parameters and Adam's state. */
  function loadModel(bytes) {
    const args = readSavedModel(bytes);
    return new Model(making, core, run, run((call) => call.outcome(core.modelLoad, eachTensor(args, (record) => call.tensor(record)))));
  }

  return { createModel, loadModel };
}

/**
 * A saved model's bytes read into what the core's modelLoad takes: createModel's options (read as createModel reads
 * them) beside the state { parameters, m, v, steps, streams } (model-bytes.mjs; tensors as readTensor's records;
 * streams undefined in bytes of format version 1). The pool reads them so too, on the calling thread.
 */
export function readSavedModel(bytes) {
  const { config, parameters, m, v, steps, streams } = decodeModel(bytes);
  const tensor = (name, data, dtype = config.dtype) => readTensor(name, { data, shape: [data.length], dtype });
  return {
    ...readModelOptions(config), parameters: tensor('parameters', parameters), m: tensor('m', m), v: tensor('v', v), steps,
    streams: streams && tensor('streams', streams, 'int32'),
  };
}
