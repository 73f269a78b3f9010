// Native vs WebAssembly: the fixed calls of determinism-calls.mjs, run by the core compiled natively with g++ and by
// the WebAssembly module through the public API, agree within the bounds stated below (boundFor), per function and why;
// its float32 training runs of the model give the same bits at every binding call.
//
// How: the API runs on the module with its binding functions wrapped, so that each call's arguments are captured as
// the binding receives them (the value_object, with each tensor's bytes read from the heap at that moment): the very
// bits the module computes on. They are written to a file; the CMake target seqorder_native_dump
// (tests/native-vs-wasm/dump.cpp) passes them to the same entry points of the core (src/core/api/calls.hpp: the same
// checks and the same choice of kernel) and writes the results back. Both sides compile the core without fast-math
// and without contraction (CMakeLists.txt: -ffp-contract=off), so +, -, *, / and sqrt are IEEE's correctly rounded
// operations in the same order everywhere; what may differ is the math library: glibc natively, Emscripten's musl in
// WebAssembly (sin, cos, pow, exp, expf).
//
// The native program is built in the native test build ($SEQORDER_BUILD_NATIVE, default build-native/), configured
// here if needed; CMake rebuilds it only when a source changed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CALLS, MODEL_RUNS } from './helpers/determinism-calls.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const lib = path.resolve(root, process.env.SEQORDER_DIST ?? 'dist', 'lib');
const ARRAY = { float64: Float64Array, float32: Float32Array, int32: Int32Array };

// ---------------------------------------------------------------------------------------------------------------
// The native program

/** Path of seqorder_native_dump, built (configured first if needed) in the native test build. */
function nativeProgram() {
  const dir = path.resolve(root, process.env.SEQORDER_BUILD_NATIVE ?? 'build-native');
  const cmake = (args) => {
    const r = spawnSync('cmake', args, { cwd: root, encoding: 'utf8' });
    if (r.error) assert.fail(`cmake is needed to build the native side of this test (${r.error.code}); scripts/setup.sh installs it`);
    if (r.status !== 0) assert.fail(`cmake ${args.join(' ')} failed:\n${r.stdout}${r.stderr}`);
  };
  if (!existsSync(path.join(dir, 'CMakeCache.txt'))) cmake(['-S', '.', '-B', dir, '-DCMAKE_BUILD_TYPE=Release']);
  cmake(['--build', dir, '--target', 'seqorder_native_dump', '-j2']);
  return path.join(dir, 'seqorder_native_dump');
}

// ---------------------------------------------------------------------------------------------------------------
// The module, with its binding calls captured

const BINDING_CALLS = ['positions', 'embed', 'addPositions', 'learnedPositions', 'rope', 'attention', 'matmul', 'softmax',
  'splitHeads', 'mergeHeads', 'orderTask',
  'modelCreate', 'modelDispose', 'modelParameters', 'modelForward', 'modelLoss', 'modelGradients', 'modelStep',
  'modelAttentionWeights'];

/**
 * An API over fresh instances of the main module and the model module whose binding functions record their arguments
 * in `log` before running, and their results after: { name, fields: { key: number | string | boolean | { dtype,
 * shape, data } }, results: [{ dtype, shape, data }] }, undefined fields left out.
 */
