// How the pool divides one attention call among its workers, from the core's plan (../api.mjs, attentionPlanner).
//
// The call's query rows, batch item after batch item (B·Tq rows in all; B the product of the leading axes), are cut
// into runs, one per worker, of work in proportion to how fast each worker has been (pace.mjs; even until they
// differ). A cut falls only where a row group of the kernel starts (row i of a batch item with i a multiple of
// plan.rowGroup, or its end), so each row is computed in the same group as in one call on one thread, and the results
// are the same bits; near a batch item's edge, on the edge. A run is then a list of attention calls on contiguous
// slabs of q, k and v: whole batch items together, or a range of rows within one, causal from its own queryStart.

import { DTYPES } from '../arguments.mjs';

/**
 * The least work (multiply-adds) worth a run of its own: ~0.5 ms of one core, what a run's messages, copies and the
 * waking of a worker cost on a busy machine (bench/pool.mjs measures them at T = 256).
 */
export const MIN_RUN_WORK = 2 ** 23;

/**
 * A cut inside a batch item costs that item's k and v copied for both runs, and a call more in each; a cut that would
 * fall within this much work (multiply-adds, ~0.05 ms of one core) of an item's edge falls on the edge.
 */
export const ITEM_EDGE_WORK = 2 ** 20;

/** The work of the first r rows of a batch item, in keys seen (each row also counts 1, for its own fixed work). */
function rowsWork(plan, r) {
  if (!plan.causal) return r * (plan.keys + 1);
  return r * (plan.queryStart + 2) + (r * (r - 1)) / 2;  // row i sees queryStart + i + 1 keys
}

/**
 * Cuts the plan's B·Tq rows into runs [first, end) of rows (row g is row g % Tq of batch item ⌊g / Tq⌋), in order,
 * none empty, each starting and ending on a row group. `shares`: how many runs at most, or each run's share of the
 * work, in proportion (a worker's pace: pace.mjs), one per run at most; the work of run j is as near shares[j] of the
 * whole as the groups allow. Fewer runs when the call is small (MIN_RUN_WORK) or has fewer groups than shares: the
 * first shares then.
 */
export function cutRows(plan, shares) {
  const { batch: B, queries: Tq, rowGroup: G } = plan;
  const rows = B * Tq;
  if (rows === 0) return [];
  const perItem = rowsWork(plan, Tq);
  const total = B * perItem;
  const groups = B * Math.ceil(Tq / G);
  const multiplyAdds = total * (plan.width + plan.valueWidth);
  const weights = typeof shares === 'number' ? new Array(shares).fill(1) : shares;
  const n = Math.max(1, Math.min(weights.length, groups, Math.floor(multiplyAdds / MIN_RUN_WORK)));
  const sum = weights.slice(0, n).reduce((a, b) => a + b, 0);
  const cuts = [0];
  let before = 0;
  for (let j = 1; j < n; j++) {
    before += weights[j - 1];
    cuts.push(cutNear(plan, (total * before) / sum, perItem));
  }
  cuts.push(rows);
  const runs = [];
  for (let j = 0; j + 1 < cuts.length; j++) if (cuts[j + 1] > cuts[j]) runs.push([cuts[j], cuts[j + 1]]);
  return runs;
}

/** The work of rows [first, end) (global row indices), in rowsWork's units. */
export function runWork(plan, first, end) {
  const perItem = rowsWork(plan, plan.queries);
  const before = (g) => {
    const item = Math.floor(g / plan.queries);
    return item * perItem + rowsWork(plan, g - item * plan.queries);
  };
  return before(end) - before(first);
}

/**
 * The row-group boundary (a global row index) whose work before it is nearest to `target`, or a batch item's edge
 * near it (ITEM_EDGE_WORK).
 */
function cutNear(plan, target, perItem) {
  const { batch: B, queries: Tq, rowGroup: G } = plan;
  const edge = Math.round(target / perItem);  // the nearest edge of a batch item
  if (edge > 0 && edge < B && Math.abs(target - edge * perItem) * (plan.width + plan.valueWidth) <= ITEM_EDGE_WORK)
    return edge * Tq;
  const b = Math.min(B - 1, Math.floor(target / perItem));
  const left = target - b * perItem;
  const groups = Math.ceil(Tq / G);
  const end = (m) => Math.min(m * G, Tq);  // the end of the first m groups of the item
  // the first m with rowsWork(end(m)) >= left, then whichever of it and m - 1 is nearer
  let lo = 0;
  let hi = groups;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (rowsWork(plan, end(mid)) >= left) hi = mid;
    else lo = mid + 1;
  }
  if (lo > 0 && left - rowsWork(plan, end(lo - 1)) < rowsWork(plan, end(lo)) - left) lo -= 1;
  return b * Tq + end(lo);
}

/**
 * The attention calls of the run of rows [first, end): [{ item, items, row, rows }], each on batch items
 * item … item + items − 1 and, in each, rows row … row + rows − 1 (several items only with all their rows).
 */
export function callsOf(plan, first, end) {
  const Tq = plan.queries;
  const calls = [];
  for (let g = first; g < end;) {
    const item = Math.floor(g / Tq);
    const row = g - item * Tq;
    if (row === 0 && end - g >= Tq) {
      const items = Math.floor((end - g) / Tq);
      calls.push({ item, items, row: 0, rows: Tq });
      g += items * Tq;
    } else {
      const rows = Math.min(Tq, row + end - g) - row;
      calls.push({ item, items: 1, row, rows });
      g += rows;
    }
  }
  return calls;
}

/** Elements start … end − 1 of a tensor argument as read (readTensor's record): a view of the caller's array. */
export function elementsOf(record, start, end) {
  const { buffer, byteOffset, dtype } = record.data;
  const Class = DTYPES[dtype];
  return new Class(buffer, byteOffset + start * Class.BYTES_PER_ELEMENT, end - start);
}

/**
 * Where one attention call of a run (callsOf's { item, items, row, rows }) reads and writes in the whole call's
 * tensors: for q, k, v and the output, { at (its first element), size (its elements), shape }.
 */
export function callPlaces(plan, { item, items: n, row, rows }) {
  const { width: D, valueWidth: Dv, keys: Tk } = plan;
  const first = item * plan.queries + row;  // the call's first row of q and of the output
  const place = (at, shape) => ({ at, size: shape[0] * shape[1] * shape[2], shape });
  return {
    q: place(first * D, [n, rows, D]),
    k: place(item * Tk * D, [n, Tk, D]),
    v: place(item * Tk * Dv, [n, Tk, Dv]),
    out: place(first * Dv, [n, rows, Dv]),
  };
}
