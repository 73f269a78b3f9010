// Section "comparisons" (an aside after the main lesson): learned vs sinusoidal vs rotary positions, float32 vs
// float64 tables, the two layouts, and the rotation that carries p_t to p_{t+k}. The experiments and their checks are
// web/js/experiments/comparisons.mjs; this module draws them, wires the controls and shows the checks.
import { check, checkList } from '../checks.mjs';
import { circlePlot, formatValue, heatmap } from '../plot.mjs';
import {
  frequencies, layoutExperiment, learnedExperiment, precisionExperiment, rotaryExperiment,
  shiftExperiment, tryLearned,
} from '../experiments/comparisons.mjs';

/** A DOM element: el('p', { text | html, className, attrs }, ...children). */
function el(tag, { text, html, className, attrs = {} } = {}, ...children) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  if (html !== undefined) node.innerHTML = html;
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  node.append(...children.filter((c) => c != null));
  return node;
}

function renderChecks(list, checks) {
  for (const c of checks) check(list, c.name, c.pass, c.details, { claim: c.claim });
}

/** A labelled number input inside a .control block. */
function numberControl({ id, label, min, max, value, hint }) {
  const input = el('input', { attrs: { id, type: 'number', min, max, step: 1, value, inputmode: 'numeric' } });
  const block = el('div', { className: 'control cmp-number' },
    el('label', { text: label, attrs: { for: id } }), input, hint ? el('span', { className: 'hint', text: hint }) : null);
  return { block, input };
}

/** A labelled range slider showing its value; onInput(number). */
function sliderControl({ id, label, min, max, value, onInput, format = String }) {
  const input = el('input', { attrs: { id, type: 'range', min, max, step: 1, value } });
  const output = el('output', { text: format(value), attrs: { for: id } });
  input.addEventListener('input', () => {
    output.textContent = format(Number(input.value));
    onInput(Number(input.value));
  });
  return el('div', { className: 'control' }, el('label', { text: label, attrs: { for: id } }), output, input);
}

/** A titled figure holding a heatmap of a (rows, cols) matrix. */
function titledHeatmap(container, title, options) {
  const figure = el('div', { className: 'cmp-figure' }, el('p', { className: 'cmp-figure-title', text: title }));
  container.append(figure);
  return heatmap(figure, options);
}

/** A table of numbers: header cells, then rows of cells (strings). */
function numbersTable(header, rows) {
  return el('div', { className: 'table-scroll' },
    el('table', { className: 'numbers' },
      el('tr', {}, ...header.map((h) => el('th', { text: h, attrs: { scope: 'col' } }))),
      ...rows.map((cells) => el('tr', {}, ...cells.map((c) => el('td', { text: c }))))));
}

const sci = (x) => (x === 0 ? '0' : x.toExponential(1).replace('-', '−'));
const position = (t) => t.toLocaleString('en-US');

export async function run(so, root) {
  root.append(
    el('p', { text: 'The lesson settles on one way of giving rows a position: add a fixed sinusoid vector to each token vector. Readers reasonably ask why not a trained table, why not rotations, and whether the details (number type, column order) matter. This aside puts each question to the same WebAssembly core, and every answer below is a check computed on this page.' }),
  );
  learnedPart(so, root);
  rotaryPart(so, root);
  precisionPart(so, root);
  layoutPart(so, root);
  shiftPart(so, root);
}