async function recordingApi(log) {
  const { default: createCore } = await import(pathToFileURL(path.join(lib, 'seqorder_core.mjs')).href);
  const { makeApi } = await import(pathToFileURL(path.join(lib, 'api.mjs')).href);
  const { bindCalls } = await import(pathToFileURL(path.join(lib, 'binding.mjs')).href);
  const { instantiateModel, modelModule } = await import(pathToFileURL(path.join(lib, 'model-module.mjs')).href);
  const core = bindCalls(await createCore({ wasmBinary: readFileSync(path.join(lib, 'seqorder', 'seqorder_core.wasm')) }));
  const model = new WebAssembly.Module(readFileSync(path.join(lib, 'seqorder', 'seqorder_model.wasm')));
  /** The module `bound` (binding.mjs's), its binding calls recorded. */
  const recording = (bound) => {
    const capture = (value) => {
      if (value === null || typeof value !== 'object') return value;
      // a TensorArg, or a result (whose count its shape says): copy its bytes out of the heap now
      const { address, dtype, shape, count = shape.reduce((a, b) => a * b, 1) } = value;
      const Class = ARRAY[dtype];
      return { dtype, shape: [...shape], data: new Class(bound.HEAPU8.buffer.slice(address, address + count * Class.BYTES_PER_ELEMENT)) };
    };
    return new Proxy(bound, {
      get(target, key) {
        const value = target[key];
        if (!BINDING_CALLS.includes(key)) return value;
        return (args) => {
          const fields = {};
          for (const [field, v] of Object.entries(args)) if (v !== undefined && field !== 'outLength') fields[field] = capture(v);
          const entry = { name: key, fields };
          log.push(entry);
          const outcome = value(args);
          entry.results = (outcome.results ?? []).map(capture);
          return outcome;
        };
      },
    });
  };
  return makeApi(recording(core), { models: modelModule(() => recording(instantiateModel(model, undefined, core.build()))) });
}

/** calls.bin (format in dump.cpp) */
function encodeCalls(calls) {
  const parts = [];
  const u8 = (x) => parts.push(Uint8Array.of(x));
  const u32 = (x) => parts.push(new Uint8Array(Uint32Array.of(x).buffer));
  const u64 = (x) => parts.push(new Uint8Array(BigUint64Array.of(BigInt(x)).buffer));
  const f64 = (x) => parts.push(new Uint8Array(Float64Array.of(x).buffer));
  const str = (s) => { const b = new TextEncoder().encode(s); u32(b.length); parts.push(b); };
  parts.push(new TextEncoder().encode('SOVW'));
  u32(2);
  u32(calls.length);
  for (const { name, fields } of calls) {
    str(name);
    const entries = Object.entries(fields);
    u32(entries.length);
    for (const [key, value] of entries) {
      str(key);
      if (typeof value === 'number') { u8(0); f64(value); }
      else if (typeof value === 'string') { u8(1); str(value); }
      else if (typeof value === 'boolean') { u8(2); u8(Number(value)); }
      else {
        u8(3);
        str(value.dtype);
        u32(value.shape.length);
        value.shape.forEach(f64);
        u64(value.data.length);
        parts.push(new Uint8Array(value.data.buffer, value.data.byteOffset, value.data.byteLength).slice());
      }
    }
  }
  return Buffer.concat(parts);
}

/** results.bin (format in dump.cpp) -> per call, a list of { dtype, shape, data } */
function decodeResults(buffer, expectedCalls) {
  const bytes = new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  const u32 = () => { const x = view.getUint32(at, true); at += 4; return x; };
  const u64 = () => { const x = Number(view.getBigUint64(at, true)); at += 8; return x; };
  const str = () => { const n = u32(); const s = new TextDecoder().decode(bytes.subarray(at, at + n)); at += n; return s; };
  assert.equal(new TextDecoder().decode(bytes.subarray(0, 4)), 'SOVR', 'results file magic');
  at = 4;
  assert.equal(u32(), 2, 'results file version');
  assert.equal(u32(), expectedCalls, 'results file: number of calls');
  const calls = [];
  for (let n = 0; n < expectedCalls; n++) {
    const results = [];
    for (let count = u32(); count > 0; count--) {
      const dtype = str();
      const shape = Array.from({ length: u32() }, u64);
      const length = u64();
      const size = length * ARRAY[dtype].BYTES_PER_ELEMENT;
      // copy: a typed array needs an aligned offset
      results.push({ dtype, shape, data: new ARRAY[dtype](bytes.slice(at, at + size).buffer) });
      at += size;
    }
    calls.push(results);
  }
  assert.equal(at, bytes.length, 'results file: bytes left after the last call');
  return calls;
}

