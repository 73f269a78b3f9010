// expf4 (src/core/model/expf4.hpp), the model's softmax exponentials four at a time, gives the bits of std::exp in
// WebAssembly (musl's expf) for every float: tests/wasm/expf4_check.cpp, built here with em++ (into $SEQORDER_BUILD_EXPF4,
// default build-expf4/) and run in node over all of the softmax's range (-104 .. 0, where e^x is a normal or subnormal
// float or 0), and a stride through every other float. (Run it with no arguments for all 2^32 floats: 0 differ.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dir = path.resolve(root, process.env.SEQORDER_BUILD_EXPF4 ?? 'build-expf4');
const program = path.join(dir, 'check.cjs');

function build() {
  mkdirSync(dir, { recursive: true });
  const r = spawnSync('em++', ['-std=c++20', '-O2', '-msimd128', '-ffp-contract=off', '-fno-fast-math', '-Isrc/core',
    'tests/wasm/expf4_check.cpp', '-o', program, '-sENVIRONMENT=node', '-sWASM_ASYNC_COMPILATION=0'],
  { cwd: root, encoding: 'utf8', env: { ...process.env, NODE_PATH: `/usr/share/nodejs${process.env.NODE_PATH ? `:${process.env.NODE_PATH}` : ''}` } });
  if (r.error) assert.fail(`em++ is needed to build tests/wasm/expf4_check.cpp (${r.error.code}); scripts/setup.sh installs Emscripten`);
  assert.equal(r.status, 0, `em++ failed:\n${r.stdout}${r.stderr}`);
}

function check(first, last, stride) {
  const r = spawnSync(process.execPath, [program, String(first), String(last), String(stride)], { encoding: 'utf8' });
  assert.equal(r.status, 0, `${r.stdout}${r.stderr}`);
  const [, checked, differ] = /(\d+) floats checked, (\d+) differ/.exec(r.stdout);
  return { checked: Number(checked), differ: Number(differ) };
}

test('expf4 gives std::exp\'s bits over the softmax\'s range and through every other float', (t) => {
  build();
  // -104 .. 0 (bit patterns 0x80000000 .. 0xc2d00000), every 16th group of four; then all floats, every 4099th
  const softmax = check(0x80000000, 0xc2d00000, 16);
  const all = check(0, 0xffffffff, 4099);
  t.diagnostic(`${softmax.checked} floats in -104 .. 0 and ${all.checked} across all floats: ${softmax.differ + all.differ} differ`);
  assert.ok(softmax.checked > 1e7 && all.checked > 1e6);
  assert.equal(softmax.differ + all.differ, 0);
});
