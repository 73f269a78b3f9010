// The page's newer experiments (web/js/experiments/) in Chromium, against the module as the page loads it: every check
// passes with the real API, and fails when the API is replaced by a plausible wrong one. A check that a broken
// implementation passes would be a verdict written in advance.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser } from './helpers/browser.mjs';

let session;
let page;

before(async () => {
  session = await launchBrowser();
  ({ page } = session);
  const body = '<!doctype html><title>experiments</title><body></body>';
  await page.route(`${session.origin}/__experiments/**`, (route) => route.fulfill({ status: 200, contentType: 'text/html', body }));
  await page.goto(`${session.origin}/__experiments/index.html`, { waitUntil: 'load' });
  await page.evaluate(async () => {
    const { loadSeqorder } = await import('/lib/model-entry.mjs');  // seqorder/model: add-position's make models
    globalThis.so = await loadSeqorder();
    globalThis.modules = {
      positions: Object.assign({}, ...await Promise.all(['add-position', 'sinusoids', 'start-offset']
        .map((name) => import(`/js/experiments/${name}.mjs`)))),
      batch: await import('/js/experiments/batch.mjs'),
      steps: await import('/js/experiments/four-steps.mjs'),
      comparisons: await import('/js/experiments/comparisons.mjs'),
      sentence: await import('/js/experiments/sentence.mjs'),
    };
  });
});

after(async () => {
  await session?.close();
});

/**
 * Runs `experiment` (source of a function (so, m) → checks, m being the modules) with the real API and with each
 * sabotage (source of a function (so) → replacements merged into the API); returns { real: { name: pass },
 * sabotaged: [{ name: pass } or { thrown }] }. Each check of a run must have its own name (two of one name would
 * leave one verdict unread).
 */
async function run(experiment, sabotages = []) {
  const result = await page.evaluate(([experiment, sabotages]) => {
    const fn = (source) => (0, eval)(`(${source})`); // the test's own code, evaluated through DevTools
    const verdicts = (api) => {
      try {
        return fn(experiment)(api, globalThis.modules).map((c) => [c.name, c.pass]);
      } catch (error) {
        return { thrown: String(error) };
      }
    };
    return { real: verdicts(globalThis.so), sabotaged: sabotages.map((s) => verdicts({ ...globalThis.so, ...fn(s)(globalThis.so) })) };
  }, [String(experiment), sabotages.map(String)]);
  const byName = (v) => {
    if (!Array.isArray(v)) return v;
    const names = v.map(([name]) => name);
    assert.equal(new Set(names).size, names.length, `checks with one name: ${names.join(', ')}`);
    return Object.fromEntries(v);
  };
  return { real: byName(result.real), sabotaged: result.sabotaged.map(byName) };
}

function assertRealPasses(result) {
  for (const [name, pass] of Object.entries(result.real)) assert.equal(pass, true, `${name} fails with the real API: ${JSON.stringify(result.real)}`);
}

/**
 * Each sabotage fails the named check, or each of the named checks (or makes the experiment throw, which the page
 * shows as a failing check).
 */
function assertCaught(result, names) {
  assert.equal(result.sabotaged.length, names.length);
  result.sabotaged.forEach((v, i) => [names[i]].flat().forEach((name) => {
    assert.ok('thrown' in v || v[name] === false, `sabotage ${i}: ${name} still passes: ${JSON.stringify(v)}`);
  }));
}

test('one sum, two stories: addPositions that ignores start, or concatenates, is caught', async () => {
  const result = await run((so, m) => [
    ...m.positions.sumAmbiguity(so, { s: 4, k: 9 }).checks.map((c) => ({ ...c, name: `${c.name} (s = 4, k = 9)` })),
    ...m.positions.sumAmbiguity(so, { s: 0, k: 1 }).checks.map((c) => ({ ...c, name: `${c.name} (s = 0, k = 1)` })),
  ], [
    (so) => ({ addPositions: (x) => so.addPositions(x) }),
    (so) => ({ addPositions: (x, o) => ({ data: Float64Array.from([...x.data, ...so.positions(1, 8, o).data]), shape: [1, 16], dtype: 'float64' }) }),
  ]);
  assertRealPasses(result);
  const both = ['add-position-sum-ambiguous (s = 4, k = 9)', 'add-position-sum-ambiguous (s = 0, k = 1)'];
  assertCaught(result, [both, both]);
});

