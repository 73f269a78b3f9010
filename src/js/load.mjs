// Finding, fetching, compiling and instantiating the WebAssembly modules: loadSeqorder() from 'seqorder', and, in
// parts, seqorder/model (model-module.mjs) and the pool. Two modules make the API: the main module
// (seqorder_core.wasm: positions, attention, the tasks), and the model module (seqorder_model.wasm: createModel's
// models), which only an app that asks for it loads (seqorder/model: its loadSeqorder, or loadModelModule(so) later),
// so that an app that makes no model fetches and compiles only the main module, and its bundler emits only that.
//
// Where the main module is looked for, in this order: options.wasmBinary (the bytes themselves), options.wasmUrl (a
// file, or a folder ending in '/'), else the folder `seqorder/` beside this file. The model module: options.
// modelWasmBinary, options.modelWasmUrl, else beside the main module (in the folder of options.wasmUrl), else the file
// seqorder/model names (model-file.mjs), or the folder `seqorder/` beside this file. Bytes are fetched (read from disk
// in node), their first four bytes checked, compiled, and the instance handed to Emscripten's glue through its
// instantiateWasm hook, so every failure says which URL was asked for and what to do about it. A module fetched from a
// URL is compiled once on a page (compiledFrom): another loadSeqorder, the pool and its workers reuse it.
import createCore from './seqorder_core.mjs';
import { makeApi } from './api.mjs';
import { bindCalls } from './binding.mjs';
import { readChoice, readOptions } from './arguments.mjs';
import { docsUrl } from './docs-url.mjs';
import { isNode, nodeModule, resolveUrl } from './env.mjs';

/** The main module's file of each build. */
const FILES = { simd128: 'seqorder_core.wasm', relaxed: 'seqorder_core_relaxed.wasm' };
/** The model module's file of each build. */
const MODEL_FILES = { simd128: 'seqorder_model.wasm', relaxed: 'seqorder_model_relaxed.wasm' };

/**
 * Each module as the errors name it: `name`, the option of its bytes (`bytes`), and what to do when it cannot be
 * loaded from a URL (`fix`).
 */
const MAIN = {
  name: 'the WebAssembly module',
  bytes: 'options.wasmBinary',
  fix: 'Serve the package\'s dist/lib/seqorder/ folder at that URL, or say where the module is: '
    + 'loadSeqorder({ wasmUrl: \'/path/to/seqorder_core.wasm\' }) (or a folder URL ending in \'/\'); '
    + `see ${docsUrl('apps.md', 'where-the-wasm-files-are')}`,
};
export const MODEL = {
  name: 'the model module',
  bytes: 'options.modelWasmBinary',
  fix: 'Serve the package\'s dist/lib/seqorder/ folder at that URL (the model module beside the main one), or say '
    + 'where the model module is: loadSeqorder({ modelWasmUrl: \'/path/to/seqorder_model.wasm\' }) (or a folder URL '
    + `ending in '/'); see ${docsUrl('apps.md', 'where-the-wasm-files-are')}`,
};

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
 * Bundlers emit only the files an app's code names. The default main module is named here, as a literal URL
 * expression relative to import.meta.url that bundlers (Vite, webpack) find: `seqorder/` is the folder beside this file
 * (what browsers, node and bundlers resolve first) and also the package's name with the file among its exports (what
 * Vite resolves from its pre-bundled copy in node_modules/.vite/deps/, where the relative path leads nowhere). The
 * other modules are named where they are used, the same way: the model module by seqorder/model and seqorder/pool
 * (model-file.mjs), the relaxed build's by seqorder/relaxed (relaxed.mjs, which an app imports to use it: it hands
 * its URLs to provideRelaxed), the pool's worker by seqorder/pool (pool/index.mjs, which hands it to the pool).
 * Without them (an app that did not import seqorder/relaxed; the pool reached through seqorder), those modules are
 * looked for beside the default one (`besideCore`, an expression bundlers leave alone): where the package's folder is
 * served as it is (node, a static folder), they are there.
 */
