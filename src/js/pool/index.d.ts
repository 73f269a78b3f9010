/**
 * seqorder/pool: attention and models on several workers (Web Workers in browsers, worker_threads in node), the bits
 * of one thread. An entry point of its own, so that an app that does not import it ships none of its files (its
 * worker script).
 * @module seqorder/pool
 */
// Types for seqorder/pool (written by hand, as seqorder.d.ts, whose types these use).
import type {
  AttentionOptions, DTypeOfInput, FloatDType, FloatTensorInput, LoadOptions, Model, ModelConfig, ModelOptions, Parameters,
  ResultOf, GenerateOptions, PositionOptions, SimdBuild, StepOptions, StepsOf, StretchOptions, RangeOptions, Tensor, TensorInput, TrainingBatch,
} from '../seqorder.js';

/** Options of loadSeqorderPool. */
export interface PoolOptions extends LoadOptions {
  /**
   * How many workers (each its own instance of the module) to start: an integer 1 … 256. Default: the cores available
   * (navigator.hardwareConcurrency in browsers, os.availableParallelism() in node).
   */
  workers?: number;
  /**
   * true: this thread (the one that calls attention) computes a share of each attention call too, while the workers
   * compute theirs, as onnxruntime-web's calling thread does: per call, one worker's messages and copies fewer, and a
   * call too small to split is computed here with no message at all. This thread is then busy for its share (in a
   * page, the main thread: no input or paint meanwhile), so `workers` defaults to the cores available but one (at
   * least one). Its share follows its pace, as a worker's does. transfer is then ignored: this thread reads the
   * inputs, which are never moved. Default false: this thread only checks the calls and lays the results in place.
   * @example
   * const pool = await loadSeqorderPool({ callingThread: true });  // in node, or in a worker of a page
   */
  callingThread?: boolean;
  /**
   * The pool's workers share no memory: the pool copies each worker's part of a call to it (docs/pool.md says why).
   * false, or left out: the pool. true: loadSeqorderPool rejects with an Error that says the pool copies (the Error
   * a pool that could not share memory rejected with).
   * @deprecated The pool always copies; leave this option out.
   */
  sharedMemory?: boolean;
  /**
   * Where the pool's worker script is, when it is not the package's own (pool/seqorder/pool-worker.mjs beside the
   * package's JS, which Vite and webpack bundle by themselves): the URL of pool-worker.mjs (with the package's modules
   * it imports beside it), or of a bundle of it. Relative URLs are resolved against the page's (or worker's) URL; in
   * node it must be a file (a path, relative to the working folder, or a file: URL). A script on another origin than
   * the page's (a CDN) is started through a same-origin Blob: it must then be served with CORS, and a
   * Content-Security-Policy must allow workers from blob: and from that origin (worker-src); a same-origin copy given
   * here needs neither.
   * @example
   * const pool = await loadSeqorderPool({ workerUrl: '/static/seqorder/pool/seqorder/pool-worker.mjs' });
   */
  workerUrl?: string | URL;
}

/** Options of SeqorderPool.attention: Seqorder.attention's, and transfer. */
export interface PoolAttentionOptions<D extends FloatDType = FloatDType> extends AttentionOptions<D> {
  /**
   * Let the pool move the buffers of q.data, k.data and v.data to its workers instead of copying them (one copy
   * fewer): those arrays may be detached afterwards (length 0), so do not use them again. Default false. (Ignored by
   * a pool with callingThread: true, whose calling thread reads them.)
   */
  transfer?: boolean;
}

/**
 * Attention on several workers (Web Workers in browsers, worker_threads in node), no SharedArrayBuffer needed:
 * each call is checked on the calling thread exactly as Seqorder.attention checks it, then its batch items and query
 * rows are spread over the workers. Results are the bits Seqorder.attention computes on one thread. Models can live
 * in the workers too (createModel), each trained on its own core.
 */
