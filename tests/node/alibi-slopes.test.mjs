// ALiBi's slopes (src/core/model/position_bias.cpp) are computed with the math library's pow and log2: glibc's natively,
// musl's in WebAssembly. tests/wasm/alibi_slopes.cpp prints them for H = 1 .. 64 (get_slopes' 2^(-8h/H) for powers of
// two, its interleaving for the other H, 12, 16, 24 ... included) as their float64 bits; built here with g++ and with
// em++ (into a temporary folder), the two programs must print the same bits.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SOURCES = ['tests/wasm/alibi_slopes.cpp', 'src/core/model/position_bias.cpp'];
const FLAGS = ['-std=c++20', '-O2', '-ffp-contract=off', '-fno-fast-math', '-Isrc/core'];

function run(command, args, env = process.env) {
  const r = spawnSync(command, args, { cwd: root, encoding: 'utf8', env, maxBuffer: 1 << 24 });
  if (r.error) assert.fail(`${command} is needed for this test (${r.error.code}); scripts/setup.sh installs it`);
  assert.equal(r.status, 0, `${command} ${args.join(' ')} failed:\n${r.stdout}${r.stderr}`);
  return r.stdout;
}

test('ALiBi\'s slopes for H = 1 .. 64 are the same float64 bits natively (g++, glibc) and in WebAssembly (em++, musl)', (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'seqorder-alibi-slopes-'));
  try {
    const native = path.join(dir, 'native');
    const wasm = path.join(dir, 'wasm.cjs');
    run('g++', [...FLAGS, ...SOURCES, '-o', native]);
    run('em++', [...FLAGS, ...SOURCES, '-o', wasm, '-sENVIRONMENT=node', '-sWASM_ASYNC_COMPILATION=0'],
      { ...process.env, NODE_PATH: `/usr/share/nodejs${process.env.NODE_PATH ? `:${process.env.NODE_PATH}` : ''}` });
    const nativeLines = run(native, []).trim().split('\n');
    const wasmLines = run(process.execPath, [wasm]).trim().split('\n');
    assert.equal(nativeLines.length, 64);
    for (const [i, line] of nativeLines.entries()) assert.equal(line.split(' ').length, i + 2, `H = ${i + 1}: ${i + 1} slopes`);
    const differ = nativeLines.filter((line, i) => line !== wasmLines[i]).map((line) => `H = ${line.split(':')[0]}`);
    t.diagnostic(`${nativeLines.length} head counts, ${64 * 65 / 2} slopes: ${differ.length} head counts differ`);
    assert.deepEqual(differ, [], 'head counts whose slopes differ between native and WebAssembly');
    assert.deepEqual(wasmLines, nativeLines);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
