// seqorder/pool, loadSeqorderPool(): the pool (pool.mjs) with its files named for bundlers. Vite and webpack emit what
// an app's code names as literal URL expressions relative to import.meta.url: here the worker script (built into a
// worker of the app's bundle) and, in model-file.mjs, the model module of its models (fetched by the first
// pool.createModel). Only this entry point names the worker script, so an app that imports seqorder alone ships none
// of the pool's files; the pool reached through seqorder looks for them beside its own files (node, static folders,
// import maps).
import { packagedModelUrl } from '../model-file.mjs';
import { loadSeqorderPool as loadPool } from './pool.mjs';

export { workersOf } from './pool.mjs';

/**
 * The packaged files: the model module's URL, and a Web Worker of the packaged script, its path
 * 'seqorder/pool-worker.mjs' found as the .wasm files' are (see packagedUrl in ../load.mjs): the folder seqorder/
 * beside this file, and also the package's name with the file among its exports, which Vite's dev server resolves
 * from its pre-bundled copy of this file. That file, which scripts/build.sh writes, starts the worker, ./worker.mjs.
 * start.mjs decides on the same path, computed, whether it is on another
 * origin (then a Blob starts it instead) and uses it in node.
 */
const PACKAGED = {
  modelUrl: packagedModelUrl,
  startWorker: () => new Worker(new URL('seqorder/pool-worker.mjs', import.meta.url), { type: 'module' }),
};

/** Loads a pool of workers that run attention and models: see index.d.ts. */
export function loadSeqorderPool(options) {
  return loadPool(options, PACKAGED);
}
