/**
 * The lesson's figures: heatmaps, heatmap grids, line plots that grow live, circle plots. Styles: seqorder/figures.css.
 * @module seqorder/plot
 */
// Types for seqorder/plot (written by hand, as the package's other declarations). The plots draw on a <canvas> in a
// <figure> appended to the container; they need the package's stylesheet, seqorder/figures.css, whose custom
// properties give their colors in light and dark mode. Nothing is eval'd and no style attribute is written: they run
// under `default-src 'self'`.
//
// What a plot cannot draw it refuses up front, with a TypeError (a wrong kind) or a RangeError (a wrong value) whose
// message names the option ("seqorder/plot: rows must be at most 32767, got 1000000000"), and a call that throws leaves
// the plot as it was. The caps: a heatmap's rows and cols at most 32,767 each and 2^24 cells in all; a line plot's
// series at most 2^20 points each (append included), a circle plot's trail as many; at most 256 series, points, maps
// or marks; heights at most 4,096 CSS pixels. Colors are CSS colors only ('#0072b2', 'rebeccapurple', 'rgb(…)'; no
// url(), var() or anything else). A range's ends must be at least 2^-32 of the larger apart (the axis divides it into
// ticks); a log axis shows values from 1e-300 to 1e300 (others are left out, as non-positive ones are), and its range
// must lie there. Data that agree up to rounding (an accuracy curve at 1 and 0.9999999999999999) are drawn as one
// value, in the middle of an axis around it. No call loops without a bound.

/** A list of numbers: an array or a typed array (a tensor's data, as seqorder returns it). */
export type Numbers = readonly number[] | Float64Array | Float32Array | Int32Array;

/** What every plot takes. */
export interface PlotOptions {
  /** A caption under the plot (a <figcaption>). */
  caption?: string;
  /** What the plot shows, for screen readers (the canvas's label, followed by how to read it by keyboard). */
  ariaLabel?: string;
  /** Height in CSS pixels, at most 4,096 (each plot has its own default; a heatmap's follows its matrix). */
  height?: number;
}

/** A label drawn in the last frame, with its box in CSS pixels (for tests: nothing overlaps, everything fits). */
export interface DrawnLabel {
  kind: string;
  text: string;
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}

/** The last drawn layout: every label's box, and the plot's own records (margins, ticks, points…). */
export interface PlotLayout {
  labels: DrawnLabel[];
  [record: string]: unknown;
}

/** What a plot function returns. */
export interface Plot<O extends PlotOptions> {
  /** The <figure> holding the canvas, its tooltip, legend and caption. */
  readonly figure: HTMLElement;
  /** The canvas: focusable, read by the arrow keys. */
  readonly canvas: HTMLCanvasElement;
  /**
   * Merges `changes` into the options and redraws in the next animation frame (many updates in one frame draw once).
   * @example
   * const map = heatmap(box, { data: so.positions(8, 16).data, rows: 8, cols: 16 });
   * slider.oninput = () => map.update({ data: so.positions(8, 16, { start: +slider.value }).data });
   * @throws {TypeError | RangeError} when the options it would have are not valid, as the plot's function; the plot
   *         is then unchanged.
   */
  update(changes?: Partial<O>): void;
  /**
   * Draws now (synchronously), e.g. before reading pixels.
   * @example
   * map.update({ range: 1 });
   * map.flush();
   * const pixels = map.canvas.getContext('2d')!.getImageData(0, 0, 1, 1).data;   // the new range's colors
   */
  flush(): void;
  /**
   * The last drawn layout, in CSS pixels.
   * @example
   * const { labels } = map.layout();
   * console.log(labels.filter((label) => label.kind === 'row').map((label) => label.text));   // the row ticks drawn
   */
  layout(): PlotLayout;
  /**
   * The current options (a shallow copy): what the plot draws.
   * @example
   * const { rows, cols } = map.options();
   * map.update({ marks: [{ row0: 0, row1: rows, col0: 0, col1: Math.min(2, cols), label: 'first pair' }] });
   */
  options(): O;
  /**
   * Removes the figure and stops following the container's size.
   * @example
   * map.destroy();   // the <figure> leaves the page; the container is as it was
   */
  destroy(): void;
}