export interface SeqorderPool {
  /** The package's version. */
  readonly version: string;
  /** Which module the workers run (see Seqorder.build). */
  readonly build: SimdBuild;
  /** How many workers the pool has. */
  readonly workers: number;
  /** Whether the calling thread computes a share of each attention call too (PoolOptions.callingThread). */
  readonly callingThread: boolean;
  /**
   * Always false: the workers share no memory (see PoolOptions.sharedMemory).
   * @deprecated The pool always copies; this is false for every pool.
   */
  readonly sharedMemory: boolean;
  /**
   * Seqorder.attention on the workers: a promise of what it returns, bit for bit.
   * @example
   * const y = await pool.attention(x, x, x, { causal: true });
   * @throws {TypeError | RangeError} (a rejection) as Seqorder.attention, with the same message, before any worker is
   *         involved
   * @throws {Error} (a rejection) when a worker dies during the call, or the pool is closed
   */
  attention<X extends FloatTensorInput>(q: X, k: TensorInput<DTypeOfInput<X>>, v: TensorInput<DTypeOfInput<X>>,
    options?: PoolAttentionOptions<DTypeOfInput<X>> & { steps?: false }): Promise<ResultOf<X>>;
  /** With `steps: true`: every step, { scores, scaled, weights, output }. */
  attention<X extends FloatTensorInput>(q: X, k: TensorInput<DTypeOfInput<X>>, v: TensorInput<DTypeOfInput<X>>,
    options: PoolAttentionOptions<DTypeOfInput<X>> & { steps: true }): Promise<StepsOf<X>>;
  /** With `steps` known only at run time: the output or the four steps. */
  attention<X extends FloatTensorInput>(q: X, k: TensorInput<DTypeOfInput<X>>, v: TensorInput<DTypeOfInput<X>>,
    options?: PoolAttentionOptions<DTypeOfInput<X>>): Promise<ResultOf<X> | StepsOf<X>>;
  /**
   * Seqorder.createModel in one of the workers (the one holding the fewest models): a promise of a handle to it, whose
   * methods are the model's, as promises.
   * @example
   * const model = await pool.createModel({ vocab: 16, width: 32, heads: 2, classes: 2, seed: 1 });
   * const losses = await model.train(batches, { lr: 3e-3 });
   * @throws {TypeError | RangeError} (a rejection) as Seqorder.createModel
   * @throws {Error} (a rejection) when the pool is closed, or the model module could not be loaded (as
   *         Seqorder.createModel, after the options are read)
   */
  createModel<D extends FloatDType = 'float32'>(options: ModelOptions<D>): Promise<PoolModel<D>>;
  /**
   * Seqorder.loadModel in one of the workers: the bytes read here (the same errors), then a copy of them made a model
   * in the worker.
   * @example
   * const remote = await pool.loadModel(model.save());
   * @throws {TypeError | RangeError} (a rejection) as Seqorder.loadModel
   * @throws {Error} (a rejection) as createModel
   */
  loadModel<D extends FloatDType = FloatDType>(bytes: Uint8Array): Promise<PoolModel<D>>;
  /**
   * Ends the workers: calls still pending reject, and so do later ones. Resolves once every worker has ended.
   * @example
   * await pool.close();
   * @throws never (closing a closed pool resolves)
   */
  close(): Promise<void>;
}

/**
 * A model living in one of the pool's workers, until dispose(). Its methods are Model's, each a promise of what
 * Model's returns (or rejected with the error it throws, class and message); calls are answered in the order made.
 * Arguments reach the worker by structured clone. If that worker stops, the model is lost: later calls reject.
 */
