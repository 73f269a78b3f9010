// Section "start-offset": rows for start = s equal rows s… of a table from 0; restarting at 0 is wrong.
import { controlGroup, settingControl } from '../controls.mjs';
import { renderChecks } from '../../lib/figures/checks.mjs';
import { heatmap } from '../../lib/figures/plot/index.mjs';
import { checkList, el, fig, more, notice, perFrame, prose, titledBlock } from '../ui.mjs';
import {
  startOffset, startOffsetChecks, startOffsetLiveCheck, startOffsetRestartCheck, startOffsetSentences,
} from '../experiments/start-offset.mjs';
import { drawnPlot } from '../drawn.mjs';
import { say } from '../claims.mjs';
import { declareSettings } from '../settings.mjs';

export const settings = declareSettings({
  start: { kind: 'slider', id: 'start-offset-prefix', label: 'prefix (tokens already processed)', min: 0, max: 500, default: 10 },
  count: { kind: 'slider', id: 'start-offset-count', label: 'new tokens', min: 1, max: 16, default: 4 },
});

const WIDTH = 16;

export async function run(so, root, settings) {
  prose(root,
    'A token processed after a prefix of <var>s</var> tokens sits at position <var>s</var>, not 0: a decoder that ' +
    'processes only new tokens must say so, <code>so.positions(count, D, { start: s })</code>.');

  const f = fig(root);
  const state = settings.values;
  const group = controlGroup(f, 'prefix and new tokens');
  const row = el('div', { className: 'plot-row plot-row-3' });
  f.append(row);
  const common = { cols: WIDTH, range: 1, colLabel: 'column', rowLabel: 'position t', minHeight: 90, maxHeight: 260, data: new Float64Array(0), rows: 0 };
  const full = drawnPlot('full', heatmap(titledBlock(row, 'recomputed from 0 (new rows outlined)'), { ...common, ariaLabel: 'the table recomputed from position 0, the new tokens’ rows outlined' }));
  const cached = drawnPlot('cached', heatmap(titledBlock(row, 'new tokens, start = prefix'), { ...common, ariaLabel: 'the new tokens’ rows computed with start = the prefix length' }));
  const wrong = drawnPlot('restarted', heatmap(titledBlock(row, 'new tokens, restarted at 0'), { ...common, ariaLabel: 'the new tokens’ rows restarted at position 0' }));
  const line = notice(f, '');
  more(f, 'Who needs start',
    'The lesson’s final decoder is deliberately simple: it recomputes the whole prefix at every step, so it numbers ' +
    'positions from 0 each time and has no use for <code>start</code>. A cached implementation that processes only the ' +
    'new tokens must supply the right offset (or position ids). The same bookkeeping returns for attention in the ' +
    'section <a href="#incremental">One token at a time</a>.');
  const list = checkList(f);

  const render = () => {
    const { start, count } = state;
    const r = startOffset(so, { start, count, width: WIDTH });
    // At most the last 24 rows of the recomputed table, so that the outlined block stays visible.
    const shown = Math.min(start + count, 24);
    const first = start + count - shown;
    full.update({
      data: r.fromZero.data.subarray(first * WIDTH), rows: shown, rowName: (k) => String(first + k),
      marks: [{ row0: shown - count, row1: shown, label: 'new' }],
    });
    cached.update({ data: r.offset.data, rows: count, rowName: (k) => String(start + k) });
    wrong.update({ data: r.restarted.data, rows: count, rowName: (k) => String(k) });
    say(line, startOffsetSentences(r, { start, count, width: WIDTH }));
    renderChecks(list, [startOffsetLiveCheck(r, { start, count, width: WIDTH }), startOffsetRestartCheck(r, { start, count })]);
  };
  const schedule = perFrame(render);
  settingControl(group, settings, 'start', { onChange: schedule });
  settingControl(group, settings, 'count', { onChange: schedule });
  render();
  renderChecks(list, startOffsetChecks(so, { starts: [10, 1000, 100000], count: 8, width: 64 }).checks);
}