/** An outlined block of cells: rows [row0, row1) × columns [col0, col1) (default: all columns), with a label. */
export interface HeatmapMark {
  row0: number;
  row1: number;
  col0?: number;
  col1?: number;
  label?: string;
}

export interface HeatmapOptions extends PlotOptions {
  /** rows × cols values, row-major; −Infinity is drawn as "masked", NaN as "NaN". */
  data: Numbers;
  /** An integer from 0 to 32,767 (rows × cols at most 2^24). */
  rows: number;
  /** An integer from 0 to 32,767 (rows × cols at most 2^24). */
  cols: number;
  /** 'diverging' (default: blue < 0 < red, symmetric around 0) or 'sequential' (0 … max, for weights). */
  scale?: 'diverging' | 'sequential';
  /** The value drawn at full color (default: the largest |finite value|). */
  range?: number;
  /** The rows' axis title (default 'row'; '' for none). */
  rowLabel?: string;
  /** The columns' axis title (default 'column'; '' for none). */
  colLabel?: string;
  /** The rows' tick and readout names: numbers are shown at a nice step, words all while they fit. */
  rowName?: (row: number) => string;
  /** The columns' tick and readout names (column names that are words turn 45° or shrink to fit). */
  colName?: (col: number) => string;
  /** The readout of a cell (default: "row r, column c: value"). */
  tooltip?: (row: number, col: number, value: number) => string;
  /** Outlined blocks of cells (at most 256), each within the matrix (row0 ≤ row1 ≤ rows, col0 ≤ col1 ≤ cols). */
  marks?: readonly HeatmapMark[];
  /** A short text drawn over the cells (e.g. why a map is blank). */
  note?: string;
  /** Bounds of the default height, in CSS pixels (default 120 and 420; at most 4,096). */
  minHeight?: number;
  maxHeight?: number;
}

/**
 * A heatmap of a row-major matrix, with a color bar; read by pointer, or by keyboard (arrow keys move a cursor cell by
 * cell, Home/End to a row's ends, Page Up/Down to a column's, Escape clears; each cell is announced).
 * @example
 * const so = await loadSeqorder();
 * const table = so.positions(32, 16);
 * heatmap(document.querySelector('#table')!, {
 *   data: table.data, rows: 32, cols: 16, rowLabel: 'position t', colLabel: 'column', ariaLabel: 'the sinusoid table',
 * });
 * @throws {TypeError} when the container is not an element, or an option has the wrong kind (data not an array or
 *         typed array, a name function not a function, …)
 * @throws {RangeError} when rows or cols are not integers from 0 to 32,767 (2^24 cells at most), data does not hold
 *         rows × cols values, or scale, range, heights or marks are out of their range
 */
export function heatmap(container: Element, options: HeatmapOptions): Plot<HeatmapOptions>;

/** One map of a heatmap grid: its title and its matrix (and names of its own, if any). */
export interface GridMap {
  title: string;
  data: Numbers;
  rows: number;
  cols: number;
  /** This map's own row names (else the grid's). */
  rowName?: (row: number) => string;
  /** This map's own column names (else the grid's). */
  colName?: (col: number) => string;
}

/** Options of heatmapGrid: a heatmap's, but for the matrix, and the maps. */
export interface HeatmapGridOptions extends Omit<HeatmapOptions, 'data' | 'rows' | 'cols'> {
  /** The maps (at most 256), each a full heatmap, all on one color scale. */
  maps: readonly GridMap[];
  /** The value drawn at full color in every map (default: the largest |finite value| over all maps). */
  range?: number;
  /** The narrowest a map may be before the grid wraps, a CSS length: a number and a unit (default '11rem'). */
  minWidth?: string;
}

