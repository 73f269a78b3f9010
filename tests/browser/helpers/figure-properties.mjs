// The property test of seqorder/plot and seqorder/checks, run in the page (tests/browser/figures.test.mjs serves it,
// with fast-check through an import map). Over arbitrary options, most of them hostile (sizes past the caps, wrong
// kinds, ranges a few ulps wide, log ranges that are not positive, colors that are not colors, trails that are not
// [x, y], check names taken by other elements), every call of a plot or of the checks either
//   - throws, up front, a TypeError or RangeError whose message names the option ('seqorder/plot: rows must …'),
//     leaving the figure as it was (its options, and its DOM, as before the call), or
//   - succeeds, and the figure then draws (flush()) without an error;
// each within `limitMs` (a call that loops without a bound fails there rather than hanging the test for ever); and
// options that are valid (an arbitrary of their own) are always accepted and drawn.
import fc from 'fast-check';
import { circlePlot, heatmap, heatmapGrid, linePlot } from '/lib/figures/plot/index.mjs';
import { checkList, renderChecks, summarize } from '/lib/figures/checks.mjs';

/** The first name a message of the figures names: 'rows', 'series[0].color', 'append: x', … */
const NAMED = /^seqorder\/(plot|checks): (append: )?(the container|options|update takes|(the series "[^"]*"[:.]?\s*)?[a-zA-Z]+(\[\d+\])?(\.[a-zA-Z]+(\[\d+\])?)*|a (new series|line plot)|style)\b/;

// ---- values: plausible, and broken in every way a caller (or a link, or a live run) could break them ----

const optional = (arb) => fc.option(arb, { nil: undefined, freq: 2 });
/** Now and then `arb`, else undefined. */
const rarely = (arb) => fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: arb });
/** Mostly `valid`, now and then `hostile`: a case breaks one or two things, not everything at once. */
const mostly = (valid, hostile) => fc.oneof({ weight: 14, arbitrary: valid }, { weight: 1, arbitrary: hostile });
const ODD = [NaN, Infinity, -Infinity, -0, 0.5, -1, 2 ** 31, 32767, 32768, 2 ** 24, 1e9, 1e16, 1e300, 5e-324, Number.MAX_VALUE];
const smallInt = fc.integer({ min: 0, max: 6 });
const size = mostly(smallInt, fc.oneof(fc.constantFrom(...ODD), fc.constantFrom('3', null, undefined, [2], {})));
/** A number near another one: the same, a few ulps away, far. */
const near = (x) => fc.oneof(fc.constant(x), fc.integer({ min: -4, max: 4 }).map((k) => x + k * Math.abs(x || 1) * Number.EPSILON),
  fc.constant(x * (1 + 2 ** -52)), fc.constant(x + 2), fc.double({ noNaN: false }));
const base = fc.constantFrom(0, 1, 0.3, 0.1 + 0.2, 1e16, -1e16, 1e-300, 5e-324, 1e300, 0.9999999999999999);
const value = fc.oneof({ weight: 6, arbitrary: fc.double({ min: -10, max: 10, noNaN: true }) },
  { weight: 2, arbitrary: base.chain(near) }, { weight: 1, arbitrary: fc.constantFrom(...ODD) });
const COLORS = ['#0072b2', '#abc', 'red', 'rebeccapurple', 'rgb(0 114 178)', 'hsl(200 50% 40%)', 'transparent', 'currentcolor',
  'url(https://example.invalid/x.png)', 'url(/x)', 'var(--series-0)', 'red;background:url(/y)', 'expression(alert(1))', '', ' ',
  'not-a-color', 'image-set("x.png" 1x)', `#${'0'.repeat(200)}`];
const color = mostly(fc.constantFrom(...COLORS.slice(0, 8)), fc.oneof(fc.constantFrom(...COLORS.slice(8)), fc.string({ maxLength: 8 })));
const text = mostly(fc.string({ maxLength: 12 }), fc.constantFrom(3, null, {}, 'x'.repeat(2000)));

