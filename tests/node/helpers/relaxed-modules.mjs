// Hand-assembled WebAssembly modules for the tests of scripts/relaxed-rewrite.mjs: one function
// (param i32 i32 i32 i32) with the given body, an exported memory, the function exported as "fma".

import { uleb } from '../../../scripts/relaxed-rewrite.mjs';

const section = (id, content) => [id, ...uleb(content.length), ...content];
const string = (s) => [...uleb(s.length), ...Buffer.from(s)];

/** A v128.const whose 16 immediate bytes spell the old fma opcode: a byte search would "rewrite" them. */
export const DECOY = [0xfd, 0x0c, 0xfd, 0xaf, 0x01, 0xfd, 0xaf, 0x01, 0, 0, 0, 0, 0, 0, 0, 0, 0xfd, 0xaf];

/**
 * A module whose function's body is `instructions` (without the final end), with `v128Locals` v128 locals after its
 * four i32 parameters.
 */
export function moduleWith(instructions, { v128Locals = 1 } = {}) {
  const body = [...(v128Locals > 0 ? [1, ...uleb(v128Locals), 0x7b] : [0]), ...instructions, 0x0b];
  return Uint8Array.from([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, [1, 0x60, 4, 0x7f, 0x7f, 0x7f, 0x7f, 0]),        // type (i32 i32 i32 i32) -> ()
    ...section(3, [1, 0]),                                          // one function of that type
    ...section(5, [1, 0, 1]),                                       // memory, 1 page
    ...section(7, [2, ...string('memory'), 2, 0, ...string('fma'), 0, 0]),
    ...section(10, [1, ...uleb(body.length), ...body]),
    ...section(0, [...string('note'), 0xfd, 0xaf, 0x01]),           // a custom section: copied as is
  ]);
}

const load = (local) => [0x20, local, 0xfd, 0x00, 0x04, 0x00];  // local.get; v128.load align=16 offset=0

/**
 * store(out, fma(load a, load b, load c)) with clang 14's pre-standard f32x4.fma (0xfd 0xaf), inside a block,
 * after the decoy constant is stored in local 4: fma(a, pa, pb, pc, pout) at byte addresses.
 */
export function oldFmaModule() {
  return moduleWith([
    0x02, 0x40,                                   // block
    ...DECOY, 0x21, 0x04,                         //   v128.const <decoy>; local.set 4
    0x20, 0x03,                                   //   local.get 3 (the result's address)
    ...load(0), ...load(1), ...load(2),           //   a, b, c
    0xfd, 0xaf, 0x01,                             //   the old f32x4.fma: a + b * c
    0xfd, 0x0b, 0x04, 0x00,                       //   v128.store
    0x0b,                                         // end
  ]);
}
