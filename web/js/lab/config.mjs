// The lab's settings and what a run of them is: the twelve kinds of model, the settings' declaration (the controls,
// the URL's hash and the tests read it), a run's configuration, createModel's options for each model, what the API
// refuses, the run's name on the page, and what a run will cost (time and memory) before it starts. Each setting keeps
// one name from the URL to createModel (#lab-embedScale=sqrtWidth → embedScale: 'sqrtWidth'). Pure: no DOM.
import { declareSettings } from '../settings.mjs';
import { BATCH, MEASURED_COUNT, TASKS, VALIDATION_COUNT, measuredLengths, validationLength } from './tasks.mjs';

/** The twelve models the lab offers: where position enters (or not), with or without a causal mask. `beyond`: the
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
  { key: 'alibi', positions: 'alibi', causal: false, beyond: true },
  { key: 'relative', positions: 'relative', causal: false, beyond: true },
  { key: 'causal-alibi', positions: 'alibi', causal: true, beyond: true },
  { key: 'causal-relative', positions: 'relative', causal: true, beyond: true },
].map((kind) => Object.freeze(kind)));

export const kindOf = (key) => KINDS.find((k) => k.key === key);

/** The course's decoder: a causal mask, and sinusoids. */
export const DECODER = 'causal-sinusoidal';

/** The schemes' names on the page, but the learned table's (which names its rows). */
const SCHEME_NAMES = { none: 'without positions', sinusoidal: 'sinusoidal', rotary: 'rotary', alibi: 'ALiBi', relative: 'T5 relative bias' };

/** A model's name on the page: 'without positions', 'sinusoidal', 'learned (16 rows)', 'causal rotary', 'ALiBi', … */
export function kindLabel(key, config) {
  const { positions, causal } = kindOf(key);
  const name = positions === 'learned' ? `learned (${config.longest} rows)` : SCHEME_NAMES[positions];
  return causal ? `causal ${name}` : name;
}

/** The models of the lesson's run: without positions (bidirectional and causal), sinusoids, rotary, and the decoder. */
export const LESSON_MODELS = Object.freeze(['none', 'sinusoidal', 'rotary', 'causal', DECODER]);

/** The most models one run trains (each seed of each kind is a model). */
export const MAX_MODELS = 24;

/** The tasks' words (so.taskWords: a token's id is its index), for the composer's declaration. */
export const TASK_WORDS = Object.freeze(['the', 'robot', 'follows', 'person', 'sees', 'a', 'box', 'and', 'lifts', 'it',
  'near', 'big', 'small', 'red', 'slowly', 'then']);

/** The composer's first sentence. */
export const SENTENCE = Object.freeze(['the', 'robot', 'follows', 'the', 'person', 'near', 'a', 'box']);

const kindOptions = KINDS.map((k) => ({ value: k.key, label: kindLabel(k.key, { longest: 16 }).replace(' (16 rows)', '') }));

/** Every kind alone, then the first eight together, then the lesson's: the models the sweep trains. */
const modelsSweep = [...KINDS.map((k) => [k.key]), KINDS.slice(0, 8).map((k) => k.key), [...LESSON_MODELS]];

/**
 * The lab's settings, declared once (web/js/settings.mjs). Each id is the URL's key: lab- and the name createModel
 * (or the task, or the model's calls: positionRange) gives the option; `was` reads the key an older link used (and its values). The defaults are the
 * lesson's run: five models, width 32, 2 heads, 1 layer, token vectors × √D, 800 Adam steps at 3e-3 on lengths 8 … 16,
 * seed 1 (the project's PyTorch reference's setup, bench/model_reference.py; the scaling as Attention Is All You Need
 * does, chosen by docs/model.md's measurements). `sweep` lists the values tests/browser/lab-sweep.test.mjs visits.
 */