/** Runs the recorded binding calls natively: a list of results per call. */
function runNative(calls) {
  const binary = nativeProgram();
  const dir = mkdtempSync(path.join(tmpdir(), 'seqorder-native-vs-wasm-'));
  try {
    const input = path.join(dir, 'calls.bin');
    const output = path.join(dir, 'results.bin');
    writeFileSync(input, encodeCalls(calls));
    const run = spawnSync(binary, [input, output], { encoding: 'utf8' });
    if (run.status !== 0) assert.fail(`the native dump program failed (status ${run.status}): ${run.stderr}${run.error ?? ''}`);
    return decodeResults(readFileSync(output), calls.length);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Distances

/** Distance in units in the last place: how many representable numbers lie between a and b (+0 and -0: 0). */
function ulps(a, b) {
  const wide = a instanceof Float64Array;
  const bitsA = wide ? new BigInt64Array(a.buffer, a.byteOffset, a.length) : new Int32Array(a.buffer, a.byteOffset, a.length);
  const bitsB = wide ? new BigInt64Array(b.buffer, b.byteOffset, b.length) : new Int32Array(b.buffer, b.byteOffset, b.length);
  // IEEE bits as a signed integer, made monotonic: negative numbers count down from -0 = 0
  const order = wide ? (x) => (x < 0n ? -(2n ** 63n) - x : x) : (x) => (x < 0 ? -(2 ** 31) - x : x);
  let max = 0;
  let differing = 0;
  for (let i = 0; i < a.length; i++) {
    if (Number.isNaN(a[i]) || Number.isNaN(b[i])) return { max: Infinity, differing: a.length };
    const d = wide ? Number(order(bitsA[i]) - order(bitsB[i])) : order(bitsA[i]) - order(bitsB[i]);
    if (d !== 0) differing++;
    max = Math.max(max, Math.abs(d));
  }
  return { max, differing };
}

// ---------------------------------------------------------------------------------------------------------------
// The bounds, per function: why native and WebAssembly may differ, and by how much at most
//
// Both sides: IEEE float32/float64 arithmetic, correctly rounded, no contraction (-ffp-contract=off; g++ on x86-64
// uses SSE2, never x87's wider registers), no fast-math (which would also flush subnormals to zero natively), the
// same order of operations. So whatever uses only +, -, *, / and sqrt is bit-identical, and the rest differs only
// through the math library: glibc natively, musl in Emscripten's libc.
//   - pow (the frequencies base^(-2i/D)) and exp/expf: both libraries use the same algorithms (ARM's
//     optimized-routines, correctly rounded in all but rare cases; glibc may run a variant compiled with FMA on
//     x86-64), so they nearly always agree (measured: exp once in a while by 1 ulp); the bounds below allow exp to
//     differ by 1 ulp, and assume the frequencies agree: a frequency 1 ulp off moves the angle t f at
//     t = 2^40 by ~1e-4, a real disagreement this test must report, not absorb.
//   - sin/cos: glibc's and musl's (FreeBSD's) differ; each is within 1 ulp of the true value.

const EPS = { float64: 2 ** -52, float32: 2 ** -23 };  // ulp(1): |ulp(x)| <= EPS |x| for normal x
const ANCHOR_ROWS = 256;  // kAnchorRows (src/core/positions.hpp): positions_fast re-anchors with exact sin/cos every 256 rows

/**
 * How far the float64 sines and cosines of positions_fast may differ between the two math libraries, for a table of
 * `length` rows: n = min(length, 256) - 1 rows past an anchor. With u = 2^-53: an anchor (sin/cos of the same angle)
 * is within 1 ulp (<= u, the values being below 1) of the true value on each side. Each recurrence step rounds two
 * products and a sum (<= 2.5 u, positions.hpp) and rotates by fl(sin f), fl(cos f), each within 1 ulp (relative 2 u)
 * of the truth: <= 2 u (|s| |cos f| + |c| |sin f|) <= 2 u. The exact rotation carries earlier errors unchanged, so
 * each side is within (1 + 4.5 n) u of the true sinusoid, and the two within (1 + 4.5 n) 2^-52 of each other.
 */
function sinusoidBound(length) {
  const n = Math.min(length, ANCHOR_ROWS) - 1;
  return (1 + 4.5 * n) * EPS.float64;
}

/**
 * The bound for output `step` of a recorded API call { name, args }: { why, kind: 'exact' } (bit-identical),
 * { why, kind: 'ulps', ulps } (per element) or { why, kind: 'abs', at: (i, value) => largest |difference| at element i }.
 */
function boundFor({ name, args }, step, dtype) {
  const eps = EPS[dtype];
  switch (name) {
    case 'embed':
    case 'learnedPositions':
      return { kind: 'exact', why: 'copies of table rows: no arithmetic' };
    case 'splitHeads':
    case 'mergeHeads':
      return { kind: 'exact', why: 'copies of rows: no arithmetic' };
    case 'matmul':
      return { kind: 'exact', why: 'sums of products in order of k: IEEE operations only, nothing fused' };
    case 'softmax': {
      const keys = args[0].shape.at(-1);
      return {
        kind: 'ulps',
        ulps: 2 * keys + 2,
        why: `as attention's weights: exp by libm (each e_j 1 ulp apart at most), the row sum of Tk = ${keys} of them, one division: 2 Tk + 2 ulps`,
      };
    }
    case 'positions': {
      const a = sinusoidBound(args[0]);
      return {
        kind: 'abs',
        why: 'sin/cos differ by libm (glibc vs musl); the recurrence carries that over up to n = 255 rows: (1 + 4.5 n) 2^-52, then one rounding to float32',
        at: (i, value) => a + (dtype === 'float32' ? eps * Math.abs(value) : 0),
      };
    }
    case 'addPositions': {
      const a = sinusoidBound(args[0].shape.at(-2));
      return {
        kind: 'abs',
        why: 'the sinusoids as in positions (float32: rounded once, <= 2^-23 apart more), plus one rounding of the sum x + p',
        at: (i, value) => a + (dtype === 'float32' ? eps : 0) + eps * Math.abs(value),
      };
    }
    case 'rope': {
      const x = args[0].data;
      const a = sinusoidBound(args[0].shape.at(-2));
      return {
        kind: 'abs',
        why: 'x0 cos - x1 sin and x0 sin + x1 cos in float64 with the sinusoids of positions: (|x0| + |x1|) (their bound + 3 ulps of products and sum), then one rounding to T',
        at: (i, value) => {
          const even = i - (i % 2);
          return (Math.abs(x[even]) + Math.abs(x[even + 1])) * (a + 3 * EPS.float64) + eps * Math.abs(value);
        },
      };
    }
    case 'attention': {
      const [, k, v, options = {}] = args;
      if (dtype === 'float32' && !options.steps)
        return {
          kind: 'exact',
          why: 'the fused fast path: the same blocked algorithm (f32x4.hpp: SIMD128 lanes or four plain floats) and its own e^x polynomial, only IEEE operations, no libm',
        };
      if (step === 'scores' || step === 'scaled')
        return { kind: 'exact', why: 'dot products in order of d, then / sqrt(D): IEEE operations only, nothing fused' };
      const keys = k.shape.at(-2);
      const weightUlps = 2 * keys + 2;
      if (step === 'weights')
        return {
          kind: 'ulps',
          ulps: weightUlps,
          why: `exp by libm (each e_j 1 ulp apart at most), the row sum of Tk = ${keys} of them (each side's rounding <= (Tk - 1) ulps), one division: 2 Tk + 2 ulps`,
        };
      let maxV = 0;
      for (const value of v.data) maxV = Math.max(maxV, Math.abs(value));
      return {
        kind: 'abs',
        why: `the weights (2 Tk + 2 ulps each, summing to 1) times v, summed over Tk = ${keys} keys, each side's rounding <= Tk eps max|v|: (4 Tk + 4) eps max|v|`,
        at: () => (4 * keys + 4) * eps * maxV,
      };
    }
    default:
      throw new Error(`native-vs-wasm: no bound stated for ${name}`);
  }
}

/** Checks one output against its bound; returns { ulps, differing, maxAbs, worst (largest |diff| / bound), failure } */
function compare(native, wasm, bound, dtype) {
  const { max, differing } = ulps(native, wasm);
  let maxAbs = 0;
  let worst = 0;
  let failure = null;
  for (let i = 0; i < wasm.length; i++) {
    const diff = native[i] === wasm[i] ? 0 : Math.abs(native[i] - wasm[i]);  // (-inf - -inf is NaN)
    maxAbs = Math.max(maxAbs, diff);
    if (bound.kind === 'abs') {
      const limit = bound.at(i, wasm[i]);
      worst = Math.max(worst, diff / limit);
      if (!(diff <= limit) && !failure) failure = `element ${i}: native ${native[i]}, wasm ${wasm[i]}, |diff| ${diff} > ${limit}`;
    }
  }
  if (bound.kind === 'exact' && differing > 0) failure = `${differing} elements differ (max ${max} ulps), expected bit-identical`;
  if (bound.kind === 'ulps' && max > bound.ulps) failure = `${max} ulps > ${bound.ulps}`;
  return { ulps: max, differing, maxAbs, epsUnits: maxAbs / EPS[dtype], worst, failure };
}

// ---------------------------------------------------------------------------------------------------------------

test('native (g++) and WebAssembly agree within the stated bounds on the fixed calls', async (t) => {
  const log = [];
  const so = await recordingApi(log);
  const calls = CALLS.map(([label, call]) => {
    const before = log.length;
    const result = call(so);
    assert.equal(log.length, before + 1, `${label}: one binding call`);
    // the API call's arguments, for the bounds: the call again on a stand-in that returns them
    const recorded = call(new Proxy({}, { get: (_, name) => (...args) => ({ name, args }) }));
    return { label, recorded, result, binding: log[before] };
  });
  const native = runNative(calls.map((c) => c.binding));
  const failures = [];
  for (const [n, { label, recorded, result }] of calls.entries()) {
    const steps = result.data ? [['', result]] : ['scores', 'scaled', 'weights', 'output'].map((s) => [s, result[s]]);
    assert.equal(native[n].length, steps.length, `${label}: number of results`);
    for (const [i, [step, wasm]] of steps.entries()) {
      const mine = native[n][i];
      const what = step ? `${label}: ${step}` : label;
      assert.equal(mine.dtype, wasm.dtype, `${what}: dtype`);
      assert.deepEqual(mine.shape, wasm.shape, `${what}: shape`);
      const bound = boundFor(recorded, step, wasm.dtype);
      const r = compare(mine.data, wasm.data, bound, wasm.dtype);
      const stated = bound.kind === 'exact' ? 'bit-identical' : bound.kind === 'ulps' ? `<= ${bound.ulps} ulps`
        : `|diff| <= bound, used ${(100 * r.worst).toFixed(1)}%`;
      t.diagnostic(`${what}: ${r.differing} of ${wasm.data.length} differ, max ${r.ulps} ulps, max |diff| ` +
        `${r.maxAbs.toExponential(2)} = ${r.epsUnits.toFixed(3)} eps (${stated})`);
      if (r.failure) failures.push(`${what}: ${r.failure} [${bound.why}]`);
    }
  }
  assert.deepEqual(failures, [], 'native and WebAssembly outputs beyond their stated bounds');
});

test('float32 training: native and WebAssembly give the same bits at every call (the model\'s kernels are shared)', async (t) => {
  // The float32 training runs of determinism-calls.mjs (float64 runs the reference, whose exp and log are libm's:
  // glibc natively, musl in WebAssembly, which may differ in the last bit). Every binding call is compared: each
  // batch of the order task, each step's loss, and the final parameters.
  const log = [];
  const so = await recordingApi(log);
  const runs = MODEL_RUNS.filter(([, dtype]) => dtype === 'float32');
  for (const [, , run] of runs) run(so);
  assert.ok(log.filter((c) => c.name === 'modelStep').length >= 30);
  const native = runNative(log);
  const different = [];
  for (const [n, { name, results }] of log.entries()) {
    assert.equal(native[n].length, results.length, `call ${n} (${name}): number of results`);
    for (const [i, wasm] of results.entries()) {
      const mine = native[n][i];
      assert.equal(mine.dtype, wasm.dtype);
      assert.deepEqual(mine.shape, wasm.shape);
      const { differing, max } = ulps(mine.data, wasm.data);
      if (differing > 0) different.push(`call ${n} (${name}), result ${i}: ${differing} of ${wasm.data.length} elements differ, by up to ${max} ulps`);
    }
  }
  t.diagnostic(`${runs.length} training runs: ${log.length} binding calls (${log.filter((c) => c.name === 'modelStep').length} Adam steps), every result bit-identical natively: ${different.length === 0}`);
  assert.deepEqual(different, [], 'results whose bits differ between native and WebAssembly');
});
