// The lab's settings: the task, which models (up to eight of the twelve), the architecture, the training (randomized
// positions among it: on the lesson only when a link asks for them), the seeds. Each
// control is built from the lab's declaration (config.mjs's SETTINGS, through controls.mjs's settingControl), so the
// URL's hash holds it too. The heads offered are those the width and the models allow; a setting the API refuses
// otherwise (a link can ask for one) is refused once per rule beside its control, in the API's own words, and nothing
// can start until it changes.
import { controlGroup, settingControl } from '../controls.mjs';
import { el, fig } from '../ui.mjs';
import { KINDS, MAX_MODELS, hasRotary, headsOffered, kindLabel, refusals, runConfig } from './config.mjs';

/** The controls in their groups: [group title, [setting names]]. */
const GROUPS = [
  ['the task', ['task', 'back']],
  ['the architecture', ['width', 'heads', 'layers', 'embedScale', 'rotaryBase', 'rotaryPairs']],
  ['the training', ['lr', 'steps', 'shortest', 'longest', 'positionRange']],
  ['the seeds', ['seeds', 'seed']],
];

/**
 * The figure. `state`: the section's settings state (url-state.mjs); `page`: 'lesson' or 'bench' (the lesson shows
 * rotary's base and pairs only when they are not the defaults); onChange() after any change of a run's setting;
 * onEnter(): Enter in the seed field. Returns { refused(): the current refusals, set(values), describe(config, cost) }.
 */
export function settingsFigure(root, so, state, { page = 'lesson', onChange, onEnter }) {
  const f = fig(root, { title: 'The lab: choose what to train', id: 'lab-settings' });
  const controls = {};
  const refusalOf = {};
  const changed = () => {
    show();
    onChange();
  };
  const refusalLine = (id) => {
    const p = el('p', { className: 'lab-refusal', id: `${id}-refusal`, role: 'alert' });
    p.hidden = true;
    return p;
  };
  const groups = GROUPS.map(([label]) => controlGroup(f, label));
  for (const [g, [, names]] of GROUPS.entries()) {
    for (const name of names) {
      controls[name] = settingControl(groups[g], state, name, { onChange: () => adjust(name), onEnter: name === 'seed' ? onEnter : undefined });
      refusalOf[name] = refusalLine(state.settings[name].id);
      controls[name].closest('.control').append(refusalOf[name]);
    }
  }

  // the models: a set of checkboxes (the course's model uses sinusoids; learned and rotary go beyond this lesson)
  const models = el('fieldset', { className: 'lab-models', id: state.settings.models.id },
    el('legend', {}, `${state.settings.models.label} (up to ${state.settings.models.max})`));
  const boxes = KINDS.map((kind) => {
    const input = el('input', { type: 'checkbox', id: `lab-model-${kind.key}`, value: kind.key, checked: state.values.models.includes(kind.key) });
    input.addEventListener('change', () => {
      const chosen = boxes.filter((b) => b.checked).map((b) => b.value);
      if (chosen.length === 0) {
        input.checked = true;  // at least one model
        return;
      }
      state.set('models', chosen);
      adjust('models');
    });
    models.append(el('label', { className: 'lab-model' }, input, ` ${kindLabel(kind.key, { longest: 16 }).replace(' (16 rows)', '')}`,
      kind.beyond ? el('span', { className: 'lab-beyond', title: 'beyond this lesson' }, ' †') : null));
    return input;
  });
  refusalOf.models = refusalLine(state.settings.models.id);
  models.append(refusalOf.models);
  groups[0].after(models);
  const setModels = (value) => {
    boxes.forEach((b) => { b.checked = value.includes(b.value); });
    state.set('models', [...value]);
    adjust('models');
  };
  state.bind('models', setModels);
  f.append(el('p', { className: 'lab-beyond-note' }, '† beyond this lesson'));
  const pending = el('p', { className: 'lab-next', role: 'status' });
  f.append(pending);

  /** Offers the heads the width and the models allow; a number of heads no longer offered moves to the nearest below. */
  function offerHeads() {
    const offered = headsOffered(state.values.width, runConfig(state.values).kinds);
    for (const option of controls.heads.options) {
      option.hidden = !offered.includes(Number(option.value));
      option.disabled = option.hidden;
    }
    if (!offered.includes(state.values.heads)) controls.heads.set(Math.max(...offered.filter((h) => h <= state.values.heads), 1));
  }

  /** Keeps shortest ≤ longest (moving one past the other moves the other along) and the heads offered. */
  function adjust(name) {
    const { shortest, longest } = state.values;
    if (name === 'shortest' && shortest > longest) controls.longest.set(shortest);
    else if (name === 'longest' && longest < shortest) controls.shortest.set(longest);
    if (['width', 'models', 'heads'].includes(name)) offerHeads();
    changed();
  }

  let current = [];
  function show() {
    controls.back.closest('.control').hidden = state.values.task !== 'lookback';
    const rotary = hasRotary(runConfig(state.values).kinds);
    const tuned = ['rotaryBase', 'rotaryPairs'].some((name) => state.values[name] !== state.settings[name].default);
    for (const name of ['rotaryBase', 'rotaryPairs']) controls[name].closest('.control').hidden = !rotary || (page === 'lesson' && !tuned);
    controls.positionRange.closest('.control').hidden = page === 'lesson' && state.values.positionRange === state.settings.positionRange.default;
    current = refusals(so, runConfig(state.values));
    for (const [name, p] of Object.entries(refusalOf)) {
      const mine = current.filter((r) => r.setting === name);
      p.textContent = mine.map((r) => r.message).join(' ');
      p.hidden = mine.length === 0;
      if (name !== 'models') controls[name].setAttribute('aria-invalid', String(mine.length > 0));
    }
  }
  offerHeads();
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
    /**
     * Says whether the settings differ from those of the run shown (`config`, or none), and what running them costs
     * (`cost`: the controller's costWords()).
     */
    describe(config, cost) {
      const next = runConfig(state.values);
      const differs = config && JSON.stringify(next) !== JSON.stringify(config);
      pending.textContent = current.length ? 'These settings cannot run: see the message beside the control.'
        : differs ? `The settings have changed since the run shown: press Train to run them (${cost}; at most ${MAX_MODELS} models).` : '';
    },
  };
}
