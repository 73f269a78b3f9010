// Section "add-position": input = token vector + position vector. robot at position 0 and at t, the norms of the two
// parts of the sum (the lesson's vector, and the lab's model as created, with and without × √D), and two (token,
// position) pairs that give one input: the sum cannot always be taken apart.
// Each experiment returns what the section draws, its checks and its sentences. Pure: no DOM.
import { fmt, subscript } from '../format.mjs';
import { maxAbsDiff, positionsFormula } from './reference.mjs';
import { ROBOT, TOL, norm, rowOf, vec, shapeText, sameShape, tensor } from './common.mjs';
import { median } from '../median.mjs';
import { SENTENCE, modelOptions, runConfig } from '../lab/config.mjs';

/**
 * robot's token vector placed at position 0 and at position t (default 3): x + p_0 and x + p_t.
 * @returns {{ robot: number[], p0, pt, at0, atT, checks }}  each a Float64Array (8)
 */
export function robotAtPositions(so, t = 3) {
  const token = tensor(ROBOT, [1, ROBOT.length]);
  const before = Float64Array.from(token.data);
  const at0 = so.addPositions(token, { start: 0 });
  const atT = so.addPositions(token, { start: t });
  const reference = positionsFormula(1, 8, { start: 0 }).data;
  const referenceT = positionsFormula(1, 8, { start: t }).data;
  const expected0 = ROBOT.map((v, i) => v + reference[i]);
  const expectedT = ROBOT.map((v, i) => v + referenceT[i]);
  const sumError = Math.max(maxAbsDiff(at0.data, expected0), maxAbsDiff(atT.data, expectedT));
  const moved = maxAbsDiff(at0.data, atT.data);
  const unchanged = maxAbsDiff(token.data, before);
  return {
    robot: [...ROBOT], p0: reference, pt: referenceT, at0: at0.data, atT: atT.data, t,
    checks: [
      {
        name: 'add-position-sum',
        claim: `input = token vector + position vector, element by element (t = 0${t === 0 ? '' : ` and t = ${t}`})`,
        pass: sumError <= TOL.formula(t),
        details: `max |addPositions − (robot + p_t from the formula)| = ${fmt(sumError)} ≤ ${fmt(TOL.formula(t))}`,
      },
      {
        name: 'add-position-width',
        claim: 'Addition keeps the width: 8 features in, 8 out',
        pass: sameShape(at0.shape, [1, 8]) && sameShape(atT.shape, [1, 8]),
        details: `robot ${shapeText(token.shape)} → robot + p_0 ${shapeText(at0.shape)}${t === 0 ? '' : `, robot + p_${t} ${shapeText(atT.shape)}`}`,
      },
      {
        name: 'add-position-token-unchanged',
        claim: 'The token vector itself is untouched',
        pass: unchanged === 0,
        details: `max |robot after − robot before| = ${fmt(unchanged)}; robot = ${vec(ROBOT)}`,
      },
      t === 0 ? {
        name: 'add-position-differs',
        claim: 'At t = 0 both inputs are robot + p_0: same token, same position, same input',
        pass: moved === 0,
        details: `max |(robot + p_0) − (robot + p_0)| = ${fmt(moved)} (bit for bit); move t to place robot elsewhere`,
      } : {
        name: 'add-position-differs',
        claim: `Same token, different position, different input: robot at 0 vs robot at ${t}`,
        pass: moved > TOL.different,
        details: `max |(robot + p_0) − (robot + p_${t})| = ${fmt(moved)} > ${fmt(TOL.different)}`,
      },
    ],
  };
}

/**
 * The sentence under robot's two inputs (robotAtPositions' result r); its predicate reads the plot drawn
 * (drawn.inputs: its series, the token vector first, then the input at 0 and, for t > 0, the input at t).
 */
