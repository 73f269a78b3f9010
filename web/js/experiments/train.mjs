// The lab of section "train": small transformers learn a task side by side (does robot come before person? or the
// word k places back), in the workers of a seqorder pool, from settings the reader chooses; the run can be paused,
// resumed and stepped, and gives the same bits as a run never paused. Then the models are measured at the lengths
// they trained on and beyond (train-tasks.mjs has the tasks; train-findings.mjs turns the numbers into checks and
// sentences). Pure: no DOM; node and the page import it (`so`: the API; `pool`: loadSeqorderPool's).

import { median } from '../median.mjs';
import { declareSettings } from '../settings.mjs';
import { TASKS, measuredLengths, measuredSet, trainingBatch, validationSet } from './train-tasks.mjs';

/** The eight models the lab offers: where position enters (or not), with or without a causal mask. `beyond`: the
 * course's model uses sinusoids; learned tables and rotary positions go beyond this lesson. */
export const KINDS = Object.freeze([
  { key: 'none', positions: 'none', causal: false },
  { key: 'sinusoidal', positions: 'sinusoidal', causal: false },
  { key: 'learned', positions: 'learned', causal: false, beyond: true },
  { key: 'rotary', positions: 'rotary', causal: false, beyond: true },
  { key: 'causal', positions: 'none', causal: true },
  { key: 'causal-sinusoidal', positions: 'sinusoidal', causal: true },
  { key: 'causal-learned', positions: 'learned', causal: true, beyond: true },
  { key: 'causal-rotary', positions: 'rotary', causal: true, beyond: true },
].map((kind) => Object.freeze(kind)));

export const kindOf = (key) => KINDS.find((k) => k.key === key);

/** A model's name on the page: 'none, bidirectional', 'sinusoidal', 'learned (16 rows)', 'rotary, causal', … */
export function kindLabel(key, config) {
  const { positions, causal } = kindOf(key);
  const name = positions === 'learned' ? `learned (${config.longest} rows)` : positions;
  if (positions === 'none') return causal ? 'none, causal' : 'none, bidirectional';
  return causal ? `${name}, causal` : name;
}

/** Steps per message to a worker: the curves grow by one point every CHUNK steps; Step trains CHUNK steps. */
export const CHUNK = 20;

/** Messages of batches a model may have in flight: its worker never waits for the page between two. */
const IN_FLIGHT = 2;

/** The most models one run trains (each seed of each kind is a model). */
export const MAX_MODELS = 24;

/**
 * How many workers the lab's pool starts on a device of `cores` (navigator.hardwareConcurrency; 2 when unknown): one
 * more than the cores, at most MAX_WORKERS. The operating system shares the cores among the workers, so a worker
 * whose models finish early frees its share for the others, and no core idles while the rest still train; more
 * workers than that would only take turns on the same cores (and slow the page's own thread).
 */
export function poolSize(cores) {
  const known = Number.isInteger(cores) && cores > 0 ? cores : 2;
  return Math.min(MAX_WORKERS, known + 1);
}

/** The most workers the lab's pool starts. */
export const MAX_WORKERS = 8;

/** The models of the lesson's run. */
export const LESSON_MODELS = Object.freeze(['none', 'sinusoidal', 'learned', 'rotary', 'causal']);

/** The tasks' words (so.taskWords: a token's id is its index), for the composer's declaration. */
export const TASK_WORDS = Object.freeze(['the', 'robot', 'follows', 'person', 'sees', 'a', 'box', 'and', 'lifts', 'it',
  'near', 'big', 'small', 'red', 'slowly', 'then']);

/** The composer's first sentence. */
export const SENTENCE = Object.freeze(['the', 'robot', 'follows', 'the', 'person', 'near', 'a', 'box']);

const kindOptions = KINDS.map((k) => ({ value: k.key, label: kindLabel(k.key, { longest: 16 }).replace(' (16 rows)', '') }));

/** Every kind alone, then all eight together, then the lesson's five: the models the sweep trains. */
const modelsSweep = [...KINDS.map((k) => [k.key]), KINDS.map((k) => k.key), [...LESSON_MODELS]];

/**
 * The lab's settings, declared once (web/js/settings.mjs: the controls, the URL's hash and the tests follow it).
 * Their defaults are the lesson's run: five models, width 32, 2 heads, 1 layer, token vectors × √D, 800 Adam steps at
 * 3e-3 on lengths 8 … 16, seed 1 (the project's PyTorch reference's setup, bench/model_reference.py; the scaling as
 * Attention Is All You Need does, chosen by docs/model.md's measurements: sinusoids and rotary reach 95% sooner, and
 * the lengths past training are no better nor worse). `sweep` lists the values tests/browser/train-sweep.test.mjs
 * visits, each one from a short run (100 Adam steps) at the other settings' defaults: each task, each model alone and
 * all together, each number at its extremes, each learning rate, the scaling on and off, one and three seeds.
 */
