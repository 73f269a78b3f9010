// Run by relaxed.test.mjs in a child `node --experimental-wasm-relaxed-simd` (node 20 runs relaxed SIMD only with that
// flag): checks the opt-in relaxed-SIMD module through the JS API and prints one JSON line of findings.
//   - loadSeqorder({ simd: 'relaxed' }) loads the relaxed module (build === 'relaxed');
//   - its float32 attention over a sweep of shapes is within float32 tolerance of the float64 reference (the default
//     module's float64 path: the truth for these float32 inputs), and of the default module's float32 fast path;
//   - a hand-made module with the pre-standard fma, rewritten by scripts/relaxed-rewrite.mjs, computes a + b * c.
// Any failed check throws (non-zero exit), with the case in the message.
import assert from 'node:assert/strict';
import { loadSeqorder } from './load.mjs';
import { rewriteRelaxed } from '../../../scripts/relaxed-rewrite.mjs';
import { oldFmaModule } from './relaxed-modules.mjs';
import { float32 } from './random.mjs';
import { as64, maxAbs, maxDiff, scoreMagnitude } from './attention-error.mjs';

const plain = await loadSeqorder();
const relaxed = await loadSeqorder({ simd: 'relaxed' });
assert.equal(plain.build, 'simd128');
assert.equal(relaxed.build, 'relaxed', 'this engine validates relaxed SIMD, so simd: \'relaxed\' must load the relaxed module');

// The tolerance of tests/node/attention-fast.test.mjs against float64, 2e-6 · max|v| · max(1, M), for both the fast
// path and the relaxed one: a fused multiply-add rounds once where the plain path rounds twice, so it is no further
// from the truth. Between the two float32 paths, twice that.
let worst = { error: 0, simd128Error: 0, differenceToPlain: 0 }, cases = 0, identical = 0;
function check({ B, Tq, Tk, D, Dv, causal = false, queryStart, scale = 1 }, seed) {
  const q = float32([B, Tq, D], seed, scale), k = float32([B, Tk, D], seed + 1, scale), v = float32([B, Tk, Dv], seed + 2);
  const options = queryStart === undefined ? { causal } : { causal, queryStart };
  const label = JSON.stringify({ B, Tq, Tk, D, Dv, causal, queryStart, scale });
  const got = relaxed.attention(q, k, v, options);
  const fast = plain.attention(q, k, v, options);
  const truth = plain.attention(as64(q), as64(k), as64(v), options);
  assert.deepEqual(got.shape, [B, Tq, Dv], label);
  assert.ok(got.data instanceof Float32Array, label);
  const vmax = Math.max(maxAbs(v.data), 1e-30);
  const bound = 2e-6 * vmax * Math.max(1, scoreMagnitude(q, k, B, Tq, Tk, D));
  const error = maxDiff(got.data, truth.data), differenceToPlain = maxDiff(got.data, fast.data);
  assert.ok(error <= bound, `${label}: |relaxed - float64| = ${error} > ${bound}`);
  assert.ok(differenceToPlain <= 2 * bound, `${label}: |relaxed - simd128| = ${differenceToPlain} > ${2 * bound}`);
  worst = {
    error: Math.max(worst.error, error / vmax),
    simd128Error: Math.max(worst.simd128Error, maxDiff(fast.data, truth.data) / vmax),  // for comparison
    differenceToPlain: Math.max(worst.differenceToPlain, differenceToPlain / vmax),
  };
  cases += 1;
  if (differenceToPlain === 0) identical += 1;
}

let seed = 10;
for (const D of [1, 3, 5, 17, 64, 65])
  for (const Dv of [1, 3, 9, 64, 65]) {
    check({ B: 2, Tq: 5, Tk: 19, D, Dv }, (seed += 3));
    check({ B: 1, Tq: 9, Tk: 9, D, Dv, causal: true }, (seed += 3));
  }
for (const Tq of [1, 3, 4, 5, 9, 33])
  for (const Tk of [1, 7, 8, 9, 17, 40]) {
    check({ B: 2, Tq, Tk, D: 17, Dv: 9 }, (seed += 3));
    if (Tk >= Tq) check({ B: 1, Tq, Tk, D: 17, Dv: 9, causal: true, queryStart: Tk - Tq }, (seed += 3));
  }
for (const [Tq, Tk] of [[1, 13], [4, 12], [6, 23], [13, 40]])
  for (let start = 0; start <= Tk - Tq; start += Math.max(1, Math.floor((Tk - Tq) / 4)))
    check({ B: 2, Tq, Tk, D: 5, Dv: 11, causal: true, queryStart: start }, (seed += 3));
for (const scale of [3, 8, 30]) {  // peaky softmaxes
  check({ B: 2, Tq: 33, Tk: 33, D: 64, Dv: 64, scale }, (seed += 3));
  check({ B: 1, Tq: 33, Tk: 33, D: 64, Dv: 64, causal: true, scale }, (seed += 3));
}
check({ B: 1, Tq: 300, Tk: 300, D: 64, Dv: 64 }, 7001);
check({ B: 1, Tq: 100, Tk: 300, D: 64, Dv: 40, causal: true, queryStart: 150 }, 7003);

// The other operations do not use the multiply-add: the two modules agree exactly.
const table = float32([11, 6], 99);
for (const [name, run] of [
  ['positions', (so) => so.positions(37, 10, { dtype: 'float32', start: 5 })],
  ['embed', (so) => so.embed(table, { data: Int32Array.of(3, 0, 10, 3), shape: [4], dtype: 'int32' })],
  ['attention float64', (so) => so.attention(as64(float32([5, 8], 1)), as64(float32([7, 8], 2)), as64(float32([7, 3], 3)))],
]) assert.deepEqual(run(relaxed).data, run(plain).data, name);

// The rewriter's operand order, executed: the old fma(a, b, c) meant a + b * c.
const { bytes, rewritten } = rewriteRelaxed(oldFmaModule());
assert.equal(rewritten, 1);
const { instance: { exports } } = await WebAssembly.instantiate(bytes);
const memory = new Float32Array(exports.memory.buffer);
memory.set([1, 2, 3, -4, 10, 20, 30, 0.5, 100, 1000, 1e4, 1e5], 0);  // a, b, c at 0, 16, 32; the result at 48
exports.fma(0, 16, 32, 48);
// exact in float32 whether fused or not; a * b + c would give 110, 1040, 10090, 99998
assert.deepEqual(Array.from(memory.subarray(12, 16)), [1001, 20002, 300003, 49996]);

console.log(JSON.stringify({ build: relaxed.build, cases, identicalToSimd128: identical, worst }));
