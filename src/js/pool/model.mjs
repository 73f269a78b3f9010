// Models in the pool's workers: pool.createModel(options) makes a model (so.createModel's, ../model.mjs) in one worker
// and returns a handle to it: the model's methods, each a promise of what it returns (train(batches): several Adam
// steps in one message). The model lives in that worker (state kept by the ops modelCreate, modelCall and
// modelDispose of worker.mjs) until dispose(); its calls are answered one at a time, in the order made.
//
// Every argument is read here, on the calling thread, when the call is made, exactly as the model on one thread reads
// it (readModelOptions, and each method's read in MODEL_METHODS: the same TypeErrors, in the same order, the disposed
// model's Error first); what goes to the worker is a copy of what was read: plain tensors of exactly the elements read,
// moved, never the caller's objects. The worker's model checks the values as it does on one thread: the same
// RangeError with the same message, as a rejected promise. A handle has the methods of MODEL_METHODS (the results
// come back moved, not copied), and dispose.
import { DTYPES, eachTensor } from '../arguments.mjs';
import { checkTensor } from '../heap.mjs';
import { MODEL_METHODS, readModelOptions, readSavedModel } from '../model.mjs';

const DISPOSED = 'seqorder: this model was disposed; create a new one with createModel()';

/**
 * A tensor read by readTensor, as it goes to the worker: checked as one thread checks it before copying it into the
 * heap (its size, its buffer still holding what was read), then copied: { name, data, shape, dtype }, data on its own
 * buffer (listed in `moved`).
 */
function sent(record, maxTensorBytes, moved) {
  checkTensor(record, maxTensorBytes);
  const { buffer, byteOffset, length, dtype } = record.data;
  const Class = DTYPES[dtype];
  const data = new Class(new Class(buffer, byteOffset, length));
  moved.push(data.buffer);
  return { name: record.name, data, shape: record.shape, dtype: record.dtype };
}

/**
 * { createModel(options), loadModel(bytes) } over the worker set `workers` (protocol.mjs), for a module whose tensors may hold at most
 * maxTensorBytes: each model goes to the worker that holds the fewest (the first of them on a tie), so a pool of N
 * workers gives N models one worker each. A model lost with a worker that stopped is no longer counted.
 * compiledModel() → a promise of the compiled model module, { compiled, url }, which goes to the worker with the model.
 */
export function modelMaker(workers, maxTensorBytes, compiledModel) {
  const live = new Map();  // model id → { worker, generation }: the live models, and which start of the worker holds each
  let nextId = 1;

  /** How many live models each worker holds now (not those of a worker that has since been replaced). */
  function held() {
    const counts = new Array(workers.size).fill(0);
    for (const { worker, generation } of live.values()) if (workers.generation(worker) === generation) counts[worker] += 1;
    return counts;
  }

  /** A model made in a worker: createModel's options read (args), or the bytes of a saved model (saved). */
  async function make(args, saved) {
    if (workers.closed) throw new Error(workers.closed);
    const { compiled, url } = await compiledModel();
    if (workers.closed) throw new Error(workers.closed);
    const counts = held();
    const worker = counts.indexOf(Math.min(...counts));
    const id = nextId++;
    live.set(id, { worker, generation: workers.generation(worker) });
    let config;
    try {
      const model = { module: compiled, url: url?.href };
      config = await workers.request(worker, 'modelCreate', { id, options: args, saved, model }, saved ? [saved.buffer] : []);
    } catch (error) {
      live.delete(id);
      throw error;
    }
    return handle(workers, worker, id, config, maxTensorBytes, () => live.delete(id));
  }

  return {
    createModel: async (options) => make(readModelOptions(options)),
    /** so.loadModel's: the bytes read here as one thread reads them, then a copy of them moved to the worker. */
    loadModel: async (bytes) => {
      readSavedModel(bytes);
      return make(undefined, bytes.slice());
    },
  };
}

/** The handle of the model `id` in worker `worker`; release() tells the maker it is gone. */
function handle(workers, worker, id, config, maxTensorBytes, release) {
  let disposed = false;
  const stillLive = () => {
    if (disposed) throw new Error(DISPOSED);
  };

  /** model[method](...given) in the worker, its arguments read now, as one thread reads them. */
  function call(method, ...given) {
    stillLive();
    const read = MODEL_METHODS[method].read(...given);
    stillLive();  // (a getter among the arguments may have disposed it)
    const moved = [];
    const args = eachTensor(read, (record) => sent(record, maxTensorBytes, moved));
    return workers.request(worker, 'modelCall', { id, method, args }, moved);
  }

  const forwarded = Object.fromEntries(Object.keys(MODEL_METHODS).map((method) => [method, async (...args) => call(method, ...args)]));

  return Object.freeze({
    /** The resolved configuration (frozen), as the model in the worker has it. */
    config: Object.freeze(config),
    /** The index of the worker that holds the model. */
    worker,
    /** Whether dispose() has been called. */
    get disposed() {
      return disposed;
    },
    ...forwarded,

    /** Frees the model in its worker; later calls reject. Calling it again does nothing. Resolves once it is freed. */
    async dispose() {
      if (disposed) return;
      disposed = true;
      release();
      // a worker that stopped took the model with it: nothing is left to free then
      await workers.request(worker, 'modelDispose', { id }).catch(() => {});
    },
  });
}