export function robotSentences(r) {
  const moved = maxAbsDiff(r.at0, r.atT);
  if (r.t === 0) {
    return [{
      name: 'add-position-one-curve',
      text: 'At t = 0 both inputs are robot + p₀: one curve; move t to place robot elsewhere.',
      holds: (drawn) => drawn.inputs.series.length === 2 && moved === 0,
    }];
  }
  return [{
    name: 'add-position-moved',
    text: `Same token, same lookup row; the position changed from 0 to ${r.t}, and the input by up to ${fmt(moved, 3)}.`,
    holds: (drawn) => {
      const [, at0, atT] = drawn.inputs.series;
      return drawn.inputs.series.length === 3 && fmt(maxAbsDiff(at0.y, atT.y), 3) === fmt(moved, 3) && moved > TOL.different;
    },
  }];
}

/**
 * The two parts of the sum at their scales: the token vector's norm and the position vector's, p_t read back from
 * the API (addPositions(robot) − robot) and compared with the formula's √(D/2). Returns both norms, a check and the
 * sentence; the predicate reads the table drawn (drawn.parts: a row per feature, columns robot and p_t).
 */
export function sumParts(so, t = 3) {
  const width = ROBOT.length;
  const token = tensor(ROBOT, [1, width]);
  const sum = so.addPositions(token, { start: t });
  const position = sum.data.map((v, i) => v - ROBOT[i]);
  const tokenNorm = norm(ROBOT);
  const positionNorm = norm(position);
  const expected = Math.sqrt(width / 2);
  const ratio = positionNorm / tokenNorm;
  const text = `‖robot‖ = ${fmt(tokenNorm, 3)} and ‖p${subscript(t)}‖ = ${fmt(positionNorm, 3)} = √(D/2), as for every ` +
    `position: ${fmt(ratio, 2)} times the token’s.`;
  return {
    tokenNorm, positionNorm, ratio,
    checks: [{
      name: 'add-position-norms',
      claim: `‖robot‖ = ${fmt(tokenNorm, 3)}, ‖p_${t}‖ = ${fmt(positionNorm, 3)} = √(D/2)`,
      // the subtraction rounds each value once more: a few ulps of values ≤ 2
      pass: Math.abs(positionNorm - expected) <= 1e-12 && Math.abs(tokenNorm - Math.sqrt(140) / 8) <= 1e-15,
      details: `‖(robot + p_${t}) − robot‖ from addPositions = ${fmt(positionNorm, 15)}, √(D/2) = ${fmt(expected, 15)}; ` +
        `‖robot‖ = ${fmt(tokenNorm, 15)}, √(0² + 1² + … + 7²)/8 = √140/8 = ${fmt(Math.sqrt(140) / 8, 15)}; ratio ${fmt(ratio, 4)}`,
    }],
    sentences: [{
      name: 'add-position-norms',
      text,
      holds: (drawn) => {
        const { headers, rows } = drawn.parts;
        const column = (name) => rows.filter((row) => /^\d+$/.test(row[0])).map((row) => row[headers.indexOf(name)]);
        const a = norm(column('robot'));
        const b = norm(column(`p${subscript(t)}`));
        return fmt(a, 3) === fmt(tokenNorm, 3) && fmt(b, 3) === fmt(positionNorm, 3) && fmt(b / a, 2) === fmt(ratio, 2);
      },
    }],
  };
}

/**
 * The sum cannot always be taken apart: for a token vector `token` at position s, the vector
 * b = token + p_s − p_(s+k) (any vector may be a row of a learned table) at position s + k gives the same input.
 * p comes from the formula in JS; both sums from so.addPositions.
 * @returns {{ a, b, ps, pt, inputA, inputB, checks }}  a, b, ps, pt, inputA, inputB: Float64Array (D)
 */
