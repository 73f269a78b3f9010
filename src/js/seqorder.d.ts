// Types for seqorder's JS API (written by hand: Emscripten 3.1.6 has no --emit-tsd).
// Functions are generic over their first input X, whose data's class says the dtype: `{ data: new Float32Array(…), shape }`
// gives a Tensor<'float32'> without a dtype written, and the other inputs of a call must hold the same class. An input
// whose dtype is known only at run time (a FloatTensorInput) gives a union of tensors, narrowed by checking `dtype`.

/** Element types a tensor can hold. */
export type DType = 'float64' | 'float32' | 'int32';
export type FloatDType = 'float64' | 'float32';

/** The typed array class of each dtype. */
export interface ArrayOf {
  float64: Float64Array;
  float32: Float32Array;
  int32: Int32Array;
}

/** A float tensor's data: Float64Array or Float32Array. */
export type FloatArray = ArrayOf[FloatDType];

/** The dtype of a typed array class: Float32Array → 'float32', and so on. */
export type DTypeOf<A> = A extends Float32Array ? 'float32' : A extends Float64Array ? 'float64' : A extends Int32Array ? 'int32' : never;

/** A plain tensor: row-major data, last axis contiguous; data.length equals the product of shape. */
export interface Tensor<D extends DType = DType> {
  data: ArrayOf[D];
  shape: number[];
  dtype: D;
}

/** An input tensor: dtype may be left out when data's class says it. */
export interface TensorInput<D extends DType = DType> {
  data: ArrayOf[D];
  shape: readonly number[];
  dtype?: D;
}

/** An input tensor whose data is an A (the class the call's result, and its other inputs, follow). */
export type InputOf<A extends ArrayOf[DType]> = TensorInput<DTypeOf<A>> & { data: A };

/** The float dtype of an input tensor X, from its data's class; a union of inputs gives the union of their dtypes. */
export type DTypeOfInput<X> = X extends { data: infer A } ? Extract<DTypeOf<A>, FloatDType> : never;

/**
 * What a call returns for an input X: a tensor of X's dtype. For an input whose dtype is known only at run time (a
 * FloatTensorInput, say from another library's tensor), a union, Tensor<'float64'> | Tensor<'float32'>, that a check
 * of `dtype` narrows.
 */
export type ResultOf<X> = X extends { data: infer A } ? TensorOfEach<Extract<DTypeOf<A>, FloatDType>> : never;

/** A tensor of each dtype of D: Tensor<'float64'> | Tensor<'float32'> for both, which a check of `dtype` narrows. */
export type TensorOfEach<D extends DType> = D extends DType ? Tensor<D> : never;

/** attention's four steps for an input X (a union of them for a union of inputs, as ResultOf). */
export type StepsOf<X> = X extends { data: infer A } ? AttentionSteps<Extract<DTypeOf<A>, FloatDType>> : never;

export type FloatTensor = Tensor<'float64'> | Tensor<'float32'>;
export type FloatTensorInput = TensorInput<'float64'> | TensorInput<'float32'>;

export interface PositionsOptions<D extends FloatDType = 'float64'> {
  /** First position t (default 0): row r holds position start + r. */
  start?: number;
  /** Frequency base (default 10000): f_i = base^(−2i/width). */
  base?: number;
  /** Element type of the result (default 'float64'); float32 is rounded once from float64 angles. */
  dtype?: D;
  /** 'interleaved' (default: sin, cos, sin, cos, …) or 'halves' (all sines, then all cosines). */
  layout?: 'interleaved' | 'halves';
  /** Write the result into this array (length × width elements of dtype) instead of allocating one. */
  out?: ArrayOf[D];
}

export interface EmbedOptions<D extends FloatDType = FloatDType> {
  /** Write the rows into this array (T·D or B·T·D elements of the table's dtype) instead of allocating one. */
  out?: ArrayOf[D];
}

export interface AddPositionsOptions<D extends FloatDType = FloatDType> {
  /** Position of x's first row (default 0): row r gets the sinusoid of position start + r. */
  start?: number;
  /** Frequency base of the sinusoids (default 10000): f_i = base^(−2i/D). */
  base?: number;
  /** Write the sum into this array (as many elements as x, of x's dtype) instead of allocating one. */
  out?: ArrayOf[D];
}

export interface LearnedPositionsOptions<D extends FloatDType = FloatDType> {
  /** First row to take (default 0): the result holds rows start … start + length − 1; past row P − 1 is a RangeError. */
  start?: number;
  /** Write the rows into this array (length × D elements of the table's dtype) instead of allocating one. */
  out?: ArrayOf[D];
}

