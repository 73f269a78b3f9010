/**
 * seqorder's JS API: `loadSeqorder()` and what it resolves to, the trainable model, the pool of workers, on plain
 * `{ data, shape, dtype }` tensors.
 * @module seqorder
 */
// Types for seqorder's JS API (written by hand: Emscripten 3.1.6 has no --emit-tsd).
// Functions are generic over their first input X, whose data's class says the dtype: `{ data: new Float32Array(…), shape }`
// gives a Tensor<'float32'> without a dtype written, and the other inputs of a call must hold the same class. An input
// whose dtype is known only at run time (a FloatTensorInput) gives a union of tensors, narrowed by checking `dtype`.

/** Element types a tensor can hold. */
export type DType = 'float64' | 'float32' | 'int32';
/** The element types of float tensors. */
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

/** A float tensor of either dtype: a check of `dtype` narrows it. */
export type FloatTensor = Tensor<'float64'> | Tensor<'float32'>;
/** A float input tensor of either dtype (its dtype known at run time only): calls given one return a FloatTensor. */
export type FloatTensorInput = TensorInput<'float64'> | TensorInput<'float32'>;

/** Options of Seqorder.positions. */
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

/** Options of Seqorder.embed. */
export interface EmbedOptions<D extends FloatDType = FloatDType> {
  /** Write the rows into this array (T·D or B·T·D elements of the table's dtype) instead of allocating one. */
  out?: ArrayOf[D];
}

/** Options of Seqorder.addPositions. */
export interface AddPositionsOptions<D extends FloatDType = FloatDType> {
  /** Position of x's first row (default 0): row r gets the sinusoid of position start + r. */
  start?: number;
  /** Frequency base of the sinusoids (default 10000): f_i = base^(−2i/D). */
  base?: number;
  /** Write the sum into this array (as many elements as x, of x's dtype) instead of allocating one. */
  out?: ArrayOf[D];
}

/** Options of Seqorder.learnedPositions. */
export interface LearnedPositionsOptions<D extends FloatDType = FloatDType> {
  /** First row to take (default 0): the result holds rows start … start + length − 1; past row P − 1 is a RangeError. */
  start?: number;
  /** Write the rows into this array (length × D elements of the table's dtype) instead of allocating one. */
  out?: ArrayOf[D];
}

/** Options of Seqorder.rope. */
export interface RopeOptions<D extends FloatDType = FloatDType> {
  /** Position of x's first row (default 0): row r is rotated as position start + r. */
  start?: number;
  /** Frequency base (default 10000): pair i turns by base^(−2i/D) per position. */
  base?: number;
  /** Write the result into this array (as many elements as x, of x's dtype) instead of allocating one. */
  out?: ArrayOf[D];
}

/** Options of Seqorder.attention. */
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

/** Options of Seqorder.matmul. */
export interface MatmulOptions<D extends FloatDType = FloatDType> {
  /** Write the product (.., M, N) into this array of a's dtype instead of allocating one. */
  out?: ArrayOf[D];
}

/** Options of Seqorder.softmax: attention's causal mask, on x (.., Tq, Tk). */
export interface SoftmaxOptions<D extends FloatDType = FloatDType> {
  /** Hide later keys: row i of each (Tq, Tk) block sees entries 0 … queryStart + i, the rest get weight 0. Default false. */
  causal?: boolean;
  /** Position of the first query among the keys, 0 … Tk − Tq; default Tk − Tq. Only with causal: true. */
  queryStart?: number;
  /** Write the weights into this array (as many elements as x, of x's dtype) instead of allocating one. */
  out?: ArrayOf[D];
}

/** Options of Seqorder.splitHeads. */
export interface SplitHeadsOptions<D extends FloatDType = FloatDType> {
  /** Write the heads into this array (as many elements as x, of x's dtype) instead of allocating one. */
  out?: ArrayOf[D];
}

/** Options of Seqorder.mergeHeads. */
export interface MergeHeadsOptions<D extends FloatDType = FloatDType> {
  /** Write the merged rows into this array (as many elements as x, of x's dtype) instead of allocating one. */
  out?: ArrayOf[D];
}

/** attention's four steps, as the lesson names them: what `steps: true` returns. */
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

/**
 * What Seqorder.memoryStats reports of the WebAssembly heaps: the main module's, and the model module's once the first
 * model has started it.
 */
export interface MemoryStats {
  /**
   * Bytes currently held by malloc in the heaps (in the model module's, beyond what its start-up holds: every model
   * disposed, the figure is back where it was before the first).
   */
  allocatedBytes: number;
  /** Size of the heaps in bytes (each only grows; the model module's counts from the first model). */
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
  /**
   * What the token vectors are multiplied by before the positions are added (forward and backward): a positive
   * number (default 1: as they are) or 'sqrtWidth' (√width, as in Attention Is All You Need, §3.4). A number must stay
   * finite and > 0 in the model's dtype (in float32: from 2^-149 to about 3.4e38), else a RangeError naming embedScale.
   */
  embedScale?: number | 'sqrtWidth';
}

/**
 * The options of the position schemes that take them (maxLength, rotaryBase, rotaryPairs, buckets, maxDistance), each
 * absent unless its scheme is chosen.
 */
export interface NoSchemeOptions {
  /** Only with positions 'learned'. */
  maxLength?: undefined;
  /** Only with positions 'rotary'. */
  rotaryBase?: undefined;
  /** Only with positions 'rotary'. */
  rotaryPairs?: undefined;
  /** Only with positions 'relative'. */
  buckets?: undefined;
  /** Only with positions 'relative'. */
  maxDistance?: undefined;
}

