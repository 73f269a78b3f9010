// Section "train": does a model need positions? The lab trains small transformers side by side in the workers of
// a seqorder pool, from settings the reader chooses (experiments/train.mjs declares them; the URL's hash holds them,
// so a link reproduces a run bit for bit). Train, Pause, Resume, Step and Reset; live curves; checks and sentences
// computed from the run; accuracy on longer sentences; the reader's own sentence answered by every model, with
// attention maps; a conclusion from the runs; the run as JSON or CSV. The default run (the lesson's) starts when the
// section comes into view; its checks are pending until it has finished. The pieces: ../train/*.mjs.
import { version } from '../../lib/seqorder.mjs';
import { loadSeqorderPool } from '../../lib/pool/index.mjs';
import { renderChecks } from '../../lib/figures/checks.mjs';
import { count, fmt } from '../format.mjs';
import { recordDrawn } from '../drawn.mjs';
import { prose } from '../ui.mjs';
import { watchNear } from '../near.mjs';
import { SETTINGS, createRun, differInScaleOnly, measureRun, poolSize, runConfig, runHashes, secondTaskValues } from '../experiments/train.mjs';
import { conclusionChecks, conclusionSentences, curveSentences, figureChecks, lengthSentences, pendingChecks, runChecks, scalingSentences, setsSentence } from '../experiments/train-findings.mjs';
import { addChunk, newRecord, recordCsv, recordJson } from '../experiments/train-record.mjs';
import { conclusionFigure } from '../train/conclusion.mjs';
import { lengthsFigure } from '../train/lengths-figure.mjs';
import { mapsFigure } from '../train/maps-figure.mjs';
import { runFigure } from '../train/run-figure.mjs';
import { settingsFigure } from '../train/settings-figure.mjs';

export const settings = SETTINGS;
/** It makes models (to check a run's settings before the pool trains them): main.mjs loads the model module first. */
export const makesModels = true;

