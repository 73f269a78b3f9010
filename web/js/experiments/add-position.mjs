// Section "add-position": input = token vector + position vector. robot at position 0 and at t, the norms of the two
// parts of the sum, and two (token, position) pairs that give one input: the sum cannot always be taken apart.
// Each experiment returns what the section draws, its checks and its sentences. Pure: no DOM.
import { fmt, subscript } from '../format.mjs';
import { maxAbsDiff, positionsFormula } from './reference.mjs';
import { ROBOT, TOL, norm, rowOf, vec, shapeText, sameShape, tensor } from './common.mjs';

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
  const text = `The two parts at their scales: robot has norm ${fmt(tokenNorm, 3)}, p${subscript(t)} ${fmt(positionNorm, 3)} ` +
    `(√(D/2), as every position vector), ${fmt(ratio, 2)} times the token.`;
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
