// node bench/model-speed.mjs [--rounds N] [--steps N] [--no-torch]
//
// ms per Adam step of the model at the lesson page's configuration (vocab 16, width 32, 2 heads, 1 layer, sinusoidal,
// float32, batch 32, T = 12): seqorder's core compiled natively (g++ -O2) and to WebAssembly (em++ -O2 -msimd128, run
// in this node process), against PyTorch on one thread (bench/model_reference.py --time, Debian's python3-torch).
// Each contender times its own CPU time: native and PyTorch in their processes (user + system), WebAssembly here by
// the CPU time of this thread (bench/clock.mjs; V8's helper threads are not the step's). Rounds are interleaved; the
// table gives medians, and each ratio is the median of the per-round ratios (the machine is shared: compare ratios
// within one run). The harness is bench/model_step.cpp, built into
// build-bench/ on each run.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { median } from '../web/js/median.mjs';
import { modelSources } from './harness.mjs';
import { cpuSeconds } from './clock.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const rounds = option('--rounds', 7);
const steps = option('--steps', 200);
const torch = !args.includes('--no-torch');

const out = path.join(root, 'build-bench');
mkdirSync(out, { recursive: true });

const sources = ['bench/model_step.cpp', ...modelSources()];
const flags = ['-std=c++20', '-O2', '-ffp-contract=off', '-fno-fast-math', '-Isrc/core'];

console.error('building the native harness (g++ -O2) and the WebAssembly one (em++ -O2 -msimd128) ...');
execFileSync('g++', [...flags, ...sources, '-o', path.join(out, 'model_step')], { cwd: root, stdio: 'inherit' });
execFileSync('em++', [...flags, '-msimd128', '-fexceptions', ...sources, '-o', path.join(out, 'model_step.mjs'),
  '-sMODULARIZE', '-sEXPORT_ES6', '-sENVIRONMENT=web', '-sALLOW_MEMORY_GROWTH',
  '-sEXPORTED_FUNCTIONS=_model_steps'], {
  cwd: root, stdio: 'inherit', env: { ...process.env, NODE_PATH: process.env.NODE_PATH ?? '/usr/share/nodejs' },
});
const factory = (await import(pathToFileURL(path.join(out, 'model_step.mjs')).href)).default;
const wasm = await factory({ wasmBinary: readFileSync(path.join(out, 'model_step.wasm')) });

function native() {
  return Number(execFileSync(path.join(out, 'model_step'), ['1', String(steps)], { encoding: 'utf8' }));
}
function webAssembly() {
  return (1e3 * cpuSeconds(() => wasm._model_steps(steps, 0))) / steps;
}
function pytorch() {
  const run = spawnSync('/usr/bin/python3', ['bench/model_reference.py', '--time', '--rounds', '1', '--steps', String(steps)],
    { cwd: root, encoding: 'utf8' });
  const match = /([0-9.]+) ms per Adam step/.exec(run.stdout);
  if (!match) throw new Error(`bench/model_reference.py failed: ${run.stderr || run.stdout}`);
  return Number(match[1]);
}

const times = { native: [], wasm: [], torch: [] };
webAssembly(); // warm-up: compile tiers, first allocations
for (let r = 0; r < rounds; r++) {
  times.native.push(native());
  times.wasm.push(webAssembly());
  if (torch) times.torch.push(pytorch());
  console.error(`round ${r + 1}/${rounds}: native ${times.native.at(-1).toFixed(3)}, wasm ${times.wasm.at(-1).toFixed(3)}` +
    (torch ? `, pytorch ${times.torch.at(-1).toFixed(3)}` : '') + ' ms/step');
}
const ratio = (a, b) => median(a.map((x, i) => x / b[i]));
console.log(`| ms per Adam step (median of ${rounds} rounds of ${steps}) | native g++ -O2 | WebAssembly SIMD128 (node ${process.versions.node}) |${torch ? ' PyTorch, 1 thread |' : ''}`);
console.log(`|---|---|---|${torch ? '---|' : ''}`);
console.log(`| seqorder model, V 16, D 32, H 2, L 1, T 12, B 32, float32 | ${median(times.native).toFixed(3)} | ${median(times.wasm).toFixed(3)} |${torch ? ` ${median(times.torch).toFixed(3)} |` : ''}`);
const fastest = (a, b) => Math.min(...a) / Math.min(...b);
if (torch) {
  console.log(`\nPyTorch ÷ native: ${ratio(times.torch, times.native).toFixed(2)}×, PyTorch ÷ WebAssembly: ${ratio(times.torch, times.wasm).toFixed(2)}× (medians of per-round ratios)`);
  console.log(`fastest rounds: native ${Math.min(...times.native).toFixed(3)}, WebAssembly ${Math.min(...times.wasm).toFixed(3)}, PyTorch ${Math.min(...times.torch).toFixed(3)} ms; PyTorch ÷ WebAssembly ${fastest(times.torch, times.wasm).toFixed(2)}×`);
}
console.log(`WebAssembly ÷ native time: ${ratio(times.wasm, times.native).toFixed(2)}×`);
// 300 steps from the start in both builds (a new WebAssembly instance): the same loss means the same training.
const fresh = await factory({ wasmBinary: readFileSync(path.join(out, 'model_step.wasm')) });
const nativeLoss = execFileSync(path.join(out, 'model_step'), ['check', '300'], { encoding: 'utf8' }).trim();
console.log(`loss after 300 steps from the start: native ${nativeLoss}, WebAssembly ${fresh._model_steps(300, 0).toPrecision(9)}`);
