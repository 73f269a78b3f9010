// Types for seqorder's JS API (written by hand: Emscripten 3.1.6 has no --emit-tsd).

/** Element types a tensor can hold. */
export type DType = 'float64' | 'float32' | 'int32';
export type FloatDType = 'float64' | 'float32';

export interface ArrayOf {
  float64: Float64Array;
  float32: Float32Array;
  int32: Int32Array;
}

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

export interface RopeOptions<D extends FloatDType = FloatDType> {
  /** Position of x's first row (default 0): row r is rotated as position start + r. */
  start?: number;
  /** Frequency base (default 10000): pair i turns by base^(−2i/D) per position. */
  base?: number;
  /** Write the result into this array (as many elements as x, of x's dtype) instead of allocating one. */
  out?: ArrayOf[D];
}

export interface AttentionOptions {
  /** Hide later keys: query i sees keys 0 … queryStart + i. Default false. */
  causal?: boolean;
  /** Position of the first query among the keys, 0 … Tk − Tq; default Tk − Tq (queries are the last positions). Only with causal: true. */
  queryStart?: number;
  /** Return every step { scores, scaled, weights, output } instead of the output alone. Default false. */
  steps?: boolean;
  /** Write the output into this array instead of allocating one. */
  out?: Float64Array | Float32Array;
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

export interface Seqorder {
  readonly version: string;
  /** Which module runs: 'relaxed' (relaxed SIMD's multiply-add, opted into with `simd: 'relaxed'`) or 'simd128'. */
  readonly build: SimdBuild;
  /** Sinusoidal positions → (length, width). Throws TypeError/RangeError naming the bad argument. */
  positions<D extends FloatDType = 'float64'>(length: number, width: number, options?: PositionsOptions<D>): Tensor<D>;
  /** Token lookup: table (V, D), ids int32 (T) or (B, T) → (T, D) or (B, T, D). */
  embed<D extends FloatDType>(table: TensorInput<D>, ids: TensorInput<'int32'>, options?: { out?: ArrayOf[D] }): Tensor<D>;
  /** x (T, D) or (B, T, D) + positions start … start+T−1 → same shape. */
  addPositions<D extends FloatDType>(x: TensorInput<D>, options?: { start?: number; base?: number; out?: ArrayOf[D] }): Tensor<D>;
  /** Rows start … start+length−1 of a learned table (P, D) → (length, D); past row P−1 is a RangeError. */
  learnedPositions<D extends FloatDType>(table: TensorInput<D>, length: number, options?: { start?: number; out?: ArrayOf[D] }): Tensor<D>;
  /**
   * Rotary positions (RoPE): x (T, D) or (B, T, D) → same shape; row t's pair (2i, 2i+1) is rotated by
   * (start + t)·base^(−2i/D). After rotating q and k, q_m·k_n depends on the positions only through m − n.
   */
  rope<D extends FloatDType>(x: TensorInput<D>, options?: RopeOptions<D>): Tensor<D>;
  /** Scaled dot-product attention: q (.., Tq, D), k (.., Tk, D), v (.., Tk, Dv) → (.., Tq, Dv). */
  attention<D extends FloatDType>(q: TensorInput<D>, k: TensorInput<D>, v: TensorInput<D>, options?: AttentionOptions & { steps?: false }): Tensor<D>;
  attention<D extends FloatDType>(q: TensorInput<D>, k: TensorInput<D>, v: TensorInput<D>, options: AttentionOptions & { steps: true }): AttentionSteps<D>;
  /** Heap diagnostics, for leak checks. */
  memoryStats(): MemoryStats;
}

export interface LoadOptions {
  /** The module's .wasm bytes, if the caller already has them (otherwise they are located next to this file). */
  wasmBinary?: ArrayBuffer | Uint8Array;
  /**
   * 'simd128' (default): results bit-identical in every engine. 'relaxed': relaxed SIMD's multiply-add, used only where
   * the engine supports relaxed SIMD (else the default module); results may differ between engines by float32
   * rounding. Cannot be combined with wasmBinary.
   */
  simd?: SimdBuild;
}

export type SimdBuild = 'simd128' | 'relaxed';

/** Loads the WebAssembly module; the same call works in browsers, workers and node ≥ 20. */
export function loadSeqorder(options?: LoadOptions): Promise<Seqorder>;

export const version: string;