/** A list of `n` numbers in one of the ways a caller might pass them (some wrong). */
function numbers(n, values = value) {
  return mostly(fc.oneof(
    { weight: 6, arbitrary: fc.array(values, { minLength: n, maxLength: n }).map((a) => Float64Array.from(a)) },
    { weight: 3, arbitrary: fc.array(values, { minLength: n, maxLength: n }) },
    { weight: 1, arbitrary: fc.array(fc.integer({ min: -9, max: 9 }), { minLength: n, maxLength: n }).map((a) => Int32Array.from(a)) },
  ), fc.oneof(
    fc.constantFrom([1, 'x'], [null], new BigInt64Array(n), new DataView(new ArrayBuffer(8 * n)), { length: n }, 'abc', null),
    fc.integer({ min: 0, max: 9 }).map((m) => new Float32Array(m)),
  ));
}

// ---- the options of each figure ----

const matrix = fc.oneof(
  { weight: 8, arbitrary: fc.tuple(smallInt, smallInt) },
  { weight: 2, arbitrary: fc.tuple(size, size) },
  { weight: 1, arbitrary: fc.constantFrom([0, 1e9], [1e9, 0], [32768, 1], [1, 40000], [5000, 5000], [4097, 4096]) },
).chain(([rows, cols]) => {
  const n = Number.isInteger(rows) && Number.isInteger(cols) && rows >= 0 && cols >= 0 && rows * cols <= 4096 ? rows * cols : 4;
  return fc.record({ rows: fc.constant(rows), cols: fc.constant(cols), data: numbers(n) });
});
const marks = rarely(mostly(fc.array(fc.record({ row0: fc.constant(0), row1: fc.constantFrom(0, 1), label: optional(fc.string({ maxLength: 6 })) }), { maxLength: 2 }),
  fc.oneof(fc.array(fc.record({ row0: size, row1: size, col0: optional(size), col1: optional(size), label: optional(text) }), { maxLength: 3 }),
    fc.constantFrom('all', [null], Array.from({ length: 300 }, () => ({ row0: 0, row1: 1 }))))));
const heights = { height: optional(mostly(fc.integer({ min: 1, max: 600 }), fc.constantFrom(0, -5, NaN, 1e9, 4097, '200'))),
  minHeight: optional(mostly(fc.integer({ min: 1, max: 300 }), fc.constantFrom(0, Infinity, 1e7))),
  maxHeight: optional(mostly(fc.integer({ min: 1, max: 600 }), fc.constantFrom(-1, 5000, 'tall'))) };
// (a name function is the page's own code, called as the plot draws: one that throws is the page's error to fix)
const names = mostly(fc.constantFrom(undefined, (i) => `w${i}`, (i) => String(i * 1e300), () => 'x'.repeat(500), (i) => i),
  fc.constantFrom('r', () => null, 7));
const heatmapOptions = fc.tuple(matrix, fc.record({
  scale: optional(mostly(fc.constantFrom('diverging', 'sequential'), fc.constantFrom('log', 1))),
  range: optional(mostly(fc.double({ min: 1e-9, max: 1e9, noNaN: true }), fc.oneof(value, fc.constant('1')))),
  rowLabel: optional(text), colLabel: optional(text), note: optional(text), marks, caption: optional(text), ariaLabel: optional(text),
  rowName: names, colName: names, ...heights,
})).map(([m, rest]) => ({ ...rest, ...m }));
const validHeatmap = fc.tuple(smallInt, smallInt).chain(([rows, cols]) => fc.record({
  rows: fc.constant(rows), cols: fc.constant(cols),
  data: fc.array(fc.double({ noNaN: false }), { minLength: rows * cols, maxLength: rows * cols }).map((a) => Float64Array.from(a)),
  scale: optional(fc.constantFrom('diverging', 'sequential')), range: optional(fc.double({ min: 1e-6, max: 1e6, noNaN: true })),
  rowLabel: optional(fc.string({ maxLength: 8 })), note: optional(fc.string({ maxLength: 30 })),
}));

const range = fc.oneof({ weight: 3, arbitrary: base.chain((a) => near(a).map((b) => [a, b])) },
  { weight: 3, arbitrary: fc.tuple(value, value) }, { weight: 3, arbitrary: fc.constantFrom([0, 1], [-2, 2], [1e-3, 10]) },
  { weight: 1, arbitrary: fc.constantFrom([1], [1, 0], ['0', '1'], 'all', [0, Infinity], [-1, 1e308]) });
