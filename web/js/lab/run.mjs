// A lab run: one model per (kind, seed) of a configuration (config.mjs), trained side by side in the workers of a
// seqorder pool, paused, resumed and stepped with the same bits as a run never paused, then measured at the lengths
// it trained on and beyond (tasks.mjs has the sentences). Pure: no DOM; node and the page import it (`so`: the API;
// `pool`: loadSeqorderPool's).
import { callOptions, modelOptions } from './config.mjs';
import { TASKS, measuredLengths, measuredSet, trainingBatch, validationSet } from './tasks.mjs';
import { nextTask } from '../next-frame.mjs';

/** Steps per message to a worker: the curves grow by one point every CHUNK steps; Step trains CHUNK steps. */
export const CHUNK = 20;

/** Messages of batches a model may have in flight: its worker never waits for the page between two. */
const IN_FLIGHT = 2;

/** The most workers the lab's pool starts. */
export const MAX_WORKERS = 8;

/**
 * How many workers the lab's pool starts on a device of `cores` (navigator.hardwareConcurrency; 2 when unknown): one
 * more than the cores, at most MAX_WORKERS. The operating system shares the cores among the workers, so no core idles
 * while a worker waits for the page; more workers than that would only take turns on the same cores.
 */
export function poolSize(cores) {
  const known = Number.isInteger(cores) && cores > 0 ? cores : 2;
  return Math.min(MAX_WORKERS, known + 1);
}

/**
 * The most bytes of activations one measuring call may need: a set is measured in slices of sentences under it. Small
 * enough that a worker's heap does not grow for the lesson's run (the model module starts with 16 MiB): a heap grown to
 * ~90 MiB for the longest sets was 5 workers × 90 MiB of memory, and where the engine gives a memory no reserved
 * address space (JavaScriptCore, past its first 8 memories a process), each growth copies the whole heap.
 */
const MEASURE_BYTES = 4 * 2 ** 20;

/** How many sentences of length T one measuring call takes: its activations (about, float32) under MEASURE_BYTES. */
export function measureSlice(config, T) {
  const perSentence = 4 * T * config.layers * (16 * config.width + 2 * config.heads * T);
  return Math.max(2, 2 * Math.floor(MEASURE_BYTES / perSentence / 2));
}

/**
 * A run: one model per (kind, seed) of `config`, created in `pool` (each goes to the worker holding the fewest).
 * Nothing trains until play() or advance(). A model of seed s takes Adam step k on trainingBatch(s, k), CHUNK steps a
 * message (IN_FLIGHT of them on their way at once), then answers its seed's held-out sentences: onChunk(i, { step,
 * losses, accuracy }) gets model i's progress. No model is sent a step more than CHUNK past the least sent: so a pause
 * (which cannot recall what was sent) stops every model at the first common step at or after it, at most one chunk
 * past the slowest. Resuming continues where each stopped, with the same bits as a run never paused (the steps a model
 * takes do not depend on when they are sent). A model that has taken all its steps is measured at once. Resolves to
 * the run's handle; dispose() frees its models (the run is then over, whatever its models' workers do).
 */
