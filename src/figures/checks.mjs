// seqorder/checks: live checks, each a claim shown with its verdict and the numbers behind it. An experiment returns
// its claims as { name, pass, claim, details, fixed?, pending? }; renderChecks shows each as
//     <div class="check" data-check="<name>" data-status="pass|fail|pending" data-at="…"> verdict · claim · numbers </div>
// and updates it in place when the experiment runs again. A pending check has no verdict yet (its numbers come from a
// run that has not finished), and says why in its details. summarize counts them (a page's tests can require every
// [data-check] to pass).
//
// Checks follow their controls: each rendering stamps data-at with the values of the controls of its figure group
// (the enclosing .fig, plus the controls it names in data-controls; a control's data-value, where it has one, is its
// value: a field whose text is refused keeps there the value it last took), so a check left behind by a control change
// shows a stale stamp. A check whose numbers are a fixed example says so (fixed: true): it gets data-fixed and a
// visible "fixed example" tag instead of a stamp. Once a control has changed (an input, change or click in the page)
// and STALE_AFTER_MS have passed, a check whose stamp is no longer its controls' values is marked stale: data-stale,
// a style (figures.css) and a tag saying at which values it was computed; rendering it again clears that. Styles:
// figures.css (classes check, badge, check-claim, check-tag, check-details, checks, checks-title). No dependencies;
// nothing is written as HTML, so it runs under a strict CSP. Every argument is checked before anything is rendered:
// a failing call changes nothing.

/** How long after a control changes a check still computed at the earlier values is marked stale (milliseconds). */
export const STALE_AFTER_MS = 400;

/** A new element with a class name and children (strings or nodes). */
function node(tag, className, ...children) {
  const element = document.createElement(tag);
  element.className = className;
  element.append(...children);
  return element;
}

/** What a value is, for messages. */
function kind(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}

/** Throws a TypeError naming `name` unless `value` is a DOM element. */
function element(value, name) {
  if (typeof value !== 'object' || value === null || value.nodeType !== 1) {
    throw new TypeError(`seqorder/checks: ${name} must be a DOM element, got ${kind(value)}`);
  }
}

/**
 * Appends an empty `.checks` list with a heading to root and returns it. With foldDetails, each check shows its badge
 * and claim, and its numbers unfold (a <details> per check).
 */
export function checkList(root, heading = 'Checks, computed live', options = {}) {
  element(root, 'root');
  if (typeof heading !== 'string') throw new TypeError(`seqorder/checks: heading must be a string, got ${kind(heading)}`);
  if (typeof options !== 'object' || options === null) throw new TypeError(`seqorder/checks: options must be an object, got ${kind(options)}`);
  const { foldDetails = false } = options;
  if (typeof foldDetails !== 'boolean') throw new TypeError(`seqorder/checks: foldDetails must be a boolean, got ${kind(foldDetails)}`);
  const list = node('div', 'checks', node('p', 'checks-title', heading));
  if (foldDetails) list.dataset.fold = 'details';
  root.append(list);
  return list;
}

/**
 * The controls the checks in `within` (a list, or a check) follow: [[id, value, control]] (a control's data-value, a
 * toggle button's aria-pressed, a checkbox's checked, else its value).
 */
function controlValues(within) {
  const group = within.closest('.fig');
  if (!group) return [];
  const extra = (group.dataset.controls ?? '').split(/\s+/).filter(Boolean).map((id) => document.getElementById(id)).filter(Boolean);
  const controls = [...group.querySelectorAll('input, select, button[aria-pressed]'), ...extra];
  return controls.map((c) => [c.id, c.dataset.value ?? c.getAttribute('aria-pressed') ?? String(/^(checkbox|radio)$/.test(c.type) ? c.checked : c.value), c]);
}

const stampOf = (values) => values.map(([id, value]) => `${id}=${value}`).join(' ');

/** What each check was computed at, as rendered: check element → [[id, value]]. */
const computedAt = new WeakMap();

/** Whether `item` is the element renderChecks made for the check `name`. */
const isCheck = (item, name) => item.dataset.check === name && item.classList.contains('check') &&
  ['.badge', '.check-claim', '.check-tag', '.check-details'].every((part) => item.querySelector(part));

/** Checks `checks`' entries, all of them, before any is rendered; returns them. */
function readChecks(checks) {
  if (!Array.isArray(checks)) throw new TypeError(`seqorder/checks: checks must be an array, got ${kind(checks)}`);
  const names = new Set();
  return checks.map((check, i) => {
    const at = `checks[${i}]`;
    if (typeof check !== 'object' || check === null) throw new TypeError(`seqorder/checks: ${at} must be an object, got ${kind(check)}`);
    const { name, pass, claim, details, fixed = false, pending = false } = check;
    if (typeof name !== 'string' || name === '') throw new TypeError(`seqorder/checks: ${at}.name must be a non-empty string`);
    for (const [key, value] of [['claim', claim], ['details', details]]) {
      if (value !== undefined && typeof value !== 'string') throw new TypeError(`seqorder/checks: ${at}.${key} must be a string, got ${kind(value)}`);
    }
    for (const [key, value] of [['fixed', fixed], ['pending', pending]]) {
      if (value !== undefined && typeof value !== 'boolean') throw new TypeError(`seqorder/checks: ${at}.${key} must be a boolean, got ${kind(value)}`);
    }
    if (names.has(name)) throw new RangeError(`seqorder/checks: ${at}.name ${JSON.stringify(name)} is given twice: names are page-unique ids`);
    names.add(name);
    const taken = document.getElementById(`check-${name}`);
    if (taken && !isCheck(taken, name)) {
      throw new RangeError(`seqorder/checks: ${at}.name ${JSON.stringify(name)} would be the element id check-${name}, which another element of the page has`);
    }
    return { name, pass, claim, details, fixed, pending };
  });
}

