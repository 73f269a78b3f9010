// The plots' argument checks. A wrong kind is a TypeError, a wrong value a RangeError, each naming the option and the
// rule; a plot checks its options before it draws anything, and update(changes) checks the options it would have
// before it changes any, so a failed call leaves the plot as it was. What a plot cannot draw is refused here, up
// front: sizes past the caps below, ranges too narrow to divide, log ranges that are not positive, colors that are
// not plain CSS colors (no url(), no var()).

/** The most rows, and the most columns, of a heatmap (the browsers' largest canvas side). */
export const MAX_SIDE = 32767;
/** The most cells (rows × cols) of a heatmap: 2^24, the largest canvas area every engine paints. */
export const MAX_CELLS = 2 ** 24;
/** The most points of a line plot's series (also after append), and of a circle plot's trail: 2^20. */
export const MAX_POINTS = 2 ** 20;
/** The most series of a line plot, points of a circle plot, maps of a grid, marks of a heatmap. */
export const MAX_ITEMS = 256;
/** The tallest a plot may be, in CSS pixels (height, minHeight, maxHeight). */
export const MAX_HEIGHT = 4096;
/** The smallest and largest values a log axis can show (its range, and the data it draws). */
export const LOG_LIMITS = [1e-300, 1e300];
/** A range's ends must be at least this much of the larger end apart (2^-32: the axis divides it into ticks). */
export const MIN_RELATIVE_SPAN = 2 ** -32;

const fail = (Kind, message) => {
  throw new Kind(`seqorder/plot: ${message}`);
};

/** The container a plot is appended to: a DOM element. */
export function checkContainer(container) {
  if (typeof container !== 'object' || container === null || container.nodeType !== 1 || typeof container.append !== 'function') {
    fail(TypeError, `the container must be a DOM element, got ${describe(container)}`);
  }
}

/** What a value is, for messages: its type, or its class for an object. */
function describe(value) {
  if (value === null) return 'null';
  if (typeof value !== 'object') return typeof value;
  return value.constructor?.name ?? 'an object';
}

/** Whether `value` is an array or a typed array of numbers (not a DataView, not a BigInt64Array). */
export const isNumbers = (value) => Array.isArray(value) ||
  (ArrayBuffer.isView(value) && !(value instanceof DataView) && typeof value[Symbol.iterator] === 'function' &&
    !(value instanceof BigInt64Array) && !(value instanceof BigUint64Array));

/** A list of numbers under `name`: an array of numbers, or a typed array; at most `most` of them. */
function numbers(value, name, most) {
  if (!isNumbers(value)) fail(TypeError, `${name} must be an array or a typed array of numbers, got ${describe(value)}`);
  if (value.length > most) fail(RangeError, `${name} may hold at most ${most} values, got ${value.length}`);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) {
      if (typeof value[i] !== 'number') fail(TypeError, `${name}[${i}] must be a number, got ${describe(value[i])}`);
    }
  }
}

function count(value, name, most = Infinity) {
  if (typeof value !== 'number') fail(TypeError, `${name} must be a number, got ${describe(value)}`);
  if (!Number.isInteger(value) || value < 0) fail(RangeError, `${name} must be an integer ≥ 0, got ${value}`);
  if (value > most) fail(RangeError, `${name} must be at most ${most}, got ${value}`);
}

function positive(options, name, most = Infinity) {
  const value = options[name];
  if (value === undefined) return;
  if (typeof value !== 'number') fail(TypeError, `${name} must be a number, got ${describe(value)}`);
  if (!(value > 0 && value < Infinity)) fail(RangeError, `${name} must be a finite number > 0, got ${value}`);
  if (value > most) fail(RangeError, `${name} must be at most ${most}, got ${value}`);
}

function optional(options, name, type, at = '') {
  const value = options[name];
  if (value !== undefined && typeof value !== type) fail(TypeError, `${at}${name} must be a ${type}, got ${describe(value)}`);
}

function oneOf(options, name, allowed) {
  const value = options[name];
  if (value !== undefined && !allowed.includes(value)) {
    fail(RangeError, `${name} must be ${allowed.map((a) => `'${a}'`).join(' or ')}, got ${JSON.stringify(value)}`);
  }
}

