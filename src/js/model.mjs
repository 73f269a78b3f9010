// The trainable model, createModel, over one instance of the model module (model-module.mjs starts it when a model is
// first made). Like api.mjs, each call reads its arguments once (arguments.mjs: JS kinds only), copies its tensors into
// the heap, runs one call of the core (src/core/model_calls.hpp, through src/bindings/model.cpp: the core checks every
// value, shape and size and says what is wrong) and returns JS-owned results (heap.mjs).
//
// A model lives in the module's heap until dispose(); the object createModel returns holds its handle. Nothing here
// assumes a page: it runs the same in a Web Worker (or a node worker thread), and parameters() / setParameters()
// carry a trained model from one thread to another (plain tensors, each on its own ArrayBuffer: transferable).
import { describe, optional, readBoolean, readNamed, readNumber, readOptions, readString, readTensor } from './arguments.mjs';

const optionalNumber = optional(readNumber);
const optionalString = optional(readString);
const optionalBoolean = optional(readBoolean);

const MODEL_OPTIONS = ['vocab', 'width', 'heads', 'layers', 'positions', 'maxLength', 'causal', 'readout', 'classes', 'dtype', 'seed', 'embedScale'];

/** embedScale: a number or a string (the core checks which number or name). */
function readEmbedScale(name, value) {
  if (typeof value !== 'number' && typeof value !== 'string')
    throw new TypeError(`${name} must be a number or 'sqrtWidth', got ${describe(value)}`);
  return value;
}

/**
 * How each method of a model reads its arguments (JS kinds only, each read once; the core checks the rest): the
 * model's own methods and the pool's handles (pool/model.mjs) read them alike, so both refuse the same arguments with
 * the same TypeError. Tensors come back as readTensor's records; setParameters' as [[name, record], ...].
 */
