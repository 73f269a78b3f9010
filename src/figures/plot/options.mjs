// The plots' argument checks. A wrong kind is a TypeError, a wrong value a RangeError, each naming the option and the
// rule; a plot checks its options before it draws anything, and update(changes) checks the options it would have
// before it changes any, so a failed call leaves the plot as it was.

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

/** Whether `value` is an array or a typed array of numbers (not a DataView). */
const isNumbers = (value) => Array.isArray(value) || (ArrayBuffer.isView(value) && !(value instanceof DataView));

function numbers(value, name) {
  if (!isNumbers(value)) fail(TypeError, `${name} must be an array or a typed array of numbers, got ${describe(value)}`);
}

function count(value, name) {
  if (typeof value !== 'number') fail(TypeError, `${name} must be a number, got ${describe(value)}`);
  if (!Number.isInteger(value) || value < 0) fail(RangeError, `${name} must be an integer ≥ 0, got ${value}`);
}

function positive(options, name) {
  const value = options[name];
  if (value === undefined) return;
  if (typeof value !== 'number') fail(TypeError, `${name} must be a number, got ${describe(value)}`);
  if (!(value > 0 && value < Infinity)) fail(RangeError, `${name} must be a finite number > 0, got ${value}`);
}

function optional(options, name, type) {
  const value = options[name];
  if (value !== undefined && typeof value !== type) fail(TypeError, `${name} must be a ${type}, got ${describe(value)}`);
}

function oneOf(options, name, allowed) {
  const value = options[name];
  if (value !== undefined && !allowed.includes(value)) {
    fail(RangeError, `${name} must be ${allowed.map((a) => `'${a}'`).join(' or ')}, got ${JSON.stringify(value)}`);
  }
}

function range(options, name) {
  const value = options[name];
  if (value === undefined) return;
  if (!Array.isArray(value) || value.length !== 2) fail(TypeError, `${name} must be an array [from, to], got ${describe(value)}`);
  if (!value.every(Number.isFinite) || !(value[0] < value[1])) fail(RangeError, `${name} must be [from, to] with finite from < to, got [${value}]`);
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
  positive(options, 'height');
}

/** A matrix's data, rows and cols (under `at`, e.g. 'maps[2].'); data holds exactly rows × cols values. */
function matrix(options, at = '') {
  numbers(options.data, `${at}data`);
  count(options.rows, `${at}rows`);
  count(options.cols, `${at}cols`);
  const want = options.rows * options.cols;
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
  positive(options, 'minHeight');
  positive(options, 'maxHeight');
  for (const name of ['rowLabel', 'colLabel', 'note']) optional(options, name, 'string');
  for (const name of ['rowName', 'colName', 'tooltip']) optional(options, name, 'function');
  if (options.marks !== undefined) {
    if (!Array.isArray(options.marks)) fail(TypeError, `marks must be an array, got ${describe(options.marks)}`);
    options.marks.forEach((mark, i) => {
      for (const key of ['row0', 'row1']) count(mark?.[key], `marks[${i}].${key}`);
      for (const key of ['col0', 'col1']) if (mark[key] !== undefined) count(mark[key], `marks[${i}].${key}`);
    });
  }
}

/** heatmapGrid's options: maps, each { title, data, rows, cols } over the shared heatmap options. */
export function checkGrid({ maps, range: shared, minWidth, ...options }) {
  if (!Array.isArray(maps)) fail(TypeError, `maps must be an array, got ${describe(maps)}`);
  if (minWidth !== undefined && typeof minWidth !== 'string') fail(TypeError, `minWidth must be a CSS length (a string), got ${describe(minWidth)}`);
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
  if (!Array.isArray(series)) fail(TypeError, `series must be an array, got ${describe(series)}`);
  series.forEach((s, i) => checkSeries(s, `series[${i}]`));
  for (const name of ['xLabel', 'yLabel']) optional(options, name, 'string');
  for (const name of ['yLog', 'integerX']) optional(options, name, 'boolean');
  range(options, 'xRange');
  range(options, 'yRange');
}

/** One line: a name, x and y of one length; color a CSS color. */
export function checkSeries(s, at) {
  if (typeof s !== 'object' || s === null) fail(TypeError, `${at} must be an object, got ${describe(s)}`);
  if (typeof s.name !== 'string') fail(TypeError, `${at}.name must be a string, got ${describe(s.name)}`);
  numbers(s.x, `${at}.x`);
  numbers(s.y, `${at}.y`);
  if (s.x.length !== s.y.length) fail(RangeError, `${at} must have as many x as y values, got ${s.x.length} and ${s.y.length}`);
  optional(s, 'color', 'string');
  if ((s.lo === undefined) !== (s.hi === undefined)) fail(TypeError, `${at} needs both lo and hi for a band, or neither`);
  for (const edge of ['lo', 'hi']) {
    if (s[edge] === undefined) continue;
    numbers(s[edge], `${at}.${edge}`);
    if (s[edge].length !== s.x.length) fail(RangeError, `${at}.${edge} must have one value per x, got ${s[edge].length} for ${s.x.length}`);
  }
}

/** circlePlot's options: points, each { name, x, y }. */
export function checkCircle(options) {
  common(options);
  const { points } = options;
  if (!Array.isArray(points)) fail(TypeError, `points must be an array, got ${describe(points)}`);
  points.forEach((p, i) => {
    if (typeof p !== 'object' || p === null) fail(TypeError, `points[${i}] must be an object, got ${describe(p)}`);
    if (typeof p.name !== 'string') fail(TypeError, `points[${i}].name must be a string, got ${describe(p.name)}`);
    for (const key of ['x', 'y']) if (typeof p[key] !== 'number') fail(TypeError, `points[${i}].${key} must be a number, got ${describe(p[key])}`);
    if (p.trail !== undefined && !Array.isArray(p.trail)) fail(TypeError, `points[${i}].trail must be an array of [x, y], got ${describe(p.trail)}`);
    optional(p, 'color', 'string');
  });
}

/** linePlot's append(name, x, y): numbers, or arrays of one length. */
export function checkAppend(name, x, y) {
  if (typeof name !== 'string') fail(TypeError, `append: name must be a string, got ${describe(name)}`);
  const xs = [x].flat();
  const ys = [y].flat();
  if (![...xs, ...ys].every((v) => typeof v === 'number')) fail(TypeError, 'append: x and y must be numbers or arrays of numbers');
  if (xs.length !== ys.length) fail(RangeError, `append: as many x as y values, got ${xs.length} and ${ys.length}`);
}