/** A model with a learned table of positions: its rows, maxLength, are required. */
export interface LearnedModelOptions<D extends FloatDType = 'float32'>
  extends ModelOptionsBase<D>, Omit<NoSchemeOptions, 'maxLength'> {
  /** A trained (maxLength, width) table, added to the token vectors. */
  positions: 'learned';
  /** Rows of the learned table (a positive integer): ids longer than it are a RangeError. */
  maxLength: number;
}

/**
 * A model with rotary positions (RoPE): each head's queries and keys rotated by position, nothing added.
 * @example
 * so.createModel({ vocab: 16, width: 32, heads: 2, classes: 2, positions: 'rotary', rotaryBase: 5e5, rotaryPairs: 4 });
 * @throws {RangeError} rotaryBase not a finite number > 1; rotaryPairs not an integer in 1 … width / heads / 2.
 */
export interface RotaryModelOptions<D extends FloatDType = 'float32'>
  extends ModelOptionsBase<D>, Omit<NoSchemeOptions, 'rotaryBase' | 'rotaryPairs'> {
  positions: 'rotary';
  /** The base of the frequencies, f_i = rotaryBase^(−2i/d) (a finite number > 1; default 10000). */
  rotaryBase?: number;
  /**
   * The pairs rotated in each head, the first (fastest-turning) ones; the others pass through, as GPT-J's rotary_dim
   * = 2 · rotaryPairs (an integer in 1 … width / heads / 2; default every pair).
   */
  rotaryPairs?: number;
}

/**
 * A model with T5's relative bias: a learned table 'relativeBias' (buckets, heads), shared by every layer, added to
 * the scores at the bucket of each key's distance from its query.
 * @example
 * so.createModel({ vocab: 16, width: 32, heads: 2, classes: 2, positions: 'relative', buckets: 16, maxDistance: 64 });
 * @throws {RangeError} buckets not an integer ≥ 2 (causal) or an even one ≥ 4 (bidirectional: half per direction);
 * maxDistance not an integer above the exact buckets of a direction.
 */
export interface RelativeModelOptions<D extends FloatDType = 'float32'>
  extends ModelOptionsBase<D>, Omit<NoSchemeOptions, 'buckets' | 'maxDistance'> {
  positions: 'relative';
  /** T5's buckets (default 32): without a causal mask half for keys before the query, half for keys after. */
  buckets?: number;
  /** The distance where a direction's last bucket begins (default 128); below it, buckets spaced by log distance. */
  maxDistance?: number;
}

/** A model whose positions take no options: none, the fixed sinusoids, or ALiBi. */
export interface FixedModelOptions<D extends FloatDType = 'float32'> extends ModelOptionsBase<D>, NoSchemeOptions {
  /**
   * 'none', 'sinusoidal' (default: the fixed table, added) or 'alibi' (ALiBi, Press et al. 2022: head h's scores get
   * −m_h · (i − j), or −m_h · |i − j| without a causal mask; no parameters).
   */
  positions?: 'none' | 'sinusoidal' | 'alibi';
}

/**
 * createModel's options: maxLength is required with positions 'learned' and absent otherwise, rotaryBase and
 * rotaryPairs go only with 'rotary', buckets and maxDistance only with 'relative', so the type catches an option
 * given to the wrong scheme.
 * @throws {TypeError} an option of the wrong kind; {RangeError} a value its rule refuses (the message names it).
 */
export type ModelOptions<D extends FloatDType = 'float32'> =
  LearnedModelOptions<D> | RotaryModelOptions<D> | RelativeModelOptions<D> | FixedModelOptions<D>;

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
  readonly embedScale: number | 'sqrtWidth';
}

/**
 * createModel's options with every default filled in: maxLength only with learned positions, rotaryBase and
 * rotaryPairs with rotary ones, buckets and maxDistance with relative ones (so a config can be given to createModel
 * again, or spread with changes: `createModel({ ...model.config, dtype: 'float64' })`).
 */
export type ModelConfig<D extends FloatDType = FloatDType> = ModelConfigBase<D> & (
  { readonly positions: 'learned'; readonly maxLength: number } & Readonly<Omit<NoSchemeOptions, 'maxLength'>> |
  { readonly positions: 'rotary'; readonly rotaryBase: number; readonly rotaryPairs: number } &
    Readonly<Omit<NoSchemeOptions, 'rotaryBase' | 'rotaryPairs'>> |
  { readonly positions: 'relative'; readonly buckets: number; readonly maxDistance: number } &
    Readonly<Omit<NoSchemeOptions, 'buckets' | 'maxDistance'>> |
  { readonly positions: 'none' | 'sinusoidal' | 'alibi' } & Readonly<NoSchemeOptions>);

/**
 * A model's parameters by name: 'embed' (vocab, width); 'positions' (maxLength, width), learned positions only;
 * 'relativeBias' (buckets, heads), relative positions only; per
 * layer i: 'layers.i.norm1.gain', 'layers.i.norm1.bias' (width), 'layers.i.attention.wq', '….wk', '….wv', '….wo'
 * (width, width), 'layers.i.norm2.gain', 'layers.i.norm2.bias' (width), 'layers.i.mlp.w1' (width, 4 width),
 * 'layers.i.mlp.b1' (4 width), 'layers.i.mlp.w2' (4 width, width), 'layers.i.mlp.b2' (width); then 'norm.gain',
 * 'norm.bias' (width), 'readout.weight' (width, classes), 'readout.bias' (classes). Weights map rows: x (.., D_in) W.
 */