export function sumAmbiguity(so, { token = ROBOT, word = 'robot', s = 2, k = 3 } = {}) {
  const width = token.length;
  const t = s + k;
  const ps = positionsFormula(1, width, { start: s }).data;
  const pt = positionsFormula(1, width, { start: t }).data;
  const b = Float64Array.from(token, (v, i) => v + ps[i] - pt[i]);
  const inputA = so.addPositions(tensor(token, [1, width]), { start: s });
  const inputB = so.addPositions(tensor(b, [1, width]), { start: t });
  const same = maxAbsDiff(inputA.data, inputB.data);
  const tokenGap = maxAbsDiff(token, b);
  const tol = TOL.formula(s) + TOL.formula(t);
  return {
    a: Float64Array.from(token), b, ps, pt, inputA: inputA.data, inputB: inputB.data, s, t,
    checks: [{
      name: 'add-position-sum-ambiguous',
      claim: `${word} at position ${s} and another vector b at position ${t} give one and the same input`,
      pass: same <= tol && tokenGap > TOL.different,
      details: `b = ${word} + p_${s} − p_${t} = ${vec(b)}; max |(${word} + p_${s}) − (b + p_${t})| = ${fmt(same)} ≤ ${fmt(tol)}, ` +
        `while max |${word} − b| = ${fmt(tokenGap)} > ${fmt(TOL.different)}`,
    }],
  };
}

/**
 * The sentence under the one-sum map (sumAmbiguity's result r); its predicate reads the map drawn (drawn.pairs: rows
 * robot, p_s, robot + p_s, b, p_t, b + p_t).
 */
export function sumSentences(r) {
  const tol = TOL.formula(r.s) + TOL.formula(r.t);
  return [{
    name: 'add-position-one-sum',
    text: `robot at ${r.s} and b at ${r.t} give the same input (rows 3 and 6), though b is not robot (rows 1 and 4 ` +
      `differ by up to ${fmt(maxAbsDiff(r.a, r.b), 3)}): the sum cannot say which token stood where.`,
    holds: (drawn) => maxAbsDiff(rowOf(drawn.pairs, 2), rowOf(drawn.pairs, 5)) <= tol &&
      fmt(maxAbsDiff(rowOf(drawn.pairs, 0), rowOf(drawn.pairs, 3)), 3) === fmt(maxAbsDiff(r.a, r.b), 3),
  }];
}

/**
 * How far apart logits of the same sentence may be for two models said to compute the same thing in float32: the
 * scaled lookup (the model multiplies each looked-up entry by √D in float32) against a table holding √D·entry rounded
 * once from float64; the two differ by an ulp in some entries (6e-8 relative), which moves a logit by far less.
 */
const SAME_LOGITS32 = 1e-5;


/**
 * The two parts of the sum at the lab's scale: the sinusoidal model of the lab (its settings' defaults: width D = 32,
 * seed 1) as createModel makes it, with its token vectors as they are and × √D (the lab's setting embedScale
 * 'sqrtWidth'), and the position vectors added to them. The token vectors are the rows of parameters().embed (× √D
 * for the scaled lookup); every position vector p_t (t = 0 … 63, from so.positions) has the same norm. Checks: that
 * norm is √(D/2); every token vector, scaled or not, is shorter; and embedScale multiplies the lookup, not the table
 * (the scaled model's logits are those of the unscaled one whose table holds √D times the entries).
 * @returns {{ width, seed, words, norms, scaledNorms, positionNorm, scale, checks }}
 */
