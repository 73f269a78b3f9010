// The WebAssembly binary format, as much of it as the hand-assembled benchmark loops need (bench/simd-peak.mjs,
// bench/simd-loads.mjs): LEB128 integers, vectors, sections, names, SIMD opcodes and local accesses.

/** An unsigned LEB128 integer. */
export const u32 = (n) => {
  const out = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return out;
};
/** A signed LEB128 integer (i32.const's immediate). */
export const i32 = (n) => {
  const out = [];
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    if ((n === 0 && !(b & 0x40)) || (n === -1 && b & 0x40)) return [...out, b];
    out.push(b | 0x80);
  }
};
export const vector = (items) => [...u32(items.length), ...items.flat()];
export const section = (id, bytes) => [id, ...u32(bytes.length), ...bytes];
export const name = (s) => vector([...new TextEncoder().encode(s)].map((b) => [b]));
export const simd = (op) => [0xfd, ...u32(op)];
/** The SIMD opcodes the loops use. */
export const OP = { V128_LOAD: 0x00, I8X16_SHUFFLE: 0x0d, V128_LOAD32_SPLAT: 0x09, F32X4_SPLAT: 0x13, F32X4_EXTRACT_LANE: 0x1f, F32X4_ADD: 0xe4, F32X4_MUL: 0xe6 };
export const get = (i) => [0x20, ...u32(i)];
export const set = (i) => [0x21, ...u32(i)];
export const tee = (i) => [0x22, ...u32(i)];
