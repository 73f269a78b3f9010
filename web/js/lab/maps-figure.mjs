// The lab's composer and maps: the reader writes a sentence from the task's words; every trained model answers it
// (its probability, ✓ or ✗ against the truth, or "at chance" for a model whose measured accuracy nearest that length
// is a guess's; a length outside the training range is marked so, and a learned table too short for it refuses in
// the API's words); two models picked by the reader show their attention maps, every row and column labelled.
import { button, controlGroup, select } from '../controls.mjs';
import { count, fmt } from '../format.mjs';
import { heatmapGrid } from '../../lib/figures/plot/index.mjs';
import { recordDrawn } from '../drawn.mjs';
import { afterNextFrame } from '../next-frame.mjs';
import { el, fig, more } from '../ui.mjs';
import { biasCheck, biasMatrix, zeroQueryWeights } from './bias.mjs';
import { showChecks } from '../claims.mjs';
import { checkList } from '../../lib/figures/checks.mjs';
import { KINDS, kindLabel, kindOf } from './config.mjs';
import { standing } from './facts.mjs';
import { trainedLength } from './tasks.mjs';
import { labTable } from './table.mjs';

/** The composer's shortest and longest sentence. */
export const COMPOSER = Object.freeze({ min: 2, max: 64 });

/** What the sentence asks of a model of `config`: null when it can be asked, else why not. */
export function sentenceProblem(words, config) {
  if (config.task === 'order') {
    const n = (w) => words.filter((x) => x === w).length;
    if (n('robot') === 1 && n('person') === 1) return null;
    return `The sentence needs robot and person once each (it has ${n('robot')} robot, ${n('person')} person): choose them for two of the slots.`;
  }
  if (config.task === 'induction') {
    return words.slice(0, -1).includes(words.at(-1)) ? null
      : `The last word, ${words.at(-1)}, needs to come earlier in the sentence too: the model names the word that followed it then.`;
  }
  return words.length > config.back ? null : `The sentence needs more than k = ${config.back} words: a word ${config.back} back.`;
}

/** The induction task's answer at t: the word after the last earlier occurrence of the word at t, or −1 (none). */
function inductionAnswer(words, t, vocab) {
  const u = words.slice(0, t).lastIndexOf(words[t]);
  return u < 0 ? -1 : vocab.indexOf(words[u + 1]);
}

/** The truth the models answer: for the order task whether robot comes first; for the others, per position (−1: none). */
function truth(words, config, vocab) {
  if (config.task === 'order') return words.indexOf('robot') < words.indexOf('person') ? 1 : 0;
  if (config.task === 'induction') return words.map((_, t) => inductionAnswer(words, t, vocab));
  return words.map((_, t) => (t < config.back ? -1 : vocab.indexOf(words[t - config.back])));
}

/**
 * The figure. `state`: the lab's settings state (words, mapA, mapB: read and set through it); `vocab`: the task's
 * words; `make(options)`: creates a model (createModel), for the bias maps' check. Returns { show(run), hide(why), redraw() }.
 */
