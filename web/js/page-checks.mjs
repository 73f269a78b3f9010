// The page's live checks (not to be confused with src/js/checks.mjs, the API's argument checks). An experiment
// returns its claims as { name, pass, claim, details, fixed?, pending? }; renderChecks shows each as
//     <div class="check" data-check="<name>" data-status="pass|fail|pending" data-at="…"> verdict · claim · numbers </div>
// and updates it in place when the experiment runs again. A pending check has no verdict yet (its numbers come from a
// run that has not finished: the trained models'), and says why in its details. The browser tests require every
// [data-check] to pass once every run has finished.
//
// Checks follow their controls: each rendering stamps data-at with the values of the controls of its figure group
// (the enclosing .fig, plus the controls it names in data-controls), so a check left behind by a control change shows
// a stale stamp (tests/browser/controls.test.mjs looks for one). A check whose numbers are a fixed example says so
// (fixed: true): it gets data-fixed and a visible "fixed example" tag instead of a stamp.
import { el } from './ui.mjs';

/** Appends an empty `.checks` list with a heading to root and returns it. */
export function checkList(root, heading = 'Checks, computed live') {
  const list = el('div', { className: 'checks' }, el('p', { className: 'checks-title' }, heading));
  root.append(list);
  return list;
}

/** "id=value …" of the controls a check in `list` follows. */
function controlStamp(list) {
  const group = list.closest('.fig');
  if (!group) return '';
  const extra = (group.dataset.controls ?? '').split(/\s+/).filter(Boolean).map((id) => document.getElementById(id));
  const controls = [...group.querySelectorAll('input, select, button[aria-pressed]'), ...extra];
  return controls.map((c) => `${c.id}=${c.getAttribute('aria-pressed') ?? c.value}`).join(' ');
}

/**
 * Renders (or updates) each check of `checks` ({ name, pass, claim, details, fixed, pending }) in `list`, a `.checks`
 * element. Names are page-unique ids (they become data-check and id="check-<name>").
 */
export function renderChecks(list, checks) {
  const stamp = controlStamp(list);
  for (const { name, pass, claim, details, fixed = false, pending = false } of checks) {
    if (typeof name !== 'string' || name === '') throw new TypeError('a check name must be a non-empty string');
    let node = document.getElementById(`check-${name}`);
    if (!node) {
      node = el('div', { className: 'check', id: `check-${name}`, dataset: { check: name } },
        el('span', { className: 'badge' }),
        el('span', { className: 'check-text' }, el('span', { className: 'check-claim' }), ' ',
          el('span', { className: 'check-tag' }), el('span', { className: 'check-details' })));
      list.append(node);
    }
    const ok = !pending && pass === true;
    node.dataset.status = pending ? 'pending' : ok ? 'pass' : 'fail';
    if (fixed) {
      node.dataset.fixed = 'true';
      delete node.dataset.at;
    } else {
      delete node.dataset.fixed;
      node.dataset.at = stamp;
    }
    node.querySelector('.badge').textContent = pending ? '… pending' : ok ? '✓ pass' : '✗ fail';
    node.querySelector('.check-claim').textContent = claim ?? name;
    node.querySelector('.check-tag').textContent = fixed && stamp ? 'fixed example' : '';
    node.querySelector('.check-details').textContent = details ?? '';
    // Lets the page's summary follow checks that change later (controls re-run them).
    document.dispatchEvent(new CustomEvent('seqorder:check', { detail: { name, pass: ok, pending } }));
  }
}

/**
 * Counts checks under `scope` (a document or element): { passed, failed, failures: [{ name, text }], pending:
 * [names] }.
 */
export function summarize(scope = document) {
  const failures = [];
  const pending = [];
  let passed = 0;
  for (const node of scope.querySelectorAll('[data-check]')) {
    if (node.dataset.status === 'pass') passed += 1;
    else if (node.dataset.status === 'pending') pending.push(node.dataset.check);
    else failures.push({ name: node.dataset.check, text: node.textContent });
  }
  return { passed, failed: failures.length, failures, pending };
}
