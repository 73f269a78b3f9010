#!/usr/bin/env node
// Post-link rewriter for the relaxed-SIMD build: turns clang 14's pre-standard f32x4.fma into the final
// f32x4.relaxed_madd, so that engines implementing the finished relaxed-SIMD proposal accept the module.
//
//   node scripts/relaxed-rewrite.mjs in.wasm out.wasm
//
// Why: clang 14 (Emscripten 3.1.6) compiles __builtin_wasm_fma_f32x4(a, b, c) to opcode 0xfd 0xaf, the proposal's
// early f32x4.fma, which computed a + b * c. The finished proposal moved relaxed SIMD to 0xfd 0x100 .. 0x113 and its
// multiply-add, f32x4.relaxed_madd = 0xfd 0x105, computes a * b + c (WebAssembly/relaxed-simd #27 for the old
// semantics, #81 for the new operand order, #101 for the name). Node 20 and Chromium reject 0xaf; both validate 0x105.
//
// How: the module is parsed properly, never searched as bytes: sections, then the code section's function bodies,
// then every instruction of every body with its immediates (so 0xfd 0xaf is only ever found where an opcode starts).
// Each old fma, whose operands sit on the stack as [a, b, c], becomes
//   local.set $c  local.set $b  local.set $a  local.get $b  local.get $c  local.get $a  f32x4.relaxed_madd
// i.e. relaxed_madd(b, c, a) = b * c + a, the same value. The three v128 locals are appended to each body that
// needs them, whose size changes, so the body sizes and the code section's size are re-encoded; every other section
// is copied byte for byte (nothing in an Emscripten module refers to code offsets).
// Anything this decoder does not know (an unknown opcode, another pre-standard relaxed opcode, a malformed LEB128)
// is an error, never a silent pass-through. The build then checks the result with wasm-validate.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const OLD_FMA = 0xaf;           // pre-standard f32x4.fma (a + b * c)
const RELAXED_MADD = 0x105;     // final f32x4.relaxed_madd (a * b + c)
const V128 = 0x7b;
const VALTYPES = new Set([0x7f, 0x7e, 0x7d, 0x7c, V128, 0x70, 0x6f]);
// 0xfd sub-opcodes below 0x100 that the finished SIMD proposal leaves unassigned: the early relaxed-SIMD drafts put
// their instructions there (0xaf is the fma we rewrite; any other is refused).
const SIMD_GAPS = new Set([0x9a, 0xa2, 0xa5, 0xa6, 0xaf, 0xb0, 0xb2, 0xb3, 0xb4, 0xbb, 0xc2, 0xc5, 0xc6, 0xcf, 0xd0,
  0xd2, 0xd3, 0xd4, 0xe2, 0xee]);

class WasmError extends Error {}

/** (module (func (param v128 v128 v128) (result v128) local.get 0 local.get 1 local.get 2 f32x4.relaxed_madd)) */
export const RELAXED_PROBE = Uint8Array.of(0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x01, 0x60, 0x03,
  0x7b, 0x7b, 0x7b, 0x01, 0x7b, 0x03, 0x02, 0x01, 0x00, 0x0a, 0x0d, 0x01, 0x0b, 0x00, 0x20, 0x00, 0x20, 0x01, 0x20, 0x02,
  0xfd, 0x85, 0x02, 0x0b);