export const SETTINGS = declareSettings({
  task: {
    kind: 'select', id: 'train-task', label: 'Task', default: 'order', sweep: ['order', 'lookback'],
    options: [{ value: 'order', label: 'robot before person? (one answer)' },
      { value: 'lookback', label: 'the word k back (an answer per word)' }],
  },
  back: { kind: 'slider', id: 'train-back', label: 'k, places back', min: 1, max: 4, default: 2, sweep: [1, 4] },
  models: { kind: 'set', id: 'train-models', label: 'Models', min: 1, max: 8, default: [...LESSON_MODELS], sweep: modelsSweep, options: kindOptions },
  width: { kind: 'slider', id: 'train-width', label: 'width D', min: 2, max: 64, default: 32, sweep: [2, 64] },
  heads: { kind: 'slider', id: 'train-heads', label: 'heads', min: 1, max: 8, default: 2, sweep: [1, 8] },
  layers: { kind: 'slider', id: 'train-layers', label: 'layers', min: 1, max: 4, default: 1, sweep: [1, 4] },
  embedScale: {
    kind: 'toggle', id: 'train-embed-scale', label: 'token vectors × √D (as in the paper)', default: true, sweep: [false, true],
  },
  lr: {
    kind: 'select', id: 'train-lr', label: 'learning rate', default: 3e-3,
    options: [1e-4, 3e-4, 1e-3, 3e-3, 1e-2, 3e-2, 1e-1].map((value) => ({ value, label: String(value) })),
  },
  steps: { kind: 'slider', id: 'train-steps', label: 'Adam steps', min: 100, max: 4000, step: 100, default: 800, sweep: [100, 4000] },
  shortest: { kind: 'slider', id: 'train-shortest', label: 'shortest sentence', min: 2, max: 32, default: 8, sweep: [2, 32] },
  longest: { kind: 'slider', id: 'train-longest', label: 'longest sentence', min: 2, max: 32, default: 16, sweep: [2, 32] },
  seeds: {
    kind: 'select', id: 'train-seeds', label: 'seeds per model', default: 1, sweep: [1, 3],
    options: [{ value: 1, label: '1' }, { value: 3, label: '3 (median and range)' }],
  },
  seed: {
    kind: 'number', id: 'train-seed', label: 'Seed', min: 0, max: 1e9, default: 1, sweep: [0, 1, 1e9],
    hint: 'the initial parameters (with 3 seeds, also the next two)',
  },
  words: {
    kind: 'list', id: 'train-words', label: 'Your sentence', min: 2, max: 64, default: [...SENTENCE], sweep: [[...SENTENCE]],
    options: TASK_WORDS.map((w) => ({ value: w, label: w })),
  },
  mapA: { kind: 'select', id: 'train-map-a', label: 'Left model', default: 'none', sweep: ['none'], options: kindOptions },
  mapB: { kind: 'select', id: 'train-map-b', label: 'Right model', default: 'rotary', sweep: ['rotary'], options: kindOptions },
});

/** The settings' defaults: { task: 'order', …, seed: 1 }. */
export const DEFAULTS = Object.freeze(Object.fromEntries(Object.values(SETTINGS).map((s) => [s.name, s.default])));

/** The settings a run depends on (the lab's others: the composer's, the maps' pickers). */
const RUN_SETTINGS = ['task', 'back', 'models', 'width', 'heads', 'layers', 'embedScale', 'lr', 'steps', 'shortest', 'longest', 'seeds', 'seed'];

/**
 * A run's configuration from the settings' values (the defaults filled in): frozen, with `kinds` (the chosen models,
 * in the lab's order) and `seeds` (the seed, or it and the next two).
 */
export function runConfig(values = {}) {
  const v = { ...DEFAULTS, ...values };
  const config = Object.fromEntries(RUN_SETTINGS.map((name) => [name, v[name]]));
  config.kinds = KINDS.map((k) => k.key).filter((key) => v.models.includes(key));
  config.seeds = Array.from({ length: v.seeds }, (_, i) => v.seed + i);
  delete config.models;
  return Object.freeze(config);
}

/** The course's decoder: a causal mask, and sinusoids. */
export const DECODER = 'causal-sinusoidal';

/**
 * The settings of the second task's run that the conclusion offers: those given, on the word k places back, with the
 * causal model without positions and the course's decoder among the models (the conclusion compares them).
 */
