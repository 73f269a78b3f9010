// A section's settings, declared once. Its controls (controls.mjs's settingControl), the page's URL state
// (url-state.mjs) and the browser test that sweeps every setting (tests/browser/sweep.test.mjs) all read the
// declaration; nothing else lists a section's settings. Pure: no DOM.
//
// A section module exports its declaration as `settings`:
//
//   export const settings = declareSettings({
//     causal:   { kind: 'toggle', id: 'steps-causal', label: 'Causal mask', default: false },
//     sentence: { kind: 'select', id: 'steps-sentence', label: 'Sentence', default: '0',
//                 options: [{ value: '0', label: 'the robot follows the person' }, …] },
//     length:   { kind: 'slider', id: 'sinusoids-length', label: 'length (positions)', min: 1, max: 512, step: 1, default: 64 },
//     seed:     { kind: 'number', id: 'lab-seed', label: 'Seed', min: 0, max: 1e9, default: 1, sweep: [1, 2, 7] },
//     models:   { kind: 'set', id: 'lab-models', label: 'Models', options: [{ value: 'none', label: '…' }, …],
//                 default: ['none', 'sinusoidal'], min: 1, max: 8 },
//     words:    { kind: 'list', id: 'lab-words', label: 'Sentence', options: [...], default: ['the', 'robot'], min: 3, max: 16 },
//   });
//
// Every entry has:
//   kind     'toggle'  a boolean (a switch)
//            'slider'  a number from min to max on the grid min + k·step (step default 1)
//            'number'  the same, typed into a field (integer unless `step` says otherwise; step 0: any number)
//            'select'  one of options[].value (strings or numbers)
//            'set'     a subset of options[].value, in the options' order, of min … max members (default 0 … all)
//            'list'    a sequence of options[].value (repeats allowed), of min … max entries (default 1 … 64)
//   id       the control's element id, unique on the page; also the setting's key in the URL's hash (a section's
//            prefix and the setting's name: sinusoids-width, lab-embedScale)
//   label    the control's visible label
//   default  the value at load when the URL does not set it
// and optionally:
//   hint     a line under the control (aria-describedby)
//   sweep    the values the sweep test visits (default: toggle both, select and set every option (a set: each option
//            alone, then the default), slider and number min, max and the middle of the grid, list the default)
//   format   for a slider, how its value is shown: (value) => string
//   was      { key, values? }: the key an older link used for the setting, read when the link has no `id` (the URL
//            is then written with `id`), and how its values read now ({ '0': '1', … }; default: as they are)
// The section reads the current values from the state the page hands it (url-state.mjs: `state.values.causal`).
// A value in the URL that the declaration refuses is replaced by the default, and the page says so (url-state.mjs).

const KINDS = ['toggle', 'slider', 'number', 'select', 'set', 'list'];

const plainNumber = (x) => typeof x === 'number' && Number.isFinite(x);
/**
 * A number as a URL or a field writes it: digits, a point, an exponent, an optional minus (no '0x', no spaces); written
 * so that no text makes it backtrack (a long one is read once).
 */
const NUMBER = /^-?(?:\d+(?:\.\d*)?|\.\d+)(?:e[-+]?\d+)?$/i;

/** Is `value` a value of the setting? Returns null when it is, else the rule it breaks, in words. */
export function violation(spec, value) {
  const rule = describe(spec);
  switch (spec.kind) {
    case 'toggle':
      return typeof value === 'boolean' ? null : rule;
    case 'slider':
    case 'number': {
      if (!plainNumber(value) || value < spec.min || value > spec.max) return rule;
      const step = spec.step ?? 1;
      if (step === 0) return null;
      const k = (value - spec.min) / step;
      return Math.abs(k - Math.round(k)) <= 1e-9 ? null : rule;
    }
    case 'select':
      return spec.options.some((o) => o.value === value) ? null : rule;
    case 'set': {
      if (!Array.isArray(value)) return rule;
      const known = spec.options.map((o) => o.value);
      if (value.some((v) => !known.includes(v)) || new Set(value).size !== value.length) return rule;
      const { min = 0, max = known.length } = spec;
      return value.length >= min && value.length <= max ? null : rule;
    }
    case 'list': {
      if (!Array.isArray(value)) return rule;
      const known = spec.options.map((o) => o.value);
      const { min = 1, max = 64 } = spec;
      return value.every((v) => known.includes(v)) && value.length >= min && value.length <= max ? null : rule;
    }
    default:
      return `an unknown kind of setting, ${spec.kind}`;
  }
}

/** The rule of a setting's values, in words: "a whole number from 2 to 256 in steps of 2", "on or off", … */
export function describe(spec) {
  const names = () => spec.options.map((o) => String(o.value)).join(', ');
  switch (spec.kind) {
    case 'toggle':
      return 'on (1) or off (0)';
    case 'slider':
    case 'number': {
      const step = spec.step ?? 1;
      const whole = step !== 0 && Number.isInteger(step) && Number.isInteger(spec.min);
      const kind = whole ? 'a whole number' : 'a number';
      const steps = step > 1 || (step > 0 && !Number.isInteger(step)) ? ` in steps of ${step}` : '';
      return `${kind} from ${spec.min} to ${spec.max}${steps}`;
    }
    case 'select':
      return `one of ${names()}`;
    case 'set': {
      const { min = 0, max = spec.options.length } = spec;
      return `${min === max ? min : `${min} to ${max}`} of ${names()}, separated by commas, each at most once`;
    }
    case 'list': {
      const { min = 1, max = 64 } = spec;
      return `${min} to ${max} of ${names()}, separated by commas`;
    }
    default:
      return `an unknown kind of setting, ${spec.kind}`;
  }
}