/** A cursor over bytes, reading WebAssembly's encodings; every read is bounds-checked. */
class Reader {
  constructor(bytes, pos = 0, end = bytes.length) {
    this.bytes = bytes;
    this.pos = pos;
    this.end = end;
  }
  fail(message) {
    throw new WasmError(`${message} at byte offset ${this.pos}`);
  }
  u8() {
    if (this.pos >= this.end) this.fail('unexpected end of data');
    return this.bytes[this.pos++];
  }
  skip(n) {
    if (n > this.end - this.pos) this.fail(`${n} bytes expected`);
    this.pos += n;
  }
  /** An unsigned LEB128 of at most `bits` bits (32 by default), as a number. */
  uleb(bits = 32) {
    const maxBytes = Math.ceil(bits / 7);
    let value = 0;
    for (let i = 0; i < maxBytes; ++i) {
      const byte = this.u8();
      value += (byte & 0x7f) * 2 ** (7 * i);
      if ((byte & 0x80) === 0) {
        if (value >= 2 ** bits) this.fail(`LEB128 value exceeds ${bits} bits`);
        return value;
      }
    }
    return this.fail(`LEB128 longer than ${maxBytes} bytes`);
  }
  /** A signed LEB128 of at most `bits` bits, skipped (its value is not needed). */
  sleb(bits) {
    const maxBytes = Math.ceil(bits / 7);
    for (let i = 0; i < maxBytes; ++i) if ((this.u8() & 0x80) === 0) return;
    this.fail(`signed LEB128 longer than ${maxBytes} bytes`);
  }
  valtype() {
    const t = this.u8();
    if (!VALTYPES.has(t)) this.fail(`unknown value type 0x${t.toString(16)}`);
    return t;
  }
  name() {
    this.skip(this.uleb());
  }
  limits() {
    const flags = this.uleb();
    const bits = flags & 4 ? 64 : 32;  // memory64
    this.uleb(bits);
    if (flags & 1) this.uleb(bits);
  }
  memarg() {
    const align = this.uleb();
    if (align & 0x40) this.uleb();  // multi-memory: a memory index follows
    this.uleb(64);                  // offset (64 bits for memory64)
  }
  blocktype() {
    const b = this.bytes[this.pos];
    if (b === 0x40 || VALTYPES.has(b)) this.pos += 1;
    else this.sleb(33);             // a type index
  }
}

/** Unsigned LEB128 bytes of n. */
export function uleb(n) {
  const out = [];
  do {
    let byte = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) byte |= 0x80;
    out.push(byte);
  } while (n > 0);
  return out;
}

/**
 * Decodes one instruction at r.pos (the opcode's first byte) and moves past it.
 * Returns { blockDelta, simd } where simd is the 0xfd sub-opcode (or -1).
 */
function instruction(r) {
  const op = r.u8();
  if (op >= 0x45 && op <= 0xc4) return { blockDelta: 0, simd: -1 };  // numeric, incl. sign extension: no immediates
  switch (op) {
    case 0x00: case 0x01: case 0x05: case 0x0f: case 0x19: case 0x1a: case 0x1b: case 0xd1:
      return { blockDelta: 0, simd: -1 };
    case 0x0b: return { blockDelta: -1, simd: -1 };                     // end
    case 0x02: case 0x03: case 0x04: case 0x06:                         // block, loop, if, try
      r.blocktype();
      return { blockDelta: 1, simd: -1 };
    case 0x18: r.uleb(); return { blockDelta: -1, simd: -1 };           // delegate (ends a try)
    case 0x07: case 0x08: case 0x09: case 0x0c: case 0x0d: case 0x10: case 0x12:
    case 0x20: case 0x21: case 0x22: case 0x23: case 0x24: case 0x25: case 0x26: case 0xd2:
      r.uleb();
      return { blockDelta: 0, simd: -1 };
    case 0x11: case 0x13: r.uleb(); r.uleb(); return { blockDelta: 0, simd: -1 };
    case 0x0e: {                                                        // br_table
      const n = r.uleb();
      for (let i = 0; i <= n; ++i) r.uleb();
      return { blockDelta: 0, simd: -1 };
    }
    case 0x1c: {                                                        // select t*
      const n = r.uleb();
      for (let i = 0; i < n; ++i) r.valtype();
      return { blockDelta: 0, simd: -1 };
    }
    case 0x3f: case 0x40: r.uleb(); return { blockDelta: 0, simd: -1 }; // memory.size/grow
    case 0x41: r.sleb(32); return { blockDelta: 0, simd: -1 };
    case 0x42: r.sleb(64); return { blockDelta: 0, simd: -1 };
    case 0x43: r.skip(4); return { blockDelta: 0, simd: -1 };
    case 0x44: r.skip(8); return { blockDelta: 0, simd: -1 };
    case 0xd0: r.sleb(33); return { blockDelta: 0, simd: -1 };          // ref.null heaptype
    case 0xfc: return { blockDelta: 0, simd: -1, ...miscInstruction(r) };
    case 0xfd: return { blockDelta: 0, simd: simdInstruction(r) };
    case 0xfe: atomicInstruction(r); return { blockDelta: 0, simd: -1 };
    default:
      if (op >= 0x28 && op <= 0x3e) { r.memarg(); return { blockDelta: 0, simd: -1 }; }  // loads and stores
      r.pos -= 1;
      return r.fail(`unknown opcode 0x${op.toString(16)}`);
  }
}

