// Section "add-position": input = token vector + position vector. robot at position 0 and at t (robotAtPositions),
// the two parts at the scale of the lab's model (modelScales: its token vectors as created, and × √D, against the
// position vectors), and two (token, position) pairs that give one input (sumAmbiguity): the sum cannot always be
// taken apart.
import { controlGroup, settingControl } from '../controls.mjs';
import { fmt, subscript } from '../format.mjs';
import { renderChecks } from '../../lib/figures/checks.mjs';
import { heatmap, linePlot } from '../../lib/figures/plot/index.mjs';
import { checkList, el, fig, more, notice, numbersTable, perFrame, prose } from '../ui.mjs';
import { ROBOT } from '../experiments/common.mjs';
import { modelScales, robotAtPositions, robotSentences, scaleSentences, sumAmbiguity, sumParts, sumSentences } from '../experiments/add-position.mjs';
import { norm } from '../experiments/common.mjs';
import { drawnPlot } from '../drawn.mjs';
import { say } from '../claims.mjs';
import { declareSettings } from '../settings.mjs';

export const settings = declareSettings({
  t: { kind: 'slider', id: 'add-position-t', label: 'second position t', min: 0, max: 40, default: 3 },
  s: { kind: 'slider', id: 'add-position-s', label: 'robot’s position s', min: 0, max: 40, default: 2 },
  k: { kind: 'slider', id: 'add-position-k', label: 'offset k (b sits at t = s + k)', min: 1, max: 40, default: 3 },
});

/** It makes models (the lab's model at its scale): main.mjs loads the model module before it runs. */
export const makesModels = true;

export async function run(so, root, state) {
  prose(root,
    'Each position <var>t</var> gets a vector <var>p<sub>t</sub></var> of <var>D</var> features, added to the token ' +
    'vector feature by feature: <code>input<sub>t</sub> = token + p<sub>t</sub></code>. The width stays <var>D</var>.');
  robotAtTwoPositions(so, root, state);
  atTheModelsScale(so, root);
  oneSumTwoStories(so, root, state);
}

/**
 * The two parts of the sum in the lab's model as createModel makes it: each token vector's norm, as created and
 * × √D, against the position vector's (the same at every t).
 */
function atTheModelsScale(so, root) {
  const f = fig(root, { title: 'The two parts at a trained model’s scale (the lab’s × √D)', folded: true });
  const r = modelScales(so);
  const x = r.words.map((_, i) => i);
  drawnPlot('model-scales', linePlot(f, {
    series: [
      { name: 'token, as created', x, y: r.norms, markers: true },
      { name: 'token × √D', x, y: r.scaledNorms, markers: true, dashed: true },
      { name: 'position', x, y: r.words.map(() => r.positionNorm) },
    ],
    xLabel: 'token id', yLabel: 'norm', yLog: true, integerX: true, height: 230,
    ariaLabel: 'the norm of each token vector of the lab’s model as created and times √D, against the norm of the position vectors',
  }));
  say(notice(f, ''), scaleSentences(r));
  const table = numbersTable(f, { caption: '', drawn: 'scales', folded: 'The numbers' });
  table.show(['word', 'as created', '× √D', 'p_t'], r.words.map((w, i) => [w, r.norms[i], r.scaledNorms[i], r.positionNorm]),
    { caption: `The norm of each token vector of the lab’s sinusoidal model (D = ${r.width}, seed ${r.seed}), as created and × √D, and of the position vector p_t added to it` });
  more(f, 'Where the two scales come from',
    'A model does not start from hand-made vectors: its token table is drawn at random, entries with standard ' +
    'deviation 0.02, while every sinusoidal position vector has the norm √(<var>D</var>/2) whatever its position ' +
    '(each sine meets its cosine: sin² + cos² = 1). Attention Is All You Need multiplies the token vectors by ' +
    '√<var>D</var> before the positions are added.');
  f.append(el('p', {}, 'The lab trains either way: ', el('a', { href: '#lab-embedScale' }, 'token vectors × √D'), '.'));
  renderChecks(checkList(f), r.checks);
}

