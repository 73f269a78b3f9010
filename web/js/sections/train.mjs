// Section "train": does a model need positions? Five small transformers learn the order task side by side, each in
// its own worker of a seqorder pool (loadSeqorderPool's models: the package's worker protocol), from the reader's
// seed: live loss and accuracy curves, checks computed from the run, accuracy on longer sentences, a hash of each
// model's parameters, and the trained models' attention maps for a sentence the reader composes. The default run
// starts when the section comes into view (or on Train); its checks are pending until it has finished. The experiment
// is experiments/train.mjs; this module draws it.
import { loadSeqorderPool } from '../../lib/seqorder.mjs';
import { button, controlGroup, numberInput, select } from '../controls.mjs';
import { count, fmt } from '../format.mjs';
import { checkList, renderChecks } from '../../lib/figures/checks.mjs';
import { heatmapGrid, linePlot } from '../../lib/figures/plot/index.mjs';
import { el, fig, more, notice, numbersTable, perFrame, prose, titledBlock } from '../ui.mjs';
import {
  ARCHITECTURE, CHUNK, DEFAULT_SEED, EVALUATION_LENGTHS, LONGER_LENGTHS, SETUPS, TRAINING, VALIDATION,
  curveFindings, evaluateModels, lengthFindings, parameterHash, pendingChecks, trainModels, trainingChecks,
} from '../experiments/train.mjs';

const MAX_SEED = 1e9;
const SENTENCE = ['the', 'robot', 'follows', 'the', 'person', 'near', 'a', 'box'];
const SHORTEST = 3;

export async function run(so, root) {
  // The workers start now, while the page is surely online: a run needs nothing from the network later.
  const poolReady = loadSeqorderPool({ workers: SETUPS.length });
  poolReady.catch(() => {});  // a failure is reported by the run that needs the pool
  const state = { phase: 'idle', stop: false, pool: null, models: null };

  prose(root,
    'Attention alone cannot tell where a token is: without positions, “robot follows person” and “person follows ' +
    'robot” hold the same words, and unmasked attention treats them alike, up to moving its rows. Here a model has ' +
    'to learn the difference. Each sentence holds <em>robot</em> and <em>person</em> once among other words, and the ' +
    'model must say whether robot comes first.',
    `Five small transformers learn it side by side, each in its own Web Worker, on the same sentences: one layer, ` +
    `${ARCHITECTURE.heads} heads, width ${ARCHITECTURE.width}. They differ only in where position enters: nowhere, ` +
    'added sinusoids, an added learned table, rotary q and k, or nowhere but with a causal mask.');
  const runs = runFigure(root, so.taskWords.length, { start: () => start(), stop: () => { state.stop = true; } });
  const lengths = lengthsFigure(root);
  const maps = mapsFigure(root, so.taskWords);

  /** Shows each check in its figure's list: the learned table's refusal with the lengths, the others with the run. */
  const showChecks = (checks) => {
    renderChecks(runs.checks, checks.filter((c) => c.name !== 'train-learned-refuses'));
    renderChecks(lengths.checks, checks.filter((c) => c.name === 'train-learned-refuses'));
  };

  function setPhase(phase) {
    state.phase = phase;
    root.dataset.training = phase;
    runs.setPhase(phase);
  }

  async function start() {
    if (state.phase === 'running') return;
    const seed = runs.readSeed();
    if (seed === null) return;
    setPhase('running');
    state.stop = false;
    const started = performance.now();
    maps.hide();
    await Promise.all((state.models ?? []).map((model) => model.dispose()));
    state.models = null;
    runs.reset(seed);
    lengths.wait('Measured when a run has finished.');
    showChecks(pendingChecks(`waiting for the run with seed ${seed} to finish`));
    try {
      state.pool ??= await poolReady;
      const { models, steps } = await trainModels(state.pool, so, { seed, onChunk: runs.onChunk, stopped: () => state.stop });
      state.models = models;
      runs.hashes(await Promise.all(models.map(async (model) => parameterHash(await model.parameters()))));
      const at = Math.min(...steps);
      if (at === TRAINING.steps) {
        const evaluation = await evaluateModels(models, so);
        showChecks(trainingChecks(evaluation));
        lengths.show(evaluation);
        runs.finished(performance.now() - started);
        setPhase('done');
      } else {
        runs.stopped(at);
        lengths.wait(`The run was stopped at step ${count(at)}: lengths are measured after a full run.`);
        showChecks(pendingChecks(`the run with seed ${seed} was stopped at step ${count(at)} of ${count(TRAINING.steps)}: ` +
          'these claims are about fully trained models; press Train again'));
        setPhase('stopped');
      }
      maps.show(models, at);
    } catch (error) {
      console.error('train:', error);
      runs.failed(error);
      renderChecks(runs.checks, [{ name: 'train-ran', pass: false, claim: 'The training run ran', details: String(error?.message ?? error) }]);
      setPhase('error');
    }
  }

  setPhase('idle');
  showChecks(pendingChecks('waiting for the run: it starts when this section comes into view, or press Train'));
  // The default run starts when the reader gets here, not before: it keeps every core busy for a few seconds.
  if (typeof IntersectionObserver === 'function') {
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) {
        observer.disconnect();
        if (state.phase === 'idle') start();
      }
    });
    observer.observe(root.closest('section'));
  } else start();
}

