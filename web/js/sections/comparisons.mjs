// Section "comparisons" (an aside after the main lesson): the positional methods as answers to one question, learned
// tables and what extending one takes, float32 vs float64 tables, the two layouts, and the rotation that carries p_t
// to p_{t+k}. The experiments and their checks are experiments/comparisons.mjs; this module draws them.
import { button, controlGroup, settingControl } from '../controls.mjs';
import { count, fmt } from '../format.mjs';
import { renderChecks } from '../../lib/figures/checks.mjs';
import { circlePlot, heatmap, heatmapGrid } from '../../lib/figures/plot/index.mjs';
import { checkList, el, fig, more, notice, numbersTable, perFrame, prose, titledBlock } from '../ui.mjs';
import {
  answersExperiment, extendLearnedExperiment, layoutExperiment, learnedExperiment, precisionExperiment,
  shiftExperiment, tryLearned, PRECISION_STARTS, answersSentences, extendSentences, layoutSentences, learnedSentences,
  precisionSentences, shiftSentences,
} from '../experiments/comparisons.mjs';
import { drawnPlot } from '../drawn.mjs';
import { say } from '../claims.mjs';
import { declareSettings } from '../settings.mjs';

const LEARNED_ROWS = 8;

export const settings = declareSettings({
  seed: { kind: 'number', id: 'cmp-rope-seed', label: 'seed of q₀ and k₀', min: 0, max: 1e6, default: 7 },
  learnedStart: { kind: 'number', id: 'cmp-learned-start', label: 'first position', min: 0, max: 1000000, default: LEARNED_ROWS - 2, sweep: [0, LEARNED_ROWS - 2, 1000000] },
  learnedLength: { kind: 'number', id: 'cmp-learned-length', label: 'how many', min: 1, max: 6, default: 3 },
  precisionStart: {
    kind: 'select', id: 'cmp-precision-start', label: 'errors at start', default: String(PRECISION_STARTS.length - 1),
    options: PRECISION_STARTS.map((start, i) => ({ value: String(i), label: start.toLocaleString('en-US') })),
  },
  shiftT: { kind: 'slider', id: 'cmp-shift-t', label: 't', min: 0, max: 30, default: 3 },
  shiftK: { kind: 'slider', id: 'cmp-shift-k', label: 'k', min: 1, max: 30, default: 5 },
});

export async function run(so, root, state) {
  prose(root,
    '<div class="callout scope">This lesson’s model uses one positional method: fixed sinusoids added to the token ' +
    'vectors. Everything below goes beyond it, as do the learned and rotary models of <a href="#lab">the lab</a>.</div>',
    'The lesson’s shared question: <q>how can a compatibility calculation depend on position as well as content?</q> ' +
    'Each method changes where position enters; none is an extra attention head.');
  answersPart(so, root, state);
  learnedPart(so, root, state);
  extendPart(so, root);
  precisionPart(so, root, state);
  layoutPart(so, root);
  shiftPart(so, root, state);
}

// 1. One question, four answers.
function answersPart(so, root, state) {
  const f = fig(root, { title: 'One question, four answers', folded: true });
  const titles = {
    none: 'no positions: q₀ · k₀',
    added: 'added sinusoids: (q₀ + p_m) · (k₀ + p_n)',
    learned: 'added learned rows: (q₀ + L_m) · (k₀ + L_n)',
    rotary: 'rotary: rope(q₀)_m · rope(k₀)_n',
  };
  const maps = (e) => Object.entries(titles).map(([key, title]) => ({ title, data: e[key].data, rows: e.length, cols: e.length }));
  let e = answersExperiment(so, { seed: state.values.seed });
  const grid = drawnPlot('answers', heatmapGrid(f, {
    maps: maps(e), rowLabel: 'query position m', colLabel: 'key position n', minHeight: 150, maxHeight: 260, minWidth: '15rem',
    tooltip: (m, n, v) => `m = ${m}, n = ${n}, m − n = ${m - n}: ${fmt(v, 4)}`,
    ariaLabel: 'the score of one query vector and one key vector at every query position m and key position n',
  }));
  const group = controlGroup(f, 'content vectors');
  const show = () => {
    e = answersExperiment(so, { seed: state.values.seed });
    grid.update({ maps: maps(e) });
    say(line, answersSentences(e));
    renderChecks(list, e.checks);
  };
  const seedInput = settingControl(group, state, 'seed', { onChange: show, onEnter: show });
  button(group, { id: 'cmp-rope-reroll', label: 'New q₀ and k₀', onClick: () => seedInput.set((state.values.seed + 1) % (settings.seed.max + 1)) });
  prose(f, 'One query vector q₀ and one key vector k₀ sit at every position pair (m, n); each map is their score.');
  const line = notice(f, '');
  more(f, 'How rotary positions work',
    'Rotary positions (RoPE, from the RoFormer paper) add nothing to the input. They turn each coordinate pair ' +
    '(2i, 2i+1) of a query or key at position t by the angle t·f<sub>i</sub>, with the sinusoids’ frequencies. ' +
    'Rotating q by angle a and k by angle b leaves their dot product depending on a − b alone (<a ' +
    'href="#check-cmp-rope-relative">the first check below</a> measures it), so it can express relative offsets. Added ' +
    'vectors mix in q·p<sub>n</sub> and p<sub>m</sub>·k, which depend on each position by itself. That is a difference in ' +
    'what each design makes easy, not a verdict on which model trains better.');
  const list = checkList(f);
  say(line, answersSentences(e));
  renderChecks(list, e.checks);
}

