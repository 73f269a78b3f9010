// Finding, fetching, compiling and instantiating the WebAssembly module: loadSeqorder() (and, in parts, the pool).
//
// Where the .wasm is looked for, in this order: options.wasmBinary (the bytes themselves), options.wasmUrl (a file, or a
// folder ending in '/'), else the folder `seqorder/` beside this file. Bytes are fetched (read from disk in node), their
// first four bytes checked, compiled, and the instance handed to Emscripten's glue through its instantiateWasm hook, so
// every failure says which URL was asked for and what to do about it.
import createCore from './seqorder_core.mjs';
import { makeApi } from './api.mjs';
import { bindCalls } from './binding.mjs';
import { readChoice, readOptions } from './arguments.mjs';
import { isNode, nodeModule, resolveUrl } from './env.mjs';

/** The module file of each build. */
const FILES = { simd128: 'seqorder_core.wasm', relaxed: 'seqorder_core_relaxed.wasm' };

const FIX = 'Serve the package\'s dist/lib/seqorder/ folder at that URL, or say where the module is: '
  + 'loadSeqorder({ wasmUrl: \'/path/to/seqorder_core.wasm\' }) (or a folder URL ending in \'/\'); '
  + 'see "Use it in your app" in seqorder\'s README.';

// (module (func (param v128 v128 v128) (result v128) local.get 0 local.get 1 local.get 2 f32x4.relaxed_madd)):
// engines validate it only where they run relaxed SIMD (Chromium, Firefox; not WebKit; node 20 only with
// --experimental-wasm-relaxed-simd).
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

/**
 * Bundlers emit only the files an app's code names. The default module is named here, as a literal URL expression
 * relative to import.meta.url that bundlers (Vite, webpack) find: `seqorder/` is the folder beside this file (what
 * browsers, node and bundlers resolve first) and also the package's name with the file among its exports (what Vite
 * resolves from its pre-bundled copy in node_modules/.vite/deps/, where the relative path leads nowhere). The other
 * modules are named where they are used, the same way: the relaxed build's by seqorder/relaxed (relaxed.mjs, which
 * an app imports to use it: it hands its URLs to provideRelaxed), the pool's kernel and worker by seqorder/pool
 * (kernel-file.mjs and pool/index.mjs, which hand them to the pool).
 * Without them (an app that did not import seqorder/relaxed; the pool reached through seqorder), those modules are
 * looked for beside the default one: where the package's folder is served as it is (node, a static folder), they are
 * there.
 */
const packagedCore = () => new URL('seqorder/seqorder_core.wasm', import.meta.url);

/** The relaxed build's modules, as seqorder/relaxed names them: { core, kernel } (URLs), or empty. */
const relaxedFiles = {};

/** Called by seqorder/relaxed (relaxed.mjs) with the URLs of the relaxed build's modules: { core, kernel }. */
export function provideRelaxed(files) {
  Object.assign(relaxedFiles, files);
}

/** The packaged main module of a build. */
function packagedUrl(build) {
  return build === 'relaxed' ? relaxedFiles.core ?? new URL(FILES.relaxed, packagedCore()) : packagedCore();
}

/** The kernel module of the pool's shared-memory workers for each build (src/bindings/kernel.cpp, pool/shared.mjs). */
const KERNEL_FILES = { simd128: 'seqorder_kernel.wasm', relaxed: 'seqorder_kernel_relaxed.wasm' };

/**
 * The kernel module of `build` for a main module that came from `url` (compileSeqorder's): for the packaged one, the
 * packaged kernel (`packagedKernel`, as seqorder/pool names it, for the default build; seqorder/relaxed's for the
 * relaxed one), else the file of that name beside it; for any other, the file of that name in the same folder.
 * undefined for a main module given as bytes (options.wasmBinary).
 */
export function kernelUrl(build, url, packagedKernel) {
  if (url === undefined) return undefined;
  if (url.href === packagedUrl(build).href) {
    const packaged = build === 'relaxed' ? relaxedFiles.kernel : packagedKernel;
    return packaged ?? new URL(KERNEL_FILES[build], url);
  }
  return new URL(KERNEL_FILES[build], url);
}