/** A value as the URL's hash writes it: 1/0, a number, an option's value, values joined by commas. */
export function encode(spec, value) {
  if (spec.kind === 'toggle') return value ? '1' : '0';
  if (spec.kind === 'set' || spec.kind === 'list') return value.map(String).join(',');
  return String(value);
}

/**
 * The value that `text` (from the URL's hash) stands for: { value } when the declaration accepts it, else
 * { error } saying which values it takes.
 */
export function parse(spec, text) {
  const refuse = () => ({ error: describe(spec) });
  // an option is named by its value; a number's by any way of writing it (3e-3 is 0.003)
  const option = (t) => spec.options.find((o) => String(o.value) === t ||
    (typeof o.value === 'number' && NUMBER.test(t) && Number(t) === o.value));
  let value;
  switch (spec.kind) {
    case 'toggle':
      if (['1', 'true', 'on'].includes(text)) value = true;
      else if (['0', 'false', 'off'].includes(text)) value = false;
      else return refuse();
      break;
    case 'slider':
    case 'number':
      if (!NUMBER.test(text)) return refuse();
      value = Number(text);
      break;
    case 'select':
      if (!option(text)) return refuse();
      value = option(text).value;
      break;
    case 'set':
    case 'list': {
      const parts = text === '' ? [] : text.split(',');
      if (parts.some((p) => !option(p))) return refuse();
      value = parts.map((p) => option(p).value);
      if (spec.kind === 'set' && new Set(value).size !== value.length) return refuse();
      // a set is kept in the options' order
      if (spec.kind === 'set') value = spec.options.map((o) => o.value).filter((v) => value.includes(v));
      break;
    }
    default:
      return refuse();
  }
  return violation(spec, value) === null ? { value } : refuse();
}

/** Two values of one setting are equal (arrays element by element). */
export function same(a, b) {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => v === b[i]);
  return a === b;
}

/** The values the sweep test visits (the declaration's `sweep`, else the kind's default: see the header). */
export function sweepValues(spec) {
  if (spec.sweep) return [...spec.sweep];
  switch (spec.kind) {
    case 'toggle':
      return [false, true];
    case 'select':
      return spec.options.map((o) => o.value);
    case 'set':
      return [...spec.options.map((o) => [o.value]).filter((v) => violation(spec, v) === null), spec.default];
    case 'slider':
    case 'number': {
      const step = spec.step || 1;
      const middle = spec.min + Math.round((spec.max - spec.min) / 2 / step) * step;
      return [...new Set([spec.min, spec.max, middle])];
    }
    default:
      return [spec.default];
  }
}

/**
 * A section's declaration, checked: each entry must have a known kind, an id, a label, options where its kind needs
 * them and a default that is one of its values (a TypeError or RangeError names the entry and what is wrong).
 * Returns the frozen entries, keyed by name, each with its `name`.
 */
export function declareSettings(entries) {
  const declared = {};
  for (const [name, spec] of Object.entries(entries)) {
    const where = `setting ${name}`;
    if (!KINDS.includes(spec.kind)) throw new TypeError(`${where}: kind must be one of ${KINDS.join(', ')}, got ${spec.kind}`);
    if (typeof spec.id !== 'string' || !/^[a-z][a-zA-Z0-9-]*$/.test(spec.id))
      throw new TypeError(`${where}: id must be an element id (letters, digits, '-', starting with a lowercase letter), got ${spec.id}`);
    if (spec.was !== undefined && (typeof spec.was?.key !== 'string' || (spec.was.values !== undefined && typeof spec.was.values !== 'object')))
      throw new TypeError(`${where}: was must be { key, values? }`);
    if (typeof spec.label !== 'string' || spec.label === '') throw new TypeError(`${where}: label must be a non-empty string`);
    if (['select', 'set', 'list'].includes(spec.kind)) {
      if (!Array.isArray(spec.options) || spec.options.length === 0) throw new TypeError(`${where}: a ${spec.kind} needs options [{ value, label }]`);
      const texts = spec.options.map((o) => String(o.value));
      if (texts.some((t) => t === '')) throw new RangeError(`${where}: an option's value may not be empty`);
      if (spec.kind !== 'select' && texts.some((t) => t.includes(','))) throw new RangeError(`${where}: the values of a ${spec.kind} are joined by ',' in the URL, so none may hold one`);
      if (new Set(texts).size !== texts.length) throw new RangeError(`${where}: two options share a value`);
    }
    if (spec.kind === 'slider' || spec.kind === 'number') {
      if (!plainNumber(spec.min) || !plainNumber(spec.max) || spec.min > spec.max) throw new RangeError(`${where}: needs numbers min ≤ max`);
      if (spec.step !== undefined && !(plainNumber(spec.step) && spec.step >= 0)) throw new RangeError(`${where}: step must be a number ≥ 0`);
    }
    const wrong = violation(spec, spec.default);
    if (wrong !== null) throw new RangeError(`${where}: its default ${JSON.stringify(spec.default)} is not ${wrong}`);
    for (const v of spec.sweep ?? []) {
      if (violation(spec, v) !== null) throw new RangeError(`${where}: the sweep value ${JSON.stringify(v)} is not ${describe(spec)}`);
    }
    declared[name] = Object.freeze({ ...spec, name });
  }
  return Object.freeze(declared);
}

/** The defaults of a declaration, as a fresh { name: value } object (arrays copied). */
export function defaults(settings) {
  return Object.fromEntries(Object.values(settings).map((s) => [s.name, Array.isArray(s.default) ? [...s.default] : s.default]));
}