/** What heatmapGrid returns. */
export interface HeatmapGrid {
  /** The grid's element (class plot-grid). */
  readonly element: HTMLElement;
  /**
   * Each map's heatmap.
   * @example
   * const [first] = grid.maps();
   * first.canvas.focus();   // read the first map by keyboard
   */
  maps(): Plot<HeatmapOptions>[];
  /**
   * Merges `changes` into the options and redraws (maps added or removed as needed).
   * @example
   * grid.update({ maps: heads.map((h) => ({ title: `head ${h}`, data: weightsOf(h), rows: T, cols: T })) });
   * @throws {TypeError | RangeError} as heatmapGrid; the grid is then unchanged.
   */
  update(changes: Partial<HeatmapGridOptions>): void;
  /**
   * The current options (a shallow copy): what the grid draws.
   * @example
   * const { maps } = grid.options();
   * grid.update({ maps: maps.slice(0, 2) });   // keep the first two maps
   */
  options(): HeatmapGridOptions;
}

/**
 * Small heatmaps side by side on one color scale, each titled: a batch of sequences, or the attention maps of heads.
 * @example
 * const weights = so.attention(q, k, v, { steps: true }).weights;   // (H, T, T)
 * heatmapGrid(document.body, {
 *   maps: [0, 1].map((h) => ({ title: `head ${h}`, data: weights.data.subarray(h * T * T, (h + 1) * T * T), rows: T, cols: T })),
 *   scale: 'sequential', range: 1, rowLabel: 'query', colLabel: 'key',
 * });
 * @throws {TypeError} when the container is not an element, maps is not an array, or a map or option has the wrong kind
 * @throws {RangeError} when a map's data does not hold rows × cols values, or an option is out of its range (the
 *         message names the map: `maps[1].data …`)
 */
export function heatmapGrid(container: Element, options: HeatmapGridOptions): HeatmapGrid;

/** One line of a line plot. */
export interface Series {
  name: string;
  /** As many x as y values, at most 2^20. */
  x: Numbers;
  y: Numbers;
  /** A CSS color (default: the theme's --series-i): no url() or var(). */
  color?: string;
  dashed?: boolean;
  /** Dots at the points. */
  markers?: boolean;
  /** Line width in CSS pixels (default 2; at most 64). */
  width?: number;
  /** From 0 to 1 (default 1). */
  opacity?: number;
  /** A band around the line, filled in its color: its lower and upper edges, one value per x (a range over runs). */
  lo?: Numbers;
  hi?: Numbers;
}

export interface LinePlotOptions extends PlotOptions {
  /** The lines (at most 256), sharing the axes (default none: append adds them). */
  series?: readonly Series[];
  xLabel?: string;
  yLabel?: string;
  /** [from, to] of the x axis (default: the data's extent), finite, to − from at least 2^-32 of the larger end. */
  xRange?: readonly [number, number];
  /**
   * [from, to] of the y axis (default: the data's extent, widened to nice numbers that are ticks: 0.98 → 1, and on a
   * log axis 0.698 → 0.7). Either way the lines are drawn a few pixels inside the frame, so a line at from or to shows.
   * Finite, to − from at least 2^-32 of the larger end; on a log axis within [1e-300, 1e300].
   */
  yRange?: readonly [number, number];
  /** A log10 y axis (values outside 1e-300 … 1e300, the non-positive ones among them, are left out). Default false. */
  yLog?: boolean;
  /** x ticks at whole numbers only (indices, steps). Default false. */
  integerX?: boolean;
}

