// The lab's run figure: Train, Pause, Resume, Step and Reset; the status and the progress bar; the live loss and
// accuracy curves (the median over seeds, the range as a band, chance as a dashed line); the models' table (steps,
// loss, accuracy, parameter hash); the curves' claims, each a check, and the checks of what the architecture
// guarantees; the downloads. It draws a run's record (record.mjs) and records the curves as drawn ("curves": the view
// the curves' claims are read again from).
import { button, controlGroup } from '../controls.mjs';
import { count, fmt } from '../format.mjs';
import { checkList } from '../../lib/figures/checks.mjs';
import { drawnPlot, recordDrawn } from '../drawn.mjs';
import { linePlot } from '../../lib/figures/plot/index.mjs';
import { el, fig, more, perFrame, titledBlock } from '../ui.mjs';
import { kindOf } from './config.mjs';
import { curvesView, kindCurve } from './facts.mjs';
import { capital, percent } from './findings.mjs';
import { CHUNK } from './run.mjs';
import { VALIDATION_COUNT, setWords, validationLength } from './tasks.mjs';
import { labTable } from './table.mjs';

/** While a run trains, the curves and the table are redrawn at most this often: the page's own thread stays free. */
const REDRAW_MS = 250;

/** The buttons each phase of the lab enables (the others are disabled), and the one that takes the focus. */
const ENABLED = {
  idle: ['train', 'step'],
  starting: [],
  running: ['pause', 'reset'],
  pausing: [],
  measuring: [],
  paused: ['resume', 'step', 'reset'],
  done: ['train', 'reset'],
  error: ['train', 'reset'],
};
const FOCUS = { idle: 'train', running: 'pause', paused: 'resume', done: 'train', error: 'train' };

/** The line chance draws on the accuracy curves: a guess's accuracy at every step. */
const chanceLine = (view) => ({ name: 'chance', x: [0, view.steps], y: [100 * view.chance, 100 * view.chance], color: 'gray', dashed: true, width: 1 });

/**
 * The figure (`vocab`: the tasks' words). `actions`: { train, pause, resume, step, reset, download(format) }. Returns what the lab updates.
 */
