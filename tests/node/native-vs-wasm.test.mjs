// Native vs WebAssembly: the fixed calls of determinism-calls.mjs, run by the core compiled natively with g++ and by
// the WebAssembly module through the public API, agree within the bounds stated below (boundFor), per function and why.
//
// How: the calls are first run on a recorder instead of the API, which captures their arguments (no second random
// generator: the module then gets these very tensors too); each is turned into the binding's arguments (src/bindings/embind.cpp)
// and written to a binary file; tests/native-vs-wasm/dump.cpp, compiled with g++ -O2 -ffp-contract=off, runs the same
// core functions as the binding on them and writes the outputs back. Both sides compile the core without fast-math
// and without contraction (CMakeLists.txt: -ffp-contract=off), so +, -, *, / and sqrt are IEEE's correctly rounded
// operations in the same order everywhere; what may differ is the math library: glibc natively, Emscripten's musl in
// WebAssembly (sin, cos, pow, exp, expf).
//
// The native binary is cached in build-native-vs-wasm/, keyed by a hash of the compiler, its flags and the sources
// (a first run compiles for ~10 s, later ones take well under a second); binaries of other keys are removed once
// they are an hour old.
// SEQORDER_NATIVE_VS_WASM_CXXFLAGS adds flags to the native build (e.g. '-mfma -ffp-contract=fast' to see this test
// fail, as it should).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadSeqorder } from './load.mjs';
import { CALLS } from './determinism-calls.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DTYPE_CODE = { float64: 0, float32: 1, int32: 2 };
const DTYPE_OF_CODE = ['float64', 'float32', 'int32'];
const ARRAY = { float64: Float64Array, float32: Float32Array, int32: Int32Array };

// ---------------------------------------------------------------------------------------------------------------
// The native program: compiled once per (compiler, flags, sources)

/** Path of the native dump program, compiled with g++ unless a binary for these sources and flags is cached. */
function nativeProgram() {
  const version = spawnSync('g++', ['--version'], { encoding: 'utf8' });
  if (version.error)
    assert.fail(`g++ is needed to compile the native side of this test and was not found (${version.error.code}); ` +
      'scripts/setup.sh installs it (Debian: apt-get install g++)');
  const core = path.join(root, 'src/core');
  const sources = readdirSync(core).filter((f) => /\.(cpp|hpp)$/.test(f)).sort().map((f) => path.join(core, f));
  const dump = path.join(root, 'tests/native-vs-wasm/dump.cpp');
  const extra = (process.env.SEQORDER_NATIVE_VS_WASM_CXXFLAGS ?? '').split(/\s+/).filter(Boolean);
  const flags = ['-std=c++20', '-O2', '-ffp-contract=off', '-fno-fast-math', ...extra, `-I${core}`];
  const hash = createHash('sha256').update(version.stdout).update(JSON.stringify(flags));
  for (const file of [...sources, dump]) hash.update(path.relative(root, file)).update(readFileSync(file));
  const dir = path.join(root, 'build-native-vs-wasm');
  const binary = path.join(dir, `dump-${hash.digest('hex').slice(0, 16)}`);
  if (existsSync(binary)) return binary;
  mkdirSync(dir, { recursive: true });
  const partial = `${binary}.${process.pid}.tmp`;  // renamed when complete: concurrent runs never see half a binary
  const compile = spawnSync('g++', [...flags, ...sources.filter((f) => f.endsWith('.cpp')), dump, '-o', partial],
    { encoding: 'utf8' });
  if (compile.status !== 0) {
    rmSync(partial, { force: true });
    assert.fail(`g++ could not compile the native dump program:\n${compile.stderr}${compile.error ?? ''}`);
  }
  renameSync(partial, binary);
  // Stale binaries (older sources or other flags): an hour's grace, so that a concurrent run never loses its own.
  for (const file of readdirSync(dir)) {
    const other = path.join(dir, file);
    if (other !== binary && /^dump-[0-9a-f]{16}$/.test(file) && Date.now() - statSync(other).mtimeMs > 3600e3)
      rmSync(other, { force: true });
  }
  return binary;
}

// ---------------------------------------------------------------------------------------------------------------
// API calls -> the binding's arguments

/** Runs `call` on a stand-in for the API that returns { name, args } instead of computing. */
function record(call) {
  const recorder = new Proxy({}, { get: (_, name) => (...args) => ({ name, args }) });
  return call(recorder);
}

/** The options of a recorded call, refusing any this test does not translate (so none is silently dropped). */
function options(name, given, known) {
  const unknown = Object.keys(given ?? {}).filter((key) => !known.includes(key));
  if (unknown.length) throw new Error(`native-vs-wasm: ${name} option(s) ${unknown} are not passed to the native side yet`);
  return given ?? {};
}

/** batch, length, width of x (T, D) or (B, T, D), as the JS layer reads them. */
function rows(x) {
  return [x.shape.length === 3 ? x.shape[0] : 1, ...x.shape.slice(-2)];
}

/**
 * An API call as the binding receives it: { name, scalars, tensors }, with the API's defaults filled in as
 * src/js/seqorder.mjs fills them. See the table in tests/native-vs-wasm/dump.cpp.
 */
