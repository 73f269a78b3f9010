// Section "lab": does a model need positions? The lab trains small transformers side by side in the workers of a
// seqorder pool, from settings the reader chooses (config.mjs declares them; the URL's hash holds them, so a link
// reproduces a run bit for bit). Train, Pause, Resume, Step and Reset (controller.mjs); live curves; accuracy on
// longer sentences; the reader's own sentence answered by every model, with attention maps; what the runs say, every
// claim a check computed from the run and read again from what is drawn (findings.mjs); the run as JSON or CSV. The
// lesson's run starts when the section comes into view (unless a link asks for a long or large one, which waits for
// the reader's press); its checks are pending until it has finished.
import { version } from '../../lib/seqorder.mjs';
import { loadSeqorderPool } from '../../lib/pool/index.mjs';
import { showChecks } from '../claims.mjs';
import { drawnIn, recordDrawn } from '../drawn.mjs';
import { el, prose } from '../ui.mjs';
import { settingsHash } from '../url-state.mjs';
import { watchNear } from '../near.mjs';
import { afterNextFrame } from '../next-frame.mjs';
import { SETTINGS, runConfig, secondTaskValues } from './config.mjs';
import { createLab } from './controller.mjs';
import { checkOf, conclusionClaims, curveClaims, pendingChecks, probeChecks, probeClaims, propertyChecks } from './findings.mjs';
import { lengthsView } from './facts.mjs';
import { recordCsv, recordJson } from './record.mjs';
import { poolSize } from './run.mjs';
import { conclusionFigure } from './conclusion-figure.mjs';
import { lengthsFigure } from './lengths-figure.mjs';
import { mapsFigure } from './maps-figure.mjs';
import { offsetsFigure } from './offsets-figure.mjs';
import { probeFigure } from './probe-figure.mjs';
import { runFigure } from './run-figure.mjs';
import { settingsFigure } from './settings-figure.mjs';
import { stretchFigure } from './stretch-figure.mjs';

export const settings = SETTINGS;
/** It makes models (to check a run's settings before the pool trains them): main.mjs loads the model module first. */
export const makesModels = true;

/**
 * The other page the lab runs on, linked with the run shown (or the settings, before a run): from the lesson, the
 * bench page (lab.html); from the bench page, the lesson's section lab.
 */
const ELSEWHERE = {
  lesson: { label: 'Open this run in the lab', href: (values) => `lab.html${settingsHash(SETTINGS, values)}` },
  bench: { label: 'Back to the lesson, with this run', href: (values) => `index.html${settingsHash(SETTINGS, values, { anchor: 'lab' })}` },
};