export interface LinePlot extends Plot<LinePlotOptions> {
  /**
   * Adds points to the series `name` (creating it, with `style`, if there is none) and redraws in the next frame: a
   * curve that grows while it is shown (a loss, step by step). x and y: numbers, or arrays or typed arrays of one
   * length (the losses model.train returns, a Float64Array). The plot keeps its own copy of the series it grows: the
   * arrays given are never changed.
   * @example
   * const losses = linePlot(document.body, { xLabel: 'step', yLabel: 'loss', integerX: true });
   * for (let k = 0; k < 300; k++) losses.append('loss', k, model.step(ids, targets, { lr: 1e-2 }));
   * const next = model.train(batches);                                   // a Float64Array, one loss per step
   * losses.append('loss', Float64Array.from(next, (_, i) => 300 + i), next);
   * @throws {TypeError} when name is not a string, x or y are not numbers or arrays or typed arrays of numbers, or a
   *         new series' style has the wrong kind of option
   * @throws {RangeError} when x and y have different lengths, the series would pass 2^20 points, it has a band (lo,
   *         hi: give its points with update), or a new series would be the 257th; the plot is then unchanged
   */
  append(name: string, x: number | Numbers, y: number | Numbers, style?: Omit<Series, 'name' | 'x' | 'y' | 'lo' | 'hi'>): void;
}

/**
 * Lines with a legend, sharing the axes; read by pointer, or by keyboard (Left/Right move a cursor along x, Page
 * Up/Down by tenths, Home/End to the ends; every series' value is read there).
 * @example
 * const t = Array.from({ length: 64 }, (_, i) => i);
 * linePlot(document.body, {
 *   series: [{ name: 'sin(t)', x: t, y: t.map(Math.sin) }, { name: 'cos(t)', x: t, y: t.map(Math.cos) }],
 *   xLabel: 'position t', integerX: true,
 * });
 * @throws {TypeError} when the container is not an element, series is not an array, or a series or option has the
 *         wrong kind
 * @throws {RangeError} when a series has different numbers of x and y values, a range is not [from, to] with
 *         finite from < to far enough apart (or, on a log axis, within [1e-300, 1e300]), a color is not a CSS color, or
 *         a size passes its cap
 */
export function linePlot(container: Element, options?: LinePlotOptions): LinePlot;

/** A point on the unit circle (cos across, sin up), with an optional trail of earlier points. */
export interface CirclePoint {
  name: string;
  /** Finite. */
  x: number;
  /** Finite. */
  y: number;
  /** Earlier places, each [x, y] of finite numbers; at most 2^20. */
  trail?: readonly (readonly [number, number])[];
  /** A CSS color (default: the theme's --series-i): no url() or var(). */
  color?: string;
}

export interface CirclePlotOptions extends PlotOptions {
  /** At most 256. */
  points?: readonly CirclePoint[];
}

/**
 * Points on the unit circle: a sine/cosine pair as the point it traces. Read by pointer, or by keyboard (the arrow keys
 * step from point to point; each reads its angle, cos and sin).
 * @example
 * const pe = so.positions(1, 8, { start: 5 }).data;   // position 5: (sin, cos) of four frequencies
 * circlePlot(document.body, { points: [0, 1, 2, 3].map((i) => ({ name: `pair ${i}`, x: pe[2 * i + 1], y: pe[2 * i] })) });
 * @throws {TypeError} when the container is not an element, points is not an array, or a point or a trail entry has
 *         the wrong kind (a trail entry that is not [x, y])
 * @throws {RangeError} when a point or trail entry is not finite, a color is not a CSS color, or a size passes its cap
 */
export function circlePlot(container: Element, options?: CirclePlotOptions): Plot<CirclePlotOptions>;

/**
 * The figures' number formatter: `digits` significant digits (default 3), plain from 10⁻³ up to 10⁶, else exponent
 * notation; a true minus sign; ∞, −∞ and NaN by name.
 * @example
 * fmt(0.000123456, 2);  // '1.2e−4'
 * fmt(-2.5);            // '−2.5'
 * @throws {TypeError} when x or digits is not a number
 * @throws {RangeError} when digits is not an integer from 1 to 100
 */
export function fmt(x: number, digits?: number): string;
