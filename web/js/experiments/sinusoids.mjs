// Section "sinusoids": the lesson's table checked against the formula, how fast each pair turns, D = 8's four pairs,
// and why one pair alone is not enough. Each experiment returns what the section draws, its checks and its
// sentences. Pure: no DOM.
import { fmt } from '../format.mjs';
import { frequency, maxAbsDiff, positionsFormula } from './reference.mjs';
import { TOL, vec, shapeText, sameShape } from './common.mjs';

/**
 * The table the heatmap draws, checked against the formula.
 * @returns {{ table: Tensor (length, width), error: number, checks }}
 */
export function sinusoidTable(so, length, width, start) {
  const table = so.positions(length, width, { start });
  const error = maxAbsDiff(table.data, positionsFormula(length, width, { start }).data);
  const tMax = start + length - 1;
  return {
    table, error,
    checks: [{
      name: 'sinusoids-formula',
      claim: 'The table drawn is the formula above',
      pass: sameShape(table.shape, [length, width]) && error <= TOL.formula(tMax),
      details: `length ${length}, D = ${width}, t = ${start} … ${tMax}: max |seqorder − Math.sin/Math.cos| = ` +
        `${fmt(error)} ≤ ${fmt(TOL.formula(tMax))}`,
    }],
  };
}

/**
 * How fast each pair turns: the angle between positions 0 and 1 of pair i is f_i (atan2 of the table's own values).
 * @returns {{ speeds: number[], checks }}
 */
export function pairSpeeds(so, width) {
  const { data, shape } = so.positions(2, width);
  const speeds = [];
  let error = 0;
  for (let i = 0; i < width / 2; i += 1) {
    const turned = Math.atan2(data[width + 2 * i], data[width + 2 * i + 1]);
    speeds.push(turned);
    error = Math.max(error, Math.abs(turned - frequency(i, width)));
    if (Number.isNaN(turned)) error = NaN;
  }
  const last = width / 2 - 1;
  return {
    speeds,
    checks: [{
      name: 'sinusoids-pair-speeds',
      claim: width === 2 ? 'D = 2 gives one frequency pair, turning by a fixed angle per position'
        : `D = ${width} gives ${width / 2} pairs, each turning by its own fixed angle per position`,
      pass: sameShape(shape, [2, width]) && error <= 1e-14,
      details: `D = ${width}: max |measured turn − 10000^(−2i/D)| = ${fmt(error)} ≤ 1e-14; pair 0 turns ` +
        `${fmt(speeds[0])} rad per step (a full turn every ${fmt(2 * Math.PI / speeds[0])} positions), pair ${last} ` +
        `${fmt(speeds[last])} rad (every ${fmt(2 * Math.PI / speeds[last])} positions)`,
    }],
  };
}

/**
 * The lesson's count: D = 8 gives four frequency pairs. Columns (2i, 2i+1) of positions(2, 8) turn between t = 0 and
 * t = 1 by 1, 0.1, 0.01 and 0.001 rad (10000^(−2i/8) = 10^(−i), written out here by hand).
 * @returns {{ turns: number[], checks }}
 */
export function fourPairs(so) {
  const expected = [1, 0.1, 0.01, 0.001];
  const { data, shape } = so.positions(2, 8);
  const turns = expected.map((_, i) => Math.atan2(data[8 + 2 * i], data[8 + 2 * i + 1]));
  const error = maxAbsDiff(turns, expected);
  const radii = expected.map((_, i) => Math.hypot(data[8 + 2 * i], data[8 + 2 * i + 1]));
  const radiusError = maxAbsDiff(radii, [1, 1, 1, 1]);
  return {
    turns, expected,
    checks: [{
      name: 'sinusoids-d8-four-pairs',
      claim: 'D = 8: columns (0, 1), (2, 3), (4, 5), (6, 7) turn by 1, 0.1, 0.01 and 0.001 rad per position',
      pass: sameShape(shape, [2, 8]) && error <= 1e-14 && radiusError <= 1e-15,
      fixed: true,
      details: `positions(2, 8): shape ${shapeText(shape)}, 8 columns = 4 (sin, cos) pairs; measured turns ${vec(turns, 6)}; ` +
        `max |turn − 10^(−i)| = ${fmt(error)} ≤ 1e-14; every pair on the unit circle (max |r − 1| = ${fmt(radiusError)})`,
    }],
  };
}

