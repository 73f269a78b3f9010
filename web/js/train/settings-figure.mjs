// Section "train", the lab's settings: the task, which models (any of the eight, up to 8), the architecture, the
// training, the seeds. Each control is built from the lab's declaration (experiments/train.mjs's SETTINGS, through
// controls.mjs's settingControl), so the URL's hash holds it too. A setting a model cannot take is refused beside
// its control in the API's own words (createModel's, the task's), and nothing can start until it changes.
import { controlGroup, settingControl } from '../controls.mjs';
import { el, fig } from '../ui.mjs';
import { KINDS, MAX_MODELS, kindLabel, refusals, runConfig } from '../experiments/train.mjs';

/** The controls in their groups: [group title, [setting names]]. */
const GROUPS = [
  ['the task', ['task', 'back']],
  ['the architecture', ['width', 'heads', 'layers', 'embedScale']],
  ['the training', ['lr', 'steps', 'shortest', 'longest']],
  ['the seeds', ['seeds', 'seed']],
];

/**
 * The figure. `state`: the section's settings state (url-state.mjs); onChange() after any change of a run's
 * setting; onEnter(): Enter in the seed field. Returns { refused(): the current refusals, describe(config) }.
 */
export function settingsFigure(root, so, state, { onChange, onEnter }) {
  const f = fig(root, { title: 'The lab: choose what to train', id: 'train-settings' });
  const controls = {};
  const refusalOf = {};
  const changed = () => {
    show();
    onChange();
  };
  const groups = GROUPS.map(([label]) => controlGroup(f, label));
  const task = groups[0];
  for (const [g, [, names]] of GROUPS.entries()) {
    for (const name of names) {
      const group = groups[g];
      controls[name] = settingControl(group, state, name, { onChange: () => adjust(name), onEnter: name === 'seed' ? onEnter : undefined });
      const box = controls[name].closest('.control');
      refusalOf[name] = el('p', { className: 'train-refusal', id: `${state.settings[name].id}-refusal`, role: 'alert' });
      refusalOf[name].hidden = true;
      box.append(refusalOf[name]);
    }
  }

  // the models: a set of checkboxes (the course's model uses sinusoids; learned and rotary go beyond this lesson)
  const models = el('fieldset', { className: 'train-models', id: state.settings.models.id },
    el('legend', {}, `${state.settings.models.label} (up to ${state.settings.models.max})`));
  const boxes = KINDS.map((kind) => {
    const input = el('input', { type: 'checkbox', id: `train-model-${kind.key}`, value: kind.key, checked: state.values.models.includes(kind.key) });
    input.addEventListener('change', () => {
      const chosen = boxes.filter((b) => b.checked).map((b) => b.value);
      if (chosen.length === 0) {
        input.checked = true;  // at least one model
        return;
      }
      state.set('models', chosen);
      changed();
    });
    models.append(el('label', { className: 'train-model' }, input, ` ${kindLabel(kind.key, { longest: 16 }).replace(' (16 rows)', '')}`,
      kind.beyond ? el('span', { className: 'train-beyond', title: 'beyond this lesson' }, ' †') : null));
    return input;
  });
  refusalOf.models = el('p', { className: 'train-refusal', id: 'train-models-refusal', role: 'alert' });
  refusalOf.models.hidden = true;
  models.append(refusalOf.models);
  task.after(models);
  const setModels = (value) => {
    boxes.forEach((b) => { b.checked = value.includes(b.value); });
    state.set('models', [...value]);
    changed();
  };
  state.bind('models', setModels);
  f.append(el('p', { className: 'train-beyond-note' }, '† beyond this lesson: the course’s model uses sinusoids.'));
  const pending = el('p', { className: 'train-next', role: 'status' });
  f.append(pending);

  /** Keeps shortest ≤ longest: moving one past the other moves the other along. */
  function adjust(name) {
    const { shortest, longest } = state.values;
    if (name === 'shortest' && shortest > longest) controls.longest.set(shortest);
    else if (name === 'longest' && longest < shortest) controls.shortest.set(longest);
    changed();
  }

  let current = [];
  function show() {
    controls.back.closest('.control').hidden = state.values.task !== 'lookback';
    current = refusals(so, runConfig(state.values));
    for (const [name, p] of Object.entries(refusalOf)) {
      const mine = current.filter((r) => r.setting === name);
      p.textContent = mine.map((r) => r.message).join(' ');
      p.hidden = mine.length === 0;
      if (name !== 'models') controls[name].setAttribute('aria-invalid', String(mine.length > 0));
    }
  }
  show();

  return {
    refused: () => current,
    /** Sets the run's settings among `values` (name → value) from code, as the reader would through their controls. */
    set(values) {
      for (const [name, value] of Object.entries(values)) {
        if (JSON.stringify(value) === JSON.stringify(state.values[name])) continue;
        if (name === 'models') setModels(value);
        else controls[name]?.set(value);
      }
    },
    /** Says whether the settings differ from those of the run shown (`config`, or none), and how to run them. */
    describe(config) {
      const next = runConfig(state.values);
      const differs = config && JSON.stringify(next) !== JSON.stringify(config);
      const count = next.kinds.length * next.seeds.length;
      pending.textContent = current.length
        ? 'These settings cannot run: see the message beside the control.'
        : differs ? `The settings have changed since the run shown: press Train to run them (${count} model${count > 1 ? 's' : ''}, at most ${MAX_MODELS}).` : '';
    },
  };
}