test('D = 8 gives four pairs: another base, or sines and cosines swapped, is caught', async () => {
  const result = await run((so, m) => m.positions.fourPairs(so).checks, [
    (so) => ({ positions: (n, w, o = {}) => so.positions(n, w, { ...o, base: 1000 }) }),
    (so) => ({ positions: (n, w, o) => { const p = so.positions(n, w, o); for (let k = 0; k < p.data.length; k += 2) [p.data[k], p.data[k + 1]] = [p.data[k + 1], p.data[k]]; return p; } }),
  ]);
  assertRealPasses(result);
  assertCaught(result, ['sinusoids-d8-four-pairs', 'sinusoids-d8-four-pairs']);
});

test('restarting at 0: a table whose rows ignore the position is caught; a prefix of 0 needs equality', async () => {
  const result = await run((so, m) => [10, 1, 250, 0].map((start) => ({
    ...m.positions.startOffsetRestartCheck(m.positions.startOffset(so, { start, count: 3, width: 16 }), { start, count: 3 }),
    name: `restart at prefix ${start}`,
  })), [
    (so) => ({ positions: (n, w, o) => { const p = so.positions(n, w, o); for (let r = 1; r < n; r += 1) p.data.copyWithin(r * w, 0, w); return p; } }),
  ]);
  assertRealPasses(result);
  assertCaught(result, ['restart at prefix 10']);
});

test('the batch: positions numbered across sentences, attention that mixes them, a flattened lookup are caught', async () => {
  const result = await run((so, m) => m.batch.batchExperiment(so, m.sentence.vocabularyTable(), { batch: 3, length: 4 }).checks, [
    (so) => ({ addPositions: (x) => { const [B, T, D] = x.shape; return { ...so.addPositions({ ...x, shape: [B * T, D] }), shape: x.shape }; } }),
    (so) => ({ attention: (q, k, v, o) => { const [B, T, D] = q.shape; const flat = (t) => ({ ...t, shape: [B * T, D] }); return { ...so.attention(flat(q), flat(k), flat(v), o), shape: q.shape }; } }),
    (so) => ({ embed: (t, ids) => { const e = so.embed(t, ids); return { ...e, shape: [e.shape[0] * e.shape[1], e.shape[2]] }; } }),
  ]);
  assertRealPasses(result);
  assertCaught(result, ['batch-same-positions', 'batch-sentences-apart', 'batch-shape']);
});

test('the four steps: wrong scores, and a projection that never reaches the keys, are caught', async () => {
  const result = await run((so, m) => {
    const table = m.sentence.vocabularyTable();
    return [
      ...m.steps.stepChecks(so, table, { projections: true }),
      { ...m.steps.diagonalCheck(so, table, { projections: false }), name: 'steps-diagonal (no projections)' },
      { ...m.steps.diagonalCheck(so, table, { projections: true }), name: 'steps-diagonal (projections)' },
    ];
  }, [
    (so) => ({ attention: (q, k, v, o) => { const r = so.attention(q, k, v, o); if (o?.steps) r.scores.data[1] *= 1.01; return r; } }),
    (so) => ({ attention: (q, k, v, o) => so.attention(q, q, v, o) }),
  ]);
  assertRealPasses(result);
  assertCaught(result, ['steps-scores-are-dot-products', 'steps-diagonal (projections)']);
});

test('four answers: dropped positions or rotations, an extra head, scores that depend on the row, are caught', async () => {
  const result = await run((so, m) => m.comparisons.answersExperiment(so, { length: 10 }).checks, [
    (so) => ({ learnedPositions: (t, n, o) => { const r = so.learnedPositions(t, n, o); r.data.fill(0); return r; } }),
    (so) => ({ rope: (x) => ({ ...x, data: Float64Array.from(x.data) }) }),
    (so) => ({ attention: (q, k, v, o) => { const r = so.attention(q, k, v, o); return { ...r, output: { ...r.output, shape: [2, ...r.output.shape] } }; } }),
    (so) => ({ attention: (q, k, v, o) => { const r = so.attention(q, k, v, o); r.scores?.data.forEach((_, i, a) => { a[i] += i * 1e-3; }); return r; } }),
  ]);
  assertRealPasses(result);
  assertCaught(result, ['cmp-learned-absolute', 'cmp-rope-relative', 'cmp-not-extra-heads', 'cmp-none-content-only']);
});

test('extending a learned table: a lookup that clamps past the end, or ignores start, is caught', async () => {
  const result = await run((so, m) => m.comparisons.extendLearnedExperiment(so).checks, [
    (so) => ({ learnedPositions: (t, n, o = {}) => so.learnedPositions(t, n, { ...o, start: Math.min(o.start ?? 0, t.shape[0] - n) }) }),
    (so) => ({ learnedPositions: (t, n) => so.learnedPositions(t, n) }),
  ]);
  assertRealPasses(result);
  assertCaught(result, ['cmp-learned-extend-append', 'cmp-learned-extend-append']);
});
