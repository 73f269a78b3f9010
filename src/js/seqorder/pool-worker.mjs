// A worker of the pool (../pool.mjs): one instance of the module, and the ops it runs for the main thread (the
// protocol: ../workers.mjs, which also says how to add an op). It sits in seqorder/, beside the .wasm files, for the
// same reason they do: see workerStarter in ../pool.mjs.
import { makeApi } from '../api.mjs';
import { instantiateCore } from '../load.mjs';
import { serve } from '../workers.mjs';

let so = null;  // this worker's instance of the module (op 'load')

/** Whether this worker's instance refuses every call (it stopped after an internal error). */
function stopped() {
  try {
    so?.memoryStats();
    return false;
  } catch {
    return true;
  }
}

/** The ArrayBuffers of a result (a tensor, or attention's four steps), to move them back rather than copy them. */
const buffersOf = (result) => ('data' in result ? [result] : Object.values(result)).map((t) => t.data.buffer);

const ops = {
  /** module: the WebAssembly.Module the main thread compiled; url: where it came from (for messages). → its build */
  async load({ module, url }) {
    so = makeApi(await instantiateCore(module, url));
    return { value: so.build };
  },

  /**
   * calls: [{ q, k, v, options }], run in turn with so.attention → { results (in order), inputs }: the buffers of q, k
   * and v go back too, for the main thread to reuse (all but shared memory, which cannot be moved).
   */
  attention({ calls }) {
    const results = calls.map(({ q, k, v, options }) => so.attention(q, k, v, options));
    const inputs = [...new Set(calls.flatMap(({ q, k, v }) => [q.data.buffer, k.data.buffer, v.data.buffer]))]
      .filter((buffer) => buffer instanceof ArrayBuffer);
    return { value: { results, inputs }, transfer: [...new Set([...results.flatMap(buffersOf), ...inputs])] };
  },
};

serve(ops, { fatal: stopped });
