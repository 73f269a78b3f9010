// seqorder/checks: live checks, each a claim shown with its verdict and the numbers behind it. An experiment returns
// its claims as { name, pass, claim, details, fixed?, pending? }; renderChecks shows each as
//     <div class="check" data-check="<name>" data-status="pass|fail|pending" data-at="…"> verdict · claim · numbers </div>
// and updates it in place when the experiment runs again. A pending check has no verdict yet (its numbers come from a
// run that has not finished), and says why in its details. summarize counts them (a page's tests can require every
// [data-check] to pass).
//
// Checks follow their controls: each rendering stamps data-at with the values of the controls of its figure group
// (the enclosing .fig, plus the controls it names in data-controls), so a check left behind by a control change shows
// a stale stamp. A check whose numbers are a fixed example says so (fixed: true): it gets data-fixed and a visible
// "fixed example" tag instead of a stamp. Styles: figures.css (classes check, badge, check-claim, check-tag,
// check-details, checks, checks-title). No dependencies; nothing is written as HTML, so it runs under a strict CSP.

/** A new element with a class name and children (strings or nodes). */
function node(tag, className, ...children) {
  const element = document.createElement(tag);
  element.className = className;
  element.append(...children);
  return element;
}

/** Throws a TypeError naming `name` unless `value` is a DOM element. */
function element(value, name) {
  if (typeof value !== 'object' || value === null || value.nodeType !== 1) {
    throw new TypeError(`seqorder/checks: ${name} must be a DOM element, got ${value === null ? 'null' : typeof value}`);
  }
}

/**
 * Appends an empty `.checks` list with a heading to root and returns it. With foldDetails, each check shows its badge
 * and claim, and its numbers unfold (a <details> per check).
 */
export function checkList(root, heading = 'Checks, computed live', { foldDetails = false } = {}) {
  element(root, 'root');
  if (typeof heading !== 'string') throw new TypeError(`seqorder/checks: heading must be a string, got ${typeof heading}`);
  if (typeof foldDetails !== 'boolean') throw new TypeError(`seqorder/checks: foldDetails must be a boolean, got ${typeof foldDetails}`);
  const list = node('div', 'checks', node('p', 'checks-title', heading));
  if (foldDetails) list.dataset.fold = 'details';
  root.append(list);
  return list;
}

/** "id=value …" of the controls a check in `list` follows (a toggle button's aria-pressed, a checkbox's checked). */
function controlStamp(list) {
  const group = list.closest('.fig');
  if (!group) return '';
  const extra = (group.dataset.controls ?? '').split(/\s+/).filter(Boolean).map((id) => document.getElementById(id));
  const controls = [...group.querySelectorAll('input, select, button[aria-pressed]'), ...extra];
  return controls.map((c) => `${c.id}=${c.getAttribute('aria-pressed') ?? (/^(checkbox|radio)$/.test(c.type) ? c.checked : c.value)}`).join(' ');
}

/**
 * Renders (or updates) each check of `checks` ({ name, pass, claim, details, fixed, pending }) in `list`, a `.checks`
 * element. Names are page-unique ids (they become data-check and id="check-<name>").
 */
export function renderChecks(list, checks) {
  element(list, 'list');
  if (!Array.isArray(checks)) throw new TypeError(`seqorder/checks: checks must be an array, got ${typeof checks}`);
  checks.forEach((check, i) => {
    if (typeof check?.name !== 'string' || check.name === '') {
      throw new TypeError(`seqorder/checks: checks[${i}].name must be a non-empty string`);
    }
  });
  const stamp = controlStamp(list);
  for (const { name, pass, claim, details, fixed = false, pending = false } of checks) {
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
    } else {
      delete item.dataset.fixed;
      item.dataset.at = stamp;
    }
    item.querySelector('.badge').textContent = pending ? '… pending' : ok ? '✓ pass' : '✗ fail';
    item.querySelector('.check-claim').textContent = claim ?? name;
    item.querySelector('.check-tag').textContent = fixed && stamp ? 'fixed example' : '';
    item.querySelector('.check-details').textContent = details ?? '';
    // Lets the page's summary follow checks that change later (controls re-run them).
    document.dispatchEvent(new CustomEvent('seqorder:check', { detail: { name, pass: ok, pending } }));
  }
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