/** Fetches and compiles a module, with loadSeqorder's errors: for the kernel module (kernelUrl). */
export async function compileModule(url) {
  return fetchAndCompile(url);
}

/** The module's bytes at `url`: fetched, or read from disk for a file: URL under node (whose fetch cannot read files). */
async function fetchBytes(url) {
  if (url.protocol === 'file:' && isNode) {
    let bytes;
    try {
      bytes = await (await nodeModule('fs/promises')).readFile(url);
    } catch (cause) {
      throw loadError(url, `reading it failed (${cause.message}). ${FIX}`, cause);
    }
    checkMagic(bytes, url);
    return bytes;
  }
  return responseBytes(await fetchResponse(url), url);
}

/** The successful response for `url` (an http(s) URL), or loadSeqorder's error saying what went wrong. */
async function fetchResponse(url) {
  if (url.protocol === 'file:')
    throw loadError(url, 'browsers do not fetch file: URLs: serve the page over http (any static server will do).');
  let response;
  try {
    response = await fetch(url, { credentials: 'same-origin' });
  } catch (cause) {
    throw loadError(url, `fetching it failed (${cause.message}). ${FIX}`, cause);
  }
  if (!response.ok) throw loadError(url, `the server answered ${statusOf(response)}. ${FIX}`);
  return response;
}

const statusOf = (response) => `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;

/** A response's body, checked to be a WebAssembly module (else the error says what came instead). */
async function responseBytes(response, url) {
  const bytes = await response.arrayBuffer();
  checkMagic(bytes, url, `the server answered ${statusOf(response)}, ${response.headers.get('content-type') || 'no content type'}, and `);
  return bytes;
}

/**
 * Fetches and compiles the module at `url`. Served over http(s) as application/wasm where the engine streams
 * (WebAssembly.compileStreaming), it compiles while its bytes arrive; when that compile fails, the bytes (a copy of
 * the response) say why, as for any other answer, which goes through the bytes.
 */
async function fetchAndCompile(url) {
  if (url.protocol === 'file:' || typeof WebAssembly.compileStreaming !== 'function') return compile(await fetchBytes(url), url);
  const response = await fetchResponse(url);
  if (!/^application\/wasm\b/i.test(response.headers.get('content-type') ?? '')) return compile(await responseBytes(response, url), url);
  const copy = response.clone();
  try {
    return await WebAssembly.compileStreaming(response);
  } catch {
    return compile(await responseBytes(copy, url), url); // throws loadSeqorder's error for these bytes
  }
}

/** Every WebAssembly module starts with \0asm; a server that answers a missing file with its index.html does not. */
function checkMagic(bytes, url, answer = '') {
  const head = new Uint8Array(ArrayBuffer.isView(bytes) ? bytes.buffer : bytes, bytes.byteOffset ?? 0, Math.min(bytes.byteLength, 16));
  if (head[0] === 0x00 && head[1] === 0x61 && head[2] === 0x73 && head[3] === 0x6d) return;
  const start = String.fromCharCode(...head).replace(/[^\x20-\x7e]/g, '.');
  const page = /^\s*</.test(start) ? ' (a web page: likely the server\'s fallback for a file it does not have)' : '';
  throw loadError(url, `${answer}its first bytes are "${start}"${page}, not a WebAssembly module's "\\0asm".${url ? ` ${FIX}` : ''}`);
}

function loadError(url, reason, cause) {
  const source = url ? `from ${url}` : 'from options.wasmBinary';
  return new Error(`seqorder: the WebAssembly module could not be loaded ${source}: ${reason}`, cause === undefined ? undefined : { cause });
}

/** Compiles the module's bytes; a failure says why (the page's Content-Security-Policy, often). */
async function compile(bytes, url) {
  try {
    return await WebAssembly.compile(bytes);
  } catch (cause) {
    const csp = /unsafe-eval|Content.Security/i.test(cause.message)
      ? ' The page\'s Content-Security-Policy must allow WebAssembly: script-src \'self\' \'wasm-unsafe-eval\'.' : '';
    throw loadError(url, `it does not compile in this engine (${cause.message}).${csp}`, cause);
  }
}