export async function createRun(pool, so, config, { onChunk = () => {} } = {}) {
  const vocab = so.taskWords.length;
  const entries = config.kinds.flatMap((key) => config.seeds.map((seed) => ({ key, seed })));
  const created = await Promise.allSettled(entries.map(({ key, seed }) => pool.createModel(modelOptions(config, key, seed, vocab))));
  const failed = created.find((c) => c.status === 'rejected');
  if (failed) {
    created.filter((c) => c.status === 'fulfilled').forEach((c) => c.value.dispose().catch(() => {}));
    throw failed.reason;
  }
  const models = entries.map((entry, i) => ({ ...entry, handle: created[i].value }));
  const heldOut = new Map(config.seeds.map((seed) => [seed, validationSet(so, config, seed)]));
  const taken = models.map(() => 0);
  const ending = models.map(() => 0);  // where each model's last message sent ends
  const drivers = models.map(() => null);
  const measuring = models.map(() => null);  // each model's measurements, asked for as soon as it has finished
  const measuredSets = new Map();  // seed → a promise of Map T → sentences
  const setsOf = (seed) => {
    if (!measuredSets.has(seed)) {
      measuredSets.set(seed, (async () => {
        const sets = new Map();
        for (const T of measuredLengths(config)) {
          // each length's sentences drawn in a task of their own, so that the page's thread answers input between two
          if (sets.size) await nextTask();
          sets.set(T, measuredSet(so, config, seed, T));
        }
        return sets;
      })());
    }
    return measuredSets.get(seed);
  };
  let target = 0;
  let error = null;
  let closed = false;
  const chunks = new Map();  // `${seed} ${first}` → { batches, uses }: drawn once for a seed's models, dropped once all had them
  let moved = null;  // resolves when a model is sent further (a model held back by the others waits for it)
  const sentFurther = () => (moved ??= deferred()).promise;
  const announce = () => {
    moved?.resolve();
    moved = null;
  };

  const batchesFrom = (seed, first, n) => {
    const id = `${seed} ${first}`;
    let chunk = chunks.get(id);
    if (!chunk || chunk.batches.length !== n) {
      chunk = { batches: Array.from({ length: n }, (_, j) => trainingBatch(so, config, seed, first + j)), uses: 0 };
      chunks.set(id, chunk);
    }
    chunk.uses += 1;
    if (chunk.uses === config.kinds.length) chunks.delete(id);
    return chunk.batches;
  };

  function drive(i) {
    drivers[i] ??= (async () => {
      const { handle, seed, key } = models[i];
      const calls = callOptions(config, key);
      const inFlight = [];  // each message's answer, in the order sent: the worker answers them in that order
      try {
        let yielded = false;
        while (!closed && !error && (ending[i] < target || inFlight.length)) {
          const first = ending[i];
          const n = Math.min(CHUNK - (first % CHUNK), target - first);
          const allowed = first + n <= Math.min(...ending) + CHUNK;
          if (first < target && inFlight.length < IN_FLIGHT && allowed) {
            if (!chunks.has(`${seed} ${first}`) && !yielded) {
              // a chunk's batches not drawn yet: drawn in a task of their own, so that the page's thread answers input
              // between two (drawing them takes a few milliseconds; at the start every seed wants two)
              yielded = true;
              await nextTask();
              continue;
            }
            yielded = false;
            ending[i] = first + n;
            announce();
            // the batches, then the held-out sentences: two messages at once, answered in order
            const set = heldOut.get(seed);
            const trained = handle.train(batchesFrom(seed, first, n), { lr: config.lr, ...calls });
            const answered = handle.forward(set.ids, calls);
            const chunk = Promise.all([trained, answered]).then(([losses, logits]) => ({ step: first + n, losses, logits, set }));
            chunk.catch(() => {});  // (awaited in its turn below, maybe after it has failed or the run was disposed)
            inFlight.push(chunk);
            continue;
          }
          if (!inFlight.length) {
            await sentFurther();  // held back by a slower model: waits until one is sent further
            continue;
          }
          const { step, losses, logits, set } = await inFlight.shift();
          if (closed) break;
          taken[i] = step;
          onChunk(i, { step, losses, accuracy: TASKS[config.task].score(logits, set).accuracy });
          if (taken[i] === config.steps && !measuring[i]) {
            measuring[i] = setsOf(seed).then((sets) => measureModel(config, handle, sets, calls));
            measuring[i].catch(() => {});  // measure() reports it
          }
        }
      } catch (e) {
        if (!closed) {
          error ??= e;
          target = Math.max(...taken);
          announce();
        }
      } finally {
        drivers[i] = null;
      }
    })();
    return drivers[i];
  }
  const settled = () => Promise.all(drivers.map((d) => d ?? Promise.resolve()));
  const goTo = (step) => {
    if (closed || error) return settled();
    target = Math.min(config.steps, Math.max(step, ...ending));
    announce();
    models.forEach((_, i) => drive(i));
    return settled();
  };

  return {
    config,
    /** [{ key, seed, handle }]: the pool's handles (dispose() frees them). */
    models,
    /** Each model's steps taken. */
    get taken() {
      return [...taken];
    },
    /** The step every model stands at (or the least, while they run). */
    get step() {
      return Math.min(...taken);
    },
    /** The step the run is heading for. */
    get target() {
      return target;
    },
    /** 'running' while a model trains; else 'done' (every model at config.steps), 'paused', 'error' or 'disposed'. */
    get state() {
      if (closed) return 'disposed';
      if (error) return 'error';
      if (drivers.some(Boolean)) return 'running';
      return Math.min(...taken) >= config.steps ? 'done' : 'paused';
    },
    /** The error that stopped the run, or null. */
    get error() {
      return error;
    },
    /** Trains every model to config.steps; resolves when they stop (done, paused, or an error). */
    play: () => goTo(config.steps),
    /** Trains every model to `steps` more than the step they stand at (default CHUNK). */
    advance: (steps = CHUNK) => goTo(Math.min(...taken) + steps),
    /**
     * Stops every model at the first step they can all stand at: the furthest any has been sent to (at most CHUNK past
     * the least). Returns that step; settled() resolves once they all stand there.
     */
    pause() {
      target = Math.max(...ending);
      announce();
      return target;
    },
    /** Each model's measurements at every measuredLengths(config) (measureModel's), at the step it stands at. */
    measure() {
      return Promise.all(models.map((m, i) => (taken[i] === config.steps && measuring[i])
        || setsOf(m.seed).then((sets) => measureModel(config, m.handle, sets, callOptions(config, m.key)))));
    },
    /** Resolves when no model is training. */
    settled,
    /** Frees every model; the run is over (its handles reject). Resolves when the pool has freed them. */
    dispose() {
      closed = true;
      target = 0;
      announce();
      return Promise.allSettled(models.map((m) => m.handle.dispose())).then(() => {});
    },
  };
}

