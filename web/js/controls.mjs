// The page's controls: a labelled group, sliders, selects, toggles, number inputs and buttons. Each is a native
// element (keyboard and screen readers work as on any form), labelled, with an optional hint tied by
// aria-describedby. On a phone a figure's control group stays in view while its plots scroll by (style.css).
// A section's settings are built from its declaration (settings.mjs) by settingControl, which keeps the page's URL
// state (url-state.mjs) and the control in step both ways. A number field reads what is typed through the
// declaration, as the URL's values are read (settings.mjs's parse: its range, whole numbers where its step says so),
// and takes it when the reader commits it (Enter, or leaving the field): a value it does not take is refused beside
// the field (aria-invalid, and a line saying which values it takes and which one is still used), changes nothing,
// and its Enter does nothing. The field's data-value is the value it last took, the one its figure's checks are
// computed at (seqorder/checks stamps them with it).
import { encode, parse } from './settings.mjs';
import { el } from './ui.mjs';

/**
 * The control of the declared setting `name` of a section's `state` (url-state.mjs): a slider, a toggle, a select or
 * a number field, with the declaration's id, label, range or options and hint, showing state.values[name]. A change
 * by the reader is kept in the state (so in the URL) and passed to onChange(value); a value from the URL (Back,
 * Forward, a link) moves the control and runs onChange too. `format` writes a slider's value; `onEnter` is a number
 * field's Enter key. Returns the control's element.
 */
export function settingControl(group, state, name, { onChange = () => {}, format, onEnter } = {}) {
  const spec = state.settings[name];
  if (!spec) throw new RangeError(`section ${state.id} declares no setting ${name}`);
  const changed = (value) => {
    state.set(name, value);
    onChange(value);
  };
  const common = { id: spec.id, label: spec.label, hint: spec.hint };
  let field;
  switch (spec.kind) {
    case 'slider':
      field = slider(group, { ...common, min: spec.min, max: spec.max, step: spec.step ?? 1, value: state.values[name], format: format ?? spec.format, onInput: changed });
      break;
    case 'toggle':
      field = toggle(group, { ...common, pressed: state.values[name], onToggle: changed });
      break;
    case 'select': {
      const byText = new Map(spec.options.map((o) => [String(o.value), o.value]));
      field = select(group, { ...common, options: spec.options, value: state.values[name], onChange: (text) => changed(byText.get(text)) });
      break;
    }
    case 'number': {
      // What is typed is read as it is typed (a value the declaration refuses is said at once) and taken when the
      // reader commits it: Enter (then onEnter) or leaving the field (a change event). A value from code or the URL is
      // taken at once.
      const refusal = el('span', { className: 'field-refusal', id: `${spec.id}-invalid`, 'aria-live': 'polite' });
      const took = (value) => {
        field.dataset.value = encode(spec, value);
        field.removeAttribute('aria-invalid');
        refusal.hidden = true;
        refusal.textContent = '';
      };
      /** Reads the field's text: its value when the declaration takes it, else undefined, and the refusal said beside it. */
      const read = () => {
        const text = field.value.trim();
        const { value, error } = parse(spec, text);
        if (error === undefined) {
          field.removeAttribute('aria-invalid');
          refusal.hidden = true;
          refusal.textContent = '';
          return value;
        }
        field.setAttribute('aria-invalid', 'true');
        refusal.hidden = false;
        const what = text !== '' ? `${text.length > 24 ? `${text.slice(0, 23)}…` : text} is refused` : field.validity?.badInput ? 'Not a number' : 'Empty';
        refusal.textContent = `${what}: “${spec.label}” takes ${error}; it stays ${encode(spec, state.values[name])}.`;
        return undefined;
      };
      /** Takes the field's value, if the declaration does: true then. */
      const commit = () => {
        const value = read();
        if (value === undefined) return false;
        took(value);
        if (value !== state.values[name]) changed(value);
        return true;
      };
      field = numberInput(group, { ...common, min: spec.min, max: spec.max, step: spec.step ?? 1, value: state.values[name], refusal,
        onEnter: () => { if (commit()) onEnter?.(); }, onChange: read });
      field.addEventListener('change', commit);
      took(state.values[name]);
      field.set = (value) => {
        field.value = String(value);
        took(value);
        changed(value);
      };
      break;
    }
    default:
      throw new TypeError(`settingControl: a ${spec.kind} setting has no control here; the section draws its own`);
  }
  state.bind(name, (value) => field.set(value));
  return field;
}