const packagedCore = () => new URL('seqorder/seqorder_core.wasm', import.meta.url);
const here = import.meta.url;
const besideCore = (file) => new URL(`seqorder/${file}`, here);

/** The relaxed build's modules, as seqorder/relaxed names them: { core, model } (URLs), or empty. */
const relaxedFiles = {};

/** Called by seqorder/relaxed (relaxed.mjs) with the URLs of the relaxed build's modules: { core, model }. */
export function provideRelaxed(files) {
  Object.assign(relaxedFiles, files);
}

/** The packaged main module of a build. */
function packagedUrl(build) {
  return build === 'relaxed' ? relaxedFiles.core ?? new URL(FILES.relaxed, packagedCore()) : packagedCore();
}

/**
 * The URL of the model module `source` says (readLoadOptions's `model`): the one given or beside options.wasmUrl's
 * module, or the packaged one of its build: `packaged` (the default build's, as the caller's entry point names it:
 * model-file.mjs) or the file beside the main module. undefined for bytes (options.modelWasmBinary).
 */
function modelUrl(source, packaged) {
  if (source.bytes !== undefined || source.url !== undefined) return source.url;
  const model = packaged ?? besideCore(MODEL_FILES.simd128);
  return source.build === 'relaxed' ? relaxedFiles.model ?? new URL(MODEL_FILES.relaxed, model) : model;
}

/**
 * The model module that `source` (readLoadOptions's `model`) says where to find, fetched and compiled: { compiled,
 * url } (url: undefined for options.modelWasmBinary), or a rejection with loadSeqorder's error. `packaged`: the default
 * build's packaged file, as the caller's entry point names it for bundlers (model-file.mjs).
 */
export async function compileModelModule(source, packaged) {
  const url = modelUrl(source, packaged);
  if (url !== undefined) return { compiled: await compiledFrom(url, MODEL), url };
  checkMagic(source.bytes, undefined, '', MODEL);
  return { compiled: await compile(source.bytes, undefined, MODEL), url };
}

/** Each module fetched from a URL on this page (or worker, or node process), as a promise of it compiled: by href. */
const compiledAt = new Map();

/**
 * The module `source` (MAIN or MODEL) at `url`, fetched and compiled once (fetchAndCompile): a later call for the same
 * URL (another loadSeqorder, the pool) gets the same WebAssembly.Module, which every instance may share. One that
 * failed is fetched again next time.
 */
function compiledFrom(url, source = MAIN) {
  let compiling = compiledAt.get(url.href);
  if (compiling === undefined) {
    compiling = fetchAndCompile(url, source);
    compiledAt.set(url.href, compiling);
    compiling.catch(() => compiledAt.delete(url.href));
  }
  return compiling;
}

/**
 * The bytes of the module `source` (MAIN or MODEL) at `url`: fetched, or read from disk for a file: URL under node
 * (whose fetch cannot read files).
 */
async function fetchBytes(url, source = MAIN) {
  if (url.protocol === 'file:' && isNode) {
    let bytes;
    try {
      bytes = await (await nodeModule('fs/promises')).readFile(url);
    } catch (cause) {
      throw loadError(url, `reading it failed (${cause.message}). ${source.fix}`, cause, source);
    }
    checkMagic(bytes, url, '', source);
    return bytes;
  }
  return responseBytes(await fetchResponse(url, source), url, source);
}

/** The successful response for `url` (an http(s) URL), or loadSeqorder's error saying what went wrong. */
async function fetchResponse(url, source = MAIN) {
  if (url.protocol === 'file:')
    throw loadError(url, 'browsers do not fetch file: URLs: serve the page over http (any static server will do).', undefined, source);
  let response;
  try {
    response = await fetch(url, { credentials: 'same-origin' });
  } catch (cause) {
    throw loadError(url, `fetching it failed (${cause.message}). ${source.fix}`, cause, source);
  }
  if (!response.ok) throw loadError(url, `the server answered ${statusOf(response)}. ${source.fix}`, undefined, source);
  return response;
}

