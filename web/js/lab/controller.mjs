// The lab's runs, one at a time: Train, Pause, Resume, Step and Reset over run.mjs's runs, the record each fills
// (record.mjs), the status, the time left, what a run will cost before it starts, and the finished runs the conclusion
// speaks of. No DOM: the section (section.mjs) gives it `ui`, the figures' side, and node tests a plain object.
//
// One run at a time by construction: every action that starts a run sets the phase before its first await, so a second
// press finds the lab busy; each new run (and Reset) takes a new generation, and a run created for a generation that
// is no longer current is disposed as soon as it exists. Reset never waits: it drops the run at once and lets the pool
// free its models in the background (a worker that has stopped cannot hold the page).
import { count, fmt } from '../format.mjs';
import { WORK_RATE, differInScaleOnly, runConfig, runCost, runWork } from './config.mjs';
import { CHUNK, createRun, measureRun, runHashes } from './run.mjs';
import { probeRun } from './probe.mjs';
import { addChunk, newRecord } from './record.mjs';
import { warmUp } from './warm-up.mjs';

/** The phases in which nothing runs: a run may start. */
const FREE = ['idle', 'done', 'error'];

/** A run expected to take longer than this (from what it has measured) shows its time left. */
export const SHOW_LEFT_MS = 20_000;

/** 'about 40 s', 'about 3 min', 'about 2 h 10 min'. */
export function duration(seconds) {
  if (seconds < 90) return `about ${count(Math.max(1, Math.round(seconds)))} s`;
  if (seconds < 5400) return `about ${count(Math.round(seconds / 60))} min`;
  return `about ${Math.floor(seconds / 3600)} h ${Math.round((seconds % 3600) / 60)} min`;
}

/**
 * The time left of a run from its measured progress only: `samples` [{ at (ms), done (steps of all models) }] taken
 * since it last started moving, `total` its steps. null before two samples.
 */
export function timeLeft(samples, total) {
  if (samples.length < 2) return null;
  const [a, b] = [samples[0], samples.at(-1)];
  if (b.done <= a.done || b.at <= a.at) return null;
  return ((total - b.done) * (b.at - a.at)) / (b.done - a.done);
}

/**
 * The lab. `so`: the API; `pool()`: a promise of the pool; `workers`, `cores`: the pool's size and the device's cores;
 * `values()`: the current settings' values; `refused()`: the settings' refusals ([{ message }]); `probe`: whether a
 * measured run is probed too (probe.mjs: the positions its models' final vectors give back); `ui`: { phase(phase),
 * status(text, ms?), started(record), progress(), measured(run, record) (async: the figures drawn), cleared(),
 * failed(error) }. Returns the actions and the state the section reads.
 */
