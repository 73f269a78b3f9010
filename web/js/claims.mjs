// The page's one rule for its words: a claim (a generated sentence that states a result: identical, differ, learns,
// reached, never, most, all …) is written from the numbers it is about, at the current settings, by the experiment
// module beside the check that verifies it, and comes with a predicate that says whether it is true of what the page
// draws:
//
//   { name, text, holds(drawn) }     drawn: the section's drawn data by name (drawn.mjs), e.g. drawn.weights.data
//
// Static prose explains mechanisms and states no outcome. A section shows a notice made of claims (and plain strings,
// which explain) with say(node, parts); the sweep test (tests/browser/sweep.test.mjs) calls verifyClaims() after every
// setting and requires every predicate to hold against what is drawn. ("Sentence" on this page is a list of words, as
// in experiments/sentence.mjs and the lab's tasks.)
//
// A check whose claim is about what is drawn carries the same kind of predicate: { name, pass, claim, …,
// holds(drawn) }. showChecks(list, checks) renders the checks (seqorder/checks) and keeps each claim that has one, so
// that verifyClaims() checks it too: a check computed at other settings than those drawn fails there even when it
// passes.
import { renderChecks } from '../lib/figures/checks.mjs';
import { drawnIn } from './drawn.mjs';

const shown = new Map(); // node → its claims

/** Writes `parts` (claims and plain strings) as node's text, and keeps the claims for checking (data-claim names them). */
export function say(node, parts) {
  const list = (Array.isArray(parts) ? parts : [parts]).filter((p) => p !== null && p !== undefined && p !== false);
  for (const p of list) {
    if (typeof p !== 'string' && (typeof p?.name !== 'string' || typeof p.text !== 'string' || typeof p.holds !== 'function'))
      throw new TypeError('say: each part is a string or a claim { name, text, holds(drawn) }');
  }
  node.textContent = list.map((p) => (typeof p === 'string' ? p : p.text)).join(' ');
  const claims = list.filter((p) => typeof p !== 'string');
  if (claims.length) node.dataset.claim = claims.map((s) => s.name).join(' ');
  else delete node.dataset.claim;
  shown.set(node, claims);
}

/**
 * renderChecks(list, checks), and each check's holds(drawn), when it has one, kept for verifyClaims() as a claim named
 * after the check, whose text is the check's claim.
 */
export function showChecks(list, checks) {
  for (const check of checks) {
    if (check?.holds !== undefined && typeof check.holds !== 'function')
      throw new TypeError(`showChecks: the holds of check ${check.name} must be a function`);
  }
  renderChecks(list, checks);
  for (const { name, claim, holds } of checks) {
    const node = document.getElementById(`check-${name}`).querySelector('.check-claim');
    shown.set(node, holds ? [{ name, text: claim ?? name, holds }] : []);
  }
}

/**
 * Every claim on the page under `scope` (default: the document), checked against what its section draws: [{ name,
 * text, holds, error? }]. `holds` is true only when the predicate returns true.
 */
export function verifyClaims(scope = document) {
  const results = [];
  for (const [node, claims] of shown) {
    if (!node.isConnected || !scope.contains(node)) continue;
    const drawn = drawnIn(node.closest('section') ?? document.body);
    for (const claim of claims) {
      let holds = false;
      let error;
      try {
        holds = claim.holds(drawn) === true;
      } catch (e) {
        error = String(e?.message ?? e);
      }
      const visible = node.textContent.includes(claim.text);
      results.push({ name: claim.name, text: claim.text, holds: holds && visible, ...(error ? { error } : {}),
        ...(visible ? {} : { error: 'the claim is not what the page shows' }) });
    }
  }
  return results;
}
