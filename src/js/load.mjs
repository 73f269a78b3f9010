// Finding, fetching and instantiating the WebAssembly module: loadSeqorder().
import createCore from './seqorder_core.mjs';
import { makeApi } from './api.mjs';
import { readChoice, readOptions } from './arguments.mjs';

const isNode = typeof process === 'object' && typeof process.versions?.node === 'string' && typeof window === 'undefined';

// (module (func (param v128 v128 v128) (result v128) local.get 0 local.get 1 local.get 2 f32x4.relaxed_madd)):
// engines validate it only where they run relaxed SIMD (Chromium; node 20 with --experimental-wasm-relaxed-simd).
const RELAXED_PROBE = Uint8Array.of(0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x01, 0x60, 0x03,
  0x7b, 0x7b, 0x7b, 0x01, 0x7b, 0x03, 0x02, 0x01, 0x00, 0x0a, 0x0d, 0x01, 0x0b, 0x00, 0x20, 0x00, 0x20, 0x01, 0x20, 0x02,
  0xfd, 0x85, 0x02, 0x0b);

/** Whether this engine runs WebAssembly relaxed SIMD (feature-detected, never guessed from the user agent). */
function relaxedSimdSupported() {
  try {
    return typeof WebAssembly === 'object' && WebAssembly.validate(RELAXED_PROBE);
  } catch {
    return false;
  }
}

async function instantiate(options) {
  // A literal `new URL(..., import.meta.url)` lets bundlers (Vite, webpack) find and emit the .wasm files. Both
  // builds share the JS glue (scripts/build.sh checks it); the relaxed one only where the engine runs relaxed SIMD.
  const wasmUrl = options.simd === 'relaxed' && relaxedSimdSupported()
    ? new URL('./seqorder_core_relaxed.wasm', import.meta.url)
    : new URL('./seqorder_core.wasm', import.meta.url);
  const settings = { locateFile: () => wasmUrl.href };
  if (options.wasmBinary !== undefined) {
    settings.wasmBinary = options.wasmBinary;
  } else if (isNode && wasmUrl.protocol === 'file:') {
    // node's fetch cannot read file: URLs, so hand Emscripten the bytes (TOOLCHAIN.md, quirk 2).
    const fs = await import(/* @vite-ignore */ ['node', 'fs/promises'].join(':'));
    settings.wasmBinary = await fs.readFile(wasmUrl);
  }
  return createCore(settings);
}

/**
 * Loads the WebAssembly module and returns the API. Each call makes an independent instance.
 * simd: 'simd128' (the default: results bit-identical in every engine) or 'relaxed' (relaxed SIMD's multiply-add
 * where the engine supports it, else the default module; results may differ between engines by float32 rounding).
 * The API's `build` says which module runs.
 * @param {{ wasmBinary?: ArrayBuffer | Uint8Array, simd?: 'simd128' | 'relaxed' }} [options]
 */
export async function loadSeqorder(options) {
  options = readOptions('options', options, ['wasmBinary', 'simd']);
  if (options.wasmBinary !== undefined && !(options.wasmBinary instanceof ArrayBuffer || ArrayBuffer.isView(options.wasmBinary)))
    throw new TypeError('options.wasmBinary must be an ArrayBuffer or a typed array of the module\'s bytes');
  if (options.simd !== undefined) readChoice('options.simd', options.simd, ['simd128', 'relaxed']);
  if (options.simd === 'relaxed' && options.wasmBinary !== undefined)
    throw new RangeError('options.simd: \'relaxed\' chooses the module itself; it cannot be combined with options.wasmBinary (whose module says its build)');
  let core;
  try {
    core = await instantiate(options);
  } catch (cause) {
    const error = new Error(`seqorder: the WebAssembly module could not be loaded (${cause?.message ?? cause})`);
    error.cause = cause;
    throw error;
  }
  return makeApi(core);
}