export interface RopeOptions<D extends FloatDType = FloatDType> {
  /** Position of x's first row (default 0): row r is rotated as position start + r. */
  start?: number;
  /** Frequency base (default 10000): pair i turns by base^(−2i/D) per position. */
  base?: number;
  /** Write the result into this array (as many elements as x, of x's dtype) instead of allocating one. */
  out?: ArrayOf[D];
}

export interface AttentionOptions<D extends FloatDType = FloatDType> {
  /** Hide later keys: query i sees keys 0 … queryStart + i. Default false. */
  causal?: boolean;
  /** Position of the first query among the keys, 0 … Tk − Tq; default Tk − Tq (queries are the last positions). Only with causal: true. */
  queryStart?: number;
  /** Return every step { scores, scaled, weights, output } instead of the output alone. Default false. */
  steps?: boolean;
  /** Write the output (.., Tq, Dv) into this array of q's dtype instead of allocating one. */
  out?: ArrayOf[D];
}

export interface AttentionSteps<D extends FloatDType = FloatDType> {
  /** q·kᵀ, (.., Tq, Tk) */
  scores: Tensor<D>;
  /** scores / √D, masked entries −∞, (.., Tq, Tk) */
  scaled: Tensor<D>;
  /** softmax over keys, rows sum to 1, masked entries exactly 0, (.., Tq, Tk) */
  weights: Tensor<D>;
  /** weights·v, (.., Tq, Dv) */
  output: Tensor<D>;
}

export interface MemoryStats {
  /** Bytes currently held by malloc in the WebAssembly heap. */
  allocatedBytes: number;
  /** Size of the WebAssembly heap in bytes (it only grows). */
  heapBytes: number;
}

/** How a model learns where a token stands. */
export type ModelPositions = 'none' | 'sinusoidal' | 'learned' | 'rotary';

/** What every model's options hold, whatever its positions. */
export interface ModelOptionsBase<D extends FloatDType = 'float32'> {
  /** V: token ids are 0 … vocab − 1 (an integer in 1 … 2^31 − 1). */
  vocab: number;
  /** D: the model width (even with sinusoidal positions; divisible by heads). */
  width: number;
  /** H: attention heads, each width / heads wide (default 1; width / heads even with rotary positions). */
  heads?: number;
  /** Transformer blocks, 1 … 4 (default 1). */
  layers?: number;
  /** Query i sees keys 0 … i only (default false). */
  causal?: boolean;
  /** 'mean' (default: one prediction per sequence, logits (B, classes)) or 'each' (one per position, (B, T, classes)). */
  readout?: 'mean' | 'each';
  /** C: targets are 0 … classes − 1, or −1 (ignored). */
  classes: number;
  /** Element type of the parameters and results (default 'float32': the fast kernels; 'float64': the exact reference). */
  dtype?: D;
  /** An integer in 0 … 2^53 (default 0): the initial parameters; the same seed gives the same bits everywhere. */
  seed?: number;
}

/** A model with a learned table of positions: its rows, maxLength, are required. */
export interface LearnedModelOptions<D extends FloatDType = 'float32'> extends ModelOptionsBase<D> {
  /** A trained (maxLength, width) table, added to the token vectors. */
  positions: 'learned';
  /** Rows of the learned table (a positive integer): ids longer than it are a RangeError. */
  maxLength: number;
}

/** A model whose positions are fixed ones, or none: it has no maxLength. */
export interface FixedModelOptions<D extends FloatDType = 'float32'> extends ModelOptionsBase<D> {
  /**
   * 'none', 'sinusoidal' (default: the fixed table, added) or 'rotary' (each head's queries and keys rotated by
   * position).
   */
  positions?: 'none' | 'sinusoidal' | 'rotary';
  /** Only with positions 'learned'. */
  maxLength?: undefined;
}

/**
 * createModel's options: maxLength is required with positions 'learned' and absent otherwise, so the type catches a
 * learned table without its length.
 */
export type ModelOptions<D extends FloatDType = 'float32'> = LearnedModelOptions<D> | FixedModelOptions<D>;

/** What every resolved configuration holds. */
export interface ModelConfigBase<D extends FloatDType = FloatDType> {
  readonly vocab: number;
  readonly width: number;
  readonly heads: number;
  readonly layers: number;
  readonly causal: boolean;
  readonly readout: 'mean' | 'each';
  readonly classes: number;
  readonly dtype: D;
  readonly seed: number;
}

/**
 * createModel's options with every default filled in: maxLength only with learned positions (so a config can be
 * given to createModel again, or spread with changes: `createModel({ ...model.config, dtype: 'float64' })`).
 */
