// seqorder's public JS API, the package's entry point: loadSeqorder() gives the functions of the lesson on plain
// { data, shape, dtype } tensors.
export { loadSeqorder } from './load.mjs';
export { version } from './api.mjs';
