// seqorder's public JS API, the package's entry point: loadSeqorder() gives the functions of the lesson on plain
// { data, shape, dtype } tensors. The rest is in entry points of its own, so that an app that does not import them
// ships none of their files: seqorder/pool (loadSeqorderPool: attention and models on several workers, pool/index.mjs),
// seqorder/relaxed (the relaxed-SIMD build's modules, relaxed.mjs), seqorder/plot and seqorder/checks (the figures).
export { loadSeqorder } from './load.mjs';
export { version } from './api.mjs';