const seriesOf = fc.integer({ min: 0, max: 40 }).chain((n) => fc.record({
  name: mostly(fc.string({ maxLength: 6 }), fc.constantFrom(1, null)),
  x: fc.oneof({ weight: 4, arbitrary: numbers(n) }, { weight: 1, arbitrary: base.chain((a) => fc.array(near(a), { minLength: n, maxLength: n })) }),
  y: fc.oneof({ weight: 4, arbitrary: numbers(n) }, { weight: 1, arbitrary: base.chain((a) => fc.array(near(a), { minLength: n, maxLength: n })) }),
  color: optional(color), dashed: optional(mostly(fc.boolean(), fc.constant('yes'))), markers: optional(fc.boolean()),
  width: optional(mostly(fc.double({ min: 0.5, max: 6, noNaN: true }), fc.constantFrom(0, -1, 1e9, NaN))),
  opacity: optional(mostly(fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom(2, -0.5, NaN))),
  band: rarely(fc.tuple(numbers(n), numbers(n))),
}).map(({ band, ...s }) => (band ? { ...s, lo: band[0], hi: band[1] } : s)));

const lineOptions = fc.record({
  series: optional(mostly(fc.array(seriesOf, { maxLength: 3 }), fc.constantFrom('s', null, Array.from({ length: 300 }, (_, i) => ({ name: `${i}`, x: [], y: [] }))))),
  xRange: rarely(range), yRange: rarely(range),
  yLog: optional(mostly(fc.boolean(), fc.constant(1))), integerX: optional(fc.boolean()),
  xLabel: optional(text), yLabel: optional(text), ...heights,
});
const validLine = fc.record({
  series: fc.array(fc.integer({ min: 0, max: 30 }).chain((n) => fc.record({
    name: fc.string({ maxLength: 6 }),
    x: fc.array(fc.double({ noNaN: false }), { minLength: n, maxLength: n }),
    y: fc.array(base.chain(near), { minLength: n, maxLength: n }).map((a) => Float64Array.from(a)),
    color: optional(fc.constantFrom('#0072b2', 'red', 'rgb(1 2 3)')),
  })), { maxLength: 4 }),
  yLog: optional(fc.boolean()),
});
const appendArgs = fc.record({
  name: fc.oneof(fc.constantFrom('a', 'b', 'new'), fc.constant(7)),
  x: fc.oneof(value, numbers(3), fc.constantFrom([1, 2], 'x', null, Float64Array.from({ length: 2 ** 20 + 1 }, (_, i) => i))),
  y: fc.oneof(value, numbers(3), fc.constantFrom([1, 2], 'y')),
  style: optional(fc.oneof(fc.record({ color: optional(color), dashed: optional(fc.boolean()) }), fc.constantFrom(null, 3, { lo: [], hi: [] }))),
});
const coordinate = mostly(fc.double({ min: -1.5, max: 1.5, noNaN: true }), fc.constantFrom(...ODD));
const pointOf = fc.record({
  name: mostly(fc.string({ maxLength: 6 }), fc.constant(2)),
  x: coordinate, y: coordinate, color: optional(color),
  trail: optional(mostly(fc.array(fc.tuple(coordinate, coordinate), { maxLength: 5 }),
    fc.oneof(fc.array(fc.oneof(fc.tuple(value), fc.constant(1), fc.constant('xy'), fc.tuple(value, value, value), fc.constant(null)), { minLength: 1, maxLength: 3 }), fc.constant('trail')))),
});
const circleOptions = fc.record({ points: optional(mostly(fc.array(pointOf, { maxLength: 3 }), fc.constantFrom(null, 'p'))), ...heights });
const gridOptions = fc.record({
  maps: mostly(fc.array(fc.tuple(matrix, mostly(fc.string({ maxLength: 5 }), fc.constant(3))).map(([m, title]) => ({ ...m, title })), { maxLength: 3 }),
    fc.constantFrom(null, 'maps', Array.from({ length: 300 }, () => ({ title: '', data: [], rows: 0, cols: 0 })))),
  range: optional(mostly(fc.double({ min: 1e-9, max: 1e9, noNaN: true }), value)),
  minWidth: optional(mostly(fc.constantFrom('11rem', '160px', '0'), fc.constantFrom('url(/z)', 'calc(1px)', 12, ''))),
  scale: optional(mostly(fc.constant('sequential'), fc.constant('x'))),
});
const checkOf = fc.record({
  name: fc.oneof({ weight: 5, arbitrary: fc.constantFrom('a', 'b', 'c', 'taken', 'stamp') }, { weight: 1, arbitrary: fc.constantFrom('', 3, null) }),
  pass: optional(fc.oneof(fc.boolean(), fc.constant(1))), claim: optional(text), details: optional(text),
  fixed: optional(fc.oneof(fc.boolean(), fc.constant('no'))), pending: optional(fc.oneof(fc.boolean(), fc.constant(0))),
});
const checksArg = fc.oneof({ weight: 6, arbitrary: fc.array(checkOf, { maxLength: 4 }) }, { weight: 1, arbitrary: fc.constantFrom(null, 'checks', [null], [7]) });

