// What the lab's runs say: every claim the lab writes about a result, each a check. A claim is { name, type, subject,
// params, text }: TYPES[type].of(drawn, subject) computes its facts (facts.mjs) from the views the page draws (drawn:
// { curves, lengths } of the run shown, or { runs } for the conclusion), `params` are those facts computed from the
// run's record, and `text` is written from params. The claim holds when the facts read again from what is drawn are
// its params: its check (checkOf) shows it with that verdict, and the browser tests evaluate the same predicate on
// the page. A model that did not learn is a finding like any other; comparisons are made between models that learnt
// and only past the run's spread; reasons only where the run tests them. Pure: no DOM.
import { count, fmt } from '../format.mjs';
import { DECODER, kindLabel, kindOf } from './config.mjs';
import { LEARNED, MARGIN, REACHED, beyond, curvesView, gap, learning, lengthsView, probeStanding, probeView, reach } from './facts.mjs';
import { ORTHOGONAL } from './probe.mjs';
import { MEASURED_COUNT, SAME_LOGITS, measuredLengths, trainedLength } from './tasks.mjs';

export const percent = (x) => `${fmt(100 * x, 3)}%`;
const list = (items) => (items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`);
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const versus = { at: ' (at chance)', below: ' (below chance)' };
/** A measured number as a claim says it: '58.6%', '48% (at chance)', 'no answer'; inside brackets '48%, at chance'. */
const score = (s) => (!s || s.error ? 'no answer' : `${percent(s.median)}${versus[s.chance] ?? ''}`);
const bracketed = (text) => text.replace(/ \((at|below) chance\)$/, ', $1 chance');
const label = (view, key) => view.kinds.find((k) => k.key === key).label;
/** The text with its first letter a capital (a run's name at the start of a sentence). */
export const capital = (text) => text[0].toUpperCase() + text.slice(1);
const times = (view, T) => `${fmt(T / view.longest)}×`;
/** A kind's lowest median at the trained lengths (learning's) as a claim says it. */
const lowest = (l) => (l.low === null ? 'no answer at a trained length' : score({ median: l.low, chance: l.chance }));

/** The views of a record as its figures draw them: { curves, lengths, probe } (lengths and probe null until measured, probed). */
export const viewsOf = (record) => ({ curves: curvesView(record), lengths: record.measured ? lengthsView(record) : null, probe: probeView(record) });

/** The conclusion's views of its runs ({ order, lookback, induction, scaling: { scaled, unscaled } }, records or null). */
export function runsView(runs) {
  const measured = (r) => (r?.measured ? lengthsView(r) : null);
  const both = (r) => (r?.measured ? { curves: curvesView(r), lengths: lengthsView(r) } : null);
  const pair = runs.scaling && { scaled: both(runs.scaling.scaled), unscaled: both(runs.scaling.unscaled) };
  return {
    order: measured(runs.order), lookback: measured(runs.lookback), induction: measured(runs.induction), scaling: pair?.scaled && pair?.unscaled ? pair : null,
  };
}

/** The kinds of a view that learnt (learning's), in the run's order. */
const learnt = (view) => view.kinds.map((k) => k.key).filter((key) => learning(view, key).learnt);

/** The mask's reason, where the run tests it: the order it gives with any depth, its limit with one layer only. */
function maskReason(view, p) {
  if (view.task === 'order') return p.learnt ? ': each word sees only the words before it, an order of its own' : '';
  if (view.task !== 'lookback') return '';
  if (view.layers > 1) return `; with ${view.layers} layers, depth can turn the mask into position, so this run does not test the mask’s one-layer limit`;
  return p.learnt ? '' : `: with one layer, the mask tells a word which words came before it, not which one stands ${view.back} back`;
}

/**
 * Each type of claim: of(drawn, subject) → its params (its facts, from what is drawn), text(params, view) → its words,
 * details(drawn, subject) → the numbers its check shows.
 */
const TYPES = {
  curve: {
    of: ({ curves: v }, key) => ({ run: v.run, steps: v.steps, chance: v.chance, key, ...reach(v, key) }),
    text(p, v) {
      const name = label(v, p.key);
      const to = p.last === p.steps ? '' : ` to step ${p.last}`;
      if (p.reached) {
        return p.low >= REACHED ? `${name} reached 95% at step ${p.first} and stayed there${to}.`
          : `${name} reached 95% at step ${p.first}, then fell to ${percent(p.low)} (step ${p.lowStep}); ${percent(p.lastValue)} at step ${p.last}.`;
      }
      const span = p.low === p.high ? `${percent(p.low)} at every point` : `between ${percent(p.low)} and ${percent(p.high)}`;
      const where = { at: `, at chance (${percent(p.chance)})`, below: `, below chance (${percent(p.chance)}) at the last point` }[p.versus] ?? '';
      return `${name} ${p.last === p.steps ? `did not reach 95% in ${p.steps} steps` : `has not reached 95% by step ${p.last}`}: ${span}${where}.`;
    },
    details: ({ curves: v }, key) => v.kinds.find((k) => k.key === key).points.map((q) => `${q.step}: ${percent(q.median)}`).join(', '),
  },
  answer: {
    of({ runs }, task) {
      const v = runs[task];
      const of = (key) => (v.kinds.some((k) => k.key === key) ? learning(v, key) : null);
      return { run: v.run, layers: v.layers, back: v.back, decoder: of(DECODER), causal: of('causal'), none: of('none') };
    },
    text(p, v) {
      const parts = [];
      if (p.decoder) parts.push(`the course’s decoder (sinusoids and a causal mask) ${p.decoder.learnt ? 'learnt it' : 'did not learn it'} (${lowest(p.decoder)} at its weakest trained length)`);
      if (p.causal) parts.push(`without positions, the causal model ${p.causal.learnt ? 'learnt it' : 'did not'} (${lowest(p.causal)})${maskReason(v, p.causal)}`);
      if (p.none) parts.push(`the bidirectional one without positions scored ${lowest(p.none)}`);
      return `${capital(p.run)}: ${parts.join('; ')}.`;
    },
    details: ({ runs }, task) => runs[task].kinds.map((k) => `${k.label}: ${runs[task].trained.map((T) => `T = ${T} ${score(k.cells[T])}`).join(', ')}`).join('; '),
  },
  learnt: {
    of: ({ runs }, task) => ({ run: runs[task].run, learnt: learnt(runs[task]), not: runs[task].kinds.map((k) => k.key).filter((key) => !learnt(runs[task]).includes(key)) }),
    text(p, v) {
      const named = (keys) => list(keys.map((key) => `${label(v, key)} (${bracketed(lowest(learning(v, key)))})`));
      return `${capital(p.run)}: ${p.learnt.length ? list(p.learnt.map((key) => label(v, key))) : 'no model'} learnt it (at least ${percent(LEARNED)} ` +
        `at every trained length)${p.not.length ? `; ${named(p.not)} did not` : ''}.`;
    },
    details: ({ runs }, task) => runs[task].kinds.map((k) => `${k.label}: ${runs[task].trained.map((T) => `T = ${T} ${score(k.cells[T])}`).join(', ')}`).join('; '),
  },
  longer: {
    of({ runs }, task) {
      const v = runs[task];
      const far = (key) => Object.values(beyond(v, key));
      const kept = (key) => far(key).every((s) => s && !s.error && s.median >= LEARNED);
      return { run: v.run, kept: learnt(v).filter(kept), fell: learnt(v).filter((key) => !kept(key)).map((key) => ({ key, at: far(key) })) };
    },
    text(p, v) {
      const fell = p.fell.map(({ key, at }) => `${label(v, key)} ${at.map(score).join(' → ')}`);
      const far = list(v.lengths.filter((T) => T > v.longest).map((T) => times(v, T)));
      return `${capital(p.run)}, past the trained lengths (${far}), of those that learnt: ${p.kept.length ? `${list(p.kept.map((key) => label(v, key)))} kept at least ${percent(LEARNED)}` : `none kept ${percent(LEARNED)}`}` +
        `${fell.length ? `; ${p.kept.length ? 'the others fell' : 'they fell'}: ${list(fell)}` : ''}.`;
    },
    details: ({ runs }, task) => runs[task].kinds.map((k) => `${k.label}: ${runs[task].lengths.filter((T) => T > runs[task].longest).map((T) => `T = ${T} ${score(k.cells[T])}`).join(', ')}`).join('; '),
  },
  compare: {
    of({ runs }, task) {
      const v = runs[task];
      return { run: v.run, at: v.lengths.filter((T) => T > v.longest).map((T) => ({ T, ...gap([v, 'rotary'], [v, 'sinusoidal'], T) })) };
    },
    text(p, v) {
      const outcome = (g) => (g.higher === 'a' ? 'rotary above sinusoidal' : g.higher === 'b' ? 'rotary below sinusoidal' : 'no difference this run can tell');
      const said = p.at.map((g, i) => `${i && outcome(g) === outcome(p.at[i - 1]) ? '' : `${outcome(g)} `}at ${times(v, g.T)} (${percent(g.a)} against ${percent(g.b)})`);
      const why = v.seeds > 1 ? 'the widest seed range or 5 points' : '5 points, the margin with one seed';
      return `${capital(p.run)}, both learnt: ${list(said)}; a difference must exceed ${why}.`;
    },
    details: ({ runs }, task) => ['rotary', 'sinusoidal'].map((key) => `${key}: ${runs[task].lengths.map((T) => `T = ${T} ${score(runs[task].kinds.find((k) => k.key === key).cells[T])}`).join(', ')}`).join('; '),
  },
  scaling: {
    of({ runs: { scaling: { scaled, unscaled } } }) {
      const both = learnt(scaled.lengths).filter((key) => kindOf(key).positions !== 'none' && learnt(unscaled.lengths).includes(key));
      const far = scaled.lengths.lengths.filter((T) => T > scaled.lengths.longest);
      return {
        runs: [scaled.lengths.run, unscaled.lengths.run],
        kinds: both.map((key) => ({
          key, first: [reach(scaled.curves, key).first ?? null, reach(unscaled.curves, key).first ?? null],
          at: far.map((T) => ({ T, ...gap([scaled.lengths, key], [unscaled.lengths, key], T) })),
        })),
      };
    },
    text(p, v) {
      if (!p.kinds.length) return `${capital(p.runs[0])} against ${p.runs[1]}: no model with positions learnt in both, so nothing to compare.`;
      const first = p.kinds.map((k) => `${label(v, k.key)} ${k.first.map((s) => (s === null ? 'never' : `step ${s}`)).join(' against ')}`);
      const moved = p.kinds.flatMap((k) => k.at.filter((g) => g.higher).map((g) => `${label(v, k.key)} at ${times(v, g.T)} (${percent(g.a)} against ${percent(g.b)})`));
      return `${capital(p.runs[0])} against ${p.runs[1]}, the models with positions that learnt in both: first at 95%: ${list(first)}; ` +
        `past the trained lengths, ${moved.length ? `beyond the run’s spread: ${list(moved)}; the rest within it` : 'every difference within the run’s spread'}.`;
    },
    details: ({ runs: { scaling } }) => ['scaled', 'unscaled'].map((w) => `${scaling[w].lengths.run}: ${scaling[w].lengths.kinds.map((k) => `${k.label} ${scaling[w].lengths.lengths.map((T) => score(k.cells[T])).join(' / ')}`).join('; ')}`).join('. '),
  },
  probe: {
    of: ({ probe: v }) => ({
      run: v.run, T: v.T, words: v.words, kinds: v.kinds.map((k) => ({ key: k.key, ...probeStanding(v, k.key) })),
    }),
    text(p, v) {
      const said = p.kinds.map((k) => `${label(v, k.key)} ${percent(k.median)} (${k.chance} chance), off by ${fmt(k.distance, 3)}`);
      return `${capital(p.run)}: a linear readout fitted on other sentences names the position of each of ${count(p.words)} held-out words (T = ${p.T}) ` +
        `from its final vector; it is right for ${list(said)} (chance 1/${p.T} = ${percent(1 / p.T)}; a readout that knows nothing is off by ` +
        `${fmt(v.distance, 3)} positions on average).`;
    },
    details: ({ probe: v }) => v.kinds.map((k) => `${k.label}: ${percent(k.median)}${k.min === k.max ? '' : ` (${percent(k.min)}–${percent(k.max)})`}, mean distance ${fmt(k.distance, 3)}`).join('; '),
  },
  mask: {
    of({ probe: v }) {
      const [a, b] = [probeStanding(v, 'causal'), probeStanding(v, 'none')];
      const threshold = Math.max(MARGIN, ...(v.seeds > 1 ? [a.max - a.min, b.max - b.min] : []));
      return { run: v.run, causal: a, none: b, threshold, higher: Math.abs(a.median - b.median) <= threshold ? null : a.median > b.median ? 'causal' : 'none' };
    },
    text(p) {
      const outcome = {
        causal: `the causal model’s positions are read back more often, by more than the run’s spread (${fmt(100 * p.threshold, 3)} points): the two differ in the mask alone, so the mask is what tells its words where they are`,
        none: `the bidirectional model’s positions are read back more often, by more than the run’s spread (${fmt(100 * p.threshold, 3)} points)`,
      }[p.higher] ?? `no difference this run can tell (within ${fmt(100 * p.threshold, 3)} points)`;
      return `${capital(p.run)}, the two models without positions: causal ${percent(p.causal.median)} (${p.causal.chance} chance) and bidirectional ` +
        `${percent(p.none.median)} (${p.none.chance} chance) of positions read back: ${outcome}.`;
    },
    details: ({ probe: v }) => ['causal', 'none'].map((key) => `${label(v, key)}: ${percent(probeStanding(v, key).median)}, mean distance ${fmt(probeStanding(v, key).distance, 3)}`).join('; '),
  },
};

/** Whether a claim holds against what is drawn: its facts computed again from the drawn views are its params. */
export function holds(claim, drawn) {
  try {
    return same(TYPES[claim.type].of(drawn, claim.subject), claim.params);
  } catch {
    return false;
  }
}

/** The claim of `type` about `subject`, its facts computed from `views` (the record's, as its figures draw them). */
function claimOf(name, type, subject, views, view) {
  const params = TYPES[type].of(views, subject);
  return { name, type, subject, params, text: TYPES[type].text(params, view) };
}

/** The curves' claims of a record: one per kind (how it went against 95%). */
export function curveClaims(record) {
  const views = viewsOf(record);
  return views.curves.kinds.filter((k) => k.points.length).map((k) => claimOf(`curve-${k.key}`, 'curve', k.key, views, views.curves));
}

/**
 * The conclusion's claims, from the last measured run of each task and the pair that differs in the token vectors'
 * scale only (`runs`: { order, lookback, scaling }): for each task's run, the answer for the course's decoder and the
 * mask alone, which models learnt, how those did past the trained lengths, and rotary against sinusoidal where both
 * learnt; then what × √D changed. Each names its run.
 */
export function conclusionClaims(runs) {
  const views = { runs: runsView(runs) };
  const out = [];
  for (const task of ['order', 'lookback', 'induction']) {
    const v = views.runs[task];
    if (!v) continue;
    const has = (key) => v.kinds.some((k) => k.key === key);
    if ([DECODER, 'causal', 'none'].some(has)) out.push(claimOf(`answer-${task}`, 'answer', task, views, v));
    out.push(claimOf(`learnt-${task}`, 'learnt', task, views, v));
    if (learnt(v).length) out.push(claimOf(`longer-${task}`, 'longer', task, views, v));
    if (['rotary', 'sinusoidal'].every((key) => learnt(v).includes(key))) out.push(claimOf(`compare-${task}`, 'compare', task, views, v));
  }
  if (views.runs.scaling) out.push(claimOf('scaling', 'scaling', null, views, views.runs.scaling.scaled.lengths));
  return out;
}

/** A claim as a check: its text, with the verdict and the numbers of what is drawn (`drawn`: the views it is about). */
export function checkOf(claim, drawn) {
  let details;
  try {
    details = TYPES[claim.type].details(drawn, claim.subject);
  } catch (error) {
    details = `the drawn numbers could not be read: ${error?.message ?? error}`;
  }
  const pass = holds(claim, drawn);
  return { name: `lab-${claim.name}`, claim: claim.text, pass, details: pass ? details : `${details}. Not what is drawn now.`, holds: (d) => holds(claim, d) };
}

// ---- the checks of what the architecture guarantees at any settings ----

/**
 * What the position-free bidirectional model's mirrored pairs show, from their counts over every length (and seed)
 * measured: without ties, exactly one sentence of each pair is right (50%, chance); with ties, how many pairs had one
 * right and how many tied within float32 rounding (both right or both wrong, so the accuracy moves off 50%).
 */
export function halfClaim({ pairs, oneRight, tied, tiedRight }) {
  if (!tied) return 'so exactly one of each pair is right: 50%, chance';
  const wrong = tied - tiedRight;
  const both = [tiedRight && `${tiedRight} with both right`, wrong && `${wrong} with both wrong`].filter(Boolean).join(', ');
  const accuracy = (oneRight + 2 * tiedRight) / (2 * pairs);
  return `So one answer serves both sentences of a pair: exactly one is right in ${oneRight} of ${pairs} pairs; ` +
    `in ${tied} more the logits tie within float32 rounding, which tipped the two answers apart (${both}), ` +
    (accuracy === 0.5 ? `which leaves the accuracy over the ${pairs} pairs at 50%` : `so the accuracy over the ${pairs} pairs is ${percent(accuracy)} rather than 50%`);
}

/**
 * The checks of what the models' architecture guarantees, from a measured record, at any settings: the position-free
 * bidirectional model gives a sentence and its mirror the same logits (so one of each pair is right), or two positions
 * holding the same word the same logits; a learned table refuses lengths past its rows in the API's words.
 */
export function propertyChecks(record) {
  const { config } = record;
  const lengths = measuredLengths(config);
  const rowsOf = (key) => record.measured.filter((r) => r.key === key);
  const seeds = config.seeds.length > 1 ? `, seeds ${config.seeds.join(', ')}` : '';
  const checks = [];
  const none = rowsOf('none');
  const largest = (field) => Math.max(...none.flatMap((r) => lengths.map((T) => r.lengths[T][field] ?? NaN)));
  if (none.length && config.task === 'order') {
    checks.push({
      name: 'lab-none-mirror',
      claim: 'Without positions, a sentence and its mirror get the same logits',
      pass: largest('mirrorDifference') <= SAME_LOGITS,
      details: `largest |logit(sentence) − logit(mirror)| over ${none[0].lengths[lengths[0]].pairs} pairs at each of T = ${lengths.join(', ')}${seeds}: ` +
        `${fmt(largest('mirrorDifference'), 2)} (the same up to float32 rounding: ≤ ${fmt(SAME_LOGITS)})`,
    });
    const sum = (field) => none.reduce((n, r) => n + lengths.reduce((m, T) => m + r.lengths[T][field], 0), 0);
    const [pairs, oneRight, tied, tiedRight] = ['pairs', 'pairsOneRight', 'pairsTied', 'pairsTiedRight'].map(sum);
    checks.push({
      name: 'lab-none-half',
      claim: halfClaim({ pairs, oneRight, tied, tiedRight }),
      pass: none.every((r) => lengths.every((T) => r.lengths[T].pairsOneRight + r.lengths[T].pairsTied === r.lengths[T].pairs)),
      details: none.map((r) => `${seeds ? `seed ${r.seed}: ` : ''}${lengths.map((T) => `T = ${T}: ${percent(r.lengths[T].accuracy)} (${r.lengths[T].pairsOneRight}/${r.lengths[T].pairs} pairs one right` +
        `${r.lengths[T].pairsTied ? `, ${r.lengths[T].pairsTied} tied` : ''})`).join(', ')}`).join('; '),
    });
  }
  if (none.length && config.task === 'lookback') {
    checks.push({
      name: 'lab-none-same-word',
      claim: 'Without positions, the bidirectional model gives two positions holding the same word the same logits: it cannot answer both when the words k back differ',
      pass: largest('sameWordDifference') <= SAME_LOGITS,
      details: `largest |logit difference| between two positions of one sentence holding the same word, ${MEASURED_COUNT} sentences at each of T = ${lengths.join(', ')}${seeds}: ` +
        `${fmt(largest('sameWordDifference'), 2)} (≤ ${fmt(SAME_LOGITS)})`,
    });
  }
  for (const key of config.kinds.filter((k) => kindOf(k).positions === 'learned')) {
    const rows = rowsOf(key);
    const longer = lengths.filter((T) => T > config.longest);
    const refused = longer.filter((T) => rows.every((r) => r.lengths[T].error?.name === 'RangeError'));
    checks.push({
      name: `lab-${key}-refuses`,
      claim: `${kindLabel(key, config)}: the table has ${config.longest} rows, so a sentence of T = ${list(longer.map(String)).replace(' and ', ' or ')} is refused, not guessed at`,
      pass: refused.length === longer.length && lengths.filter((T) => trainedLength(config, T)).every((T) => rows.every((r) => !r.lengths[T].error)),
      details: refused.map((T) => `T = ${T}: ${rows[0].lengths[T].error.name}: ${rows[0].lengths[T].error.message}`).join('; ') || `answered at T = ${longer.join(', ')}`,
    });
  }
  return checks;
}

/** The names of the property checks a run of `config` shows, pending (why: the details) until it is measured. */
export function pendingChecks(config, why) {
  const names = [];
  if (config.kinds.includes('none')) names.push(...({ order: ['lab-none-mirror', 'lab-none-half'], lookback: ['lab-none-same-word'] }[config.task] ?? []));
  names.push(...config.kinds.filter((k) => kindOf(k).positions === 'learned').map((k) => `lab-${k}-refuses`));
  const claims = {
    'lab-none-mirror': 'Without positions, a sentence and its mirror get the same logits',
    'lab-none-half': 'so exactly one of each pair is right: 50%, chance',
    'lab-none-same-word': 'Without positions, the bidirectional model gives two positions holding the same word the same logits',
  };
  const claim = (name) => claims[name] ?? `The ${kindLabel(name.slice(4, -8), config)} model refuses sentences longer than its table`;
  return names.map((name) => ({ name, pending: true, claim: claim(name), details: why }));
}

/**
 * The probe's claims of a probed record (record.probe): every model's positions read back, and, when the run has both
 * models without positions, the mask's part (the causal one against the bidirectional one).
 */
export function probeClaims(record) {
  const views = viewsOf(record);
  if (!views.probe) return [];
  const out = [claimOf('probe', 'probe', null, views, views.probe)];
  if (['causal', 'none'].every((key) => record.config.kinds.includes(key))) out.push(claimOf('mask', 'mask', null, views, views.probe));
  return out;
}

/** The probe's check of what makes it least squares: on its fitting words, its residual is orthogonal to every coordinate. */
export function probeChecks(record) {
  if (!record.probe?.length) return [];
  const largest = Math.max(...record.probe.map((r) => r.orthogonality));
  const kept = [...new Set(record.probe.map((r) => r.kept))].sort((a, b) => a - b);
  return [{
    name: 'lab-probe-least-squares',
    claim: 'Each readout is the least-squares one: on the words it was fitted on, what it gets wrong is orthogonal to every coordinate of the final vectors',
    pass: largest <= ORTHOGONAL,
    details: `largest |cosine| between a readout’s residual and a coordinate, over ${record.probe.length} models: ${fmt(largest, 2)} (≤ ${fmt(ORTHOGONAL)}); ` +
      `coordinates used: ${kept.join(', ')} of ${record.config.width}`,
  }];
}