// 2. Learned table vs formula.
function learnedPart(so, root, state) {
  const f = fig(root, { title: 'A learned table is a lookup with an end', folded: true });
  const e = learnedExperiment(so, { rows: LEARNED_ROWS });
  const [rows, width] = e.table.shape;
  drawnPlot('learned', heatmap(titledBlock(f, `a learned table with P = ${rows} rows, D = ${width} (random stand-ins for trained values)`), {
    data: e.table.data, rows, cols: width, range: 1, rowLabel: 'position (row)', colLabel: 'feature',
    minHeight: 22 * rows, maxHeight: 26 * rows,
    ariaLabel: `learned position table, ${rows} rows of ${width} features`,
  }));
  const group = controlGroup(f, 'positions to look up');
  const lookUp = () => show();
  // a value from the URL looks up at once; a typed one on Enter or the button
  settingControl(group, state, 'learnedStart', { onEnter: lookUp, onChange: lookUp });
  settingControl(group, state, 'learnedLength', { onEnter: lookUp, onChange: lookUp });
  button(group, { id: 'cmp-learned-go', label: 'Look up', onClick: lookUp });
  const answer = el('div', { className: 'cmp-answer', id: 'cmp-learned-answer', 'aria-live': 'polite' });
  f.append(answer);
  const message = el('p');
  const learnedTable = numbersTable(answer, { caption: 'learned table: rows copied out of the table', format: (v) => fmt(v, 4) });
  const formulaTable = numbersTable(answer, { caption: 'sinusoids: computed from the formula', format: (v) => fmt(v, 4) });
  answer.prepend(message);
  say(notice(f, ''), learnedSentences(e));
  more(f, 'A formula is not a trained model',
    'Learned absolute positions are another trained table indexed by position: like token embeddings, except that the ' +
    'row means “where” instead of “which token”. Nothing in it relates row 5 to row 6. A formula that can be evaluated ' +
    'at position one million is not a model that works at position one million: a network trained on short sequences ' +
    'has only seen the positions it was trained with.');
  renderChecks(checkList(f), e.checks.map((c) => ({ ...c, fixed: true })));

  function show() {
    // the values the fields took (a value they refuse is said beside them, and changes nothing here)
    const { learnedStart: start, learnedLength: length } = state.values;
    let sinusoid;
    try {
      sinusoid = so.positions(length, width, { start });
    } catch (error) {
      message.className = 'cmp-error';
      message.textContent = `The inputs themselves are refused: ${error.name}: ${error.message}`;
      learnedTable.element.hidden = true;
      formulaTable.element.hidden = true;
      return;
    }
    const learned = tryLearned(so, e.table, length, start);
    const label = (r) => `t = ${count(start + r)}`;
    const cells = (t) => Array.from({ length }, (_, r) => [label(r), ...t.data.slice(r * width, (r + 1) * width)]);
    if (learned.error) {
      message.className = 'cmp-error';
      message.dataset.kind = 'learned-error';
      message.textContent = `learned table: ${learned.error.name}: ${learned.error.message}`;
    } else {
      message.className = '';
      delete message.dataset.kind;
      message.textContent = '';
      learnedTable.show(['position', ...Array.from({ length: width }, (_, j) => `${j}`)], cells(learned.result));
    }
    learnedTable.element.hidden = Boolean(learned.error);
    formulaTable.element.hidden = false;
    formulaTable.show(['position', ...Array.from({ length: width }, (_, j) => (j % 2 ? `cos ${j >> 1}` : `sin ${j >> 1}`))], cells(sinusoid));
  }
  show();
}