export const SETTINGS = declareSettings({
  task: {
    kind: 'select', id: 'lab-task', was: { key: 'train-task' }, label: 'Task', default: 'order', sweep: ['order', 'lookback', 'induction'],
    options: [{ value: 'order', label: 'robot before person? (one answer)' }, { value: 'lookback', label: 'the word k back (an answer per word)' },
      { value: 'induction', label: 'induction: … A B … A → B (an answer per word)' }],
  },
  back: { kind: 'slider', id: 'lab-back', was: { key: 'train-back' }, label: 'k, places back', min: 1, max: 4, default: 2, sweep: [1, 4] },
  models: {
    kind: 'set', id: 'lab-models', was: { key: 'train-models' }, label: 'Models', min: 1, max: 8, default: [...LESSON_MODELS],
    sweep: modelsSweep, options: kindOptions,
  },
  width: { kind: 'slider', id: 'lab-width', was: { key: 'train-width' }, label: 'width D', min: 2, max: 64, step: 2, default: 32, sweep: [2, 64] },
  heads: {
    kind: 'select', id: 'lab-heads', was: { key: 'train-heads' }, label: 'heads', default: 2, sweep: [1, 8],
    options: [1, 2, 3, 4, 5, 6, 7, 8].map((value) => ({ value, label: String(value) })),
  },
  layers: { kind: 'slider', id: 'lab-layers', was: { key: 'train-layers' }, label: 'layers', min: 1, max: 4, default: 1, sweep: [1, 2, 4] },
  rotaryBase: {
    kind: 'select', id: 'lab-rotaryBase', label: 'rotary base', default: 10000, sweep: [100, 1e6],
    options: [100, 1000, 10000, 100000, 1e6].map((value) => ({ value, label: String(value) })),
  },
  rotaryPairs: {
    kind: 'select', id: 'lab-rotaryPairs', label: 'rotary pairs', default: 'all', sweep: ['all', 1],
    options: [{ value: 'all', label: 'every pair' }, ...[1, 2, 4, 8, 16].map((value) => ({ value, label: String(value) }))],
  },
  embedScale: {
    kind: 'select', id: 'lab-embedScale', was: { key: 'train-embed-scale', values: { 0: '1', 1: 'sqrtWidth' } },
    label: 'token vectors', default: 'sqrtWidth', sweep: [1, 'sqrtWidth'],
    options: [{ value: 'sqrtWidth', label: '× √D (as in the paper)' }, { value: 1, label: 'as they are' }],
  },
  positionRange: {
    kind: 'select', id: 'lab-positionRange', label: 'randomized positions', default: 0, sweep: [0, 1024],
    options: [{ value: 0, label: 'none: 0 … T − 1' }, ...[64, 128, 256, 512, 1024].map((value) => ({ value, label: `drawn from 0 … ${value - 1}` }))],
    hint: 'each sentence at sorted positions drawn from the range (Ruoss et al. 2023), in training and in the lengths table',
  },
  lr: {
    kind: 'select', id: 'lab-lr', was: { key: 'train-lr' }, label: 'learning rate', default: 3e-3,
    options: [1e-4, 3e-4, 1e-3, 3e-3, 1e-2, 3e-2, 1e-1].map((value) => ({ value, label: String(value) })),
  },
  steps: { kind: 'slider', id: 'lab-steps', was: { key: 'train-steps' }, label: 'Adam steps', min: 100, max: 4000, step: 100, default: 800, sweep: [100, 4000] },
  shortest: { kind: 'slider', id: 'lab-shortest', was: { key: 'train-shortest' }, label: 'shortest sentence', min: 2, max: 32, default: 8, sweep: [2, 32] },
  longest: { kind: 'slider', id: 'lab-longest', was: { key: 'train-longest' }, label: 'longest sentence', min: 2, max: 32, default: 16, sweep: [2, 32] },
  seeds: {
    kind: 'select', id: 'lab-seeds', was: { key: 'train-seeds' }, label: 'seeds per model', default: 1, sweep: [1, 3],
    options: [{ value: 1, label: '1' }, { value: 3, label: '3 (median and range)' }],
  },
  seed: {
    kind: 'number', id: 'lab-seed', was: { key: 'train-seed' }, label: 'Seed', min: 0, max: 1e9, default: 1, sweep: [0, 1, 3, 7, 11, 42, 1e9],
    hint: 'draws the parameters and the sentences',
  },
  words: {
    kind: 'list', id: 'lab-words', was: { key: 'train-words' }, label: 'Your sentence', min: 2, max: 64, default: [...SENTENCE], sweep: [[...SENTENCE]],
    options: TASK_WORDS.map((w) => ({ value: w, label: w })),
  },
  mapA: { kind: 'select', id: 'lab-mapA', was: { key: 'train-map-a' }, label: 'Left model', default: 'none', sweep: ['none'], options: kindOptions },
  mapB: { kind: 'select', id: 'lab-mapB', was: { key: 'train-map-b' }, label: 'Right model', default: 'rotary', sweep: ['rotary'], options: kindOptions },
});