/**
 * Why one pair alone is not enough: pair 0 (the fastest sine and its cosine) comes back near where it started,
 * within positions 1 … length−1, much nearer than its neighbour position 1, while all pairs together keep every two
 * of those positions far apart. Also the distance curves ‖p_t − p_0‖ per pair for the figure (t = 0 … curveLength−1).
 */
export function onePairComesBack(so, { length = 512, width = 64, curveLength = 160 } = {}) {
  const { data } = so.positions(length, width);
  // pair 0's distance from where it started, at every t ≥ 1; its closest return past t = 1
  const pairAt = (t, i) => Math.hypot(data[t * width + 2 * i] - data[2 * i], data[t * width + 2 * i + 1] - data[2 * i + 1]);
  let back = { d: Infinity, t: 0 };
  for (let t = 2; t < length; t += 1) if (pairAt(t, 0) < back.d) back = { d: pairAt(t, 0), t };
  const neighbour = pairAt(1, 0);
  let all = { d: Infinity, a: 0, b: 0 };
  for (let a = 0; a < length; a += 1) {
    for (let b = a + 1; b < length; b += 1) {
      let sum = 0;
      for (let c = 0; c < width; c += 1) sum += (data[a * width + c] - data[b * width + c]) ** 2;
      if (sum < all.d) all = { d: sum, a, b };
    }
  }
  all.d = Math.sqrt(all.d);
  // Distance of p_t from p_0: one pair (its two columns), and all pairs (divided by √(D/2) to share the 0…2 scale).
  const last = width / 2 - 1;
  const t = Array.from({ length: curveLength }, (_, k) => k);
  const allDistance = t.map((k) => {
    let sum = 0;
    for (let c = 0; c < width; c += 1) sum += (data[k * width + c] - data[c]) ** 2;
    return Math.sqrt(sum / (width / 2));
  });
  return {
    back, neighbour, all, width, length,
    curves: { t, fast: t.map((k) => pairAt(k, 0)), slow: t.map((k) => pairAt(k, last)), all: allDistance },
    checks: [
      {
        name: 'sinusoids-pair-0-comes-back',
        claim: `Pair 0 alone comes back: at t = ${back.t} it is within ${fmt(back.d, 2)} of where it started`,
        fixed: true,
        pass: back.t > 1 && back.d < neighbour / 20,
        details: `positions 2 … ${length - 1}, columns 0 and 1 only: closest to (sin 0, cos 0) at t = ${back.t}, ` +
          `‖(sin ${back.t}, cos ${back.t}) − (0, 1)‖ = ${fmt(back.d, 4)}, less than a twentieth of its neighbour t = 1’s ${fmt(neighbour, 4)}`,
      },
      {
        name: 'sinusoids-all-pairs-apart',
        fixed: true,
        claim: `All ${width / 2} pairs together: no two of positions 0 … ${length - 1} within 0.5, undivided`,
        pass: all.d > 0.5,
        details: `D = ${width}: the closest two are ${all.a} and ${all.b}, ‖p_${all.a} − p_${all.b}‖ = ${fmt(all.d, 4)} > 0.5 ` +
          `(pair 0 alone: ${fmt(back.d, 4)} between 0 and ${back.t})`,
      },
    ],
  };
}

/**
 * The sentence under the distance curves (onePairComesBack's result r); its predicate reads the curves drawn
 * (drawn.distances: series fast (pair 0), slow, all pairs / √(D/2), over t = 0 … curveLength−1).
 */