/** A list of items (series, points, maps, marks): an array of at most MAX_ITEMS. */
function items(value, name, what) {
  if (!Array.isArray(value)) fail(TypeError, `${name} must be an array${what}, got ${describe(value)}`);
  if (value.length > MAX_ITEMS) fail(RangeError, `${name} may hold at most ${MAX_ITEMS} entries, got ${value.length}`);
}

/**
 * Whether lo < hi are far enough apart for an axis to divide: finite, their difference finite and at least
 * MIN_RELATIVE_SPAN of the larger end (and of the smallest normal number).
 */
export function divisible(lo, hi) {
  const span = hi - lo;
  return Number.isFinite(lo) && Number.isFinite(hi) && span < Infinity &&
    span >= Math.max(Math.abs(lo), Math.abs(hi), 2 ** -1022) * MIN_RELATIVE_SPAN;
}

/** A range [from, to] under `name`; `log`: on a log axis, where both ends are within LOG_LIMITS. */
function range(options, name, log = false) {
  const value = options[name];
  if (value === undefined) return;
  if (!Array.isArray(value) || value.length !== 2) fail(TypeError, `${name} must be an array [from, to], got ${describe(value)}`);
  const [from, to] = value;
  if (typeof from !== 'number' || typeof to !== 'number') fail(TypeError, `${name} must hold two numbers, got [${value.map(describe)}]`);
  if (!(from < to) || !Number.isFinite(from) || !Number.isFinite(to)) fail(RangeError, `${name} must be [from, to] with finite from < to, got [${value}]`);
  if (log) {
    if (!(from >= LOG_LIMITS[0] && to <= LOG_LIMITS[1])) {
      fail(RangeError, `${name} on a log axis (yLog) must lie within [${LOG_LIMITS}] (a log axis shows positive values only), got [${value}]`);
    }
  }
  if (!divisible(from, to)) {
    fail(RangeError, `${name}'s ends must be apart by at least 2^-32 of the larger (an axis divides the range into ticks), got [${value}]`);
  }
}

