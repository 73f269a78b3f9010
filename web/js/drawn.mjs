// What the page draws, readable again: a plot or table recorded under a name, so that a generated sentence's
// predicate (claims.mjs) and the browser tests check the page's words against what is on screen, not against the
// numbers the words were made from.
//   drawnPlot('weights', heatmap(f, { … }))   numbersTable(f, { drawn: 'rows', … })
//   drawnIn(section) → { weights: { data, rows, cols, … }, rows: { headers, rows, caption }, … }
// A plot (or grid of heatmaps) records its options as last updated (data, rows, cols; series; points; maps), a table
// its headers and cells. Names are unique within a section.

const registry = new Map(); // element → { name, read }

/** Records that `element` draws what read() returns, under `name`. */
export function recordDrawn(element, name, read) {
  registry.set(element, { name, read });
  element.dataset.drawn = name;
}

/** Records what `plot` (a handle of seqorder/plot: a plot or a heatmap grid) draws under `name`; returns the plot. */
export function drawnPlot(name, plot) {
  recordDrawn(plot.figure ?? plot.element, name, () => plot.options());
  return plot;
}

/** What the connected elements under `scope` draw, by name (a name drawn twice in one scope is an error). */
export function drawnIn(scope) {
  const found = {};
  for (const [element, { name, read }] of registry) {
    if (!element.isConnected || !scope.contains(element)) continue;
    if (name in found) throw new RangeError(`two elements in #${scope.id || scope.tagName} draw “${name}”`);
    found[name] = read();
  }
  return found;
}