export function onePairSentences(r) {
  const { t, fast, all } = r.curves;
  const closest = (ys, from) => ys.reduce((best, y, k) => (k >= from && y < best.d ? { d: y, t: t[k] } : best), { d: Infinity, t: 0 });
  const pair = closest(fast, 2);
  const together = closest(all, 1);
  return [{
    name: 'sinusoids-pair-comes-back',
    text: `At D = ${r.width}, pair 0 alone comes back within ${fmt(pair.d, 2)} of its start at t = ${pair.t}; all ` +
      `${r.width / 2} pairs together stay at least ${fmt(together.d, 2)} away over t = 1 … ${t.at(-1)} ` +
      `(${fmt(together.d * Math.sqrt(r.width / 2), 3)} undivided).`,
    holds: (drawn) => {
      const [fastDrawn, , allDrawn] = drawn.distances.series;
      const a = closest(fastDrawn.y, 2);
      const b = closest(allDrawn.y, 1);
      return fmt(a.d, 2) === fmt(pair.d, 2) && a.t === pair.t && fmt(b.d, 2) === fmt(together.d, 2) && b.d > 10 * a.d;
    },
  }];
}

/** The largest change from one row to the next of column c of a (rows, cols) table (a tensor or drawn options). */
function columnStep(table, c) {
  const rows = table.shape?.[0] ?? table.rows;
  const cols = table.shape?.[1] ?? table.cols;
  let step = 0;
  for (let r = 1; r < rows; r += 1) step = Math.max(step, Math.abs(table.data[r * cols + c] - table.data[(r - 1) * cols + c]));
  return step;
}

/**
 * The sentence under the table (sinusoidTable's table, at its start): how much the first and the last column change
 * from row to row, and what the top row is; its predicate reads the map drawn (drawn.table).
 */
export function tableSentences(table, start) {
  const [length, width] = table.shape;
  const top = start === 0
    ? 'The top row is position 0: 0, 1, 0, 1, …'
    : `The top row is position ${start}, not 0: the 0, 1, 0, 1, … row of position 0 lies above this table.`;
  if (length < 2) return [`One row: nothing changes from row to row here. ${top}`];
  const first = columnStep(table, 0);
  const lastStep = columnStep(table, width - 1);
  const barely = width >= 4 && lastStep < 0.05 * first;
  const text = `Row to row, column 0 changes by up to ${fmt(first, 2)}, column ${width - 1} by up to ${fmt(lastStep, 2)}` +
    `${barely ? `: the left columns flicker, the right ones barely move over ${length} rows` : ''}.`;
  return [{
    name: 'sinusoids-columns-move',
    text,
    holds: (drawn) => drawn.table.rows === length && drawn.table.cols === width &&
      fmt(columnStep(drawn.table, 0), 2) === fmt(first, 2) && fmt(columnStep(drawn.table, width - 1), 2) === fmt(lastStep, 2) &&
      (!barely || columnStep(drawn.table, width - 1) < 0.05 * columnStep(drawn.table, 0)),
  }, top];
}

/** The turn of pair i from row r − 1 to row r of a drawn table (its options), in rad, in [0, 2π). */
function turnOf(table, i, r) {
  const w = table.cols;
  const at = (row, c) => table.data[row * w + c];
  const angle = (row) => Math.atan2(at(row, 2 * i), at(row, 2 * i + 1));
  return ((angle(r) - angle(r - 1)) % (2 * Math.PI) + 2 * Math.PI) % (2 * Math.PI);
}

/**
 * The sentence under the circles: how far pair 0 and the last pair turn per position at width D; its predicate reads
 * the table drawn (drawn.table, when it has two rows or more) or the circles' trails (drawn.circles).
 */