export function modelScales(so) {
  const config = runConfig();
  const { width } = config;
  const seed = config.seed;
  const words = [...so.taskWords];
  const options = modelOptions(config, 'sinusoidal', seed, words.length);
  const unscaledOptions = { ...options };
  delete unscaledOptions.embedScale;
  const scaled = so.createModel(options);
  const plain = so.createModel(unscaledOptions);
  try {
    const scale = Math.sqrt(width);
    const table = plain.parameters().embed;
    const sameTable = maxAbsDiff(table.data, scaled.parameters().embed.data);
    const norms = words.map((_, r) => norm(table.data.subarray(r * width, (r + 1) * width)));
    const scaledNorms = norms.map((n) => scale * n);
    const T = 64;
    const pe = so.positions(T, width);
    const positionNorms = Array.from({ length: T }, (_, t) => norm(rowOf(pe, t)));
    const positionNorm = positionNorms[0];
    const expected = Math.sqrt(width / 2);
    const normError = Math.max(...positionNorms.map((n) => Math.abs((n * n) / (width / 2) - 1)));
    // the scaled model against the unscaled one holding √D times the table, on the composer's sentence
    const ids = { data: Int32Array.from(SENTENCE, (w) => words.indexOf(w)), shape: [1, SENTENCE.length] };
    const params = plain.parameters();
    plain.setParameters({ ...params, embed: { ...table, data: Float32Array.from(table.data, (x) => scale * x) } });
    const logitGap = maxAbsDiff(plain.forward(ids).data, scaled.forward(ids).data);
    const longest = Math.max(...scaledNorms);
    return {
      width, seed, words, norms, scaledNorms, positionNorm, scale,
      checks: [
        {
          name: 'add-position-model-positions',
          claim: `‖p_t‖ = √(D/2) = ${fmt(expected, 3)} at every t (D = ${width})`,
          pass: normError <= TOL.normRelative64,
          details: `max |‖p_t‖² / (D/2) − 1| over t = 0 … ${T - 1} from so.positions(${T}, ${width}) = ${fmt(normError)} ≤ ${fmt(TOL.normRelative64)}`,
        },
        {
          name: 'add-position-model-tokens-shorter',
          claim: 'Every token vector, also × √D, is shorter than p_t',
          pass: longest < positionNorm && sameTable === 0,
          details: `the longest token vector: ${fmt(Math.max(...norms), 4)}, × √D ${fmt(longest, 4)}, against ‖p_t‖ = ${fmt(positionNorm, 4)}; ` +
            `both models start from the same table (max difference ${fmt(sameTable)})`,
        },
        {
          name: 'add-position-model-scale-lookup',
          claim: 'embedScale \'sqrtWidth\' scales the looked-up token by √D',
          pass: logitGap <= SAME_LOGITS32,
          details: `the scaled model’s logits on “${SENTENCE.join(' ')}” against those of the unscaled model whose table holds ` +
            `√${width} = ${fmt(scale, 6)} times its entries: max difference ${fmt(logitGap)} ≤ ${fmt(SAME_LOGITS32)} (float32 rounding)`,
        },
      ],
    };
  } finally {
    scaled.dispose();
    plain.dispose();
  }
}

/**
 * The sentence under the scales (modelScales' result r); its predicate reads the table drawn (drawn.scales: a row per
 * word, columns 'as created', '× √D', and 'p_t').
 */
export function scaleSentences(r) {
  const summary = (norms, positionNorm) => ({
    lo: fmt(Math.min(...norms), 2), hi: fmt(Math.max(...norms), 2), median: fmt(median(norms), 2), ratio: fmt(positionNorm / median(norms), 2),
  });
  const plain = summary(r.norms, r.positionNorm);
  const scaled = summary(r.scaledNorms, r.positionNorm);
  const text = `Norms in the lab’s model as created (D = ${r.width}, seed ${r.seed}): token vectors ${plain.lo}–${plain.hi} ` +
    `(median ${plain.median}), position vectors ${fmt(r.positionNorm, 3)}, ${plain.ratio}× the median; × √D: ` +
    `${scaled.lo}–${scaled.hi}, ${scaled.ratio}×.`;
  return [{
    name: 'add-position-model-scales',
    text,
    holds: (drawn) => {
      const { headers, rows } = drawn.scales;
      const column = (name) => rows.map((row) => row[headers.indexOf(name)]);
      const p = column('p_t');
      if (rows.length !== r.words.length || p.some((x) => x !== p[0])) return false;
      const a = summary(column('as created'), p[0]);
      const b = summary(column('× √D'), p[0]);
      return JSON.stringify([a, b]) === JSON.stringify([plain, scaled]) && fmt(p[0], 3) === fmt(r.positionNorm, 3);
    },
  }];
}