export function secondTaskValues(values) {
  const models = KINDS.map((k) => k.key).filter((key) => values.models.includes(key) || key === 'causal' || key === DECODER);
  return { ...values, task: 'lookback', models };
}

/** Whether a run is the lesson's: every setting at its default but which models and which seeds. */
export function isLessonRun(config) {
  return ['task', 'width', 'heads', 'layers', 'embedScale', 'lr', 'steps', 'shortest', 'longest'].every((name) => config[name] === DEFAULTS[name]);
}

/** Whether two runs differ in the token vectors' scale only (the same task, models, seeds, everything else). */
export function differInScaleOnly(a, b) {
  return a.embedScale !== b.embedScale && JSON.stringify({ ...a, embedScale: 0 }) === JSON.stringify({ ...b, embedScale: 0 });
}

/** createModel's options for one model of a run. */
export function modelOptions(config, key, seed, vocab) {
  const { positions, causal } = kindOf(key);
  const task = TASKS[config.task];
  return {
    vocab, width: config.width, heads: config.heads, layers: config.layers, readout: task.readout,
    classes: task.classes(vocab), dtype: 'float32', positions, ...(causal ? { causal } : {}),
    ...(positions === 'learned' ? { maxLength: config.longest } : {}), ...(config.embedScale ? { embedScale: 'sqrtWidth' } : {}), seed,
  };
}

/**
 * What a run's settings ask that the API refuses, in the API's own words: [{ setting, message }], empty when the
 * run can start. Each chosen model is created (and freed) with the run's options on `so`, and the task's sentences
 * drawn at the shortest and longest lengths; a refusal is placed beside the setting its message names.
 */
export function refusals(so, config) {
  const found = [];
  const place = (message, fallback) => {
    const named = [['maxLength', 'longest'], ['heads', 'heads'], ['width', 'width'], ['layers', 'layers'], ['length', 'shortest']]
      .find(([word]) => message.includes(word));
    return named ? named[1] : fallback;
  };
  if (config.shortest > config.longest) {
    found.push({ setting: 'shortest', message: `the shortest training sentence (${config.shortest}) is longer than the longest (${config.longest})` });
  }
  if (config.kinds.length * config.seeds.length > MAX_MODELS) {
    found.push({ setting: 'models', message: `${config.kinds.length} models × ${config.seeds.length} seeds is more than the ${MAX_MODELS} models a run trains` });
  }
  for (const key of config.kinds) {
    try {
      so.createModel(modelOptions(config, key, config.seeds[0], so.taskWords.length)).dispose();
    } catch (error) {
      if (!(error instanceof RangeError || error instanceof TypeError)) throw error;
      found.push({ setting: place(error.message, 'models'), key, message: `${kindLabel(key, config)}: ${error.message}` });
    }
  }
  for (const length of new Set([config.shortest, config.longest])) {
    try {
      TASKS[config.task].make(so, config, { count: 2, length, seed: 0 });
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      found.push({ setting: length === config.shortest ? 'shortest' : 'longest', message: error.message });
    }
  }
  return found;
}

/**
 * A run: one model per (kind, seed) of `config`, created in `pool` (each goes to the worker holding the fewest).
 * Nothing trains until play() or advance(). Every model trains on the same sentences: Adam step k on
 * trainingBatch(k), CHUNK steps a message (IN_FLIGHT of them on their way at once); after each message its accuracy
 * on the held-out sentences. onChunk(i, { step, losses, accuracy }) gets model i's progress. A pause lets every model
 * reach the same step (the furthest one sent), so all stand at one step; resuming continues exactly where each
 * stopped: the same bits as a run never paused (the steps a model takes do not depend on when they are sent). A model
 * that has taken all its steps is measured at once (measure()). Resolves to the run's handle.
 */