export type Parameters<D extends FloatDType = FloatDType> = Record<string, Tensor<D>>;

/**
 * Options of the calls that run the model (forward, loss, gradients, step, train's batches, attentionWeights): the
 * positions each token is at (docs/model.md, "The positions of a sentence").
 */
export interface PositionOptions {
  /**
   * Each token's position: an int32 tensor of the shape of ids, each row strictly increasing, every value ≥ 0 (and
   * < maxLength for learned positions); default 0 … T − 1 in every row (and given so, the same bits). Refused by a model
   * with positions 'none'.
   */
  positionIds?: TensorInput<'int32'>;
}

/**
 * A stretch of rotary positions (docs/model.md, "Stretching rotary positions"): the frequencies of one call changed,
 * for a model with positions 'rotary'. 'linear': position interpolation (each frequency divided by factor); 'ntk': the
 * base times factor^(d/(d−2)); 'yarn': NTK-by-parts (α 1, β 32) with originalLength (the longest length trained on)
 * and the attention temperature (0.1 ln factor + 1)² on the scaled scores. factor: a finite number ≥ 1.
 */
export type RopeScaling =
  | { method: 'linear' | 'ntk'; factor: number; originalLength?: undefined }
  | { method: 'yarn'; factor: number; originalLength: number };

/** The stretch option of forward, loss, gradients, step, train (for every batch) and attentionWeights. */
export interface StretchOptions {
  /**
   * The rotary frequencies of this call stretched (none: the model's own, today's bits). Refused (a RangeError) by a
   * model whose positions are not rotary, with a factor not finite or below 1, 'ntk' with one rotated pair, 'yarn'
   * without originalLength (an integer ≥ 1) or another method with it; an unknown method is a RangeError, a member of
   * the wrong kind a TypeError.
   */
  ropeScaling?: RopeScaling;
}

/**
 * Randomized positions (docs/model.md, "Randomized positions"; Ruoss et al. 2023): the option of forward, loss,
 * gradients, step, train (for every batch) and attentionWeights.
 */
export interface RangeOptions {
  /**
   * L: each sentence (row) of length T gets T positions drawn without replacement from 0 … L − 1, sorted, from the
   * model's own seeded streams: step and train draw from its training stream (train batch after batch), forward, loss,
   * gradients and attentionWeights from its evaluation stream, so evaluating never changes how the model trains (both
   * streams are saved with the model). L = T gives the bits of the call without the option. Refused (a RangeError)
   * unless an integer from T (train: every batch's) to 2^31, and at most maxLength for learned positions; with
   * positionIds in the same call, or by a model with positions 'none'; not a number: a TypeError.
   */
  positionRange?: number;
}

/** Options of Model.step and Model.train (and the pool's). */
export interface StepOptions {
  /** Adam's learning rate (default 1e-3; a finite number ≥ 0). */
  lr?: number;
}

/** Options of Model.generate and PoolModel.generate. */
export interface GenerateOptions {
  /** How many ids to draw after the prefix (an integer ≥ 0; required). */
  steps: number;
  /** Divides the logits before the softmax (default 1; a finite number ≥ 0; 0: greedy, the largest logit, the lowest id on a tie). */
  temperature?: number;
  /** Draw only among the k largest logits (an integer 1 … classes; default: every id). */
  topK?: number;
  /** An integer in 0 … 2^53 (default 0): the draws' SplitMix64 stream, the same ids in every engine. */
  seed?: number;
}

/** One batch of training data for Model.train and PoolModel.train: what Model.step takes. */
export interface TrainingBatch extends PositionOptions {
  ids: TensorInput<'int32'>;
  targets: TensorInput<'int32'>;
}

