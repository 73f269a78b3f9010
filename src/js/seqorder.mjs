// seqorder's public JS API, the package's entry point: loadSeqorder() gives the functions of the lesson on plain
// { data, shape, dtype } tensors, and loadSeqorderPool() a pool of workers that run them. The rest is in entry points
// of their own, so that an app that does not import them ships none of their files: seqorder/pool (loadSeqorderPool
// with its worker script named for bundlers, pool/index.mjs), seqorder/relaxed (the relaxed-SIMD
// build's modules, relaxed.mjs), seqorder/plot and seqorder/checks (the figures).
export { loadSeqorder } from './load.mjs';
export { version } from './api.mjs';

/**
 * The pool, imported when first loaded (an app that never loads one fetches none of its modules), finding its worker
 * script and model module beside its own files: see index.d.ts of seqorder/pool, whose loadSeqorderPool bundlers
 * build with those files.
 */
export const loadSeqorderPool = (options) => import('./pool/pool.mjs').then((pool) => pool.loadSeqorderPool(options));
