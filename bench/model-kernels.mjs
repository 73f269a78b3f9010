// node bench/model-kernels.mjs
//
// Where a float32 training step's time goes, kernel by kernel: each of the model's fast kernels (steps_fast.hpp) timed
// alone, in WebAssembly SIMD128 as the package compiles them (em++ -O3 -msimd128 -fwasm-exceptions), at the shapes a
// step of the lab model (batch 32, T = 12, width 32, 2 heads) and of 2 layers of width 64 at T = 32 calls them with:
// microseconds per call (the fastest of 7 rounds, by the wall clock, after every kernel has run once untimed) and
// GFLOP/s for the products. The harness is bench/model_kernels.cpp, built into build-bench/ on each run; to compare two
// versions of the kernels, run it in a checkout of each, one after the other (the machine is shared: repeat both).
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { modelSources } from './harness.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'build-bench');
mkdirSync(out, { recursive: true });
const flags = ['-std=c++20', '-O3', '-ffp-contract=off', '-fno-fast-math', '-Isrc/core', '-msimd128',
  '-fwasm-exceptions', '-DNDEBUG', '-sENVIRONMENT=node', '-sALLOW_MEMORY_GROWTH', '-sSINGLE_FILE'];
console.error('building bench/model_kernels.cpp (em++ -O3 -msimd128) ...');
const harness = path.join(out, 'model_kernels.cjs');
execFileSync('em++', [...flags, 'bench/model_kernels.cpp', ...modelSources(), '-o', harness], {
  cwd: root, stdio: 'inherit', env: { ...process.env, NODE_PATH: process.env.NODE_PATH ?? '/usr/share/nodejs' },
});
const lines = execFileSync('node', [harness], { encoding: 'utf8' }).trim().split('\n');
console.log('| kernel | model | µs per call | GFLOP/s |\n| --- | --- | --- | --- |');
for (const line of lines) console.log(`| ${line.split('\t').join(' | ')} |`);