/**
 * The run's figure: seed, Train and Stop, status, progress, the live curves, the models' table (steps, loss,
 * accuracy, hash) and the run's checks. `actions`: { start, stop }. Returns what the run updates.
 */
function runFigure(root, vocab, actions) {
  const f = fig(root, { title: 'Five models, trained live', id: 'train-run' });
  const group = controlGroup(f, 'the training run');
  const seedInput = numberInput(group, {
    id: 'train-seed', label: 'Seed', min: 0, max: MAX_SEED, value: DEFAULT_SEED, onEnter: actions.start,
    hint: 'draws the initial parameters; the sentences are the same for every seed',
  });
  const trainButton = button(group, { id: 'train-start', label: 'Train', onClick: actions.start });
  const stopButton = button(group, { id: 'train-stop', label: 'Stop', onClick: actions.stop });
  const status = el('p', { className: 'train-status', role: 'status' },
    'Not trained yet: the run starts when this section comes into view, or press Train.');
  const progress = el('progress', { id: 'train-progress', max: SETUPS.length * TRAINING.steps, value: 0 });
  f.append(status, el('div', { className: 'train-progress' }, el('label', { htmlFor: 'train-progress' }, 'Adam steps taken, all five models'), progress));
  const curvesRow = el('div', { className: 'plot-row' });
  f.append(curvesRow);
  const emptyCurves = () => SETUPS.map((s) => ({ name: s.label, x: [], y: [], dashed: s.key === 'causal' }));
  const lossPlot = linePlot(titledBlock(curvesRow, `training loss, the mean of every ${CHUNK} steps`), {
    series: emptyCurves(), xLabel: 'Adam step', yLabel: 'loss', yLog: true, xRange: [0, TRAINING.steps], integerX: true,
    height: 240, ariaLabel: 'training loss of each model against the Adam step (log scale)',
  });
  const accuracyPlot = linePlot(titledBlock(curvesRow, `accuracy on ${VALIDATION.count / 2} held-out sentence–mirror pairs, T = ${VALIDATION.length}`), {
    series: emptyCurves(), xLabel: 'Adam step', yLabel: 'accuracy (%)', xRange: [0, TRAINING.steps], yRange: [40, 100],
    integerX: true, height: 240, ariaLabel: 'held-out accuracy of each model against the Adam step',
  });
  const table = numbersTable(f, { caption: 'each model: Adam steps, the last loss, held-out accuracy, and a hash of its parameters' });
  const WATCH = 'whether each accuracy curve leaves 50%, the score of a coin toss, and how soon.';
  const line = notice(f, WATCH);
  more(f, 'The models, their training, and the hash',
    `Each model: the task’s ${vocab} words looked up in a table of width ${ARCHITECTURE.width}, positions ` +
    `(or none), one pre-norm block (attention with ${ARCHITECTURE.heads} heads, then a small MLP), the mean over ` +
    `positions, and a readout to two classes, in float32. Training: ${TRAINING.steps} Adam steps at learning rate ` +
    `${TRAINING.lr}, ${TRAINING.batch} sentences a step, their length cycling through ${TRAINING.shortest} … ` +
    `${TRAINING.longest}; step k draws its sentences from seed 1000 + k, so every model and every seed sees the same ` +
    'ones. The seed above draws the initial parameters. The setup is the one of the project’s PyTorch reference ' +
    '(bench/model_reference.py), which trains the same architecture on the same sentences.',
    'Each model lives in its own worker of a seqorder pool (<code>loadSeqorderPool</code>, <code>pool.createModel</code>): ' +
    `the page sends it ${CHUNK} batches at a time and draws what comes back. The arithmetic is deterministic, so the ` +
    'same seed gives the same curves, bit for bit, in every browser and on every machine. The last column shows it: ' +
    'the first 16 hex digits of the SHA-256 of the model’s parameters, their bytes in order.');
  const checks = checkList(f);

  const curves = SETUPS.map(() => []);
  const rows = SETUPS.map((s) => ({ label: s.label, step: 0, loss: NaN, accuracy: NaN, hash: '' }));
  const showRows = perFrame(() => {
    table.show(['model', 'steps', 'loss', 'accuracy', 'parameters, SHA-256'],
      rows.map((r) => [r.label, count(r.step), Number.isNaN(r.loss) ? '–' : fmt(r.loss, 3),
        Number.isNaN(r.accuracy) ? '–' : `${fmt(100 * r.accuracy, 3)}%`, r.hash ? `${r.hash.slice(0, 16)}…` : '–']));
    progress.value = rows.reduce((n, r) => n + r.step, 0);
  });
  showRows();

  return {
    checks,
    setPhase(phase) {
      trainButton.disabled = phase === 'running';
      stopButton.disabled = phase !== 'running';
      trainButton.textContent = phase === 'idle' ? 'Train' : 'Train again';
    },
    /** The seed field: a whole number 0 … MAX_SEED, or null (and the status says why). */
    readSeed() {
      const seed = Number(seedInput.value);
      if (seedInput.value.trim() !== '' && Number.isInteger(seed) && seed >= 0 && seed <= MAX_SEED) return seed;
      status.textContent = `The seed must be a whole number from 0 to ${count(MAX_SEED)}.`;
      return null;
    },
    /** Empty curves and table for a new run. */
    reset(seed) {
      lossPlot.update({ series: emptyCurves() });
      accuracyPlot.update({ series: emptyCurves() });
      curves.forEach((c) => c.splice(0));
      rows.forEach((r) => Object.assign(r, { step: 0, loss: NaN, accuracy: NaN, hash: '' }));
      showRows();
      line.textContent = WATCH;
      status.textContent = `Training five models with seed ${seed}, each in its own worker…`;
    },
    /** Model i's last CHUNK steps (trainModels' onChunk): a point on each curve, its row of the table. */
    onChunk(i, { step, losses, accuracy }) {
      lossPlot.append(SETUPS[i].label, step, losses.reduce((a, b) => a + b, 0) / losses.length);
      accuracyPlot.append(SETUPS[i].label, step, 100 * accuracy);
      curves[i].push({ step, accuracy });
      Object.assign(rows[i], { step, loss: losses.at(-1), accuracy });
      showRows();
    },
    /** The run has ended: each model's parameter hash, and what its curves show. */
    hashes(hashes) {
      hashes.forEach((hash, i) => { rows[i].hash = hash; });
      showRows();
      line.textContent = curveFindings(curves);
    },
    finished(milliseconds) {
      const cores = globalThis.navigator?.hardwareConcurrency;
      status.textContent = `Trained and measured in ${fmt(milliseconds / 1000, 2)} s: ${SETUPS.length} models × ` +
        `${count(TRAINING.steps)} steps in ${SETUPS.length} workers${cores ? ` on this device’s ${cores} cores` : ''}.`;
      status.dataset.milliseconds = String(Math.round(milliseconds));
    },
    stopped(at) {
      status.textContent = `Stopped at step ${count(at)} of ${count(TRAINING.steps)}.`;
    },
    failed(error) {
      status.textContent = `The run failed: ${error?.message ?? error}`;
    },
  };
}