export function runFigure(root, vocab, actions) {
  const f = fig(root, { title: 'The models, trained live', id: 'lab-run' });
  const group = controlGroup(f, 'the training run');
  const buttons = {
    train: button(group, { id: 'lab-train', label: 'Train', onClick: actions.train }),
    pause: button(group, { id: 'lab-pause', label: 'Pause', onClick: actions.pause }),
    resume: button(group, { id: 'lab-resume', label: 'Resume', onClick: actions.resume }),
    step: button(group, { id: 'lab-step', label: `Step (${CHUNK} Adam steps)`, onClick: actions.step }),
    reset: button(group, { id: 'lab-reset', label: 'Reset', onClick: actions.reset }),
  };
  const status = el('p', { className: 'lab-status', role: 'status' });
  const progress = el('progress', { id: 'lab-progress', max: 1, value: 0 });
  const progressLabel = el('label', { htmlFor: 'lab-progress' }, 'Adam steps taken, all models');
  f.append(status, el('div', { className: 'lab-progress' }, progressLabel, progress));
  const curvesRow = el('div', { className: 'plot-row' });
  f.append(curvesRow);
  const lossTitle = titledBlock(curvesRow, 'training loss');
  const lossPlot = drawnPlot('loss', linePlot(lossTitle, {
    series: [], xLabel: 'Adam step', yLabel: 'loss', yLog: true, xRange: [0, 800], integerX: true, height: 240,
    ariaLabel: 'training loss of each model against the Adam step (log scale)',
  }));
  const accuracyTitle = titledBlock(curvesRow, 'accuracy on the held-out sentences');
  const accuracyPlot = linePlot(accuracyTitle, {
    series: [], xLabel: 'Adam step', yLabel: 'accuracy (%)', xRange: [0, 800], yRange: [0, 100], integerX: true, height: 240,
    ariaLabel: 'held-out accuracy of each model against the Adam step, and chance',
  });
  // what the accuracy curves draw, as the curves' claims read it again: the view the series were made from
  let drawnCurves = null;
  recordDrawn(accuracyPlot.figure ?? accuracyPlot.element, 'curves', () => drawnCurves);
  const table = labTable(f, { caption: '' });
  const why = more(f, 'Why 50% without positions',
    'Without positions the block is permutation-equivariant: reordering the words reorders its outputs, and nothing else. ' +
    'The mean over positions is blind to order, and a mirror (robot and person swapped) is a reordering of the same words.',
    'So a sentence and its mirror get the same logits, up to float32 rounding (sums taken in another order), hence one ' +
    'answer for both; their true answers are opposite, so one of the two is right (chance), unless the two logits tie so ' +
    'closely that rounding tips the two answers apart.');
  const details = more(f, 'How the models train; the hash', '');
  const checks = checkList(f, 'Checked against the curves', { foldDetails: true });
  const downloads = el('div', { className: 'lab-downloads' }, el('span', {}, 'Download the run: '));
  f.append(downloads);
  const download = {
    json: button(downloads, { id: 'lab-download-json', label: 'JSON', onClick: () => actions.download('json') }),
    csv: button(downloads, { id: 'lab-download-csv', label: 'CSV', onClick: () => actions.download('csv') }),
  };

  let record = null;
  let firstEnded = false;
  let focusOwed = false;
  let lastDraw = -Infinity;
  let redrawTimer = 0;
  let afterDraw = () => {};

  /** The curves and the table from the record (at most once a frame). */
  function drawNow() {
    if (!record) return;
    const { config } = record;
    const view = curvesView(record);
    const bands = config.seeds.length > 1;
    const series = (measure) => view.kinds.map(({ key, label }) => {
      const models = record.models.filter((m) => m.key === key);
      const points = measure === 'accuracy' ? kindCurve(models) : kindCurve(models.map((m) => ({ curve: { step: m.curve.step, accuracy: m.curve.loss } })));
      const scale = measure === 'accuracy' ? 100 : 1;
      return {
        name: label, dashed: kindOf(key).causal, x: points.map((p) => p.step), y: points.map((p) => scale * p.median),
        ...(bands ? { lo: points.map((p) => scale * p.min), hi: points.map((p) => scale * p.max) } : {}),
      };
    });
    lossPlot.update({ series: series('loss'), xRange: [0, config.steps] });
    accuracyPlot.update({ series: [...series('accuracy'), chanceLine(view)], xRange: [0, config.steps] });
    drawnCurves = view;
    const hashes = record.models.some((m) => m.hash);
    table.show(['model', ...(bands ? ['seed'] : []), 'steps', 'loss', 'accuracy', ...(hashes ? ['parameters, SHA-256'] : [])],
      record.models.map((m) => [m.label, ...(bands ? [String(m.seed)] : []), count(m.steps),
        Number.isNaN(m.loss) ? '–' : fmt(m.loss, 3), Number.isNaN(m.accuracy) ? '–' : percent(m.accuracy),
        ...(hashes ? [m.hash ? `${m.hash.slice(0, 16)}…` : '–'] : [])]));
    progress.max = record.models.length * config.steps;
    progress.value = record.models.reduce((n, m) => n + m.steps, 0);
  }
  const draw = perFrame(() => {
    drawNow();
    afterDraw();
  });

  return {
    checks,
    /** Enables the buttons of `phase` (nothing to start while `refused`); moves the focus off a button it disables. */
    setPhase(phase, { refused = false, hasRun = false } = {}) {
      if (phase === 'done') firstEnded = true;
      buttons.train.textContent = firstEnded ? 'Train again' : 'Train';
      const enabled = new Set(ENABLED[phase]);
      if (refused) ['train', 'step'].forEach((b) => enabled.delete(b));
      const focused = Object.values(buttons).includes(document.activeElement) ? document.activeElement : null;
      for (const [name, b] of Object.entries(buttons)) b.disabled = !enabled.has(name);
      for (const b of Object.values(download)) b.disabled = !hasRun || !['paused', 'done'].includes(phase);
      const lost = focused?.disabled || (focusOwed && (document.activeElement === document.body || document.activeElement === null));
      if (lost) {
        const next = buttons[FOCUS[phase]];
        const target = next && !next.disabled ? next : Object.values(buttons).find((b) => !b.disabled);
        target?.focus();
        focusOwed = !target;
      }
    },
    /** A new record to draw (a new run, or none: null). */
    show(next) {
      record = next;
      drawnCurves = null;
      if (!record) {
        lossPlot.update({ series: [] });
        accuracyPlot.update({ series: [] });
        table.show(['model', 'steps', 'loss', 'accuracy'], []);
        progress.value = 0;
        return;
      }
      const { config } = record;
      const T = validationLength(config);
      const sets = setWords(config, VALIDATION_COUNT);
      const band = config.seeds.length > 1 ? '; the median of the seeds, their range a band' : '';
      accuracyTitle.heading.textContent = `held-out accuracy (${sets}, T = ${T})${band}`;
      lossTitle.heading.textContent = `training loss (the mean of every ${CHUNK} steps)${band}`;
      progressLabel.textContent = `Adam steps taken, all ${record.models.length} models`;
      table.show(['model'], [], { caption: `${capital(record.name)}: each model at its last step (chance ${percent(curvesView(record).chance)}).` });
      why.hidden = config.task !== 'order' || !config.kinds.includes('none');
      showDetails(details, config, vocab);
      draw();
    },
    /** Draws the record now (the run has stopped: what is shown is final). */
    flush() {
      clearTimeout(redrawTimer);
      redrawTimer = 0;
      lastDraw = performance.now();
      drawNow();
    },
    /** The record has changed (a chunk): redrawn soon, at most once every REDRAW_MS, and then(), the status's. */
    changed(then = () => {}) {
      afterDraw = then;
      const wait = REDRAW_MS - (performance.now() - lastDraw);
      if (wait <= 0) {
        lastDraw = performance.now();
        draw();
      } else if (!redrawTimer) {
        redrawTimer = setTimeout(() => {
          redrawTimer = 0;
          lastDraw = performance.now();
          draw();
        }, wait);
      }
    },
    status(text, milliseconds) {
      status.textContent = text;
      if (milliseconds === undefined) delete status.dataset.milliseconds;
      else status.dataset.milliseconds = String(Math.round(milliseconds));
    },
  };
}