/** A small transformer living in the module's heap: call dispose() when done with it. */
export interface Model<D extends FloatDType = FloatDType> {
  /** The resolved configuration (frozen): createModel(model.config) makes a model of the same architecture. */
  readonly config: ModelConfig<D>;
  /** Whether dispose() has been called. */
  readonly disposed: boolean;
  /**
   * A copy of every parameter, in the documented order (each tensor on its own ArrayBuffer: transferable).
   * @example
   * postMessage({ config: model.config, parameters: model.parameters() });
   * @throws {Error} when the model is disposed
   */
  parameters(): Parameters<D>;
  /**
   * Replaces any subset of the parameters; each name must exist, each tensor have its shape and the model's dtype,
   * every value be finite (else a RangeError, and nothing changes). Adam's moments are kept.
   * @example
   * copy.setParameters(model.parameters());   // the same predictions, bit for bit
   * @throws {TypeError} when a tensor is not a typed array of the model's dtype
   * @throws {RangeError} when a name does not exist, a shape differs or a value is not finite; the model is unchanged
   * @throws {Error} when the model is disposed
   */
  setParameters(parameters: Record<string, TensorInput<D>>): void;
  /**
   * ids int32 (B, T) → logits (B, classes) for readout 'mean', (B, T, classes) for 'each'.
   * @example
   * const logits = model.forward(so.orderTask({ count: 8, length: 12 }).ids);   // (8, 2)
   * const shifted = model.forward(ids, { positionIds });   // each token at the position given (see PositionOptions)
   * const longer = model.forward(ids, { ropeScaling: { method: 'yarn', factor: 4, originalLength: 16 } });
   * const drawn = model.forward(ids, { positionRange: 64 });   // each row at 12 sorted positions of 0 … 63
   * @throws {TypeError} when ids or positionIds is not an int32 tensor, or a member of ropeScaling has the wrong kind
   * @throws {RangeError} when ids is not (B, T), an id is outside 0 … vocab − 1, or T passes a learned table's rows;
   *         positionIds not of ids' shape, a row not strictly increasing, a value below 0 or past maxLength − 1
   *         (learned), or given to a model with positions 'none'; ropeScaling outside its rules (StretchOptions);
   *         positionRange outside its rules (RangeOptions)
   * @throws {Error} when the model is disposed
   */
  forward(ids: TensorInput<'int32'>, options?: PositionOptions & StretchOptions & RangeOptions): Tensor<D>;
  /**
   * The mean cross-entropy over the targets (int32 (B) for 'mean', (B, T) for 'each') that are not −1.
   * @example
   * const { ids, targets } = so.orderTask({ count: 32, length: 12 });
   * console.log(model.loss(ids, targets));
   * @throws {TypeError} when ids or targets is not an int32 tensor
   * @throws {RangeError} as forward, or when targets do not have the readout's shape or hold a class outside
   *         −1 … classes − 1
   * @throws {Error} when the model is disposed
   */
  loss(ids: TensorInput<'int32'>, targets: TensorInput<'int32'>, options?: PositionOptions & StretchOptions & RangeOptions): number;
  /**
   * The loss and its gradient with respect to every parameter (the names and shapes of parameters()).
   * @example
   * const { loss, grads } = model.gradients(ids, targets);
   * console.log(loss, grads['readout.bias'].data);
   * @throws {TypeError | RangeError} as loss
   * @throws {Error} when the model is disposed
   */
  gradients(ids: TensorInput<'int32'>, targets: TensorInput<'int32'>, options?: PositionOptions & StretchOptions & RangeOptions): { loss: number; grads: Parameters<D> };
  /**
   * One Adam step (β 0.9, 0.999, ε 1e-8); returns the loss before it. A step whose loss, or whose new parameters or
   * moments, would not be finite is refused with a RangeError, and the model is unchanged (as after any failed call).
   * @example
   * const { ids, targets } = so.orderTask({ count: 32, length: 12, seed: 1 });
   * const lossBefore = model.step(ids, targets, { lr: 1e-2 });
   * model.step(ids, targets, { lr: 1e-2, positionRange: 64 });   // randomized positions (RangeOptions)
   * @throws {TypeError} as loss, or when lr is not a number
   * @throws {RangeError} as loss, when lr is not a finite number ≥ 0, or when the step would not be finite
   * @throws {Error} when the model is disposed
   */
  step(ids: TensorInput<'int32'>, targets: TensorInput<'int32'>, options?: StepOptions & PositionOptions & StretchOptions & RangeOptions): number;
  /**
   * One Adam step on each batch, in order (step's, one after another); returns the losses before each step. All or
   * nothing: before the first step, the options, every batch's tensors (named `batches[i].ids`, `batches[i].targets`;
   * a hole in the array is refused), lr's value, every batch's values and shapes and the memory of the steps are
   * checked; a step refused after that (its loss not finite) or memory running out undoes the steps before it, so a
   * call that fails leaves the model exactly as it was.
   * @example
   * const batches = Array.from({ length: 40 }, (_, k) => so.orderTask({ count: 32, length: 12, seed: k }));
   * const losses = model.train(batches, { lr: 3e-3 });   // Float64Array(40)
   * model.train(batches, { lr: 3e-3, positionRange: 48 });   // each batch's rows drawn in turn
   * @throws {TypeError | RangeError} as step; an error of batch i has its message prefixed `batches[i]: ` (no step
   *         is kept)
   * @throws {Error} when the model is disposed
   */
  train(batches: readonly TrainingBatch[], options?: StepOptions & StretchOptions & RangeOptions): Float64Array;
  /**
   * ids (1, T) (or (T)) → every layer's attention weights, (layers, heads, T, T): rows sum to 1, masked keys exactly 0.
   * @example
   * const maps = model.attentionWeights({ data: Int32Array.from([0, 1, 2, 3]), shape: [1, 4] });   // (1, heads, 4, 4)
   * @throws {TypeError | RangeError} as forward, or when ids holds more than one sentence
   * @throws {Error} when the model is disposed
   */
  attentionWeights(ids: TensorInput<'int32'>, options?: PositionOptions & StretchOptions & RangeOptions): Tensor<D>;
  /**
   * A next-token model's text (causal: true, readout: 'each', classes = vocab): the prefix, then options.steps ids,
   * each drawn from the logits after the sequence so far (softmax of logits / temperature over the topK largest, one
   * uniform draw of the seeded stream per id; temperature 0: the largest logit). A key/value cache makes each new id
   * one row of work; its logits equal forward's on the whole sequence, bit for bit. Changes nothing in the model.
   * @example
   * const text = model.generate([3, 1, 4], { steps: 20, temperature: 0.8, topK: 5, seed: 1 });   // Int32Array(23)
   * const greedy = model.generate(Int32Array.of(3, 1, 4), { steps: 20, temperature: 0 });
   * @throws {TypeError} when prefix is not an Int32Array or an array of numbers, or an option has the wrong kind
   *         (steps is required)
   * @throws {RangeError} when the model is not a next-token model, prefix is empty or holds an id outside
   *         0 … vocab − 1, steps is not an integer ≥ 0, temperature not finite ≥ 0, topK not in 1 … classes, or the
   *         prefix and steps pass a learned table's maxLength
   * @throws {Error} when the model is disposed
   */
  generate(prefix: Int32Array | readonly number[], options: GenerateOptions): Int32Array;
  /**
   * The model as bytes (format version 2, docs/api.md): its configuration, its parameters, Adam's state (moments and
   * step count) and the position streams, which Seqorder.loadModel makes a model of again, one that trains on as this
   * one would.
   * @example
   * const bytes = model.save();                       // Uint8Array
   * const again = so.loadModel(bytes);                // the same parameters, bit for bit
   * @throws {Error} when the model is disposed
   */
  save(): Uint8Array;
  /**
   * Frees the model's memory in the module (the heap returns to where it was); any later call throws an Error.
   * Calling it again does nothing.
   * @example
   * model.dispose();
   * console.log(model.disposed);   // true
   * @throws never
   */
  dispose(): void;
}

