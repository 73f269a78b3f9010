// The host the package runs in: node or a browser (or a worker of either), node's own modules when it is node, and
// where a relative URL leads there. Nothing here loads the WebAssembly module, so the pool's protocol and shared
// memory can ask without importing it.

export const isNode = typeof process === 'object' && typeof process.versions?.node === 'string' && typeof window === 'undefined';

/** node's own modules, imported only under node, in a form bundlers for the web leave alone (and do not warn about). */
export function nodeModule(name) {
  return import(/* webpackIgnore: true */ /* @vite-ignore */ ['node', name].join(':'));
}

/**
 * A URL option (options.wasmUrl, options.workerUrl) as a URL: relative strings are resolved against the page (or the
 * worker's script) in browsers, the working folder in node (where a string may be a file path). `name` names it in
 * the RangeError for a string that is neither.
 */
export async function resolveUrl(name, value) {
  let base;
  if (isNode) base = (await nodeModule('url')).pathToFileURL(`${process.cwd()}/`);
  else base = globalThis.document?.baseURI ?? globalThis.location?.href;
  try {
    return new URL(value, base);
  } catch (cause) {
    throw new RangeError(`${name} must be a URL or a path, got ${JSON.stringify(String(value))}`, { cause });
  }
}