// ---- the property ----

/** What a figure is now: its options (deep, as JSON with typed arrays as arrays) and its DOM. */
function state(figure, box) {
  const json = (x) => JSON.stringify(x, (k, v) => (ArrayBuffer.isView(v) && !(v instanceof DataView) ? Array.from(v, Number) : typeof v === 'function' ? `fn ${v.name}` : v));
  return { options: figure ? json(figure.options()) : null, dom: box.innerHTML };
}

/**
 * Calls `call()`; `figure()` and `box` say what must stay as it was if it throws. Checks the outcome as the header says,
 * and records it in `tally`. `valid`: the call must succeed.
 */
function outcome(call, { figure = () => null, box, draw = (x) => x?.flush?.(), valid = false, limitMs, tally }) {
  const before = state(figure(), box);
  const started = performance.now();
  let result;
  let error;
  try {
    result = call();
  } catch (e) {
    error = e;
  }
  if (error === undefined) {
    try {
      draw(result);
    } catch (e) {
      throw new Error(`the call succeeded, but the figure cannot be drawn: ${e?.name}: ${e?.message}`);
    }
  }
  const took = performance.now() - started;
  if (took > limitMs) throw new Error(`the call took ${Math.round(took)} ms, past the limit of ${limitMs} ms`);
  if (error === undefined) {
    tally.drawn += 1;
    return result;
  }
  if (valid) throw new Error(`valid options were refused: ${error?.name}: ${error?.message}`);
  if (!(error instanceof TypeError || error instanceof RangeError)) throw new Error(`refused with an ${error?.name}, not a TypeError or RangeError: ${error?.message}`);
  if (!NAMED.test(error.message)) throw new Error(`the message names no option: ${error.message}`);
  const after = state(figure(), box);
  if (after.options !== before.options) throw new Error(`a refused call changed the options: ${error.message}`);
  if (after.dom !== before.dom) throw new Error(`a refused call changed the figure: ${error.message}`);
  tally.refused += 1;
  return undefined;
}

/** A fresh box on the page for one case (the last one's removed). */
function freshBox() {
  document.getElementById('property-box')?.remove();
  const box = document.createElement('div');
  box.id = 'property-box';
  box.style.width = '420px';
  document.body.append(box);
  return box;
}