/** Options of Seqorder.orderTask. */
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

/** The lesson's task: sentences and their targets. */
export interface OrderTask {
  /** (count, length): ids into taskWords; each sentence holds robot and person once. */
  ids: Tensor<'int32'>;
  /** (count): 1 when robot comes before person, else 0. */
  targets: Tensor<'int32'>;
}

/** Options of Seqorder.lookbackTask. */
export interface LookbackTaskOptions {
  /** How many sentences. */
  count: number;
  /** Words per sentence (more than back). */
  length: number;
  /** The answer at position t is the word at t − back (an integer ≥ 1, default 2). */
  back?: number;
  /** An integer in 0 … 2^53 (default 0): the same seed gives the same sentences everywhere. */
  seed?: number;
}

/** The second task: each position's answer is the word some places earlier. */
export interface LookbackTask {
  /** (count, length): ids into taskWords, each word drawn uniformly from all of them. */
  ids: Tensor<'int32'>;
  /** (count, length): the word back places earlier, ids[s, t − back]; −1 (ignored) for t < back. */
  targets: Tensor<'int32'>;
}

/** Options of Seqorder.inductionTask. */
export interface InductionTaskOptions {
  /** How many sentences. */
  count: number;
  /** Words per sentence (at least 2). */
  length: number;
  /** An integer in 0 … 2^53 (default 0): the same seed gives the same sentences everywhere. */
  seed?: number;
}

/** The induction task ("… A B … A → B"): each repeated word's answer is the word that followed it last time. */
export interface InductionTask {
  /** (count, length): ids into taskWords, each word drawn uniformly from all of them (as lookbackTask draws them). */
  ids: Tensor<'int32'>;
  /**
   * (count, length): the word that followed the last earlier occurrence of the word at t, ids[s, u + 1] for the
   * largest u < t with ids[s, u] = ids[s, t]; −1 (ignored) where the word has not occurred before.
   */
  targets: Tensor<'int32'>;
}

