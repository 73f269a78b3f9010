// The page's controls: a labelled group, sliders, selects, toggles, number inputs and buttons. Each is a native
// element (keyboard and screen readers work as on any form), labelled, with an optional hint tied by
// aria-describedby. On a phone a figure's control group stays in view while its plots scroll by (style.css).
import { el } from './ui.mjs';

/** A `.controls` group (role=group, named by `label`) appended to root. */
export function controlGroup(root, label) {
  const group = el('div', { className: 'controls', role: 'group', 'aria-label': label });
  root.append(group);
  return group;
}

/** The label / field / hint block every control shares. */
function control(group, { id, label, field, output, hint, className = '' }) {
  if (hint) field.setAttribute('aria-describedby', `${id}-hint`);
  group.append(el('div', { className: `control ${className}`.trim() },
    el('label', { htmlFor: id }, label), output, field,
    hint ? el('span', { className: 'hint', id: `${id}-hint` }, hint) : null));
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

/** A <select> of options [{ value, label }]; onChange(value) on change. Returns the <select>. */
export function select(group, { id, label, options, value, onChange, hint }) {
  const field = el('select', { id }, options.map((o) => el('option', { value: String(o.value) }, o.label)));
  field.value = String(value);
  field.addEventListener('change', () => onChange(field.value));
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
  group.append(el('div', { className: 'control control-toggle' }, button));
  return button;
}

/** A whole-number input (Enter runs onEnter). Returns the <input>. */
export function numberInput(group, { id, label, min, max, value, hint, onEnter }) {
  const field = el('input', { id, type: 'number', min, max, step: 1, value, inputMode: 'numeric' });
  if (onEnter) field.addEventListener('keydown', (event) => { if (event.key === 'Enter') onEnter(); });
  return control(group, { id, label, field, hint, className: 'control-wide' });
}

/** A button that runs onClick. Returns the <button>. */
export function button(group, { id, label, onClick }) {
  const b = el('button', { id, type: 'button' }, label);
  b.addEventListener('click', onClick);
  group.append(el('div', { className: 'control control-button' }, b));
  return b;
}