export function mapsFigure(root, vocab, state, { make }) {
  const h = fig(root, { title: 'Ask the trained models: your sentence, their answers, their attention', id: 'lab-maps', folded: true });
  const composer = el('div', { className: 'lab-composer', role: 'group', 'aria-label': 'the sentence, one word per position' });
  const sentenceLine = el('p', { className: 'lab-sentence', role: 'status' });
  const buttons = el('div', { className: 'lab-composer-buttons' });
  const sticky = el('div', { className: 'controls-sticky lab-composer-block' }, composer, sentenceLine, buttons);
  h.append(sticky);
  const mirrorButton = button(buttons, { id: 'lab-mirror', label: 'Mirror: swap robot and person', onClick: () => edit(mirror) });
  const fewer = button(buttons, { id: 'lab-shorter', label: 'One word fewer', onClick: () => edit(shorter) });
  const more_ = button(buttons, { id: 'lab-longer', label: 'One word more', onClick: () => edit(longer) });
  const lengthLine = el('p', { className: 'lab-length-note' });
  const answers = labTable(h, { caption: '' });
  const waiting = el('p', { className: 'lab-wait' }, 'The models answer when the run pauses or ends.');
  h.append(lengthLine, waiting);
  const pickers = controlGroup(h, 'which two models show their maps');
  sticky.append(pickers);
  for (const [name, id, label] of [['mapA', 'lab-mapA', 'Left model'], ['mapB', 'lab-mapB', 'Right model']]) {
    const field = select(pickers, {
      id, label, options: KINDS.map((k) => ({ value: k.key, label: kindLabel(k.key, { longest: 16 }).replace(' (16 rows)', '') })),
      value: state.values[name], onChange: (value) => { state.set(name, value); redraw(); },
    });
    state.bind(name, (value) => { field.value = String(value); state.set(name, value); redraw(); });
  }
  const block = el('div', { className: 'lab-maps-block' });
  // the bias family's: the matrix each head adds to its scores before the softmax, for the sentence shown
  const biasBlock = el('div', { className: 'lab-maps-block lab-bias-block' });
  h.append(block, biasBlock);
  biasBlock.hidden = true;
  // beside the bias maps: each drawn matrix checked against the model (a copy whose queries are zero scores by it alone)
  const biasChecks = checkList(h, 'Checked against the models', { foldDetails: true });
  biasChecks.hidden = true;
  let grid = null;
  let biasGrid = null;
  // what the maps draw: the grid's options, and every label each map wrote (its layout's)
  recordDrawn(block, 'maps', () => (grid && !block.hidden ? { ...grid.options(), labels: grid.maps().map((p) => p.layout().labels) } : null));
  more(h, 'Reading the maps',
    'Each row is one word’s weights over the words it attends to. Rows are queries, columns keys, both in sentence order and labelled “position word”; a causal model’s cells right ' +
    'of the diagonal are masked. One map per head and layer; the maps of a model share the color scale 0 … 1. In the ' +
    'order task, a word chosen for a slot that holds robot or person moves that word to the slot the new word left ' +
    '(they swap), so the sentence keeps one of each.',
    'Point at a cell to read it; on a keyboard, tab to a map and move with the arrow keys.');

  let run = null;  // the run whose models answer (paused or done), or null
  let lengths = null;  // its lengths table (facts.mjs's lengthsView), which says which models guess
  let words = [...state.values.words];
  state.bind('words', (value) => { words = [...value]; state.set('words', [...value]); drawComposer(); redraw(); });

  function drawComposer() {
    composer.replaceChildren();
    words.forEach((word, t) => {
      const field = select(composer, {
        id: `lab-word-${t}`, label: `t = ${t}`, value: word, options: vocab.map((w) => ({ value: w, label: w })),
        onChange: (value) => edit(() => place(t, value)),
      });
      field.closest('.control').className = 'control lab-slot';
    });
    fewer.disabled = words.length <= COMPOSER.min;
    more_.disabled = words.length >= COMPOSER.max;
  }
  const task = () => run?.config.task ?? state.values.task;
  /** Puts `word` at t; in the order task robot or person moves to where t's word was (they swap), so each stays once. */
  function place(t, word) {
    const from = words.indexOf(word);
    if (task() === 'order' && (word === 'robot' || word === 'person') && from >= 0 && from !== t) words[from] = words[t];
    words[t] = word;
  }
  function mirror() {
    const r = words.indexOf('robot');
    const p = words.indexOf('person');
    if (r >= 0 && p >= 0) [words[r], words[p]] = ['person', 'robot'];
  }
  function shorter() {
    // the last word that is neither robot nor person goes
    if (words.length > COMPOSER.min) {
      const at = words.findLastIndex((w) => w !== 'robot' && w !== 'person');
      words.splice(at < 0 ? words.length - 1 : at, 1);
    }
  }
  function longer() {
    const fillers = vocab.filter((w) => w !== 'robot' && w !== 'person');
    if (words.length < COMPOSER.max) words.push(fillers[(3 * words.length) % fillers.length]);
  }
  function edit(change) {
    const length = words.length;
    change();
    if (words.length !== length) drawComposer();
    else words.forEach((word, t) => { document.getElementById(`lab-word-${t}`).value = word; });
    state.set('words', [...words]);
    redraw();
  }

  let latest = 0;
  /** Asks every model of the run the sentence: answers for all, maps for the two picked. */
  async function redraw() {
    const config = run?.config ?? { task: state.values.task, back: state.values.back, shortest: state.values.shortest, longest: state.values.longest };
    mirrorButton.hidden = config.task !== 'order';
    const problem = sentenceProblem(words, config);
    const T = words.length;
    sentenceLine.dataset.kind = problem ? 'problem' : '';
    const said = {
      order: () => `robot comes ${words.indexOf('robot') < words.indexOf('person') ? 'first' : 'second'}`,
      lookback: () => `at t = ${T - 1} the word ${config.back} back is “${words[T - 1 - config.back]}”`,
      induction: () => `at t = ${T - 1}, “${words[T - 1]}” came before, followed by “${vocab[inductionAnswer(words, T - 1, vocab)]}”`,
    };
    sentenceLine.textContent = problem ?? `“${words.join(' ')}”: ${said[config.task]()}.`;
    lengthLine.textContent = trainedLength(config, T)
      ? `T = ${T}: a trained length (${config.shortest} … ${config.longest}).`
      : `T = ${T}: outside the training lengths (${config.shortest} … ${config.longest}): ${T > config.longest ? 'longer' : 'shorter'} than any training sentence.`;
    lengthLine.dataset.outside = String(!trainedLength(config, T));
    if (problem || !run) {
      answers.element.hidden = true;
      block.hidden = true;
      biasBlock.hidden = true;
      biasChecks.hidden = true;
      waiting.hidden = Boolean(problem);
      return;
    }
    const request = ++latest;
    const asked = run;
    const ids = { data: Int32Array.from(words, (w) => vocab.indexOf(w)), shape: [1, T] };
    const picks = [state.values.mapA, state.values.mapB];
    let results;
    try {
      results = await Promise.all(asked.models.map(async (m) => {
        const first = asked.models.find((x) => x.key === m.key) === m;
        try {
          const logits = await m.handle.forward(ids);
          const weights = first && picks.includes(m.key) ? await m.handle.attentionWeights(ids) : null;
          const { positions } = kindOf(m.key);
          const bias = weights && (positions === 'alibi' || positions === 'relative')
            ? biasMatrix(m.handle.config, T, positions === 'relative' ? (await m.handle.parameters()).relativeBias : null) : null;
          const zeroed = bias ? await zeroQueryWeights(make, m.handle, ids) : null;
          return { ...m, logits, weights, bias, zeroed };
        } catch (error) {
          if (!(error instanceof RangeError)) throw error;
          return { ...m, refused: error.message };
        }
      }));
    } catch (error) {
      if (request === latest && run === asked) {
        answers.element.hidden = true;
        waiting.hidden = false;
        waiting.textContent = `The models could not be asked: ${error.message}`;
      }
      return;
    }
    if (request !== latest || run !== asked) return;  // a later sentence, pick or run has come since
    showAnswers(asked.config, results, T);
    waiting.hidden = true;
    // then the maps and the bias maps, each a frame later: each a task of its own, so that the page answers input
    // between them
    await afterNextFrame();
    if (request !== latest || run !== asked) return;
    showMaps(asked.config, results, picks, T);
    await afterNextFrame();
    if (request !== latest || run !== asked) return;
    showBias(asked.config, results, picks, T);
  }

  /** Whether a model's answers are a guess's at length T: its measured accuracy at the nearest length is at chance. */
  function guessing(key, T) {
    if (!lengths) return false;
    const nearest = lengths.lengths.reduce((a, L) => (Math.abs(L - T) < Math.abs(a - T) ? L : a));
    return standing(lengths, key, nearest)?.chance === 'at';
  }

  function showAnswers(config, results, T) {
    // shown before it is filled: the table measures its width as it fills (a hidden one has none), so its scroll cue
    // is there at once, not at the next frame, under buttons already enabled
    answers.element.hidden = false;
    const want = truth(words, config, vocab);
    const mark = (key, ok) => (guessing(key, T) ? 'at chance' : ok ? '✓' : '✗');
    const kinds = config.kinds.map((key) => ({ key, results: results.filter((r) => r.key === key) }));
    const seeds = config.seeds.length > 1;
    const steps = count(run.step);
    const chanceNote = ' “At chance”: it scored a guess’s accuracy near this length.';
    if (config.task === 'order') {
      const headers = ['model', seeds ? `P(robot first), seeds ${config.seeds.join(', ')}` : 'P(robot first)', 'answer'];
      answers.show(headers, kinds.map(({ key, results: rs }) => {
        if (rs[0].refused) return [kindLabel(key, config), `refused: ${rs[0].refused}`, '–'];
        const ps = rs.map((r) => 1 / (1 + Math.exp(r.logits.data[0] - r.logits.data[1])));
        return [kindLabel(key, config), ps.map((p) => fmt(p, 3)).join(' · '), ps.map((p) => mark(key, (p > 0.5 ? 1 : 0) === want)).join(' ')];
      }), { caption: `Each model after ${steps} of ${config.steps} steps: P(robot first); ✓ right, ✗ wrong (robot comes ${want ? 'first' : 'second'}).${chanceNote}` });
    } else {
      const last = T - 1;
      const word = vocab[want[last]];
      const answered = want.filter((w) => w >= 0).length;
      const where = config.task === 'induction' ? 'with an answer' : `t ≥ ${config.back}`;
      answers.show(['model', `P(“${word}”) at t = ${last}`, `its answer at t = ${last}`, `positions right (${where})`], kinds.map(({ key, results: rs }) => {
        if (rs[0].refused) return [kindLabel(key, config), `refused: ${rs[0].refused}`, '–', '–'];
        const classes = vocab.length;
        const at = (r, t) => r.logits.data.subarray(t * classes, (t + 1) * classes);
        const softmax = (row) => { const m = Math.max(...row); const e = row.map((v) => Math.exp(v - m)); const s = e.reduce((a, b) => a + b, 0); return e.map((v) => v / s); };
        const argmax = (row) => row.reduce((b, v, c) => (v > row[b] ? c : b), 0);
        return [kindLabel(key, config),
          rs.map((r) => fmt(softmax(Array.from(at(r, last)))[want[last]], 3)).join(' · '),
          rs.map((r) => `${vocab[argmax(Array.from(at(r, last)))]} ${mark(key, argmax(Array.from(at(r, last))) === want[last])}`).join(' · '),
          rs.map((r) => `${want.filter((w, t) => w >= 0 && argmax(Array.from(at(r, t))) === w).length}/${answered}`).join(' · ')];
      }), {
        caption: `Each model’s answer (after ${steps} of ${config.steps} steps)${seeds ? `, seeds ${config.seeds.join(', ')}` : ''}: ✓ when it names ` +
          `${config.task === 'induction' ? 'the word that followed the last word the time before' : `the word ${config.back} back`}.${chanceNote}`,
      });
    }
  }

  function showMaps(config, results, picks, T) {
    const layers = config.layers;
    const heads = config.heads;
    const maps = picks.flatMap((key, side) => {
      const r = results.find((x) => x.key === key && x.weights);
      if (!r) return [];
      return Array.from({ length: layers * heads }, (_, m) => ({
        title: `${kindLabel(key, config)}: ${layers > 1 ? `layer ${Math.floor(m / heads) + 1}, ` : ''}head ${(m % heads) + 1}`,
        data: r.weights.data.subarray(m * T * T, (m + 1) * T * T), rows: T, cols: T,
      }));
    });
    const missing = picks.filter((key) => !results.some((x) => x.key === key && x.weights));
    block.dataset.missing = missing.map((key) => (config.kinds.includes(key) ? `${kindLabel(key, config)} refuses this length` : `${kindLabel(key, config)} is not in this run`)).join('; ');
    const options = {
      ...mapLayout(T), maps, range: 1, scale: 'sequential',
      tooltip: (r, c, v) => `query ${r} (${words[r]}) → key ${c} (${words[c]}): weight ${v === 0 ? '0 exactly' : fmt(v, 4)}`,
      ariaLabel: 'attention weights of one head: a row per query word, a column per key word',
    };
    if (!maps.length) {
      block.hidden = true;
      return;
    }
    if (!grid) grid = heatmapGrid(block, options);
    else grid.update(options);
    block.hidden = false;
    // drawn now, not at the next frame: the canvases take their height here, so nothing below them moves later
    for (const map of grid.maps()) map.flush();
  }

  /** The layout of a map of the sentence (T words), the attention maps' and the bias maps'. */
  function mapLayout(T) {
    const name = (i) => `${i} ${words[i]}`;
    // every row and column labelled: at least 12 px a row, and columns wide enough for their names turned 45°
    const side = Math.max(150, 12 * T + 40);
    return {
      rowLabel: 'query', colLabel: 'key', rowName: name, colName: name,
      minHeight: side, maxHeight: Math.max(300, side), minWidth: `${Math.max(14, Math.ceil((16 * T + 130) / 16))}rem`,
    };
  }

  /** The bias the picked ALiBi and relative models add to each head's scores (the maps' layout, a diverging scale). */
  function showBias(config, results, picks, T) {
    const maps = picks.flatMap((key) => {
      const r = results.find((x) => x.key === key && x.bias);
      if (!r) return [];
      return Array.from({ length: config.heads }, (_, h) => ({
        title: `${kindLabel(key, config)}: head ${h + 1}, the bias added to its scores`,
        data: r.bias.data.subarray(h * T * T, (h + 1) * T * T), rows: T, cols: T,
      }));
    });
    biasBlock.hidden = maps.length === 0;
    biasChecks.hidden = maps.length === 0;
    biasChecks.querySelectorAll('[data-check]').forEach((c) => c.remove());
    if (!maps.length) return;
    const checked = [...new Set(picks)].map((key) => results.find((x) => x.key === key && x.bias)).filter(Boolean);
    showChecks(biasChecks, checked.map((r) => biasCheck(`lab-bias-${r.key}`, `${kindLabel(r.key, config)} (seed ${r.seed}), “${words.join(' ')}”`, r.bias, r.zeroed)));
    // (the bias on its own scale, the grid's largest |value|: no range)
    const options = {
      ...mapLayout(T), maps, scale: 'diverging',
      tooltip: (r, c, v) => `query ${r} (${words[r]}) → key ${c} (${words[c]}): ${v === -Infinity ? 'masked' : `bias ${fmt(v, 4)}`}`,
      ariaLabel: 'the bias one head adds to its scores: a row per query word, a column per key word',
    };
    if (!biasGrid) biasGrid = heatmapGrid(biasBlock, options);
    else biasGrid.update(options);
    for (const map of biasGrid.maps()) map.flush();
  }

  drawComposer();
  redraw();
  return {
    /**
     * The models of `next` (a paused or finished run) answer from now on, their accuracies against chance read from
     * `view` (its lengths table); resolves when their answers are shown.
     */
    show(next, view) {
      run = next;
      lengths = view;
      return redraw();
    },
    /** No model answers (a run is training, or none exists); `why` replaces the waiting line. */
    hide(why) {
      run = null;
      lengths = null;
      latest += 1;
      waiting.textContent = why;
      redraw();
    },
    redraw,
  };
}
