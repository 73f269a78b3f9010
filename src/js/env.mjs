// The host the package runs in: node or a browser (or a worker of either), and node's own modules when it is node.
// Nothing here loads the WebAssembly module, so the pool's protocol and shared memory can ask without importing it.

export const isNode = typeof process === 'object' && typeof process.versions?.node === 'string' && typeof window === 'undefined';

/** node's own modules, imported only under node, in a form bundlers for the web leave alone (and do not warn about). */
export function nodeModule(name) {
  return import(/* webpackIgnore: true */ /* @vite-ignore */ ['node', name].join(':'));
}