function miscInstruction(r) {
  const sub = r.uleb();
  if (sub <= 7) return {};                                  // saturating truncations
  switch (sub) {
    case 8: case 10: case 12: case 14: r.uleb(); r.uleb(); return {};  // memory.init, memory.copy, table.init, table.copy
    case 9: case 11: case 13: case 15: case 16: case 17: r.uleb(); return {};
    default: return r.fail(`unknown 0xfc sub-opcode ${sub}`);
  }
}

function atomicInstruction(r) {
  const sub = r.uleb();
  if (sub === 0x03) r.u8();                                 // atomic.fence
  else if (sub <= 0x02 || (sub >= 0x10 && sub <= 0x4e)) r.memarg();
  else r.fail(`unknown 0xfe sub-opcode 0x${sub.toString(16)}`);
}

/** Decodes the rest of a 0xfd instruction; returns its sub-opcode. */
function simdInstruction(r) {
  const start = r.pos - 1;
  const sub = r.uleb();
  if (sub <= 11 || sub === 92 || sub === 93) r.memarg();                 // v128 loads and store, load*_zero
  else if (sub === 12 || sub === 13) r.skip(16);                         // v128.const, i8x16.shuffle
  else if (sub >= 21 && sub <= 34) r.u8();                               // extract_lane / replace_lane
  else if (sub >= 84 && sub <= 91) { r.memarg(); r.u8(); }               // load*_lane / store*_lane
  else if (sub === OLD_FMA) { /* rewritten by the caller */ }
  else if (SIMD_GAPS.has(sub)) { r.pos = start; r.fail(`pre-standard relaxed-SIMD opcode 0xfd 0x${sub.toString(16)} (only f32x4.fma, 0xaf, is rewritten)`); }
  else if (sub > 0x113) { r.pos = start; r.fail(`unknown SIMD opcode 0xfd 0x${sub.toString(16)}`); }
  return sub;  // everything else (numeric SIMD and final relaxed SIMD 0x100..0x113) has no immediates
}

/** Parameter counts of the module's own functions, in code-section order, from the type/import/function sections. */
function paramCounts(sections) {
  const types = [];
  const ownTypes = [];
  for (const { id, start, end } of sections) {
    const r = new Reader(sections.bytes, start, end);
    if (id === 1) {
      for (let n = r.uleb(); n > 0; --n) {
        if (r.u8() !== 0x60) r.fail('only function types are supported in the type section');
        const params = r.uleb();
        for (let i = 0; i < params; ++i) r.valtype();
        for (let results = r.uleb(); results > 0; --results) r.valtype();
        types.push(params);
      }
    } else if (id === 2) {
      for (let n = r.uleb(); n > 0; --n) {
        r.name();
        r.name();
        const kind = r.u8();
        if (kind === 0) r.uleb();                                  // function: its type (imports have no body)
        else if (kind === 1) { r.u8(); r.limits(); }               // table
        else if (kind === 2) r.limits();                           // memory
        else if (kind === 3) { r.valtype(); r.u8(); }              // global
        else if (kind === 4) { r.u8(); r.uleb(); }                 // tag
        else r.fail(`unknown import kind ${kind}`);
      }
    } else if (id === 3) {
      for (let n = r.uleb(); n > 0; --n) ownTypes.push(r.uleb());
    } else {
      continue;
    }
    if (r.pos !== end) r.fail(`section ${id} has trailing bytes`);
  }
  return ownTypes.map((t) => {
    if (t >= types.length) throw new WasmError(`function type index ${t} out of range`);
    return types[t];
  });
}

/**
 * Rewrites one function body (its bytes without the size prefix). Returns null when it has no old fma.
 */
