// A module Worker that runs heavy experiments off the page's main thread, so sliders and scrolling never freeze.
// It speaks the package's worker protocol (lib/pool/protocol.mjs): op 'load' loads its own instance of seqorder, and
// op 'run' ({ module, name, args }) calls fn(so, ...args), where module is a path relative to this file
// ('./experiments/norm.mjs') and name an exported function; its result travels back by structured clone (typed
// arrays included). See worker-client.mjs.
import { loadSeqorder } from '../lib/seqorder.mjs';
import { serve } from '../lib/pool/protocol.mjs';

let so = null;

serve({
  async load() {
    so = await loadSeqorder();
    return { value: so.build };
  },
  async run({ module, name, args = [] }) {
    const exports = await import(module);
    if (typeof exports[name] !== 'function') throw new TypeError(`${module} exports no function ${name}`);
    return { value: await exports[name](so, ...args) };
  },
});
