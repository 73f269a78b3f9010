// Section 6: the start argument: rows for start = s equal rows s… of a table from 0; restarting at 0 is wrong.
import { check } from '../checks.mjs';
import { heatmap } from '../plot.mjs';
import { controls, el, perFrame, prose, slider } from '../ui.mjs';
import { startOffset, startOffsetChecks, startOffsetLiveCheck } from '../experiments/positions.mjs';

const WIDTH = 16;

export async function run(so, root) {
  prose(root,
    'A model that writes text one token at a time can either recompute everything from the first token at every step, ' +
    'numbering positions from 0 each time (simple, and what the lesson’s final decoder does), or keep what it computed ' +
    'for the prefix and process only the new tokens. In the second case the new tokens must be told where they are: ' +
    'with 10 tokens already cached, the first new token is the eleventh of the sequence, so its position is 10. That is the <code>start</code> argument: ' +
    '<code>so.positions(count, D, { start: 10 })</code> gives rows for positions 10, 11, ….',
    'Choose a prefix and a number of new tokens. The left picture is the table recomputed from 0 with the new tokens’ rows ' +
    'outlined; the middle one is what the cached path computes with the right start; the right one restarts at 0 by mistake.');

  const state = { start: 10, count: 4 };
  const group = controls(root, 'prefix and new tokens');
  const row = el('div', { className: 'plot-row plot-row-3' });
  root.appendChild(row);
  const common = { cols: WIDTH, range: 1, colLabel: 'column', rowLabel: 'position t', minHeight: 90, maxHeight: 260 };
  const full = heatmap(row, { ...common, data: new Float64Array(0), rows: 0, caption: 'recomputed from 0' });
  const cached = heatmap(row, { ...common, data: new Float64Array(0), rows: 0, caption: 'new tokens, start = prefix' });
  const wrong = heatmap(row, { ...common, data: new Float64Array(0), rows: 0, caption: 'new tokens, restarted at 0' });
  const liveSlot = el('div', { className: 'checks' });

  const render = () => {
    const { start, count } = state;
    const r = startOffset(so, { start, count, width: WIDTH });
    // Show at most the last 24 rows of the recomputed table, so the outlined block stays visible.
    const shown = Math.min(start + count, 24);
    const first = start + count - shown;
    full.update({
      data: r.fromZero.data.subarray(first * WIDTH), rows: shown, rowName: (k) => String(first + k),
      marks: [{ row0: shown - count, row1: shown, label: 'new' }],
    });
    cached.update({ data: r.offset.data, rows: count, rowName: (k) => String(start + k) });
    wrong.update({ data: r.restarted.data, rows: count, rowName: (k) => String(k) });
    const c = startOffsetLiveCheck(r, { start, count, width: WIDTH });
    check(liveSlot, c.name, c.pass, c.details, { claim: c.claim });
  };
  const schedule = perFrame(render);
  slider(group, { id: 'start-offset-prefix', label: 'prefix length (tokens already processed)', min: 0, max: 500, value: state.start,
    onInput: (v) => { state.start = v; schedule(); } });
  slider(group, { id: 'start-offset-count', label: 'new tokens', min: 1, max: 16, value: state.count,
    onInput: (v) => { state.count = v; schedule(); } });
  root.appendChild(liveSlot);
  render();

  const fixed = startOffsetChecks(so, { starts: [10, 1000, 100000], count: 8, width: 64 });
  for (const c of fixed.checks) check(liveSlot, c.name, c.pass, c.details, { claim: c.claim });
  prose(root,
    'The same bookkeeping returns for attention, where the new queries must also be told how many cached keys come ' +
    'before them; section 9 checks that the cached path then agrees with recomputing everything.');
}