/** A promise with its resolve at hand. */
function deferred() {
  let resolve;
  const promise = new Promise((r) => { resolve = r; });
  return { promise, resolve };
}

/**
 * One model measured at every length of `sets` (Map T → the task's sentences): { [T]: the task's score, or { error: {
 * name, message } } where the model refuses T (a RangeError; any other error fails) }. Each length goes in slices of
 * measureSlice sentences (a sentence's logits do not depend on the others in its call), every message at once: the
 * worker answers them in order. `options`: forward's (the run's callOptions, and a stretch's ropeScaling), or none.
 */
export async function measureModel(config, handle, sets, options) {
  const task = TASKS[config.task];
  const lengths = [...sets.keys()];
  const answers = await Promise.all(lengths.map(async (T) => {
    const { ids } = sets.get(T);
    const count = ids.shape[0];
    const slice = measureSlice(config, T);
    const calls = [];
    for (let from = 0; from < count; from += slice) {
      const n = Math.min(slice, count - from);
      const part = { data: ids.data.slice(from * T, (from + n) * T), shape: [n, T] };
      calls.push(handle.forward(part, options));
    }
    try {
      const parts = await Promise.all(calls);
      // one slice's logits as they came; more, one after another
      let data = parts[0].data;
      if (parts.length > 1) {
        data = new Float32Array(parts.reduce((n, p) => n + p.data.length, 0));
        parts.reduce((at, p) => { data.set(p.data, at); return at + p.data.length; }, 0);
      }
      return task.score({ data, shape: [count, ...parts[0].shape.slice(1)] }, sets.get(T));
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      return { error: { name: error.name, message: error.message } };
    }
  }));
  return Object.fromEntries(lengths.map((T, j) => [T, answers[j]]));
}

/**
 * Each model of a run measured at every measuredLengths(config), at the step it stands at: [{ key, seed, lengths: {
 * [T]: the task's score, or { error } where the model refuses T } }], in the run's order of models. A model that
 * finished its steps was asked as soon as it had (while others still trained).
 */
export async function measureRun(run) {
  const lengths = await run.measure();
  return run.models.map(({ key, seed }, i) => ({ key, seed, lengths: lengths[i] }));
}

/** SHA-256 (hex) of a model's parameters: the bytes of each tensor of parameters(), in its order, one after another. */
export async function parameterHash(parameters) {
  const tensors = Object.values(parameters);
  const bytes = new Uint8Array(tensors.reduce((n, t) => n + t.data.byteLength, 0));
  let at = 0;
  for (const { data } of tensors) {
    bytes.set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), at);
    at += data.byteLength;
  }
  const digest = new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The parameter hash of every model of a run, in its order. */
export const runHashes = (run) => Promise.all(run.models.map(async ({ handle }) => parameterHash(await handle.parameters())));