function rewriteBody(bytes, start, end, params) {
  const r = new Reader(bytes, start, end);
  const groups = r.uleb();
  let locals = params;
  for (let i = 0; i < groups; ++i) {
    locals += r.uleb();
    r.valtype();
  }
  const codeStart = r.pos;
  const sites = [];  // [start, end) of each old fma instruction
  let depth = 1;
  while (depth > 0) {
    const at = r.pos;
    const { blockDelta, simd } = instruction(r);
    depth += blockDelta;
    if (simd === OLD_FMA) sites.push([at, r.pos]);
  }
  if (r.pos !== end) r.fail('function body continues after its final end');
  if (sites.length === 0) return null;

  // three v128 scratch locals after the existing ones: $a, $b, $c
  const a = locals, b = locals + 1, c = locals + 2;
  if (c >= 50000) throw new WasmError('too many locals to add the operand reordering');
  const out = [...uleb(groups + 1)];
  const localDecls = bytes.subarray(start, codeStart);
  const groupsPrefix = uleb(groups).length;
  out.push(...localDecls.subarray(groupsPrefix), 3, V128);
  let copied = codeStart;
  for (const [s, e] of sites) {
    out.push(...bytes.subarray(copied, s));
    out.push(0x21, ...uleb(c), 0x21, ...uleb(b), 0x21, ...uleb(a));
    out.push(0x20, ...uleb(b), 0x20, ...uleb(c), 0x20, ...uleb(a));
    out.push(0xfd, ...uleb(RELAXED_MADD));
    copied = e;
  }
  out.push(...bytes.subarray(copied, end));
  return { body: Uint8Array.from(out), sites: sites.length };
}

/**
 * Rewrites every pre-standard f32x4.fma of a linked module into f32x4.relaxed_madd.
 * @param {Uint8Array} bytes the module
 * @returns {{ bytes: Uint8Array, rewritten: number, functions: number }} the new module, how many instructions were
 *   rewritten and in how many functions
 */
export function rewriteRelaxed(bytes) {
  bytes = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  const r = new Reader(bytes);
  const header = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];
  for (const expected of header) if (r.u8() !== expected) r.fail('not a WebAssembly 1.0 module');
  const sections = [];
  sections.bytes = bytes;
  while (r.pos < bytes.length) {
    const headerStart = r.pos;
    const id = r.u8();
    const size = r.uleb();
    const start = r.pos;
    r.skip(size);
    sections.push({ id, headerStart, start, end: r.pos });
  }
  const params = paramCounts(sections);

  const chunks = [bytes.subarray(0, 8)];
  let rewritten = 0, functions = 0;
  for (const section of sections) {
    if (section.id !== 10) {
      chunks.push(bytes.subarray(section.headerStart, section.end));
      continue;
    }
    const s = new Reader(bytes, section.start, section.end);
    const count = s.uleb();
    if (count !== params.length) s.fail(`code section has ${count} bodies for ${params.length} functions`);
    const content = [Uint8Array.from(uleb(count))];
    for (let i = 0; i < count; ++i) {
      const size = s.uleb();
      const start = s.pos;
      s.skip(size);
      let result;
      try {
        result = rewriteBody(bytes, start, s.pos, params[i]);
      } catch (error) {
        if (error instanceof WasmError) error.message = `function body ${i}: ${error.message}`;
        throw error;
      }
      if (result === null) {
        content.push(bytes.subarray(start - uleb(size).length, s.pos));  // size prefix + body, unchanged
      } else {
        content.push(Uint8Array.from(uleb(result.body.length)), result.body);
        rewritten += result.sites;
        functions += 1;
      }
    }
    if (s.pos !== section.end) s.fail('code section has trailing bytes');
    const length = content.reduce((n, c) => n + c.length, 0);
    chunks.push(Uint8Array.of(10, ...uleb(length)), ...content);
  }
  const total = chunks.reduce((n, c) => n + c.length, 0);
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return { bytes: out, rewritten, functions };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [input, output] = process.argv.slice(2);
  if (!input || !output) {
    console.error('usage: node scripts/relaxed-rewrite.mjs in.wasm out.wasm');
    process.exit(2);
  }
  try {
    const { bytes, rewritten, functions } = rewriteRelaxed(readFileSync(input));
    if (rewritten === 0)
      throw new WasmError('no pre-standard f32x4.fma found: was the core compiled with -mrelaxed-simd and SEQORDER_RELAXED_FMA?');
    // V8's validator too, when this node runs relaxed SIMD (node 20: --experimental-wasm-relaxed-simd)
    let v8 = 'V8 check skipped: run node with --experimental-wasm-relaxed-simd';
    if (WebAssembly.validate(RELAXED_PROBE)) {
      if (!WebAssembly.validate(bytes)) throw new WasmError('the rewritten module does not pass WebAssembly.validate');
      v8 = 'WebAssembly.validate: valid';
    }
    writeFileSync(output, bytes);
    console.log(`relaxed-rewrite: ${rewritten} f32x4.fma -> f32x4.relaxed_madd in ${functions} functions, ${output} (${v8})`);
  } catch (error) {
    console.error(`relaxed-rewrite: ${input}: ${error.message}`);
    process.exit(1);
  }
}
