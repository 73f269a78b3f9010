// Runs an experiment function fn(so, ...args) in the page's shared module Worker (worker.mjs) and resolves to its
// result. Where module Workers are unavailable it runs on the main thread with the page's own `so` instead, so the
// page still works, only less smoothly.
//   const result = await inWorker(so, './experiments/positions.mjs', 'normProperty', options);
// `module` is relative to web/js/ (where worker.mjs lives); functions and their results must be structured-cloneable.

let worker = null;
let nextId = 1;
const pending = new Map();

function getWorker() {
  if (worker === null) {
    try {
      worker = new Worker(new URL('./worker.mjs', import.meta.url), { type: 'module' });
      worker.addEventListener('message', ({ data: { id, result, error } }) => {
        const job = pending.get(id);
        if (!job) return;
        pending.delete(id);
        if (error !== undefined) job.reject(new Error(`in the worker: ${error}`));
        else job.resolve(result);
      });
      worker.addEventListener('error', (event) => {
        // A worker that failed to start: run everything pending (and later) on the main thread.
        event.preventDefault?.();
        worker.terminate();
        worker = false;
        for (const job of pending.values()) job.fallback();
        pending.clear();
      });
    } catch {
      worker = false;
    }
  }
  return worker;
}

export async function inWorker(so, module, name, ...args) {
  const onMainThread = async () => (await import(module))[name](so, ...args);
  const w = getWorker();
  if (!w) return onMainThread();
  return new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { resolve, reject, fallback: () => onMainThread().then(resolve, reject) });
    w.postMessage({ id, module, name, args });
  });
}
