// Models in the pool's workers: pool.createModel(options) makes a model (so.createModel's, ../model.mjs) in one worker
// and returns a handle to it: the model's methods, each a promise of what it returns, plus train(batches), several Adam
// steps in one message. The model lives in that worker (state kept by the ops modelCreate, modelCall, modelTrain and
// modelDispose of seqorder/pool-worker.mjs) until dispose(); its calls are answered one at a time, in the order made.
//
// What is read here, on the calling thread: createModel's options (readModelOptions: the kinds, as so.createModel reads
// them), train's arguments (an array of { ids, targets }, options { lr }) and step's options. The rest
// travels to the worker by structured clone, where the model checks it as it does on one thread: the same TypeError
// or RangeError with the same message, as a rejected promise.
import { describe, optional, readNumber, readOptions } from '../arguments.mjs';
import { readModelOptions } from '../model.mjs';

/** The methods of a model a handle forwards to its worker, as they are (the results come back moved, not copied). */
const FORWARDED = ['parameters', 'setParameters', 'forward', 'loss', 'gradients', 'attentionWeights'];

const DISPOSED = 'seqorder: this model was disposed; create a new one with createModel()';

/**
 * createModel(options) over the worker set `workers` (protocol.mjs): each model goes to the worker that holds the
 * fewest (the first of them on a tie), so a pool of N workers gives N models one worker each.
 */
export function modelMaker(workers) {
  const held = new Array(workers.size).fill(0);
  let nextId = 1;

  return async function createModel(options) {
    const args = readModelOptions(options);
    if (workers.closed) throw new Error(workers.closed);
    const worker = held.indexOf(Math.min(...held));
    const id = nextId++;
    held[worker] += 1;
    let config;
    try {
      config = await workers.request(worker, 'modelCreate', { id, options: args });
    } catch (error) {
      held[worker] -= 1;
      throw error;
    }
    return handle(workers, worker, id, config, () => { held[worker] -= 1; });
  };
}

/** The handle of the model `id` in worker `worker`; release() tells the maker it is gone. */
function handle(workers, worker, id, config, release) {
  let disposed = false;
  const request = (op, args, transfer) => (disposed
    ? Promise.reject(new Error(DISPOSED))
    : workers.request(worker, op, { id, ...args }, transfer));
  const forwarded = Object.fromEntries(FORWARDED.map((method) => [method, (...args) => request('modelCall', { method, args })]));

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

    /** One Adam step, as model.step; resolves to the loss before it. */
    async step(ids, targets, options) {
      return request('modelCall', { method: 'step', args: [ids, targets, readOptions('options', options, ['lr'])] });
    },

    /**
     * One Adam step on each of `batches` ([{ ids, targets }]), in order, in one message; resolves to the losses before
     * each step (a Float64Array). A batch that fails rejects with its error, its message prefixed with `batches[i]: `;
     * the steps before it stay taken.
     */
    async train(batches, options) {
      if (!Array.isArray(batches)) throw new TypeError(`batches must be an array of { ids, targets }, got ${describe(batches)}`);
      const read = batches.map((batch, i) => readOptions(`batches[${i}]`, batch, ['ids', 'targets']));
      const { lr } = readOptions('options', options, ['lr']);
      return request('modelTrain', { batches: read, options: { lr: optional(readNumber)('lr', lr) } });
    },

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