/** The API of one loaded instance of the module: what loadSeqorder resolves to. */
export interface Seqorder {
  /** The package's version. */
  readonly version: string;
  /** Which module runs: 'relaxed' (relaxed SIMD's multiply-add, opted into with `simd: 'relaxed'`) or 'simd128'. */
  readonly build: SimdBuild;
  /**
   * Sinusoidal positions → (length, width): column 2i = sin(t·f_i), 2i+1 = cos(t·f_i), f_i = base^(−2i/width), for
   * t = start … start + length − 1.
   * @example
   * const pe = so.positions(4, 8);                        // Tensor<'float64'>, shape [4, 8]
   * const f32 = so.positions(4, 8, { dtype: 'float32', start: 10 });
   * @throws {TypeError} when length, width or an option has the wrong kind, or out is not a typed array of dtype's class
   * @throws {RangeError} when width is not a positive even integer, length or start not an integer ≥ 0, base not a
   *         finite number > 0 (or too small for the width), or out not length × width long
   */
  positions<D extends FloatDType = 'float64'>(length: number, width: number, options?: PositionsOptions<D>): TensorOfEach<D>;
  /**
   * Token lookup: table (V, D), ids int32 (T) or (B, T) → (T, D) or (B, T, D), the table's dtype.
   * @example
   * const table = { data: new Float32Array(16 * 8), shape: [16, 8] };
   * const x = so.embed(table, { data: Int32Array.from([2, 0, 1]), shape: [3] });   // (3, 8) float32
   * @throws {TypeError} when table or ids is not a tensor (ids must be an Int32Array), or an option has the wrong kind
   * @throws {RangeError} when the table is not (V, D), ids not (T) or (B, T), an id outside 0 … V − 1, or out of the
   *         wrong length
   */
  embed<X extends FloatTensorInput>(table: X, ids: TensorInput<'int32'>, options?: EmbedOptions<DTypeOfInput<X>>): ResultOf<X>;
  /**
   * x (T, D), (B, T, D) or any leading axes (.., T, D) + positions start … start+T−1 (broadcast over the leading axes)
   * → same shape and dtype.
   * @example
   * const x = so.addPositions(so.embed(table, ids), { start: 3 });
   * @throws {TypeError} when x is not a float tensor, or an option has the wrong kind
   * @throws {RangeError} when x has fewer than two axes, D is odd, start or base is out of range, or out has the wrong
   *         length
   */
  addPositions<X extends FloatTensorInput>(x: X, options?: AddPositionsOptions<DTypeOfInput<X>>): ResultOf<X>;
  /**
   * Rows start … start+length−1 of a learned table (P, D) → (length, D), the table's dtype.
   * @example
   * const rows = so.learnedPositions({ data: new Float32Array(16 * 8), shape: [16, 8] }, 12);   // (12, 8)
   * @throws {TypeError} when table is not a float tensor, or length or an option has the wrong kind
   * @throws {RangeError} when start + length passes row P − 1 (the table has no rows there), or out has the wrong length
   */
  learnedPositions<X extends FloatTensorInput>(table: X, length: number, options?: LearnedPositionsOptions<DTypeOfInput<X>>): ResultOf<X>;
  /**
   * Rotary positions (RoPE): x (.., T, D) (any leading axes, e.g. (B, H, T, Dh)) → same shape; row t's pair (2i, 2i+1)
   * is rotated by (start + t)·base^(−2i/D). After rotating q and k, q_m·k_n depends on the positions only through m − n.
   * @example
   * const q = so.rope({ data: new Float64Array(2 * 6 * 4), shape: [2, 6, 4] }, { start: 5 });
   * @throws {TypeError} when x is not a float tensor, or an option has the wrong kind
   * @throws {RangeError} when x has fewer than two axes, D is odd, start or base is out of range, or out has the wrong
   *         length
   */
  rope<X extends FloatTensorInput>(x: X, options?: RopeOptions<DTypeOfInput<X>>): ResultOf<X>;
  /**
   * Scaled dot-product attention: q (.., Tq, D), k (.., Tk, D), v (.., Tk, Dv) → (.., Tq, Dv), over any leading batch
   * axes (the same for q, k and v), e.g. (B, H, T, D) for several heads. q, k and v share one dtype (q's). With
   * `steps: true`, every step: { scores, scaled, weights, output }.
   * @example
   * const y = so.attention(x, x, x, { causal: true });                 // (.., T, D)
   * const { weights } = so.attention(x, x, x, { steps: true });         // (.., T, T), rows sum to 1
   * @throws {TypeError} when q, k or v is not a float tensor, their dtypes differ, or an option has the wrong kind
   * @throws {RangeError} when the shapes disagree (leading axes, D, Tk), queryStart is outside 0 … Tk − Tq or given
   *         without causal, out has the wrong length, or the call needs more memory than the heap can hold
   */
  attention<X extends FloatTensorInput>(q: X, k: TensorInput<DTypeOfInput<X>>, v: TensorInput<DTypeOfInput<X>>,
    options?: AttentionOptions<DTypeOfInput<X>> & { steps?: false }): ResultOf<X>;
  /** With `steps: true`: every step, { scores, scaled, weights, output }. */
  attention<X extends FloatTensorInput>(q: X, k: TensorInput<DTypeOfInput<X>>, v: TensorInput<DTypeOfInput<X>>,
    options: AttentionOptions<DTypeOfInput<X>> & { steps: true }): StepsOf<X>;
  /** With `steps` known only at run time: the output or the four steps. */
  attention<X extends FloatTensorInput>(q: X, k: TensorInput<DTypeOfInput<X>>, v: TensorInput<DTypeOfInput<X>>,
    options?: AttentionOptions<DTypeOfInput<X>>): ResultOf<X> | StepsOf<X>;
  /**
   * Matrix products: a (.., M, K) · b (.., K, N) → (.., M, N). The leading axes broadcast as numpy's matmul broadcasts
   * them (aligned from the right, each pair equal or one of them 1, a missing axis counting as 1), so x (B, T, D) times
   * a weight (D, E) gives (B, T, E). Each entry is a sum from 0 in order of k (K = 0: zeros): the same bits in every
   * engine (the function the model's projections run). a and b share one dtype (a's).
   * @example
   * const x = { data: new Float32Array(2 * 5 * 8), shape: [2, 5, 8] };
   * const wq = { data: new Float32Array(8 * 8), shape: [8, 8] };
   * const q = so.matmul(x, wq);                                      // (2, 5, 8) float32
   * @throws {TypeError} when a or b is not a tensor, or an option has the wrong kind
   * @throws {RangeError} when a or b has fewer than two axes or is not float, their dtypes differ, a's last axis is not
   *         b's second-to-last, the leading axes do not broadcast, or out has the wrong length
   */
  matmul<X extends FloatTensorInput>(a: X, b: TensorInput<DTypeOfInput<X>>, options?: MatmulOptions<DTypeOfInput<X>>): ResultOf<X>;
  /**
   * Softmax over the last axis → x's shape: each row's maximum subtracted, e^(x − max) normalized to sum 1. With
   * `causal`, attention's mask on x (.., Tq, Tk): row i sees entries 0 … queryStart + i, the rest get weight exactly 0
   * (so `so.softmax(steps.scaled)` is attention's `steps.weights`, bit for bit). A row with nothing to attend to, its
   * visible entries all −∞, gets weights of exactly 0, never NaN; a NaN or +∞ among them gives a row of NaN.
   * @example
   * const { scaled, weights } = so.attention(q, k, v, { causal: true, steps: true });
   * const same = so.softmax(scaled, { causal: true });                  // weights' bits: later keys exactly 0
   * const next = so.softmax(model.forward(ids));                        // (B, T, vocab): each row sums to 1
   * @throws {TypeError} when x is not a tensor, or an option has the wrong kind
   * @throws {RangeError} when x is not float or has no axis (two with causal), Tk < Tq with causal, queryStart is
   *         outside 0 … Tk − Tq or given without causal, or out has the wrong length
   */
  softmax<X extends FloatTensorInput>(x: X, options?: SoftmaxOptions<DTypeOfInput<X>>): ResultOf<X>;
  /**
   * Attention heads: x (.., T, D) → (.., heads, T, D / heads), head h holding columns h·Dh … (h + 1)·Dh − 1 of every
   * row (Dh = D / heads), as the model splits its projections. A copy: mergeHeads gives x back, bit for bit.
   * @example
   * const q = so.splitHeads(so.matmul(x, wq), 2);                        // (2, 5, 8) → (2, 2, 5, 4)
   * @throws {TypeError} when x is not a tensor, heads not a number, or an option has the wrong kind
   * @throws {RangeError} when x is not float or has fewer than two axes, heads is not an integer ≥ 1 that divides D,
   *         or out has the wrong length
   */
  splitHeads<X extends FloatTensorInput>(x: X, heads: number, options?: SplitHeadsOptions<DTypeOfInput<X>>): ResultOf<X>;
  /**
   * splitHeads' inverse: x (.., H, T, Dh) → (.., T, H·Dh), head h's rows side by side in columns h·Dh … (h + 1)·Dh − 1.
   * @example
   * const y = so.mergeHeads(so.attention(q, k, v, { causal: true }));     // (2, 2, 5, 4) → (2, 5, 8)
   * @throws {TypeError} when x is not a tensor, or an option has the wrong kind
   * @throws {RangeError} when x is not float or has fewer than three axes, or out has the wrong length
   */
  mergeHeads<X extends FloatTensorInput>(x: X, options?: MergeHeadsOptions<DTypeOfInput<X>>): ResultOf<X>;
  /**
   * Heap diagnostics, for leak checks: allocatedBytes returns to where it was once results are copied out and models
   * disposed.
   * @example
   * const before = so.memoryStats().allocatedBytes;
   * so.attention(x, x, x);
   * console.log(so.memoryStats().allocatedBytes === before);   // true
   * @throws {Error} only if this instance trapped earlier (a bug), as every call then does
   */
  memoryStats(): MemoryStats;
  /**
   * A new trainable model (see Model) in this instance's model module, which the first model starts (synchronously:
   * the module is loaded by then, by loadSeqorder from 'seqorder/model' or by loadModelModule); its parameters are
   * drawn from options.seed, the same bits in every engine.
   * @example
   * import { loadSeqorder } from 'seqorder/model';                     // the main module and the model module
   * const so = await loadSeqorder();
   * const model = so.createModel({ vocab: so.taskWords.length, width: 32, heads: 2, classes: 2, seed: 3 });
   * const learned = so.createModel({ vocab: 16, width: 32, classes: 2, positions: 'learned', maxLength: 16 });
   * @throws {TypeError} when options is not a plain object, an option has the wrong kind, or a key is unknown
   * @throws {RangeError} when an option is out of its range (heads must divide width, width even with sinusoidal
   *         positions, 1 … 4 layers, maxLength only and always with positions 'learned', …)
   * @throws {Error} when this instance has not loaded the model module (loaded from 'seqorder' alone: the message says
   *         how to load it), or it could not be loaded (not served where it was looked for: the message names the URL,
   *         what came back and the modelWasmUrl option), before the options are read
   * @see https://github.com/seqorder/seqorder/blob/main/docs/api.md#the-model-module
   */
  createModel<D extends FloatDType = 'float32'>(options: ModelOptions<D>): Model<D>;
  /**
   * A model made again from Model.save()'s bytes: the same configuration, parameters, Adam state and position streams,
   * bit for bit, so that it trains on exactly as the saved model would have (bytes of format version 1, saved before
   * the streams: they start where a new model's do). In the model module, as createModel.
   * @example
   * const model = so.loadModel(bytes);
   * model.train(batches, { lr: 3e-3 });
   * @throws {TypeError} when bytes is not a Uint8Array
   * @throws {RangeError} when the bytes are not a saved model, of a later format version, cut short or damaged, or
   *         their configuration or values are refused (as createModel's; a value not finite); no model is kept
   * @throws {Error} as createModel when the model module is not loaded
   */
  loadModel<D extends FloatDType = FloatDType>(bytes: Uint8Array): Model<D>;
  /**
   * The lesson's task: does robot come before person? Seeded sentences over taskWords, the same everywhere.
   * @example
   * const { ids, targets } = so.orderTask({ count: 32, length: 12, seed: 1 });   // ids (32, 12), targets (32)
   * @throws {TypeError} when options is not a plain object or an option has the wrong kind
   * @throws {RangeError} when count or length is out of range (length at least 2; count even when mirrored)
   */
  orderTask(options: OrderTaskOptions): OrderTask;
  /**
   * The second task, where position itself is the answer: which word stands back places earlier? For a model with
   * readout 'each' and classes taskWords.length.
   * @example
   * const { ids, targets } = so.lookbackTask({ count: 32, length: 12, back: 2, seed: 1 });   // both (32, 12)
   * @throws {TypeError} when options is not a plain object or an option has the wrong kind
   * @throws {RangeError} when count, length or back is out of range (back at least 1, length more than back)
   */
  lookbackTask(options: LookbackTaskOptions): LookbackTask;
  /**
   * The induction task ("… A B … A → B", Olsson et al. 2022): at a word seen before, which word followed it last
   * time? Finding the earlier occurrence and reading its neighbour takes two steps of attention, so one layer cannot
   * do it and two can. For a model with readout 'each' and classes taskWords.length, usually causal.
   * @example
   * const { ids, targets } = so.inductionTask({ count: 32, length: 12, seed: 1 });   // both (32, 12)
   * const model = so.createModel({ layers: 2, positions: 'rotary', causal: true, readout: 'each', classes: so.taskWords.length });
   * model.step(ids, targets, { lr: 3e-3 });
   * @throws {TypeError} when options is not a plain object or an option has the wrong kind
   * @throws {RangeError} when count or length is out of range (count an integer ≥ 0, length an integer ≥ 2, seed an
   *         integer in 0 … 2^53, the ids within the tensor limit)
   */
  inductionTask(options: InductionTaskOptions): InductionTask;
  /** The task's vocabulary: a token's id is its index ('the', 'robot', 'follows', 'person', …). */
  readonly taskWords: readonly string[];
}