export async function createRun(pool, so, config, { onChunk = () => {} } = {}) {
  const vocab = so.taskWords.length;
  const entries = config.kinds.flatMap((key) => config.seeds.map((seed) => ({ key, seed })));
  const created = await Promise.allSettled(entries.map(({ key, seed }) => pool.createModel(modelOptions(config, key, seed, vocab))));
  const failed = created.find((c) => c.status === 'rejected');
  if (failed) {
    await Promise.all(created.filter((c) => c.status === 'fulfilled').map((c) => c.value.dispose()));
    throw failed.reason;
  }
  const models = entries.map((entry, i) => ({ ...entry, handle: created[i].value }));
  const validation = validationSet(so, config);
  const taken = models.map(() => 0);
  const ending = models.map(() => 0);  // where each model's message in flight ends
  const drivers = models.map(() => null);
  const measuring = models.map(() => null);  // each model's measurements, asked for as soon as it has finished
  let sets = null;
  const measuredSets = () => (sets ??= new Map(measuredLengths(config).map((T) => [T, measuredSet(so, config, T)])));
  let target = 0;
  let error = null;
  let closed = false;
  const chunks = new Map();  // first step → { batches, uses }: drawn once for every model, dropped once all had them

  const batchesFrom = (first, n) => {
    let chunk = chunks.get(first);
    if (!chunk || chunk.batches.length !== n) {
      chunk = { batches: Array.from({ length: n }, (_, j) => trainingBatch(so, config, first + j)), uses: 0 };
      chunks.set(first, chunk);
    }
    chunk.uses += 1;
    if (chunk.uses === models.length) chunks.delete(first);
    return chunk.batches;
  };

  function drive(i) {
    drivers[i] ??= (async () => {
      const { handle } = models[i];
      const inFlight = [];  // each message's answer, in the order sent: the worker answers them in that order
      try {
        let yielded = false;
        while (!closed && !error && (ending[i] < target || inFlight.length)) {
          if (ending[i] < target && inFlight.length < IN_FLIGHT) {
            const first = ending[i];
            if (!chunks.has(first) && !yielded) {
              // a chunk's batches not drawn yet: drawn in a task of their own, so that the page's thread answers
              // input between two (drawing them takes a few milliseconds; at the start every model wants two)
              yielded = true;
              await nextTask();
              continue;
            }
            yielded = false;
            const n = Math.min(CHUNK - (first % CHUNK), target - first);
            ending[i] = first + n;
            // the batches, then the held-out sentences: two messages at once, answered in order
            const trained = handle.train(batchesFrom(first, n), { lr: config.lr });
            const answered = handle.forward(validation.ids);
            const chunk = Promise.all([trained, answered]).then(([losses, logits]) => ({ step: first + n, losses, logits }));
            chunk.catch(() => {});  // (awaited in its turn below, maybe after it has failed: the loop reports it there)
            inFlight.push(chunk);
            continue;
          }
          const { step, losses, logits } = await inFlight.shift();
          taken[i] = step;
          onChunk(i, { step, losses, accuracy: TASKS[config.task].score(logits, validation).accuracy });
          if (taken[i] === config.steps && !measuring[i]) {
            measuring[i] = measureModel(so, config, handle, measuredSets());
            measuring[i].catch(() => {});  // measure() reports it
          }
        }
      } catch (e) {
        if (!closed) {
          error ??= e;
          target = Math.max(...taken);
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
    target = Math.min(config.steps, step);
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
    /** 'running' while a model trains; else 'done' (every model at config.steps), 'paused', or 'error'. */
    get state() {
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
    /** Stops every model at one step: the furthest any has been sent to. Resolves once they all stand there. */
    pause() {
      target = Math.max(...taken, ...ending);
      return settled();
    },
    /** Each model's measurements at every measuredLengths(config) (measureModel's), at the step it stands at. */
    measure() {
      return Promise.all(models.map((m, i) => (taken[i] === config.steps && measuring[i]) || measureModel(so, config, m.handle, measuredSets())));
    },
    /** Resolves when no model is training. */
    settled,
    /** Frees every model; the run is over (its handles reject). */
    async dispose() {
      closed = true;
      target = 0;
      await Promise.all(models.map((m) => m.handle.dispose()));
    },
  };
}

/**
 * Resolves in a task of its own, after what is queued (a message to oneself: unlike a timer, not slowed down in a
 * background tab).
 */
function nextTask() {
  if (typeof MessageChannel !== 'function') return Promise.resolve();
  return new Promise((resolve) => {
    const { port1, port2 } = new MessageChannel();
    port1.onmessage = () => {
      port1.close();
      resolve();
    };
    port2.postMessage(null);
  });
}

/**
 * One model measured at every length of `sets` (Map T → the task's sentences): { [T]: the task's score, or { error: {
 * name, message } } where the model refuses T (a RangeError; any other error fails) }. Every length's message goes at
 * once: the worker answers them in order.
 */
async function measureModel(so, config, handle, sets) {
  const task = TASKS[config.task];
  const lengths = [...sets.keys()];
  const answers = await Promise.all(lengths.map((T) => handle.forward(sets.get(T).ids).then(
    (logits) => task.score(logits, sets.get(T)),
    (error) => {
      if (!(error instanceof RangeError)) throw error;
      return { error: { name: error.name, message: error.message } };
    })));
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

/** { median, min, max } of numbers. */
export const spread = (values) => ({ median: median(values), min: Math.min(...values), max: Math.max(...values) });