/** robot's token vector (the lesson's (0, 1/8, …, 7/8)) at position 0 and at a position t of the reader's choice. */
function robotAtTwoPositions(so, root, state) {
  const f = fig(root, { title: 'robot at position 0, and at position t' });
  const group = controlGroup(f, 'robot’s second position');
  const features = ROBOT.map((_, i) => i);
  const plot = drawnPlot('inputs', linePlot(f, {
    xLabel: 'feature', yLabel: 'value', yRange: [-1.2, 2], height: 230, integerX: true,
    ariaLabel: 'robot’s token vector and its inputs at two positions, feature by feature',
  }));
  const line = notice(f, '');
  const table = numbersTable(f, { caption: '', drawn: 'parts', folded: 'The numbers' });
  const scales = notice(f, '');
  more(f, 'Adding, not gluing',
    'Concatenating token and position would double the width to 2<var>D</var>; adding keeps it at <var>D</var> and puts ' +
    'both signals in one shared space. The model then learns how to use that combination. Each row is still built ' +
    'without looking at any other row: mixing rows is attention’s job.');
  const list = checkList(f);

  const render = (t) => {
    const r = robotAtPositions(so, t);
    const pt = `p${subscript(t)}`;
    plot.update({
      series: [
        { name: 'robot (token vector)', x: features, y: r.robot, markers: true, dashed: true },
        { name: t === 0 ? 'robot + p₀ (positions 0 and t = 0)' : 'robot + p₀ (at position 0)', x: features, y: [...r.at0], markers: true },
        ...(t === 0 ? [] : [{ name: `robot + ${pt} (at position ${t})`, x: features, y: [...r.atT], markers: true }]),
      ],
    });
    say(line, robotSentences(r));
    const parts = sumParts(so, t);
    const columns = [r.robot, r.p0, r.at0, r.pt, r.atT];
    table.show(['feature', 'robot', 'p₀', 'robot + p₀', pt, `robot + ${pt}`],
      [...features.map((i) => [String(i), ...columns.map((c) => c[i])]), ['norm ‖·‖', ...columns.map(norm)]],
      { caption: `robot at position 0 and at position ${t}; the last row: each vector’s norm`, highlight: (row, c) => c === 5 || row === features.length });
    say(scales, parts.sentences);
    renderChecks(list, [...r.checks, ...parts.checks]);
  };
  settingControl(group, state, 't', { onChange: perFrame(render) });
  render(state.values.t);
}

/** robot at s and b = robot + p_s − p_t at t: one input from two different pairs. */
function oneSumTwoStories(so, root, settings) {
  const f = fig(root, { title: 'One sum, two stories' });
  const state = settings.values;
  const group = controlGroup(f, 'the two positions');
  const rows = ['robot', 'p_s', 'robot + p_s', 'b', 'p_t', 'b + p_t'];
  const map = drawnPlot('pairs', heatmap(f, {
    data: new Float64Array(48), rows: 6, cols: 8, rowLabel: '', colLabel: 'feature', minHeight: 150, maxHeight: 200,
    rowName: (r) => rows[r], ariaLabel: 'robot and its position vector, their sum, then b, its position vector and their sum',
  }));
  const line = notice(f, '');
  more(f, 'Why that is allowed',
    'A token’s vector is whatever its row of the table holds, and a trained table can hold any vector, so ' +
    'b = robot + p<sub>s</sub> − p<sub>t</sub> is a possible token vector. Addition promises no way to recover either ' +
    'signal on its own: different (token, position) pairs can share a sum. The model learns to use the combination, ' +
    'and nothing in the addition forbids such collisions.');
  const list = checkList(f);

  const render = () => {
    const r = sumAmbiguity(so, { s: state.s, k: state.k });
    rows.splice(0, 6, 'robot', `p${subscript(r.s)}`, `robot + p${subscript(r.s)}`, 'b', `p${subscript(r.t)}`, `b + p${subscript(r.t)}`);
    const data = new Float64Array(48);
    [r.a, r.ps, r.inputA, r.b, r.pt, r.inputB].forEach((v, i) => data.set(v, i * 8));
    map.update({ data, tooltip: (row, c, v) => `${rows[row]}, feature ${c}: ${fmt(v, 6)}` });
    say(line, sumSentences(r));
    renderChecks(list, r.checks);
  };
  const schedule = perFrame(render);
  settingControl(group, settings, 's', { onChange: schedule });
  settingControl(group, settings, 'k', { onChange: schedule });
  render();
}