/**
 * Options of loadSeqorder (and loadSeqorderPool). The API runs on two modules: the main module (seqorder_core.wasm)
 * and the model module (seqorder_model.wasm, createModel's), which loadSeqorder from 'seqorder/model' loads alongside
 * the main module, and loadModelModule later (loadSeqorder from 'seqorder' loads the main module alone). Where the
 * model module cannot be had, loadSeqorder still resolves, and createModel throws why.
 * @see https://github.com/seqorder/seqorder/blob/main/docs/apps.md#where-the-wasm-files-are
 */
export interface LoadOptions {
  /**
   * Where the main module is, when it is not in the `seqorder/` folder beside the package's JS (the default, which
   * Vite and webpack follow by themselves): the URL of seqorder_core.wasm, or of a folder ending in '/' that holds it
   * (and seqorder_core_relaxed.wasm, for simd: 'relaxed'). The model module is then looked for in the same folder
   * (seqorder_model.wasm; seqorder_model_relaxed.wasm), unless modelWasmUrl or modelWasmBinary says where it is.
   * Relative URLs are resolved against the page's (or worker's) URL; under node a string may also be a file path,
   * relative to the working folder.
   */
  wasmUrl?: string | URL;
  /**
   * The main module's .wasm bytes, if the caller already has them (instead of a URL; not with wasmUrl). The model
   * module is then looked for in its default place, unless modelWasmUrl or modelWasmBinary says where it is.
   */
  wasmBinary?: ArrayBuffer | ArrayBufferView;
  /**
   * Where the model module is: the URL of seqorder_model.wasm, or of a folder ending in '/' that holds it (and
   * seqorder_model_relaxed.wasm, for simd: 'relaxed'); resolved as wasmUrl is.
   */
  modelWasmUrl?: string | URL;
  /** The model module's .wasm bytes (instead of a URL; not with modelWasmUrl), of the main module's build. */
  modelWasmBinary?: ArrayBuffer | ArrayBufferView;
  /**
   * 'simd128' (default): results bit-identical in every engine. 'relaxed': relaxed SIMD's multiply-add, used only where
   * the engine supports relaxed SIMD (else the default modules); results may differ between engines by float32
   * rounding. Cannot be combined with wasmBinary or modelWasmBinary; with wasmUrl or modelWasmUrl, that must be a
   * folder.
   */
  simd?: SimdBuild;
}