function showDetails(details, config, vocab) {
  const sentences = {
    order: 'Each sentence holds robot and person once among other words; the model says whether robot comes first (one answer a sentence: the mean over positions, then a readout to two classes).',
    lookback: `Each sentence is words drawn at random; at every position t ≥ ${config.back} the model names the word ${config.back} back (one answer a position, over the ${vocab} words).`,
    induction: `Each sentence is words drawn at random; at every position whose word came before, the model names the word that followed it the last time (“… A B … A → B”; one answer a position, over the ${vocab} words; Olsson et al., 2022, call the heads that do it induction heads).`,
  }[config.task];
  details.replaceChildren(details.querySelector('summary'));
  for (const text of [sentences,
    `Each model: the task’s words looked up in a table of width ${config.width}, positions (or none), ${config.layers} ` +
    `pre-norm block${config.layers > 1 ? 's' : ''} (attention with ${config.heads} head${config.heads > 1 ? 's' : ''}, then a small MLP), ` +
    `and a readout, in float32. Training: ${config.steps} Adam steps at learning rate ${config.lr}, 32 sentences a step, ` +
    `their length cycling through ${config.shortest} … ${config.longest}. The seed s draws a model’s initial parameters and ` +
    'every sentence it sees: step k’s from seed 1,000,000 s + 1000 + k, the held-out ones from 1,000,000 s + 7, those of the ' +
    'lengths table at T from 1,000,000 s + 500 + T; so the models of one seed see the same sentences, and three seeds vary ' +
    'the data as well as the initial parameters. At the lesson’s settings this is the training of the project’s PyTorch ' +
    'reference (bench/model_reference.py).',
    'Each model lives in a worker of a seqorder pool (loadSeqorderPool, pool.createModel), a worker holding one model or more: ' +
    `the page sends each model ${CHUNK} batches at a time, never more than ${CHUNK} steps past the slowest, and draws what ` +
    'comes back. Pause stops every model at the first step they can all stand at; Resume sends the next batches. The ' +
    'arithmetic has no source of chance (no sum split across threads, no fast-math), so the settings alone decide every ' +
    'bit of the parameters. The last column lets two runs be compared: the first 16 hex digits of the SHA-256 of the ' +
    'model’s parameters, their bytes in order.']) {
    details.append(el('p', {}, text));
  }
}