/**
 * Renders (or updates) each check of `checks` ({ name, pass, claim, details, fixed, pending }) in `list`, a `.checks`
 * element. Names are page-unique ids (they become data-check and id="check-<name>").
 */
export function renderChecks(list, checks) {
  element(list, 'list');
  const read = readChecks(checks);
  const values = controlValues(list);
  const stamp = stampOf(values);
  for (const { name, pass, claim, details, fixed, pending } of read) {
    let item = document.getElementById(`check-${name}`);
    if (!item) {
      const text = [node('span', 'check-claim'), ' ', node('span', 'check-tag')];
      item = list.closest('[data-fold="details"]')
        ? node('div', 'check', node('details', 'check-fold',
          node('summary', 'check-summary', node('span', 'badge'), ' ', node('span', 'check-text', ...text)), node('span', 'check-details')))
        : node('div', 'check', node('span', 'badge'), node('span', 'check-text', ...text, node('span', 'check-details')));
      item.id = `check-${name}`;
      item.dataset.check = name;
      list.append(item);
    }
    const ok = !pending && pass === true;
    item.dataset.status = pending ? 'pending' : ok ? 'pass' : 'fail';
    if (fixed) {
      item.dataset.fixed = 'true';
      delete item.dataset.at;
      computedAt.delete(item);
    } else {
      delete item.dataset.fixed;
      item.dataset.at = stamp;
      computedAt.set(item, values.map(([id, value]) => [id, value]));
    }
    delete item.dataset.stale;
    item.querySelector('.badge').textContent = pending ? '… pending' : ok ? '✓ pass' : '✗ fail';
    item.querySelector('.check-claim').textContent = claim ?? name;
    item.querySelector('.check-tag').textContent = fixed && stamp ? 'fixed example' : '';
    item.querySelector('.check-details').textContent = details ?? '';
    // Lets the page's summary follow checks that change later (controls re-run them).
    document.dispatchEvent(new CustomEvent('seqorder:check', { detail: { name, pass: ok, pending } }));
  }
  watchControls();
}

/** A control's name for the reader: its label's text, else its id. */
function controlName(control) {
  const label = control?.labels?.[0]?.textContent ?? control?.getAttribute?.('aria-label') ?? control?.textContent;
  return (label ?? '').trim().replace(/\s+/g, ' ') || control?.id || 'a control';
}

/** Marks stale every check whose controls have changed since it was computed (and unmarks those that are not). */
function markStale() {
  const valuesOf = new Map();  // each figure group's controls, read once
  for (const item of document.querySelectorAll('.check[data-at]')) {
    const group = item.closest('.fig');
    if (!valuesOf.has(group)) valuesOf.set(group, controlValues(item));
    const now = valuesOf.get(group);
    if (stampOf(now) === item.dataset.at) {
      if (item.dataset.stale) {
        delete item.dataset.stale;
        item.querySelector('.check-tag').textContent = '';
      }
      continue;
    }
    const then = new Map(computedAt.get(item) ?? []);
    const changed = now.filter(([id, value]) => then.has(id) && then.get(id) !== value)
      .map(([id, value, control]) => `${controlName(control)} ${then.get(id)}, now ${value}`);
    item.dataset.stale = 'true';
    item.querySelector('.check-tag').textContent = changed.length
      ? `stale: computed at ${changed.join('; ')}` : 'stale: computed at other settings';
  }
}

let watching = false;
let timer = 0;
/** Once a check is on the page: each input, change or click is followed, STALE_AFTER_MS later, by markStale. */
function watchControls() {
  if (watching) return;
  watching = true;
  const later = () => {
    clearTimeout(timer);
    timer = setTimeout(markStale, STALE_AFTER_MS);
  };
  for (const type of ['input', 'change', 'click']) document.addEventListener(type, later, { capture: true, passive: true });
}

/**
 * Counts checks under `scope` (a document or element): { passed, failed, failures: [{ name, text }], pending:
 * [names] }.
 */
export function summarize(scope = document) {
  if (typeof scope?.querySelectorAll !== 'function') throw new TypeError('seqorder/checks: scope must be a document or an element');
  const failures = [];
  const pending = [];
  let passed = 0;
  for (const item of scope.querySelectorAll('[data-check]')) {
    if (item.dataset.status === 'pass') passed += 1;
    else if (item.dataset.status === 'pending') pending.push(item.dataset.check);
    else failures.push({ name: item.dataset.check, text: item.textContent });
  }
  return { passed, failed: failures.length, failures, pending };
}
