// A module Worker that runs heavy experiments off the page's main thread, so sliders and scrolling never freeze.
// It loads its own instance of seqorder and answers { id, module, name, args } with { id, result } or { id, error },
// where module is a path relative to this file ('./experiments/positions.mjs') and name an exported function
// called as fn(so, ...args). Results travel by structured clone (typed arrays included). See worker-client.mjs.
import { loadSeqorder } from '../lib/seqorder.mjs';

const ready = loadSeqorder();

self.addEventListener('message', async ({ data: { id, module, name, args = [] } }) => {
  try {
    const so = await ready;
    const exports = await import(module);
    if (typeof exports[name] !== 'function') throw new TypeError(`${module} exports no function ${name}`);
    self.postMessage({ id, result: await exports[name](so, ...args) });
  } catch (error) {
    self.postMessage({ id, error: String(error?.message ?? error) });
  }
});
