// The model module's instance behind one API instance (api.mjs): started (load.mjs's startModel: compiled and
// instantiated synchronously) by the first call that needs a model, so that an app that makes none never compiles it.
// A failing call changes nothing: an instance that the call which started it failed on is dropped again (the module
// stays compiled), and one a call succeeded on is kept. Its heap counts in memoryStats() from then on: its size, and
// the bytes its calls hold (what its start-up holds, the same in every instance, is left out, so that allocatedBytes
// returns to where it was before the first model once every model is disposed).
import { heapRunner } from './heap.mjs';
import { makeModelApi } from './model.mjs';

const NONE = Object.freeze({ allocatedBytes: 0, heapBytes: 0 });

/** `start` makes a new bound instance of the model module (or throws why it cannot). */
export function modelModule(start) {
  let current = null;  // { api: makeModelApi's, memoryStats, startup: the bytes its start-up holds }

  return {
    /** work(api), api being makeModelApi's over the instance, which is started first if there is none. */
    use(work) {
      const fresh = current === null;
      if (fresh) {
        const core = start();
        const { run, memoryStats } = heapRunner(core);
        current = { api: makeModelApi(core, run), memoryStats, startup: core.allocatedBytes() };
      }
      try {
        return work(current.api);
      } catch (error) {
        if (fresh) current = null;
        throw error;
      }
    },

    /** The instance's heap: { allocatedBytes (beyond its start-up's), heapBytes }; nothing before it is started. */
    memoryStats() {
      if (current === null) return NONE;
      const { allocatedBytes, heapBytes } = current.memoryStats();
      return { allocatedBytes: allocatedBytes - current.startup, heapBytes };
    },
  };
}
