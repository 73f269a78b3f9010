// Live checks: every claim the page demonstrates is an element
//     <div class="check" data-check="<name>" data-status="pass|fail"> verdict · claim · the numbers behind it </div>
// The browser test (tests/browser/page.test.mjs) requires every [data-check] to have data-status="pass".

/**
 * Renders (or updates, when it exists) the check `name` inside `root`.
 * @param {Element} root     where the check lives (appended to root's `.checks` list if there is one, else to root)
 * @param {string} name      a page-unique id, e.g. 'pos0-sines-zero' (becomes data-check)
 * @param {boolean} pass     the verdict
 * @param {string} details   the numbers behind the verdict, e.g. 'max |error| = 3.1e-17 ≤ 1e-12'
 * @param {{ claim?: string }} [options] a short human sentence of what is claimed (defaults to the name)
 * @returns {HTMLElement} the check element
 */
export function check(root, name, pass, details, { claim } = {}) {
  if (typeof name !== 'string' || name === '') throw new TypeError('check name must be a non-empty string');
  let el = document.querySelector(`[data-check="${CSS.escape(name)}"]`);
  if (!el) {
    el = document.createElement('div');
    el.className = 'check';
    el.id = `check-${name}`;
    el.dataset.check = name;
    el.innerHTML = '<span class="badge"></span><span class="check-text"><span class="check-claim"></span> ' +
      '<span class="check-details"></span></span>';
    const list = root.classList?.contains('checks') ? root : root.querySelector('.checks');
    (list ?? root).appendChild(el);
  }
  const ok = pass === true;
  el.dataset.status = ok ? 'pass' : 'fail';
  el.querySelector('.badge').textContent = ok ? '✓ pass' : '✗ fail';
  el.querySelector('.check-claim').textContent = claim ?? name;
  el.querySelector('.check-details').textContent = details ?? '';
  el.title = `check "${name}": ${ok ? 'passes' : 'FAILS'}`;
  // Lets the page's summary follow checks that change later (sliders re-run them).
  document.dispatchEvent(new CustomEvent('seqorder:check', { detail: { name, pass: ok } }));
  return el;
}

/** Appends an empty `.checks` list with a heading to root (later checks in root go there) and returns it. */
export function checkList(root, heading = 'Checks, computed live') {
  const wrap = document.createElement('div');
  wrap.className = 'checks';
  const title = document.createElement('p');
  title.className = 'checks-title';
  title.textContent = heading;
  wrap.appendChild(title);
  root.appendChild(wrap);
  return wrap;
}

/** Counts checks under `scope` (a document or element): { passed, failed, failures: [{ name, text }] }. */
export function summarize(scope = document) {
  const failures = [];
  let passed = 0;
  for (const el of scope.querySelectorAll('[data-check]')) {
    if (el.dataset.status === 'pass') passed += 1;
    else failures.push({ name: el.dataset.check, text: el.textContent });
  }
  return { passed, failed: failures.length, failures };
}

/**
 * max_i |a_i − b_i| over two tensors ({ data }) or array-likes (NaN if the lengths differ or any difference is NaN).
 * Shared with the experiments (web/js/experiments/*.mjs), which re-export it.
 */
export function maxAbsDiff(a, b) {
  const x = a.data ?? a;
  const y = b.data ?? b;
  if (x.length !== y.length) return NaN;
  let max = 0;
  for (let i = 0; i < x.length; i += 1) {
    const d = Math.abs(x[i] - y[i]);
    if (!(d <= max)) max = d; // also propagates NaN
  }
  return max;
}

/** A short, readable number: 0, 4, 0.125, 3.1e-17, −2.5e+6. */
export function fmt(x, digits = 3) {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return '∞';
  if (x === -Infinity) return '−∞';
  if (x === 0) return '0';
  const a = Math.abs(x);
  const s = a >= 1e-3 && a < 1e6 ? String(Number(x.toPrecision(digits))) : x.toExponential(Math.max(digits - 1, 0));
  return s.replace('-', '−');
}
