// The lab's relative-bias figure (the bench page's): for each T5 relative-bias model of a run (its first seed), after
// training, the bias each head adds to a score against the offset d = key − query (bias.mjs's biasByOffset: its
// learned table read through T5's buckets), over the offsets of the longest measured sentence; a sentence per model
// says, from the plot's numbers, where each head adds most and least within the trained distances. It records each
// plot as drawn ("offsets-<kind>").
import { fmt } from '../format.mjs';
import { linePlot } from '../../lib/figures/plot/index.mjs';
import { say } from '../claims.mjs';
import { drawnPlot } from '../drawn.mjs';
import { el, fig, more } from '../ui.mjs';
import { biasByOffset } from './bias.mjs';
import { kindLabel, kindOf } from './config.mjs';
import { measuredLengths } from './tasks.mjs';

/** Within the trained distances (|d| < longest): each head's offsets of largest and smallest bias, from a plot's series. */
export function extremes(series, longest) {
  return series.map((s) => {
    let most = null;
    let least = null;
    Array.from(s.x).forEach((d, k) => {
      if (Math.abs(d) >= longest) return;
      if (most === null || s.y[k] > s.y[most]) most = k;
      if (least === null || s.y[k] < s.y[least]) least = k;
    });
    return { most: [s.x[most], s.y[most]], least: [s.x[least], s.y[least]] };
  });
}

/** The figure, hidden until a run with a relative-bias model is shown. Returns { show(run, step), hide() }. */
export function offsetsFigure(root) {
  const f = fig(root, { title: 'The relative bias, learnt: what each head adds by distance', id: 'lab-offsets' });
  const body = el('div', { className: 'lab-offsets' });
  f.append(body);
  more(f, 'Reading the plot',
    'A T5 relative-bias model learns one number per head and bucket, added to the score of every query–key pair whose ' +
    'offset d = key − query falls in that bucket, before the softmax: d < 0 is a word before the query. Offsets below ' +
    'half the buckets have a bucket each; longer ones share buckets that widen with the distance, and from maxDistance ' +
    'on, one bucket holds them all (bias.mjs follows T5’s _relative_position_bucket).');
  f.hidden = true;
  let latest = 0;

  return {
    /**
     * Draws the relative-bias models of `run` (paused or done) at the step they stand at; resolves when drawn, to what
     * is drawn ([{ key, seed, step, T, offsets, heads: [a value per offset, per head] }], the record's `offsets`), or
     * null when another show or hide came meanwhile.
     */
    async show(run) {
      const request = ++latest;
      const { config } = run;
      const models = config.kinds.filter((key) => kindOf(key).positions === 'relative')
        .map((key) => run.models.find((m) => m.key === key));
      const tables = await Promise.all(models.map(async (m) => (await m.handle.parameters()).relativeBias));
      if (request !== latest) return null;
      f.hidden = models.length === 0;
      body.replaceChildren();
      const T = Math.max(...measuredLengths(config));
      return models.map((m, i) => {
        const { offsets, values, shape: [H, n] } = biasByOffset(m.handle.config, T, tables[i]);
        const label = kindLabel(m.key, config);
        const block = el('div', { className: 'figure-block' });
        body.append(block);
        const series = Array.from({ length: H }, (_, h) => ({ name: `head ${h + 1}`, x: Float64Array.from(offsets), y: Float64Array.from(values.subarray(h * n, (h + 1) * n)) }));
        drawnPlot(`offsets-${m.key}`, linePlot(block, {
          series, xLabel: 'offset d = key − query', yLabel: 'bias added', integerX: true, height: 200,
          ariaLabel: `${label}: the bias each head adds to a score by the offset of the key from the query`,
          caption: `${label} (seed ${m.seed}), after ${run.step} steps: the bias by offset, to ±${T - 1} (${T} words, 8× the longest trained).`,
        }));
        const line = el('p', { className: 'notice lab-offsets-line' });
        block.append(line);
        const found = extremes(series, config.longest);
        const heads = found.map((e, h) => `head ${h + 1} adds most at d = ${e.most[0]} (${fmt(e.most[1], 3)}) and least at d = ${e.least[0]} (${fmt(e.least[1], 3)})`);
        say(line, {
          name: `offsets-${m.key}`,
          text: `${label}, within the trained distances (|d| < ${config.longest}): ${heads.join('; ')}.`,
          holds: (drawn) => JSON.stringify(extremes(drawn[`offsets-${m.key}`].series, config.longest)) === JSON.stringify(found),
        });
        return { key: m.key, seed: m.seed, step: run.step, T, offsets, heads: series.map((x) => Array.from(x.y)) };
      });
    },
    /** Hides the figure (a run is training, or none is shown). */
    hide() {
      latest += 1;
      f.hidden = true;
    },
  };
}