/** The settings' defaults: { task: 'order', …, seed: 1 }. */
export const DEFAULTS = Object.freeze(Object.fromEntries(Object.values(SETTINGS).map((s) => [s.name, s.default])));

/**
 * The bench page's run at a first visit (a link without the lab's settings), as a link to it would set them: the
 * word 2 back, where position is the whole answer, with the five bidirectional schemes that can be asked at any length
 * (none, sinusoidal, rotary, ALiBi, the T5 relative bias) trained on 8 … 16 words, 400 Adam steps (docs/page.md
 * gives the measurement that chose them).
 */
export const BENCH_RUN = Object.freeze({ task: 'lookback', models: ['none', 'sinusoidal', 'rotary', 'alibi', 'relative'], steps: 400 });

/** The settings a run depends on (the lab's others: the composer's, the maps' pickers). */
const RUN_SETTINGS = ['task', 'back', 'models', 'width', 'heads', 'layers', 'rotaryBase', 'rotaryPairs', 'embedScale', 'positionRange', 'lr', 'steps', 'shortest', 'longest', 'seeds', 'seed'];

/**
 * A run's configuration from the settings' values (the defaults filled in): frozen, with `kinds` (the chosen models,
 * in the lab's order) and `seeds` (the seed, or it and the next two). The rotary settings are those of a run with a
 * rotary model (their defaults in one without).
 */
export function runConfig(values = {}) {
  const v = { ...DEFAULTS, ...values };
  const config = Object.fromEntries(RUN_SETTINGS.map((name) => [name, v[name]]));
  config.kinds = KINDS.map((k) => k.key).filter((key) => v.models.includes(key));
  config.seeds = Array.from({ length: v.seeds }, (_, i) => v.seed + i);
  if (!hasRotary(config.kinds)) Object.assign(config, { rotaryBase: DEFAULTS.rotaryBase, rotaryPairs: DEFAULTS.rotaryPairs });
  delete config.models;
  return Object.freeze(config);
}

/**
 * A run's name on the page: its task, the settings that differ from the lesson's, and its seeds ('the order task,
 * seed 1'; 'the word 3 back, 200 steps, lr 0.01, seeds 4–6'). Which models it trains is not part of it.
 */
export function runName(config) {
  const task = { order: 'the order task', lookback: `the word ${config.back} back`, induction: 'the induction task' }[config.task];
  const words = {
    width: (v) => `width ${v}`, heads: (v) => `${v} head${v === 1 ? '' : 's'}`, layers: (v) => `${v} layer${v === 1 ? '' : 's'}`,
    rotaryBase: (v) => `rotary base ${v}`, rotaryPairs: (v) => `${v} rotary pair${v === 1 ? '' : 's'}`,
    embedScale: (v) => (v === 1 ? 'token vectors as they are' : 'token vectors × √D'),
    positionRange: (v) => `positions drawn from 0 … ${v - 1}`, lr: (v) => `lr ${v}`, steps: (v) => `${v} steps`,
  };
  const differ = Object.entries(words).filter(([name]) => config[name] !== DEFAULTS[name]).map(([name, say]) => say(config[name]));
  if (config.shortest !== DEFAULTS.shortest || config.longest !== DEFAULTS.longest) differ.push(`lengths ${config.shortest} … ${config.longest}`);
  const { seeds } = config;
  return [task, ...differ, seeds.length > 1 ? `seeds ${seeds[0]}–${seeds.at(-1)}` : `seed ${seeds[0]}`].join(', ');
}