export interface PoolModel<D extends FloatDType = FloatDType> {
  /** The resolved configuration (frozen), as Model.config. */
  readonly config: ModelConfig<D>;
  /** The index of the worker that holds the model (0 … pool.workers − 1). */
  readonly worker: number;
  /** Whether dispose() has been called. */
  readonly disposed: boolean;
  /**
   * Model.parameters, in the worker.
   * @example
   * const copy = so.createModel(remote.config);
   * copy.setParameters(await remote.parameters());
   * @throws {Error} (a rejection) when the model is disposed or its worker stopped
   */
  parameters(): Promise<Parameters<D>>;
  /**
   * Model.setParameters, in the worker.
   * @example
   * await remote.setParameters(model.parameters());
   * @throws {TypeError | RangeError} (a rejection) as Model.setParameters, with the same message
   * @throws {Error} (a rejection) when the model is disposed or its worker stopped
   */
  setParameters(parameters: Record<string, TensorInput<D>>): Promise<void>;
  /**
   * Model.forward, in the worker.
   * @example
   * const logits = await remote.forward(ids);
   * @throws {TypeError | RangeError} (a rejection) as Model.forward, with the same message
   * @throws {Error} (a rejection) when the model is disposed or its worker stopped
   */
  forward(ids: TensorInput<'int32'>, options?: PositionOptions & StretchOptions & RangeOptions): Promise<Tensor<D>>;
  /**
   * Model.loss, in the worker.
   * @example
   * const loss = await remote.loss(ids, targets);
   * @throws {TypeError | RangeError} (a rejection) as Model.loss, with the same message
   * @throws {Error} (a rejection) when the model is disposed or its worker stopped
   */
  loss(ids: TensorInput<'int32'>, targets: TensorInput<'int32'>, options?: PositionOptions & StretchOptions & RangeOptions): Promise<number>;
  /**
   * Model.gradients, in the worker.
   * @example
   * const { loss, grads } = await remote.gradients(ids, targets);
   * @throws {TypeError | RangeError} (a rejection) as Model.gradients, with the same message
   * @throws {Error} (a rejection) when the model is disposed or its worker stopped
   */
  gradients(ids: TensorInput<'int32'>, targets: TensorInput<'int32'>, options?: PositionOptions & StretchOptions & RangeOptions): Promise<{ loss: number; grads: Parameters<D> }>;
  /**
   * Model.step, in the worker (train does many steps in one message).
   * @example
   * const lossBefore = await remote.step(ids, targets, { lr: 3e-3 });
   * @throws {TypeError | RangeError} (a rejection) as Model.step, with the same message
   * @throws {Error} (a rejection) when the model is disposed or its worker stopped
   */
  step(ids: TensorInput<'int32'>, targets: TensorInput<'int32'>, options?: StepOptions & PositionOptions & StretchOptions & RangeOptions): Promise<number>;
  /**
   * Model.train, in the worker: one Adam step on each batch, in order, in one message; resolves to the losses before
   * each step.
   * @example
   * const batches = Array.from({ length: 40 }, (_, k) => so.orderTask({ count: 32, length: 12, seed: k }));
   * const losses = await remote.train(batches, { lr: 3e-3 });   // Float64Array(40)
   * @throws {TypeError | RangeError} (a rejection) as Model.train, with the same message
   * @throws {Error} (a rejection) when the model is disposed or its worker stopped
   */
  train(batches: readonly TrainingBatch[], options?: StepOptions & StretchOptions & RangeOptions): Promise<Float64Array>;
  /**
   * Model.attentionWeights, in the worker.
   * @example
   * const maps = await remote.attentionWeights({ data: ids.data.subarray(0, 12), shape: [1, 12] });
   * @throws {TypeError | RangeError} (a rejection) as Model.attentionWeights, with the same message
   * @throws {Error} (a rejection) when the model is disposed or its worker stopped
   */
  attentionWeights(ids: TensorInput<'int32'>, options?: PositionOptions & StretchOptions & RangeOptions): Promise<Tensor<D>>;
  /**
   * Model.generate, in the worker.
   * @example
   * const text = await remote.generate([3, 1, 4], { steps: 20, seed: 1 });   // Int32Array(23)
   * @throws {TypeError | RangeError} (a rejection) as Model.generate, with the same message
   * @throws {Error} (a rejection) when the model is disposed or its worker stopped
   */
  generate(prefix: Int32Array | readonly number[], options: GenerateOptions): Promise<Int32Array>;
  /**
   * Model.save, in the worker.
   * @example
   * const model = so.loadModel(await remote.save());
   * @throws {Error} (a rejection) when the model is disposed or its worker stopped
   */
  save(): Promise<Uint8Array>;
  /**
   * Frees the model in its worker; later calls reject. Calling it again does nothing.
   * @example
   * await remote.dispose();
   * @throws never
   */
  dispose(): Promise<void>;
}

/**
 * Loads a pool of workers that run attention, plus one instance of the module on this thread that checks calls (made
 * by the first call when this thread made an instance of the module before). The
 * modules are fetched and compiled once (wasmUrl, wasmBinary, modelWasmUrl, modelWasmBinary and simd as
 * loadSeqorder's), the model module when the first model is made, and sent to the workers.
 * @example
 * import { loadSeqorderPool } from 'seqorder/pool';
 * const pool = await loadSeqorderPool({ workers: 2 });
 * const y = await pool.attention(x, x, x);
 * await pool.close();
 * @throws {TypeError | RangeError} (a rejection) when an option has the wrong kind or value (workers an integer
 *         1 … 256; workerUrl a string or URL, a file in node)
 * @throws {Error} (a rejection) as loadSeqorder, when a worker cannot start (the message names its script and the
 *         workerUrl option), or when sharedMemory is true (the message says the pool copies)
 */
export function loadSeqorderPool(options?: PoolOptions): Promise<SeqorderPool>;
