// The targets a hostile suite runs its cases against, each behind one interface of promises: one thread (so's
// functions and models, called at once, their results or errors as settled promises) and the pool (its attention and
// its models in workers). A case is a function of a target; the suite runs it on each
// and compares what they give (outcome()): the same result, bit for bit, or the same error class and message.
import { loadSeqorder, loadSeqorderPool } from './load.mjs';

/** What a call gave, comparable across targets: { value } or { error: 'Class: message' }. */
export async function outcome(run) {
  try {
    return { value: await run() };
  } catch (error) {
    return { error: `${error?.constructor?.name ?? typeof error}: ${error?.message ?? String(error)}` };
  }
}

/** A model of one thread behind the pool model's interface: each method a promise, config and disposed as they are. */
function asPromises(model) {
  const methods = ['parameters', 'setParameters', 'forward', 'loss', 'gradients', 'step', 'train', 'attentionWeights', 'dispose'];
  const wrapped = Object.fromEntries(methods.map((method) => [method, async (...args) => model[method](...args)]));
  return Object.freeze({
    config: model.config,
    get disposed() {
      return model.disposed;
    },
    ...wrapped,
  });
}

/** Loads the targets: { so, oneThread, pool: { name, attention, createModel, pool }, close }, with `workers` workers in the pool. */
export async function loadTargets({ workers = 2 } = {}) {
  const so = await loadSeqorder();
  const pool = await loadSeqorderPool({ workers });
  return {
    so,
    oneThread: {
      name: 'one thread',
      attention: async (...args) => so.attention(...args),
      createModel: async (options) => asPromises(so.createModel(options)),
    },
    pool: { name: 'the pool', attention: pool.attention, createModel: pool.createModel, pool },
    close: () => pool.close(),
  };
}
