// Reading the checks an experiment of the page returns ({ name, pass, details }), shared by the experiments' tests
// (comparisons, order-experiments, positions-experiments).
import assert from 'node:assert/strict';

/** The checks as { name: pass }. */
export function verdicts(checks) {
  return Object.fromEntries(checks.map((c) => [c.name, c.pass]));
}

/** Asserts every check passes, naming the first that does not with its details. */
export function assertAllPass(checks) {
  for (const c of checks) assert.equal(c.pass, true, `${c.name}: ${c.details}`);
}
