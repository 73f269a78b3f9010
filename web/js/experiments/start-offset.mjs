// Section "start-offset": the rows for start = s are rows s… of a table from 0; restarting at 0 is wrong.
// Pure: no DOM.
import { fmt } from '../format.mjs';
import { maxAbsDiff, positionsFormula } from './reference.mjs';
import { TOL } from './common.mjs';

/** Rows start … start+count−1 of a table from 0, computed two ways, and the table restarted at 0 for comparison. */
export function startOffset(so, { start, count, width }) {
  const fromZero = so.positions(start + count, width);
  const offset = so.positions(count, width, { start });
  const restarted = so.positions(count, width);
  const tail = fromZero.data.subarray(start * width);
  return {
    fromZero, offset, restarted,
    error: maxAbsDiff(offset.data, tail),
    restartError: maxAbsDiff(restarted.data, tail),
  };
}

/** The lesson's case (10 tokens of prefix) and larger offsets, checked; plus the live check for slider values. */
export function startOffsetChecks(so, { starts = [10, 1000, 100000], count = 8, width = 64 } = {}) {
  const results = starts.map((start) => ({ start, ...startOffset(so, { start, count, width }) }));
  const bad = results.filter((r) => !(r.error <= TOL.formula(r.start + count)));
  const lesson = results[0];
  return {
    results,
    checks: [
      {
        name: 'start-offset-rows',
        fixed: true,
        claim: 'start = s gives rows s, s+1, … of a table from 0',
        pass: bad.length === 0,
        details: `${count} rows, D = ${width}: ` + results.map((r) => `s = ${fmt(r.start)}: max |diff| = ${fmt(r.error)} ≤ ` +
          `${fmt(TOL.formula(r.start + count))}`).join('; '),
      },
      {
        name: 'start-offset-restart-differs',
        fixed: true,
        claim: 'After a prefix of 10, restarting at 0 gives other vectors',
        pass: lesson.restartError > TOL.different,
        details: `rows of start = 0 vs the right rows 10 … ${10 + count - 1}: max |diff| = ${fmt(lesson.restartError)} > ${fmt(TOL.different)}`,
      },
    ],
  };
}

/** The check for the slider's prefix/new-token values. */
export function startOffsetLiveCheck(result, { start, count, width }) {
  return {
    name: 'start-offset-live',
    claim: `Your choice: ${count} new token${count === 1 ? '' : 's'} after a prefix of ${start} use rows ${start} … ${start + count - 1}`,
    pass: result.error <= TOL.formula(start + count),
    details: `D = ${width}: max |positions(${count}, ${width}, start ${start}) − rows ${start}… of positions(${start + count}, ${width})| = ` +
      `${fmt(result.error)} ≤ ${fmt(TOL.formula(start + count))}`,
  };
}

/** The check of the right-hand picture for the slider's values: restarting at 0 is wrong after any prefix. */
export function startOffsetRestartCheck(result, { start, count }) {
  return start === 0 ? {
    name: 'start-offset-live-restart',
    claim: 'With no prefix, start = 0 is right: the new tokens are the first ones',
    pass: result.restartError === 0,
    details: `prefix 0: max |positions(${count}, D) − rows 0… of the table| = ${fmt(result.restartError)} (bit for bit)`,
  } : {
    name: 'start-offset-live-restart',
    claim: `Restarting at 0 after ${start} tokens gives the rows of positions 0 … ${count - 1} instead`,
    pass: result.restartError > TOL.different,
    details: `max |rows 0 … ${count - 1} − the right rows ${start} … ${start + count - 1}| = ${fmt(result.restartError)} > ${fmt(TOL.different)}`,
  };
}

/**
 * The sentence under the three maps (startOffset's result at start, count); its predicate reads the maps drawn
 * (drawn.full: the last rows of the table from 0, the new ones last; drawn.cached; drawn.restarted).
 */
export function startOffsetSentences(r, { start, count, width }) {
  const tol = TOL.formula(start + count);
  const lastRows = (map) => map.data.subarray((map.rows - count) * map.cols);
  const firstRows = positionsFormula(count, width).data;
  if (start === 0) {
    return [{
      name: 'start-offset-agree',
      text: 'With no prefix, all three agree: the new tokens are the first ones, and start = 0 is right.',
      holds: (drawn) => maxAbsDiff(drawn.cached.data, lastRows(drawn.full)) <= tol && maxAbsDiff(drawn.restarted.data, drawn.cached.data) === 0,
    }];
  }
  const gap = maxAbsDiff(r.restarted.data, r.offset.data);
  return [{
    name: 'start-offset-repeats',
    text: `The middle map repeats the outlined rows ${start} … ${start + count - 1}; the right one holds positions ` +
      `0 … ${count - 1} and differs from them by up to ${fmt(gap, 3)}.`,
    holds: (drawn) => maxAbsDiff(drawn.cached.data, lastRows(drawn.full)) <= tol && maxAbsDiff(drawn.restarted.data, firstRows) <= TOL.formula(count) &&
      fmt(maxAbsDiff(drawn.restarted.data, drawn.cached.data), 3) === fmt(gap, 3) && gap > TOL.different,
  }];
}