const statusOf = (response) => `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;

/** A response's body, checked to be a WebAssembly module (else the error says what came instead). */
async function responseBytes(response, url, source = MAIN) {
  const bytes = await response.arrayBuffer();
  checkMagic(bytes, url, `the server answered ${statusOf(response)}, ${response.headers.get('content-type') || 'no content type'}, and `, source);
  return bytes;
}

/**
 * Fetches and compiles the module at `url`. Served over http(s) as application/wasm where the engine streams
 * (WebAssembly.compileStreaming), it compiles while its bytes arrive; when that compile fails, the bytes (a copy of
 * the response) say why, as for any other answer, which goes through the bytes.
 */
async function fetchAndCompile(url, source = MAIN) {
  if (url.protocol === 'file:' || typeof WebAssembly.compileStreaming !== 'function') return compile(await fetchBytes(url, source), url, source);
  const response = await fetchResponse(url, source);
  if (!/^application\/wasm\b/i.test(response.headers.get('content-type') ?? '')) return compile(await responseBytes(response, url, source), url, source);
  const copy = response.clone();
  try {
    return await WebAssembly.compileStreaming(response);
  } catch {
    return compile(await responseBytes(copy, url, source), url, source); // throws loadSeqorder's error for these bytes
  }
}

/** Every WebAssembly module starts with \0asm; a server that answers a missing file with its index.html does not. */
function checkMagic(bytes, url, answer = '', source = MAIN) {
  const head = new Uint8Array(ArrayBuffer.isView(bytes) ? bytes.buffer : bytes, bytes.byteOffset ?? 0, Math.min(bytes.byteLength, 16));
  if (head[0] === 0x00 && head[1] === 0x61 && head[2] === 0x73 && head[3] === 0x6d) return;
  const start = String.fromCharCode(...head).replace(/[^\x20-\x7e]/g, '.');
  const page = /^\s*</.test(start) ? ' (a web page: likely the server\'s fallback for a file it does not have)' : '';
  throw loadError(url, `${answer}its first bytes are "${start}"${page}, not a WebAssembly module's "\\0asm".${url ? ` ${source.fix}` : ''}`, undefined, source);
}

/** The Error of a module (MAIN or MODEL) that could not be loaded from `url` (undefined: from its bytes option). */
export function loadError(url, reason, cause, source = MAIN) {
  const from = url ? `from ${url}` : `from ${source.bytes}`;
  return new Error(`seqorder: ${source.name} could not be loaded ${from}: ${reason}`, cause === undefined ? undefined : { cause });
}

/** The Error of bytes that do not compile: why (the page's Content-Security-Policy, often). */
export function compileError(cause, url, source = MAIN) {
  const csp = /unsafe-eval|Content.Security/i.test(cause.message)
    ? ' The page\'s Content-Security-Policy must allow WebAssembly: script-src \'self\' \'wasm-unsafe-eval\'.' : '';
  return loadError(url, `it does not compile in this engine (${cause.message}).${csp}`, cause, source);
}