export const readModelArguments = Object.freeze({
  __proto__: null,
  parameters: () => [],
  setParameters: (parameters) => [readNamed('parameters', parameters, "{ 'layers.0.attention.wq': tensor, … }")
    .map(([name, tensor]) => [name, readTensor(`parameters['${name}']`, tensor)])],
  forward: (ids) => [readTensor('ids', ids)],
  loss: (ids, targets) => [readTensor('ids', ids), readTensor('targets', targets)],
  gradients: (ids, targets) => [readTensor('ids', ids), readTensor('targets', targets)],
  step: (ids, targets, options) => {
    ids = readTensor('ids', ids);
    targets = readTensor('targets', targets);
    return [ids, targets, optionalNumber('lr', readOptions('options', options, ['lr']).lr)];
  },
  attentionWeights: (ids) => [readTensor('ids', ids)],
  /** → [[[ids, targets] of each batch], lr]: the options first, then each batch (`batches[i].ids`, …). */
  train: (batches, options) => {
    if (!Array.isArray(batches)) throw new TypeError(`batches must be an array of { ids, targets }, got ${describe(batches)}`);
    const lr = optionalNumber('lr', readOptions('options', options, ['lr']).lr);
    const read = [];
    for (let i = 0; i < batches.length; i++) {
      const name = `batches[${i}]`;
      const given = Object.hasOwn(batches, i);  // (a hole is not a batch, nor what Array.prototype may hold there)
      const batch = given ? batches[i] : undefined;
      if (batch === undefined) throw new TypeError(`${name} must be an object { ids, targets }, got ${given ? 'undefined' : 'a hole'}`);
      const { ids, targets } = readOptions(name, batch, ['ids', 'targets']);
      read.push([readTensor(`${name}.ids`, ids), readTensor(`${name}.targets`, targets)]);
    }
    return [read, lr];
  },
});

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

  /** The model's inputs as the binding takes them: { model, ids, targets?, lr? } with the tensors in the heap. */
  static #input(call, handle, ids, targets, lr) {
    return { model: handle, ids: call.tensor(ids), targets: targets && call.tensor(targets), lr };
  }

  /** { [name]: tensor } from results in the order of the parameters. */
  #named(call, results) {
    return Object.fromEntries(this.#names.map((name, i) => [name, call.output(results[i])]));
  }

  /** Whether dispose() has been called. */
  get disposed() {
    return this.#disposed;
  }

  /** A copy of every parameter: { embed, [positions], 'layers.0.norm1.gain', …, 'readout.bias' } (parameters.hpp). */
  parameters() {
    return Model.#session(this, (call, model) => this.#named(call, call.core(this.#core.modelParameters, { model })));
  }

  /** Replaces any subset of the parameters: { [name]: tensor of that parameter's shape and the model's dtype }. */
  setParameters(parameters) {
    Model.#live(this);
    const [entries] = readModelArguments.setParameters(parameters);
    Model.#session(this, (call, model) => {
      const updates = entries.map(([name, tensor]) => ({ name, tensor: call.tensor(tensor) }));
      call.outcome(this.#core.modelSetParameters, { model, parameters: updates });
    });
  }

  /** ids int32 (B, T) → logits (B, classes) for readout 'mean', (B, T, classes) for 'each'. */
  forward(ids) {
    Model.#live(this);
    [ids] = readModelArguments.forward(ids);
    return Model.#session(this, (call, model) => {
      const [logits] = call.core(this.#core.modelForward, Model.#input(call, model, ids));
      return call.output(logits);
    });
  }

  /** The mean cross-entropy over the targets (int32 (B) or (B, T)) that are not −1. */
  loss(ids, targets) {
    Model.#live(this);
    [ids, targets] = readModelArguments.loss(ids, targets);
    return Model.#session(this, (call, model) => {
      const [loss] = call.core(this.#core.modelLoss, Model.#input(call, model, ids, targets));
      return call.number(loss);
    });
  }

  /** The loss and its gradient with respect to every parameter: { loss, grads: { [name]: tensor } }. */
  gradients(ids, targets) {
    Model.#live(this);
    [ids, targets] = readModelArguments.gradients(ids, targets);
    return Model.#session(this, (call, model) => {
      const [loss, ...grads] = call.core(this.#core.modelGradients, Model.#input(call, model, ids, targets));
      return { loss: call.number(loss), grads: this.#named(call, grads) };
    });
  }

  /** One Adam step (learning rate lr, default 1e-3); returns the loss before it. */
  step(ids, targets, options) {
    Model.#live(this);
    let lr;
    [ids, targets, lr] = readModelArguments.step(ids, targets, options);
    return Model.#session(this, (call, model) => {
      const [loss] = call.core(this.#core.modelStep, Model.#input(call, model, ids, targets, lr));
      return call.number(loss);
    });
  }

  /**
   * One Adam step on each of `batches` ([{ ids, targets }]), in order; returns the losses before each step (a
   * Float64Array). All or nothing: the options ({ lr }, as step's) and every batch, as step reads its tensors, are
   * read first, then their sizes; then the core checks lr's value, every batch (its message prefixed `batches[i]: `)
   * and the memory the steps need, before the first step. A step refused after that (a loss that is not finite), or
   * memory running out, undoes the steps before it: the call fails and the model is exactly as it was.
   */
  train(batches, options) {
    Model.#live(this);
    const [read, lr] = readModelArguments.train(batches, options);
    return Model.#session(this, (call, model) => {
      const copied = read.map(([ids, targets]) => ({ ids: call.tensor(ids), targets: call.tensor(targets) }));
      const [losses] = call.core(this.#core.modelTrain, { model, batches: copied, lr });
      return call.output(losses).data;
    });
  }

  /** ids (1, T) (or (T)) → every layer's attention weights, (layers, heads, T, T). */
  attentionWeights(ids) {
    Model.#live(this);
    [ids] = readModelArguments.attentionWeights(ids);
    return Model.#session(this, (call, model) => {
      const [weights] = call.core(this.#core.modelAttentionWeights, Model.#input(call, model, ids));
      return call.output(weights);
    });
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
  const o = readOptions('options', options, MODEL_OPTIONS);
  return {
    vocab: readNumber('vocab', o.vocab),
    width: readNumber('width', o.width),
    heads: optionalNumber('heads', o.heads),
    layers: optionalNumber('layers', o.layers),
    positions: optionalString('positions', o.positions),
    maxLength: optionalNumber('maxLength', o.maxLength),
    causal: optionalBoolean('causal', o.causal),
    readout: optionalString('readout', o.readout),
    classes: readNumber('classes', o.classes),
    dtype: optionalString('dtype', o.dtype),
    seed: optionalNumber('seed', o.seed),
    embedScale: optional(readEmbedScale)('embedScale', o.embedScale),
  };
}

/** createModel over the model module `core`, calling it through heap.mjs's `run`. */
export function makeModelApi(core, run) {
  /** A new model: token embedding, positions, `layers` pre-norm transformer blocks, a readout; parameters from seed. */
  function createModel(options) {
    const { embedScale, ...args } = readModelOptions(options);
    // the binding takes embedScale as a number or as a name, in two fields
    const scale = typeof embedScale === 'string' ? { embedScaleName: embedScale } : { embedScale };
    return new Model(making, core, run, run((call) => call.outcome(core.modelCreate, { ...args, ...scale })));
  }

  return { createModel };
}