/** Whether a rotary model is among `kinds`. */
export const hasRotary = (kinds) => kinds.some((key) => kindOf(key).positions === 'rotary');

/**
 * The heads a model of width `width` can take among the declared ones: those that divide the width, and with rotary
 * positions among `kinds`, those that leave an even head width.
 */
export function headsOffered(width, kinds) {
  const rotary = hasRotary(kinds);
  return SETTINGS.heads.options.map((o) => o.value).filter((h) => width % h === 0 && (!rotary || (width / h) % 2 === 0));
}

/**
 * The settings of the second task's run that the conclusion offers: those given, on the word k places back, with the
 * causal model without positions and the course's decoder among the models (the conclusion compares them).
 */
export function secondTaskValues(values) {
  const models = KINDS.map((k) => k.key).filter((key) => values.models.includes(key) || key === 'causal' || key === DECODER);
  return { ...values, task: 'lookback', models };
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
    vocab, width: config.width, heads: config.heads, layers: config.layers, readout: task.readout, classes: task.classes(vocab),
    dtype: 'float32', positions, ...(causal ? { causal } : {}), ...(positions === 'learned' ? { maxLength: config.longest } : {}),
    ...(positions === 'rotary' && config.rotaryBase !== DEFAULTS.rotaryBase ? { rotaryBase: config.rotaryBase } : {}),
    ...(positions === 'rotary' && config.rotaryPairs !== 'all' ? { rotaryPairs: config.rotaryPairs } : {}),
    ...(config.embedScale === 1 ? {} : { embedScale: config.embedScale }), seed,
  };
}

/**
 * The call options of a model of `key` in a run of `config` (train's with lr, forward's in the held-out curve and the
 * lengths table): randomized positions' range, for a model that reads positions, when the run draws them.
 */
export function callOptions(config, key) {
  return config.positionRange > 0 && kindOf(key).positions !== 'none' ? { positionRange: config.positionRange } : {};
}

/**
 * What a run's settings ask that the API refuses, one refusal per rule: [{ setting, message }], empty when the run can
 * start. Each chosen model is created (and freed) with the run's options on `so`, and the task's sentences drawn at
 * the shortest and longest lengths; a message several models give is said once, naming them, beside the setting it
 * names (the models', when it names none).
 */