/** Compiles the module's bytes; a failure says why. */
async function compile(bytes, url, source = MAIN) {
  try {
    return await WebAssembly.compile(bytes);
  } catch (cause) {
    throw compileError(cause, url, source);
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
  return known(compiled, bindCalls(await Promise.race([core, failed])));
}

/**
 * Runs the Emscripten factory `create` (a module's glue) on an instance of `compiled` made synchronously: the glue is
 * handed an instance made on the spot, so the factory has run its start-up before it returns, and the object given to
 * it is the module. → { module, exports (the instance's, or {} when there is none), failure (what was thrown, if
 * anything: making the instance, or the glue's start-up) }
 */
export function startNow(create, compiled) {
  let failure;
  let exports = {};
  const module = {
    instantiateWasm(imports, receiveInstance) {
      try {
        const instance = new WebAssembly.Instance(compiled, imports);
        exports = instance.exports;
        receiveInstance(instance, compiled);
        return instance.exports;
      } catch (cause) {
        failure = cause;
        return {};  // (the glue then waits for an instance that never comes: nothing more runs)
      }
    },
  };
  try {
    create(module).catch(() => {});  // its promise: resolved by now, or never settled
  } catch (cause) {
    failure ??= cause;
  }
  return { module, exports, failure };
}

/** instantiateCore's instance, made synchronously (startNow), for a caller that must not wait: the pool's first check of a call. */
export function instantiateCoreNow(compiled, url) {
  const { module, failure } = startNow(createCore, compiled);
  if (failure !== undefined) throw loadError(url, `it does not instantiate (${failure.message}): is it this version's module?`, failure);
  return known(compiled, bindCalls(module));
}

/** `core`, a new bound instance of `compiled`, after noting what the module says of itself (knownModule). */
function known(compiled, core) {
  if (!instantiated.has(compiled)) instantiated.set(compiled, { build: core.build(), maxTensorBytes: core.maxTensorBytes() });
  return core;
}

/** What each compiled main module said of itself when an instance of it was first made on this thread. */
const instantiated = new WeakMap();

/**
 * { build, maxTensorBytes } of the compiled main module `compiled`, as its first instance on this thread said them
 * (instantiateCore), or undefined when none has been made here: what the pool knows of a module without an instance
 * of its own.
 */
export const knownModule = (compiled) => instantiated.get(compiled);

/** loadSeqorder's options (the pool's too, beside its own). */
export const LOAD_OPTIONS = ['wasmBinary', 'wasmUrl', 'simd', 'modelWasmBinary', 'modelWasmUrl'];

/** options.wasmBinary or options.modelWasmBinary: undefined, or bytes. */
function readBytes(name, value, what) {
  if (value !== undefined && !(value instanceof ArrayBuffer || ArrayBuffer.isView(value)))
    throw new TypeError(`${name} must be an ArrayBuffer or a typed array of ${what}'s bytes`);
}

/** options.wasmUrl or options.modelWasmUrl: undefined, or a string or a URL. */
function readUrl(name, value, what) {
  if (value !== undefined && typeof value !== 'string' && !(value instanceof URL))
    throw new TypeError(`${name} must be a string or a URL: ${what}'s .wasm file, or a folder ending in '/'`);
}

/**
 * The URL of the module `files[build]` that options.wasmUrl or options.modelWasmUrl (`name`) gives: a folder's file of
 * that name, or the file itself (not with simd: 'relaxed', which chooses the file). undefined when not given.
 */
async function givenUrl(name, value, files, build, simd, both) {
  if (value === undefined) return undefined;
  const url = await resolveUrl(name, value);
  if (url.pathname.endsWith('/')) return new URL(files[build], url);
  if (simd === 'relaxed')
    throw new RangeError(`options.simd: 'relaxed' chooses the module itself: ${name} must then be the folder of ${both} (ending in '/'), got ${url}`);
  return url;
}

/**
 * Reads loadSeqorder's options (as the pool does too, beside its own): where each module is, { build (the build the
 * options ask for, where the engine runs it), url (the main module's; undefined for wasmBinary), wasmBinary, given
 * (whether options.wasmUrl said where), model (where the model module is, for compileModelModule: { bytes }, { url }
 * or { build }, the packaged one) }. Fetches nothing.
 */
export async function readLoadOptions(options) {
  const { wasmBinary, wasmUrl, modelWasmBinary, modelWasmUrl, simd = 'simd128' } = readOptions('options', options, LOAD_OPTIONS);
  readBytes('options.wasmBinary', wasmBinary, 'the module');
  readUrl('options.wasmUrl', wasmUrl, 'the module');
  readBytes('options.modelWasmBinary', modelWasmBinary, 'the model module');
  readUrl('options.modelWasmUrl', modelWasmUrl, 'the model module');
  readChoice('options.simd', simd, ['simd128', 'relaxed']);
  if (wasmBinary !== undefined && wasmUrl !== undefined)
    throw new RangeError('options.wasmBinary and options.wasmUrl both say where the module is: give one');
  if (modelWasmBinary !== undefined && modelWasmUrl !== undefined)
    throw new RangeError('options.modelWasmBinary and options.modelWasmUrl both say where the model module is: give one');
  for (const [name, given] of [['wasmBinary', wasmBinary], ['modelWasmBinary', modelWasmBinary]]) {
    if (simd === 'relaxed' && given !== undefined)
      throw new RangeError(`options.simd: 'relaxed' chooses the module itself; it cannot be combined with options.${name} (whose module says its build)`);
  }
  const build = simd === 'relaxed' && relaxedSimdSupported() ? 'relaxed' : 'simd128';
  let url = await givenUrl('options.wasmUrl', wasmUrl, FILES, build, simd, 'both modules');
  if (url === undefined && wasmBinary === undefined) url = packagedUrl(build);
  let model = { bytes: modelWasmBinary };
  if (modelWasmBinary === undefined) {
    const modelUrl = await givenUrl('options.modelWasmUrl', modelWasmUrl, MODEL_FILES, build, simd, 'both model modules');
    if (modelUrl !== undefined) model = { url: modelUrl };
    else model = wasmUrl !== undefined ? { url: new URL(MODEL_FILES[build], url) } : { build };
  }
  return { build, url, wasmBinary, given: wasmUrl !== undefined, model };
}

/** The main module that readLoadOptions's `plan` says where to find, fetched and compiled (once a page: compiledFrom). */
export async function compileMain({ build, url, wasmBinary, given }) {
  if (wasmBinary !== undefined) {
    checkMagic(wasmBinary);
    return compile(wasmBinary, url);
  }
  return compiledFrom(url).catch((error) => {
    if (build !== 'relaxed' || given || relaxedFiles.core !== undefined) throw error;
    throw new Error(`${error.message} In an app built by a bundler, import 'seqorder/relaxed' (once, anywhere) so that `
      + 'it emits the relaxed build\'s modules, as it emits the default one.', { cause: error.cause });
  });
}

/**
 * Reads loadSeqorder's options, then finds, fetches and compiles the main module: { compiled (a WebAssembly.Module),
 * url (where it came from; undefined for wasmBinary), model (where the model module is: readLoadOptions's) }. The
 * pool compiles once here and sends the compiled modules to its workers.
 */
export async function compileSeqorder(options) {
  const plan = await readLoadOptions(options);
  return { compiled: await compileMain(plan), url: plan.url, model: plan.model };
}

/**
 * Loads the main module and returns the API (api.mjs). Each call makes an independent instance (of a module compiled
 * once a page). simd: 'simd128' (the default: results bit-identical in every engine) or 'relaxed' (relaxed SIMD's
 * multiply-add where the engine supports it, else the default modules; results may differ between engines by float32
 * rounding). The API's `build` says which modules run. wasmUrl: where the main module is (a file, or a folder ending
 * in '/' that holds both builds and the model modules); wasmBinary: its bytes. modelWasmUrl, modelWasmBinary: the
 * same for the model module, which this API loads when asked (seqorder/model's loadModelModule): its createModel
 * says so until then.
 * @param {{ wasmBinary?: ArrayBuffer | ArrayBufferView, wasmUrl?: string | URL, modelWasmBinary?: ArrayBuffer | ArrayBufferView, modelWasmUrl?: string | URL, simd?: 'simd128' | 'relaxed' }} [options]
 */
export async function loadSeqorder(options) {
  const { compiled, url, model } = await compileSeqorder(options);
  return makeApi(await instantiateCore(compiled, url), { source: model });
}