// 1. Learned table vs formula.
function learnedPart(so, root) {
  root.append(el('h3', { text: 'A learned table is a lookup with an end' }));
  root.append(el('p', { text: 'A learned position table is trained like the token table: one row per position, and "position t" simply means "row t". Below, random numbers stand in for trained ones. Nothing in the table relates row 5 to row 6, and there is no row after the last one.' }));
  const e = learnedExperiment(so);
  const [rows, width] = e.table.shape;
  titledHeatmap(root, `a learned table with ${rows} rows (P = ${rows}), D = ${width}`, {
    data: e.table.data, rows, cols: width, range: 1, rowLabel: 'position (row)', colLabel: 'feature',
    minHeight: 22 * rows, maxHeight: 26 * rows,
    ariaLabel: `learned position table, ${rows} rows of ${width} features; focus and use the arrow keys to read values`,
  });
  root.append(el('p', { text: `Ask the table for a run of positions. Any run that ends past row ${rows - 1} is refused with the core's error, shown here as it reaches JavaScript; the sinusoid formula, asked for the same positions, just answers.` }));
  const startInput = numberControl({ id: 'cmp-learned-start', label: 'first position', min: 0, max: 1000000, value: rows - 2 });
  const lengthInput = numberControl({ id: 'cmp-learned-length', label: 'how many', min: 1, max: 6, value: 3 });
  const button = el('button', { text: 'Look up', attrs: { type: 'button', id: 'cmp-learned-go' } });
  root.append(el('div', { className: 'controls' }, startInput.block, lengthInput.block, el('div', { className: 'control cmp-button' }, button)));
  const answer = el('div', { className: 'cmp-answer', attrs: { 'aria-live': 'polite', id: 'cmp-learned-answer' } });
  root.append(answer);

  function lookUp() {
    const start = Number(startInput.input.value);
    const length = Number(lengthInput.input.value);
    answer.replaceChildren();
    let sinusoid;
    try {
      sinusoid = so.positions(length, width, { start });
    } catch (error) {
      answer.append(el('p', { className: 'cmp-error', text: `The inputs themselves are refused: ${error.name}: ${error.message}` }));
      return;
    }
    const learned = tryLearned(so, e.table, length, start);
    const label = (r) => `t = ${position(start + r)}`;
    if (learned.error) {
      answer.append(el('p', { className: 'cmp-error', attrs: { 'data-kind': 'learned-error' }, text: `learned table: ${learned.error.name}: ${learned.error.message}` }));
    } else {
      answer.append(el('p', { text: 'learned table: rows copied out of the table' }),
        numbersTable(['position', ...Array.from({ length: width }, (_, j) => `${j}`)],
          Array.from({ length }, (_, r) => [label(r), ...Array.from(learned.result.data.slice(r * width, (r + 1) * width), formatValue)])));
    }
    answer.append(el('p', { text: 'sinusoids: computed from the formula' }),
      numbersTable(['position', ...Array.from({ length: width }, (_, j) => (j % 2 ? `cos ${j >> 1}` : `sin ${j >> 1}`))],
        Array.from({ length }, (_, r) => [label(r), ...Array.from(sinusoid.data.slice(r * width, (r + 1) * width), formatValue)])));
  }
  button.addEventListener('click', lookUp);
  for (const { input } of [startInput, lengthInput]) input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') lookUp();
  });
  lookUp();

  root.append(el('p', { className: 'callout', text: 'A formula that can be evaluated at position one million is not a model that works at position one million. A network trained on short sequences has only ever seen the rows it was trained with; whether it copes with longer ones is an empirical question about that network, and the sinusoids do not answer it.' }));
  renderChecks(checkList(root), e.checks);
}

// 2. Rotary vs added positions.
function rotaryPart(so, root) {
  root.append(el('h3', { text: 'Rotary positions: the dot product sees only the offset' }));
  root.append(el('p', { html: 'Rotary positions (RoPE, from the RoFormer paper) add nothing to the input. They turn each coordinate pair (2i, 2i+1) of a query or key at position t by the angle t·f<sub>i</sub>, with the same frequencies f<sub>i</sub> as the sinusoid table. Rotating q by angle a and k by angle b leaves their dot product depending on a − b alone, so q<sub>m</sub> · k<sub>n</sub> depends on where the two rows stand only through m − n.' }));
  root.append(el('p', { html: 'To see it, put one content vector q at every query position and one k at every key position, so that anything that changes across the map below comes from positions. Left: rotated, <code>so.rope(Q) · so.rope(K)ᵀ</code>. Right: the lesson\'s way, <code>(q + p<sub>m</sub>) · (k + p<sub>n</sub>)</code>. Rotary scores are constant along every diagonal; the added version mixes in q · p<sub>n</sub> and p<sub>m</sub> · k, which depend on each position by itself.' }));
  let seed = 7;
  const e = rotaryExperiment(so, { seed });
  const rowPlots = el('div', { className: 'plot-row' });
  root.append(rowPlots);
  const common = {
    rows: e.length, cols: e.length, rowLabel: 'query position m', colLabel: 'key position n', minHeight: 160, maxHeight: 300,
  };
  const rotaryMap = titledHeatmap(rowPlots, 'rotary: rope(q)_m · rope(k)_n', {
    ...common, data: e.rotary.data,
    tooltip: (m, n, v) => `m = ${m}, n = ${n}, m − n = ${m - n}: ${formatValue(v)}`,
    ariaLabel: 'dot products after rotary positions, query position by key position: constant along diagonals',
  });
  const addedMap = titledHeatmap(rowPlots, 'added: (q + p_m) · (k + p_n)', {
    ...common, data: e.added.data,
    tooltip: (m, n, v) => `m = ${m}, n = ${n}, m − n = ${m - n}: ${formatValue(v)}`,
    ariaLabel: 'dot products after adding sinusoids, query position by key position: diagonals drift',
  });
  const button = el('button', { text: 'New q and k', attrs: { type: 'button', id: 'cmp-rope-reroll' } });
  root.append(el('p', {}, button, el('span', { className: 'cmp-note', text: ' draws other content vectors and runs the checks again.' })));
  const list = checkList(root);
  renderChecks(list, e.checks);
  button.addEventListener('click', () => {
    seed += 1;
    const next = rotaryExperiment(so, { seed });
    rotaryMap.update({ data: next.rotary.data, range: undefined });
    addedMap.update({ data: next.added.data, range: undefined });
    renderChecks(list, next.checks);
  });
  root.append(el('p', { text: 'This is exact for rotations and only approximate for addition. That is a difference in what each design makes easy, not a verdict on which model trains better.' }));
}