/** The figure of longer sentences: accuracy at every length, and sentences built from it. */
function lengthsFigure(root) {
  const g = fig(root, { title: 'Longer than any training sentence', id: 'train-lengths' });
  g.dataset.controls = 'train-seed';
  const waiting = el('p', { className: 'train-wait' });
  g.append(waiting);
  const table = numbersTable(g, { caption: `accuracy on 256 sentence–mirror pairs at each length; the models trained on T = ${TRAINING.shortest} … ${TRAINING.longest}` });
  notice(g, `the last two columns, T = ${LONGER_LENGTHS.join(' and ')}: no training sentence was that long.`);
  const findings = el('ul', { className: 'train-findings' });
  g.append(findings);
  more(g, 'What each kind of position offers at a new length',
    `A learned table has one trained row per position, ${TRAINING.longest} here: the model cannot even be asked about ` +
    `position ${TRAINING.longest} and later, and the API says so instead of guessing. Sinusoids can be computed at ` +
    'any position, but the vectors at new positions are ones the trained weights never met. Rotary positions turn q ' +
    'and k, so a score depends on how far apart two tokens are, and offsets seen in training recur in longer ' +
    'sentences. A causal mask lets each token see only those before it, at any length.',
    'Each length is measured on its own set of sentences (seeded 500 + T), every sentence followed by its mirror, ' +
    'the same sentence with robot and person swapped.');
  const checks = checkList(g);
  const trained = (T) => T >= TRAINING.shortest && T <= TRAINING.longest;
  const wait = (text) => {
    waiting.textContent = text;
    waiting.hidden = false;
    table.element.hidden = true;
    findings.replaceChildren();
  };
  wait('Measured when a run has finished.');
  return {
    checks,
    wait,
    show(evaluation) {
      table.show(['model', ...EVALUATION_LENGTHS.map((T) => (trained(T) ? `T = ${T}` : `T = ${T} (${T / TRAINING.longest}×)`))],
        evaluation.map((r) => [r.label, ...EVALUATION_LENGTHS.map((T) => (r.lengths[T].error
          ? `unsupported: ${r.lengths[T].error.message}` : `${fmt(100 * r.lengths[T].accuracy, 3)}%`))]));
      // a refusal is a sentence: its cells wrap (train.css)
      for (const cell of table.element.querySelectorAll('td')) cell.classList.toggle('train-refused', cell.textContent.startsWith('unsupported'));
      table.element.hidden = false;
      waiting.hidden = true;
      findings.replaceChildren(...lengthFindings(evaluation).map((text) => el('li', {}, text)));
    },
  };
}