/** A `.controls` group (role=group, named by `label`) appended to root. */
export function controlGroup(root, label) {
  const group = el('div', { className: 'controls', role: 'group', 'aria-label': label });
  root.append(group);
  return group;
}

/** The label / field / hint block every control shares (and a field's refusal, shown when it refuses a value). */
function control(group, { id, label, field, output, hint, refusal, className = '' }) {
  const described = [hint && `${id}-hint`, refusal?.id].filter(Boolean).join(' ');
  if (described) field.setAttribute('aria-describedby', described);
  if (refusal) refusal.hidden = true;
  group.append(el('div', { className: `control ${className}`.trim() },
    el('label', { htmlFor: id }, label), output, field,
    hint ? el('span', { className: 'hint', id: `${id}-hint` }, hint) : null, refusal));
  return field;
}

/**
 * A range slider with its value shown in an <output> (arrows, Page Up/Down, Home/End move it). Calls onInput(value)
 * on every change; `format` writes the shown value (and aria-valuetext). Returns the <input>; set(value) on it moves
 * it from code and runs onInput.
 */
export function slider(group, { id, label, min, max, step = 1, value, format = String, hint, onInput }) {
  const input = el('input', { type: 'range', id, min, max, step, value });
  const output = el('output', { htmlFor: id }, format(Number(value)));
  const show = (v) => {
    output.value = format(v);
    input.setAttribute('aria-valuetext', format(v));
  };
  show(Number(value));
  input.addEventListener('input', () => {
    show(Number(input.value));
    onInput?.(Number(input.value));
  });
  input.set = (v) => {
    input.value = String(v);
    show(Number(input.value));
    onInput?.(Number(input.value));
  };
  return control(group, { id, label, field: input, output, hint });
}

/** A <select> of options [{ value, label }]; onChange(value) on change. Returns the <select>; set(value) on it
 * selects from code and runs onChange. */
export function select(group, { id, label, options, value, onChange, hint }) {
  const field = el('select', { id }, options.map((o) => el('option', { value: String(o.value) }, o.label)));
  field.value = String(value);
  field.addEventListener('change', () => onChange(field.value));
  field.set = (v) => {
    field.value = String(v);
    onChange(field.value);
  };
  return control(group, { id, label, field, hint, className: 'control-wide' });
}

/** A switch-like toggle button; its state is aria-pressed (Enter and Space work as on every button). */
export function toggle(group, { id, label, pressed = false, onToggle }) {
  const button = el('button', { className: 'toggle', id, type: 'button', 'aria-pressed': String(pressed) },
    el('span', { className: 'toggle-track', 'aria-hidden': 'true' }), el('span', {}, label));
  button.addEventListener('click', () => {
    const next = button.getAttribute('aria-pressed') !== 'true';
    button.setAttribute('aria-pressed', String(next));
    onToggle(next);
  });
  /** Sets the toggle from code, and runs onToggle. */
  button.set = (on) => {
    button.setAttribute('aria-pressed', String(Boolean(on)));
    onToggle(Boolean(on));
  };
  group.append(el('div', { className: 'control control-toggle' }, button));
  return button;
}

/** A number input (step 1 by default: whole numbers; 0: any; Enter runs onEnter; onChange(text) on every edit; `refusal`:
 * the element that says why a value is refused, placed under it). Returns the <input>; set(value) on it writes the
 * field from code and runs onChange. */
export function numberInput(group, { id, label, min, max, step = 1, value, hint, refusal, onEnter, onChange }) {
  const whole = Number.isInteger(step) && step > 0 && Number.isInteger(min);
  const field = el('input', { id, type: 'number', min, max, step: step === 0 ? 'any' : step, value, inputMode: whole ? 'numeric' : 'decimal' });
  if (onEnter) field.addEventListener('keydown', (event) => { if (event.key === 'Enter') onEnter(); });
  if (onChange) field.addEventListener('input', () => onChange(field.value));
  field.set = (v) => {
    field.value = String(v);
    onChange?.(field.value);
  };
  return control(group, { id, label, field, hint, refusal, className: 'control-wide' });
}

/** A button that runs onClick. Returns the <button>. */
export function button(group, { id, label, onClick }) {
  const b = el('button', { id, type: 'button' }, label);
  b.addEventListener('click', onClick);
  group.append(el('div', { className: 'control control-button' }, b));
  return b;
}
