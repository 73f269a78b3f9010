// seqorder's public JS API, the package's entry point: loadSeqorder() gives the functions of the lesson on plain
// { data, shape, dtype } tensors; loadSeqorderPool() runs attention on several workers.
export { loadSeqorder } from './load.mjs';
export { loadSeqorderPool } from './pool/index.mjs';
export { version } from './api.mjs';