function bindingCall({ name, args }) {
  const f32 = (dtype) => Number(dtype === 'float32');
  switch (name) {
    case 'positions': {
      const [length, width, given] = args;
      const { start = 0, base = 10000, dtype = 'float64', layout = 'interleaved' } =
        options(name, given, ['start', 'base', 'dtype', 'layout']);
      return { name, scalars: [f32(dtype), length, width, start, base, Number(layout === 'halves')], tensors: [] };
    }
    case 'addPositions':
    case 'rope': {
      const [x, given] = args;
      const { start = 0, base = 10000 } = options(name, given, ['start', 'base']);
      return { name, scalars: [f32(x.dtype), ...rows(x), start, base], tensors: [x] };
    }
    case 'embed': {
      const [table, ids, given] = args;
      options(name, given, []);
      const rank2 = ids.shape.length === 2;
      return {
        name,
        scalars: [f32(table.dtype), ...table.shape, rank2 ? ids.shape[0] : 1, ids.shape.at(-1), Number(rank2)],
        tensors: [table, ids],
      };
    }
    case 'learnedPositions': {
      const [table, length, given] = args;
      const { start = 0 } = options(name, given, ['start']);
      return { name, scalars: [f32(table.dtype), ...table.shape, length, start], tensors: [table] };
    }
    case 'attention': {
      const [q, k, v, given] = args;
      const { causal = false, queryStart, steps = false } = options(name, given, ['causal', 'queryStart', 'steps']);
      const [batch, queries, width] = rows(q);
      return {
        name,
        scalars: [f32(q.dtype), batch, queries, k.shape.at(-2), width, v.shape.at(-1), Number(causal),
          Number(queryStart !== undefined), queryStart ?? 0, Number(steps)],
        tensors: [q, k, v],
      };
    }
    default:
      throw new Error(`native-vs-wasm: the API function ${name} is not run natively yet`);
  }
}

/** calls.bin (format in dump.cpp) */
function encodeCalls(calls) {
  const parts = [];
  const u32 = (x) => parts.push(new Uint8Array(Uint32Array.of(x).buffer));
  const u64 = (x) => parts.push(new Uint8Array(BigUint64Array.of(BigInt(x)).buffer));
  const bytes = (data) => parts.push(new Uint8Array(data.buffer, data.byteOffset, data.byteLength).slice());
  parts.push(new TextEncoder().encode('SOVW'));
  u32(1);
  u32(calls.length);
  for (const { name, scalars, tensors } of calls) {
    const nameBytes = new TextEncoder().encode(name);
    u32(nameBytes.length);
    parts.push(nameBytes);
    u32(scalars.length);
    bytes(Float64Array.from(scalars));
    u32(tensors.length);
    for (const t of tensors) {
      // the dtype the data's type says (the calls' ids are { data: Int32Array, shape } without a dtype)
      u32(DTYPE_CODE[Object.keys(ARRAY).find((d) => t.data instanceof ARRAY[d])]);
      u64(t.data.length);
      bytes(t.data);
    }
  }
  return Buffer.concat(parts);
}

/** outputs.bin (format in dump.cpp) -> per call, a list of typed arrays */
function decodeOutputs(buffer, expectedCalls) {
  const bytes = new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  const u32 = () => { const x = view.getUint32(at, true); at += 4; return x; };
  const u64 = () => { const x = Number(view.getBigUint64(at, true)); at += 8; return x; };
  assert.equal(new TextDecoder().decode(bytes.subarray(0, 4)), 'SOVR', 'outputs file magic');
  at = 4;
  assert.equal(u32(), 1, 'outputs file version');
  assert.equal(u32(), expectedCalls, 'outputs file: number of calls');
  const calls = [];
  for (let n = 0; n < expectedCalls; n++) {
    const outputs = [];
    for (let count = u32(); count > 0; count--) {
      const dtype = DTYPE_OF_CODE[u32()];
      const length = u64();
      const size = length * ARRAY[dtype].BYTES_PER_ELEMENT;
      // copy: a typed array needs an aligned offset
      outputs.push({ dtype, data: new ARRAY[dtype](bytes.slice(at, at + size).buffer) });
      at += size;
    }
    calls.push(outputs);
  }
  assert.equal(at, bytes.length, 'outputs file: bytes left after the last call');
  return calls;
}

/** Runs the calls natively: a list of outputs (typed arrays) per call. */
function runNative(calls) {
  const binary = nativeProgram();
  const dir = mkdtempSync(path.join(tmpdir(), 'seqorder-native-vs-wasm-'));
  try {
    const input = path.join(dir, 'calls.bin');
    const output = path.join(dir, 'outputs.bin');
    writeFileSync(input, encodeCalls(calls));
    const run = spawnSync(binary, [input, output], { encoding: 'utf8' });
    if (run.status !== 0) assert.fail(`the native dump program failed (status ${run.status}): ${run.stderr}${run.error ?? ''}`);
    return decodeOutputs(readFileSync(output), calls.length);
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
  const so = await loadSeqorder();
  const calls = CALLS.map(([label, call]) => ({ label, recorded: record(call) }));
  const native = runNative(calls.map((c) => bindingCall(c.recorded)));
  const failures = [];
  for (const [n, { label, recorded }] of calls.entries()) {
    const result = so[recorded.name](...recorded.args);  // the inputs the native side got
    const steps = result.data ? [['', result]] : ['scores', 'scaled', 'weights', 'output'].map((s) => [s, result[s]]);
    assert.equal(native[n].length, steps.length, `${label}: number of outputs`);
    for (const [i, [step, wasm]] of steps.entries()) {
      const mine = native[n][i];
      const what = step ? `${label}: ${step}` : label;
      assert.equal(mine.dtype, wasm.dtype, `${what}: dtype`);
      assert.equal(mine.data.length, wasm.data.length, `${what}: element count`);
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