// 3. float32 vs float64.
function precisionPart(so, root) {
  root.append(el('h3', { text: 'float32 and float64: where the error comes from' }));
  root.append(el('p', { html: 'A float32 number carries about seven significant digits. The angle t·f<sub>i</sub> grows with the position, so near t = 10<sup>6</sup> a float32 angle is off by up to a few hundredths of a radian before sin or cos is even taken, and the error shows up in the table. seqorder computes every angle, sine and cosine in float64 and rounds each value to float32 once, at the end: its float32 table is then as close to the exact values as float32 can be, at any position.' }));
  root.append(el('p', { html: 'The readout compares, at four starting positions, three tables of 8 rows and D = 16 against sin and cos evaluated in float64 by JavaScript: seqorder\'s float64 table, seqorder\'s float32 table, and a table computed entirely in float32 (positions, frequencies, angle products, sin and cos, emulated with <code>Math.fround</code>), as the lesson\'s torch code does with <code>dtype=torch.float32</code>.' }));
  const e = precisionExperiment(so, { width: 16 });
  root.append(numbersTable(['start', 'float64 (seqorder)', 'float32 (seqorder)', 'float32 angles'],
    e.readouts.map((r) => [position(r.start), sci(r.float64Error), sci(r.float32Error), sci(r.angles32Error)])));
  root.append(el('p', { className: 'cmp-note', text: 'Each cell: the largest |table − exact| over the 8 × 16 values.' }));

  let current = e.readouts[e.readouts.length - 1];
  const select = el('select', { attrs: { id: 'cmp-precision-start' } });
  for (const [i, r] of e.readouts.entries()) select.append(el('option', { text: position(r.start), attrs: { value: String(i) } }));
  select.value = String(e.readouts.length - 1);
  root.append(el('div', { className: 'controls' }, el('div', { className: 'control' },
    el('label', { text: 'errors at start', attrs: { for: 'cmp-precision-start' } }), select)));
  const plots = el('div', { className: 'plot-row' });
  root.append(plots);
  // Each map has its own scale (the two errors are orders of magnitude apart), written as a power of ten in its title
  // so the color bar's numbers stay short.
  const errorMap = (name, key) => {
    const title = el('p', { className: 'cmp-figure-title' });
    const figure = el('div', { className: 'cmp-figure' }, title);
    plots.append(figure);
    let unit = 1;
    const plot = heatmap(figure, {
      data: new Float64Array(e.length * e.width), rows: e.length, cols: e.width, scale: 'sequential',
      rowLabel: 'row r (t = start + r)', colLabel: 'column', minHeight: 150, maxHeight: 220,
      tooltip: (r, c) => `t = ${position(current.start + r)}, column ${c}: |error| = ${sci(current[key].data[r * e.width + c])}`,
      ariaLabel: `|error| of ${name}, one row per position; focus and use the arrow keys to read values`,
    });
    return () => {
      const errors = current[key].data;
      const max = Math.max(...errors);
      unit = max > 0 ? 10 ** Math.floor(Math.log10(max)) : 1;
      title.textContent = `|error| of ${name}, in units of ${sci(unit)}`;
      plot.update({ data: Float64Array.from(errors, (v) => v / unit), range: undefined });
    };
  };
  const showFloat32 = errorMap('seqorder float32', 'float32Errors');
  const showAngles = errorMap('float32 angles', 'angles32Errors');
  const rowTable = el('div');
  root.append(rowTable);
  function showStart() {
    showFloat32();
    showAngles();
    const t = current.start;
    rowTable.replaceChildren(
      el('p', { text: `The row t = ${position(t)}, first 6 columns, side by side:` }),
      numbersTable(['table', ...Array.from({ length: 6 }, (_, j) => (j % 2 ? `cos ${j >> 1}` : `sin ${j >> 1}`))],
        [['float64', current.float64], ['float32, seqorder', current.float32], ['float32 angles', current.angles32]]
          .map(([name, table]) => [name, ...Array.from(table.data.slice(0, 6), (v) => v.toFixed(7))])));
  }
  select.addEventListener('change', () => {
    current = e.readouts[Number(select.value)];
    showStart();
  });
  showStart();
  renderChecks(checkList(root), e.checks);
}