/** Runs the lab in `root`: on the lesson page (`page` 'lesson'), or on the bench page (lab.html, 'bench'). */
export async function run(so, root, state, { page = 'lesson' } = {}) {
  // The workers start now, while the page is surely online: a run needs nothing from the network later. As many as
  // keep this device's cores busy to the end of a run (poolSize), each holding one model or more.
  const cores = globalThis.navigator?.hardwareConcurrency ?? 2;
  const workers = poolSize(cores);
  const poolReady = loadSeqorderPool({ workers });
  poolReady.catch(() => {});  // a failure is reported by the run that needs the pool
  const section = root.closest('section');
  let ready = false;
  // On the bench page the settings (and the link back) sit in a column of their own beside the results.
  const [side, results] = page === 'bench' ? [el('div', { className: 'lab-side' }), el('div', { className: 'lab-results' })] : [root, root];
  if (page === 'bench') root.append(side, results);

  prose(side, page === 'lesson'
    ? 'Small transformers learn here whether robot comes before person, with sinusoids, other positions or none, with or ' +
      'without a causal mask (each word sees only those before it).'
    : 'Small transformers learn the task chosen below, each with its way of giving positions (or none), with or without a ' +
      'causal mask (each word sees only those before it); each is then measured at the lengths it trained on and at 2×, 4× ' +
      'and 8× the longest.');
  const settingsView = settingsFigure(side, so, state, { page, onChange: () => ready && settingsChanged(), onEnter: () => lab.train() });
  const elsewhere = el('a', { id: 'lab-elsewhere', href: ELSEWHERE[page].href(state.values) }, ELSEWHERE[page].label);
  side.append(el('p', { className: 'lab-elsewhere' }, elsewhere, '.'));
  const linkElsewhere = () => { elsewhere.href = ELSEWHERE[page].href(lab.lab.record?.settings ?? state.values); };
  const runs = runFigure(results, so.taskWords.length, {
    train: () => lab.train(), pause: () => lab.pause(), resume: () => lab.resume(), step: () => lab.step(), reset: () => lab.reset(), download,
  });
  const lengths = lengthsFigure(results, { map: page === 'bench' });
  const maps = mapsFigure(results, so.taskWords, state, { make: (options) => so.createModel(options) });
  // the bench page's: the positions each model's final vectors give back (the lesson keeps to its word count)
  const offsets = page === 'bench' ? offsetsFigure(results) : null;
  const probe = page === 'bench' ? probeFigure(results) : null;
  const stretch = page === 'bench' ? stretchFigure(results, { so, pool: () => poolReady }) : null;
  const conclusion = conclusionFigure(results, { secondTask, compareScale });
  recordDrawn(root.querySelector('#lab-run'), 'record', () => lab.lab.record);

  const lab = createLab({
    so, workers, cores, pool: () => poolReady, values: () => state.values, refused: () => settingsView.refused(), probe: Boolean(probe),
    ui: {
      phase: setPhase,
      status: (text, ms) => runs.status(text, ms),
      started(record) {
        runs.show(record);
        lengths.wait('Measured when the run pauses or ends.');
        maps.hide('The models answer when the run pauses or ends.');
        offsets?.hide();
        stretch?.hide();
        pending(record.config, `waiting for ${record.name} to finish`);
        conclude();
      },
      progress: (then) => runs.changed(then),
      async measured(current, record) {
        // one figure a frame (each with its checks), so that the page answers input between them; a run dropped
        // meanwhile (Reset) draws no more
        const shown = async () => {
          await afterNextFrame();
          return lab.lab.run === current;
        };
        runs.flush();
        if (!(await shown())) return;
        lengths.show(record);
        const drawn = drawnIn(section);
        show(runs.checks, [...curveClaims(record).map((c) => checkOf(c, drawn)), ...propertyChecks(record).filter((c) => !c.name.endsWith('-refuses'))]);
        show(lengths.checks, propertyChecks(record).filter((c) => c.name.endsWith('-refuses')));
        if (probe) {
          if (!(await shown())) return;
          probe.show(record);
          const probed = drawnIn(section);
          show(probe.checks, [...probeClaims(record).map((c) => checkOf(c, probed)), ...probeChecks(record)]);
        }
        if (!(await shown())) return;
        conclude();
        // The phase changes once the models' answers and maps are drawn: the buttons below them are enabled where they
        // stay (a browser without scroll anchoring would move them under the reader's pointer).
        stretch?.show(current, record);
        if (!(await shown())) return;
        const [, drawnOffsets] = await Promise.all([maps.show(current, lengthsView(record)), offsets?.show(current)]);
        if (drawnOffsets) record.offsets = drawnOffsets;
      },
      cleared() {
        runs.show(null);
        lengths.wait('Measured when the run pauses or ends.');
        maps.hide('The models answer when the run pauses or ends.');
        offsets?.hide();
        stretch?.hide();
        pending(runConfig(state.values), 'reset: press Train or Step to start a run with the settings above');
        conclude();
        runs.status('Reset: press Train, or Step to train 20 steps at a time.');
      },
      failed(error) {
        console.error('lab:', error);
        show(runs.checks, [{ name: 'lab-ran', pass: false, claim: 'The training run ran', details: String(error?.message ?? error) }]);
      },
    },
  });

  /** Replaces the checks of `list` by `checks` (claims with their predicates kept for the tests: claims.mjs). */
  function show(list, checks) {
    list.querySelectorAll('[data-check]').forEach((c) => c.remove());
    showChecks(list, checks);
  }

  /** The checks a run of `config` will show, pending: `why` says what they wait for. */
  function pending(config, why) {
    const checks = pendingChecks(config, why);
    show(runs.checks, checks.filter((c) => !c.name.endsWith('-refuses')));
    show(lengths.checks, checks.filter((c) => c.name.endsWith('-refuses')));
    if (probe) {
      probe.wait('Probed when the run pauses or ends.');
      show(probe.checks, [{ name: 'lab-probe', pending: true, claim: 'The positions a readout of each model’s final vectors names', details: why }]);
    }
  }

  /** The conclusion's claims, from the runs the lab has finished (and not reset), each a check. */
  function conclude() {
    conclusion.show(lab.lab.runs);
    const drawn = drawnIn(section);
    show(conclusion.checks, conclusionClaims(lab.lab.runs).map((c) => checkOf(c, drawn)));
  }

  function setPhase(phase) {
    root.dataset.training = phase;
    const { record } = lab.lab;
    runs.setPhase(phase, { refused: settingsView.refused().length > 0, hasRun: Boolean(lab.lab.run) });
    settingsView.describe(record?.config, lab.costWords());
    offerRuns();
    linkElsewhere();
  }

  /** The conclusion's buttons: the second task until it has been run, and the run shown with the other scale. */
  function offerRuns() {
    const free = ['idle', 'done', 'error'].includes(lab.lab.phase);
    const { record, runs: finished } = lab.lab;
    const shown = record?.state === 'done' && lab.lab.phase === 'done' ? record.config : null;
    const size = (config) => `${config.kinds.length * config.seeds.length} models × ${config.steps} steps`;
    const next = runConfig(secondTaskValues(record?.settings ?? state.values));
    const paired = shown && finished.scaling && [finished.scaling.scaled, finished.scaling.unscaled].some((r) => r.config === shown);
    conclusion.offer({
      second: finished.lookback ? null : { label: `Train the second task: the word ${next.back} back (${size(next)})`, enabled: free },
      compare: !shown || paired ? null : {
        label: `Compare: the run shown with token vectors ${shown.embedScale === 1 ? '× √D' : 'as they are'} (${size(shown)})`, enabled: free,
      },
    });
  }

  function settingsChanged() {
    setPhase(lab.lab.phase);
    const why = settingsView.refused().map((r) => r.message).join('; ');
    if (!lab.lab.run && !lab.lab.record) pending(runConfig(state.values), why ? `not run: ${why}` : 'waiting for a run with these settings: press Train');
    maps.redraw();
  }

  /** The conclusion's button: the second task, from the settings of the run shown (or the current ones). */
  async function secondTask() {
    if (!['idle', 'done', 'error'].includes(lab.lab.phase)) return;
    settingsView.set(secondTaskValues(lab.lab.record?.settings ?? state.values));
    await lab.train();
  }
  /** The conclusion's button: the run shown again, with the token vectors scaled the other way. */
  async function compareScale() {
    const { record } = lab.lab;
    if (lab.lab.phase !== 'done' || !record) return;
    settingsView.set({ ...record.settings, embedScale: record.config.embedScale === 1 ? 'sqrtWidth' : 1 });
    await lab.train();
  }
  function download(format) {
    const { record } = lab.lab;
    if (!record) return;
    const text = format === 'json' ? recordJson(record, { version }) : recordCsv(record);
    const blob = new Blob([text], { type: format === 'json' ? 'application/json' : 'text/csv' });
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = `seqorder-lab-${record.config.task}-step${record.step}.${format}`;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
  }

  ready = true;
  const refused = settingsView.refused().map((r) => r.message).join('; ');
  runs.status(refused ? `Not run: ${refused}.` : 'Not trained yet: the run starts when this section comes into view, or press Train.');
  pending(runConfig(state.values), refused ? `not run: ${refused}` : 'waiting for the run: it starts when this section comes into view, or press Train');
  conclude();
  setPhase('idle');
  // Meanwhile the pool's workers warm up for it, one model at a time (warm-up.mjs): the section's data-warm-up says in
  // how many milliseconds.
  lab.warmUp().then(({ models, ms }) => { if (models) root.dataset.warmUp = String(Math.round(ms)); });
  // The lesson's run starts when the reader gets here, not before: it keeps every core busy for a few seconds.
  const inView = watchNear({ margin: 0 }, () => {
    inView.stop();
    if (lab.lab.phase === 'idle' && !lab.lab.record) lab.trainInView();
  });
  inView.watch(section);
}