export type ModelConfig<D extends FloatDType = FloatDType> = ModelConfigBase<D> & (
  { readonly positions: 'learned'; readonly maxLength: number } |
  { readonly positions: 'none' | 'sinusoidal' | 'rotary'; readonly maxLength?: undefined });

/**
 * A model's parameters by name: 'embed' (vocab, width); 'positions' (maxLength, width), learned positions only; per
 * layer i: 'layers.i.norm1.gain', 'layers.i.norm1.bias' (width), 'layers.i.attention.wq', '….wk', '….wv', '….wo'
 * (width, width), 'layers.i.norm2.gain', 'layers.i.norm2.bias' (width), 'layers.i.mlp.w1' (width, 4 width),
 * 'layers.i.mlp.b1' (4 width), 'layers.i.mlp.w2' (4 width, width), 'layers.i.mlp.b2' (width); then 'norm.gain',
 * 'norm.bias' (width), 'readout.weight' (width, classes), 'readout.bias' (classes). Weights map rows: x (.., D_in) W.
 */
export type Parameters<D extends FloatDType = FloatDType> = Record<string, Tensor<D>>;

export interface StepOptions {
  /** Adam's learning rate (default 1e-3; a finite number ≥ 0). */
  lr?: number;
}

/** A small transformer living in the module's heap: call dispose() when done with it. */
export interface Model<D extends FloatDType = FloatDType> {
  /** The resolved configuration (frozen): createModel(model.config) makes a model of the same architecture. */
  readonly config: ModelConfig<D>;
  /** Whether dispose() has been called. */
  readonly disposed: boolean;
  /** A copy of every parameter, in the documented order (each tensor on its own ArrayBuffer: transferable). */
  parameters(): Parameters<D>;
  /**
   * Replaces any subset of the parameters; each name must exist, each tensor have its shape and the model's dtype,
   * every value be finite (else a RangeError, and nothing changes).
   */
  setParameters(parameters: Record<string, TensorInput<D>>): void;
  /** ids int32 (B, T) → logits (B, classes) for readout 'mean', (B, T, classes) for 'each'. */
  forward(ids: TensorInput<'int32'>): Tensor<D>;
  /** The mean cross-entropy over the targets (int32 (B) for 'mean', (B, T) for 'each') that are not −1. */
  loss(ids: TensorInput<'int32'>, targets: TensorInput<'int32'>): number;
  /** The loss and its gradient with respect to every parameter (the names and shapes of parameters()). */
  gradients(ids: TensorInput<'int32'>, targets: TensorInput<'int32'>): { loss: number; grads: Parameters<D> };
  /**
   * One Adam step; returns the loss before it. A step whose loss, or whose new parameters or moments, would not be
   * finite is refused with a RangeError, and the model is unchanged (as after any failed call).
   */
  step(ids: TensorInput<'int32'>, targets: TensorInput<'int32'>, options?: StepOptions): number;
  /** ids (1, T) (or (T)) → every layer's attention weights, (layers, heads, T, T): rows sum to 1, masked keys exactly 0. */
  attentionWeights(ids: TensorInput<'int32'>): Tensor<D>;
  /** Frees the model's memory in the module; any later call throws an Error. Calling it again does nothing. */
  dispose(): void;
}

export interface OrderTaskOptions {
  /** How many sentences (even when mirrored). */
  count: number;
  /** Tokens per sentence (at least 2). */
  length: number;
  /** An integer in 0 … 2^53 (default 0): the same seed gives the same sentences everywhere. */
  seed?: number;
  /** Sentences in pairs, the second the first with robot and person swapped (default false). */
  mirrored?: boolean;
}

export interface OrderTask {
  /** (count, length): ids into taskWords; each sentence holds robot and person once. */
  ids: Tensor<'int32'>;
  /** (count): 1 when robot comes before person, else 0. */
  targets: Tensor<'int32'>;
}