// 4. Layouts.
function layoutPart(so, root) {
  root.append(el('h3', { text: 'Two layouts of one table' }));
  root.append(el('p', { html: 'The lesson interleaves: column 2i holds the sine of pair i and column 2i+1 its cosine. Much published code writes all D/2 sines first and all cosines after. <code>so.positions(length, width, { layout: \'halves\' })</code> produces that layout. It is the same set of numbers with the columns reordered, so a model trained with one layout and fed the other receives scrambled features: the convention has to match, even though neither is better.' }));
  const e = layoutExperiment(so);
  const plots = el('div', { className: 'plot-row' });
  root.append(plots);
  const common = { rows: e.length, cols: e.width, rowLabel: 'position t', minHeight: 180, maxHeight: 260 };
  const half = e.width / 2;
  titledHeatmap(plots, 'interleaved: sin, cos, sin, cos, …', {
    ...common, data: e.interleaved.data, colLabel: 'column',
    tooltip: (t, c, v) => `t = ${t}, column ${c} = ${c % 2 ? 'cos' : 'sin'} of pair ${c >> 1}: ${formatValue(v)}`,
    ariaLabel: 'interleaved sinusoid table; focus and use the arrow keys to read values',
  });
  titledHeatmap(plots, 'halves: sines, then cosines', {
    ...common, data: e.halves.data, colLabel: 'column',
    tooltip: (t, c, v) => `t = ${t}, column ${c} = ${c < half ? 'sin' : 'cos'} of pair ${c % half}: ${formatValue(v)}`,
    ariaLabel: 'halves sinusoid table; focus and use the arrow keys to read values',
  });
  root.append(el('p', { html: 'A warning for readers porting code: tensor2tensor\'s <code>get_timing_signal_1d</code> also writes sines then cosines, but it is not the halves layout of this table. It spreads its D/2 frequencies evenly on a log scale from 1 down to exactly 1/base, f<sub>i</sub> = base<sup>−i/(D/2−1)</sup>, where the lesson uses base<sup>−2i/D</sup>; only the first frequency (1) agrees. Matching it needs both the layout and the frequencies changed.' }));
  renderChecks(checkList(root), e.checks);
}

// 5. A shift is a rotation.
function shiftPart(so, root) {
  root.append(el('h3', { text: 'Moving k positions later is a rotation' }));
  root.append(el('p', { html: 'Each sine/cosine pair of the sinusoid table walks around a circle at its own speed f<sub>i</sub>. Going from position t to t + k advances pair i by k·f<sub>i</sub>, the same amount wherever t is. So one fixed rotation, which depends on k but not on t, carries every p<sub>t</sub> to p<sub>t+k</sub>. The check reads that rotation off row k of the table and applies it to every row.' }));
  const e = shiftExperiment(so);
  const pair = 2;
  const f = frequencies(e.width)[pair];
  let t = 3;
  let k = 5;
  const point = (s) => ({ x: e.p.data[s * e.width + 2 * pair + 1], y: e.p.data[s * e.width + 2 * pair] });
  const controls = el('div', { className: 'controls' });
  root.append(controls);
  const caption = el('p', { className: 'cmp-note', attrs: { 'aria-live': 'polite' } });
  const plot = circlePlot(root, { points: [], height: 240, ariaLabel: `pair ${pair} of the sinusoid table on its circle: p_t and p_(t+k), p_0 and p_k` });
  root.append(caption);
  function show() {
    const trail = Array.from({ length: t + 1 }, (_, s) => [point(s).x, point(s).y]);
    plot.update({
      points: [
        { name: `p_t, t = ${t} (trail: t = 0…${t})`, ...point(t), trail },
        { name: `p_(t+k), t + k = ${t + k}`, ...point(t + k) },
        { name: 'p_0', ...point(0) },
        { name: `p_k, k = ${k}`, ...point(k) },
      ],
    });
    caption.textContent = `Pair ${pair} turns by f_${pair} = ${formatValue(f)} rad per position, so from t = ${t} to t + k = ${t + k} it turns by k·f = ${formatValue(k * f)} rad: the same arc as from p_0 to p_k, whatever t is.`;
  }
  controls.append(
    sliderControl({ id: 'cmp-shift-t', label: 't', min: 0, max: 30, value: t, onInput: (v) => { t = v; show(); } }),
    sliderControl({ id: 'cmp-shift-k', label: 'k', min: 1, max: 30, value: k, onInput: (v) => { k = v; show(); } }),
  );
  show();
  renderChecks(checkList(root), e.checks);
  root.append(el('p', { text: 'This is the same fact that makes rotary positions work, seen from the table\'s side: the sinusoids already encode offsets as rotations. Adding them to token vectors just does not hand that structure to the dot product as cleanly as rotating q and k does.' }));
}