/**
 * The figure of attention maps: two models picked by the reader, on a sentence composed from the task's words.
 * Returns { show(models, steps), hide() }: the maps of trained models (after `steps` steps), or none during a run.
 */
function mapsFigure(root, words) {
  const h = fig(root, { title: 'Inside two trained models: attention maps', id: 'train-maps' });
  const sentence = [...SENTENCE];
  const picks = { a: 'none', b: 'rotary' };
  let trained = null;  // { models, steps } while there are models to ask
  const group = controlGroup(h, 'which two models');
  for (const [key, id, label] of [['a', 'train-map-a', 'Left model'], ['b', 'train-map-b', 'Right model']]) {
    select(group, {
      id, label, options: SETUPS.map((s) => ({ value: s.key, label: s.label })), value: picks[key],
      onChange: (value) => { picks[key] = value; showMaps(); },
    });
  }
  const composer = el('div', { className: 'train-composer', role: 'group', 'aria-label': 'the sentence, one word per position' });
  const buttons = el('div', { className: 'train-composer-buttons' });
  h.append(composer, buttons);
  button(buttons, { id: 'train-mirror', label: 'Mirror: swap robot and person', onClick: () => edit(mirror) });
  button(buttons, { id: 'train-shorter', label: 'One word fewer', onClick: () => edit(shorter) });
  button(buttons, { id: 'train-longer', label: 'One word more', onClick: () => edit(longer) });
  const sentenceLine = el('p', { className: 'train-sentence', role: 'status' });
  const answers = el('p', { className: 'train-answers' });
  const waiting = el('p', { className: 'train-wait' }, 'The maps appear once the models have trained.');
  const block = el('div', { className: 'train-maps-block' });
  block.hidden = true;
  h.append(sentenceLine, answers, waiting, block);
  let grid = null;
  notice(h, 'each row is one word’s weights over the words it attends to (they sum to 1). Press Mirror and ' +
    'compare each model’s maps and answer before and after.');
  more(h, 'Reading the maps',
    'Rows are queries, columns keys, both in sentence order; a causal model’s cells right of the diagonal are masked. ' +
    `The models have ${ARCHITECTURE.layers} layer of ${ARCHITECTURE.heads} heads, one map per head; both maps of a ` +
    'model share the color scale 0 … 1. A word chosen for a slot that holds robot or person moves that word to the ' +
    'slot the new word left (they swap), so the sentence keeps one of each.',
    'Point at a cell to read it; on a keyboard, tab to a map and move with the arrow keys.');

  /** The composer's selects, one per word (rebuilt when the length changes). */
  function drawComposer() {
    composer.replaceChildren();
    sentence.forEach((word, t) => {
      const field = select(composer, {
        id: `train-word-${t}`, label: `t = ${t}`, value: word, options: words.map((w) => ({ value: w, label: w })),
        onChange: (value) => edit(() => place(t, value)),
      });
      field.closest('.control').className = 'control train-slot';
    });
  }

  /** Puts `word` at t; robot or person moves to where t's word was (they swap), so each stays once. */
  function place(t, word) {
    const from = sentence.indexOf(word);
    if ((word === 'robot' || word === 'person') && from >= 0 && from !== t) sentence[from] = sentence[t];
    sentence[t] = word;
  }
  function mirror() {
    const r = sentence.indexOf('robot');
    const p = sentence.indexOf('person');
    if (r >= 0 && p >= 0) [sentence[r], sentence[p]] = ['person', 'robot'];
  }
  function shorter() {
    // the last word that is neither robot nor person goes
    if (sentence.length > SHORTEST) sentence.splice(sentence.findLastIndex((w) => w !== 'robot' && w !== 'person'), 1);
  }
  function longer() {
    const fillers = words.filter((w) => w !== 'robot' && w !== 'person');
    if (sentence.length < TRAINING.longest) sentence.push(fillers[(3 * sentence.length) % fillers.length]);
  }
  function edit(change) {
    const length = sentence.length;
    change();
    if (sentence.length !== length) drawComposer();
    else sentence.forEach((word, t) => { document.getElementById(`train-word-${t}`).value = word; });
    showMaps();
  }

  const problemOf = () => {
    const n = (w) => sentence.filter((x) => x === w).length;
    return n('robot') === 1 && n('person') === 1 ? null
      : `The sentence needs robot and person once each (it has ${n('robot')} robot, ${n('person')} person): choose them for two of the slots.`;
  };

  let latest = 0;
  /** Runs both picked models on the composed sentence: their attention maps and answers. */
  async function showMaps() {
    const problem = problemOf();
    sentenceLine.textContent = problem ??
      `“${sentence.join(' ')}”: robot comes ${sentence.indexOf('robot') < sentence.indexOf('person') ? 'first' : 'second'}.`;
    sentenceLine.dataset.kind = problem ? 'problem' : '';
    if (problem || !trained) return;
    const request = ++latest;
    const { models, steps } = trained;
    const T = sentence.length;
    const ids = { data: Int32Array.from(sentence, (w) => words.indexOf(w)), shape: [1, T] };
    const chosen = [picks.a, picks.b].map((key) => SETUPS.findIndex((s) => s.key === key));
    let results;
    try {
      results = await Promise.all(chosen.map(async (i) => ({
        setup: SETUPS[i], weights: await models[i].attentionWeights(ids), logits: await models[i].forward(ids),
      })));
    } catch (error) {
      if (request === latest && trained?.models === models) answers.textContent = `The models could not be asked: ${error.message}`;
      return;
    }
    if (request !== latest || trained?.models !== models) return;  // a later sentence, pick or run has come since
    const heads = ARCHITECTURE.layers * ARCHITECTURE.heads;
    const maps = results.flatMap(({ setup, weights }, k) => Array.from({ length: heads }, (_, m) => ({
      title: `${k === 0 ? 'left' : 'right'}, ${setup.label}: layer ${Math.floor(m / ARCHITECTURE.heads) + 1}, head ${(m % ARCHITECTURE.heads) + 1}`,
      data: weights.data.subarray(m * T * T, (m + 1) * T * T), rows: T, cols: T,
    })));
    const options = {
      maps, range: 1, scale: 'sequential', rowLabel: 'query', colLabel: 'key', rowName: (r) => sentence[r], colName: (c) => sentence[c],
      minHeight: 150, maxHeight: 300, minWidth: '14rem',
      tooltip: (r, c, v) => `query ${r} (${sentence[r]}) → key ${c} (${sentence[c]}): weight ${v === 0 ? '0 exactly' : fmt(v, 4)}`,
      ariaLabel: 'attention weights of one head: a row per query word, a column per key word',
    };
    if (!grid) grid = heatmapGrid(block, options);
    else grid.update(options);
    block.hidden = false;
    waiting.hidden = true;
    answers.textContent = results.map(({ setup, logits }, k) => {
      const [no, yes] = logits.data;
      return `${k === 0 ? 'Left' : 'Right'}, ${setup.label}: “robot first” with probability ${fmt(1 / (1 + Math.exp(no - yes)), 3)}`;
    }).join('. ') + `. (Models after ${count(steps)} of ${count(TRAINING.steps)} steps.)`;
  }

  drawComposer();
  showMaps();
  return {
    show(models, steps) {
      trained = { models, steps };
      showMaps();
    },
    hide() {
      trained = null;
      block.hidden = true;
      waiting.hidden = false;
      answers.textContent = '';
    },
  };
}
