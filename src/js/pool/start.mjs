// How the pool starts a worker: which script (the package's seqorder/pool-worker.mjs, or options.workerUrl), and how,
// so that bundlers find it, node runs it, and a page may load the package from another origin (a CDN).
//
// A page cannot start a worker from a script on another origin (Chromium throws a SecurityError). Such a script is
// started from a same-origin Blob instead, a module of one line, `import '<the script's URL>';`, which the worker
// runs on the page's origin: the script and what it imports are fetched with CORS (a CDN answers with
// Access-Control-Allow-Origin), and they load the rest relative to their own URL as usual. A page whose
// Content-Security-Policy says where workers may come from (worker-src, else child-src, else script-src) must then
// allow blob: and the script's origin there (a module worker's imports are checked as workers are); options.workerUrl
// pointing at a same-origin copy of the worker script needs no such change.
import { isNode, nodeModule, resolveUrl } from '../env.mjs';

/**
 * The packaged worker script (the literal in index.mjs must say the same), through expressions bundlers leave alone:
 * they would bundle it for nothing, or warn about a dependency they cannot resolve.
 */
const here = import.meta.url;
const packaged = () => new URL('seqorder/pool-worker.mjs', here);

/**
 * Reads options.workerUrl: undefined (the packaged script), or a string or URL of the worker script (pool-worker.mjs,
 * or a bundle of it), relative ones resolved against the page, or the working folder in node, where it must be a file.
 */
export async function readWorkerUrl(workerUrl) {
  if (workerUrl === undefined) return undefined;
  if (typeof workerUrl !== 'string' && !(workerUrl instanceof URL))
    throw new TypeError('options.workerUrl must be a string or a URL: the pool\'s worker script (the package\'s pool-worker.mjs)');
  const url = await resolveUrl('options.workerUrl', workerUrl);
  if (isNode && url.protocol !== 'file:')
    throw new RangeError(`options.workerUrl must be a file in node (a path, or a file: URL), got ${url}`);
  return url;
}

/** Whether a worker from `url` would run on another origin than this page's (or this worker's). */
const otherOrigin = (url) => (url.protocol === 'http:' || url.protocol === 'https:') && url.origin !== globalThis.location?.origin;

const FIX = 'Serve the package\'s pool/seqorder/pool-worker.mjs there (with what it imports), or say where it is: '
  + 'loadSeqorderPool({ workerUrl: \'/path/to/pool-worker.mjs\' }).';

/**
 * What starts the pool's workers: { start() (a new Worker of either kind), script (its URL, for messages), fix (what to
 * do when it does not start), release() (frees what start() holds: a Blob's URL) }. `url`: readWorkerUrl's.
 * startPackaged: a Web Worker of the packaged script as seqorder/pool starts it (index.mjs: an expression bundlers
 * build), or undefined: the script beside this file, and `bundled` (what a bundled app is told) joins the fix.
 */
export async function workerStarter(url, startPackaged, bundled) {
  if (isNode) return nodeStarter(url ?? packaged());
  return browserStarter(url, startPackaged, bundled);
}

async function nodeStarter(file) {
  const { Worker } = await nodeModule('worker_threads');
  // node's flags carry over to the workers, but for --input-type, which only applies to a main script given as a
  // string and stops a worker from starting. (Listing flags for a worker is only done then: V8's, such as
  // --experimental-wasm-relaxed-simd, are refused in such a list, though they apply to workers without one.)
  const flags = process.execArgv.filter((flag) => !flag.startsWith('--input-type'));
  const options = flags.length < process.execArgv.length ? { execArgv: flags } : {};
  return { start: () => new Worker(file, options), script: file.href, fix: FIX, release: () => {} };
}

/**
 * The packaged script is started by seqorder/pool's startPackaged, an expression written the way bundlers look for it
 * (index.mjs), else from packaged(). Whether it is on another origin is decided on packaged().
 */
function browserStarter(given, startPackaged, bundled) {
  const url = given ?? packaged();
  if (otherOrigin(url)) {
    const blob = URL.createObjectURL(new Blob([`import ${JSON.stringify(url.href)};\n`], { type: 'text/javascript' }));
    return {
      start: () => new Worker(blob, { type: 'module' }),
      script: `${url.href}, another origin's, through a same-origin Blob`,
      fix: 'A script on another origin must be served with CORS (Access-Control-Allow-Origin), and a Content-Security-Policy '
        + `must allow workers from blob: and from ${url.origin} (worker-src). ${FIX}`,
      release: () => URL.revokeObjectURL(blob),
    };
  }
  const start = given
    ? () => new Worker(given, { type: 'module' })
    : startPackaged ?? (() => new Worker(url, { type: 'module' }));
  const fix = given || startPackaged ? FIX : `${FIX} ${bundled}`;
  return { start, script: url.href, fix, release: () => {} };
}