/**
 * Runs Emscripten's glue on a new instance of the compiled module: the binding's functions, each taking one arguments
 * object (binding.mjs), and the heap (what makeApi takes). `url` (a string or URL, or undefined for bytes the caller gave) only names the module in errors.
 */
export async function instantiateCore(compiled, url) {
  let fail;
  const failed = new Promise((resolve, reject) => { fail = reject; });
  const core = createCore({
    instantiateWasm(imports, receiveInstance) {
      WebAssembly.instantiate(compiled, imports).then((instance) => receiveInstance(instance, compiled))
        .catch((cause) => fail(loadError(url, `it does not instantiate (${cause.message}): is it this version's module?`, cause)));
      return {};  // the exports arrive later, through receiveInstance
    },
  });
  return bindCalls(await Promise.race([core, failed]));
}

/**
 * Reads loadSeqorder's options, then finds, fetches and compiles the module: { compiled (a WebAssembly.Module), url
 * (where it came from; undefined for wasmBinary) }. The pool compiles once here and sends the compiled module to its
 * workers.
 */
export async function compileSeqorder(options) {
  const { wasmBinary, wasmUrl, simd = 'simd128' } = readOptions('options', options, ['wasmBinary', 'wasmUrl', 'simd']);
  if (wasmBinary !== undefined && !(wasmBinary instanceof ArrayBuffer || ArrayBuffer.isView(wasmBinary)))
    throw new TypeError('options.wasmBinary must be an ArrayBuffer or a typed array of the module\'s bytes');
  if (wasmUrl !== undefined && typeof wasmUrl !== 'string' && !(wasmUrl instanceof URL))
    throw new TypeError('options.wasmUrl must be a string or a URL: the .wasm file, or a folder ending in \'/\'');
  readChoice('options.simd', simd, ['simd128', 'relaxed']);
  if (wasmBinary !== undefined && wasmUrl !== undefined)
    throw new RangeError('options.wasmBinary and options.wasmUrl both say where the module is: give one');
  if (simd === 'relaxed' && wasmBinary !== undefined)
    throw new RangeError('options.simd: \'relaxed\' chooses the module itself; it cannot be combined with options.wasmBinary (whose module says its build)');
  const build = simd === 'relaxed' && relaxedSimdSupported() ? 'relaxed' : 'simd128';
  let url;
  if (wasmUrl !== undefined) {
    url = await resolveUrl('options.wasmUrl', wasmUrl);
    if (url.pathname.endsWith('/')) url = new URL(FILES[build], url);
    else if (simd === 'relaxed')
      throw new RangeError(`options.simd: 'relaxed' chooses the module itself: options.wasmUrl must then be the folder of both modules (ending in '/'), got ${url}`);
  } else if (wasmBinary === undefined) {
    url = packagedUrl(build);
  }
  if (wasmBinary !== undefined) checkMagic(wasmBinary);
  if (wasmBinary !== undefined) return { compiled: await compile(wasmBinary, url), url };
  const compiled = await fetchAndCompile(url).catch((error) => {
    if (build === 'relaxed' && wasmUrl === undefined && relaxedFiles.core === undefined) {
      error.message += ' In an app built by a bundler, import \'seqorder/relaxed\' (once, anywhere) so that it emits the '
        + 'relaxed build\'s modules, as it emits the default one.';
    }
    throw error;
  });
  return { compiled, url };
}

/**
 * Loads the WebAssembly module and returns the API. Each call makes an independent instance.
 * simd: 'simd128' (the default: results bit-identical in every engine) or 'relaxed' (relaxed SIMD's multiply-add
 * where the engine supports it, else the default module; results may differ between engines by float32 rounding).
 * The API's `build` says which module runs.
 * wasmUrl: where the module is (a file, or a folder ending in '/' that holds both builds); wasmBinary: its bytes.
 * @param {{ wasmBinary?: ArrayBuffer | ArrayBufferView, wasmUrl?: string | URL, simd?: 'simd128' | 'relaxed' }} [options]
 */
export async function loadSeqorder(options) {
  const { compiled, url } = await compileSeqorder(options);
  return makeApi(await instantiateCore(compiled, url));
}