/** Runs every property; resolves to { name: { runs, drawn, refused } }, or throws fast-check's report of the first failure. */
export function run({ seed, numRuns, limitMs }) {
  const report = {};
  const property = (name, arbitrary, body) => {
    const tally = (report[name] = { runs: 0, drawn: 0, refused: 0 });
    fc.assert(fc.property(arbitrary, (arg) => {
      tally.runs += 1;
      body(arg, tally);
    }), { seed, numRuns, endOnFailure: false });
  };
  const opts = (tally, extra = {}) => ({ limitMs, tally, ...extra });

  property('heatmap(options)', heatmapOptions, (options, tally) => {
    const box = freshBox();
    const plot = outcome(() => heatmap(box, options), opts(tally, { box }));
    plot?.destroy();
  });
  property('heatmap(valid options) draws', validHeatmap, (options, tally) => {
    const box = freshBox();
    outcome(() => heatmap(box, options), opts(tally, { box, valid: true }))?.destroy();
  });
  property('heatmap.update(changes)', heatmapOptions, (changes, tally) => {
    const box = freshBox();
    const plot = heatmap(box, { data: [1, -2, 3, 4, 0, -1], rows: 2, cols: 3, marks: [{ row0: 0, row1: 1 }] });
    plot.flush();
    outcome(() => plot.update(changes), opts(tally, { box, figure: () => plot, draw: () => plot.flush() }));
    plot.destroy();
  });
  property('heatmapGrid(options) and update(changes)', fc.tuple(gridOptions, gridOptions), ([options, changes], tally) => {
    const box = freshBox();
    const grid = outcome(() => heatmapGrid(box, options), opts(tally, { box, draw: (g) => g?.maps().forEach((m) => m.flush()) }));
    if (grid) outcome(() => grid.update(changes), opts(tally, { box, figure: () => grid, draw: () => grid.maps().forEach((m) => m.flush()) }));
  });
  property('linePlot(options)', lineOptions, (options, tally) => {
    const box = freshBox();
    outcome(() => linePlot(box, options), opts(tally, { box }))?.destroy();
  });
  property('linePlot(valid options), near rounding too, draws', validLine, (options, tally) => {
    const box = freshBox();
    outcome(() => linePlot(box, options), opts(tally, { box, valid: true }))?.destroy();
  });
  property('linePlot.update(changes) and append(name, x, y, style)', fc.tuple(lineOptions, fc.array(appendArgs, { maxLength: 3 })), ([changes, appends], tally) => {
    const box = freshBox();
    const plot = linePlot(box, { series: [{ name: 'a', x: [0, 1, 2], y: [1, 1, 0.9999999999999999] }, { name: 'b', x: Float64Array.of(0, 1), y: [0.3, 0.1 + 0.2] }] });
    plot.flush();
    const figure = { plot, options: () => plot.options() };
    outcome(() => plot.update(changes), opts(tally, { box, figure: () => figure, draw: () => plot.flush() }));
    for (const { name, x, y, style } of appends) {
      outcome(() => plot.append(name, x, y, style), opts(tally, { box, figure: () => figure, draw: () => plot.flush() }));
    }
    plot.destroy();
  });
  property('circlePlot(options) and update(changes)', fc.tuple(circleOptions, circleOptions), ([options, changes], tally) => {
    const box = freshBox();
    const plot = outcome(() => circlePlot(box, options), opts(tally, { box }));
    if (plot) outcome(() => plot.update(changes), opts(tally, { box, figure: () => plot, draw: () => plot.flush() }));
    plot?.destroy();
  });
  property('renderChecks(list, checks): all or nothing; summarize counts what is shown', fc.tuple(checksArg, checksArg), ([first, second], tally) => {
    const box = freshBox();
    const taken = document.createElement('p');
    taken.id = 'check-taken';
    box.append(taken);
    const list = checkList(box);
    const counted = () => JSON.stringify(summarize(box));
    for (const checks of [first, second]) {
      const before = counted();
      const done = outcome(() => (renderChecks(list, checks), true), opts(tally, { box, draw: () => {} }));
      if (done) {
        const names = new Set([...box.querySelectorAll('[data-check]')].map((c) => c.dataset.check));
        for (const c of checks) if (!names.has(c.name)) throw new Error(`check ${c.name} was rendered but is not counted`);
        const { failures, passed, pending } = summarize(box);
        if (failures.length + passed + pending.length !== box.querySelectorAll('[data-check]').length) throw new Error('summarize miscounts');
      } else if (counted() !== before) throw new Error('a refused renderChecks changed what summarize counts');
    }
    if (taken.dataset.status !== undefined || taken.childNodes.length) throw new Error('an element of the page was taken for a check');
  });
  document.getElementById('property-box')?.remove();
  return report;
}
