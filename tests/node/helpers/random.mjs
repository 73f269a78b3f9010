// Seeded inputs for the node tests: every run sees the same numbers. (determinism-calls.mjs keeps its own integer
// generator: it is loaded into the browser page too, and must stay free of imports.)

/** mulberry32: a small deterministic generator; returns a function giving uniform numbers in [0, 1). */
export function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ARRAYS = { float64: Float64Array, float32: Float32Array, int32: Int32Array };

/** A tensor of the given shape and dtype, values uniform in [-scale, scale) from random(seed). */
export function uniformTensor(shape, dtype, seed, scale = 1) {
  const next = random(seed);
  const count = shape.reduce((a, b) => a * b, 1);
  return { data: ARRAYS[dtype].from({ length: count }, () => (next() * 2 - 1) * scale), shape, dtype };
}

/** A float32 tensor, values uniform in [-scale, scale). */
export const float32 = (shape, seed, scale = 1) => uniformTensor(shape, 'float32', seed, scale);