// 3. Extending a learned table.
function extendPart(so, root) {
  const f = fig(root, { title: 'Extending a learned table is a deliberate adaptation', folded: true });
  const e = extendLearnedExperiment(so);
  const [rows] = e.table.shape;
  drawnPlot('extended', heatmapGrid(f, {
    maps: [
      { title: `the table: ${rows} rows`, data: e.table.data, rows, cols: e.table.shape[1] },
      { title: `append ${rows} new rows`, data: e.appended.data, rows: 2 * rows, cols: e.table.shape[1] },
      { title: 'stretch by interpolation', data: e.stretched.data, rows: 2 * rows, cols: e.table.shape[1] },
    ],
    range: 1, rowLabel: 'position', colLabel: 'feature', minHeight: 120, maxHeight: 260,
    ariaLabel: 'a learned position table, one row per position',
  }));
  say(notice(f, ''), extendSentences(e));
  more(f, 'What follows an extension',
    'A finite table supports a finite range of positions. Going past it means choosing new rows (new parameters, to be ' +
    'trained) or reinterpreting old ones (every position now means something else), and usually training again. ' +
    'Either is a design decision, not something the lookup can do by itself.');
  renderChecks(checkList(f), e.checks);
}

// 4. float32 vs float64.
function precisionPart(so, root, state) {
  const f = fig(root, { title: 'float32 and float64: where the error comes from', folded: true });
  const e = precisionExperiment(so, { width: 16 });
  numbersTable(f, { caption: `the largest |table − exact| over ${e.length} × ${e.width} values`, format: (v) => fmt(v, 2), drawn: 'readouts' }).show(
    ['start', 'float64 (seqorder)', 'float32 (seqorder)', 'float32 angles'],
    e.readouts.map((r) => [count(r.start), r.float64Error, r.float32Error, r.angles32Error]));
  let current = e.readouts[Number(state.values.precisionStart)];
  const group = controlGroup(f, 'start of the error maps');
  const plots = el('div', { className: 'plot-row' });
  f.append(plots);
  // Each map has its own scale (the two errors are orders of magnitude apart), written as a power of ten in its title
  // so that the color bar's numbers stay short.
  const errorMap = (name, key) => {
    const block = titledBlock(plots, '');
    const plot = heatmap(block, {
      data: new Float64Array(e.length * e.width), rows: e.length, cols: e.width, scale: 'sequential',
      rowLabel: 'row r (t = start + r)', colLabel: 'column', minHeight: 150, maxHeight: 220,
      tooltip: (r, c) => `t = ${count(current.start + r)}, column ${c}: |error| = ${fmt(current[key].data[r * e.width + c], 2)}`,
      ariaLabel: `|error| of ${name}, one row per position`,
    });
    return () => {
      const errors = current[key].data;
      const max = Math.max(...errors);
      const unit = max > 0 ? 10 ** Math.floor(Math.log10(max)) : 1;
      block.heading.textContent = `|error| of ${name}, in units of ${fmt(unit)}`;
      plot.update({ data: Float64Array.from(errors, (v) => v / unit), range: undefined });
    };
  };
  const showFloat32 = errorMap('seqorder float32', 'float32Errors');
  const showAngles = errorMap('float32 angles', 'angles32Errors');
  const rowTable = numbersTable(f, { caption: '', format: (v) => fmt(v, 7) });
  const line = notice(f, '');
  more(f, 'Why the angle matters',
    'A float32 number carries about seven significant digits. The angle t·f<sub>i</sub> grows with the position, so ' +
    'near t = 10<sup>6</sup> a float32 angle is off by up to a few hundredths of a radian before sin or cos is even ' +
    'taken. seqorder computes every angle, sine and cosine in float64 and rounds each value to float32 once, at the ' +
    'end. The “float32 angles” table computes positions, frequencies, angles, sin and cos in float32 throughout (emulated ' +
    'with <code>Math.fround</code>), as the lesson’s torch code does with <code>dtype=torch.float32</code>. The three tables are ' +
    'compared with sin and cos evaluated in float64 by JavaScript.');
  const list = checkList(f);
  const showStart = () => {
    showFloat32();
    showAngles();
    rowTable.show(['table', ...Array.from({ length: 6 }, (_, j) => (j % 2 ? `cos ${j >> 1}` : `sin ${j >> 1}`))],
      [['float64', current.float64], ['float32, seqorder', current.float32], ['float32 angles', current.angles32]]
        .map(([name, table]) => [name, ...table.data.slice(0, 6)]),
      { caption: `the row t = ${count(current.start)}, first 6 columns` });
    say(line, precisionSentences(current));
    renderChecks(list, e.checks);
  };
  settingControl(group, state, 'precisionStart', { onChange: (value) => { current = e.readouts[Number(value)]; showStart(); } });
  showStart();
}

