// bench/kernel-ab.mjs: builds of the standalone kernel module timed against each other in one process. The same build
// twice gives two positive speeds; a build whose output differs in any bit is refused before anything is timed (a
// stand-in module below, with the kernel module's exports, that leaves the output as it finds it: zeros), unless
// anyBits asks for it, and then it is marked.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { compareBuilds } from '../../bench/kernel-ab.mjs';
import { cpuSeconds as cpu } from '../../bench/simd-peak.mjs';
import { i32, name, section, u32, vector } from '../../bench/wasm-bytes.mjs';

const kernel = readFileSync(new URL('../../dist/lib/seqorder/seqorder_kernel.wasm', import.meta.url));

/** A module with the kernel module's imports and exports whose attention_rows does nothing. */
function standIn() {
  const types = [[0x60, ...vector([[0x7f]]), ...vector([])], [0x60, ...vector([[0x7f], [0x7f], [0x7f]]), ...vector([[0x7c]])]];
  const i32Global = (mutable, value) => [0x7f, mutable, 0x41, ...i32(value), 0x0b];
  return Uint8Array.from([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, vector(types)),
    ...section(2, vector([[...name('env'), ...name('memory'), 0x02, 0x03, ...u32(1), ...u32(32768)]])),  // shared memory
    ...section(3, vector([[0], [1]])),
    ...section(6, vector([i32Global(1, 1024), i32Global(0, 1024)])),
    ...section(7, vector([[...name('attention_rows'), 0x00, 0], [...name('scratch_bytes'), 0x00, 1],
      [...name('__stack_pointer'), 0x03, 0], [...name('__heap_base'), 0x03, 1]])),
    ...section(10, vector([[2, 0, 0x0b], [11, 0, 0x44, 0, 0, 0, 0, 0, 0, 0, 0, 0x0b]])),
  ]);
}

test('kernel-ab times the same build twice, with the same bits', async () => {
  const results = await compareBuilds([{ name: 'a', bytes: kernel }, { name: 'b', bytes: kernel }],
    { T: 64, causal: true, kernel: 'splat_per_block', rounds: 2, time: cpu });
  assert.deepEqual(results.map((r) => r.name), ['a', 'b']);
  for (const r of results) assert.ok(r.gflops > 0 && r.overFirst > 0 && r.sameBits, JSON.stringify(r));
});

test('kernel-ab refuses builds whose outputs differ, and a kernel it does not know', async () => {
  assert.equal(WebAssembly.validate(standIn()), true);
  await assert.rejects(compareBuilds([{ name: 'kernel', bytes: kernel }, { name: 'stand-in', bytes: standIn() }],
    { T: 64, rounds: 1, time: cpu }), /stand-in differs from kernel at output element 0/);
  await assert.rejects(compareBuilds([{ name: 'a', bytes: kernel }], { kernel: 'fastest', time: cpu }), RangeError);
});

test('kernel-ab with anyBits times a build whose outputs differ, and marks it', async () => {
  const results = await compareBuilds([{ name: 'kernel', bytes: kernel }, { name: 'stand-in', bytes: standIn() }],
    { T: 64, rounds: 1, anyBits: true, time: cpu });
  assert.deepEqual(results.map((r) => [r.name, r.sameBits]), [['kernel', true], ['stand-in', false]]);
});