/** A CSS color (a hex, a name, rgb(), hsl(), …): nothing else reaches a style or a canvas (no url(), var(), env()). */
function color(options, name, at) {
  const value = options[name];
  if (value === undefined) return;
  if (typeof value !== 'string') fail(TypeError, `${at}${name} must be a CSS color (a string), got ${describe(value)}`);
  const plain = value.length <= 100 && !/url\(|var\(|env\(|attr\(|image|[;{}\\]|!important/i.test(value);
  const parsed = typeof CSS === 'object' && typeof CSS?.supports === 'function'
    ? CSS.supports('color', value)
    : /^\s*(#[0-9a-f]{3,8}|[a-z]+|[a-z-]+\([^()]*\))\s*$/i.test(value);
  if (!plain || !parsed) fail(RangeError, `${at}${name} must be a CSS color ('#0072b2', 'rebeccapurple', 'rgb(0 114 178)', …), got ${JSON.stringify(value.slice(0, 60))}`);
}

/** A plot's options argument: an object (checked before its defaults are merged in). */
export function checkObject(options) {
  if (typeof options !== 'object' || options === null) fail(TypeError, `options must be an object, got ${describe(options)}`);
}

/** What every plot takes: caption, ariaLabel, height. */
function common(options) {
  checkObject(options);
  optional(options, 'caption', 'string');
  optional(options, 'ariaLabel', 'string');
  positive(options, 'height', MAX_HEIGHT);
}

/** A matrix's data, rows and cols (under `at`, e.g. 'maps[2].'); data holds exactly rows × cols values. */
function matrix(options, at = '') {
  count(options.rows, `${at}rows`, MAX_SIDE);
  count(options.cols, `${at}cols`, MAX_SIDE);
  const want = options.rows * options.cols;
  if (want > MAX_CELLS) fail(RangeError, `${at}rows × cols may be at most ${MAX_CELLS} cells, got ${options.rows} × ${options.cols} = ${want}`);
  numbers(options.data, `${at}data`, MAX_CELLS);
  if (options.data.length !== want) {
    fail(RangeError, `${at}data must hold rows × cols = ${options.rows} × ${options.cols} = ${want} values, got ${options.data.length}`);
  }
}

/** heatmap's options (heatmapGrid's maps are checked as these, with their own data, rows and cols). */
export function checkHeatmap(options, at = '') {
  common(options);
  matrix(options, at);
  oneOf(options, 'scale', ['diverging', 'sequential']);
  positive(options, 'range');
  positive(options, 'minHeight', MAX_HEIGHT);
  positive(options, 'maxHeight', MAX_HEIGHT);
  for (const name of ['rowLabel', 'colLabel', 'note']) optional(options, name, 'string');
  for (const name of ['rowName', 'colName', 'tooltip']) optional(options, name, 'function');
  if (options.marks !== undefined) {
    items(options.marks, 'marks', ' of { row0, row1, col0?, col1?, label? }');
    options.marks.forEach((mark, i) => {
      if (typeof mark !== 'object' || mark === null) fail(TypeError, `marks[${i}] must be an object, got ${describe(mark)}`);
      const { row0, row1, col0 = 0, col1 = options.cols } = mark;
      for (const [key, value] of [['row0', row0], ['row1', row1], ['col0', col0], ['col1', col1]]) count(value, `marks[${i}].${key}`);
      if (!(row0 <= row1 && row1 <= options.rows)) fail(RangeError, `marks[${i}] must have row0 ≤ row1 ≤ rows (${options.rows}), got ${row0} and ${row1}`);
      if (!(col0 <= col1 && col1 <= options.cols)) fail(RangeError, `marks[${i}] must have col0 ≤ col1 ≤ cols (${options.cols}), got ${col0} and ${col1}`);
      optional(mark, 'label', 'string', `marks[${i}].`);
    });
  }
}

/** heatmapGrid's options: maps, each { title, data, rows, cols } over the shared heatmap options. */
export function checkGrid({ maps, range: shared, minWidth, ...options }) {
  items(maps, 'maps', '');
  if (minWidth !== undefined) {
    if (typeof minWidth !== 'string') fail(TypeError, `minWidth must be a CSS length (a string), got ${describe(minWidth)}`);
    if (!/^(0|\d{1,5}(\.\d{1,4})?(px|rem|em|ch|ex|vw|vh|vmin|vmax|%|cm|mm|in|pt|pc))$/.test(minWidth)) {
      fail(RangeError, `minWidth must be a CSS length ('11rem', '160px', …), got ${JSON.stringify(minWidth.slice(0, 60))}`);
    }
  }
  maps.forEach((map, i) => {
    if (typeof map !== 'object' || map === null) fail(TypeError, `maps[${i}] must be an object, got ${describe(map)}`);
    if (typeof map.title !== 'string') fail(TypeError, `maps[${i}].title must be a string, got ${describe(map.title)}`);
    const { title, ...own } = map;
    checkHeatmap({ ...options, ...own, range: shared }, `maps[${i}].`);
  });
}

/** linePlot's options: series, each { name, x, y } with as many x as y. */
export function checkLines(options) {
  common(options);
  const { series } = options;
  items(series, 'series', '');
  series.forEach((s, i) => checkSeries(s, `series[${i}]`));
  for (const name of ['xLabel', 'yLabel']) optional(options, name, 'string');
  for (const name of ['yLog', 'integerX']) optional(options, name, 'boolean');
  range(options, 'xRange');
  range(options, 'yRange', options.yLog === true);
}

/** One line: a name, x and y of one length; color a CSS color; width and opacity in their ranges. */
export function checkSeries(s, at) {
  if (typeof s !== 'object' || s === null) fail(TypeError, `${at} must be an object, got ${describe(s)}`);
  if (typeof s.name !== 'string') fail(TypeError, `${at}.name must be a string, got ${describe(s.name)}`);
  numbers(s.x, `${at}.x`, MAX_POINTS);
  numbers(s.y, `${at}.y`, MAX_POINTS);
  if (s.x.length !== s.y.length) fail(RangeError, `${at} must have as many x as y values, got ${s.x.length} and ${s.y.length}`);
  color(s, 'color', `${at}.`);
  for (const key of ['dashed', 'markers']) optional(s, key, 'boolean', `${at}.`);
  positive(s, 'width', 64);
  if (s.opacity !== undefined) {
    if (typeof s.opacity !== 'number') fail(TypeError, `${at}.opacity must be a number, got ${describe(s.opacity)}`);
    if (!(s.opacity >= 0 && s.opacity <= 1)) fail(RangeError, `${at}.opacity must be from 0 to 1, got ${s.opacity}`);
  }
  if ((s.lo === undefined) !== (s.hi === undefined)) fail(TypeError, `${at} needs both lo and hi for a band, or neither`);
  for (const edge of ['lo', 'hi']) {
    if (s[edge] === undefined) continue;
    numbers(s[edge], `${at}.${edge}`, MAX_POINTS);
    if (s[edge].length !== s.x.length) fail(RangeError, `${at}.${edge} must have one value per x, got ${s[edge].length} for ${s.x.length}`);
  }
}

/** circlePlot's options: points, each { name, x, y, trail?: [[x, y], …], color? }, at finite places. */
export function checkCircle(options) {
  common(options);
  const { points } = options;
  items(points, 'points', '');
  points.forEach((p, i) => {
    const at = `points[${i}]`;
    if (typeof p !== 'object' || p === null) fail(TypeError, `${at} must be an object, got ${describe(p)}`);
    if (typeof p.name !== 'string') fail(TypeError, `${at}.name must be a string, got ${describe(p.name)}`);
    for (const key of ['x', 'y']) {
      if (typeof p[key] !== 'number') fail(TypeError, `${at}.${key} must be a number, got ${describe(p[key])}`);
      if (!Number.isFinite(p[key])) fail(RangeError, `${at}.${key} must be finite, got ${p[key]}`);
    }
    if (p.trail !== undefined) {
      if (!Array.isArray(p.trail)) fail(TypeError, `${at}.trail must be an array of [x, y], got ${describe(p.trail)}`);
      if (p.trail.length > MAX_POINTS) fail(RangeError, `${at}.trail may hold at most ${MAX_POINTS} points, got ${p.trail.length}`);
      p.trail.forEach((q, j) => {
        if (!isNumbers(q) || q.length !== 2) fail(TypeError, `${at}.trail[${j}] must be [x, y], got ${describe(q)}`);
        if (typeof q[0] !== 'number' || typeof q[1] !== 'number') fail(TypeError, `${at}.trail[${j}] must be [x, y] of numbers`);
        if (!Number.isFinite(q[0]) || !Number.isFinite(q[1])) fail(RangeError, `${at}.trail[${j}] must be finite, got [${q[0]}, ${q[1]}]`);
      });
    }
    color(p, 'color', `${at}.`);
  });
}

/**
 * linePlot's append(name, x, y, style) onto the series `current` (or a new one, with `style`, among `count` series):
 * → { xs, ys }, the points as arrays of numbers (x and y: numbers, or arrays or typed arrays of one length).
 */
export function readAppend(name, x, y, style, current, count) {
  if (typeof name !== 'string') fail(TypeError, `append: name must be a string, got ${describe(name)}`);
  const list = (value, which) => {
    if (typeof value === 'number') return [value];
    numbers(value, `append: ${which}`, MAX_POINTS);
    return value;
  };
  if (!(typeof x === 'number' || isNumbers(x)) || !(typeof y === 'number' || isNumbers(y))) {
    fail(TypeError, 'append: x and y must be numbers, or arrays or typed arrays of numbers');
  }
  const xs = list(x, 'x');
  const ys = list(y, 'y');
  if (xs.length !== ys.length) fail(RangeError, `append: as many x as y values, got ${xs.length} and ${ys.length}`);
  if (current) {
    if (current.lo !== undefined) fail(RangeError, `append: the series ${JSON.stringify(name)} has a band (lo, hi), which append cannot extend: give its points with update({ series })`);
    if (current.x.length + xs.length > MAX_POINTS) {
      fail(RangeError, `append: the series ${JSON.stringify(name)} may hold at most ${MAX_POINTS} points, would hold ${current.x.length + xs.length}`);
    }
  } else {
    if (typeof style !== 'object' || style === null) fail(TypeError, `append: style must be an object, got ${describe(style)}`);
    if (count >= MAX_ITEMS) fail(RangeError, `append: a line plot holds at most ${MAX_ITEMS} series`);
    if (style.lo !== undefined || style.hi !== undefined) fail(RangeError, `append: a new series cannot have a band (lo, hi): give its points with update({ series })`);
    checkSeries({ ...style, name, x: [], y: [] }, `append: the series ${JSON.stringify(name)}`);
  }
  return { xs, ys };
}
