/**
 * seqorder/relaxed: imported for its effect, once, by an app that loads seqorder with `simd: 'relaxed'`, so that
 * bundlers emit the relaxed-SIMD build's modules (an app without it ships only the default build).
 * @example
 * import 'seqorder/relaxed';
 * import { loadSeqorder } from 'seqorder';
 * const so = await loadSeqorder({ simd: 'relaxed' });
 * console.log(so.build);   // 'relaxed' where the engine runs relaxed SIMD, else 'simd128'
 * @module seqorder/relaxed
 */
export {};