export function turnSentences(width) {
  const last = width / 2 - 1;
  const fast = frequency(0, width);
  const slow = frequency(last, width);
  return [{
    name: 'sinusoids-pair-turns',
    text: last === 0
      ? `From one position to the next, the one pair turns ${fmt(fast)} rad (D = ${width}).`
      : `From one position to the next, pair 0 turns ${fmt(fast)} rad and pair ${last} ${fmt(slow)} rad (D = ${width}).`,
    holds: (drawn) => {
      let turns;
      if (drawn.table.rows >= 2 && drawn.table.cols === width) turns = [turnOf(drawn.table, 0, 1), turnOf(drawn.table, last, 1)];
      else {
        const trail = (name) => drawn.circles.points.find((p) => p.name.startsWith(`pair ${name} `))?.trail ?? [];
        const step = (tr) => (tr.length < 2 ? NaN : ((Math.atan2(tr[1][1], tr[1][0]) - Math.atan2(tr[0][1], tr[0][0])) % (2 * Math.PI) + 2 * Math.PI) % (2 * Math.PI));
        turns = [step(trail(0)), step(trail(last))];
      }
      return fmt(turns[0]) === fmt(fast) && fmt(turns[1]) === fmt(slow);
    },
  }];
}

/** The sentence under D = 8's four pairs (fourPairs' result); its predicate reads the table drawn (drawn.pairs). */
export function fourPairsSentences(r) {
  const every = r.turns.map((turn) => 2 * Math.PI / turn);
  const slower = r.turns.slice(1).map((turn, i) => r.turns[i] / turn);
  const tenfold = slower.every((x) => Math.abs(x - 10) < 1e-9);
  return [{
    name: 'sinusoids-four-pairs',
    text: `Four pairs${tenfold ? ', each turning ten times more slowly than the one before' : ''}: pair 0 comes round every ` +
      `${fmt(every[0], 3)} positions, pair 3 every ${fmt(every[3], 4)}.`,
    holds: (drawn) => {
      const turns = drawn.pairs.rows.map((row) => row[2]);
      return turns.length === 4 && fmt(2 * Math.PI / turns[0], 3) === fmt(every[0], 3) && fmt(2 * Math.PI / turns[3], 4) === fmt(every[3], 4) &&
        (!tenfold || turns.slice(1).every((turn, i) => Math.abs(turns[i] / turn - 10) < 1e-9));
    },
  }];
}

/**
 * The table's two facts the lesson states with its code: an odd width is refused (every sine needs its cosine
 * partner), and the table is a (length, 1) column of positions times a (1, D/2) row of frequencies, broadcast to
 * every position–frequency angle at once, then its sines and cosines interleaved. The angles are computed here by
 * that product; seqorder's table must be their sines and cosines. Returns the angles and two checks.
 */
export function broadcastAndWidth(so, { length = 4, width = 8, oddWidth = 7 } = {}) {
  let refused = null;
  try {
    so.positions(length, oddWidth);
  } catch (error) {
    refused = error;
  }
  const positions = Array.from({ length }, (_, t) => t);
  const frequencies = Array.from({ length: width / 2 }, (_, i) => frequency(i, width));
  const angles = positions.map((t) => frequencies.map((f) => t * f)); // (length, 1) × (1, D/2)
  const table = so.positions(length, width);
  let error = 0;
  angles.forEach((row, t) => row.forEach((a, i) => {
    error = Math.max(error, Math.abs(table.data[t * width + 2 * i] - Math.sin(a)), Math.abs(table.data[t * width + 2 * i + 1] - Math.cos(a)));
  }));
  return {
    angles, positions, frequencies, refused,
    checks: [
      {
        name: 'sinusoids-odd-width-refused',
        fixed: true,
        claim: `An odd width is refused: positions(${length}, ${oddWidth})`,
        pass: refused instanceof RangeError && /width/.test(refused.message) && /even/.test(refused.message),
        details: refused ? `${refused.name}: ${refused.message}` : `no error: positions(${length}, ${oddWidth}) returned a table`,
      },
      {
        name: 'sinusoids-broadcast',
        fixed: true,
        claim: `positions(${length}, ${width}) is sin and cos of the (${length}, 1) × (1, ${width / 2}) angles, interleaved`,
        pass: sameShape(table.shape, [length, width]) && error <= TOL.formula(length),
        details: `positions(${length}, ${width}) against sin and cos of the ${length} × ${width / 2} angles: max |difference| = ` +
          `${fmt(error)} ≤ ${fmt(TOL.formula(length))}`,
      },
    ],
  };
}
