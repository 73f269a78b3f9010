// The lab's warm-up: before a run, each kind of model it will train takes one chunk of Adam steps in the lab's pool
// and answers a batch, one model at a time, and is freed, so that the engine has compiled the training's code in its
// optimizing tier by the time the run starts. Engines compile a module's hot functions again, optimized, once they
// have run a while; JavaScriptCore does it on one thread a process, which, with every worker of a run training at
// once on a few cores, got too little of them: the run's first seconds went in baseline code
// (docs/performance.md, "The lab in WebKit"). Nothing of it reaches a run: its models are its own and freed, and a
// model's steps depend only on its seed and batches. Pure: no DOM (node imports it too).
import { callOptions, modelOptions } from './config.mjs';
import { CHUNK } from './run.mjs';
import { trainingBatch } from './tasks.mjs';

/**
 * Warms `pool` up for runs of `config`: for each of its kinds in turn, a model of its first seed created, trained
 * CHUNK steps on that seed's first batches, asked for its answers to the first batch, and freed. `stop()` is asked
 * before each model (a run that has started stops the warm-up: the run's first messages wait behind one model's at
 * most). Resolves to { models (how many were warmed), ms } and never rejects: a failure (settings the API refuses, a
 * pool closed) ends it, and the run that meets the same failure reports it.
 */
export async function warmUp(pool, so, config, { stop = () => false } = {}) {
  const started = performance.now();
  let models = 0;
  try {
    const seed = config.seeds[0];
    const batches = Array.from({ length: CHUNK }, (_, k) => trainingBatch(so, config, seed, k));
    for (const key of config.kinds) {
      if (stop()) break;
      const model = await pool.createModel(modelOptions(config, key, seed, so.taskWords.length));
      try {
        const calls = callOptions(config, key);
        await model.train(batches, { lr: config.lr, ...calls });
        await model.forward(batches[0].ids, calls);
        models += 1;
      } finally {
        await model.dispose();
      }
    }
  } catch {
    // ends the warm-up (see above)
  }
  return { models, ms: performance.now() - started };
}
