// Section "experiment": the lesson's small experiment, its assertions as checks. Pure: no DOM.
import { fmt } from '../format.mjs';
import { maxAbsDiff } from './reference.mjs';
import { TOL, vec, shapeText, sameShape } from './common.mjs';

/**
 * The lesson's experiment in seqorder's JavaScript API. The page shows this function's own source (so the code shown
 * is the code that ran) and checks what it returns.
 */
export function lessonCode(so) {
  const pe = so.positions(4, 8); // { data, shape: [4, 8], dtype: 'float64' }
  const row = (t) => pe.data.subarray(8 * t, 8 * t + 8);
  const sumOfSquares = (v) => v.reduce((sum, x) => sum + x * x, 0);
  const sines = row(0).filter((_, c) => c % 2 === 0); // position 0: all 0
  const cosines = row(0).filter((_, c) => c % 2 === 1); // position 0: all 1
  const norms = [0, 1, 2, 3].map((t) => sumOfSquares(row(t))); // each 4 = D/2
  const robot = [0, 1, 2, 3, 4, 5, 6, 7].map((i) => i / 8);
  const atZero = robot.map((v, c) => v + row(0)[c]);
  const atThree = robot.map((v, c) => v + row(3)[c]); // not close to atZero
  return { pe, sines, cosines, norms, robot, atZero, atThree }; // pe.shape: [4, 8]
}

/**
 * The module the page shows: lessonCode's own source (the code that ran) between the lines that load seqorder and
 * call it, a program that runs as shown (tests/node/positions-experiments.test.mjs runs it).
 */
export function lessonCodeLines() {
  return [
    "import { loadSeqorder } from 'seqorder';",
    'const so = await loadSeqorder();',
    '',
    ...lessonCode.toString().split('\n'),
    '',
    'const { pe, sines, cosines, norms, atZero, atThree } = lessonCode(so);',
    'console.log(pe.shape, norms);',
  ];
}

/** How many features of b are not close to a's by numpy.allclose's rule, |a − b| ≤ atol + rtol·|b|. */
export function featuresNotClose(a, b) {
  const { rtol, atol } = TOL.allclose;
  return a.filter((x, c) => !(Math.abs(x - b[c]) <= atol + rtol * Math.abs(b[c]))).length;
}

/** The lesson's experiment (lessonCode) and its assertions as checks, numpy's tolerances. */
export function lessonExperiment(so) {
  const { pe, sines: sines0, cosines: cosines0, norms, atZero, atThree } = lessonCode(so);
  const { rtol, atol } = TOL.assertAllclose;
  const sineError = Math.max(...sines0.map(Math.abs));
  const cosineError = Math.max(...cosines0.map((v) => Math.abs(v - 1)));
  const normError = Math.max(...norms.map((n) => Math.abs(n - 4)));
  const close = TOL.allclose;
  const outside = featuresNotClose(atZero, atThree);
  return {
    pe, norms, atZero, atThree,
    checks: [
      {
        name: 'experiment-position0-sines',
        claim: 'Position 0: every sine column is 0',
        pass: sines0.every((v) => Math.abs(v) <= atol + rtol * 0),
        details: `pe[0, 0::2] = ${vec(sines0)}; max |value − 0| = ${fmt(sineError)} ≤ atol ${atol} + rtol ${rtol}·0`,
      },
      {
        name: 'experiment-position0-cosines',
        claim: 'Position 0: every cosine column is 1',
        pass: cosines0.every((v) => Math.abs(v - 1) <= atol + rtol * 1),
        details: `pe[0, 1::2] = ${vec(cosines0)}; max |value − 1| = ${fmt(cosineError)} ≤ rtol ${rtol}·1`,
      },
      {
        name: 'experiment-norms',
        claim: 'Every row’s squared norm is D/2 = 4',
        pass: norms.every((n) => Math.abs(n - 4) <= atol + rtol * 4),
        details: `(pe²).sum(−1) = ${vec(norms, 17)}; max |norm² − 4| = ${fmt(normError)} ≤ rtol ${rtol}·4`,
      },
      {
        name: 'experiment-robot-differs',
        claim: 'robot + pe[0] and robot + pe[3] are not allclose',
        pass: outside > 0,
        details: `${outside} of 8 features differ by more than ${close.atol} + ${close.rtol}·|b|; max |difference| = ` +
          `${fmt(maxAbsDiff(atZero, atThree))}`,
      },
      {
        name: 'experiment-shape',
        claim: 'pe has shape (4, 8)',
        pass: sameShape(pe.shape, [4, 8]) && pe.data.length === 32,
        details: `shape ${shapeText(pe.shape)}, ${pe.data.length} values, dtype ${pe.dtype}`,
      },
    ],
  };
}

/**
 * The sentence under the tables (lessonExperiment's result r); its predicate reads the tables drawn (drawn.pe: a row
 * per feature, then the squared norms, a column per position; drawn.robot: a row per feature, robot, + pe[0], + pe[3]).
 */
export function experimentSentences(r) {
  const worst = Math.max(...r.norms.map((n) => Math.abs(n - 4)));
  const moved = featuresNotClose(r.atZero, r.atThree);
  return [{
    name: 'experiment-tables',
    text: `Position 0 is 0, 1, 0, 1, …, every squared norm is 4 = D/2 (within ${fmt(worst, 2)}), and robot’s two ` +
      `inputs are not allclose in ${moved} of 8 features: the position changed the input.`,
    holds: (drawn) => {
      const features = drawn.pe.rows.slice(0, 8);
      const t0 = features.map((row) => row[1]);
      const norms = drawn.pe.rows[8].slice(1);
      const differ = featuresNotClose(drawn.robot.rows.map((row) => row[2]), drawn.robot.rows.map((row) => row[3]));
      return t0.every((v, c) => v === c % 2) && norms.length === 4 &&
        fmt(Math.max(...norms.map((n) => Math.abs(n - 4))), 2) === fmt(worst, 2) && worst <= 1e-12 && differ === moved && moved > 0;
    },
  }];
}