export interface Seqorder {
  readonly version: string;
  /** Which module runs: 'relaxed' (relaxed SIMD's multiply-add, opted into with `simd: 'relaxed'`) or 'simd128'. */
  readonly build: SimdBuild;
  /** Sinusoidal positions → (length, width). Throws TypeError/RangeError naming the bad argument. */
  positions<D extends FloatDType = 'float64'>(length: number, width: number, options?: PositionsOptions<D>): TensorOfEach<D>;
  /** Token lookup: table (V, D), ids int32 (T) or (B, T) → (T, D) or (B, T, D). */
  embed<X extends FloatTensorInput>(table: X, ids: TensorInput<'int32'>, options?: EmbedOptions<DTypeOfInput<X>>): ResultOf<X>;
  /** x (T, D), (B, T, D) or any leading axes (.., T, D) + positions start … start+T−1 (broadcast over the leading axes) → same shape. */
  addPositions<X extends FloatTensorInput>(x: X, options?: AddPositionsOptions<DTypeOfInput<X>>): ResultOf<X>;
  /** Rows start … start+length−1 of a learned table (P, D) → (length, D); past row P−1 is a RangeError. */
  learnedPositions<X extends FloatTensorInput>(table: X, length: number, options?: LearnedPositionsOptions<DTypeOfInput<X>>): ResultOf<X>;
  /**
   * Rotary positions (RoPE): x (.., T, D) (any leading axes, e.g. (B, H, T, Dh)) → same shape; row t's pair (2i, 2i+1) is rotated by
   * (start + t)·base^(−2i/D). After rotating q and k, q_m·k_n depends on the positions only through m − n.
   */
  rope<X extends FloatTensorInput>(x: X, options?: RopeOptions<DTypeOfInput<X>>): ResultOf<X>;
  /**
   * Scaled dot-product attention: q (.., Tq, D), k (.., Tk, D), v (.., Tk, Dv) → (.., Tq, Dv), over any leading batch
   * axes (the same for q, k and v), e.g. (B, H, T, D) for several heads. q, k and v share one dtype (q's).
   */
  attention<X extends FloatTensorInput>(q: X, k: TensorInput<DTypeOfInput<X>>, v: TensorInput<DTypeOfInput<X>>,
    options?: AttentionOptions<DTypeOfInput<X>> & { steps?: false }): ResultOf<X>;
  attention<X extends FloatTensorInput>(q: X, k: TensorInput<DTypeOfInput<X>>, v: TensorInput<DTypeOfInput<X>>,
    options: AttentionOptions<DTypeOfInput<X>> & { steps: true }): StepsOf<X>;
  attention<X extends FloatTensorInput>(q: X, k: TensorInput<DTypeOfInput<X>>, v: TensorInput<DTypeOfInput<X>>,
    options?: AttentionOptions<DTypeOfInput<X>>): ResultOf<X> | StepsOf<X>;
  /** Heap diagnostics, for leak checks. */
  memoryStats(): MemoryStats;
  /** A new trainable model (see Model); its parameters are drawn from options.seed. */
  createModel<D extends FloatDType = 'float32'>(options: ModelOptions<D>): Model<D>;
  /** The lesson's task: does robot come before person? Seeded sentences over taskWords. */
  orderTask(options: OrderTaskOptions): OrderTask;
  /** The task's vocabulary: a token's id is its index ('the', 'robot', 'follows', 'person', …). */
  readonly taskWords: readonly string[];
}

export interface LoadOptions {
  /**
   * Where the module is, when it is not in the `seqorder/` folder beside the package's JS (the default, which Vite and
   * webpack follow by themselves): the URL of seqorder_core.wasm, or of a folder ending in '/' that holds it (and
   * seqorder_core_relaxed.wasm, for simd: 'relaxed'). Relative URLs are resolved against the page's (or worker's)
   * URL; under node a string may also be a file path, relative to the working folder.
   */
  wasmUrl?: string | URL;
  /** The module's .wasm bytes, if the caller already has them (instead of a URL; not with wasmUrl). */
  wasmBinary?: ArrayBuffer | ArrayBufferView;
  /**
   * 'simd128' (default): results bit-identical in every engine. 'relaxed': relaxed SIMD's multiply-add, used only where
   * the engine supports relaxed SIMD (else the default module); results may differ between engines by float32
   * rounding. Cannot be combined with wasmBinary; with wasmUrl, that must be a folder.
   */
  simd?: SimdBuild;
}

export type SimdBuild = 'simd128' | 'relaxed';

/**
 * Loads the WebAssembly module; the same call works in browsers, workers and node ≥ 20. Rejects with an Error naming
 * the URL it tried and what to do when the module cannot be fetched or is not WebAssembly.
 */
export function loadSeqorder(options?: LoadOptions): Promise<Seqorder>;

export interface PoolOptions extends LoadOptions {
  /**
   * How many workers (each its own instance of the module) to start: an integer 1 … 256. Default: the cores available
   * (navigator.hardwareConcurrency in browsers, os.availableParallelism() in node).
   */
  workers?: number;
  /**
   * Whether the workers share one WebAssembly.Memory for attention's float32 calls without steps: q, k and v are then
   * written there once and each worker computes its rows in place (the kernel module seqorder_kernel.wasm, found
   * beside the main module). Shared memory needs node, or a browser page that is cross-origin isolated (served with
   * Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy: require-corp) in an engine that can post
   * a shared memory to a worker. true: required (loadSeqorderPool rejects with an Error saying why it cannot be had);
   * false: never (the pool copies slabs to its workers); default: wherever it can be had. Same results either way.
   */
  sharedMemory?: boolean;
}