export function refusals(so, config) {
  const found = [];
  const add = (setting, message, key) => {
    const same = found.find((r) => r.rule === message);
    if (same) same.keys.push(key);
    else found.push({ setting, rule: message, keys: key ? [key] : [] });
  };
  if (config.shortest > config.longest) {
    add('shortest', `the shortest training sentence (${config.shortest}) is longer than the longest (${config.longest})`);
  } else {
    for (const length of new Set([config.shortest, config.longest])) {
      try {
        TASKS[config.task].make(so, config, { count: 2, length, seed: 0 });
      } catch (error) {
        if (!(error instanceof RangeError)) throw error;
        add(length === config.shortest ? 'shortest' : 'longest', error.message);
      }
    }
  }
  if (config.kinds.length * config.seeds.length > MAX_MODELS) {
    add('models', `${config.kinds.length} models × ${config.seeds.length} seeds is more than the ${MAX_MODELS} models a run trains`);
  }
  const named = [['positionRange', 'positionRange'], ['rotaryPairs', 'rotaryPairs'], ['rotaryBase', 'rotaryBase'], ['maxLength', 'longest'], ['heads', 'heads'], ['width', 'width'], ['layers', 'layers'], ['length', 'shortest']];
  for (const key of config.kinds) {
    let model = null;
    try {
      model = so.createModel(modelOptions(config, key, config.seeds[0], so.taskWords.length));
      // the call options, asked of the longest training sentence as the run's steps will
      const options = callOptions(config, key);
      if (Object.keys(options).length) model.forward({ data: new Int32Array(config.longest), shape: [1, config.longest] }, options);
    } catch (error) {
      if (!(error instanceof RangeError || error instanceof TypeError)) throw error;
      add(named.find(([word]) => error.message.includes(word))?.[1] ?? 'models', error.message, key);
    } finally {
      model?.dispose();
    }
  }
  return found.map(({ setting, rule, keys }) => ({
    setting, message: keys.length ? `${keys.map((k) => kindLabel(k, config)).join(', ')}: ${rule}` : rule,
  }));
}

/**
 * The multiply-adds of one forward pass of a model of `config` over one sentence of length T: per layer the four
 * projections and the MLP (12 D² a token) and the attention's scores and sums (2 T D a token), then the readout.
 */
function forwardWork(config, T, vocab = 16) {
  const { width: D, layers } = config;
  return T * (layers * (12 * D * D + 2 * T * D) + D * TASKS[config.task].classes(vocab));
}

/** Multiply-adds a run of `config` does: training (a backward pass costs two forward ones), held-out curves, lengths. */
export function runWork(config) {
  const span = config.longest - config.shortest + 1;
  let perCycle = 0;
  for (let i = 0; i < span; i += 1) perCycle += forwardWork(config, config.shortest + i);
  const training = 3 * BATCH * (perCycle / span) * config.steps;
  const heldOut = (config.steps / 20) * VALIDATION_COUNT * forwardWork(config, validationLength(config));
  const measured = MEASURED_COUNT * measuredLengths(config).reduce((n, T) => n + forwardWork(config, T), 0);
  return config.kinds.length * config.seeds.length * (training + heldOut + measured);
}

/**
 * Multiply-adds a second on one core of the machine docs/page.md's lab run was measured on (the default run:
 * runWork(runConfig()) in the 8.6 s of CPU its arithmetic took on 3 workers), the estimate until a run here has
 * measured this device's own.
 */
export const WORK_RATE = 6.5e9;

/** The bytes a model keeps in its worker's heap: parameters, gradients and Adam's two moments (float32 each). */
function modelBytes(config, vocab = 16) {
  const { width: D, layers } = config;
  const parameters = vocab * D + config.longest * D + layers * (12 * D * D + 9 * D) + D * TASKS[config.task].classes(vocab) + 4 * D;
  const activations = BATCH * config.longest * layers * (16 * D + 2 * config.heads * config.longest);
  return 4 * (4 * parameters + activations);
}

/** The memory a run may take before the page asks the reader to start it: every model's heap together. */
export const MEMORY_BUDGET = 512 * 2 ** 20;

/** The time a run may take before the page asks the reader to start it. */
export const TIME_BUDGET_S = 60;

/**
 * What a run of `config` will cost on this device: { seconds, bytes, heavy } from its multiply-adds at `rate` per
 * core-second (WORK_RATE, or one measured here) on min(cores, workers) cores, and its models' heaps; heavy when either
 * exceeds its budget (the page then waits for the reader's press).
 */
export function runCost(config, { rate = WORK_RATE, cores = 2, workers = cores + 1 } = {}) {
  const seconds = runWork(config) / (rate * Math.max(1, Math.min(cores, workers)));
  const bytes = config.kinds.length * config.seeds.length * modelBytes(config);
  return { seconds, bytes, heavy: seconds > TIME_BUDGET_S || bytes > MEMORY_BUDGET };
}
