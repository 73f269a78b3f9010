// A fixed set of API calls whose outputs must be bit-identical wherever the module runs: node here
// (determinism.test.mjs) and Chromium (tests/browser/determinism.test.mjs, which loads this very file into the page).
// Self-contained on purpose: no imports, only the API object and the Web Crypto digest that node 20 and browsers share.
// Inputs come from an integer generator, so they are the same bits on every engine; no call produces a NaN (whose
// payload an engine could canonicalize).

/** A seeded LCG in 32-bit integers; values k / 2^31 - 1 in [-1, 1), exact in float64 and rounded once in float32. */
function tensor(shape, dtype, seed) {
  const count = shape.reduce((a, b) => a * b, 1);
  const data = new (dtype === 'float32' ? Float32Array : Float64Array)(count);
  let state = seed >>> 0;
  for (let n = 0; n < count; n++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    data[n] = state / 2 ** 31 - 1;
  }
  return { data, shape, dtype };
}

/** The calls: [name, so => result (a tensor or the four steps)]. Sizes cover the fast paths' blocks and tails. */
export const CALLS = [
  ['positions 300x64', (so) => so.positions(300, 64)],
  ['positions 64x512 start 1e6 float32', (so) => so.positions(64, 512, { start: 1e6, dtype: 'float32' })],
  ['positions 33x1024 start 2^40 halves', (so) => so.positions(33, 1024, { start: 2 ** 40, layout: 'halves' })],
  ['positions 517x6 base 100 start 9 float32 halves', (so) => so.positions(517, 6, { base: 100, start: 9, dtype: 'float32', layout: 'halves' })],
  ['embed (2, 30) from (50, 64) float64', (so) => so.embed(tensor([50, 64], 'float64', 1), { data: Int32Array.from({ length: 60 }, (_, n) => (n * 17) % 50), shape: [2, 30] })],
  ['embed (45) from (7, 10) float32', (so) => so.embed(tensor([7, 10], 'float32', 2), { data: Int32Array.from({ length: 45 }, (_, n) => (n * 3) % 7), shape: [45] })],
  ['addPositions (2, 40, 64) float32 start 7', (so) => so.addPositions(tensor([2, 40, 64], 'float32', 3), { start: 7 })],
  ['addPositions (300, 18) float64 start 123456 base 500', (so) => so.addPositions(tensor([300, 18], 'float64', 4), { start: 123456, base: 500 })],
  ['learnedPositions 20 of (64, 16) start 30', (so) => so.learnedPositions(tensor([64, 16], 'float64', 5), 20, { start: 30 })],
  ['rope (2, 40, 64) float64 start 1000 base 500', (so) => so.rope(tensor([2, 40, 64], 'float64', 6), { start: 1000, base: 500 })],
  ['rope (300, 32) float32 start 1e6', (so) => so.rope(tensor([300, 32], 'float32', 7), { start: 1e6 })],
  ['attention steps float64 causal queryStart 1', (so) => so.attention(tensor([2, 7, 16], 'float64', 8), tensor([2, 9, 16], 'float64', 9), tensor([2, 9, 8], 'float64', 10), { causal: true, queryStart: 1, steps: true })],
  ['attention float64 (3, 20, 12)', (so) => so.attention(tensor([3, 20, 12], 'float64', 11), tensor([3, 25, 12], 'float64', 12), tensor([3, 25, 5], 'float64', 13))],
  ['attention steps float32 causal', (so) => so.attention(tensor([2, 6, 8], 'float32', 14), tensor([2, 10, 8], 'float32', 15), tensor([2, 10, 3], 'float32', 16), { causal: true, steps: true })],
  ['attention float32 fused causal (3, 37, 24)', (so) => so.attention(tensor([3, 37, 24], 'float32', 17), tensor([3, 50, 24], 'float32', 18), tensor([3, 50, 20], 'float32', 19), { causal: true })],
  ['attention float32 fused (1, 64, 64)', (so) => so.attention(tensor([64, 64], 'float32', 20), tensor([64, 64], 'float32', 21), tensor([64, 64], 'float32', 22))],
];

/** SHA-256 (hex) of a tensor: its dtype, its shape and the bytes of its data. */
async function digest(t) {
  const header = new TextEncoder().encode(`${t.dtype} ${JSON.stringify(t.shape)}\n`);
  const bytes = new Uint8Array(header.length + t.data.byteLength);
  bytes.set(header);
  bytes.set(new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength), header.length);
  const hash = new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', bytes));
  return Array.from(hash, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Runs every call on the API `so` and returns { name: sha256 } (the steps of attention each under their own name). */
export async function determinismHashes(so) {
  const hashes = {};
  for (const [name, call] of CALLS) {
    const result = call(so);
    if (result.data) hashes[name] = await digest(result);
    else for (const step of ['scores', 'scaled', 'weights', 'output']) hashes[`${name}: ${step}`] = await digest(result[step]);
  }
  return hashes;
}