export interface PoolAttentionOptions<D extends FloatDType = FloatDType> extends AttentionOptions<D> {
  /**
   * Let the pool move the buffers of q.data, k.data and v.data to its workers instead of copying them (one copy
   * fewer): those arrays may be detached afterwards (length 0), so do not use them again. Default false. (A call the
   * workers run in shared memory copies its inputs there once and moves nothing.)
   */
  transfer?: boolean;
}

/**
 * Attention on several workers (Web Workers in browsers, worker_threads in node), no SharedArrayBuffer needed (where
 * it can be had, the workers share one memory: PoolOptions.sharedMemory):
 * each call is checked on the calling thread exactly as Seqorder.attention checks it, then its batch items and query
 * rows are spread over the workers. Results are the bits Seqorder.attention computes on one thread. Models can live
 * in the workers too (createModel), each trained on its own core.
 */
export interface SeqorderPool {
  readonly version: string;
  /** Which module the workers run (see Seqorder.build). */
  readonly build: SimdBuild;
  /** How many workers the pool has. */
  readonly workers: number;
  /** Whether its workers share one memory for attention (see PoolOptions.sharedMemory). */
  readonly sharedMemory: boolean;
  /**
   * Seqorder.attention on the workers: a promise of what it returns, rejected with the TypeError or RangeError it
   * throws (before any worker is involved), or with an Error if a worker dies during the call or the pool is closed.
   */
  attention<X extends FloatTensorInput>(q: X, k: TensorInput<DTypeOfInput<X>>, v: TensorInput<DTypeOfInput<X>>,
    options?: PoolAttentionOptions<DTypeOfInput<X>> & { steps?: false }): Promise<ResultOf<X>>;
  attention<X extends FloatTensorInput>(q: X, k: TensorInput<DTypeOfInput<X>>, v: TensorInput<DTypeOfInput<X>>,
    options: PoolAttentionOptions<DTypeOfInput<X>> & { steps: true }): Promise<StepsOf<X>>;
  attention<X extends FloatTensorInput>(q: X, k: TensorInput<DTypeOfInput<X>>, v: TensorInput<DTypeOfInput<X>>,
    options?: PoolAttentionOptions<DTypeOfInput<X>>): Promise<ResultOf<X> | StepsOf<X>>;
  /**
   * Seqorder.createModel in one of the workers (the one holding the fewest models): a promise of a handle to it, whose
   * methods are the model's, as promises. Rejected with the TypeError or RangeError createModel throws.
   */
  createModel<D extends FloatDType = 'float32'>(options: ModelOptions<D>): Promise<PoolModel<D>>;
  /** Ends the workers: calls still pending reject, and so do later ones. Resolves once every worker has ended. */
  close(): Promise<void>;
}

/** One batch of training data for PoolModel.train: what Model.step takes. */
export interface TrainingBatch {
  ids: TensorInput<'int32'>;
  targets: TensorInput<'int32'>;
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
  parameters(): Promise<Parameters<D>>;
  setParameters(parameters: Record<string, TensorInput<D>>): Promise<void>;
  forward(ids: TensorInput<'int32'>): Promise<Tensor<D>>;
  loss(ids: TensorInput<'int32'>, targets: TensorInput<'int32'>): Promise<number>;
  gradients(ids: TensorInput<'int32'>, targets: TensorInput<'int32'>): Promise<{ loss: number; grads: Parameters<D> }>;
  step(ids: TensorInput<'int32'>, targets: TensorInput<'int32'>, options?: StepOptions): Promise<number>;
  /**
   * One Adam step on each batch, in order, in one message to the worker; resolves to the losses before each step. A
   * batch that fails rejects with its error, the message prefixed with `batches[i]: ` (the steps before it stay taken).
   */
  train(batches: readonly TrainingBatch[], options?: StepOptions): Promise<Float64Array>;
  attentionWeights(ids: TensorInput<'int32'>): Promise<Tensor<D>>;
  /** Frees the model in its worker; later calls reject. Calling it again does nothing. */
  dispose(): Promise<void>;
}

/**
 * Loads a pool of workers that run attention, plus one instance of the module on this thread that checks calls. The
 * module is fetched and compiled once (wasmUrl, wasmBinary and simd as loadSeqorder's) and sent to the workers.
 */
export function loadSeqorderPool(options?: PoolOptions): Promise<SeqorderPool>;

export const version: string;