export async function run(so, root, state) {
  // The workers start now, while the page is surely online: a run needs nothing from the network later. As many as
  // keep this device's cores busy to the end of a run (poolSize), each holding one model or more.
  const cores = globalThis.navigator?.hardwareConcurrency;
  const workers = poolSize(cores);
  const poolReady = loadSeqorderPool({ workers });
  poolReady.catch(() => {});  // a failure is reported by the run that needs the pool
  const vocab = so.taskWords;
  const lab = {
    // runs: the last finished run of each task, and the last two that differ in the token vectors' scale only
    phase: 'idle', pool: null, run: null, record: null, runs: { order: null, lookback: null, scaling: null }, finished: [],
    elapsed: 0, since: 0, firstStarted: false,
  };

  prose(root,
    'Without positions, “robot follows person” and “person follows robot” hold the same words, and unmasked attention ' +
    'treats them alike. Small transformers learn here whether robot comes before person and, as a second task, the ' +
    'word k places back. Position enters by sinusoids, a learned table, rotary q and k, or not at all, with or ' +
    'without a causal mask.');
  const settingsView = settingsFigure(root, so, state, { onChange: () => settingsChanged(), onEnter: () => train() });
  const runs = runFigure(root, vocab.length, { train, pause, resume, step, reset, download });
  const lengths = lengthsFigure(root);
  const maps = mapsFigure(root, vocab, state);
  const conclusion = conclusionFigure(root, { secondTask, compareScale });
  recordDrawn(root.querySelector('#train-run'), 'run', () => lab.record);
  recordDrawn(root.querySelector('#train-conclusion'), 'runs', () => lab.runs);

  /**
   * Shows each check in its figure's list: the lengths figure's (beside its sentences, and the learned tables') with
   * the lengths, the others with the run.
   */
  function showChecks(checks) {
    const inLengths = (c) => c.name === 'train-lengths' || c.name.endsWith('-refuses');
    for (const list of [runs.checks, lengths.checks]) list.querySelectorAll('[data-check]').forEach((c) => c.remove());
    renderChecks(runs.checks, checks.filter((c) => !inLengths(c)));
    renderChecks(lengths.checks, checks.filter(inLengths));
  }

  function setPhase(phase) {
    lab.phase = phase;
    root.dataset.training = phase;
    runs.setPhase(phase, { refused: settingsView.refused().length > 0, hasRun: Boolean(lab.run) });
    settingsView.describe(lab.record?.config);
    offerRuns();
  }

  /** The conclusion's buttons: the second task until it has been run, and the run shown with the other scale. */
  function offerRuns() {
    const free = ['idle', 'done', 'error'].includes(lab.phase);
    const shown = lab.record?.state === 'done' && lab.phase === 'done' ? lab.record.config : null;
    const size = (config) => `${config.kinds.length * config.seeds.length} models × ${count(config.steps)} steps`;
    const next = runConfig(secondTaskValues(lab.record?.settings ?? state.values));
    const paired = shown && lab.runs.scaling && [lab.runs.scaling.scaled, lab.runs.scaling.unscaled].some((r) => r.config === shown);
    conclusion.offer({
      second: lab.runs.lookback ? null : { label: `Train the second task: the word ${next.back} places back (${size(next)})`, enabled: free },
      compare: !shown || paired ? null : {
        label: `Train the run shown again with the token vectors ${shown.embedScale ? 'as they are' : '× √D'} (${size(shown)})`, enabled: free,
      },
    });
  }

  function settingsChanged() {
    setPhase(lab.phase);
    if (!lab.run) showChecks(pendingChecks(runConfig(state.values), 'waiting for a run with these settings: press Train'));
    maps.redraw();
  }

  const elapsed = () => lab.elapsed + (lab.since ? performance.now() - lab.since : 0);
  const modelsWord = (config) => {
    const n = config.kinds.length * config.seeds.length;
    return config.seeds.length > 1 ? `${n} models (${config.kinds.length} kinds × seeds ${config.seeds.join(', ')})` : `${n} models`;
  };
  const progressText = () => {
    const { config } = lab.record;
    const done = lab.record.models.reduce((n, m) => n + m.steps, 0);
    const total = lab.record.models.length * config.steps;
    return `Training ${modelsWord(config)} in ${workers} workers: step ${count(Math.min(...lab.record.models.map((m) => m.steps)))} of ` +
      `${count(config.steps)}${runs.remaining(elapsed(), done, total)}.`;
  };
  const showProgress = () => {
    if (lab.phase === 'running') runs.status(progressText());
  };

  /** A new run of the current settings, its models created in the pool (nothing trains yet). */
  async function newRun() {
    if (settingsView.refused().length) return false;
    await disposeRun();
    const config = runConfig(state.values);
    lab.record = newRecord(config, state.values);
    lab.elapsed = 0;
    lab.since = 0;
    lab.firstStarted = true;
    runs.show(lab.record);
    lengths.wait('Measured when the run pauses or ends.');
    maps.hide('The models answer when the run pauses or ends.');
    showChecks(pendingChecks(config, `waiting for the run${config.seeds.length > 1 ? ` with seeds ${config.seeds.join(', ')}` : ` with seed ${config.seed}`} to finish`));
    setPhase('starting');
    runs.status(`Creating ${modelsWord(config)} in the pool’s workers…`);
    const started = performance.now();
    try {
      lab.pool ??= await poolReady;
      lab.run = await createRun(lab.pool, so, config, {
        onChunk: (i, chunk) => {
          addChunk(lab.record, i, chunk);
          runs.changed(showProgress);
        },
      });
      lab.elapsed = performance.now() - started;
      lab.record.timing = { created: Math.round(lab.elapsed) };
      return true;
    } catch (error) {
      failed(error);
      return false;
    }
  }

  async function disposeRun() {
    const old = lab.run;
    lab.run = null;
    maps.hide('The models answer when the run pauses or ends.');
    await old?.dispose();
  }

  /** Trains until the run stops (done, paused or an error), then measures it. */
  async function drive(going) {
    const current = lab.run;
    setPhase('running');
    lab.since = performance.now();
    showProgress();
    await going;
    if (lab.run !== current) return;  // reset meanwhile
    lab.elapsed += performance.now() - lab.since;
    lab.since = 0;
    await settle(current);
  }

  /** After the run stopped: hashes, measurements, checks, sentences, maps. */
  async function settle(current) {
    if (current.state === 'error') {
      failed(current.error);
      return;
    }
    const record = lab.record;
    record.timing.trained = Math.round(lab.elapsed);
    setPhase('measuring');
    runs.status(`Measuring the models at step ${count(current.step)}…`);
    const started = performance.now();
    try {
      const [hashes, measured] = await Promise.all([runHashes(current), measureRun(current)]);
      if (lab.run !== current) return;
      hashes.forEach((hash, i) => { record.models[i].hash = hash; });
      Object.assign(record, { state: current.state, step: current.step, measured, measuredAt: current.step });
    } catch (error) {
      if (lab.run === current) failed(error);
      return;
    }
    lab.elapsed += performance.now() - started;
    record.timing.measured = Math.round(lab.elapsed);
    const done = current.state === 'done';
    if (done) remember(record);
    runs.flush();
    const curvesSaid = [...curveSentences(record), ...setsSentence(record)];
    const lengthsSaid = lengthSentences(record);
    runs.sentences(curvesSaid);
    lengths.show(record, lengthsSaid);
    // first in each figure's list, the check beside its sentences
    showChecks([...figureChecks([...curvesSaid, ...lengthsSaid], record), ...(done ? runChecks(record) : [
      ...runChecks(record).filter((c) => !c.name.endsWith('-learns')),
      ...pendingChecks(record.config, '').filter((c) => c.name.endsWith('-learns')).map((c) => ({
        ...c, details: `the run is paused at step ${count(record.step)} of ${count(record.config.steps)}: this claim is about the fully trained models; press Resume`,
      })),
    ])]);
    const said = [...conclusionSentences(lab.runs), ...scalingSentences(lab.runs.scaling)];
    conclusion.show(said, conclusionChecks(said, lab.runs), lab.runs);
    // The phase changes when the models' answers and maps are drawn: the buttons below them are enabled where they
    // stay (a browser without scroll anchoring would move them under the reader's pointer).
    await maps.show(current);
    if (lab.run !== current) return;
    if (done) {
      runs.status(`Trained and measured in ${fmt(lab.elapsed / 1000, 2)} s: ${modelsWord(record.config)} × ` +
        `${count(record.config.steps)} steps in ${workers} workers${cores ? ` for the ${cores} cores this device reports` : ''}.`, lab.elapsed);
    } else {
      runs.status(`Paused at step ${count(record.step)} of ${count(record.config.steps)}: every model stands there. ` +
        'Resume goes on exactly where they stopped; Step trains 20 more steps.');
    }
    setPhase(current.state);
  }

  /** A finished run: the last of its task, and with an earlier one that differs in the scale only, a pair. */
  function remember(record) {
    lab.runs[record.config.task] = record;
    const partner = lab.finished.find((r) => differInScaleOnly(r.config, record.config));
    if (partner) lab.runs.scaling = record.config.embedScale ? { scaled: record, unscaled: partner } : { scaled: partner, unscaled: record };
    lab.finished = [record, ...lab.finished].slice(0, 8);
  }

  function failed(error) {
    console.error('train:', error);
    runs.status(`The run failed: ${error?.message ?? error}`);
    renderChecks(runs.checks, [{ name: 'train-ran', pass: false, claim: 'The training run ran', details: String(error?.message ?? error) }]);
    setPhase('error');
  }

  async function train() {
    if (!['idle', 'done', 'error'].includes(lab.phase)) return;
    if (await newRun()) await drive(lab.run.play());
  }
  async function pause() {
    if (lab.phase !== 'running') return;
    setPhase('pausing');
    runs.status(`Pausing: every model finishes the batches it was sent, up to step ${count(lab.run.target)}…`);
    lab.run.pause();
  }
  async function resume() {
    if (lab.phase === 'paused') await drive(lab.run.play());
  }
  async function step() {
    if (lab.phase === 'idle' && !(await newRun())) return;
    if (['starting', 'paused'].includes(lab.phase)) await drive(lab.run.advance());
  }
  async function reset() {
    if (!lab.run && lab.phase !== 'error') return;
    await disposeRun();
    lab.record = null;
    runs.show(null);
    lengths.wait('Measured when the run pauses or ends.');
    showChecks(pendingChecks(runConfig(state.values), 'reset: press Train or Step to start a run with the settings above'));
    runs.status('Reset: press Train, or Step to train 20 steps at a time.');
    setPhase('idle');
  }
  /** The conclusion's button: the second task, from the settings of the run shown (or the current ones). */
  async function secondTask() {
    if (!['idle', 'done', 'error'].includes(lab.phase)) return;
    settingsView.set(secondTaskValues(lab.record?.settings ?? state.values));
    await train();
  }
  /** The conclusion's button: the run shown again, with the token vectors scaled the other way. */
  async function compareScale() {
    if (lab.phase !== 'done' || !lab.record) return;
    settingsView.set({ ...lab.record.settings, embedScale: !lab.record.config.embedScale });
    await train();
  }
  function download(format) {
    if (!lab.record) return;
    const text = format === 'json' ? recordJson(lab.record, { version }) : recordCsv(lab.record);
    const blob = new Blob([text], { type: format === 'json' ? 'application/json' : 'text/csv' });
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = `seqorder-lab-${lab.record.config.task}-step${lab.record.step}.${format}`;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
  }

  runs.status('Not trained yet: the run starts when this section comes into view, or press Train.');
  showChecks(pendingChecks(runConfig(state.values), 'waiting for the run: it starts when this section comes into view, or press Train'));
  conclusion.show([], [], lab.runs);
  setPhase('idle');
  // The default run starts when the reader gets here, not before: it keeps every core busy for a few seconds.
  const inView = watchNear({ margin: 0 }, () => {
    inView.stop();
    if (lab.phase === 'idle' && !lab.firstStarted) train();
  });
  inView.watch(root.closest('section'));
}