export function createLab({ so, pool, workers, cores, values, refused, probe = false, ui }) {
  const lab = {
    phase: 'idle', run: null, record: null, generation: 0, elapsed: 0, since: 0, samples: [], rate: WORK_RATE,
    runs: { order: null, lookback: null, induction: null, scaling: null }, finished: [],
  };
  const setPhase = (phase) => {
    lab.phase = phase;
    ui.phase(phase);
  };
  const elapsed = () => lab.elapsed + (lab.since ? performance.now() - lab.since : 0);
  const models = (config) => {
    const n = config.kinds.length * config.seeds.length;
    return config.seeds.length > 1 ? `${n} models (${config.kinds.length} kinds × seeds ${config.seeds.join(', ')})` : `${n} model${n === 1 ? '' : 's'}`;
  };
  const cost = (config) => runCost(config, { rate: lab.rate, cores, workers });

  /** While running: the step, and the time left once two chunks have measured the pace. */
  function progress() {
    if (lab.phase !== 'running' || !lab.record) return;
    const { config } = lab.record;
    const total = lab.record.models.length * config.steps;
    const done = lab.record.models.reduce((n, m) => n + m.steps, 0);
    lab.samples.push({ at: performance.now(), done });
    const left = timeLeft(lab.samples, total);
    const shown = left !== null && elapsed() + left > SHOW_LEFT_MS ? `; ${duration(left / 1000)} left` : '';
    ui.status(`Training ${models(config)} in ${workers} workers: step ${count(lab.run.step)} of ${count(config.steps)}${shown}.`);
  }

  /** Why the current settings cannot run, or null. */
  const refusal = () => {
    const found = refused();
    return found.length ? `Not run: ${found.map((r) => r.message).join('; ')}` : null;
  };

  /** A new run of the current settings, its models created in the pool (nothing trains yet); false when none starts. */
  async function newRun() {
    const why = refusal();
    if (why) {
      ui.status(`${why}.`);
      return false;
    }
    const generation = ++lab.generation;
    drop();
    const config = runConfig(values());
    lab.record = newRecord(config, values());
    Object.assign(lab, { elapsed: 0, since: 0, samples: [] });
    setPhase('starting');
    ui.started(lab.record);
    ui.status(`Creating ${models(config)} in the pool’s workers…`);
    const started = performance.now();
    try {
      const made = await createRun(await pool(), so, config, {
        onChunk: (i, chunk) => {
          if (lab.generation !== generation) return;
          addChunk(lab.record, i, chunk);
          ui.progress(progress);
        },
      });
      if (lab.generation !== generation) {
        made.dispose().catch(() => {});  // Reset, or another run, came meanwhile
        return false;
      }
      lab.run = made;
      made.models.forEach(({ handle }, i) => { lab.record.models[i].options = handle.config; });
      lab.elapsed = performance.now() - started;
      lab.record.timing = { created: Math.round(lab.elapsed) };
      return true;
    } catch (error) {
      if (lab.generation === generation) failed(error);
      return false;
    }
  }

  /** Drops the run shown: its models are freed in the background. */
  function drop() {
    const old = lab.run;
    lab.run = null;
    old?.dispose().catch(() => {});
  }

  /** Trains until the run stops (done, paused or an error), then measures it. */
  async function drive(going) {
    const current = lab.run;
    setPhase('running');
    lab.since = performance.now();
    lab.samples = [];
    progress();
    await going;
    if (lab.run !== current) return;  // reset meanwhile
    lab.elapsed += performance.now() - lab.since;
    lab.since = 0;
    await settle(current);
  }

  /** After the run stopped: hashes, measurements, then the figures (ui.measured). */
  async function settle(current) {
    if (current.state === 'error') {
      failed(current.error);
      return;
    }
    const { record } = lab;
    record.timing.trained = Math.round(lab.elapsed);
    setPhase('measuring');
    ui.status(`Measuring the models at step ${count(current.step)}…`);
    const started = performance.now();
    try {
      const made = probe ? await pool() : null;
      const [hashes, measured, probed] = await Promise.all([
        runHashes(current), measureRun(current), probe ? probeRun((options) => made.createModel(options), so, current) : null,
      ]);
      if (lab.run !== current) return;
      hashes.forEach((hash, i) => { record.models[i].hash = hash; });
      Object.assign(record, { state: current.state, step: current.step, measured, measuredAt: current.step, probe: probed });
    } catch (error) {
      if (lab.run === current) failed(error);
      return;
    }
    lab.elapsed += performance.now() - started;
    record.timing.measured = Math.round(lab.elapsed);
    const done = current.state === 'done';
    if (done) {
      remember(record);
      lab.rate = runWork(record.config) / ((lab.elapsed / 1000) * Math.min(cores, workers));
    }
    await ui.measured(current, record);
    if (lab.run !== current) return;
    ui.status(done
      ? `Trained and measured in ${fmt(lab.elapsed / 1000, 2)} s: ${models(record.config)} × ${count(record.config.steps)} steps, ${workers} workers on ${cores} cores.`
      : `Paused at step ${count(record.step)} of ${count(record.config.steps)}: every model stands there. Resume goes on exactly where they stopped; Step trains ${CHUNK} more steps.`,
    done ? lab.elapsed : undefined);
    setPhase(current.state);
  }

  /** A finished run: the last of its task, and with an earlier one that differs in the scale only, a pair. */
  function remember(record) {
    lab.runs[record.config.task] = record;
    const partner = lab.finished.find((r) => differInScaleOnly(r.config, record.config));
    if (partner) lab.runs.scaling = record.config.embedScale === 1 ? { scaled: partner, unscaled: record } : { scaled: record, unscaled: partner };
    lab.finished = [record, ...lab.finished].slice(0, 8);
  }

  /** Forgets a record (Reset): the conclusion no longer speaks of it. */
  function forget(record) {
    for (const task of ['order', 'lookback', 'induction']) if (lab.runs[task] === record) lab.runs[task] = null;
    if (lab.runs.scaling && [lab.runs.scaling.scaled, lab.runs.scaling.unscaled].includes(record)) lab.runs.scaling = null;
    lab.finished = lab.finished.filter((r) => r !== record);
  }

  function failed(error) {
    ui.failed(error);
    ui.status(`The run failed: ${error?.message ?? error}`);
    setPhase('error');
  }

  /** A run of the current settings, from the start. */
  async function train() {
    if (!FREE.includes(lab.phase)) return;
    if (await newRun()) await drive(lab.run.play());
  }

  return {
    lab,
    /** What the current settings would cost ({ seconds, bytes, heavy }: config.mjs's runCost, at this device's pace once measured). */
    cost: () => cost(runConfig(values())),
    /** What a run of the current settings will cost, in words: '5 models × 800 steps, about 6 s and 12 MiB on this device'. */
    costWords() {
      const config = runConfig(values());
      const { seconds, bytes } = cost(config);
      return `${models(config)} × ${count(config.steps)} steps, ${duration(seconds)} and ${count(Math.ceil(bytes / 2 ** 20))} MiB on this device`;
    },
    train,
    /** The run of the settings, as this section comes into view: unless it refuses, or would cost more than the budgets. */
    async trainInView() {
      const why = refusal();
      if (why) ui.status(`${why}.`);
      else if (cost(runConfig(values())).heavy) ui.status(`Not started: this run, ${this.costWords()} (estimated), is long or large: press Train to start it.`);
      else await train();
    },
    /**
     * Warms the pool up (warm-up.mjs) for the run trainInView would start, until a run starts: nothing for settings
     * that refuse or a run that waits for a press. → { models, ms }.
     */
    async warmUp() {
      const config = runConfig(values());
      if (refusal() || cost(config).heavy || lab.phase !== 'idle' || lab.record) return { models: 0, ms: 0 };
      const { generation } = lab;
      const started = () => lab.generation !== generation || lab.phase !== 'idle';
      return pool().then((ready) => warmUp(ready, so, config, { stop: started }), () => ({ models: 0, ms: 0 }));
    },
    /** Stops every model at the first step they can all stand at, and says which. */
    pause() {
      if (lab.phase !== 'running' || !lab.run) return;
      const at = lab.run.pause();
      setPhase('pausing');
      ui.status(`Pausing at step ${count(at)}: every model finishes the batches it was sent…`);
    },
    async resume() {
      if (lab.phase === 'paused' && lab.run) await drive(lab.run.play());
    },
    /** CHUNK more steps: of the paused run, or of a new one. */
    async step() {
      if (lab.phase === 'idle' && !lab.run && !(await newRun())) return;
      if (['starting', 'paused'].includes(lab.phase) && lab.run) await drive(lab.run.advance());
    },
    /** Drops the run at once (whatever its workers do) and forgets it. */
    reset() {
      if (!lab.run && !lab.record && lab.phase !== 'error') return;
      lab.generation += 1;
      if (lab.record) forget(lab.record);
      drop();
      lab.record = null;
      ui.cleared();
      setPhase('idle');
    },
  };
}
