// Runs an experiment function fn(so, ...args) in the page's shared module Worker (worker.mjs, over the package's
// worker protocol) and resolves to its result. Where module Workers are unavailable, or the worker stops, it runs on
// the main thread with the page's own `so` instead, so the page still works, only less smoothly.
//   const result = await inWorker(so, './experiments/norm.mjs', 'normProperty', options);
// `module` is relative to web/js/ (where worker.mjs lives); functions and their results must be structured-cloneable.
import { startWorkers, workerFailed } from '../lib/pool/protocol.mjs';

let worker = null;  // a promise of the worker (a set of one), or of null once it could not start or stopped

function getWorker() {
  worker ??= startWorkers({
    count: 1,
    start: () => new Worker(new URL('./worker.mjs', import.meta.url), { type: 'module' }),
    first: { op: 'load' },
  }).catch(() => null);
  return worker;
}

export async function inWorker(so, module, name, ...args) {
  const onMainThread = async () => (await import(module))[name](so, ...args);
  const set = await getWorker();
  if (!set) return onMainThread();
  try {
    return await set.request(0, 'run', { module, name, args });
  } catch (error) {
    if (!workerFailed(error)) throw new Error(`in the worker: ${error.message}`);
    // the worker stopped: this job and every later one run here
    worker = Promise.resolve(null);
    set.close();
    return onMainThread();
  }
}