// 5. Layouts.
function layoutPart(so, root) {
  const f = fig(root, { title: 'Two layouts of one table', folded: true });
  const e = layoutExperiment(so);
  const plots = el('div', { className: 'plot-row' });
  f.append(plots);
  const common = { rows: e.length, cols: e.width, rowLabel: 'position t', colLabel: 'column', minHeight: 180, maxHeight: 260 };
  const half = e.width / 2;
  drawnPlot('interleaved', heatmap(titledBlock(plots, 'interleaved: sin, cos, sin, cos, …'), {
    ...common, data: e.interleaved.data,
    tooltip: (t, c, v) => `t = ${t}, column ${c} = ${c % 2 ? 'cos' : 'sin'} of pair ${c >> 1}: ${fmt(v, 4)}`,
    ariaLabel: 'interleaved sinusoid table',
  }));
  drawnPlot('halves', heatmap(titledBlock(plots, 'halves: sines, then cosines'), {
    ...common, data: e.halves.data,
    tooltip: (t, c, v) => `t = ${t}, column ${c} = ${c < half ? 'sin' : 'cos'} of pair ${c % half}: ${fmt(v, 4)}`,
    ariaLabel: 'halves sinusoid table',
  }));
  say(notice(f, ''), layoutSentences(e));
  more(f, 'Porting code: tensor2tensor',
    'The lesson interleaves: column 2i holds the sine of pair i and column 2i+1 its cosine. Much published code writes ' +
    'the D/2 sines first; <code>so.positions(length, width, { layout: \'halves\' })</code> does that. ' +
    'tensor2tensor’s <code>get_timing_signal_1d</code> also writes sines then cosines, but with other frequencies: ' +
    'f<sub>i</sub> = base<sup>−i/(D/2−1)</sup>, evenly spaced on a log scale from 1 down to 1/base, where the lesson ' +
    'uses base<sup>−2i/D</sup>. Matching it needs both the layout and the frequencies changed.');
  renderChecks(checkList(f), e.checks);
}

// 6. A shift is a rotation.
function shiftPart(so, root, settings) {
  const f = fig(root, { title: 'Moving k positions later is a rotation', folded: true });
  const e = shiftExperiment(so);
  const pair = 2;
  const state = settings.values;
  const point = (s) => ({ x: e.p.data[s * e.width + 2 * pair + 1], y: e.p.data[s * e.width + 2 * pair] });
  const group = controlGroup(f, 'position and shift');
  const plot = drawnPlot('shift', circlePlot(f, { height: 250, ariaLabel: `pair ${pair} of the sinusoid table on its circle: p_t and p_(t+k), p_0 and p_k` }));
  const line = notice(f, '');
  more(f, 'The same fact as rotary positions',
    'Going from position t to t + k advances pair i by k·f<sub>i</sub>, the same amount wherever t is, so one fixed ' +
    'rotation (depending on k, not on t) carries every p<sub>t</sub> to p<sub>t+k</sub>. The check reads that ' +
    'rotation off row k of the table and applies it to every row. Adding the sinusoids to token vectors does not ' +
    'hand this structure to the dot product as cleanly as rotating q and k does.');
  const show = () => {
    const { shiftT: t, shiftK: k } = state;
    plot.update({
      points: [
        { name: `p_t, t = ${t} (trail: t = 0…${t})`, ...point(t), trail: Array.from({ length: t + 1 }, (_, s) => [point(s).x, point(s).y]) },
        { name: `p_(t+k), t + k = ${t + k}`, ...point(t + k) },
        { name: 'p_0', ...point(0) },
        { name: `p_k, k = ${k}`, ...point(k) },
      ],
    });
    say(line, shiftSentences(e, { pair, t, k }));
  };
  const schedule = perFrame(show);
  settingControl(group, settings, 'shiftT', { onChange: schedule });
  settingControl(group, settings, 'shiftK', { onChange: schedule });
  show();
  renderChecks(checkList(f), e.checks.map((c) => ({ ...c, fixed: true })));
}