/** Which build of the module: 'simd128' (the default, bit-identical everywhere) or 'relaxed' (relaxed SIMD). */
export type SimdBuild = 'simd128' | 'relaxed';

/**
 * Loads the WebAssembly modules: a new, independent instance each call (of modules compiled once a page); the same
 * call works in browsers, workers and node ≥ 20. From 'seqorder', the main module alone (positions, attention, the
 * tasks: what a page that makes no model needs); from 'seqorder/model', the model module too, fetched and compiled
 * alongside, so that createModel runs.
 * @example
 * import { loadSeqorder } from 'seqorder';                           // or from 'seqorder/model', to make models
 * const so = await loadSeqorder();                                   // or { wasmUrl: '/static/seqorder/' }
 * console.log(so.positions(4, 8).shape);                             // [ 4, 8 ]
 * @throws {TypeError} (a rejection) when an option has the wrong kind or is unknown
 * @throws {Error} (a rejection) when the main module cannot be fetched or is not WebAssembly (the message names the URL
 *         it tried, what came back, and the wasmUrl option), or when the page's CSP forbids compiling WebAssembly (the
 *         message names the directive)
 */
export function loadSeqorder(options?: LoadOptions): Promise<Seqorder>;


/** The package's version (package.json's), e.g. '0.1.0'. */
export const version: string;

// loadSeqorderPool from 'seqorder', as from 'seqorder/pool' (its types are there). From 'seqorder' the pool finds its
// worker script and model module beside the package's files (node, a static folder, an import map); an app built by
// a bundler imports it from 'seqorder/pool', whose files the bundler emits (from 'seqorder' it rejects, saying so).
export { loadSeqorderPool } from './pool/index.js';
export type { PoolAttentionOptions, PoolModel, PoolOptions, SeqorderPool } from './pool/index.js';
